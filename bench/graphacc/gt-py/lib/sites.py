"""Reads Python files with the standard library's ast and prints, as JSON, what the
ground truth asks pyright about: the definitions each file makes, and every name
occurrence (bare names and attribute names) with the definition that encloses it and
whether it is the callee of a call.

Usage: python3 sites.py ROOT REL... > sites.json

Positions are 0-based lines and UTF-16 columns, the units of LSP: ast columns are
UTF-8 byte offsets, so each is re-encoded through its line's text.
"""

import ast
import json
import re
import sys

from scopes import builtin_only_names, scope_names

# Decorators that make a method an attribute read: calling the result calls whatever
# the getter returned, not the method.
PROPERTY_DECORATORS = {"property", "cached_property", "setter", "getter", "deleter"}
ABSTRACT_DECORATORS = {"abstractmethod", "abstractproperty"}
PROTOCOL_BASES = {"Protocol"}
# What makes a class an interface, whose subclasses implement it (FORMAT.md): a
# Protocol or ABC base, the ABCMeta metaclass, or an abstract method of its own.
ABSTRACT_BASES = PROTOCOL_BASES | {"ABC"}
ABSTRACT_METACLASSES = {"ABCMeta"}

GENERATED = re.compile(r"@generated|DO NOT EDIT|[Aa]utomatically generated")


def utf16_col(line_text, byte_col):
    prefix = line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")
    return len(prefix.encode("utf-16-le")) // 2


def last_name(expr):
    """The rightmost name of a decorator or base expression (`abc.abstractmethod`)."""
    while isinstance(expr, ast.Call):
        expr = expr.func
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


