// Package index turns a repository into code-graph facts: a bounded walk, a content
// hash per file, the difference with what the store already holds, and the
// extractors run on what changed.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/etalab-ia/albert-code/internal/fswalk"
)

// Limits bound a walk, so a home directory or a vendored monorepo cannot exhaust
// the machine. The defaults are the numbers.
type Limits struct {
	MaxFiles     int   // 100,000 files
	MaxFileBytes int64 // 10 MiB a file: larger ones are generated or data
	MaxTotal     int64 // 2 GiB in all
	MaxDepth     int   // 64 directories deep
	// Exclude are extra gitignore-style patterns from the user (path globs matched
	// against the slash-separated path from the root, `**` allowed).
	Exclude []string
}

// DefaultLimits are used where a Limits field is zero.
var DefaultLimits = Limits{MaxFiles: 100_000, MaxFileBytes: 10 << 20, MaxTotal: 2 << 30, MaxDepth: 64}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxFiles > 0 {
		d.MaxFiles = l.MaxFiles
	}
	if l.MaxFileBytes > 0 {
		d.MaxFileBytes = l.MaxFileBytes
	}
	if l.MaxTotal > 0 {
		d.MaxTotal = l.MaxTotal
	}
	if l.MaxDepth > 0 {
		d.MaxDepth = l.MaxDepth
	}
	d.Exclude = l.Exclude
	return d
}

// File is one source file the walk kept.
type File struct {
	Rel      string // slash-separated, relative to the root
	Language string
	Size     int64
	Hash     string // hex SHA-256 of the content
}

// Skip is something the walk left out, and why: nothing is dropped silently.
type Skip struct {
	Rel    string `json:"path"`
	Reason string `json:"reason"`
}

// Scan is what a walk found.
type Scan struct {
	Files   []File
	Skipped []Skip
	// Truncated says a file-count or total-size limit stopped the walk early.
	Truncated bool
}

var errStop = errors.New("walk limit reached")

// ScanTree walks root and hashes every source file in a language the graph knows,
// within limits. Every other file the ignore rules keep is in Skipped with its
// reason (WhyOf): an unknown language, too large, binary, generated, a link.
func ScanTree(ctx context.Context, root string, limits Limits) (*Scan, error) {
	return scanTree(ctx, root, limits, "")
}

// ScanTreeStamped is ScanTree that does not read a file whose metadata is what it
// was when the scan that saved stampPath hashed it (see stamp.trusted), and saves
// the stamps of this scan there. On an unchanged 1,000-file tree it is the
// difference between reading every file and reading none.
func ScanTreeStamped(ctx context.Context, root string, limits Limits, stampPath string) (*Scan, error) {
	return scanTree(ctx, root, limits, stampPath)
}

func scanTree(ctx context.Context, root string, limits Limits, stampPath string) (*Scan, error) {
	sc, _, err := scanTreeWith(ctx, root, limits, stampPath, nil)
	return sc, err
}

// scanTreeWith is scanTree that also returns the stamps of the files it kept and
// calls onDir (when set) with each directory it enters, before its files.
func scanTreeWith(ctx context.Context, root string, limits Limits, stampPath string, onDir func(path, rel string)) (*Scan, map[string]stamp, error) {
	lim := limits.withDefaults()
	for _, p := range lim.Exclude {
		if !doublestar.ValidatePattern(p) {
			return nil, nil, fmt.Errorf("exclude pattern %q is not a valid glob", p)
		}
	}
	sc := &Scan{}
	l := &listing{sc: sc, lim: lim}
	opts := fswalk.Options{
		MaxDepth: lim.MaxDepth,
		OnSkip:   func(rel string, reason error) { sc.Skipped = append(sc.Skipped, Skip{rel, reason.Error()}) },
		OnDir:    onDir,
		Override: func(rel string, _ bool) (bool, bool) {
			if excluded(lim.Exclude, rel) {
				return true, true
			}
			return false, false
		},
	}
	err := fswalk.Walk(ctx, root, opts, func(p, rel string, d fs.DirEntry) error { return l.add(p, rel, d) })
	if err != nil && !errors.Is(err, errStop) {
		return nil, nil, fmt.Errorf("scan %s: %w", root, err)
	}
	paths, stamps := l.paths, l.stamps
	headersAsCpp(sc.Files)
	var prev map[string]stamp
	if stampPath != "" {
		prev = loadStamps(stampPath)
	}
	stamps = hashAll(sc, paths, stamps, prev)
	next := make(map[string]stamp, len(sc.Files))
	for i, f := range sc.Files {
		if stamps[i].Hash != "" {
			next[f.Rel] = stamps[i]
		}
	}
	// Rewriting identical stamps would cost every query's freshness check a
	// file write (4 ms of a 20 ms query on 1,000 files).
	if stampPath != "" && !maps.Equal(prev, next) {
		_ = saveStamps(stampPath, next) // an optimisation: without it the next scan reads every file
	}
	return sc, next, nil
}

// listing collects the files a walk keeps, within the limits, before they are
// hashed: paths and stamps are parallel to sc.Files.
type listing struct {
	sc     *Scan
	lim    Limits
	total  int64
	paths  []string
	stamps []stamp
}

