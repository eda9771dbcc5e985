package geom

// Walk calls the visitor it is given: a function value.
func Walk(shapes []Shape, visit func(Shape)) {
	for _, s := range shapes {
		visit(s)
	}
}

// CountBig passes a closure; the closure's calls are CountBig's.
func CountBig(shapes []Shape, min float64) int {
	n := 0
	Walk(shapes, func(s Shape) {
		if s.Area() > min {
			n++
		}
	})
	return n
}

// SumNamed calls an immediately invoked function literal.
func SumNamed(shapes []Shape) (total float64) {
	func() {
		total = Total(shapes...)
	}()
	return total
}
