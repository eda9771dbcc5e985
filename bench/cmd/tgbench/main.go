// Command tgbench measures the Telegram rendering of a long answer: a
// generated Markdown answer of about -size bytes (prose, nested lists, code,
// tables, quotes, links) is rendered to Telegram HTML and split into messages
// -runs times. Beside it, in the same run, it times two floors: goldmark's parse
// alone (the parser we build on) and html.EscapeString over the same bytes (the
// least any HTML output must do), and prints the ratios.
//
//	go run ./bench/cmd/tgbench [-size 1048576] [-runs 30]
package main

import (
	"flag"
	"fmt"
	"html"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/yuin/goldmark/text"

	"github.com/etalab-ia/albert-code/internal/mdext"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgmd"
)

// goal is the target for rendering and splitting a 1 MB answer.
const goal = 50 * time.Millisecond

func main() {
	size := flag.Int("size", 1<<20, "bytes of Markdown to generate")
	runs := flag.Int("runs", 30, "timed runs of each measure")
	flag.Parse()
	if *runs < 1 || *size < 1 {
		fmt.Fprintln(os.Stderr, "tgbench: -runs and -size must be positive")
		os.Exit(2)
	}
	md := answer(*size)
	var msgs []tgmd.Message
	split := measure(*runs, func() { msgs = tgmd.Split(md, tgmd.Limit) })
	parser := mdext.NewParser()
	src := []byte(md)
	parse := measure(*runs, func() { parser.Parse(text.NewReader(src)) })
	escape := measure(*runs, func() { _ = html.EscapeString(md) })

	htmlBytes := 0
	for _, m := range msgs {
		htmlBytes += len(m.HTML)
	}
	fmt.Printf("answer: %d bytes of Markdown -> %d messages, %d bytes of HTML\n", len(md), len(msgs), htmlBytes)
	fmt.Printf("%-28s %s\n", "render+split (tgmd.Split)", split)
	fmt.Printf("%-28s %s\n", "floor: goldmark parse alone", parse)
	fmt.Printf("%-28s %s\n", "floor: html.EscapeString", escape)
	fmt.Printf("ratio to goldmark parse: %.1fx, to EscapeString: %.1fx (medians)\n",
		ratio(split.median, parse.median), ratio(split.median, escape.median))
	verdict := "met"
	if split.median >= goal {
		verdict = "missed"
	}
	fmt.Printf("goal: median < %v: %s\n", goal, verdict)
}

type stats struct{ median, low, high time.Duration }

func (s stats) String() string {
	return fmt.Sprintf("median %7.2f ms  min %7.2f ms  max %7.2f ms", ms(s.median), ms(s.low), ms(s.high))
}

// measure times f runs times after one untimed warm-up run.
func measure(runs int, f func()) stats {
	f()
	d := make([]time.Duration, runs)
	for i := range d {
		start := time.Now()
		f()
		d[i] = time.Since(start)
	}
	slices.Sort(d)
	return stats{median: d[len(d)/2], low: d[0], high: d[len(d)-1]}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

// answer builds a Markdown answer of about size bytes from sections shaped
// like a model's: heading, prose with inline formatting and links, a nested
// list, a code block, a table and a quote, numbered so no two are equal.
func answer(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Section %d: what changed\n\n", i)
		fmt.Fprintf(&b, "The handler in `serve/run_%d.go` now **checks the workspace lock** before it starts "+
			"the agent, so two runs can _never_ share a directory. See [the design note](https://example.org/notes/%d?x=1&y=2) "+
			"and the ~~old~~ new path; a value like a < b && c > d is text, and so is <b>this</b> or CB%d.\n"+
			"A second line follows a soft break, with an emoji 🚀 and some accents: déjà vu, naïve, 日本語.\n\n", i, i, i)
		b.WriteString("- first point, short\n- second point with `inline code` and **bold**\n  - nested detail one\n" +
			"  - nested detail two, a bit longer to wrap on a phone screen\n- [x] a task done\n\n")
		fmt.Fprintf(&b, "```go\nfunc run%d(ctx context.Context) error {\n\tif err := lock(ctx, \"ws\"); err != nil {\n"+
			"\t\treturn fmt.Errorf(\"lock: %%w\", err)\n\t}\n\treturn nil // a < b\n}\n```\n\n", i)
		fmt.Fprintf(&b, "| file | lines | change |\n|---|--:|:-:|\n| run_%d.go | %d | +12 -3 |\n| lock.go | 88 | +1 |\n\n", i, i%500)
		b.WriteString("> A quoted remark from the issue, kept short.\n\n")
	}
	return b.String()
}
