package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Where the loader looks for the CUDA driver and cuBLAS.
//
// GPU machines keep cuBLAS in many places: in the loader's path (ld.so.cache,
// LD_LIBRARY_PATH), in a CUDA toolkit ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda*; lib64
// or targets/<arch>/lib), or inside a Python environment as the pip package
// nvidia-cublas (site-packages/nvidia/cublas/lib), where the loader never looks. The
// discovery is a pure function of the environment and the file system (candidates),
// producing the ordered list of files to try; the loader (driver_linux.go) then tries
// each in turn until one loads, binds and initialises (cuInit for the driver,
// cublasCreate for cuBLAS), so a libcublas.so.13 that loads but cannot create a handle
// falls back to .12 and .11. Every attempt and its failure is recorded in a Discovery,
// which `aucopt backends` prints.

// EnvCUBLAS names the environment variable that points the loader at one cuBLAS
// library file (e.g. /opt/cuda/lib64/libcublas.so.12); when it is set, no other
// cuBLAS is tried.
const EnvCUBLAS = "AUCOPT_CUBLAS"

// cublasMajors are the cuBLAS major versions the loader accepts, newest first.
var cublasMajors = []string{"13", "12", "11"}

// candidate is one library the loader tries: a soname for the loader's own search, or
// a file path.
type candidate struct {
	path string // "libcublas.so.12" or "/usr/local/cuda-12.4/lib64/libcublas.so.12"
	from string // where it was found, e.g. "loader path" or "$CUDA_HOME=/opt/cuda"
}

// searchEnv is what the discovery reads: the environment and the file system. Tests
// substitute both.
type searchEnv struct {
	getenv func(string) string
	home   string // the user's home directory; "" when unknown
	root   string // prefix of every absolute system path ("" in production)
	arch   string // the Debian multiarch triplet's machine, e.g. "x86_64" or "aarch64"
}

// systemEnv is the process's environment and file system.
func systemEnv(arch string) searchEnv {
	home, _ := os.UserHomeDir()
	return searchEnv{getenv: os.Getenv, home: home, arch: arch}
}

// sys maps an absolute system path into e's file system.
func (e searchEnv) sys(p string) string { return filepath.Join(e.root, p) }

// glob returns the existing paths matching pattern, newest version first
// (/usr/local/cuda-12.10 before /usr/local/cuda-12.4 before /usr/local/cuda-11.8; see
// versionLess).
func glob(pattern string) []string {
	m, _ := filepath.Glob(pattern) // the only error is a malformed pattern
	slices.SortStableFunc(m, func(a, b string) int {
		switch {
		case versionLess(b, a):
			return -1
		case versionLess(a, b):
			return 1
		}
		return 0
	})
	return m
}

// versionLess orders strings by their runs of digits as numbers, so "cuda-12.10" is
// after "cuda-12.4" and "python3.12" after "python3.9".
func versionLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// place is one place the discovery looked, and how many libraries it found there.
type place struct {
	what  string   // e.g. "$CUDA_HOME" or "Python environments"
	dirs  []string // the directory patterns looked at
	found int
	note  string // e.g. "unset"
}

func (p place) String() string {
	s := p.what
	if p.note != "" {
		s += " (" + p.note + ")"
	}
	if len(p.dirs) > 0 {
		s += ": " + strings.Join(p.dirs, ", ")
	}
	switch {
	case p.note != "":
	case p.found == 0:
		s += ": nothing found"
	default:
		s += fmt.Sprintf(": %d found", p.found)
	}
	return s
}

// lister collects candidates from directories, skipping files already listed (by
// their resolved path).
type lister struct {
	cands  []candidate
	seen   map[string]bool
	places []place
}

// addDirs lists, in each directory matching the patterns, the files names (in order)
// that exist, as one place (described by shown, or by the patterns when shown is nil).
func (l *lister) addDirs(what string, shown, patterns []string, names []string) {
	if shown == nil {
		shown = patterns
	}
	p := place{what: what, dirs: shown}
	for _, pat := range patterns {
		for _, dir := range glob(pat) {
			for _, n := range names {
				f := filepath.Join(dir, n)
				if _, err := os.Stat(f); err != nil {
					continue
				}
				key := f
				if r, err := filepath.EvalSymlinks(f); err == nil {
					key = r
				}
				if l.seen[key] {
					continue
				}
				l.seen[key] = true
				l.cands = append(l.cands, candidate{path: f, from: what})
				p.found++
			}
		}
	}
	l.places = append(l.places, p)
}

