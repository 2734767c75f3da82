//go:build linux && (amd64 || arm64)

package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// cuFuncs are the CUDA driver API functions, bound by purego (types per cuda.h:
// CUresult is int32, CUdevice int32, CUdeviceptr uint64, handles uintptr).
type cuFuncs struct {
	cuInit                       func(flags uint32) int32
	cuDriverGetVersion           func(v *int32) int32
	cuDeviceGetCount             func(n *int32) int32
	cuDeviceGet                  func(dev *int32, ordinal int32) int32
	cuDeviceGetName              func(name *byte, n int32, dev int32) int32
	cuDeviceTotalMem_v2          func(bytes *uint64, dev int32) int32
	cuDeviceGetAttribute         func(v *int32, attr int32, dev int32) int32
	cuDevicePrimaryCtxRetain     func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease_v2 func(dev int32) int32
	cuCtxSetCurrent              func(ctx uintptr) int32
	cuMemAlloc_v2                func(p *uint64, bytes uint64) int32
	cuMemFree_v2                 func(p uint64) int32
	cuMemGetInfo_v2              func(free, total *uint64) int32
	cuMemcpy2D_v2                func(p *memcpy2D) int32
	cuMemcpyHtoD_v2              func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH_v2              func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuMemsetD8_v2                func(p uint64, v uint8, n uint64) int32
	cuMemAllocHost_v2            func(p *unsafe.Pointer, bytes uint64) int32
	cuMemFreeHost                func(p unsafe.Pointer) int32
	cuMemcpyHtoDAsync_v2         func(dst uint64, src unsafe.Pointer, n uint64, stream uintptr) int32
	cuEventCreate                func(e *uintptr, flags uint32) int32
	cuEventRecord                func(e, stream uintptr) int32
	cuEventSynchronize           func(e uintptr) int32
	cuEventDestroy_v2            func(e uintptr) int32
	cuStreamCreate               func(s *uintptr, flags uint32) int32
	cuStreamSynchronize          func(s uintptr) int32
	cuStreamDestroy_v2           func(s uintptr) int32
	cuModuleLoadDataEx           func(mod *uintptr, image unsafe.Pointer, n uint32, opts *int32, vals *uintptr) int32
	cuModuleUnload               func(mod uintptr) int32
	cuModuleGetFunction          func(f *uintptr, mod uintptr, name string) int32
	cuLaunchKernel               func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, stream uintptr, params *unsafe.Pointer, extra unsafe.Pointer) int32
	cuGetErrorString             func(e int32, s **byte) int32
	cuGetErrorName               func(e int32, s **byte) int32
}

// blasFuncs are the cuBLAS functions (cublasStatus_t is int32; scalars by host
// pointer).
type blasFuncs struct {
	cublasCreate_v2         func(h *uintptr) int32
	cublasDestroy_v2        func(h uintptr) int32
	cublasGetVersion_v2     func(h uintptr, v *int32) int32
	cublasSetStream_v2      func(h, s uintptr) int32
	cublasSetPointerMode_v2 func(h uintptr, mode int32) int32
	cublasDcopy_v2          func(h uintptr, n int32, x uint64, incx int32, y uint64, incy int32) int32
	cublasDdot_v2           func(h uintptr, n int32, x uint64, incx int32, y uint64, incy int32, r *float64) int32
	cublasDaxpy_v2          func(h uintptr, n int32, alpha *float64, x uint64, incx int32, y uint64, incy int32) int32
	cublasDscal_v2          func(h uintptr, n int32, alpha *float64, x uint64, incx int32) int32
	cublasDgemv_v2          func(h uintptr, trans, m, n int32, alpha *float64, a uint64, lda int32, x uint64, incx int32, beta *float64, y uint64, incy int32) int32
	cublasDsymv_v2          func(h uintptr, uplo, n int32, alpha *float64, a uint64, lda int32, x uint64, incx int32, beta *float64, y uint64, incy int32) int32
	cublasDger_v2           func(h uintptr, m, n int32, alpha *float64, x uint64, incx int32, y uint64, incy int32, a uint64, lda int32) int32
	cublasDsyr_v2           func(h uintptr, uplo, n int32, alpha *float64, x uint64, incx int32, a uint64, lda int32) int32
	cublasDsyrk_v2          func(h uintptr, uplo, trans, n, k int32, alpha *float64, a uint64, lda int32, beta *float64, c uint64, ldc int32) int32
	cublasDsymm_v2          func(h uintptr, side, uplo, m, n int32, alpha *float64, a uint64, lda int32, b uint64, ldb int32, beta *float64, c uint64, ldc int32) int32
	cublasGetStatusString   func(s int32) string // optional
}

