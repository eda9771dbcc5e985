package ratelimit_test

import (
	"os"
	"path/filepath"
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
