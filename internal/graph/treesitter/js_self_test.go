package treesitter

import "testing"

// `const self = this` in a method holds the class: a closure's `self.get()` is
// the site `Map2.get`, which the cross-file pass finds in the class (mobx's
// ObservableMap.entries); outside a class, `this` says nothing.
func TestTypeScriptSelfAlias(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/map.ts", `export class Map2 {
  get(key: string): number { return 1 }

  entries() {
    const self = this
    return {
      next() {
        return self.get("a")
      },
    }
  }
}

export function outside() {
  const self = this
  return self.get("b")
}
`, "edge calls", "unresolved calls")
	expectLines(t, got, []string{
		"unresolved calls src/map.ts::Map2::entries::next -> Map2.get @8:16", // for the pass: Map2 of this file
		"unresolved calls src/map.ts::outside -> self.get @16:10",
	})
}
