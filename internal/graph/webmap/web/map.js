// The code graph map: draws the JSON of ./api with cytoscape (canvas).
// Navigation lives in the address's hash: #community=ID, #symbol=QNAME, # for the map.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const state = { cy: null, changes: null, view: "" };
  window.albertMap = state; // for tests and the paint benchmark

  const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#e15759", "#bab0ac"];
  const colour = (id) => palette[Math.abs(id) % palette.length];
  const riskColour = { high: "#d00000", medium: "#ff8c00", low: "#2b9348" };

  const style = [
    { selector: "node", style: { "label": "data(label)", "font-size": "data(font)", "background-color": "data(colour)",
      "width": "data(size)", "height": "data(size)", "text-valign": "bottom", "color": "#1d2330", "min-zoomed-font-size": 7 } },
    { selector: "edge", style: { "width": "data(width)", "line-color": "#b8c0d0", "target-arrow-color": "#b8c0d0",
      "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.6, "opacity": 0.7 } },
    { selector: "edge.implements", style: { "line-style": "dashed", "line-color": "#9c755f", "target-arrow-color": "#9c755f" } },
    { selector: "node.focus", style: { "border-width": 3, "border-color": "#1d2330", "font-weight": "bold", "font-size": 12 } },
    { selector: "node.changed", style: { "border-width": 4, "border-color": "data(risk)", "background-color": "data(risk)" } },
    { selector: "node.touched", style: { "border-width": 4, "border-color": "data(risk)" } },
    { selector: "node:selected", style: { "overlay-opacity": 0.15 } },
  ];

  async function getJSON(url, options) {
    const res = await fetch(url, options);
    let body = null;
    try { body = await res.json(); } catch (e) { body = { error: res.status + " " + res.statusText }; }
    if (!res.ok) { const err = new Error(body.error || res.statusText); err.body = body; err.status = res.status; throw err; }
    return body;
  }

  function note(text, isError) {
    const n = $("note");
    n.textContent = text || "";
    n.className = isError ? "error" : "";
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function symbolLink(qname, extra) {
    const li = el("li");
    const b = el("button", qname, "link");
    b.type = "button";
    b.addEventListener("click", () => { location.hash = "symbol=" + encodeURIComponent(qname); });
    li.append(b);
    if (extra) li.append(el("span", " " + extra, "kind"));
    return li;
  }

  // The map's own layout: discs on a golden-angle spiral, the first (largest)
  // at the centre, each further out by the area already used. Linear in the
  // nodes, the same every time, and instant where a force layout on x/tools'
  // 323 communities took 0.5 to 3.9 s in headless Chromium (cose, 250 to 1000
  // iterations, on a loaded 2-core machine).
  const golden = Math.PI * (3 - Math.sqrt(5));
  function spiral(diameters, gap) {
    let area = 0;
    return diameters.map((d, i) => {
      const r = i === 0 ? 0 : Math.sqrt(area) * 0.6 + d / 2;
      area += (d + gap) * (d + gap);
      return { x: r * Math.cos(i * golden), y: r * Math.sin(i * golden) };
    });
  }

  // place gives each node element a position: by spiral when no layout is named.
  function place(elements) {
    const nodes = elements.filter((e) => !e.data.source);
    const groups = new Map(); // community → its nodes, when nodes are symbols of several
    for (const n of nodes) {
      const k = n.data.qname ? n.data.community : "c" + n.data.id;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(n);
    }
    const spacing = 40; // between two symbols of a community: room for a short label
    const discs = [...groups.values()].map((members) => members.length === 1 ? members[0].data.size : 2 * spacing * Math.sqrt(members.length) + spacing);
    const centres = spiral(discs, spacing);
    [...groups.values()].forEach((members, g) => {
      members.forEach((n, j) => {
        const r = members.length === 1 ? 0 : spacing * Math.sqrt(j + 0.5);
        n.position = { x: centres[g].x + r * Math.cos(j * golden), y: centres[g].y + r * Math.sin(j * golden) };
      });
    });
  }

  function draw(elements, layout, onTap) {
    if (state.cy) state.cy.destroy();
    // A big node's label is readable before zooming in; a small one's after.
    for (const e of elements) if (!e.data.source) e.data.font = Math.min(16, Math.max(8, Math.round(e.data.size / 6)));
    if (!layout) place(elements);
    const started = performance.now();
    const cy = cytoscape({ container: $("graph"), elements, style, wheelSensitivity: 0.3, maxZoom: 2.5,
      layout: layout || { name: "preset", fit: true, padding: 20 },
      textureOnViewport: elements.length > 3000, hideEdgesOnViewport: elements.length > 3000 });
    state.cy = cy;
    cy.on("tap", "node", (ev) => onTap(ev.target));
    cy.one("render", () => {
      state.drawnMs = performance.now() - started;
      performance.mark("map-drawn");
      document.body.dataset.drawn = state.view;
    });
    highlightChanges();
  }

  // showMap draws the communities, one node each sized by its members, linked by
  // the calls between them; with symbols (small graphs only), every symbol,
  // coloured by its community.
  async function showMap(symbols) {
    state.view = symbols ? "symbols" : "map";
    document.body.dataset.state = state.view;
    const ov = await getJSON("api/map");
    const els = [];
    if (symbols && ov.mode === "symbols") {
      for (const m of ov.members) els.push({ data: { id: "s:" + m.qualified_name, label: m.label,
        colour: colour(m.community), size: 12, qname: m.qualified_name, community: m.community } });
      ov.calls.forEach((c, i) => els.push({ data: { id: "e" + i, source: "s:" + c.from, target: "s:" + c.to, width: 1 } }));
    } else {
      for (const c of ov.communities) els.push({ data: { id: "c" + c.id, label: c.name + " (" + c.size + ")", colour: colour(c.id),
        size: 12 + 6 * Math.sqrt(c.size), community: c.id } });
      ov.links.forEach((l, i) => els.push({ data: { id: "l" + i, source: "c" + l.from, target: "c" + l.to, width: Math.min(8, 0.5 + Math.log2(1 + l.calls)) } }));
    }
    note(ov.note || (ov.symbols + " symbols in " + ov.community_count + " communities"));
    const detail = $("detail");
    detail.replaceChildren();
    if (ov.mode === "symbols") {
      const toggle = el("a", symbols ? "Show the communities" : "Show every symbol");
      toggle.id = "toggle-symbols";
      toggle.href = symbols ? "#" : "#symbols";
      detail.append(el("p"));
      detail.lastChild.append(toggle);
    }
    detail.append(el("h2", ov.community_count + " communities"),
      el("p", "Communities are a heuristic partition (" + ov.certainty + "): " + ov.why, "kind"));
    const list = el("ol");
    for (const c of ov.communities.slice(0, 50)) {
      const li = el("li");
      const b = el("button", c.name, "link");
      b.type = "button";
      b.style.color = colour(c.id);
      b.addEventListener("click", () => { location.hash = "community=" + c.id; });
      li.append(b, el("span", " " + c.size + " members", "kind"));
      list.append(li);
    }
    detail.append(list);
    draw(els, null, (n) => {
      if (n.data("qname")) location.hash = "symbol=" + encodeURIComponent(n.data("qname"));
      else location.hash = "community=" + n.data("community");
    });
  }

  async function showCommunity(id) {
    state.view = "community";
    document.body.dataset.state = "community";
    const c = await getJSON("api/community/" + encodeURIComponent(id));
    const els = c.members.map((m) => ({ data: { id: "s:" + m.qualified_name, label: m.label, colour: colour(c.id), size: 14,
      qname: m.qualified_name, community: c.id } }));
    c.calls.forEach((k, i) => els.push({ data: { id: "e" + i, source: "s:" + k.from, target: "s:" + k.to, width: 1 } }));
    note(c.note || (c.size + " members"));
    const list = el("ul");
    for (const m of c.members.slice(0, 200)) list.append(symbolLink(m.qualified_name, m.kind + " " + m.file + ":" + m.line));
    $("detail").replaceChildren(el("h2", "Community " + c.id + ": " + c.name), el("p", "in " + c.dirs.join(", "), "kind"), list);
    draw(els, null, (n) => { location.hash = "symbol=" + encodeURIComponent(n.data("qname")); });
  }

  async function showSymbol(name) {
    state.view = "symbol";
    document.body.dataset.state = "symbol";
    let n;
    try {
      n = await getJSON("api/symbol?name=" + encodeURIComponent(name));
    } catch (err) {
      if (err.status !== 404) throw err;
      document.body.dataset.state = "unknown";
      note(err.message, true);
      const d = $("detail");
      d.replaceChildren();
      if (err.body && err.body.did_you_mean) {
        const ul = el("ul");
        for (const s of err.body.did_you_mean) ul.append(symbolLink(s));
        d.append(el("h2", "Did you mean"), ul);
      }
      return;
    }
    const els = [];
    const add = (item, cls) => {
      const id = "s:" + item.qualified_name;
      if (!els.some((e) => e.data.id === id)) {
        els.push({ data: { id, label: item.qualified_name.slice(item.qualified_name.lastIndexOf("/") + 1), qname: item.qualified_name,
          colour: cls === "focus" ? "#1d2330" : "#4e79a7", size: cls === "focus" ? 24 : 14 }, classes: cls });
      }
      return id;
    };
    const centres = n.targets.map((t) => add(t, "focus"));
    const centre = centres[0];
    let k = 0;
    for (const c of n.callers) els.push({ data: { id: "r" + k++, source: add(c, "caller"), target: centre, width: 1.5 } });
    for (const c of n.callees) els.push({ data: { id: "r" + k++, source: centre, target: add(c, "callee"), width: 1.5 } });
    for (const c of n.implementations) els.push({ data: { id: "r" + k++, source: add(c, "impl"), target: centre, width: 1.5 }, classes: "implements" });
    note(n.symbol + ": " + n.callers.length + " callers, " + n.callees.length + " callees, " + n.implementations.length + " implementations (" + n.certainty + ")");
    const d = $("detail");
    d.replaceChildren(el("h2", n.targets.map((t) => t.qualified_name).join(", ")));
    for (const t of n.targets) d.append(el("p", t.kind + " " + (t.file || "") + ":" + (t.line || ""), "kind"));
    for (const [title, items, id] of [["Callers", n.callers, "callers"], ["Callees", n.callees, "callees"], ["Implementations", n.implementations, "implementations"]]) {
      const ul = el("ul");
      ul.id = id;
      for (const it of items) ul.append(symbolLink(it.qualified_name, (it.site_file || it.file || "") + ":" + (it.site_line || it.line || "")));
      d.append(el("h2", title + " (" + items.length + ")"), ul);
    }
    d.append(el("p", n.why.join("; "), "kind"));
    draw(els, { name: "concentric", concentric: (node) => (node.hasClass("focus") ? 2 : 1), levelWidth: () => 1, minNodeSpacing: 30 },
      (node) => { location.hash = "symbol=" + encodeURIComponent(node.data("qname")); });
  }

  function highlightChanges() {
    const cy = state.cy, rep = state.changes;
    if (!cy) return;
    cy.nodes().removeClass("changed touched");
    if (!rep || !$("show-changes").checked) return;
    for (const c of rep.changed) {
      const n = cy.getElementById("s:" + c.qualified_name);
      if (n.nonempty()) n.data("risk", riskColour[c.risk] || riskColour.low).addClass("changed");
    }
    for (const t of rep.communities) {
      const n = cy.getElementById("c" + t.id);
      if (n.nonempty() && t.changed > 0) n.data("risk", riskColour[rep.risk] || riskColour.low).addClass("touched");
    }
  }

  async function loadChanges() {
    try {
      state.changes = await getJSON("api/changes");
    } catch (err) {
      $("changes-panel").hidden = false;
      $("risk").textContent = err.message;
      return;
    }
    const rep = state.changes;
    $("changes-panel").hidden = false;
    const risk = $("risk");
    risk.replaceChildren(el("span", "risk " + rep.risk_score.toFixed(2) + " (" + rep.risk + ")", "risk-" + rep.risk),
      el("span", " — " + rep.changed.length + " definition(s) touched in " + (rep.files || []).length + " file(s). " + rep.heuristic, "kind"));
    const ol = $("changes");
    ol.replaceChildren();
    for (const c of rep.changed) {
      const li = symbolLink(c.qualified_name, c.risk_score.toFixed(2) + " " + c.risk + ", " + c.dependents + " dependent(s)");
      li.classList.add("risk-" + c.risk);
      ol.append(li);
    }
    highlightChanges();
  }

  async function route() {
    const h = decodeURIComponent(location.hash.slice(1));
    try {
      if (h.startsWith("symbol=")) await showSymbol(h.slice(7));
      else if (h.startsWith("community=")) await showCommunity(h.slice(10));
      else await showMap(h === "symbols");
    } catch (err) {
      document.body.dataset.state = "error";
      note(err.message, true);
    }
  }

  let searchTimer = 0;
  async function suggest() {
    const q = $("q").value.trim();
    const hits = $("hits");
    if (!q) { hits.hidden = true; return; }
    let res;
    try { res = await getJSON("api/search?q=" + encodeURIComponent(q)); } catch (err) { note(err.message, true); return; }
    hits.replaceChildren();
    for (const h of res.hits) {
      const li = el("li");
      const b = el("button", h.qualified_name);
      b.type = "button";
      b.append(el("span", " " + h.kind, "kind"));
      b.addEventListener("click", () => { hits.hidden = true; location.hash = "symbol=" + encodeURIComponent(h.qualified_name); });
      li.append(b);
      hits.append(li);
    }
    hits.hidden = res.hits.length === 0;
  }

  function wireSearch() {
    $("q").addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(suggest, 150); });
    $("find").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const q = $("q").value.trim();
      $("hits").hidden = true;
      if (q) location.hash = "symbol=" + encodeURIComponent(q);
    });
    $("show-changes").addEventListener("change", highlightChanges);
  }

  async function waitForBuild() {
    $("build-state").textContent = "Building the index…";
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const st = await getJSON("api/status");
      if (st.building) continue;
      if (st.build_error) { $("build-state").textContent = "The build failed: " + st.build_error; return; }
      if (st.indexed) { location.reload(); return; }
    }
  }

  async function start() {
    wireSearch();
    let st;
    try { st = await getJSON("api/status"); } catch (err) { document.body.dataset.state = "error"; note(err.message, true); return; }
    $("root").textContent = st.root;
    if (!st.indexed) {
      document.body.dataset.state = "empty";
      $("empty").hidden = false;
      $("empty-root").textContent = st.root;
      $("empty-how").textContent = st.how;
      if (st.error) $("build-state").textContent = st.error;
      if (st.build_error) $("build-state").textContent = "The last build failed: " + st.build_error;
      const b = $("build");
      b.hidden = !st.can_build;
      b.addEventListener("click", async () => {
        b.disabled = true;
        try { await getJSON("api/index", { method: "POST", headers: { "X-Albert-Map": "1" } }); await waitForBuild(); }
        catch (err) { $("build-state").textContent = err.message; b.disabled = false; }
      });
      if (st.building) waitForBuild();
      return;
    }
    window.addEventListener("hashchange", route);
    await route();
    loadChanges();
  }

  start();
})();
