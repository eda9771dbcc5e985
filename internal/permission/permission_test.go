package permission

import (
	"encoding/json"
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

func TestCheckCallClassifier(t *testing.T) {
	t.Parallel()
	bash := tool.Info{Name: "bash"}
	// The fake classifier judges by the command alone, as shellcmd does.
	classify := func(args json.RawMessage) (Verdict, bool) {
		var p struct{ Command string }
		_ = json.Unmarshal(args, &p)
		switch p.Command {
		case "ls":
			return Verdict{Level: Always, Reason: "allowlisted"}, true
		case "sudo ls":
			return Verdict{Level: Never, Reason: "sudo is denied"}, true
		case "echo > f":
			return Verdict{Level: Ask, Reason: "redirection to f"}, true
		}
		return Verdict{}, false
	}
	base := func() *Policy {
		return &Policy{WorkDir: "/work", Trusted: true, Rules: map[string]Rule{},
			Classifiers: map[string]func(json.RawMessage) (Verdict, bool){"bash": classify}}
	}
	tests := []struct {
		name    string
		policy  func(*Policy)
		info    tool.Info
		command string
		want    Level
		reason  string
	}{
		{"classifier always approves", nil, bash, "ls", Always, ""},
		{"classifier never refuses", nil, bash, "sudo ls", Never, "sudo is denied"},
		{"classifier ask keeps its reason", nil, bash, "echo > f", Ask, "redirection to f"},
		{"no opinion keeps the default", nil, bash, "make", Ask, ""},
		{"explicit ask is upgraded like the default", func(p *Policy) { p.Rules["bash"] = Rule{Level: Ask} }, bash, "ls", Always, ""},
		{"never beats auto-approve", func(p *Policy) { p.AutoApprove = true }, bash, "sudo ls", Never, "sudo"},
		{"never beats a session grant", func(p *Policy) { p.GrantForSession("bash") }, bash, "sudo ls", Never, "sudo"},
		{"never beats explicit always", func(p *Policy) { p.Rules["bash"] = Rule{Level: Always} }, bash, "sudo ls", Never, "sudo"},
		{"explicit always beats ask", func(p *Policy) { p.Rules["bash"] = Rule{Level: Always} }, bash, "echo > f", Always, ""},
		{"session grant beats ask", func(p *Policy) { p.GrantForSession("bash") }, bash, "echo > f", Always, "session"},
		{"auto-approve beats ask", func(p *Policy) { p.AutoApprove = true }, bash, "echo > f", Always, "session"},
		{"permission never beats classifier always", func(p *Policy) { p.Rules["bash"] = Rule{Level: Never} }, bash, "ls", Never, "disabled"},
		{"untrusted beats classifier always", func(p *Policy) { p.Trusted = false }, bash, "ls", Never, "not trusted"},
		{"other tools are not classified", nil, tool.Info{Name: "edit"}, "ls", Ask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := base()
			if tt.policy != nil {
				tt.policy(p)
			}
			args, _ := json.Marshal(map[string]string{"command": tt.command})
			v := p.CheckCall(tt.info, nil, args)
			if v.Level != tt.want || !strings.Contains(v.Reason, tt.reason) {
				t.Fatalf("CheckCall(%s) = %+v, want %s with reason containing %q", args, v, tt.want, tt.reason)
			}
		})
	}
	// Check, without arguments, does not consult the classifier.
	if v := base().Check(bash, nil); v.Level != Ask {
		t.Fatalf("Check without arguments = %+v, want the default ask", v)
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
