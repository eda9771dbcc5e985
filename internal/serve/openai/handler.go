// Package openai serves the agent behind the OpenAI Chat Completions API, so any
// OpenAI client (an SDK, Open WebUI, LiteLLM) can use it: POST /v1/chat/completions
// streamed or not, with tools and response_format, and GET /v1/models, also under
// /openai/v1/ where the original served them. With the native backend a request is
// one model call with the client's own tools, whose calls come back as real
// tool_calls; with a CLI agent the conversation becomes a prompt and tool calls are
// emulated by a documented JSON protocol.
package openai

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/adapter/cli"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/native"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// DefaultMaxBody bounds a request body; judgement: a long conversation with pasted
// files is a few megabytes, and past this a 413 beats holding it in memory.
const DefaultMaxBody = 16 << 20

// Options configure a Handler. Backend is required; Runner, Root and Locks are for
// CLI adapters.
type Options struct {
	// Backend answers the requests: a completer such as *native.Native (real tool
	// calls), or a CLI cli.Adapter.
	Backend backend.Backend
	// Runner runs CLI adapters; nil means runner.New with defaults.
	Runner *runner.Runner
	// Root resolves the X-Albert-Code-Workspace header; nil refuses the header and
	// runs every CLI request in a throw-away folder.
	Root *workspace.Root
	// Locks queue runs on one workspace; nil means a private set.
	Locks *workspace.Locks
	// TempParent holds the throw-away workspaces; empty means the system's.
	TempParent string
	// Models is what /v1/models lists and requests may name, less the names the
	// backend cannot run; empty means the backend's own list, and when that is
	// empty too any name is passed on.
	Models []string
	// Authorize checks a request's credentials; nil lets every request in.
	Authorize func(*http.Request) bool
	// MaxBody bounds request bodies (413 past it); zero means DefaultMaxBody.
	MaxBody int64
	// Timeout bounds a native model call (the runner bounds CLI runs); zero means
	// runner.DefaultTimeout.
	Timeout time.Duration
	// Logger receives one line per failed request; nil means slog.Default.
	Logger *slog.Logger
	// Now is the clock of the created fields; nil means time.Now.
	Now func() time.Time
}

// completer is a backend that makes single model calls with the client's tools.
type completer interface {
	Complete(ctx context.Context, req native.TurnRequest, emit func(llm.StreamEvent)) (*llm.Response, error)
}

// modeler is a backend that lists its models.
type modeler interface {
	Models() []string
}

// Handler serves the endpoint. It is safe for concurrent use.
type Handler struct {
	opts Options
	mux  *http.ServeMux
}

