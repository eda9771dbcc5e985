package resolve

import (
	"reflect"
	"strings"
	"testing"
)

// tree builds a Tree from paths; the language is guessed from the extension, as
// the tests need it only for Go's typed flag and the package listing.
func tree(paths ...string) *Tree {
	var files []File
	for _, p := range paths {
		lang := "python"
		switch {
		case strings.HasSuffix(p, ".java"):
			lang = "java"
		case strings.HasSuffix(p, ".c"), strings.HasSuffix(p, ".h"):
			lang = "c"
		case strings.HasSuffix(p, ".rb"):
			lang = "ruby"
		case strings.HasSuffix(p, ".php"):
			lang = "php"
		case strings.HasSuffix(p, ".go"):
			lang = "go"
		case strings.HasSuffix(p, ".js"):
			lang = "javascript"
		case strings.Contains(p, ".ts"):
			lang = "typescript"
		}
		files = append(files, File{Path: p, Language: lang})
	}
	return NewTree(files)
}

type moduleCase struct {
	name, from, module string
	want               Module
}

func checkModules(t *testing.T, lang *Language, tr *Tree, cases []moduleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := lang.Module(tr, tc.from, tc.module); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Module(%q from %s) = %+v, want %+v", tc.module, tc.from, got, tc.want)
			}
		})
	}
}

func TestPythonModules(t *testing.T) {
	t.Parallel()
	tr := tree(
		"app/__init__.py", "app/util.py", "app/models/__init__.py", "app/models/user.py",
		"app/stubs.pyi", "ns/part/mod.py", "scripts/run.py", "scripts/helpers.py",
		"src/lib/__init__.py", "src/lib/core.py", "lib2/extra/__init__.py", "tests/json/__init__.py",
		"dup.py", "tools/dup.py",
	)
	checkModules(t, &pythonLanguage, tr, []moduleCase{
		{"relative sibling", "app/models/user.py", ".", Module{Files: []string{"app/models/__init__.py"}, Dir: "app/models"}},
		{"relative module", "app/models/user.py", "..util", Module{Files: []string{"app/util.py"}}},
		{"relative package", "app/util.py", ".models", Module{Files: []string{"app/models/__init__.py"}, Dir: "app/models"}},
		{"relative dotted", "app/util.py", ".models.user", Module{Files: []string{"app/models/user.py"}}},
		{"relative missing is not external", "app/util.py", ".nothere", Module{}},
		{"relative above the root", "app/util.py", "...x", Module{}},
		{"stub file", "app/util.py", "app.stubs", Module{Files: []string{"app/stubs.pyi"}}},
		{"absolute from the root", "scripts/run.py", "app.models.user", Module{Files: []string{"app/models/user.py"}}},
		{"absolute under src", "app/util.py", "lib.core", Module{Files: []string{"src/lib/core.py"}}},
		{"absolute beside the script", "scripts/run.py", "helpers", Module{Files: []string{"scripts/helpers.py"}}},
		{"absolute under a top-level folder", "app/util.py", "extra", Module{Files: []string{"lib2/extra/__init__.py"}, Dir: "lib2/extra"}},
		{"namespace package at the root", "app/util.py", "ns.part", Module{Dir: "ns/part"}},
		{"standard library is external", "app/util.py", "os.path", Module{External: true}},
		{"several roots: first taken, alternatives counted", "tools/x.py", "dup", Module{Files: []string{"dup.py"}, Alternatives: 1}},
		// tests/json has an __init__.py, so it is a candidate under the top-level
		// folder tests; the standard library's json is not indexed.
		{"top-level folder packages are candidates", "app/util.py", "json", Module{Files: []string{"tests/json/__init__.py"}, Dir: "tests/json"}},
	})
	if got := pythonSubmodule(tr, Module{Files: []string{"app/__init__.py"}, Dir: "app"}, "util"); !reflect.DeepEqual(got.Files, []string{"app/util.py"}) {
		t.Errorf("submodule util of app = %+v", got)
	}
	if got := pythonSubmodule(tr, Module{Files: []string{"app/util.py"}}, "x"); got.Found() {
		t.Errorf("a module file has no submodules, got %+v", got)
	}
	if got := pythonBind("a.b.c"); !reflect.DeepEqual(got, []Bound{{"a.b.c", "a.b.c"}, {"a", "a"}}) {
		t.Errorf("bind a.b.c = %v", got)
	}
	for module, want := range map[string]string{"a.b.util": "util", ".util": "util", "..": "", "os": "os"} {
		if got := pythonKey(module); got != want {
			t.Errorf("key %q = %q, want %q", module, got, want)
		}
	}
}

