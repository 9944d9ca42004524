// The move list and review: a clickable list of the game's moves, stepping back
// and forward through the game without undoing anything (the board and every card
// beside it show the position reviewed: the server's MatchView of it), "play from here", and
// (for games with exact values) the value history: a chart of the position's
// value over the game and marks on the moves that threw away a win or a draw.

import * as API from './api.js';
import { el } from './render.js';
import { h, fill, toast } from './ui.js';
import { remotenessOf } from './results.js';

const INVERT = { win: 'loss', loss: 'win', draw: 'draw' };
/// The value chart's least width per move, in pixels.
const PER_MOVE = 10;

export class Review {
  /// `page`: the GamePage (its id, mv, board, info, apply and adopt).
  constructor(page) {
    this.page = page;
    // The position under review, as the number of moves of the move list played
    // (null: the game as it is now). A move of the list may stand for more than
    // one ply (a game folds a roll into the move it decided), so the server is
    // asked for the ply of that move (`plyAt`).
    this.ply = null;
    this.mv = null; // the MatchView of the position under review
    this.values = null;
    this.bar = h('div.review-bar', { hidden: true, role: 'group', 'aria-label': 'Reviewing the game' },
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'First position', onclick: () => this.show(0) }, '|◀'),
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'One move back', onclick: () => this.show((this.wanted ?? this.ply ?? this.plies()) - 1) }, '◀'),
      (this.where = h('span.review-where')),
      h('span.review-keys', { 'aria-hidden': 'true' }, '← → keys step'),
      h('button.btn.btn-small', { type: 'button', 'aria-label': 'One move forward', onclick: () => this.show((this.wanted ?? this.ply ?? this.plies()) + 1) }, '▶'),
      h('button.btn.btn-small', { type: 'button', onclick: () => this.leave() }, 'Back to the game'),
      h('button.btn.btn-small', { type: 'button', onclick: () => this.playFromHere() }, 'Play from here'));
    this.chart = h('div.value-chart', { hidden: true });
    // The arrow keys step through the moves (off the board, where they move the
    // cursor, and outside form fields): Left back, Right forward, Home the start,
    // End or Esc back to the game.
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
  }

  key(e) {
    if (!this.page.alive) {
      document.removeEventListener('keydown', this.onKey);
      return;
    }
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const t = e.target;
    if (t?.closest?.('input, textarea, select, [contenteditable], .board, .chooser, .confirm-bar, [role=menu]')) return;
    const n = this.plies();
    if (!n || !this.page.id) return;
    const at = this.wanted ?? this.ply ?? n;
    let next = null;
    if (e.key === 'ArrowLeft') next = at - 1;
    else if (e.key === 'ArrowRight') next = at + 1;
    else if (e.key === 'Home') next = 0;
    else if ((e.key === 'End' || e.key === 'Escape') && this.active) next = n;
    if (next === null || next < 0 || (next > n && !this.active)) return;
    e.preventDefault();
    this.show(Math.min(next, n));
  }

  plies() {
    return (this.page.mv?.log || []).length;
  }

  /// The ply (of the game's record) after the first `k` moves of the move list.
  plyAt(k) {
    const log = this.page.mv?.log || [];
    return k <= 0 ? 0 : log[Math.min(k, log.length) - 1]?.ply ?? k;
  }

  /// Shows the position after ply `ply` (a value chart's point): the move of the
  /// list that ends there, or the last one before it.
  showPly(ply) {
    const log = this.page.mv?.log || [];
    this.show(ply <= 0 ? 0 : log.filter((e) => e.ply <= ply).length);
  }

  get active() {
    return this.ply !== null;
  }

  /// Shows the position after `ply` plies of the current game (the game itself is untouched).
  async show(ply) {
    const n = this.plies();
    if (ply < 0 || ply > n) return;
    // The ply asked for last: keys pressed faster than the server answers step
    // from it, and an answer overtaken by a later request is dropped.
    this.wanted = ply;
    if (ply === n) {
      this.leave();
      return;
    }
    let data;
    try {
      data = await API.review(this.page.id, this.plyAt(ply));
    } catch (e) {
      toast(e.message);
      return;
    }
    if (this.page.mv?.log?.length !== n) {
      this.wanted = this.ply;
      return;
    }
    if (this.wanted !== ply) return;
    this.ply = ply;
    this.mv = data.view;
    this.page.board.update(data.view.view, { animate: !this.page.reduced() });
    // The move that led here, framed as the game frames a last move.
    const [recent, mine] = this.page._lastMoveFrames(data.view);
    this.page.board.setHighlights({ recent, mine });
    this.page.board.setMoveValues([]);
    this.page.board.svg.classList.add('reviewing');
    this.bar.hidden = false;
    this.where.textContent = ply === 0 ? `Start of the game (of ${n} moves)` : `After move ${ply} of ${n}`;
    this.page.showPosition();
    this.page.renderLogMarks();
    this.drawChart();
    this.keepInView();
  }

  /// The board and the review bar in view: a move clicked in the list far down
  /// the page (or beside the board on a wide screen) must show its position where
  /// the player can see it. The move's own button stays in view in its list.
  keepInView() {
    const button = this.page.logButtons?.[this.ply - 1];
    button?.scrollIntoView?.({ block: 'nearest' });
    const top = this.bar.getBoundingClientRect().top;
    const bottom = this.page.board.svg.getBoundingClientRect().bottom;
    // The sticky top bar covers the top of the window.
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    const room = window.innerHeight;
    if (top >= bar && bottom <= room) return;
    // As much of the board as fits, starting from the review bar.
    const by = bottom - top > room - bar ? top - bar - 8 : top < bar ? top - bar - 8 : bottom - room + 8;
    window.scrollBy({ top: by, behavior: this.page.reduced() ? 'auto' : 'smooth' });
  }

  /// Back to the game as it is now; `redraw: false` when the caller shows the
  /// game's new state itself.
  leave({ redraw = true } = {}) {
    this.wanted = null;
    if (this.ply === null) return;
    this.ply = null;
    this.mv = null;
    this.bar.hidden = true;
    this.page.board.svg.classList.remove('reviewing');
    if (!redraw) return;
    this.page.board.update(this.page.mv.view, { animate: false });
    this.page.refreshHighlights();
    this.page.showPosition();
    this.page.renderLogMarks();
    this.drawChart();
  }

  async playFromHere() {
    if (this.ply === null) return;
    try {
      const data = await API.playFrom(this.page.id, this.plyAt(this.ply));
      this.ply = null;
      this.mv = null;
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
      // Each entry as {to_move: seat index, value: win|draw|loss, remoteness: plies},
      // from the typed shape (`seat` the seat's number, `value` a solved
      // PositionValue): whose value it is is never found by a seat's name.
      this.values = (data.values || []).map((p) => {
        const solved = p.value && typeof p.value === 'object' ? (p.value.kind === 'solved' ? p.value : null) : p;
        return {
          to_move: typeof p.seat === 'number' ? p.seat : null,
          value: solved?.value ?? null,
          remoteness: remotenessOf(solved?.remoteness)?.plies ?? null,
        };
      });
      this.drawChart();
      this.page.renderLogMarks();
    }, 300);
  }

  /// The value of ply i (1-based) for `seat`, who played it: the position it
  /// leads to, from the mover's side (the result, at the end of a game); null
  /// when unknown.
  moveValue(i, seat) {
    if (seat === null || seat === undefined) return null;
    const p = this.values?.[i];
    if (p?.value) return p.to_move === seat ? p.value : INVERT[p.value];
    const o = this.page.mv?.outcome;
    if (o && i === this.plyAt(this.plies()) && p) return o.kind === 'draw' ? 'draw' : o.kind === 'win' ? (o.seat === seat ? 'win' : 'loss') : null;
    return null;
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
  /// nearer the middle the further the end is (remoteness). The move axis has
  /// ticks numbered by move; a click (or Enter on a point) shows that position,
  /// and the position under review is marked.
  drawChart() {
    const v = this.values || [];
    const seats = this.page.info.seats;
    if (v.length < 2 || seats.length !== 2) {
      this.chart.hidden = true;
      return;
    }
    const maxR = Math.max(1, ...v.map((p) => p.remoteness ?? 0));
    // The end of a finished game has no value to look up: it is the result.
    const outcome = this.page.mv?.outcome;
    const end = outcome && v.length - 1 === this.plyAt(this.plies()) ? outcome : null;
    const pts = v.map((p, i) => {
      if (!p.value && end && i === v.length - 1 && (end.kind === 'draw' || end.kind === 'win')) {
        return [i, end.kind === 'draw' ? 0 : end.seat === 0 ? 1 : -1];
      }
      if (!p.value) return null;
      const mine = p.to_move === 0 ? p.value : INVERT[p.value];
      const sign = mine === 'win' ? 1 : mine === 'loss' ? -1 : 0;
      return [i, sign * (1 - 0.6 * ((p.remoteness ?? 0) / maxR))];
    });
    // Room on the left for the longest label ("Player 1 wins") at the ticks' size,
    // on the right for the remoteness axis.
    const labels = [`${seats[0]} wins`, 'draw', `${seats[1]} wins`];
    const m = { l: Math.min(120, 14 + 5.8 * Math.max(...labels.map((t) => t.length))), r: 44, t: 8, b: 34 };
    const last = Math.max(1, v.length - 1);
    // Drawn at its size in pixels, as wide as the space it has and wider for a long
    // game (at least PER_MOVE px a move, so a 300-move game stays readable), the
    // part beyond the space scrolled to, the position shown kept in view.
    const room = Math.floor(this.chart.clientWidth || this.chart.parentElement?.clientWidth || 320);
    const W = Math.max(320, room, Math.ceil(m.l + m.r + PER_MOVE * last));
    const H = 170;
    const X = (x) => m.l + (x / last) * (W - m.l - m.r);
    const Y = (y) => m.t + ((1 - y) / 2) * (H - m.t - m.b);
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'plot value-plot', role: 'group', 'aria-label': `Value of the position for ${seats[0]} over the game: choose a point to see that position` });
    el('rect', { x: m.l, y: m.t, width: W - m.l - m.r, height: H - m.t - m.b, class: 'plot-area' }, svg);
    for (const [y, text] of [[1, labels[0]], [0, labels[1]], [-1, labels[2]]]) {
      el('line', { x1: m.l, x2: W - m.r, y1: Y(y), y2: Y(y), class: 'grid' }, svg);
      el('line', { x1: m.l - 4, x2: m.l, y1: Y(y), y2: Y(y), class: 'axis' }, svg);
      const t = el('text', { x: m.l - 7, y: Y(y), 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'tick' }, svg);
      t.textContent = text;
    }
    el('line', { x1: m.l, x2: m.l, y1: m.t, y2: H - m.b, class: 'axis' }, svg);
    // The remoteness axis, on the right: how many plies from the end a point's
    // value is (the further, the nearer the middle), the same both ways.
    el('line', { x1: W - m.r, x2: W - m.r, y1: m.t, y2: H - m.b, class: 'axis' }, svg);
    const rStep = niceStep(maxR / 2);
    for (let r = 0; r <= maxR; r += rStep) {
      for (const sign of [1, -1]) {
        const y = Y(sign * (1 - 0.6 * (r / maxR)));
        el('line', { x1: W - m.r, x2: W - m.r + 4, y1: y, y2: y, class: 'axis' }, svg);
        const t = el('text', { x: W - m.r + 7, y, 'dominant-baseline': 'central', class: 'tick tick-r' }, svg);
        t.textContent = String(r);
      }
    }
    const rl = el('text', { x: W - 6, y: (m.t + H - m.b) / 2, 'text-anchor': 'middle', class: 'axis-label', transform: `rotate(90 ${W - 6} ${(m.t + H - m.b) / 2})` }, svg);
    rl.textContent = 'plies to the end';
    el('line', { x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b, class: 'axis' }, svg);
    // Ticks at whole moves, about one per 60 px, 0 (the start) and the last included.
    const step = niceStep(last / Math.max(4, (W - m.l - m.r) / 60));
    const ticks = [];
    for (let x = 0; x < last; x += step) ticks.push(x);
    if (last - (ticks.at(-1) ?? 0) < step * 0.5 && ticks.length > 1) ticks.pop();
    ticks.push(last);
    for (const x of ticks) {
      el('line', { x1: X(x), x2: X(x), y1: H - m.b, y2: H - m.b + 4, class: 'axis' }, svg);
      const t = el('text', { x: X(x), y: H - m.b + 14, 'text-anchor': 'middle', class: 'tick tick-x' }, svg);
      t.textContent = String(x);
    }
    const xl = el('text', { x: (m.l + W - m.r) / 2, y: H - 3, 'text-anchor': 'middle', class: 'axis-label' }, svg);
    xl.textContent = 'after move (0: the start)';
    const shown = this.ply === null ? v.length - 1 : this.plyAt(this.ply);
    el('line', { x1: X(shown), x2: X(shown), y1: m.t, y2: H - m.b, class: 'value-now' }, svg);
    let d = '';
    pts.forEach((p, i) => {
      if (!p) return;
      d += `${d && pts[i - 1] ? 'L' : 'M'}${X(p[0])},${Y(p[1])} `;
    });
    el('path', { d, class: 'value-line' }, svg);
    pts.forEach((p, i) => {
      if (!p) return;
      const cls = p[1] > 0 ? 'win' : p[1] < 0 ? 'loss' : 'draw';
      el('circle', { cx: X(p[0]), cy: Y(p[1]), r: i === shown ? 4.5 : 3, class: `value-dot dot-${cls}${this.mistake(i) ? ' dot-mistake' : ''}${i === shown ? ' dot-now' : ''}` }, svg);
    });
    // A column per position, as wide as the gap between moves: a click anywhere
    // above a move shows it (a dot alone is too small a target on a phone).
    const colW = (W - m.l - m.r) / last;
    v.forEach((p, i) => {
      const hit = el('rect', {
        x: X(i) - colW / 2, y: m.t, width: colW, height: H - m.t - m.b + 18, class: 'value-hit',
        tabindex: i === shown ? 0 : -1, role: 'button', 'data-ply': i,
        'aria-label': i === 0 ? 'Show the start' : `Show the position after move ${i}`,
      }, svg);
      el('title', {}, hit).textContent = `${i === 0 ? 'the start' : `after move ${i}`}${this.mistake(i) ? `: ${this.mistake(i)}` : ''}`;
      hit.addEventListener('click', () => this.showPly(i));
      hit.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          this.showPly(i);
        }
      });
    });
    const scroller = h('div.value-scroll', svg);
    fill(this.chart, h('p.small.strong', 'Value history'), scroller);
    this.chart.hidden = false;
    if (W > room) scroller.scrollLeft = Math.max(0, X(shown) - room / 2);
  }
}

/// A round step (1, 2, 5, 10, 20, …) at least `x`.
function niceStep(x) {
  if (x <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= x);
}
