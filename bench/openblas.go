//go:build openblas

package bench

// The OpenBLAS peer of the level-3 kernels, built only with -tags openblas (cgo and
// libopenblas-dev): BenchmarkOpenBLAS and bench/openblas.sh use it. OpenBLAS's core
// type comes from the environment (OPENBLAS_CORETYPE, read when the library loads).

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import "unsafe"

// openblasThreads sets OpenBLAS's number of threads and returns its configuration,
// core name and thread count.
func openblasThreads(n int) (config, core string, threads int) {
	C.openblas_set_num_threads(C.int(n))
	return C.GoString(C.openblas_get_config()), C.GoString(C.openblas_get_corename()), int(C.openblas_get_num_threads())
}

// openblasSyrk is cblas_dsyrk on row-major data: the upper triangle of the d×d c
// becomes alpha·AᵀA + beta·c for the k×d a.
func openblasSyrk(d, k int, alpha float64, a []float64, beta float64, c []float64) {
	C.cblas_dsyrk(C.CblasRowMajor, C.CblasUpper, C.CblasTrans, C.blasint(d), C.blasint(k),
		C.double(alpha), (*C.double)(unsafe.Pointer(&a[0])), C.blasint(d),
		C.double(beta), (*C.double)(unsafe.Pointer(&c[0])), C.blasint(d))
}

// openblasSymm is cblas_dsymm on row-major data, side right: the k×d c becomes
// alpha·B·A + beta·c for the d×d symmetric a (upper triangle) and k×d b.
func openblasSymm(d, k int, alpha float64, a, b []float64, beta float64, c []float64) {
	C.cblas_dsymm(C.CblasRowMajor, C.CblasRight, C.CblasUpper, C.blasint(k), C.blasint(d),
		C.double(alpha), (*C.double)(unsafe.Pointer(&a[0])), C.blasint(d),
		(*C.double)(unsafe.Pointer(&b[0])), C.blasint(d),
		C.double(beta), (*C.double)(unsafe.Pointer(&c[0])), C.blasint(d))
}
