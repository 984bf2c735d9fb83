// The play page: one match seen with the token in the URL fragment (#token=...), sent as the
// Bearer header. A side's token plays that side; the referee's acts for whichever side is to
// move (hot-seat). Plain DOM, no build step, nothing from the network but this service.
"use strict";

const $ = (id) => document.getElementById(id);
const [, , GAME, MATCH] = location.pathname.split("/").map(decodeURIComponent);
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const API = `/api/games/${encodeURIComponent(GAME)}/matches/${encodeURIComponent(MATCH)}`;
const CHANCE = "chance";

const page = {
  referee: false, // the token is the referee's: read /state, act for the side to move
  side: null,
  ply: -1,
  toMove: null,
  choices: [], // [{action, probability}] the legal actions (or chance outcomes) now
  result: null,
  unit: null, // the unit clicked: the list shows the actions naming it
  cell: null, // the hex (or area) clicked
  builder: null, // {combats: [{attackers, defenders, support}], pick: {combat, role} | null}
  poll: null,
};

// --- the service ------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body.message || body.error || String(status));
    this.status = status;
    this.body = body;
  }
}

async function call(path, { method = "GET", body, raw = false } = {}) {
  const headers = { Authorization: `Bearer ${TOKEN}` };
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(API + path, init);
  const text = await r.text();
  if (!r.ok) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: String(r.status), message: text };
    }
    throw new ApiError(r.status, data);
  }
  return raw ? text : JSON.parse(text);
}

async function position() {
  if (!page.referee) {
    try {
      const v = await call("/view");
      const choices = v.view.legal_actions.map((action) => ({ action }));
      return { ply: v.ply, toMove: v.view.to_move, side: v.view.side, choices, result: v.view.result };
    } catch (e) {
      // only the referee must name the side it reads (400 on `side`): use its whole state
      if (!(e instanceof ApiError && e.status === 400 && e.body.field === "side")) throw e;
      page.referee = true;
    }
  }
  const s = await call("/state");
  const choices =
    s.to_move === CHANCE
      ? s.chance_outcomes.map((o) => ({ action: o.action, probability: o.probability }))
      : s.legal_actions.map((action) => ({ action }));
  return { ply: s.ply, toMove: s.to_move, side: null, choices, result: s.result };
}

async function load() {
  clearTimeout(page.poll);
  busy(true);
  try {
    const pos = await position();
    const moved = pos.ply !== page.ply;
    Object.assign(page, pos);
    if (moved) {
      page.unit = page.cell = page.builder = null;
      const [svg] = await Promise.all([call("/picture.svg", { raw: true }), loadLog()]);
      $("board").innerHTML = svg;
    }
    render();
  } catch (e) {
    showError(e);
  } finally {
    busy(false);
    if (document.body.dataset.turn === "waiting") page.poll = setTimeout(load, 1000);
  }
}

async function submit(action) {
  busy(true);
  clearError();
  try {
    await call("/actions", { method: "POST", body: { ply: page.ply, action } });
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 409)) {
      showError(e);
      busy(false);
      return;
    }
    showError(e, " (reloaded)"); // stale or not our turn: the position has moved on
  }
  await load();
}

async function propose() {
  const b = page.builder;
  const action = { type: "declare", combats: b.combats.map((c) => ({ ...c })) };
  const out = $("explanation");
  out.replaceChildren("Asking…");
  let answer;
  try {
    answer = await call("/explain", { method: "POST", body: { action } });
  } catch (e) {
    out.replaceChildren(node("span", "error", `${e.status} ${e.body.error}: ${e.message}`));
    return;
  }
  if (answer.legal) {
    out.replaceChildren(node("span", "verdict legal", "Legal: "), answer.description || "");
    await submit(action);
    return;
  }
  out.replaceChildren(node("span", "verdict illegal", "Illegal: "), answer.error.message, " ");
  for (const c of answer.error.clauses || []) out.append(node("span", "clause", c));
}

async function loadLog() {
  const log = await call("/log");
  const ol = $("log");
  ol.replaceChildren();
  for (const e of log.entries) {
    const li = node("li", e.by === CHANCE ? "chance" : "");
    li.value = e.ply;
    li.dataset.by = e.by;
    li.append(node("span", "text", e.text));
    if (e.probability) li.append(node("span", "probability", `p = ${e.probability}`));
    if (e.headline) li.append(" ", node("span", "headline", `(${e.headline})`));
    if (e.events.length) {
      const ul = node("ul", "events");
      for (const ev of e.events) ul.append(node("li", "", ev));
      li.append(ul);
    }
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight; // the newest at the bottom, in sight
}

// --- reading actions --------------------------------------------------------------------

function strings(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) if (k !== "type") strings(x, out);
  return out;
}

