'use strict';
// Collects the edges a ground-truth program finds (gt-ts's checker walk, gt-py's
// pyright answers) into the document the accuracy harness reads
// (bench/graphacc/FORMAT.md). Both packages require this file by its path; it has
// no dependencies, so neither package installs anything for it.

/** Accumulates edges as sets, so a pair seen at many sites is one edge. */
class Truth {
  constructor() {
    this.calls = new Map();
    this.unresolvable = new Map();
    this.references = new Map();
    this.implementations = new Map();
  }

  call(from, to, dispatch) {
    const id = `${from}\u0000${to}`;
    const seen = this.calls.get(id);
    // A pair reached both through an abstract member and directly is a static call:
    // the direct site needs no dispatch to be right.
    if (!seen || (seen.dispatch === 'interface' && dispatch === 'static')) {
      this.calls.set(id, { from, to, dispatch });
    }
  }

  unresolvableCall(from, site, name) {
    const entry = name ? { from, site, name } : { from, site };
    this.unresolvable.set(`${from}\u0000${site}\u0000${name}`, entry);
  }

  reference(from, to) {
    this.references.set(`${from}\u0000${to}`, { from, to });
  }

  implementation(type, iface) {
    this.implementations.set(`${type}\u0000${iface}`, { type, interface: iface });
  }

  /** The document, every list sorted so that two runs print the same bytes. */
  document(header, definitions) {
    const keyOrder = (a, b) => compareKeys(a, b);
    const byFields = (...fields) => (a, b) => {
      for (const f of fields) {
        const c = keyOrder(a[f], b[f]);
        if (c !== 0) return c;
      }
      return 0;
    };
    return {
      ...header,
      definitions: [...definitions]
        .sort((a, b) => keyOrder(a.key, b.key))
        .map(({ abstract, ...def }) => (abstract ? { ...def, abstract } : def)),
      calls: [...this.calls.values()].sort(byFields('from', 'to')),
      unresolvable_calls: [...this.unresolvable.values()].sort((a, b) => byFields('from', 'site')(a, b) || compareText(a.name, b.name)),
      references: [...this.references.values()].sort(byFields('from', 'to')),
      implementations: [...this.implementations.values()].sort(byFields('type', 'interface')),
    };
  }
}

function compareText(a = '', b = '') {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders `path:line` keys by path, then by line as a number; a bare path comes first. */
function compareKeys(a, b) {
  const [pa, la] = splitKey(a);
  const [pb, lb] = splitKey(b);
  if (pa !== pb) return pa < pb ? -1 : 1;
  return la - lb;
}

function splitKey(key) {
  const m = /^(.*):(\d+)$/.exec(key);
  return m ? [m[1], Number(m[2])] : [key, 0];
}

module.exports = { Truth, compareKeys };
