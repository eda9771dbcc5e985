package infra

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// render writes facts one a line, sorted: the form of the fixtures' expected
// sections. Every fact must belong to the file it was read from.
func render(t *testing.T, ff graph.FileFacts) []string {
	t.Helper()
	var out []string
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s in file %q, want %q", n.QName, n.File, ff.Path)
		}
		out = append(out, fmt.Sprintf("node %s %s %q %d-%d", n.Kind, n.QName, n.Name, n.Line, n.EndLine))
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s in file %q", e.From, e.To, e.File)
		}
		out = append(out, fmt.Sprintf("edge %s %s -> %s @%d", e.Kind, e.From, e.To, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d (%s)", u.Kind, u.From, u.Name, u.Line, u.Reason))
	}
	slices.Sort(out)
	return out
}

// TestYAMLThatDoesNotParseKeepsWhatCameBefore: a Helm template's second
// document does not parse; the first is read and the error says where.
func TestYAMLThatDoesNotParseKeepsWhatCameBefore(t *testing.T) {
	t.Parallel()
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Values.name }\n  x: [\n"
	ff, err := YAML(context.Background(), "chart/templates/a.yaml", "yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ff.ParseError, "line") || !strings.Contains(ff.ParseError, "a template") ||
		len(ff.Nodes) != 2 || ff.Nodes[1].QName != "k8s:ConfigMap/a" {
		t.Errorf("parse error %q, nodes %+v; want the ConfigMap and an error naming the line", ff.ParseError, ff.Nodes)
	}
}
