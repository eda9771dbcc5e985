package graph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

// `graph index --repo DIR` indexes DIR, as every other subcommand reads --repo; it
// used to ignore the flag and index the current folder.
func TestIndexReadsRepo(t *testing.T) {
	f, stdout, stderr := cmdtest.Factory(t)
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "lib.py"), []byte("def helper():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cmdtest.Run(NewCmdGraph(f), "--repo", repo, "index"); err != nil {
		t.Fatalf("graph --repo %s index: %v\n%s", repo, err, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "indexed "+repo+" in ") {
		t.Errorf("report names another folder:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(repo, ".albert-code", "graph", "graph.db")); err != nil {
		t.Errorf("no index in the --repo folder: %v", err)
	}

	// The same folder both ways is fine; two different ones are refused, naming both.
	if err := cmdtest.Run(NewCmdGraph(f), "--repo", repo, "index", repo+"/"); err != nil {
		t.Errorf("same folder as PATH and --repo: %v", err)
	}
	other := t.TempDir()
	err := cmdtest.Run(NewCmdGraph(f), "--repo", repo, "index", other)
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitUsage || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), repo) {
		t.Errorf("PATH and --repo differ: %v", err)
	}
}