// memcpy2D is CUDA_MEMCPY2D on a 64-bit platform.
type memcpy2D struct {
	srcXInBytes, srcY uint64
	srcMemoryType     uint32
	_                 uint32
	srcHost           unsafe.Pointer
	srcDevice         uint64
	srcArray          uintptr
	srcPitch          uint64
	dstXInBytes, dstY uint64
	dstMemoryType     uint32
	_                 uint32
	dstHost           unsafe.Pointer
	dstDevice         uint64
	dstArray          uintptr
	dstPitch          uint64
	widthInBytes      uint64
	height            uint64
}

const (
	memHost   = 1 // CU_MEMORYTYPE_HOST
	memDevice = 2 // CU_MEMORYTYPE_DEVICE
)

// bind resolves every name in names in lib and stores it in the func field of the same
// name of fns (a pointer to a struct of funcs), returning the names that are missing.
func bind(lib uintptr, fns any, names []string, optional ...string) (missing []string) {
	v := reflectStruct(fns)
	for _, name := range append(append([]string(nil), names...), optional...) {
		sym, err := purego.Dlsym(lib, name)
		if err != nil || sym == 0 {
			if !contains(optional, name) {
				missing = append(missing, name)
			}
			continue
		}
		f := v(name)
		if f == nil {
			missing = append(missing, name+" (no binding)")
			continue
		}
		purego.RegisterFunc(f, sym)
	}
	return missing
}

// reflectStruct returns the lookup of fns's func fields by name: a pointer to the
// field (a *func(...)) for RegisterFunc, or nil when there is no such field.
func reflectStruct(fns any) func(name string) any {
	v := reflect.ValueOf(fns).Elem()
	return func(name string) any {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != reflect.Func {
			return nil
		}
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Interface()
	}
}

// fieldNames are the names of the func fields of the struct *fns.
func fieldNames(fns any) []string {
	t := reflect.TypeOf(fns).Elem()
	var out []string
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.Func {
			out = append(out, t.Field(i).Name)
		}
	}
	return out
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// realDevice is device 0 through the CUDA driver and cuBLAS.
type realDevice struct {
	cu       cuFuncs
	bl       blasFuncs
	dev      int32
	ctx      uintptr
	stream   uintptr
	blas     uintptr
	module   uintptr
	funcs    map[string]uintptr
	detail   string
	pitchMax int64
	stage    staging
}

// staging is the pair of pinned host buffers large uploads go through (htodLinear).
type staging struct {
	buf [2]unsafe.Pointer // stagingChunk bytes each, from cuMemAllocHost; nil until used
	ev  [2]uintptr        // recorded after each buffer's copy, to know it is free again
	off bool              // the buffers could not be had: uploads stay pageable
	// fillers is how many goroutines fill a buffer at once (0: min(8, GOMAXPROCS));
	// BenchmarkDeviceUpload compares the choices.
	fillers int
}

// multiarch is the machine part of Debian's multiarch directory for GOARCH.
var multiarch = map[string]string{"amd64": "x86_64", "arm64": "aarch64"}

// openDevice loads the libraries, checks the driver and the device, and sets up the
// primary context, a stream, cuBLAS and the kernels. Each failure is an error wrapping
// ErrUnavailable that says which step failed; the Discovery says where the libraries
// were looked for and why each file tried failed (cuBLAS's candidates listed as not
// tried, when the search stopped before them, only where report is set).
func openDevice(report bool) (device, Discovery, error) {
	return openDeviceIn(systemEnv(multiarch[runtime.GOARCH]), report)
}

