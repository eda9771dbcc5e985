'use strict';
// sites.py asks pyright only about names that may denote a definition: plain locals
// and builtins the file never binds need no question (lib/scopes.py).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const SITES = path.join(__dirname, '..', 'lib', 'sites.py');

function sitesOf(t, source) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gt-py-sites-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.writeFileSync(path.join(root, 'm.py'), source);
  return JSON.parse(execFileSync('python3', ['-B', SITES, root, 'm.py'], { encoding: 'utf8' }))[0];
}

const names = (file) => file.uses.map((u) => `${u.line + 1}:${u.name}`);

test('plain locals, parameters and unbound builtins are not asked about', (t) => {
  const file = sitesOf(t, [
    'def f(a, b=len):', //             1: len is a default, read outside f, but builtin-only
    '    x = a + b', //                 2: x, a, b are plain locals
    '    return [x for x in range(a)]', // 3: comprehension target; range builtin
    '',
  ].join('\n'));
  assert.deepEqual(names(file), []);
});

test('names that may denote a definition are asked about', (t) => {
  const file = sitesOf(t, [
    'import os', //                       1
    'G = 1', //                           2
    'def f(self):', //                    3
    '    from os import path', //          4
    '    print = None', //                5: shadows a builtin in f only
    '    def g(): return G', //           6: G is global; g is f's own definition
    '    return path, g, self.attr, [G for _ in ()]', // 7
    'len(G)', //                          8: len is bound nowhere: builtin
    'print(G)', //                        9: print is bound in f, so asked at module level
    '',
  ].join('\n'));
  assert.deepEqual(names(file), ['6:G', '7:path', '7:g', '7:attr', '7:G', '8:G', '9:print', '9:G']);
});

test('a call of a local is unresolvable without a question; of a builtin, ignored', (t) => {
  const file = sitesOf(t, ['def f(cb):', '    cb()', '    len(cb)', ''].join('\n'));
  assert.deepEqual(file.dynamic_calls, [{ defn: 0, site: 2, name: 'cb' }]);
});

test('a star import makes every builtin name worth a question', (t) => {
  const file = sitesOf(t, ['from m2 import *', 'len(1)', ''].join('\n'));
  assert.deepEqual(names(file), ['2:len']);
});

test('columns are UTF-16 code units, as LSP counts them', (t) => {
  const file = sitesOf(t, ['s = "é𝄞"; T = s', ''].join('\n'));
  // The last `s` is at UTF-8 byte 18 (ast's unit), code point 14, and UTF-16 unit 15
  // (𝄞 is a surrogate pair).
  assert.deepEqual(file.uses.map((u) => [u.name, u.col]), [['s', 15]]);
});
