package slash

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/skill"
)

type skillHost struct {
	fullHost
	ran []string
}

func (h *skillHost) RunSkill(_ context.Context, name, request string) error {
	h.ran = append(h.ran, name+":"+request)
	return nil
}

func TestSkillsBecomeCommands(t *testing.T) {
	r := Default()
	skipped := r.AddSkills([]skill.Skill{
		{Name: "deploy", Description: "Ship it", UserInvocable: true},
		{Name: "help", Description: "A skill named like a built-in", UserInvocable: true},
		{Name: "private", Description: "Not for the menu"},
	})
	if !slices.Equal(skipped, []string{"help"}) {
		t.Errorf("skipped %v, want [help]", skipped)
	}
	c, ok := r.Lookup("deploy")
	if !ok || c.Description != "Ship it" || !c.OfferedIn(FaceTUI) || !c.OfferedIn(FaceACP) {
		t.Fatalf("/deploy = %+v, %v", c, ok)
	}
	if _, ok := r.Lookup("private"); ok {
		t.Error("a skill that is not user-invocable became a command")
	}
	h := &skillHost{fullHost: fullHost{face: FaceACP}}
	if err := r.Run(context.Background(), h, "/deploy to staging"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.ran, []string{"deploy:to staging"}) {
		t.Errorf("ran %v", h.ran)
	}
	// A second call (a new conversation) replaces the skills' commands quietly.
	if skipped := r.AddSkills([]skill.Skill{{Name: "deploy", Description: "Ship it now", UserInvocable: true}}); len(skipped) != 0 {
		t.Errorf("re-adding skipped %v", skipped)
	}
	if c, _ := r.Lookup("deploy"); c.Description != "Ship it now" {
		t.Errorf("description %q after re-adding", c.Description)
	}
	// A face that cannot run skills says so.
	if err := r.Run(context.Background(), &fullHost{face: FaceTUI}, "/deploy"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("err %v, want ErrUnavailable", err)
	}
}

// The original's /log and /limits are aliases of what shows the same.
func TestOriginalNamesAreAliases(t *testing.T) {
	r := Default()
	for alias, name := range map[string]string{"log": "status", "limits": "quota"} {
		if c, ok := r.Lookup(alias); !ok || c.Name != name {
			t.Errorf("/%s = %+v, %v; want /%s", alias, c.Name, ok, name)
		}
	}
}