// openDeviceIn is openDevice with the libraries searched for in e. cuBLAS is looked for
// once a device has a context; before, only when report asks for the whole search
// (Discover) to list its candidates as not tried: the search globs the Python
// environments' library directories, about 3 ms of CPU on a machine with no GPU, where
// every run that picks its backend opens the device.
func openDeviceIn(e searchEnv, report bool) (device, Discovery, error) {
	d := &realDevice{funcs: map[string]uintptr{}}
	var disc Discovery
	cands, places := driverCandidates(e)
	notTriedCUBLAS := func(why string) LibrarySearch {
		if !report {
			return LibrarySearch{}
		}
		bcands, bplaces := cublasCandidates(e)
		return notTried(bcands, bplaces, why)
	}
	var ver int32
	i, s := tryInOrder(cands, places, func(c candidate) error {
		var err error
		ver, err = d.loadDriver(c.path)
		return err
	})
	disc.Driver = s
	if i < 0 {
		disc.CUBLAS = notTriedCUBLAS("no usable CUDA driver")
		return nil, disc, unavailable("no usable CUDA driver (no NVIDIA driver?): %s", attempts(s))
	}
	var count int32
	if r := d.cu.cuDeviceGetCount(&count); r != 0 {
		disc.CUBLAS = notTriedCUBLAS("no device")
		return nil, disc, unavailable("cuDeviceGetCount: %s", d.errString(r))
	}
	if count == 0 {
		disc.CUBLAS = notTriedCUBLAS("no device")
		return nil, disc, unavailable("no CUDA device")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := d.setupContext(); err != nil {
		disc.CUBLAS = notTriedCUBLAS("no context")
		d.close()
		return nil, disc, &unavailableError{err.Error()}
	}
	var bver int32
	bcands, bplaces := cublasCandidates(e)
	i, s = tryInOrder(bcands, bplaces, func(c candidate) error {
		var err error
		bver, err = d.loadCUBLAS(c.path)
		return err
	})
	disc.CUBLAS = s
	if i < 0 {
		d.close()
		return nil, disc, unavailable("no usable cuBLAS (%s): %s", strings.Join(cublasNames(), ", "), attempts(s))
	}
	if err := d.setupKernels(); err != nil {
		d.close()
		return nil, disc, &unavailableError{err.Error()}
	}
	detail, err := d.describeDevice(ver, bver, disc)
	if err != nil {
		d.close()
		return nil, disc, &unavailableError{err.Error()}
	}
	d.detail = detail
	return d, disc, nil
}

// attempts lists a search's attempts as "path (from): why; …".
func attempts(s LibrarySearch) string {
	var parts []string
	for _, a := range s.Attempts {
		parts = append(parts, fmt.Sprintf("%s (%s): %s", a.Path, a.From, a.Error))
	}
	return strings.Join(parts, "; ")
}

// loadDriver loads the driver library at path, binds it and initialises it, returning
// the driver API version; a library that fails is closed again.
func (d *realDevice) loadDriver(path string) (ver int32, err error) {
	lib, err := dlopen(path)
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			purego.Dlclose(lib)
		}
	}()
	d.cu = cuFuncs{}
	if m := bind(lib, &d.cu, driverSymbols); len(m) > 0 {
		return 0, fmt.Errorf("lacks %s (driver too old?)", strings.Join(m, ", "))
	}
	if r := d.cu.cuInit(0); r != 0 {
		return 0, fmt.Errorf("cuInit: %s", d.errString(r))
	}
	if r := d.cu.cuDriverGetVersion(&ver); r != 0 {
		return 0, fmt.Errorf("cuDriverGetVersion: %s", d.errString(r))
	}
	if ver < minDriver {
		return 0, fmt.Errorf("driver too old: it supports CUDA %d.%d, the kernels need %d.%d", ver/1000, ver%1000/10, minDriver/1000, minDriver%1000/10)
	}
	return ver, nil
}

// loadCUBLAS loads the cuBLAS library at path (a soname or a file, whose libcublasLt
// beside it is loaded first, as the loader would not find it there), binds it and
// creates a handle on the current context and the stream, returning cuBLAS's version.
// A library that fails stays loaded (cuBLAS may have initialised the CUDA runtime) but
// is no longer used.
func (d *realDevice) loadCUBLAS(path string) (ver int32, err error) {
	if strings.Contains(path, "/") {
		lt := filepath.Join(filepath.Dir(path), strings.Replace(filepath.Base(path), "libcublas.", "libcublasLt.", 1))
		if _, err := os.Stat(lt); err == nil && lt != path {
			if _, err := dlopen(lt); err != nil {
				return 0, fmt.Errorf("loading %s beside it: %w", filepath.Base(lt), err)
			}
		}
	}
	lib, err := dlopen(path)
	if err != nil {
		return 0, err
	}
	d.bl = blasFuncs{}
	if m := bind(lib, &d.bl, blasSymbols, "cublasGetStatusString"); len(m) > 0 {
		return 0, fmt.Errorf("lacks %s", strings.Join(m, ", "))
	}
	var h uintptr
	if err := d.blasCheck("cublasCreate_v2", d.bl.cublasCreate_v2(&h)); err != nil {
		return 0, err
	}
	err = errors.Join(
		d.blasCheck("cublasSetStream_v2", d.bl.cublasSetStream_v2(h, d.stream)),
		d.blasCheck("cublasSetPointerMode_v2", d.bl.cublasSetPointerMode_v2(h, 0)), // CUBLAS_POINTER_MODE_HOST
		d.blasCheck("cublasGetVersion_v2", d.bl.cublasGetVersion_v2(h, &ver)),
	)
	if err != nil {
		d.bl.cublasDestroy_v2(h)
		return 0, err
	}
	d.blas = h
	return ver, nil
}

