package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// A class's attributes of known type (a constructor call, `x or Default()`, an
// annotation, a typed parameter assigned in __init__, a class-level annotation)
// are written as AttributeType sites for the cross-file pass; an attribute of
// unknown or built-in type is not.
func TestPythonAttributeTypes(t *testing.T) {
	t.Parallel()
	ff, err := Extract(context.Background(), "app/request.py", "python", []byte(`from .structures import CaseInsensitiveDict, Client


class Request:
    timeout: Client

    def __init__(self, headers, client: Client, body=None):
        self.headers = CaseInsensitiveDict(headers)
        self.client = client
        self.fallback = body or Client()
        self.body = body
        self.count = len(headers)
`))
	if err != nil {
		t.Fatal(err)
	}
	got := slices.DeleteFunc(render(ff), func(l string) bool { return !strings.HasPrefix(l, "unresolved "+string(AttributeType)) })
	expectUses(t, got, []string{
		"unresolved attribute_type app/request.py::Request::client -> Client @4:0",
		"unresolved attribute_type app/request.py::Request::fallback -> Client @4:0",
		"unresolved attribute_type app/request.py::Request::headers -> CaseInsensitiveDict @4:0",
		"unresolved attribute_type app/request.py::Request::timeout -> Client @4:0",
	})
}
