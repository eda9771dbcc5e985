package vertex

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

var tokenAnswer = providertest.Answer{ContentType: "application/json",
	Body: `{"access_token":"ya29.fresh","token_type":"Bearer","expires_in":3600}`}

func writeCredentials(t *testing.T, dir string, fields map[string]string) string {
	t.Helper()
	raw, _ := json.Marshal(fields)
	path := filepath.Join(dir, "application_default_credentials.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func vertexProvider(s *providertest.Server) *Provider {
	return New(Options{BaseURL: s.URL, Project: "p", Location: "europe-west9", Timeout: testTimeout})
}

// gcloud's user login, found where `gcloud auth application-default login`
// writes it, is refreshed into an access token.
func TestVertexWithGcloudUserCredentials(t *testing.T) {
	s := providertest.New(t, tokenAnswer, providertest.SSE("testdata/text.sse"))
	dir := t.TempDir()
	writeCredentials(t, dir, map[string]string{"type": "authorized_user", "client_id": "cid",
		"client_secret": "csecret", "refresh_token": "1//refresh", "token_uri": s.URL + "/token"})
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
	t.Setenv("CLOUDSDK_CONFIG", dir)
	if _, _, err := stream(t, vertexProvider(s), hello()); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	form, _ := url.ParseQuery(string(reqs[0].Raw))
	if form.Get("grant_type") != "refresh_token" || form.Get("refresh_token") != "1//refresh" ||
		form.Get("client_id") != "cid" || form.Get("client_secret") != "csecret" {
		t.Errorf("refresh request %s", reqs[0].Raw)
	}
	if got := reqs[1].Header.Get("Authorization"); got != "Bearer ya29.fresh" {
		t.Errorf("model call Authorization = %q", got)
	}
}

// The service account's assertion is a JWT signed with its key, for the
// cloud-platform scope, addressed to the token endpoint.
func TestServiceAccountAssertion(t *testing.T) {
	key := must(rsa.GenerateKey(rand.Reader, 2048))
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	raw, _ := json.Marshal(map[string]string{"type": "service_account", "client_email": "sa@p.iam.gserviceaccount.com",
		"private_key": string(pemKey), "private_key_id": "kid1"})
	creds, err := parseCredentials(raw, "sa.json")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	src := &tokenSource{creds: creds, now: func() time.Time { return now }}
	jwt, err := src.assertion()
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("assertion %q", jwt)
	}
	sig := must(base64.RawURLEncoding.DecodeString(parts[2]))
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig); err != nil {
		t.Errorf("signature: %v", err)
	}
	var header, claims map[string]any
	_ = json.Unmarshal(must(base64.RawURLEncoding.DecodeString(parts[0])), &header)
	_ = json.Unmarshal(must(base64.RawURLEncoding.DecodeString(parts[1])), &claims)
	if header["alg"] != "RS256" || header["kid"] != "kid1" {
		t.Errorf("header %v", header)
	}
	if claims["iss"] != "sa@p.iam.gserviceaccount.com" || claims["aud"] != defaultTokenURI ||
		claims["scope"] != cloudPlatformScope || claims["iat"] != float64(now.Unix()) ||
		claims["exp"] != float64(now.Add(time.Hour).Unix()) {
		t.Errorf("claims %v", claims)
	}
}

// A token is reused until it nears its expiry, then fetched again.
func TestTokenCachedUntilNearExpiry(t *testing.T) {
	s := providertest.New(t, tokenAnswer, providertest.SSE("testdata/text.sse"), providertest.SSE("testdata/text.sse"),
		tokenAnswer, providertest.SSE("testdata/text.sse"))
	dir := t.TempDir()
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", writeCredentials(t, dir, map[string]string{"type": "authorized_user",
		"client_id": "cid", "refresh_token": "r", "token_uri": s.URL + "/token"}))
	p := vertexProvider(s)
	now := time.Unix(1_800_000_000, 0)
	p.now = func() time.Time { return now }
	for _, advance := range []time.Duration{0, 50 * time.Minute, 8 * time.Minute} {
		now = now.Add(advance)
		if _, _, err := stream(t, p, hello()); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, r := range s.Requests() {
		paths = append(paths, r.Path[:6])
	}
	if got := strings.Join(paths, " "); got != "/token /v1bet /v1bet /token /v1bet" {
		t.Errorf("requests: %s", got)
	}
}

func TestCredentialProblemsAreClearErrors(t *testing.T) {
	t.Run("none found", func(t *testing.T) {
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
		t.Setenv("CLOUDSDK_CONFIG", t.TempDir())
		s := providertest.New(t)
		_, _, err := stream(t, vertexProvider(s), hello())
		if !errors.Is(err, errNoCredentials) || len(s.Requests()) != 0 {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("found after a failure", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "")
		t.Setenv("CLOUDSDK_CONFIG", dir)
		s := providertest.New(t, tokenAnswer, providertest.SSE("testdata/text.sse"))
		p := vertexProvider(s)
		if _, _, err := stream(t, p, hello()); !errors.Is(err, errNoCredentials) {
			t.Fatalf("err = %v", err)
		}
		writeCredentials(t, dir, map[string]string{"type": "authorized_user", "client_id": "c",
			"refresh_token": "r", "token_uri": s.URL + "/token"})
		if _, _, err := stream(t, p, hello()); err != nil {
			t.Errorf("after login: %v", err)
		}
	})
	t.Run("unsupported type", func(t *testing.T) {
		path := writeCredentials(t, t.TempDir(), map[string]string{"type": "external_account"})
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
		_, _, err := stream(t, vertexProvider(providertest.New(t)), hello())
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "external_account") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("refused refresh", func(t *testing.T) {
		s := providertest.New(t, providertest.Error(400,
			`{"error":"invalid_grant","error_description":"Token has been expired or revoked."}`, nil))
		path := writeCredentials(t, t.TempDir(), map[string]string{"type": "authorized_user",
			"client_id": "cid", "refresh_token": "r", "token_uri": s.URL + "/token"})
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
		_, _, err := stream(t, vertexProvider(s), hello())
		var apiErr *llm.APIError
		if !errors.As(err, &apiErr) || apiErr.Status != 400 || llm.IsRetryable(err) ||
			!strings.Contains(apiErr.Message, "Token has been expired or revoked.") || !strings.Contains(apiErr.Message, path) {
			t.Errorf("err = %v", err)
		}
	})
}
