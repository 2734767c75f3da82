package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/internal/figure"
)

// sample is a figure of two panels: two lines and a reference with a legend, then a
// marker on a log axis without one.
func sample(format string) *figure.Figure {
	return &figure.Figure{Version: figure.Version, Format: format, Width: 300, Height: 150, Rows: [][]figure.Panel{{
		{Title: "ROC on test", XLabel: "false positive rate", YLabel: "true positive rate", Unit: true,
			Series: []figure.Series{
				{Name: "chance (AUC 0.5)", Style: figure.Reference, X: []float64{0, 1}, Y: []float64{0, 1}},
				{Name: "opauc (AUC 0.9000)", Style: figure.Line, Index: 0, X: []float64{0, 0.1, 1}, Y: []float64{0, 0.8, 1}},
				{Name: "olr (AUC 0.8500)", Style: figure.Line, Index: 1, X: []float64{0, 0.2, 1}, Y: []float64{0, 0.7, 1}},
			},
			Legend: []int{1, 2, 0}},
		{Title: "convergence", XLabel: "examples seen", YLabel: "test AUC", LogX: true,
			Series: []figure.Series{{Name: "ls-auc (AUC 0.9)", Style: figure.Marker, Index: 2, X: []float64{100}, Y: []float64{0.9}}}},
	}}}
}

func encode(t *testing.T, f any) string {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRender draws the sample in every format: the PNG has the figure's size at 96
// pixels per inch, the SVG and PDF start as their formats do and the SVG holds the
// legend's entries in order.
func TestRender(t *testing.T) {
	for _, format := range []string{"png", "svg", "pdf"} {
		t.Run(format, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if status := run(nil, strings.NewReader(encode(t, sample(format))), &out, &errOut); status != 0 {
				t.Fatalf("exit %d: %s", status, errOut.String())
			}
			switch format {
			case "png":
				img, err := png.Decode(&out)
				if err != nil {
					t.Fatalf("not a PNG: %v", err)
				}
				if b := img.Bounds(); b.Dx() != 400 || b.Dy() != 200 {
					t.Errorf("PNG %d×%d, want 400×200 (300×150 pt at 96 dpi)", b.Dx(), b.Dy())
				}
			case "svg":
				s := out.String()
				if !strings.HasPrefix(s, "<?xml") {
					t.Errorf("SVG starts %q", s[:min(len(s), 20)])
				}
				i, j, k := strings.Index(s, "opauc (AUC 0.9000)"), strings.Index(s, "olr (AUC 0.8500)"), strings.Index(s, "chance (AUC 0.5)")
				if i < 0 || j < i || k < j || strings.Contains(s, "ls-auc (AUC 0.9)") {
					t.Errorf("legend entries at %d, %d, %d (want in that order) and the unlisted marker's %v", i, j, k, strings.Contains(s, "ls-auc"))
				}
				// Okabe–Ito's blue and orange for series 0 and 1 (not red and green),
				// and the fonts inside the file.
				for _, want := range []string{"stroke:#0072B2", "stroke:#E69F00", "@font-face"} {
					if !strings.Contains(s, want) {
						t.Errorf("SVG lacks %q", want)
					}
				}
			case "pdf":
				if !bytes.HasPrefix(out.Bytes(), []byte("%PDF-")) {
					t.Errorf("PDF starts %q", out.Bytes()[:min(out.Len(), 8)])
				}
			}
		})
	}
}

// TestRenderErrors: a malformed figure is refused with one line and exit 2, nothing
// written.
func TestRenderErrors(t *testing.T) {
	mod := func(f func(*figure.Figure)) string {
		fig := sample("svg")
		f(fig)
		return encode(t, fig)
	}
	tests := []struct {
		name  string
		args  []string
		input string
		want  string
	}{
		{"argument", []string{"fig.json"}, encode(t, sample("png")), "takes no arguments"},
		{"not JSON", nil, "PNG", "figure: decoding"},
		{"unknown field", nil, `{"version":1,"colour":"red"}`, `unknown field "colour"`},
		{"version", nil, mod(func(f *figure.Figure) { f.Version = 2 }), "version 2, want 1"},
		{"format", nil, mod(func(f *figure.Figure) { f.Format = "gif" }), `format "gif"`},
		{"size", nil, mod(func(f *figure.Figure) { f.Width = 0 }), "size 0 × 150 points"},
		{"no panels", nil, mod(func(f *figure.Figure) { f.Rows = nil }), "no panels"},
		{"ragged", nil, mod(func(f *figure.Figure) { f.Rows = append(f.Rows, f.Rows[0][:1]) }), "row 1 has 1 panels, row 0 has 2"},
		{"style", nil, mod(func(f *figure.Figure) { f.Rows[0][0].Series[1].Style = "bar" }), `series 1: style "bar"`},
		{"lengths", nil, mod(func(f *figure.Figure) { f.Rows[0][0].Series[1].Y = f.Rows[0][0].Series[1].Y[:2] }), "3 x and 2 y values"},
		{"log of 0", nil, mod(func(f *figure.Figure) { f.Rows[0][1].Series[0].X[0] = 0 }), "point 0 (0, 0.9) cannot be drawn"},
		{"legend", nil, mod(func(f *figure.Figure) { f.Rows[0][0].Legend = []int{3} }), "legend names series 3 of 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.input), &out, &errOut)
			if status != 2 || !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 || out.Len() != 0 {
				t.Errorf("exit %d, %d bytes out, stderr %q; want 2, nothing, one line with %q", status, out.Len(), errOut.String(), tt.want)
			}
		})
	}
}
