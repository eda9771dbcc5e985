package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/jsonkeys"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// chatRequest is the body of POST /v1/chat/completions. Fields OpenAI defines that
// change nothing here (user, metadata, store, seed, logit_bias...) are accepted and
// ignored, as is any field we do not know: clients and proxies (LiteLLM, Open WebUI)
// send their own, and refusing them would break the clients this endpoint is for.
type chatRequest struct {
	Model         string                 `json:"model"`
	Messages      []native.OpenAIMessage `json:"messages"`
	Stream        bool                   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools               []native.OpenAITool `json:"tools"`
	ToolChoice          json.RawMessage     `json:"tool_choice"`
	ResponseFormat      *responseFormat     `json:"response_format"`
	ReasoningEffort     string              `json:"reasoning_effort"`
	Temperature         *float64            `json:"temperature"`
	MaxTokens           int                 `json:"max_tokens"`
	MaxCompletionTokens int                 `json:"max_completion_tokens"`
	N                   *int                `json:"n"`
}

type responseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict *bool           `json:"strict"`
	} `json:"json_schema"`
}

// chat is a checked request, ready for a backend.
type chat struct {
	req      chatRequest
	messages []llm.Message
	tools    []llm.ToolSpec
	choice   llm.ToolChoice
	// schema is the final answer's schema (response_format), nil for free text.
	schema *structured.Schema
	// model is what the backend gets: the request's name without a provider prefix
	// ("openai/x" is x), empty for the default.
	model string
	// hdr holds the run headers (X-Albert-Code-*, X-Aicodebox-*).
	hdr *runHeaders
	// images are the image_url parts, for a CLI agent's workspace; the messages
	// name them by their mark.
	images []image
}

// includeUsage reports whether a stream ends with a usage chunk.
func (c *chat) includeUsage() bool {
	return c.req.StreamOptions != nil && c.req.StreamOptions.IncludeUsage
}

// toolsActive reports whether the model may call the client's tools.
func (c *chat) toolsActive() bool { return len(c.tools) > 0 && c.choice.Mode != llm.ToolChoiceNone }

// decodeChat reads and checks a request body. Every refusal names the field at fault.
func decodeChat(r *http.Request, limit int64) (*chat, *apiError) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Type: typeInvalid, Code: ptr("request_too_large"),
				Message: fmt.Sprintf("the request body is larger than %d bytes, this server's limit", limit)}
		}
		return nil, badRequest("", "read the request body: %v", err)
	}
	c := &chat{}
	if err := json.Unmarshal(body, &c.req); err != nil {
		return nil, decodeError(err)
	}
	// encoding/json keeps the last of two equal keys without a word: refuse them.
	var dup *jsonkeys.DuplicateError
	if err := jsonkeys.Find(body); errors.As(err, &dup) {
		return nil, badRequest(strings.TrimPrefix(dup.Path+"."+dup.Key, "."), "%v", dup)
	}
	q := &c.req
	if q.N != nil && *q.N != 1 {
		return nil, badRequest("n", "n is %d: this server answers with one choice, send n=1 or leave it out", *q.N)
	}
	if len(q.Messages) == 0 {
		return nil, badRequest("messages", "messages is required and must hold at least one message")
	}
	var aerr *apiError
	if c.images, aerr = takeImages(q.Messages); aerr != nil {
		return nil, aerr
	}
	if c.messages, err = native.MessagesFromOpenAI(q.Messages); err != nil {
		return nil, badRequest(paramOf(err.Error(), "messages"), "%v", err)
	}
	if !slices.ContainsFunc(c.messages, func(m llm.Message) bool { return m.Role != llm.RoleSystem }) {
		return nil, badRequest("messages", "messages holds only system (or developer) messages: add the user message to answer")
	}
	if c.tools, err = native.ToolsFromOpenAI(q.Tools); err != nil {
		return nil, badRequest(paramOf(err.Error(), "tools"), "%v", err)
	}
	if c.choice, err = native.ToolChoiceFromOpenAI(q.ToolChoice); err != nil {
		return nil, badRequest("tool_choice", "%v", err)
	}
	if err := c.choice.Check(c.tools); err != nil {
		return nil, badRequest("tool_choice", "%v", err)
	}
	if q.StreamOptions != nil && !q.Stream {
		return nil, badRequest("stream_options", "stream_options is only allowed with stream: true")
	}
	if c.schema, err = schemaOf(q.ResponseFormat); err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			return nil, ae
		}
		return nil, badRequest("response_format", "%v", err)
	}
	if q.MaxCompletionTokens == 0 {
		q.MaxCompletionTokens = q.MaxTokens
	}
	c.model = q.Model
	return c, nil
}

// schemaOf compiles response_format: json_object is any object, json_schema its schema.
func schemaOf(rf *responseFormat) (*structured.Schema, error) {
	if rf == nil {
		return nil, nil
	}
	var raw json.RawMessage
	switch rf.Type {
	case "", "text":
		return nil, nil
	case "json_object":
		raw = json.RawMessage(`{"type":"object"}`)
	case "json_schema":
		if rf.JSONSchema == nil {
			return nil, badRequest("response_format.json_schema", `response_format.json_schema is required with type json_schema: {"name": ..., "schema": {...}}`)
		}
		raw = bytes.TrimSpace(rf.JSONSchema.Schema)
		if len(raw) == 0 {
			return nil, badRequest("response_format.json_schema.schema", "response_format.json_schema.schema is required: the JSON Schema the answer must match")
		}
	default:
		return nil, badRequest("response_format.type", "response_format.type %q: want text, json_object or json_schema", rf.Type)
	}
	s, err := structured.Compile(raw)
	if err != nil {
		return nil, badRequest("response_format.json_schema.schema", "response_format.json_schema.schema: %v", err)
	}
	return s, nil
}

// decodeError names the field of a JSON error, as far as encoding/json tells it.
func decodeError(err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return badRequest(typeErr.Field, "%s: a JSON %s where a %s is wanted", typeErr.Field, typeErr.Value, typeName(typeErr))
	case errors.As(err, &syntaxErr):
		return badRequest("", "the request body is not JSON: %v (at byte %d)", err, syntaxErr.Offset)
	}
	return badRequest("", "the request body: %v", err)
}

func typeName(e *json.UnmarshalTypeError) string {
	switch e.Type.Kind().String() {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	case "struct", "map":
		return "object"
	case "int", "int64", "float64", "ptr":
		return "number"
	}
	return e.Type.String()
}

// paramOf takes the field an error message starts with ("messages[2].content: ...").
func paramOf(msg, fallback string) string {
	if i := strings.IndexAny(msg, " :"); i > 0 && strings.HasPrefix(msg, fallback) {
		return msg[:i]
	}
	return fallback
}
