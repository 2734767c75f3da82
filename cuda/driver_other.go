//go:build !linux || !(amd64 || arm64)

package cuda

import "runtime"

// openDevice reports that this build has no CUDA loader: purego's Dlopen, and NVIDIA's
// Linux libraries, are used on linux/amd64 and linux/arm64 only.
func openDevice(bool) (device, Discovery, error) {
	why := "not looked for: the CUDA loader is built for linux/amd64 and linux/arm64 only"
	disc := Discovery{Driver: LibrarySearch{Looked: []string{why}}, CUBLAS: LibrarySearch{Looked: []string{why}}}
	return nil, disc, unavailable("the CUDA loader is built for linux/amd64 and linux/arm64 only, not %s/%s", runtime.GOOS, runtime.GOARCH)
}
