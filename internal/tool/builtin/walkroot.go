package builtin

import (
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/etalab-ia/albert-code/internal/fswalk"
	"github.com/etalab-ia/albert-code/internal/sensitive"
)

// skipSecret says whether a path met in a walk is a secret; grep and glob step over
// secrets below the folder they search (a walk of the home folder that an approval
// allowed must still not read ~/.ssh).
func (e Env) skipSecret(path string) bool {
	_, ok := e.secret(path)
	return ok
}

// skipping puts the secret rule ahead of a walk's other override: a secret is
// skipped whatever a glob says.
func skipping(root string, secret func(string) bool, next fswalk.Override) fswalk.Override {
	return func(rel string, isDir bool) (bool, bool) {
		if secret(filepath.Join(root, filepath.FromSlash(rel))) {
			return true, true
		}
		if next == nil {
			return false, false
		}
		return next(rel, isDir)
	}
}

// tree opens the files a walk finds below a real root without following a link out
// of it: the walk itself never follows links, and a file swapped for a link between
// the walk and the open is refused (see isAt).
type tree struct {
	root string
	dir  *os.Root // nil when root is a file
	file target
}

func openTree(t target) (*tree, error) {
	info, err := os.Stat(t.real)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return &tree{root: t.real, file: t}, nil
	}
	dir, err := openDir(t, t.real, false)
	if err != nil {
		return nil, err
	}
	return &tree{root: t.real, dir: dir}, nil
}

// read returns the content of the file at p, which the walk found below root.
func (tr *tree) read(p string) ([]byte, error) {
	var (
		f   *os.File
		err error
	)
	if tr.dir == nil {
		f, err = openReal(tr.file)
	} else {
		var rel string
		if rel, err = filepath.Rel(tr.root, p); err != nil {
			return nil, err
		}
		if f, err = openPlain(tr.dir, rel); err == nil {
			if err = isAt(f, p); err != nil {
				f.Close()
			}
		}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func (tr *tree) Close() {
	if tr.dir != nil {
		tr.dir.Close()
	}
}

// slashRel is p relative to root with forward slashes, as globs and rg see it.
func slashRel(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return path.Clean(filepath.ToSlash(rel))
}

// secretsBelow lists the secret paths strictly below root, relative to it.
func (e Env) secretsBelow(root string) []string {
	secrets := e.Secrets
	if secrets == nil {
		secrets = sensitive.DefaultSecrets()
	}
	var out []string
	for _, s := range append(slices.Clip(secrets), sensitive.ProcessFiles) {
		if s != root && sensitive.Within(root, s) && e.skipSecret(s) {
			out = append(out, slashRel(root, s))
		}
	}
	return out
}
