package geom

// ShapeError implements the standard error interface, out of the corpus's scope.
type ShapeError struct {
	Op string
}

func (e *ShapeError) Error() string { return "geom: bad " + e.Op }

func check(s Shape) error {
	if s.Area() < 0 {
		return &ShapeError{Op: "area"}
	}
	return nil
}
