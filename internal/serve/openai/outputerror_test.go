package openai

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/declarative"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// garbledAgent is the fake agent's adapter reporting a line it could not read, as
// the claude and codex adapters do for a line that is not a record.
type garbledAgent struct{ *declarative.Adapter }

// Run runs the agent read by this adapter: the embedded Run would read with the
// declarative.Adapter's own ParseOutput.
func (g garbledAgent) Run(ctx context.Context, req *backend.Request, emit func(backend.Event)) (backend.Result, error) {
	return cli.RunProcess(ctx, g, req, emit)
}

const garbledLine = `fake printed a line that is not a JSON record: "Segmentation fault"`

func (g garbledAgent) ParseOutput(stdout []byte, req *backend.Request) backend.Result {
	res := g.Adapter.ParseOutput(stdout, req)
	res.OutputError = garbledLine
	return res
}

// On /v1 the answer stays what could be read, and output_error quotes the line
// that could not: on the completion, or on a stream's finishing chunk; plain or
// checked against a schema.
func TestCLIUnreadableOutputIsOutputError(t *testing.T) {
	t.Parallel()
	srv, _ := cliServerOpts(t, "testdata/fake-chat.toml", func(o *Options) {
		o.Backend = garbledAgent{o.Backend.(*declarative.Adapter)}
	}, "Bonjour", "Bonjour", `{"city":"Lyon","temp":18}`)

	resp, body := post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Salut"}]}`)
	v := decode(t, body)
	if resp.StatusCode != 200 || at(v, "choices", 0, "message", "content") != "Bonjour" || at(v, "output_error") != garbledLine {
		t.Errorf("plain: %d %s", resp.StatusCode, body)
	}

	_, body = post(t, srv, chatPath, `{"stream":true,"messages":[{"role":"user","content":"Salut"}]}`)
	evs := events(t, body)
	if len(evs) < 2 || evs[len(evs)-1] != "[DONE]" {
		t.Fatalf("stream %q", evs)
	}
	finishing := decode(t, []byte(evs[len(evs)-2]))
	if at(finishing, "choices", 0, "finish_reason") != "stop" || at(finishing, "output_error") != garbledLine {
		t.Errorf("the finishing chunk %s", evs[len(evs)-2])
	}
	for _, e := range evs[:len(evs)-2] {
		if strings.Contains(e, "output_error") {
			t.Errorf("output_error before the end: %s", e)
		}
	}

	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"Weather?"}],`+citySchema+`}`)
	v = decode(t, body)
	if at(v, "choices", 0, "message", "content") != `{"city":"Lyon","temp":18}` || at(v, "output_error") != garbledLine {
		t.Errorf("schema: %s", body)
	}
}

// Every field of a chat.completion we send is a property of openapi.json's
// ChatCompletion, output_error included.
func TestOpenAPIChatCompletionHasEveryField(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Schemas["ChatCompletion"].Properties
	rt := reflect.TypeFor[completion]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if _, ok := props[name]; !ok {
			t.Errorf("ChatCompletion in openapi.json has no property %q (completion.%s)", name, rt.Field(i).Name)
		}
	}
}
