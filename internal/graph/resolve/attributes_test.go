package resolve_test

import (
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// An attribute a class's methods type (`self.headers = CaseInsensitiveDict()`,
// `self.validator = validator or Validator()`) is followed from other files: a
// receiver of that class reaches the attribute type's methods, a built-in
// container's name included (the evidence the name alone lacks), and so do a
// subclass's methods through `self`. The attribute itself is no definition: a
// use of it draws no edge to its type.
func TestPythonAttributeTypesAcrossFiles(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"app/__init__.py": "",
		"app/structures.py": `class CaseInsensitiveDict:
    def get(self, key):
        return key


class Validator:
    def validate(self, scopes):
        return scopes


class Other:
    def validate(self, scopes):
        return None
`,
		"app/request.py": `from .structures import CaseInsensitiveDict, Validator


class Request:
    def __init__(self, uri, headers):
        self.headers = CaseInsensitiveDict(headers)


class Base:
    validator = None

    def __init__(self, validator=None):
        self.validator = validator or Validator()
`,
		"app/use.py": `from .request import Base, Request


def sign(uri):
    request = Request(uri, {})
    request.headers.get("Content-Type")
    return request.headers


class Grant(Base):
    def check(self, scopes):
        self.validator.validate(scopes)
`,
	})
	expect(t, "sign: CaseInsensitiveDict.get through Request.headers",
		edgeEnds(t, st, "app/use.py::sign", graph.EdgeCalls),
		"app/request.py::Request [import]", "app/structures.py::CaseInsensitiveDict::get [import]")
	expect(t, "sign: no reference to the attribute's type",
		edgeEnds(t, st, "app/use.py::sign", graph.EdgeReferences))
	expect(t, "Grant.check: self.validator typed in the base's __init__",
		edgeEnds(t, st, "app/use.py::Grant::check", graph.EdgeCalls),
		"app/structures.py::Validator::validate [import]")
}

// An attribute set to what a function of another file returns takes the class
// that function's return annotation names (click's `self.type =
// types.convert_type(…)`, `def convert_type(…) -> ParamType`).
func TestPythonAttributeTypesFromReturns(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"click/__init__.py": "",
		"click/types.py": `import typing as t


class ParamType:
    def to_info_dict(self):
        return {}


def convert_type(ty, default=None) -> "t.Optional[ParamType]":
    return ParamType()
`,
		"click/core.py": `from . import types


class Parameter:
    def __init__(self, ty):
        self.type = types.convert_type(ty)

    def to_info_dict(self):
        return self.type.to_info_dict()
`,
	})
	expect(t, "Parameter.to_info_dict: self.type is a ParamType",
		edgeEnds(t, st, "click/core.py::Parameter::to_info_dict", graph.EdgeCalls),
		"click/types.py::ParamType::to_info_dict [import]")
}

// An attribute annotated with a generic class of the project (`Stack[Element]`)
// holds that class (rich's MarkdownContext.stack).
func TestPythonGenericAttributeTypes(t *testing.T) {
	t.Parallel()
	st, _ := extracted(t, map[string]string{
		"rich/__init__.py": "",
		"rich/_stack.py": `from typing import Generic, List, TypeVar

T = TypeVar("T")


class Stack(List[T]):
    def push(self, item: T) -> None:
        self.append(item)
`,
		"rich/other.py": `class Queue:
    def push(self, item):
        return item
`,
		"rich/markdown.py": `from ._stack import Stack


class Context:
    def __init__(self):
        self.stack: Stack[str] = Stack()


def render(token):
    context = Context()
    context.stack.push(token)
`,
	})
	expect(t, "render: context.stack is a Stack",
		edgeEnds(t, st, "rich/markdown.py::render", graph.EdgeCalls),
		"rich/_stack.py::Stack::push [import]", "rich/markdown.py::Context [name]")
}
