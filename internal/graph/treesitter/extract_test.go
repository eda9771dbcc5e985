package treesitter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// render writes facts one per line, so a case lists exactly what it expects.
// withoutRefs drops name uses (references edges and sites) from got unless want
// mentions one: the definition and call tables are checked apart from the uses,
// which refs_test.go checks per language.
func withoutRefs(got, want []string) []string {
	if slices.ContainsFunc(want, isRefLine) {
		return got
	}
	return slices.DeleteFunc(got, isRefLine)
}

func isRefLine(l string) bool {
	return strings.HasPrefix(l, "edge references ") || strings.HasPrefix(l, "unresolved references ")
}

func render(ff graph.FileFacts) []string {
	var out []string
	for _, n := range ff.Nodes {
		s := fmt.Sprintf("node %s %s %d:%d-%d", n.Kind, n.QName, n.Line, n.Col, n.EndLine)
		if n.Signature != "" {
			s += fmt.Sprintf(" sig=%q", n.Signature)
		}
		if n.Doc != "" {
			s += fmt.Sprintf(" doc=%q", n.Doc)
		}
		if n.Exported {
			s += " exported"
		}
		out = append(out, s)
	}
	for _, e := range ff.Edges {
		out = append(out, fmt.Sprintf("edge %s %s -> %s %.2g %s @%d", e.Kind, e.From, e.To, e.Confidence, e.Resolution, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d:%d", u.Kind, u.From, u.Name, u.Line, u.Col))
	}
	slices.Sort(out)
	return out
}

// checkFiles enforces the store's rule: every fact belongs to the file it was read from.
func checkFiles(t *testing.T, ff graph.FileFacts) {
	t.Helper()
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s: File %q, want %q", n.QName, n.File, ff.Path)
		}
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s: File %q, want %q", e.From, e.To, e.File, ff.Path)
		}
	}
	for _, u := range ff.Unresolved {
		if u.File != ff.Path {
			t.Errorf("unresolved %s: File %q, want %q", u.Name, u.File, ff.Path)
		}
	}
}

