// The play page: one match seen with the token in the URL fragment (#token=...), sent as the
// Bearer header. A side's token plays that side and reads only that side's resources (its view,
// picture and log); the referee's acts for whichever side is to move. An action is built as
// the kernel's sub-decisions (the /choices route: the game's OpenSpiel codec), by clicking the
// choices or the units and hexes they name; a proposal is explained before it is sent.
// Plain DOM, no build step, nothing from the network but this service. The drawing is in
// draw.js, the map's zoom and pan in mapview.js, Nomonhan's declaration builder in builder.js.
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
  legal: [], // the legal actions now, in the game's JSON (for a proposal by analogy)
  outcomes: [], // the referee's chance outcomes when the match's chance is the client's
  result: null,
  prefix: [], // [{id, label}] the sub-decisions chosen so far
  next: [], // [{id, label}] the sub-decisions that extend the prefix
  piece: null, // the unit clicked on the map: the choices naming it are shown
  cell: null, // the hex (or area) clicked
  builder: null, // Nomonhan's declaration: {combats: [...], pick: {combat, role} | null}
  poll: null,
  cells: new Set(), // the names of the picture's hexes or areas
  pieces: new Set(), // the names of the picture's pieces
};

let view = null; // the MapView

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
      const w = v.view;
      return { ply: v.ply, toMove: w.to_move, side: w.side, legal: w.legal_actions, outcomes: [], result: w.result };
    } catch (e) {
      // only the referee must name the side it reads (400 on `side`): use its whole state
      if (!(e instanceof ApiError && e.status === 400 && e.body.field === "side")) throw e;
      page.referee = true;
    }
  }
  const s = await call("/state");
  const outcomes = s.to_move === CHANCE ? s.chance_outcomes : [];
  return { ply: s.ply, toMove: s.to_move, side: null, legal: s.legal_actions, outcomes, result: s.result };
}

async function load() {
  clearTimeout(page.poll);
  busy(true);
  try {
    const pos = await position();
    const moved = pos.ply !== page.ply;
    Object.assign(page, pos);
    if (moved) {
      page.piece = page.cell = page.builder = null;
      page.prefix = [];
      page.next = [];
      $("explanation").replaceChildren();
      const [svg] = await Promise.all([call("/picture.svg", { raw: true }), loadLog()]);
      drawBoard(svg);
      if (page.legal.length) await walk([]);
    }
    render();
    if (!view.placed && page.ply >= 0) {
      view.placed = true;
      focus();
    }
  } catch (e) {
    showError(e);
  } finally {
    busy(false);
    if (document.body.dataset.turn === "waiting") page.poll = setTimeout(load, 500);
  }
}

// the sub-decisions after `prefix` (ids); a whole action is explained, then submitted
async function walk(prefix) {
  const q = prefix.length ? `?prefix=${prefix.join(".")}` : "";
  const c = await call(`/choices${q}`);
  if (c.ply !== page.ply) return load();
  page.prefix = c.prefix;
  page.next = c.next;
  if (c.action) return propose(c.action, true);
  return null;
}

async function pick(id) {
  busy(true);
  clearError();
  try {
    page.piece = page.cell = null;
    await walk([...page.prefix.map((c) => c.id), id]);
    render();
  } catch (e) {
    showError(e);
    if (e instanceof ApiError && e.status === 409) await load();
  } finally {
    busy(false);
  }
}

