package openai

import "net/http"

// Mount serves the endpoint on mux under /v1/ and /openai/v1/.
func (h *Handler) Mount(mux *http.ServeMux) {
	mux.Handle("/v1/", h)
	mux.Handle("/openai/v1/", h)
}

// AuthorizeWith turns an authentication middleware, such as the API's, into an
// Options.Authorize check: a request is authorized when the middleware passes it
// on. Refusals are then answered in OpenAI's error shape, not the middleware's.
func AuthorizeWith(middleware func(http.Handler) http.Handler) func(*http.Request) bool {
	return func(r *http.Request) bool {
		passed := false
		middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed = true })).ServeHTTP(discard{header: http.Header{}}, r)
		return passed
	}
}

// discard is a ResponseWriter that keeps nothing: what a refusing middleware writes
// is replaced by the endpoint's own answer.
type discard struct{ header http.Header }

func (d discard) Header() http.Header       { return d.header }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
