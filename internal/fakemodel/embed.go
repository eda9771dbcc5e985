package fakemodel

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
	"unicode"
)

// embedDim is the length of the fake's embeddings when Script.EmbedDim is zero.
const embedDim = 64

// embedRequest is the body of POST /v1/embeddings: input is a string or a list.
type embedRequest struct {
	Model string          `json:"model"`
	Input json.RawMessage `json:"input"`
}

// embeddings answers POST /v1/embeddings with bag-of-words vectors: each word
// (letters and digits, lower-cased, identifiers split at case changes) adds one
// to a hashed coordinate, and the vector is normalised. Texts sharing words are
// close, as with a real model, and every answer is reproducible.
func (s *Server) embeddings(w http.ResponseWriter, body []byte) {
	if s.script.EmbedFail {
		writeOpenAIError(w, http.StatusServiceUnavailable, "fake model: embeddings are down", "server_error", "unavailable")
		return
	}
	var req embedRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "fake model: embeddings body: "+err.Error(), "invalid_request_error", "invalid_json")
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeOpenAIError(w, http.StatusBadRequest, "fake model: input must be a string or a list of strings", "invalid_request_error", "invalid_input")
			return
		}
		inputs = []string{one}
	}
	dim := s.script.EmbedDim
	if dim <= 0 {
		dim = embedDim
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	out := struct {
		Object string         `json:"object"`
		Data   []item         `json:"data"`
		Model  string         `json:"model"`
		Usage  map[string]int `json:"usage"`
	}{Object: "list", Model: req.Model, Data: []item{}}
	words := 0
	for i, text := range inputs {
		v, n := bagOfWords(text, dim)
		words += n
		out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: v})
	}
	out.Usage = map[string]int{"prompt_tokens": words, "total_tokens": words}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(out); err != nil {
		fmt.Println("fake model: write embeddings:", err)
	}
}

func bagOfWords(text string, dim int) ([]float64, int) {
	v := make([]float64, dim)
	n := 0
	for _, word := range splitWords(text) {
		h := fnv.New32a()
		h.Write([]byte(word))
		v[int(h.Sum32())%dim]++
		n++
	}
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for i := range v {
			v[i] /= norm
		}
	}
	return v, n
}

// splitWords lower-cases text and cuts it into words at non-alphanumerics and
// at lower-to-upper case changes (parseConfig → parse, config).
func splitWords(text string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range text {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}
