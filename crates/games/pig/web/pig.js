// Pig's own browser module: a card with the roll/hold boundary of best play (the
// picture in Neller and Presser's "Optimal Play of Two-Player Pig") for the scores
// on the table, and each roll or hold the people playing made this game marked as
// above or below that boundary.
//
// Embedded in the game's crate, declared in its presentation and served at
// /games/pig/module.js; the page calls `panel(page)` and then the card's hooks.
// The boundary itself comes from the game's tool `hold-boundary` (the server's
// exact table), never computed here.

import { h, fill } from '/static/ui.js';
import { runTool } from '/static/api.js';
import { el } from '/static/render.js';

/// The page's extra card.
export function panel(page) {
  return new BoundaryCard(page);
}

/// Reads a position `S1-S2:T[+K][r]`.
function readPosition(text) {
  const m = /^(\d+)-(\d+):([12?])(?:\+(\d+))?r?$/.exec(text || '');
  if (!m) return null;
  return { scores: [Number(m[1]), Number(m[2])], side: m[3] === '?' ? null : Number(m[3]) - 1, turn: Number(m[4] || 0) };
}

/// The variant's goal, dice and first player, from its text (`goal=50,dice=2`).
function readVariant(text) {
  const v = { goal: 100, dice: 1, side: 0 };
  for (const item of (text || '').split(/[ ,]+/)) {
    const [k, val] = item.split('=');
    if (k === 'goal') v.goal = Number(val);
    if (k === 'dice') v.dice = Number(val);
    if (k === 'start') v.side = val === '2' ? 1 : val === 'random' ? null : 0;
  }
  return v;
}

/// Replays the move list from the start: every decision with the scores and turn
/// total it was made at, and the scores reached (to check the game began at the start).
function replay(log, variant) {
  const s = { scores: [0, 0], side: variant.side, turn: 0, over: false };
  const decisions = [];
  const pass = () => { s.turn = 0; s.side = 1 - s.side; };
  const gain = (points) => {
    s.turn += points;
    if (s.scores[s.side] + s.turn >= variant.goal) { s.scores[s.side] += s.turn; s.turn = 0; s.over = true; }
  };
  for (const entry of log || []) {
    const mv = entry.move || '';
    let m;
    if (mv === 'roll' || mv === 'hold') {
      if (s.side === null || s.over) return null;
      decisions.push({ ply: entry.ply, seat: s.side, mine: s.scores[s.side], theirs: s.scores[1 - s.side], turn: s.turn, move: mv });
      if (mv === 'hold') { s.scores[s.side] += s.turn; pass(); }
    } else if ((m = /^start ([12])$/.exec(mv))) {
      s.side = Number(m[1]) - 1;
    } else if ((m = /^die ([1-6])$/.exec(mv))) {
      const d = Number(m[1]);
      if (d === 1) pass(); else gain(d);
    } else if ((m = /^dice ([1-6])\+([1-6])$/.exec(mv))) {
      const [a, b] = [Number(m[1]), Number(m[2])];
      if (a === 1 && b === 1) { s.scores[s.side] = 0; pass(); } else if (a === 1 || b === 1) pass(); else gain(a + b);
    } else return null;
  }
  return { decisions, scores: s.scores };
}

class BoundaryCard {
  constructor(page) {
    this.page = page;
    this.tables = new Map();
    this.chart = h('div.pig-chart');
    this.words = h('p.small', { 'aria-live': 'polite' }, 'The line appears once the exact table is ready.');
    this.summary = h('p.muted.small');
    this.list = h('ol.pig-decisions', { 'aria-label': 'Your decisions this game' });
    this.panel = h('section.card.card-extra.pig-boundary', { 'data-testid': 'hold-boundary' },
      h('h2', 'When best play holds'),
      h('p.muted.small', 'Below the line best play rolls again; on or above it, it holds.'),
      this.chart, this.words, this.summary, this.list);
    this.token = 0;
  }

