package geom

// Total calls Area through the interface.
func Total(shapes ...Shape) float64 {
	sum := 0.0
	for _, s := range shapes {
		sum += s.Area()
	}
	return sum
}

// Largest is generic: the call goes to the constraint's method.
func Largest[T Shape](xs []T) T {
	var best T
	for i, x := range xs {
		if i == 0 || x.Area() > best.Area() {
			best = x
		}
	}
	return best
}

// MapAreas calls a function value: the compiler cannot say which function.
func MapAreas[T any](xs []T, f func(T) float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// CircleAreas instantiates both generic functions explicitly.
func CircleAreas(cs []Circle) []float64 {
	_ = Largest[Circle](cs)
	return MapAreas(cs, Circle.Area)
}
