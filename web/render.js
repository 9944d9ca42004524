// The one generic board renderer: any game's view model (cells, edges, pieces)
// becomes SVG. Nothing here knows a game by name or guesses from the data's
// shape: labels go where the view's `labels` says, cells are styled by their
// declared `mark`, pieces take their seat's declared colour unless a person
// chose another.
//
// Elements are kept across updates (cells by id, pieces matched by owner and
// label) so that CSS transitions can animate what changed: a piece that moved
// slides, a new piece grows in, a captured one fades out.

const SVG = 'http://www.w3.org/2000/svg';

/// Block and button colours (SameGame, Poggle), chosen to stay distinct for the
/// common forms of colour blindness (after Okabe and Ito).
export const PALETTE = [
  '#d55e00', '#0072b2', '#009e73', '#e69f00', '#cc79a7',
  '#56b4e9', '#f0e442', '#6b4c9a', '#8c8c8c', '#a6761d',
];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (parent) parent.appendChild(node);
  return node;
}

/// Black or white, whichever reads better on `hex`.
export function textOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || '');
  if (!m) return '#fff';
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.35 ? '#111' : '#fff';
}

/// A darker shade of `hex` for outlines.
export function shade(hex, factor = 0.7) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || '');
  if (!m) return '#333';
  return '#' + m.slice(1).map((h) => Math.round(parseInt(h, 16) * factor).toString(16).padStart(2, '0')).join('');
}

export function cellCentre(c) {
  return [c.x + c.w / 2, c.y + c.h / 2];
}

function median(values) {
  if (!values.length) return 1;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/// The area two rectangles {x, y, w, h} share.
function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/// The share (0..1) of a rectangle lying on any of the discs {cx, cy, r}, from a
/// grid of points (exact enough to choose between a label's places).
function coverage(r, discs) {
  let hit = 0;
  const N = 7;
  const M = 4;
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < M; j++) {
      const x = r.x + ((i + 0.5) / N) * r.w;
      const y = r.y + ((j + 0.5) / M) * r.h;
      if (discs.some((d) => (x - d.cx) ** 2 + (y - d.cy) ** 2 < d.r * d.r)) hit++;
    }
  }
  return hit / (N * M);
}

const safeClass = (s) => String(s).toLowerCase().replace(/[^a-z0-9_-]/g, '-');

/// The key of a cell's click target: cells with the same key act as one (a
/// group, a column); null for a cell that stands for itself.
export function targetKey(cell) {
  const t = cell?.target;
  if (!t || t.kind === 'cell') return null;
  return `${t.kind}:${t.group ?? t.column ?? ''}`;
}

/// The colour the view declares for `seat` (its `seats`), if any.
export function declaredColour(view, seat) {
  return view?.seats?.[seat]?.colour?.css ?? null;
}

/// The highlights a board draws, each its own colour and line so that none is
/// taken for another (style.css, "Highlights"): `set` is the name used in
/// `setHighlights`, `ring` the frame's class, `words` the key's words.
export const HIGHLIGHTS = {
  selected: { set: 'selected', ring: 'hl-selected', words: 'selected' },
  target: { set: 'target', ring: null, words: 'can go here' },
  recent: { set: 'recent', ring: 'hl-recent', words: "computer's last move" },
  mine: { set: 'mine', ring: 'hl-mine', words: 'your last move' },
  hint: { set: 'hinted', ring: 'hl-hint', words: 'hint' },
  cursor: { set: null, ring: 'cursor', words: 'keyboard cursor' },
};
/// Frames from the outside in when one square has several.
const FRAME_ORDER = ['recent', 'mine', 'hint', 'selected'];

