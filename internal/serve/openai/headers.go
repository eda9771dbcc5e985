package openai

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/serve/structured"
)

// runHeaders are the request headers that carry what the OpenAI body has no field
// for, under our names (X-Albert-Code-*) or the original's (X-Aicodebox-*, and
// X-Claude-* for the three it had first). An empty header counts as absent.
type runHeaders struct {
	schema       *structured.Schema // json-schema: used when the body has no response_format
	extraArgs    []string
	allowlist    []string
	noTools      *bool // nil: the endpoint's default (off with emulated tools)
	resume       string
	continued    bool
	appendSystem string
	timeout      time.Duration
	// given lists the names of the agent-run headers the request sent (not
	// json-schema nor timeout, which every backend honours).
	given []string
}

// header is one setting and the names a client may send it under, ours first: the
// first present wins.
type header struct{ names []string }

func names(suffix string, legacyClaude bool) header {
	h := header{names: []string{"X-Albert-Code-" + suffix, "X-Aicodebox-" + suffix}}
	if legacyClaude {
		h.names = append(h.names, "X-Claude-"+suffix)
	}
	return h
}

var (
	hdrJSONSchema   = names("Json-Schema", false)
	hdrExtraArgs    = names("Extra-Args", false)
	hdrAllowlist    = names("Tools-Allowlist", false)
	hdrNoTools      = names("No-Tools", false)
	hdrResume       = names("Resume", false)
	hdrContinue     = names("Continue", true)
	hdrAppendSystem = names("Append-System-Prompt", true)
	// The original's name is timeout-seconds; the shorter one is accepted too.
	hdrTimeout = header{names: []string{"X-Albert-Code-Timeout-Seconds", "X-Albert-Code-Timeout", "X-Aicodebox-Timeout-Seconds", "X-Aicodebox-Timeout"}}
)

// value returns the first non-empty value among h's names, and the name it came under.
func (h header) value(r *http.Request) (name, v string, ok bool) {
	for _, n := range h.names {
		if v := strings.TrimSpace(r.Header.Get(n)); v != "" {
			return n, v, true
		}
	}
	return "", "", false
}

// readHeaders reads and checks the run headers. A malformed value is a 400 that
// names the header and the format wanted.
func readHeaders(r *http.Request) (*runHeaders, *apiError) {
	h := &runHeaders{}
	if name, v, ok := hdrJSONSchema.value(r); ok {
		raw := json.RawMessage(v)
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return nil, badRequest(name, "%s: want a JSON Schema as a JSON object on one line, got %s", name, quoteCut(v))
		}
		s, err := structured.Compile(raw)
		if err != nil {
			return nil, badRequest(name, "%s: %v", name, err)
		}
		h.schema = s
	}
	var aerr *apiError
	if h.extraArgs, aerr = listHeader(r, hdrExtraArgs, &h.given); aerr != nil {
		return nil, aerr
	}
	if h.allowlist, aerr = listHeader(r, hdrAllowlist, &h.given); aerr != nil {
		return nil, aerr
	}
	if name, v, ok := hdrNoTools.value(r); ok {
		b, aerr := boolHeader(name, v)
		if aerr != nil {
			return nil, aerr
		}
		h.noTools, h.given = &b, append(h.given, name)
	}
	if name, v, ok := hdrContinue.value(r); ok {
		b, aerr := boolHeader(name, v)
		if aerr != nil {
			return nil, aerr
		}
		h.continued, h.given = b, append(h.given, name)
	}
	if name, v, ok := hdrResume.value(r); ok {
		h.resume, h.given = v, append(h.given, name)
	}
	if name, v, ok := hdrAppendSystem.value(r); ok {
		h.appendSystem, h.given = v, append(h.given, name)
	}
	if name, v, ok := hdrTimeout.value(r); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return nil, badRequest(name, "%s: want a whole number of seconds above 0, got %s", name, quoteCut(v))
		}
		h.timeout = time.Duration(n) * time.Second
	}
	return h, nil
}

// boolHeader reads 1, true, yes (the original's true) or 0, false, no, in any case.
func boolHeader(name, v string) (bool, *apiError) {
	switch strings.ToLower(v) {
	case "1", "true", "yes":
		return true, nil
	case "0", "false", "no":
		return false, nil
	}
	return false, badRequest(name, "%s: want 1, true or yes (or 0, false or no), got %s", name, quoteCut(v))
}

// listHeader reads a JSON array of strings, or comma-separated items (spaces around
// them trimmed, empty ones dropped), as the original did.
func listHeader(r *http.Request, h header, given *[]string) ([]string, *apiError) {
	name, v, ok := h.value(r)
	if !ok {
		return nil, nil
	}
	*given = append(*given, name)
	if strings.HasPrefix(v, "[") {
		var items []string
		if err := json.Unmarshal([]byte(v), &items); err != nil {
			return nil, badRequest(name, `%s: want a JSON array of strings (["a","b"]) or comma-separated items (a,b), got %s`, name, quoteCut(v))
		}
		return items, nil
	}
	var items []string
	for item := range strings.SplitSeq(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items, nil
}

// quoteCut quotes a header value for a message, cut to a readable length.
func quoteCut(v string) string { return strconv.Quote(cut(v, 80)) }

// refuseAgentHeaders answers a request to the native backend that sent headers
// only a CLI agent can honour: each request there is one model call, without
// sessions, agent tools or argv.
func (h *runHeaders) refuseAgentHeaders() *apiError {
	if len(h.given) == 0 {
		return nil
	}
	name := h.given[0]
	return badRequest(name, "%s: the native adapter answers each request with one model call, without sessions, tools of its own or command-line arguments; leave the header out, or serve a CLI agent (ALBERT_CODE_ADAPTER)", name)
}
