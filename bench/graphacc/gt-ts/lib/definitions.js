'use strict';
// What a TypeScript corpus defines. A definition is one checker symbol: overloads, a
// getter with its setter, and merged declarations (`interface X` + `const X`, the
// pattern zod v4 is built on) are one definition, keyed at the first declaration,
// as "where is X defined" means one place to a reader.
//
// Definitions: functions and classes at any depth, variables holding a function
// expression at any depth, other variables at module or namespace level, interfaces,
// type aliases, enums, methods (of classes, interfaces and object literals),
// accessors, constructors, and fields (class properties, parameter properties,
// interface properties). Arrow functions and function expressions that no variable or
// property names are folded into the definition around them.

const ts = require('typescript');

const GENERATED = /@generated|DO NOT EDIT|[Aa]utomatically generated/;

function isFunctionValue(expr) {
  while (expr && ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return !!expr && (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr));
}

function isModuleLevel(varDecl) {
  const statement = varDecl.parent?.parent;
  return !!statement && ts.isVariableStatement(statement) && (ts.isSourceFile(statement.parent) || ts.isModuleBlock(statement.parent));
}

function hasSimpleName(node) {
  const n = node.name;
  return !!n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n));
}

function isParameterProperty(node) {
  return ts.isParameter(node) && ts.isConstructorDeclaration(node.parent) && ts.getEffectiveModifierFlags(node) & ts.ModifierFlags.ParameterPropertyModifier;
}

/** The kind of definition node makes, or '' when it makes none. */
function kindOf(node) {
  switch (node.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
      return node.name ? 'function' : '';
    case ts.SyntaxKind.ClassDeclaration:
      return node.name ? 'class' : '';
    case ts.SyntaxKind.InterfaceDeclaration:
      return 'interface';
    case ts.SyntaxKind.TypeAliasDeclaration:
      return 'type_alias';
    case ts.SyntaxKind.EnumDeclaration:
      return 'enum';
    case ts.SyntaxKind.Constructor:
      return 'method';
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
      return hasSimpleName(node) ? 'method' : '';
    case ts.SyntaxKind.MethodSignature:
      return hasSimpleName(node) && ts.isInterfaceDeclaration(node.parent) ? 'method' : '';
    case ts.SyntaxKind.PropertySignature:
      return hasSimpleName(node) && ts.isInterfaceDeclaration(node.parent) ? 'field' : '';
    case ts.SyntaxKind.PropertyDeclaration:
      if (!hasSimpleName(node)) return '';
      return isFunctionValue(node.initializer) ? 'method' : 'field';
    case ts.SyntaxKind.Parameter:
      return isParameterProperty(node) && ts.isIdentifier(node.name) ? 'field' : '';
    case ts.SyntaxKind.VariableDeclaration:
      if (!ts.isIdentifier(node.name)) return '';
      if (isFunctionValue(node.initializer)) return 'function';
      if (!isModuleLevel(node)) return '';
      return node.parent.flags & ts.NodeFlags.Const ? 'constant' : 'variable';
    default:
      return '';
  }
}

/** The token a definition's key points at: its name, or `constructor`. */
function nameToken(node, sf) {
  if (ts.isConstructorDeclaration(node)) {
    return node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) ?? node;
  }
  return node.name;
}

function displayName(node, sf) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const n = node.name;
  return ts.isStringLiteral(n) || ts.isNumericLiteral(n) ? n.text : n.getText(sf);
}

/** The symbol a definition node declares. */
function declaredSymbol(checker, node) {
  if (ts.isParameter(node)) {
    // A parameter property is two symbols, the parameter and the property: uses
    // through `this.x` denote the property.
    const pair = checker.getSymbolsOfParameterPropertyDeclaration(node, node.name.text);
    return pair[1];
  }
  if (ts.isConstructorDeclaration(node)) return node.symbol;
  return checker.getSymbolAtLocation(node.name) ?? node.symbol;
}

/**
 * Collects the definitions of the universe files.
 * @returns {{definitions: object[], byDecl: Map<ts.Node, object>, bySymbol: Map<ts.Symbol, object>}}
 *   Each definition is {key, name, qualified, kind, generated, abstract} plus, not
 *   printed, `node` (its first declaration).
 */
function collectDefinitions(checker, files, rel) {
  const definitions = [];
  const byDecl = new Map();
  const bySymbol = new Map();
  const byKey = new Map();
  for (const sf of files) {
    const file = rel(sf);
    const generated = GENERATED.test(sf.text.split('\n', 5).join('\n'));
    const visit = (node, scope) => {
      const kind = kindOf(node);
      let inner = scope;
      if (kind) {
        const symbol = declaredSymbol(checker, node);
        let def = symbol && bySymbol.get(symbol);
        if (!def) {
          const token = nameToken(node, sf);
          const line = sf.getLineAndCharacterOfPosition(token.getStart(sf)).line + 1;
          const key = `${file}:${line}`;
          const name = displayName(node, sf);
          def = byKey.get(key);
          if (!def) {
            // Two definitions on one line share the line's key: the first names it.
            // A parameter property belongs to the class, not to its constructor.
            const owner = ts.isParameter(node) ? scope.slice(0, -1) : scope;
            def = { key, name, qualified: `${file}::${[...owner, name].join('.')}`, kind, generated, abstract: false, node };
            byKey.set(key, def);
            definitions.push(def);
          }
          if (symbol) bySymbol.set(symbol, def);
        }
        byDecl.set(node, def);
        inner = [...scope, displayName(node, sf)];
      }
      ts.forEachChild(node, (child) => visit(child, inner));
    };
    visit(sf, []);
  }
  for (const [symbol, def] of bySymbol) def.abstract ||= isBodiless(def, symbol);
  return { definitions, byDecl, bySymbol };
}

/**
 * A function or method none of whose declarations has a body: an interface method,
 * an abstract method, an ambient function. Nobody asks what it calls.
 */
function isBodiless(def, symbol) {
  if (def.kind !== 'function' && def.kind !== 'method') return false;
  return (symbol.declarations ?? []).every((d) => {
    if (ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) return !d.initializer;
    return ts.isFunctionLike(d) && !d.body;
  });
}

module.exports = { collectDefinitions, kindOf };
