package data

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
)

// GitHubRaw is the host the registry's files are downloaded from; FetchOptions.BaseURL
// replaces it (a mirror, or a server in a test).
const GitHubRaw = "https://raw.githubusercontent.com"

// ErrNotFetchable is wrapped by Fetch's error for a dataset whose stored copy was made
// here from another format, so that no public file has its contents.
var ErrNotFetchable = errors.New("not downloadable")

// ErrFetch is wrapped by Fetch's errors that come from the data received: a download
// whose SHA-256 is not the registry's, or a file in the way that is not the registry's.
var ErrFetch = errors.New("fetch")

// FetchOptions control Fetch.
type FetchOptions struct {
	// Dir is the data directory the files are stored in, laid out as DataDir is:
	// Dir/<dataset>/<file>. Required.
	Dir string
	// BaseURL, when set, replaces GitHubRaw in the files' addresses.
	BaseURL string
	// Client makes the requests; nil: http.DefaultClient.
	Client *http.Client
	// Progress, when set, is called as bytes arrive: the file, the bytes it has so far
	// (a resumed download starts at its partial size) and its full size.
	Progress func(file string, done, total int64)
	// Context, when set, stops the download once done; the partial file is kept, and
	// the next Fetch resumes it.
	Context context.Context
}

// Fetched is what Fetch did with one file of a dataset.
type Fetched struct {
	File    string // the registry's file name
	Path    string // where it is now
	Status  string // "present" (already there), "fetched" or "resumed"
	Bytes   int64  // bytes downloaded by this call
	Resumed int64  // bytes of a partial download this call started from
}

// fetchedName is the name a fetched file is stored under: the public file as it was
// downloaded, which is the registry's file without the .xz the stored copies added.
func fetchedName(file string) string { return strings.TrimSuffix(file, ".xz") }

// Fetch downloads the files of the registered dataset name into opts.Dir, unless they
// are there already (the registry's stored copy, or a fetched file of the right
// SHA-256). A download goes to FILE.part, resumed from its size by an HTTP range
// request when a previous one was cut off, and is renamed to FILE only once its
// SHA-256 is the one the registry records; a wrong one is removed and reported.
func Fetch(name string, opts FetchOptions) ([]Fetched, error) {
	src, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if opts.Dir == "" {
		return nil, fmt.Errorf("dataset %s: no directory to fetch into", src.Name)
	}
	idx, err := index()
	if err != nil {
		return nil, err
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var done []Fetched
	for _, file := range src.files() {
		f := idx[file]
		if f.URL == "" {
			return done, fmt.Errorf("dataset %s: %w: %s", src.Name, ErrNotFetchable, f.FetchComment)
		}
		got, err := fetchFile(ctx, f, opts)
		if err != nil {
			return done, fmt.Errorf("dataset %s: %w", src.Name, err)
		}
		done = append(done, got)
	}
	return done, nil
}

// fetchFile brings one file of the index into opts.Dir.
func fetchFile(ctx context.Context, f fileFacts, opts FetchOptions) (Fetched, error) {
	stored := filepath.Join(opts.Dir, f.File)
	target := filepath.Join(opts.Dir, fetchedName(f.File))
	res := Fetched{File: f.File, Path: target, Status: "present"}
	if st, err := os.Stat(stored); err == nil && st.Size() == f.Size {
		res.Path = stored
		return res, nil
	}
	if _, err := os.Stat(target); err == nil {
		sum, err := fileSHA256(target)
		if err != nil {
			return res, err
		}
		if sum != f.FetchSHA256 {
			return res, fmt.Errorf("%w: %s is in the way: its SHA-256 is %s, the registry's %s (move it away and fetch again)", ErrFetch, target, sum, f.FetchSHA256)
		}
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return res, err
	}
	part := target + ".part"
	w, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return res, err
	}
	defer w.Close()
	off, err := w.Seek(0, io.SeekEnd)
	if err != nil {
		return res, err
	}
	if off > f.FetchSize { // not a prefix of this file
		if err := w.Truncate(0); err != nil {
			return res, err
		}
		off, _ = w.Seek(0, io.SeekStart)
	}
	if off < f.FetchSize {
		n, from, err := download(ctx, f, opts, w, off)
		res.Bytes, res.Resumed = n, from
		if err != nil && from+n == 0 { // nothing to resume
			w.Close()
			os.Remove(part)
			os.Remove(filepath.Dir(part)) // the dataset's directory, when this made it
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			return res, fmt.Errorf("downloading %s: %w", f.URL, err)
		}
		if err != nil {
			if ctx.Err() != nil {
				return res, fmt.Errorf("%w (%d of %d bytes kept in %s: fetch again to resume)", ctx.Err(), from+n, f.FetchSize, part)
			}
			return res, fmt.Errorf("downloading %s: %w (%d of %d bytes kept in %s: fetch again to resume)", f.URL, err, from+n, f.FetchSize, part)
		}
	}
	if err := w.Sync(); err != nil {
		return res, err
	}
	if err := w.Close(); err != nil {
		return res, err
	}
	sum, err := fileSHA256(part)
	if err != nil {
		return res, err
	}
	if sum != f.FetchSHA256 {
		os.Remove(part)
		return res, fmt.Errorf("%w: %s downloaded with SHA-256 %s, the registry records %s (removed; fetch again, or check the mirror)", ErrFetch, f.URL, sum, f.FetchSHA256)
	}
	if err := os.Rename(part, target); err != nil {
		return res, err
	}
	res.Status = "fetched"
	if res.Resumed > 0 {
		res.Status = "resumed"
	}
	return res, nil
}

// download appends f's bytes from offset off to w, by a range request when off > 0,
// and returns the bytes written and the offset it really started from (0 when the
// server ignored the range).
func download(ctx context.Context, f fileFacts, opts FetchOptions, w *os.File, off int64) (int64, int64, error) {
	url := f.URL
	if opts.BaseURL != "" {
		url = strings.TrimSuffix(opts.BaseURL, "/") + strings.TrimPrefix(url, GitHubRaw)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, off, err
	}
	if off > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	client := opts.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if ue := (*neturl.Error)(nil); errors.As(err, &ue) {
		return 0, off, ue.Err // its message repeats the address
	}
	if err != nil {
		return 0, off, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusPartialContent && off > 0:
	case resp.StatusCode == http.StatusOK:
		if off > 0 { // the server sends the whole file: start again
			if err := w.Truncate(0); err != nil {
				return 0, off, err
			}
			if _, err := w.Seek(0, io.SeekStart); err != nil {
				return 0, off, err
			}
			off = 0
		}
	default:
		return 0, off, fmt.Errorf("%s: HTTP %s", url, resp.Status)
	}
	var body io.Reader = &ctxReader{ctx: ctx, r: io.LimitReader(resp.Body, f.FetchSize-off+1)} // one byte over: too long shows in the SHA-256
	if opts.Progress != nil {
		body = &progressReader{r: body, file: f.File, done: off, total: f.FetchSize, report: opts.Progress}
		opts.Progress(f.File, off, f.FetchSize)
	}
	n, err := io.Copy(w, body)
	return n, off, err
}

// progressReader reports the bytes read through it.
type progressReader struct {
	r           io.Reader
	file        string
	done, total int64
	report      func(string, int64, int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	p.report(p.file, p.done, p.total)
	return n, err
}

// ctxReader stops reading once its context is done (a body already buffered by the
// transport would otherwise be read to its end).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
