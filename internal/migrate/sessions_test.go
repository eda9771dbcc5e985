package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/session"
)

const v1Session = "session_20260312_101500_9f8e7d6c"

// originalHome lays out the session testdata the way the original leaves it.
func originalHome(t *testing.T) (home, dir string) {
	t.Helper()
	home = t.TempDir()
	src := filepath.Join("..", "session", "testdata", "v1", v1Session)
	if err := os.CopyFS(filepath.Join(OriginalSessionDir(home), v1Session), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return home, filepath.Join(home, "sessions")
}

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, dir)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportKeepsTheOriginalsAndResumes(t *testing.T) {
	home, dir := originalHome(t)
	before := tree(t, OriginalSessionDir(home))
	r := ImportSessions(home, dir)
	if len(r.Imported) != 1 || r.Imported[0] != v1Session || len(r.Notices) > 0 {
		t.Fatalf("report = %+v", r)
	}
	after := tree(t, OriginalSessionDir(home))
	if len(after) != len(before) {
		t.Errorf("original folder changed: %v files, was %v", len(after), len(before))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("original %s changed", p)
		}
	}
	copied := tree(t, filepath.Join(dir, v1Session))
	orig := "/" + v1Session + "/"
	if copied["/meta.json.bak"] != before[orig+"meta.json"] || copied["/messages.jsonl.bak"] != before[orig+"messages.jsonl"] {
		t.Errorf("the imported copy lacks its backups: %v", copied)
	}
	l, msgs, err := session.NewStore(dir).Open("9f8e7d6c")
	if err != nil || len(msgs) == 0 {
		t.Fatalf("resume the imported session: %v (%d messages)", err, len(msgs))
	}
	_ = l.Close()
	if again := ImportSessions(home, dir); len(again.Imported) != 0 || again.Already != 1 {
		t.Errorf("second import = %+v, want it skipped", again)
	}
}

func TestUnreadableSessionIsANoticeAndStaysInPlace(t *testing.T) {
	home, dir := originalHome(t)
	bad := filepath.Join(OriginalSessionDir(home), "session_20260313_090000_0badf00d")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "meta.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ImportSessions(home, dir)
	if len(r.Imported) != 1 || len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "0badf00d") || strings.Contains(r.Notices[0], "\n") {
		t.Fatalf("report = %+v, want the good session imported and one line for the bad one", r)
	}
	if _, err := os.Stat(filepath.Join(bad, "meta.json")); err != nil {
		t.Errorf("the unreadable original was touched: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.Base(bad))); !os.IsNotExist(err) {
		t.Errorf("a half import was left in %s", dir)
	}
}

func TestFirstRunImportsOnce(t *testing.T) {
	home, dir := originalHome(t)
	notes := FirstRun(home, dir)
	if len(notes) != 1 || !strings.Contains(notes[0], "imported 1 session") {
		t.Fatalf("first run = %q", notes)
	}
	if again := FirstRun(home, dir); again != nil {
		t.Errorf("second run = %q, want silence", again)
	}
	if fresh := FirstRun(t.TempDir(), dir); fresh != nil {
		t.Errorf("a home without the original's sessions = %q", fresh)
	}
}
