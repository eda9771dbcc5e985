package resolve_test

import "testing"

// TypeScript receivers of known type: the extractor writes `x.m()` as `T.m`
// (or the path to the function whose result x holds), and the pass follows T,
// fields and return types declared in other files, inherited fields, barrel
// re-exports and a local object of spread namespaces.
func TestTypeScriptTypedReceivers(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/query.ts": `export interface Action { run(): void }
export class Query {
  fetch(): void {}
  next(): this { return this; }
}
`,
		"src/cache.ts": `import { Query } from "./query";
export class QueryCache {
  build(): Query | undefined { return new Query(); }
}
export const defaultCache: QueryCache = new QueryCache();
`,
		"src/base.ts": `import { QueryCache } from "./cache";
export class Base {
  protected cache: QueryCache;
}
`,
		"src/index.ts": `export * from "./query";
export * as caches from "./cache";
`,
		"src/helpers.ts": `export function clear(): void {}
`,
		"src/client.ts": `import * as core from "./index";
import * as helpers from "./helpers";
import { Base } from "./base";

const z = { ...helpers };

export class Client extends Base {
  run(a: core.Action, q: core.Query) {
    a.run();
    const n = q.next();
    n.fetch();
    this.cache.build();
    core.caches.defaultCache.build();
    z.clear();
  }
}
`,
	})
	const run = "src/client.ts::Client::run"
	expect(t, "callers of Action.run (an interface-typed parameter, through a barrel)",
		related(t, st, "callers", "src/query.ts::Action::run"), run+"@9 [import]")
	expect(t, "callers of Query.fetch (a local holding a method's result; `this` returned)",
		related(t, st, "callers", "src/query.ts::Query::fetch"), run+"@11 [import]")
	expect(t, "callers of QueryCache.build (an inherited field; a variable re-exported as a namespace)",
		related(t, st, "callers", "src/cache.ts::QueryCache::build"), run+"@12 [import]", run+"@13 [import]")
	expect(t, "callers of clear (a local object of spread namespaces)",
		related(t, st, "callers", "src/helpers.ts::clear"), run+"@14 [import]")
}

// An untyped callback parameter holds what the callee's declaration says.
func TestTypeScriptCallbackParameters(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/Subscriber.ts": `export class Subscriber<T> {
  next(value: T): void {}
}
`,
		"src/Observable.ts": `import { Subscriber } from "./Subscriber";
export class Observable<T> {
  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}
}
`,
		"src/lift.ts": `import { Observable } from "./Observable";
import { Subscriber } from "./Subscriber";
export function operate<T, R>(init: (source: Observable<T>, subscriber: Subscriber<R>) => void): void {}
`,
		"src/map.ts": `import { operate } from "./lift";
import { Observable } from "./Observable";

export function map() {
  operate((source, subscriber) => {
    subscriber.next(1);
  });
  return new Observable((s) => s.next(2));
}
`,
	})
	expect(t, "callers of Subscriber.next (a callback's parameters, a function's and a constructor's)",
		related(t, st, "callers", "src/Subscriber.ts::Subscriber::next"), "src/map.ts::map@6 [import]", "src/map.ts::map@8 [import]")
}
