package data

// makeFloats allocates n zeroed float64s for a dataset's values, asking the system for
// huge pages when it has them on request (adviseHuge): filling gigabytes of fresh
// memory then faults in 2 MiB pages instead of 4 KiB ones.
func makeFloats(n int) []float64 {
	s := make([]float64, n)
	adviseHuge(rawBytes(s))
	return s
}
