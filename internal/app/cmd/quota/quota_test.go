package quota

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/albert"
	"github.com/etalab-ia/albert-code/internal/app/cmdtest"
	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
)

func withReports(t *testing.T, reports ...albert.Report) (*Options, *strings.Builder) {
	t.Helper()
	f, _, _ := cmdtest.Factory(t)
	var out strings.Builder
	f.IO.Out = &out
	return &Options{IO: f.IO, Reports: func(context.Context) ([]albert.Report, error) { return reports, nil }}, &out
}

func TestFlags(t *testing.T) {
	f, _, _ := cmdtest.Factory(t)
	var got *Options
	if err := cmdtest.Run(NewCmdQuota(f, func(o *Options) error { got = o; return nil }), "--json"); err != nil || !got.JSON {
		t.Fatalf("--json: %+v %v", got, err)
	}
	if err := cmdtest.Run(NewCmdQuota(f, func(*Options) error { t.Fatal("ran"); return nil }), "albert"); err == nil {
		t.Fatal("an argument was taken")
	}
}

// One provider read is enough to succeed; the JSON lists every provider with its
// errors.
func TestJSONAndTheExitCode(t *testing.T) {
	ok := albert.Report{Provider: "albert", BaseURL: "https://albert.example/v1"}
	down := albert.Report{Provider: "other", Errors: []string{"GET /v1/me/usage: 503"}}
	opts, out := withReports(t, down, ok)
	opts.JSON = true
	if err := run(context.Background(), opts); err != nil {
		t.Fatalf("one provider read: %v", err)
	}
	var doc struct {
		Providers []albert.Report `json:"providers"`
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || len(doc.Providers) != 2 || doc.Providers[0].Errors[0] != "GET /v1/me/usage: 503" {
		t.Fatalf("json: %v\n%s", err, out.String())
	}

	opts, out = withReports(t, down)
	err := run(context.Background(), opts)
	var exit *cmdutil.Exit
	if !errors.As(err, &exit) || exit.Code != cmdutil.ExitError || !strings.Contains(err.Error(), "no quota provider could be read") {
		t.Fatalf("none read: %v", err)
	}
	if !strings.Contains(out.String(), "503") {
		t.Fatalf("the provider's error is not printed:\n%s", out.String())
	}
}

func TestTextSeparatesProviders(t *testing.T) {
	opts, out := withReports(t, albert.Report{Provider: "a", Errors: []string{"x"}}, albert.Report{Provider: "b", Errors: []string{"y"}})
	_ = run(context.Background(), opts)
	if !strings.Contains(out.String(), "not available: x\n\nProvider b") {
		t.Fatalf("text:\n%s", out.String())
	}
}
