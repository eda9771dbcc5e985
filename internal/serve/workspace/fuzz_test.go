package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzPath resolves any name a client may send under a root holding folders, a
// file, and links in, out and dangling out: it never panics, a name it accepts
// stays under the root once every existing link is followed, and "..", absolute
// paths, NULs, backslashes and over-long names are refused with a NameError.
func FuzzPath(f *testing.F) {
	base := f.TempDir()
	outside := filepath.Join(base, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		f.Fatal(err)
	}
	root, err := NewRoot(filepath.Join(base, "root"))
	if err != nil {
		f.Fatal(err)
	}
	r := root.Dir()
	for _, step := range []error{
		os.MkdirAll(filepath.Join(r, "existing", "deep"), 0o755),
		os.WriteFile(filepath.Join(r, "a-file"), nil, 0o644),
		os.Symlink(outside, filepath.Join(r, "link-out")),
		os.Symlink("../outside", filepath.Join(r, "existing", "rel-out")),
		os.Symlink(filepath.Join(r, "existing"), filepath.Join(r, "link-in")),
		os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(r, "dangling-out")),
	} {
		if step != nil {
			f.Fatal(step)
		}
	}
	for _, s := range []string{
		"", ".", "existing/deep", "./existing//deep/", "new/sub", "link-in/deep", "a-file/x",
		"..", "../root", "existing/../../outside", "/etc/passwd", "link-out", "link-out/x", "existing/rel-out/x",
		"dangling-out", "dangling-out/a/b", "a\x00b", `..\..\x`, "existing/...", "....//x",
		strings.Repeat("n", MaxComponentBytes+1), strings.Repeat("a/", MaxPathBytes/2+1),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p, err := root.Path(name)
		if hostile(name) {
			var ne *NameError
			if !errors.As(err, &ne) {
				t.Fatalf("Path(%q) = %q, %v; want a NameError", name, p, err)
			}
			return
		}
		if err != nil {
			var ne *NameError
			if !errors.As(err, &ne) {
				t.Fatalf("Path(%q): %v is not a NameError naming the fault", name, err)
			}
			if !slices.ContainsFunc([]error{ErrEscape, ErrNotDir}, func(e error) bool { return errors.Is(err, e) }) {
				t.Fatalf("Path(%q) refused a plain name: %v", name, err)
			}
			return
		}
		if !within(r, p) {
			t.Fatalf("Path(%q) = %q, outside the root %q", name, p, r)
		}
		real, err := resolveExisting(p)
		if err != nil {
			t.Fatalf("Path(%q) = %q, which does not resolve: %v", name, p, err)
		}
		if !within(r, real) {
			t.Fatalf("Path(%q) = %q leads to %q, outside the root", name, p, real)
		}
		if rel, err := root.Rel(name); err != nil || strings.HasPrefix(rel, "/") || slices.Contains(strings.Split(rel, "/"), "..") {
			t.Fatalf("Rel(%q) = %q, %v after Path accepted it", name, rel, err)
		}
	})
}

// hostile reports a name that must be refused whatever the root holds.
func hostile(name string) bool {
	if strings.ContainsAny(name, "\x00\\") || filepath.IsAbs(name) || len(name) > MaxPathBytes {
		return true
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." || len(seg) > MaxComponentBytes {
			return true
		}
	}
	return false
}
