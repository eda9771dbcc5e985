package vertex

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// signaturePrefix marks a ReasoningSignature written by this provider, so that an
// Anthropic signature is never sent to Gemini, nor ours to Anthropic.
const signaturePrefix = "gemini:"

// skipSignature is the value Google documents for a function call that has no
// signature of its own, such as one from a conversation begun on another model:
// Gemini 3 refuses a model turn whose first function call carries none.
var skipSignature = []byte("skip_thought_signature_validator")

// signatures are the thought signatures of one model turn: Gemini attaches them
// to parts, and our canonical message has no parts, so they are kept by role.
type signatures struct {
	// Calls maps a tool call's position to its part's signature.
	Calls map[int]string `json:"calls,omitempty"`
	// Text is the signature of the answer's text (or thought) part.
	Text string `json:"text,omitempty"`
}

func (s signatures) empty() bool { return len(s.Calls) == 0 && s.Text == "" }

// encode returns the ReasoningSignature for s, empty when there is none.
func (s signatures) encode() string {
	if s.empty() {
		return ""
	}
	raw, _ := json.Marshal(s) // a map of strings always marshals
	return signaturePrefix + string(raw)
}

// decodeSignatures reads a ReasoningSignature; another provider's, or a damaged
// one, gives none.
func decodeSignatures(sig string) signatures {
	rest, ok := strings.CutPrefix(sig, signaturePrefix)
	var s signatures
	if !ok || json.Unmarshal([]byte(rest), &s) != nil {
		return signatures{}
	}
	return s
}

// bytesOf decodes a signature kept as base64 (its form on the wire).
func bytesOf(sig string) []byte {
	b, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return nil
	}
	return b
}

func stringOf(sig []byte) string { return base64.StdEncoding.EncodeToString(sig) }
