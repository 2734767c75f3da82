package data

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/twmb/murmur3"
)

// Tables (CSV, TSV, Parquet) become labelled sparse rows through a Schema: one column is
// the label, numeric feature columns keep their values at features 0..len(Numeric)−1 in
// the order of their names, and categorical columns (strings, or columns named in
// TableOptions.Categorical) are one-hot encoded by signed feature hashing into 2^HashBits
// buckets that follow the numeric features. The hash is MurmurHash3 (x86, 32 bit) of
// "column=value" with the schema's seed, as scikit-learn's FeatureHasher does with seed
// 0: bucket |h| mod 2^HashBits, sign + for h ≥ 0 and − otherwise. Values of one row that
// share a bucket are summed.
//
// A category that is a number is hashed in one canonical text (HashMurmur3Canonical,
// canonicalCategory), so that a table hashes alike whether it was written as CSV or as
// Parquet, and whatever the number's column type there: CSV "1.0", "01" and "+1", a
// Parquet int64 1 and a double 1.0 are all the category "1".

// The missing-value policies of TableOptions.Missing.
const (
	MissingError = "error" // a missing value is an error naming file, line and column (default)
	MissingZero  = "zero"  // a missing numeric value is 0, a missing category no feature
	MissingSkip  = "skip"  // a row with a missing value is skipped
)

// DefaultHashBits is the number of hash bits when TableOptions.HashBits is 0: 2^18
// buckets, few collisions for up to some ten thousand distinct categories.
const DefaultHashBits = 18

// MaxHashBits is the largest TableOptions.HashBits.
const MaxHashBits = 28

// The feature hashes of a Schema. New schemas use HashMurmur3Canonical; HashMurmur3,
// which hashed a category's text as the file held it (so that CSV "1.0" and a Parquet
// double 1 differed), is still applied to the models that recorded it.
const (
	HashMurmur3          = "murmur3_32"           // the text as written
	HashMurmur3Canonical = "murmur3_32_canonical" // numbers in canonical text
)

// DefaultLabel is the label column when TableOptions.Label is empty.
const DefaultLabel = "label"

// The kinds of table errors, for errors.Is (besides ErrLabel and ErrValue).
var (
	// ErrColumn: a named column is absent, or the file's columns do not match the schema.
	ErrColumn = errors.New("bad columns")
	// ErrRagged: a row has another number of fields than the header.
	ErrRagged = errors.New("wrong number of fields")
	// ErrMissing: a value is missing (with TableOptions.Missing "error").
	ErrMissing = errors.New("missing value")
	// ErrColumnType: a Parquet column has a type that cannot be a feature or label.
	ErrColumnType = errors.New("unsupported column type")
)

// TableOptions say how a table's columns become a label and features.
type TableOptions struct {
	Label       string   // the label column; "" means DefaultLabel
	Columns     []string // the feature columns; empty means every column but the label and Ignore
	Ignore      []string // columns left out
	Categorical []string // numeric columns to hash as categories (string columns always are)
	HashBits    int      // hash buckets 2^HashBits; 0 means DefaultHashBits
	HashSeed    uint32   // seed of the feature hash
	Missing     string   // MissingError (""), MissingZero or MissingSkip
	// Schema, when set, fixes the mapping (a model's): the file must have its feature
	// columns, in any order (they are matched by name), and the other options must be
	// zero but Unlabelled, AllowExtra, Ignore and Missing, which then mean: Ignore names
	// columns the schema does not know that are left out (a feature or the label of the
	// schema cannot be), and Missing, when set, replaces the schema's missing-value
	// policy.
	Schema *Schema
	// Unlabelled, with a Schema, lets the file lack the label column, for scoring
	// unlabelled rows: each row then has Example.Y 0 and Label 0. A file that has the
	// column is read as usual. It is an error without a Schema.
	Unlabelled bool
	// AllowExtra, with a Schema, leaves out every column the schema does not know.
	// Without it such a column is an error wrapping an *ExtraColumnsError, unless Ignore
	// or Carry names it. It is an error without a Schema.
	AllowExtra bool
	// Carry, when set, collects the text of some columns of each row as it is read.
	Carry *Carry
	// Weight, when set, is a numeric column of sample weights (finite, ≥ 0; weights.go):
	// not a feature, its values become the Dataset's W. The Schema records it (and
	// lists it among the ignored columns, so that files scored with the model may have
	// it or not).
	Weight string
}