export class Board {
  static uid = 0;
  /// `options`: {interactive, onCell(id, event), onHover(id | null), seatColour(seat) -> colour | null
  /// (a person's choice; the view's declared colour otherwise), palette() -> [colour] | null}
  constructor(container, options = {}) {
    this.options = options;
    // An interactive board is a group of cells, each a button named in words (its
    // name and what is on it), so a screen reader can browse and press them; the
    // drawing's other layers are hidden from it.
    this.svg = el('svg', { class: 'board', role: options.interactive ? 'group' : 'img' });
    if (options.interactive) {
      this.svg.setAttribute('tabindex', '0');
      this.svg.setAttribute('aria-roledescription', 'game board');
    }
    const defs = el('defs', {}, this.svg);
    for (const kind of ['win', 'draw', 'loss', 'none']) {
      const m = el('marker', {
        id: `${Board.uid}-head-${kind}`, viewBox: '0 0 10 10', refX: 6, refY: 5,
        markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse', class: `head head-${kind}`,
      }, defs);
      el('path', { d: 'M0,0 L10,5 L0,10 z' }, m);
    }
    this.uid = Board.uid++;
    this.edgesLayer = el('g', { class: 'edges', 'aria-hidden': 'true' }, this.svg);
    this.cellsLayer = el('g', { class: 'cells' }, this.svg);
    this.overlayLayer = el('g', { class: 'overlay', 'aria-hidden': 'true', 'pointer-events': 'none' }, this.svg);
    this.piecesLayer = el('g', { class: 'pieces', 'aria-hidden': 'true', 'pointer-events': 'none' }, this.svg);
    this.valueLayer = el('g', { class: 'move-values', 'aria-hidden': 'true', 'pointer-events': 'none' }, this.svg);
    this.badgeLayer = el('g', { class: 'badges', 'aria-hidden': 'true', 'pointer-events': 'none' }, this.svg);
    this.cursorEl = el('rect', { class: 'cursor', visibility: 'hidden' }, this.svg);
    container.appendChild(this.svg);
    // The key to the highlights (the page places it under the board).
    if (options.interactive) {
      this.keyEl = document.createElement('div');
      this.keyEl.className = 'highlight-key';
      this.keyEl.setAttribute('aria-label', 'What the highlights on the board mean');
    }
    this.cells = new Map(); // id -> {data, g, shape, label}
    this.pieces = []; // {key, cell, el, index, count}
    this.view = null;
    this.unit = 1;
    if (options.interactive) {
      this.svg.addEventListener('click', (e) => this.#dispatch(e));
      this.svg.addEventListener('contextmenu', (e) => {
        if (this.options.onContext) {
          e.preventDefault();
          this.#dispatch(e);
        }
      });
      this.svg.addEventListener('pointermove', (e) => {
        const id = this.#cellAt(e);
        if (id !== this.hoverId) {
          this.hoverId = id;
          this.options.onHover?.(id);
        }
      });
      this.svg.addEventListener('pointerleave', () => {
        this.hoverId = null;
        this.options.onHover?.(null);
      });
    }
  }

  #cellAt(e) {
    const g = e.target.closest?.('[data-cell]');
    return g ? Number(g.dataset.cell) : null;
  }

