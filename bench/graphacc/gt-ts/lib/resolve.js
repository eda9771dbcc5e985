'use strict';
// What a name denotes, in terms of the corpus's definitions, and what a call calls.

const ts = require('typescript');

/** Declarations whose value can be called or constructed: the call runs their body. */
function isCallableDeclaration(decl) {
  switch (decl.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.Constructor:
      return true;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.PropertyDeclaration: {
      let init = decl.initializer;
      while (init && ts.isParenthesizedExpression(init)) init = init.expression;
      return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
    }
    default:
      return false; // accessors (the call calls what the getter returns), fields, parameters
  }
}

/** Abstract members: the callee is the declaration a receiver's static type names. */
function isAbstractMember(decl) {
  return ts.isMethodSignature(decl) || (ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Abstract) !== 0;
}

class Resolver {
  constructor(checker, defs, universe) {
    this.checker = checker;
    this.byDecl = defs.byDecl;
    this.universe = universe; // Set of the universe's ts.SourceFile
  }

  /** The symbol a name denotes, aliases (imports, re-exports) followed to the end. */
  symbolAt(name) {
    let symbol = this.checker.getSymbolAtLocation(name);
    const parent = name.parent;
    if (parent && ts.isShorthandPropertyAssignment(parent) && parent.name === name) {
      symbol = this.checker.getShorthandAssignmentValueSymbol(parent) ?? symbol;
    }
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
      const target = this.checker.getAliasedSymbol(symbol);
      if (target && !(target.flags & ts.SymbolFlags.Alias) && target.declarations) symbol = target;
    }
    return symbol;
  }

  /**
   * What the name denotes: [{decl, def}] for each of its declarations that is a
   * definition of the corpus (several for a member of a union type), and whether
   * any declaration lies in the corpus at all.
   */
  denotes(name) {
    const symbol = this.symbolAt(name);
    const out = { symbol, hits: [], inCorpus: false };
    for (const decl of symbol?.declarations ?? []) {
      if (this.universe.has(decl.getSourceFile())) out.inCorpus = true;
      const def = this.byDecl.get(decl);
      if (def) out.hits.push({ decl, def });
    }
    return out;
  }

  /**
   * What a call or `new` calls: {targets: [{def, dispatch}]}, {unresolvable: true}
   * when the checker cannot name a body (a function-typed value, `any`, an element
   * access, a call's result), or {} for a callee outside the corpus.
   */
  callees(call) {
    let callee = call.expression;
    while (ts.isParenthesizedExpression(callee) || ts.isNonNullExpression(callee) || ts.isExpressionWithTypeArguments(callee)) {
      callee = callee.expression;
    }
    if (callee.kind === ts.SyntaxKind.SuperKeyword) return this.superCall(call);
    let name;
    if (ts.isIdentifier(callee)) name = callee;
    else if (ts.isPropertyAccessExpression(callee)) name = callee.name;
    else return { unresolvable: true };

    const { symbol, hits, inCorpus } = this.denotes(name);
    const targets = [];
    for (const { decl, def } of hits) {
      if (isCallableDeclaration(decl)) targets.push({ def, dispatch: isAbstractMember(decl) ? 'interface' : 'static' });
    }
    if (targets.length > 0) return { targets };
    if (!symbol || !symbol.declarations || symbol.declarations.length === 0 || inCorpus) return { unresolvable: true };
    return {};
  }

  /** `super(...)`: the base class the enclosing class extends. */
  superCall(call) {
    let cls = call.parent;
    while (cls && !ts.isClassLike(cls)) cls = cls.parent;
    const base = cls && ts.getClassExtendsHeritageElement(cls);
    if (!base) return { unresolvable: true };
    let expr = base.expression;
    if (ts.isPropertyAccessExpression(expr)) expr = expr.name;
    if (!ts.isIdentifier(expr)) return { unresolvable: true }; // a mixin call
    const { symbol, hits, inCorpus } = this.denotes(expr);
    const targets = hits.filter(({ decl }) => ts.isClassDeclaration(decl)).map(({ def }) => ({ def, dispatch: 'static' }));
    if (targets.length > 0) return { targets };
    if (!symbol || inCorpus) return { unresolvable: true };
    return {};
  }
}

module.exports = { Resolver };
