package tomlfile

import (
	"strings"
	"testing"
)

func TestLinesIndexesEveryKeyShape(t *testing.T) {
	doc := `model = "a"
[compaction]
threshold = 0.5

[[models]]
name = "x"
[[models]]
name = "y"
headers = { A = "1" }
[tools.bash]
permission = "ask"
web.fetch = 1
`
	var v map[string]any
	lines, err := DecodeLoose("f.toml", []byte(doc), &v)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]int{
		"model": 1, "compaction.threshold": 3, "models[0].name": 6, "models[1].name": 8,
		"models[1].headers.A": 9, "tools.bash.permission": 11, "tools.bash.web.fetch": 12,
		"models[1].wire_name": 7, // not written: falls back to the entry's header line
	}
	for path, want := range tests {
		if got := lines.Line(path); got != want {
			t.Errorf("Line(%q) = %d, want %d", path, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"model", "agent", "permission", "base_url"}
	tests := map[string]string{"modle": "model", "permision": "permission", "baseurl": "base_url", "zzz": "", "gent": "agent", "xyzzy": ""}
	for in, want := range tests {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeRejectsUnknownKeysWithPosition(t *testing.T) {
	var v struct {
		Name string `toml:"name"`
	}
	_, err := Decode("p.toml", []byte("name = \"a\"\nnmae = \"b\"\n"), &v)
	if err == nil || !strings.Contains(err.Error(), `p.toml:2:1: nmae: unknown key "nmae" (did you mean "name"?)`) {
		t.Errorf("err = %v", err)
	}
}
