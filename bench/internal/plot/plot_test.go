package plot

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
)

// element is one SVG element's name and attributes.
type element struct {
	name  string
	attrs map[string]string
}

// parse checks that svg is well-formed XML and returns its elements in order.
func parse(t *testing.T, svg []byte) []element {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var out []element
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 && (e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v, want svg in the SVG namespace", e.Name)
			}
			depth++
			a := map[string]string{}
			for _, at := range e.Attr {
				a[at.Name.Local] = at.Value
			}
			out = append(out, element{e.Name.Local, a})
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced elements (depth %d)", depth)
	}
	return out
}

func float(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestLineChartPlacesPointsOnTheAxes(t *testing.T) {
	t.Parallel()
	svg, err := LineChart{Title: "a < b & c", XLabel: "clients", YLabel: "ms",
		Series: []Series{{Name: "serve", Points: []Point{{0, 0, ""}, {5, 10, "top"}, {10, 5, ""}}}}}.SVG()
	if err != nil {
		t.Fatal(err)
	}
	// x 0..10 spans the plot area's width, y 0..10 its height (10 is a whole step).
	want := [][2]float64{
		{MarginLeft, Height - MarginBottom},
		{(MarginLeft + Width - MarginRight) / 2.0, MarginTop},
		{Width - MarginRight, (MarginTop + Height - MarginBottom) / 2.0},
	}
	var got [][2]float64
	for _, e := range parse(t, svg) {
		if e.name == "circle" && e.attrs["class"] == "point" {
			got = append(got, [2]float64{float(t, e.attrs["cx"]), float(t, e.attrs["cy"])})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d points drawn, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d at %v, want %v", i, got[i], want[i])
		}
	}
	if !strings.Contains(string(svg), "a &lt; b &amp; c") || !strings.Contains(string(svg), ">top</text>") {
		t.Errorf("title or label missing or unescaped:\n%s", svg)
	}
}

func TestLogAxisPlacesDecadesEvenly(t *testing.T) {
	t.Parallel()
	svg, err := LineChart{Title: "log", LogY: true, Series: []Series{{Name: "s", Scatter: true,
		Points: []Point{{1, 1, ""}, {2, 10, ""}, {3, 100, ""}}}}}.SVG()
	if err != nil {
		t.Fatal(err)
	}
	var ys []float64
	for _, e := range parse(t, svg) {
		if e.name == "circle" {
			ys = append(ys, float(t, e.attrs["cy"]))
		}
		if e.name == "path" {
			t.Error("a scatter series is joined by a line")
		}
	}
	if len(ys) != 3 || ys[0] != Height-MarginBottom || ys[2] != MarginTop || ys[1] != (ys[0]+ys[2])/2 {
		t.Fatalf("y of 1, 10, 100 = %v, want the bottom, the middle, the top", ys)
	}
	if _, err := (LineChart{Title: "bad", LogY: true, Series: []Series{{Points: []Point{{1, 0, ""}}}}}).SVG(); err == nil ||
		!strings.Contains(err.Error(), "want positive values") {
		t.Fatalf("zero on a log axis: %v", err)
	}
}

func TestBarChartBarHeightsAreProportional(t *testing.T) {
	t.Parallel()
	svg, err := BarChart{Title: "bars", YLabel: "ms", Categories: []string{"run 1", "run 2"}, Series: []string{"us", "peer"},
		Values: [][]float64{{2, 10}, {5, 8}}}.SVG()
	if err != nil {
		t.Fatal(err)
	}
	plotHeight := float64(Height - MarginTop - MarginBottom)
	var heights []float64
	for _, e := range parse(t, svg) {
		if e.name == "rect" && e.attrs["class"] == "bar" {
			h := float(t, e.attrs["height"])
			if y := float(t, e.attrs["y"]); y+h != Height-MarginBottom {
				t.Errorf("a bar ends at %v, not on the axis", y+h)
			}
			heights = append(heights, h)
		}
	}
	want := []float64{0.2 * plotHeight, plotHeight, 0.5 * plotHeight, 0.8 * plotHeight}
	if len(heights) != 4 {
		t.Fatalf("%d bars, want 4", len(heights))
	}
	for i := range want {
		if d := heights[i] - want[i]; d > 0.01 || d < -0.01 {
			t.Errorf("bar %d height %v, want %v", i, heights[i], want[i])
		}
	}
	if _, err := (BarChart{Title: "ragged", Categories: []string{"a"}, Series: []string{"x", "y"}, Values: [][]float64{{1}}}).SVG(); err == nil ||
		!strings.Contains(err.Error(), `category "a" has 1 values for 2 series`) {
		t.Fatalf("ragged values: %v", err)
	}
}
