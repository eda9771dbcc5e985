package api

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes the API (OpenAPI 3.1). A test checks that it lists every
// route the server registers, and no other.
//
//go:embed openapi.json
var openAPIDoc []byte

// openapi serves the document without a token: it holds no secret, and clients
// generate their code from it.
func (s *Server) openapi(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIDoc)
}
