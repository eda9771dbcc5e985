package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjavascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/etalab-ia/albert-code/internal/graph/index"
)

// floorGrammars are the grammar modules and entry points the engine parses with
// (internal/graph/treesitter/languages.go), imported directly so that the floor
// measures parsing alone, without the engine's extraction.
var floorGrammars = map[string]*sitter.Language{
	"go":         sitter.NewLanguage(tsgo.Language()),
	"python":     sitter.NewLanguage(tspython.Language()),
	"typescript": sitter.NewLanguage(tstypescript.LanguageTypescript()),
	"tsx":        sitter.NewLanguage(tstypescript.LanguageTSX()),
	"javascript": sitter.NewLanguage(tsjavascript.Language()),
}

// floorResult is what the floor role prints: enough to check it did the work.
type floorResult struct {
	Files      int   `json:"files"`
	Bytes      int64 `json:"bytes"`
	SyntaxErrs int   `json:"syntax_errors"`
	NoGrammar  int   `json:"no_grammar"`
	Unreadable int   `json:"unreadable"`
}

// runFloor reads and parses every file listed in listPath (one path a line,
// relative to the working directory), in parallel across GOMAXPROCS workers as
// the engine extracts, and prints a floorResult as JSON.
func runFloor(listPath string, out io.Writer) error {
	paths, err := readList(listPath)
	if err != nil {
		return err
	}
	work := make(chan string)
	results := make(chan floorResult)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() { results <- parseAll(work) })
	}
	go func() {
		for _, p := range paths {
			work <- p
		}
		close(work)
		wg.Wait()
		close(results)
	}()
	var total floorResult
	for r := range results {
		total.Files += r.Files
		total.Bytes += r.Bytes
		total.SyntaxErrs += r.SyntaxErrs
		total.NoGrammar += r.NoGrammar
		total.Unreadable += r.Unreadable
	}
	return json.NewEncoder(out).Encode(total)
}

// parseAll is one worker: one parser per language, reused from file to file.
func parseAll(work <-chan string) floorResult {
	var r floorResult
	parsers := map[string]*sitter.Parser{}
	defer func() {
		for _, p := range parsers {
			p.Close()
		}
	}()
	for path := range work {
		lang := index.LanguageOf(path)
		grammar := floorGrammars[lang]
		if grammar == nil {
			r.NoGrammar++
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			r.Unreadable++
			continue
		}
		p := parsers[lang]
		if p == nil {
			p = sitter.NewParser()
			if err := p.SetLanguage(grammar); err != nil {
				r.NoGrammar++
				continue
			}
			parsers[lang] = p
		}
		tree := p.Parse(src, nil)
		if tree.RootNode().HasError() {
			r.SyntaxErrs++
		}
		tree.Close()
		r.Files++
		r.Bytes += int64(len(src))
	}
	return r
}

func readList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read file list: %w", err)
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			paths = append(paths, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read file list %s: %w", path, err)
	}
	return paths, nil
}
