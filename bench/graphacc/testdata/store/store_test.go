package store

import "testing"

func TestCache(t *testing.T) {
	c := &Cache{Store: New()}
	c.Put("k", "v")
	if v, ok := c.Get("k"); !ok || v != "v" || c.Hits() != 1 {
		t.Fatalf("Get = %q, %v; hits %d", v, ok, c.Hits())
	}
}
