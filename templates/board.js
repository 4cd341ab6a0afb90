// pbem board: give one phase's orders by clicking (served by `pbem board`; docs/tutorial.md).
// Dependency-free. The server lists the legal actions (the rules module's legal_actions, after the
// lines written so far), checks each line as `pbem orders check` does, and plays as `pbem play` does.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const PLACES = ["hex", "loc"];
  const mapEl = $("map");
  const geo = mapEl ? JSON.parse(mapEl.dataset.geometry) : null;
  const svg = mapEl ? mapEl.querySelector("svg") : null;
  let state = null;   // the server's /state answer
  let unit = null;    // the unit clicked on the map: the actions shown are those it can take
  let build = null;   // the order being written: {a: action, i: argument index, values: {name: [..]}}
  let armed = false;  // Play asks for a second click before it sends

  async function post(path, text) {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify({text: text}), credentials: "same-origin"});
    if (!r.ok) throw new Error(path + ": " + r.status + " " + (await r.text()));
    return r.json();
  }
  function orderLines() {
    return $("orders").value.split("\n").map((s) => s.trim()).filter((s) => s && !s.startsWith("#"));
  }
  function asText(lines) { return lines.length ? lines.join("\n") + "\n" : ""; }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function button(label, onclick, cls) {
    const b = el("button", cls, label);
    b.type = "button";
    b.addEventListener("click", onclick);
    return b;
  }
  function log(text) { $("log").appendChild(el("li", "", text)); }
  function say(items, cls) {
    const box = $("messages");
    box.textContent = "";
    for (const m of items) {
      box.appendChild(el("div", cls, typeof m === "string" ? m : m.message));
      if (m.hint) box.appendChild(el("div", "hint", "hint: " + m.hint));
    }
  }

  // -- the map overlay: click targets on counters, highlights on hexes --------------------------
  let hiLayer = null, hitLayer = null;
  function hexPoints(id) {
    const [cx, cy] = geo.hexes[id], s = geo.size, h = s * Math.sqrt(3) / 2;
    return [[cx + s, cy], [cx + s / 2, cy + h], [cx - s / 2, cy + h], [cx - s, cy],
            [cx - s / 2, cy - h], [cx + s / 2, cy - h]].map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ");
  }
  function drawOverlay() {
    if (!svg) return;
    if (!hiLayer) {
      hiLayer = document.createElementNS(NS, "g");
      hitLayer = document.createElementNS(NS, "g");
      svg.appendChild(hiLayer);
      svg.appendChild(hitLayer);
      svg.addEventListener("click", mapClick);
    }
    hitLayer.textContent = "";
    const mine = ownUnits();
    for (const u of geo.units) {
      const r = document.createElementNS(NS, "rect");
      for (const [k, v] of [["x", u.x], ["y", u.y], ["width", 16], ["height", 12], ["rx", 1]]) r.setAttribute(k, v);
      r.setAttribute("class", "hit" + (mine.has(u.id) ? " mine" : "") + (u.id === unit ? " selected" : ""));
      r.dataset.unit = u.id;
      r.dataset.hex = u.hex;
      hitLayer.appendChild(r);
    }
    hiLayer.textContent = "";
    const picked = build ? Object.values(build.values).flat() : [];
    for (const [hexes, cls] of [[highlighted(), "choice"], [picked.filter((v) => v in geo.hexes), "picked"]]) {
      for (const id of hexes) {
        if (!(id in geo.hexes)) continue;
        const p = document.createElementNS(NS, "polygon");
        p.setAttribute("points", hexPoints(id));
        p.setAttribute("class", cls);
        p.dataset.hex = id;
        hiLayer.appendChild(p);
      }
    }
  }
  function ownUnits() {
    const out = new Set();
    for (const a of (state ? state.actions : [])) {
      for (const g of a.args) if (g.kind === "unit" && g.choices) g.choices.forEach((c) => out.add(c));
    }
    return out;
  }
  function highlighted() {
    // Building an order: the places its current argument allows; else those of the shown actions.
    if (build) {
      const g = build.a.args[build.i];
      return g && PLACES.includes(g.kind) && g.choices ? g.choices : [];
    }
    const out = new Set();
    for (const a of shownActions()) {
      for (const g of a.args) if (PLACES.includes(g.kind) && g.choices) g.choices.forEach((c) => out.add(c));
    }
    return unit ? [...out] : [];
  }
  function mapClick(ev) {
    const u = ev.target.dataset ? ev.target.dataset.unit : undefined;
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    let hex = null, best = geo.size * geo.size;
    for (const [id, [cx, cy]] of Object.entries(geo.hexes)) {
      const d = (cx - p.x) ** 2 + (cy - p.y) ** 2;
      if (d < best) { best = d; hex = id; }
    }
    const g = build ? build.a.args[build.i] : null;
    if (g && g.kind === "unit" && u) return takeValue(u);
    if (g && PLACES.includes(g.kind) && hex) return takeValue(hex);
    if (u) { unit = unit === u ? null : u; build = null; render(); }
  }

  // -- the actions and the order being built ---------------------------------------------------
  function takesUnit(a, id) {
    return a.args.some((g) => g.kind === "unit" && (g.choices === null || g.choices.includes(id)));
  }
  function shownActions() {
    const acts = state ? state.actions : [];
    return unit ? acts.filter((a) => takesUnit(a, unit)) : acts;
  }
  function usage(a) {
    return [a.verb, ...a.args.map((g) => {
      const w = (g.keyword ? g.keyword + " " : "") + g.name.toUpperCase() + (g.repeat ? " ..." : "");
      return g.optional ? "[" + w + "]" : w;
    })].join(" ");
  }
  function renderActions() {
    const box = $("actions");
    box.textContent = "";
    $("unit-filter").textContent = unit ? "(" + unit + ": click it again to show all)" : "";
    for (const a of shownActions()) {
      const row = el("div", "action");
      const b = button("", () => start(a));
      b.appendChild(el("span", "verb", usage(a)));
      row.appendChild(b);
      row.appendChild(el("span", "rule", " " + a.rule + ": " + a.summary));
      box.appendChild(row);
    }
    if (state && state.mine && state.done) box.appendChild(el("p", "", "These orders complete your decision: Play sends them."));
  }
  function start(a) {
    build = {a: a, i: 0, values: {}};
    // The unit clicked on the map fills the first argument that takes it; the others are asked in order.
    const g = a.args.find((x) => x.kind === "unit" && unit && (x.choices === null || x.choices.includes(unit)));
    if (g) build.values[g.name] = [unit];
    advance();
  }
  function advance() {
    // Skip an argument already given (the unit clicked first): the next one to ask.
    while (build.i < build.a.args.length && build.a.args[build.i].name in build.values && !build.a.args[build.i].repeat) build.i++;
    render();
  }
  function takeValue(v) {
    const g = build.a.args[build.i];
    if (g.choices && !g.choices.includes(v)) { say(["not a choice for " + g.name + ": " + v], "err"); return; }
    (build.values[g.name] = build.values[g.name] || []).push(v);
    if (!g.repeat) build.i++;
    advance();
  }
  function line() {
    const words = [build.a.verb];
    for (const g of build.a.args) {
      const vs = build.values[g.name];
      if (!vs || !vs.length) continue;
      if (g.keyword) words.push(g.keyword);
      words.push(...vs);
    }
    return words.join(" ");
  }
  function complete() {
    return build.a.args.every((g) => g.optional || (build.values[g.name] || []).length);
  }
  function renderBuilder() {
    $("builder").hidden = !build;
    if (!build) return;
    $("preview").textContent = line();
    $("add").disabled = !complete();
    const box = $("arg");
    box.textContent = "";
    const g = build.a.args[build.i];
    if (!g) return;
    const have = (build.values[g.name] || []).length;
    box.appendChild(el("p", "", (g.keyword ? g.keyword + " " : "") + g.name + " (" + g.kind + ")" +
      (PLACES.includes(g.kind) ? ": click a hex on the map" : g.kind === "unit" ? ": click a counter" : "") +
      (g.repeat ? ", one or more" : "") + (g.optional ? ", optional" : "")));
    const choices = el("div", "choices");
    for (const c of g.choices || []) choices.appendChild(button(c, () => takeValue(c)));
    box.appendChild(choices);
    if (g.choices === null) {
      const input = el("input");
      input.id = "value";
      input.setAttribute("aria-label", g.name);
      box.appendChild(input);
      box.appendChild(button("OK", () => { if (input.value.trim()) takeValue(input.value.trim()); }));
    }
    if (g.optional || (g.repeat && have)) box.appendChild(button(g.repeat && have ? "done with " + g.name : "leave out " + g.name, () => { build.i++; advance(); }));
  }
  function renderWanted() {
    const p = state.pending;
    $("wanted").className = "wanted" + (state.mine ? " you" : "");
    $("phase").textContent = p ? p.phase : "the game is over";
    $("what").textContent = !p ? "" : state.mine ? "You: " + p.wanted : "Waiting for " + p.seat + ": " + p.wanted;
    $("play").disabled = !state.mine;
    $("add").disabled = !state.mine;
    if (!state.answered && !$("orders").value) $("orders").value = state.template;
  }
  function render() {
    renderWanted();
    renderActions();
    renderBuilder();
    drawOverlay();
  }
  async function refresh() {
    state = await post("/state", asText(orderLines()));
    render();
  }

  // -- the buttons -----------------------------------------------------------------------------
  async function add() {
    const l = line();
    const res = await post("/check", asText([...orderLines(), l]));
    if (!res.ok) { say(res.errors, "err"); log("refused: " + l); return; }
    $("orders").value = asText([...orderLines(), l]);
    say(["added: " + l], "ok");
    log("added: " + l);
    build = null;
    unit = null;
    render();
    await refresh();
  }
  async function undo() {
    const ls = orderLines();
    if (!ls.length) return;
    const gone = ls.pop();
    $("orders").value = asText(ls);
    log("undone: " + gone);
    build = null;
    await refresh();
  }
  async function checkAll() {
    const res = await post("/check", asText(orderLines()));
    say(res.ok ? ["the orders are valid"] : res.errors, res.ok ? "ok" : "err");
    await refresh();
  }
  async function play() {
    if (!armed) {
      armed = true;
      $("play").textContent = "Click again to send";
      setTimeout(() => { armed = false; $("play").textContent = "Play (send)"; }, 6000);
      return;
    }
    armed = false;
    $("play").textContent = "Play (send)";
    const res = await post("/play", asText(orderLines()));
    if (!res.ok) { say(res.errors, "err"); return; }
    location.reload();  // a new map and a new decision
  }
  async function quit() {
    await post("/quit", "");
    document.body.textContent = "";
    document.body.appendChild(el("p", "", "The board is closed: you may close this tab."));
  }
  function guard(f) {
    return () => f().catch((e) => say([String(e)], "err"));
  }

  $("add").addEventListener("click", guard(add));
  $("cancel").addEventListener("click", () => { build = null; render(); });
  $("undo").addEventListener("click", guard(undo));
  $("check").addEventListener("click", guard(checkAll));
  $("play").addEventListener("click", guard(play));
  $("quit").addEventListener("click", guard(quit));
  $("orders").addEventListener("change", guard(refresh));
  guard(async () => {
    await refresh();
    for (const l of state.played) log(l);
  })();
})();
