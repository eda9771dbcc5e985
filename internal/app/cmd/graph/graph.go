// Package graph is `albert-code graph`: index a repository and answer structure
// questions about it (callers, implementations, impact...), from the command line,
// over MCP (graph mcp) or as a map in the browser (graph ui).
package graph

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/agenttool"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/query"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// NewCmdGraph is `graph` and its subcommands, which share --repo.
func NewCmdGraph(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Index a repository and answer structure questions (who calls, what implements...)",
	}
	cmd.PersistentFlags().String("repo", "", "the repository (default: the enclosing git repository, or the current directory)")
	cmd.AddCommand(NewCmdIndex(f, nil), NewCmdQuery(f, nil), NewCmdSQL(f, nil), NewCmdSchema(f), NewCmdStats(f, nil),
		NewCmdStatus(f, nil), NewCmdChanges(f, nil), NewCmdCoChange(f, nil), NewCmdEntryPoints(f, nil),
		NewCmdCommunities(f, nil), NewCmdMCP(f, nil), NewCmdExport(f, nil), NewCmdImport(f, nil), NewCmdUI(f, nil))
	return cmd
}

// repoFlag is --repo as the graph command gave it; "" when the subcommand runs
// alone (a test) or without it.
func repoFlag(cmd *cobra.Command) string {
	repo, _ := cmd.Flags().GetString("repo")
	return repo
}

// dbPath is where a repository's index lives: inside it, in .albert-code/graph/, or
// in the user's cache when the repository is read-only. With create, the folder is
// made; without, an existing index is looked for.
func dbPath(root string, create bool) (string, error) {
	return agenttool.DefaultIndexPath(root, create)
}

// repoRoot picks the repository: the flag, else the enclosing git work tree, else
// the working directory.
func repoRoot(f *cmdutil.Factory, flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	wd, err := f.Getwd()
	if err != nil {
		return "", err
	}
	if top, ok := index.RepoRoot(wd); ok {
		return top, nil
	}
	if out, err := exec.Command("git", "-C", wd, "rev-parse", "--show-toplevel").Output(); err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	return wd, nil
}

// openRepoIndex finds the repository (see repoRoot) and opens its index read-only.
func openRepoIndex(f *cmdutil.Factory, flag string) (string, *store.Store, error) {
	root, err := repoRoot(f, flag)
	if err != nil {
		return "", nil, err
	}
	st, err := openIndex(root)
	return root, st, err
}

// openIndex opens an existing index of root, read-only.
func openIndex(root string) (*store.Store, error) {
	path, err := dbPath(root, false)
	if err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(path)
	if err != nil {
		if errors.Is(err, store.ErrNoIndex) {
			return nil, cmdutil.UsageError("%s has no index yet: run `albert-code graph index %s`", root, root)
		}
		return nil, err
	}
	return st, nil
}

// questionError is a question's failure as the command reports it: an unknown
// symbol (with its suggestions) is an error, a bad parameter a usage error.
func questionError(err error) error {
	var unknown *query.UnknownSymbolError
	if errors.As(err, &unknown) {
		return cmdutil.Failed(err)
	}
	return cmdutil.UsageError("%v", err)
}
