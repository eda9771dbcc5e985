package update

import (
	"strings"
	"testing"
)

func TestOffReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		env      map[string]string
		configOn bool
		want     string
	}{
		{"on by default", nil, true, ""},
		{"config off", nil, false, "update_check = false"},
		{"variable", map[string]string{EnvNoCheck: "1"}, true, EnvNoCheck},
		{"variable true", map[string]string{EnvNoCheck: "true"}, true, EnvNoCheck},
		{"variable 0 leaves it on", map[string]string{EnvNoCheck: "0"}, true, ""},
		{"CI", map[string]string{"CI": "true"}, true, "CI is set"},
		{"CI=1", map[string]string{"CI": "1"}, true, "CI is set"},
		{"CI=false leaves it on", map[string]string{"CI": "false"}, true, ""},
		{"CI empty leaves it on", map[string]string{"CI": ""}, true, ""},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		got := OffReason(lookup, tc.configOn)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: OffReason = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestNoticeSaysWhatAndHow(t *testing.T) {
	t.Parallel()
	got := Notice(Release{Tag: "v0.3.0", URL: "https://github.com/etalab-ia/albert-code/releases/tag/v0.3.0"}, "v0.2.0")
	for _, want := range []string{"albert-code v0.3.0 is available (you have v0.2.0)", "go install", "releases/tag/v0.3.0"} {
		if !strings.Contains(got, want) {
			t.Errorf("Notice = %q, want it to contain %q", got, want)
		}
	}
	if got := Notice(Release{Tag: "v0.3.0"}, "v0.2.0"); strings.Contains(got, "what changed") {
		t.Errorf("Notice without a page = %q, want no link", got)
	}
}
