package tui

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/slash"
)

// ProxySettings lists the proxy variables as this session sees them (/proxy-setup).
func (m *Model) ProxySettings() []slash.ProxySetting {
	c := m.sessionConfig()
	if c == nil {
		return nil
	}
	var out []slash.ProxySetting
	for _, s := range c.ProxySettings() {
		out = append(out, slash.ProxySetting{Name: s.Name, Value: s.Value, From: s.From})
	}
	return out
}

// SaveProxy writes one proxy variable into <home>/.env (/proxy-setup).
func (m *Model) SaveProxy(name, value string) (string, error) {
	c := m.sessionConfig()
	if c == nil {
		return "", fmt.Errorf("/proxy-setup: %w", slash.ErrUnavailable)
	}
	return c.SaveProxy(name, value)
}

var _ slash.ProxySetup = (*Model)(nil)
