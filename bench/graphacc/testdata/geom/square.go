package geom

// Square gets Area and Perimeter from the embedded *Rect.
type Square struct {
	*Rect
	label string
}

func NewSquare(side float64) Square {
	return Square{Rect: NewRect(side, side), label: "square"}
}

// Name overrides the promoted method and calls it explicitly.
func (s Square) Name() string { return s.label + "/" + s.Rect.Name() }

// Diagonal calls a promoted method on the value.
func (s Square) Diagonal() float64 { return s.Perimeter() / 4 * 1.4142 }