  onStart() { this.onView(this.page.mv); }

  /// The boundary of the variant shown: asked of the server once per variant.
  async table(variant) {
    if (this.tables.has(variant)) return this.tables.get(variant);
    const answer = await runTool(this.page.name, 'hold-boundary', variant);
    const t = answer?.data;
    if (!t?.hold_at) throw new Error('no boundary in the answer');
    this.tables.set(variant, t);
    return t;
  }

  async onView(mv) {
    if (!mv) return;
    const token = ++this.token;
    const variantText = mv.variant || '';
    let table;
    try {
      table = await this.table(variantText);
    } catch (e) {
      if (token === this.token) this.words.textContent = `The line is not available yet: ${e.message}`;
      return;
    }
    if (token !== this.token) return;
    this.render(mv, table, readVariant(variantText));
  }

  render(mv, table, variant) {
    const goal = table.goal;
    const at = (mine, theirs) => table.hold_at[mine]?.[theirs] ?? null;
    const pos = readPosition(mv.position);
    const humans = [0, 1].filter((s) => mv.seats?.[s]?.player === 'human');
    const played = replay(mv.log, variant);
    const fromStart = played && pos && played.scores[0] === pos.scores[0] && played.scores[1] === pos.scores[1];

    // The chart is drawn for the person to act, else the one person playing.
    const seat = pos && pos.side !== null && humans.includes(pos.side) ? pos.side : humans.length === 1 ? humans[0] : pos?.side ?? 0;
    const live = pos && !mv.outcome && pos.scores[0] < goal && pos.scores[1] < goal;
    if (!live) {
      fill(this.chart);
      this.words.textContent = 'The game is over.';
    } else {
      const mine = pos.scores[seat];
      const theirs = pos.scores[1 - seat];
      const turn = pos.side === seat ? pos.turn : 0;
      const thisTurn = (fromStart ? played.decisions : []).filter((d) => d.seat === seat && d.mine === mine && d.theirs === theirs && d.move === 'roll' && d.turn > 0);
      this.drawChart(goal, mine, theirs, turn, thisTurn, at);
      const k = at(mine, theirs);
      const who = humans.length === 1 && seat === humans[0] ? `You have ${mine} points, the other player ${theirs}` : `${mv.seats?.[seat]?.name || 'The player'} has ${mine} points, the other player ${theirs}`;
      const rule = k === null ? 'best play never holds: it rolls on for the goal' : `best play rolls until the turn reaches ${k} points, then holds`;
      const now = pos.side === seat && turn > 0 ? ` This turn has ${turn}: best play ${k !== null && turn >= k ? 'holds' : 'rolls'}.` : '';
      this.words.textContent = `${who}: ${rule}.${now}`;
    }

    // Each decision of the people playing, above or below the line at its scores.
    if (!humans.length) {
      this.summary.textContent = 'Decisions are marked for the people playing.';
      fill(this.list);
      return;
    }
    if (!fromStart) {
      this.summary.textContent = 'Decisions are marked for games played from the start.';
      fill(this.list);
      return;
    }
    const mine = played.decisions.filter((d) => humans.includes(d.seat) && !(d.move === 'roll' && d.turn === 0));
    const marked = mine.map((d) => {
      const k = at(d.mine, d.theirs);
      const above = k !== null && d.turn >= k;
      const agrees = (d.move === 'hold') === above;
      return { ...d, k, above, agrees };
    });
    const agree = marked.filter((d) => d.agrees).length;
    this.summary.textContent = marked.length
      ? `Your rolls and holds this game: ${agree} of ${marked.length} as best play${marked.length > 12 ? ' (the last 12 below)' : ''}.`
      : 'Your rolls and holds this game will be marked here (a turn\'s first roll is not a choice).';
    fill(this.list, ...marked.slice(-12).reverse().map((d) => {
      const verb = d.move === 'hold' ? 'Held' : 'Rolled';
      const side = d.above ? 'above' : 'below';
      const line = d.k === null ? 'best play rolls on for the goal' : `best play holds at ${d.k}`;
      const verdict = d.agrees ? 'as best play does' : d.move === 'hold' ? 'best play rolls on' : 'best play holds';
      const who = humans.length > 1 ? `${mv.seats[d.seat].name}: ` : '';
      return h(`li.pig-decision.${side}`, { 'data-side': side, 'data-agrees': String(d.agrees) },
        h('strong', `${side === 'above' ? '▲' : '▼'} ${who}${verb} at ${d.turn}`),
        ` (${d.mine} to ${d.theirs}; ${line}): ${side} the line, ${verdict}.`);
    }));
  }

