'use strict';
// The checker walk: every identifier, call and heritage clause of the universe files,
// attributed to the innermost enclosing definition.

const ts = require('typescript');

/** Import and export clauses name definitions without using them. */
function isImportOrExportClause(node) {
  return (
    ts.isImportDeclaration(node) ||
    ts.isImportEqualsDeclaration(node) ||
    ts.isExportDeclaration(node) ||
    (ts.isExportAssignment(node) && ts.isIdentifier(node.expression))
  );
}

/**
 * Adds the calls, references and implementations of the files to truth.
 * @param {import('./resolve').Resolver} resolver
 * @param {import('./truth').Truth} truth
 */
function walkFiles(files, rel, defs, resolver, truth) {
  for (const sf of files) {
    const file = rel(sf);
    const visit = (node, enclosing) => {
      if (isImportOrExportClause(node)) return;
      const own = defs.byDecl.get(node);
      if (own) heritage(node, own, resolver, truth);
      const inner = own ?? enclosing;

      if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && !isOwnName(node, defs)) {
        for (const { def } of resolver.denotes(node).hits) truth.reference(enclosing ? enclosing.key : file, def.key);
      }
      // A caller is a function or method: a call in a variable's, field's or class's
      // initialiser has none (FORMAT.md), even inside a lambda there.
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && isCaller(enclosing)) {
        const result = resolver.callees(node);
        if (result.unresolvable) {
          const name = calleeName(node);
          const line = sf.getLineAndCharacterOfPosition((name ?? node).getStart(sf)).line + 1;
          truth.unresolvableCall(enclosing.key, `${file}:${line}`, name ? name.text : '');
        }
        for (const t of result.targets ?? []) truth.call(enclosing.key, t.def.key, t.dispatch);
      }
      ts.forEachChild(node, (child) => visit(child, inner));
    };
    visit(sf, undefined);
  }
}

function isCaller(def) {
  return !!def && (def.kind === 'function' || def.kind === 'method');
}

/** The callee's last identifier (`h` in `a.b.h(x)`), undefined when it has none. */
function calleeName(call) {
  let callee = call.expression;
  while (ts.isParenthesizedExpression(callee) || ts.isNonNullExpression(callee)) callee = callee.expression;
  if (ts.isIdentifier(callee)) return callee;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name)) return callee.name;
  return undefined;
}

/** Whether the identifier is the name a definition declares (a declaration, not a use). */
function isOwnName(node, defs) {
  const parent = node.parent;
  return !!parent && parent.name === node && defs.byDecl.has(parent);
}

/** Declared `implements` of a class and `extends` of an interface, to interfaces. */
function heritage(node, def, resolver, truth) {
  if (!ts.isClassDeclaration(node) && !ts.isInterfaceDeclaration(node)) return;
  for (const clause of node.heritageClauses ?? []) {
    const wanted = ts.isClassDeclaration(node) ? ts.SyntaxKind.ImplementsKeyword : ts.SyntaxKind.ExtendsKeyword;
    if (clause.token !== wanted) continue;
    for (const type of clause.types) {
      let expr = type.expression;
      if (ts.isPropertyAccessExpression(expr)) expr = expr.name;
      if (!ts.isIdentifier(expr)) continue;
      for (const { decl, def: target } of resolver.denotes(expr).hits) {
        if (ts.isInterfaceDeclaration(decl)) truth.implementation(def.key, target.key);
      }
    }
  }
}

module.exports = { walkFiles };