func TestJSModules(t *testing.T) {
	t.Parallel()
	tr := tree("src/a.ts", "src/util.ts", "src/esm.ts", "src/comp.tsx", "src/types.d.ts", "src/lib/index.ts",
		"src/old.js", "src/app.service.ts", "web/main.js", "web/helper.mjs")
	checkModules(t, &jsLanguage, tr, []moduleCase{
		{"extension probed", "src/a.ts", "./util", Module{Files: []string{"src/util.ts"}}},
		{"tsx probed", "src/a.ts", "./comp", Module{Files: []string{"src/comp.tsx"}}},
		{"declaration file", "src/a.ts", "./types", Module{Files: []string{"src/types.d.ts"}}},
		{"folder index", "src/a.ts", "./lib", Module{Files: []string{"src/lib/index.ts"}}},
		{"parent folder", "src/lib/index.ts", "../util", Module{Files: []string{"src/util.ts"}}},
		{"ESM .js names the .ts source", "src/a.ts", "./esm.js", Module{Files: []string{"src/esm.ts"}}},
		{"JavaScript with its extension", "src/a.ts", "./old.js", Module{Files: []string{"src/old.js"}}},
		{"dotted file name", "src/a.ts", "./app.service", Module{Files: []string{"src/app.service.ts"}}},
		{"mjs probed from JS", "web/main.js", "./helper", Module{Files: []string{"web/helper.mjs"}}},
		{"missing relative is a miss", "src/a.ts", "./nothere", Module{}},
		{"non-code file is external", "src/a.ts", "./style.css", Module{External: true}},
		{"bare package is external", "src/a.ts", "react", Module{External: true}},
		{"scoped package is external", "src/a.ts", "@scope/pkg/sub", Module{External: true}},
	})
	for spec, want := range map[string]string{"./util.js": "util", "../lib": "lib", "..": "", "react": "react", "./types.d.ts": "types"} {
		if got := jsKey(spec); got != want {
			t.Errorf("key %q = %q, want %q", spec, got, want)
		}
	}
}

func TestTSConfigPaths(t *testing.T) {
	t.Parallel()
	cfg, err := ParseTSConfig("", []byte(`{
  // comments and trailing commas, as tsc accepts them
  "compilerOptions": {
    "baseUrl": "./src", /* bare specifiers are looked up here too */
    "paths": {
      "@app/*": ["app/*", "fallback/*"],
      "@app/special": ["special/entry"],
      "url": ["http://not-a-comment"],
    },
  },
}`))
	if err != nil {
		t.Fatal(err)
	}
	tr := tree("src/app/x.ts", "src/fallback/y.ts", "src/special/entry.ts", "src/lib/z.ts", "src/main.ts")
	tr.TS = cfg
	checkModules(t, &jsLanguage, tr, []moduleCase{
		{"wildcard alias", "src/main.ts", "@app/x", Module{Files: []string{"src/app/x.ts"}}},
		{"second target", "src/main.ts", "@app/y", Module{Files: []string{"src/fallback/y.ts"}}},
		{"exact pattern beats the wildcard", "src/main.ts", "@app/special", Module{Files: []string{"src/special/entry.ts"}}},
		{"baseUrl", "src/main.ts", "lib/z", Module{Files: []string{"src/lib/z.ts"}}},
		{"unmatched bare specifier stays external", "src/main.ts", "react", Module{External: true}},
	})
	if cfg.Paths[2].Targets[0] != "src/http:/not-a-comment" {
		t.Errorf("a // inside a string was taken for a comment: %+v", cfg.Paths)
	}
	if _, err := ParseTSConfig("", []byte(`{"compilerOptions": `)); err == nil {
		t.Error("a truncated tsconfig.json parsed")
	}
}

