package data

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic writes a file so that path never holds a partial one: write fills a
// temporary file in the same directory, which is synced and renamed over path only when
// everything succeeded; on any error it is removed and path is left as it was.
func WriteAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file 0600; give it the mode os.Create would (0644 before
		// the umask), or keep the mode of the file it replaces.
		mode := os.FileMode(0o644)
		if st, serr := os.Stat(path); serr == nil {
			mode = st.Mode().Perm()
		}
		err = os.Chmod(f.Name(), mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
