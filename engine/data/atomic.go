package data

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aucopt/aucopt/engine/fault"
)

// ErrNotRegular is wrapped by the error of WriteAtomic for a path that exists and is
// neither a regular file nor a device or pipe it can write through: a directory, a
// socket, a block device, a symbolic link to one, a dangling symbolic link.
var ErrNotRegular = fault.NewInput("not a regular file")

// tempMarker is the part of a temporary file's name that says who made it and for which
// target: ".<target>" + tempMarker + "<pid>-<random>", in the target's directory.
const tempMarker = ".aucopt-tmp-"

// WriteAtomic is WriteAtomicContext without cancellation.
func WriteAtomic(path string, write func(io.Writer) error) error {
	return WriteAtomicContext(context.Background(), path, write)
}

// WriteAtomicContext writes the file path so that it never holds a partial one, by the
// kind of file path names:
//
//   - nothing (a new file), or a regular file: write fills a temporary file in the same
//     directory, which is synced and renamed over path only when everything succeeded;
//     on any error, or when ctx is cancelled (checked at every 64 KiB written and
//     before the rename), it is removed and path is left as it was. A new file gets
//     the mode os.Create gives (0666 less the umask: the temporary file is created
//     with it), a replaced one keeps its mode.
//   - a symbolic link: what it points at is written by these rules, and the link stays.
//     A dangling link is refused (ErrNotRegular): its target might be anywhere.
//   - a character device or a named pipe (/dev/stdout, /dev/null, /dev/full, a FIFO),
//     and /dev/stdout, /dev/stderr and /dev/fd/N whatever they are: written through
//     (no temporary file, no atomicity), their write errors (ENOSPC for /dev/full)
//     returned. A device is never replaced by a regular file.
//   - anything else (a directory, a socket, a block device): refused with an error
//     wrapping ErrNotRegular.
//
// A temporary file is named ".<name>.aucopt-tmp-<pid>-<random>"; one that a killed
// process (SIGKILL, a crash) left behind is removed by the next WriteAtomic of the same
// path once that process is gone. Errors name path, never the temporary file.
func WriteAtomicContext(ctx context.Context, path string, write func(io.Writer) error) error {
	if err := writeAtomic(ctx, path, write); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func writeAtomic(ctx context.Context, path string, write func(io.Writer) error) error {
	if isStdStream(path) {
		return writeThrough(ctx, path, write)
	}
	target := path
	var mode fs.FileMode = 0o666 // less the umask, applied by open(2)
	keepMode := false
	lst, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case lst.Mode()&fs.ModeSymlink != 0:
		st, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("%w: a symbolic link to a missing file", ErrNotRegular)
		}
		if !st.Mode().IsRegular() {
			return writeSpecial(ctx, path, st, write)
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return err
		}
		mode, keepMode = st.Mode().Perm(), true
	case !lst.Mode().IsRegular():
		return writeSpecial(ctx, path, lst, write)
	default:
		mode, keepMode = lst.Mode().Perm(), true
	}
	removeStale(target)
	f, err := createTemp(target)
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = fill(ctx, f, write, true)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && keepMode {
		err = os.Chmod(tmp, mode) // open(2) applied the umask to the old file's mode
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeSpecial writes through a character device or a named pipe and refuses any other
// file that is not regular.
func writeSpecial(ctx context.Context, path string, st fs.FileInfo, write func(io.Writer) error) error {
	switch m := st.Mode(); {
	case m.IsDir():
		return fmt.Errorf("%w: is a directory", ErrNotRegular)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
		return writeThrough(ctx, path, write)
	default:
		return fmt.Errorf("%w: a %s", ErrNotRegular, kindOf(m))
	}
}

// kindOf names a file mode's type.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return "special file"
}

// isStdStream reports whether path names the process's own standard output or error or
// a descriptor of it, which are written through whatever they are (a terminal, a pipe,
// or a file the shell opened).
func isStdStream(path string) bool {
	switch p := filepath.Clean(path); {
	case p == "/dev/stdout", p == "/dev/stderr":
		return true
	case strings.HasPrefix(p, "/dev/fd/"), strings.HasPrefix(p, "/proc/self/fd/"):
		_, err := strconv.Atoi(p[strings.LastIndexByte(p, '/')+1:])
		return err == nil
	}
	return false
}

// writeThrough writes to an existing file in place: a device, a pipe, a standard
// stream (appended to, as a shell's >> and > both leave it).
func writeThrough(ctx context.Context, path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	err = fill(ctx, f, write, false)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fill runs write into f through a buffer, checking ctx at every flush, and syncs f
// when sync is set.
func fill(ctx context.Context, f *os.File, write func(io.Writer) error, sync bool) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, f}, 1<<16)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && sync {
		err = f.Sync()
	}
	return err
}

// ctxWriter is a writer that fails with ctx's error once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// MaxNameBytes is the longest file name (one element of a path) that the common file
// systems take: NAME_MAX of ext4, XFS, btrfs and tmpfs, and about APFS's and NTFS's.
// An output whose name is longer cannot be created; a caller can refuse it before any
// work.
const MaxNameBytes = 255

// tempSuffixBytes bounds what createTemp appends to tempPrefix: a process id (at most
// 10 digits), "-" and 12 hexadecimal digits.
const tempSuffixBytes = 10 + 1 + 12

// tempPrefix is the start of the names of target's temporary files: "." + its name +
// tempMarker. A name too long for that to fit in MaxNameBytes with createTemp's suffix
// is cut (at a character's start) and ends in "~" and 16 hexadecimal digits of its
// SHA-256 instead, so that every legal name has temporary files, the same for the same
// name (removeStale finds them).
func tempPrefix(target string) string {
	base := filepath.Base(target)
	if 1+len(base)+len(tempMarker)+tempSuffixBytes > MaxNameBytes {
		sum := sha256.Sum256([]byte(base))
		keep := MaxNameBytes - 1 - len(tempMarker) - tempSuffixBytes - 1 - 16
		for keep > 0 && !utf8.RuneStart(base[keep]) {
			keep--
		}
		base = base[:keep] + "~" + hex.EncodeToString(sum[:8])
	}
	return "." + base + tempMarker
}

// createTemp creates a new temporary file for target in its directory with mode 0666
// less the umask (O_EXCL: a name that exists is never reused).
func createTemp(target string) (*os.File, error) {
	dir, prefix := filepath.Dir(target), tempPrefix(target)+strconv.Itoa(os.Getpid())+"-"
	for range 100 {
		var rnd [6]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(rnd[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// The user named target; say why it cannot be created without the temporary name.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				return nil, pe.Err
			}
			return nil, err
		}
		return f, nil
	}
	return nil, errors.New("no free temporary file name")
}

// removeStale removes the temporary files of target that a process which no longer
// runs left behind (it was killed while writing). Errors are ignored: a stale file left
// is harmless, and the write goes on.
func removeStale(target string) {
	dir, prefix := filepath.Dir(target), tempPrefix(target)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !e.Type().IsRegular() {
			continue
		}
		pidStr, _, ok := strings.Cut(name[len(prefix):], "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}
