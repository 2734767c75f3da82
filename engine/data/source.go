package data

// Source is one input's labelled rows in order, whatever its format: what Open returns
// (a *Reader) for a file or standard input, told by DetectFile's rules (magic bytes,
// then name, then LIBSVM text) from the registered formats (RegisterFormat). engine,
// cmd and dist read data through it, or through the functions built on it
// (ReadFileContext, ReadInput, StreamRows, Load), and make no format decision of
// their own (TestFormatDecisionsInData).
//
// A Source may have optional capabilities, asked by a type assertion: SizeHinter
// (bounds on its rows and values before they are read). Chunked parallel parsing is a
// capability of the format (Format.Chunked: ReadFileContext and StreamRows parse such
// a file in line-aligned chunks on every core), random access one of the binary cache
// (ReadCache maps it whole).
type Source interface {
	Stream
	// Schema is the table schema the rows are read with; nil for LIBSVM text or a cache.
	Schema() *Schema
	// Close releases the input.
	Close() error
}

// SizeHinter is a Source that bounds its rows and stored values before reading them
// (a Parquet file's metadata), so that a reader of all of them allocates once.
type SizeHinter interface {
	// SizeHint returns the bounds, ok false when the source has none.
	SizeHint() (rows int, values int64, ok bool)
}

var (
	_ Source     = (*Reader)(nil)
	_ SizeHinter = (*Reader)(nil)
)

// SizeHint returns bounds on the rows and stored values still to come: a Parquet
// table's (its metadata), else ok false.
func (r *Reader) SizeHint() (rows int, values int64, ok bool) {
	if h, is := r.table.(sizeHinter); is {
		rows, values = h.sizeHint()
		return rows, values, true
	}
	return 0, 0, false
}
