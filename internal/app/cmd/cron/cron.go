// Package cron is `albert-code cron`: check a scheduler job file and list when its
// jobs fire, without starting serve.
package cron

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
)

// NewCmdCron is `cron` and its subcommands.
func NewCmdCron(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cron",
		Short: "Check a scheduler job file and preview when its jobs fire",
		Long: `The scheduler of albert-code serve (ALBERT_CODE_CRON_MODE=1) runs the jobs of a
YAML file (ALBERT_CODE_CRON_MODE_FILE); docs/serve-cron.md describes it.

  albert-code cron validate jobs.yml     every problem, naming the job and the key
  albert-code cron list jobs.yml         each job's next fire times`,
	}
	cmd.AddCommand(NewCmdValidate(f, nil), NewCmdList(f, nil))
	return cmd
}

// LoadFile reads a job file as of now; its problems, all of them, are a usage
// error. serve loads its jobs through it too.
func LoadFile(path string, now time.Time) (*cron.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, cmdutil.UsageError("read cron file: %v", err)
	}
	f, err := cron.Parse(path, data, now)
	if err != nil {
		return nil, cmdutil.UsageError("%v", err)
	}
	return f, nil
}

// serveSettings is serve's configuration as the environment gives it, for the
// defaults (the job file, the workspaces' root); its problems are serve's to report.
func serveSettings(f *cmdutil.Factory) serveconfig.Config {
	c, _, _ := serveconfig.Parse(serveconfig.Source{LookupEnv: f.LookupEnv})
	return c
}
