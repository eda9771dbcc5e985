package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// write prints the report as Markdown.
func (r *report) write(w io.Writer, title string, o options) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### Code structure of %s\n\n", title)
	fmt.Fprintf(&b, "Non-test Go (outside testdata and vendor): **%d lines** in %d files and %d packages; "+
		"**%d files over %d lines**", r.lines, r.files, len(r.packages), len(r.longFiles), o.longFile)
	if len(r.longFiles) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(r.longFiles, ", "))
	}
	b.WriteString(".\n\n")

	fmt.Fprintf(&b, "Lines per package, the %d largest:\n\n| package | lines | files |\n|---|---:|---:|\n", o.topPkgs)
	for _, p := range r.packages[:min(o.topPkgs, len(r.packages))] {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", p.dir, p.lines, p.files)
	}
	fmt.Fprintf(&b, "| **total** (%d packages) | **%d** | %d |\n\n", len(r.packages), r.lines, r.files)

	total := 0
	for _, f := range r.funcs {
		total += f.complexity
	}
	avg := 0.0
	if len(r.funcs) > 0 {
		avg = float64(total) / float64(len(r.funcs))
	}
	byComplexity := slices.Clone(r.funcs)
	slices.SortStableFunc(byComplexity, func(a, b funcStat) int {
		return cmp.Or(cmp.Compare(b.complexity, a.complexity), cmp.Compare(b.lines, a.lines))
	})
	fmt.Fprintf(&b, "Cyclomatic complexity (as gocyclo counts it): **average %.2f** over %d functions; the %d most complex:\n\n",
		avg, len(r.funcs), o.topFuncs)
	writeFuncs(&b, byComplexity[:min(o.topFuncs, len(byComplexity))])

	bySize := slices.Clone(r.funcs)
	slices.SortStableFunc(bySize, func(a, b funcStat) int {
		return cmp.Or(cmp.Compare(b.lines, a.lines), cmp.Compare(b.complexity, a.complexity))
	})
	fmt.Fprintf(&b, "The %d largest functions:\n\n", o.topFuncs)
	writeFuncs(&b, bySize[:min(o.topFuncs, len(bySize))])

	t := r.appTests
	fmt.Fprintf(&b, "Tests under %s that run the built binary: **%d of %d** Test functions, in %d of %d test files",
		t.dir, t.spawns, t.tests, t.spawnFiles, t.files)
	if len(t.helpers) > 0 {
		fmt.Fprintf(&b, "; through %s", strings.Join(t.helpers, ", "))
	}
	if len(t.without) > 0 {
		fmt.Fprintf(&b, "; the others: %s", strings.Join(t.without, ", "))
	}
	b.WriteString(".\n\n")

	d := r.dups
	switch {
	case d.skipped != "":
		fmt.Fprintf(&b, "Duplicate pairs of %d+ lines in production code: not measured (%s).\n", o.dupLines, d.skipped)
	default:
		count := "unread"
		if d.pairs >= 0 {
			count = fmt.Sprint(d.pairs)
		}
		fmt.Fprintf(&b, "Duplicate pairs of %d+ lines in production code: **%s** (`%s`, on a copy of the files measured above):\n\n```\n%s\n```\n",
			o.dupLines, count, d.command, d.output)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFuncs(b *strings.Builder, fs []funcStat) {
	b.WriteString("| complexity | lines | function | at |\n|---:|---:|---|---|\n")
	for _, f := range fs {
		fmt.Fprintf(b, "| %d | %d | `%s` | %s |\n", f.complexity, f.lines, f.name, f.pos)
	}
	b.WriteString("\n")
}
