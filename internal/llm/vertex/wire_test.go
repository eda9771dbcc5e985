package vertex

import (
	"errors"
	"net/http"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// Errors sometimes come as a one-element array; a proxy's page is shown as is.
func TestErrorBodyShapes(t *testing.T) {
	for name, tt := range map[string]struct {
		body, message string
	}{
		"array":       {`[{"error": {"code": 404, "message": "models/x is not found", "status": "NOT_FOUND"}}]`, "models/x is not found"},
		"not JSON":    {" upstream connect error \n", "upstream connect error"},
		"status only": {`{"error": {"code": 404, "status": "NOT_FOUND"}}`, "NOT_FOUND"},
	} {
		s := providertest.New(t, providertest.Error(http.StatusNotFound, tt.body, nil))
		_, _, err := stream(t, newProvider(s), hello())
		var apiErr *llm.APIError
		if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Message != tt.message || apiErr.URL != s.URL {
			t.Errorf("%s: err = %#v", name, err)
		}
	}
}

func TestEndpoints(t *testing.T) {
	if got := New(Options{Project: "p", Location: "global"}).name; got != "https://aiplatform.googleapis.com" {
		t.Errorf("global root = %s", got)
	}
	if got := New(Options{Project: "p", Location: "europe-west9"}).name; got != "https://europe-west9-aiplatform.googleapis.com" {
		t.Errorf("regional root = %s", got)
	}
	if got := New(Options{APIKey: "k"}).name; got != "https://generativelanguage.googleapis.com" {
		t.Errorf("Gemini API root = %s", got)
	}
	s := providertest.New(t, providertest.SSE("testdata/text.sse"))
	req := hello()
	req.Model = "models/gemini-2.5-flash"
	if _, _, err := stream(t, newProvider(s), req); err != nil {
		t.Fatal(err)
	}
	if r := s.Requests()[0]; r.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" {
		t.Errorf("path %s", r.Path)
	}
}

func TestFinishReasons(t *testing.T) {
	for in, want := range map[string]string{
		"STOP": "stop", "MAX_TOKENS": "length", "IMAGE_PROHIBITED_CONTENT": "content_filter",
		"RECITATION": "content_filter", "MALFORMED_FUNCTION_CALL": "malformed_function_call",
	} {
		if got := finishReason(in, false); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	if got := finishReason("STOP", true); got != "tool_calls" {
		t.Errorf("STOP after calls: %s", got)
	}
}

// Without a temperature, a cap or thinking, no generationConfig is sent.
func TestNoEmptyGenerationConfig(t *testing.T) {
	body, err := buildRequest(hello())
	if err != nil || body.GenerationConfig != nil {
		t.Errorf("generationConfig = %+v, err %v", body.GenerationConfig, err)
	}
}
