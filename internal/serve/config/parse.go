package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/quantity"
)

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// parseSwitch reads a mode switch. The original counted only "1" as on and
// silently ignored "true"; here the usual spellings work and anything else is an
// error rather than a mode quietly left off.
func parseSwitch(v string, dst *bool) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		*dst = true
	case "", "0", "false", "no", "off":
		*dst = false
	default:
		return errors.New("want 1 (on) or 0 (off)")
	}
	return nil
}

func parsePort(v string, dst *int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 65535 {
		return errors.New("not a port: want a number from 1 to 65535")
	}
	*dst = n
	return nil
}

// parseDuration takes a Go duration ("30m", "1h30m") or a number of seconds, as
// the original's timeoutSeconds.
func parseDuration(v string, dst *time.Duration) error {
	d, err := quantity.ParseDuration(strings.TrimSpace(v), true)
	switch {
	case errors.Is(err, quantity.ErrNotPositive):
		return errors.New("must be more than zero")
	case err != nil:
		return errors.New("not a duration: want one such as 90s, 30m or 6h, or a number of seconds")
	}
	*dst = d
	return nil
}

func parseCount(v string, dst *int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return errors.New("want a whole number, 0 or more")
	}
	*dst = n
	return nil
}

// parseSize reads a byte count: a number of bytes, or one with KiB, MiB or GiB.
func parseSize(v string, dst *int64) error {
	n, err := quantity.ParseSize(v, false)
	if err != nil {
		return errors.New("not a size: want a number of bytes, or one such as 512KiB, 10MiB or 1GiB")
	}
	*dst = n
	return nil
}

// splitList splits a comma-separated list, dropping blanks and spaces around items.
func splitList(v string) []string {
	var out []string
	for item := range strings.SplitSeq(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseTokens reads a comma-separated list of bearer tokens. A value that is set
// but holds no token (",", " ", "a,,b") is refused rather than read as "no
// authentication": a server left open by a typo is worse than one that will not start.
func parseTokens(v string, dst *[]string) error {
	var tokens []string
	for i, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return fmt.Errorf("token %d of the list is empty or only spaces: give each token between commas, "+
				"or unset the variable to run without authentication", i+1)
		}
		tokens = append(tokens, item)
	}
	*dst = tokens
	return nil
}

// formatDuration writes d without the zero units time.Duration.String adds ("30m",
// not "30m0s").
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
