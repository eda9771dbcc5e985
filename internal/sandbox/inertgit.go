package sandbox

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// A nested .git a command made (git clone, git init, cargo new) is kept when git,
// run there later by the user outside the sandbox, can run nothing it names: its
// config holds only variables from safeGitKeys, its hooks are git's samples, and
// nothing points git at another folder. Everything else fails closed: the .git goes.
// Attributes alone run nothing: a filter, diff or merge driver needs a config
// command, which the config may not hold.

// safeGitKeys are the variables a kept config may hold, by section (and, for a
// section with subsections, the key after the subsection). What git clone, git
// init, git submodule and sparse or partial clones write; none names a program.
var safeGitKeys = map[string][]string{
	"core": {"repositoryformatversion", "filemode", "bare", "logallrefupdates", "ignorecase",
		"precomposeunicode", "symlinks", "autocrlf", "eol", "sparsecheckout", "sparsecheckoutcone"},
	"extensions": {"objectformat", "worktreeconfig", "partialclone", "refstorage"},
	"user":       {"name", "email"},
	"init":       {"defaultbranch"},
	"gc":         {"auto"},
	"index":      {"version"},
	"submodule":  {"active"}, // a pathspec: which submodules clone --recurse-submodules set up
}

// safeGitSubKeys are the same for the sections that take a subsection.
var safeGitSubKeys = map[string][]string{
	"remote":    {"url", "fetch", "pushurl", "tagopt", "prune", "mirror", "promisor", "partialclonefilter"},
	"branch":    {"remote", "merge", "rebase"},
	"submodule": {"url", "active", "update"},
}

// gitConfigRisk returns why e would let git run something (or cannot be vouched
// for), or "" when it is on the safe list.
func gitConfigRisk(e sensitive.GitConfigEntry) string {
	var allowed []string
	if e.Subsection == "" {
		allowed = safeGitKeys[e.Section]
		if e.Section == "pack" {
			if _, err := strconv.ParseInt(strings.TrimRight(e.Value, "kKmMgG"), 10, 64); err == nil {
				return ""
			}
			return "sets " + e.Name() + " to something other than a number"
		}
	} else {
		allowed = safeGitSubKeys[e.Section]
	}
	for _, k := range allowed {
		if k == e.Key {
			if e.Section == "submodule" && k == "update" && strings.HasPrefix(strings.TrimSpace(e.Value), "!") {
				return "sets " + e.Name() + " to a command"
			}
			return ""
		}
	}
	return "sets " + e.Name() + ", which is not on the list of settings that run nothing"
}

// maxGitFile bounds what is read of a config, .git file or alternates: git writes
// a few hundred bytes; a larger one is refused rather than read whole.
const maxGitFile = 1 << 20

// readSmallRegular reads path when it is a regular file with one link (a second
// link would let a later write to an ordinary workspace file change it).
func readSmallRegular(path string) ([]byte, string) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, "cannot be read"
	}
	if !fi.Mode().IsRegular() {
		return nil, "is not a regular file"
	}
	if linkCount(fi) > 1 {
		return nil, "has another hard link"
	}
	if fi.Size() > maxGitFile {
		return nil, "is too large to check"
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "cannot be read"
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile+1))
	if err != nil || len(b) > maxGitFile {
		return nil, "cannot be read"
	}
	return b, ""
}

// gitDirRisk returns why the git folder dir (a nested repository's .git, or a
// submodule's folder below its modules/) could make git run something, or "".
func gitDirRisk(ws, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "cannot be read"
	}
	for _, d := range entries {
		p := filepath.Join(dir, d.Name())
		if d.Type()&fs.ModeSymlink != 0 {
			return d.Name() + " is a link"
		}
		var why string
		switch d.Name() {
		case "config", "config.worktree":
			why = configRisk(ws, dir, p)
		case "commondir":
			why = "points git at another folder's config"
		case "hooks":
			why = hooksRisk(p)
		case "objects":
			why = alternatesRisk(ws, p)
		case "modules":
			why = modulesRisk(ws, p)
		case "worktrees":
			if more, _ := os.ReadDir(p); len(more) > 0 {
				why = "has linked worktrees, which point git at other folders"
			}
		}
		if why != "" {
			return d.Name() + " " + why
		}
	}
	return ""
}

