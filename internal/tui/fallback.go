package tui

import (
	"fmt"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/slash"
)

// sessionConfig is the open conversation's configuration; nil before it opens.
func (m *Model) sessionConfig() *config.Config {
	if m.conv == nil {
		return nil
	}
	return m.conv.Config()
}

func (m *Model) conversationConfig() (*config.Config, error) {
	c := m.sessionConfig()
	if c == nil {
		return nil, fmt.Errorf("/fallback: %w", slash.ErrUnavailable)
	}
	return c, nil
}

// AutoFallback says whether the rate limiter may move calls to a fallback model.
func (m *Model) AutoFallback() bool {
	c, err := m.conversationConfig()
	return err == nil && !c.RateLimits.NoAutoFallback
}

// SaveAutoFallback writes auto_fallback_enabled to the global config file; /fallback
// then reloads the session.
func (m *Model) SaveAutoFallback(on bool) (string, error) {
	if err := m.idle("/fallback"); err != nil {
		return "", err
	}
	c, err := m.conversationConfig()
	if err != nil {
		return "", err
	}
	return c.SaveAutoFallback(on)
}