// describeDevice is the device's line for ISA: its name, memory, the driver's and
// cuBLAS's versions and the files loaded. It also reads the maximum pitch of a 2D copy.
func (d *realDevice) describeDevice(ver, bver int32, disc Discovery) (string, error) {
	const attrMaxPitch = 11 // CU_DEVICE_ATTRIBUTE_MAX_PITCH
	var name [256]byte
	var total uint64
	var pitch int32
	if err := errors.Join(
		d.check("cuDeviceGetName", d.cu.cuDeviceGetName(&name[0], int32(len(name)), d.dev)),
		d.check("cuDeviceTotalMem_v2", d.cu.cuDeviceTotalMem_v2(&total, d.dev)),
		d.check("cuDeviceGetAttribute(MAX_PITCH)", d.cu.cuDeviceGetAttribute(&pitch, attrMaxPitch, d.dev)),
	); err != nil {
		return "", err
	}
	d.pitchMax = int64(pitch)
	return fmt.Sprintf("%s, %s, driver CUDA %d.%d (%s), cuBLAS %d.%d.%d (%s)", cString(name[:]), humanBytes(total),
		ver/1000, ver%1000/10, disc.Driver.Loaded, bver/10000, bver%10000/100, bver%100, disc.CUBLAS.Loaded), nil
}

// setupContext makes the primary context current and creates the stream, on the
// calling (locked) thread.
func (d *realDevice) setupContext() error {
	if err := d.check("cuDeviceGet", d.cu.cuDeviceGet(&d.dev, 0)); err != nil {
		return err
	}
	if err := d.check("cuDevicePrimaryCtxRetain", d.cu.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return err
	}
	if err := d.check("cuCtxSetCurrent", d.cu.cuCtxSetCurrent(d.ctx)); err != nil {
		return err
	}
	return d.check("cuStreamCreate", d.cu.cuStreamCreate(&d.stream, 0))
}

// setupKernels loads the module and looks up its kernels, on the calling (locked)
// thread with the context current.
func (d *realDevice) setupKernels() error {
	if err := d.loadModule(); err != nil {
		return err
	}
	for _, k := range kernelNames {
		var f uintptr
		if err := d.check("cuModuleGetFunction("+k+")", d.cu.cuModuleGetFunction(&f, d.module, k)); err != nil {
			return err
		}
		d.funcs[k] = f
	}
	return nil
}

// jitLogBytes is the size of each of the JIT's two log buffers.
const jitLogBytes = 8192

// jitOptions are cuModuleLoadDataEx's options: the JIT's info and error log buffers
// and their sizes. The driver writes into the buffers through addresses passed as
// integers, which the Go runtime does not track: they must not be on a goroutine's
// stack (which moves when it grows, as it may inside purego's call path), so
// newJITOptions allocates them on the heap and pins them.
type jitOptions struct {
	opts       [4]int32
	vals       [4]uintptr
	info, elog [jitLogBytes]byte
	pin        runtime.Pinner
}

// newJITOptions returns the options with their buffers pinned on the heap; the caller
// calls unpin after the driver call.
func newJITOptions() *jitOptions {
	const (
		jitInfoLogBuffer       = 3 // CU_JIT_INFO_LOG_BUFFER
		jitInfoLogBufferBytes  = 4
		jitErrorLogBuffer      = 5 // CU_JIT_ERROR_LOG_BUFFER
		jitErrorLogBufferBytes = 6
	)
	j := new(jitOptions)
	j.pin.Pin(j) // escapes: j is on the heap, and stays put until unpin
	j.opts = [4]int32{jitInfoLogBuffer, jitInfoLogBufferBytes, jitErrorLogBuffer, jitErrorLogBufferBytes}
	j.vals = [4]uintptr{uintptr(unsafe.Pointer(&j.info[0])), jitLogBytes, uintptr(unsafe.Pointer(&j.elog[0])), jitLogBytes}
	return j
}

// unpin releases the buffers to the garbage collector.
func (j *jitOptions) unpin() { j.pin.Unpin() }

