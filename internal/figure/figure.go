// Package figure describes the plots aucopt draws (panels of lines and markers on
// axes, with a legend) as plain data that crosses a process boundary as JSON.
//
// The aucopt command builds a Figure and the aucopt-plot command draws it with
// gonum/plot. The split keeps the plotting library out of the aucopt binary:
// gonum.org/v1/plot's package init parses the twelve Liberation fonts whatever the
// command, so linking it made every command, `aucopt train` included, pay for fonts
// only `plot` and `roc` use. This package imports nothing but the standard library.
package figure

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Version is the version of the Figure encoding. Read refuses any other, so that an
// aucopt-plot of another release says so rather than drawing something else.
const Version = 1

// Lengths in points (1/72 inch), the unit of Figure's Width and Height.
const (
	Inch       = 72.0
	Centimeter = Inch / 2.54
	Millimeter = Centimeter / 10
	Pixel      = Inch / 96 // a PNG pixel: aucopt-plot renders PNGs at 96 dots per inch
)

// Figure is a grid of panels drawn on one canvas of Width × Height points, to be
// encoded as Format.
type Figure struct {
	Version int       `json:"version"`
	Format  string    `json:"format"` // png, svg or pdf
	Width   float64   `json:"width"`  // points
	Height  float64   `json:"height"` // points
	Rows    [][]Panel `json:"rows"`   // rows of panels, every row as long as the first
}

// Panel is one plot: a title, two labelled axes, a grid, series and a legend drawn
// on a white box at the bottom right of the data area.
type Panel struct {
	Title  string `json:"title"`
	XLabel string `json:"x_label"`
	YLabel string `json:"y_label"`
	// LogX draws the horizontal axis on a logarithmic scale.
	LogX bool `json:"log_x,omitempty"`
	// Unit fixes both axes to [0, 1], ticked every 0.1 and labelled every 0.2 (ROC).
	Unit   bool     `json:"unit,omitempty"`
	Series []Series `json:"series"` // in drawing order: later series are drawn on top
	// Legend lists the series named in the legend, by index into Series, top to
	// bottom; empty: no legend.
	Legend []int `json:"legend,omitempty"`
}

// Style is how a series is drawn.
type Style string

// The styles of a series.
const (
	Line      Style = "line"      // a solid line 1.5 pt wide in the series' colour
	Marker    Style = "marker"    // a marker at each point, in the series' colour and shape
	Reference Style = "reference" // a dashed grey line (a reference such as chance)
)

// Series is a set of points drawn in one style, named Name in the legend.
type Series struct {
	Name  string    `json:"name"`
	Style Style     `json:"style"`
	Index int       `json:"index"` // the colour and marker shape, by index into the plot palette
	X     []float64 `json:"x"`
	Y     []float64 `json:"y"`
}

// ErrFigure marks a Figure that is not valid (Check) or not readable (Read).
var ErrFigure = errors.New("figure")

// Check returns an error (wrapping ErrFigure) unless f can be drawn: this version, a
// known format, a positive finite size, a non-empty rectangular grid of panels, series
// of a known style with as many finite x as y values (positive x on a log axis), and
// legend entries naming series.
func (f *Figure) Check() error {
	switch {
	case f.Version != Version:
		return fmt.Errorf("%w: version %d, want %d (aucopt and aucopt-plot of different releases?)", ErrFigure, f.Version, Version)
	case f.Format != "png" && f.Format != "svg" && f.Format != "pdf":
		return fmt.Errorf("%w: format %q, want png, svg or pdf", ErrFigure, f.Format)
	case !(f.Width > 0 && f.Height > 0) || math.IsInf(f.Width, 0) || math.IsInf(f.Height, 0):
		return fmt.Errorf("%w: size %g × %g points, want positive", ErrFigure, f.Width, f.Height)
	case len(f.Rows) == 0 || len(f.Rows[0]) == 0:
		return fmt.Errorf("%w: no panels", ErrFigure)
	}
	for i, row := range f.Rows {
		if len(row) != len(f.Rows[0]) {
			return fmt.Errorf("%w: row %d has %d panels, row 0 has %d", ErrFigure, i, len(row), len(f.Rows[0]))
		}
		for j, p := range row {
			if err := p.check(); err != nil {
				return fmt.Errorf("%w: panel %d,%d: %w", ErrFigure, i, j, err)
			}
		}
	}
	return nil
}

// check checks one panel's series and legend.
func (p *Panel) check() error {
	for k, s := range p.Series {
		switch {
		case s.Style != Line && s.Style != Marker && s.Style != Reference:
			return fmt.Errorf("series %d: style %q, want line, marker or reference", k, s.Style)
		case len(s.X) != len(s.Y) || len(s.X) == 0:
			return fmt.Errorf("series %d: %d x and %d y values, want as many, at least one", k, len(s.X), len(s.Y))
		case s.Index < 0:
			return fmt.Errorf("series %d: index %d, want ≥ 0", k, s.Index)
		}
		for i := range s.X {
			if math.IsNaN(s.X[i]) || math.IsInf(s.X[i], 0) || math.IsNaN(s.Y[i]) || math.IsInf(s.Y[i], 0) || p.LogX && s.X[i] <= 0 {
				return fmt.Errorf("series %d: point %d (%g, %g) cannot be drawn", k, i, s.X[i], s.Y[i])
			}
		}
	}
	for _, k := range p.Legend {
		if k < 0 || k >= len(p.Series) {
			return fmt.Errorf("legend names series %d of %d", k, len(p.Series))
		}
	}
	return nil
}

// Write encodes f as JSON to w.
func (f *Figure) Write(w io.Writer) error {
	if err := json.NewEncoder(w).Encode(f); err != nil {
		return fmt.Errorf("encoding the figure: %w", err)
	}
	return nil
}

// Read decodes one Figure from r and checks it; every error wraps ErrFigure.
func Read(r io.Reader) (*Figure, error) {
	var f Figure
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: decoding: %w", ErrFigure, err)
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	return &f, nil
}
