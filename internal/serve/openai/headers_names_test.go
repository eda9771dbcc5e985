package openai

import (
	"cmp"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryRunHeaderUnderBothNames: each run header of the original (X-Aicodebox-*)
// and its X-Albert-Code-* twin, sent alone, reaches the agent: its argv, prompt,
// working folder or timeout.
func TestEveryRunHeaderUnderBothNames(t *testing.T) {
	t.Parallel()
	const schema = `{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}`
	tests := []struct {
		suffix, value string
		more          []string // other headers the setting needs
		answer        string
		check         func(t *testing.T, f *fakeAgent, status int, body []byte)
	}{
		{suffix: "Json-Schema", value: schema, answer: `{"city":"Lyon"}`, check: func(t *testing.T, f *fakeAgent, status int, body []byte) {
			if at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon"}` || !strings.Contains(f.read(t, 1, "prompt"), `"required":["city"]`) {
				t.Errorf("%d %s; prompt %q", status, body, f.read(t, 1, "prompt"))
			}
		}},
		{suffix: "Extra-Args", value: `["--flag","a value"]`, check: argvHas("--flag\na value\n")},
		{suffix: "Tools-Allowlist", value: "Read, Grep", check: argvHas("--tools\nRead,Grep\n")},
		{suffix: "No-Tools", value: "true", check: argvHas("--no-tools\n")},
		{suffix: "Resume", value: "sess-abc", check: argvHas("--resume\nsess-abc\n")},
		{suffix: "Continue", value: "1", more: []string{"Workspace", "proj"}, check: argvHas("--continue\n")},
		{suffix: "Append-System-Prompt", value: "Be terse.", check: argvHas("--append-system-prompt\nBe terse.\n")},
		{suffix: "Workspace", value: "proj", check: func(t *testing.T, f *fakeAgent, status int, body []byte) {
			if cwd := strings.TrimSpace(f.read(t, 1, "cwd")); status != 200 || filepath.Base(cwd) != "proj" {
				t.Errorf("%d %s; the agent ran in %s", status, body, cwd)
			}
		}},
		{suffix: "Timeout-Seconds", value: "1", check: stoppedByTimeout},
		{suffix: "Timeout", value: "1", check: stoppedByTimeout},
	}
	for _, prefix := range []string{"X-Albert-Code-", "X-Aicodebox-"} {
		for _, tc := range tests {
			t.Run(prefix+tc.suffix, func(t *testing.T) {
				t.Parallel()
				srv, f := cliServerWith(t, "testdata/fake-full.toml", cmp.Or(tc.answer, "ok"))
				if strings.HasPrefix(tc.suffix, "Timeout") {
					f.set(t, 1, "sleep", "30")
				}
				headers := []string{prefix + tc.suffix, tc.value}
				for i := 0; i+1 < len(tc.more); i += 2 {
					headers = append(headers, prefix+tc.more[i], tc.more[i+1])
				}
				resp, body := post(t, srv, chatPath, hiBody, headers...)
				tc.check(t, f, resp.StatusCode, body)
			})
		}
	}
}

func argvHas(want string) func(t *testing.T, f *fakeAgent, status int, body []byte) {
	return func(t *testing.T, f *fakeAgent, status int, body []byte) {
		t.Helper()
		if argv := f.read(t, 1, "argv"); status != 200 || !strings.Contains(argv, want) {
			t.Errorf("%d %s; argv %q lacks %q", status, body, argv, want)
		}
	}
}

func stoppedByTimeout(t *testing.T, _ *fakeAgent, status int, body []byte) {
	t.Helper()
	if status != 504 || at(decode(t, body), "error", "code") != "timeout" {
		t.Errorf("%d %s", status, body)
	}
}
