package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestShowMasksSecretsAndNamesSources(t *testing.T) {
	s := newSandbox(t)
	const key = "sk-supersecretvalue-0123456789abcd"
	t.Setenv("ALBERT_API_KEY", key)
	write(t, filepath.Join(s.appHome, ".env"), "MISTRAL_API_KEY=another-very-secret-key-wxyz\n")
	write(t, s.globalFile(), `[[providers]]
name = "albert"
headers = { Authorization = "Bearer hunter2hunter2", X-Team = "dinum" }
`)
	t.Setenv(EnvAgent, "plan")
	c := s.load(t, Overrides{Model: "qwen"})
	var b strings.Builder
	if err := Show(&b, c); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, secret := range []string{key, "another-very-secret-key", "hunter2"} {
		if strings.Contains(out, secret) {
			t.Errorf("Show printed the secret %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{
		`model = "qwen"  # from flag --model`,
		`agent = "plan"  # from env ALBERT_CODE_AGENT`,
		`threshold = 0.8  # from default`,
		`headers."X-Team" = "dinum"  # from ` + s.globalFile() + ":3",
		"# ALBERT_API_KEY: set in environment (…abcd)",
		"# MISTRAL_API_KEY: set in " + filepath.Join(s.appHome, ".env") + " (…wxyz)",
		"# OPENAI_API_KEY: not set",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Show output lacks %q:\n%s", want, out)
		}
	}
}
