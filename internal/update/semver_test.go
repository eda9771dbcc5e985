package update

import "testing"

func TestCompareOrdersVersions(t *testing.T) {
	t.Parallel()
	// Each version is older than the next: the numeric cases, then semver.org §11's
	// own pre-release example, then a Go pseudo-version before its release.
	ordered := [][]string{
		{"v0.9.1", "v0.10.0", "v1.0.0", "v1.0.1", "v1.1.0", "v2.0.0"},
		{"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"},
		{"v0.0.0-20261201120000-abcdef123456", "v0.2.0", "v0.2.1-0.20261201120000-abcdef123456", "v0.2.1"},
	}
	for _, seq := range ordered {
		for i := 0; i+1 < len(seq); i++ {
			a, b := mustParse(t, seq[i]), mustParse(t, seq[i+1])
			if got := a.Compare(b); got != -1 {
				t.Errorf("Compare(%s, %s) = %d, want -1", seq[i], seq[i+1], got)
			}
			if got := b.Compare(a); got != 1 {
				t.Errorf("Compare(%s, %s) = %d, want 1", seq[i+1], seq[i], got)
			}
		}
	}
}

func TestCompareEqualForms(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{
		{"v0.3.0", "0.3.0"},
		{"v1.2", "v1.2.0"},
		{"v1.2.3+dirty", "v1.2.3"},
		{"V1.0.0-rc.1", "v1.0.0-rc.1+build.5"},
	} {
		if got := mustParse(t, pair[0]).Compare(mustParse(t, pair[1])); got != 0 {
			t.Errorf("Compare(%s, %s) = %d, want 0", pair[0], pair[1], got)
		}
	}
}

func TestParseVersionRejectsNonVersions(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "dev", "(devel)", "v", "1.2.3.4", "v1.x.0", "1.0.0-", "1.0.0-a..b", "1.0.0-rc_1", "latest"} {
		if v, err := ParseVersion(s); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", s, v)
		}
	}
}

func TestVersionString(t *testing.T) {
	t.Parallel()
	if got := mustParse(t, "1.2-rc.1+x").String(); got != "v1.2.0-rc.1" {
		t.Errorf("String() = %q, want v1.2.0-rc.1", got)
	}
}

func mustParse(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatalf("ParseVersion(%q): %v", s, err)
	}
	return v
}