// loadModule JIT-compiles the embedded PTX, returning the JIT's error log with a
// failure.
func (d *realDevice) loadModule() error {
	j := newJITOptions()
	defer j.unpin()
	image := append([]byte(ptx), 0)
	r := d.cu.cuModuleLoadDataEx(&d.module, unsafe.Pointer(&image[0]), uint32(len(j.opts)), &j.opts[0], &j.vals[0])
	runtime.KeepAlive(image)
	runtime.KeepAlive(j)
	if r != 0 {
		return &Error{Call: "cuModuleLoadDataEx (loading the PTX kernels)", Msg: d.errString(r) + "; JIT log: " + cString(j.elog[:]) + " " + cString(j.info[:])}
	}
	return nil
}

func cString(b []byte) string {
	if i := indexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

func indexByte(b []byte, c byte) int {
	for i, v := range b {
		if v == c {
			return i
		}
	}
	return -1
}

// errString is the driver's name and description of the CUresult r.
func (d *realDevice) errString(r int32) string {
	var name, desc *byte
	d.cu.cuGetErrorName(r, &name)
	d.cu.cuGetErrorString(r, &desc)
	return fmt.Sprintf("%s (%d): %s", goString(name), r, goString(desc))
}

// goString copies the NUL-terminated C string at p.
func goString(p *byte) string {
	if p == nil {
		return "unknown error"
	}
	var b []byte
	for q := unsafe.Pointer(p); *(*byte)(q) != 0; q = unsafe.Add(q, 1) {
		b = append(b, *(*byte)(q))
	}
	return string(b)
}

// check turns a CUresult into an *Error (nil for CUDA_SUCCESS).
func (d *realDevice) check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	e := &Error{Call: call, Msg: d.errString(r)}
	if r == cudaOutOfMemory {
		e.Err = ErrOutOfMemory
	}
	return e
}

// blasCheck turns a cublasStatus_t into an *Error (nil for success).
func (d *realDevice) blasCheck(call string, s int32) error {
	if s == 0 {
		return nil
	}
	msg := blasStatus[s]
	if d.bl.cublasGetStatusString != nil {
		msg += ": " + d.bl.cublasGetStatusString(s)
	}
	if msg == "" {
		msg = fmt.Sprintf("cuBLAS status %d", s)
	}
	e := &Error{Call: call, Msg: msg}
	if s == 3 {
		e.Err = ErrOutOfMemory
	}
	return e
}

// enter pins the goroutine to its thread and makes the context current there (a
// context is current per thread); the returned func undoes the pinning.
func (d *realDevice) enter() func() {
	runtime.LockOSThread()
	if r := d.cu.cuCtxSetCurrent(d.ctx); r != 0 {
		runtime.UnlockOSThread()
		panic(d.check("cuCtxSetCurrent", r))
	}
	return runtime.UnlockOSThread
}

func (d *realDevice) describe() string { return d.detail }

func (d *realDevice) alloc(bytes int64) (dptr, error) {
	defer d.enter()()
	var p uint64
	if err := d.check("cuMemAlloc_v2", d.cu.cuMemAlloc_v2(&p, uint64(bytes))); err != nil {
		return 0, err
	}
	return dptr(p), nil
}

func (d *realDevice) free(p dptr) error {
	defer d.enter()()
	return d.check("cuMemFree_v2", d.cu.cuMemFree_v2(uint64(p)))
}

func (d *realDevice) memInfo() (free, total uint64, err error) {
	defer d.enter()()
	err = d.check("cuMemGetInfo_v2", d.cu.cuMemGetInfo_v2(&free, &total))
	return free, total, err
}

// copy2D is a synchronous cuMemcpy2D; it orders after the stream's work (the stream is
// a blocking one, and cuMemcpy2D runs on the legacy default stream).
func (d *realDevice) copy2D(call string, c *memcpy2D) error {
	defer d.enter()()
	r := d.cu.cuMemcpy2D_v2(c)
	runtime.KeepAlive(c)
	return d.check(call, r)
}

func (d *realDevice) htod(dst dptr, dpitch int64, src unsafe.Pointer, spitch, width, height int64) error {
	return d.copy2D("cuMemcpy2D_v2 (upload)", &memcpy2D{
		srcMemoryType: memHost, srcHost: src, srcPitch: uint64(spitch),
		dstMemoryType: memDevice, dstDevice: uint64(dst), dstPitch: uint64(dpitch),
		widthInBytes: uint64(width), height: uint64(height),
	})
}

