// The move list and review: a clickable list of the game's moves, stepping back
// and forward through the game without undoing anything, "play from here", and
// (for games with exact values) the value history: a chart of the position's
// value over the game and marks on the moves that threw away a win or a draw.

import * as API from './api.js';
import { el } from './render.js';
import { h, fill, toast } from './ui.js';
import { remotenessOf } from './results.js';

const INVERT = { win: 'loss', loss: 'win', draw: 'draw' };

export class Review {
  /// `page`: the GamePage (its id, mv, board, info, apply and adopt).
  constructor(page) {
    this.page = page;
    this.ply = null; // null: showing the game as it is now
    this.values = null;
    this.bar = h('div.review-bar', { hidden: true, role: 'group', 'aria-label': 'Reviewing the game' },
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'First position', onclick: () => this.show(0) }, '⏮'),
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'One move back', onclick: () => this.show((this.ply ?? this.plies()) - 1) }, '◀'),
      (this.where = h('span.review-where')),
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'One move forward', onclick: () => this.show((this.ply ?? this.plies()) + 1) }, '▶'),
      h('button.btn.btn-small', { type: 'button', onclick: () => this.leave() }, 'Back to the game'),
      h('button.btn.btn-small', { type: 'button', onclick: () => this.playFromHere() }, 'Play from here'));
    this.chart = h('div.value-chart', { hidden: true });
  }

  plies() {
    return (this.page.mv?.log || []).length;
  }

  get active() {
    return this.ply !== null;
  }

  /// Shows the position after `ply` plies of the current game (the game itself is untouched).
  async show(ply) {
    const n = this.plies();
    if (ply < 0 || ply > n) return;
    if (ply === n) {
      this.leave();
      return;
    }
    let data;
    try {
      data = await API.review(this.page.id, ply);
    } catch (e) {
      toast(e.message);
      return;
    }
    this.ply = ply;
    this.page.board.update(data.view.view, { animate: !this.page.reduced() });
    this.page.board.setHighlights({});
    this.page.board.setMoveValues([]);
    this.page.board.svg.classList.add('reviewing');
    this.bar.hidden = false;
    this.where.textContent = ply === 0 ? `Start of the game (of ${n} moves)` : `After move ${ply} of ${n}`;
    this.page.renderLogMarks();
  }

  leave() {
    if (this.ply === null) return;
    this.ply = null;
    this.bar.hidden = true;
    this.page.board.svg.classList.remove('reviewing');
    this.page.board.update(this.page.mv.view, { animate: false });
    this.page.refreshHighlights();
    this.page.renderLogMarks();
  }

  async playFromHere() {
    if (this.ply === null) return;
    try {
      const data = await API.playFrom(this.page.id, this.ply);
      this.ply = null;
      this.bar.hidden = true;
      this.page.board.svg.classList.remove('reviewing');
      this.page.adoptAndShow(data);
      toast('A new game continues from that position.', 'success', 2500);
    } catch (e) {
      toast(e.message);
    }
  }

  /// The value history of the current game (games with exact values only).
  async refreshValues() {
    if (!this.page.info.exact) return;
    const mv = this.page.mv;
    clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      let data;
      try {
        data = await API.history(this.page.id);
      } catch {
        return;
      }
      if (this.page.mv !== mv) return;
      // Each entry as {to_move: seat index, value: win|draw|loss, remoteness: plies}:
      // the typed shape (`to_move` a seat's name, `value` a solved PositionValue)
      // or the older one.
      const seats = this.page.info.seats;
      this.values = (data.values || []).map((p) => {
        const solved = p.value && typeof p.value === 'object' ? (p.value.kind === 'solved' ? p.value : null) : p;
        return {
          to_move: typeof p.to_move === 'number' ? p.to_move : seats.indexOf(p.to_move),
          value: solved?.value ?? null,
          remoteness: remotenessOf(solved?.remoteness)?.plies ?? null,
        };
      });
      this.drawChart();
      this.page.renderLogMarks();
    }, 300);
  }

  /// The mover's value before and after ply i (1-based): a thrown-away win or draw.
  mistake(i) {
    const v = this.values;
    if (!v || !v[i - 1] || !v[i] || !v[i - 1].value || !v[i].value) return null;
    const before = v[i - 1].value;
    const after = v[i].to_move === v[i - 1].to_move ? v[i].value : INVERT[v[i].value];
    if (before === 'win' && after !== 'win') return after === 'draw' ? 'threw away a win (now a draw)' : 'threw away a win';
    if (before === 'draw' && after === 'loss') return 'threw away a draw';
    return null;
  }

  /// Value for the first seat at each position: +1 win, 0 draw, -1 loss, drawn
  /// nearer the middle the further the end is (remoteness).
  drawChart() {
    const v = this.values || [];
    const seats = this.page.info.seats;
    if (v.length < 2 || seats.length !== 2) {
      this.chart.hidden = true;
      return;
    }
    const maxR = Math.max(1, ...v.map((p) => p.remoteness ?? 0));
    const pts = v.map((p, i) => {
      if (!p.value) return null;
      const mine = p.to_move === 0 ? p.value : INVERT[p.value];
      const sign = mine === 'win' ? 1 : mine === 'loss' ? -1 : 0;
      return [i, sign * (1 - 0.6 * ((p.remoteness ?? 0) / maxR))];
    });
    const W = 320;
    const H = 130;
    const m = { l: 58, r: 8, t: 8, b: 20 };
    const X = (x) => m.l + (x / Math.max(1, v.length - 1)) * (W - m.l - m.r);
    const Y = (y) => m.t + ((1 - y) / 2) * (H - m.t - m.b);
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'plot value-plot', role: 'img', 'aria-label': `Value of the position for ${seats[0]} over the game` });
    for (const [y, text] of [[1, `${seats[0]} wins`], [0, 'draw'], [-1, `${seats[1]} wins`]]) {
      el('line', { x1: m.l, x2: W - m.r, y1: Y(y), y2: Y(y), class: 'grid' }, svg);
      const t = el('text', { x: m.l - 5, y: Y(y), 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'tick' }, svg);
      t.textContent = text;
    }
    let d = '';
    pts.forEach((p, i) => {
      if (!p) return;
      d += `${d && pts[i - 1] ? 'L' : 'M'}${X(p[0])},${Y(p[1])} `;
    });
    el('path', { d, class: 'value-line' }, svg);
    pts.forEach((p, i) => {
      if (!p) return;
      const cls = p[1] > 0 ? 'win' : p[1] < 0 ? 'loss' : 'draw';
      const c = el('circle', { cx: X(p[0]), cy: Y(p[1]), r: 3, class: `value-dot dot-${cls}${this.mistake(i) ? ' dot-mistake' : ''}` }, svg);
      el('title', {}, c).textContent = i === 0 ? 'start' : `after move ${i}`;
    });
    const xl = el('text', { x: (m.l + W - m.r) / 2, y: H - 4, 'text-anchor': 'middle', class: 'tick' }, svg);
    xl.textContent = 'moves';
    fill(this.chart, h('p.small.strong', 'Value history'), svg);
    this.chart.hidden = false;
  }
}
