package resolve_test

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// A Python receiver of known type resolves through its class and bases: the
// class imported (an annotated parameter, a self attribute) or defined in the
// same file (a constructor call), the method inherited, a field used through
// the receiver; `super().m()` in the first base and its bases.
func TestPythonTypedReceivers(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/env.py": `class Base:
    def parse(self, source):
        return source


class Environment(Base):
    cache: dict = {}
`,
		"pkg/ext.py": `from .env import Environment


class Stack:
    def push(self, x):
        return x


class Extension:
    def __init__(self, environment: Environment):
        self.environment = environment

    def run(self, source):
        self.environment.parse(source)
        return self.environment.cache


class Sandboxed(Environment):
    def parse(self, source):
        return super().parse(source)


def extract(env: "Environment", source):
    stack = Stack()
    stack.push(env.parse(source))
`,
	})
	expect(t, "calls of Base.parse (inherited, through a parameter and a self attribute)",
		edgeEnds(t, st, "pkg/ext.py::extract", graph.EdgeCalls),
		"pkg/env.py::Base::parse [import]", "pkg/ext.py::Stack [name]", "pkg/ext.py::Stack::push [import]")
	expect(t, "run: a method through self.environment, a field used through it",
		append(edgeEnds(t, st, "pkg/ext.py::Extension::run", graph.EdgeCalls),
			edgeEnds(t, st, "pkg/ext.py::Extension::run", graph.EdgeReferences)...),
		"pkg/env.py::Base::parse [import]", "pkg/env.py::Environment::cache [import]")
	expect(t, "super().parse: the base's method, not the override",
		edgeEnds(t, st, "pkg/ext.py::Sandboxed::parse", graph.EdgeCalls), "pkg/env.py::Base::parse [import]")
}
