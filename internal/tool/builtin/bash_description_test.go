package builtin

import (
	"strings"
	"testing"
	"time"
)

// The model is told the timeout the command will really get: the configured one
// (300 s in the shipped configuration), not a number written in the description.
func TestBashDescriptionStatesTheRealTimeouts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  Env
		want string
	}{
		{Env{BashTimeout: 300 * time.Second}, "The default timeout is 300 seconds; pass `timeout` (seconds, up to 600)"},
		{Env{}, "The default timeout is 120 seconds"},
		{Env{BashTimeout: 90 * time.Second, BashMaxTimeout: 900 * time.Second}, "The default timeout is 90 seconds; pass `timeout` (seconds, up to 900)"},
	} {
		d := Bash(tc.env).Info().Description
		if !strings.Contains(d, tc.want) || strings.Contains(d, "{{") {
			t.Errorf("env %+v: description does not say %q:\n%s", tc.env, tc.want, d)
		}
	}
}
