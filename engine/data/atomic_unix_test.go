//go:build unix

package data

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// writeString is a WriteAtomic body writing s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteAtomicKinds writes to every kind of path WriteAtomic meets and checks what
// it became: a regular file is replaced, a link kept, a device written through, the rest
// refused, nothing left behind.
func TestWriteAtomicKinds(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) string // returns the path to write
		wantErr error                                 // nil: success
		check   func(t *testing.T, dir, path string)
	}{
		{"symlink to a file: the file is written, the link stays", func(t *testing.T, dir string) string {
			mustWrite(t, filepath.Join(dir, "real.txt"), "old")
			link := filepath.Join(dir, "link.txt")
			if err := os.Symlink("real.txt", link); err != nil {
				t.Fatal(err)
			}
			return link
		}, nil, func(t *testing.T, dir, path string) {
			if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v %v", st.Mode(), err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(b) != "new" {
				t.Errorf("the link's target holds %q, want new", b)
			}
		}},
		{"dangling symlink: refused", func(t *testing.T, dir string) string {
			link := filepath.Join(dir, "dangling")
			if err := os.Symlink("nowhere/x", link); err != nil {
				t.Fatal(err)
			}
			return link
		}, ErrNotRegular, func(t *testing.T, dir, path string) {
			if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the dangling link was replaced: %v %v", st.Mode(), err)
			}
		}},
		{"symlink to a directory: refused", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d"), 0o755)
			link := filepath.Join(dir, "dlink")
			if err := os.Symlink("d", link); err != nil {
				t.Fatal(err)
			}
			return link
		}, ErrNotRegular, nil},
		{"directory: refused", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "d")
			os.Mkdir(p, 0o755)
			return p
		}, ErrNotRegular, nil},
		{"socket: refused", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "s.sock")
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Skipf("no unix socket: %v", err)
			}
			t.Cleanup(func() { l.Close() })
			return p
		}, ErrNotRegular, func(t *testing.T, dir, path string) {
			if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeSocket == 0 {
				t.Errorf("the socket was replaced: %v %v", st.Mode(), err)
			}
		}},
		{"null device: written through, stays a device", func(t *testing.T, dir string) string {
			return CharDevice(t, dir, "null")
		}, nil, func(t *testing.T, dir, path string) {
			if st, err := os.Stat(path); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s is no longer a character device: %v %v", path, st.Mode(), err)
			}
		}},
		{"full device: ENOSPC, stays a device", func(t *testing.T, dir string) string {
			return CharDevice(t, dir, "full")
		}, syscall.ENOSPC, func(t *testing.T, dir, path string) {
			if st, err := os.Stat(path); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s is no longer a character device: %v %v", path, st.Mode(), err)
			}
		}},
		{"named pipe: written through", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			got := make(chan string, 1)
			go func() {
				f, err := os.Open(p)
				if err != nil {
					got <- err.Error()
					return
				}
				defer f.Close()
				b, _ := io.ReadAll(f)
				got <- string(b)
			}()
			t.Cleanup(func() {
				if s := <-got; s != "new" {
					t.Errorf("the pipe's reader got %q, want new", s)
				}
			})
			return p
		}, nil, func(t *testing.T, dir, path string) {
			if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("the pipe was replaced: %v %v", st.Mode(), err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			before := names(t, dir)
			err := WriteAtomic(path, writeString("new"))
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("WriteAtomic(%s): %v", path, err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("WriteAtomic(%s): error %v, want %v", path, err, tt.wantErr)
			case err != nil && !strings.Contains(err.Error(), path):
				t.Errorf("error %q does not name %s", err, path)
			case err != nil && strings.Contains(err.Error(), tempMarker):
				t.Errorf("error %q names the temporary file", err)
			}
			if tt.check != nil {
				tt.check(t, dir, path)
			}
			if after := names(t, dir); strings.Join(before, ",") != strings.Join(after, ",") && tt.wantErr != nil {
				t.Errorf("a refused write changed the directory: %q → %q", before, after)
			} else if strings.Contains(strings.Join(after, ","), tempMarker) {
				t.Errorf("a temporary file was left: %q", after)
			}
		})
	}
}

// TestWriteAtomicUmask checks that a new file gets 0666 less the umask, as os.Create.
func TestWriteAtomicUmask(t *testing.T) {
	for _, mask := range []int{0o022, 0o077, 0o002} {
		t.Run(strconv.FormatInt(int64(mask), 8), func(t *testing.T) {
			old := syscall.Umask(mask)
			defer syscall.Umask(old)
			dir := t.TempDir()
			p := filepath.Join(dir, "new.txt")
			if err := WriteAtomic(p, writeString("x")); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := fs.FileMode(0o666 &^ mask); st.Mode().Perm() != want {
				t.Errorf("umask %03o: mode %v, want %v", mask, st.Mode().Perm(), want)
			}
		})
	}
}

// TestWriteAtomicCancel checks that a cancelled write leaves the old file and no
// temporary one.
func TestWriteAtomicCancel(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	mustWrite(t, p, "old")
	ctx, cancel := context.WithCancel(context.Background())
	err := WriteAtomicContext(ctx, p, func(w io.Writer) error {
		cancel()
		for range 10 {
			if _, err := w.Write(make([]byte, 1<<16)); err != nil {
				return err
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("content %q after a cancelled write", b)
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("files after a cancelled write: %q", got)
	}
}

// TestWriteAtomicStale checks that a temporary file of a dead process is removed by the
// next write of its target, and one of a live process (or another target's) is kept.
func TestWriteAtomicStale(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skipf("no true command: %v", err)
	}
	deadPid := dead.Process.Pid
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	stale := filepath.Join(dir, ".m.json"+tempMarker+strconv.Itoa(deadPid)+"-abc")
	live := filepath.Join(dir, ".m.json"+tempMarker+strconv.Itoa(os.Getppid())+"-abc")
	other := filepath.Join(dir, ".n.json"+tempMarker+strconv.Itoa(deadPid)+"-abc")
	long := filepath.Join(dir, strings.Repeat("l", 240)+".json") // its temporaries have a cut name
	staleLong := filepath.Join(dir, tempPrefix(long)+strconv.Itoa(deadPid)+"-abc")
	for _, f := range []string{stale, live, other, staleLong} {
		mustWrite(t, f, "partial")
	}
	for _, target := range []string{p, long} {
		if err := WriteAtomic(target, writeString("x")); err != nil {
			t.Fatal(err)
		}
	}
	for f, want := range map[string]bool{stale: false, live: true, other: true, staleLong: false} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// names lists a directory's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
