package mistral

import (
	"crypto/sha256"
	"strconv"
)

// idLen and the alphabet are Mistral's rule for tool call ids: "must be a-z, A-Z,
// 0-9, with a length of 9" (its 400 error, code 3280).
const idLen = 9

const idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// idMapper rewrites the tool call ids of one request. An id that already fits is
// kept; another (from OpenAI, Anthropic, Gemini) is replaced by a hash of it, so
// that a call and its result, and the same history sent again, get the same id
// without any state kept between requests.
type idMapper struct {
	byOriginal map[string]string
	taken      map[string]string
}

func newIDMapper() *idMapper {
	return &idMapper{byOriginal: map[string]string{}, taken: map[string]string{}}
}

func (m *idMapper) mistralID(id string) string {
	if got, ok := m.byOriginal[id]; ok {
		return got
	}
	out := id
	if !validID(id) {
		out = hashID(id)
		// Two ids hashing alike in one request would merge two calls: salt until
		// the new id is free.
		for salt := 1; m.taken[out] != "" && m.taken[out] != id; salt++ {
			out = hashID(id + "#" + strconv.Itoa(salt))
		}
	}
	m.byOriginal[id] = out
	m.taken[out] = id
	return out
}

func validID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func hashID(id string) string {
	sum := sha256.Sum256([]byte(id))
	b := make([]byte, idLen)
	for i := range b {
		b[i] = idAlphabet[int(sum[i])%len(idAlphabet)]
	}
	return string(b)
}
