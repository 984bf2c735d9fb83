// The play page's drawing: the status, the result, the chosen path and its next choices, the
// map's highlights, and the focus of the map on what the side to move may do. Uses play.js's
// page state; draws only what the page's own token was given.
"use strict";

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

// The picture parsed as XML and moved into the page, its inline style attributes given back
// through the CSSOM: the page's Content-Security-Policy allows no inline style in markup.
function drawBoard(text) {
  const board = $("board");
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = parsed.documentElement;
  if (svg.nodeName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    board.replaceChildren("The picture could not be read.");
    return;
  }
  const styled = Array.from(svg.querySelectorAll("[style]"), (e) => [e, e.getAttribute("style")]);
  if (svg.hasAttribute("style")) styled.push([svg, svg.getAttribute("style")]);
  for (const [e] of styled) e.removeAttribute("style");
  board.replaceChildren(document.adoptNode(svg));
  for (const [e, css] of styled) e.style.cssText = css;
  page.cells = new Set(Array.from(board.querySelectorAll("[data-cell]"), (e) => e.getAttribute("data-cell")));
  page.pieces = new Set(Array.from(board.querySelectorAll("[data-piece]"), (e) => e.getAttribute("data-piece")));
  view.apply();
}

function render() {
  const mine = page.next.length || page.outcomes.length || page.prefix.length;
  const turn = page.result ? "over" : mine ? "mine" : "waiting";
  const body = document.body.dataset;
  body.turn = turn;
  body.ply = String(page.ply);
  body.toMove = page.toMove || "";
  body.side = page.side || "referee";
  body.prefix = page.prefix.map((c) => c.id).join(".");
  $("title").textContent = `${GAME}: match ${MATCH}`;
  const who = page.referee ? "referee, acting for the side to move" : `you play ${page.side}`;
  const moving = page.toMove ? `${page.toMove} to move` : "game over";
  $("status").textContent = `Ply ${page.ply}: ${moving} (${who})${turn === "waiting" ? "; waiting…" : ""}`;
  renderResult();
  renderPath();
  renderChoices();
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
  out.append(r.winner ? `Winner: ${r.winner}` : "A draw", points ? ` (points ${points})` : "", " by ");
  out.append(node("span", "clause", r.clause), `: ${r.reason}`);
}

function renderPath() {
  const chosen = $("chosen");
  chosen.replaceChildren();
  if (!page.prefix.length) chosen.append("Nothing chosen yet.");
  for (const c of page.prefix) chosen.append(node("span", "step", c.label));
  chosen.classList.toggle("muted", !page.prefix.length);
  $("back").disabled = !page.prefix.length;
  $("clear").disabled = !page.prefix.length && !page.piece && !page.cell;
  const parts = [];
  if (page.piece) parts.push(`unit ${page.piece}`);
  if (page.cell) parts.push(`hex ${page.cell}`);
  $("selected").textContent = parts.length
    ? `Selected: ${parts.join(", ")}: the choices naming it are shown.`
    : "Click a unit or a hex on the map, or a choice below.";
}

function renderChoices() {
  const out = $("choices");
  out.replaceChildren();
  const groups = new Map();
  for (const c of shown()) {
    if (!groups.has(kind(c))) groups.set(kind(c), []);
    groups.get(kind(c)).push(c);
  }
  for (const [k, choices] of groups) {
    const g = node("div", "group");
    g.dataset.kind = k;
    g.append(node("h3", "", `${k} (${choices.length})`));
    for (const c of choices) {
      const b = node("button", "choice", c.label);
      b.type = "button";
      b.dataset.id = String(c.id);
      b.dataset.label = c.label;
      b.addEventListener("click", () => pick(c.id));
      g.append(b);
    }
    out.append(g);
  }
  for (const o of page.outcomes) {
    const b = node("button", "outcome", `${describe(o.action)} (p = ${o.probability})`);
    b.type = "button";
    b.dataset.action = JSON.stringify(o.action);
    b.addEventListener("click", () => submit(o.action));
    out.append(b);
  }
  if (!groups.size && !page.outcomes.length && !page.result) {
    const why = page.next.length ? "no choice names the selection" : "not your turn: waiting";
    out.append(node("p", "muted", why));
  }
}

function renderBoard() {
  const board = $("board");
  for (const e of board.querySelectorAll(".target, .chosen")) e.classList.remove("target", "chosen");
  const chosen = new Set(page.prefix.flatMap((c) => words(c.label)));
  if (page.piece) chosen.add(page.piece);
  const b = page.builder;
  if (b && b.pick) for (const u of b.combats[b.pick.combat][b.pick.role]) chosen.add(u);
  for (const e of board.querySelectorAll("[data-piece]"))
    if (chosen.has(e.getAttribute("data-piece"))) e.classList.add("chosen");
  if (!page.piece && !page.cell && !page.prefix.length) return;
  const named = new Set(shown().flatMap((c) => words(c.label)));
  for (const e of board.querySelectorAll("[data-cell]"))
    if (named.has(e.getAttribute("data-cell")) && e.getAttribute("data-cell") !== page.cell)
      e.classList.add("target");
}

// the map elements the side to move has something to do with: those its choices name, else
// its own pieces (named after the side, as "JP-..."), else the whole map
function focus() {
  const board = $("board");
  const named = new Set(page.next.flatMap((c) => words(c.label)));
  const hit = (attr) =>
    Array.from(board.querySelectorAll(`[${attr}]`)).filter((e) => named.has(e.getAttribute(attr)));
  let elements = [...hit("data-piece"), ...hit("data-cell")];
  const me = page.side || page.toMove;
  if (!elements.length && me)
    elements = Array.from(board.querySelectorAll("[data-piece]")).filter((e) =>
      e.getAttribute("data-piece").startsWith(`${me}-`),
    );
  view.focus(elements);
}

