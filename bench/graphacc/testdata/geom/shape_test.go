package geom

import "testing"

// fakeShape is a test type implementing Shape.
type fakeShape struct{ area float64 }

func (f fakeShape) Area() float64 { return f.area }

func (f fakeShape) Perimeter() float64 { return 0 }

func TestTotal(t *testing.T) {
	got := Total(Circle{R: 1}, NewRect(1, 2), fakeShape{area: 3})
	if got < 6 {
		t.Fatalf("Total = %v", got)
	}
	if check(fakeShape{area: -1}) == nil {
		t.Fatal("check accepted a negative area")
	}
}
