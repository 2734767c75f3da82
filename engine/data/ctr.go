package data

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// CTRField is a categorical field of a CTR table: its name and number of distinct values.
type CTRField struct {
	Name        string
	Cardinality int
}

// AvazuFields are the 22 categorical fields of the Avazu click log with about its
// cardinalities (device_id and device_ip capped): from 4 to 10⁶ distinct values.
var AvazuFields = []CTRField{
	{"hour", 24}, {"C1", 7}, {"banner_pos", 7}, {"site_id", 4737}, {"site_domain", 7745},
	{"site_category", 26}, {"app_id", 8552}, {"app_domain", 559}, {"app_category", 36},
	{"device_id", 1_000_000}, {"device_ip", 1_000_000}, {"device_model", 8251}, {"device_type", 5},
	{"device_conn_type", 4}, {"C14", 2626}, {"C15", 8}, {"C16", 9}, {"C17", 435}, {"C18", 4},
	{"C19", 68}, {"C20", 172}, {"C21", 60},
}

// CTR generates an Avazu-shaped click log: a label column "click" (1 for a click, 0
// otherwise) and the categorical fields of Fields (AvazuFields when nil), whose values
// are 8-hex-digit ids drawn with a heavy head (value ⌊c·u³⌋ for u uniform on [0, 1): a
// few values are most of the rows, as in click logs). The planted ground truth is
// logistic: P(click) = σ(b + Σ_f w_f(v_f)), each field value's weight normal with a
// field-dependent scale, drawn from a hash of (Seed, field, value) so that nothing is
// stored per value, and b set so that ClickRate of the rows are clicks. Row i is drawn
// from its own generator seeded by (Seed, i): the table has any size in constant memory,
// and rows First… of the same Seed are new rows of the same ground truth (test data).
type CTR struct {
	Rows      int
	First     int     // index of the first row written: a test table follows the training rows
	ClickRate float64 // share of clicks; 0 means 0.17
	Fields    []CTRField
	Seed      uint64

	bias float64
	init bool
	pcg  *rand.PCG
	rng  *rand.Rand
	buf  []byte
}

// Columns are the table's columns: "click", then the fields.
func (c *CTR) Columns() []TableColumn {
	cols := []TableColumn{{Name: "click"}}
	for _, f := range c.fields() {
		cols = append(cols, TableColumn{Name: f.Name, Text: true})
	}
	return cols
}

func (c *CTR) fields() []CTRField {
	if c.Fields == nil {
		return AvazuFields
	}
	return c.Fields
}

// weight is the ground-truth weight of value v of field f: normal, with scale 0.5 for
// fields of up to 1,000 values and 0.25 for the id-like ones.
func (c *CTR) weight(f, v int) float64 {
	scale := 0.5
	if c.fields()[f].Cardinality > 1000 {
		scale = 0.25
	}
	h1 := splitmix(c.Seed ^ uint64(f)<<40 ^ uint64(v))
	h2 := splitmix(h1)
	u1 := (float64(h1>>11) + 0.5) / (1 << 53)
	u2 := float64(h2>>11) / (1 << 53)
	return scale * math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// setup calibrates the bias on 20,000 rows so that the mean click probability is
// ClickRate.
func (c *CTR) setup() {
	if c.init {
		return
	}
	c.init = true
	c.pcg = rand.NewPCG(0, 0)
	c.rng = rand.New(c.pcg)
	rate := c.ClickRate
	if rate == 0 {
		rate = 0.17
	}
	const n = 20_000
	scores := make([]float64, n)
	vals := make([]int, len(c.fields()))
	for i := range scores {
		scores[i] = c.draw(uint64(i)+1<<62, vals)
	}
	lo, hi := -20.0, 20.0
	for range 60 {
		mid := (lo + hi) / 2
		var p float64
		for _, s := range scores {
			p += 1 / (1 + math.Exp(-(s + mid)))
		}
		if p/n > rate {
			hi = mid
		} else {
			lo = mid
		}
	}
	c.bias = (lo + hi) / 2
}

// draw draws row i's field values into vals and returns Σ_f w_f(v_f).
func (c *CTR) draw(i uint64, vals []int) float64 {
	c.pcg.Seed(c.Seed^0x637472, i) // "ctr"
	var s float64
	for f, fd := range c.fields() {
		u := c.rng.Float64()
		v := int(float64(fd.Cardinality) * u * u * u)
		vals[f] = v
		s += c.weight(f, v)
	}
	return s
}

// Row fills cells (len(Columns())) with row i and returns its click probability.
func (c *CTR) Row(i int, cells []Cell) float64 {
	c.setup()
	fs := c.fields()
	vals := make([]int, len(fs))
	p := 1 / (1 + math.Exp(-(c.bias + c.draw(uint64(i), vals))))
	cells[0] = Cell{Num: 0}
	if c.rng.Float64() < p {
		cells[0].Num = 1
	}
	for f := range fs {
		h := uint32(splitmix(uint64(f)<<32 ^ uint64(vals[f])))
		c.buf = strconv.AppendUint(c.buf[:0], uint64(h)|1<<32, 16) // 9 hex digits, the leading 1 dropped
		cells[f+1] = Cell{Str: string(c.buf[1:])}
	}
	return p
}

// MaxCTRRows is the most rows a CTR table may have: ten billion rows, about 2 TB of
// CSV, far beyond any use and far below the row indices' range.
const MaxCTRRows = 10_000_000_000

// Check reports whether the table can be written: 1 to MaxCTRRows rows, a First of at
// least 0 whose rows' indices First … First+Rows−1 do not pass math.MaxInt64.
func (c *CTR) Check() error {
	switch {
	case c.Rows < 1 || c.Rows > MaxCTRRows:
		return fmt.Errorf("ctr table: %d rows, want 1 to %d", c.Rows, MaxCTRRows)
	case c.First < 0:
		return fmt.Errorf("ctr table: first row %d, want at least 0", c.First)
	case c.First > math.MaxInt64-c.Rows:
		return fmt.Errorf("ctr table: rows %d to %d: row indices end at %d (math.MaxInt64)", c.First, uint64(c.First)+uint64(c.Rows)-1, int64(math.MaxInt64))
	}
	return nil
}

// Write writes the table in format ("csv", "tsv" or "parquet") to w.
func (c *CTR) Write(w io.Writer, format string, rowGroup int) error {
	return c.WriteContext(context.Background(), w, format, rowGroup)
}

// WriteContext is Write stopping with ctx's error once ctx is done (checked every
// 1,024 rows, whatever w buffers: a Parquet row group is written only when full).
func (c *CTR) WriteContext(ctx context.Context, w io.Writer, format string, rowGroup int) error {
	if err := c.Check(); err != nil {
		return err
	}
	tw, err := NewTableWriter(w, format, c.Columns(), rowGroup)
	if err != nil {
		return err
	}
	cells := make([]Cell, len(c.Columns()))
	for i := range c.Rows {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("ctr table: after %d rows: %w", i, err)
			}
		}
		c.Row(c.First+i, cells)
		if err := tw.WriteRow(cells); err != nil {
			return err
		}
	}
	return tw.Close()
}
