package plot

import (
	"bytes"
	"fmt"
)

// attrs are an element's attributes as name, value pairs, in order.
type attrs []string

// canvas accumulates one SVG document.
type canvas struct{ b bytes.Buffer }

func newCanvas(title string) *canvas {
	c := &canvas{}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n",
		Width, Height, Width, Height)
	fmt.Fprintf(&c.b, "<title>%s</title>\n", esc(title))
	c.el("rect", attrs{"width", "100%", "height", "100%", "fill", "#fff"}, "")
	c.text(Width/2, 22, title, attrs{"text-anchor", "middle", "font-size", "15", "font-weight", "bold"})
	return c
}

// el writes <name attrs>inner</name>; inner is markup, already escaped.
func (c *canvas) el(name string, a attrs, inner string) {
	c.b.WriteString("<" + name)
	for i := 0; i+1 < len(a); i += 2 {
		fmt.Fprintf(&c.b, ` %s="%s"`, a[i], esc(a[i+1]))
	}
	if inner == "" {
		c.b.WriteString("/>\n")
		return
	}
	c.b.WriteString(">" + inner + "</" + name + ">\n")
}

func (c *canvas) text(x, y float64, s string, a attrs) {
	c.el("text", append(attrs{"x", num(x), "y", num(y)}, a...), esc(s))
}

// axes draws the frame, the grid and the tick labels; an x axis with no range
// (a bar chart's categories) gets only its line.
func (c *canvas) axes(x, y axis, xLabel, yLabel string) {
	left, right := float64(MarginLeft), float64(Width-MarginRight)
	top, bottom := float64(MarginTop), float64(Height-MarginBottom)
	for _, t := range y.ticks() {
		p := y.pos(t)
		c.el("line", attrs{"x1", num(left), "x2", num(right), "y1", num(p), "y2", num(p), "stroke", "#e3e3e3"}, "")
		c.text(left-6, p+4, num(t), attrs{"text-anchor", "end", "font-size", "11"})
	}
	if x.to != x.from {
		for _, t := range x.ticks() {
			p := x.pos(t)
			c.el("line", attrs{"x1", num(p), "x2", num(p), "y1", num(top), "y2", num(bottom), "stroke", "#eeeeee"}, "")
			c.text(p, bottom+16, num(t), attrs{"text-anchor", "middle", "font-size", "11"})
		}
	}
	c.el("line", attrs{"x1", num(left), "x2", num(right), "y1", num(bottom), "y2", num(bottom), "stroke", "#333"}, "")
	c.el("line", attrs{"x1", num(left), "x2", num(left), "y1", num(top), "y2", num(bottom), "stroke", "#333"}, "")
	if xLabel != "" {
		c.text((left+right)/2, Height-18, xLabel, attrs{"text-anchor", "middle", "font-size", "12"})
	}
	if yLabel != "" {
		c.text(16, (top+bottom)/2, yLabel, attrs{"text-anchor", "middle", "font-size", "12",
			"transform", fmt.Sprintf("rotate(-90 16 %s)", num((top+bottom)/2))})
	}
}

// legend writes entry i in the top left corner of the plot area.
func (c *canvas) legend(i int, name, colour string) {
	x, y := float64(MarginLeft+10), float64(MarginTop+10+16*i)
	c.el("rect", attrs{"x", num(x), "y", num(y - 9), "width", "10", "height", "10", "fill", colour}, "")
	c.text(x+14, y, name, attrs{"font-size", "12", "class", "legend"})
}

func (c *canvas) close() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}
