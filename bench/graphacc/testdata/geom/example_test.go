package geom_test

import (
	"fmt"
	"testing"

	"example.com/accfixture/geom"
)

func TestCountBig(t *testing.T) {
	shapes := []geom.Shape{geom.Circle{R: 1}, geom.NewRect(10, 10)}
	if n := geom.CountBig(shapes, 50); n != 1 {
		t.Fatalf("CountBig = %d", n)
	}
}

func ExampleNewSquare() {
	s := geom.NewSquare(2)
	fmt.Println(s.Name(), s.Area())
	// Output: square/rect 4
}
