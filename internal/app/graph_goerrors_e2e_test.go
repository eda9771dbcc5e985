package app

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	graphcmd "github.com/etalab-ia/albert-code/internal/app/cmd/graph"
)

// A repository whose go.mod needs a module not in the cache (as test-only modules are
// on a fresh clone): graph index lists the errors, bounded, and says what to run.
func TestGraphIndexListsGoErrorsAndTheFix(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env = append(h.env, "GOPROXY=off", "GOFLAGS=-mod=mod")
	h.writeFile("repo/go.mod", "module example.com/m\n\ngo 1.22\n\nrequire example.com/absent v1.0.0\n")
	h.writeFile("repo/.git/HEAD", "ref: refs/heads/main\n")
	h.writeFile("repo/uses/uses.go", "package uses\n\nimport \"example.com/absent\"\n\nvar _ = absent.X\n")
	for i := range 7 {
		h.writeFile(fmt.Sprintf("repo/bad%d/bad.go", i), fmt.Sprintf("package bad%d\n\nvar x int = \"not an int\"\n", i))
	}
	repo := h.work + "/repo"
	one := h.writeFile("one/only.go", "package only\n")
	if r := h.run("graph", "index", filepath.Dir(one)); r.code != ExitOK || !strings.Contains(r.stdout, ": 1 file (1 extracted") {
		t.Fatalf("a one-file index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := h.run("graph", "index", repo)
	if r.code != ExitOK {
		t.Fatalf("index: exit %d stderr %s", r.code, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	listed := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "partial:") {
			break // the files whose facts the errors left partial come next
		}
		if strings.HasPrefix(l, "  ") && strings.Contains(l, ".go:") && !strings.Contains(l, "# ") {
			listed++
		}
	}
	if listed != graphcmd.ShownGoErrors || !strings.Contains(r.stdout, "more (--json lists the first 20)") {
		t.Fatalf("want %d errors listed then a count of the rest:\n%s", graphcmd.ShownGoErrors, r.stdout)
	}
	if !strings.Contains(r.stdout, "run `go mod download`") || !strings.Contains(r.stdout, "bad0/bad.go:3:13: cannot use") {
		t.Fatalf("no hint to download the modules:\n%s", r.stdout)
	}
	// An edit re-checks only its package; the others' errors come from the snapshot.
	h.writeFile("repo/bad0/bad.go", "package bad0\n\nvar x int = \"still not an int\"\n")
	r = h.run("graph", "index", repo, "--json")
	var rep struct {
		GoErrors    int `json:"go_errors"`
		GoErrorList []struct {
			File, Msg string
		} `json:"go_error_list"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.GoErrors < 8 || len(rep.GoErrorList) != min(rep.GoErrors, 20) {
		t.Fatalf("json report (%v): %+v\n%s", err, rep, r.stdout)
	}
}
