'use strict';
// The file universe of a Python corpus: every .py file under the root, in a stable
// order, skipping directories no analysis should enter.

const fs = require('node:fs');
const path = require('node:path');

const SKIP_DIRS = new Set(['node_modules', '__pycache__', '.git', '.hg', '.svn', '.tox', '.venv', 'venv', '.albert-code']);

/** Lists .py files under root as forward-slash paths relative to it, sorted. */
function pythonFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && entry.name.endsWith('.py')) {
        out.push(path.relative(root, full).split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return out.sort();
}

module.exports = { pythonFiles };
