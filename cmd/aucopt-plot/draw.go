package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/aucopt/aucopt/internal/figure"
)

// render draws the grid of panels of f on one canvas of its size and format and writes
// the encoded image to w.
func render(f *figure.Figure, w io.Writer) error {
	width, height := vg.Length(f.Width), vg.Length(f.Height)
	var c vg.CanvasWriterTo
	switch f.Format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	case "svg":
		// The fonts go inside the file: an SVG that only names them is drawn with
		// whatever the viewer substitutes, whose other widths ran the legend's text
		// over its line samples.
		c = vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(true))
	case "pdf":
		c = vgpdf.New(width, height)
	default:
		return fmt.Errorf("%w: unknown format %q", figure.ErrFigure, f.Format)
	}
	panels := make([][]*panel, len(f.Rows))
	plots := make([][]*plot.Plot, len(f.Rows))
	for i, row := range f.Rows {
		for j := range row {
			pn, err := newPanel(&row[j])
			if err != nil {
				return fmt.Errorf("panel %d,%d: %w", i, j, err)
			}
			panels[i] = append(panels[i], pn)
			plots[i] = append(plots[i], pn.Plot)
		}
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: len(panels[0]), PadX: vg.Points(12), PadY: vg.Points(12),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	canvases := plot.Align(plots, tiles, draw.New(c))
	for i, row := range panels {
		for j, pn := range row {
			pn.draw(canvases[i][j])
		}
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("writing the %s: %w", f.Format, err)
	}
	return nil
}

// panel is a plot with the names of its legend's entries, so that the legend can be
// drawn on a white box over the data (gonum's Legend keeps them to itself).
type panel struct {
	*plot.Plot
	legend []string
}

// newPanel builds the plot of p: a grid, its series in order, and the legend at the
// bottom right of the data area.
func newPanel(p *figure.Panel) (*panel, error) {
	pl := plot.New()
	pl.Add(plotter.NewGrid())
	pl.Legend.Top, pl.Legend.Left = false, false
	pl.Legend.XOffs, pl.Legend.YOffs = -vg.Points(6), vg.Points(6)
	pn := &panel{Plot: pl}
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	if p.Unit {
		pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = 0, 1, 0, 1
		pl.X.Tick.Marker, pl.Y.Tick.Marker = unitTicks, unitTicks
	}
	if p.LogX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
		if p.Unit { // a rate on a log axis: from its smallest point to 1
			pl.X.Min = math.Inf(1)
			for _, s := range p.Series {
				for _, x := range s.X {
					pl.X.Min = min(pl.X.Min, x)
				}
			}
		}
	}
	thumbs := make([]plot.Thumbnailer, len(p.Series))
	for k, s := range p.Series {
		xys := make(plotter.XYs, len(s.X))
		for i := range s.X {
			xys[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		switch s.Style {
		case figure.Marker:
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
			sc.Color = seriesColor(s.Index)
			sc.Shape = plotutil.Shape(s.Index)
			sc.Radius = vg.Points(4)
			pl.Add(sc)
			thumbs[k] = sc
		case figure.Line, figure.Reference:
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
			if s.Style == figure.Reference {
				l.Color = color.Gray{Y: 128}
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
			} else {
				l.Color = seriesColor(s.Index)
				l.Width = vg.Points(1.5)
			}
			pl.Add(l)
			thumbs[k] = l
		default:
			return nil, fmt.Errorf("%w: series %d: style %q", figure.ErrFigure, k, s.Style)
		}
	}
	for _, k := range p.Legend {
		pl.Legend.Add(p.Series[k].Name, thumbs[k])
		pn.legend = append(pn.legend, p.Series[k].Name)
	}
	return pn, nil
}

// palette is Okabe and Ito's colour-blind-safe palette ("Color Universal Design",
// 2008) without its black, in the order that keeps the first colours apart for every
// kind of colour vision: blue, orange, bluish green, vermillion, reddish purple, sky
// blue, yellow.
var palette = [...]color.NRGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF},
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF},
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF},
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF},
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF},
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF},
	{R: 0xF0, G: 0xE4, B: 0x42, A: 0xFF},
}

// seriesColor is the colour of series index i: the palette's, in turn.
func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// unitTicks marks [0, 1] every 0.1, labelled every 0.2.
var unitTicks = plot.TickerFunc(func(_, _ float64) []plot.Tick {
	ticks := make([]plot.Tick, 11)
	for i := range ticks {
		ticks[i].Value = float64(i) / 10
		if i%2 == 0 {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', 1, 64)
		}
	}
	return ticks
})

// draw draws the plot on c, then its legend inside the data area, on a white box.
func (pn *panel) draw(c draw.Canvas) {
	legend := pn.Legend
	pn.Legend = plot.NewLegend()
	pn.Plot.Draw(c)
	pn.Legend = legend
	if len(pn.legend) == 0 {
		return
	}
	dc := pn.DataCanvas(c)
	sty := legend.TextStyle
	var textW, entryH vg.Length
	for _, name := range pn.legend {
		r := sty.Rectangle(name)
		textW, entryH = max(textW, r.Max.X), max(entryH, r.Max.Y)
	}
	n := vg.Length(len(pn.legend))
	margin := vg.Points(3)
	right := dc.Max.X + legend.XOffs + margin
	bottom := dc.Min.Y + legend.YOffs - margin
	box := vg.Rectangle{
		Min: vg.Point{X: right - legend.ThumbnailWidth - sty.Rectangle(" ").Max.X - textW - 2*margin, Y: bottom},
		Max: vg.Point{X: right, Y: bottom + n*entryH + (n-1)*legend.Padding + 2*margin},
	}
	c.SetColor(color.NRGBA{R: 255, G: 255, B: 255, A: 230})
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 180}, Width: vg.Points(0.5)})
	c.Stroke(box.Path())
	legend.Draw(dc)
}
