package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// Backend is the CUDA kernels.Backend. Its tensors live in device memory; host data
// moves through Upload and Download only. It is safe for concurrent use (operations are
// serialised).
type Backend struct {
	mu     sync.Mutex
	dev    device
	detail string
	closed bool

	live    map[dptr]int64 // allocations not yet freed
	garbage []dptr         // allocations whose tensors were collected (guarded by gmu)
	gmu     sync.Mutex

	// scratch buffers, grown on demand
	iscr, fscr, gscr *buffer
}

var (
	_ kernels.Backend    = (*Backend)(nil)
	_ kernels.Concurrent = (*Backend)(nil)
	_ kernels.Describer  = (*Backend)(nil)
)

func newBackend(dev device) *Backend {
	return &Backend{dev: dev, detail: dev.describe(), live: map[dptr]int64{}}
}

// Name returns "cuda", the selector's name for this backend.
func (b *Backend) Name() string { return "cuda" }

// Detail describes the device, the driver and cuBLAS (kernels.Describer).
func (b *Backend) Detail() string { return b.detail }

// Concurrency reports that calls may come from several goroutines at once (they are
// serialised), but that a device failure panics on the calling goroutine
// (kernels.SafeDevicePanics).
func (b *Backend) Concurrency() kernels.Concurrency { return kernels.SafeDevicePanics }

// Close frees every tensor of the backend and releases the device; the tensors are
// invalid afterwards. Closing twice is a no-op.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	var errs []error
	for p := range b.live {
		errs = append(errs, b.dev.free(p))
	}
	b.live = nil
	errs = append(errs, b.dev.close())
	return errors.Join(errs...)
}

// Sync waits until the device has finished every operation queued so far (they run
// asynchronously on one stream; results that come back to the host, such as Dot or
// Download, wait by themselves). For timing.
func (b *Backend) Sync() {
	b.lock()
	defer b.mu.Unlock()
	must(b.dev.sync())
}

// must panics with err when it is not nil: the operations have no error results, and a
// device failure must not pass for a result.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// lock takes the backend for one operation, panicking when it is closed.
func (b *Backend) lock() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		panic("cuda: backend used after Close")
	}
}

// allocate returns a buffer of bytes for what, freeing collected tensors first. It
// panics with an *Error wrapping ErrOutOfMemory when the device is full.
func (b *Backend) allocate(what string, bytes int64) *buffer {
	buf := &buffer{b: b, bytes: bytes}
	if bytes == 0 {
		return buf
	}
	b.collect()
	p, err := b.dev.alloc(bytes)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && errors.Is(e, ErrOutOfMemory) {
			free, total, _ := b.dev.memInfo()
			panic(oomError(what, bytes, free, total))
		}
		panic(fmt.Errorf("cuda: %s: allocating %s: %w", what, humanBytes(uint64(bytes)), err))
	}
	buf.ptr = p
	b.live[p] = bytes
	runtime.AddCleanup(buf, b.release, p)
	return buf
}

// release queues p to be freed at the next allocation: cleanups run on their own
// goroutine, where the device must not be called.
func (b *Backend) release(p dptr) {
	b.gmu.Lock()
	b.garbage = append(b.garbage, p)
	b.gmu.Unlock()
}

// collect frees the queued allocations.
func (b *Backend) collect() {
	b.gmu.Lock()
	g := b.garbage
	b.garbage = nil
	b.gmu.Unlock()
	for _, p := range g {
		if _, ok := b.live[p]; ok {
			delete(b.live, p)
			must(b.dev.free(p))
		}
	}
}

// scratch returns *s grown to at least bytes.
func (b *Backend) scratch(s **buffer, bytes int64) *buffer {
	if *s == nil || (*s).bytes < bytes {
		*s = nil
		*s = b.allocate(fmt.Sprintf("scratch of %d bytes", bytes), max(bytes, 4096))
	}
	return *s
}

// NewVec allocates a zeroed vector of n elements.
func (b *Backend) NewVec(n int) kernels.Vec {
	if n < 0 {
		panic(fmt.Sprintf("kernels: NewVec(%d): negative length", n))
	}
	b.lock()
	defer b.mu.Unlock()
	v := &Vec{buf: b.allocate(fmt.Sprintf("NewVec(%d)", n), 8*int64(n)), n: n}
	b.zero(v.ptr(), 8*int64(n))
	return v
}

// NewMat allocates a zeroed rows×cols matrix.
func (b *Backend) NewMat(rows, cols int) kernels.Mat {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("kernels: NewMat(%d, %d): negative dimension", rows, cols))
	}
	b.lock()
	defer b.mu.Unlock()
	m := &Mat{buf: b.allocate(fmt.Sprintf("NewMat(%d, %d)", rows, cols), 8*int64(rows)*int64(cols)), rows: rows, cols: cols, ld: cols}
	b.zero(m.ptr(), 8*int64(rows)*int64(cols))
	return m
}

// zero clears bytes bytes from p on the device (cuMemsetD8).
func (b *Backend) zero(p dptr, bytes int64) {
	if bytes > 0 {
		must(b.dev.memset(p, bytes))
	}
}

