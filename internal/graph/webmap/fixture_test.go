package webmap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// fixtureFiles is a small module: an interface with two implementations, a
// package that sums them, a program that prints the sum.
var fixtureFiles = map[string]string{
	"go.mod": "module example.com/shapes\n\ngo 1.26\n",
	"shapes/shapes.go": `package shapes

// Shape has an area.
type Shape interface{ Area() float64 }

type Circle struct{ R float64 }

func (c Circle) Area() float64 { return 3 * c.R * c.R }

type Square struct{ S float64 }

func (s Square) Area() float64 { return s.S * s.S }

// Total sums the areas.
func Total(ss []Shape) float64 {
	t := 0.0
	for _, s := range ss {
		t += s.Area()
	}
	return t
}
`,
	"report/report.go": `package report

import "example.com/shapes/shapes"

func Summary() float64 {
	return shapes.Total([]shapes.Shape{shapes.Circle{R: 1}, shapes.Square{S: 2}})
}

func Print() { println(Summary()) }
`,
	"cmd/app/main.go": `package main

import "example.com/shapes/report"

func main() { report.Print() }
`,
}

const fixtureModule = "example.com/shapes/"

// fixtureRepo writes the fixture as a git repository with one commit and
// returns its root and the path its index goes to (not built).
func fixtureRepo(t *testing.T) (root, dbPath string) {
	t.Helper()
	root = t.TempDir()
	for rel, src := range fixtureFiles {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root, filepath.Join(t.TempDir(), "graph.db")
}

// buildIndex is what the page's button runs in the tests: the Go extractor only.
func buildIndex(root, dbPath string) func(context.Context) error {
	return func(ctx context.Context) error {
		st, err := store.Open(dbPath)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = index.Run(ctx, root, st, index.Options{Go: golang.DefaultOptions()})
		return err
	}
}

// indexedFixture is the fixture indexed, with Square.Area edited in the working
// tree so that the changes view has something to show.
func indexedFixture(t *testing.T) (root, dbPath string) {
	t.Helper()
	root, dbPath = fixtureRepo(t)
	if err := buildIndex(root, dbPath)(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "shapes", "shapes.go")
	edited := strings.Replace(fixtureFiles["shapes/shapes.go"], "return s.S * s.S", "return s.S*s.S + 0", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, dbPath
}
