package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestWorkspaceResolution(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	must(t, os.MkdirAll(outside, 0o755))
	root, err := NewRoot(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	r := root.Dir()
	must(t, os.MkdirAll(filepath.Join(r, "existing", "deep"), 0o755))
	must(t, os.WriteFile(filepath.Join(r, "a-file"), nil, 0o644))
	must(t, os.Symlink(outside, filepath.Join(r, "link-out")))
	must(t, os.Symlink(filepath.Join(r, "existing"), filepath.Join(r, "link-in")))
	must(t, os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(r, "dangling-out")))

	tests := []struct {
		input  string
		create bool
		want   string // path under the root, when accepted
		err    error
	}{
		{"", false, "", nil},
		{".", false, "", nil},
		{"existing", false, "existing", nil},
		{"existing/deep/", false, "existing/deep", nil},
		{"./existing//deep", false, "existing/deep", nil},
		{"new/sub", true, "new/sub", nil},
		{"link-in/deep", false, "link-in/deep", nil},
		{"missing", false, "", ErrNotExist},
		{"a-file", true, "", ErrNotDir},
		{"a-file/under", true, "", ErrNotDir},
		{"/etc", true, "", ErrAbsolute},
		{"..", true, "", ErrTraversal},
		{"../outside", true, "", ErrTraversal},
		{"existing/../../outside", true, "", ErrTraversal},
		{`a\..\b`, true, "", ErrInvalid},
		{"nul\x00", true, "", ErrInvalid},
		{"link-out", false, "", ErrEscape},
		{"link-out/new", true, "", ErrEscape},
		{"dangling-out/x", true, "", ErrEscape},
	}
	for _, tc := range tests {
		t.Run(strconv.Quote(tc.input), func(t *testing.T) {
			got, err := root.Workspace(tc.input, tc.create)
			if tc.err != nil {
				var ne *NameError
				if !errors.Is(err, tc.err) || !errors.As(err, &ne) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				if !strings.Contains(err.Error(), strconv.Quote(tc.input)) || ne.Hint == "" {
					t.Errorf("error %q does not name the input or say what to do", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(r, tc.want); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
			if info, err := os.Stat(got); err != nil || !info.IsDir() {
				t.Errorf("%s is not a folder: %v", got, err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a folder was created outside the root")
	}
}

func TestPathAllowsFilesThatDoNotExistYet(t *testing.T) {
	t.Parallel()
	root, err := NewRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := root.Path("docs/new.md")
	if err != nil || p != filepath.Join(root.Dir(), "docs", "new.md") {
		t.Errorf("got %s, %v", p, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// An over-long name is refused before any system call, and the refusal names the
// limit without echoing the whole name.
func TestOverLongNameNamesTheLimit(t *testing.T) {
	t.Parallel()
	root, err := NewRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		strings.Repeat("n", MaxComponentBytes+1),
		"existing/" + strings.Repeat("é", 128), // 256 bytes in 128 characters
		strings.Repeat("d/", MaxPathBytes/2) + "x",
	} {
		if _, err := root.Workspace(name, true); !errors.Is(err, ErrTooLong) {
			t.Errorf("%d bytes: %v", len(name), err)
		}
	}
	longest := strings.Repeat("n", MaxComponentBytes) + "/" + strings.Repeat("m", MaxComponentBytes)
	if _, err := root.Workspace(longest, true); err != nil {
		t.Errorf("names of %d bytes: %v", MaxComponentBytes, err)
	}
	_, err = root.Path(strings.Repeat("x", 5000))
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "at most 4096") || len(err.Error()) > 400 {
		t.Errorf("5,000-byte path: %v", err)
	}
	_, err = root.Path("a/" + strings.Repeat("x", 300) + "/b")
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "at most 255") {
		t.Errorf("300-byte name: %v", err)
	}
}
