package index

import "sort"

// Rename is a file whose content moved to another path unchanged.
type Rename struct {
	From string
	To   File
}

// Changes is what differs between the store's manifest and a fresh scan.
type Changes struct {
	Added   []File
	Changed []File
	Removed []string
	Renamed []Rename
	// Unchanged counts the files left as they are.
	Unchanged int
}

// Empty reports whether nothing needs doing.
func (c Changes) Empty() bool {
	return len(c.Added)+len(c.Changed)+len(c.Removed)+len(c.Renamed) == 0
}

// Diff compares manifest (path → content hash, as stored) with files. A removed path
// whose content reappears, unchanged, under exactly one new path is a rename: the
// indexer can move its facts instead of parsing again. Results are sorted by path so
// indexing is deterministic.
func Diff(manifest map[string]string, files []File) Changes {
	var c Changes
	seen := make(map[string]bool, len(files))
	var added []File
	for _, f := range files {
		seen[f.Rel] = true
		old, ok := manifest[f.Rel]
		switch {
		case !ok:
			added = append(added, f)
		case old != f.Hash:
			c.Changed = append(c.Changed, f)
		default:
			c.Unchanged++
		}
	}
	removedByHash := map[string][]string{}
	for p, h := range manifest {
		if !seen[p] {
			removedByHash[h] = append(removedByHash[h], p)
		}
	}
	addedByHash := map[string]int{}
	for _, f := range added {
		addedByHash[f.Hash]++
	}
	for _, f := range added {
		from := removedByHash[f.Hash]
		if len(from) == 1 && addedByHash[f.Hash] == 1 {
			c.Renamed = append(c.Renamed, Rename{From: from[0], To: f})
			delete(removedByHash, f.Hash)
			continue
		}
		c.Added = append(c.Added, f)
	}
	for _, paths := range removedByHash {
		c.Removed = append(c.Removed, paths...)
	}
	sort.Slice(c.Added, func(i, j int) bool { return c.Added[i].Rel < c.Added[j].Rel })
	sort.Slice(c.Changed, func(i, j int) bool { return c.Changed[i].Rel < c.Changed[j].Rel })
	sort.Strings(c.Removed)
	sort.Slice(c.Renamed, func(i, j int) bool { return c.Renamed[i].From < c.Renamed[j].From })
	return c
}
