// aucopt's own CUDA kernels, compiled to PTX by `go generate ./cuda` (nvcc -ptx for the
// virtual architecture compute_60, so that one PTX is JIT-compiled by the driver on every
// GPU from Pascal on: V100, A100, H100, H200). The generated aucopt.ptx is committed and
// embedded; building aucopt never needs nvcc.
//
// Every kernel uses grid-stride loops, so any launch shape is correct; matrices are
// row-major with a leading dimension (row stride) in elements.

extern "C" {

// rowdiff: out[r*ldo + j] = a[pos[r]*lda + j] - a[neg[r]*lda + j] for r < k, j < d.
// The MBA block of positive-negative pair differences, built from a resident X.
__global__ void aucopt_rowdiff(const double* __restrict__ a, long long lda, int d,
                               const int* __restrict__ pos, const int* __restrict__ neg, int k,
                               double* __restrict__ out, long long ldo) {
    for (int r = blockIdx.y; r < k; r += gridDim.y) {
        const double* xp = a + (long long)pos[r] * lda;
        const double* xq = a + (long long)neg[r] * lda;
        double* o = out + (long long)r * ldo;
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < d; j += blockDim.x * gridDim.x) {
            o[j] = xp[j] - xq[j];
        }
    }
}

// gatherrows: out[r*ldo + j] = a[rows[r]*lda + j]: the mini-batch of GemvRows.
__global__ void aucopt_gatherrows(const double* __restrict__ a, long long lda, int d,
                                  const int* __restrict__ rows, int k,
                                  double* __restrict__ out, long long ldo) {
    for (int r = blockIdx.y; r < k; r += gridDim.y) {
        const double* x = a + (long long)rows[r] * lda;
        double* o = out + (long long)r * ldo;
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < d; j += blockDim.x * gridDim.x) {
            o[j] = x[j];
        }
    }
}

// gather: out[i] = y[idx[i]] for i < n: the gather of DotSparse (then a cuBLAS ddot), and
// Gather (SPDAM reads its mini-batch's duals from the resident beta).
__global__ void aucopt_gather(const double* __restrict__ y, const int* __restrict__ idx, int n,
                              double* __restrict__ out) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = y[idx[i]];
    }
}

// scatter: y[idx[i]] += alpha*val[i] for i < n: AxpySparse (val uploaded) and ScatterAdd
// (val resident: SPDAM's dual update). The indices of a kernels.Sparse are strictly
// increasing and ScatterAdd's are checked distinct on the host, so no two threads write
// one element and no atomics are needed. alpha = 0 still multiplies.
__global__ void aucopt_scatter(double alpha, const double* __restrict__ val,
                               const int* __restrict__ idx, int n, double* __restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[idx[i]] += alpha * val[i];
    }
}

}
