package fakemodel

// TB is the part of testing.TB that NewTest needs; declaring it here keeps the
// testing package out of binaries that import fakemodel.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// NewTest starts a fake model for one test and closes it when the test ends.
// Close errors fail the test, since they mean a handler outlived its request.
func NewTest(t TB, script Script, opts ...Option) *Server {
	t.Helper()
	s, err := Start(script, opts...)
	if err != nil {
		t.Fatalf("start fake model: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Fatalf("%v", err)
		}
	})
	return s
}
