package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTheCommittedFiguresDrawThreeWellFormedCharts(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	if err := run("figures.json", out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bench-overhead.svg", "bench-index.svg", "bench-serve.svg"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			XMLName xml.Name
			Title   string `xml:"title"`
		}
		if err := xml.Unmarshal(data, &doc); err != nil || doc.XMLName.Local != "svg" || doc.Title == "" {
			t.Errorf("%s: %v, root %v, title %q", name, err, doc.XMLName, doc.Title)
		}
		// The committed charts are what the committed figures draw.
		committed, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "img", name))
		if err != nil || string(committed) != string(data) {
			t.Errorf("docs/img/%s is not what figures.json draws (%v): run go run ./bench/cmd/plots", name, err)
		}
	}
}

func TestMismatchedFiguresAreNamed(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "figures.json")
	raw, err := os.ReadFile("figures.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(raw), `"clients": [1, 50]`, `"clients": [1, 10, 50]`, 1)
	if err := os.WriteFile(data, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(data, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "serve: 3 client counts") || !strings.Contains(err.Error(), data) {
		t.Fatalf("err = %v", err)
	}
}