const names = (action, what) => strings(action).includes(what);

function text(v) {
  if (Array.isArray(v)) {
    if (!v.length) return "none";
    return v.map(text).join(v.some((x) => x && typeof x === "object") ? "; " : " + ");
  }
  if (v && typeof v === "object") {
    if ("attackers" in v && "defenders" in v)
      return `${text(v.attackers)} attack ${text(v.defenders)}${v.support ? " with artillery" : ""}`;
    return describe(v);
  }
  return String(v);
}

function describe(action) {
  const rest = [];
  for (const [k, v] of Object.entries(action)) {
    if (k === "type" || k === "unit") continue;
    const key = k.replace(/_/g, " ");
    rest.push(v === true ? key : `${key} ${text(v)}`);
  }
  const words = rest.join(", ") || (action.type || "").replace(/_/g, " ");
  return action.unit === undefined ? words : `${action.unit} ${words}`;
}

// --- drawing ----------------------------------------------------------------------------

function node(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.append(content);
  return e;
}

function busy(on) {
  document.body.dataset.busy = on ? "1" : "0";
}

function clearError() {
  $("error").replaceChildren();
}

function showError(e, extra = "") {
  if (!(e instanceof ApiError)) {
    $("error").replaceChildren(String(e));
    return;
  }
  const where = e.body.field ? ` (at ${e.body.field})` : "";
  $("error").replaceChildren(`${e.status} ${e.body.error}: ${e.message}${where}${extra} `);
  for (const c of e.body.clauses || []) $("error").append(node("span", "clause", c));
}

function shown() {
  return page.choices.filter(
    (c) => (!page.unit || names(c.action, page.unit)) && (!page.cell || names(c.action, page.cell)),
  );
}

function render() {
  const turn = page.result ? "over" : page.choices.length ? "mine" : "waiting";
  document.body.dataset.turn = turn;
  document.body.dataset.ply = String(page.ply);
  $("title").textContent = `${GAME}: match ${MATCH}`;
  const who = page.referee ? "referee, acting for the side to move" : `you play ${page.side}`;
  const moving = page.toMove ? `${page.toMove} to move` : "game over";
  $("status").textContent = `Ply ${page.ply}: ${moving} (${who})${turn === "waiting" ? "; waiting…" : ""}`;
  renderResult();
  renderSelection();
  renderActions();
  renderBuilder();
  renderBoard();
}

function renderResult() {
  const out = $("result");
  out.replaceChildren();
  out.classList.toggle("over", !!page.result);
  if (!page.result) return;
  const r = page.result;
  const points = Object.entries(r.points).map(([s, p]) => `${s} ${p}`).join(", ");
  out.append(r.winner ? `Winner: ${r.winner}` : "A draw", ` (points ${points}) by `);
  out.append(node("span", "clause", r.clause), `: ${r.reason}`);
}

function renderSelection() {
  const parts = [];
  if (page.unit) parts.push(`unit ${page.unit}`);
  if (page.cell) parts.push(`hex ${page.cell}`);
  $("selected").textContent = parts.length
    ? `Selected: ${parts.join(", ")}`
    : "Click a unit, then a hex; or pick an action.";
}

function renderActions() {
  const groups = new Map();
  for (const c of shown()) {
    const type = c.action.type || "action";
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(c);
  }
  const out = $("actions");
  out.replaceChildren();
  for (const [type, choices] of groups) {
    const g = node("div", "group");
    g.dataset.type = type;
    g.append(node("h3", "", `${type.replace(/_/g, " ")} (${choices.length})`));
    for (const c of choices) {
      const label = describe(c.action) + (c.probability ? ` (p = ${c.probability})` : "");
      const b = node("button", "action", label);
      b.type = "button";
      b.dataset.action = JSON.stringify(c.action);
      b.addEventListener("click", () => submit(c.action));
      g.append(b);
    }
    out.append(g);
  }
  if (!groups.size && !page.result) {
    const why = page.choices.length ? "no action names the selection" : "not your turn: waiting";
    out.append(node("p", "muted", why));
  }
}

