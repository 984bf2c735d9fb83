// The map's view: the picture scaled to its box, zoomed and panned by the wheel, a drag, the
// buttons and the keyboard; focused on a set of map elements. A drag never counts as a click.
"use strict";

// eslint-disable-next-line no-unused-vars
class MapView {
  constructor(box, board) {
    this.box = box; // the visible frame (overflow hidden)
    this.board = board; // the picture inside it, moved by a CSS transform
    this.s = 1;
    this.x = 0;
    this.y = 0;
    this.placed = false; // the first picture is fitted or focused once, later ones keep the view
    this.drag = null;
    this.dragged = false;
    this.listen();
  }

  // the picture's own size (its viewBox), as drawn at scale 1
  size() {
    const svg = this.board.querySelector("svg");
    if (!svg) return { w: 1, h: 1 };
    const vb = svg.viewBox && svg.viewBox.baseVal;
    const w = vb && vb.width ? vb.width : Number(svg.getAttribute("width")) || 1;
    const h = vb && vb.height ? vb.height : Number(svg.getAttribute("height")) || 1;
    return { w, h };
  }

  frame() {
    return { w: this.box.clientWidth || 1, h: this.box.clientHeight || 1 };
  }

  fitScale() {
    const { w, h } = this.size();
    const f = this.frame();
    return Math.min(f.w / w, f.h / h);
  }

  apply() {
    const { w, h } = this.size();
    const f = this.frame();
    const min = Math.min(this.fitScale(), 1) * 0.5;
    this.s = Math.min(Math.max(this.s, min), 4);
    // keep at least a third of the frame covered by the picture
    const pw = w * this.s;
    const ph = h * this.s;
    this.x = Math.min(Math.max(this.x, f.w / 3 - pw), (2 * f.w) / 3);
    this.y = Math.min(Math.max(this.y, f.h / 3 - ph), (2 * f.h) / 3);
    const svg = this.board.querySelector("svg");
    if (svg) {
      svg.setAttribute("width", String(w));
      svg.setAttribute("height", String(h));
    }
    this.board.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.s})`;
    this.box.dataset.scale = this.s.toFixed(3);
  }

  fit() {
    const { w, h } = this.size();
    const f = this.frame();
    this.s = this.fitScale();
    this.x = (f.w - w * this.s) / 2;
    this.y = (f.h - h * this.s) / 2;
    this.apply();
  }

  // centre the view on `elements` (map elements), as close as fits, never below the fit
  focus(elements) {
    const boxes = elements.map((e) => e.getBoundingClientRect()).filter((r) => r.width || r.height);
    if (!boxes.length) {
      this.fit();
      return;
    }
    const at = this.board.getBoundingClientRect();
    const left = (Math.min(...boxes.map((r) => r.left)) - at.left) / this.s;
    const top = (Math.min(...boxes.map((r) => r.top)) - at.top) / this.s;
    const right = (Math.max(...boxes.map((r) => r.right)) - at.left) / this.s;
    const bottom = (Math.max(...boxes.map((r) => r.bottom)) - at.top) / this.s;
    const f = this.frame();
    const pad = 60;
    const want = Math.min(f.w / (right - left + 2 * pad), f.h / (bottom - top + 2 * pad), 1.2);
    this.s = Math.max(want, this.fitScale());
    this.x = f.w / 2 - ((left + right) / 2) * this.s;
    this.y = f.h / 2 - ((top + bottom) / 2) * this.s;
    this.apply();
  }

  zoomAt(factor, cx, cy) {
    const before = this.s;
    this.s = before * factor;
    this.apply();
    const k = this.s / before;
    this.x = cx - (cx - this.x) * k;
    this.y = cy - (cy - this.y) * k;
    this.apply();
  }

  zoomCentre(factor) {
    const f = this.frame();
    this.zoomAt(factor, f.w / 2, f.h / 2);
  }

  pan(dx, dy) {
    this.x += dx;
    this.y += dy;
    this.apply();
  }

  // whether a map element is wholly inside the visible frame
  shows(element) {
    const r = element.getBoundingClientRect();
    const f = this.box.getBoundingClientRect();
    return r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom;
  }

  listen() {
    this.box.addEventListener(
      "wheel",
      (ev) => {
        ev.preventDefault();
        const r = this.box.getBoundingClientRect();
        this.zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
      },
      { passive: false },
    );
    this.box.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0 || ev.target.closest("#zoom")) return;
      this.drag = { px: ev.clientX, py: ev.clientY, x: this.x, y: this.y, id: ev.pointerId };
      this.dragged = false;
    });
    this.box.addEventListener("pointermove", (ev) => {
      const d = this.drag;
      if (!d || d.id !== ev.pointerId) return;
      const dx = ev.clientX - d.px;
      const dy = ev.clientY - d.py;
      if (!this.dragged && Math.hypot(dx, dy) < 5) return;
      if (!this.dragged) this.box.setPointerCapture(ev.pointerId);
      this.dragged = true;
      this.box.classList.add("dragging");
      this.x = d.x + dx;
      this.y = d.y + dy;
      this.apply();
    });
    const end = () => {
      this.drag = null;
      this.box.classList.remove("dragging");
    };
    this.box.addEventListener("pointerup", end);
    this.box.addEventListener("pointercancel", end);
    // a drag's closing click is swallowed before the board's own click handler sees it
    this.box.addEventListener(
      "click",
      (ev) => {
        if (this.dragged) {
          ev.stopPropagation();
          this.dragged = false;
        }
      },
      true,
    );
    window.addEventListener("resize", () => this.apply());
  }

  // the keyboard: arrows pan, + and - zoom, 0 fits, f focuses (`onFocus`)
  keys(ev, onFocus) {
    const step = 80;
    const act = {
      ArrowLeft: () => this.pan(step, 0),
      ArrowRight: () => this.pan(-step, 0),
      ArrowUp: () => this.pan(0, step),
      ArrowDown: () => this.pan(0, -step),
      "+": () => this.zoomCentre(1.25),
      "=": () => this.zoomCentre(1.25),
      "-": () => this.zoomCentre(0.8),
      0: () => this.fit(),
      f: onFocus,
    }[ev.key];
    if (!act) return false;
    ev.preventDefault();
    act();
    return true;
  }
}
