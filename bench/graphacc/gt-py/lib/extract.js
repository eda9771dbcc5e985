'use strict';
// Python ground truth: the syntax tells where the names are (sites.py, stdlib ast);
// pyright tells what each name denotes (textDocument/definition at every occurrence).
// Asking at every occurrence, rather than calling references per definition, gives
// calls and references in one pass, and an occurrence pyright cannot resolve is known
// as such, which is what makes a call site "unresolvable".

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { pathToFileURL, fileURLToPath } = require('node:url');

const { LSPClient } = require('./lsp');
const { Truth } = require('../../gt-lib/truth');
const { pythonFiles } = require('./corpus');

const PYRIGHT_VERSION = require('pyright/package.json').version;
const LANGSERVER = require.resolve('pyright/langserver.index.js');
const SITES = path.join(__dirname, 'sites.py');
const CALLERS = new Set(['function', 'method']);

// Requests in flight at once, so pyright's single thread never waits for the pipe.
// Judgement, not tuned: pyright answers in order, so any window of a few dozen does.
const WINDOW = 128;

/**
 * Computes the ground truth of the corpus at root.
 * @param {string} root absolute corpus directory
 * @param {{extraPaths?: string[], python?: string, log?: (msg: string) => void}} opts
 */
async function extract(root, opts = {}) {
  const log = opts.log ?? (() => {});
  const files = pythonFiles(root);
  const sites = readSites(root, files, opts.python ?? 'python3');
  log(`sites: ${files.length} files`);

  const defs = new Map(); // "rel#index" -> {key, def}
  const bindings = new Map(); // "rel:line:col" -> "rel#index"
  const definitions = [];
  const byKey = new Map();
  for (const file of sites) {
    if (file.error) {
      log(`${file.file}: ${file.error}`);
      continue;
    }
    file.defs.forEach((def, index) => {
      const key = `${file.file}:${def.line + 1}`;
      // Two definitions on one line (`a = b = 0`) share the line's key: keys are
      // line-based, so the first one names it.
      if (!byKey.has(key)) {
        byKey.set(key, def);
        definitions.push({
          key,
          name: def.name,
          qualified: def.qualified,
          kind: def.kind,
          generated: file.generated,
          abstract: def.kind === 'method' && def.abstract,
        });
      }
      defs.set(`${file.file}#${index}`, { key, def });
    });
    for (const b of file.bindings) bindings.set(`${file.file}:${b.line}:${b.col}`, `${file.file}#${b.defn}`);
  }

  const universe = new Set(files);
  const resolve = (locations) => {
    const hits = { defs: [], inCorpus: 0, total: 0 };
    for (const loc of locations ?? []) {
      hits.total++;
      const rel = relativeIn(root, loc.uri);
      if (rel === null || !universe.has(rel)) continue;
      hits.inCorpus++;
      const id = bindings.get(`${rel}:${loc.range.start.line}:${loc.range.start.character}`);
      if (id) hits.defs.push(defs.get(id));
    }
    return hits;
  };

  const interpreter = isolatedInterpreter(opts.python ?? 'python3');
  const client = startPyright(root, opts.extraPaths ?? [], interpreter.path);
  const truth = new Truth();
  let checks;
  try {
    const rootURI = pathToFileURL(root).href;
    await client.request('initialize', {
      processId: process.pid,
      rootUri: rootURI,
      workspaceFolders: [{ uri: rootURI, name: path.basename(root) }],
      capabilities: { workspace: { configuration: true }, textDocument: { definition: { linkSupport: false } } },
    });
    client.notify('initialized', {});
    for (const rel of files) {
      client.notify('textDocument/didOpen', {
        textDocument: { uri: fileURI(root, rel), languageId: 'python', version: 1, text: fs.readFileSync(path.join(root, rel), 'utf8') },
      });
    }

    const queries = [];
    for (const file of sites) {
      if (file.error) continue;
      const from = (index) => (index === null ? null : defs.get(`${file.file}#${index}`).key);
      // A caller is a function or method: code in a class body or at module level
      // has none (FORMAT.md).
      const caller = (index) => (index !== null && CALLERS.has(file.defs[index].kind) ? from(index) : null);
      for (const use of file.uses) queries.push({ file: file.file, use, from: from(use.defn), caller: caller(use.defn) });
      for (const base of file.bases) queries.push({ file: file.file, base, from: from(base.cls) });
      for (const call of file.dynamic_calls) {
        const by = caller(call.defn);
        if (by) truth.unresolvableCall(by, `${file.file}:${call.site}`, call.name);
      }
    }
    log(`queries: ${queries.length}`);

    let answered = 0;
    await pooled(queries, WINDOW, async (q) => {
      if (++answered % 5000 === 0) log(`${answered} of ${queries.length} answered`);
      const at = q.use ?? q.base;
      const locations = await client.request('textDocument/definition', {
        textDocument: { uri: fileURI(root, q.file) },
        position: { line: at.line, character: at.col },
      });
      const hits = resolve(locations);
      if (q.base) {
        for (const hit of hits.defs) if (hit.def.interface) truth.implementation(q.from, hit.key);
        return;
      }
      for (const hit of hits.defs) truth.reference(q.from ?? q.file, hit.key);
      if (!q.use.call || q.caller === null) return;
      const callees = hits.defs.filter((hit) => hit.def.callable);
      if (callees.length > 0) {
        for (const hit of callees) truth.call(q.caller, hit.key, hit.def.abstract ? 'interface' : 'static');
      } else if (hits.total === 0 || hits.inCorpus > 0) {
        // Nothing named, or a parameter, a local, an attribute set on self, a
        // variable or a property: what runs is decided at run time.
        truth.unresolvableCall(q.caller, `${q.file}:${q.use.line + 1}`, q.use.name);
      }
    });
    checks = await settledDiagnostics(client, files.map((rel) => fileURI(root, rel)), log);
  } finally {
    await client.shutdown();
    interpreter.cleanup();
  }

  return truth.document(
    {
      language: 'python',
      tool: `pyright ${PYRIGHT_VERSION}`,
      root,
      files,
      manifest: {
        pyright: PYRIGHT_VERSION,
        python: `${interpreter.version} without site-packages`,
        extra_paths: (opts.extraPaths ?? []).map((p) => path.resolve(p)),
        ...checks,
      },
    },
    definitions,
  );
}