function renderBuilder() {
  const open = page.choices.some((c) => c.action.type === "declare");
  $("builder").classList.toggle("hidden", !open);
  if (!open) return;
  if (!page.builder) {
    page.builder = { combats: [], pick: null };
    $("explanation").replaceChildren();
  }
  const b = page.builder;
  const ol = $("combats");
  ol.replaceChildren();
  b.combats.forEach((combat, i) => {
    const li = node("li", "combat");
    li.dataset.index = String(i);
    for (const role of ["attackers", "defenders"]) {
      const active = b.pick && b.pick.combat === i && b.pick.role === role;
      const pick = node("button", `pick-${role}${active ? " active" : ""}`);
      pick.type = "button";
      pick.textContent = `${role}: ${combat[role].length ? combat[role].join(" + ") : "(click units)"}`;
      pick.addEventListener("click", () => {
        b.pick = active ? null : { combat: i, role };
        renderBuilder();
      });
      li.append(pick, " ");
    }
    const support = node("input", "support");
    support.type = "checkbox";
    support.checked = combat.support;
    support.addEventListener("change", () => {
      combat.support = support.checked;
    });
    const label = node("label", "", support);
    label.append(" artillery support");
    const remove = node("button", "remove", "remove");
    remove.type = "button";
    remove.addEventListener("click", () => {
      b.combats.splice(i, 1);
      b.pick = null;
      renderBuilder();
    });
    li.append(label, " ", remove);
    ol.append(li);
  });
  renderBoard();
}

function renderBoard() {
  const board = $("board");
  for (const e of board.querySelectorAll(".target, .chosen")) e.classList.remove("target", "chosen");
  const chosen = new Set();
  if (page.unit) chosen.add(page.unit);
  const b = page.builder;
  if (b && b.pick) for (const u of b.combats[b.pick.combat][b.pick.role]) chosen.add(u);
  for (const e of board.querySelectorAll("[data-piece]"))
    if (chosen.has(e.getAttribute("data-piece"))) e.classList.add("chosen");
  if (!page.unit && !page.cell) return;
  const named = new Set(shown().flatMap((c) => strings(c.action)));
  for (const e of board.querySelectorAll("[data-cell]"))
    if (named.has(e.getAttribute("data-cell")) && e.getAttribute("data-cell") !== page.cell)
      e.classList.add("target");
}

// --- clicks -----------------------------------------------------------------------------

function onBoardClick(ev) {
  // everything under the pointer: a counter over a hex names both the unit and the hex
  let piece = null;
  let cell = null;
  for (const e of document.elementsFromPoint(ev.clientX, ev.clientY)) {
    if (!$("board").contains(e)) continue;
    const p = e.closest("[data-piece]");
    if (piece === null && p) piece = p.getAttribute("data-piece");
    if (cell === null && e.hasAttribute("data-cell")) cell = e.getAttribute("data-cell");
  }
  if (document.body.dataset.busy === "1" || (piece === null && cell === null)) return;
  choose(piece, cell);
}

function choose(piece, cell) {
  clearError();
  const b = page.builder;
  if (b && b.pick && piece) {
    const list = b.combats[b.pick.combat][b.pick.role];
    const at = list.indexOf(piece);
    if (at < 0) list.push(piece);
    else list.splice(at, 1);
    renderBuilder();
    return;
  }
  if (page.unit && cell && piece !== page.unit) {
    const both = page.choices.filter((c) => names(c.action, page.unit) && names(c.action, cell));
    if (both.length === 1) {
      submit(both[0].action);
      return;
    }
    if (both.length > 1) {
      page.cell = cell;
      render();
      return;
    }
  }
  if (piece && page.choices.some((c) => names(c.action, piece))) {
    page.unit = piece === page.unit ? null : piece;
    page.cell = null;
  } else if (cell && page.choices.some((c) => names(c.action, cell))) {
    page.cell = cell === page.cell ? null : cell;
  } else {
    $("error").textContent = `No legal action names ${piece || cell}.`;
    return;
  }
  render();
}

function start() {
  // another link of the same match changes only the fragment: read the new token afresh
  window.addEventListener("hashchange", () => location.reload());
  if (!TOKEN) {
    $("status").textContent = "No token: open this page with the link the match gave (#token=…).";
    return;
  }
  $("board").addEventListener("click", onBoardClick);
  $("clear").addEventListener("click", () => {
    page.unit = page.cell = null;
    if (page.builder) page.builder.pick = null;
    render();
  });
  $("add-combat").addEventListener("click", () => {
    const b = page.builder;
    b.combats.push({ attackers: [], defenders: [], support: false });
    b.pick = { combat: b.combats.length - 1, role: "attackers" };
    renderBuilder();
  });
  $("propose").addEventListener("click", propose);
  load();
}

start();
