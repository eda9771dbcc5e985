package main

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // dbstat, read-only
)

// The scale leg (-scale DIR) measures one large Go repository against floors
// taken in the same run (issue 17's goals, golang.org/x/tools v0.52.0):
//   - the typed full index (`graph index --rebuild`) against the time and peak
//     memory of go/packages loading the same module with types and syntax,
//     tests included (the loadfloor role): what type-checking costs at least;
//   - the first tree-sitter answers (the tsindex role: the engine's first
//     pass: walk, parse, store; no type checker) against universal-ctags -R;
//   - the index on disk, table by table (SQLite's dbstat);
//   - a running `graph mcp` server: find_callers and a trivial query_graph
//     (SELECT 1) over many calls, communities asked twice, the first answer
//     after an edit.

// scaleReport is what the scale leg measured.
type scaleReport struct {
	Dir        string      `json:"dir"`
	GoFiles    int         `json:"go_files"`
	GoLines    int         `json:"go_lines"`
	Floor      measurement `json:"load_floor"`
	Typed      measurement `json:"typed_index"`
	TreeSitter measurement `json:"tree_sitter_index"`
	// TreeSitterPhases is where the tree-sitter index spent its time (ms).
	TreeSitterPhases map[string]float64 `json:"tree_sitter_phases"`
	Ctags            measurement        `json:"ctags"`
	CtagsBytes       int64              `json:"ctags_bytes"`
	// IndexBytes is every file of the index folder; Tables what each table and
	// index takes inside the database.
	IndexBytes int64            `json:"index_bytes"`
	IndexFiles map[string]int64 `json:"index_files"`
	Tables     []tableSize      `json:"tables"`
	Server     *serverReport    `json:"server,omitempty"`
	// TypedRun is what the median typed index run said of its own time.
	TypedRun typedRun `json:"typed_run"`
}

type tableSize struct {
	Name string `json:"name"`
	// Of is the table the b-tree belongs to: the table itself, an index's table,
	// search for FTS5's shadow tables.
	Of    string `json:"of"`
	Bytes int64  `json:"bytes"`
}

// runScale measures dir (a writable copy of the repository) and prints the report.
func runScale(ctx context.Context, cfg config, dir string, calls int) (*scaleReport, error) {
	runs := max(cfg.N, 1)
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	l := launcher{self: cfg.Self, timeout: cfg.Timeout}
	rep := &scaleReport{Dir: dir, IndexFiles: map[string]int64{}}
	rep.GoFiles, rep.GoLines = countGo(dir)
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, "scale: "+format+"\n", args...) }

	// Warm the build cache (export data of the dependencies) for both legs.
	logf("warming the build cache")
	if _, _, err := l.run(ctx, dir, cfg.Self, "loadfloor", dir); err != nil {
		return nil, err
	}
	// The floor and the typed index alternate, runs times each, so that a
	// change of load on the machine falls on both; the median run is kept.
	var floors, typed []measurement
	var typedRuns []typedRun
	for i := range runs {
		logf("go/packages floor, run %d of %d", i+1, runs)
		m, _, err := l.run(ctx, dir, cfg.Self, "loadfloor", dir)
		if err != nil {
			return nil, err
		}
		floors = append(floors, m)
		logf("typed full index, run %d of %d", i+1, runs)
		var out []byte
		if m, out, err = l.run(ctx, dir, append(cfg.Albert, "graph", "index", "--rebuild", "--json", "--repo", dir)...); err != nil {
			return nil, err
		}
		tr, err := parseTypedRun(out)
		if err != nil {
			return nil, err
		}
		typed, typedRuns = append(typed, m), append(typedRuns, tr)
	}
	rep.Floor, rep.Typed = medianRun(floors), medianRun(typed)
	rep.TypedRun = typedRuns[slices.Index(typed, rep.Typed)]
	indexDir := filepath.Join(dir, ".albert-code", "graph")
	if err := indexSize(indexDir, rep); err != nil {
		return nil, err
	}
	// The first pass and ctags alternate, runs times each, so that a change
	// of load on the machine falls on both; the median runs are kept.
	tsDB := filepath.Join(cfg.Work, "ts", "graph.db")
	tags := filepath.Join(cfg.Work, "tags")
	var firsts, ctags []measurement
	phases := map[time.Duration]map[string]float64{}
	for i := range runs {
		logf("first pass (tsindex), run %d of %d", i+1, runs)
		m, out, err := l.run(ctx, dir, cfg.Self, "tsindex", dir, tsDB)
		if err != nil {
			return nil, err
		}
		var ts struct {
			Phases map[string]float64 `json:"phases"`
		}
		if err := json.Unmarshal(out, &ts); err != nil {
			return nil, fmt.Errorf("tsindex output: %w", err)
		}
		firsts, phases[m.Wall] = append(firsts, m), ts.Phases
		logf("universal-ctags, run %d of %d", i+1, runs)
		if m, _, err = l.run(ctx, dir, cfg.Ctags, "-R", "-f", tags, "."); err != nil {
			return nil, err
		}
		ctags = append(ctags, m)
	}
	rep.TreeSitter = medianRun(firsts)
	rep.TreeSitterPhases = phases[rep.TreeSitter.Wall]
	rep.Ctags = medianRun(ctags)
	if info, err := os.Stat(tags); err == nil {
		rep.CtagsBytes = info.Size()
	}
	logf("graph mcp server, %d calls per question", calls)
	if rep.Server, err = measureServer(ctx, cfg.Albert, dir, indexDir, calls); err != nil {
		return nil, err
	}
	return rep, nil
}

