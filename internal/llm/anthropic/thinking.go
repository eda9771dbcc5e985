package anthropic

import (
	"encoding/json"
	"strings"
)

// signaturePrefix marks a ReasoningSignature written by this provider. Another
// provider's signature (a Gemini thought signature) is never sent here, and ours
// never there: each would be refused.
const signaturePrefix = "anthropic:"

// thinkingBlock is one thinking or redacted_thinking block of an assistant turn.
type thinkingBlock struct {
	text      string
	signature string
	// redacted is the encrypted data of a redacted_thinking block.
	redacted string
}

// wireBlock is a block's record in ReasoningSignature. The visible thinking text
// is not repeated there: it is Message.Reasoning, cut into blocks by Len.
type wireBlock struct {
	Len       int    `json:"n,omitempty"`
	Signature string `json:"s,omitempty"`
	Redacted  string `json:"r,omitempty"`
}

// encodeThinking returns the Reasoning and ReasoningSignature that keep blocks in
// a canonical message. No signature is written when no block needs one.
func encodeThinking(blocks []thinkingBlock) (reasoning, signature string) {
	if len(blocks) == 0 {
		return "", ""
	}
	var text strings.Builder
	recs := make([]wireBlock, len(blocks))
	for i, b := range blocks {
		if b.redacted != "" {
			recs[i] = wireBlock{Redacted: b.redacted}
			continue
		}
		text.WriteString(b.text)
		recs[i] = wireBlock{Len: len(b.text), Signature: b.signature}
	}
	raw, _ := json.Marshal(recs) // strings and ints always marshal
	return text.String(), signaturePrefix + string(raw)
}

// decodeThinking recovers the blocks of a canonical message. It returns nothing
// for reasoning it cannot send back intact: another provider's, unsigned, or
// edited since (lengths that no longer add up), because the API verifies every
// signature and refuses the whole request on a mismatch.
func decodeThinking(reasoning, signature string) []thinkingBlock {
	rest, ok := strings.CutPrefix(signature, signaturePrefix)
	if !ok {
		return nil
	}
	var recs []wireBlock
	if json.Unmarshal([]byte(rest), &recs) != nil {
		return nil
	}
	blocks := make([]thinkingBlock, 0, len(recs))
	pos := 0
	for _, r := range recs {
		if r.Redacted != "" {
			blocks = append(blocks, thinkingBlock{redacted: r.Redacted})
			continue
		}
		if r.Signature == "" || r.Len < 0 || pos+r.Len > len(reasoning) {
			return nil
		}
		blocks = append(blocks, thinkingBlock{text: reasoning[pos : pos+r.Len], signature: r.Signature})
		pos += r.Len
	}
	if pos != len(reasoning) {
		return nil
	}
	return blocks
}
