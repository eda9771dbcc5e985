package treesitter

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// newLangSource is a ~1,000-line file of a vendored grammar's language (or of
// Java, for comparison): classes of methods that call each other.
func newLangSource(lang string) string {
	var b strings.Builder
	for c := range 20 {
		switch lang {
		case "kotlin":
			fmt.Fprintf(&b, "class C%d : Base(), Iface {\n", c)
			for m := range 12 {
				fmt.Fprintf(&b, "    fun m%d(x: Int): Int {\n        val y = m%d(x + 1)\n        return helper(y)\n    }\n", m, (m+1)%12)
			}
			b.WriteString("}\n\n")
		case "swift":
			fmt.Fprintf(&b, "class C%d: Base, Proto {\n", c)
			for m := range 12 {
				fmt.Fprintf(&b, "    func m%d(_ x: Int) -> Int {\n        let y = m%d(x + 1)\n        return helper(y)\n    }\n", m, (m+1)%12)
			}
			b.WriteString("}\n\n")
		case "java": // the reference: an existing grammar of the same shape
			fmt.Fprintf(&b, "class C%d extends Base implements Iface {\n", c)
			for m := range 12 {
				fmt.Fprintf(&b, "    int m%d(int x) {\n        int y = m%d(x + 1);\n        return helper(y);\n    }\n", m, (m+1)%12)
			}
			b.WriteString("}\n\n")
		case "objc":
			fmt.Fprintf(&b, "@implementation C%d\n", c)
			for m := range 12 {
				fmt.Fprintf(&b, "- (int)m%d:(int)x {\n    int y = [self m%d:x + 1];\n    return helper(y);\n}\n", m, (m+1)%12)
			}
			b.WriteString("@end\n\n")
		}
	}
	return b.String()
}

// BenchmarkExtractNewLanguages: go test -run '^$' -bench NewLanguages ./internal/graph/treesitter
func BenchmarkExtractNewLanguages(b *testing.B) {
	for _, lang := range []string{"java", "kotlin", "swift", "objc"} {
		src := []byte(newLangSource(lang))
		lines := strings.Count(string(src), "\n")
		b.Run(lang, func(b *testing.B) {
			for b.Loop() {
				ff, err := Extract(context.Background(), "f", lang, src)
				if err != nil || ff.ParseError != "" || len(ff.Nodes) < 20*13 {
					b.Fatalf("%s: %v %q, %d nodes", lang, err, ff.ParseError, len(ff.Nodes))
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
