#!/usr/bin/env node
'use strict';
// gt-py: Python ground truth for the code-graph accuracy benchmark, from pyright.
// It never uses the engine it judges.
//
//   node gt-py.js [--extra-path DIR]... [--python PYTHON3] [-o OUT.json] ROOT
//
// --extra-path adds an import root for the corpus's dependencies (Debian's
// python3-* packages unpacked next to it). The document goes to OUT or stdout; a
// summary with counts and time goes to stderr.

const fs = require('node:fs');
const path = require('node:path');
const { extract } = require('./lib/extract');

function parseArgs(argv) {
  const opts = { extraPaths: [], out: '', root: '', python: 'python3' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--extra-path') opts.extraPaths.push(value());
    else if (arg === '--python') opts.python = value();
    else if (arg === '-o' || arg === '--out') opts.out = value();
    else if (arg.startsWith('-')) throw new Error(`unknown flag ${arg}`);
    else if (opts.root) throw new Error(`one corpus root only (got ${opts.root} and ${arg})`);
    else opts.root = arg;
  }
  if (!opts.root) throw new Error('usage: gt-py.js [--extra-path DIR]... [--python PYTHON3] [-o OUT.json] ROOT');
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const root = fs.realpathSync(path.resolve(opts.root));
  const started = process.hrtime.bigint();
  const doc = await extract(root, {
    extraPaths: opts.extraPaths,
    python: opts.python,
    log: (msg) => process.stderr.write(`gt-py: ${msg}\n`),
  });
  const json = JSON.stringify(doc, null, 1) + '\n';
  if (opts.out) fs.writeFileSync(opts.out, json);
  else process.stdout.write(json);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(
    `gt-py: ${doc.files.length} files, ${doc.definitions.length} definitions, ${doc.calls.length} calls, ` +
      `${doc.unresolvable_calls.length} unresolvable, ${doc.references.length} references, ` +
      `${doc.implementations.length} implementations in ${seconds.toFixed(1)} s\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`gt-py: ${err.stack ?? err}\n`);
  process.exit(1);
});
