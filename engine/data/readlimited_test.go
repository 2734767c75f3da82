package data

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadLimited(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	content := bytes.Repeat([]byte("0123456789"), 300_000) // 3 MB: several chunks
	if err := os.WriteFile(small, content, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	if f, err := os.Create(sparse); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(1 << 40) // 1 TiB of holes: refused by its size, never read
		f.Close()
	}
	junk := errors.New("junk")
	tests := []struct {
		name string
		path string
		opts ReadOptions
		is   error  // nil: the content of small
		want string // in the error
	}{
		{"whole file", small, ReadOptions{Max: int64(len(content))}, nil, ""},
		{"regular only", small, ReadOptions{Max: 1 << 30, RegularOnly: true}, nil, ""},
		{"one byte over", small, ReadOptions{Max: int64(len(content)) - 1}, ErrTooLarge, "3000000 bytes or more, the most it may have is 2999999"},
		{"sparse terabyte", sparse, ReadOptions{Max: 1 << 30}, ErrTooLarge, "1099511627776 bytes"},
		{"device without end", "/dev/zero", ReadOptions{Max: 3 << 20}, ErrTooLarge, "the most it may have is 3145728"},
		{"device refused by its first bytes", "/dev/zero", ReadOptions{Max: 1 << 40, Check: func([]byte) error { return junk }}, junk, ""},
		{"device, regular only", "/dev/zero", ReadOptions{Max: 1 << 30, RegularOnly: true}, ErrNotRegular, "character device"},
		{"directory", dir, ReadOptions{Max: 1 << 30}, ErrNotRegular, "directory"},
		{"missing", filepath.Join(dir, "none"), ReadOptions{Max: 1 << 30}, os.ErrNotExist, "none"},
		{"no limit", small, ReadOptions{}, nil, "read limit 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.path, "/dev/") {
				if _, err := os.Stat(tt.path); err != nil {
					t.Skip(err)
				}
			}
			b, err := ReadLimited(context.Background(), tt.path, tt.opts)
			switch {
			case tt.is == nil && tt.want == "":
				if err != nil || !bytes.Equal(b, content) {
					t.Errorf("%d bytes, error %v; want the file's %d", len(b), err, len(content))
				}
			case tt.is == nil:
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %v, want one saying %q", err, tt.want)
				}
			case !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %v, want one wrapping %v saying %q", err, tt.is, tt.want)
			}
		})
	}
}

// TestReadLimitedContext: a cancelled context stops the read of a file.
func TestReadLimitedContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadLimited(ctx, os.Args[0], ReadOptions{Max: 1 << 40}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
