package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// touch creates the file root/rel (and its directories), empty.
func touch(t *testing.T, root, rel string) string {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// testEnv is a search environment over root with the given variables and home.
func testEnv(root, home string, vars map[string]string) searchEnv {
	return searchEnv{getenv: func(k string) string { return vars[k] }, home: home, root: root, arch: "x86_64"}
}

func paths(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.path)
	}
	return out
}

// TestCUBLASCandidates places empty libcublas files where GPU machines keep cuBLAS, in
// a temporary file system, and checks the discovery's order: the loader's sonames, the
// toolkits named by $CUDA_HOME and $CUDA_PATH, /usr/local/cuda* newest first (one file
// reached through a symbolic link listed once), then the Python environments'
// nvidia/cublas/lib ($VIRTUAL_ENV, $CONDA_PREFIX, pyenv, ~/.local, /usr/local, /usr,
// site- and dist-packages); and that $AUCOPT_CUBLAS alone is tried when set.
func TestCUBLASCandidates(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", "u")
	venv := filepath.Join(root, "work", "venv")
	conda := filepath.Join(root, "opt", "conda", "envs", "ml")
	cudaHome := filepath.Join(root, "opt", "cuda")
	files := map[string]string{}
	for key, rel := range map[string]string{
		"home12":    "opt/cuda/lib64/libcublas.so.12",
		"home13t":   "opt/cuda/targets/x86_64-linux/lib/libcublas.so.13",
		"uc124":     "usr/local/cuda-12.4/lib64/libcublas.so.12",
		"uc1210":    "usr/local/cuda-12.10/targets/sbsa-linux/lib/libcublas.so.12",
		"uc118":     "usr/local/cuda-11.8/lib64/libcublas.so.11",
		"venv12":    "work/venv/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.12",
		"venv13":    "work/venv/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.13",
		"conda12":   "opt/conda/envs/ml/lib/python3.11/site-packages/nvidia/cublas/lib/libcublas.so.12",
		"pyenv12":   "home/u/.pyenv/versions/3.10.4/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.12",
		"local12":   "home/u/.local/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.12",
		"usr12":     "usr/lib/python3/dist-packages/nvidia/cublas/lib/libcublas.so.12",
		"usrlocal":  "usr/local/lib/python3.12/dist-packages/nvidia/cublas/lib/libcublas.so.12",
		"unrelated": "usr/local/lib/python3.12/dist-packages/nvidia/cudnn/lib/libcublas.so.12",
		"old":       "usr/local/cuda-12.4/lib64/libcublas.so.10",
	} {
		files[key] = touch(t, root, rel)
	}
	// /usr/local/cuda → cuda-12.4: its files are listed once, under the link's name.
	if err := os.Symlink(filepath.Join(root, "usr/local/cuda-12.4"), filepath.Join(root, "usr/local/cuda")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "usr/local/cuda/lib64/libcublas.so.12")
	vars := map[string]string{"CUDA_HOME": cudaHome, "VIRTUAL_ENV": venv, "CONDA_PREFIX": conda}

	for _, tt := range []struct {
		name  string
		vars  map[string]string
		want  []string
		froms []string // the from of some candidates, by index
	}{
		{"everywhere", vars, []string{
			"libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
			files["home12"], files["home13t"],
			link, files["uc1210"], files["uc118"],
			files["venv13"], files["venv12"], files["conda12"], files["pyenv12"], files["local12"], files["usrlocal"], files["usr12"],
		}, []string{"loader path", "loader path", "loader path", "$CUDA_HOME=" + cudaHome, "$CUDA_HOME=" + cudaHome, "CUDA toolkits"}},
		{"no variables", nil, []string{
			"libcublas.so.13", "libcublas.so.12", "libcublas.so.11",
			link, files["uc1210"], files["uc118"],
			files["conda12"], files["pyenv12"], files["local12"], files["usrlocal"], files["usr12"],
		}, nil},
		{"AUCOPT_CUBLAS", map[string]string{EnvCUBLAS: "/x/libcublas.so.12", "CUDA_HOME": cudaHome},
			[]string{"/x/libcublas.so.12"}, []string{"$AUCOPT_CUBLAS"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cands, places := cublasCandidates(testEnv(root, home, tt.vars))
			if got := paths(cands); !slices.Equal(got, tt.want) {
				t.Errorf("candidates:\n got %q\nwant %q", got, tt.want)
			}
			for i, f := range tt.froms {
				if i < len(cands) && cands[i].from != f {
					t.Errorf("candidate %d (%s) from %q, want %q", i, cands[i].path, cands[i].from, f)
				}
			}
			if len(places) == 0 {
				t.Error("no places reported")
			}
			for _, p := range places {
				if p.String() == "" {
					t.Errorf("place %+v has no description", p)
				}
			}
		})
	}
}

