// Package geom is the accuracy harness's test corpus: each file exercises one way
// a code graph can go wrong (interfaces, embedding, generics, closures, function
// values, method values, tests).
package geom

// Shape is implemented by value receivers (Circle), pointer receivers (*Rect),
// promotion through an embedded pointer (Square) and a test type.
type Shape interface {
	Area() float64
	Perimeter() float64
}

// Named is implemented by every shape that can say its name.
type Named interface {
	Name() string
}

// Sized embeds both: an interface embedding interfaces, not an implementation.
type Sized interface {
	Shape
	Named
}
