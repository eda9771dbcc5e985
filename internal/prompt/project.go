package prompt

import (
	"os"
	"path/filepath"
)

// findProjectDoc looks for the project's instructions file in dir, then in each
// parent up to the repository root (the folder holding .git), so an agent started in
// a subfolder still reads the AGENTS.md at the top of the repository. The nearest
// file wins. Outside a repository only dir is read.
func findProjectDoc(dir string) (string, string) {
	for d := dir; ; {
		if path, doc := projectDoc(d); doc != "" {
			return path, doc
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return "", ""
		}
		parent := filepath.Dir(d)
		if parent == d || !insideRepo(parent) {
			return "", ""
		}
		d = parent
	}
}

// insideRepo reports whether dir or one of its parents holds .git.
func insideRepo(dir string) bool {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
