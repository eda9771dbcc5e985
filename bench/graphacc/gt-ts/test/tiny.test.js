'use strict';
// The ground truth of testdata/tiny, byte for byte (testdata/tiny.want.json), and the
// rules it shows, named one by one. UPDATE_GOLDEN=1 npm test rewrites the golden file
// after a deliberate change; review its diff.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { extract } = require('../lib/extract');

const ROOT = fs.realpathSync(path.join(__dirname, '..', 'testdata', 'tiny'));
const GOLDEN = path.join(__dirname, '..', 'testdata', 'tiny.want.json');

const doc = extract(ROOT);
const has = (list, item) => list.some((x) => Object.keys(item).every((k) => x[k] === item[k]));

test('matches the golden file', () => {
  const got = JSON.stringify({ ...doc, root: '<testdata/tiny>' }, null, 1) + '\n';
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, got);
  assert.equal(got, fs.readFileSync(GOLDEN, 'utf8'));
});

test('header names the compiler, the root and the file universe', () => {
  assert.equal(doc.language, 'typescript');
  assert.match(doc.tool, /^typescript 5\.9\.3 /);
  assert.equal(doc.root, ROOT);
  assert.deepEqual(doc.files, ['src/app.ts', 'src/shapes.ts']);
  assert.deepEqual(doc.manifest, { typescript: '5.9.3', tsconfig: 'tsconfig.json', diagnostics: 0 });
});

const rules = [
  ['overloads are one definition, keyed at the first signature', () =>
    assert.deepEqual(doc.definitions.filter((d) => d.name === 'scale').map((d) => d.key), ['src/shapes.ts:43'])],
  ['a parameter property is a field', () => assert.ok(has(doc.definitions, { key: 'src/shapes.ts:24', name: 'side', kind: 'field' }))],
  ['a variable holding an arrow function is a function, even inside another', () =>
    assert.ok(has(doc.definitions, { key: 'src/app.ts:13', name: 'helper', kind: 'function' }))],
  ['a call through an aliased import reaches the class', () =>
    assert.ok(has(doc.calls, { from: 'src/app.ts:9', to: 'src/shapes.ts:22', dispatch: 'static' }))],
  ['this.m() is a static call to the method', () => assert.ok(has(doc.calls, { from: 'src/shapes.ts:14', to: 'src/shapes.ts:17', dispatch: 'static' }))],
  ['a call through an interface goes to the interface member', () =>
    assert.ok(has(doc.calls, { from: 'src/app.ts:7', to: 'src/shapes.ts:3', dispatch: 'interface' }))],
  ['a call of an abstract method is an interface call', () =>
    assert.ok(has(doc.calls, { from: 'src/shapes.ts:39', to: 'src/shapes.ts:13', dispatch: 'interface' }))],
  ['super() calls the base class', () => assert.ok(has(doc.calls, { from: 'src/shapes.ts:23', to: 'src/shapes.ts:11' }))],
  ['a top-level statement makes references from the file, no call', () => {
    assert.ok(has(doc.references, { from: 'src/app.ts', to: 'src/shapes.ts:43' }));
    assert.ok(!doc.calls.some((c) => c.from === 'src/app.ts'));
  }],
  ['parameters, any and element access are unresolvable, named by the callee', () =>
    assert.deepEqual(doc.unresolvable_calls.filter((u) => u.from === 'src/app.ts:9'), [
      { from: 'src/app.ts:9', site: 'src/app.ts:11', name: 'handler' },
      { from: 'src/app.ts:9', site: 'src/app.ts:12', name: 'draw' },
      { from: 'src/app.ts:9', site: 'src/app.ts:14' },
    ])],
  ['a call in a module-level initialiser has no caller', () => assert.ok(!doc.calls.some((c) => c.from === 'src/app.ts:5'))],
  ['interface and abstract methods are abstract; overloads with a body are not', () => {
    const abstract = doc.definitions.filter((d) => d.abstract).map((d) => d.key);
    assert.deepEqual(abstract, ['src/shapes.ts:3', 'src/shapes.ts:8', 'src/shapes.ts:13']);
  }],
  ['a getter read is a reference, not a call', () => {
    assert.ok(has(doc.references, { from: 'src/app.ts:9', to: 'src/shapes.ts:34' }));
    assert.ok(!has(doc.calls, { to: 'src/shapes.ts:34' }));
  }],
  ['implements and interface extends are implementations; class extends is not', () =>
    assert.deepEqual(doc.implementations, [
      { type: 'src/shapes.ts:7', interface: 'src/shapes.ts:2' },
      { type: 'src/shapes.ts:11', interface: 'src/shapes.ts:2' },
      { type: 'src/shapes.ts:22', interface: 'src/shapes.ts:7' },
    ])],
  ['import clauses are not references', () => assert.ok(!doc.references.some((r) => r.from === 'src/app.ts' && r.to === 'src/shapes.ts:22'))],
];
for (const [name, check] of rules) test(name, check);
