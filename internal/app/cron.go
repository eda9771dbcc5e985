package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/serve/adapter"
	serveconfig "github.com/etalab-ia/albert-code/internal/serve/config"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/runner"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

func newCronCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cron",
		Short: "Check a scheduler job file and preview when its jobs fire",
		Long: `The scheduler of albert-code serve (ALBERT_CODE_CRON_MODE=1) runs the jobs of a
YAML file (ALBERT_CODE_CRON_MODE_FILE); docs/serve-cron.md describes it.

  albert-code cron validate jobs.yml     every problem, naming the job and the key
  albert-code cron list jobs.yml         each job's next fire times`,
	}
	cmd.AddCommand(newCronValidateCmd(), newCronListCmd())
	return cmd
}

func newCronValidateCmd() *cobra.Command {
	var root string
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a job file strictly: keys, types, schedules, time zones, workspaces",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := loadCronFile(args[0])
			if err != nil {
				return err
			}
			if root == "" {
				c, _, _ := serveconfig.Parse(serveconfig.OS())
				root = c.Workspace
			}
			checked, err := checkCronWorkspaces(f, root)
			if err != nil {
				return usageError("%v", err)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s: %s, %d enabled: valid\n", f.Path, countOf(len(f.Jobs), "job"), len(f.Enabled()))
			if !checked {
				fmt.Fprintf(out, "workspaces not checked: the root %s does not exist (give --workspace)\n", root)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&root, "workspace", "", "root folder of the workspaces, to check that each job's exists (default: ALBERT_CODE_WORKSPACE)")
	return cmd
}

func newCronListCmd() *cobra.Command {
	var count int
	var from string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [FILE]",
		Short: "List the jobs and their next fire times (FILE defaults to ALBERT_CODE_CRON_MODE_FILE)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			} else {
				c, _, _ := serveconfig.Parse(serveconfig.OS())
				path = c.Cron.File
			}
			if path == "" {
				return usageError("cron list: give the job file, or set ALBERT_CODE_CRON_MODE_FILE")
			}
			if count < 1 {
				return usageError("--count: want at least 1, got %d", count)
			}
			now := time.Now()
			if from != "" {
				t, err := time.Parse(time.RFC3339, from)
				if err != nil {
					return usageError("--from: want a time such as 2026-12-01T09:00:00Z, got %q", from)
				}
				now = t
			}
			f, err := loadCronFile(path)
			if err != nil {
				return err
			}
			rows := cronListing(f, now, count)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			printCronListing(cmd.OutOrStdout(), rows)
			return nil
		},
	}
	cmd.Flags().IntVar(&count, "count", 3, "fire times to show per job")
	cmd.Flags().StringVar(&from, "from", "", "list fire times after this time, RFC 3339 (default: now)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// loadCronFile reads a job file; its problems are a usage error, all of them.
func loadCronFile(path string) (*cron.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError("read cron file: %v", err)
	}
	f, err := cron.Parse(path, data, time.Now())
	if err != nil {
		return nil, usageError("%v", err)
	}
	return f, nil
}

// checkCronWorkspaces checks that each enabled job's workspace exists under root;
// false when root itself does not exist, so nothing could be checked.
func checkCronWorkspaces(f *cron.File, root string) (bool, error) {
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return false, nil
	}
	r, err := workspace.NewRoot(root)
	if err != nil {
		return false, err
	}
	if _, ps := cron.CheckWorkspaces(f.Path, f.Jobs, r); len(ps) > 0 {
		return true, ps
	}
	return true, nil
}

// cronJobListing is one job of `cron list`.
type cronJobListing struct {
	Name      string      `json:"name"`
	Schedule  string      `json:"schedule"`
	Timezone  string      `json:"timezone"`
	Workspace string      `json:"workspace"`
	Enabled   bool        `json:"enabled"`
	Next      []time.Time `json:"next"`
}

func cronListing(f *cron.File, now time.Time, count int) []cronJobListing {
	rows := make([]cronJobListing, 0, len(f.Jobs))
	for _, j := range f.Jobs {
		row := cronJobListing{Name: j.Name, Schedule: j.Schedule.Spec, Timezone: j.Schedule.Location.String(), Workspace: j.Workspace, Enabled: j.Enabled, Next: []time.Time{}}
		for t := now; len(row.Next) < count; {
			t = j.Schedule.Next(t)
			if t.IsZero() {
				break
			}
			row.Next = append(row.Next, t)
		}
		rows = append(rows, row)
	}
	return rows
}

func printCronListing(w io.Writer, rows []cronJobListing) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tSCHEDULE\tZONE\tWORKSPACE\tNEXT")
	for _, r := range rows {
		next := make([]string, len(r.Next))
		for i, t := range r.Next {
			next[i] = t.Format("2006-01-02 15:04:05 MST")
		}
		when := strings.Join(next, ", ")
		if !r.Enabled {
			when = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.Schedule, r.Timezone, r.Workspace, when)
	}
	tw.Flush()
}

// newServeCron builds the scheduler of `serve` when the cron mode is on and the
// API's is not (the API wins, as in the original), or returns nil. Jobs run on
// the serve layer's backend through its runner, and take the same workspace
// locks as the other modes. A non-nil notifier (the bot of this process) sends
// the notifications; otherwise cron builds its own sender when jobs name a chat.
func newServeCron(c serveconfig.Config, home string, backend adapter.Backend, root *workspace.Root, locks *workspace.Locks, notifier cron.Notifier, claims cron.TickClaimer, logger *slog.Logger) (*cron.Scheduler, error) {
	if !c.Cron.Enabled {
		return nil, nil
	}
	if c.API.Enabled {
		logger.Warn("cron mode ignored: the API mode wins, as in the original; run the scheduler in a second albert-code serve")
		return nil, nil
	}
	if c.Cron.File == "" {
		return nil, usageError("%s: the cron mode needs its job file: set %s=jobs.yml", c.Source("CRON_MODE"), c.Source("CRON_MODE_FILE"))
	}
	f, err := loadCronFile(c.Cron.File)
	if err != nil {
		return nil, err
	}
	if err := checkServeModels(backend, cronModelUses(f)); err != nil {
		return nil, err
	}
	history := cronHistoryDir(c, home)
	if notifier == nil {
		if notifier, err = newCronNotifier(c, f.Jobs, logger); err != nil {
			return nil, err
		}
	} else {
		logger.Info("cron: notifications go through the Telegram bot of this process")
	}
	rn := runner.New(runnerOptions(c))
	sched, err := cron.New(cron.Options{
		Jobs: f.Jobs, File: f.Path, Root: root, Locks: locks, HistoryDir: history, Logger: logger,
		Agent: cron.AgentFunc(func(ctx context.Context, req adapter.Request) (adapter.Result, error) {
			return rn.Run(ctx, backend, req, nil)
		}),
		Notifier: notifier, Claims: claims,
	})
	if err != nil {
		return nil, usageError("%v", err)
	}
	logger.Info("cron: jobs loaded", "file", c.Cron.File, "jobs", len(f.Jobs), "enabled", len(f.Enabled()), "history", history)
	return sched, nil
}

// cronHistoryDir is where cron keeps its runs and the messages it sent, which
// the bot reads to answer replies to notifications.
func cronHistoryDir(c serveconfig.Config, home string) string {
	if c.Cron.HistoryDir != "" {
		return c.Cron.HistoryDir
	}
	return filepath.Join(home, "cron")
}
