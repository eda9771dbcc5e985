package geom

// Stack is a generic type; its methods are reached through instantiations.
type Stack[T any] struct {
	items []T
}

func NewStack[T any]() *Stack[T] { return &Stack[T]{} }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if s.Len() == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *Stack[T]) Len() int { return len(s.items) }

// StackShapes uses the generic stack with a concrete type argument.
func StackShapes(shapes []Shape) int {
	st := NewStack[Shape]()
	for _, s := range shapes {
		st.Push(s)
	}
	n := 0
	for st.Len() > 0 {
		st.Pop()
		n++
	}
	return n
}
