package vertex

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/etalab-ia/albert-code/internal/llm/providertest"
)

// Vertex AI without a token uses Application Default Credentials: here a service
// account file whose token_uri is the fake, so the whole OAuth exchange runs on
// 127.0.0.1 before the model call carries the token it got.
func TestVertexWithApplicationDefaultCredentials(t *testing.T) {
	s := providertest.New(t,
		providertest.Answer{ContentType: "application/json",
			Body: `{"access_token":"ya29.from-adc","token_type":"Bearer","expires_in":3600}`},
		providertest.SSE("testdata/text.sse"))
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: must(x509.MarshalPKCS8PrivateKey(key))})
	account, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "my-proj", "private_key_id": "k1", "private_key": string(pemKey),
		"client_email": "agent@my-proj.iam.gserviceaccount.com", "client_id": "1", "token_uri": s.URL + "/token",
	})
	path := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(path, account, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)

	p := New(Options{BaseURL: s.URL, Project: "my-proj", Location: "europe-west9", Timeout: testTimeout})
	if _, _, err := stream(t, p, hello()); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	form, _ := url.ParseQuery(string(reqs[0].Raw))
	if reqs[0].Path != "/token" || form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		t.Errorf("token request %s %s", reqs[0].Path, reqs[0].Raw)
	}
	if got := reqs[1].Header.Get("Authorization"); got != "Bearer ya29.from-adc" {
		t.Errorf("model call Authorization = %q", got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
