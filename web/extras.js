// The extra cards of the game page, switched on by the game's declaration (its
// presentation's `panels`, from the game list API): watching a learning machine
// learn, the die and a win-rate table, a puzzle's score card (time, best scores,
// the solver's line replayed), a puzzle's solution drawn on the board, and the
// game's own facts about the position. Nothing here knows a game by name.
//
// Every card shows the position the page shows: `onView(mv, previous, {review})`
// gets the MatchView of that position (the game's latest, or the one under
// review, `review` its ply), and its facts come from that view (`view.panels`,
// the game's declaration for that position) or from the server for that ply.

import * as API from './api.js';
import { PALETTE, el, thumbnail } from './render.js';
import { h, toast, guarded, sleep, formatNumber, fill } from './ui.js';
import { linePlot } from './plot.js';
import { colourName, playerWords, count, saidWords } from './words.js';
import { HUMAN, PERSON } from './players.js';
import { resultFacts, solutionGrid, bestOf, groupPoints, lineOf, factValue } from './results.js';

/// The facts a view declares for the card of `kind` (its `panels`), if any.
const panelFacts = (mv, kind) => (mv?.view?.panels || []).find((p) => p.kind === kind) || null;

const PANELS = {
  learn: (page, p) => new LearnPanel(page, p),
  dice: (page, p) => new DicePanel(page, p),
  score: (page, p) => new ScorePanel(page, p),
  solution: (page, p) => new SolutionPanel(page, p),
  facts: (page, p) => new FactsPanel(page, p),
};

/// The page's extra cards, from the game's declared panels; null when it has none.
export function extrasFor(page) {
  const list = (page.info.presentation?.panels || []).map((p) => {
    const made = PANELS[p.kind]?.(page, p);
    // Each card says which declared panel it is (the browser tests find it so).
    if (made?.panel) made.panel.dataset.panel = p.kind;
    return made;
  }).filter(Boolean);
  for (const tool of page.info.presentation?.tools || []) list.push(new ToolPanel(page, tool));
  // A game's own browser module may add a card of its own, with the same hooks.
  const own = page.own?.panel?.(page);
  if (own) list.push(own);
  return list.length ? new Extras(list) : null;
}

/// Several declared panels seen by the page as one: each hook goes to every panel.
class Extras {
  constructor(list) {
    this.list = list;
    this.panel = list.map((p) => p.panel);
    this.rendersExtra = list.some((p) => p.rendersExtra);
  }

  onStart() { for (const p of this.list) p.onStart?.(); }
  onView(mv, previous, options = {}) { for (const p of this.list) p.onView?.(mv, previous, options); }
  onHint(data) { for (const p of this.list) p.onHint?.(data); }
  onGroup(cells) { for (const p of this.list) p.onGroup?.(cells); }
  onCell(id, e) { return this.list.some((p) => p.onCell?.(id, e)); }
  onHover(id) { return this.list.some((p) => p.onHover?.(id)); }
  overlayCounts() { for (const p of this.list) { const c = p.overlayCounts?.(); if (c) return c; } return null; }
  destroy() { for (const p of this.list) p.destroy?.(); }
  get replaying() { return this.list.some((p) => p.replaying); }
  statusText() { return this.list.map((p) => p.statusText?.()).find(Boolean) || null; }
  async interrupt() { await Promise.all(this.list.filter((p) => p.replaying).map((p) => p.interrupt())); }
}

const card = (title, ...body) => h('section.card.card-extra', h('h2', title), ...body);

function progressBar() {
  const bar = h('div.progress', { role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, hidden: true }, h('div.progress-fill'));
  bar.set = (fraction) => {
    bar.hidden = false;
    const pct = Math.round(Math.max(0, Math.min(1, fraction || 0)) * 100);
    bar.firstChild.style.width = `${pct}%`;
    bar.setAttribute('aria-valuenow', pct);
  };
  bar.done = () => (bar.hidden = true);
  return bar;
}

// ---------------------------------------------------------------------------
// A tool the game offers (a calculator): text in, the server's answer in words.

class ToolPanel {
  constructor(page, tool) {
    this.page = page;
    this.tool = tool;
    const label = `${tool.title}: what to work out`;
    this.input = h('input.text.tool-input', { type: 'text', maxlength: 4096, placeholder: tool.example, 'aria-label': label, spellcheck: 'false', autocomplete: 'off' });
    this.answer = h('div.tool-answer', { 'aria-live': 'polite' });
    // An answer stands beside the input it answers: once the input is changed
    // (or emptied) the old answer goes, until the next "Work it out".
    this.input.addEventListener('input', () => {
      if (this.input.value.trim() !== this.answered) fill(this.answer);
    });
    const form = h('form.tool-form', {
      onsubmit: (e) => {
        e.preventDefault();
        this.run();
      },
    }, this.input, h('button.btn', { type: 'submit' }, 'Work it out'));
    this.panel = card(tool.title, h('p.small', tool.about), form, this.answer);
  }

