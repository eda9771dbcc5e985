package sandbox

import "testing"

// TestLooksSecret: credentials by the names people give them and in URLs; the
// names of ordinary settings pass.
func TestLooksSecret(t *testing.T) {
	t.Parallel()
	secret := map[string]string{
		"ALBERT_API_KEY": "sk", "GITHUB_TOKEN": "x", "PGPASSWORD": "x", "AWS_SECRET_ACCESS_KEY": "x",
		// Second pass: these reached commands.
		"SMTP_PASS": "x", "MYSQL_PWD": "x", "NPM_CONFIG__AUTH": "x", "SENTRY_DSN": "x",
		"REPO_URL":   "https://ghp_0123456789abcdefghij0123456789abcdef@github.com/o/r",
		"ERRORS_URL": "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/2",
		"DB_URL":     "postgres://u:pw@db/x",
	}
	for name, value := range secret {
		if !LooksSecret(name, value) {
			t.Errorf("%s=%s does not look secret", name, value)
		}
	}
	plain := map[string]string{
		"PATH": "/usr/bin", "PWD": "/home/u", "OLDPWD": "/tmp", "HOME": "/home/u", "GOFLAGS": "-mod=mod",
		"HTTP_PROXY": "http://proxy:3128", "GIT_URL": "https://me@github.com/o/r", "LANG": "C.UTF-8",
	}
	for name, value := range plain {
		if LooksSecret(name, value) {
			t.Errorf("%s=%s looks secret", name, value)
		}
	}
}
