"""Python's static scoping rules, just enough to know which names need no question.

A name bound anywhere in a function (a parameter, an assignment, a loop target) is
local to the whole function unless declared global or nonlocal, so its uses denote
that local and never a definition of the corpus: asking pyright about them costs
time (most occurrences in a function are such locals) and cannot add an edge.
"""

import ast
import builtins

COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _store_names(target, out):
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            out.add(node.id)


class _Bindings(ast.NodeVisitor):
    """Collects what one scope binds, without entering nested scopes."""

    def __init__(self):
        self.plain = set()  # parameters, assignments, loop and with targets, except names
        self.other = set()  # imports, def and class names, global and nonlocal names

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Load):
            self.plain.add(node.id)

    def visit_FunctionDef(self, node):
        self.other.add(node.name)
        # Decorators, defaults and annotations belong to this scope; the body does not.
        for expr in node.decorator_list + node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.other.add(node.name)
        for expr in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(expr)

    def visit_Lambda(self, node):
        for expr in node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)

    def _comprehension(self, node):
        # Its targets are its own; a walrus inside still binds here.
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr):
                _store_names(sub.target, self.plain)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node):
        for alias in node.names:
            self.other.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_Global(self, node):
        self.other.update(node.names)

    visit_Nonlocal = visit_Global

    def visit_ExceptHandler(self, node):
        if node.name:
            self.plain.add(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name:
            self.plain.add(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name:
            self.plain.add(node.name)

    def visit_MatchMapping(self, node):
        if node.rest:
            self.plain.add(node.rest)
        self.generic_visit(node)


def _parameters(args):
    every = args.posonlyargs + args.args + args.kwonlyargs
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return {a.arg for a in every}


def scope_names(node):
    """What the scope node opens binds: (plain locals, every name it binds).

    A plain local is a name bound only as a parameter, by assignment or as a target:
    one also bound by an import, a def or a class statement, or declared global or
    nonlocal, may denote a definition and is not plain.
    """
    b = _Bindings()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        b.plain |= _parameters(node.args)
        for stmt in node.body:
            b.visit(stmt)
    elif isinstance(node, ast.Lambda):
        b.plain |= _parameters(node.args)
        b.visit(node.body)
    elif isinstance(node, COMPREHENSIONS):
        for gen in node.generators:
            _store_names(gen.target, b.plain)
    return b.plain - b.other, b.plain | b.other


def builtin_only_names(tree):
    """Builtin names a file never binds: their uses can only denote the builtin.

    Empty when the file has a star import, which may bind any name.
    """
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return set()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return {name for name in dir(builtins) if not name.startswith("__")} - bound