  /// The boundary against the other's score for `mine`, the hold region shaded,
  /// this turn's rolls and the position now marked.
  drawChart(goal, mine, theirs, turn, thisTurn, at) {
    const W = 320, H = 190, L = 34, R = 8, T = 8, B = 30;
    const top = Math.max(1, goal - mine);
    const x = (j) => L + (j / Math.max(1, goal - 1)) * (W - L - R);
    const y = (k) => T + (1 - Math.min(k, top) / top) * (H - T - B);
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', class: 'pig-boundary-chart' });
    const k0 = at(mine, theirs);
    svg.setAttribute('aria-label', `The turn total at which best play holds with ${mine} points, against each score of the other player${k0 === null ? '' : `; at ${theirs} it is ${k0}`}.`);
    // The step line: for each score of the other player, the turn total to hold at.
    let path = '';
    let area = `M${x(0)},${y(top)}`;
    for (let j = 0; j < goal; j++) {
      const k = at(mine, j) ?? top;
      const x0 = x(Math.max(0, j - 0.5)), x1 = x(Math.min(goal - 1, j + 0.5));
      path += `${j ? 'L' : 'M'}${x0},${y(k)}L${x1},${y(k)}`;
      area += `L${x0},${y(k)}L${x1},${y(k)}`;
    }
    area += `L${x(goal - 1)},${y(top)}Z`;
    el('rect', { x: L, y: T, width: W - L - R, height: H - T - B, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.3 }, svg);
    el('path', { d: area, fill: '#e8a33d', 'fill-opacity': 0.25 }, svg);
    el('path', { d: path, fill: 'none', stroke: '#c2410c', 'stroke-width': 2, class: 'pig-line' }, svg);
    const text = (tx, ty, s, anchor = 'middle') => {
      const t = el('text', { x: tx, y: ty, 'text-anchor': anchor, 'font-size': 11, fill: 'currentColor' }, svg);
      t.textContent = s;
    };
    text(x(0), H - 16, '0');
    text(x(goal - 1), H - 16, String(goal - 1));
    text((L + W - R) / 2, H - 4, "the other player's score");
    text(L - 4, y(top) + 8, String(top), 'end');
    const ylabel = el('text', { x: 10, y: (T + H - B) / 2, 'text-anchor': 'middle', 'font-size': 11, fill: 'currentColor', transform: `rotate(-90 10 ${(T + H - B) / 2})` }, svg);
    ylabel.textContent = 'turn total';
    text(x(goal - 1) - 4, T + 14, 'hold', 'end');
    text(x(goal - 1) - 4, H - B - 6, 'roll', 'end');
    // The other's score now, and this turn's rolls on it.
    el('line', { x1: x(theirs), x2: x(theirs), y1: T, y2: H - B, stroke: 'currentColor', 'stroke-opacity': 0.35, 'stroke-dasharray': '3 3' }, svg);
    for (const d of thisTurn) {
      el('circle', { cx: x(d.theirs), cy: y(d.turn), r: 3, fill: 'none', stroke: '#1d4ed8', 'stroke-width': 1.5, class: 'pig-roll' }, svg);
    }
    el('circle', { cx: x(theirs), cy: y(turn), r: 5, fill: '#1d4ed8', class: 'pig-now' }, svg);
    fill(this.chart, svg);
  }
}