func (d *realDevice) dtoh(dst unsafe.Pointer, dpitch int64, src dptr, spitch, width, height int64) error {
	return d.copy2D("cuMemcpy2D_v2 (download)", &memcpy2D{
		srcMemoryType: memDevice, srcDevice: uint64(src), srcPitch: uint64(spitch),
		dstMemoryType: memHost, dstHost: dst, dstPitch: uint64(dpitch),
		widthInBytes: uint64(width), height: uint64(height),
	})
}

// htodLinear is a synchronous cuMemcpyHtoD (ordered as copy2D is); from stagingMin
// bytes on, it is staged through pinned buffers (htodStaged).
func (d *realDevice) htodLinear(dst dptr, src unsafe.Pointer, bytes int64) error {
	defer d.enter()()
	if bytes >= stagingMin && d.stagingReady() {
		return d.htodStaged(dst, src, bytes)
	}
	return d.check("cuMemcpyHtoD_v2", d.cu.cuMemcpyHtoD_v2(uint64(dst), src, uint64(bytes)))
}

// stagingReady allocates the pinned buffers and their events on first use; where that
// fails (pinned memory is limited), it frees what it got and uploads stay pageable.
func (d *realDevice) stagingReady() bool {
	st := &d.stage
	if st.off || st.buf[1] != nil {
		return !st.off
	}
	for k := range st.buf {
		if d.cu.cuMemAllocHost_v2(&st.buf[k], stagingChunk) != 0 || d.cu.cuEventCreate(&st.ev[k], eventDisableTiming) != 0 {
			d.freeStaging()
			st.off = true
			return false
		}
	}
	return true
}

// eventDisableTiming is CU_EVENT_DISABLE_TIMING.
const eventDisableTiming = 0x2

// htodStaged copies bytes bytes from src to dst through the two pinned buffers: while
// one buffer's asynchronous copy runs on the stream the host fills the other, waiting
// for a buffer's event before refilling it, and returns when the last copy is done.
func (d *realDevice) htodStaged(dst dptr, src unsafe.Pointer, bytes int64) (err error) {
	st := &d.stage
	defer func() {
		if e := d.check("cuStreamSynchronize", d.cu.cuStreamSynchronize(d.stream)); err == nil {
			err = e
		}
	}()
	var pending [2]bool
	for off, k := int64(0), 0; off < bytes; off, k = off+stagingChunk, 1-k {
		n := min(stagingChunk, bytes-off)
		if pending[k] {
			if err := d.check("cuEventSynchronize", d.cu.cuEventSynchronize(st.ev[k])); err != nil {
				return err
			}
		}
		parallelCopy(unsafe.Slice((*byte)(st.buf[k]), n), unsafe.Slice((*byte)(unsafe.Add(src, off)), n), st.fillers)
		if err := d.check("cuMemcpyHtoDAsync_v2", d.cu.cuMemcpyHtoDAsync_v2(uint64(dst)+uint64(off), st.buf[k], uint64(n), d.stream)); err != nil {
			return err
		}
		if err := d.check("cuEventRecord", d.cu.cuEventRecord(st.ev[k], d.stream)); err != nil {
			return err
		}
		pending[k] = true
	}
	return nil
}

// parallelCopy copies src into dst (of the same length) in up to parts parts at once
// (0: min(8, GOMAXPROCS)), each at least 1 MiB: one core's copy into pinned memory is
// slower than the copy engine's transfer. On an H200 host (16 cores, 2026-11-26) a
// 1 GiB upload ran at 8.8 GB/s pageable and, staged, 7.0 / 16.5 / 30.1 / 43.2 / 40.9
// GB/s with 1 / 2 / 4 / 8 / 16 fillers (BenchmarkDeviceUpload).
func parallelCopy(dst, src []byte, parts int) {
	if parts <= 0 {
		parts = min(8, runtime.GOMAXPROCS(0))
	}
	parts = min(parts, len(src)>>20)
	if parts <= 1 {
		copy(dst, src)
		return
	}
	step := (len(src)/parts + 63) &^ 63
	var wg sync.WaitGroup
	for a := 0; a < len(src); a += step {
		b := min(a+step, len(src))
		wg.Go(func() { copy(dst[a:b], src[a:b]) })
	}
	wg.Wait()
}

// freeStaging frees the pinned buffers and their events (with the context current).
func (d *realDevice) freeStaging() (errs []error) {
	st := &d.stage
	for k := range st.buf {
		if st.buf[k] != nil {
			errs = append(errs, d.check("cuMemFreeHost", d.cu.cuMemFreeHost(st.buf[k])))
			st.buf[k] = nil
		}
		if st.ev[k] != 0 {
			errs = append(errs, d.check("cuEventDestroy_v2", d.cu.cuEventDestroy_v2(st.ev[k])))
			st.ev[k] = 0
		}
	}
	return errs
}