// IsZero reports whether o is the zero value (all defaults).
func (o *TableOptions) IsZero() bool {
	return o == nil || o.Label == "" && len(o.Columns) == 0 && len(o.Ignore) == 0 && len(o.Categorical) == 0 &&
		o.HashBits == 0 && o.HashSeed == 0 && o.Missing == "" && o.Schema == nil && !o.Unlabelled && !o.AllowExtra && o.Carry == nil &&
		o.Weight == ""
}

// Schema is the mapping of a table's columns to the label and features, recorded in a
// model so that new files are read the same way.
type Schema struct {
	Label       string   `json:"label"`
	Positive    string   `json:"positive,omitempty"`
	Numeric     []string `json:"numeric,omitempty"`     // feature j is Numeric[j], sorted by name
	Categorical []string `json:"categorical,omitempty"` // hashed after the numeric features
	Ignored     []string `json:"ignored,omitempty"`     // columns of the training file left out
	Hash        string   `json:"hash"`                  // HashMurmur3
	HashBits    int      `json:"hash_bits"`
	HashSeed    uint32   `json:"hash_seed"`
	Missing     string   `json:"missing"`
	// Weight is the column of sample weights the model was trained with ("" for none;
	// TableOptions.Weight); it is also among Ignored.
	Weight string `json:"weight,omitempty"`
}

// Dim is the number of features: the numeric columns, then 2^HashBits buckets when there
// are categorical columns.
func (s *Schema) Dim() int {
	d := len(s.Numeric)
	if len(s.Categorical) > 0 {
		d += 1 << s.HashBits
	}
	return d
}

// Validate reports whether s can be applied.
func (s *Schema) Validate() error {
	if s.Label == "" {
		return errors.New("table schema: no label column")
	}
	if s.Hash != HashMurmur3Canonical && s.Hash != HashMurmur3 {
		return fmt.Errorf("table schema: unknown hash %q (want %s or %s)", s.Hash, HashMurmur3Canonical, HashMurmur3)
	}
	if s.HashBits < 1 || s.HashBits > MaxHashBits {
		return fmt.Errorf("table schema: hash_bits %d outside [1, %d]", s.HashBits, MaxHashBits)
	}
	if err := checkMissing(s.Missing); err != nil {
		return fmt.Errorf("table schema: %w", err)
	}
	if len(s.Numeric)+len(s.Categorical) == 0 {
		return errors.New("table schema: no feature columns")
	}
	seen := map[string]bool{s.Label: true}
	for _, c := range slices.Concat(s.Numeric, s.Categorical, s.Ignored) {
		if seen[c] {
			return fmt.Errorf("table schema: column %q named twice", c)
		}
		seen[c] = true
	}
	return nil
}

// CheckMissing reports whether m is a missing-value policy: MissingError, MissingZero
// or MissingSkip.
func CheckMissing(m string) error { return checkMissing(m) }

func checkMissing(m string) error {
	switch m {
	case MissingError, MissingZero, MissingSkip:
		return nil
	}
	return fmt.Errorf("missing-value policy %q: want %s, %s or %s", m, MissingError, MissingZero, MissingSkip)
}

// TableFormat returns the name of the table format (FormatCSV, FormatTSV,
// FormatParquet) a file name names by its extension (a compression's extension after
// it allowed), else "". Parquet files are also recognised by their magic bytes
// whatever their name (IsTableFile).
func TableFormat(path string) string {
	if f := byName(path); f.Table {
		return f.Name
	}
	return ""
}

// colKind is what a column's values are, as seen in the file.
type colKind int8

const (
	kindNumber colKind = iota // numbers (CSV: the first row's value parses as one)
	kindString                // text
	kindOther                 // a Parquet type that cannot be used
)

