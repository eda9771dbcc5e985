// Package wire aliases types of other packages and initialises variables
// with calls.
package wire

import (
	"encoding"

	"example.com/honest/protocol"
)

// Bytes is an alias to an interface of another package.
type Bytes = protocol.Bytes

// Marshaler is an alias to an interface outside the module.
type Marshaler = encoding.TextMarshaler

// List is a generic alias.
type List[T any] = protocol.Stack[T]

// Local is an alias to a type of this package.
type Local = Frame

// Frame implements Bytes and Marshaler.
type Frame struct{ data []byte }

func (f Frame) Bytes() []byte { return f.data }

func (f Frame) MarshalText() ([]byte, error) { return f.data, nil }

// Use calls through the alias.
func Use(b Bytes) []byte { return b.Bytes() }

// Push calls through the generic alias.
func Push(l *List[int]) { l.Push(1) }

var a, b = g(), h()

var c, d = pair()

var single = g()

var _ = h()

func g() int { return 1 }

func h() int { return 2 }

func pair() (int, int) { return 1, 2 }