// TestDriverCandidates checks the driver's search: the soname first, then the driver
// directories, then a toolkit's forward-compatibility driver.
func TestDriverCandidates(t *testing.T) {
	root := t.TempDir()
	deb := touch(t, root, "usr/lib/x86_64-linux-gnu/libcuda.so.1")
	ctk := touch(t, root, "usr/local/nvidia/lib64/libcuda.so.1")
	compat := touch(t, root, "usr/local/cuda-13.0/compat/libcuda.so.1")
	touch(t, root, "usr/local/cuda-13.0/lib64/stubs/libcuda.so") // a stub is never a driver
	cands, places := driverCandidates(testEnv(root, "", nil))
	want := []string{"libcuda.so.1", deb, ctk, compat}
	if got := paths(cands); !slices.Equal(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
	if len(places) != 3 {
		t.Errorf("places %v, want the loader path, the driver directories and the compat drivers", places)
	}
}

// TestTryInOrder checks the trying loop with injected loaders: a libcublas.so.13 that
// loads but fails cublasCreate falls back to the .12 found in a Python environment;
// the search records each attempt and its failure; with no usable file, none is loaded
// and every reason is kept.
func TestTryInOrder(t *testing.T) {
	root := t.TempDir()
	site := "venv/lib/python3.12/site-packages/nvidia/cublas/lib/"
	p13 := touch(t, root, site+"libcublas.so.13")
	p12 := touch(t, root, site+"libcublas.so.12")
	cands, places := cublasCandidates(testEnv(root, "", map[string]string{"VIRTUAL_ENV": filepath.Join(root, "venv")}))
	if !slices.Contains(paths(cands), p12) || !slices.Contains(paths(cands), p13) {
		t.Fatalf("the discovery missed the Python environment's cuBLAS: %q", paths(cands))
	}
	errCreate := errors.New("cublasCreate_v2: CUBLAS_STATUS_NOT_INITIALIZED")
	// open fails for sonames (not in this machine's loader path), succeeds for files;
	// create fails for version 13.
	open := func(c candidate) error {
		if !strings.Contains(c.path, "/") {
			return errors.New(c.path + ": cannot open shared object file")
		}
		return nil
	}
	create := func(c candidate) error {
		if strings.HasSuffix(c.path, ".13") {
			return errCreate
		}
		return nil
	}
	var tried []string
	i, s := tryInOrder(cands, places, func(c candidate) error {
		tried = append(tried, c.path)
		if err := open(c); err != nil {
			return err
		}
		return create(c)
	})
	if i < 0 || cands[i].path != p12 || s.Loaded != p12 {
		t.Fatalf("loaded %d %q, want %s", i, s.Loaded, p12)
	}
	wantTried := append(cublasNames(), p13, p12)
	if !slices.Equal(tried, wantTried) {
		t.Errorf("tried %q, want %q", tried, wantTried)
	}
	if len(s.Attempts) != len(wantTried) {
		t.Fatalf("attempts %+v, want %d", s.Attempts, len(wantTried))
	}
	if a := s.Attempts[3]; a.Path != p13 || a.Error != errCreate.Error() || !strings.HasPrefix(a.From, "Python environments") {
		t.Errorf("attempt of .13: %+v", a)
	}
	if a := s.Attempts[4]; a.Error != "" {
		t.Errorf("the loaded attempt has an error: %+v", a)
	}
	lines := Discovery{CUBLAS: s}.Lines()
	text := strings.Join(lines, "\n")
	for _, want := range []string{"cuBLAS: loaded " + p12, "tried " + p13 + " (Python environments", errCreate.Error(), "looked in $CUDA_HOME (unset)", "CUDA driver: none usable"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}

	i, s = tryInOrder(cands, places, func(c candidate) error { return errors.New("bad " + c.path) })
	if i >= 0 || s.Loaded != "" || len(s.Attempts) != len(cands) {
		t.Fatalf("all failing: index %d, loaded %q, %d attempts", i, s.Loaded, len(s.Attempts))
	}
	for k, a := range s.Attempts {
		if a.Error != "bad "+cands[k].path {
			t.Errorf("attempt %d: %+v", k, a)
		}
	}
}

// TestVersionLess checks the numeric ordering of versioned names.
func TestVersionLess(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		less bool
	}{
		{"cuda-12.4", "cuda-12.10", true},
		{"cuda-12.10", "cuda-12.4", false},
		{"cuda-11.8", "cuda-12.0", true},
		{"python3.9", "python3.12", true},
		{"python3", "python3.12", true},
		{"cuda-12.4", "cuda-12.4", false},
		{"a", "b", true},
		{"cuda-012", "cuda-12", false},
	} {
		if got := versionLess(tt.a, tt.b); got != tt.less {
			t.Errorf("versionLess(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.less)
		}
	}
}
