package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/etalab-ia/albert-code/internal/graph/golang"
)

// shownGoErrors is how many Go loading or type errors the text report lists; --json
// gives the first golang.MaxListedErrors.
const shownGoErrors = 5

// printGoErrors lists the first Go errors of an index run and says what to run when
// they come from modules the go command could not find: most often modules that only
// tests need, not yet downloaded. Their packages still get edges, by name, not exact.
func printGoErrors(w io.Writer, total int, first []golang.Error) {
	shown := 0
	for _, e := range first {
		if shown == shownGoErrors {
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
