package resolve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
	"github.com/etalab-ia/albert-code/internal/graph/query"
)

// A method call on a receiver of unknown type whose name a built-in container
// also has (dict.get, list.append, str.join) is not matched by name to the
// project's only method of that name: it stays unresolved, saying why. A
// receiver whose type is known still reaches the project method, and a method
// name no container has still matches by name.
func TestPythonContainerMethodsNeedEvidence(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"app/__init__.py": "",
		"app/registry.py": `class Registry:
    def get(self, key):
        return key

    def append(self, item):
        return item

    def register(self, item):
        return item
`,
		"app/use.py": `from .registry import Registry


def plain(d, items, sep):
    d.get("x")
    items.append(1)
    sep.join(items)


def typed(r: Registry):
    r.get("x")


def built():
    Registry().append(2)


def other(thing):
    thing.register(3)
`,
	})
	expect(t, "plain: no edge to Registry.get or Registry.append",
		edgeEnds(t, st, "app/use.py::plain", graph.EdgeCalls))
	reasons := unresolvedReasons(t, st, "app/use.py::plain")
	for _, site := range []string{"d.get", "items.append", "sep.join"} {
		if r := reasons[site]; !strings.Contains(r, "built-in") {
			t.Errorf("%s: reason %q, want one naming the built-in method", site, r)
		}
	}
	expect(t, "typed: the receiver's declared class decides",
		edgeEnds(t, st, "app/use.py::typed", graph.EdgeCalls), "app/registry.py::Registry::get [import]")
	// The callers of Registry.get are then a lower bound, saying why.
	a, err := query.Ask(context.Background(), st, "callers", "app/registry.py::Registry::get")
	if err != nil {
		t.Fatal(err)
	}
	if a.Certainty != "lower-bound" || !strings.Contains(a.Why, "1 call site(s) named get could not be resolved") {
		t.Errorf("callers of Registry.get: %s, %q; want lower-bound naming the unresolved d.get", a.Certainty, a.Why)
	}
	expect(t, "built: a constructor call's class decides",
		edgeEnds(t, st, "app/use.py::built", graph.EdgeCalls),
		"app/registry.py::Registry [import]", "app/registry.py::Registry::append [import]")
	expect(t, "other: a name no container has is still matched by name",
		edgeEnds(t, st, "app/use.py::other", graph.EdgeCalls), "app/registry.py::Registry::register [name]")
}

// The same for JavaScript and TypeScript's Array, Map, Set, Promise and String.
func TestJSContainerMethodsNeedEvidence(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/store.ts": `export class Store {
  get(key: string): string { return key }
  push(item: number): number { return item }
  then(f: () => void): void { f() }
  dispatch(action: string): void {}
}
`,
		"src/use.ts": `import { Store } from "./store"

export function plain(cache: any, list, pending) {
  cache.get("x")
  list.push(1)
  pending.then(() => 0)
}

export function typed(s: Store) {
  s.get("x")
}

export function other(bus) {
  bus.dispatch("go")
}
`,
	})
	expect(t, "plain: no edge to Store.get, push or then",
		edgeEnds(t, st, "src/use.ts::plain", graph.EdgeCalls))
	reasons := unresolvedReasons(t, st, "src/use.ts::plain")
	for _, site := range []string{"cache.get", "list.push", "pending.then"} {
		if r := reasons[site]; !strings.Contains(r, "built-in") {
			t.Errorf("%s: reason %q, want one naming the built-in method", site, r)
		}
	}
	expect(t, "typed: the parameter's declared class decides",
		edgeEnds(t, st, "src/use.ts::typed", graph.EdgeCalls), "src/store.ts::Store::get [import]")
	expect(t, "other: a name no container has is still matched by name",
		edgeEnds(t, st, "src/use.ts::other", graph.EdgeCalls), "src/store.ts::Store::dispatch [name]")
}

// `this.m()` in a method of an object literal held by a variable names the
// object's own m (mobx's arrayExtensions.clear calls this.splice), even when m
// is a built-in container's name: the object is the evidence.
func TestJSObjectLiteralThis(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/ext.ts": `export var arrayExtensions = {
  clear(): any[] {
    return this.splice(0)
  },
  splice(index: number): any[] {
    return []
  },
}

export function outside(list) {
  return list.splice(0)
}
`,
	})
	expect(t, "clear: this.splice is the object's splice",
		edgeEnds(t, st, "src/ext.ts::arrayExtensions::clear", graph.EdgeCalls),
		"src/ext.ts::arrayExtensions::splice [import]")
	expect(t, "outside: list.splice stays unresolved",
		edgeEnds(t, st, "src/ext.ts::outside", graph.EdgeCalls))
}