func TestGoModules(t *testing.T) {
	t.Parallel()
	tr := NewTree([]File{
		{Path: "go.go", Language: "go"}, {Path: "internal/util/a.go", Language: "go"},
		{Path: "internal/util/b.go", Language: "go"}, {Path: "internal/util/a_test.go", Language: "go"},
		{Path: "internal/typed/t.go", Language: "go", Typed: true},
	})
	tr.GoModule = goModulePath([]byte("// header\nmodule example.com/m // the module\n\ngo 1.26\n"))
	if tr.GoModule != "example.com/m" {
		t.Fatalf("module path = %q", tr.GoModule)
	}
	checkModules(t, &goLanguage, tr, []moduleCase{
		{"package folder, tests left out", "go.go", "example.com/m/internal/util",
			Module{Files: []string{"internal/util/a.go", "internal/util/b.go"}, Dir: "internal/util"}},
		{"standard library", "go.go", "fmt", Module{External: true}},
		{"another module", "go.go", "example.com/other/util", Module{External: true}},
		{"a prefix is not the module", "go.go", "example.com/mx/util", Module{External: true}},
		{"missing folder", "go.go", "example.com/m/nothere", Module{}},
		{"type-checked files are not the fallback's", "go.go", "example.com/m/internal/typed", Module{}},
	})
	for path, want := range map[string]string{"example.com/m/util": "util", "example.com/m/v2": "m", "gopkg.in/yaml.v3": "yaml"} {
		if got := goPackageName(path); got != want {
			t.Errorf("package name of %s = %q, want %q", path, got, want)
		}
	}
	// The file itself is among them: a site `T.m` may name a type it defines.
	if got := goPackageFiles(tr, "internal/util/a.go"); !reflect.DeepEqual(got, []string{"internal/util/a.go", "internal/util/a_test.go", "internal/util/b.go"}) {
		t.Errorf("package files = %v", got)
	}
	if goModulePath([]byte("go 1.26\n")) != "" {
		t.Error("a go.mod without a module line named one")
	}
}

func TestModuleKeys(t *testing.T) {
	t.Parallel()
	for p, want := range map[string][]string{
		"pkg/util.py":       {"util.py", "util", "pkg"},
		"src/lib/index.ts":  {"index.ts", "index", "lib"},
		"src/types.d.ts":    {"types.d.ts", "types", "src"},
		"main.go":           {"main.go", "main", "."},
		"include/x.h":       {"x.h", "x", "include"},
		"pkg/__init__.py":   {"__init__.py", "__init__", "pkg"},
		"noext/Makefile.am": {"Makefile.am", "noext"},
	} {
		if got := moduleKeys(p); !reflect.DeepEqual(got, want) {
			t.Errorf("moduleKeys(%s) = %v, want %v", p, got, want)
		}
	}
}

