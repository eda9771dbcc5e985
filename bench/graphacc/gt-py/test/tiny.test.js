'use strict';
// The ground truth of testdata/tiny, byte for byte (testdata/tiny.want.json), and the
// rules it shows, named one by one. UPDATE_GOLDEN=1 npm test rewrites the golden file
// after a deliberate change; review its diff.

const { before, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { extract } = require('../lib/extract');

const ROOT = fs.realpathSync(path.join(__dirname, '..', 'testdata', 'tiny'));
const GOLDEN = path.join(__dirname, '..', 'testdata', 'tiny.want.json');
const DEPS = path.join(__dirname, '..', 'testdata', 'deps');
const PYTHON = /^3\.\d+\.\d+ without site-packages$/;

let doc;
before(async () => {
  doc = await extract(ROOT, { extraPaths: [DEPS] });
});
const has = (list, item) => list.some((x) => Object.keys(item).every((k) => x[k] === item[k]));

test('matches the golden file', () => {
  // The manifest names this machine's python: checked on its own below.
  const manifest = { ...doc.manifest, python: '<python>', extra_paths: ['<testdata/deps>'] };
  const got = JSON.stringify({ ...doc, root: '<testdata/tiny>', manifest }, null, 1) + '\n';
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, got);
  assert.equal(got, fs.readFileSync(GOLDEN, 'utf8'));
});

test('header names pyright, the root and the file universe', () => {
  assert.equal(doc.language, 'python');
  assert.equal(doc.tool, 'pyright 1.1.414');
  assert.match(doc.manifest.python, PYTHON);
  assert.deepEqual(doc.manifest.extra_paths, [DEPS]);
  assert.equal(doc.manifest.unresolved_imports, 0);
  assert.equal(doc.root, ROOT);
  assert.deepEqual(doc.files, ['app.py', 'shapes/__init__.py', 'shapes/base.py', 'shapes/square.py']);
});

const rules = [
  ['a call through an aliased import reaches the class', () =>
    assert.ok(has(doc.calls, { from: 'app.py:8', to: 'shapes/square.py:4', dispatch: 'static' }))],
  ['self.m() is a static call to the method', () =>
    assert.ok(has(doc.calls, { from: 'shapes/base.py:15', to: 'shapes/base.py:18', dispatch: 'static' }))],
  ['a call of a Protocol member is an interface call', () =>
    assert.ok(has(doc.calls, { from: 'app.py:27', to: 'shapes/base.py:6', dispatch: 'interface' }))],
  ['a call of an abstractmethod is an interface call', () =>
    assert.ok(has(doc.calls, { from: 'shapes/base.py:15', to: 'shapes/base.py:13', dispatch: 'interface' }))],
  ['a nested function is a definition of its own', () => {
    assert.ok(has(doc.definitions, { key: 'app.py:15', qualified: 'app.report.inner', kind: 'function' }));
    assert.ok(has(doc.calls, { from: 'app.py:8', to: 'app.py:15' }));
    assert.ok(has(doc.calls, { from: 'app.py:15', to: 'shapes/base.py:15' }));
  }],
  ['parameters, call results and unknown receivers are unresolvable, named by the callee', () =>
    assert.deepEqual(doc.unresolvable_calls.filter((u) => u.from === 'app.py:8'), [
      { from: 'app.py:8', site: 'app.py:10', name: 'handler' },
      { from: 'app.py:8', site: 'app.py:11' },
      { from: 'app.py:8', site: 'app.py:13', name: 'draw' },
    ])],
  ['a call in a class body has no caller; its names are the class\'s references', () => {
    assert.ok(!doc.calls.some((c) => c.from === 'app.py:21'));
    assert.ok(has(doc.references, { from: 'app.py:21', to: 'shapes/square.py:4' }));
  }],
  ['Protocol members and abstractmethods are abstract', () =>
    assert.deepEqual(doc.definitions.filter((d) => d.abstract).map((d) => d.key), ['shapes/base.py:6', 'shapes/base.py:13'])],
  ['a top-level statement makes references from the file, no call', () => {
    assert.ok(has(doc.references, { from: 'app.py', to: 'shapes/square.py:4' }));
    assert.ok(!doc.calls.some((c) => c.from === 'app.py'));
  }],
  ['a property read is a reference, not a call', () => {
    assert.ok(has(doc.references, { from: 'app.py:8', to: 'shapes/square.py:18' }));
    assert.ok(!has(doc.calls, { to: 'shapes/square.py:18' }));
  }],
  ['calls outside the corpus are neither edges nor unresolvable', () => {
    assert.ok(!doc.calls.some((c) => c.from === 'shapes/square.py:7'), 'super().__init__() reaches object');
    assert.ok(!doc.unresolvable_calls.some((u) => u.from === 'shapes/square.py:7'));
  }],
  ['a call into an --extra-path dependency is neither an edge nor unresolvable', () => {
    assert.ok(!doc.calls.some((c) => c.from === 'app.py:33'));
    assert.ok(!doc.unresolvable_calls.some((u) => u.from === 'app.py:33'));
  }],
  ['class-level annotations are fields, used through self', () => {
    assert.ok(has(doc.definitions, { key: 'app.py:22', name: 'target', kind: 'field' }));
    assert.ok(has(doc.references, { from: 'app.py:27', to: 'app.py:22' }));
  }],
  ['a declared Protocol or ABC base is an implementation', () =>
    assert.deepEqual(doc.implementations, [
      { type: 'shapes/square.py:4', interface: 'shapes/base.py:5' },
      { type: 'shapes/square.py:4', interface: 'shapes/base.py:9' },
    ])],
  ['import clauses are not references', () => assert.ok(!doc.references.some((r) => r.from === 'shapes/__init__.py'))],
];
for (const [name, check] of rules) test(name, check);
