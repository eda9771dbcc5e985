package agentenv

import "testing"

func TestIsAncestorOrSelf(t *testing.T) {
	tests := []struct {
		dir, path string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a", "/a/b/c", true},
		{"/a/b/c", "/a/b", false},
		{"/a/bc", "/a/b", false},
		{"/x", "/a", false},
	}
	for _, tt := range tests {
		if got := isAncestorOrSelf(tt.dir, tt.path); got != tt.want {
			t.Errorf("isAncestorOrSelf(%q, %q) = %v", tt.dir, tt.path, got)
		}
	}
}
