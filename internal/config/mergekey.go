package config

import (
	"errors"
	"fmt"
	"github.com/etalab-ia/albert-code/internal/quantity"
	"slices"
	"strconv"
	"time"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// step merges one part of a layer into the configuration. A layer's merge is a list
// of steps run in order, so that the first bad value is the one reported.
type step func(c *Config, o origin) error

// runSteps runs steps in order and stops at the first error.
func (c *Config) runSteps(o origin, steps ...step) error {
	for _, s := range steps {
		if err := s(c, o); err != nil {
			return err
		}
	}
	return nil
}

// key is the step of one key written and recorded at the same dotted path: when the
// layer sets src, conv checks and converts it into *dst and the path's source is
// recorded. The key's name is thus written once, next to its check.
func key[S, D any](path string, src *S, dst *D, conv func(S) (D, error)) step {
	return keyAt(path, path, src, dst, conv)
}

// entry names one entry of a list merged by name: raw is where it is written
// ("providers[1]"), path where the merged configuration records it ("providers.albert").
type entry struct{ raw, path string }

// entryKey is the step of the key name of entry e.
func entryKey[S, D any](e entry, name string, src *S, dst *D, conv func(S) (D, error)) step {
	return keyAt(e.raw+"."+name, e.path+"."+name, src, dst, conv)
}

// keyAt is key for a value written at raw and recorded at path.
func keyAt[S, D any](raw, path string, src *S, dst *D, conv func(S) (D, error)) step {
	return func(c *Config, o origin) error {
		if src == nil {
			return nil
		}
		v, err := conv(*src)
		if err != nil {
			var h hinted
			if errors.As(err, &h) {
				return fieldError(o, raw, path, h.msg, h.hint)
			}
			return fieldError(o, raw, path, err.Error(), "")
		}
		*dst = v
		c.sources[path] = o(raw)
		return nil
	}
}

// orZero lets a step read the keys of a table the layer may leave out: an absent
// table reads as one whose keys are all unset.
func orZero[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// hinted is a bad value's message with the hint the error shows after it.
type hinted struct{ msg, hint string }

func (h hinted) Error() string { return h.msg }

// The conversions below are the checks keys share; their messages are the
// configuration's own words for each kind of bad value.

// keep takes any value as it is.
func keep[T any](v T) (T, error) { return v, nil }

// cloned takes a list as a copy, so that no layer shares a slice with another.
func cloned(v []string) ([]string, error) { return slices.Clone(v), nil }

func notNegative[T int | float64](v T) (T, error) {
	if v < 0 {
		return v, errors.New("must not be negative")
	}
	return v, nil
}

func positive(v int) (int, error) {
	if v <= 0 {
		return v, errors.New("must be positive")
	}
	return v, nil
}

// fractionCheck accepts a number in (0, 1], or [0, 1] when zero (meaning "off") is allowed.
func fractionCheck(zeroOK bool) func(float64) (float64, error) {
	return func(v float64) (float64, error) {
		if (v > 0 || (zeroOK && v == 0)) && v <= 1 {
			return v, nil
		}
		return v, errors.New("must be a fraction between 0 and 1, got " + strconv.FormatFloat(v, 'g', -1, 64))
	}
}

// parseDuration reads a Go duration string ("90s", "5m"). Durations are strings in
// the file so that a bare number is a type error rather than a guess at its unit.
func parseDuration(v string) (time.Duration, error) {
	d, err := quantity.ParseDuration(v, false)
	switch {
	case errors.Is(err, quantity.ErrNotPositive):
		return 0, fmt.Errorf("invalid duration %q: must be positive", v)
	case err != nil:
		return 0, fmt.Errorf("invalid duration %q: write it like \"90s\" or \"5m\"", v)
	}
	return d, nil
}

// oneOf accepts one of choices; describe words the refusal, and the nearest choice is
// suggested.
func oneOf(choices []string, describe func(v string) string) func(string) (string, error) {
	return func(v string) (string, error) {
		if slices.Contains(choices, v) {
			return v, nil
		}
		return v, hinted{describe(v), tomlfile.Suggest(v, choices)}
	}
}
