// Hints: every move's value drawn on the board and listed beside it, the line of
// best play after a move ("why"), and the games' own suggestions in words.
// Methods of the game page (mixed into GamePage).

import * as API from './api.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill } from './ui.js';
import { grade, extraSentences, plain, pressWords } from './words.js';

export class HintMethods {
  // ----- hints -----

  async toggleHint() {
    if (this.hintData) {
      this.hintData = null;
      this.hintBtn.setAttribute('aria-pressed', 'false');
      fill(this.hintList);
      this.hintCard.hidden = true;
      this._highlight();
      return;
    }
    if (!this.id || !this.mv) return;
    this.hintBtn.disabled = true;
    const mv = this.mv;
    const t0 = performance.now();
    const data = await guarded(() => API.hint(this.id));
    this.hintBtn.disabled = !!this.mv?.outcome;
    if (!data) return;
    // The position changed while the hint was asked for (the computer's reply, a
    // game restarted with the stored settings): ask again for the one now shown.
    if (this.mv !== mv) return this.mv && !this.hintData ? this.toggleHint() : undefined;
    this.hintData = data;
    this.hintBtn.setAttribute('aria-pressed', 'true');
    this.hintCard.hidden = false;
    this._renderHint();
    this._highlight();
    this.lastHintMs = performance.now() - t0;
    this.extras?.onHint?.(data);
  }

  /// Graded moves as the board draws them: an arrow (or a ring) per move, coloured
  /// by value and shaded by remoteness (a quick win or a slow loss is strongest).
  _moveValues() {
    const d = this.hintData;
    if (!d) return [];
    const graded = (d.moves || []).filter((m) => m.value && m.cells?.length);
    const prefix = this.selection;
    const shown = prefix.length ? graded.filter((m) => prefix.every((c, i) => m.cells[i] === c)) : graded;
    const rs = graded.map((m) => m.remoteness ?? 0);
    const maxR = Math.max(1, ...rs);
    return shown.map((m) => {
      const g = grade(m);
      const r = m.remoteness ?? 0;
      const shade = m.value === 'draw' ? 0.8 : m.value === 'win' ? 1 - 0.55 * (r / maxR) : 0.45 + 0.55 * (r / maxR);
      return { key: m.move, cells: m.cells, kind: m.value, shade, text: g.text, title: `${m.move}: ${g.words}` };
    });
  }

  _renderHint() {
    const d = this.hintData;
    const parts = [];
    const seat = this._seatName(this.mv.to_move ?? 0);
    if (d.value) {
      const r = d.remoteness;
      const plies = d.value !== 'draw' && r !== undefined && r !== null ? ` in ${r} pl${r === 1 ? 'y' : 'ies'}` : '';
      const v = d.value === 'win' ? `${seat}, to move, wins${plies}` : d.value === 'loss' ? `${seat}, to move, loses${plies}` : 'the game is a draw';
      parts.push(h('p.hint-summary', `With best play ${v}.`));
    }
    const graded = (d.moves || []).filter((m) => m.value);
    if (graded.length) {
      parts.push(h('p.muted.small', 'Every move is drawn on the board: green wins, grey draws, red loses; the number counts plies to the end. Select a piece to see only its moves; choose a move to see the best play that follows.'));
      this.hintItems = new Map();
      parts.push(h('ul.hint-moves', ...graded.map((m) => {
        const g = grade(m);
        const pv = h('div.pv', { hidden: true });
        const item = h('li',
          h('button.hint-move', {
            type: 'button', 'aria-expanded': 'false',
            onclick: (e) => this._why(m, pv, e.currentTarget),
            onmouseenter: () => this._focusMove(m.move), onmouseleave: () => this._focusMove(null),
            onfocus: () => this._focusMove(m.move), onblur: () => this._focusMove(null),
          }, h(`span.badge-inline.badge-${g.kind}`, g.text), h('span.hint-move-name', m.move), h('span.muted', g.words)),
          pv);
        return item;
      })));
    }
    const sentences = extraSentences(this.name, d.extra);
    const own = this._ownHint(d);
    if (own) parts.push(own);
    if (sentences.length && !this.extras?.rendersExtra) parts.push(h('ul.hint-facts', ...sentences.map((t) => h('li', t))));
    if (!graded.length && !own && !sentences.length) parts.push(h('p.muted.small', 'No analysis is available for this position.'));
    fill(this.hintList, ...parts);
  }

