package resolve_test

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/resolve"
	"github.com/etalab-ia/albert-code/internal/graph/store"
	"github.com/etalab-ia/albert-code/internal/graph/treesitter"
)

// extracted writes files under a fresh root, stores their tree-sitter facts as
// the indexer would (languages by extension) and runs the pass.
func extracted(t *testing.T, files map[string]string) (*store.Store, *resolve.Counts) {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	langs := map[string]string{".go": "go", ".py": "python", ".ts": "typescript", ".js": "javascript",
		".java": "java", ".c": "c", ".h": "c", ".rb": "ruby", ".php": "php"}
	var facts []graph.FileFacts
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := write(root, p, files[p]); err != nil {
			t.Fatal(err)
		}
		lang := langs[filepath.Ext(p)]
		if lang == "" {
			continue // go.mod, tsconfig.json: read by the pass from the root
		}
		ff, err := treesitter.Extract(ctx, p, lang, []byte(files[p]))
		if err != nil {
			t.Fatal(err)
		}
		facts = append(facts, ff)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "graph.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.ReplaceFiles(ctx, facts, nil); err != nil {
		t.Fatal(err)
	}
	c, err := resolve.Update(ctx, st, root, resolve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st, c
}

// TestGoFallback covers Go the type checker did not load: import paths through
// go.mod's module path, aliases, and calls to the package's other files.
func TestGoFallback(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.26\n",
		"util/util.go":  "package util\n\nfunc Load() int { return helper() }\n",
		"util/other.go": "package util\n\nfunc helper() int { return 1 }\n",
		"main.go": `package main

import (
	"fmt"

	"example.com/m/util"
	u2 "example.com/m/util"
)

func main() {
	util.Load()
	u2.Load()
	fmt.Println()
	util.Missing()
}
`,
	})
	expect(t, "callers of Load (import, alias)", related(t, st, "callers", "util/util.go::Load"),
		"main.go::main@11 [import]", "main.go::main@12 [import]")
	expect(t, "callers of helper (same package, another file)", related(t, st, "callers", "util/other.go::helper"),
		"util/util.go::Load@3 [import]")
	reasons := unresolvedReasons(t, st, "main.go::main")
	if reasons["fmt.Println"] != "external module fmt" || reasons["util.Missing"] != "not found: Missing in util" {
		t.Errorf("unresolved in main = %q", reasons)
	}
}

// TestCyclicBasesTerminate: classes that extend each other across files do not
// loop the inherited-method lookup.
func TestCyclicBasesTerminate(t *testing.T) {
	t.Parallel()
	st, c := extracted(t, map[string]string{
		"a.py": "from b import B\n\n\nclass A(B):\n    def run(self):\n        self.nothing()\n        self.shared()\n",
		"b.py": "from a import A\n\n\nclass B(A):\n    def shared(self):\n        pass\n",
	})
	expect(t, "callers of shared", related(t, st, "callers", "b.py::B::shared"), "a.py::A::run@7 [import]")
	if r := unresolvedReasons(t, st, "a.py::A::run")["self.nothing"]; r != "not found" {
		t.Errorf("self.nothing: %q (counts %+v)", r, c)
	}
}

// TestDefaultImportWithAnotherName: the extractor does not say which definition
// is the default export, so a default import under another name stays unresolved,
// and says why.
func TestDefaultImportWithAnotherName(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/fmt.ts":  "export default function format(s: string): string { return s; }\n",
		"src/main.ts": "import pretty from \"./fmt\";\n\nexport function main(): void {\n  pretty(\"x\");\n}\n",
	})
	want := "not found: the default export of ./fmt is not a definition named pretty"
	if r := unresolvedReasons(t, st, "src/main.ts::main")["pretty"]; r != want {
		t.Errorf("pretty: %q, want %q", r, want)
	}
}

