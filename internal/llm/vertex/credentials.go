package vertex

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// defaultTokenURI is Google's OAuth token endpoint, for files that name none.
const defaultTokenURI = "https://oauth2.googleapis.com/token"

// credentialsFile is an Application Default Credentials file: a service account
// key (type service_account) or gcloud's user login (type authorized_user).
type credentialsFile struct {
	Type string `json:"type"`
	// Service account fields.
	ClientEmail  string `json:"client_email"`
	PrivateKey   string `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
	TokenURI     string `json:"token_uri"`
	// Authorized user fields (client_id is also in service account files).
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	RefreshToken string `json:"refresh_token"`

	// path is where the file was read, for error messages.
	path string
	key  *rsa.PrivateKey
}

// errNoCredentials names every way to give Vertex AI credentials.
var errNoCredentials = errors.New("no Application Default Credentials for Vertex AI: set GOOGLE_APPLICATION_CREDENTIALS " +
	"to a service account key file, run `gcloud auth application-default login`, " +
	"or set api_key_env to a variable holding an access token (`gcloud auth print-access-token`)")

// findCredentials reads the file GOOGLE_APPLICATION_CREDENTIALS names, else the
// one `gcloud auth application-default login` writes. Google's metadata server
// (credentials of a VM) is not asked: it needs a GCE host to test against.
func findCredentials() (*credentialsFile, error) {
	path := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS")
	if path == "" {
		path = filepath.Join(gcloudConfigDir(), "application_default_credentials.json")
		if _, err := os.Stat(path); err != nil {
			return nil, errNoCredentials
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read Application Default Credentials: %w", err)
	}
	return parseCredentials(raw, path)
}

// gcloudConfigDir is gcloud's configuration folder: CLOUDSDK_CONFIG, else
// %APPDATA%\gcloud on Windows and ~/.config/gcloud elsewhere (macOS included).
func gcloudConfigDir() string {
	if dir := os.Getenv("CLOUDSDK_CONFIG"); dir != "" {
		return dir
	}
	if runtime.GOOS == "windows" {
		return filepath.Join(os.Getenv("APPDATA"), "gcloud")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".config", "gcloud")
}

// parseCredentials checks a credentials file and parses its key, so that a bad
// file is reported once, naming it.
func parseCredentials(raw []byte, path string) (*credentialsFile, error) {
	c := &credentialsFile{path: path}
	if err := json.Unmarshal(raw, c); err != nil {
		return nil, fmt.Errorf("credentials file %s is not JSON: %w", path, err)
	}
	if c.TokenURI == "" {
		c.TokenURI = defaultTokenURI
	}
	switch c.Type {
	case "service_account":
		if c.ClientEmail == "" {
			return nil, fmt.Errorf("credentials file %s: service account without client_email", path)
		}
		key, err := parseKey(c.PrivateKey)
		if err != nil {
			return nil, fmt.Errorf("credentials file %s: private_key: %w", path, err)
		}
		c.key = key
	case "authorized_user":
		if c.RefreshToken == "" || c.ClientID == "" {
			return nil, fmt.Errorf("credentials file %s: authorized_user without refresh_token or client_id; "+
				"run `gcloud auth application-default login` again", path)
		}
	default:
		return nil, fmt.Errorf("credentials file %s has type %q; this build reads service_account and authorized_user "+
			"files, or takes an access token through api_key_env", path, c.Type)
	}
	return c, nil
}

// parseKey reads an RSA private key in PEM, PKCS #8 (what Google issues) or PKCS #1.
func parseKey(pemKey string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(pemKey))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		rsaKey, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, errors.New("not an RSA key")
		}
		return rsaKey, nil
	}
	return x509.ParsePKCS1PrivateKey(block.Bytes)
}
