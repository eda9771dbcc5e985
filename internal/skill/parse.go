package skill

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// frontMatter is the YAML header of a SKILL.md (the Agent Skills format).
type frontMatter struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	AllowedTools any    `yaml:"allowed-tools"`
	// UserInvocable false keeps the skill out of the slash commands.
	UserInvocable *bool `yaml:"user-invocable"`
}

// Limits of the Agent Skills format: a name is a short slug, a description fits in
// the system prompt's list.
const (
	maxName        = 64
	maxDescription = 1024
)

// parse reads a SKILL.md: the front matter between two "---" lines, then the body.
func parse(data []byte) (frontMatter, string, error) {
	var fm frontMatter
	if !utf8.Valid(data) {
		return fm, "", errors.New("the file is not UTF-8 text")
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return fm, "", errors.New(`it does not start with front matter (a "---" line, name: and description:, then "---")`)
	}
	header, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		if h, found := strings.CutSuffix(rest, "\n---"); found {
			header, body, ok = h, "", true
		}
	}
	if !ok {
		return fm, "", errors.New(`its front matter has no closing "---" line`)
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(header)))
	dec.KnownFields(false)
	if err := dec.Decode(&fm); err != nil {
		return fm, "", fmt.Errorf("its front matter is not valid YAML: %v", err)
	}
	if err := fm.check(); err != nil {
		return fm, "", err
	}
	return fm, strings.TrimSpace(body), nil
}

func (fm *frontMatter) check() error {
	fm.Name, fm.Description = strings.TrimSpace(fm.Name), strings.TrimSpace(fm.Description)
	switch {
	case fm.Name == "":
		return errors.New("its front matter has no name")
	case !validName(fm.Name):
		return fmt.Errorf("name %q is not 1 to %d lower-case letters, digits and single hyphens", fm.Name, maxName)
	case fm.Description == "":
		return errors.New("its front matter has no description")
	case utf8.RuneCountInString(fm.Description) > maxDescription:
		return fmt.Errorf("its description is longer than %d characters", maxDescription)
	}
	return nil
}

// validName: lower-case letters and digits in groups joined by single hyphens.
func validName(s string) bool {
	if len(s) > maxName || s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// allowedTools reads allowed-tools, written as one string of names separated by
// spaces or commas (the format's way; Claude Code writes "Read, Grep") or as a YAML
// list.
func (fm frontMatter) allowedTools() ([]string, error) {
	switch v := fm.AllowedTools.(type) {
	case nil:
		return nil, nil
	case string:
		return splitTools(v), nil
	case []any:
		out := make([]string, 0, len(v))
		for _, it := range v {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Errorf("allowed-tools has a %T where a tool name should be", it)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("allowed-tools is a %T: write tool names separated by spaces", fm.AllowedTools)
}

// splitTools splits at spaces and commas outside parentheses, so a scoped entry
// such as Bash(git status:*) stays whole.
func splitTools(s string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, t)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || unicode.IsSpace(r)):
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}