// medianRun is the run of median wall time.
func medianRun(ms []measurement) measurement {
	s := slices.Clone(ms)
	slices.SortFunc(s, func(a, b measurement) int { return cmp.Compare(a.Wall, b.Wall) })
	return s[len(s)/2]
}

// indexSize records the index folder's files and, through dbstat, what each
// table and index of the database takes.
func indexSize(indexDir string, rep *scaleReport) error {
	err := filepath.WalkDir(indexDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(indexDir, p)
		if top, _, nested := strings.Cut(filepath.ToSlash(rel), "/"); nested {
			rel = top + "/"
		}
		rep.IndexFiles[rel] += info.Size()
		rep.IndexBytes += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("index size: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(indexDir, "graph.db")+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT d.name, coalesce(m.tbl_name, d.name), SUM(d.pgsize) FROM dbstat d
		LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY d.name ORDER BY 3 DESC`)
	if err != nil {
		return fmt.Errorf("dbstat: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t tableSize
		if err := rows.Scan(&t.Name, &t.Of, &t.Bytes); err != nil {
			return err
		}
		if strings.HasPrefix(t.Of, "search_") {
			t.Of = "search"
		}
		rep.Tables = append(rep.Tables, t)
	}
	return rows.Err()
}

// tableTotals sums each table's b-trees (its own, its indexes'), largest first.
func tableTotals(ts []tableSize) []tableSize {
	var out []tableSize
	for _, t := range ts {
		i := slices.IndexFunc(out, func(o tableSize) bool { return o.Name == t.Of })
		if i < 0 {
			out = append(out, tableSize{Name: t.Of, Of: t.Of})
			i = len(out) - 1
		}
		out[i].Bytes += t.Bytes
	}
	slices.SortStableFunc(out, func(a, b tableSize) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out
}

// countGo counts the Go files and lines under dir, as the go command would see
// them (testdata and dot folders left out).
func countGo(dir string) (files, lines int) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != dir && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			b, err := os.ReadFile(p)
			if err == nil {
				files++
				lines += strings.Count(string(b), "\n")
			}
		}
		return nil
	})
	return files, lines
}

// printScale writes the scale report as Markdown, with each goal's verdict.
func printScale(w io.Writer, r *scaleReport) {
	fmt.Fprintf(w, "Repository: %s (%d Go files, %d lines)\n\n", r.Dir, r.GoFiles, r.GoLines)
	fmt.Fprintln(w, "| leg | wall s | peak RSS MiB |")
	fmt.Fprintln(w, "|---|---:|---:|")
	for _, row := range []struct {
		name string
		m    measurement
	}{{"go/packages load, types + syntax, tests (floor)", r.Floor}, {"`graph index --rebuild` (typed)", r.Typed},
		{"first pass (first answers)", r.TreeSitter}, {"universal-ctags -R", r.Ctags}} {
		fmt.Fprintf(w, "| %s | %.2f | %.0f |\n", row.name, row.m.Wall.Seconds(), mib(row.m.MaxRSS))
	}
	fmt.Fprintf(w, "\nFirst pass (median run): CPU %.2f s against ctags' %.2f s; in-process %.0f ms: scan %.0f, extract and write %.0f (of which writing %.0f)\n\n",
		r.TreeSitter.CPU.Seconds(), r.Ctags.CPU.Seconds(), r.TreeSitterPhases["first_pass_ms"], r.TreeSitterPhases["scan_ms"],
		r.TreeSitterPhases["extract_and_write_ms"], r.TreeSitterPhases["write_ms"])
	printTypedSplit(w, r)
	fmt.Fprintf(w, "Index folder: %.1f MiB (", float64(r.IndexBytes)/(1<<20))
	first := true
	for name, n := range r.IndexFiles {
		if !first {
			fmt.Fprint(w, ", ")
		}
		first = false
		fmt.Fprintf(w, "%s %.1f MiB", name, float64(n)/(1<<20))
	}
	fmt.Fprintf(w, "); ctags' tags file: %.1f MiB\n\n", float64(r.CtagsBytes)/(1<<20))
	fmt.Fprintln(w, "| table or index | of | MiB |")
	fmt.Fprintln(w, "|---|---|---:|")
	for _, t := range r.Tables {
		fmt.Fprintf(w, "| %s | %s | %.2f |\n", t.Name, t.Of, float64(t.Bytes)/(1<<20))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| table with its indexes | MiB |")
	fmt.Fprintln(w, "|---|---:|")
	for _, t := range tableTotals(r.Tables) {
		fmt.Fprintf(w, "| %s | %.2f |\n", t.Name, float64(t.Bytes)/(1<<20))
	}
	fmt.Fprintln(w)
	if s := r.Server; s != nil {
		fmt.Fprintf(w, "Server (`graph mcp`, %d calls each): first call %.0f ms; find_callers p50 %.2f ms, p95 %.2f ms; "+
			"query_graph SELECT 1 p50 %.2f ms, p95 %.2f ms; get_communities first %.0f ms, again %.1f ms; "+
			"find_callers after a one-file edit: median %.0f ms; server peak RSS %.0f MiB\n\n",
			s.Calls, s.FirstMS, s.CallersP50, s.CallersP95, s.TrivialP50, s.TrivialP95, s.CommunitiesFirstMS,
			s.CommunitiesAgainMS, s.AfterEditMS, mib(s.PeakRSSKiB))
		if m := s.Modes; m != nil {
			fmt.Fprintf(w, "| in-process, %d calls each | opened per call (before) | kept open and watched |\n|---|---:|---:|\n", m.Calls)
			fmt.Fprintf(w, "| find_callers p50 / p95 ms | %.2f / %.2f | %.2f / %.2f |\n", m.PerCallCallersP50, m.PerCallCallersP95, m.KeptCallersP50, m.KeptCallersP95)
			fmt.Fprintf(w, "| SELECT 1 p50 / p95 ms | %.2f / %.2f | %.2f / %.2f |\n", m.PerCallTrivialP50, m.PerCallTrivialP95, m.KeptTrivialP50, m.KeptTrivialP95)
			fmt.Fprintf(w, "| get_communities, second call ms | %.0f | %.1f |\n\n", m.PerCallCommunitiesAgainMS, m.KeptCommunitiesAgainMS)
		}
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	tr, mr := ratio(r.Typed.Wall.Seconds(), r.Floor.Wall.Seconds()), ratio(float64(r.Typed.MaxRSS), float64(r.Floor.MaxRSS))
	cr := ratio(r.TreeSitter.Wall.Seconds(), r.Ctags.Wall.Seconds())
	fmt.Fprintln(w, "| goal | measured | verdict |")
	fmt.Fprintln(w, "|---|---:|---|")
	fmt.Fprintf(w, "| typed index time ≤ 1.5× the load | %.2f× | %s |\n", tr, verdict(tr <= 1.5))
	fmt.Fprintf(w, "| typed index peak memory ≤ 1.5× the load's | %.2f× | %s |\n", mr, verdict(mr <= 1.5))
	fmt.Fprintf(w, "| first tree-sitter answers ≤ 3× ctags | %.2f× (CPU %.1f×) | %s |\n", cr,
		ratio(r.TreeSitter.CPU.Seconds(), r.Ctags.CPU.Seconds()), verdict(cr <= 3))
	fmt.Fprintf(w, "| index on disk ≤ 25 MiB | %.1f MiB | %s |\n", float64(r.IndexBytes)/(1<<20), verdict(r.IndexBytes <= 25<<20))
	if s := r.Server; s != nil {
		fmt.Fprintf(w, "| find_callers p95 ≤ 20 ms | %.2f ms | %s |\n", s.CallersP95, verdict(s.CallersP95 <= 20))
		fmt.Fprintf(w, "| trivial call < 5 ms | p95 %.2f ms | %s |\n", s.TrivialP95, verdict(s.TrivialP95 < 5))
	}
}