// column roles in a rowBuilder.
const (
	roleIgnore int8 = iota
	roleLabel
	roleNumeric
	roleCategorical
	roleWeight // TableOptions.Weight, when training
)

// resolveSchema maps a table's header to a Schema under opts (and Options.Positive).
// kinds are the columns' kinds; typeName names a column's type in errors (Parquet).
func resolveSchema(path string, header []string, kinds []colKind, typeName func(int) string, o Options) (*Schema, error) {
	topt := o.Table
	if topt == nil {
		topt = &TableOptions{}
	}
	colErr := func(format string, args ...any) error {
		return &ParseError{Path: path, Line: 1, Err: fmt.Errorf("%w: %w", ErrColumn, fault.Settingf(format, args...))}
	}
	index := make(map[string]int, len(header))
	for i, h := range header {
		if _, dup := index[h]; dup {
			return nil, colErr("column %q appears twice in the header", h)
		}
		index[h] = i
	}
	if topt.Schema == nil && (topt.Unlabelled || topt.AllowExtra) {
		return nil, fmt.Errorf("%s: reading a table without its label column or with extra columns needs the schema of a model", path)
	}
	if err := checkCarry(path, header, topt.Carry); err != nil {
		return nil, err
	}
	if topt.Schema != nil {
		return applySchema(path, header, index, kinds, typeName, topt, colErr)
	}
	s := &Schema{Label: topt.Label, Positive: o.Positive, Hash: HashMurmur3Canonical, HashBits: topt.HashBits, HashSeed: topt.HashSeed, Missing: topt.Missing}
	if s.Label == "" {
		s.Label = DefaultLabel
	}
	if s.HashBits == 0 {
		s.HashBits = DefaultHashBits
	}
	if s.Missing == "" {
		s.Missing = MissingError
	}
	if err := checkMissing(s.Missing); err != nil {
		return nil, err
	}
	if s.HashBits < 1 || s.HashBits > MaxHashBits {
		return nil, fmt.Errorf("hash bits %d: want 1 to %d", s.HashBits, MaxHashBits)
	}
	li, ok := index[s.Label]
	if !ok {
		return nil, colErr("no label column %q (the file has %s; name it with {Label})", s.Label, quoteList(header))
	}
	if kinds[li] == kindOther {
		return nil, &ParseError{Path: path, Line: 1, Column: li + 1, Err: fmt.Errorf("%w: label column %q is %s", ErrColumnType, s.Label, typeName(li))}
	}
	if w := topt.Weight; w != "" {
		wi, ok := index[w]
		switch {
		case !ok:
			return nil, colErr("no weight column %q (the file has %s)", w, quoteList(header))
		case w == s.Label:
			return nil, colErr("%q is the label column, it cannot also be the weight column", w)
		case slices.Contains(topt.Columns, w) || slices.Contains(topt.Categorical, w):
			return nil, colErr("%q is the weight column, it cannot also be a feature", w)
		case kinds[wi] == kindOther: // text is parsed cell by cell, an error naming the first bad one
			return nil, &ParseError{Path: path, Line: 1, Column: wi + 1, Err: fmt.Errorf("%w: weight column %q is %s, want numbers", ErrColumnType, w, typeName(wi))}
		}
		s.Weight = w
	}
	for _, lists := range [][]string{topt.Columns, topt.Ignore, topt.Categorical} {
		for _, c := range lists {
			if _, ok := index[c]; !ok {
				return nil, colErr("no column %q (the file has %s)", c, quoteList(header))
			}
			if c == s.Label {
				return nil, colErr("%q is the label column, it cannot also be a feature or be ignored", c)
			}
		}
	}
	features := topt.Columns
	if len(features) == 0 {
		for _, h := range header {
			if h != s.Label && h != s.Weight {
				features = append(features, h)
			}
		}
	}
	for _, c := range topt.Categorical {
		if !slices.Contains(features, c) || slices.Contains(topt.Ignore, c) {
			return nil, colErr("{Categorical} %q is not among the feature columns", c)
		}
	}
	for _, h := range header {
		i := index[h]
		switch {
		case h == s.Label:
		case h == s.Weight || !slices.Contains(features, h) || slices.Contains(topt.Ignore, h):
			s.Ignored = append(s.Ignored, h)
		case kinds[i] == kindOther:
			return nil, &ParseError{Path: path, Line: 1, Column: i + 1, Err: fault.Settingf("%w: column %q is %s (want numbers, booleans or strings; {Ignore} it)", ErrColumnType, h, typeName(i))}
		case kinds[i] == kindString || slices.Contains(topt.Categorical, h):
			s.Categorical = append(s.Categorical, h)
		default:
			s.Numeric = append(s.Numeric, h)
		}
	}
	// Numeric features in the order of their names, so that one table gives the same
	// features whatever the order its writer put the columns in (Parquet writers often
	// sort them).
	slices.Sort(s.Numeric)
	slices.Sort(s.Categorical)
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// applySchema is resolveSchema of a file read with a model's schema (topt.Schema):
// the schema, with topt.Missing as its policy when set, once the header is found to
// have the schema's columns and no other that topt does not account for.
func applySchema(path string, header []string, index map[string]int, kinds []colKind, typeName func(int) string, topt *TableOptions,
	colErr func(string, ...any) error) (*Schema, error) {
	s := topt.Schema
	scoring := TableOptions{Schema: s, Unlabelled: topt.Unlabelled, AllowExtra: topt.AllowExtra, Ignore: topt.Ignore, Missing: topt.Missing, Carry: topt.Carry}
	if !scoring.equal(topt) {
		return nil, fmt.Errorf("%s: table options cannot change the schema recorded in a model", path)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if topt.Missing != "" && topt.Missing != s.Missing {
		if err := checkMissing(topt.Missing); err != nil {
			return nil, err
		}
		c := *s
		c.Missing = topt.Missing
		s = &c
	}
	features := slices.Concat(s.Numeric, s.Categorical)
	for _, c := range topt.Ignore {
		switch {
		case c == s.Label:
			return nil, colErr("%q is the model's label column, it cannot be left out", c)
		case slices.Contains(features, c):
			return nil, colErr("column %q is a feature of the model, it cannot be left out", c)
		}
		if _, ok := index[c]; !ok {
			return nil, colErr("no column %q to leave out (the file has %s)", c, quoteList(header))
		}
	}
	var absent []string
	for _, c := range features {
		if _, ok := index[c]; !ok {
			absent = append(absent, c)
		}
	}
	if len(absent) > 0 {
		return nil, colErr("no %s, which the model was trained on (the file has %s)", columnsNamed(absent), quoteList(header))
	}
	if _, ok := index[s.Label]; !ok && !topt.Unlabelled {
		return nil, colErr("no label column %q (the file has %s)", s.Label, quoteList(header))
	}
	var extra []string
	for _, h := range header {
		known := h == s.Label || slices.Contains(features, h) || slices.Contains(s.Ignored, h) ||
			slices.Contains(topt.Ignore, h) || topt.Carry != nil && slices.Contains(topt.Carry.Columns, h)
		if !known {
			extra = append(extra, h)
		}
	}
	if len(extra) > 0 && !topt.AllowExtra {
		return nil, &ParseError{Path: path, Line: 1, Err: fmt.Errorf("%w: %w", ErrColumn, &ExtraColumnsError{Columns: extra, Label: s.Label, Features: features})}
	}
	for _, c := range s.Numeric {
		if i := index[c]; kinds[i] != kindNumber {
			return nil, colErr("column %q is numeric in the model but holds %s here", c, typeName(i))
		}
	}
	return s, nil
}

// equal reports whether o and p are the same options.
func (o *TableOptions) equal(p *TableOptions) bool {
	return o.Label == p.Label && slices.Equal(o.Columns, p.Columns) && slices.Equal(o.Ignore, p.Ignore) &&
		slices.Equal(o.Categorical, p.Categorical) && o.HashBits == p.HashBits && o.HashSeed == p.HashSeed &&
		o.Missing == p.Missing && o.Schema == p.Schema && o.Unlabelled == p.Unlabelled && o.AllowExtra == p.AllowExtra && o.Carry == p.Carry &&
		o.Weight == p.Weight
}

func quoteList(names []string) string {
	const most = 12
	q := make([]string, 0, min(len(names), most)+1)
	for i, n := range names {
		if i == most {
			q = append(q, fmt.Sprintf("… %d more", len(names)-most))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

// rowBuilder turns a table row's cells into an Example under a Schema.
type rowBuilder struct {
	s      *Schema
	path   string
	header []string
	role   []int8 // per file column
	slot   []int  // numeric: feature index; categorical: index into prefix
	nNum   int
	mask   uint32
	prefix [][]byte // "column=" of each categorical column
	key    []byte
	canon  bool   // numbers among the categories in canonical text (HashMurmur3Canonical)
	num    []byte // canonicalCategory's buffer
	raw    bool
	posSet bool
	posNum float64 // the positive label as a number, when it is one
	posIsN bool
	seen   []float64 // labels seen, for the LIBSVM conventions
	ex     Example
	vocab  *Vocab // counts the hashed strings when set (Options.Vocab)
	carry  *Carry // collects the text of some columns when set (TableOptions.Carry)
	keep   []int  // per file column: its position in carry.Columns, −1 when not carried
	kept   []string
	label1 bool              // the label's text is carried (Carry.Label) and the file has the column
	labelT string            // the text of the row's label cell, when label1
	labels map[string]string // the label texts seen, shared by the rows that have them
}

func newRowBuilder(path string, header []string, s *Schema, o Options) *rowBuilder {
	b := &rowBuilder{s: s, path: path, header: header, role: make([]int8, len(header)), slot: make([]int, len(header)),
		nNum: len(s.Numeric), mask: 1<<s.HashBits - 1, raw: o.Raw, canon: s.Hash == HashMurmur3Canonical, vocab: o.Vocab}
	if o.Table != nil && o.Table.Carry != nil {
		b.carry, b.keep = o.Table.Carry, carried(header, o.Table.Carry)
		b.kept = make([]string, len(b.carry.Columns))
		b.label1 = b.carry.Label && slices.Contains(header, s.Label)
	}
	for i, h := range header {
		switch {
		case h == s.Label:
			b.role[i] = roleLabel
		case slices.Contains(s.Numeric, h):
			b.role[i], b.slot[i] = roleNumeric, slices.Index(s.Numeric, h)
		case slices.Contains(s.Categorical, h):
			b.role[i], b.slot[i] = roleCategorical, len(b.prefix)
			b.prefix = append(b.prefix, []byte(h+"="))
		case h == s.Weight && o.Table != nil && o.Table.Weight == h: // training: not a model's schema
			b.role[i] = roleWeight
		}
	}
	if s.Positive != "" {
		b.posSet = true
		if v, err := strconv.ParseFloat(s.Positive, 64); err == nil {
			b.posNum, b.posIsN = v, true
		}
	}
	return b
}

// cellError is a ParseError at a cell: line (CSV) or row (Parquet), 1-based column.
func (b *rowBuilder) cellError(line, col int, tok []byte, format string, args ...any) *ParseError {
	const maxToken = 40
	t := string(tok)
	if len(tok) > maxToken {
		t = string(tok[:maxToken]) + "…"
	}
	return &ParseError{Path: b.path, Line: line, Column: col, Token: t,
		Err: fmt.Errorf("column %q: %w", b.header[col-1], fault.Settingf(format, args...))}
}

// label maps a label cell to the example's Y and Label.
func (b *rowBuilder) label(line, col int, cell []byte, num float64, isNum bool) error {
	ex := &b.ex
	if b.label1 {
		b.labelT = b.labelText(cell)
	}
	if !isNum {
		v, err := parseFloat(cell)
		isNum = err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
		num = v
	}
	if b.raw {
		if !isNum {
			return b.cellError(line, col, cell, "%w: not a number", ErrLabel)
		}
		ex.Y, ex.Label = 0, num
		return nil
	}
	if b.posSet {
		pos := string(cell) == b.s.Positive || isNum && b.posIsN && num == b.posNum
		ex.Y, ex.Label = -1, -1
		if pos {
			ex.Y, ex.Label = 1, 1
		}
		if isNum {
			ex.Label = num
		}
		return nil
	}
	if !isNum {
		return b.cellError(line, col, cell, "%w: not a number; name the positive class with {Positive}", ErrLabel)
	}
	if !slices.Contains(b.seen, num) {
		if !BinaryLabels(append(b.seen[:len(b.seen):len(b.seen)], num)) {
			return b.cellError(line, col, cell, "%w", labelError(num, b.seen, "name the positive class with {Positive}"))
		}
		b.seen = append(b.seen, num)
	}
	ex.Label, ex.Y = num, LabelRule{}.Y(num)
	return nil
}

// start begins a row (unlabelled until a label cell is read).
func (b *rowBuilder) start(line int) {
	b.ex.X.Idx, b.ex.X.Val = b.ex.X.Idx[:0], b.ex.X.Val[:0]
	b.ex.Y, b.ex.Label, b.ex.Line, b.ex.Weight = 0, 0, line, 1
	clear(b.kept)
	b.labelT = ""
	if b.vocab != nil && !b.vocab.startRow() {
		b.vocab = nil // VocabRows counted: the rest of the file reads at full speed
	}
}

// maxLabelTexts bounds the label texts rowBuilder.labelText shares: a binary label
// has a few (yes, no; 1, 0, 1.0), past which each row gets its own string.
const maxLabelTexts = 64

// labelText is the label cell as a string, one string for the rows with the same text.
func (b *rowBuilder) labelText(cell []byte) string {
	if t, ok := b.labels[string(cell)]; ok {
		return t
	}
	t := string(cell)
	if len(b.labels) < maxLabelTexts {
		if b.labels == nil {
			b.labels = make(map[string]string)
		}
		b.labels[t] = t
	}
	return t
}

// keepCell records the text of file column col (0-based) of the row when it is
// carried (TableOptions.Carry).
func (b *rowBuilder) keepCell(col int, text []byte) {
	if b.keep != nil && b.keep[col] >= 0 {
		b.kept[b.keep[col]] = string(text)
	}
}

// skipped counts a row left out for a missing value.
func (b *rowBuilder) skipped() {
	if b.carry != nil {
		b.carry.Skipped++
	}
}

// missing applies the schema's missing-value policy to the empty (CSV) or null
// (Parquet) cell of file column col (1-based) on line, for every reader: with
// MissingSkip the row is dropped (skip), with MissingZero a feature cell adds nothing,
// and otherwise, a label cell included, it is an error naming the cell.
func (b *rowBuilder) missing(line, col int) (skip bool, err error) {
	switch {
	case b.s.Missing == MissingSkip:
		return true, nil
	case b.s.Missing == MissingZero && b.role[col-1] != roleLabel && b.role[col-1] != roleWeight:
		return false, nil
	}
	if b.role[col-1] == roleWeight {
		return false, b.cellError(line, col, nil, "%w: the weight is empty (the missing-value policy skip leaves such rows out; zero applies to feature cells only)", ErrMissing)
	}
	if b.role[col-1] == roleLabel { // zero cannot stand for a label
		return false, b.cellError(line, col, nil, "%w: the label is empty ({Missing} skip leaves such rows out; zero applies to feature cells only)", ErrMissing)
	}
	return false, b.cellError(line, col, nil, "%w ({Missing} zero or skip to accept it)", ErrMissing)
}

// cell adds the present cell of file column col (1-based, not ignored) on line, for
// every reader: text is the cell as text (nil for a number the file typed as one), num
// its value when isNum, else it is parsed from text where a number is needed.
func (b *rowBuilder) cell(line, col int, text []byte, num float64, isNum bool) error {
	i := col - 1
	switch b.role[i] {
	case roleLabel:
		return b.label(line, col, text, num, isNum)
	case roleWeight:
		if !isNum {
			v, err := parseFloat(text)
			if err != nil {
				return b.cellError(line, col, text, "%w: not a number", ErrWeight)
			}
			num = v
		}
		if err := checkWeight(num); err != nil {
			return b.cellError(line, col, strconv.AppendFloat(nil, num, 'g', -1, 64), "%w", err)
		}
		b.ex.Weight = num
	case roleNumeric:
		if !isNum {
			v, err := parseFloat(text)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return b.cellError(line, col, text, "%w: not a finite number in a numeric column (mark it {Categorical} if it holds categories)", ErrValue)
			}
			num = v
		}
		if math.IsNaN(num) || math.IsInf(num, 0) {
			return b.cellError(line, col, strconv.AppendFloat(nil, num, 'g', -1, 64), "%w: not a finite number", ErrValue)
		}
		b.numeric(b.slot[i], num)
	case roleCategorical:
		if b.canon {
			b.num = canonicalCategory(b.num[:0], text)
			text = b.num
		}
		b.category(b.slot[i], text)
	}
	return nil
}

// canonicalCategory appends to dst the canonical text of the category text: an integer
// (within int64) in plain decimal ("+01" and "1.0" are "1", "-0" is "0"), another finite
// number in Go's shortest form ("1.50" is "1.5", 1e20 is "1e+20"), anything else as it
// is. Applying it twice gives the same text.
func canonicalCategory(dst, text []byte) []byte {
	isInt, ok := numberSyntax(text)
	if !ok {
		return append(dst, text...) // not a number: the common case, without allocating
	}
	if isInt && canonicalInt(text) {
		return append(dst, text...) // the integer's canonical text already: no parse
	}
	t := unsafe.String(unsafe.SliceData(text), len(text))
	if isInt {
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return strconv.AppendInt(dst, n, 10)
		}
	}
	v, err := parseFloat(text)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return append(dst, text...)
	case v == math.Trunc(v) && math.Abs(v) < 1<<63:
		return strconv.AppendInt(dst, int64(v), 10)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// canonicalInt reports whether text, an integer by numberSyntax, is already as
// strconv.AppendInt writes its value: no '+', no leading zero, not "-0", and at most 18
// digits (so that it fits an int64).
func canonicalInt(text []byte) bool {
	d := text
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	return len(d) > 0 && len(d) <= 18 && d[0] != '+' && (d[0] != '0' || len(text) == 1)
}

// numberSyntax reports whether text is a decimal number, [+-]digits[.digits][e[+-]digits]
// with a digit in the mantissa (ok), and whether it is an integer, [+-]digits (isInt),
// so that the parsers are called only where they succeed (their errors allocate).
func numberSyntax(text []byte) (isInt, ok bool) {
	i, n := 0, len(text)
	if i < n && (text[i] == '+' || text[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < n && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		return i - j
	}
	m := digits()
	if i == n {
		return m > 0, m > 0
	}
	if text[i] == '.' {
		i++
		m += digits()
	}
	if m == 0 {
		return false, false
	}
	if i < n && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < n && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false, false
		}
	}
	return false, i == n
}

// numeric adds numeric feature slot's value v.
func (b *rowBuilder) numeric(slot int, v float64) {
	if v != 0 {
		b.ex.X.Idx = append(b.ex.X.Idx, int32(slot))
		b.ex.X.Val = append(b.ex.X.Val, v)
	}
}

// category adds the hashed one-hot feature of categorical column slot's value.
func (b *rowBuilder) category(slot int, value []byte) {
	b.key = append(append(b.key[:0], b.prefix[slot]...), value...)
	h := int32(murmur3.SeedSum32(b.s.HashSeed, b.key))
	sign, u := 1.0, uint32(h)
	if h < 0 {
		sign, u = -1, uint32(-int64(h))
	}
	b.ex.X.Idx = append(b.ex.X.Idx, int32(b.nNum)+int32(u&b.mask))
	b.ex.X.Val = append(b.ex.X.Val, sign)
	if b.vocab != nil {
		b.vocab.add(slot, uint32(h), b.key, b.nNum+int(u&b.mask), sign)
	}
}

// finish sorts the row's features by index (the numeric ones arrive in order, the
// hashed ones anywhere) and sums the values of a bucket hit twice.
func (b *rowBuilder) finish() *Example {
	x := &b.ex.X
	idx, val := x.Idx, x.Val
	for i := 1; i < len(idx); i++ { // insertion sort: a row has a few dozen features
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
			val[j], val[j-1] = val[j-1], val[j]
		}
	}
	k := 0
	for i := range idx {
		if k > 0 && idx[k-1] == idx[i] {
			val[k-1] += val[i]
			continue
		}
		idx[k], val[k] = idx[i], val[i]
		k++
	}
	// Colliding opposite signs can cancel: drop the zeros as the numeric ones are.
	n := 0
	for i := range k {
		if val[i] != 0 {
			idx[n], val[n] = idx[i], val[i]
			n++
		}
	}
	x.Idx, x.Val = idx[:n], val[:n]
	if b.carry != nil {
		b.carry.Text = append(b.carry.Text, b.kept...)
		if b.label1 {
			b.carry.Labels = append(b.carry.Labels, b.labelT)
		}
	}
	return &b.ex
}

// tableSource streams the rows of a table.
type tableSource interface {
	next() (*Example, error)
	schema() *Schema
	close() error
}

// Notes are what reading the file learned that the user should know: a CSV or TSV
// column read as categories though most of its values are numbers.
func (r *Reader) Notes() []string {
	if t, ok := r.table.(*csvSource); ok {
		return t.notes
	}
	return nil
}

// Schema is the table schema of the file being read, nil for LIBSVM text or a cache.
func (r *Reader) Schema() *Schema {
	if r.table == nil {
		return nil
	}
	return r.table.schema()
}

// ReadTableFile reads a whole file as ReadFile does and returns the table schema it was
// read with (nil for LIBSVM text or a cache).
func ReadTableFile(path string, opts Options) (*Dataset, *Schema, error) {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return ReadInput(ctx, path, opts, ReadConfig{Layout: LayoutSparse})
}

// isTableFile reports whether path is read as a table: a table's name or Parquet
// content, or table options given (which Open refuses for another file).
func isTableFile(path string, opts Options) bool {
	return !opts.Table.IsZero() || TableFormat(path) != "" || isParquetFile(path)
}

// readTableContext streams a table into memory, checking ctx every few thousand rows.
func readTableContext(ctx context.Context, path string, opts Options, notes *[]string) (*Dataset, *Schema, error) {
	r, err := Open(path, opts)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	if notes != nil {
		*notes = append(*notes, r.Notes()...)
	}
	d, err := readAllContext(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	if d.Rows() == 0 {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return d, r.Schema(), nil
}

// openTable opens the rows of a text table for rd (a format with rows, by path's name),
// reporting whether it is one. Table options make a file whose name names no such
// format a table only when the name names a table (a Parquet name on a stream: read
// as CSV); otherwise they are an error.
func openTable(rd *Reader, path string, opts Options) (bool, error) {
	f := byName(path)
	if f.rows == nil {
		if opts.Table.IsZero() {
			return false, nil
		}
		if !f.Table {
			return false, fault.Settingf("%s: table options ({Label}, {Columns}, …) given, but the file is not a table: name CSV files .csv, TSV files .tsv, Parquet files .parquet", path)
		}
		var ok bool
		if f, ok = FormatNamed(FormatCSV); !ok || f.rows == nil {
			return false, fmt.Errorf("%s: no CSV reader registered", path)
		}
	}
	if opts.Dim > 0 {
		return false, fault.Settingf("%s: a table's dimension follows from its columns and {HashBits}: {Dim} does not apply", path)
	}
	t, err := f.rows(rd, path, opts)
	if err != nil {
		return false, err
	}
	rd.table = t
	rd.opts.Dim, rd.maxIdx = t.schema().Dim(), t.schema().Dim()
	return true, nil
}

// IsTableFile reports whether path is read as a table (CSV, TSV or Parquet by name,
// Parquet by content, or table options given).
func IsTableFile(path string, opts Options) bool { return isTableFile(path, opts) }
