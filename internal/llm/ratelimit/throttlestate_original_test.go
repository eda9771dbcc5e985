package ratelimit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
)

// The original wrote one record at the top level; it must still count as an
// exhausted quota until midnight UTC, naive timestamps read as UTC.
func TestOriginalThrottleStateIsRead(t *testing.T) {
	t.Parallel()
	for name, stamp := range map[string]string{"naive": "2026-03-12T09:15:00.123456", "offset": "2026-03-12T10:15:00.123456+01:00"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			body := `{"model_name": "openai/gpt-oss-120b", "reason": "daily-quota", "body_excerpt": "Rate limit exceeded: 100 requests per day", "recorded_at_iso": "` + stamp + `"}`
			if err := os.WriteFile(filepath.Join(dir, "throttle_state.json"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ratelimit.NewStore(dir).Exhausted(time.Date(2026, 3, 12, 18, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			want := time.Date(2026, 3, 12, 9, 15, 0, 123456000, time.UTC)
			if len(got) != 1 || got[0].Model != "openai/gpt-oss-120b" || got[0].Reason != "daily-quota" ||
				!got[0].RecordedAt.Equal(want) || got[0].BodyExcerpt == "" {
				t.Errorf("exhausted = %+v, want the original's record at %v", got, want)
			}
			if later, _ := ratelimit.NewStore(dir).Exhausted(time.Date(2026, 3, 13, 0, 0, 1, 0, time.UTC)); len(later) != 0 {
				t.Errorf("after midnight UTC = %+v, want the quota back", later)
			}
		})
	}
}

// An unreadable throttle_state.json is rebuilt empty, its bytes kept beside it.
func TestUnreadableThrottleStateIsKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "throttle_state.json")
	if err := os.WriteFile(path, []byte(`{"model_name": `), 0o644); err != nil {
		t.Fatal(err)
	}
	store := ratelimit.NewStore(dir)
	if _, err := store.Exhausted(time.Now()); err != nil {
		t.Fatal(err)
	}
	kept, err := os.ReadFile(path + ".unreadable")
	if err != nil || string(kept) != `{"model_name": ` {
		t.Errorf("kept copy = %q, %v", kept, err)
	}
	w := strings.Join(store.Warnings(), "\n")
	if !strings.Contains(w, path+".unreadable") {
		t.Errorf("warnings %q do not say where the unreadable file is kept", w)
	}
}
