package shellcmd

import (
	"fmt"
	"slices"
	"strings"
)

// An optionTable is the full list of a program's options, as its own parser knows
// them, so that an option is judged by what the program will take it for: GNU
// getopt_long and git's parse-options take a unique prefix of a long option for the
// option (file --comp is file --compile). An option that is not in the table asks.
type optionTable struct {
	// short is a getopt string: "x" a flag, "x:" takes a value (the rest of the
	// word or the next word), "x::" takes a value in the rest of the word only.
	short string
	// long lists the long options, space-separated: "name" a flag, "name=" takes a
	// value (--name=v or --name v), "name[=]" takes a value after = only.
	long string
	// exact: the program takes only whole long option names (rg, tree).
	exact bool
	// nextWordValues: each value-taking short option of a cluster takes the next
	// word, and the cluster goes on (tree -Lo 1 file).
	nextWordValues bool
	// digits: -NUM is an option (head -5, grep -3, git log -5).
	digits bool
	// asks holds the options that write, run or change something, by "-x" or
	// "--name", with what they do.
	asks map[string]string
	// operand returns why a word that is not an option needs a person's eye, or "".
	operand func(string) string
	// after returns why the options and operands taken together need a person's
	// eye (git branch NAME creates a branch unless --list), or "".
	after func(parsedArgs) string

	shorts map[byte]argKind
	longs  map[string]argKind
	names  []string // long names, sorted
}

type argKind int

const (
	noValue argKind = iota
	needsValue
	attachedValue
)

// parsedArgs are the options (as "-x" or "--name") and operands a program takes.
type parsedArgs struct {
	options  []string
	operands []string
}

func (p parsedArgs) has(opts ...string) bool {
	return slices.ContainsFunc(p.options, func(o string) bool { return slices.Contains(opts, o) })
}

// compiled returns t with its option maps built from short and long.
func (t optionTable) compiled() *optionTable {
	t.shorts = map[byte]argKind{}
	for i := 0; i < len(t.short); i++ {
		k := noValue
		if strings.HasPrefix(t.short[i+1:], "::") {
			k = attachedValue
		} else if strings.HasPrefix(t.short[i+1:], ":") {
			k = needsValue
		}
		t.shorts[t.short[i]] = k
		for i+1 < len(t.short) && t.short[i+1] == ':' {
			i++
		}
	}
	t.longs = map[string]argKind{}
	for _, f := range strings.Fields(t.long) {
		switch {
		case strings.HasSuffix(f, "[=]"):
			t.longs[strings.TrimSuffix(f, "[=]")] = attachedValue
		case strings.HasSuffix(f, "="):
			t.longs[strings.TrimSuffix(f, "=")] = needsValue
		default:
			t.longs[f] = noValue
		}
	}
	for n := range t.longs {
		t.names = append(t.names, n)
	}
	slices.Sort(t.names)
	return &t
}

// dangerous reports whether a word the table cannot read could do harm: the program
// has an option or operand that needs a person's eye.
func (t *optionTable) dangerous() bool {
	return len(t.asks) > 0 || t.operand != nil || t.after != nil
}

// resolveLong returns the long option name, without dashes, that the program takes
// name for: the exact name, else the only one it is a prefix of.
func (t *optionTable) resolveLong(name string) (string, string) {
	if _, ok := t.longs[name]; ok {
		return name, ""
	}
	if t.exact {
		return "", "unknown"
	}
	var matches []string
	for _, n := range t.names {
		if strings.HasPrefix(n, name) {
			matches = append(matches, n)
		}
	}
	switch len(matches) {
	case 0:
		return "", "unknown"
	case 1:
		return matches[0], ""
	}
	return "", "ambiguous (--" + strings.Join(matches, ", --") + ")"
}

