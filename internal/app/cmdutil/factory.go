package cmdutil

import (
	"fmt"
	"os"
	"time"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
)

// Factory is what a command reads from the world. The root command builds one
// (New) and hands it to every command; a test builds its own with buffers for
// streams, a temporary home in LookupEnv and a fixed clock.
type Factory struct {
	IO *IOStreams
	// Version is the program's version, as --version prints it.
	Version string
	// LookupEnv reads the environment: the configuration's variables, the home.
	LookupEnv func(string) (string, bool)
	// Getwd and Chdir are the process's working folder; only EnterWorkDir moves it.
	Getwd func() (string, error)
	Chdir func(string) error
	Now   func() time.Time
}

// New is the Factory of a real run: the process's environment, folder and clock.
func New(version string, streams *IOStreams) *Factory {
	return &Factory{IO: streams, Version: version, LookupEnv: os.LookupEnv,
		Getwd: os.Getwd, Chdir: os.Chdir, Now: time.Now}
}

// ColorWanted honours NO_COLOR (no-color.org: any non-empty value) and dumb
// terminals.
func (f *Factory) ColorWanted() bool {
	noColor, _ := f.LookupEnv("NO_COLOR")
	term, _ := f.LookupEnv("TERM")
	return noColor == "" && term != "dumb"
}

// UserAgent is what albert-code sends to model servers and MCP clients.
func (f *Factory) UserAgent() string { return "albert-code/" + f.Version }

// HomeDir is albert-code's home (ALBERT_CODE_HOME, else ~/.albert-code).
func (f *Factory) HomeDir() (string, error) { return config.HomeDir(f.LookupEnv) }

// WorkDir is the folder the command runs in.
func (f *Factory) WorkDir() (string, error) {
	wd, err := f.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return wd, nil
}

// EnterWorkDir moves the process into dir (--workdir) when it is given, so that
// tools and the commands they start work there, and returns the working folder.
// It is the one place a command changes the process's folder.
func (f *Factory) EnterWorkDir(dir string) (string, error) {
	if dir != "" {
		if err := f.Chdir(dir); err != nil {
			return "", UsageError("--workdir: %v", err)
		}
	}
	return f.WorkDir()
}

// LoadEnv reads trust, configuration and profiles for workDir. trust trusts the
// folder for this run only (--trust).
func (f *Factory) LoadEnv(workDir string, ov config.Overrides, trust bool) (*agentenv.Env, error) {
	return agentenv.Load(agentenv.Options{WorkDir: workDir, Overrides: ov, Trust: trust,
		LookupEnv: f.LookupEnv, UserAgent: f.UserAgent()})
}

// EnvHere loads the configuration of the working folder, untrusted unless the
// user trusted it; a configuration that does not load is a usage error.
func (f *Factory) EnvHere() (*agentenv.Env, error) {
	wd, err := f.WorkDir()
	if err != nil {
		return nil, err
	}
	e, err := f.LoadEnv(wd, config.Overrides{}, false)
	if err != nil {
		return nil, UsageError("%v", err)
	}
	return e, nil
}
