// Package store has an interface embedded in a struct and a second package's
// implementation of it.
package store

// Store keeps strings.
type Store interface {
	Get(key string) (string, bool)
	Put(key, value string)
}

type memStore struct {
	m map[string]string
}

// New returns the map-backed Store.
func New() Store { return &memStore{m: map[string]string{}} }

func (s *memStore) Get(key string) (string, bool) {
	v, ok := s.m[key]
	return v, ok
}

func (s *memStore) Put(key, value string) { s.m[key] = value }

// Cache implements Store through the embedded interface, and overrides Get.
type Cache struct {
	Store
	hits int
}

func (c *Cache) Get(key string) (string, bool) {
	v, ok := c.Store.Get(key)
	if ok {
		c.hits++
	}
	return v, ok
}

// Hits is a method value taken in the report command.
func (c *Cache) Hits() int { return c.hits }
