package graph

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// IndexOptions are `graph index`'s.
type IndexOptions struct {
	f *cmdutil.Factory
	// Path is the repository named, as PATH or by graph's --repo; empty is the
	// enclosing one.
	Path     string
	Rebuild  bool
	Excludes []string
	JSON     bool
}

// NewCmdIndex is `graph index [PATH]`; runF replaces the indexing.
func NewCmdIndex(f *cmdutil.Factory, runF func(*IndexOptions) error) *cobra.Command {
	opts := &IndexOptions{f: f}
	cmd := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Index the repository at PATH or --repo (default: the enclosing repository); only what changed is redone",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// --repo is every graph subcommand's way to name the repository; index
			// also takes it as PATH. Both, naming different folders, is a mistake to
			// say rather than to settle silently (it once indexed the current folder).
			opts.Path = repoFlag(cmd)
			if len(args) == 1 {
				if opts.Path != "" && filepath.Clean(opts.Path) != filepath.Clean(args[0]) {
					return cmdutil.UsageError("index: PATH %s and --repo %s name different repositories: give one", args[0], opts.Path)
				}
				opts.Path = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return indexRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Rebuild, "rebuild", false, "discard the index and build it again")
	cmd.Flags().StringArrayVar(&opts.Excludes, "exclude", nil, "leave out paths matching this glob ('**' spans folders); repeatable")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	return cmd
}

func indexRun(ctx context.Context, opts *IndexOptions) error {
	io := opts.f.IO
	root, err := repoRoot(opts.f, opts.Path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return cmdutil.UsageError("index %s: not a directory", root)
	}
	path, err := dbPath(root, true)
	if err != nil {
		return err
	}
	if opts.Rebuild {
		if err := store.Remove(path); err != nil {
			return err
		}
	} else {
		bootstrapIndex(ctx, root, path, io.ErrOut)
	}
	st, rebuilt, err := store.OpenOrRebuild(path)
	if err != nil {
		return err // the store's errors say what to do (--rebuild for a corrupt index)
	}
	defer st.Close()
	if rebuilt != "" {
		fmt.Fprintf(io.ErrOut, "albert-code: building the index %s again: %s\n", path, rebuilt)
	}
	iopts := index.Options{Limits: index.Limits{Exclude: opts.Excludes}, Rebuild: opts.Rebuild,
		Go: golang.DefaultOptions(), Extract: treesitter.Extractor{}.Extract}
	if io.ErrIsTerminal() && !opts.JSON {
		iopts.Progress = progressBar(io.ErrOut)
	}
	rep, err := index.RunInPasses(ctx, root, st, iopts, func(first *index.Report) {
		if iopts.Progress != nil {
			fmt.Fprint(io.ErrOut, "\r\033[K")
		}
		fmt.Fprintf(io.ErrOut, "first pass in %v: %s read (Go for its definitions only), answers are lower bounds (%s); the type checker's pass follows\n",
			first.Duration.Round(time.Millisecond), cmdutil.CountOf(first.Files, "file"), golang.TypesPending)
	})
	if iopts.Progress != nil {
		fmt.Fprint(io.ErrOut, "\r\033[K")
	}
	if err != nil {
		return err
	}
	emb := embedIndex(ctx, opts.f, root, path, st)
	return printReport(io.Out, rep, path, emb, opts.JSON)
}

// progressBar draws "indexing [####....] n/total" on a terminal, at most every 100 ms.
func progressBar(w io.Writer) func(done, total int) {
	var last time.Time
	return func(done, total int) {
		if time.Since(last) < 100*time.Millisecond && done < total {
			return
		}
		last = time.Now()
		const width = 30
		filled := 0
		if total > 0 {
			filled = width * done / total
		}
		fmt.Fprintf(w, "\rindexing [%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
	}
}
