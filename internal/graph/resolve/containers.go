package resolve

import "strings"

// containerMethods are, per language family, the methods of the built-in
// containers and strings, each with the type that has it first in the list:
// a call `x.get()` on a receiver of unknown type most likely means dict.get,
// not the project's only method named get (oauthlib: 31 false callers of
// its `get` before this). Such a call is matched by name only with evidence,
// a receiver whose type is known, and otherwise stays unresolved saying why.
var containerMethods = map[string]map[string]string{
	"python": methodOwners(
		"dict", "get items keys values update pop popitem setdefault clear copy fromkeys",
		"list", "append extend insert remove index count sort reverse",
		"set", "add discard union intersection difference symmetric_difference issubset issuperset isdisjoint",
		"str", "join split rsplit splitlines strip lstrip rstrip format format_map replace startswith endswith "+
			"find rfind lower upper casefold title capitalize center ljust rjust zfill expandtabs partition "+
			"rpartition translate maketrans encode removeprefix removesuffix isalpha isdigit isalnum isspace "+
			"isupper islower istitle isidentifier isnumeric isdecimal isprintable",
		"bytes", "decode hex",
	),
	"js": methodOwners(
		"Array", "push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf includes "+
			"find findIndex findLast findLastIndex filter map forEach reduce reduceRight some every flat flatMap "+
			"fill at copyWithin entries keys values toSorted toReversed toSpliced with",
		"Map", "get set has delete clear",
		"Set", "add",
		"Promise", "then catch finally",
		"String", "charAt charCodeAt codePointAt endsWith startsWith match matchAll normalize padEnd padStart "+
			"repeat replace replaceAll search split substring substr toLowerCase toUpperCase trim trimStart "+
			"trimEnd localeCompare",
		"Object", "hasOwnProperty isPrototypeOf propertyIsEnumerable toString toLocaleString valueOf",
		"Function", "call apply bind",
	),
}

// methodOwners reads pairs of a type and its space-separated methods; a method
// already listed keeps its first type.
func methodOwners(pairs ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		for _, m := range strings.Fields(pairs[i+1]) {
			if _, ok := out[m]; !ok {
				out[m] = pairs[i]
			}
		}
	}
	return out
}

// containerOutcome is the verdict on a call `recv.name()` whose receiver's type
// is unknown, when name is a built-in container's method in the family.
func containerOutcome(fam, name string) (outcome, bool) {
	owner, ok := containerMethods[fam][name]
	if !ok {
		return outcome{}, false
	}
	return outcome{reason: "receiver of unknown type, and " + name + " is also a built-in method (" +
		owner + "." + name + "): not matched by name"}, true
}
