package graph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
)

// TestCallersAcrossFilesInKotlinSwiftObjC: `graph query callers` finds, through
// the index's cross-file pass, a caller in another file of a Kotlin function,
// a Swift method (a parameter's type, one module) and an Objective-C method by
// its full selector; the selector's one-argument sibling has none.
func TestCallersAcrossFilesInKotlinSwiftObjC(t *testing.T) {
	f, stdout, stderr := cmdtest.Factory(t)
	repo := t.TempDir()
	for name, src := range map[string]string{
		"kt/com/acme/geo/Geo.kt":  "package com.acme.geo\n\nfun area(r: Double): Double = r * r\n",
		"kt/com/acme/app/Main.kt": "package com.acme.app\n\nimport com.acme.geo.area\n\nfun main() {\n    area(2.0)\n}\n",
		"ios/Shape.swift":         "class Shape {\n    func scaled(by k: Double) -> Shape { self }\n}\n",
		"ios/Canvas.swift":        "class Canvas {\n    func paint(_ s: Shape) {\n        s.scaled(by: 2)\n    }\n}\n",
		"m/Pen.h":                 "#import <Foundation/Foundation.h>\n\n@interface Pen : NSObject\n- (void)draw:(int)x;\n- (void)draw:(int)x with:(int)y;\n@end\n",
		"m/Pen.m":                 "#import \"Pen.h\"\n\n@implementation Pen\n- (void)draw:(int)x {}\n- (void)draw:(int)x with:(int)y {}\n@end\n",
		"m/main.m":                "#import \"Pen.h\"\n\nvoid run(Pen *p) {\n    [p draw:1 with:2];\n}\n",
	} {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		stdout.Reset()
		if err := cmdtest.Run(NewCmdGraph(f), args...); err != nil {
			t.Fatalf("graph %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}
	run("index", repo)
	for _, c := range []struct{ symbol, want string }{
		{"kt/com/acme/geo/Geo.kt::area", "kt/com/acme/app/Main.kt:6"},
		{"ios/Shape.swift::Shape::scaled", "ios/Canvas.swift:3"},
		{"m/Pen.m::Pen::draw:with:", "m/main.m:4"},
	} {
		out := run("--repo", repo, "query", "callers", c.symbol)
		if !strings.Contains(out, "1 result(s)") || !strings.Contains(out, c.want) {
			t.Errorf("callers of %s:\n%s", c.symbol, out)
		}
	}
	if out := run("--repo", repo, "query", "callers", "m/Pen.m::Pen::draw:"); !strings.Contains(out, "0 result(s)") {
		t.Errorf("callers of draw: (the one-argument selector):\n%s", out)
	}
}
