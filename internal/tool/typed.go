package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Def declares a tool whose arguments decode into P. The JSON Schema the model sees is
// generated from P's fields: `json` tags name them, `jsonschema` tags describe them, and
// fields without `omitempty` are required.
type Def[P any] struct {
	Info Info
	Run  func(ctx context.Context, call Call, p P) (Result, error)
	// Paths, when set, lists the files a call touches (for permission checks).
	Paths func(p P) []string
}

// New builds a Tool from a typed definition. It panics if P cannot be described as a
// JSON Schema object: that is a programming error found by any test that builds the tool.
func New[P any](d Def[P]) Tool {
	if d.Info.Schema == nil {
		raw, err := SchemaFor[P]()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", d.Info.Name, err))
		}
		d.Info.Schema = raw
	}
	t := &typed[P]{def: d}
	// Arguments are validated against the schema of P: types and required fields.
	// Bounds and enums a tool adds to Info.Schema for the model are left to the tool,
	// whose own messages say more than a schema validator's. Resolving costs more than
	// writing, and most tools are not called in a run: resolve on first use.
	t.resolve = sync.OnceValue(func() *jsonschema.Resolved {
		raw, err := SchemaFor[P]()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", d.Info.Name, err))
		}
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			panic(fmt.Sprintf("tool %s: schema is not valid JSON Schema: %v", d.Info.Name, err))
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s: resolve schema: %v", d.Info.Name, err))
		}
		return resolved
	})
	return t
}

type typed[P any] struct {
	def     Def[P]
	resolve func() *jsonschema.Resolved
}

func (t *typed[P]) Info() Info { return t.def.Info }

// Prepare resolves the validation schema ahead of the first call.
func (t *typed[P]) Prepare() { t.resolve() }

func (t *typed[P]) Run(ctx context.Context, call Call) (Result, error) {
	p, bad := t.decode(call.Args)
	if bad != "" {
		return Errorf("invalid arguments for %s: %s", t.def.Info.Name, bad), nil
	}
	return t.def.Run(ctx, call, p)
}

func (t *typed[P]) Paths(args json.RawMessage) []string {
	if t.def.Paths == nil {
		return nil
	}
	p, bad := t.decode(args)
	if bad != "" {
		return nil
	}
	return t.def.Paths(p)
}

// decode validates args against the schema and decodes them. It returns a message
// for the model when they do not fit.
func (t *typed[P]) decode(args json.RawMessage) (P, string) {
	var p P
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	var instance any
	if err := json.Unmarshal(args, &instance); err != nil {
		return p, fmt.Sprintf("arguments are not valid JSON (%v); send one JSON object", err)
	}
	if err := t.resolve().Validate(instance); err != nil {
		return p, err.Error()
	}
	if err := json.Unmarshal(args, &p); err != nil {
		return p, err.Error()
	}
	return p, ""
}