// put copies height rows of width bytes from host src (rows spitch bytes apart) to
// device dst (rows dpitch bytes apart): one linear copy when both sides are contiguous
// (a Vec, a whole Mat), else one 2D copy when the pitches are within the device's
// maximum, else row by row (a 2D copy's pitch is at most 2³¹−1 bytes on current GPUs,
// so a one-row copy of a Vec of over 268M elements would fail).
func (b *Backend) put(dst dptr, dpitch int64, src unsafe.Pointer, spitch, width, height int64) {
	switch {
	case width == 0 || height == 0:
	case height == 1 || (width == spitch && width == dpitch):
		must(b.dev.htodLinear(dst, src, width*height))
	case max(spitch, dpitch) <= b.dev.maxPitch():
		must(b.dev.htod(dst, dpitch, src, spitch, width, height))
	default:
		for r := range height {
			must(b.dev.htodLinear(dst+dptr(r*dpitch), unsafe.Add(src, r*spitch), width))
		}
	}
}

// get is put the other way: height rows of width bytes from device src (spitch apart)
// to host dst (dpitch apart).
func (b *Backend) get(dst unsafe.Pointer, dpitch int64, src dptr, spitch, width, height int64) {
	switch {
	case width == 0 || height == 0:
	case height == 1 || (width == spitch && width == dpitch):
		must(b.dev.dtohLinear(dst, src, width*height))
	case max(spitch, dpitch) <= b.dev.maxPitch():
		must(b.dev.dtoh(dst, dpitch, src, spitch, width, height))
	default:
		for r := range height {
			must(b.dev.dtohLinear(unsafe.Add(dst, r*dpitch), src+dptr(r*spitch), width))
		}
	}
}

// Upload copies src into dst (row-major for a Mat).
func (b *Backend) Upload(dst kernels.Tensor, src []float64) {
	if dst.Len() != len(src) {
		panic(fmt.Sprintf("kernels: Upload: %d elements into a tensor of %d", len(src), dst.Len()))
	}
	b.lock()
	defer b.mu.Unlock()
	b.upload(dst, src)
}

func (b *Backend) upload(dst kernels.Tensor, src []float64) {
	if len(src) == 0 {
		switch d := dst.(type) {
		case kernels.Vec:
			b.vec(d)
		case kernels.Mat:
			b.mat(d)
		}
		return
	}
	switch d := dst.(type) {
	case kernels.Vec:
		v := b.vec(d)
		n := 8 * int64(v.n)
		b.put(v.ptr(), n, unsafe.Pointer(&src[0]), n, n, 1)
	case kernels.Mat:
		m := b.mat(d)
		w := 8 * int64(m.cols)
		b.put(m.ptr(), 8*int64(m.ld), unsafe.Pointer(&src[0]), w, w, int64(m.rows))
	default:
		panic(fmt.Sprintf("cuda: Upload: %T is not a tensor of this CUDA backend", dst))
	}
}

// Download copies src into dst (row-major for a Mat).
func (b *Backend) Download(dst []float64, src kernels.Tensor) {
	if src.Len() != len(dst) {
		panic(fmt.Sprintf("kernels: Download: a tensor of %d elements into %d", src.Len(), len(dst)))
	}
	b.lock()
	defer b.mu.Unlock()
	b.download(dst, src)
}

func (b *Backend) download(dst []float64, src kernels.Tensor) {
	if len(dst) == 0 {
		switch s := src.(type) {
		case kernels.Vec:
			b.vec(s)
		case kernels.Mat:
			b.mat(s)
		}
		return
	}
	switch s := src.(type) {
	case kernels.Vec:
		v := b.vec(s)
		n := 8 * int64(v.n)
		b.get(unsafe.Pointer(&dst[0]), n, v.ptr(), n, n, 1)
	case kernels.Mat:
		m := b.mat(s)
		w := 8 * int64(m.cols)
		b.get(unsafe.Pointer(&dst[0]), w, m.ptr(), 8*int64(m.ld), w, int64(m.rows))
	default:
		panic(fmt.Sprintf("cuda: Download: %T is not a tensor of this CUDA backend", src))
	}
}

// uploadInt32 copies the index lists one after the other into the integer scratch and
// returns the device address of each.
func (b *Backend) uploadInt32(lists ...[]int32) []dptr {
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	s := b.scratch(&b.iscr, 4*int64(total))
	out := make([]dptr, len(lists))
	off := int64(0)
	for k, l := range lists {
		out[k] = s.ptr + dptr(off)
		if len(l) > 0 {
			n := 4 * int64(len(l))
			b.put(out[k], n, unsafe.Pointer(&l[0]), n, n, 1)
			off += n
		}
	}
	return out
}

// hostVec downloads v into a host vector.
func (b *Backend) hostVec(v *Vec) *host.Vec {
	h := &host.Vec{Data: make([]float64, v.n)}
	b.download(h.Data, v)
	return h
}

// hostMat downloads m into a host matrix.
func (b *Backend) hostMat(m *Mat) *host.Mat {
	h := &host.Mat{Rows: m.rows, Cols: m.cols, Stride: m.cols, Data: make([]float64, m.rows*m.cols)}
	b.download(h.Data, m)
	return h
}

// shape is a dataless host matrix of m's shape, for the shared argument checks.
func shape(m *Mat) *host.Mat { return &host.Mat{Rows: m.rows, Cols: m.cols, Stride: m.cols} }