// New returns a Handler for opts.
func New(opts Options) *Handler {
	if opts.Runner == nil {
		opts.Runner = runner.New(runner.Options{})
	}
	if opts.Locks == nil {
		opts.Locks = workspace.NewLocks(workspace.DefaultMaxWaiters)
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Timeout <= 0 {
		opts.Timeout = runner.DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &Handler{opts: opts, mux: http.NewServeMux()}
	h.warnUnusableModels()
	for _, rt := range h.routes() {
		for _, prefix := range []string{"/v1", "/openai/v1"} {
			h.mux.HandleFunc(rt.method+" "+prefix+rt.path, rt.handler)
		}
	}
	return h
}

type route struct {
	method, path string // path under /v1
	handler      http.HandlerFunc
}

func (h *Handler) routes() []route {
	return []route{
		{"POST", "/chat/completions", h.chatCompletions},
		{"GET", "/models", h.listModels},
		{"GET", "/models/{id...}", h.getModel},
	}
}

// Routes lists the endpoint's routes under /v1 as ServeMux patterns ("GET
// /v1/models"); each is served under /openai/v1 too. /openapi.json's test reads it.
func (h *Handler) Routes() []string {
	var out []string
	for _, rt := range h.routes() {
		out = append(out, rt.method+" /v1"+rt.path)
	}
	return out
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.opts.Authorize != nil && !h.opts.Authorize(r) {
		writeError(w, withCode(&apiError{Status: http.StatusUnauthorized, Type: typeInvalid,
			Message: "missing or invalid bearer token: send Authorization: Bearer <one of the server's API tokens>"}, "invalid_api_key"))
		return
	}
	if _, pattern := h.mux.Handler(r); pattern == "" {
		writeError(w, withCode(&apiError{Status: http.StatusNotFound, Type: typeInvalid,
			Message: fmt.Sprintf("no route %s %s: this endpoint serves POST /v1/chat/completions and GET /v1/models", r.Method, r.URL.Path)}, "unknown_url"))
		return
	}
	h.mux.ServeHTTP(w, r)
}

// models lists the models a request can use, and whether a name outside the list
// is refused. A configured list (Options.Models) is the offer, less the names the
// backend would refuse: the native agent calls only the models of its
// configuration, and an adapter's checks (a declared adapter without {model} in
// its argv) refuse the others. Without one, the backend's own list is the offer,
// and an empty list lets any name through.
func (h *Handler) models() (list []string, closed bool) {
	own := h.backendModels()
	if len(h.opts.Models) == 0 {
		return own, len(own) > 0
	}
	list = []string{}
	for _, m := range h.opts.Models {
		if h.accepts(m, own) {
			list = append(list, m)
		}
	}
	return list, true
}

func (h *Handler) backendModels() []string {
	if m, ok := h.opts.Backend.(modeler); ok {
		return m.Models()
	}
	if a, ok := h.opts.Backend.(cli.Adapter); ok {
		return cli.Models(a)
	}
	return nil
}

// accepts reports whether the backend can run a request naming model m.
func (h *Handler) accepts(m string, own []string) bool {
	switch b := h.opts.Backend.(type) {
	case completer:
		return len(own) == 0 || slices.Contains(own, m)
	case cli.Adapter:
		return cli.Validate(b, &backend.Request{Model: m}) == nil
	}
	return true
}

// warnUnusableModels logs the configured models no request can use, once, at start.
func (h *Handler) warnUnusableModels() {
	list, _ := h.models()
	for _, m := range h.opts.Models {
		if !slices.Contains(list, m) {
			h.opts.Logger.Warn("openai: a configured model is not offered on /v1/models, since the backend cannot run it",
				"model", m, "backend", h.opts.Backend.Name())
		}
	}
}

func (h *Handler) listModels(w http.ResponseWriter, r *http.Request) {
	list := modelList{Object: "list", Data: []modelEntry{}}
	models, _ := h.models()
	for _, id := range models {
		list.Data = append(list.Data, h.entry(id))
	}
	writeJSON(w, http.StatusOK, list)
}

func (h *Handler) getModel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if models, _ := h.models(); !slices.Contains(models, id) {
		writeError(w, h.unknownModel(id))
		return
	}
	writeJSON(w, http.StatusOK, h.entry(id))
}

func (h *Handler) entry(id string) modelEntry {
	return modelEntry{ID: id, Object: "model", OwnedBy: "albert-code:" + h.opts.Backend.Name()}
}

// resolveModel maps a request's model to the backend's: empty or the backend's own
// name is the default, and a provider prefix ("openai/x") is dropped when the
// name with it is not offered but the name without it is.
func (h *Handler) resolveModel(name string) (string, *apiError) {
	if name == "" || name == h.opts.Backend.Name() {
		return "", nil
	}
	models, closed := h.models()
	if !closed || slices.Contains(models, name) {
		return name, nil
	}
	if _, rest, ok := strings.Cut(name, "/"); ok && slices.Contains(models, rest) {
		return rest, nil
	}
	return "", h.unknownModel(name)
}

func (h *Handler) unknownModel(name string) *apiError {
	models, _ := h.models()
	if len(models) == 0 {
		return &apiError{Status: http.StatusNotFound, Type: typeInvalid, Param: ptr("model"), Code: ptr("model_not_found"),
			Message: fmt.Sprintf("the model %q does not exist here, nor does any other: leave model empty (or send %q) for the backend's default", name, h.opts.Backend.Name())}
	}
	shown := models[:min(len(models), 20)]
	msg := fmt.Sprintf("the model %q does not exist here: GET /v1/models lists them (%s", name, strings.Join(shown, ", "))
	if len(shown) < len(models) {
		msg += ", ..."
	}
	return &apiError{Status: http.StatusNotFound, Type: typeInvalid, Message: msg + ")", Param: ptr("model"), Code: ptr("model_not_found")}
}

func (h *Handler) chatCompletions(w http.ResponseWriter, r *http.Request) {
	c, aerr := decodeChat(r, h.opts.MaxBody)
	if aerr == nil {
		c.model, aerr = h.resolveModel(c.req.Model)
	}
	if aerr == nil {
		c.hdr, aerr = readHeaders(r)
	}
	if aerr != nil {
		h.fail(w, r, aerr)
		return
	}
	if c.schema == nil {
		c.schema = c.hdr.schema // the body's response_format wins, as in the original
	}
	ans := h.newAnswer(c)
	if comp, ok := h.opts.Backend.(completer); ok {
		if len(c.images) > 0 {
			im := c.images[0]
			h.fail(w, r, badRequest(im.param, "%s: images are taken by CLI agents, which read them as files; the native adapter sends the model text only", im.param))
			return
		}
		if aerr := c.hdr.refuseAgentHeaders(); aerr != nil {
			h.fail(w, r, aerr)
			return
		}
		h.serveNative(w, r, comp, c, ans)
		return
	}
	a, ok := h.opts.Backend.(cli.Adapter)
	if !ok {
		h.fail(w, r, &apiError{Status: http.StatusInternalServerError, Type: typeServer,
			Message: fmt.Sprintf("backend %s can neither complete nor run", h.opts.Backend.Name())})
		return
	}
	h.serveCLI(w, r, a, c, ans)
}

// fail answers with e, logged; nil (a client gone) answers nothing.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, e *apiError) {
	if e == nil {
		return
	}
	h.opts.Logger.Info("openai: request refused", "path", r.URL.Path, "status", e.Status, "error", e.Message)
	writeError(w, e)
}

// newAnswer starts the answer's identity: id, created time, echoed model.
func (h *Handler) newAnswer(c *chat) *answer {
	model := c.req.Model
	if model == "" {
		model = h.opts.Backend.Name()
	}
	return &answer{id: newID("chatcmpl-"), created: h.opts.Now().Unix(), model: model}
}
