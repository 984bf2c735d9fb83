"""The scripts the browser tests run in the page to read it as a player sees it."""

PAGE = """
const b = document.body.dataset;
const all = (css, f) => Array.from(document.querySelectorAll(css), f);
const map = document.getElementById('map');
return {busy: b.busy, ply: b.ply, turn: b.turn, toMove: b.toMove, side: b.side,
  prefix: b.prefix || '', scale: map ? Number(map.dataset.scale || 0) : 0,
  choices: all('#choices button.choice', e => ({id: e.dataset.id, label: e.dataset.label})),
  scroll: [window.scrollX, window.scrollY, document.documentElement.scrollWidth,
           window.innerWidth],
  asked: performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)};
"""

TEXT = """
const parts = [document.documentElement.textContent];
for (const e of document.querySelectorAll('*'))
  for (const a of e.attributes)
    if (a.name.startsWith('data-') || a.name === 'title' || a.name === 'href') parts.push(a.value);
return parts.join(' ');
"""

EMPTY_CELLS = """
const frame = document.getElementById('map').getBoundingClientRect();
const named = new Set(arguments[0]);
const out = [];
for (const e of document.querySelectorAll('#board [data-cell]')) {
  const name = e.getAttribute('data-cell');
  if (named.has(name) || out.includes(name)) continue;
  const r = e.getBoundingClientRect();
  if (r.left < frame.left || r.right > frame.right || r.top < frame.top || r.bottom > frame.bottom)
    continue;
  const x = r.left + r.width / 4, y = r.top + r.height / 2;
  const under = document.elementsFromPoint(x, y);
  if (under.some((u) => u.closest('[data-piece]'))) continue;
  if (!under.some((u) => u.getAttribute && u.getAttribute('data-cell') === name)) continue;
  out.push(name);
}
return out;
"""

RECT = """
const r = arguments[0].getBoundingClientRect();
return [r.left, r.top, r.right, r.bottom, window.innerWidth, window.innerHeight];
"""