  async run() {
    const input = this.input.value.trim() || this.tool.example;
    if (!this.input.value.trim()) this.input.value = input;
    try {
      const r = await API.runTool(this.page.name, this.tool.name, input);
      this.answered = input;
      fill(this.answer, ...(r.lines || []).map((line, i) => h(i === 0 ? 'p.tool-result' : 'p.small', line)));
    } catch (e) {
      this.answered = input;
      fill(this.answer, h('p.small.tool-error', e.message));
    }
  }
}

// ---------------------------------------------------------------------------
// Watch it learn: the matchbox for the current position and a learning curve.

class LearnPanel {
  constructor(page, defaults) {
    this.page = page;
    this.defaults = defaults;
    this.boxEl = h('div.matchbox-area');
    this.plotEl = h('div.plot-area');
    this.bar = progressBar();
    this.summary = h('p.muted.small');
    const opponent = h('select', { 'aria-label': 'Training opponent' },
      ...[['random', 'a random player'], ['perfect', 'a perfect player'], ['exploit', 'a player who hunts for its weak spots'], ['self', 'itself']]
        .map(([v, t]) => h('option', { value: v }, t)));
    const games = h('select', { 'aria-label': 'Training games' },
      ...[50, 200, 1000, 5000].map((n) => h('option', { value: n, selected: n === defaults.games }, `${n} games`)));
    this.trainBtn = h('button.btn', { type: 'button', onclick: () => this.train(Number(games.value), opponent.value) }, 'Train');
    // The machine always sits in the seat it is trained for (the computer's seat
    // when one person plays, so the person keeps their side; else the declared
    // seat), so the boxes shown, the ones trained and the ones you play are the
    // same machine's.
    const seatName = page.info.seats[defaults.seat];
    this.useBtn = h('button.btn.btn-small', { type: 'button', onclick: () => this.playMachine() },
      `Play against the ${defaults.machine} machine (it plays ${seatName})`);
    this.playTrained = h('span', { hidden: true });
    this.whoEl = h('p.small.strong', { hidden: true });
    this.aboutEl = h('p.small', defaults.about);
    this.panel = card('Watch it learn',
      this.aboutEl,
      this.whoEl,
      this.useBtn,
      this.boxEl,
      h('h3', 'Learning curve'),
      h('div.train-form', h('span', 'Against'), opponent, games, this.trainBtn),
      this.bar,
      this.plotEl,
      this.summary,
      this.playTrained);
  }

  /// The learning machine trained and played: the one the person plays now, in its
  /// seat, when it is a learner (Gardner's machine, Tic-tac-toe's usual opponent,
  /// stays; it is never silently swapped for MENACE), else the game's declared
  /// machine in the seat it is declared for. Either way it is trained for the seat
  /// it then plays, so the boxes shown, trained and played are the same machine's.
  machine() {
    const mv = this.page.mv;
    const seat = mv ? this.learnerSeat(mv) : -1;
    if (seat >= 0) return { player: mv.seats[seat].player, kind: mv.seats[seat].kind, seat };
    // The declared machine takes the computer's seat, so the person keeps their side.
    const computer = (mv?.seats || []).map((s, i) => (s.human ? -1 : i)).filter((i) => i >= 0);
    const people = (mv?.seats || []).filter((s) => s.human).length;
    return { player: this.defaults.player, kind: this.defaults.player, seat: people === 1 && computer.length === 1 ? computer[0] : this.defaults.seat };
  }

  playMachine(machine = this.machine()) {
    const players = this.page.info.seats.map((_, i) => (i === machine.seat ? machine.player : PERSON));
    this.page.settings.human_seat = machine.seat === 0 ? 1 : 0;
    return this.page.restartWith(players);
  }

  /// The seat a learning player plays (the game list says which kinds learn; the
  /// seat says its player's `kind`).
  learnerSeat(mv) {
    const learners = new Set((this.page.info.players || []).filter((p) => p.learns).map((p) => p.name));
    return mv.seats.findIndex((s) => learners.has(s.kind));
  }

  async onView(mv) {
    this.shown = mv;
    const seat = this.learnerSeat(mv);
    this.useBtn.hidden = seat >= 0;
    this.useBtn.textContent = `Play against the ${this.defaults.machine} machine (it plays ${this.page.info.seats[this.machine().seat]})`;
    // The card's words are about the declared machine: say so when another learner
    // (Gardner's machine on Tic-tac-toe) is the one shown, trained and played.
    const kind = seat >= 0 ? mv.seats[seat].kind : null;
    this.whoEl.textContent = kind && kind !== this.defaults.player
      ? `You are playing ${playerWords(kind, this.page.info)} (${mv.seats[seat].name}): its boxes are shown below, and Train trains it.`
      : '';
    this.whoEl.hidden = !this.whoEl.textContent;
    // The card explains the machine it shows: another learner's own help.
    const help = kind && kind !== this.defaults.player ? (this.page.info.players || []).find((p) => p.name === kind)?.help : null;
    this.aboutEl.textContent = help || this.defaults.about;
    if (seat < 0) {
      fill(this.boxEl, h('p.muted.small', 'The computer is not a learning machine now. Choose it above to see its matchboxes fill and empty as you play.'));
      return;
    }
    let data;
    try {
      data = await API.learned(this.page.id, seat);
    } catch (e) {
      fill(this.boxEl, h('p.muted.small', `The matchboxes cannot be shown: ${e.message}`));
      return;
    }
    if (this.shown !== mv) return;
    this.renderBoxes(data, mv, seat);
  }

