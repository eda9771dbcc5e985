package geom

import "fmt"

// Describe takes a method value (a reference) and calls it later (a function value).
func Describe(s Shape) string {
	area := s.Area
	return fmt.Sprintf("%s %.2f", describeName(s), area())
}

func describeName(s Shape) string {
	if n, ok := s.(Named); ok {
		return n.Name()
	}
	if c, ok := s.(interface{ Color() string }); ok {
		return c.Color()
	}
	return "?"
}
