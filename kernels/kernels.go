package kernels

// Vec is a dense float64 vector owned by the Backend that made it.
type Vec interface {
	// Len is the number of elements.
	Len() int
	// Slice is the view of elements [i, j), sharing storage with the receiver.
	// It panics unless 0 ≤ i ≤ j ≤ Len().
	Slice(i, j int) Vec
}

// Mat is a dense, row-major float64 matrix owned by the Backend that made it.
// Its Len is rows·cols; Upload and Download move its elements in row-major order.
type Mat interface {
	// Len is the number of elements, rows·cols.
	Len() int
	// Dims is the number of rows and columns.
	Dims() (rows, cols int)
	// Slice is the view of rows [i0, i1) and columns [j0, j1), sharing storage with the
	// receiver (its row stride is the receiver's). It panics on out-of-range bounds.
	Slice(i0, i1, j0, j1 int) Mat
	// Row is row i as a Vec view sharing storage with the receiver.
	Row(i int) Vec
}

// Tensor is a Vec or a Mat: anything Upload and Download move.
type Tensor interface {
	// Len is the number of elements.
	Len() int
}

// Sparse is a sparse vector held on the host: Val[k] is the element at index Idx[k].
// Indices are 0-based and strictly increasing; len(Idx) == len(Val).
// A backend panics if an index is out of range for the dense operand.
type Sparse struct {
	Idx []int32
	Val []float64
}

// Nnz is the number of stored elements.
func (s Sparse) Nnz() int { return len(s.Idx) }

// Backend is the set of tensor operations aucopt's solvers need, implemented once per
// compute target (pure Go, AVX2/AVX-512 assembly, CUDA). All solvers are written against
// this interface and nothing else. As gonum's blas.Float64, it is the union of small
// groups (Memory, Level1, Level2, Level3, Indexed), so that code and tests that need one
// group can ask for just that one.
//
// A Backend is not safe for concurrent use by several goroutines unless it says so by
// implementing Concurrent; concurrent calls on disjoint outputs are then fine.
type Backend interface {
	// Name is the backend's selector name: "generic", "avx2", "avx512" or "cuda".
	Name() string
	// Close releases the backend's resources; its tensors are invalid afterwards.
	Close() error

	Memory
	Level1
	Level2
	Level3
	Indexed
}

// Memory is the tensors-and-memory group: a backend's tensors are made here, and host
// data moves in and out only through Upload and Download.
type Memory interface {
	// NewVec allocates a zeroed vector of n elements.
	NewVec(n int) Vec
	// NewMat allocates a zeroed rows×cols matrix.
	NewMat(rows, cols int) Mat
	// Upload copies src into dst (row-major for a Mat); len(src) must equal dst.Len().
	Upload(dst Tensor, src []float64)
	// Download copies src into dst (row-major for a Mat); len(dst) must equal src.Len().
	Download(dst []float64, src Tensor)
	// Copy sets dst = src; the lengths must match.
	Copy(dst, src Vec)
}

// Level1 is the vector group: dense and sparse (host-held Sparse) vector operations.
type Level1 interface {
	// Dot returns
	//	Σ_i x[i]·y[i]
	Dot(x, y Vec) float64
	// Axpy computes
	//	y[i] += alpha·x[i]
	Axpy(alpha float64, x, y Vec)
	// Scal computes
	//	x[i] *= alpha
	Scal(alpha float64, x Vec)
	// DotSparse returns the gather
	//	Σ_k x.Val[k]·y[x.Idx[k]]
	DotSparse(x Sparse, y Vec) float64
	// AxpySparse computes the scatter
	//	y[x.Idx[k]] += alpha·x.Val[k]
	AxpySparse(alpha float64, x Sparse, y Vec)
}

// Level2 is the matrix–vector group.
type Level2 interface {
	// Gemv computes y = alpha·A·x + beta·y, or y = alpha·Aᵀ·x + beta·y when trans is true.
	Gemv(trans bool, alpha float64, a Mat, x Vec, beta float64, y Vec)
	// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
	Symv(alpha float64, a Mat, x Vec, beta float64, y Vec)
	// Syr computes the rank-1 update of the upper triangle of a symmetric A:
	//	A += alpha·x·xᵀ
	Syr(alpha float64, x Vec, a Mat)
	// Ger computes the general rank-1 update A += alpha·x·yᵀ (A is len(x)×len(y)).
	Ger(alpha float64, x, y Vec, a Mat)
}