  renderBoxes(data, mv, seat) {
    const learned = data?.learned ?? data;
    const boxes = learned?.boxes || [];
    const games = learned?.games ?? 0;
    // The box of the position shown (under review, an earlier one).
    const current = boxes.find((b) => b.position === mv.position);
    const parts = [h('p.small', `${mv.seats[seat].name} has ${count(boxes.length, 'matchbox', 'matchboxes')} after ${count(games, 'game')}.`)];
    const lid = (box) => this.lid(box, mv);
    if (current) {
      parts.push(h('p.small.strong', 'The box for this position:'), matchbox(current, false, lid));
    }
    const recent = [...boxes].reverse().filter((b) => b !== current);
    if (recent.length) {
      parts.push(h('p.small.strong', current ? 'Other boxes, latest first:' : 'Its boxes, latest first (one bead colour per move):'));
      parts.push(h('div.box-grid', ...recent.slice(0, 4).map((b) => matchbox(b, true, lid))));
      if (recent.length > 4) {
        const more = h('div.box-grid');
        const details = h('details.all-boxes', h('summary', `${recent.length - 4} more`), more);
        // Drawn when opened: each lid is a small board from the server.
        details.addEventListener('toggle', () => {
          if (details.open && !more.childElementCount) more.append(...recent.slice(4, 40).map((b) => matchbox(b, true, lid)));
        }, { once: false });
        parts.push(details);
      }
    } else if (!current) {
      parts.push(h('p.muted.small', 'No boxes yet: the machine opens one the first time it must move in a position.'));
    }
    this.boxEl.replaceChildren(...parts);
  }

  /// The lid of a box: the position it is for, drawn as a small board.
  lid(box, mv) {
    const holder = h('div.lid-board', { role: 'img', 'aria-label': `the position ${box.position}` });
    this.views ||= new Map();
    const key = `${mv.variant}|${box.position}`;
    const draw = (view) => {
      const colours = this.page.settings.colours;
      thumbnail(holder, view, (seat) => colours[seat] || '#888');
    };
    if (this.views.has(key)) draw(this.views.get(key));
    else {
      API.positionView(this.page.name, mv.variant, box.position).then((d) => {
        this.views.set(key, d.view);
        draw(d.view);
      }, () => holder.append(h('span.small.muted', box.position)));
    }
    return holder;
  }

  async train(games, opponent) {
    this.trainBtn.disabled = true;
    const machine = this.machine();
    const words = playerWords(machine.kind, this.page.info);
    const computer = (this.page.mv?.seats || []).find((s) => !s.human);
    const before = computer && computer.player !== machine.player ? playerWords(computer.kind, this.page.info) : null;
    // One job; its progress events carry the curve so far (server-sent events, a
    // few a second), drawn as it grows. `watch` asks the server to spread a fast
    // run over a few seconds; `store` continues from the machine the server keeps
    // for this seat and keeps the result, so the machine you play next is this one.
    const body = {
      kind: 'train', game: this.page.name, variant: this.page.info.variant, player: machine.player,
      seat: machine.seat, opponent, store: true, watch: true, games,
      seed: Math.floor(Math.random() * 1e9), block: Math.max(1, Math.round(games / 20)),
    };
    // The curve: a list of blocks (progress events), or the typed result's
    // `{block, points}`.
    const toPoints = (curve) => (Array.isArray(curve) ? curve : curve?.points || []).map((b) => {
      const n = b.wins + b.losses + b.draws || 1;
      return { x: b.to, win: b.wins / n, loss: b.losses / n, draw: b.draws / n };
    });
    this.updates = 0;
    this.drawCurve([], games);
    this.summary.textContent = `Training ${words}…`;
    try {
      const result = await API.runJob(body, (p) => {
        this.bar.set(p.fraction ?? 0);
        if (!p.curve) return;
        this.updates += 1;
        const done = p.curve.at(-1)?.to ?? 0;
        this.drawCurve(toPoints(p.curve), games);
        this.summary.textContent = `Training: ${done} of ${games} games played…`;
      });
      this.drawCurve(toPoints(result.curve), games);
      this.summary.textContent = result.summary || (`${result.games ?? games} games: ${result.wins ?? 0} won, ${result.draws ?? 0} drawn, ${result.losses ?? 0} lost` +
        (result.matchboxes !== undefined ? ` · ${result.matchboxes} boxes, ${result.beads} beads` : '') +
        (result.last_loss ? ` · last loss in game ${result.last_loss}` : ''));
      // You now play the machine just trained: its boxes are the ones shown.
      await this.playMachine(machine);
      const played = result.games ?? result.curve?.points?.at(-1)?.to ?? games;
      const yours = this.page.info.seats.filter((_, i) => i !== machine.seat).join(' and ');
      toast(`Trained ${words} for ${played} games: you now play the trained machine${before ? `, no longer the computer “${before}”` : ''}, and you play ${yours}.`, 'success', 5000);
    } catch (e) {
      toast(`Training stopped: ${e.message}`);
    } finally {
      this.bar.done();
      this.trainBtn.disabled = false;
    }
  }

