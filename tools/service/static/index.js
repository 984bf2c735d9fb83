// The new-match page: choose a game, a preset and who plays; create the match and show each
// role's link (its token in the fragment). Hot-seat: each side plays through its own link, so a
// side's page shows only what that side may see; the referee's link sees everything.
"use strict";
const $ = (id) => document.getElementById(id);
let games = [];
let openLink = null;

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.append(o);
}

function showGame() {
  const g = games.find((x) => x.name === $("game").value);
  $("preset").replaceChildren();
  for (const p of Object.keys(g.presets)) option($("preset"), p, p);
  $("preset").value = g.default_preset;
  $("side").replaceChildren();
  for (const s of g.sides) option($("side"), s, s);
  showMode();
}

function showMode() {
  $("side").disabled = !$("mode-random").checked;
}

async function create(event) {
  event.preventDefault();
  $("error").textContent = "";
  const g = games.find((x) => x.name === $("game").value);
  const body = { variant: $("preset").value, chance: "server", agents: {} };
  // ?seed=N on this page's address: the server's dice and agent draw from seed N (a replay)
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^[0-9]{1,15}$/.test(seed)) body.seed = Number(seed);
  const mine = $("side").value;
  if ($("mode-random").checked) {
    for (const s of g.sides) if (s !== mine) body.agents[s] = "random";
  }
  const r = await fetch(`/api/games/${encodeURIComponent(g.name)}/matches`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) {
    $("error").textContent = `${r.status} ${data.error}: ${data.message || ""}`;
    return;
  }
  $("match-id").textContent = data.id;
  $("links").replaceChildren();
  for (const [role, link] of Object.entries(data.links)) {
    const li = document.createElement("li");
    const who = role === "referee" ? "referee (acts for the side to move)" : role;
    const played = body.agents[role] ? " (played by the random agent)" : "";
    li.append(`${who}${played}: `);
    const a = document.createElement("a");
    a.href = link;
    a.textContent = new URL(link, location.href).href;
    a.dataset.role = role;
    li.append(a);
    $("links").append(li);
  }
  // my side's link; hot-seat: the first side's (each side opens its own link in turn)
  openLink = $("mode-random").checked ? data.links[mine] : data.links[g.sides[0]];
  $("created").classList.remove("hidden");
}

async function start() {
  const r = await fetch("/api/games");
  games = (await r.json()).games;
  for (const g of games) option($("game"), g.name, g.title);
  $("game").addEventListener("change", showGame);
  $("mode-hotseat").addEventListener("change", showMode);
  $("mode-random").addEventListener("change", showMode);
  $("new").addEventListener("submit", create);
  $("open").addEventListener("click", () => { location.href = openLink; });
  showGame();
  document.body.dataset.ready = "1";
}

start().catch((e) => { $("error").textContent = String(e); });