// How long to wait, once every question is answered, for pyright to publish the
// diagnostics of the last files: it checks open files in the background. Judgement:
// the four corpora settle in seconds.
const DIAGNOSTICS_WAIT_MS = 120_000;

/**
 * Counts pyright's errors over the corpus, once it has published them for every
 * file: unresolved imports make names Unknown, so the count says how far to trust
 * the rest. Null counts when pyright did not finish in time.
 */
async function settledDiagnostics(client, uris, log) {
  const deadline = Date.now() + DIAGNOSTICS_WAIT_MS;
  while (uris.some((uri) => !client.diagnostics.has(uri))) {
    if (Date.now() > deadline) {
      log('diagnostics: pyright did not publish them for every file in time');
      return { errors: null, unresolved_imports: null };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let errors = 0;
  let unresolvedImports = 0;
  for (const uri of uris) {
    for (const d of client.diagnostics.get(uri)) {
      if (d.severity === 1) errors++;
      if (d.code === 'reportMissingImports') unresolvedImports++;
    }
  }
  log(`diagnostics: ${errors} errors, ${unresolvedImports} unresolved imports`);
  return { errors, unresolved_imports: unresolvedImports };
}

function readSites(root, files, python) {
  if (files.length === 0) return [];
  const out = execFileSync(python, ['-B', SITES, root, ...files], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(out);
}

function startPyright(root, extraPaths, interpreter) {
  const analysis = {
    extraPaths: extraPaths.map((p) => path.resolve(p)),
    autoSearchPaths: false, // no guessing of a src/ folder: the root is the import root
    diagnosticMode: 'openFilesOnly',
    typeCheckingMode: 'basic',
    useLibraryCodeForTypes: true,
  };
  // pyright 1.1.414 asks for the section "python" and reads `analysis` inside it.
  const settings = (section) => {
    if (section === 'python') return { pythonPath: interpreter, analysis };
    if (section === 'python.analysis') return analysis;
    return {};
  };
  return new LSPClient(process.execPath, [LANGSERVER, '--stdio'], settings);
}

/**
 * Makes a wrapper that runs python with -S, so pyright learns the interpreter's
 * version and standard library but no site-packages: imports then resolve only in
 * the corpus, the extra paths and pyright's bundled typeshed, whatever this machine
 * has installed. (Pointing pyright at no interpreter at all costs about 35 ms per
 * request: it looks for one again each time.)
 */
function isolatedInterpreter(python) {
  const info = JSON.parse(
    execFileSync(python, ['-S', '-c', 'import json, sys; print(json.dumps([sys.executable, "%d.%d.%d" % sys.version_info[:3]]))'], {
      encoding: 'utf8',
    }),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gt-py-'));
  const wrapper = path.join(dir, 'python');
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${info[0].replaceAll("'", "'\\''")}' -S "$@"\n`, { mode: 0o755 });
  return { path: wrapper, version: info[1], cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function fileURI(root, rel) {
  return pathToFileURL(path.join(root, rel)).href;
}

function relativeIn(root, uri) {
  if (!uri.startsWith('file:')) return null;
  const rel = path.relative(root, fileURLToPath(uri));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/** Runs work over items with at most width calls in flight. */
async function pooled(items, width, work) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

module.exports = { extract };