// Level3 is the matrix–matrix group.
type Level3 interface {
	// Symm multiplies each row of B (k×d) by a symmetric A (d×d) stored in its upper
	// triangle: k Symvs at once, as when one covariance meets many weight vectors,
	//	C = alpha·B·A + beta·C        (C is k×d; row i is alpha·A·B[i,:] + beta·C[i,:])
	// A's strictly lower triangle is not read; with beta = 0, C is not read either. C must
	// not overlap A or B (the result is then undefined); A and B may overlap.
	Symm(alpha float64, a Mat, b Mat, beta float64, c Mat)
	// Syrk computes the rank-k update of the upper triangle of a symmetric C (d×d) by the
	// rows of A (k×d), as in covariance accumulation over k examples:
	//	C = alpha·AᵀA + beta·C
	Syrk(alpha float64, a Mat, beta float64, c Mat)
}

// Indexed is the group of operations over lists of row or element indices that stay on
// the host (mini-batches, pair blocks, dual variables): the gathers and scatters that
// let a device backend keep the data resident while only the indices travel.
type Indexed interface {
	// GemvRows is the mini-batch mat-vec over the rows of A listed in rows (any order,
	// repeats allowed): without trans
	//	y[k] = alpha·A[rows[k],:]·x + beta·y[k]        (len(y) == len(rows))
	// and with trans
	//	y = alpha·Σ_k x[k]·A[rows[k],:] + beta·y        (len(x) == len(rows))
	GemvRows(trans bool, alpha float64, a Mat, rows []int32, x Vec, beta float64, y Vec)
	// RowDiff gathers the differences of pairs of rows of A (n×d) into out (k×d), as in
	// MBA's block of positive–negative pair differences built from a resident X:
	//	out[k,:] = A[pos[k],:] − A[neg[k],:]        (len(pos) == len(neg) == k)
	// Rows may repeat. out must not overlap A.
	RowDiff(a Mat, pos, neg []int32, out Mat)
	// Gather copies the elements of x at the listed indices (any order, repeats
	// allowed), as in reading a mini-batch's dual variables from a resident vector:
	//	out[k] = x[idx[k]]        (len(out) == len(idx))
	// The copy is exact (NaN payloads and −0 included). out must not overlap x. Every
	// index is checked before out is written: after a panic out is unchanged.
	Gather(x Vec, idx []int32, out Vec)
	// ScatterAdd adds alpha·x into y at the listed indices, the inverse of Gather:
	//	y[idx[k]] += alpha·x[k]        (len(x) == len(idx))
	// The indices may come in any order but must be distinct: a repeated index is a
	// programmer error and panics (every backend checks, on the host, so that a device
	// can update each element from one thread without atomics and no result depends on
	// an order of additions). Every index is checked before y is written: after
	// a panic y is unchanged. Elements of y not indexed are not touched. y must not
	// overlap x.
	ScatterAdd(alpha float64, x Vec, idx []int32, y Vec)
}

// Splitter (an optional capability, as those of capability.go) is implemented by backends that split large operations over a pool of
// goroutines (the CPU backends). Callers that already run one job per core (CV folds,
// experiment runs) give each job a backend of one worker, so that each job's
// operands stay in its core's cache instead of bouncing between cores on every call.
type Splitter interface {
	Backend
	// WithWorkers returns a backend of the same kind, sharing no mutable state with the
	// receiver, whose operations use at most n goroutines (n ≤ 0: GOMAXPROCS). Tensors of
	// either may be passed to the other. Results do not depend on n. The caller closes it.
	WithWorkers(n int) Backend
}

// PerJob returns the backend each of jobs concurrent jobs should use, and the function
// that releases it: b itself when jobs ≤ 1 or b is not a Splitter, otherwise a new
// one-worker backend of b's kind (the jobs already fill the cores).
func PerJob(b Backend, jobs int) (Backend, func()) {
	if s, ok := b.(Splitter); ok && jobs > 1 {
		jb := s.WithWorkers(1)
		return jb, func() { _ = jb.Close() }
	}
	return b, func() {}
}
