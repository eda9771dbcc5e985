#!/usr/bin/env node
'use strict';
// gt-ts: TypeScript ground truth for the code-graph accuracy benchmark, from the
// typescript compiler API. It never uses the engine it judges.
//
//   node gt-ts.js [-p TSCONFIG] [-o OUT.json] ROOT
//
// Without -p, ROOT/tsconfig.json is used when it exists, else every .ts/.tsx file
// under ROOT. The document goes to OUT or stdout; a summary with counts and time
// goes to stderr.

const fs = require('node:fs');
const path = require('node:path');
const { extract } = require('./lib/extract');

const USAGE = 'usage: gt-ts.js [-p TSCONFIG] [-o OUT.json] ROOT';

function parseArgs(argv) {
  const opts = { config: undefined, out: '', root: '' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value; ${USAGE}`);
      return argv[++i];
    };
    if (arg === '-p' || arg === '--project') opts.config = path.resolve(value());
    else if (arg === '-o' || arg === '--out') opts.out = value();
    else if (arg.startsWith('-')) throw new Error(`unknown flag ${arg}; ${USAGE}`);
    else if (opts.root) throw new Error(`one corpus root only (got ${opts.root} and ${arg})`);
    else opts.root = arg;
  }
  if (!opts.root) throw new Error(USAGE);
  return opts;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const root = fs.realpathSync(path.resolve(opts.root));
  const started = process.hrtime.bigint();
  const doc = extract(root, { config: opts.config, log: (msg) => process.stderr.write(`gt-ts: ${msg}\n`) });
  const json = JSON.stringify(doc, null, 1) + '\n';
  if (opts.out) fs.writeFileSync(opts.out, json);
  else process.stdout.write(json);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(
    `gt-ts: ${doc.files.length} files, ${doc.definitions.length} definitions, ${doc.calls.length} calls, ` +
      `${doc.unresolvable_calls.length} unresolvable, ${doc.references.length} references, ` +
      `${doc.implementations.length} implementations in ${seconds.toFixed(1)} s\n`,
  );
}

try {
  main();
} catch (err) {
  process.stderr.write(`gt-ts: ${err.stack ?? err}\n`);
  process.exit(1);
}
