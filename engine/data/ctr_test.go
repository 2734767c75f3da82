package data

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestCTRCheck(t *testing.T) {
	tests := []struct {
		rows, first int
		want        string // "" for no error
	}{
		{1, 0, ""},
		{MaxCTRRows, 0, ""},
		{10, math.MaxInt64 - 10, ""},
		{0, 0, "0 rows"},
		{MaxCTRRows + 1, 0, "want 1 to"},
		{5, -1, "first row -1"},
		{1, math.MaxInt64, "row indices end"},
		{11, math.MaxInt64 - 10, "row indices end"},
	}
	for _, tt := range tests {
		err := (&CTR{Rows: tt.rows, First: tt.first}).Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CTR{Rows: %d, First: %d}.Check() = %v, want nil", tt.rows, tt.first, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CTR{Rows: %d, First: %d}.Check() = %v, want an error naming %q", tt.rows, tt.first, err, tt.want)
		}
	}
}

// TestCTRWriteContext: a cancelled context stops the write before it ends, even into a
// Parquet row group that is never flushed.
func TestCTRWriteContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, format := range []string{FormatCSV, FormatParquet} {
		err := (&CTR{Rows: 5000}).WriteContext(ctx, io.Discard, format, 1<<20)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: WriteContext with a cancelled context = %v, want context.Canceled", format, err)
		}
	}
}
