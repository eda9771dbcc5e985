package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/etalab-ia/albert-code/internal/fswalk"
)

// rescanDirs lists again the files directly in each of dirs (slash-separated,
// relative to the root; "." is the root) and puts them in place of what the scan
// held for those directories, with the same rules as a full walk (ignore files,
// excludes, size limits) and the stamps saving the reading of unchanged files.
// full says only a full scan can tell (a directory vanished, a limit reached, C++
// or Objective-C sources appeared or went, which changes the language of every
// .h file).
func (l *Live) rescanDirs(ctx context.Context, dirs []string) (full bool, err error) {
	lim := l.opts.Limits.withDefaults()
	hadHeaders := headerLanguage(l.scan.Files)
	files, skipped := l.scan.Files, l.scan.Skipped
	slices.Sort(dirs)
	for _, dir := range dirs {
		part, stamps, err := l.listDir(ctx, dir, lim)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errStop) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		l.stats.DirScans++
		files = slices.DeleteFunc(slices.Clone(files), func(f File) bool { return path.Dir(f.Rel) == dir })
		files = append(files, part.Files...)
		skipped = slices.DeleteFunc(slices.Clone(skipped), func(s Skip) bool {
			if path.Dir(s.Rel) != dir {
				return false
			}
			info, err := os.Lstat(filepath.Join(l.root, filepath.FromSlash(s.Rel)))
			return err != nil || !info.IsDir() // a directory's skip belongs to the full walk
		})
		skipped = append(skipped, part.Skipped...)
		for rel := range l.stamps {
			if path.Dir(rel) == dir {
				delete(l.stamps, rel)
			}
		}
		for i, f := range part.Files {
			if stamps[i].Hash != "" {
				l.stamps[f.Rel] = stamps[i]
			}
		}
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	if len(files) > lim.MaxFiles || total > lim.MaxTotal || headerLanguage(files) != hadHeaders {
		return true, nil
	}
	headersAsCpp(files)
	l.scan = &Scan{Files: files, Skipped: skipped}
	return false, nil
}

// listDir lists and hashes the files directly in dir, as the full walk would.
func (l *Live) listDir(ctx context.Context, dir string, lim Limits) (*Scan, []stamp, error) {
	join := func(rel string) string {
		if dir == "." {
			return rel
		}
		return dir + "/" + rel
	}
	part := &Scan{}
	li := &listing{sc: part, lim: lim}
	opts := fswalk.Options{
		OnSkip: func(rel string, reason error) { part.Skipped = append(part.Skipped, Skip{join(rel), reason.Error()}) },
		Override: func(rel string, isDir bool) (bool, bool) {
			if isDir || excluded(lim.Exclude, join(rel)) {
				return true, true // subdirectories have their own events
			}
			return false, false
		},
	}
	abs := filepath.Join(l.root, filepath.FromSlash(dir))
	if info, err := os.Lstat(abs); err != nil || !info.IsDir() {
		return nil, nil, fs.ErrNotExist
	}
	err := fswalk.Walk(ctx, abs, opts, func(p, rel string, d fs.DirEntry) error { return li.add(p, join(rel), d) })
	if err != nil {
		return nil, nil, err
	}
	stamps := hashAll(part, li.paths, li.stamps, l.stamps)
	return part, stamps, nil
}
