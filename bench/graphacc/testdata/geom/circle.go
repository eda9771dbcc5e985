package geom

import "math"

// Circle has value receivers.
type Circle struct {
	R float64
}

func (c Circle) Area() float64 { return math.Pi * c.R * c.R }

func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.R }

func (c Circle) Name() string { return "circle" }

// perimeterOf calls through a method expression.
func perimeterOf(c Circle) float64 { return Circle.Perimeter(c) }