// dtohLinear is a synchronous cuMemcpyDtoH (ordered as copy2D is).
func (d *realDevice) dtohLinear(dst unsafe.Pointer, src dptr, bytes int64) error {
	defer d.enter()()
	return d.check("cuMemcpyDtoH_v2", d.cu.cuMemcpyDtoH_v2(dst, uint64(src), uint64(bytes)))
}

// memset is cuMemsetD8 of zero (on the legacy default stream, ordered as copy2D is).
func (d *realDevice) memset(p dptr, bytes int64) error {
	defer d.enter()()
	return d.check("cuMemsetD8_v2", d.cu.cuMemsetD8_v2(uint64(p), 0, uint64(bytes)))
}

func (d *realDevice) maxPitch() int64 { return d.pitchMax }

func (d *realDevice) sync() error {
	defer d.enter()()
	return d.check("cuStreamSynchronize", d.cu.cuStreamSynchronize(d.stream))
}

func (d *realDevice) close() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var errs []error
	if d.ctx != 0 {
		d.cu.cuCtxSetCurrent(d.ctx)
		if d.stream != 0 {
			errs = append(errs, d.check("cuStreamSynchronize", d.cu.cuStreamSynchronize(d.stream)))
		}
	}
	if d.ctx != 0 {
		errs = append(errs, d.freeStaging()...)
	}
	if d.blas != 0 {
		errs = append(errs, d.blasCheck("cublasDestroy_v2", d.bl.cublasDestroy_v2(d.blas)))
		d.blas = 0
	}
	if d.module != 0 {
		errs = append(errs, d.check("cuModuleUnload", d.cu.cuModuleUnload(d.module)))
		d.module = 0
	}
	if d.stream != 0 {
		errs = append(errs, d.check("cuStreamDestroy_v2", d.cu.cuStreamDestroy_v2(d.stream)))
		d.stream = 0
	}
	if d.ctx != 0 {
		errs = append(errs, d.check("cuDevicePrimaryCtxRelease_v2", d.cu.cuDevicePrimaryCtxRelease_v2(d.dev)))
		d.ctx = 0
	}
	return errors.Join(errs...)
}

func (d *realDevice) dcopy(n int, x, y dptr) error {
	defer d.enter()()
	return d.blasCheck("cublasDcopy_v2", d.bl.cublasDcopy_v2(d.blas, int32(n), uint64(x), 1, uint64(y), 1))
}

func (d *realDevice) ddot(n int, x, y dptr) (float64, error) {
	defer d.enter()()
	var r float64
	err := d.blasCheck("cublasDdot_v2", d.bl.cublasDdot_v2(d.blas, int32(n), uint64(x), 1, uint64(y), 1, &r))
	return r, err
}

func (d *realDevice) daxpy(n int, alpha float64, x, y dptr) error {
	defer d.enter()()
	return d.blasCheck("cublasDaxpy_v2", d.bl.cublasDaxpy_v2(d.blas, int32(n), &alpha, uint64(x), 1, uint64(y), 1))
}

func (d *realDevice) dscal(n int, alpha float64, x dptr) error {
	defer d.enter()()
	return d.blasCheck("cublasDscal_v2", d.bl.cublasDscal_v2(d.blas, int32(n), &alpha, uint64(x), 1))
}

