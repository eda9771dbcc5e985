package treesitter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// usesOf extracts src and returns its calls and references, edges and sites,
// rendered one per line.
func usesOf(t *testing.T, rel, src string) []string {
	t.Helper()
	ff, err := Extract(context.Background(), rel, "python", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ff.ParseError != "" {
		t.Fatalf("ParseError = %q", ff.ParseError)
	}
	return slices.DeleteFunc(render(ff), func(l string) bool {
		return !strings.HasPrefix(l, "edge calls ") && !strings.HasPrefix(l, "edge references ") &&
			(!strings.HasPrefix(l, "unresolved ") || strings.HasPrefix(l, "unresolved "+string(AttributeType)))
	})
}

func expectUses(t *testing.T, got, want []string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("uses\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

// Names a function binds (parameters, for, with, except, comprehension, lambda
// and walrus targets, tuple assignments) are its own, in nested functions too; a
// `global` name stays the module's, assigned or not; a class body's names are not
// visible bare in its methods.
func TestPythonLocalsShadow(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/scope.py", `import contextlib

console = None
line = 0
width = 1
total = 2
err = 3
item = 4
x = 5
key = 6
seen = 7

class Span:
    style = None
    copy = style

    def split(self, console, *width, **total):
        with contextlib.suppress() as line:
            pass
        try:
            pass
        except ValueError as err:
            pass
        for item in console:
            pass
        keys = [key for key in width]
        f = lambda x: x
        if (seen := total):
            pass
        a, b = style, line
        return console, width, total, err, item, x, key, seen, a, b, f

def outer(console):
    def inner():
        return console
    return inner

def counter():
    global total
    total = total + 1
    return line
`)
	expectUses(t, got, []string{
		`edge references app/scope.py::Span -> app/scope.py::Span::style 0.8 name @15`,
		`edge references app/scope.py::counter -> app/scope.py::line 0.8 name @41`,
		`edge references app/scope.py::counter -> app/scope.py::total 0.8 name @39`,
		`edge references app/scope.py::outer -> app/scope.py::outer::inner 0.8 name @36`,
		`unresolved calls app/scope.py::Span::split -> contextlib.suppress @18:14`,
	})
}

// A receiver of known type makes its call and attribute sites `T.m`, for the
// cross-file pass to resolve through T and its bases: an annotated parameter
// (Optional and string forms too), a constructor call, an annotated assignment, a
// self attribute set in a method, a module variable. Receivers of unknown type,
// or of a type the file neither defines nor imports, keep their name.
func TestPythonReceiverTypes(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/render.py", `import typing as t
from . import nodes
from .console import Console

class Renderer:
    theme: "Theme"

    def __init__(self, console: Console, size: int) -> None:
        self.console = console
        self.stack = Stack()
        self.size = size

    def render(self, node: t.Optional[nodes.Block], other: "Console | None", n: str) -> None:
        self.console.print(node.body)
        self.stack.push(self.theme.name)
        other.line()
        n.upper()
        buf = Buffer()
        buf.write()
        out: Buffer = make()
        out.flush()
        self.size.bit_length()

class Stack:
    def push(self, x):
        pass

default = Renderer(Console(), 1)
default.render(None, None, "")
`)
	expectUses(t, got, []string{
		`edge calls app/render.py -> app/render.py::Renderer 0.9 name @28`,
		`edge calls app/render.py::Renderer::__init__ -> app/render.py::Stack 0.9 name @10`,
		`edge references app/render.py -> app/render.py::default 0.8 name @29`,
		`edge references app/render.py::Renderer::render -> app/render.py::Renderer::theme 0.9 name @15`,
		`unresolved calls app/render.py -> Console @28:20`,
		`unresolved calls app/render.py -> Renderer.render @29:1`,
		`unresolved calls app/render.py::Renderer::render -> Buffer @18:15`,
		`unresolved calls app/render.py::Renderer::render -> Console.line @16:9`,
		`unresolved calls app/render.py::Renderer::render -> Console.print @14:9`,
		`unresolved calls app/render.py::Renderer::render -> Stack.push @15:9`,
		`unresolved calls app/render.py::Renderer::render -> buf.write @19:9`,
		`unresolved calls app/render.py::Renderer::render -> make @20:23`,
		`unresolved calls app/render.py::Renderer::render -> n.upper @17:9`,
		`unresolved calls app/render.py::Renderer::render -> out.flush @21:9`,
		`unresolved calls app/render.py::Renderer::render -> self.size.bit_length @22:9`,
		`unresolved references app/render.py::Renderer::__init__ -> Console @8:33`,
		`unresolved references app/render.py::Renderer::render -> nodes.Block @13:39`,
		`unresolved references app/render.py::Renderer::render -> nodes.Block.body @14:28`,
		`unresolved references app/render.py::Renderer::render -> t.Optional @13:28`,
	})
}

func TestPyTypeName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`Environment`:                  "Environment",
		`"Console"`:                    "Console",
		`nodes.Template`:               "nodes.Template",
		`t.Optional["Context"]`:        "Context",
		`Optional[Console]`:            "Console",
		`Console | None`:               "Console",
		`None | Console`:               "Console",
		`Union[Console, None]`:         "Console",
		`Type[Style]`:                  "Style",
		`Union[Console, Style]`:        "",
		`List[Console]`:                "",
		`t.Callable[[int], Console]`:   "",
		`Dict[str, Console]`:           "",
		`"Console[int]"`:               "Console",
		`Stack[MarkdownElement]`:       "Stack",
		`t.Deque[Console]`:             "",
		`list[Console]`:                "",
		`None`:                         "",
		`1 + 2`:                        "",
		`Optional[Union[Style, None]]`: "Style",
	} {
		if got := pyTypeName(in); got != want {
			t.Errorf("pyTypeName(%s) = %q, want %q", in, got, want)
		}
	}
}

// Calls and uses in decorators are the decorated definition's, at module level
// and in a class, as pyright attributes them.
func TestPythonDecorators(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/filters.py", `def variant(f):
    return f

def internalcode(f):
    return f

def sync_first(x):
    return x

@variant(sync_first)
def first(x):
    return x

class Env:
    @internalcode
    def parse(self):
        pass
`)
	expectUses(t, got, []string{
		`edge calls app/filters.py::first -> app/filters.py::variant 0.9 name @10`,
		`edge references app/filters.py::Env::parse -> app/filters.py::internalcode 0.8 name @15`,
		`edge references app/filters.py::first -> app/filters.py::sync_first 0.8 name @10`,
	})
}

// A value a call returns has the type the file declares the callee returns: a
// method of the class (`self.copy()`), a function, a method of a class of the file.
func TestPythonReturnTypes(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/opts.py", `from .style import Style

class Options:
    def copy(self) -> "Options":
        return self

    def update(self):
        options = self.copy()
        options.reset()

def load() -> Optional[Style]:
    return None

def untyped():
    return None

def main():
    a = load()
    a.render()
    b = untyped()
    b.render()
    c = Options.copy(None)
    c.update()
`)
	expectUses(t, got, []string{
		`edge references app/opts.py::main -> app/opts.py::Options 0.8 name @22`,
		`unresolved calls app/opts.py::Options::update -> Options.reset @9:9`,
		`unresolved calls app/opts.py::main -> Options.copy @22:9`,
		`unresolved calls app/opts.py::main -> Options.update @23:5`,
		`unresolved calls app/opts.py::main -> Style.render @19:5`,
		`unresolved calls app/opts.py::main -> b.render @21:5`,
		`edge calls app/opts.py::Options::update -> app/opts.py::Options::copy 0.9 name @8`,
		`unresolved references app/opts.py::load -> Style @11:24`,
		`edge calls app/opts.py::main -> app/opts.py::load 0.9 name @18`,
		`edge calls app/opts.py::main -> app/opts.py::untyped 0.9 name @20`,
	})
}

// A nested def that a branch rebinds by assignment is still the name's
// definition; in `x.a.m()`, x of known type T, `T.a` is a use.
func TestPythonNestedDefsAndCalleeMembers(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/sel.py", `class Err:
    line: str = ""

def prepare(flag):
    if flag:
        transfunc = str
    else:
        def transfunc(x):
            return x
    return transfunc

def render(err: Err):
    return err.line.strip()
`)
	expectUses(t, got, []string{
		`edge references app/sel.py::prepare -> app/sel.py::prepare::transfunc 0.8 name @6`,
		`edge references app/sel.py::render -> app/sel.py::Err 0.8 name @12`,
		`unresolved calls app/sel.py::render -> Err.line.strip @13:12`,
		`unresolved references app/sel.py::render -> Err.line @13:12`,
	})
}

// `x = given or Default()` holds a Default when nothing types given (pyright
// reads the union, whose only class is Default): oauthlib's
// `self.request_validator = request_validator or RequestValidator()`.
func TestPythonOrDefaultTypes(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/grant.py", `from .validator import Validator


class Grant:
    def __init__(self, validator=None):
        self.validator = validator or Validator()

    def check(self, scopes, client=None):
        fallback = client or Validator()
        self.validator.validate(scopes)
        fallback.authenticate()
`)
	expectUses(t, got, []string{
		`unresolved calls app/grant.py::Grant::__init__ -> Validator @6:39`,
		`unresolved calls app/grant.py::Grant::check -> Validator @9:30`,
		`unresolved calls app/grant.py::Grant::check -> Validator.authenticate @11:9`,
		`unresolved calls app/grant.py::Grant::check -> Validator.validate @10:9`,
	})
}

// `except errors.OAuthError as e:` types e, so `e.urlencoded` is the site
// `errors.OAuthError.urlencoded`; a tuple of classes types nothing.
func TestPythonExceptAliasTypes(t *testing.T) {
	t.Parallel()
	got := usesOf(t, "app/endpoint.py", `from . import errors


def create(request):
    try:
        return request.run()
    except errors.OAuthError as e:
        return e.describe()


def other(request):
    try:
        return request.run()
    except (ValueError, errors.OAuthError) as err:
        return err.describe()
`)
	expectUses(t, got, []string{
		`unresolved calls app/endpoint.py::create -> errors.OAuthError.describe @8:16`,
		`unresolved calls app/endpoint.py::create -> request.run @6:16`,
		`unresolved calls app/endpoint.py::other -> err.describe @15:16`,
		`unresolved calls app/endpoint.py::other -> request.run @13:16`,
		`unresolved references app/endpoint.py::create -> errors.OAuthError @7:12`,
		`unresolved references app/endpoint.py::other -> errors.OAuthError @14:25`,
	})
}
