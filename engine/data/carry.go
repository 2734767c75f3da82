package data

import (
	"fmt"
	"slices"
	"strconv"
)

// Carry collects, as a table is read, the text of some of its columns for each row
// (Options.Carry): what a scoring run writes beside each score, such as the rows'
// identifiers and their labels as the file writes them. A column may be one the
// rows' features or label are read from, or one left out of them (an identifier the
// schema does not know is then accepted). Only tables have columns: reading LIBSVM
// text or a cache with a Carry is an error.
type Carry struct {
	// Columns are the columns to carry, by name; set before reading. Each must be in
	// the file's header.
	Columns []string
	// Text is filled while reading: for each row returned, in order, the text of its
	// cells in Columns (len(Columns) strings a row): a CSV or TSV cell without its
	// quotes and surrounding blanks, a Parquet value in the form the parser reads for
	// its categories (a number in Go's shortest form, a boolean true or false); "" for
	// an empty cell or a null.
	Text []string
	// Label, set before reading, carries the text of each row's label cell too, into
	// Labels: the label as the file writes it (yes, no), which the rows' Example.Label
	// holds as a number.
	Label bool
	// Labels is filled while reading when Label is set: the text of each returned
	// row's label cell, as Text's cells; nil when the file has no label column (a table
	// read with TableOptions.Unlabelled).
	Labels []string
	// Skipped counts the rows left out for a missing value (MissingSkip): they have no
	// Text.
	Skipped int
}

// Rows is the number of rows carried.
func (c *Carry) Rows() int {
	if len(c.Columns) == 0 {
		return 0
	}
	return len(c.Text) / len(c.Columns)
}

// Row is the carried text of row i, in the order of Columns.
func (c *Carry) Row(i int) []string {
	n := len(c.Columns)
	return c.Text[i*n : (i+1)*n : (i+1)*n]
}

// ExtraColumnsError is the cause of the error (a ParseError, wrapping ErrColumn) of a
// table read with a Schema that has columns the schema does not know and that
// TableOptions.Ignore, TableOptions.AllowExtra and Options.Carry do not account for.
type ExtraColumnsError struct {
	// Columns are the unknown columns, in the order of the header.
	Columns []string
	// Label and Features are the schema's label and feature columns.
	Label    string
	Features []string
}

func (e *ExtraColumnsError) Error() string {
	was := "was"
	if len(e.Columns) > 1 {
		was = "were"
	}
	return fmt.Sprintf("%s %s not in the model's training data (its columns: label %q, features %s)", columnsNamed(e.Columns), was, e.Label, quoteList(e.Features))
}

// carried returns the positions in c.Columns of each column of header (−1 for one
// not carried), or nil when c carries nothing. The columns are in the header
// (checkCarry).
func carried(header []string, c *Carry) []int {
	if c == nil || len(c.Columns) == 0 {
		return nil
	}
	keep := make([]int, len(header))
	for i, h := range header {
		keep[i] = slices.Index(c.Columns, h)
	}
	return keep
}

// checkCarry reports a column to carry that the header lacks, or one named twice.
func checkCarry(path string, header []string, c *Carry) error {
	if c == nil {
		return nil
	}
	for k, col := range c.Columns {
		if !slices.Contains(header, col) {
			return &ParseError{Path: path, Line: 1, Err: fmt.Errorf("%w: no column %q (the file has %s)", ErrColumn, col, quoteList(header))}
		}
		if slices.Index(c.Columns, col) < k {
			return fmt.Errorf("%s: column %q is carried twice", path, col)
		}
	}
	return nil
}

// columnsNamed is "column" and the quoted name, or "columns" and the quoted names.
func columnsNamed(names []string) string {
	if len(names) == 1 {
		return "column " + strconv.Quote(names[0])
	}
	return "columns " + quoteList(names)
}
