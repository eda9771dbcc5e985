// Package plot writes small SVG charts (lines, points, grouped bars) for the
// benchmark pages: no service, no script, text that a diff can read.
package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
)

// The canvas and the plot area inside it, in SVG user units. The margins leave
// room for the tick labels, the axis titles and the legend.
const (
	Width        = 640
	Height       = 400
	MarginLeft   = 70
	MarginRight  = 20
	MarginTop    = 40
	MarginBottom = 60
)

// palette is Tableau 10's first colours: told apart by most colour-blind readers.
var palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"}

// Point is one measurement; Label, when set, is written beside it.
type Point struct {
	X, Y  float64
	Label string
}

// Series is one named set of points, joined by a line unless Scatter.
type Series struct {
	Name    string
	Points  []Point
	Scatter bool
}

// LineChart plots series against two numeric axes.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// LogX and LogY use decades (every value must then be positive).
	LogX, LogY bool
}

// axis maps data values to one direction of the plot area.
type axis struct {
	lo, hi   float64 // data range (log10 of it on a log axis)
	log      bool
	from, to float64 // pixels
}

func newAxis(values []float64, log bool, from, to float64) (axis, error) {
	if len(values) == 0 {
		return axis{}, fmt.Errorf("no values to plot")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return axis{}, fmt.Errorf("value %v cannot be plotted", v)
		}
		if log {
			if v <= 0 {
				return axis{}, fmt.Errorf("value %v on a log axis: want positive values", v)
			}
			v = math.Log10(v)
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	a := axis{log: log, from: from, to: to}
	if log {
		a.lo, a.hi = math.Floor(lo), math.Ceil(hi)
		if a.lo == a.hi {
			a.hi++
		}
		return a, nil
	}
	// A linear axis starts at zero for positive data, so lengths compare honestly.
	lo = min(lo, 0)
	step := niceStep(hi - lo)
	a.lo, a.hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if a.lo == a.hi {
		a.hi = a.lo + 1
	}
	return a, nil
}

// niceStep is a tick step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks.
func niceStep(span float64) float64 {
	if span <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{0.1, 0.2, 0.5, 1, 2, 5} {
		if span/(m*p) <= 10 {
			return m * p
		}
	}
	return 10 * p
}

// pos is where value v falls, in pixels.
func (a axis) pos(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

// ticks are the values labelled on the axis.
func (a axis) ticks() []float64 {
	var out []float64
	if a.log {
		for e := a.lo; e <= a.hi; e++ {
			out = append(out, math.Pow(10, e))
		}
		return out
	}
	step := niceStep(a.hi - a.lo)
	for v := a.lo; v <= a.hi+step/2; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// SVG draws the chart.
func (c LineChart) SVG() ([]byte, error) {
	var xs, ys []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	x, err := newAxis(xs, c.LogX, MarginLeft, Width-MarginRight)
	if err != nil {
		return nil, fmt.Errorf("line chart %q, x axis: %w", c.Title, err)
	}
	y, err := newAxis(ys, c.LogY, Height-MarginBottom, MarginTop)
	if err != nil {
		return nil, fmt.Errorf("line chart %q, y axis: %w", c.Title, err)
	}
	w := newCanvas(c.Title)
	w.axes(x, y, c.XLabel, c.YLabel)
	for i, s := range c.Series {
		colour := palette[i%len(palette)]
		if !s.Scatter && len(s.Points) > 1 {
			var d bytes.Buffer
			for j, p := range s.Points {
				fmt.Fprintf(&d, "%s%s,%s ", map[bool]string{true: "M", false: "L"}[j == 0], num(x.pos(p.X)), num(y.pos(p.Y)))
			}
			w.el("path", attrs{"d", d.String(), "fill", "none", "stroke", colour, "stroke-width", "2"}, "")
		}
		for _, p := range s.Points {
			w.el("circle", attrs{"cx", num(x.pos(p.X)), "cy", num(y.pos(p.Y)), "r", "4", "fill", colour, "class", "point"},
				fmt.Sprintf("<title>%s: %s, %s</title>", esc(s.Name), num(p.X), num(p.Y)))
			if p.Label != "" {
				// Near the right edge the label goes to the point's left, inside the canvas.
				lx, anchor := x.pos(p.X)+6, "start"
				if lx > Width-MarginRight-80 {
					lx, anchor = x.pos(p.X)-6, "end"
				}
				w.text(lx, y.pos(p.Y)-6, p.Label, attrs{"font-size", "11", "fill", "#333", "text-anchor", anchor})
			}
		}
		w.legend(i, s.Name, colour)
	}
	return w.close(), nil
}

// BarChart draws one group of bars per category, one bar per series.
type BarChart struct {
	Title, YLabel string
	Categories    []string
	Series        []string
	// Values[i][j] is category i's value for series j.
	Values [][]float64
	LogY   bool
}

// SVG draws the chart. Each bar carries its value as a label.
func (c BarChart) SVG() ([]byte, error) {
	if len(c.Categories) == 0 || len(c.Series) == 0 || len(c.Values) != len(c.Categories) {
		return nil, fmt.Errorf("bar chart %q: %d categories, %d series, %d rows of values: want one row per category",
			c.Title, len(c.Categories), len(c.Series), len(c.Values))
	}
	var all []float64
	for i, row := range c.Values {
		if len(row) != len(c.Series) {
			return nil, fmt.Errorf("bar chart %q: category %q has %d values for %d series", c.Title, c.Categories[i], len(row), len(c.Series))
		}
		all = append(all, row...)
	}
	y, err := newAxis(all, c.LogY, Height-MarginBottom, MarginTop)
	if err != nil {
		return nil, fmt.Errorf("bar chart %q: %w", c.Title, err)
	}
	w := newCanvas(c.Title)
	w.axes(axis{}, y, "", c.YLabel)
	band := float64(Width-MarginLeft-MarginRight) / float64(len(c.Categories))
	bar := band * 0.8 / float64(len(c.Series))
	base := y.pos(y.baseline())
	for i, cat := range c.Categories {
		left := MarginLeft + float64(i)*band + band*0.1
		w.text(left+band*0.4, Height-MarginBottom+18, cat, attrs{"text-anchor", "middle", "font-size", "12"})
		for j, v := range c.Values[i] {
			top := y.pos(v)
			colour := palette[j%len(palette)]
			w.el("rect", attrs{"x", num(left + float64(j)*bar), "y", num(top), "width", num(bar * 0.9), "height", num(base - top),
				"fill", colour, "class", "bar"}, fmt.Sprintf("<title>%s, %s: %s</title>", esc(cat), esc(c.Series[j]), num(v)))
			w.text(left+float64(j)*bar+bar*0.45, top-4, num(v), attrs{"text-anchor", "middle", "font-size", "10"})
		}
	}
	for j, s := range c.Series {
		w.legend(j, s, palette[j%len(palette)])
	}
	return w.close(), nil
}

// baseline is where bars start: zero on a linear axis, the lowest decade on a log one.
func (a axis) baseline() float64 {
	if a.log {
		return math.Pow(10, a.lo)
	}
	return max(a.lo, 0)
}

// num writes a number briefly: at most 4 significant digits, no exponent.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
