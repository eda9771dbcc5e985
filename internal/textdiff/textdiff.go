// Package textdiff computes line diffs of two texts and renders them in the unified
// format that git, patch and every diff viewer read. It is built for showing the
// effect of an edit to a person, not for producing minimal patches of huge files.
package textdiff

import (
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change, as diff -u does.
const context = 3

// maxCells bounds the LCS table (4 Mi cells, 16 MiB). Edits are local, so once the
// common head and tail are trimmed the table is tiny; a rewrite of two large, wholly
// different files falls back to "remove all, add all", which is still a correct diff.
const maxCells = 4 << 20

// Op is one line of an edit script.
type Op struct {
	Kind byte // ' ' kept, '-' removed, '+' added
	Line string
}

// splitLines splits s into lines that keep their "\n"; the last may lack one.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Diff returns the edit script turning old into new, line by line.
func Diff(old, new string) []Op {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]Op, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, Op{' ', l})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{' ', l})
	}
	return ops
}

// middle diffs the differing core of two texts with a longest-common-subsequence table.
func middle(a, b []string) []Op {
	var ops []Op
	if len(a)*len(b) > maxCells || len(a) == 0 || len(b) == 0 {
		for _, l := range a {
			ops = append(ops, Op{'-', l})
		}
		for _, l := range b {
			ops = append(ops, Op{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:], stored row-major.
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			ops = append(ops, Op{' ', a[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, Op{'-', a[i]})
			i++
		default:
			ops = append(ops, Op{'+', b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		ops = append(ops, Op{'-', a[i]})
	}
	for ; j < len(b); j++ {
		ops = append(ops, Op{'+', b[j]})
	}
	return ops
}

// Unified renders the diff of old and new in unified format under the given file
// labels, and counts the added and removed lines. Equal texts give an empty diff.
func Unified(oldLabel, newLabel, old, new string) (diff string, added, removed int) {
	ops := Diff(old, new)
	var changes []int
	for i, op := range ops {
		switch op.Kind {
		case '+':
			added++
			changes = append(changes, i)
		case '-':
			removed++
			changes = append(changes, i)
		}
	}
	if len(changes) == 0 {
		return "", 0, 0
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldLabel, newLabel)

	// oldAt[i] and newAt[i] are the 1-based line numbers before op i in each text.
	oldAt, newAt := make([]int, len(ops)+1), make([]int, len(ops)+1)
	oldAt[0], newAt[0] = 1, 1
	for i, op := range ops {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if op.Kind != '+' {
			oldAt[i+1]++
		}
		if op.Kind != '-' {
			newAt[i+1]++
		}
	}
	for k := 0; k < len(changes); {
		start := max(changes[k]-context, 0)
		end := changes[k]
		for k < len(changes) && changes[k] <= end+2*context+1 {
			end = changes[k]
			k++
		}
		end = min(end+context+1, len(ops))
		oldN, newN := oldAt[end]-oldAt[start], newAt[end]-newAt[start]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", rangeOf(oldAt[start], oldN), rangeOf(newAt[start], newN))
		for _, op := range ops[start:end] {
			sb.WriteByte(op.Kind)
			sb.WriteString(op.Line)
			if !strings.HasSuffix(op.Line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return sb.String(), added, removed
}

// rangeOf formats a hunk range; an empty range names the line before it, as diff -u does.
func rangeOf(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
