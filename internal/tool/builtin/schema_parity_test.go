package builtin

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/etalab-ia/albert-code/internal/tool"
)

// parity checks that tool.SchemaFor, our fast generator, says exactly what
// jsonschema-go's reflection says for P.
func parity[P any](t *testing.T) {
	t.Helper()
	ours, err := tool.SchemaFor[P]()
	if err != nil {
		t.Fatalf("%T: %v", *new(P), err)
	}
	lib, err := jsonschema.For[P](nil)
	if err != nil {
		t.Fatal(err)
	}
	libRaw, err := json.Marshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(ours, &a); err != nil {
		t.Fatalf("%T: our schema is not JSON: %v\n%s", *new(P), err, ours)
	}
	if err := json.Unmarshal(libRaw, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%T:\nours    %s\nlibrary %s", *new(P), ours, libRaw)
	}
}

type parityExotic struct {
	Name    string            `json:"name" jsonschema:"a \"quoted\" description"`
	Ptr     *int              `json:"ptr,omitempty"`
	Floats  []float64         `json:"floats"`
	Labels  map[string]string `json:"labels,omitempty"`
	Nested  struct{ X bool }  `json:"nested"`
	Any     any               `json:"any,omitempty"`
	Skipped string            `json:"-"`
	hidden  int
	Count   int64
}

func TestSchemaForMatchesTheLibrary(t *testing.T) {
	t.Parallel()
	parity[AskParams](t)
	parity[BashParams](t)
	parity[EditParams](t)
	parity[GlobParams](t)
	parity[GrepParams](t)
	parity[ReadParams](t)
	parity[TaskParams](t)
	parity[TodoParams](t)
	parity[WebFetchParams](t)
	parity[WebSearchParams](t)
	parity[WriteParams](t)
	parity[parityExotic](t)
	_ = parityExotic{}.hidden
}