// check returns why prog with args, read with the table, needs a person's eye, or "".
func (t *optionTable) check(prog string, args []word) string {
	var p parsedArgs
	options := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit || a.bare {
			if options && t.dangerous() {
				return fmt.Sprintf("the argument %s of %s is only known at run time, and may be an option", a.text, prog)
			}
			continue
		}
		s := a.text
		var r string
		switch {
		case !options || s == "-" || !strings.HasPrefix(s, "-"):
			p.operands = append(p.operands, s)
			if t.operand != nil {
				r = t.operand(s)
			}
		case s == "--":
			options = false
		case strings.HasPrefix(s, "--"):
			r = t.longOption(prog, args, &i, &p)
		default:
			r = t.shortCluster(prog, args, &i, &p)
		}
		if r != "" {
			return r
		}
	}
	if t.after != nil {
		return t.after(p)
	}
	return ""
}

// longOption reads the long option args[*i], and its value.
func (t *optionTable) longOption(prog string, args []word, i *int, p *parsedArgs) string {
	s := args[*i].text
	name, _, hasValue := strings.Cut(s[2:], "=")
	full, bad := t.resolveLong(name)
	if bad != "" {
		return fmt.Sprintf("%s --%s: the option is %s to %s; only known options run unasked", prog, name, bad, prog)
	}
	opt := "--" + full
	p.options = append(p.options, opt)
	if what, ok := t.asks[opt]; ok {
		return fmt.Sprintf("%s %s %s", prog, spelled(s, opt), what)
	}
	switch k := t.longs[full]; {
	case k == noValue && hasValue:
		return fmt.Sprintf("%s %s: %s takes no value", prog, s, opt)
	case k == needsValue && !hasValue:
		return t.value(prog, opt, args, i)
	}
	return ""
}

// shortCluster reads the short options in args[*i] (-vC is -v -C), and their values.
func (t *optionTable) shortCluster(prog string, args []word, i *int, p *parsedArgs) string {
	s := args[*i].text
	if t.digits && strings.Trim(s[1:], "0123456789") == "" {
		p.options = append(p.options, "-NUM")
		return ""
	}
	for j := 1; j < len(s); j++ {
		c := s[j]
		k, ok := t.shorts[c]
		if !ok {
			return fmt.Sprintf("%s -%c: the option is unknown to %s; only known options run unasked", prog, c, prog)
		}
		opt := "-" + string(c)
		p.options = append(p.options, opt)
		if what, ok := t.asks[opt]; ok {
			return fmt.Sprintf("%s %s %s", prog, spelled(s, opt), what)
		}
		switch {
		case k == needsValue && t.nextWordValues:
			if r := t.value(prog, opt, args, i); r != "" {
				return r
			}
		case k == needsValue && j+1 == len(s):
			return t.value(prog, opt, args, i)
		case k != noValue:
			return "" // the rest of the word is the value
		}
	}
	return ""
}

// value takes the next word as the value of opt. A value that splits could hide an
// option; one that reads as a dangerous option asks, in case the program does not
// take it as a value after all.
func (t *optionTable) value(prog, opt string, args []word, i *int) string {
	if *i+1 >= len(args) {
		return ""
	}
	*i++
	v := args[*i]
	if v.bare && t.dangerous() {
		return fmt.Sprintf("the value %s of %s %s is only known at run time, and may be several words", v.text, prog, opt)
	}
	if name, ok := strings.CutPrefix(v.text, "--"); ok {
		name, _, _ = strings.Cut(name, "=")
		if full, bad := t.resolveLong(name); bad == "" {
			if what, ok := t.asks["--"+full]; ok {
				return fmt.Sprintf("%s %s %s: the value reads as --%s, which %s", prog, opt, v.text, full, what)
			}
		}
	}
	return ""
}

// spelled shows an option as written, and as the program reads it when that differs.
func spelled(written, opt string) string {
	if name, _, _ := strings.Cut(written, "="); name == opt {
		return written
	}
	return fmt.Sprintf("%s (read as %s)", written, opt)
}
