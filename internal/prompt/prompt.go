// Package prompt assembles the system prompt: the base instructions, the environment
// (directory, date, platform, model), the active profile's additions, and the project's
// own instructions file when the folder is trusted.
package prompt

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"
)

//go:embed base.md
var base string

// ProjectFiles are the project instruction files read from the working directory, in
// order of preference; the first found is used. AGENTS.md is the shared convention.
var ProjectFiles = []string{"AGENTS.md", "ALBERT_CODE.md", ".albert-code.md"}

// maxProjectDoc caps the instructions file (32 KiB, as the original), so a huge file
// cannot crowd out the conversation.
const maxProjectDoc = 32 << 10

// Input is what the prompt depends on.
type Input struct {
	WorkDir string
	// Trusted gates reading the project's instructions file: an untrusted repository
	// must not steer the agent.
	Trusted bool
	Model   string
	Profile string
	// ProfileAddition is appended (plan profile: plan first).
	ProfileAddition string
	Now             time.Time
	// Skills are listed for the skill tool to load on demand.
	Skills []Skill
	// Sandbox says how commands are confined: SandboxOn, SandboxOff or
	// SandboxMissing; empty means SandboxOff, the safe thing to tell a model.
	Sandbox string
	// Base replaces the built-in base prompt (a custom prompt file, see LoadCustom).
	Base string
	// ProjectContext is GatherContext's section, added after the environment.
	ProjectContext string
}

// What the model is told about the OS sandbox, so that it reads a refusal right.
const (
	SandboxOn = "- Commands run in an OS sandbox. Commands that only read run read-only, without network; " +
		"approved commands may write the workspace and $TMPDIR only. Your secrets (~/.ssh, ~/.albert-code, " +
		"cloud credentials) are unreadable, and .git/config, .git/hooks and this tool's configuration files stay " +
		"read-only. A \"Permission denied\" or \"Read-only file system\" outside those places is the sandbox: " +
		"tell the user what you needed instead of working around it."
	SandboxOff     = "- Your tools are not sandboxed: commands run with the user's rights. Be careful with destructive commands."
	SandboxMissing = "- No OS sandbox is available here: every command asks the user first and then runs with their rights. Be careful with destructive commands."
)

// Build returns the system prompt and the path of the project instructions it
// included, if any.
func Build(in Input) (string, string) {
	var b strings.Builder
	sb := in.Sandbox
	if sb == "" {
		sb = SandboxOff
	}
	head := base
	if in.Base != "" {
		head = in.Base
	}
	// A custom prompt without the placeholder still tells the model about the sandbox,
	// in the environment below: a refusal must not read as a bug to work around.
	told := strings.Contains(head, "{{sandbox}}")
	b.WriteString(strings.Replace(strings.TrimSpace(head), "{{sandbox}}", sb, 1))
	b.WriteString("\n\n# Environment\n")
	if !told {
		b.WriteString(sb + "\n")
	}
	fmt.Fprintf(&b, "- Working directory: %s\n", in.WorkDir)
	fmt.Fprintf(&b, "- Platform: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	if !in.Now.IsZero() {
		fmt.Fprintf(&b, "- Date: %s\n", in.Now.Format("2006-01-02"))
	}
	if in.Model != "" {
		fmt.Fprintf(&b, "- Model: %s\n", in.Model)
	}
	if in.Profile != "" {
		fmt.Fprintf(&b, "- Agent profile: %s\n", in.Profile)
	}
	if s := strings.TrimSpace(in.ProfileAddition); s != "" {
		b.WriteString("\n# Profile instructions\n")
		b.WriteString(s)
		b.WriteString("\n")
	}
	b.WriteString(in.ProjectContext)
	writeSkills(&b, in.Skills)
	var used string
	if in.Trusted {
		if path, doc := findProjectDoc(in.WorkDir); doc != "" {
			used = path
			fmt.Fprintf(&b, "\n# Project instructions (%s)\n%s\n", filepath.Base(path), doc)
		}
	}
	return b.String(), used
}

func projectDoc(dir string) (string, string) {
	for _, name := range ProjectFiles {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if len(data) > maxProjectDoc {
			cut := maxProjectDoc
			for cut > 0 && !utf8.RuneStart(data[cut]) {
				cut--
			}
			data = append(data[:cut:cut], []byte("\n[... truncated ...]")...)
		}
		return path, strings.TrimSpace(string(data))
	}
	return "", ""
}
