package tomlfile

import (
	"strings"
	"testing"
)

const commented = `# My settings, kept by hand.
model = "qwen"   # the fast one

# How history is summarised.
[compaction]
threshold = 0.7 # rather early
keep_recent_turns = 2

[[models]]
name = "x"
provider = "albert"
`

func TestSetKeyKeepsCommentsOrderAndOtherKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		doc   string
		key   []string
		value string
		want  string
	}{
		{"replaces a top-level value, its comment kept", commented, []string{"model"}, `"mistral-medium"`,
			strings.Replace(commented, `model = "qwen"   # the fast one`, `model = "mistral-medium"   # the fast one`, 1)},
		{"replaces a value in a table", commented, []string{"compaction", "threshold"}, "0.9",
			strings.Replace(commented, "threshold = 0.7 # rather early", "threshold = 0.9 # rather early", 1)},
		{"adds a top-level key after the last one", commented, []string{"agent"}, `"plan"`,
			strings.Replace(commented, "# the fast one\n", "# the fast one\nagent = \"plan\"\n", 1)},
		{"adds a key at the end of its table", commented, []string{"compaction", "new_key"}, "1",
			strings.Replace(commented, "keep_recent_turns = 2\n", "keep_recent_turns = 2\nnew_key = 1\n", 1)},
		{"adds a table at the end", commented, []string{"rate_limits", "tier"}, `"prod"`,
			commented + "\n[rate_limits]\ntier = \"prod\"\n"},
		{"adds to an empty file", "", []string{"model"}, `"qwen"`, "model = \"qwen\"\n"},
		{"adds a table to an empty file", "", []string{"sandbox", "mode"}, `"off"`, "[sandbox]\nmode = \"off\"\n"},
		{"a top-level key goes above the comments of the first table",
			"# header of the file\n\n# compaction\n[compaction]\nthreshold = 0.5\n", []string{"model"}, `"qwen"`,
			"# header of the file\n\nmodel = \"qwen\"\n\n# compaction\n[compaction]\nthreshold = 0.5\n"},
		{"no final newline", "model = \"a\"", []string{"agent"}, `"plan"`, "model = \"a\"\nagent = \"plan\"\n"},
		{"a dotted key of the top level", "compaction.threshold = 0.5\n", []string{"compaction", "keep_recent_turns"}, "3",
			"compaction.threshold = 0.5\ncompaction.keep_recent_turns = 3\n"},
		{"replaces a multi-line array whole", "enabled_tools = [\n  \"read\",\n  \"grep\",\n]\nmodel = \"a\"\n", []string{"enabled_tools"}, `["glob"]`,
			"enabled_tools = [\"glob\"]\nmodel = \"a\"\n"},
		{"keeps CRLF line ends", "model = \"a\"\r\n[bash]\r\ntimeout = \"90s\"\r\n", []string{"bash", "max_output_bytes"}, "100",
			"model = \"a\"\r\n[bash]\r\ntimeout = \"90s\"\r\nmax_output_bytes = 100\r\n"},
		{"an array of tables is not the table", "[[compaction]]\nthreshold = 0.5\n", []string{"model"}, `"a"`,
			"model = \"a\"\n\n[[compaction]]\nthreshold = 0.5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := SetKey("c.toml", []byte(tt.doc), tt.key, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			var v map[string]any
			if _, err := DecodeLoose("c.toml", got, &v); err != nil {
				t.Fatalf("the result does not parse: %v", err)
			}
		})
	}
}

func TestDeleteKeyRemovesOnlyItsLine(t *testing.T) {
	t.Parallel()
	got, found, err := DeleteKey("c.toml", []byte(commented), []string{"compaction", "threshold"})
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	if want := strings.Replace(commented, "threshold = 0.7 # rather early\n", "", 1); string(got) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	same, found, err := DeleteKey("c.toml", []byte(commented), []string{"agent"})
	if err != nil || found || string(same) != commented {
		t.Fatalf("deleting an absent key: found %v, err %v, changed %v", found, err, string(same) != commented)
	}
}

func TestEditRefusesWhatItCannotEditSafely(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, want string
		key             []string
	}{
		{"a file that does not parse, with its line", "model = \"a\"\nagent = \n", "c.toml:2:", []string{"model"}},
		{"a duplicate key", "model = \"a\"\nmodel = \"b\"\n", "c.toml:2", []string{"agent"}},
		{"a table written inline", "compaction = { threshold = 0.5 }\n", "c.toml:1: compaction.threshold: compaction is written here as one value", []string{"compaction", "threshold"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := SetKey("c.toml", []byte(tt.doc), tt.key, "1")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("SetKey err = %v, want it to contain %q", err, tt.want)
			}
			if _, _, err := DeleteKey("c.toml", []byte(tt.doc), tt.key); err == nil {
				t.Fatal("DeleteKey accepted it")
			}
		})
	}
}

func TestStringEncodesForTOML(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"plain", `a "quoted" \ path`, "tab\tand\nnewline", "bell\a", "é ü 漢"} {
		doc := "k = " + String(s) + "\n"
		var v map[string]any
		if _, err := DecodeLoose("s.toml", []byte(doc), &v); err != nil {
			t.Fatalf("%q encoded as %s: %v", s, doc, err)
		}
		if v["k"] != s {
			t.Errorf("%q came back as %q", s, v["k"])
		}
	}
}
