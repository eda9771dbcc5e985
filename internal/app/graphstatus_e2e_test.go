package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphStatusListsWhatWasLeftOut: `graph index` sums up the files left out,
// and `graph status` (text and --json) lists each with its reason.
func TestGraphStatusListsWhatWasLeftOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	repo := filepath.Join(h.work, "repo")
	for rel, content := range map[string]string{
		"app.py":    "def main():\n    pass\n",
		"blob.c":    "int x;\x00\x01",
		"notes.txt": "not code\n",
		"README.md": "# Read me\n\nStart with [app](app.py).\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := h.run("graph", "index", repo)
	if r.code != ExitOK || !strings.Contains(r.stdout, "left out or partial: 2 files (1 binary, 1 unknown language); albert-code graph status lists them") {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = h.run("graph", "--repo", repo, "status", "--json")
	var st struct {
		LeftOut struct {
			Count    int            `json:"count"`
			ByReason map[string]int `json:"by_reason"`
			Files    []struct {
				Path, Why, Reason string
			} `json:"files"`
		} `json:"left_out"`
		Stats struct {
			Files int `json:"files"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != ExitOK {
		t.Fatalf("status: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if st.LeftOut.Count != 2 || st.LeftOut.ByReason["binary"] != 1 || len(st.LeftOut.Files) != 2 ||
		st.LeftOut.Files[0].Path != "blob.c" || st.LeftOut.Files[1].Path != "notes.txt" || st.Stats.Files != 2 {
		t.Fatalf("status = %+v\n%s", st, r.stdout)
	}
	r = h.run("graph", "--repo", repo, "status")
	if !strings.Contains(r.stdout, "  blob.c: binary: a NUL byte in its first 8000 bytes\n") ||
		!strings.Contains(r.stdout, "  notes.txt: unknown language: ") {
		t.Fatalf("status text:\n%s", r.stdout)
	}
}
