package slash

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type proxyHost struct {
	fullHost
	saved map[string]string
}

func (h *proxyHost) ProxySettings() []ProxySetting {
	return []ProxySetting{{Name: "HTTPS_PROXY", Value: "http://p:3128", From: "/home/ada/.albert-code/.env"}, {Name: "NO_PROXY"}}
}

func (h *proxyHost) SaveProxy(name, value string) (string, error) {
	if name == "ALL_PROXY" {
		return "", errors.New("ALL_PROXY is not a proxy variable")
	}
	h.saved[name] = value
	return "/home/ada/.albert-code/.env", nil
}

func TestProxySetupShowsAndSaves(t *testing.T) {
	t.Parallel()
	h := &proxyHost{fullHost: fullHost{face: FaceTUI}, saved: map[string]string{}}
	if err := Default().Run(context.Background(), h, "/proxy-setup"); err != nil {
		t.Fatal(err)
	}
	if table := h.shown[0]; !strings.Contains(table, "| `HTTPS_PROXY` | `http://p:3128` | /home/ada/.albert-code/.env |") ||
		!strings.Contains(table, "| `NO_PROXY` | `(not set)` |") {
		t.Errorf("table = %q", table)
	}
	if err := Default().Run(context.Background(), h, "/proxy-setup https_proxy=http://q:8080 NO_PROXY="); err != nil {
		t.Fatal(err)
	}
	if h.saved["HTTPS_PROXY"] != "http://q:8080" || h.saved["NO_PROXY"] != "" || len(h.saved) != 2 {
		t.Errorf("saved = %v", h.saved)
	}
	if last := h.shown[len(h.shown)-1]; !strings.Contains(last, "HTTPS_PROXY, NO_PROXY removed") || !strings.Contains(last, ".env") {
		t.Errorf("shown %q", last)
	}
	for _, bad := range []string{"/proxy-setup HTTPS_PROXY", "/proxy-setup ALL_PROXY=x"} {
		if err := Default().Run(context.Background(), h, bad); err == nil {
			t.Errorf("%s succeeded", bad)
		}
	}
	if err := Default().Run(context.Background(), &fullHost{face: FaceTUI}, "/proxy-setup"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("a face without ProxySetup: %v", err)
	}
}