// add considers one file the walk kept; errStop ends the walk at a limit.
func (l *listing) add(p, rel string, d fs.DirEntry) error {
	lang := LanguageOf(rel)
	if lang == "" && path.Ext(rel) == "" && isShellScript(p) {
		lang = "shell" // `bin/deploy`, `.ci/run`: named by their #! line
	}
	if lang == "" {
		l.sc.Skipped = append(l.sc.Skipped, Skip{rel, reasonUnknownLanguage})
		return nil
	}
	if lang == "go" && underTestdata(rel) {
		l.sc.Skipped = append(l.sc.Skipped, Skip{rel, reasonTestdata})
		return nil
	}
	info, err := d.Info()
	if err != nil {
		// Deleted between listing and reading: record it, go on.
		l.sc.Skipped = append(l.sc.Skipped, Skip{rel, because(WhyUnreadable, err.Error())})
		return nil
	}
	if info.Size() > l.lim.MaxFileBytes {
		l.sc.Skipped = append(l.sc.Skipped, Skip{rel, because(WhyTooLarge,
			fmt.Sprintf("%d bytes, over the limit of %d bytes a file", info.Size(), l.lim.MaxFileBytes))})
		return nil
	}
	if len(l.sc.Files) >= l.lim.MaxFiles || l.total+info.Size() > l.lim.MaxTotal {
		l.sc.Truncated = true
		return errStop
	}
	l.total += info.Size()
	l.sc.Files = append(l.sc.Files, File{Rel: rel, Language: lang, Size: info.Size()})
	l.paths = append(l.paths, p)
	l.stamps = append(l.stamps, stampOf(info))
	return nil
}

// hashAll hashes the listed files on every core, each worker reusing one buffer,
// except those a previous stamp vouches for. stamps (parallel to sc.Files) get
// their hash. A file that vanished or became unreadable since the listing, or
// that the hashing found binary or generated (see sniff), is moved to Skipped;
// the stamps returned stay parallel to sc.Files.
func hashAll(sc *Scan, paths []string, stamps []stamp, prev map[string]stamp) []stamp {
	errs := make([]error, len(paths))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(paths), 1)) {
		wg.Go(func() {
			buf := make([]byte, 64*1024)
			h := sha256.New()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				if old, ok := prev[sc.Files[i].Rel]; ok && old.trusted(stamps[i]) {
					sc.Files[i].Hash, stamps[i].Hash, stamps[i].HashedAt = old.Hash, old.Hash, old.HashedAt
					continue
				}
				at := time.Now().UnixNano()
				sc.Files[i].Hash, errs[i] = hashFile(paths[i], sc.Files[i].Language, h, buf)
				if errs[i] == nil {
					stamps[i].Hash, stamps[i].HashedAt = sc.Files[i].Hash, at
				}
			}
		})
	}
	wg.Wait()
	kept, keptStamps := sc.Files[:0], stamps[:0]
	for i, f := range sc.Files {
		if errs[i] != nil {
			reason := errs[i].Error()
			if !errors.Is(errs[i], errLeftOut) {
				reason = because(WhyUnreadable, reason)
			}
			sc.Skipped = append(sc.Skipped, Skip{f.Rel, reason})
			continue
		}
		kept, keptStamps = append(kept, f), append(keptStamps, stamps[i])
	}
	sc.Files = kept
	return keptStamps
}

// excluded matches rel, or one of its parent directories, against the user's
// patterns (doublestar globs: `**` spans directories).
func excluded(patterns []string, rel string) bool {
	for _, p := range patterns {
		p = strings.TrimSuffix(p, "/")
		for r := rel; r != "." && r != ""; r = path.Dir(r) {
			if ok, _ := doublestar.Match(p, r); ok {
				return true
			}
		}
	}
	return false
}

// hashFile hashes the file at p, written in lang, and looks at its bytes on the
// way (sniff): a binary or generated file is an error wrapping errLeftOut.
func hashFile(p, lang string, h hash.Hash, buf []byte) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h.Reset()
	sn := &sniff{}
	if _, err := io.CopyBuffer(io.MultiWriter(h, sn), struct{ io.Reader }{f}, buf); err != nil {
		return "", err
	}
	if why := sn.verdict(lang); why != "" {
		return "", fmt.Errorf("%w%s", errLeftOut, why)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// headersAsCpp gives .h files to the C++ grammar when the tree has C++ sources:
// a header of a C++ project is C++ (classes, namespaces, templates), and the C++
// grammar reads C headers too, while the C grammar fails on C++ ones. Without
// C++, a tree with Objective-C sources gives them to the Objective-C grammar,
// which reads C as well.
func headersAsCpp(files []File) {
	to := headerLanguage(files)
	if to == "c" {
		return
	}
	for i, f := range files {
		if f.Language == "c" && strings.EqualFold(path.Ext(f.Rel), ".h") {
			files[i].Language = to
		}
	}
}

// headerLanguage is the language .h files of a tree with these files are read
// in: "cpp", "objc" or "c".
func headerLanguage(files []File) string {
	hasObjc := false
	for _, f := range files {
		if f.Language == "cpp" {
			return "cpp"
		}
		hasObjc = hasObjc || f.Language == "objc"
	}
	if hasObjc {
		return "objc"
	}
	return "c"
}

// underTestdata reports whether rel is inside a folder named testdata, which
// the go command ignores.
func underTestdata(rel string) bool {
	return strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/")
}
