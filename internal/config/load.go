package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

//go:embed defaults.toml
var defaultsTOML []byte

// Overrides are the command-line flags; the zero value of a field means "not given".
type Overrides struct {
	Model   string // --model
	BaseURL string // --base-url: the active model's provider base URL
	Agent   string // --agent
	// EnabledTools and DisabledTools replace the lists when non-nil.
	EnabledTools  []string // --enabled-tools
	DisabledTools []string // --disabled-tools
}

// Options tell Load where to look. The zero value reads the real process state.
type Options struct {
	// WorkDir is where the project file search starts; empty means os.Getwd.
	WorkDir   string
	Overrides Overrides
	// LookupEnv replaces os.LookupEnv (tests, the serve layer's per-run environments).
	LookupEnv func(string) (string, bool)
	// Trusted says whether a project directory's files may be read. A project file can
	// redirect base_url and so receive the API key, so the app passes the trusted
	// folders check here; nil reads every project file.
	Trusted func(dir string) bool
	// ListModels reads a server's model list for names no configured model has;
	// nil accepts configured models only.
	ListModels ListModels
}

// Load builds the configuration from every layer and checks it.
func Load(opts Options) (*Config, error) {
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	wd := opts.WorkDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("load config: %w", err)
		}
	}
	home, err := HomeDir(lookup)
	if err != nil {
		return nil, err
	}
	c := &Config{Home: home, sources: map[string]Source{}, listModels: opts.ListModels}
	c.opts = opts
	c.opts.WorkDir = wd

	var defaults layer
	if _, err := tomlfile.Decode("defaults.toml", defaultsTOML, &defaults); err != nil {
		return nil, fmt.Errorf("built-in defaults: %w", err)
	}
	if err := c.apply(&defaults, constOrigin(Source{Kind: SourceDefault})); err != nil {
		return nil, fmt.Errorf("built-in defaults: %w", err)
	}
	c.applyOriginal(home)
	global, err := GlobalFile(lookup)
	if err != nil {
		return nil, err
	}
	c.globalFile = global
	if err := c.applyFile(global, false); err != nil {
		return nil, err
	}
	if dir := FindProjectDir(wd); dir != "" {
		if opts.Trusted != nil && !opts.Trusted(dir) {
			for _, name := range []string{vibeProjectFileName, projectFileName} {
				if p := filepath.Join(dir, name); exists(p) {
					c.Skipped = append(c.Skipped, p)
				}
			}
		} else {
			if err := c.applyFile(filepath.Join(dir, vibeProjectFileName), true); err != nil {
				return nil, err
			}
			if err := c.applyFile(filepath.Join(dir, projectFileName), false); err != nil {
				return nil, err
			}
		}
	}
	env, envOrigin, err := envLayer(lookup)
	if err != nil {
		return nil, err
	}
	if err := c.apply(env, envOrigin); err != nil {
		return nil, err
	}
	flags, flagOrigin := flagLayer(opts.Overrides)
	if err := c.apply(flags, flagOrigin); err != nil {
		return nil, err
	}
	if c.secrets, err = LoadSecrets(home, lookup); err != nil {
		// The .env may be the original's: a bad line costs its keys, not the run.
		c.Notices = append(c.Notices, fmt.Sprintf("%v; going on without that file (fix the line to use its keys)", err))
		c.secrets = &Secrets{lookup: lookup, envPath: filepath.Join(home, ".env")}
	}
	c.finish(wd)
	// The override comes first: a model only the server lists is looked up there.
	if err := c.overrideBaseURL(opts.Overrides.BaseURL, lookup); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// applyFile merges the file at path if it exists; a missing file is not an error.
func (c *Config) applyFile(path string, vibe bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	var (
		l *layer
		o origin
	)
	if vibe {
		l, o, err = decodeVibe(path, data)
	} else {
		l = &layer{}
		var lines tomlfile.Lines
		lines, err = tomlfile.Decode(path, data, l)
		o = fileOrigin(path, lines)
	}
	if err != nil {
		return err
	}
	c.Files = append(c.Files, path)
	return c.apply(l, o)
}

func flagLayer(ov Overrides) (*layer, origin) {
	l := &layer{}
	names := map[string]string{}
	if ov.Model != "" {
		l.Model, names["model"] = &ov.Model, "--model"
	}
	if ov.Agent != "" {
		l.Agent, names["agent"] = &ov.Agent, "--agent"
	}
	if ov.EnabledTools != nil {
		l.EnabledTools, names["enabled_tools"] = &ov.EnabledTools, "--enabled-tools"
	}
	if ov.DisabledTools != nil {
		l.DisabledTools, names["disabled_tools"] = &ov.DisabledTools, "--disabled-tools"
	}
	return l, func(raw string) Source { return Source{Kind: SourceFlag, Name: names[raw]} }
}

// overrideBaseURL points the active model's provider at another server; the flag wins
// over the variable. Other providers keep their URL, so a fallback model on another
// provider still reaches its own server.
func (c *Config) overrideBaseURL(flag string, lookup func(string) (string, bool)) error {
	src := Source{Kind: SourceFlag, Name: "--base-url"}
	url := flag
	if url == "" {
		v, _ := lookup(EnvBaseURL)
		url, src = v, Source{Kind: SourceEnv, Name: EnvBaseURL}
	}
	if url == "" {
		return nil
	}
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return fmt.Errorf("%s: base URL %q must start with http:// or https://", src, url)
	}
	target := c.baseURLProvider()
	if target == "" {
		return nil // validate names the unknown model
	}
	c.baseURLTarget = target
	for i := range c.Providers {
		if c.Providers[i].Name == target {
			c.Providers[i].BaseURL = url
			c.sources["providers."+target+".base_url"] = src
		}
	}
	return nil
}

// finish fills values that depend on others: wire names default to names, the session
// directory defaults to <home>/sessions and is resolved against the file that set it.
func (c *Config) finish(wd string) {
	for i := range c.Models {
		m := &c.Models[i]
		if m.WireName == "" {
			m.WireName = m.Name
			c.sources["models."+m.Name+".wire_name"] = c.sources["models."+m.Name+".name"]
		}
	}
	switch src := c.sources["session.dir"]; {
	case c.Session.Dir == "":
		c.Session.Dir = filepath.Join(c.Home, defaultSessionSubdir)
	case strings.HasPrefix(c.Session.Dir, "~/"):
		if h, err := os.UserHomeDir(); err == nil {
			c.Session.Dir = filepath.Join(h, c.Session.Dir[2:])
		}
	case !filepath.IsAbs(c.Session.Dir) && src.Kind == SourceFile:
		c.Session.Dir = filepath.Join(filepath.Dir(src.Name), c.Session.Dir)
	case !filepath.IsAbs(c.Session.Dir):
		c.Session.Dir = filepath.Join(wd, c.Session.Dir)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
