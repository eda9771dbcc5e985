package resolve_test

import "testing"

// `x.m` on a value whose type is an alias of a union names m in each member
// that declares it (the checker's count), through imports and member chains:
// one site, one edge per member, at the union's confidence.
func TestTypeScriptUnionMembers(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"src/actions.ts": `export interface PendingAction { type: 'pending'; variables: string }
export interface FailedAction { type: 'failed'; error: Error }
export interface Internals { def: PendingAction }
export interface Schema { _zod: Internals }
export interface Other { _zod: { def: FailedAction } }
export type Action = PendingAction | FailedAction
export type Schemas = Schema | Other
`,
		"src/mutation.ts": `import { Action } from "./actions"
import * as actions from "./actions"
export class Mutation {
  dispatch(action: Action): void {
    if (action.type === 'failed') { this.fail(action.error) }
  }
  fail(e: unknown): void {}
  read(s: unknown): string {
    return (s as actions.Schemas)._zod.def.variables
  }
}
`,
	})
	const dispatch = "src/mutation.ts::Mutation::dispatch"
	expect(t, "references of PendingAction.type (a member of the union)",
		related(t, st, "references", "src/actions.ts::PendingAction::type"), dispatch+"@5 [import]")
	expect(t, "references of FailedAction.type (another member)",
		related(t, st, "references", "src/actions.ts::FailedAction::type"), dispatch+"@5 [import]")
	expect(t, "references of FailedAction.error (the one member that declares it)",
		related(t, st, "references", "src/actions.ts::FailedAction::error"), dispatch+"@5 [import]")
	expect(t, "references of Schema._zod (a cast to a union)",
		related(t, st, "references", "src/actions.ts::Schema::_zod"), "src/mutation.ts::Mutation::read@9 [import]")
	expect(t, "references of PendingAction.variables (a member chain from a union)",
		related(t, st, "references", "src/actions.ts::PendingAction::variables"), "src/mutation.ts::Mutation::read@9 [import]")
}
