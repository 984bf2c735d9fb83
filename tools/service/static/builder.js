// Nomonhan's declaration builder (NOM-9): several combats declared at once, their units
// clicked on the map, proposed whole; an illegal declaration is explained, never sent. Shown
// only on a Nomonhan page when a declaration is legal. Uses play.js's page state.
"use strict";

function renderBuilder() {
  // Nomonhan's declaration (NOM-9): several combats at once, proposed whole
  const open = GAME === "nomonhan" && !page.prefix.length && page.legal.some((a) => a.type === "declare");
  $("builder").classList.toggle("hidden", !open);
  if (!open) return;
  if (!page.builder) page.builder = { combats: [], pick: null };
  const b = page.builder;
  const ol = $("combats");
  ol.replaceChildren();
  b.combats.forEach((combat, i) => {
    const li = node("li", "combat");
    li.dataset.index = String(i);
    for (const role of ["attackers", "defenders"]) {
      const active = b.pick && b.pick.combat === i && b.pick.role === role;
      const button = node("button", `pick-${role}${active ? " active" : ""}`);
      button.type = "button";
      button.textContent = `${role}: ${combat[role].length ? combat[role].join(" + ") : "(click units)"}`;
      button.addEventListener("click", () => {
        b.pick = active ? null : { combat: i, role };
        renderBuilder();
      });
      li.append(button, " ");
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

// a unit clicked while the builder picks attackers or defenders: added or taken out
// eslint-disable-next-line no-unused-vars
function builderPick(piece) {
  const b = page.builder;
  if (!b || !b.pick) return false;
  const list = b.combats[b.pick.combat][b.pick.role];
  const at = list.indexOf(piece);
  if (at < 0) list.push(piece);
  else list.splice(at, 1);
  renderBuilder();
  return true;
}

// eslint-disable-next-line no-unused-vars
function startBuilder() {
  $("add-combat").addEventListener("click", () => {
    const b = page.builder;
    b.combats.push({ attackers: [], defenders: [], support: false });
    b.pick = { combat: b.combats.length - 1, role: "attackers" };
    renderBuilder();
  });
  $("propose").addEventListener("click", () => {
    const action = { type: "declare", combats: page.builder.combats.map((c) => ({ ...c })) };
    busy(true);
    propose(action, true).finally(() => busy(false));
  });
}
