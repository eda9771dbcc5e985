// Command report prints a description of a square, through the geom and store
// packages.
package main

import (
	"fmt"
	"io"
	"os"

	"example.com/accfixture/geom"
	"example.com/accfixture/store"
)

// printer implements io.Writer (a standard interface, out of scope) by calling
// through its field.
type printer struct {
	w io.Writer
}

func (p printer) Write(b []byte) (int, error) { return p.w.Write(b) }

func main() {
	c := &store.Cache{Store: store.New()}
	c.Put("shape", report(geom.NewSquare(2)))
	v, _ := c.Get("shape")
	hits := c.Hits
	fmt.Fprintln(printer{w: os.Stdout}, v, hits())
}

func report(s geom.Shape) string {
	return geom.Describe(s) + fmt.Sprint(geom.Total(s))
}
