package query

import (
	"context"
	"strings"
	"testing"
)

const entrySrc = `package app

func main() { run() }

func init() {}

func run() { helper() }

func helper() {}

// Exported is called from nowhere in the repository: API surface.
func Exported() {}

// Used is exported but called.
func Used() {}

func caller() { Used() }
`

func TestEntryPoints(t *testing.T) {
	t.Parallel()
	st := indexModule(t, "example.com/e", "app/app.go", entrySrc)
	a, err := EntryPoints(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range a.Items {
		got = append(got, strings.TrimPrefix(it.QName, "example.com/e/app.")+"="+it.Why)
	}
	joined := strings.Join(got, "|")
	for _, want := range []string{"main=program entry (main)", "init@app.go=package initialisation (init)", "Exported=exported, and nothing"} {
		if !strings.Contains(joined, want) {
			t.Errorf("entry points lack %q: %v", want, got)
		}
	}
	for _, not := range []string{"Used=", "run=", "helper=", "caller="} {
		if strings.Contains("|"+joined, "|"+not) {
			t.Errorf("%s listed as an entry point: %v", not, got)
		}
	}
	if a.Certainty != LowerBound || !strings.Contains(a.Why, "heuristic") {
		t.Errorf("answer = %+v", a)
	}
}
