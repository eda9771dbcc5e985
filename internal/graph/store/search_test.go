package store

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

func searchFixture(t *testing.T) *Store {
	t.Helper()
	s := openTest(t)
	load := fn("example.com/m/app.Load", "Load", "app/load.go", 5)
	load.Doc = "Load reads the file and will parse the config it holds."
	parse := fn("example.com/m/config.ParseConfig", "ParseConfig", "config/parse.go", 12)
	parse.Signature = "func ParseConfig(data []byte) (*Config, error)"
	server := graph.Node{QName: "src/server.ts::HTTPServer", Kind: graph.KindClass, Name: "HTTPServer",
		File: "src/server.ts", Line: 3, Language: "typescript"}
	snake := graph.Node{QName: "tools/load_config_file.py::load_config_file", Kind: graph.KindFunction,
		Name: "load_config_file", File: "tools/load_config_file.py", Line: 1, Language: "python"}
	parser := fn("example.com/m/config.Parser", "Parser", "config/parse.go", 30)
	replace(t, s, []graph.FileFacts{
		{Path: "app/load.go", Hash: "1", Nodes: []graph.Node{load}},
		{Path: "config/parse.go", Hash: "2", Nodes: []graph.Node{parse, parser}},
		{Path: "src/server.ts", Hash: "3", Nodes: []graph.Node{server}},
		{Path: "tools/load_config_file.py", Hash: "4", Nodes: []graph.Node{snake}},
	})
	return s
}

func hitNames(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	t.Parallel()
	s := searchFixture(t)
	tests := []struct {
		query    string
		first    string   // the best hit
		contains []string // must be among the hits
		absent   []string // must not be
	}{
		// A name match outranks a doc mention of both words (Load's doc).
		{"parse config", "ParseConfig", []string{"Load"}, nil},
		{"ParseConfig", "ParseConfig", nil, []string{"HTTPServer"}},
		{"parse", "ParseConfig", []string{"Parser"}, []string{"HTTPServer"}}, // camelCase split; prefix parse* → Parser
		{"config", "", []string{"ParseConfig", "load_config_file"}, []string{"HTTPServer"}},
		{"server", "HTTPServer", nil, []string{"ParseConfig"}},
		{"http", "HTTPServer", nil, nil},
		{"file", "load_config_file", nil, []string{"ParseConfig"}}, // snake_case split
		{"byte", "ParseConfig", nil, nil},                          // the signature is indexed
		{"parse.go", "ParseConfig", nil, nil},                      // the path is indexed
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := s.Search(context.Background(), tt.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			names := hitNames(hits)
			if len(hits) == 0 || tt.first != "" && hits[0].Name != tt.first {
				t.Fatalf("Search(%q) = %v; want %s first", tt.query, names, tt.first)
			}
			for _, c := range tt.contains {
				if !slices.Contains(names, c) {
					t.Errorf("Search(%q) = %v; want %s among them", tt.query, names, c)
				}
			}
			for _, a := range tt.absent {
				if slices.Contains(names, a) {
					t.Errorf("Search(%q) = %v; want no %s", tt.query, names, a)
				}
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("scores not descending: %v", hits)
				}
			}
			if hits[0].Score <= 0 {
				t.Errorf("best score %v; want BM25 > 0", hits[0].Score)
			}
		})
	}
}

func TestSearchLimit(t *testing.T) {
	t.Parallel()
	s := searchFixture(t)
	hits, err := s.Search(context.Background(), "config", 1)
	if err != nil || len(hits) != 1 {
		t.Errorf("Search limit 1 = %v, %v", hits, err)
	}
}

func TestSearchSanitisesFTSSyntax(t *testing.T) {
	t.Parallel()
	s := searchFixture(t)
	for _, q := range []string{`foo"bar`, `AND(`, `OR`, `NOT parse`, `NEAR(parse config`, `"`, `*`, `parse*`,
		`-parse`, `name:parse`, `{name}: parse`, `^parse`, `parse + config`, `(`, `)`, `'`, `\`, ``, `   `,
		`ParseConfig") OR ("x`, "parse\x00config", `日本語`, `ünïcödé`} {
		hits, err := s.Search(context.Background(), q, 5)
		if err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
		if q == `NOT parse` || q == `parse*` || q == `name:parse` {
			if len(hits) == 0 || hits[0].Name != "ParseConfig" {
				t.Errorf("Search(%q) = %v; want the words searched as words", q, hitNames(hits))
			}
		}
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	s := searchFixture(t)
	tests := []struct {
		symbol string
		first  string
	}{
		{"ParseConfg", "example.com/m/config.ParseConfig"},         // one typo
		{"parseconfig", "example.com/m/config.ParseConfig"},        // case
		{"config.ParseConfgi", "example.com/m/config.ParseConfig"}, // qualified, transposition
		{"ParseConf", "example.com/m/config.ParseConfig"},          // prefix beyond the edit distance
		{"HTTPServ", "src/server.ts::HTTPServer"},
		{"Parsr", "example.com/m/config.Parser"},
	}
	for _, tt := range tests {
		got, err := s.Suggest(context.Background(), tt.symbol, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0] != tt.first {
			t.Errorf("Suggest(%q) = %v; want %s first", tt.symbol, got, tt.first)
		}
		if len(got) > 3 {
			t.Errorf("Suggest(%q) = %d names; want at most 3", tt.symbol, len(got))
		}
	}
	if got, err := s.Suggest(context.Background(), "Zyxwvutsrq", 3); err != nil || len(got) != 0 {
		t.Errorf("Suggest(unrelated) = %v, %v; want nothing", got, err)
	}
}

func TestIdentifierParts(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"ParseConfig":    {"Parse", "Config"},
		"parseConfig":    {"parse", "Config"},
		"HTTPServer":     {"HTTP", "Server"},
		"utf8Decode":     {"utf8", "Decode"},
		"md5sum":         {"md5", "sum"},
		"getHTTP2Config": {"get", "HTTP2", "Config"},
		"Config":         nil,
		"HTTP":           nil,
		"lower":          nil,
	}
	for in, want := range tests {
		if got := identifierParts(in); !reflect.DeepEqual(got, want) {
			t.Errorf("identifierParts(%q) = %q; want %q", in, got, want)
		}
	}
}
