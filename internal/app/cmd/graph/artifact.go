package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/artifact"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// artifactSummary is what export and import print with --json: the metadata
// without the file list (files counts it).
type artifactSummary struct {
	Artifact         string `json:"artifact"`
	Bytes            int64  `json:"bytes"`
	IndexBytes       int64  `json:"index_bytes"`
	Files            int    `json:"files"`
	Commit           string `json:"commit,omitempty"`
	SchemaVersion    int    `json:"schema_version"`
	ExtractorVersion string `json:"extractor_version"`
	ToolVersion      string `json:"tool_version"`
	CreatedAt        string `json:"created_at"`
	GitAttributes    string `json:"gitattributes_added,omitempty"`
	Replaced         bool   `json:"replaced_index,omitempty"`
	Stale            int    `json:"files_changed_since,omitempty"`
}

func summarise(path string, m *artifact.Meta) artifactSummary {
	s := artifactSummary{Artifact: path, IndexBytes: m.DBBytes, Files: len(m.Files), Commit: m.Commit,
		SchemaVersion: m.SchemaVersion, ExtractorVersion: m.ExtractorVersion, ToolVersion: m.ToolVersion, CreatedAt: m.CreatedAt}
	if info, err := os.Stat(path); err == nil {
		s.Bytes = info.Size()
	}
	return s
}

// ExportOptions are `graph export`'s.
type ExportOptions struct {
	f    *cmdutil.Factory
	Repo string
	// Output is where the artifact goes; empty is artifact.RelPath in the repository.
	Output string
	JSON   bool
}

// NewCmdExport is `graph export`; runF replaces the export.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{f: f}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Bring the index up to date and pack it into one file to commit and share (" + artifact.RelPath + ")",
		Long: `Bring the index up to date, then pack it into one zstd-compressed file with its
metadata (schema, extractor and albert-code versions, the indexed commit, each file's
hash). Committed at ` + artifact.RelPath + `, it lets a fresh clone answer at once:
the first graph index, graph mcp or code_graph there starts from it and indexes only
what changed since. Exporting there also adds to .gitattributes:
  ` + artifact.GitAttributesLine + `
(run ` + "`git config merge.ours.driver true`" + ` once so a merge keeps your branch's artifact).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Repo = repoFlag(cmd)
			if runF != nil {
				return runF(opts)
			}
			return exportRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the artifact here (default: "+artifact.RelPath+" in the repository)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func exportRun(ctx context.Context, opts *ExportOptions) error {
	root, err := repoRoot(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	path, err := dbPath(root, true)
	if err != nil {
		return err
	}
	if err := refreshIndex(ctx, root, path, opts.f.IO.ErrOut); err != nil {
		return err
	}
	def := filepath.Join(root, filepath.FromSlash(artifact.RelPath))
	output := opts.Output
	if output == "" {
		output = def
	}
	if output, err = filepath.Abs(output); err != nil {
		return err
	}
	m, err := artifact.Export(ctx, path, output, opts.f.Version)
	if err != nil {
		return cmdutil.Failed(err)
	}
	sum := summarise(output, m)
	if output == def {
		added, err := artifact.EnsureGitAttributes(root)
		if err != nil {
			return err
		}
		if added {
			sum.GitAttributes = artifact.GitAttributesLine
		}
	}
	w := opts.f.IO.Out
	if opts.JSON {
		return cmdutil.PrintJSON(w, sum)
	}
	fmt.Fprintf(w, "exported the index of %d files (commit %s) to %s: %s, the index %s\n",
		sum.Files, shortCommit(sum.Commit), output, mib(sum.Bytes), mib(sum.IndexBytes))
	if sum.GitAttributes != "" {
		fmt.Fprintf(w, "added to .gitattributes: %s\nrun `git config merge.ours.driver true` once so that a merge keeps your branch's artifact\n", sum.GitAttributes)
	}
	return nil
}

// ImportOptions are `graph import`'s.
type ImportOptions struct {
	f    *cmdutil.Factory
	Repo string
	// File is the artifact graph export wrote.
	File string
	JSON bool
}

// NewCmdImport is `graph import FILE`; runF replaces the import.
func NewCmdImport(f *cmdutil.Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{f: f}
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Replace the repository's index with an exported one (see graph export)",
		Long: `Replace the repository's index with the artifact FILE written by graph export. The
artifact is checked whole (versions, hash, the index itself) before anything is
replaced; one written by another albert-code version is refused, with the versions
it names. Run graph index afterwards to index what changed since it was exported.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo, opts.File = repoFlag(cmd), args[0]
			if runF != nil {
				return runF(opts)
			}
			return importRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func importRun(ctx context.Context, opts *ImportOptions) error {
	root, err := repoRoot(opts.f, opts.Repo)
	if err != nil {
		return err
	}
	file, err := filepath.Abs(opts.File)
	if err != nil {
		return err
	}
	if _, err := os.Stat(file); err != nil {
		return cmdutil.UsageError("import %s: %v", opts.File, err)
	}
	path, err := dbPath(root, true)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(path)
	m, err := artifact.Import(ctx, file, path, root)
	if err != nil {
		return cmdutil.Failed(err)
	}
	sum := summarise(file, m)
	sum.Replaced = statErr == nil
	if st, err := store.OpenReadOnly(path); err == nil {
		if f, err := index.CheckFreshness(ctx, root, st, index.Limits{}); err == nil {
			sum.Stale = len(f.Dirty)
		}
		st.Close()
	}
	w := opts.f.IO.Out
	if opts.JSON {
		return cmdutil.PrintJSON(w, sum)
	}
	replaced := ""
	if sum.Replaced {
		replaced = ", replacing the index that was there"
	}
	fmt.Fprintf(w, "imported %s: %d files indexed at commit %s by albert-code %s%s\n",
		file, sum.Files, shortCommit(sum.Commit), sum.ToolVersion, replaced)
	if sum.Stale > 0 {
		fmt.Fprintf(w, "%d file(s) changed since: run `albert-code graph index` to index only those\n", sum.Stale)
	}
	return nil
}

// bootstrapIndex starts a repository without an index from its committed
// artifact, saying so on w; an artifact that cannot be used is reported and
// left for the index run to replace from scratch.
func bootstrapIndex(ctx context.Context, root, path string, w io.Writer) {
	m, err := artifact.Bootstrap(ctx, root, path)
	switch {
	case err != nil:
		fmt.Fprintf(w, "albert-code: %v; indexing from scratch\n", err)
	case m != nil:
		fmt.Fprintf(w, "albert-code: no local index: starting from %s (commit %s, %d files), then indexing what changed since\n",
			artifact.RelPath, shortCommit(m.Commit), len(m.Files))
	}
}

// refreshIndex brings the index at path up to date (bootstrapping it first),
// as graph index does without its report.
func refreshIndex(ctx context.Context, root, path string, stderr io.Writer) error {
	bootstrapIndex(ctx, root, path, stderr)
	st, rebuilt, err := store.OpenOrRebuild(path)
	if err != nil {
		return err
	}
	defer st.Close()
	if rebuilt != "" {
		fmt.Fprintf(stderr, "albert-code: building the index %s again: %s\n", path, rebuilt)
	}
	opts := index.Options{Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}
	if _, err := index.Run(ctx, root, st, opts); err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return fmt.Errorf("index %s: %w", root, err)
	}
	return nil
}

func shortCommit(c string) string {
	if c == "" {
		return "none"
	}
	return c[:min(len(c), 12)]
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
