package slash

import (
	"context"
	"fmt"
	"strings"
)

// FallbackSwitch turns the rate limiter's automatic fallback on or off (/fallback):
// the face saves auto_fallback_enabled in the global config file, as the original
// did, and the command reloads so that the new value takes effect.
type FallbackSwitch interface {
	AutoFallback() bool
	SaveAutoFallback(on bool) (path string, err error)
}

func runFallback(ctx context.Context, h Host, arg string) error {
	f, ok := h.(FallbackSwitch)
	r, canReload := h.(Reloader)
	if !ok || !canReload {
		return unavailable("fallback")
	}
	on := !f.AutoFallback()
	switch strings.ToLower(strings.TrimSpace(arg)) {
	case "":
	case "on":
		on = true
	case "off":
		on = false
	default:
		return fmt.Errorf("/fallback %s: want on, off or nothing (to toggle)", arg)
	}
	path, err := f.SaveAutoFallback(on)
	if err != nil {
		return fmt.Errorf("/fallback: %w", err)
	}
	if err := r.Reload(ctx); err != nil {
		return err
	}
	if on {
		h.Show(fmt.Sprintf("Automatic fallback on: after two 429s in a row a model's calls go to its fallback_model for 60 s (auto_fallback_enabled = true in %s).", path))
	} else {
		h.Show(fmt.Sprintf("Automatic fallback off: calls stay on the chosen model and wait out its rate limits (auto_fallback_enabled = false in %s).", path))
	}
	return nil
}