  /// Games without exact grades: their own suggestion in words, and the cells lit.
  _ownHint(d) {
    const extra = d.extra || {};
    if (this.name === 'poggle' && extra.hint) {
      const move = (d.moves || []).find((m) => m.move === extra.hint);
      if (move) this.flashCells(move.cells);
      return h('p.hint-summary', `Press ${pressWords(extra.hint)} next (lit on the board).`);
    }
    if (this.name === 'auto120') {
      // Where the variant is solved (1-3 markers) the exact solver's chances decide,
      // not the search's top move; otherwise the search's estimate.
      const exact = (extra.exact?.moves || []).filter((m) => typeof m.win_probability === 'number');
      const candidates = exact.length ? exact : (extra.best_moves || []).filter((m) => typeof m.win_probability === 'number');
      if (!candidates.length) return null;
      const top = Math.max(...candidates.map((m) => m.win_probability));
      const best = candidates.filter((m) => top - m.win_probability < 1e-9);
      const cells = best.flatMap((b) => (d.moves || []).find((m) => m.move === b.move)?.cells.slice(-1) ?? []);
      if (cells.length) this.flashCells([...new Set(cells)]);
      const names = best.map((b) => b.move);
      const which = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)} (equally good)`;
      const chance = `${Math.round(100 * top)}%`;
      return h('p.hint-summary', exact.length
        ? `Move ${which}: with perfect play from here you win ${chance} of the time (exact).`
        : `Move ${which}: about ${chance} chance to win with the computer's best play (an estimate from its search).`);
    }
    if (this.name === 'samegame') {
      const p = h('p.hint-summary', 'Searching for a good next group…');
      this._sameGameHint(p);
      return p;
    }
    return null;
  }

  /// SameGame: a short search from this board; its first group is lit, with the
  /// final score the search expects.
  async _sameGameHint(p) {
    const mv = this.mv;
    // When the last move played is the group the previous hint lit, the rest of
    // that hint's line is where this search starts: a hint never loses ground.
    const log = mv.log || [];
    const kept = this.sameGamePlan;
    const plan = kept && log.length && log[log.length - 1].move === kept.first ? kept.rest : [];
    try {
      const result = await API.runJob({ kind: 'solve', game: this.name, variant: this.info.variant, position: mv.position, seconds: 1, seed: 1, plan });
      if (this.mv !== mv || !this.hintData) return;
      const first = (result.moves || [])[0];
      if (first === undefined) {
        p.textContent = 'No group can be removed.';
        return;
      }
      const width = Math.round(mv.view.width);
      const id = Array.isArray(first) ? first[0] * width + first[1] : null;
      const move = id !== null ? this.moveAt(id) : (mv.legal_moves || []).find((m) => m.move === first);
      this.sameGamePlan = move ? {
        first: move.move,
        rest: (result.moves || []).slice(1).map((m) => (Array.isArray(m) ? `${m[0]} ${m[1]}` : String(m))),
      } : null;
      if (move) {
        const mark = this.board.cellData(move.cells[0])?.mark;
        const group = (mv.view.cells || []).filter((c) => mark && c.mark === mark).map((c) => c.id);
        this.flashCells(group.length ? group : move.cells);
        const n = group.length || 1;
        p.textContent = `Remove the lit group of ${n} (${Math.max(0, (n - 2) ** 2)} points now): the search expects a final score of ${formatNumber(result.score)}${result.cleared ? ', clearing the board' : ''}.`;
      } else {
        p.textContent = `The search expects a final score of ${formatNumber(result.score)}.`;
      }
    } catch (e) {
      p.textContent = `No suggestion: ${e.message}`;
    }
  }

  _focusMove(key) {
    this.focusKey = key;
    this.board.setMoveValues(this._moveValues(), key);
  }

  /// "Why": the line of best play after a graded move (the principal variation).
  async _why(m, pv, button) {
    const open = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!open));
    pv.hidden = open;
    if (open || pv.dataset.done) return;
    fill(pv, h('p.muted.small', 'Finding the best play…'));
    try {
      const data = await API.line(this.id, m.move);
      pv.dataset.done = '1';
      const line = data.line || [];
      fill(pv, line.length
        ? h('ol.pv-line', ...line.map((e) => h('li', h('span', e.text || e.move), e.value ? h(`span.badge-inline.badge-${e.value}`, grade(e).text) : null)))
        : h('p.muted.small', 'The game ends with this move.'),
      data.truncated ? h('p.muted.small', `The first ${line.length} moves are shown.`) : null);
    } catch (e) {
      fill(pv, h('p.muted.small', `The line cannot be shown: ${e.message}`));
    }
  }
}
