package store

import (
	"context"
	"sync"
)

// memo holds values derived from the whole graph, each with the generation it
// was computed at.
type memo struct {
	mu     sync.Mutex
	values map[string]*memoValue
}

type memoValue struct {
	mu         sync.Mutex // held while computing: two askers compute once
	generation int64
	value      any
	ok         bool
}

// Memo returns compute's value for key, computed at most once per generation of
// the index while the store stays open: a long-lived process asking a question
// of the whole graph (communities: seconds on a large repository) pays for it
// once per change to the index, not once per question. Handles lent by the store
// share its values.
func (s *Store) Memo(ctx context.Context, key string, compute func() (any, error)) (any, error) {
	m := &s.memo
	m.mu.Lock()
	if m.values == nil {
		m.values = map[string]*memoValue{}
	}
	v := m.values[key]
	if v == nil {
		v = &memoValue{}
		m.values[key] = v
	}
	m.mu.Unlock()
	// One lock per key: a long computation (communities) does not hold up a
	// short one.
	v.mu.Lock()
	defer v.mu.Unlock()
	gen, err := s.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if v.ok && v.generation == gen {
		return v.value, nil
	}
	value, err := compute()
	if err != nil {
		return nil, err
	}
	v.generation, v.value, v.ok = gen, value, true
	return value, nil
}
