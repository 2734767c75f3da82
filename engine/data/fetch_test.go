package data

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ulikunitz/xz"
)

// germanPublic is german_scale.txt as published: the embedded copy, decompressed.
func germanPublic(t *testing.T) []byte {
	t.Helper()
	f, err := embedded.Open("embedded/german_scale.txt.xz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := xz.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mirror is a test server holding one file at the path of its registry address, which
// answers range requests (http.ServeContent) and records what it was asked.
type mirror struct {
	*httptest.Server
	mu     sync.Mutex
	ranges []string
}

func newMirror(t *testing.T, path string, body []byte) *mirror {
	m := &mirror{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		m.mu.Lock()
		m.ranges = append(m.ranges, r.Header.Get("Range"))
		m.mu.Unlock()
		http.ServeContent(w, r, filepath.Base(path), time.Time{}, bytes.NewReader(body))
	}))
	t.Cleanup(m.Close)
	return m
}

// TestFetch downloads german from a local mirror: fresh, resumed from a partial file,
// already present, refused when the bytes are not the registry's, and the fetched file
// is what Load then reads.
func TestFetch(t *testing.T) {
	idx, err := index()
	if err != nil {
		t.Fatal(err)
	}
	facts := idx["german.numer/german_scale.txt.xz"]
	path := strings.TrimPrefix(facts.URL, GitHubRaw)
	public := germanPublic(t)
	m := newMirror(t, path, public)
	dir := t.TempDir()
	target := filepath.Join(dir, "german.numer", "german_scale.txt")

	var last [2]int64
	got, err := Fetch("german", FetchOptions{Dir: dir, BaseURL: m.URL, Progress: func(_ string, done, total int64) { last = [2]int64{done, total} }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Status != "fetched" || got[0].Bytes != int64(len(public)) || got[0].Path != target {
		t.Errorf("fetched %+v, want one file of %d bytes at %s", got, len(public), target)
	}
	if last != [2]int64{int64(len(public)), int64(len(public))} {
		t.Errorf("last progress %v, want %d of %d", last, len(public), len(public))
	}
	t.Setenv(EnvData, dir)
	sp, err := Load("german", LoadOptions{})
	if err != nil || sp.Where != dir || sp.Train.Rows() != 1000 {
		t.Fatalf("Load after fetch: %v, where %q", err, sp.Where)
	}
	info, err := Describe("german", LoadOptions{})
	if err != nil || !info.Indexed || info.Rows != 1000 || info.Positives != 300 {
		t.Errorf("Describe after fetch: %+v, %v; want 1000 rows, 300 positive, from the index", info, err)
	}

	// Present: no request.
	n := len(m.ranges)
	if got, err := Fetch("german", FetchOptions{Dir: dir, BaseURL: m.URL}); err != nil || got[0].Status != "present" || len(m.ranges) != n {
		t.Errorf("second fetch: %+v, %v, %d requests; want present and none", got, err, len(m.ranges)-n)
	}

	// Resumed: a partial download continues from its size by a range request.
	os.Remove(target)
	if err := os.WriteFile(target+".part", public[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = Fetch("german", FetchOptions{Dir: dir, BaseURL: m.URL})
	if err != nil || got[0].Status != "resumed" || got[0].Resumed != 1000 || got[0].Bytes != int64(len(public)-1000) {
		t.Errorf("resume: %+v, %v", got, err)
	}
	if r := m.ranges[len(m.ranges)-1]; r != "bytes=1000-" {
		t.Errorf("resume asked for range %q, want bytes=1000-", r)
	}
	if b, err := os.ReadFile(target); err != nil || !bytes.Equal(b, public) {
		t.Errorf("resumed file differs from the published one (%v)", err)
	}
	if _, err := os.Stat(target + ".part"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial file left: %v", err)
	}

	// A file in the way that is not the registry's is reported, not overwritten.
	os.WriteFile(target, []byte("+1 1:1\n"), 0o644)
	if _, err := Fetch("german", FetchOptions{Dir: dir, BaseURL: m.URL}); !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "is in the way") {
		t.Errorf("a foreign file in the way: %v", err)
	}
}

// TestFetchErrors: a mirror with other bytes, a missing file, no network, a converted
// dataset and a cancelled download each fail with one line, leaving no file but a
// cancelled download's partial one.
func TestFetchErrors(t *testing.T) {
	idx, _ := index()
	path := strings.TrimPrefix(idx["german.numer/german_scale.txt.xz"].URL, GitHubRaw)
	public := germanPublic(t)
	tampered := bytes.Clone(public)
	tampered[100] ^= 1
	bad := newMirror(t, path, tampered)
	empty := newMirror(t, "/nothing", nil)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	tests := []struct {
		name, dataset, base string
		is                  error
		want                string
	}{
		{"tampered", "german", bad.URL, ErrFetch, "the registry records"},
		{"missing", "german", empty.URL, nil, "404 Not Found"},
		{"offline", "german", closed.URL, nil, "connection refused"},
		{"converted", "australian", bad.URL, ErrNotFetchable, "converted here"},
		{"unknown", "imagenet", bad.URL, ErrUnknownDataset, "imagenet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := Fetch(tt.dataset, FetchOptions{Dir: dir, BaseURL: tt.base})
			if err == nil || tt.is != nil && !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tt.want)
			}
			var left []string
			filepath.WalkDir(dir, func(p string, d os.DirEntry, _ error) error {
				if !d.IsDir() {
					left = append(left, p)
				}
				return nil
			})
			if tt.name == "tampered" && len(left) != 0 {
				t.Errorf("files left after a wrong download: %v", left)
			}
		})
	}

	t.Run("cancelled", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		m := newMirror(t, path, public)
		_, err := Fetch("german", FetchOptions{Dir: dir, BaseURL: m.URL, Context: ctx, Progress: func(_ string, done, _ int64) {
			if done > 0 {
				cancel()
			}
		}})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "fetch again to resume") {
			t.Fatalf("error %v, want cancelled with the partial file kept", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "german.numer", "german_scale.txt.part")); err != nil {
			t.Errorf("partial file: %v", err)
		}
	})
}

// TestDescribe: listing from the index gives the figures loading gives, for binary,
// split and multi-class datasets, and for the embedded copies.
func TestDescribe(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sharedData, "MANIFEST.tsv")); err != nil {
		t.Setenv(EnvData, t.TempDir()) // the embedded copies only
	} else {
		t.Setenv(EnvData, sharedData)
	}
	for _, name := range []string{"a9a", "german", "splice", "svmguide3", "letter", "heart"} {
		t.Run(name, func(t *testing.T) {
			sp, err := Load(name, LoadOptions{Seed: 3})
			if err != nil {
				t.Skipf("%s absent: %v", name, err)
			}
			info, err := Describe(name, LoadOptions{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			pos, _ := sp.Train.Counts()
			testRows := 0
			if sp.Test != nil {
				testRows = sp.Test.Rows()
			}
			if !info.Indexed || info.Rows != sp.Train.Rows() || info.TestRows != testRows || info.Features != sp.Train.Dim || info.Positives != pos || info.Where != sp.Where {
				t.Errorf("Describe %+v; Load: %d rows, %d test rows, %d features, %d positive, in %s", info, sp.Train.Rows(), testRows, sp.Train.Dim, pos, sp.Where)
			}
		})
	}
}
