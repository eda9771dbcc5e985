package treesitter

import "testing"

// A member reached through a call, a non-null assertion or a cast is a path
// through declared types: `this.#client.getQueryCache().build()` is the site
// `QueryClient.getQueryCache.build`, and a local holding its result is typed by
// that path. A callee that is itself a call stays an expression.
func TestTypeScriptCalleeThroughCalls(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/queryObserver.ts", `import { QueryClient } from './queryClient'
import { CompiledBag } from './bag'
export class QueryObserver {
  #client: QueryClient
  update(): void {
    const query = this.#client.getQueryCache().build(this.#client)
    query.addObserver(this)
    this.#client.getMutationCache()!.notify({})
    const v = (this.bag as CompiledBag).validator()
    make()()
  }
}
`, "unresolved calls ")
	expectLines(t, got, []string{
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> <expr> @10:5",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> CompiledBag.validator @9:15",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> QueryClient.getMutationCache @8:5",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> QueryClient.getMutationCache.notify @8:5",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> QueryClient.getQueryCache @6:19",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> QueryClient.getQueryCache.build @6:19",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> QueryClient.getQueryCache.build.addObserver @7:5",
		"unresolved calls src/queryObserver.ts::QueryObserver::update -> make @10:5",
	})
}

// `super.m()` calls the base class's m (or the one it inherits).
func TestTypeScriptSuperCall(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/infiniteQueryObserver.ts", `import { QueryObserver } from './queryObserver'
import * as core from './core'
export class InfiniteQueryObserver extends QueryObserver {
  protected override bindMethods(): void {
    super.bindMethods()
  }
}
class Nested extends core.Base {
  run() { return super.run() }
}
`, "unresolved calls ")
	expectLines(t, got, []string{
		"unresolved calls src/infiniteQueryObserver.ts::InfiniteQueryObserver::bindMethods -> QueryObserver.bindMethods @5:5",
		"unresolved calls src/infiniteQueryObserver.ts::Nested::run -> core.Base.run @9:18",
	})
}