  drawCurve(points, xMax = null) {
    fill(this.plotEl, linePlot({
      series: [
        { name: 'won', colour: '#15803d', points: points.map((p) => [p.x, p.win]) },
        { name: 'drawn', colour: '#8c8c8c', points: points.map((p) => [p.x, p.draw]) },
        { name: 'lost', colour: '#c8102e', points: points.map((p) => [p.x, p.loss]) },
      ],
      xLabel: 'games played',
      yLabel: 'share of games',
      yMax: 1,
      percent: true,
      xMax,
    }));
  }
}

/// A matchbox drawn with its beads: one colour per move, as in Gardner's article.
function matchbox(box, small = false, lid = null) {
  const beads = box.beads || [];
  const total = beads.reduce((s, [, n]) => s + n, 0);
  const w = small ? 150 : 220;
  const bead = small ? 10 : 12;
  const perRow = Math.floor((w - 20) / (bead * 1.5));
  const rows = Math.max(1, Math.ceil(total / perRow));
  const height = 30 + rows * bead * 1.5 + 10;
  const svg = el('svg', { viewBox: `0 0 ${w} ${height}`, class: 'matchbox-svg', role: 'img', 'aria-label': `matchbox with ${total} beads` });
  el('rect', { x: 2, y: 14, width: w - 4, height: height - 16, rx: 8, class: 'matchbox-tray' }, svg);
  el('rect', { x: 2, y: 2, width: w - 4, height: 18, rx: 6, class: 'matchbox-lid' }, svg);
  if (!lid) {
    const text = el('text', { x: w / 2, y: 14, 'text-anchor': 'middle', class: 'matchbox-title' }, svg);
    text.textContent = box.position;
  }
  let k = 0;
  beads.forEach(([, n], mi) => {
    for (let j = 0; j < n; j++, k++) {
      const col = k % perRow;
      const row = Math.floor(k / perRow);
      el('circle', { cx: 14 + col * bead * 1.5 + bead / 2, cy: 30 + row * bead * 1.5 + bead / 2, r: bead / 2, fill: PALETTE[mi % PALETTE.length], class: 'bead' }, svg);
    }
  });
  const legend = h('ul.bead-legend', ...beads.map(([move, n], mi) => h('li' + (n === 0 ? '.empty' : ''),
    h('span.swatch.round', { style: `background:${PALETTE[mi % PALETTE.length]}` }),
    h('span', box.words?.[mi] || move), h('strong', String(n)))));
  return h('figure.matchbox' + (small ? '.small' : ''), lid ? lid(box) : null, svg, legend,
    total === 0 ? h('figcaption.small', 'Empty: the machine resigns here.') : null);
}

// ---------------------------------------------------------------------------
// Dice: the last roll drawn as a die, and a win-rate table from a quick simulation
// between the computer players the game names.

