package cochange

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompute(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(n int, files ...string) {
		t.Helper()
		for _, f := range files {
			p := filepath.Join(root, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(fmt.Sprint(n)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run("add", ".")
		run("commit", "-qm", fmt.Sprint(n))
	}
	run("init", "-q")
	commit(1, "api/handler.go", "api/view.html", "README.md")
	commit(2, "api/handler.go", "api/view.html")
	commit(3, "api/handler.go", "db/schema.sql")
	commit(4, "db/schema.sql", "README.md")
	commit(5, "api/handler.go", "api/view.html")
	var bulk []string
	for i := range bulkCommit + 1 {
		bulk = append(bulk, fmt.Sprintf("gen/f%d.go", i))
	}
	commit(6, append(bulk, "api/handler.go")...)

	res, err := Compute(context.Background(), root, "api/handler.go", 100)
	if err != nil {
		t.Fatal(err)
	}
	if res.Read != 6 || res.Skipped != 1 || res.Commits != 4 {
		t.Fatalf("result = %+v", res)
	}
	// view.html: 3 of handler's 4 commits; README and schema once each: dropped.
	if len(res.Partners) != 1 || res.Partners[0].File != "api/view.html" || res.Partners[0].Count != 3 ||
		res.Partners[0].Coupling != 0.75 || res.Partners[0].Jaccard != 0.75 {
		t.Fatalf("partners = %+v", res.Partners)
	}
	if _, err := Compute(context.Background(), t.TempDir(), "x", 10); err == nil || !strings.Contains(err.Error(), "git log") {
		t.Fatalf("outside git: %v", err)
	}
}
