// Package slash is the one registry of slash commands (/help, /model, /compact...).
// The terminal UI runs them from its input line and completes them after "/"; the
// ACP server lists them in available_commands_update and runs those that make sense
// in an editor. Commands act on a Host the face provides; slash imports no face.
package slash

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/etalab-ia/albert-code/internal/editdist"
)

// Face names a front end that offers commands.
type Face string

const (
	FaceTUI Face = "tui"
	FaceACP Face = "acp"
)

// Command is one slash command.
type Command struct {
	// Name is typed after the slash, lower case, without the slash.
	Name    string
	Aliases []string
	// Description is one line for completion menus and /help.
	Description string
	// ArgHint describes the arguments, such as "[instructions]"; empty for none.
	ArgHint string
	// Faces lists the front ends that offer the command.
	Faces []Face
	// Run executes the command with the text after its name (trimmed).
	Run func(ctx context.Context, h Host, args string) error

	fromSkill bool // added by AddSkills, which may replace it
}

// OfferedIn reports whether the command is offered in face f.
func (c Command) OfferedIn(f Face) bool { return slices.Contains(c.Faces, f) }

// Registry holds commands by name and alias. Build it with New or Default, then
// Register more (skills, /quota and /rpm once the rate-limit layer exists).
type Registry struct {
	cmds   []Command
	byName map[string]int
}

// New builds a registry from cmds.
func New(cmds ...Command) (*Registry, error) {
	r := &Registry{byName: map[string]int{}}
	for _, c := range cmds {
		if err := r.Register(c); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds c; its name and aliases must be new, lower case words.
func (r *Registry) Register(c Command) error {
	if c.Run == nil {
		return fmt.Errorf("register /%s: no Run function", c.Name)
	}
	for _, n := range append([]string{c.Name}, c.Aliases...) {
		if n == "" || n != strings.ToLower(n) || strings.ContainsAny(n, " \t/") {
			return fmt.Errorf("register /%s: %q is not a lower-case word", c.Name, n)
		}
		if _, dup := r.byName[n]; dup {
			return fmt.Errorf("register /%s: /%s is already taken", c.Name, n)
		}
	}
	r.cmds = append(r.cmds, c)
	for _, n := range append([]string{c.Name}, c.Aliases...) {
		r.byName[n] = len(r.cmds) - 1
	}
	return nil
}

// Lookup finds a command by name or alias, ignoring case and a leading slash.
func (r *Registry) Lookup(name string) (Command, bool) {
	i, ok := r.byName[strings.ToLower(strings.TrimPrefix(name, "/"))]
	if !ok {
		return Command{}, false
	}
	return r.cmds[i], true
}

// Commands lists the commands offered in face f, sorted by name.
func (r *Registry) Commands(f Face) []Command {
	var out []Command
	for _, c := range r.cmds {
		if c.OfferedIn(f) {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Complete lists the commands of face f whose name or an alias starts with prefix
// (with or without its slash), sorted by name: the "/" completion menu.
func (r *Registry) Complete(f Face, prefix string) []Command {
	prefix = strings.ToLower(strings.TrimPrefix(prefix, "/"))
	var out []Command
	for _, c := range r.Commands(f) {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			if strings.HasPrefix(n, prefix) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// IsCommand reports whether line is meant as a slash command: it starts with "/"
// followed by a letter. "/usr/bin is odd" is a command-shaped line too, and Parse
// then says it is unknown; "/ " or "//x" are plain text.
func IsCommand(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) > 1 && line[0] == '/' && isLetter(line[1])
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// Call is a parsed command line.
type Call struct {
	Command Command
	Args    string
}

// UnknownError says a command does not exist in a face, with the nearest names.
type UnknownError struct {
	Name    string
	Face    Face
	Nearest []string
}

func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("unknown command /%s", e.Name)
	if len(e.Nearest) > 0 {
		msg += ": did you mean /" + strings.Join(e.Nearest, ", /") + "?"
	}
	return msg + " (/help lists the commands)"
}

// ErrNotCommand is returned by Parse for a line that is not a slash command.
var ErrNotCommand = errors.New("not a slash command")

// Parse splits line into a command of face f and its arguments. A name that is
// unknown, or not offered in f, gives an *UnknownError naming the nearest commands.
func (r *Registry) Parse(f Face, line string) (Call, error) {
	if !IsCommand(line) {
		return Call{}, ErrNotCommand
	}
	line = strings.TrimSpace(line)[1:]
	name, args, _ := strings.Cut(line, " ")
	if i := strings.IndexAny(name, "\t\n"); i >= 0 {
		name, args = name[:i], name[i+1:]+" "+args
	}
	c, ok := r.Lookup(name)
	if !ok || !c.OfferedIn(f) {
		return Call{}, &UnknownError{Name: strings.ToLower(name), Face: f, Nearest: r.nearest(f, name)}
	}
	return Call{Command: c, Args: strings.TrimSpace(args)}, nil
}

// nearest returns up to three names of face f within a small edit distance of
// name, or starting with it.
func (r *Registry) nearest(f Face, name string) []string {
	name = strings.ToLower(name)
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	for _, c := range r.Commands(f) {
		best := -1
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			d := editdist.Distance(name, n)
			if strings.HasPrefix(n, name) {
				d = 0
			}
			// Judgement: two edits catch a typo or a swapped pair in a short word
			// without offering /cost for /copy-like noise on every miss.
			if d <= 2 && (best < 0 || d < best) {
				best = d
			}
		}
		if best >= 0 {
			cands = append(cands, cand{c.Name, best})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// Run parses line and runs the command in h's face.
func (r *Registry) Run(ctx context.Context, h Host, line string) error {
	call, err := r.Parse(h.Face(), line)
	if err != nil {
		return err
	}
	return call.Command.Run(ctx, h, call.Args)
}
