// Package bench holds aucopt's benchmarks. Run and GPU are the harness of `aucopt
// bench` and `aucopt bench --gpu`: kernel operations and algorithm passes timed on
// several backends side by side, and the GPU path's workloads on epsilon-sized data.
// They live here, not in the engine, which trains, selects and scores only.
//
// The package's go test benchmarks time every kernels.Backend operation on the
// generic (pure Go) and avx2 backends (and cuda where a GPU is: each call then waits
// for the device) side by side with gonum's floats and blas64, at
// the sizes of docs/DESIGN.md, "Benchmarks" (vectors of 123, 2000 and 62061 elements; d×d matrices for
// d = 123, 780, 2000; Syrk with k = 4096), each reporting a GFLOP/s metric.
//
// Run them with
//
//	go test ./bench -run '^$' -bench . -benchtime 1s | go run ./bench/benchtable
//
// to get the Markdown table of bench/README.md with ratios to gonum and generic.
//
// BenchmarkPass times one pass of every online algorithm of solver.Registry() on both
// backends over a9a (parsed from its LIBSVM text in every iteration, so parsing is
// included) and over data.News20Like (rows generated once, outside the timer):
//
//	go test ./bench -run '^$' -bench 'Pass/^algo=(opauc|solam|spam-l2)$/' -count 5
package bench
