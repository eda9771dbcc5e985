'use strict';
// Builds the TypeScript program of a corpus: from its tsconfig.json when it has one
// (following project references when the root config lists no files itself), else
// from every .ts/.tsx file under the root with options any modern package compiles
// under.

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const SKIP_DIRS = new Set(['node_modules', '.git', '.albert-code', 'dist', 'build']);

// For a corpus without tsconfig.json: what current npm packages are written against
// (ES modules with bundler resolution, strict, DOM and ESNext libraries). Judgement;
// the diagnostic count in the output says whether it fits the corpus.
const DEFAULT_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.esnext.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  strict: true,
  jsx: ts.JsxEmit.Preserve,
  noEmit: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  esModuleInterop: true,
};

/** Reads a tsconfig, and the configs it references when it lists no files itself. */
function readConfig(configPath, seen = new Set()) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
  if (!parsed) throw new Error(`read ${configPath}: not a valid tsconfig`);
  seen.add(path.resolve(configPath));
  let fileNames = parsed.fileNames;
  if (fileNames.length === 0 && parsed.projectReferences) {
    fileNames = [];
    for (const ref of parsed.projectReferences) {
      const refPath = ts.resolveProjectReferencePath(ref);
      if (seen.has(path.resolve(refPath))) continue;
      fileNames.push(...readConfig(refPath, seen).fileNames);
    }
  }
  return { options: { ...parsed.options, noEmit: true }, fileNames };
}

function sourceFilesUnder(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push(full);
      }
    }
  };
  walk(root);
  return out.sort();
}

/**
 * Loads the corpus at root.
 * @returns {{program: ts.Program, files: ts.SourceFile[], rel: (sf: ts.SourceFile) => string, config: string}}
 *   files is the sampling universe: the program's own sources under root, without
 *   declaration files and node_modules, ordered by path.
 */
function loadProgram(root, configPath) {
  const tsconfig = configPath ?? path.join(root, 'tsconfig.json');
  let options;
  let rootNames;
  let config = '(none: default options)';
  if (fs.existsSync(tsconfig)) {
    ({ options, fileNames: rootNames } = readConfig(tsconfig));
    config = path.relative(root, tsconfig).split(path.sep).join('/');
  } else {
    options = DEFAULT_OPTIONS;
    rootNames = sourceFilesUnder(root);
  }
  const program = ts.createProgram({ rootNames, options });
  const rel = (sf) => path.relative(root, sf.fileName).split(path.sep).join('/');
  const files = program
    .getSourceFiles()
    .filter((sf) => {
      const r = rel(sf);
      return !sf.isDeclarationFile && !r.startsWith('..') && !path.isAbsolute(r) && !r.split('/').includes('node_modules');
    })
    .sort((a, b) => (rel(a) < rel(b) ? -1 : rel(a) > rel(b) ? 1 : 0));
  return { program, files, rel, config };
}

module.exports = { loadProgram };
