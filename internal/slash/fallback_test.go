package slash

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fallbackHost struct {
	fullHost
	on    bool
	saved []bool
	fail  error
}

func (h *fallbackHost) AutoFallback() bool { return h.on }
func (h *fallbackHost) SaveAutoFallback(on bool) (string, error) {
	if h.fail != nil {
		return "", h.fail
	}
	h.saved = append(h.saved, on)
	h.on = on
	return "/home/ada/.config/albert-code/config.toml", nil
}

// /fallback toggles, or sets with on/off, saves the setting, reloads and says what
// it did and where; a bad argument or a refused save changes nothing.
func TestFallbackTogglesSavesAndReloads(t *testing.T) {
	t.Parallel()
	h := &fallbackHost{fullHost: fullHost{face: FaceTUI}, on: true}
	for _, line := range []string{"/fallback", "/fallback on", "/fallback OFF"} {
		if err := Default().Run(context.Background(), h, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	if len(h.saved) != 3 || h.saved[0] || !h.saved[1] || h.saved[2] {
		t.Fatalf("saved %v, want off (toggled from on), on, off", h.saved)
	}
	if strings.Join(h.calls, ",") != "reload,reload,reload" {
		t.Fatalf("calls %v, want a reload after each save", h.calls)
	}
	if last := h.shown[len(h.shown)-1]; !strings.Contains(last, "Automatic fallback off") || !strings.Contains(last, "config.toml") {
		t.Fatalf("shown %q", last)
	}
	if err := Default().Run(context.Background(), h, "/fallback maybe"); err == nil || !strings.Contains(err.Error(), "want on, off") {
		t.Fatalf("bad argument: %v", err)
	}
	h.fail = errors.New("auto_fallback_enabled is set in .albert-code.toml:1")
	if err := Default().Run(context.Background(), h, "/fallback"); err == nil || !strings.Contains(err.Error(), ".albert-code.toml") {
		t.Fatalf("refused save: %v", err)
	}
	if len(h.calls) != 3 {
		t.Fatalf("calls %v: a failed save must not reload", h.calls)
	}
}

func TestFallbackNeedsAFaceThatCanSaveAndReload(t *testing.T) {
	t.Parallel()
	err := Default().Run(context.Background(), &fullHost{face: FaceTUI}, "/fallback")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}
