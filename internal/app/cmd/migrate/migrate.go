// Package migrate is `albert-code migrate`: take in what the original (Python)
// albert-code left in its home, and say how each of its files is used.
package migrate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm/ratelimit"
	"github.com/etalab-ia/albert-code/internal/migrate"
	"github.com/etalab-ia/albert-code/internal/profile"
)

// Options are `migrate`'s.
type Options struct {
	IO        *cmdutil.IOStreams
	Getwd     func() (string, error)
	LookupEnv func(string) (string, bool)
	Now       func() time.Time
}

// NewCmdMigrate is `migrate`; runF replaces the import.
func NewCmdMigrate(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Getwd: f.Getwd, LookupEnv: f.LookupEnv, Now: f.Now}
	return &cobra.Command{
		Use:   "migrate",
		Short: "Take in what the original albert-code left in ~/.albert-code, and say what was done",
		Long: `migrate imports the original (Python) albert-code's sessions from
~/.albert-code/logs/session into our session folder, leaving the originals there as the
backup, and says how each of its other files is used: config.toml, agents/*.toml,
throttle_state.json and the proxies in .env are read in place on every run. It
changes and deletes nothing of the original's; running it again imports only new
sessions. The first run of albert-code imports the sessions too. docs/migrating.md
lists every difference from the original.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(opts)
			}
			return run(opts)
		},
	}
}

func run(opts *Options) error {
	wd, err := opts.Getwd()
	if err != nil {
		return err
	}
	// Only the home's files: a project's are the project's, not the original's.
	cfg, err := config.Load(config.Options{WorkDir: wd, LookupEnv: opts.LookupEnv, Trusted: func(string) bool { return false }})
	if err != nil {
		return cmdutil.UsageError("%v", err)
	}
	report(opts.IO.Out, cfg, opts)
	return nil
}

// report does the import and prints one line per file of the original.
func report(w io.Writer, cfg *config.Config, opts *Options) {
	home := cfg.Home
	fmt.Fprintf(w, "The original albert-code's files in %s:\n", home)

	orig := config.OriginalConfigFile(home)
	switch {
	case slices.Contains(cfg.Files, orig):
		fmt.Fprintf(w, "config     %s is read in place on every run (not moved: the original may still use it); our own global file, %s, wins over it\n", orig, globalFileOrDefault(opts.LookupEnv))
	case exists(orig):
		fmt.Fprintf(w, "config     %s could not be read; runs go on without it\n", orig)
	default:
		fmt.Fprintln(w, "config     none")
	}
	for _, n := range cfg.Notices {
		fmt.Fprintln(w, "  notice:", n)
	}

	agents := filepath.Join(home, "agents")
	names, _ := filepath.Glob(filepath.Join(agents, "*.toml"))
	if len(names) == 0 {
		fmt.Fprintln(w, "profiles   none")
	} else {
		fmt.Fprintf(w, "profiles   %d in %s, read in place; the original's keys are mapped (docs/migrating.md)\n", len(names), agents)
		if cat, err := profile.Load(profile.Options{Home: home}); err == nil {
			for _, warn := range cat.Warnings {
				fmt.Fprintln(w, "  warning:", warn)
			}
		}
	}

	r := migrate.ImportSessions(home, cfg.Session.Dir)
	fmt.Fprintf(w, "sessions   %d imported into %s, %d imported before; the originals stay in %s as the backup\n",
		len(r.Imported), cfg.Session.Dir, r.Already, migrate.OriginalSessionDir(home))
	for _, id := range r.Imported {
		fmt.Fprintf(w, "  imported: %s (albert-code --resume %s)\n", id, id)
	}
	for _, n := range r.Notices {
		fmt.Fprintln(w, "  notice:", n)
	}

	store := ratelimit.NewStore(home)
	ex, err := store.Exhausted(opts.Now())
	switch {
	case err != nil:
		fmt.Fprintf(w, "throttle   %s could not be read: %v\n", store.ThrottleStatePath(), err)
	case len(ex) > 0:
		for _, e := range ex {
			fmt.Fprintf(w, "throttle   %s: the daily quota of %s is recorded as exhausted until %s\n",
				store.ThrottleStatePath(), e.Model, e.ResetAt().Format("2006-01-02 15:04 MST"))
		}
	default:
		fmt.Fprintln(w, "throttle   no exhausted quota recorded")
	}

	var proxies []string
	noEnv := func(string) (string, bool) { return "", false }
	if s, err := config.LoadSecrets(home, noEnv); err == nil {
		for _, name := range config.ProxyVars {
			if _, _, ok := s.Lookup(name); ok {
				proxies = append(proxies, name)
			}
		}
	}
	if len(proxies) == 0 {
		fmt.Fprintln(w, "proxies    none in .env")
	} else {
		fmt.Fprintf(w, "proxies    %s from %s apply to every provider's HTTP client (a variable exported in the environment wins)\n",
			strings.Join(proxies, ", "), filepath.Join(home, ".env"))
	}
	fmt.Fprintln(w, "models     the original's albert-code, albert-large and devstral-2 stand for models we ship when neither the configuration nor the server has them (docs/migrating.md)")
}

func globalFileOrDefault(lookupEnv func(string) (string, bool)) string {
	if p, err := config.GlobalFile(lookupEnv); err == nil {
		return p
	}
	return "~/.config/albert-code/config.toml"
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
