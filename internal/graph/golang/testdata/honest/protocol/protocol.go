// Package protocol declares what package wire aliases.
package protocol

// Bytes is an interface another package aliases.
type Bytes interface{ Bytes() []byte }

// Stack is a generic type another package aliases.
type Stack[T any] struct{ items []T }

// Push appends v.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