  #dispatch(e) {
    const id = this.#cellAt(e);
    if (id === null) return;
    if (e.type === 'contextmenu') this.options.onContext?.(id, e);
    else this.options.onCell?.(id, e);
  }

  seatColour(seat) {
    return this.options.seatColour?.(seat) || declaredColour(this.view, seat) || '#888888';
  }

  paletteColour(i) {
    const own = this.options.palette ? this.options.palette() : null;
    if (own && own[i]) return own[i];
    return PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length];
  }

  /// Draws `view`; with `animate`, moved pieces slide and new ones grow in.
  update(view, { animate = false } = {}) {
    this.view = view;
    // Work in units where a typical cell is 100 wide: tiny font sizes (a 3x3 board
    // in units of 1) render badly in some browsers.
    const raw = median((view.cells || []).map((c) => Math.min(c.w, c.h))) || 1;
    const k = 100 / raw;
    const cells = (view.cells || []).map((c) => ({ ...c, x: c.x * k, y: c.y * k, w: c.w * k, h: c.h * k }));
    view = { ...view, cells, width: (view.width || 0) * k, height: (view.height || 0) * k };
    this.unit = 100;
    const pad = this.unit * 0.12;
    const minX = Math.min(0, ...cells.map((c) => c.x));
    const minY = Math.min(0, ...cells.map((c) => c.y));
    const maxX = Math.max(view.width || 0, ...cells.map((c) => c.x + c.w));
    const maxY = Math.max(view.height || 0, ...cells.map((c) => c.y + c.h));
    this.box = { x: minX - pad, y: minY - pad, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad };
    this.svg.setAttribute('viewBox', `${this.box.x} ${this.box.y} ${this.box.w} ${this.box.h}`);
    this.svg.style.setProperty('--u', this.unit);
    this.#drawEdges(view);
    this.#drawCells(cells, view.labels || 'corner');
    this.#drawPieces(view.pieces || [], animate);
    this.svg.classList.toggle('animate', animate);
  }

  #drawEdges(view) {
    this.edgesLayer.replaceChildren();
    const byId = new Map((view.cells || []).map((c) => [c.id, c]));
    for (const e of view.edges || []) {
      const a = byId.get(e.from);
      const b = byId.get(e.to);
      if (!a || !b) continue;
      const [x1, y1] = cellCentre(a);
      const [x2, y2] = cellCentre(b);
      el('line', { x1, y1, x2, y2, 'stroke-width': this.unit * 0.08, class: 'edge' }, this.edgesLayer);
    }
  }

  #drawCells(cells, labels) {
    const seen = new Set();
    const u = this.unit;
    const cx0 = this.box.x + this.box.w / 2;
    // On a board of coloured cells (SameGame) an uncoloured cell is empty space.
    // Sticky: a cleared board is still a board of (no) blocks.
    this.colouredBoard ||= cells.some((c) => c.colour !== undefined && c.colour !== null);
    const colouredBoard = this.colouredBoard;
    const cy0 = this.box.y + this.box.h / 2;
    for (const c of cells) {
      seen.add(c.id);
      let entry = this.cells.get(c.id);
      const shapeName = c.shape === 'circle' ? 'circle' : 'rect';
      if (!entry || entry.shapeName !== shapeName) {
        entry?.g.remove();
        const g = el('g', { 'data-cell': c.id }, this.cellsLayer);
        if (this.options.interactive) {
          g.setAttribute('role', 'button');
          g.setAttribute('tabindex', '-1');
        }
        const shape = el(shapeName, { class: 'cell-shape', 'aria-hidden': 'true' }, g);
        const label = el('text', { class: 'cell-label', 'aria-hidden': 'true' }, g);
        entry = { g, shape, label, shapeName };
        this.cells.set(c.id, entry);
      }
      entry.data = c;
      // The cell in words for a screen reader: the page's words for it (its name and
      // what is on it), else its declared name.
      if (this.options.interactive) entry.g.setAttribute('aria-label', this.options.cellWords?.(c.id, this.view) || c.name || c.label || `point ${c.id}`);
      const classes = ['cell', shapeName, `labels-${safeClass(labels)}`];
      if (c.mark) classes.push('mark-' + safeClass(c.mark));
      if (c.colour !== undefined && c.colour !== null) classes.push('coloured');
      else if (colouredBoard) classes.push('void');
      entry.g.setAttribute('class', classes.join(' '));
      entry.g.dataset.mark = c.mark || '';
      const m = Math.min(c.w, c.h);
      if (shapeName === 'circle') {
        const [cx, cy] = cellCentre(c);
        entry.shape.setAttribute('cx', cx);
        entry.shape.setAttribute('cy', cy);
        entry.shape.setAttribute('r', c.w / 2);
      } else {
        const inset = m * 0.035;
        entry.shape.setAttribute('x', c.x + inset);
        entry.shape.setAttribute('y', c.y + inset);
        entry.shape.setAttribute('width', Math.max(0, c.w - 2 * inset));
        entry.shape.setAttribute('height', Math.max(0, c.h - 2 * inset));
        entry.shape.setAttribute('rx', m * 0.1);
      }
      entry.shape.setAttribute('stroke-width', u * 0.03);
      if (c.colour !== undefined && c.colour !== null) {
        entry.shape.style.fill = this.paletteColour(c.colour);
      } else {
        entry.shape.style.fill = '';
      }
      const text = c.label ?? '';
      entry.label.textContent = text;
      entry.label.removeAttribute('class');
      entry.label.setAttribute('class', 'cell-label');
      if (text) {
        if (labels === 'outside') {
          // Outside the point, away from the middle of the board.
          const [cx, cy] = cellCentre(c);
          let dx = cx - cx0;
          let dy = cy - cy0;
          const len = Math.hypot(dx, dy);
          if (len < 1e-6) {
            dx = 0.7;
            dy = -0.7;
          } else {
            dx /= len;
            dy /= len;
          }
          const size = Math.max(m * 0.55, u * 0.3);
          const dist = c.w / 2 + size * 0.75;
          entry.label.setAttribute('x', cx + dx * dist);
          entry.label.setAttribute('y', cy + dy * dist);
          entry.label.setAttribute('font-size', size);
          entry.label.setAttribute('text-anchor', 'middle');
          entry.label.setAttribute('dominant-baseline', 'central');
        } else if (labels === 'row_start') {
          // The name of the row the cell starts (a heap's), left of it.
          entry.label.setAttribute('x', c.x - m * 0.12);
          entry.label.setAttribute('y', c.y + c.h / 2);
          entry.label.setAttribute('font-size', m * 0.26);
          entry.label.setAttribute('text-anchor', 'end');
          entry.label.setAttribute('dominant-baseline', 'central');
          entry.g.classList.add('label-outside');
        } else if (labels === 'centre') {
          // A button's word, in its middle.
          const [cx, cy] = cellCentre(c);
          entry.label.setAttribute('x', cx);
          entry.label.setAttribute('y', cy);
          entry.label.setAttribute('font-size', Math.min(c.h * 0.42, (c.w * 1.4) / Math.max(3, text.length)));
          entry.label.setAttribute('text-anchor', 'middle');
          entry.label.setAttribute('dominant-baseline', 'central');
          entry.label.classList.add('cell-label-centre');
        } else {
          const size = m * (text.length > 2 ? 0.15 : 0.17);
          entry.label.setAttribute('x', c.x + m * 0.09);
          entry.label.setAttribute('y', c.y + m * 0.08);
          entry.label.setAttribute('font-size', size);
          entry.label.setAttribute('text-anchor', 'start');
          entry.label.setAttribute('dominant-baseline', 'hanging');
        }
      }
    }
    for (const [id, entry] of this.cells) {
      if (!seen.has(id)) {
        entry.g.remove();
        this.cells.delete(id);
      }
    }
  }

  #drawPieces(pieces, animate) {
    const byCell = new Map();
    for (const p of pieces) {
      if (!byCell.has(p.cell)) byCell.set(p.cell, []);
      byCell.get(p.cell).push(p);
    }
    // Where each new piece stands (a cell may hold several: Auto120 markers).
    const wanted = [];
    for (const [cell, list] of byCell) {
      list.forEach((p, index) => wanted.push({ ...p, key: `${p.owner ?? '-'}|${p.label ?? ''}`, index, count: list.length }));
    }
    // Match old pieces to new ones: same key on the same cell first, then the rest in order.
    const old = this.pieces;
    const used = new Set();
    const matched = new Array(wanted.length).fill(null);
    wanted.forEach((w, i) => {
      const j = old.findIndex((o, j2) => !used.has(j2) && o.key === w.key && o.cell === w.cell);
      if (j >= 0) {
        used.add(j);
        matched[i] = old[j];
      }
    });
    wanted.forEach((w, i) => {
      if (matched[i]) return;
      let bestJ = -1;
      let bestD = Infinity;
      old.forEach((o, j) => {
        if (used.has(j) || o.key !== w.key) return;
        if (wanted.some((x) => x.cell === o.cell && x.key === o.key)) return; // it is still there
        const d = this.#distance(o.cell, w.cell);
        if (d < bestD) {
          bestD = d;
          bestJ = j;
        }
      });
      if (bestJ >= 0) {
        used.add(bestJ);
        matched[i] = old[bestJ];
      }
    });
    old.forEach((o, j) => {
      if (used.has(j)) return;
      if (animate) {
        o.el.classList.add('leaving');
        setTimeout(() => o.el.remove(), 400);
      } else {
        o.el.remove();
      }
    });
    const next = [];
    wanted.forEach((w, i) => {
      const cell = this.cells.get(w.cell)?.data;
      if (!cell) return;
      let p = matched[i];
      if (!p) {
        const g = el('g', { class: 'piece' }, this.piecesLayer);
        const inner = el('g', { class: 'piece-body' }, g);
        el('circle', { class: 'piece-disc' }, inner);
        el('text', { class: 'piece-label' }, inner);
        p = { el: g };
        if (animate) g.classList.add('entering');
      }
      p.key = w.key;
      p.cell = w.cell;
      this.#placePiece(p.el, w, cell);
      next.push(p);
    });
    this.pieces = next;
  }

  #distance(a, b) {
    const ca = this.cells.get(a)?.data;
    const cb = this.cells.get(b)?.data;
    if (!ca || !cb) return 1e9;
    const [x1, y1] = cellCentre(ca);
    const [x2, y2] = cellCentre(cb);
    return Math.hypot(x1 - x2, y1 - y2);
  }

  #placePiece(g, p, cell) {
    const m = Math.min(cell.w, cell.h);
    let [cx, cy] = cellCentre(cell);
    // Leave a labelled square's corner number readable.
    // The same size on every square of a board (a labelled edge square is not smaller).
    let r = cell.shape === 'circle' ? m * 0.5 : m * 0.35;
    if (p.count > 1) {
      // Markers sharing a cell fill it (and may touch its border) so their
      // numbers stay readable on a phone: the rows that give the largest discs
      // (one row in a wide tray, a square block in a square cell).
      let cols = p.count;
      let rows = 1;
      let step = 0;
      for (let tryRows = 1; tryRows <= p.count; tryRows++) {
        const tryCols = Math.ceil(p.count / tryRows);
        const s = Math.min((cell.w * 1.02) / tryCols, (cell.h * 1.02) / tryRows);
        if (s > step) [step, cols, rows] = [s, tryCols, tryRows];
      }
      // Never larger than a lone piece on that cell.
      step = Math.min(step, m * 0.72);
      r = step * 0.49;
      const col = p.index % cols;
      const row = Math.floor(p.index / cols);
      // A tray much wider than its row of markers (Auto120's start, which spans
      // the board) keeps them at its start, not its middle: on a phone the board
      // is wider than the screen, and centred markers ran off its right edge.
      const wide = rows === 1 && cell.w > cell.h * 3 && step * cols < cell.w * 0.9;
      const left = wide ? step * 0.25 : (cell.w - step * cols) / 2;
      cx = cell.x + left + step * (col + 0.5);
      cy = cell.y + (cell.h - step * rows) / 2 + step * (row + 0.5) + (rows < cols ? step * 0.15 : 0);
    }
    const owner = p.owner;
    const fill = owner === undefined || owner === null ? '#c89b5a' : this.seatColour(owner);
    g.style.transform = `translate(${cx}px, ${cy}px)`;
    // Where the disc stands, for the move values' labels to keep off it.
    g.geom = { cx, cy, r };
    g.dataset.owner = owner ?? '';
    g.dataset.cell = '';
    delete g.dataset.cell;
    g.setAttribute('data-piece-cell', p.cell);
    const [disc, label] = g.firstChild.children;
    disc.setAttribute('r', r);
    disc.setAttribute('stroke-width', Math.max(r * 0.08, this.unit * 0.015));
    disc.style.fill = fill;
    disc.style.stroke = shade(fill, 0.65);
    const text = p.label ?? '';
    label.textContent = text;
    label.setAttribute('font-size', r * (text.length > 1 ? 0.9 : 1.15));
    label.style.fill = textOn(fill);
  }

  /// Refreshes piece colours after the user changed a seat colour.
  recolour() {
    if (this.view) this.update(this.view);
  }

  /// Highlights: {selected: [ids], targets: [ids], group: [ids], recent: [ids],
  /// mine: [ids], hint: [ids], starts: [ids], badges: Map(id -> {text, kind, title})}.
  ///
  /// Each kind of highlight is its own frame in its own colour and line (see
  /// HIGHLIGHTS), and frames on one square nest inside one another instead of
  /// painting over each other, so a square that is the computer's last move, the
  /// hint and your selection at once shows all three. The key under the board
  /// names the kinds on the board now.
  setHighlights(h = {}) {
    const sets = {
      selected: new Set(h.selected || []),
      target: new Set(h.targets || []),
      'in-group': new Set(h.group || []),
      recent: new Set(h.recent || []),
      mine: new Set(h.mine || []),
      hinted: new Set(h.hint || []),
      movable: new Set(h.starts || []),
      'solution': new Set(h.solution || []),
    };
    for (const [id, entry] of this.cells) {
      for (const [cls, set] of Object.entries(sets)) entry.g.classList.toggle(cls, set.has(id));
    }
    this.svg.classList.toggle('has-group', sets['in-group'].size > 0);
    this.overlayLayer.replaceChildren();
    this.targetDots = [];
    for (const id of sets.target) {
      const c = this.cells.get(id)?.data;
      if (!c) continue;
      const [cx, cy] = cellCentre(c);
      const r = Math.min(c.w, c.h) * 0.14;
      el('circle', { class: 'target-dot', cx, cy, r }, this.overlayLayer);
      this.targetDots.push({ cx, cy, r: r * 1.5 });
    }
    // Frames, outermost first: on a square with several, each keeps its own ring.
    const framed = new Map();
    for (const kind of FRAME_ORDER) {
      for (const id of sets[HIGHLIGHTS[kind].set]) {
        if (!framed.has(id)) framed.set(id, []);
        framed.get(id).push(kind);
      }
    }
    for (const [id, kinds] of framed) {
      const c = this.cells.get(id)?.data;
      if (!c) continue;
      kinds.forEach((kind, depth) => this.#ring(c, `hl-ring ${HIGHLIGHTS[kind].ring}`, this.overlayLayer, depth).setAttribute('data-highlight', kind));
    }
    this.shown = new Set(Object.keys(HIGHLIGHTS).filter((k) => k !== 'cursor' && sets[HIGHLIGHTS[k].set].size));
    this.#renderKey();
    this.badgeLayer.replaceChildren();
    for (const [id, badge] of h.badges || []) {
      const c = this.cells.get(id)?.data;
      if (!c) continue;
      this.#badge(c, badge);
    }
    this.solutionCounts = h.counts;
    if (h.counts) {
      for (const [id, n] of h.counts) {
        const c = this.cells.get(id)?.data;
        if (!c || !n) continue;
        this.#badge(c, { text: `×${n}`, kind: 'press', title: `press ${n} time${n > 1 ? 's' : ''}` });
      }
    }
  }

  /// The key to the highlights on the board now (and the keyboard cursor while it
  /// shows): a sample of each frame with its meaning, in board order.
  #renderKey() {
    if (!this.keyEl) return;
    const kinds = Object.keys(HIGHLIGHTS).filter((k) => (k === 'cursor' ? this.cursorShown : this.shown?.has(k)));
    const signature = kinds.join();
    if (signature === this.keySignature) return;
    this.keySignature = signature;
    this.keyEl.replaceChildren();
    if (!kinds.length) return;
    const list = document.createElement('ul');
    for (const kind of kinds) {
      const li = document.createElement('li');
      li.dataset.highlight = kind;
      const sample = el('svg', { class: 'hl-sample', viewBox: '0 0 20 20', width: 20, height: 20, 'aria-hidden': 'true' }, li);
      if (kind === 'target') {
        el('rect', { class: 'hl-sample-cell', x: 1, y: 1, width: 18, height: 18, rx: 3 }, sample);
        el('circle', { class: 'hl-sample-dot', cx: 10, cy: 10, r: 3.5 }, sample);
      } else {
        el('rect', { class: 'hl-sample-cell', x: 1, y: 1, width: 18, height: 18, rx: 3 }, sample);
        el('rect', { class: `hl-ring ${HIGHLIGHTS[kind].ring}`, x: 3, y: 3, width: 14, height: 14, rx: 2.5, 'stroke-width': 2.5 }, sample);
      }
      const words = document.createElement('span');
      words.textContent = HIGHLIGHTS[kind].words;
      li.appendChild(words);
      list.appendChild(li);
    }
    this.keyEl.appendChild(list);
  }

  /// A frame just inside a square (`depth` frames in from its edge) or just
  /// outside a round point (whose piece fills it).
  #ring(c, cls, layer, depth = 0) {
    const m = Math.min(c.w, c.h);
    const sw = Math.max(this.unit * 0.05, m * 0.05);
    if (c.shape === 'circle') {
      const [cx, cy] = cellCentre(c);
      return el('circle', { class: cls, cx, cy, r: c.w / 2 + sw * (0.7 + 1.25 * depth), 'stroke-width': sw }, layer);
    }
    const inset = m * 0.04 + sw * (0.5 + 1.25 * depth);
    return el('rect', {
      class: cls, x: c.x + inset, y: c.y + inset, width: Math.max(0, c.w - 2 * inset), height: Math.max(0, c.h - 2 * inset),
      rx: Math.max(0, m * 0.1 - inset * 0.5), 'stroke-width': sw,
    }, layer);
  }

  #badge(c, badge) {
    const m = Math.min(c.w, c.h);
    const size = Math.max(m * 0.24, this.unit * 0.22);
    const text = badge.text;
    const w = size * (0.62 * text.length + 0.7);
    const h = size * 1.1;
    // Inside the cell, so a badge never seems to belong to a neighbour: bottom right
    // of a square, bottom middle of a circle.
    const x = c.shape === 'circle' ? c.x + (c.w - w) / 2 : c.x + c.w - w - m * 0.05;
    const y = c.shape === 'circle' ? c.y + c.h - h * 1.05 : c.y + c.h - h - m * 0.05;
    const g = el('g', { class: `badge badge-${badge.kind}`, 'data-badge-cell': c.id }, this.badgeLayer);
    if (badge.title) el('title', {}, g).textContent = badge.title;
    el('rect', { x, y, width: w, height: h, rx: h / 2 }, g);
    const t = el('text', { x: x + w / 2, y: y + h / 2, 'font-size': size * 0.8, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = text;
  }

  /// Every graded move drawn from its piece to its target, never hiding one:
  /// `moves` are {cells, kind: win|draw|loss|none, shade: 0..1, text, title, key,
  /// best}. A move of two or more cells is an arrow through its cells; a one-cell
  /// move a ring on that cell with its grade. The best move (`best`) is drawn
  /// last, strongest and with the largest label.
  ///
  /// Labels are placed after every arrow is drawn, each at the free spot along its
  /// own arrow (or around its ring) that covers no other label and as little of
  /// any piece as possible, best move first so it gets its preferred place.
  setMoveValues(moves = [], focus = null) {
    this.valueLayer.replaceChildren();
    const u = this.unit;
    const rings = new Map();
    // Weakest first, so a stronger move's arrow is drawn over a weaker one's.
    moves = [...moves].sort((a, b) => (a.best === b.best ? (a.shade ?? 1) - (b.shade ?? 1) : a.best ? 1 : -1));
    // Many two-cell moves of one piece along one line (Northcott's row) would draw
    // arrows on top of each other: they become one faint track with a dot in each
    // move's colour on its target.
    const byStart = new Map();
    for (const mv of moves) {
      if (mv.cells.length !== 2) continue;
      byStart.set(mv.cells[0], [...(byStart.get(mv.cells[0]) || []), mv]);
    }
    const tracks = new Set();
    for (const [start, list] of byStart) {
      if (list.length < 3) continue;
      const a = this.cells.get(start)?.data;
      if (!a) continue;
      const [ax, ay] = cellCentre(a);
      const dirs = list.map((mv) => {
        const b = this.cells.get(mv.cells[1])?.data;
        if (!b) return null;
        const [bx, by] = cellCentre(b);
        const len = Math.hypot(bx - ax, by - ay) || 1;
        return [(bx - ax) / len, (by - ay) / len];
      });
      const sides = new Set(dirs.map((d) => (d ? `${Math.round(d[0] * 20)},${Math.round(d[1] * 20)}` : 'x')));
      if (sides.size <= 2 && !sides.has('x')) tracks.add(start);
    }
    for (const start of tracks) {
      const a = this.cells.get(start).data;
      const [ax, ay] = cellCentre(a);
      for (const mv of byStart.get(start)) {
        const b = this.cells.get(mv.cells[1]).data;
        el('line', { class: 'value-track', x1: ax, y1: ay, x2: cellCentre(b)[0], y2: cellCentre(b)[1], 'stroke-width': u * 0.04 }, this.valueLayer);
      }
    }
    const labels = [];
    for (const mv of moves) {
      const pts = mv.cells.map((id) => this.cells.get(id)?.data).filter(Boolean).map(cellCentre);
      if (!pts.length) continue;
      const dim = focus !== null && focus !== mv.key;
      const g = el('g', {
        class: `move-value value-${mv.kind}${dim ? ' dim' : ''}${focus === mv.key ? ' focus' : ''}${mv.best ? ' best' : ''}`,
        'data-move': mv.key, style: `--shade:${mv.shade ?? 1}`,
      }, this.valueLayer);
      if (mv.title) el('title', {}, g).textContent = mv.title;
      if (mv.cells.length === 2 && tracks.has(mv.cells[0])) {
        const c = this.cells.get(mv.cells[1]).data;
        const [cx, cy] = pts[1];
        el('circle', { class: 'value-dot-target', cx, cy, r: Math.min(c.w, c.h) * 0.24, 'stroke-width': u * 0.07 }, g);
        continue;
      }
      if (pts.length === 1 || pts.every(([x, y]) => x === pts[0][0] && y === pts[0][1])) {
        const id = mv.cells[0];
        const n = rings.get(id) || 0;
        rings.set(id, n + 1);
        const c = this.cells.get(id).data;
        const m = Math.min(c.w, c.h);
        const [cx, cy] = pts[0];
        el('circle', { class: 'value-ring', cx, cy, r: m * (c.shape === 'circle' ? 0.55 : 0.42) + n * u * 0.05, 'stroke-width': u * (mv.best ? 0.08 : 0.05) }, g);
        // Below the ring's middle first, then above, then beside it.
        const d = m * 0.28;
        const spots = [[cx, cy + d], [cx, cy - d], [cx, cy], [cx - d, cy], [cx + d, cy], [cx, cy + 1.6 * d], [cx, cy - 1.6 * d]];
        labels.push({ g, text: mv.text, best: mv.best, spots });
        continue;
      }
      // Stop short of the target's centre so the arrowhead points at it.
      const [x2, y2] = pts[pts.length - 1];
      const [x1, y1] = pts[pts.length - 2];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const back = Math.min(u * 0.22, len * 0.3);
      const end = [x2 - ((x2 - x1) / len) * back, y2 - ((y2 - y1) / len) * back];
      const d = [pts[0], ...pts.slice(1, -1), end].map(([x, y], i) => `${i ? 'L' : 'M'}${x},${y}`).join(' ');
      el('path', { d, class: 'value-arrow', 'stroke-width': u * (mv.best ? 0.1 : 0.075), 'marker-end': `url(#${this.uid}-head-${mv.kind})` }, g);
      // Along the arrow: its last leg first (two thirds of the way, then the
      // leg's other points), then the legs before it; failing those, beside the
      // arrow in the gap between rows of pieces, tied to it by a short line.
      const spots = [];
      const beside = [];
      for (let leg = pts.length - 1; leg >= 1; leg--) {
        const [ax, ay] = pts[leg - 1];
        const [bx, by] = pts[leg];
        const l = Math.hypot(bx - ax, by - ay) || 1;
        const [nx, ny] = [-(by - ay) / l, (bx - ax) / l];
        for (const t of [0.62, 0.5, 0.38, 0.75, 0.25, 0.85, 0.15]) {
          const [x, y] = [ax + (bx - ax) * t, ay + (by - ay) * t];
          spots.push([x, y]);
          for (const side of [1, -1]) beside.push([x + side * nx * u * 0.5, y + side * ny * u * 0.5, x, y]);
        }
      }
      labels.push({ g, text: mv.text, best: mv.best, spots: [...spots, ...beside] });
    }
    this.#placeLabels(labels);
  }

  /// Puts each label at the first of its spots that overlaps no label already
  /// placed and covers the least of the pieces; the best move's label first.
  #placeLabels(labels) {
    // Pieces, and the dots where a selected piece can go, are kept clear.
    const discs = [...this.pieces.map((p) => p.el.geom).filter(Boolean), ...(this.targetDots || [])];
    const box = this.box;
    const placed = [];
    const order = [...labels].sort((a, b) => (b.best ? 1 : 0) - (a.best ? 1 : 0));
    for (const label of order) {
      if (!label.text) continue;
      const size = this.unit * (label.best ? 0.28 : 0.24);
      const w = size * (0.6 * label.text.length + 0.8);
      const h = size * 1.15;
      let chosen = null;
      let anchor = null;
      let lowest = Infinity;
      label.spots.forEach(([x, y, ax], i) => {
        const r = { x: x - w / 2, y: y - h / 2, w, h };
        let cost = i * 0.02 + (ax === undefined ? 0 : 0.3);
        for (const o of placed) cost += 100 * (overlap(r, o) / (w * h));
        cost += 4 * coverage(r, discs);
        const out = Math.max(0, box.x - r.x) + Math.max(0, r.x + w - box.x - box.w) + Math.max(0, box.y - r.y) + Math.max(0, r.y + h - box.y - box.h);
        cost += (50 * out) / h;
        if (cost < lowest) {
          lowest = cost;
          chosen = r;
          anchor = ax === undefined ? null : label.spots[i];
        }
      });
      if (!chosen) continue;
      placed.push(chosen);
      if (anchor) {
        const [x, y, ax, ay] = anchor;
        el('line', { class: 'value-leader', x1: ax, y1: ay, x2: x, y2: y, 'stroke-width': this.unit * 0.035 }, label.g);
      }
      el('rect', { class: 'value-label-bg', x: chosen.x, y: chosen.y, width: w, height: h, rx: h / 2 }, label.g);
      const t = el('text', {
        class: 'value-label', x: chosen.x + w / 2, y: chosen.y + h / 2, 'font-size': size * 0.82, 'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, label.g);
      t.textContent = label.text;
    }
  }

  /// Shows the keyboard cursor on a cell (or hides it with null).
  setCursor(id) {
    const c = id === null || id === undefined ? null : this.cells.get(id)?.data;
    this.cursorShown = !!c;
    this.#renderKey();
    if (!c) {
      this.cursorEl.setAttribute('visibility', 'hidden');
      return;
    }
    const m = Math.min(c.w, c.h);
    const pad = m * 0.02;
    this.cursorEl.setAttribute('x', c.x - pad);
    this.cursorEl.setAttribute('y', c.y - pad);
    this.cursorEl.setAttribute('width', c.w + 2 * pad);
    this.cursorEl.setAttribute('height', c.h + 2 * pad);
    this.cursorEl.setAttribute('rx', c.shape === 'circle' ? c.w / 2 + pad : m * 0.12);
    this.cursorEl.setAttribute('stroke-width', Math.max(this.unit * 0.06, m * 0.06));
    this.cursorEl.setAttribute('visibility', 'visible');
  }

  /// The cell nearest to `from` in direction (dx, dy), for arrow-key navigation.
  neighbour(from, dx, dy) {
    const a = this.cells.get(from)?.data;
    if (!a) return null;
    const [ax, ay] = cellCentre(a);
    let best = null;
    let bestScore = Infinity;
    for (const [id, entry] of this.cells) {
      if (id === from) continue;
      const [bx, by] = cellCentre(entry.data);
      const vx = bx - ax;
      const vy = by - ay;
      const along = vx * dx + vy * dy;
      if (along <= 1e-6) continue;
      const across = Math.abs(vx * dy - vy * dx);
      // Prefer cells straight ahead; allow diagonal drift for star-shaped boards.
      if (across > along * 2.5) continue;
      const score = along + across * 2;
      if (score < bestScore) {
        bestScore = score;
        best = id;
      }
    }
    return best;
  }

  cellData(id) {
    return this.cells.get(id)?.data;
  }
}

/// A static picture of a view model (home page thumbnails).
export function thumbnail(container, view, seatColour) {
  const b = new Board(container, { interactive: false, seatColour });
  b.svg.classList.add('thumbnail');
  b.update(view);
  return b;
}
