package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// bearer checks bearer tokens in constant time: each token is compared through its
// SHA-256, so neither a token's length nor its first differing byte shows in the
// time taken, and every token is compared whatever matched.
type bearer struct {
	sums [][sha256.Size]byte
}

func newBearer(tokens []string) *bearer {
	b := &bearer{}
	for _, t := range tokens {
		b.sums = append(b.sums, sha256.Sum256([]byte(t)))
	}
	return b
}

// check reports whether r carries an accepted token, and if not, why.
func (b *bearer) check(r *http.Request) (string, bool) {
	if len(b.sums) == 0 {
		return "", true
	}
	h := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(strings.TrimSpace(h), " ")
	if h == "" || !strings.EqualFold(scheme, "Bearer") {
		return "missing bearer token: send the header Authorization: Bearer <token>", false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	ok := 0
	for i := range b.sums {
		ok |= subtle.ConstantTimeCompare(sum[:], b.sums[i][:])
	}
	if ok != 1 {
		return "invalid bearer token", false
	}
	return "", true
}
