package resolve

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// The type a TypeScript declaration names, read off its signature.
func TestTSDeclaredType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind      graph.NodeKind
		name, sig string
		want      string
	}{
		{graph.KindField, "client", "private readonly client: Client", "Client"},
		{graph.KindField, "#cache", "#cache: QueryCache<TData>", "QueryCache"},
		{graph.KindField, "parent", "parent?: core.$ZodType | undefined", "core.$ZodType"},
		{graph.KindField, "items", "items: Item[]", ""},
		{graph.KindField, "mode", "mode: 'a' | 'b'", ""},
		{graph.KindField, "count", "count = 0", ""},
		{graph.KindVariable, "intervalProvider", "intervalProvider: IntervalProvider", "IntervalProvider"},
		{graph.KindMethod, "build", "build<T extends (x: A) => B>(client: QueryClient, state?: State<T>): Query<T, E>", "Query"},
		{graph.KindMethod, "check", "check(...checks: Array<Check>): this", "this"},
		{graph.KindMethod, "isOk", "isOk(x: unknown): x is Ok", ""},
		{graph.KindFunction, "make", "make = (a: A): (Result | null) =>", "Result"},
		{graph.KindFunction, "run", "function run(cb: (x: number) => void): Promise<void>", "Promise"},
		{graph.KindFunction, "none", "function none()", ""},
	}
	for _, c := range cases {
		if got := tsDeclaredType(graph.Node{Kind: c.kind, Name: c.name, Signature: c.sig}); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.kind, c.sig, got, c.want)
		}
	}
}

// The parameter types of a callback a signature declares.
func TestTSCallbackParamType(t *testing.T) {
	t.Parallel()
	op := graph.Node{Kind: graph.KindFunction, Name: "operate",
		Signature: "function operate<T, R>( init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void ): OperatorFunction<T, R>"}
	ctor := graph.Node{Kind: graph.KindMethod, Name: "constructor",
		Signature: "constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => TeardownLogic)"}
	for _, c := range []struct {
		n    graph.Node
		i, j int
		want string
	}{{op, 0, 0, "Observable"}, {op, 0, 1, "Subscriber"}, {op, 0, 2, ""}, {op, 1, 0, ""}, {ctor, 0, 0, "Subscriber"}} {
		if got := tsCallbackParamType(c.n, c.i, c.j); got != c.want {
			t.Errorf("%s (%d,%d): %q, want %q", c.n.Name, c.i, c.j, got, c.want)
		}
	}
}
