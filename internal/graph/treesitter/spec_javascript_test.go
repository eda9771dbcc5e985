package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// tsFacts extracts a TypeScript file and returns its facts rendered one per
// line (see render), keeping those that start with one of the prefixes.
func tsFacts(t *testing.T, rel, src string, prefixes ...string) []string {
	t.Helper()
	ff, err := Extract(context.Background(), rel, "typescript", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.ParseError != "" {
		t.Fatalf("ParseError = %q", ff.ParseError)
	}
	return slices.DeleteFunc(render(ff), func(l string) bool {
		return !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(l, p) })
	})
}

func expectLines(t *testing.T, got, want []string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

// An export with a source passes names on: it is an import of them, so the
// cross-file pass follows a name through a barrel file.
func TestTypeScriptReexports(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/index.ts", `export * from "./core.js";
export * as util from "./util.js";
export { load, parse as read } from "./load";
export type { Options } from "./types";
export const version = "1";
`, "edge imports ")
	expectLines(t, got, []string{
		"edge imports src/index.ts -> ./core.js::* 0.5 import @1",
		"edge imports src/index.ts -> ./util.js as util 0.5 import @2",
		"edge imports src/index.ts -> ./load::load 0.5 import @3",
		"edge imports src/index.ts -> ./load::parse as read 0.5 import @3",
		"edge imports src/index.ts -> ./types::Options 0.5 import @4",
	})
}

// Object-literal methods are definitions; when the variable holding the object
// shares its name with a type (zod's `interface X` + `const X`), they are scoped
// `X::{}` so that neither hides the other. Members of an object type are not
// definitions; a class's overload signatures are.
func TestTypeScriptObjectMethods(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/schemas.ts", `export interface ZString {
  upper(): ZString;
}
export const ZString = make({
  upper() {
    return this;
  },
});
const helpers = {
  trim(s: string) {
    return s;
  },
};
type Shape = { side: number; area(): number };
class Doc {
  write(line: string): void;
  write(arg: any) {}
}
`, "node ")
	expectLines(t, got, []string{
		"node class src/schemas.ts::Doc 15:7-18 sig=\"class Doc\"",
		"node file src/schemas.ts 1:0-19",
		"node interface src/schemas.ts::ZString 1:18-3 sig=\"interface ZString\" exported",
		"node method src/schemas.ts::Doc::write 16:3-16 sig=\"write(line: string): void\"",
		"node method src/schemas.ts::ZString::upper 2:3-2 sig=\"upper(): ZString\" exported",
		"node method src/schemas.ts::ZString::{}::upper 5:3-7 sig=\"upper()\" exported",
		"node method src/schemas.ts::helpers::trim 10:3-12 sig=\"trim(s: string)\"",
		"node type_alias src/schemas.ts::Shape 14:6-14 sig=\"type Shape\"",
		"node variable src/schemas.ts::helpers 9:7-13 sig=\"helpers\"",
	})
}

// A receiver of known type makes `x.m()` the site `T.m`: an annotated
// parameter (a type parameter stands for its constraint), `new T()`, `as T`, a
// class field or parameter property through `this`, a local assigned a call
// (the path to the function whose return type it holds), locals of callbacks.
// Untyped locals and parameters are locals: they shadow the file's names.
func TestTypeScriptTypedReceivers(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/client.ts", `import { Query } from "./query";
import { QueryCache } from "./cache";
import * as core from "./core";

export class Client {
  #cache: QueryCache;
  constructor(private readonly store: core.Store, plain: QueryCache) {}

  run<S extends Query>(q: Query | undefined, s: S, raw) {
    q.fetch();
    s.cancel();
    raw.fetch();
    const c = new QueryCache();
    c.clear();
    this.#cache.find();
    this.store.save();
    const built = this.#cache.build();
    built.fetch();
    [1].forEach((n) => {
      const inner = built as Query;
      inner.reset();
    });
  }
}
`, "unresolved calls ")
	expectLines(t, got, []string{
		"unresolved calls src/client.ts::Client::run -> <expr>.forEach @19:5",
		"unresolved calls src/client.ts::Client::run -> Query.cancel @11:5",
		"unresolved calls src/client.ts::Client::run -> Query.fetch @10:5",
		"unresolved calls src/client.ts::Client::run -> Query.reset @21:7",
		"unresolved calls src/client.ts::Client::run -> QueryCache @13:19",
		"unresolved calls src/client.ts::Client::run -> QueryCache.build.fetch @18:5",
		"unresolved calls src/client.ts::Client::run -> QueryCache.build @17:19",
		"unresolved calls src/client.ts::Client::run -> QueryCache.clear @14:5",
		"unresolved calls src/client.ts::Client::run -> QueryCache.find @15:5",
		"unresolved calls src/client.ts::Client::run -> core.Store.save @16:5",
		"unresolved calls src/client.ts::Client::run -> raw.fetch @12:5",
	})
}

// A type named through a namespace import is a use of the module's member; a
// member of a member is a use written whole.
func TestTypeScriptQualifiedTypeReferences(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/locale.ts", `import type * as errors from "./errors";
import * as core from "./core";

const error = (issue: errors.Issue): string => {
  return core.config.locale;
};
`, "unresolved references ")
	expectLines(t, got, []string{
		"unresolved references src/locale.ts::error -> core.config @5:10",
		"unresolved references src/locale.ts::error -> core.config.locale @5:10",
		"unresolved references src/locale.ts::error -> errors.Issue @4:23",
	})
}

// An untyped parameter of a function passed as argument i of a call holds what
// the callee declares: the type path `f.(i,j)`, `T.constructor.(i,j)` for `new T`.
func TestTypeScriptCallbackParameters(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/map.ts", `import { operate } from "./lift";
import { Observable } from "./Observable";

export function map(project) {
  return operate((source, subscriber) => {
    subscriber.next(project(1));
  });
}

export function never() {
  return new Observable((s) => s.complete());
}
`, "unresolved calls ")
	expectLines(t, got, []string{
		"unresolved calls src/map.ts::map -> operate @5:10",
		"unresolved calls src/map.ts::map -> operate.(0,1).next @6:5",
		"unresolved calls src/map.ts::map -> project @6:21",
		"unresolved calls src/map.ts::never -> Observable @11:14",
		"unresolved calls src/map.ts::never -> Observable.constructor.(0,0).complete @11:32",
	})
}
