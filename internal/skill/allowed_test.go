package skill

import (
	"slices"
	"testing"
)

func TestPreApprovedMapsAllowedToolsToAvailableTools(t *testing.T) {
	t.Parallel()
	available := []string{"bash", "edit", "read", "web_fetch", "github_create_issue"}
	for _, c := range []struct {
		entries []string
		want    []string
	}{
		{[]string{"read", "BASH"}, []string{"read", "bash"}},
		{[]string{"Read", "Edit", "MultiEdit", "WebFetch"}, []string{"read", "edit", "web_fetch"}},
		{[]string{"mcp__github__create_issue"}, []string{"github_create_issue"}},
		{[]string{"Bash(git status:*)", "Bash(npm test)"}, nil},
		{[]string{"write", "read_file", "mcp__gitlab__x"}, nil},
	} {
		if got := PreApproved(c.entries, available); !slices.Equal(got, c.want) {
			t.Errorf("PreApproved(%q) = %q, want %q", c.entries, got, c.want)
		}
	}
}

func TestBashPrefixesReadScopedEntries(t *testing.T) {
	t.Parallel()
	got := BashPrefixes([]string{"Bash(git status:*)", "Bash(npm  test)", "Bash(make *)", "bash(go vet:*)", "Bash(*)", "Bash", "Read", "Bash(git status)"})
	if want := []string{"git status", "npm test", "make", "go vet"}; !slices.Equal(got, want) {
		t.Errorf("BashPrefixes = %q, want %q", got, want)
	}
}

func TestAllowedToolsSplitsAtSpacesAndCommasOutsideParentheses(t *testing.T) {
	t.Parallel()
	got := splitTools("Read, Grep  Bash(git status:*),Bash(npm run test) mcp__gh__x")
	if want := []string{"Read", "Grep", "Bash(git status:*)", "Bash(npm run test)", "mcp__gh__x"}; !slices.Equal(got, want) {
		t.Errorf("splitTools = %q, want %q", got, want)
	}
}