func (d *realDevice) dgemv(trans blasOp, m, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error {
	defer d.enter()()
	return d.blasCheck("cublasDgemv_v2", d.bl.cublasDgemv_v2(d.blas, int32(trans), int32(m), int32(n), &alpha, uint64(a), int32(lda), uint64(x), 1, &beta, uint64(y), 1))
}

func (d *realDevice) dsymv(uplo blasFill, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error {
	defer d.enter()()
	return d.blasCheck("cublasDsymv_v2", d.bl.cublasDsymv_v2(d.blas, int32(uplo), int32(n), &alpha, uint64(a), int32(lda), uint64(x), 1, &beta, uint64(y), 1))
}

func (d *realDevice) dger(m, n int, alpha float64, x, y dptr, a dptr, lda int) error {
	defer d.enter()()
	return d.blasCheck("cublasDger_v2", d.bl.cublasDger_v2(d.blas, int32(m), int32(n), &alpha, uint64(x), 1, uint64(y), 1, uint64(a), int32(lda)))
}

func (d *realDevice) dsyr(uplo blasFill, n int, alpha float64, x dptr, a dptr, lda int) error {
	defer d.enter()()
	return d.blasCheck("cublasDsyr_v2", d.bl.cublasDsyr_v2(d.blas, int32(uplo), int32(n), &alpha, uint64(x), 1, uint64(a), int32(lda)))
}

func (d *realDevice) dsyrk(uplo blasFill, trans blasOp, n, k int, alpha float64, a dptr, lda int, beta float64, c dptr, ldc int) error {
	defer d.enter()()
	return d.blasCheck("cublasDsyrk_v2", d.bl.cublasDsyrk_v2(d.blas, int32(uplo), int32(trans), int32(n), int32(k), &alpha, uint64(a), int32(lda), &beta, uint64(c), int32(ldc)))
}

func (d *realDevice) dsymm(side blasSide, uplo blasFill, m, n int, alpha float64, a dptr, lda int, b dptr, ldb int, beta float64, c dptr, ldc int) error {
	defer d.enter()()
	return d.blasCheck("cublasDsymm_v2", d.bl.cublasDsymm_v2(d.blas, int32(side), int32(uplo), int32(m), int32(n), &alpha, uint64(a), int32(lda), uint64(b), int32(ldb), &beta, uint64(c), int32(ldc)))
}

// launch runs kernel name on a grid of gx×gy blocks of 256 threads with the given
// arguments (pointers to their values).
func (d *realDevice) launch(name string, gx, gy int, args ...unsafe.Pointer) error {
	defer d.enter()()
	r := d.cu.cuLaunchKernel(d.funcs[name], uint32(max(gx, 1)), uint32(max(gy, 1)), 1, 256, 1, 1, 0, d.stream, &args[0], nil)
	runtime.KeepAlive(args)
	return d.check("cuLaunchKernel("+name+")", r)
}

// grid is the number of 256-thread blocks covering n elements, capped (the kernels
// loop over the rest).
func grid(n, limit int) int { return min((n+255)/256, limit) }

func (d *realDevice) rowDiff(a dptr, lda, dd int, pos, neg dptr, k int, out dptr, ldo int) error {
	pa, plda, pd, pp, pn, pk, po, pldo := uint64(a), int64(lda), int32(dd), uint64(pos), uint64(neg), int32(k), uint64(out), int64(ldo)
	return d.launch(kRowDiff, grid(dd, 64), min(k, 65535),
		unsafe.Pointer(&pa), unsafe.Pointer(&plda), unsafe.Pointer(&pd), unsafe.Pointer(&pp),
		unsafe.Pointer(&pn), unsafe.Pointer(&pk), unsafe.Pointer(&po), unsafe.Pointer(&pldo))
}

func (d *realDevice) gatherRows(a dptr, lda, dd int, rows dptr, k int, out dptr, ldo int) error {
	pa, plda, pd, pr, pk, po, pldo := uint64(a), int64(lda), int32(dd), uint64(rows), int32(k), uint64(out), int64(ldo)
	return d.launch(kGatherRows, grid(dd, 64), min(k, 65535),
		unsafe.Pointer(&pa), unsafe.Pointer(&plda), unsafe.Pointer(&pd), unsafe.Pointer(&pr),
		unsafe.Pointer(&pk), unsafe.Pointer(&po), unsafe.Pointer(&pldo))
}

func (d *realDevice) gather(y, idx dptr, n int, out dptr) error {
	py, pi, pn, po := uint64(y), uint64(idx), int32(n), uint64(out)
	return d.launch(kGather, grid(n, 4096), 1, unsafe.Pointer(&py), unsafe.Pointer(&pi), unsafe.Pointer(&pn), unsafe.Pointer(&po))
}

func (d *realDevice) scatter(alpha float64, val, idx dptr, n int, y dptr) error {
	pa, pv, pi, pn, py := alpha, uint64(val), uint64(idx), int32(n), uint64(y)
	return d.launch(kScatter, grid(n, 4096), 1, unsafe.Pointer(&pa), unsafe.Pointer(&pv), unsafe.Pointer(&pi), unsafe.Pointer(&pn), unsafe.Pointer(&py))
}

// dlopen loads a shared library with the thread locked: dlerror's message is
// per-thread, and a goroutine moved between dlopen and purego's dlerror call would
// report an empty reason.
func dlopen(name string) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil && strings.TrimSpace(err.Error()) == "" {
		err = fmt.Errorf("dlopen %s failed (no message from dlerror)", name)
	}
	return h, err
}
