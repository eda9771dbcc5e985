package index

import (
	"context"
	"testing"
)

// Go under a testdata folder, which the go command never builds, is left out
// and listed with its reason; Go beside it and other files in testdata are
// indexed; the report's short list does not carry the fixtures.
func TestGoUnderTestdataIsLeftOutWithItsReason(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"lib.go":                 "package lib\n\nfunc F() {}\n",
		"testdata/fix.go":        "package fix\n\nfunc G() {}\n",
		"a/testdata/deep/fix.go": "package fix\n\nfunc H() {}\n",
		"a/testdata/tool.py":     "def tool():\n    pass\n",
		"mytestdata/kept.go":     "package kept\n\nfunc K() {}\n",
	})
	st := openStore(t)
	rep, err := Run(context.Background(), root, st, Options{Extract: defExtractor})
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := st.Manifest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{"lib.go": true, "testdata/fix.go": false, "a/testdata/deep/fix.go": false,
		"a/testdata/tool.py": true, "mytestdata/kept.go": true} {
		if _, got := manifest[rel]; got != want {
			t.Errorf("%s indexed: %v, want %v", rel, got, want)
		}
	}
	if n := rep.LeftOut.ByReason[WhyTestdata]; n != 2 {
		t.Errorf("left out as %q: %d, want 2 (%+v)", WhyTestdata, n, rep.LeftOut)
	}
	for _, s := range rep.Skipped {
		if WhyOf(s.Reason) == WhyTestdata {
			t.Errorf("report's skipped list carries the fixture %s", s.Rel)
		}
	}
}
