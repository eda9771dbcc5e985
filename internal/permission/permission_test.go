package permission

import (
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/tool"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	read := tool.Info{Name: "read", ReadOnly: true}
	edit := tool.Info{Name: "edit"}
	base := func() *Policy {
		return &Policy{WorkDir: "/work", Trusted: true, Rules: map[string]Rule{
			"edit": {Allow: []string{"docs/**"}, Deny: []string{"**/*.key"}},
			"read": {Deny: []string{"/work/secret/**"}},
		}}
	}
	tests := []struct {
		name   string
		policy func(*Policy)
		info   tool.Info
		paths  []string
		want   Level
		reason string
	}{
		{"read-only defaults to always", nil, read, []string{"a.go"}, Always, ""},
		{"read outside workspace escalates", nil, read, []string{"/etc/passwd"}, Ask, "outside the workspace"},
		{"relative escape escalates", nil, read, []string{"../x"}, Ask, "outside the workspace"},
		{"deny glob refuses", nil, read, []string{"secret/a"}, Never, "denied"},
		{"writes default to ask", nil, edit, []string{"main.go"}, Ask, ""},
		{"allow glob approves", nil, edit, []string{"docs/a/b.md"}, Always, ""},
		{"deny beats allow", nil, edit, []string{"docs/a.key"}, Never, "denied"},
		{"untrusted refuses writes", func(p *Policy) { p.Trusted = false }, edit, []string{"main.go"}, Never, "not trusted"},
		{"untrusted still reads", func(p *Policy) { p.Trusted = false }, read, []string{"main.go"}, Always, ""},
		{"auto-approve", func(p *Policy) { p.AutoApprove = true }, edit, []string{"main.go"}, Always, ""},
		{"auto-approve keeps deny", func(p *Policy) { p.AutoApprove = true }, edit, []string{"a.key"}, Never, "denied"},
		{"never level", func(p *Policy) { p.Rules["bash"] = Rule{Level: Never} }, tool.Info{Name: "bash"}, nil, Never, "disabled"},
		{"session grant", func(p *Policy) { p.GrantForSession("edit") }, edit, []string{"main.go"}, Always, ""},
		{"explicit always", func(p *Policy) { p.Rules["bash"] = Rule{Level: Always} }, tool.Info{Name: "bash"}, nil, Always, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := base()
			if tt.policy != nil {
				tt.policy(p)
			}
			v := p.Check(tt.info, tt.paths)
			if v.Level != tt.want || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("Check = %+v, want %s with reason containing %q", v, tt.want, tt.reason)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	t.Parallel()
	if l, err := ParseLevel("ASK"); err != nil || l != Ask {
		t.Fatalf("ParseLevel(ASK) = %v, %v", l, err)
	}
	if _, err := ParseLevel("sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("bad level error = %v", err)
	}
}
