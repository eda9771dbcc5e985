package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// Target is the file a setting is saved in.
type Target int

const (
	// TargetGlobal is the user's global config file, for every folder.
	TargetGlobal Target = iota
	// TargetProject is the project's .albert-code.toml.
	TargetProject
)

func (t Target) String() string {
	if t == TargetProject {
		return "project"
	}
	return "global"
}

// Saved says what SaveSetting or UnsetSetting did.
type Saved struct {
	Setting Setting
	Target  Target
	Path    string
	// Value is the value written, as shown; empty when the key was removed.
	Value   string
	Removed bool
	// OverriddenBy names a layer above the file that sets the key too, and so
	// wins over the value saved here; empty when none does.
	OverriddenBy string
}

// Reload loads the configuration again with the options this one was loaded
// with, to see files just saved.
func (c *Config) Reload() (*Config, error) { return Load(c.opts) }

// TargetFile returns the file a setting saved to t goes in. The project file is
// the nearest .albert-code.toml (or the one beside the nearest .vibe.toml), else one
// at the root of the git repository, else in the working folder; it is refused
// when that folder is not trusted, since its files would not be read.
func (c *Config) TargetFile(t Target) (string, error) {
	if t == TargetGlobal {
		if c.globalFile == "" {
			return "", errors.New("no global config file is known for this run")
		}
		return c.globalFile, nil
	}
	wd := c.opts.WorkDir
	if wd == "" {
		return "", errors.New("no project folder is known for this run: save with --global")
	}
	dir := FindProjectDir(wd)
	if dir == "" {
		dir = gitRoot(wd)
	}
	if c.opts.Trusted != nil && !c.opts.Trusted(dir) {
		return "", fmt.Errorf("%s is not a trusted folder, so its %s is not read: trust it first (/trust), or save with --global", dir, projectFileName)
	}
	return filepath.Join(dir, projectFileName), nil
}

// gitRoot returns the nearest folder from dir upwards holding .git, else dir.
func gitRoot(dir string) string {
	for d := dir; ; {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// SaveSetting writes key = value into t's file, editing it in place: comments,
// order and other keys are kept, and the file is replaced atomically. The value is
// checked first; the error names the key and what it accepts. A file that does not
// load is never changed: the error names it and the line at fault.
func (c *Config) SaveSetting(key, value string, t Target) (Saved, error) {
	s, err := LookupSetting(key)
	if err != nil {
		return Saved{}, err
	}
	if s.GlobalOnly && t == TargetProject {
		return Saved{}, fmt.Errorf("%s is read from your global config only: a project file is written by the repository's authors, who must not be able to change it; save it with --global", key)
	}
	literal, shown, err := s.encode(c, value)
	if err != nil {
		return Saved{}, err
	}
	path, err := c.TargetFile(t)
	if err != nil {
		return Saved{}, err
	}
	err = editFile(path, func(data []byte) ([]byte, error) {
		return tomlfile.SetKey(path, data, strings.Split(key, "."), literal)
	})
	if err != nil {
		return Saved{}, err
	}
	return Saved{Setting: s, Target: t, Path: path, Value: shown, OverriddenBy: c.overriding(key, path, t)}, nil
}

// UnsetSetting removes key from t's file, so that a lower layer's value applies.
// A key the file does not set is an error that says where the value comes from.
func (c *Config) UnsetSetting(key string, t Target) (Saved, error) {
	s, err := LookupSetting(key)
	if err != nil {
		return Saved{}, err
	}
	path, err := c.TargetFile(t)
	if err != nil {
		return Saved{}, err
	}
	found := false
	err = editFile(path, func(data []byte) ([]byte, error) {
		out, ok, err := tomlfile.DeleteKey(path, data, strings.Split(key, "."))
		found = ok
		return out, err
	})
	if err != nil {
		return Saved{}, err
	}
	if !found {
		src, _ := c.Source(key)
		return Saved{}, fmt.Errorf("%s is not set in %s (its value comes from %s)", key, path, src)
	}
	return Saved{Setting: s, Target: t, Path: path, Removed: true, OverriddenBy: c.overriding(key, path, t)}, nil
}

// SettingTarget says which of the global and project files sets key now, for
// /config unset without --global or --project.
func (c *Config) SettingTarget(key string) (Target, bool) {
	src, ok := c.Source(key)
	if !ok || src.Kind != SourceFile {
		return 0, false
	}
	if src.Name == c.globalFile {
		return TargetGlobal, true
	}
	if filepath.Base(src.Name) == projectFileName {
		return TargetProject, true
	}
	return 0, false
}

// overriding names the source of key when it is a layer above t's file: a
// project file over the global one, the environment or a flag over both.
func (c *Config) overriding(key, path string, t Target) string {
	src, ok := c.Source(key)
	if !ok {
		return ""
	}
	switch src.Kind {
	case SourceEnv, SourceFlag:
		return src.String()
	case SourceFile:
		base := filepath.Base(src.Name)
		project := base == projectFileName || base == vibeProjectFileName
		if t == TargetGlobal && project && src.Name != path {
			return src.String()
		}
	}
	return ""
}

// editFile applies edit to the file at path (empty when missing) and replaces it
// atomically. The file must load before the edit, and the result must load too,
// with every check Load makes of one file, or nothing is written.
func editFile(path string, edit func([]byte) ([]byte, error)) error {
	// A symbolic link (dotfiles kept in a repository) stays one: its target is edited.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := checkFile(path, data); err != nil {
		return fmt.Errorf("%w\n%s was left unchanged: fix it first", err, path)
	}
	out, err := edit(data)
	if err != nil {
		return err
	}
	if err := checkFile(path, out); err != nil {
		return fmt.Errorf("the change would make %s invalid, so it was not written: %w", path, err)
	}
	return writeFileAtomic(path, out)
}

// checkFile decodes data as Load decodes path, and merges it onto an empty
// configuration, which runs the per-file checks (value ranges, a project file's
// [sandbox]).
func checkFile(path string, data []byte) error {
	var l layer
	lines, err := tomlfile.Decode(path, data, &l)
	if err != nil {
		return err
	}
	scratch := &Config{sources: map[string]Source{}}
	return scratch.apply(&l, fileOrigin(path, lines))
}

// writeFileAtomic replaces path with data through a temporary file in the same
// folder, synced before the rename: a crash leaves the old file or the new one,
// never half of one. An existing file keeps its permissions.
func writeFileAtomic(path string, data []byte) error {
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename it is gone already
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
