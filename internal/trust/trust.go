// Package trust records which folders the user trusts. A project's own config,
// profiles, tools and AGENTS.md can redirect the API key or auto-approve commands, so
// they are read only from a trusted folder (notes §2.12).
package trust

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/etalab-ia/albert-code/internal/config/tomlfile"
)

// FileName is the store's name in the application home (the original's, notes §2.12).
const FileName = "trusted_folders.toml"

// Decision is what the user said about a folder.
type Decision int

const (
	// Unknown: neither the folder nor an ancestor was ever decided; ask.
	Unknown Decision = iota
	Trusted
	Untrusted
)

func (d Decision) String() string {
	return [...]string{"unknown", "trusted", "untrusted"}[d]
}

// Store is the trusted_folders.toml file. Every change re-reads the file first, so two
// sessions deciding about different folders do not erase each other's decision.
type Store struct {
	path string
	mu   sync.Mutex
}

type document struct {
	Trusted   []string `toml:"trusted"`
	Untrusted []string `toml:"untrusted"`
}

// Open returns the store in home. The file need not exist; if it exists it must parse.
func Open(home string) (*Store, error) {
	s := &Store{path: filepath.Join(home, FileName)}
	if _, err := s.read(); err != nil {
		return nil, err
	}
	return s, nil
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// Status returns the decision that applies to dir: that of the deepest decided folder
// among dir and its ancestors, so trusting ~/src trusts ~/src/app unless
// ~/src/app/vendor was explicitly untrusted.
func (s *Store) Status(dir string) (Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir, err := canonical(dir)
	if err != nil {
		return Unknown, err
	}
	doc, err := s.read()
	if err != nil {
		return Unknown, err
	}
	best, bestLen := Unknown, -1
	for _, e := range []struct {
		list []string
		d    Decision
	}{{doc.Trusted, Trusted}, {doc.Untrusted, Untrusted}} {
		for _, p := range e.list {
			// On a tie (a folder in both lists, hand-edited) untrusted wins: fail closed.
			if within(dir, p) && (len(p) > bestLen || (len(p) == bestLen && e.d == Untrusted)) {
				best, bestLen = e.d, len(p)
			}
		}
	}
	return best, nil
}

// IsTrusted reports whether dir is trusted; errors read as untrusted.
func (s *Store) IsTrusted(dir string) bool {
	d, err := s.Status(dir)
	return err == nil && d == Trusted
}

// Trust records dir (and so its subfolders) as trusted.
func (s *Store) Trust(dir string) error { return s.decide(dir, Trusted) }

// Untrust records dir (and so its subfolders) as untrusted.
func (s *Store) Untrust(dir string) error { return s.decide(dir, Untrusted) }

func (s *Store) decide(dir string, d Decision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir, err := canonical(dir)
	if err != nil {
		return err
	}
	doc, err := s.read()
	if err != nil {
		return err
	}
	add, remove := &doc.Trusted, &doc.Untrusted
	if d == Untrusted {
		add, remove = remove, add
	}
	*remove = slices.DeleteFunc(*remove, func(p string) bool { return p == dir })
	if !slices.Contains(*add, dir) {
		*add = append(*add, dir)
		slices.Sort(*add)
	}
	return s.write(doc)
}

func (s *Store) read() (document, error) {
	var doc document
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("read trusted folders: %w", err)
	}
	lines, err := tomlfile.Decode(s.path, data, &doc)
	if err != nil {
		return doc, fmt.Errorf("trusted folders file is corrupt, fix or delete it: %w", err)
	}
	for key, list := range map[string][]string{"trusted": doc.Trusted, "untrusted": doc.Untrusted} {
		for i, p := range list {
			if !filepath.IsAbs(p) {
				return doc, &tomlfile.Error{Where: s.path, Line: lines.Line(key), Key: key,
					Msg: fmt.Sprintf("entry %d %q is not an absolute path", i+1, p)}
			}
			list[i] = filepath.Clean(p)
		}
	}
	return doc, nil
}

// write replaces the file atomically: a crash leaves the old file or the new one,
// never half of one.
func (s *Store) write(doc document) error {
	var buf bytes.Buffer
	buf.WriteString("# Folders albert-code trusts. Edit with care: a trusted project's config can\n# run tools without asking.\n")
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return fmt.Errorf("encode trusted folders: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("save trusted folders: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".trusted_folders-*.toml")
	if err != nil {
		return fmt.Errorf("save trusted folders: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("save trusted folders: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save trusted folders: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save trusted folders: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("save trusted folders: %w", err)
	}
	return nil
}

// canonical makes dir absolute and clean and resolves symlinks, so a folder reached
// through a link gets the decision of its real path. A folder that does not exist
// (yet) is compared by its cleaned absolute path.
func canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("trust %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return filepath.Clean(abs), nil
}

// within reports whether dir is root or inside it.
func within(dir, root string) bool {
	if dir == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(dir, root)
}
