package mcp

import (
	"strings"
	"testing"
)

func TestToolNamesFitWhatProvidersAccept(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 80)
	tests := []struct {
		server, tool string
		taken        map[string]bool
		want         string
	}{
		{"fs", "read_text_file", nil, "fs_read_text_file"},
		{"ev", "get-sum", nil, "ev_get-sum"},
		{"x", "odd.name/with spaces", nil, "x_odd_name_with_spaces"},
		// Taken by a built-in tool: a stable hashed suffix instead of a clash.
		{"web", "fetch", map[string]bool{"web_fetch": true}, "web_fetch_"},
		{"s", long, nil, "s_" + long[:53] + "_"},
	}
	copyOf := func(m map[string]bool) map[string]bool {
		out := map[string]bool{}
		for k := range m {
			out[k] = true
		}
		return out
	}
	for _, tt := range tests {
		taken := copyOf(tt.taken)
		got := toolName(tt.server, tt.tool, taken)
		if !strings.HasPrefix(got, tt.want) || len(got) > maxToolName || sanitize(got) != got {
			t.Errorf("toolName(%q, %q) = %q, want prefix %q, at most %d valid characters", tt.server, tt.tool, got, tt.want, maxToolName)
		}
		if again := toolName(tt.server, tt.tool, copyOf(tt.taken)); again != got {
			t.Errorf("toolName(%q, %q) is not stable: %q then %q", tt.server, tt.tool, got, again)
		}
		if !taken[got] {
			t.Errorf("toolName did not mark %q taken", got)
		}
	}
	// Two tools that sanitize to one name stay distinct.
	taken := map[string]bool{}
	a, b := toolName("s", "a.b", taken), toolName("s", "a_b", taken)
	if a == b {
		t.Errorf("a.b and a_b both became %q", a)
	}
}

func TestOddToolNamesAreCallable(t *testing.T) {
	t.Parallel()
	set := startSet(t, Options{Reserved: map[string]bool{"fake_count": true}}, fakeServer(t, "fake", "normal"))
	if res := call(t, findTool(t, set, "fake_odd_name_with_spaces"), `{}`); res.Output != "odd" {
		t.Errorf("odd = %+v", res)
	}
	for _, tl := range set.Tools() {
		if tl.Info().Name == "fake_count" {
			t.Error("a server tool took the reserved name fake_count")
		}
		if strings.HasPrefix(tl.Info().Name, "fake_count_") {
			if res := call(t, tl, `{}`); !strings.HasPrefix(res.Output, "call 1") {
				t.Errorf("renamed count = %+v", res)
			}
		}
	}
}