async function back(all) {
  busy(true);
  clearError();
  try {
    page.piece = page.cell = null;
    await walk(all ? [] : page.prefix.slice(0, -1).map((c) => c.id));
    render();
  } catch (e) {
    showError(e);
  } finally {
    busy(false);
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

// ask the service whether `action` is legal now; submit it only if it is (and `send`)
async function propose(action, send) {
  const out = $("explanation");
  out.replaceChildren("Asking…");
  let answer;
  try {
    answer = await call("/explain", { method: "POST", body: { action } });
  } catch (e) {
    out.replaceChildren(node("span", "error", `${e.status} ${e.body ? e.body.error : ""}: ${e.message}`));
    return;
  }
  if (answer.legal) {
    out.replaceChildren(node("span", "verdict legal", "Legal: "), answer.description || "");
    if (send) await submit(action);
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

// --- reading choices and actions ---------------------------------------------------------

function strings(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) if (k !== "type") strings(x, out);
  return out;
}

const words = (label) => label.split(/[\s:,=]+/);
const names = (choice, what) => words(choice.label).includes(what);
const namesCell = (choice) => words(choice.label).some((w) => page.cells.has(w));
const kind = (choice) => words(choice.label)[0] || "choice";

function describe(action) {
  const rest = [];
  for (const [k, v] of Object.entries(action)) {
    if (k === "type") continue;
    const key = k.replace(/_/g, " ");
    rest.push(v === true ? key : `${key} ${JSON.stringify(v)}`);
  }
  return `${(action.type || "").replace(/_/g, " ")} ${rest.join(", ")}`;
}

function shown() {
  return page.next.filter(
    (c) => (!page.piece || names(c, page.piece)) && (!page.cell || names(c, page.cell)),
  );
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
  if (piece && builderPick(piece)) return null;
  const opts = page.next;
  if (page.piece && cell && piece !== page.piece) {
    // a unit, then a hex: the one choice naming both is taken
    const both = opts.filter((c) => names(c, page.piece) && names(c, cell));
    if (both.length === 1) return pick(both[0].id);
    if (both.length > 1) {
      page.cell = cell;
      return render();
    }
  }
  if (piece) {
    const m = opts.filter((c) => names(c, piece));
    if (m.length === 1 && !namesCell(m[0])) return pick(m[0].id);
    if (m.length) {
      page.piece = piece === page.piece ? null : piece;
      page.cell = null;
      return render();
    }
  }
  if (cell) {
    const m = opts.filter((c) => names(c, cell));
    if (m.length === 1) return pick(m[0].id);
    if (m.length) {
      page.cell = cell === page.cell ? null : cell;
      return render();
    }
  }
  if (cell && (page.piece || page.prefix.length) && analogy(cell)) return null;
  $("error").textContent = `No legal choice names ${piece || cell}.`;
  return null;
}

// A hex no legal choice names, clicked after a unit: the proposal a legal action naming that
// unit makes with the clicked hex in place of its own, explained (never sent) with its clauses.
function analogy(cell) {
  const want = [page.piece, ...page.prefix.flatMap((c) => words(c.label))].filter((w) =>
    page.pieces.has(w),
  );
  for (const action of page.legal) {
    const all = strings(action);
    if (!want.every((w) => all.includes(w))) continue;
    const key = Object.keys(action).find((k) => typeof action[k] === "string" && page.cells.has(action[k]));
    if (key === undefined) continue;
    propose({ ...action, [key]: cell }, false);
    return true;
  }
  return false;
}

function start() {
  // another link of the same match changes only the fragment: read the new token afresh
  window.addEventListener("hashchange", () => location.reload());
  view = new MapView($("map"), $("board")); // eslint-disable-line no-undef
  if (!TOKEN) {
    $("status").textContent = "No token: open this page with the link the match gave (#token=…).";
    return;
  }
  $("board").addEventListener("click", onBoardClick);
  $("zoom-in").addEventListener("click", () => view.zoomCentre(1.25));
  $("zoom-out").addEventListener("click", () => view.zoomCentre(0.8));
  $("zoom-fit").addEventListener("click", () => view.fit());
  $("zoom-focus").addEventListener("click", focus);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    view.keys(ev, focus);
  });
  $("back").addEventListener("click", () => back(false));
  $("clear").addEventListener("click", () => {
    page.piece = page.cell = null;
    if (page.builder) page.builder.pick = null;
    if (page.prefix.length) back(true);
    else render();
  });
  startBuilder();
  // the token's role first (`/role`), so a referee's page never asks for a side's view
  findRole().finally(load);
}

async function findRole() {
  try {
    page.referee = (await call("/role")).role === "referee";
  } catch {
    // `load` asks again and shows the error
  }
}

start();
