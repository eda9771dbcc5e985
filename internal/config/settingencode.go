package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// refused is a value a setting does not take; why, when not empty, says more than
// what the setting allows.
type refused struct{ why string }

func (r refused) Error() string { return r.why }

// encode checks raw, as typed after /config set KEY, and returns it as a TOML
// value and as the text to show. c answers for the model names.
func (s Setting) encode(c *Config, raw string) (literal, shown string, err error) {
	v := strings.TrimSpace(raw)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		v = v[1 : len(v)-1]
	}
	literal, shown, err = s.encodeValue(c, v)
	var r refused
	if errors.As(err, &r) {
		why := ""
		if r.why != "" {
			why = ": " + r.why
		}
		return "", "", fmt.Errorf("%s: invalid value %q%s: want %s", s.Key, raw, why, s.Allowed())
	}
	return literal, shown, err
}

// encodeValue encodes v, unquoted, by the setting's kind.
func (s Setting) encodeValue(c *Config, v string) (literal, shown string, err error) {
	switch s.Kind {
	case KindBool:
		return encodeBool(v)
	case KindFraction:
		return encodeFraction(v, s.ZeroOff)
	case KindInt:
		n, perr := strconv.Atoi(v)
		if perr != nil || n < s.Min || (s.Max > 0 && n > s.Max) {
			return "", "", refused{}
		}
		return strconv.Itoa(n), strconv.Itoa(n), nil
	case KindDuration:
		if _, perr := parseDuration(v); perr != nil {
			return "", "", refused{}
		}
	case KindChoice:
		return encodeChoice(v, s.Choices)
	case KindModel:
		if v == "" {
			return "", "", refused{}
		}
		if _, merr := c.Model(v); merr != nil {
			return "", "", fmt.Errorf("%s: %w", s.Key, merr)
		}
	case KindProfile:
		if v == "" {
			return "", "", refused{}
		}
	case KindText:
		switch {
		case v != "" && s.valid != nil && !s.valid(v):
			return "", "", refused{}
		case strings.ContainsAny(v, "\n\r"):
			return "", "", refused{"it must be one line"}
		}
	}
	return tomlfile.String(v), v, nil
}

func encodeBool(v string) (literal, shown string, err error) {
	switch strings.ToLower(v) {
	case "true", "on", "yes":
		return "true", "true", nil
	case "false", "off", "no":
		return "false", "false", nil
	}
	return "", "", refused{}
}

func encodeFraction(v string, zeroOff bool) (literal, shown string, err error) {
	f, perr := strconv.ParseFloat(v, 64)
	if perr != nil || f < 0 || f > 1 || (f == 0 && !zeroOff) {
		return "", "", refused{}
	}
	shown = formatFloat(f)
	literal = shown
	if !strings.ContainsAny(literal, ".e") {
		literal += ".0" // a TOML float, as the key's type wants
	}
	return literal, shown, nil
}

func encodeChoice(v string, choices []string) (literal, shown string, err error) {
	lv := strings.ToLower(v)
	if !slices.Contains(choices, lv) {
		if near := tomlfile.Suggest(lv, choices); near != "" {
			return "", "", refused{fmt.Sprintf("did you mean %q?", near)}
		}
		return "", "", refused{}
	}
	return tomlfile.String(lv), lv, nil
}