func TestJavaModules(t *testing.T) {
	t.Parallel()
	tr := tree("src/main/java/com/acme/util/Strings.java", "src/main/java/com/acme/util/Lists.java",
		"src/test/java/com/acme/util/StringsTest.java", "src/main/java/com/acme/App.java")
	checkModules(t, &javaLanguage, tr, []moduleCase{
		{"package under any source root", "src/main/java/com/acme/App.java", "com.acme.util",
			Module{Files: []string{"src/main/java/com/acme/util/Lists.java", "src/main/java/com/acme/util/Strings.java",
				"src/test/java/com/acme/util/StringsTest.java"}, Dir: "src/main/java/com/acme/util"}},
		{"static import: the class is the scope", "src/main/java/com/acme/App.java", "com.acme.util.Strings",
			Module{Files: []string{"src/main/java/com/acme/util/Lists.java", "src/main/java/com/acme/util/Strings.java",
				"src/test/java/com/acme/util/StringsTest.java"}, Scope: "Strings"}},
		{"the JDK is external", "src/main/java/com/acme/App.java", "java.util", Module{External: true}},
	})
	if got := sameFolder(".java")(tr, "src/main/java/com/acme/util/Lists.java"); !reflect.DeepEqual(got, []string{"src/main/java/com/acme/util/Strings.java"}) {
		t.Errorf("package files = %v", got)
	}
}

func TestCModules(t *testing.T) {
	t.Parallel()
	tr := tree("src/main.c", "src/util.h", "include/lib/api.h", "lib/include/x.h", "vendor/zlib.h")
	checkModules(t, &cLanguage, tr, []moduleCase{
		{"quoted, beside the includer", "src/main.c", `"util.h"`, Module{Files: []string{"src/util.h"}}},
		{"quoted, from an include folder", "src/main.c", `"lib/api.h"`, Module{Files: []string{"include/lib/api.h"}}},
		{"nested include folder", "src/main.c", `"x.h"`, Module{Files: []string{"lib/include/x.h"}}},
		{"angled, from a top-level folder", "src/main.c", "<zlib.h>", Module{Files: []string{"vendor/zlib.h"}}},
		{"angled system header is external", "src/main.c", "<stdio.h>", Module{External: true}},
		{"quoted and missing is a miss", "src/main.c", `"config.h"`, Module{}},
	})
	if k := cLanguage.Key(`"lib/api.h"`); k != "api.h" {
		t.Errorf("key = %q", k)
	}
}

func TestRubyModules(t *testing.T) {
	t.Parallel()
	tr := tree("app/models/user.rb", "app/models/concerns/named.rb", "lib/acme/client.rb", "config.rb")
	checkModules(t, &rubyLanguage, tr, []moduleCase{
		{"require_relative", "app/models/user.rb", "./concerns/named", Module{Files: []string{"app/models/concerns/named.rb"}}},
		{"require_relative upwards, with extension", "app/models/concerns/named.rb", "../user.rb", Module{Files: []string{"app/models/user.rb"}}},
		{"require from lib", "app/models/user.rb", "acme/client", Module{Files: []string{"lib/acme/client.rb"}}},
		{"require from the root", "app/models/user.rb", "config", Module{Files: []string{"config.rb"}}},
		{"a gem is external", "app/models/user.rb", "json", Module{External: true}},
		{"a missing relative file is a miss", "app/models/user.rb", "./nothere", Module{}},
	})
}

func TestPHPModules(t *testing.T) {
	t.Parallel()
	tr := tree("app/Models/User.php", "app/Models/Post.php", "app/Http/Kernel.php", "lib/helpers.php", "public/index.php")
	checkModules(t, &phpLanguage, tr, []moduleCase{
		{"namespace tail matches folders, case ignored", "public/index.php", `App\Models`,
			Module{Files: []string{"app/Models/Post.php", "app/Models/User.php"}, Dir: "app/Models", Scope: `App\Models`}},
		{"vendor namespace is external", "public/index.php", `Illuminate\Support`, Module{External: true}},
		{"include beside the file", "public/index.php", "./../lib/helpers.php", Module{Files: []string{"lib/helpers.php"}}},
		{"include from the root", "public/index.php", "lib/helpers.php", Module{Files: []string{"lib/helpers.php"}}},
		{"missing include", "public/index.php", "nothere.php", Module{}},
	})
	for spec, want := range map[string]string{`App\Models`: "Models", "lib/helpers.php": "helpers", "Models": "Models"} {
		if got := phpKey(spec); got != want {
			t.Errorf("key %q = %q, want %q", spec, got, want)
		}
	}
}
