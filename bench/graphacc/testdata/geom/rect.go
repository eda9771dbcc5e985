package geom

// Rect has pointer receivers: *Rect implements Shape, Rect does not.
type Rect struct {
	W, H float64
}

// NewRect is called from a package-level initialiser and from functions.
func NewRect(w, h float64) *Rect { return &Rect{W: w, H: h} }

func (r *Rect) Area() float64 { return r.W * r.H }

func (r *Rect) Perimeter() float64 { return 2 * (r.W + r.H) }

func (r *Rect) Name() string { return "rect" }

// point shares its line with its fields.
type point struct{ x, y float64 }

func (r *Rect) corner() point { return point{x: r.W, y: r.H} }