const PIPS = {
  1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

export function dieFace(n, size = 64) {
  const svg = el('svg', { viewBox: '0 0 60 60', width: size, height: size, class: 'die', role: 'img', 'aria-label': n ? `die showing ${n}` : 'die' });
  el('rect', { x: 3, y: 3, width: 54, height: 54, rx: 11, class: 'die-body' }, svg);
  for (const [c, r] of PIPS[n] || []) el('circle', { cx: 15 + c * 15, cy: 15 + r * 15, r: 5.2, class: 'die-pip' }, svg);
  if (!PIPS[n] && n) {
    const t = el('text', { x: 30, y: 31, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 26, class: 'die-text' }, svg);
    t.textContent = String(n);
  }
  return svg;
}

class DicePanel {
  constructor(page, declared) {
    this.page = page;
    this.declared = declared;
    this.dieEl = h('div.die-area');
    this.turnEl = h('div.turn-block', { 'aria-live': 'polite' });
    this.tableEl = h('div.sim-table');
    this.bar = progressBar();
    this.simBtn = h('button.btn', { type: 'button', onclick: () => this.simulate() }, 'Run a quick simulation');
    this.panel = card('Dice and odds',
      this.dieEl,
      this.turnEl,
      h('h3', 'Who wins how often'),
      h('p.muted.small', 'Each pair of computer players meets in 200 games, taking turns to start.'),
      this.simBtn, this.bar, this.tableEl);
  }

  /// The last roll of the position shown, as the game declares it (its view's
  /// dice facts): the dice, whose roll it was, and the facts of the turn.
  onView(mv, previous, { review = null } = {}) {
    const dice = panelFacts(mv, 'dice');
    const roll = dice?.roll || [];
    const who = dice?.seat;
    const size = roll.length > 1 ? 56 : 72;
    const facts = dice?.facts || [];
    fill(this.dieEl,
      ...(roll.length ? roll.map((n) => dieFace(n, size)) : [dieFace(null, size)]),
      h('div.die-text-block',
        h('strong', roll.length ? `Rolled ${roll.join(' and ')}` : 'No roll yet'),
        h('span.muted.small', mv.outcome ? mv.result || 'Game over' : who !== null && who !== undefined ? `${this.page.info.seats[who] ?? ''}` : ''),
        ...facts.map((f) => h('span.die-fact', `${f.label}: `, h('strong', factValue(f.value))))));
    this.showTurn(mv, review);
  }

  /// The other side's whole turn played in answer to the person's move (every roll
  /// and decision, not only its last roll), in the game's words; gone under review.
  showTurn(mv, review) {
    const replies = review === null && mv === this.page.mv ? this.page.replies || [] : [];
    const seat = replies.find((e) => e.seat !== null && e.seat !== undefined && !mv.seats?.[e.seat]?.human)?.seat;
    if (seat === undefined) {
      fill(this.turnEl);
      return;
    }
    fill(this.turnEl,
      h('p.small.strong', `${this.page.info.seats[seat] ?? 'The computer'}'s turn`),
      h('ol.turn-replies', ...replies.map((e) => h('li', e.seat === null || e.seat === undefined ? h('span.die-mark', { 'aria-hidden': 'true' }, '⚄ ') : null, saidWords(e)))));
  }

  async simulate() {
    const kinds = (this.page.info.players || []).map((p) => p.name).filter((n) => n !== HUMAN);
    const named = (this.declared.players || []).filter((k) => kinds.includes(k));
    const pool = named.length >= 2 ? named.slice(0, 3) : kinds.slice(0, 3);
    const pairs = [];
    for (let i = 0; i < pool.length; i++) for (let j = i + 1; j < pool.length; j++) pairs.push([pool[i], pool[j]]);
    this.simBtn.disabled = true;
    const rows = [];
    try {
      for (let i = 0; i < pairs.length; i++) {
        const [a, b] = pairs[i];
        const r = await API.runJob(
          { kind: 'simulate', game: this.page.name, variant: this.page.info.variant, players: [a, b], games: 200, seed: 7 + i },
          (p) => this.bar.set((i + (p.fraction ?? 0)) / pairs.length));
        rows.push({ a, b, r });
        this.renderTable(rows);
      }
    } catch (e) {
      toast(`The simulation stopped: ${e.message}`);
    } finally {
      this.bar.done();
      this.simBtn.disabled = false;
    }
  }

  renderTable(rows) {
    const kindNamed = (n) => (this.page.info.players || []).find((p) => p.name === n) ?? n;
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    fill(this.tableEl, h('table.table.sim',
      h('caption', `${formatNumber(rows[0]?.r.games ?? 0)} games per pair; A's share of all games, with its 95% interval`),
      h('thead', h('tr', h('th', 'A'), h('th', 'B'), h('th.num', 'A wins'), h('th.num', '95%'))),
      h('tbody', ...rows.map(({ a, b, r }) => {
        const games = r.games || 1;
        const rate = r.win_rate?.value ?? (r.wins?.[0] ?? 0) / games;
        return h('tr',
          h('td', playerWords(kindNamed(a), this.page.info)), h('td', playerWords(kindNamed(b), this.page.info)),
          h('td.num', h('span.rate-bar', { style: `--rate:${rate}` }), pct(rate)),
          h('td.num.muted', r.win_rate ? `${Math.round(100 * r.win_rate.low)}–${Math.round(100 * r.win_rate.high)}%` : ''));
      }))));
  }
}

// ---------------------------------------------------------------------------
// A puzzle's score card: score, coloured cells left, optionally the time, the best
// scores and the solver's line replayed.

class ScorePanel {
  constructor(page, declared) {
    this.page = page;
    this.declared = declared;
    this.cell = page.info.presentation?.coloured_cell || 'cell';
    this.scoreEl = h('div.big-numbers');
    this.bestEl = h('div.best');
    this.bar = progressBar();
    this.seconds = h('select', { 'aria-label': 'Search time' }, ...[2, 5, 10].map((s) => h('option', { value: s }, `${s} s search`)));
    this.playBtn = h('button.btn', { type: 'button', onclick: () => this.letComputerPlay() }, 'Let the computer play');
    this.stopBtn = h('button.btn.btn-quiet', { type: 'button', hidden: true, onclick: () => this.interrupt() }, 'Stop');
    this.note = h('p.muted.small');
    this.preview = h('p.group-preview', { 'aria-live': 'polite' });
    this.panel = card('Score',
      this.scoreEl,
      this.preview,
      declared.computer_line ? [h('div.train-form', this.playBtn, this.seconds, this.stopBtn), this.bar, this.note] : null,
      declared.best_scores ? [h('h3', 'Best scores'), this.bestEl] : null);
  }

  onStart() {
    if (this.declared.best_scores) this.refreshBest();
  }

  /// Hovering a group: what removing it would score, by the rule the game
  /// declares for the variant being played.
  onGroup(cells) {
    const n = cells.length;
    const rule = this.page.info.presentation?.panels?.find((p) => p.kind === 'score')?.group_points;
    const points = groupPoints(rule, n);
    this.preview.textContent = n >= 2 && points !== null ? `This group of ${n} scores ${count(points, 'point')}.` : '';
  }

  /// The score and the cells left of the position shown (the game's score facts
  /// for it); the time is the game's, ticking while it runs.
  onView(mv, previous, { review = null } = {}) {
    const facts = panelFacts(mv, 'score') || { score: mv.score ?? 0, left: 0 };
    const live = this.page.mv || mv;
    // The game's elapsed time, when the server keeps it, ticking while it runs.
    this.clock = null;
    if (this.declared.timer && typeof live.seconds === 'number') this.clock = { base: live.seconds, at: performance.now(), running: !live.outcome };
    const timeEl = h('span.big-value.elapsed', clockText(live.seconds ?? 0));
    fill(this.scoreEl,
      h('div.big', h('span.big-value', formatNumber(facts.score)), h('span.big-label', 'score')),
      h('div.big', h('span.big-value', formatNumber(facts.left)), h('span.big-label', `${this.cell}s left`)),
      this.clock ? h('div.big', timeEl, h('span.big-label', 'time')) : null);
    clearInterval(this.ticker);
    if (this.clock?.running) {
      this.ticker = setInterval(() => {
        if (!this.page.alive || this.page.mv !== live) return clearInterval(this.ticker);
        timeEl.textContent = clockText(this.clock.base + (performance.now() - this.clock.at) / 1000);
      }, 1000);
    }
    if (review === null && this.declared.best_scores && mv.outcome && !previous?.outcome) this.refreshBest();
  }

  async refreshBest() {
    let data;
    try {
      data = await API.best(this.page.name);
    } catch (e) {
      fill(this.bestEl, h('p.muted.small', `Best scores are not available: ${e.message}`));
      return;
    }
    const list = Array.isArray(data) ? data : data?.best || data?.scores || [];
    if (!list.length) {
      fill(this.bestEl, h('p.muted.small', 'No finished games yet. Clear a board to set the first best score.'));
      return;
    }
    fill(this.bestEl, h('ol.best-list', ...list.slice(0, 10).map((b) => h('li',
      h('strong', formatNumber(b.value ?? b.score ?? b.best)),
      h('span.muted.small', [b.player === HUMAN ? 'you' : 'the computer', b.variant === this.page.info.variant ? null : 'another board', typeof b.time_ms === 'number' ? clockText(b.time_ms / 1000) : null, when(b.achieved_at)].filter(Boolean).join(' · '))))));
  }

  /// Leaving the page stops the search (its event stream closes) and the replay.
  destroy() {
    this.stopped = true;
    this.abort?.abort();
    clearInterval(this.ticker);
  }

  /// The status line while the computer searches for its line (the board is still
  /// the person's, but it is not their move to make).
  statusText() {
    return this.searching ? 'The computer is searching for its line: Stop gives the board back to you.' : null;
  }

  /// True while the computer searches for its line or replays it.
  get replaying() {
    return !!this.running;
  }

  /// Stops the search or the replay; resolves once the board is the person's again.
  async interrupt() {
    this.stopped = true;
    this.abort?.abort();
    await this.running;
  }

  /// A click on the board while the computer plays says how to take the board back.
  onCell() {
    if (!this.running) return false;
    toast('The computer is playing this board: press Stop to take it back.', 'info', 3000);
    return true;
  }

  letComputerPlay() {
    if (this.running) return;
    this.running = this._computerPlays().finally(() => {
      this.running = null;
    });
  }

  async _computerPlays() {
    const page = this.page;
    const id = page.id;
    // The page may have moved on to another session (New game, a variant).
    const current = () => page.alive && page.id === id;
    this.playBtn.disabled = true;
    this.stopBtn.hidden = false;
    this.stopped = false;
    this.abort = new AbortController();
    this.note.textContent = 'The computer is searching for a good line…';
    // The status line says so too: the board is not waiting for your move.
    this.searching = true;
    page.refreshStatus?.();
    let handed = false;
    try {
      // The game's computer for this puzzle (the game list's one rule) plays the line.
      const searcher = page.info.default_opponent;
      const seconds = Number(this.seconds.value);
      const position = page.mv.position;
      const result = await API.runJob(
        { kind: 'solve', game: page.name, variant: page.info.variant, position, seconds, seed: 1 },
        (p) => this.bar.set(p.fraction ?? 0),
        { signal: this.abort.signal });
      this.bar.done();
      this.searching = false;
      if (this.stopped || !current()) return;
      if (page.mv.position !== position) {
        this.note.textContent = 'The board changed while the computer searched, so its line was not played.';
        return;
      }
      const found = lineOf(result);
      const line = found.moves;
      this.note.textContent = `Found a line of ${line.length} moves scoring ${formatNumber(found.score)}${found.cleared ? ', clearing the board' : ''}. Replaying it…`;
      // The line's moves are the computer's: the board is handed to it while it
      // plays them (as set-up moves, each undone like a move), so a score it
      // finishes is recorded as the computer's, never as yours.
      if (page.mv.seats[0]?.human) {
        const changed = await API.setPlayer(id, 0, searcher);
        handed = true;
        if (current()) page.apply(changed.view, { animate: false });
      }
      let lost = false;
      for (const step of line) {
        if (this.stopped || !current() || page.mv.outcome) break;
        const width = Math.round(page.mv.view.width);
        const cell = Array.isArray(step) ? step[0] * width + step[1] : step;
        const move = page.moveAt(cell) ||
          (typeof step === 'string' ? (page.mv.legal_moves || []).find((m) => m.move === step) : null);
        if (!move) {
          lost = true;
          break;
        }
        page.group = page.sameTarget(cell);
        page.board.setHighlights({ group: page.group });
        await sleep(350);
        if (this.stopped || !current()) break;
        const before = page.mv;
        await page.play(move, { setup: true });
        page.group = [];
        if (page.mv === before) {
          // The move was refused (its words are in a toast): the replay ends here.
          lost = true;
          break;
        }
        await sleep(250);
      }
      if (!current()) return;
      if (lost) this.note.textContent = 'The replay lost its way (the board changed), so it stopped. The board is yours again.';
      else if (this.stopped) this.note.textContent = 'Replay stopped. The board is yours again: Undo takes back the computer\'s moves one by one.';
      else this.note.textContent = `The computer's line scored ${formatNumber(page.mv.score)}${page.mv.outcome ? '' : ' so far'}.`;
    } catch (e) {
      if (!e.stopped) toast(e.message);
    } finally {
      this.searching = false;
      if (current()) page.refreshStatus?.();
      if (this.stopped && current() && !handed) this.note.textContent = 'Stopped before the computer played a move. The board is yours.';
      this.abort = null;
      this.bar.done();
      this.stopBtn.hidden = true;
      this.playBtn.disabled = false;
      // Whatever ended the replay, the board goes back to the person: nothing is
      // left waiting for a computer that no longer plays it.
      if (handed) await this._handBack(id, current);
    }
  }

  async _handBack(id, current) {
    try {
      const changed = await API.setPlayer(id, 0, PERSON);
      if (current()) this.page.apply(changed.view, { animate: false });
    } catch (e) {
      toast(`The board could not be given back to you (${e.message}); reload the page to take it back.`);
    }
  }
}

// ---------------------------------------------------------------------------
// A puzzle's solution: can this board be solved, the press counts drawn on the
// cells, and which cell to press next.

class SolutionPanel {
  constructor(page) {
    this.page = page;
    this.rendersExtra = true;
    this.msg = h('div.solvable');
    this.showBtn = h('button.btn', { type: 'button', 'aria-pressed': 'false', onclick: () => this.toggle() }, 'Show the solution');
    this.hintBtn = h('button.btn', { type: 'button', onclick: () => this.nextPress() }, `Which ${this.cellWord()} next?`);
    this.details = h('div');
    this.goal = h('p.goal');
    // The answer to "Which button next?" is said here, in the card, never in a
    // toast over it; a new position clears it.
    this.nextEl = h('p.small.next-press', { 'aria-live': 'polite', hidden: true });
    this.panel = card('Solution', this.goal, this.msg, h('div.actions', this.showBtn, this.hintBtn), this.nextEl, this.details);
    this.counts = null;
    this.show = false;
  }

  cellWord() {
    return this.page.info.presentation?.coloured_cell || 'cell';
  }

  overlayCounts() {
    return this.show && this.counts ? this.counts : null;
  }

  async onView(mv, previous, { review = null } = {}) {
    this.shown = mv;
    this.analysis = null;
    this.counts = null;
    this.nextEl.hidden = true;
    const goal = this.page.info.presentation?.goal_colour;
    if (goal !== undefined && goal !== null) {
      fill(this.goal, `Goal: every ${this.cellWord()} `, h('span.swatch', { style: `background:${PALETTE[goal % PALETTE.length]}` }), ` ${colourName(goal)}.`);
    }
    let data;
    try {
      data = await API.hint(this.page.id, review);
    } catch (e) {
      fill(this.msg, h('p.muted.small', `No analysis: ${e.message}`));
      return;
    }
    if (this.shown !== mv) return;
    this.analysis = data;
    const extra = data.extra || {};
    this.counts = presses(solutionGrid(data), mv.view.cells || []);
    const impossible = data.solution?.kind === 'impossible' ? data.solution : null;
    const solvable = impossible ? false : extra.solvable ?? (this.counts ? true : undefined);
    const solved = !!mv.outcome;
    const cells = `${this.cellWord()}s`;
    let text;
    if (solved) text = `Solved: every ${this.cellWord()} shows the goal colour.`;
    else if (solvable === true) text = `This board can be solved${this.counts ? ` in ${count([...this.counts.values()].reduce((a, b) => a + b, 0), 'press', 'presses')}` : ''}.`;
    else if (solvable === false) text = impossible?.reason || extra.reason || extra.message || data.reason || `This board cannot be solved: no set of presses turns every one of its ${cells} to the goal colour.`;
    else text = data.reason || extra.message || 'Whether this board can be solved is not known.';
    fill(this.msg, h(`p.solvable-text.${solved || solvable ? 'yes' : solvable === false ? 'no' : 'maybe'}`, text));
    this.showBtn.disabled = !this.counts || solved;
    this.hintBtn.disabled = !this.counts || solved || review !== null;
    // The grid is drawn on the board; the other facts are listed.
    const { solution: _s, presses: _p, ...rest } = extra;
    // A solved board has nothing left to press: no "0 presses" plan under "Solved".
    fill(this.details, ...(solved ? [] : resultFacts({ ...data, extra: rest }, { skip: (f) => f.value?.kind === 'grid' })));
    this.page.refreshHighlights();
  }

  toggle() {
    this.show = !this.show;
    this.showBtn.setAttribute('aria-pressed', String(this.show));
    this.showBtn.textContent = this.show ? 'Hide the solution' : 'Show the solution';
    this.page.refreshHighlights();
  }

  nextPress() {
    if (!this.counts) return;
    const next = [...this.counts].find(([, n]) => n > 0);
    if (!next) return;
    const best = bestOf(this.analysis);
    const move = best ? (this.page.mv.legal_moves || []).find((m) => m.move === best.move) : null;
    const cells = move ? move.cells : [next[0]];
    this.page.flashCells(cells);
    this.nextEl.textContent = `Press the lit ${this.cellWord()} next.`;
    this.nextEl.hidden = false;
  }
}

/// Presses per cell: a grid (rows of whole numbers) or a flat list as long as the board.
function presses(grid, cells) {
  let arr = grid;
  if (Array.isArray(arr) && Array.isArray(arr[0])) arr = arr.flat();
  if (Array.isArray(arr) && arr.length === cells.length && arr.every((n) => Number.isInteger(n))) {
    return new Map(cells.map((cell, i) => [cell.id, arr[i]]));
  }
  return null;
}

// ---------------------------------------------------------------------------
// The game's own facts about the position (its analysis's sections) in a card:
// filled by each hint, and for every position while "Keep showing" is on.

class FactsPanel {
  constructor(page, declared) {
    this.page = page;
    this.rendersExtra = true;
    this.body = h('div.facts-body', h('p.muted.small', 'Ask for a hint, or press Show, to see them for this position.'));
    this.follow = false;
    this.followBtn = h('button.btn.btn-small', { type: 'button', 'aria-pressed': 'false', onclick: () => this.toggle() }, 'Show');
    this.title = declared.title;
    this.panel = card(declared.title, this.followBtn, this.body);
  }

  toggle() {
    this.follow = !this.follow;
    this.followBtn.setAttribute('aria-pressed', String(this.follow));
    this.followBtn.textContent = this.follow ? 'Stop showing' : 'Show';
    const mv = this.page.shownMv();
    if (this.follow && mv) this.onView(mv, null, { review: mv === this.page.mv ? null : this.page.reviewer.ply });
  }

  /// The facts of the position shown (under review: the hint of that ply), while
  /// Show is on; otherwise the card is emptied when the position changes, so it
  /// never shows another position's facts.
  async onView(mv, previous, { review = null } = {}) {
    this.shown = mv;
    if (!this.follow) {
      if (this.filled) fill(this.body, h('p.muted.small', 'Ask for a hint, or press Show, to see them for this position.'));
      this.filled = false;
      return;
    }
    let data;
    try {
      data = await API.hint(this.page.id, review);
    } catch (e) {
      fill(this.body, h('p.muted.small', `Not available here: ${e.message}`));
      return;
    }
    if (this.shown === mv) this.onHint(data);
  }

  onHint(data) {
    this.filled = true;
    const facts = resultFacts(data, { card: this.title });
    fill(this.body, ...(facts.length ? facts : [h('p.muted.small', 'Nothing more to say about this position.')]));
  }
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function when(t) {
  if (!t) return '';
  const d = new Date(typeof t === 'number' && t < 1e12 ? t * 1000 : t);
  return isNaN(d) ? '' : d.toLocaleDateString();
}
