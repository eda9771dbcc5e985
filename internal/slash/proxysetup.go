package slash

import (
	"context"
	"fmt"
	"strings"
)

// ProxySetting is one proxy variable as the run sees it; From is "env", the .env
// file's path, or "" when the variable is not set.
type ProxySetting struct {
	Name, Value, From string
}

// ProxySetup reads and saves the proxy variables kept in <home>/.env, as the
// original's /proxy-setup did (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE,
// SSL_CERT_DIR).
type ProxySetup interface {
	ProxySettings() []ProxySetting
	// SaveProxy writes name=value, or removes name when value is empty, and returns
	// the file's path.
	SaveProxy(name, value string) (path string, err error)
}

const proxyUsage = "Set with `/proxy-setup NAME=VALUE …` (for example `/proxy-setup HTTPS_PROXY=http://proxy.example:3128 NO_PROXY=localhost,.intra`); `NAME=` removes one. Saved values apply from the next start; a variable exported in the environment wins over the file."

func runProxySetup(_ context.Context, h Host, args string) error {
	p, ok := h.(ProxySetup)
	if !ok {
		return unavailable("proxy-setup")
	}
	fields := strings.Fields(args)
	if len(fields) == 0 {
		var b strings.Builder
		b.WriteString("| variable | value | from |\n|---|---|---|\n")
		for _, s := range p.ProxySettings() {
			v, from := s.Value, s.From
			if from == "" {
				v, from = "(not set)", "—"
			}
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", s.Name, v, from)
		}
		b.WriteString("\n" + proxyUsage)
		h.Show(b.String())
		return nil
	}
	type pair struct{ name, value string }
	pairs := make([]pair, 0, len(fields))
	for _, f := range fields {
		name, value, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return fmt.Errorf("/proxy-setup %s: want NAME=VALUE (or NAME= to remove). %s", f, proxyUsage)
		}
		pairs = append(pairs, pair{strings.ToUpper(name), value})
	}
	var saved []string
	path := ""
	for _, pr := range pairs {
		var err error
		if path, err = p.SaveProxy(pr.name, pr.value); err != nil {
			if len(saved) > 0 {
				return fmt.Errorf("/proxy-setup: %w (%s already saved in %s)", err, strings.Join(saved, ", "), path)
			}
			return fmt.Errorf("/proxy-setup: %w", err)
		}
		if pr.value == "" {
			saved = append(saved, pr.name+" removed")
		} else {
			saved = append(saved, pr.name)
		}
	}
	h.Show(fmt.Sprintf("Saved %s in %s. Restart albert-code to use them; a variable exported in the environment wins over the file.", strings.Join(saved, ", "), path))
	return nil
}
