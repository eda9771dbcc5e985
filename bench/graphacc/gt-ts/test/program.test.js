'use strict';
// Which files make a corpus's program: its tsconfig, the configs a solution-style
// tsconfig references, or every .ts/.tsx file under the root.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadProgram } = require('../lib/program');

function corpus(t, files) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gt-ts-')));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const MINIMAL = JSON.stringify({ compilerOptions: { lib: ['ES2022'], strict: true } });

test('a tsconfig decides the files', (t) => {
  const root = corpus(t, { 'tsconfig.json': JSON.stringify({ compilerOptions: { lib: ['ES2022'] }, include: ['lib'] }), 'lib/a.ts': 'export const a = 1;\n', 'other/b.ts': 'export const b = 2;\n' });
  const { files, rel, config } = loadProgram(root);
  assert.equal(config, 'tsconfig.json');
  assert.deepEqual(files.map(rel), ['lib/a.ts']);
});

test('a solution tsconfig is followed through its references', (t) => {
  const root = corpus(t, {
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './pkg' }] }),
    'pkg/tsconfig.json': JSON.stringify({ compilerOptions: { lib: ['ES2022'], composite: true }, include: ['*.ts'] }),
    'pkg/a.ts': 'export const a = 1;\n',
  });
  const { files, rel } = loadProgram(root);
  assert.deepEqual(files.map(rel), ['pkg/a.ts']);
});

test('without tsconfig, every .ts and .tsx file but declarations and node_modules', (t) => {
  const root = corpus(t, {
    'src/b.tsx': 'export const B = () => null;\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/types.d.ts': 'declare const g: number;\n',
    'node_modules/dep/index.ts': 'export const d = 1;\n',
  });
  const { files, rel, config } = loadProgram(root);
  assert.equal(config, '(none: default options)');
  assert.deepEqual(files.map(rel), ['src/a.ts', 'src/b.tsx']);
});

test('-p names another tsconfig', (t) => {
  const root = corpus(t, { 'tsconfig.json': MINIMAL, 'tsconfig.lib.json': JSON.stringify({ compilerOptions: { lib: ['ES2022'] }, files: ['x.ts'] }), 'x.ts': '', 'y.ts': '' });
  const { files, rel, config } = loadProgram(root, path.join(root, 'tsconfig.lib.json'));
  assert.equal(config, 'tsconfig.lib.json');
  assert.deepEqual(files.map(rel), ['x.ts']);
});
