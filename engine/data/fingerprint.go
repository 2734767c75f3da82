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
// training data. It reads the file once, sequentially. (Hashing through a mapping
// saved 12 % of the time of an 800 MB file in the page cache, but its pages counted in
// the process's resident memory a second time: 1.1 → 1.6–1.8 GB peak for ls-auc on
// bench/dataload.sh's dense file. Reading keeps 64 KiB resident.)
func FileSHA256(path string) (string, error) {
	f, err := openInput(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readSHA256(f, path)
}

// Fingerprint returns the fingerprint model files record of the training file at
// path: for a binary cache of format version 3 the digest it stores (the SHA-256 of its
// bytes before the digest, written with the cache; the cache's checksum covers it, and
// every read of the cache verifies that checksum), read in place of hashing the file
// again; for any other file FileSHA256, the SHA-256 of the file as stored, through a
// read-only mapping (no copy out of the page cache): of the whole file up to 64 MiB, of
// 16 MiB at a time above (so that a large file's pages do not count in the resident
// set beside its dataset); read where mapping fails.
func Fingerprint(path string) (string, error) {
	f, err := openInput(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if sum, ok := storedDigest(f, st.Size()); ok {
			return sum, nil
		}
		if m := mapSmall(f, st.Size()); m != nil {
			defer unmapFile(m)
			var sum [sha256.Size]byte
			if err := guardFault(path, func() { sum = sha256.Sum256(m) }); err != nil {
				return "", err
			}
			return hex.EncodeToString(sum[:]), nil
		}
		var sum string
		var ok bool
		if err := guardFault(path, func() { sum, ok = windowSHA256(f, st.Size(), 16<<20) }); err != nil {
			return "", err
		}
		if ok {
			return sum, nil
		}
	}
	return readSHA256(f, path)
}

// windowSHA256 hashes the regular file f of size bytes through a read-only mapping of
// window bytes at a time (mapWindow): no copy out of the page cache, and one window's
// pages in the resident set. ok is false when a window cannot be mapped.
func windowSHA256(f *os.File, size, window int64) (sum string, ok bool) {
	h := sha256.New()
	for off := int64(0); off < size; off += window {
		m, b := mapWindow(f, off, min(off+window, size))
		if m == nil {
			return "", false
		}
		func() {
			defer unmapFile(m) // also when the file shrank under it (guardFault)
			h.Write(b)
		}()
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// storedDigest returns the digest a version-3 cache f of size bytes stores, read at its
// place (f's offset is unchanged); ok is false for any other file, or one too short for
// its header (whose read reports what is wrong).
func storedDigest(f *os.File, size int64) (sum string, ok bool) {
	var hdr [cacheHeader]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return "", false
	}
	ch, err := parseCacheHead(hdr[:], size)
	if err != nil || ch.version < 3 || !ch.known() {
		return "", false
	}
	var d [digestSize]byte
	if _, err := f.ReadAt(d[:], int64(ch.layout.digest)); err != nil {
		return "", false
	}
	return hex.EncodeToString(d[:]), true
}

// SourceSHA256 returns the SHA-256 of the training file of the registered dataset name
// (KnownDataset.Train), found where Load finds it: the data directory, else the embedded copy.
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