// toolkitDirs are the library directories of a CUDA toolkit installed at root.
func toolkitDirs(root string) []string {
	return []string{filepath.Join(root, "lib64"), filepath.Join(root, "lib"), filepath.Join(root, "targets", "*", "lib")}
}

// cublasNames are the file names of the accepted cuBLAS versions, newest first.
func cublasNames() []string {
	out := make([]string, len(cublasMajors))
	for i, m := range cublasMajors {
		out[i] = "libcublas.so." + m
	}
	return out
}

// cublasCandidates is the ordered list of cuBLAS libraries to try, and the places
// looked: $AUCOPT_CUBLAS alone when it is set; else the loader's path
// (libcublas.so.13, .12, .11 by soname), then $CUDA_HOME and $CUDA_PATH, then
// /usr/local/cuda and /usr/local/cuda-* (newest first), each in lib64, lib and
// targets/*/lib, then the Python environments' nvidia/cublas/lib (pythonPrefixes). In
// each directory the newer major version comes first; a file reached twice (through a
// symbolic link) is listed once.
func cublasCandidates(e searchEnv) ([]candidate, []place) {
	if p := e.getenv(EnvCUBLAS); p != "" {
		return []candidate{{path: p, from: "$" + EnvCUBLAS}},
			[]place{{what: "$" + EnvCUBLAS, note: "set: no other place is tried"}}
	}
	l := &lister{seen: map[string]bool{}}
	for _, n := range cublasNames() {
		l.cands = append(l.cands, candidate{path: n, from: "loader path"})
	}
	l.places = append(l.places, place{what: "loader path (ld.so.cache, LD_LIBRARY_PATH)", note: "by soname: " + strings.Join(cublasNames(), ", ")})
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		root := e.getenv(v)
		if root == "" {
			l.places = append(l.places, place{what: "$" + v, note: "unset"})
			continue
		}
		l.addDirs("$"+v+"="+root, nil, toolkitDirs(root), cublasNames())
	}
	var tk []string
	for _, root := range append([]string{e.sys("/usr/local/cuda")}, glob(e.sys("/usr/local/cuda-*"))...) {
		tk = append(tk, toolkitDirs(root)...)
	}
	l.addDirs("CUDA toolkits", toolkitDirs(e.sys("/usr/local/cuda*")), tk, cublasNames())
	var site []string
	prefixes := pythonPrefixes(e)
	for _, p := range prefixes {
		for _, lib := range []string{"lib", "lib64"} {
			for _, pk := range []string{"site-packages", "dist-packages"} {
				site = append(site, filepath.Join(p, lib, "python3*", pk, "nvidia", "cublas", "lib"))
			}
		}
	}
	shown := []string{"PREFIX/lib{,64}/python3*/{site,dist}-packages/nvidia/cublas/lib for PREFIX in " + strings.Join(prefixes, " ")}
	l.addDirs("Python environments (pip nvidia-cublas)", shown, site, cublasNames())
	return l.cands, l.places
}

// pythonPrefixes are the installation prefixes of the Python environments the
// discovery can find without running Python: $VIRTUAL_ENV, $CONDA_PREFIX, conda's
// usual homes and their envs, pyenv's versions, the user's ~/.local, /usr/local and
// /usr. Each is searched in lib*/python3*/{site,dist}-packages.
func pythonPrefixes(e searchEnv) []string {
	var out []string
	add := func(ps ...string) {
		for _, p := range ps {
			if p == "" || slices.Contains(out, filepath.Clean(p)) {
				continue
			}
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				out = append(out, filepath.Clean(p))
			}
		}
	}
	add(e.getenv("VIRTUAL_ENV"), e.getenv("CONDA_PREFIX"))
	var condas []string
	condas = append(condas, e.sys("/opt/conda"))
	if e.home != "" {
		for _, c := range []string{"miniconda3", "anaconda3", "miniforge3", "mambaforge"} {
			condas = append(condas, filepath.Join(e.home, c))
		}
	}
	for _, c := range condas {
		add(c)
		add(glob(filepath.Join(c, "envs", "*"))...)
	}
	pyenv := e.getenv("PYENV_ROOT")
	if pyenv == "" && e.home != "" {
		pyenv = filepath.Join(e.home, ".pyenv")
	}
	if pyenv != "" {
		add(glob(filepath.Join(pyenv, "versions", "*"))...)
	}
	if e.home != "" {
		add(filepath.Join(e.home, ".local"))
	}
	add(e.sys("/usr/local"), e.sys("/usr"))
	return out
}

