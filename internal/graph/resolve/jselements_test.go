package resolve_test

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// A callback passed to a built-in container's iteration method (forEach, map,
// filter, find…) on a field or variable declared as `T[]`, `Array<T>`,
// `Set<T>` or `Map<K, V>` gets T (V) as its element parameter: mobx's
// `observable.observers_?.forEach(d => d.onBecomeStale_())` on a
// `Set<IDerivation>`.
func TestTypeScriptContainerElementTypes(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/derivation.ts": `export interface IDerivation {
  onBecomeStale_(): void
}
`,
		"src/other.ts": `export class Other {
  onBecomeStale_(): void {}
}
`,
		"src/observable.ts": `import { IDerivation } from "./derivation"

export interface IObservable {
  observers_?: Set<IDerivation>
  list: IDerivation[]
  byName: ReadonlyMap<string, IDerivation>
}

export function propagate(observable: IObservable) {
  observable.observers_?.forEach(d => {
    d.onBecomeStale_()
  })
}

export class Observers {
  #observers: Array<IDerivation> = []

  destroy(): void {
    this.#observers.forEach((observer) => observer.onBecomeStale_())
  }
}

export function each(o: IObservable) {
  o.list.filter((d) => d.onBecomeStale_())
  o.byName.forEach((d, key) => key.onBecomeStale_())
}
`,
	})
	expect(t, "propagate: d is an IDerivation",
		edgeEnds(t, st, "src/observable.ts::propagate", graph.EdgeCalls),
		"src/derivation.ts::IDerivation::onBecomeStale_ [import]")
	expect(t, "Observers.destroy: this.#observers's element, and no edge to the field",
		edgeEnds(t, st, "src/observable.ts::Observers::destroy", graph.EdgeCalls),
		"src/derivation.ts::IDerivation::onBecomeStale_ [import]")
	expect(t, "each: an array's element, a map's value (its key is a string)",
		edgeEnds(t, st, "src/observable.ts::each", graph.EdgeCalls),
		"src/derivation.ts::IDerivation::onBecomeStale_ [import]")
}
