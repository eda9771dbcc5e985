package index

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/etalab-ia/albert-code/internal/fswalk"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// Why a file is left out of the index, or only partly in it. A Skip's Reason
// starts with one of them, then ": " and the detail.
const (
	WhyUnknownLanguage = "unknown language" // no extractor reads this kind of file
	WhyTooLarge        = "too large"        // over Limits.MaxFileBytes
	WhyGenerated       = "generated"        // minified: code no one reads as code
	WhyBinary          = "binary"           // a NUL byte early on
	WhyNotUTF8         = "not UTF-8"        // indexed, read as Latin-1
	WhySymlinkLoop     = "symlink loop"
	WhySymlink         = "symlink" // not followed
	WhyNotRegular      = "not a regular file"
	WhyTooDeep         = "too deep" // past Limits.MaxDepth
	WhyUnreadable      = "unreadable"
	WhyParseError      = "parse error" // facts partial (syntax errors) or absent (quarantined)
	// WhyTestdata: Go under a testdata folder, which the go command never
	// builds (fixtures, often broken on purpose). On x/tools, 489 of 1,291 Go
	// files: reading them cost the first pass 4.1 s of 16.7 and the index 10 of
	// 64 MiB, and their fixtures' names answered questions about the module.
	WhyTestdata = "testdata (not built)"
)

// whyOrder lists the reasons from the most to the least worth a reader's look:
// the bounded list shows the rare problems before the many files of other kinds.
var whyOrder = []string{WhyParseError, WhyNotUTF8, WhyUnreadable, WhySymlinkLoop, WhyTooLarge, WhyTooDeep,
	WhyBinary, WhyGenerated, WhySymlink, WhyNotRegular, WhyTestdata, WhyUnknownLanguage}

// reasonUnknownLanguage is one string for the many files of unknown languages.
const reasonUnknownLanguage = WhyUnknownLanguage + ": no extractor reads this kind of file"

// reasonTestdata is a Go file under testdata's Skip reason.
const reasonTestdata = WhyTestdata + ": the go command never builds a testdata folder"

// because writes a Skip reason.
func because(why, detail string) string { return why + ": " + detail }

// WhyOf classifies a Skip's reason (or a file's parse error) into one of the Why
// constants.
func WhyOf(reason string) string {
	for _, w := range whyOrder {
		if strings.HasPrefix(reason, w+": ") {
			return w
		}
	}
	switch {
	case strings.HasPrefix(reason, fswalk.ErrSymlinkLoop.Error()):
		return WhySymlinkLoop
	case strings.HasPrefix(reason, fswalk.ErrSymlink.Error()):
		return WhySymlink
	case strings.HasPrefix(reason, fswalk.ErrNotRegular.Error()):
		return WhyNotRegular
	case strings.HasPrefix(reason, fswalk.ErrTooDeep.Error()):
		return WhyTooDeep
	case strings.HasPrefix(reason, "no extractor for ") || strings.Contains(reason, "no tree-sitter extraction spec"):
		return WhyUnknownLanguage
	case strings.HasPrefix(reason, "type error: ") || strings.HasPrefix(reason, "load error: ") || goSyntaxError.MatchString(reason):
		return WhyParseError // the Go type checker's: a file whose facts are partial
	case strings.Contains(reason, "syntax") || strings.Contains(reason, "tree-sitter") || strings.Contains(reason, "budget"):
		return WhyParseError
	}
	return WhyUnreadable
}

// goSyntaxError is how the Go extractor writes a syntax error: "line:col: msg".
var goSyntaxError = regexp.MustCompile(`^\d+:\d+: `)

// MaxLeftOutListed bounds LeftOut.Files: the counts are exact, the list is a
// sample a person or an agent can read (the MCP answers' 100 KB budget holds it
// many times over).
const MaxLeftOutListed = 100

// LeftOut is what the index does not hold, or holds only in part, and why:
// exact counts per reason, and the first files by reason (rarest problems first)
// then path.
type LeftOut struct {
	Count    int            `json:"count"`
	ByReason map[string]int `json:"by_reason"`
	Files    []LeftOutFile  `json:"files,omitempty"`
	// Truncated says more files are left out than Files lists.
	Truncated bool `json:"truncated,omitempty"`
}

// LeftOutFile is one file left out: its path, the class of reason and the detail.
// Partial files are in the index, with the facts that could be read.
type LeftOutFile struct {
	Path    string `json:"path"`
	Why     string `json:"why"`
	Reason  string `json:"reason"`
	Partial bool   `json:"partial,omitempty"`
}

// metaLeftOut keeps the last run's LeftOut, for status answers between runs.
const metaLeftOut = "left_out"

// recordLeftOut counts what the scan skipped and what the store holds in part
// (every file with a parse error, not only this run's), and saves it.
func recordLeftOut(ctx context.Context, st *store.Store, skipped []Skip) (*LeftOut, error) {
	lo := &LeftOut{ByReason: map[string]int{}}
	var files []LeftOutFile
	for _, s := range skipped {
		files = append(files, LeftOutFile{Path: s.Rel, Why: WhyOf(s.Reason), Reason: s.Reason})
	}
	// Parse errors are counted in full and listed up to the cap.
	_, rows, _, err := st.Query(ctx, `SELECT path, parse_error, quarantined FROM files WHERE parse_error <> '' ORDER BY path`,
		100_000, 30*time.Second)
	if err != nil {
		return nil, fmt.Errorf("count files left out: %w", err)
	}
	for _, r := range rows {
		p, _ := r[0].(string)
		reason, _ := r[1].(string)
		quarantined, _ := r[2].(int64)
		files = append(files, LeftOutFile{Path: p, Why: WhyOf(reason), Reason: reason, Partial: quarantined == 0})
	}
	rank := map[string]int{}
	for i, w := range whyOrder {
		rank[w] = i
	}
	slices.SortFunc(files, func(a, b LeftOutFile) int {
		return cmp.Or(cmp.Compare(rank[a.Why], rank[b.Why]), strings.Compare(a.Path, b.Path))
	})
	for _, f := range files {
		lo.ByReason[f.Why]++
	}
	lo.Count = len(files)
	if len(files) > MaxLeftOutListed {
		files, lo.Truncated = files[:MaxLeftOutListed], true
	}
	lo.Files = files
	b, err := json.Marshal(lo)
	if err != nil {
		return nil, err
	}
	// An unchanged list is not written again: a kept-open index syncs often.
	if old, _, err := st.Meta(ctx, metaLeftOut); err == nil && old == string(b) {
		return lo, nil
	}
	if err := st.SetMeta(ctx, metaLeftOut, string(b)); err != nil {
		return nil, err
	}
	return lo, nil
}

// notable are the skips without the files of unknown languages.
func notable(skipped []Skip) []Skip {
	var out []Skip
	for _, s := range skipped {
		if why := WhyOf(s.Reason); why != WhyUnknownLanguage && why != WhyTestdata {
			out = append(out, s)
		}
	}
	return out
}

// ReadLeftOut returns what the last index run left out, or nil when no run of
// this version recorded it.
func ReadLeftOut(ctx context.Context, st *store.Store) (*LeftOut, error) {
	v, ok, err := st.Meta(ctx, metaLeftOut)
	if err != nil || !ok || v == "" {
		return nil, err
	}
	var lo LeftOut
	if err := json.Unmarshal([]byte(v), &lo); err != nil {
		return nil, fmt.Errorf("read %s from the index: %w", metaLeftOut, err)
	}
	return &lo, nil
}