// configRisk vets the config file path of the git folder gitDir. core.worktree,
// which a submodule's folder holds, names the worktree: kept when it lies in the
// workspace.
func configRisk(ws, gitDir, path string) string {
	b, why := readSmallRegular(path)
	if why != "" {
		return why
	}
	es, err := sensitive.ParseGitConfig(b)
	if err != nil {
		return fmt.Sprintf("cannot be vouched for (%v)", err)
	}
	for _, e := range es {
		if e.Section == "core" && e.Subsection == "" && e.Key == "worktree" && !e.NoValue {
			wt := e.Value
			if !filepath.IsAbs(wt) {
				wt = filepath.Join(gitDir, wt)
			}
			if !sensitive.Within(ws, realPath(wt)) {
				return "sets core.worktree outside the workspace, to " + e.Value
			}
			continue
		}
		if why := gitConfigRisk(e); why != "" {
			return why
		}
	}
	return ""
}

// hooksRisk: git runs any hook but its samples (*.sample).
func hooksRisk(dir string) string {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return "is not a folder"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "cannot be read"
	}
	for _, d := range entries {
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".sample") {
			return "holds " + d.Name() + ", which git would run"
		}
	}
	return ""
}

// alternatesRisk: objects/info/alternates names object folders git reads; one
// outside the workspace is refused.
func alternatesRisk(ws, objects string) string {
	for _, name := range []string{"alternates", "http-alternates"} {
		p := filepath.Join(objects, "info", name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		b, why := readSmallRegular(p)
		if why != "" {
			return "info/" + name + " " + why
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			target := line
			if !filepath.IsAbs(target) {
				target = filepath.Join(objects, target)
			}
			if !sensitive.Within(ws, realPath(target)) {
				return "info/" + name + " points outside the workspace, to " + line
			}
		}
	}
	return ""
}

// modulesRisk checks each submodule's git folder below modules/ (a folder with a
// HEAD; names may hold slashes, so the folders between are walked through).
func modulesRisk(ws, dir string) string {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return "is not a folder"
	}
	if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err == nil {
		if why := gitDirRisk(ws, dir); why != "" {
			return why
		}
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "cannot be read"
	}
	for _, d := range entries {
		if d.Type()&fs.ModeSymlink != 0 {
			return d.Name() + " is a link"
		}
		if d.IsDir() {
			if why := modulesRisk(ws, filepath.Join(dir, d.Name())); why != "" {
				return d.Name() + "/" + why
			}
		}
	}
	return ""
}

// gitFileRisk returns why a .git file (gitdir: path) could make git run
// something, or "": kept only when it names a submodule's or a worktree's folder
// inside the .git folder of a repository in the workspace (what git submodule and
// git worktree add write): the workspace's own, which the sandbox keeps read-only,
// or a nested one that passes gitDirRisk, submodule folders included.
func gitFileRisk(ws, file string) string {
	b, why := readSmallRegular(file)
	if why != "" {
		return why
	}
	target, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok || target == "" || strings.ContainsAny(target, "\n\x00") {
		return "is not a gitdir: line"
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(file), target)
	}
	real, err := filepath.EvalSymlinks(target)
	if fi, statErr := os.Stat(real); err != nil || statErr != nil || !fi.IsDir() {
		return "points to " + target + ", which is not a folder"
	}
	const outside = ", not into a repository's .git/modules or .git/worktrees in the workspace"
	sep := string(filepath.Separator)
	i := strings.LastIndex(real, sep+".git"+sep)
	if i < 0 {
		return "points to " + target + outside
	}
	repo, rest := real[:i], real[i+len(sep+".git"+sep):]
	under, name, _ := strings.Cut(rest, sep)
	if under != "modules" && under != "worktrees" || name == "" || !sensitive.Within(ws, repo) {
		return "points to " + target + outside
	}
	gitDir := filepath.Join(repo, ".git")
	if fi, err := os.Lstat(gitDir); err != nil || !fi.IsDir() {
		return "points to " + target + outside
	}
	if repo == ws {
		return ""
	}
	if why := gitDirRisk(ws, gitDir); why != "" {
		return "points into " + gitDir + ", whose " + why
	}
	return ""
}

// nestedGitRisk returns why the .git entry p that a command made must go, or ""
// when it is kept.
func nestedGitRisk(ws, p string) string {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return "cannot be read"
	case fi.IsDir():
		return gitDirRisk(ws, p)
	case fi.Mode().IsRegular():
		return gitFileRisk(ws, p)
	}
	return "is neither a folder nor a file"
}
