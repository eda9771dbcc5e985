package infra

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// YAML reads a YAML file as what it is: a Kustomization (named
// kustomization.yaml), a Compose file (a top-level `services:` mapping, or named
// compose.yaml, docker-compose.yml and their variants), or Kubernetes objects
// (each document with apiVersion, kind and metadata.name). Any other YAML is a
// file node without definitions. A document that does not parse (a Helm
// template) ends the reading: what came before is kept, and ParseError says
// where it stopped.
func YAML(ctx context.Context, rel, lang string, src []byte) (graph.FileFacts, error) {
	f := newFacts(rel, lang, src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var docs []*yaml.Node
	for {
		if err := ctx.Err(); err != nil {
			return graph.FileFacts{}, err
		}
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			what := "not valid YAML"
			if bytes.Contains(src, []byte("{{")) {
				what = "a template (Helm, Go), YAML only once rendered"
			}
			f.ff.ParseError = fmt.Sprintf("%s (%v); facts are partial", what, err)
			break
		}
		if len(doc.Content) > 0 {
			docs = append(docs, doc.Content[0])
		}
	}
	base := strings.ToLower(path.Base(rel))
	for _, d := range docs {
		switch {
		case base == "kustomization.yaml" || base == "kustomization.yml" || base == "kustomization":
			kustomization(f, d)
		case get(d, "services") != nil && get(d, "services").Kind == yaml.MappingNode && get(d, "apiVersion") == nil,
			isComposeName(base) && d.Kind == yaml.MappingNode:
			compose(f, d)
		default:
			kubernetes(f, d)
		}
	}
	return f.ff, nil
}

func isComposeName(base string) bool {
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".yml"), ".yaml")
	return base == "compose" || base == "docker-compose" ||
		strings.HasPrefix(base, "compose.") || strings.HasPrefix(base, "docker-compose.")
}

// get is the value of key in a mapping, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalar is the value of a scalar node, or "".
func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// scalars are the scalar items of a sequence, or the scalar itself.
func scalars(n *yaml.Node) []*yaml.Node {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		return []*yaml.Node{n}
	case n.Kind == yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

// endLine is the last line a node's content reaches.
func endLine(n *yaml.Node) int {
	last := n.Line
	for _, c := range n.Content {
		last = max(last, endLine(c))
	}
	return last
}

// fileRef adds a reference from `from` to a path written relative to the file's
// folder; a path that leaves the repository, or a URL, stays unresolved.
func (f *facts) fileRef(from, written string, kind graph.EdgeKind, line int) {
	if strings.Contains(written, "://") || strings.HasPrefix(written, "github.com/") {
		f.unresolved(from, written, kind, line, "a remote location, outside the repository")
		return
	}
	p := path.Clean(path.Join(path.Dir(f.ff.Path), written))
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(written) {
		f.unresolved(from, written, kind, line, "a path outside the repository")
		return
	}
	f.edge(from, p, kind, line)
}

// compose reads a Compose file's services: each is a node; `depends_on`
// references the services it names, `image` the image, `build` the Dockerfile
// of its context, `env_file` the files; `extends: {service: x}` extends x.
func compose(f *facts, doc *yaml.Node) {
	services := get(doc, "services")
	if services == nil || services.Kind != yaml.MappingNode {
		return
	}
	rel := f.ff.Path
	for i := 0; i+1 < len(services.Content); i += 2 {
		k, v := services.Content[i], services.Content[i+1]
		f.define(rel, rel+"::"+k.Value, k.Value, graph.KindService, k.Line, endLine(v), "service "+k.Value)
	}
	for i := 0; i+1 < len(services.Content); i += 2 {
		k, v := services.Content[i], services.Content[i+1]
		q := rel + "::" + k.Value
		deps := get(v, "depends_on")
		if deps != nil && deps.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(deps.Content); j += 2 {
				f.serviceRef(q, deps.Content[j], graph.EdgeReferences)
			}
		}
		for _, d := range scalars(deps) {
			f.serviceRef(q, d, graph.EdgeReferences)
		}
		if img := get(v, "image"); scalar(img) != "" {
			f.edge(q, ImagePrefix+img.Value, graph.EdgeReferences, img.Line)
		}
		if b := get(v, "build"); b != nil {
			ctxDir, dockerfile, line := scalar(b), "Dockerfile", b.Line
			if b.Kind == yaml.MappingNode {
				ctxDir = scalar(get(b, "context"))
				if d := scalar(get(b, "dockerfile")); d != "" {
					dockerfile = d
				}
			}
			if ctxDir == "" {
				ctxDir = "."
			}
			f.fileRef(q, path.Join(ctxDir, dockerfile), graph.EdgeReferences, line)
		}
		for _, e := range scalars(get(v, "env_file")) {
			f.fileRef(q, e.Value, graph.EdgeReferences, e.Line)
		}
		if ext := get(v, "extends"); ext != nil && get(ext, "file") == nil {
			if s := get(ext, "service"); scalar(s) != "" {
				f.serviceRef(q, s, graph.EdgeExtends)
			}
		}
	}
}

func (f *facts) serviceRef(from string, name *yaml.Node, kind graph.EdgeKind) {
	to := f.ff.Path + "::" + name.Value
	for _, n := range f.ff.Nodes {
		if n.QName == to {
			f.edge(from, to, kind, name.Line)
			return
		}
	}
	f.unresolved(from, name.Value, kind, name.Line, "no service of that name in this file")
}