// driverCandidates is the ordered list of CUDA driver libraries to try: libcuda.so.1
// by soname (the loader's path), then the directories drivers are installed in
// (Debian/Ubuntu's multiarch and nvidia/current, RHEL's lib64, NVIDIA's container
// toolkit, WSL), then a toolkit's forward-compatibility driver (compat/), last.
func driverCandidates(e searchEnv) ([]candidate, []place) {
	l := &lister{seen: map[string]bool{}}
	l.cands = append(l.cands, candidate{path: "libcuda.so.1", from: "loader path"})
	l.places = append(l.places, place{what: "loader path (ld.so.cache, LD_LIBRARY_PATH)", note: "by soname: libcuda.so.1"})
	multi := e.arch + "-linux-gnu"
	l.addDirs("driver directories", nil, []string{
		e.sys("/usr/lib/" + multi), e.sys("/usr/lib/" + multi + "/nvidia/current"), e.sys("/usr/lib64"),
		e.sys("/usr/lib"), e.sys("/usr/local/nvidia/lib64"), e.sys("/usr/lib/wsl/lib"),
	}, []string{"libcuda.so.1"})
	var compat []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if root := e.getenv(v); root != "" {
			compat = append(compat, filepath.Join(root, "compat"))
		}
	}
	compat = append(compat, e.sys("/usr/local/cuda/compat"), e.sys("/usr/local/cuda-*/compat"))
	l.addDirs("forward-compatibility drivers", nil, compat, []string{"libcuda.so.1"})
	return l.cands, l.places
}

// tryInOrder calls try on each candidate in turn until one succeeds, returning its
// index (−1 when none did) and the search with every attempt and its failure.
func tryInOrder(cands []candidate, places []place, try func(candidate) error) (int, LibrarySearch) {
	s := LibrarySearch{}
	for _, p := range places {
		s.Looked = append(s.Looked, p.String())
	}
	for i, c := range cands {
		err := try(c)
		a := Attempt{Path: c.path, From: c.from}
		if err != nil {
			a.Error = err.Error()
			s.Attempts = append(s.Attempts, a)
			continue
		}
		s.Loaded = c.path
		s.Attempts = append(s.Attempts, a)
		return i, s
	}
	return -1, s
}

// notTried is the search that never ran, listing the candidates with the reason.
func notTried(cands []candidate, places []place, why string) LibrarySearch {
	_, s := tryInOrder(cands, places, func(candidate) error { return fmt.Errorf("not tried: %s", why) })
	return s
}

// Discovery says where the loader looked for the CUDA driver and cuBLAS, which file
// it loaded, and why each file before it failed.
type Discovery struct {
	Driver LibrarySearch `json:"driver"`
	CUBLAS LibrarySearch `json:"cublas"`
}

// LibrarySearch is the search for one library.
type LibrarySearch struct {
	Loaded   string    `json:"loaded,omitempty"` // the soname or file loaded; empty when none
	Attempts []Attempt `json:"attempts"`         // every file tried, in order
	Looked   []string  `json:"looked"`           // each place looked and what it held
}

// Attempt is one library file the loader tried.
type Attempt struct {
	Path  string `json:"path"`            // soname or file path
	From  string `json:"from"`            // where it was found
	Error string `json:"error,omitempty"` // why it could not be used; empty for the one loaded
}

// Lines is the discovery as indented lines for a report: per library, the file
// loaded or that none was, each attempt with its failure, and the places looked.
func (d Discovery) Lines() []string {
	var out []string
	for _, l := range []struct {
		name string
		s    LibrarySearch
	}{{"CUDA driver", d.Driver}, {"cuBLAS", d.CUBLAS}} {
		if l.s.Loaded != "" {
			out = append(out, fmt.Sprintf("%s: loaded %s", l.name, l.s.Loaded))
		} else {
			out = append(out, fmt.Sprintf("%s: none usable", l.name))
		}
		for _, a := range l.s.Attempts {
			verb, status := "tried", "ok"
			if a.Error != "" {
				status = a.Error
			}
			if why, ok := strings.CutPrefix(a.Error, "not tried: "); ok {
				verb, status = "not tried", why
			}
			out = append(out, fmt.Sprintf("  %s %s (%s): %s", verb, a.Path, a.From, status))
		}
		for _, p := range l.s.Looked {
			out = append(out, "  looked in "+p)
		}
	}
	return out
}

// Discover runs the loader as New does (loading the libraries, opening and closing
// the device) and reports where it looked, what it loaded and why each other file
// failed.
func Discover() Discovery {
	dev, disc, err := openDevice(true)
	if err == nil {
		dev.close()
	}
	return disc
}
