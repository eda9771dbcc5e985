package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph/internal/factstest"
)

// Name uses other than calls: a name the file defines becomes a references edge
// (once per definition and name), a name the file imports a references site for
// the cross-file pass; locals, parameters, builtins, callees and the names of
// definitions themselves are not uses.
func TestReferences(t *testing.T) {
	cases := []struct {
		name, rel, lang, src string
		want                 []string
	}{{
		name: "python", rel: "app/run.py", lang: "python",
		src: `import numpy as np
from .util import load, Config

LIMIT = 10

class Job:
    size = LIMIT

    def run(self, cfg: Config) -> "Job":
        data = load(cfg)
        handler = helper
        print(len(data), self.size, np.pi, LIMIT, LIMIT)
        return Job()

def helper(x):
    return x

def shadow():
    LIMIT = 5
    return LIMIT + len(Job.__name__)
`,
		want: []string{
			`edge references app/run.py::Job -> app/run.py::LIMIT 0.8 name @7`, // a field's initialiser is the class body's
			`edge references app/run.py::Job::run -> app/run.py::Job::size 0.9 name @12`,
			`edge references app/run.py::Job::run -> app/run.py::LIMIT 0.8 name @12`,
			`edge references app/run.py::Job::run -> app/run.py::helper 0.8 name @11`,
			`edge references app/run.py::shadow -> app/run.py::Job 0.8 name @20`,
			`unresolved references app/run.py::Job::run -> Config @9:24`,
			`unresolved references app/run.py::Job::run -> np.pi @12:37`,
			`unresolved references app/run.py::shadow -> Job.__name__ @20:24`, // a member of a class of the file, maybe inherited
		},
	}, {
		name: "typescript", rel: "web/shape.ts", lang: "typescript",
		src: `import { Point } from "./geo";
import * as fmt from "./fmt";

export interface Shape { at: Point }

export const ORIGIN = 0;

export class Circle implements Shape {
  at: Point = fmt.origin;
  area(r: number): number {
    const s: Shape = this;
    return ORIGIN + r;
  }
}
`,
		want: []string{
			`edge references web/shape.ts::Circle -> web/shape.ts::Shape 0.8 name @8`,
			`edge references web/shape.ts::Circle::area -> web/shape.ts::ORIGIN 0.8 name @12`,
			`edge references web/shape.ts::Circle::area -> web/shape.ts::Shape 0.8 name @11`,
			`unresolved references web/shape.ts::Circle::at -> fmt.origin @9:15`,
			`unresolved references web/shape.ts::Circle::at -> Point @9:7`,
			`unresolved references web/shape.ts::Shape::at -> Point @4:30`,
		},
	}, {
		name: "go fallback", rel: "srv/srv.go", lang: "go",
		src: `package srv

import "net/http"

type Server struct{ h http.Handler }

func New() *Server { return &Server{} }
`,
		want: []string{
			`edge references srv/srv.go::New -> srv/srv.go::Server 0.8 name @7`,
			`unresolved references srv/srv.go::Server::h -> http.Handler @5:23`,
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ff, err := Extract(context.Background(), c.rel, c.lang, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got := slices.DeleteFunc(render(ff), func(l string) bool { return !factstest.IsReference(l) })
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("references\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		})
	}
}

func TestBoundName(t *testing.T) {
	for _, tc := range []struct{ lang, module, want string }{
		{"python", "os.path", "os"},
		{"python", "..pkg.mod", "pkg"},
		{"go", `"net/http"`, "http"},
		{"go", "gopkg.in/yaml.v3", "yaml"},
		{"typescript", "./util", "util"},
		{"java", "java.util.List", "List"},
		{"rust", "crate::a::b", "b"},
		{"php", `A\B\C`, "C"},
	} {
		if got := boundName(tc.lang, tc.module); got != tc.want {
			t.Errorf("boundName(%s, %s) = %q, want %q", tc.lang, tc.module, got, tc.want)
		}
	}
}

func TestPythonProtocolsAndABCsAreInterfaces(t *testing.T) {
	src := `import abc
from typing import Protocol, Generic

class Reader(Protocol):
    def read(self) -> bytes: ...

class Sized(Protocol[T]):
    pass

class Base(abc.ABC):
    pass

class Meta(metaclass=abc.ABCMeta):
    pass

class Plain(Generic[T], Base):
    pass
`
	ff, err := Extract(context.Background(), "m.py", "python", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, n := range ff.Nodes {
		kinds[n.Name] = string(n.Kind)
	}
	for name, want := range map[string]string{"Reader": "interface", "Sized": "interface", "Base": "interface", "Meta": "interface", "Plain": "class"} {
		if kinds[name] != want {
			t.Errorf("%s is a %s, want %s", name, kinds[name], want)
		}
	}
	if kinds["read"] != "method" {
		t.Errorf("a Protocol's function is a %s, want a method", kinds["read"])
	}
}
