package data

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// FileSHA256 returns the hexadecimal SHA-256 of the file at path as stored (a
// compressed file's compressed bytes): the fingerprint model files record of their
// training data. A regular file of at least mapMinBytes is hashed through a read-only
// mapping (no copy of its pages, which is most of the cost of reading a file already in
// the page cache), anything else by one sequential read.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() >= mapMinBytes && int64(int(st.Size())) == st.Size() {
		if m, err := mapFileRead(f, int(st.Size())); err == nil && m != nil {
			defer unmapFile(m)
			sum := sha256.Sum256(m)
			return hex.EncodeToString(sum[:]), nil
		}
	}
	return readSHA256(f, path)
}

// mapMinBytes is the size from which FileSHA256 maps a file instead of reading it.
const mapMinBytes = 16 << 20

// SourceSHA256 returns the SHA-256 of the training file of the registered dataset name
// (Source.Train), found where Load finds it: the data directory, else the embedded copy.
func SourceSHA256(name string) (string, error) {
	src, err := Lookup(name)
	if err != nil {
		return "", err
	}
	open, _, err := locate(src)
	if err != nil {
		return "", err
	}
	f, err := open(src.Train)
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", src.Name, err)
	}
	defer f.Close()
	return readSHA256(f, src.Train)
}

func readSHA256(r io.Reader, name string) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("fingerprint of %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
