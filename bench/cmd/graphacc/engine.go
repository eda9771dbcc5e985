package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/etalab-ia/albert-code/bench/graphacc/truth"
)

// Item is one result of the engine, as `graph query --json` and the MCP tools
// write it.
type Item struct {
	QName    string `json:"qualified_name"`
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	SiteFile string `json:"site_file,omitempty"`
	SiteLine int    `json:"site_line,omitempty"`
	// MoreSites (MCP) are further sites of the same item in the same file.
	MoreSites []int `json:"more_sites,omitempty"`
}

// Answer is the part of the engine's answer the harness reads.
type Answer struct {
	Targets    []Item `json:"targets"`
	Items      []Item `json:"items"`
	NextOffset *int   `json:"next_offset,omitempty"`
	Error      string `json:"error,omitempty"`
}

// errUnknown is the engine saying it has no definition of that name.
var errUnknown = errors.New("the engine knows no definition of that name")

// cli drives the engine's command line on one indexed folder.
type cli struct {
	bin  string
	repo string
}

// index builds the folder's index from scratch and returns the engine's report.
func (c cli) index(ctx context.Context) (map[string]any, error) {
	out, err := c.run(ctx, "graph", "index", "--rebuild", "--json", c.repo)
	if err != nil {
		return nil, err
	}
	var rep map[string]any
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("index %s: read the report: %w", c.repo, err)
	}
	return rep, nil
}

func (c cli) ask(ctx context.Context, question, symbol string) (*Answer, error) {
	out, err := c.run(ctx, "graph", "--repo", c.repo, "query", question, symbol, "--json")
	if err != nil {
		if strings.Contains(err.Error(), "no definition named") {
			return nil, errUnknown
		}
		return nil, err
	}
	var a Answer
	if err := json.Unmarshal(out, &a); err != nil {
		return nil, fmt.Errorf("query %s %s: %w", question, symbol, err)
	}
	return &a, nil
}

func (c cli) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = c.repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", c.bin, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// asker asks one question by symbol; both the command line and the MCP client
// are one.
type asker func(ctx context.Context, question, symbol string) (*Answer, error)

// askAbout asks question about d the way a user would: by its bare name, and when
// the name covers several definitions, again by the qualified name of the one at
// d's key. It returns the items and, when the engine has no definition at d's
// key, why (the items are then empty: the user could not have asked).
func askAbout(ctx context.Context, ask asker, question string, d truth.Definition) ([]Item, string, error) {
	a, err := ask(ctx, question, d.Name)
	if errors.Is(err, errUnknown) {
		return nil, "unknown name", nil
	}
	if err != nil {
		return nil, "", err
	}
	var match *Item
	for i, t := range a.Targets {
		if truth.Key(t.File, t.Line) == d.Key {
			match = &a.Targets[i]
		}
	}
	switch {
	case match == nil:
		var at []string
		for _, t := range a.Targets {
			at = append(at, truth.Key(t.File, t.Line))
		}
		return nil, "no definition at the key (engine has " + strings.Join(at, ", ") + ")", nil
	case len(a.Targets) == 1:
		return a.Items, "", nil
	}
	a, err = ask(ctx, question, match.QName)
	if err != nil {
		return nil, "", err
	}
	return a.Items, "", nil
}
