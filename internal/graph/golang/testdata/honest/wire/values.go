package wire

// handler holds a function whose locals are no definitions of the package.
var handler = func() int {
	type inner struct{ y int }
	var v inner
	return v.y
}

// Nested has a field of an anonymous struct type, whose own fields are not
// the package's either.
type Nested struct {
	inner struct{ z int }
}
