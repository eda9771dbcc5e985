package native

import (
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakemodel"
)

func TestCheckModelAndModelsKnowTheServersList(t *testing.T) {
	w := newWorld(t)
	if err := w.native.CheckModel("qwen"); err != nil {
		t.Fatalf("a configured model: %v", err)
	}
	if err := w.native.CheckModel(fakemodel.DefaultModelID); err != nil {
		t.Fatalf("a model the server lists: %v", err)
	}
	err := w.native.CheckModel("gpt-17")
	if err == nil || !strings.Contains(err.Error(), `unknown model "gpt-17"`) || !strings.Contains(err.Error(), "serves "+fakemodel.DefaultModelID) {
		t.Fatalf("unknown model: %v, want the server's models named", err)
	}
	if models := w.native.Models(); !slices.Contains(models, fakemodel.DefaultModelID) || !slices.Contains(models, "qwen") {
		t.Fatalf("Models = %v, want the configured models and the server's", models)
	}
}
