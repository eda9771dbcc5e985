package main

import (
	"strings"
	"testing"
)

func TestModuleNames(t *testing.T) {
	for module, want := range map[string]string{
		"mvdan.cc/sh/v3@v3.14.1": "go-sh",
		"github.com/segmentio/encoding@v0.5.4+golang.org/x/sys@v0.50.0": "go-encoding",
		"github.com/pelletier/go-toml/v2@v2.4.3":                        "go-toml",
		"github.com/modelcontextprotocol/go-sdk@v1.8.0":                 "go-sdk",
	} {
		if got := moduleSource("/cache", module).name; got != want {
			t.Errorf("moduleSource(%s).name = %q, want %q", module, got, want)
		}
	}
	if got := escapeModulePath("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Errorf("escapeModulePath = %q", got)
	}
}

func TestSelectSources(t *testing.T) {
	all := generatedSources(10, 2)
	got, err := selectSources(all, "gen-py-10")
	if err != nil || len(got) != 1 || got[0].name != "gen-py-10" {
		t.Errorf("selectSources(gen-py-10) = %v, %v; want the Python repository", got, err)
	}
	if got, err := selectSources(all, ""); err != nil || len(got) != 2 {
		t.Errorf("selectSources(\"\") = %d sources, %v; want all", len(got), err)
	}
	if _, err := selectSources(all, "nope"); err == nil || !strings.Contains(err.Error(), "gen-go-10, gen-py-10") {
		t.Errorf("selectSources(nope) error = %v, want the names it has", err)
	}
}
