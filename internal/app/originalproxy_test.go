package app

import (
	"net/http"
	"testing"
)

func TestProxyForFollowsSchemeAndNoProxy(t *testing.T) {
	t.Parallel()
	p := proxyFor("proxy.example:3128", "https://secure.example:443", "localhost, .intra.gouv.fr,albert.test:8080")
	tests := []struct{ url, want string }{
		{"http://fakemodel.test/v1", "http://proxy.example:3128"},
		{"https://albert.api.etalab.gouv.fr/v1", "https://secure.example:443"},
		{"http://127.0.0.1:8080/v1", ""},
		{"https://api.intra.gouv.fr/v1", ""},
		{"https://intra.gouv.fr/v1", ""},
		{"http://albert.test/v1", ""},
		{"http://notintra.gouv.fr/v1", "http://proxy.example:3128"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", tt.url, nil)
		u, err := p(req)
		got := ""
		if u != nil {
			got = u.String()
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: proxy = %q, %v; want %q", tt.url, got, err, tt.want)
		}
	}
}
