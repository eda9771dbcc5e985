package serve

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
)

// With the API on, the scheduler yields, as the original's modes did.
func TestCronModeYieldsToTheAPI(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	c, _, _ := serveconfig.Parse(serveconfig.Source{LookupEnv: func(k string) (string, bool) {
		v, ok := map[string]string{"ALBERT_CODE_API_MODE": "1", "ALBERT_CODE_CRON_MODE": "1", "ALBERT_CODE_CRON_MODE_FILE": "/nonexistent.yml"}[k]
		return v, ok
	}})
	sched, err := newServeCron(c, t.TempDir(), nil, nil, nil, nil, nil, nil, slog.New(slog.NewTextHandler(&log, nil)))
	if sched != nil || err != nil || !strings.Contains(log.String(), "the API mode wins") {
		t.Errorf("sched %v, err %v, log %s", sched, err, log.String())
	}
}
