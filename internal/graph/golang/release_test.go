package golang

import (
	"context"
	"path/filepath"
	"testing"
)

// Extraction lets go of every variant's syntax and type information once its
// files are extracted, so that a large module's facts never sit beside its whole
// load; what comes after (implements, the snapshot) reads types only.
func TestExtractionLetsGoOfTheSyntax(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := load(context.Background(), root, Options{Tests: true, Env: offline})
	if err != nil {
		t.Fatal(err)
	}
	ex := newExtraction(root)
	units, decls, err := ex.add(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	if len(units) == 0 || len(decls) == 0 {
		t.Fatalf("%d units, %d type declarations: the fixture should give both", len(units), len(decls))
	}
	for _, p := range l.pkgs {
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("variant %s still holds its syntax or type information", p.ID)
		}
		if p.Types == nil {
			t.Errorf("variant %s lost its types, which implements and the snapshot read", p.ID)
		}
	}
	for _, u := range units {
		if u.file != nil {
			t.Errorf("unit %s still holds its syntax", u.rel)
		}
	}
	for _, d := range decls {
		if d.fx.u.file != nil || d.fx.info != nil || d.fx.names != nil {
			t.Errorf("type %s keeps its file's syntax through its extraction", d.qname)
		}
	}
}

// The snapshot's header of a file is taken from the bytes the load parsed,
// not from a second read: it must equal what an update computes from disk.
func TestSnapshotHeadersAreTheFilesOwn(t *testing.T) {
	t.Parallel()
	res := mustFixture(t)
	root := filepath.Join("testdata", "fixture")
	checked := 0
	for rel, rec := range res.Snapshot.Files {
		if rec.Variant == "" {
			continue // ignored by the build: recordIgnored reads it from disk anyway
		}
		header, build, ok := headerOf(filepath.Join(root, filepath.FromSlash(rel)))
		if !ok {
			t.Fatalf("headerOf(%s) failed", rel)
		}
		if rec.Header != header || rec.Build != build {
			t.Errorf("%s: snapshot header %q build %q, the file's %q %q", rel, rec.Header, rec.Build, header, build)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no file of the fixture was claimed by a variant")
	}
}
