package graph

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/graph/golang"
	"github.com/etalab-ia/albert-code/internal/graph/index"
)

func printReport(w io.Writer, rep *index.Report, path string, emb *embedReport, asJSON bool) error {
	if asJSON {
		return cmdutil.PrintJSON(w, struct {
			*index.Report
			Index      string       `json:"index"`
			Embeddings *embedReport `json:"embeddings,omitempty"`
		}{rep, path, emb})
	}
	fmt.Fprintf(w, "indexed %s in %v: %s (%d extracted, %d unchanged, %d removed, %d renamed)\n",
		rep.Root, rep.Duration.Round(time.Millisecond), cmdutil.CountOf(rep.Files, "file"), rep.Extracted, rep.Unchanged, rep.Removed, rep.Renamed)
	if rep.GoTypes {
		mode := ""
		if rep.GoMode == "incremental" {
			mode = ", only the edited packages re-checked"
		} else if rep.GoFullReason != "" {
			mode = ", module reloaded: " + rep.GoFullReason
		}
		fmt.Fprintf(w, "Go: type-checked (exact edges)%s, %d loading or type errors\n", mode, rep.GoErrors)
		printGoErrors(w, rep.GoErrors, rep.GoErrorList)
	} else if rep.GoLoadError != "" {
		fmt.Fprintf(w, "Go: not type-checked, so its edges come from tree-sitter and its answers are lower bounds:\n  %s\n",
			strings.ReplaceAll(rep.GoLoadError, "\n", "\n  "))
	}
	if r := rep.Resolve; r != nil && r.Files > 0 {
		fmt.Fprintf(w, "cross-file: %s resolved again: %d sites by import, %d by name, %d left unresolved; imports %d resolved, %d external, %d not found\n",
			cmdutil.CountOf(r.Files, "file"), r.ByImport, r.ByName, r.Unresolved, r.ImportsResolved, r.ImportsExternal, r.ImportsMissing)
	}
	for _, group := range []struct {
		name  string
		items []index.Skip
	}{{"skipped", rep.Skipped}, {"partial", rep.Partial}, {"quarantined", rep.Quarantined}} {
		if len(group.items) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s: %d\n", group.name, len(group.items))
		for i, s := range group.items {
			if i == 5 {
				fmt.Fprintf(w, "  ... and %d more (--json lists them all)\n", len(group.items)-5)
				break
			}
			fmt.Fprintf(w, "  %s: %s\n", s.Rel, s.Reason)
		}
	}
	if rep.Truncated {
		fmt.Fprintln(w, "the walk stopped at a limit (files or total size): the index is partial")
	}
	if lo := rep.LeftOut; lo != nil && lo.Count > 0 {
		fmt.Fprintf(w, "left out or partial: %s; albert-code graph status lists them\n", leftOutSummary(lo))
	}
	if emb != nil {
		if emb.Error != "" {
			fmt.Fprintf(w, "embeddings: not updated (%s); search falls back to BM25\n", emb.Error)
		} else {
			fmt.Fprintf(w, "embeddings: %d of %d symbols embedded by %s (%d new)\n", emb.Embedded, emb.Total, emb.Model, emb.New)
		}
	}
	fmt.Fprintf(w, "index: %s\n", path)
	return nil
}

// ShownGoErrors is how many Go loading or type errors the text report lists; --json
// gives the first golang.MaxListedErrors.
const ShownGoErrors = 5

// printGoErrors lists the first Go errors of an index run and says what to run when
// they come from modules the go command could not find: most often modules that only
// tests need, not yet downloaded. Their packages still get edges, by name, not exact.
func printGoErrors(w io.Writer, total int, first []golang.Error) {
	shown := 0
	for _, e := range first {
		if shown == ShownGoErrors {
			break
		}
		fmt.Fprintf(w, "  %s\n", oneLine(e))
		shown++
	}
	if total > shown {
		fmt.Fprintf(w, "  ... and %d more (--json lists the first %d)\n", total-shown, golang.MaxListedErrors)
	}
	if missingModules(first) {
		fmt.Fprintln(w, "  some imports could not be loaded: if their modules are not downloaded yet (modules only tests need, on a fresh clone), run `go mod download`, then index again")
	}
}

// oneLine is e on one line: the go command prefixes compile errors with "# package".
func oneLine(e golang.Error) string {
	var parts []string
	for l := range strings.SplitSeq(e.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// missingModules says whether errs show packages the go command could not load for
// want of a module, in the words of its and the type checker's messages.
func missingModules(errs []golang.Error) bool {
	for _, e := range errs {
		for _, sign := range []string{"could not import", "go mod download", "missing go.sum entry", "no required module provides", "cannot find module"} {
			if strings.Contains(e.Msg, sign) {
				return true
			}
		}
	}
	return false
}
