'use strict';
// TypeScript ground truth from the compiler: the program of the corpus, its
// definitions, and a checker walk for calls, references and implementations.

const ts = require('typescript');
const { loadProgram } = require('./program');
const { collectDefinitions } = require('./definitions');
const { Resolver } = require('./resolve');
const { walkFiles } = require('./walk');
const { Truth } = require('../../gt-lib/truth');

/**
 * Computes the ground truth of the corpus at root (an absolute, real path).
 * @param {{config?: string, log?: (msg: string) => void}} opts
 */
function extract(root, opts = {}) {
  const log = opts.log ?? (() => {});
  const { program, files, rel, config } = loadProgram(root, opts.config);
  log(`program: ${files.length} files from ${config}`);
  const checker = program.getTypeChecker();
  const defs = collectDefinitions(checker, files, rel);
  const resolver = new Resolver(checker, defs, new Set(files));
  const truth = new Truth();
  walkFiles(files, rel, defs, resolver, truth);

  // Type errors mean the checker guessed somewhere (an unresolved import makes its
  // names `any`): the count says how far to trust the rest.
  let diagnostics = 0;
  for (const sf of files) {
    diagnostics += program.getSyntacticDiagnostics(sf).length + program.getSemanticDiagnostics(sf).length;
  }
  log(`diagnostics: ${diagnostics}`);

  const definitions = defs.definitions.map(({ key, name, qualified, kind, generated, abstract }) => ({ key, name, qualified, kind, generated, abstract }));
  return truth.document(
    {
      language: 'typescript',
      tool: `typescript ${ts.version} compiler API (checker walk)`,
      root,
      files: files.map(rel),
      manifest: { typescript: ts.version, tsconfig: config, diagnostics },
    },
    definitions,
  );
}

module.exports = { extract };
