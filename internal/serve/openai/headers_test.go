package openai

import (
	"strings"
	"testing"
)

const hiBody = `{"messages":[{"role":"user","content":"hi"}]}`

func TestRunHeadersReachTheAgent(t *testing.T) {
	t.Parallel()
	srv, f := cliServerWith(t, "testdata/fake-full.toml", "one", "two", "three")
	for _, prefix := range []string{"X-Albert-Code-", "X-Aicodebox-"} {
		resp, body := post(t, srv, chatPath, hiBody,
			prefix+"Extra-Args", `["--flag", "a value"]`,
			prefix+"Tools-Allowlist", "Read, Grep ,,",
			prefix+"Resume", "sess-abc",
			prefix+"Append-System-Prompt", "Be terse.",
			prefix+"Timeout-Seconds", "30")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", prefix, resp.StatusCode, body)
		}
		run := f.runs(t)
		argv := f.read(t, run, "argv")
		for _, want := range []string{"--resume\nsess-abc", "--append-system-prompt\nBe terse.", "--tools\nRead,Grep", "--flag\na value\n"} {
			if !strings.Contains(argv, want) {
				t.Errorf("%s: argv lacks %q: %q", prefix, want, argv)
			}
		}
		if strings.Contains(argv, "--continue") || strings.Contains(argv, "--no-tools") {
			t.Errorf("%s: argv %q", prefix, argv)
		}
	}
	// The legacy X-Claude-* name of continue, with a workspace; CSV extra args and
	// no-tools spelled yes.
	resp, body := post(t, srv, chatPath, hiBody, "X-Claude-Continue", "TRUE", "X-Albert-Code-Workspace", "proj",
		"X-Aicodebox-No-Tools", "yes", "X-Aicodebox-Extra-Args", "--a,--b")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if argv := f.read(t, 3, "argv"); !strings.Contains(argv, "--continue") || !strings.Contains(argv, "--no-tools") || !strings.Contains(argv, "--a\n--b\n") {
		t.Errorf("argv %q", argv)
	}
}

func TestRunHeadersRefuseMalformedValues(t *testing.T) {
	t.Parallel()
	srv, f := cliServerWith(t, "testdata/fake-full.toml")
	tests := []struct{ header, value, says string }{
		{"X-Aicodebox-Json-Schema", "not json", "want a JSON Schema as a JSON object"},
		{"X-Albert-Code-Json-Schema", `["a"]`, "want a JSON Schema as a JSON object"},
		{"X-Aicodebox-Json-Schema", `{"type":"thing"}`, "/type"},
		{"X-Aicodebox-Extra-Args", `["--a", 3]`, "want a JSON array of strings"},
		{"X-Albert-Code-Tools-Allowlist", `[unclosed`, "want a JSON array of strings"},
		{"X-Aicodebox-No-Tools", "maybe", "want 1, true or yes"},
		{"X-Claude-Continue", "sure", "want 1, true or yes"},
		{"X-Aicodebox-Timeout-Seconds", "ten", "want a whole number of seconds above 0"},
		{"X-Albert-Code-Timeout", "-3", "want a whole number of seconds above 0"},
		{"X-Aicodebox-Continue", "1", "a session to continue lives in a workspace"},
	}
	for _, tc := range tests {
		resp, body := post(t, srv, chatPath, hiBody, tc.header, tc.value)
		v := decode(t, body)
		msg, _ := at(v, "error", "message").(string)
		if resp.StatusCode != 400 || at(v, "error", "param") != tc.header || !strings.HasPrefix(msg, tc.header+": ") || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %s: %d %s", tc.header, tc.value, resp.StatusCode, body)
		}
	}
	if n := f.runs(t); n != 0 {
		t.Errorf("malformed headers started %d runs", n)
	}
}

func TestSchemaHeaderIsAFallbackForResponseFormat(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, `{"city":"Lyon"}`, `{"n":1}`)
	schema := `{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}`
	_, body := post(t, srv, chatPath, hiBody, "X-Aicodebox-Json-Schema", schema)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"city":"Lyon"}` || !strings.Contains(f.read(t, 1, "prompt"), `"required":["city"]`) {
		t.Errorf("%s; prompt %q", body, f.read(t, 1, "prompt"))
	}
	// The body's response_format wins: {"n":1} matches it, not the header's schema.
	_, body = post(t, srv, chatPath, `{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`,
		"X-Albert-Code-Json-Schema", schema)
	if at(decode(t, body), "choices", 0, "message", "content") != `{"n":1}` || f.runs(t) != 2 {
		t.Errorf("%s after %d runs", body, f.runs(t))
	}
}

func TestTimeoutHeaderStopsTheRun(t *testing.T) {
	t.Parallel()
	srv, f := cliServer(t, "late")
	f.set(t, 1, "sleep", "30")
	resp, body := post(t, srv, chatPath, hiBody, "X-Aicodebox-Timeout-Seconds", "1")
	if resp.StatusCode != 504 || at(decode(t, body), "error", "code") != "timeout" {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

func TestNativeRefusesAgentHeaders(t *testing.T) {
	t.Parallel()
	srv, fake := nativeServer(t)
	for _, h := range []string{"X-Aicodebox-Resume", "X-Albert-Code-Extra-Args", "X-Aicodebox-No-Tools"} {
		resp, body := post(t, srv, chatPath, hiBody, h, "1")
		if v := decode(t, body); resp.StatusCode != 400 || at(v, "error", "param") != h || !strings.Contains(at(v, "error", "message").(string), "native adapter") {
			t.Errorf("%s: %d %s", h, resp.StatusCode, body)
		}
	}
	if n := len(fake.ModelRequests()); n != 0 {
		t.Errorf("%d model calls", n)
	}
}