class FileSites(ast.NodeVisitor):
    def __init__(self, rel, source):
        self.rel = rel
        self.lines = source.split("\n")
        self.module = rel[:-3].replace("/", ".")
        if self.module.endswith(".__init__"):
            self.module = self.module[: -len(".__init__")]
        self.defs = []  # {name, line, col, kind, qualified, callable, abstract}
        self.bindings = []  # definition name tokens: {line, col, name, defn}
        self.uses = []  # names to ask about: {line, col, name, defn, call}
        self.calls = []  # calls known dynamic without asking: {defn, site, name}
        self.bases = []  # {cls, line, col}
        # Scopes: (kind, def index or None, {name: def index}, plain locals, bound
        # names). The module scope is first; functions, classes, lambdas and
        # comprehensions push their own.
        self.scopes = [("module", None, {}, set(), set())]
        self.builtin_only = set()
        self.binding_tokens = set()

    # ---- positions

    def pos(self, lineno, byte_col):
        return lineno - 1, utf16_col(self.lines[lineno - 1], byte_col)

    def name_token(self, node, keyword):
        """The position of the name after `def`/`class` on the node's line."""
        text = self.lines[node.lineno - 1]
        m = re.compile(keyword + r"\s+(\w+)").search(text, node.col_offset)
        col = m.start(1) if m else node.col_offset
        byte_col = len(text[:col].encode("utf-8"))
        return self.pos(node.lineno, byte_col)

    def attr_token(self, node):
        line = self.lines[node.end_lineno - 1]
        end = len(line.encode("utf-8")[: node.end_col_offset].decode("utf-8", errors="replace"))
        start = end - len(node.attr)
        return self.pos(node.end_lineno, len(line[:start].encode("utf-8")))

    # ---- scopes and definitions

    def enclosing(self):
        """The index of the innermost enclosing definition, or None at module level."""
        for _, index, *_ in reversed(self.scopes):
            if index is not None:
                return index
        return None

    def qualified(self, name):
        parts = [self.module]
        for _, index, *_ in self.scopes[1:]:
            if index is not None:
                parts.append(self.defs[index]["name"])
        return ".".join(parts + [name])

    def define(self, name, line, col, kind, **flags):
        """Records a definition, or folds a rebinding into the scope's first one."""
        table = self.scopes[-1][2]
        index = table.get(name)
        if index is None:
            index = len(self.defs)
            table[name] = index
            self.defs.append(dict(name=name, line=line, col=col, kind=kind,
                                  qualified=self.qualified(name), **flags))
        self.bindings.append(dict(line=line, col=col, name=name, defn=index))
        self.binding_tokens.add((line, col))
        return index

    def scope_kind(self):
        return self.scopes[-1][0]

    def visit_FunctionDef(self, node):
        line, col = self.name_token(node, "def")
        in_class = self.scope_kind() == "class"
        decorators = {last_name(d) for d in node.decorator_list}
        owner = self.defs[self.scopes[-1][1]] if in_class else {}
        abstract = bool(decorators & ABSTRACT_DECORATORS) or owner.get("protocol", False)
        if abstract:
            owner["interface"] = True
        index = self.define(
            node.name, line, col, "method" if in_class else "function",
            callable=not (decorators & PROPERTY_DECORATORS), abstract=abstract,
        )
        # Decorators, defaults and annotations are evaluated outside the function,
        # but what a signature uses is read as the function's: visit them with its
        # index and without its locals.
        self.scopes.append(("signature", index, {}, set(), set()))
        for expr in node.decorator_list + node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)
        self.visit(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        self.scopes.pop()
        self.scopes.append(("function", index, {}, *scope_names(node)))
        for stmt in node.body:
            self.visit(stmt)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arguments(self, node):
        for arg in node.posonlyargs + node.args + node.kwonlyargs + [node.vararg, node.kwarg]:
            if arg is not None and arg.annotation is not None:
                self.visit(arg.annotation)

    def visit_Lambda(self, node):
        # Folded into the enclosing definition; its parameters are its locals.
        for expr in node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)
        self.scopes.append(("lambda", None, {}, *scope_names(node)))
        self.visit(node.body)
        self.scopes.pop()

    def visit_comprehension_scope(self, node):
        # The first iterable is evaluated outside; the targets are the scope's own.
        self.visit(node.generators[0].iter)
        self.scopes.append(("comprehension", None, {}, *scope_names(node)))
        for i, gen in enumerate(node.generators):
            self.visit(gen.target)
            if i > 0:
                self.visit(gen.iter)
            for cond in gen.ifs:
                self.visit(cond)
        for field in ("elt", "key", "value"):
            if hasattr(node, field):
                self.visit(getattr(node, field))
        self.scopes.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_scope

    def needless(self, name):
        """Whether the name can only denote a local or a builtin (scopes.py)."""
        if name in self.builtin_only:
            return True
        for i in range(len(self.scopes) - 1, -1, -1):
            kind, _, _, plain, bound = self.scopes[i]
            if kind in ("module", "signature"):
                return False
            if kind == "class":
                if i == len(self.scopes) - 1:
                    return False
                continue  # a class body is no scope for the functions inside it
            if name in bound:
                return name in plain
        return False

    def visit_ClassDef(self, node):
        line, col = self.name_token(node, "class")
        protocol = any(last_name(b) in PROTOCOL_BASES for b in node.bases)
        interface = any(last_name(b) in ABSTRACT_BASES for b in node.bases) or any(
            k.arg == "metaclass" and last_name(k.value) in ABSTRACT_METACLASSES for k in node.keywords)
        index = self.define(node.name, line, col, "class", callable=True, abstract=False,
                            protocol=protocol, interface=interface)
        self.scopes.append(("class", index, {}, set(), set()))
        for base in node.bases:
            target = base
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Name):
                self.bases.append(dict(cls=index, line=target.lineno - 1,
                                       col=utf16_col(self.lines[target.lineno - 1], target.col_offset)))
            elif isinstance(target, ast.Attribute):
                bl, bc = self.attr_token(target)
                self.bases.append(dict(cls=index, line=bl, col=bc))
        for child in ast.iter_child_nodes(node):
            self.visit(child)
        self.scopes.pop()

    def define_targets(self, target):
        kind = {"module": "variable", "class": "field"}.get(self.scope_kind())
        if kind is None:
            return  # locals are not definitions
        if isinstance(target, ast.Name):
            line, col = self.pos(target.lineno, target.col_offset)
            self.define(target.id, line, col, kind, callable=False, abstract=False)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.define_targets(element)
        elif isinstance(target, ast.Starred):
            self.define_targets(target.value)

    def visit_Assign(self, node):
        for target in node.targets:
            self.define_targets(target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self.define_targets(node.target)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self.define_targets(node.target)
        self.generic_visit(node)

    def visit_Import(self, node):
        pass  # import clauses are not uses

    visit_ImportFrom = visit_Import

    # ---- uses and calls

    def visit_Name(self, node):
        line, col = self.pos(node.lineno, node.col_offset)
        if (line, col) in self.binding_tokens or self.needless(node.id):
            return
        self.uses.append(dict(line=line, col=col, name=node.id, defn=self.enclosing(), call=False))

    def visit_Attribute(self, node):
        self.visit(node.value)
        line, col = self.attr_token(node)
        self.uses.append(dict(line=line, col=col, name=node.attr, defn=self.enclosing(), call=False))

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        site = node.lineno
        if isinstance(func, ast.Name) and self.needless(func.id):
            if func.id not in self.builtin_only:
                # A parameter or a local variable: what it holds is known at run time.
                self.calls.append(dict(defn=self.enclosing(), site=site, name=func.id))
        elif isinstance(func, (ast.Name, ast.Attribute)):
            line, col = (self.pos(func.lineno, func.col_offset) if isinstance(func, ast.Name)
                         else self.attr_token(func))
            for use in reversed(self.uses):
                if use["line"] == line and use["col"] == col:
                    use["call"] = True
                    break
        else:
            self.calls.append(dict(defn=self.enclosing(), site=site, name=""))

    def result(self):
        head = "\n".join(self.lines[:5])
        return dict(file=self.rel, generated=bool(GENERATED.search(head)), defs=self.defs,
                    bindings=self.bindings, uses=self.uses, dynamic_calls=self.calls,
                    bases=self.bases)


def main():
    root, rels = sys.argv[1], sys.argv[2:]
    out = []
    for rel in rels:
        with open(f"{root}/{rel}", encoding="utf-8", errors="surrogateescape") as f:
            source = f.read()
        try:
            tree = ast.parse(source, filename=rel)
        except SyntaxError as err:
            out.append(dict(file=rel, error=f"syntax error: {err}"))
            continue
        sites = FileSites(rel, source)
        sites.builtin_only = builtin_only_names(tree)
        sites.visit(tree)
        out.append(sites.result())
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
