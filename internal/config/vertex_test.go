package config

import "testing"

func TestVertexProjectAndLocation(t *testing.T) {
	s := newSandbox(t)
	write(t, s.globalFile(), `
[[providers]]
name = "vertex"
kind = "vertex"
project = "my-project"
location = "europe-west9"
`)
	c := s.load(t, Overrides{})
	p, err := c.Provider("vertex")
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != KindVertex || p.Project != "my-project" || p.Location != "europe-west9" {
		t.Errorf("vertex = %+v", p)
	}
	if source(t, c, "providers.vertex.location") != s.globalFile()+":6" {
		t.Errorf("location source = %s", source(t, c, "providers.vertex.location"))
	}
}
