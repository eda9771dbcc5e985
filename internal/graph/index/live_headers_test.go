package index

import "testing"

// TestLiveRescansWhenHeadersChangeLanguage: the first Objective-C file in a C
// tree makes its .h files Objective-C, which only a full scan reassigns.
func TestLiveRescansWhenHeadersChangeLanguage(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"lib/a.h": "def header\n", "lib/a.c": "def c\n"})
	l := openLive(t, root, Options{Extract: defExtractor})
	hasNode(t, l, "header")
	write(t, root, "lib/b.m", "def objc\n")
	if !hasNode(t, l, "objc") {
		t.Fatal("the new Objective-C file was not indexed")
	}
	if s := l.Stats(); s.FullScans != 2 {
		t.Fatalf("%d full scans after the first .m file, want 2: .h files changed language", s.FullScans)
	}
	if got := headerLanguage(l.scan.Files); got != "objc" {
		t.Errorf("headers read as %q, want objc", got)
	}
}
