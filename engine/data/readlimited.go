package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is wrapped by ReadLimited's error for a file larger than its limit.
var ErrTooLarge = errors.New("file too large")

// ReadOptions control ReadLimited.
type ReadOptions struct {
	// Max is the most bytes the file may have (> 0); a larger one is refused with an
	// error wrapping ErrTooLarge, before anything is read when the file is regular
	// (its size is known), else once Max bytes have been read.
	Max int64
	// RegularOnly refuses, before opening it, a file that is not regular (a device, a
	// FIFO, a socket, a directory) with an error wrapping ErrNotRegular.
	RegularOnly bool
	// Check, when set, is called with the bytes read so far after every read; an error
	// stops the reading and is returned, so that a stream of garbage (/dev/zero as a
	// model) is refused at its first bytes, not at Max.
	Check func(sofar []byte) error
}

// readChunk is the most bytes ReadLimited reads between two checks of its context.
const readChunk = 1 << 20

// ReadLimited reads the whole file at path within opts: the bytes it may hold are
// bounded by the size of a regular file and by opts.Max for any file, and ctx is
// honoured throughout, even where the system blocks: the file is opened and read in a
// goroutine that is abandoned when ctx is done (a FIFO without a writer blocks in
// open(2), a pipe whose writer is silent in read(2)); its error is then ctx's, and the
// goroutine ends when the blocked call returns. Errors name path.
func ReadLimited(ctx context.Context, path string, opts ReadOptions) ([]byte, error) {
	if opts.Max <= 0 {
		return nil, fmt.Errorf("%s: read limit %d bytes", path, opts.Max)
	}
	if opts.RegularOnly {
		// Stat first: a FIFO is refused without being opened, so no open blocks.
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w (a %s)", path, ErrNotRegular, FileKind(st.Mode()))
		}
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned reader's send never blocks
	go func() {
		b, err := readLimited(ctx, path, opts)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: reading stopped: %w", path, ctx.Err())
	}
}

func readLimited(ctx context.Context, path string, opts ReadOptions) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mode := st.Mode()
	if opts.RegularOnly && !mode.IsRegular() { // replaced since the Stat
		return nil, fmt.Errorf("%s: %w (a %s)", path, ErrNotRegular, FileKind(mode))
	}
	if mode.IsDir() {
		return nil, fmt.Errorf("%s: %w: is a directory", path, ErrNotRegular)
	}
	size := int64(64 << 10)
	if mode.IsRegular() {
		if st.Size() > opts.Max {
			return nil, tooLarge(path, st.Size(), opts.Max)
		}
		size = st.Size() + 1 // +1: the EOF read needs room
	}
	buf := make([]byte, 0, min(size, opts.Max+1))
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: reading stopped: %w", path, err)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), len(buf)+readChunk)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > opts.Max {
			return nil, tooLarge(path, int64(len(buf)), opts.Max)
		}
		if opts.Check != nil && n > 0 {
			if err := opts.Check(buf); err != nil {
				return nil, err
			}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s: %w: %d bytes or more, the most it may have is %d", path, ErrTooLarge, size, limit)
}

// FileKind names the type of a file that is not regular, for messages: "directory",
// "named pipe", "character device", "socket", "block device", …
func FileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeCharDevice != 0:
		return "character device"
	}
	return kindOf(m)
}
