package config

import (
	"os"
	"strings"
	"testing"
)

// The documentation's table lists every setting with its flag and default.
func TestDocsListEverySetting(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../../docs/serve.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings {
		row := "| `" + s.Var() + "` | `--" + s.Flag + "` | "
		if s.Default != "" {
			row += "`" + s.Default + "`"
		}
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/serve.md has no row %q", row)
		}
	}
}
