package treesitter

import "testing"

// A type alias of a union leaves one UnionMember site per named member type
// (parentheses and nested unions flattened, literals and built-ins dropped),
// never resolved by the walker, even for a member the file defines.
func TestTypeScriptUnionMembers(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/mutation.ts", `import * as errors from './errors'
interface PendingAction { type: 'pending' }
export type Action<T> = PendingAction | (errors.ErrorAction<T> | 'idle') | null | SuccessAction<T>
type Single = PendingAction
`, "unresolved union_member ")
	expectLines(t, got, []string{
		"unresolved union_member src/mutation.ts::Action -> PendingAction @3:25",
		"unresolved union_member src/mutation.ts::Action -> SuccessAction @3:83",
		"unresolved union_member src/mutation.ts::Action -> errors.ErrorAction @3:42",
	})
}

// A member of a cast (`(s as T).a`) is a use of T's a, and a local holding a
// member chain takes its path as its type, so `def.type` is `T._zod.def.type`.
func TestTypeScriptMemberOfCast(t *testing.T) {
	t.Parallel()
	got := tsFacts(t, "src/json.ts", `import * as schemas from './schemas'
export function isTransforming(s: unknown): boolean {
  const def = (s as schemas.$ZodTypes)._zod.def
  return def.type === 'transform'
}
`, "unresolved references ")
	expectLines(t, got, []string{
		"unresolved references src/json.ts::isTransforming -> schemas.$ZodTypes @3:21",
		"unresolved references src/json.ts::isTransforming -> schemas.$ZodTypes._zod @3:15",
		"unresolved references src/json.ts::isTransforming -> schemas.$ZodTypes._zod.def @3:15",
		"unresolved references src/json.ts::isTransforming -> schemas.$ZodTypes._zod.def.type @4:10",
	})
}
