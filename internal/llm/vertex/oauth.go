package vertex

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/sse"
)

const (
	// cloudPlatformScope is the OAuth scope Vertex AI accepts.
	cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"
	// jwtLifetime is the longest assertion Google accepts.
	jwtLifetime = time.Hour
	// refreshMargin renews a token this long before it expires, so that a call
	// never starts with a token that dies on the way (Google's own libraries
	// use a few minutes).
	refreshMargin = 3 * time.Minute
)

// tokenSource gets and caches access tokens for one credentials file.
type tokenSource struct {
	creds  *credentialsFile
	client *http.Client
	now    func() time.Time

	mu      sync.Mutex
	token   string
	expires time.Time
}

// get returns a valid token, fetching a new one when the cached one is about to
// expire.
func (s *tokenSource) get(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token != "" && s.now().Add(refreshMargin).Before(s.expires) {
		return s.token, nil
	}
	form := url.Values{}
	switch s.creds.Type {
	case "service_account":
		assertion, err := s.assertion()
		if err != nil {
			return "", err
		}
		form.Set("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer")
		form.Set("assertion", assertion)
	default: // authorized_user, as parseCredentials checked
		form.Set("grant_type", "refresh_token")
		form.Set("client_id", s.creds.ClientID)
		form.Set("client_secret", s.creds.ClientSecret)
		form.Set("refresh_token", s.creds.RefreshToken)
	}
	token, lifetime, err := s.exchange(ctx, form)
	if err != nil {
		return "", err
	}
	s.token, s.expires = token, s.now().Add(lifetime)
	return token, nil
}

// assertion is the service account's signed JWT (RFC 7523) asking for a token.
func (s *tokenSource) assertion() (string, error) {
	now := s.now()
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": s.creds.PrivateKeyID})
	claims, _ := json.Marshal(map[string]any{
		"iss": s.creds.ClientEmail, "scope": cloudPlatformScope, "aud": s.creds.TokenURI,
		"iat": now.Unix(), "exp": now.Add(jwtLifetime).Unix(),
	})
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signed))
	sig, err := rsa.SignPKCS1v15(rand.Reader, s.creds.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("sign token request with %s: %w", s.creds.path, err)
	}
	return signed + "." + enc.EncodeToString(sig), nil
}

// exchange posts form to the token endpoint. A refusal is an *llm.APIError (not
// worth retrying when it is a 400 or 401); a network failure is ErrUnreachable.
func (s *tokenSource) exchange(ctx context.Context, form url.Values) (string, time.Duration, error) {
	endpoint := s.creds.TokenURI
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", 0, fmt.Errorf("token_uri in %s: %w", s.creds.path, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := s.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", 0, ctx.Err()
		}
		return "", 0, sse.Unreachable(endpoint, err)
	}
	defer func() { _ = res.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	var doc struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if res.StatusCode >= 400 || json.Unmarshal(body, &doc) != nil || doc.AccessToken == "" {
		msg := strings.TrimSpace(doc.Error + ": " + doc.Description)
		if doc.Error == "" {
			msg = strings.TrimSpace(sse.Excerpt(body))
		}
		status := res.StatusCode
		if status < 400 {
			status = http.StatusBadGateway
		}
		return "", 0, &llm.APIError{Status: status, URL: endpoint, Body: sse.Excerpt(body),
			Message: fmt.Sprintf("no access token for the credentials in %s: %s", s.creds.path, msg)}
	}
	return doc.AccessToken, time.Duration(doc.ExpiresIn) * time.Second, nil
}
