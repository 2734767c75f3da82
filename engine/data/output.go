package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CheckOutput checks, before any work, that path can be written as an output file
// (WriteAtomic): its name fits a file system (MaxNameBytes), its directory exists and
// is a directory, and path is a new file, a regular one, a link to one, or a device or
// pipe to write through. The error says what is wrong, for the caller to prefix with
// the flag and path; an empty path is no output.
func CheckOutput(path string) error {
	if path == "" {
		return nil
	}
	if n := len(filepath.Base(path)); n > MaxNameBytes {
		return fmt.Errorf("a file name of %d bytes, longer than the %d a file system takes", n, MaxNameBytes)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	_, lerr := os.Lstat(path)
	st, err = os.Stat(path)
	switch {
	case lerr != nil:
		return nil // a new file
	case err != nil:
		return fmt.Errorf("%w: a symbolic link to a missing file (%v)", ErrNotRegular, err)
	case st.IsDir():
		return fmt.Errorf("%w: is a directory", ErrNotRegular)
	case !st.Mode().IsRegular() && st.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) == 0:
		return fmt.Errorf("%w, which aucopt does not replace", ErrNotRegular)
	}
	return nil
}

// OverwrittenInput is the rule for outputs that name inputs, of every command: it
// returns the input (as named) that writing out would destroy, and the file by which
// out names it, or "" when out names none. out names an input when it is the same
// file, through any link or path (os.SameFile); an input is a file, a glob of files
// (filepath.Glob's patterns, expanded) or a dataset name, which stands for its files
// in DataDir; two paths of files that do not exist yet are compared by their cleaned
// absolute form. Inputs "" and those of a remote file system (scheme://…) are skipped.
// An out that is a device, a pipe or a standard stream is written through, never
// replaced, so it is no input's file however often it is named.
func OverwrittenInput(out string, inputs ...string) (input, file string) {
	if out == "" || IsStream(out) {
		return "", ""
	}
	ost, oerr := os.Stat(out)
	for _, in := range inputs {
		if in == "" || strings.Contains(in, "://") {
			continue
		}
		for _, f := range inputFiles(in) {
			ist, ierr := os.Stat(f)
			same := oerr == nil && ierr == nil && os.SameFile(ost, ist)
			if oerr != nil && ierr != nil {
				a, err1 := filepath.Abs(out)
				b, err2 := filepath.Abs(f)
				same = err1 == nil && err2 == nil && a == b
			}
			if same {
				return in, f
			}
		}
	}
	return "", ""
}

// inputFiles are the files an input names: itself when it is a file, the matches of a
// glob, a dataset's training and test files in the data directory, else itself.
func inputFiles(in string) []string {
	if _, err := os.Stat(in); err == nil {
		return []string{in}
	}
	if strings.ContainsAny(in, "*?[") {
		if m, err := filepath.Glob(in); err == nil && len(m) > 0 {
			return m
		}
	}
	src, err := Lookup(in)
	dir := DataDir()
	if err != nil || dir == "" {
		return []string{in}
	}
	files := []string{filepath.Join(dir, src.Train)}
	if src.Test != "" {
		files = append(files, filepath.Join(dir, src.Test))
	}
	return files
}
