package resolve_test

import (
	"testing"
)

// goTypedRepo is a Go module that does not type-check (the fallback's case):
// methods, fields, constructors and embeddings spread over a package's files
// and another package.
var goTypedRepo = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.26\n",
	"store/client.go": `package store

type Client struct{}

func New() *Client { return &Client{} }

func (c *Client) Get() {}
`,
	"p/types.go": `package p

import "example.com/m/store"

type Config struct {
	Store *store.Client
	Limit int
}

type base struct{}

func (base) Close() error { return nil }

type Server struct {
	base
	cfg Config
}

type Closer interface{ Close() error }
`,
	"p/server.go": `package p

import "example.com/m/store"

func NewServer() *Server { return &Server{} }

func (s *Server) Run() {
	s.cfg.Store.Get()
	s.Close()
	NewServer().Stop()
	c := store.New()
	c.Get()
	_ = s.cfg.Limit
}

func (s *Server) Stop() {}

func shut(c Closer) { c.Close() }

var fallback = &Server{}

func restart() { fallback.Stop() }
`,
}

// A call on a value resolves through its declared type to the method, in
// another file or package, or promoted from an embedded struct; a call through
// an interface reaches the interface's method; a field use, the field.
func TestGoTypedReceivers(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, goTypedRepo)
	expect(t, "callees of Run", related(t, st, "callees", "p/server.go::Server::Run"),
		"p/server.go::NewServer@10 [name]", "p/server.go::Server::Stop@10 [import]",
		"p/types.go::base::Close@9 [import]", "store/client.go::Client::Get@8 [import]",
		"store/client.go::Client::Get@12 [import]", "store/client.go::New@11 [import]")
	expect(t, "callers of Stop (a package variable's declared type)", related(t, st, "callers", "p/server.go::Server::Stop"),
		"p/server.go::Server::Run@10 [import]", "p/server.go::restart@22 [import]")
	expect(t, "callers of Closer.Close", related(t, st, "callers", "p/types.go::Closer::Close"),
		"p/server.go::shut@18 [import]")
	expect(t, "references of Config.Limit", related(t, st, "references", "p/types.go::Config::Limit"),
		"p/server.go::Server::Run@13 [import]")
}

// Implementations come from method names: Server has Close through its
// embedded base, so it and base implement Closer; Config has no methods.
func TestGoImplementsByMethodSet(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, goTypedRepo)
	expect(t, "implementations of Closer", related(t, st, "implementations", "p/types.go::Closer"),
		"p/types.go::Server@14 [name]", "p/types.go::base@10 [name]")
	expect(t, "interfaces of Config", related(t, st, "implementations", "p/types.go::Config"))
}