func TestJavaSites(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/main/java/com/acme/util/Strings.java": `package com.acme.util;

public class Strings {
    public static String trim(String s) { return s; }
}
`,
		"src/main/java/com/acme/Base.java": `package com.acme;

public class Base {
    public void log(String s) {}
}
`,
		"src/main/java/com/acme/App.java": `package com.acme;

import com.acme.util.Strings;
import java.util.List;

public class App extends Base {
    public void run() {
        Strings.trim("x");
        log("y");
        List.of();
    }
}
`,
	})
	const run = "src/main/java/com/acme/App.java::App::run"
	expect(t, "callers of trim (import, static call)",
		related(t, st, "callers", "src/main/java/com/acme/util/Strings.java::Strings::trim"), run+"@8 [import]")
	expect(t, "callers of log (bare call, inherited from a class of the same package)",
		related(t, st, "callers", "src/main/java/com/acme/Base.java::Base::log"), run+"@9 [import]")
	expect(t, "bases of App", edgeEnds(t, st, "src/main/java/com/acme/App.java::App", graph.EdgeExtends),
		"src/main/java/com/acme/Base.java::Base [import]")
	if r := unresolvedReasons(t, st, run)["List.of"]; r != "external module java.util" {
		t.Errorf("List.of: %q", r)
	}
}

func TestCSites(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/util.h":  "#include \"cycle.h\"\nint helper(int x);\n",
		"src/cycle.h": "#include \"util.h\"\nint cycled(void);\n",
		"src/util.c":  "#include \"util.h\"\n\nint helper(int x) { return x; }\n",
		"src/main.c":  "#include <stdio.h>\n#include \"util.h\"\n\nint main(void) {\n  helper(1);\n  printf(\"x\");\n  cycled();\n  return 0;\n}\n",
	})
	expect(t, "callers of helper's definition (through the header's prototype)",
		related(t, st, "callers", "src/util.c::helper"), "src/main.c::main@5 [import]")
	// Headers that include each other are searched once each.
	expect(t, "callers of cycled (declared in a header util.h includes)",
		related(t, st, "callers", "src/cycle.h::cycled"), "src/main.c::main@7 [import]")
	if r := unresolvedReasons(t, st, "src/main.c::main")["printf"]; r != "not found" {
		t.Errorf("printf: %q", r)
	}
}

func TestRubySites(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"lib/greeter.rb": "class Greeter\n  def greet(name)\n    name\n  end\nend\n",
		"app/main.rb":    "require_relative '../lib/greeter'\nrequire 'json'\n\nclass Main < Greeter\n  def run\n    greet('x')\n    JSON.parse('{}')\n  end\nend\n",
	})
	expect(t, "callers of greet (bare call, inherited from a required class)",
		related(t, st, "callers", "lib/greeter.rb::Greeter::greet"), "app/main.rb::Main::run@6 [import]")
	expect(t, "bases of Main", edgeEnds(t, st, "app/main.rb::Main", graph.EdgeExtends), "lib/greeter.rb::Greeter [import]")
}

func TestPHPSites(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"app/Models/User.php":     "<?php\nnamespace App\\Models;\n\nclass User {\n    public static function find($id) { return $id; }\n}\n",
		"app/Http/Controller.php": "<?php\nnamespace App\\Http;\n\nuse App\\Models\\User;\nuse Illuminate\\Support\\Str;\n\nclass Controller {\n    public function show() {\n        User::find(1);\n        Str::slug('x');\n    }\n}\n",
	})
	const show = `app/Http/Controller.php::App\Http::Controller::show`
	expect(t, "callers of find (use of a namespaced class, static call)",
		related(t, st, "callers", `app/Models/User.php::App\Models::User::find`), show+"@9 [import]")
	if r := unresolvedReasons(t, st, show)["Str.slug"]; r != `external module Illuminate\Support` {
		t.Errorf("Str.slug: %q (all: %q)", r, unresolvedReasons(t, st, show))
	}
}