func TestExtract(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rel, lang, src string
		want                 []string
	}{{
		name: "python", rel: "src/app.py", lang: "python",
		src: `import os.path
from .util import load as l, save

# Not the doc: the docstring wins.
class Server(Base, metaclass=Meta):
    """Serves requests.

    Really."""
    port = 8080

    @staticmethod
    def handle(self, req) -> str:
        self.log(req)
        self.reply(helper(req))
        return os.path.join(a, b)

    def reply(self, x):
        pass

# Helps.
def helper(x):
    return Server()

def helper(y):
    Server.handle(None, y)
`,
		want: []string{
			`node file src/app.py 1:0-26`,
			`node class src/app.py::Server 5:7-18 sig="class Server(Base, metaclass=Meta)" doc="Serves requests.\n\nReally." exported`,
			`node field src/app.py::Server::port 9:5-9 sig="port = 8080" exported`,
			`node method src/app.py::Server::handle 12:9-15 sig="def handle(self, req) -> str" exported`,
			`node method src/app.py::Server::reply 17:9-18 sig="def reply(self, x)" exported`,
			`node function src/app.py::helper 21:5-22 sig="def helper(x)" doc="Helps." exported`,
			`edge imports src/app.py -> os.path 0.5 import @1`,
			`edge imports src/app.py -> .util::load as l 0.5 import @2`,
			`edge imports src/app.py -> .util::save 0.5 import @2`,
			`edge contains src/app.py -> src/app.py::Server 1 name @5`,
			`edge contains src/app.py::Server -> src/app.py::Server::port 1 name @9`,
			`edge contains src/app.py::Server -> src/app.py::Server::handle 1 name @12`,
			`edge contains src/app.py::Server -> src/app.py::Server::reply 1 name @17`,
			`edge contains src/app.py -> src/app.py::helper 1 name @21`,
			`edge calls src/app.py::Server::handle -> src/app.py::Server::reply 0.9 name @14`,
			`edge calls src/app.py::Server::handle -> src/app.py::helper 0.9 name @14`,
			`edge calls src/app.py::helper -> src/app.py::Server 0.9 name @22`,
			`unresolved extends src/app.py::Server -> Base @5:14`,
			`unresolved calls src/app.py::Server::handle -> self.log @13:9`,
			`unresolved calls src/app.py::Server::handle -> os.path.join @15:16`,
			// The second helper is merged into the first: its calls are the first's.
			`unresolved calls src/app.py::helper -> Server.handle @25:5`,
		},
	}, {
		name: "typescript", rel: "web/circle.ts", lang: "typescript",
		src: `import { send as s, recv } from "./net";
import * as path from "path";
import Def from "./def";
import "./side";

/** Greets. */
export function greet(name: string): string;
export function greet(name: any): string {
  return format(name);
}

// Formats.
const format = (x: string) => x.trim();

interface Shape extends Base<number> {
  area(): number;
}

export class Circle extends Round implements Shape, Other {
  r: number = 1;
  area(): number {
    this.helper();
    this.client.send(1);
    return new Circle();
  }
  private helper() { greet("a"); }
}
`,
		want: []string{
			`node file web/circle.ts 1:0-28`,
			`node function web/circle.ts::greet 7:17-7 sig="function greet(name: string): string" doc="Greets." exported`,
			`node function web/circle.ts::format 13:7-13 sig="format = (x: string) =>" doc="Formats."`,
			`node interface web/circle.ts::Shape 15:11-17 sig="interface Shape extends Base<number>"`,
			`node method web/circle.ts::Shape::area 16:3-16 sig="area(): number"`,
			`node class web/circle.ts::Circle 19:14-27 sig="class Circle extends Round implements Shape, Other" exported`,
			`node field web/circle.ts::Circle::r 20:3-20 sig="r: number" exported`,
			`node method web/circle.ts::Circle::area 21:3-25 sig="area(): number" exported`,
			`node method web/circle.ts::Circle::helper 26:11-26 sig="private helper()" exported`,
			`edge imports web/circle.ts -> ./net::send as s 0.5 import @1`,
			`edge imports web/circle.ts -> ./net::recv 0.5 import @1`,
			`edge imports web/circle.ts -> path as path 0.5 import @2`,
			`edge imports web/circle.ts -> ./def::default as Def 0.5 import @3`,
			`edge imports web/circle.ts -> ./side 0.5 import @4`,
			`edge contains web/circle.ts -> web/circle.ts::greet 1 name @7`,
			`edge contains web/circle.ts -> web/circle.ts::format 1 name @13`,
			`edge contains web/circle.ts -> web/circle.ts::Shape 1 name @15`,
			`edge contains web/circle.ts::Shape -> web/circle.ts::Shape::area 1 name @16`,
			`edge contains web/circle.ts -> web/circle.ts::Circle 1 name @19`,
			`edge contains web/circle.ts::Circle -> web/circle.ts::Circle::r 1 name @20`,
			`edge contains web/circle.ts::Circle -> web/circle.ts::Circle::area 1 name @21`,
			`edge contains web/circle.ts::Circle -> web/circle.ts::Circle::helper 1 name @26`,
			`edge calls web/circle.ts::greet -> web/circle.ts::format 0.9 name @9`,
			`edge implements web/circle.ts::Circle -> web/circle.ts::Shape 0.9 name @19`,
			`edge calls web/circle.ts::Circle::area -> web/circle.ts::Circle::helper 0.9 name @22`,
			`edge calls web/circle.ts::Circle::area -> web/circle.ts::Circle 0.9 name @24`,
			`edge calls web/circle.ts::Circle::helper -> web/circle.ts::greet 0.9 name @26`,
			`unresolved calls web/circle.ts::format -> x.trim @13:31`,
			`unresolved extends web/circle.ts::Shape -> Base @15:25`,
			`unresolved extends web/circle.ts::Circle -> Round @19:29`,
			`unresolved implements web/circle.ts::Circle -> Other @19:53`,
			`unresolved calls web/circle.ts::Circle::area -> this.client.send @23:5`,
		},
	}, {
		name: "javascript", rel: "lib/a.js", lang: "javascript",
		src: `const { x } = require("./x");
import def, { y as z } from "#internal/y";

class A extends B {
  #secret = 1;
  run() { return (() => 1)() + make().then(); }
}

function make() { return new A(); }
`,
		want: []string{
			`node file lib/a.js 1:0-10`,
			`node class lib/a.js::A 4:7-7 sig="class A extends B"`,
			`node field lib/a.js::A::#secret 5:3-5 sig="#secret = 1"`,
			`node method lib/a.js::A::run 6:3-6 sig="run()"`,
			`node function lib/a.js::make 9:10-9 sig="function make()"`,
			`edge imports lib/a.js -> #internal/y::default as def 0.5 import @2`,
			`edge imports lib/a.js -> #internal/y::y as z 0.5 import @2`,
			`edge contains lib/a.js -> lib/a.js::A 1 name @4`,
			`edge contains lib/a.js::A -> lib/a.js::A::#secret 1 name @5`,
			`edge contains lib/a.js::A -> lib/a.js::A::run 1 name @6`,
			`edge contains lib/a.js -> lib/a.js::make 1 name @9`,
			`edge calls lib/a.js::A::run -> lib/a.js::make 0.9 name @6`,
			`edge calls lib/a.js::make -> lib/a.js::A 0.9 name @9`,
			`unresolved calls lib/a.js -> require @1:15`,
			`unresolved extends lib/a.js::A -> B @4:17`,
			`unresolved calls lib/a.js::A::run -> <expr> @6:18`,
			`unresolved calls lib/a.js::A::run -> make.then @6:32`, // then of what make returns
		},
	}, {
		name: "go fallback", rel: "srv/server.go", lang: "go",
		src: `package srv

import (
	"fmt"
	str "strings"
)

// Handle handles; its receiver type comes later in the file.
func (s *Server) Handle(x int) error {
	helper()
	fmt.Println(str.ToUpper("a"))
	return s.run()
}

// Server serves.
type Server struct {
	Base
	*Other
	port, host int
}

type Shape interface {
	fmt.Stringer
	Area() float64
}

func helper() {}

const A, b = 1, 2
`,
		want: []string{
			`node file srv/server.go 1:0-30`,
			`node method srv/server.go::Server::Handle 9:18-13 sig="func (s *Server) Handle(x int) error" doc="Handle handles; its receiver type comes later in the file." exported`,
			`node struct srv/server.go::Server 16:6-20 sig="Server struct" doc="Server serves." exported`,
			`node field srv/server.go::Server::port 19:2-19 sig="port, host int"`,
			`node field srv/server.go::Server::host 19:8-19 sig="port, host int"`,
			`node interface srv/server.go::Shape 22:6-25 sig="Shape interface" exported`,
			`node method srv/server.go::Shape::Area 24:2-24 sig="Area() float64" exported`,
			`node function srv/server.go::helper 27:6-27 sig="func helper()"`,
			`node constant srv/server.go::A 29:7-29 sig="A, b = 1, 2" exported`,
			`node constant srv/server.go::b 29:10-29 sig="A, b = 1, 2"`,
			`edge imports srv/server.go -> fmt 0.5 import @4`,
			`edge imports srv/server.go -> strings as str 0.5 import @5`,
			// a method is contained by its receiver type, wherever it is written
			`edge contains srv/server.go::Server -> srv/server.go::Server::Handle 1 name @9`,
			`edge contains srv/server.go -> srv/server.go::Server 1 name @16`,
			`edge contains srv/server.go::Server -> srv/server.go::Server::port 1 name @19`,
			`edge contains srv/server.go::Server -> srv/server.go::Server::host 1 name @19`,
			`edge contains srv/server.go -> srv/server.go::Shape 1 name @22`,
			`edge contains srv/server.go::Shape -> srv/server.go::Shape::Area 1 name @24`,
			`edge contains srv/server.go -> srv/server.go::helper 1 name @27`,
			`edge contains srv/server.go -> srv/server.go::A 1 name @29`,
			`edge contains srv/server.go -> srv/server.go::b 1 name @29`,
			`edge calls srv/server.go::Server::Handle -> srv/server.go::helper 0.9 name @10`,
			`unresolved calls srv/server.go::Server::Handle -> fmt.Println @11:2`,
			`unresolved calls srv/server.go::Server::Handle -> str.ToUpper @11:14`,
			`unresolved calls srv/server.go::Server::Handle -> Server.run @12:9`, // s is a *Server
			`unresolved extends srv/server.go::Server -> Base @17:2`,
			`unresolved extends srv/server.go::Server -> Other @18:3`,
			`unresolved extends srv/server.go::Shape -> fmt.Stringer @23:2`,
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ff, err := Extract(context.Background(), c.rel, c.lang, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if ff.Path != c.rel || ff.Language != c.lang || ff.Size != int64(len(c.src)) || len(ff.Hash) != 64 {
				t.Errorf("header = %q %q %d %q", ff.Path, ff.Language, ff.Size, ff.Hash)
			}
			if ff.ParseError != "" || ff.Quarantined {
				t.Errorf("ParseError = %q, Quarantined = %v", ff.ParseError, ff.Quarantined)
			}
			checkFiles(t, ff)
			got, want := withoutRefs(render(ff), c.want), slices.Sorted(slices.Values(c.want))
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("missing: %s", w)
				}
			}
			for _, g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("unexpected: %s", g)
				}
			}
			if t.Failed() {
				t.Logf("got:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}
