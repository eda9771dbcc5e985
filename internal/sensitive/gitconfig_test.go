package sensitive

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseGitConfig(t *testing.T) {
	t.Parallel()
	src := "\ufeff# a comment\n[core]\n\trepositoryformatversion = 0\n\tbare\n" +
		"[Remote \"Origin\"]\n\tURL = \"/srv/a b\" ; trailing\n" +
		"[branch.Main] merge = refs/heads/main\n" +
		"[core] fsMonitor = touch \\\n  /tmp/x # comment\r\n" +
		"[alias]\n\tst = \"!sh -c \\\"echo \\\\ \\\\\\\"\"\n"
	got, err := ParseGitConfig([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []GitConfigEntry{
		{Section: "core", Key: "repositoryformatversion", Value: "0"},
		{Section: "core", Key: "bare", NoValue: true},
		{Section: "remote", Subsection: "Origin", Key: "url", Value: "/srv/a b"},
		{Section: "branch", Subsection: "main", Key: "merge", Value: "refs/heads/main"},
		{Section: "core", Key: "fsmonitor", Value: "touch   /tmp/x"},
		{Section: "alias", Key: "st", Value: `!sh -c "echo \ \"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// TestParseGitConfigRefuses: what git would not read is an error naming the line,
// never a guess.
func TestParseGitConfigRefuses(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"key = 1\n",              // outside any section
		"[core\n",                // header not closed
		"[remote origin]\n",      // subsection not quoted
		"[remote \"o]\n",         // subsection not closed
		"[core]\n\tx = \"open\n", // quote not closed
		"[core]\n\tx = a\\q\n",   // unknown escape
		"[core]\n\t1x = a\n",     // a key starts with a letter
		"[core]\n\tx y\n",        // junk after a key
		"[co_re]\n",              // bad section character
		"[core]\n\tx = a\\",      // lone backslash at the end
		"[remote \"o\" ]\n",      // junk after the subsection
	} {
		if _, err := ParseGitConfig([]byte(src)); err == nil || !strings.Contains(err.Error(), "git config line") {
			t.Errorf("%q: err %v, want a refusal naming the line", src, err)
		}
	}
}

// FuzzParseGitConfig: the parser never panics, and what it reads, written back in
// git's canonical form, reads back the same: no entry is lost or invented between
// what it saw and what git would see.
func FuzzParseGitConfig(f *testing.F) {
	for _, s := range []string{
		"[core]\n\tfsmonitor = evil\n",
		"[remote \"origin\"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		"[core] bare\n[a.B]c=\"q\\\"\" ; c\n",
		"[include]\npath = ../x\n[includeIf \"gitdir:/\"]\npath=y\n",
		"[x]\ny = a\\\nb\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := ParseGitConfig(data)
		if err != nil {
			return
		}
		again, err := ParseGitConfig([]byte(writeGitConfig(es)))
		if err != nil {
			t.Fatalf("canonical form of %q does not parse: %v", data, err)
		}
		if len(es) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(es, again) {
			t.Fatalf("%q read %+v, its canonical form %+v", data, es, again)
		}
		for _, e := range es {
			if e.Section != strings.ToLower(e.Section) || e.Key != strings.ToLower(e.Key) || e.Key == "" {
				t.Fatalf("%q: entry %+v not normalised", data, e)
			}
		}
	})
}

// writeGitConfig writes entries in git's canonical form, each under its own header.
func writeGitConfig(es []GitConfigEntry) string {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	var b strings.Builder
	for _, e := range es {
		b.WriteString("[" + e.Section)
		if e.Subsection != "" {
			b.WriteString(` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(e.Subsection) + `"`)
		}
		b.WriteString("]\n\t" + e.Key)
		if !e.NoValue {
			b.WriteString(` = "` + esc.Replace(e.Value) + `"`)
		}
		b.WriteString("\n")
	}
	return b.String()
}
