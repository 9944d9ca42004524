// Hints: every move's value drawn on the board and listed beside it, the line of
// best play after a move ("why"), and the games' own suggestions in words.
// Methods of the game page (mixed into GamePage).

import * as API from './api.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill } from './ui.js';
import { analysisOf, bestOf, gradeBadge, gradeOf, groupPoints, lineOf, percent, positionSentence, remotenessOf, resultFacts } from './results.js';
import { count, saidWords, moverOf } from './words.js';

export class HintMethods {
  // ----- move values that stay on -----

  /// The "Show move values" switch (GamesmanUni's): while it is on, every position
  /// shown (the game's after each move, and a reviewed one) has its moves' values
  /// drawn on the board and listed, without pressing Hint, and the move list is
  /// coloured by each move's value. Kept in this browser per game.
  _valuesSwitch() {
    const key = `tabula.values.${this.name}`;
    this.valuesOn = localStorage.getItem(key) === 'on';
    const box = h('input', { type: 'checkbox', checked: this.valuesOn });
    box.addEventListener('change', () => {
      this.valuesOn = box.checked;
      localStorage.setItem(key, box.checked ? 'on' : 'off');
      if (this.valuesOn) this.showValues();
      else if (this.hintData) this.toggleHint();
      this.renderLogMarks();
    });
    return h('label.values-switch', { hidden: !this.info.exact }, box, h('span', 'Show move values'));
  }

  /// With the switch on: the values of the position shown, asked for once it shows.
  async showValues() {
    if (!this.valuesOn || !this.info.exact || !this.id || !this.mv) return;
    const mv = this.shownMv();
    if (mv.outcome) return;
    const ply = mv !== this.mv ? this.reviewer.plyAt(this.reviewer.ply) : null;
    let data;
    try {
      data = await API.hint(this.id, ply);
    } catch {
      return;
    }
    if (this.shownMv() !== mv || !this.valuesOn) return;
    this.hintData = data;
    this.hintBtn.setAttribute('aria-pressed', 'true');
    this.hintCard.hidden = false;
    this._renderHint();
    if (ply === null) this._highlight();
    else this.board.setMoveValues(this._moveValues(), null);
  }

  // ----- hints -----

  /// The ply of the position shown when it is one under review (lichess's
  /// analysis of any reviewed position), null for the game's own.
  _shownPly() {
    return this.shownMv() !== this.mv ? this.reviewer.plyAt(this.reviewer.ply) : null;
  }

  /// The hint's marks on the board: the game's own highlights, or under review the
  /// reviewed move's frames with the hint's cells and move values over them.
  _drawHint() {
    if (this.shownMv() === this.mv) {
      this._highlight();
      return;
    }
    const [recent, mine] = this._lastMoveFrames(this.shownMv());
    this.board.setHighlights({ recent, mine, hint: this.hinted || [] });
    this.board.setMoveValues(this._moveValues(), this.focusKey ?? null);
  }

  async toggleHint() {
    if (this.hintData) {
      clearTimeout(this.hintAgain);
      this.hintData = null;
      this.hintBtn.setAttribute('aria-pressed', 'false');
      fill(this.hintList);
      this.hintCard.hidden = true;
      this.hinted = [];
      this._drawHint();
      return;
    }
    if (!this.id || !this.mv) return;
    // The position shown: the game's, or one under review (analysed as it stood).
    const mv = this.shownMv();
    if (mv.outcome) return;
    this.hintBtn.disabled = true;
    const t0 = performance.now();
    const data = await guarded(() => API.hint(this.id, this._shownPly()));
    this.hintBtn.disabled = !!this.shownMv()?.outcome;
    if (!data) return;
    // The position changed while the hint was asked for (the computer's reply, a
    // game restarted with the stored settings, another reviewed move): ask again
    // for the one now shown.
    if (this.shownMv() !== mv) return this.mv && !this.hintData ? this.toggleHint() : undefined;
    this.hintData = data;
    this.hintBtn.setAttribute('aria-pressed', 'true');
    this.hintCard.hidden = false;
    this.hinted = [];
    this._renderHint();
    this._drawHint();
    this._bringIntoView(this.hinted);
    this.lastHintMs = performance.now() - t0;
    this.extras?.onHint?.(data);
  }

  /// While the exact solution is being prepared (the analysis says so, with its
  /// progress, or when a failed build is tried again) the hint asks again on its
  /// own, for as long as it stays open on the same position, and shows the
  /// graded moves once they come.
  _askAgainSoon() {
    clearTimeout(this.hintAgain);
    const prep = analysisOf(this.hintData)?.preparing;
    if (!prep) return;
    const mv = this.shownMv();
    const wait = Math.min(5000, Math.max(1500, 1000 * (prep.retry_in_seconds ?? 0)));
    this.hintAgain = setTimeout(async () => {
      if (this.shownMv() !== mv || !this.hintData) return;
      let data;
      try {
        data = await API.hint(this.id, this._shownPly());
      } catch {
        // Busy or out of time: the next try is after the same wait.
        return this._askAgainSoon();
      }
      if (this.shownMv() !== mv || !this.hintData) return;
      this.hintData = data;
      this._renderHint();
      this._drawHint();
      this.extras?.onHint?.(data);
    }, wait);
  }

  /// Graded moves as the board draws them: an arrow (or a ring) per move, the
  /// better for the mover the stronger: any win above any draw above any loss, a
  /// quick win above a slow one and a slow loss above a quick one. The hint's best
  /// move (else the best graded) is marked `best`: drawn strongest of all.
  _moveValues() {
    const d = this.hintData;
    if (!d) return [];
    const graded = (analysisOf(d).moves || []).filter((m) => gradeOf(m).value && m.cells?.length);
    const prefix = this.selection;
    const shown = prefix.length ? graded.filter((m) => prefix.every((c, i) => m.cells[i] === c)) : graded;
    const plies = (m) => remotenessOf(gradeOf(m).remoteness)?.plies ?? 0;
    const maxR = Math.max(1, ...graded.map(plies));
    // 0..1 within its kind's band: wins 0.7..1, draws 0.5, losses 0..0.4.
    const shadeOf = (m) => {
      const value = gradeOf(m).value;
      const r = plies(m) / maxR;
      return value === 'win' ? 1 - 0.3 * r : value === 'draw' ? 0.5 : 0.4 * r;
    };
    const named = bestOf(d)?.move;
    const top = Math.max(...graded.map(shadeOf));
    const best = graded.some((m) => m.move === named) ? (m) => m.move === named : (m) => shadeOf(m) === top;
    return shown.map((m) => {
      const g = gradeBadge(m);
      return { key: m.move, cells: m.cells, kind: gradeOf(m).value, shade: shadeOf(m), best: best(m), text: g.text, title: `${this.moveName(m.move)}: ${g.words}` };
    });
  }

  _renderHint() {
    const d = this.hintData;
    const a = analysisOf(d);
    const parts = [];
    const prep = a.preparing;
    if (prep) {
      // Not "no exact solution": it is on its way, and asked for again.
      const pct = typeof prep.progress === 'number' ? Math.round(Math.max(0, Math.min(1, prep.progress)) * 100) : null;
      parts.push(h('p.hint-preparing', prep.words));
      if (pct !== null) {
        parts.push(h('div.progress.hint-progress', { role: 'progressbar', 'aria-label': 'The exact solution being prepared', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': pct },
          h('div.progress-fill', { style: `width: ${pct}%` })));
      }
      parts.push(h('p.muted.small', 'The moves are graded here as soon as it is ready.'));
      fill(this.hintList, ...parts);
      this._askAgainSoon();
      return;
    }
    const seat = this._seatName(this.shownMv().to_move ?? 0);
    const summary = positionSentence(d, seat);
    if (summary) parts.push(h('p.hint-value', summary));
    const moves = a.moves || [];
    const graded = moves.filter((m) => gradeOf(m).value);
    this.hintMovesEl = null;
    if (graded.length) {
      const bound = graded.some((m) => remotenessOf(gradeOf(m).remoteness)?.bound);
      parts.push(h('p.muted.small', `Every move is drawn on the board: green wins, grey draws, red loses; the number counts plies to the end${bound ? ' (≤: at most that many)' : ''}; the best move is drawn strongest, its label outlined.${graded.some((m) => (m.cells || []).length > 1) ? ' Select a piece to see only its moves.' : ''} Choose a move to see the best play that follows.`));
      this.hintMovesEl = h('ul.hint-moves');
      parts.push(this.hintMovesEl);
      this._fillHintMoves();
    } else {
      // Moves graded by chance or points (dice games, puzzles): a short list, best first.
      const other = moves.map((m) => [m, gradeBadge(m)]).filter(([, g]) => g).slice(0, 8);
      if (other.length) {
        parts.push(h('ul.hint-moves.hint-other', ...other.map(([m, g]) => h('li',
          h(`span.badge-inline.badge-${g.kind}`, g.text), h('span.hint-move-name', this.moveName(m.move)), h('span.muted', g.words)))));
      }
    }
    const own = this._ownHint(d);
    if (own) parts.push(own);
    const facts = this.extras?.rendersExtra ? [] : resultFacts(d);
    parts.push(...facts);
    if (a.note) parts.push(h('p.muted.small', a.note));
    if (!graded.length && !own && !facts.length && !a.note && !summary) parts.push(h('p.muted.small', 'No analysis is available for this position.'));
    fill(this.hintList, ...parts);
  }

  /// The graded moves listed beside the board: those of the selected piece only
  /// while one is selected (as on the board), the one drawn strongest named best.
  _fillHintMoves() {
    if (!this.hintMovesEl || !this.hintData) return;
    const graded = (analysisOf(this.hintData).moves || []).filter((m) => gradeOf(m).value);
    const prefix = this.selection || [];
    const shown = prefix.length ? graded.filter((m) => prefix.every((c, i) => m.cells?.[i] === c)) : graded;
    this.hintMovesKey = prefix.join(',');
    // The move drawn strongest on the board is named best in the list too.
    const best = new Set(this._moveValues().filter((v) => v.best).map((v) => v.key));
    fill(this.hintMovesEl, ...shown.map((m) => {
      const g = gradeBadge(m);
      const pv = h('div.pv', { hidden: true });
      const item = h('li',
        h(`button.hint-move${best.has(m.move) ? '.best' : ''}`, {
          type: 'button', 'aria-expanded': 'false',
          onclick: (e) => this._why(m, pv, e.currentTarget),
          onmouseenter: () => this._focusMove(m.move), onmouseleave: () => this._focusMove(null),
          onfocus: () => this._focusMove(m.move), onblur: () => this._focusMove(null),
        }, h(`span.badge-inline.badge-${g.kind}`, g.text), h('span.hint-move-name', this.moveName(m.move)),
        best.has(m.move) ? h('span.best-tag', 'best') : null, h('span.muted', g.words)),
        pv);
      return item;
    }));
  }

  /// The hint's list follows the selection (called whenever the board's marks are drawn).
  _followSelection() {
    if (this.hintMovesEl && this.hintMovesKey !== (this.selection || []).join(',')) this._fillHintMoves();
  }

  /// The hint's own suggestion in words with its cells lit: the game's solver run
  /// from here when the game declares hints that search, else the hint's best
  /// move and reason.
  _ownHint(d) {
    const seconds = this.info.presentation?.hint_search_seconds;
    if (seconds) {
      const p = h('p.hint-summary', 'Searching for a good next move…');
      this._searchHint(p, seconds);
      return p;
    }
    const best = bestOf(d);
    if (best) {
      const move = (analysisOf(d).moves || []).find((m) => m.move === best.move) || (this.shownMv().legal_moves || []).find((m) => m.move === best.move);
      const cells = best.cells || move?.cells;
      if (cells?.length) this.flashCells(cells);
      // A puzzle's one-cell move reads as the cell to press; any other in the game's words.
      const cell = this.info.presentation?.coloured_cell || 'cell';
      const press = this.info.puzzle && cells?.length === 1;
      const what = press ? `Press the lit ${cell} next` : `Play ${this.moveName(best.move)}${cells?.length ? ' (lit on the board)' : ''}`;
      const g = gradeBadge(d.best || move || {});
      // A chance is said once, in the page's words from the typed grade; the
      // server's reason says the same of a chance, so it follows other grades only.
      const chance = g?.kind === 'chance' ? `: ${g.words}` : '';
      const reason = best.reason && !chance ? ` ${best.reason}` : '';
      return h('p.hint-summary', `${what}${chance}.${reason}`);
    }
    // Moves graded by chance only: the best ones lit, in words.
    const chances = (analysisOf(d).moves || []).filter((m) => typeof gradeOf(m).chance === 'number');
    if (chances.length) {
      const top = Math.max(...chances.map((m) => gradeOf(m).chance));
      const best = chances.filter((m) => top - gradeOf(m).chance < 1e-9);
      const cells = best.flatMap((m) => m.cells?.slice(-1) ?? []);
      if (cells.length) this.flashCells([...new Set(cells)]);
      const names = best.map((m) => this.moveName(m.move));
      const which = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)} (equally good)`;
      const exact = best.every((m) => gradeOf(m).exact);
      return h('p.hint-summary', `Move ${which}: ${exact ? `${percent(top, 1)} chance to win with best play` : `about ${percent(top, 0)} chance to win (the look-ahead's estimate)`}.`);
    }
    return null;
  }

  /// A short run of the game's solver from this position (the game declares
  /// `hint_search_seconds`): its first move is lit, with the score its line expects.
  async _searchHint(p, seconds) {
    const mv = this.shownMv();
    // When the last move played is the one the previous hint lit, the rest of
    // that hint's line is where this search starts: a hint never loses ground.
    const log = mv.log || [];
    const kept = this.searchPlan;
    const plan = kept && mv === this.mv && log.length && log[log.length - 1].move === kept.first ? kept.rest : [];
    try {
      const result = await API.runJob({ kind: 'solve', game: this.name, variant: this.info.variant, position: mv.position, seconds, seed: 1, plan });
      if (this.shownMv() !== mv || !this.hintData) return;
      const found = lineOf(result);
      const first = found.moves[0];
      if (first === undefined) {
        p.textContent = 'No move is left to play.';
        return;
      }
      const width = Math.round(mv.view.width);
      const id = Array.isArray(first) ? first[0] * width + first[1] : null;
      const move = id !== null ? this.moveAt(id, mv) : (mv.legal_moves || []).find((m) => m.move === first);
      this.searchPlan = move ? {
        first: move.move,
        rest: found.moves.slice(1).map((m) => (Array.isArray(m) ? `${m[0]} ${m[1]}` : String(m))),
      } : null;
      const end = `the search expects a final score of ${formatNumber(found.score)}${found.cleared ? ', clearing the board' : ''}`;
      if (move) {
        // The move's group: the cells its declared click target joins.
        const group = this.sameTarget(move.cells[0], mv);
        this.flashCells(group);
        this._bringIntoView(group);
        const n = group.length;
        const rule = this.info.presentation?.panels?.find((x) => x.kind === 'score')?.group_points;
        const now = groupPoints(rule, n);
        p.textContent = `Remove the lit group of ${n}${now !== null ? ` (${count(now, 'point')} now)` : ''}: ${end}.`;
      } else {
        p.textContent = `${end.charAt(0).toUpperCase()}${end.slice(1)}.`;
      }
    } catch (e) {
      p.textContent = `No suggestion: ${e.message}`;
    }
  }

  _focusMove(key) {
    this.focusKey = key;
    this.board.setMoveValues(this._moveValues(), key);
  }

  /// Brings cells (a hint's move) into view where the board is larger than the
  /// screen: scrolled sideways in its frame, and the page scrolled up or down.
  _bringIntoView(ids) {
    if (!ids?.length) return;
    const boxes = ids.map((id) => this.board.cells.get(id)?.g?.getBoundingClientRect()).filter(Boolean);
    if (!boxes.length) return;
    const behavior = 'auto';
    const margin = 8;
    const left = Math.min(...boxes.map((r) => r.left));
    const right = Math.max(...boxes.map((r) => r.right));
    const wrap = this.boardWrap;
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      const frame = wrap.getBoundingClientRect();
      let shift = 0;
      if (right > frame.right - margin) shift = Math.min(right - frame.right + margin, left - frame.left - margin);
      else if (left < frame.left + margin) shift = left - frame.left - margin;
      if (shift) wrap.scrollTo({ left: Math.max(0, wrap.scrollLeft + shift), behavior });
    }
    const top = Math.min(...boxes.map((r) => r.top));
    const bottom = Math.max(...boxes.map((r) => r.bottom));
    // The sticky top bar covers the top of the window.
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    let by = 0;
    if (top < bar + margin) by = top - bar - margin;
    else if (bottom > window.innerHeight - margin) by = Math.min(bottom - window.innerHeight + margin, top - bar - margin);
    if (by) window.scrollBy({ top: by, behavior });
  }

  /// "Why": the line of best play after a graded move (the principal variation).
  async _why(m, pv, button) {
    const open = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!open));
    pv.hidden = open;
    if (open || pv.dataset.done) return;
    fill(pv, h('p.muted.small', 'Finding the best play…'));
    try {
      // From the position shown: the game's, or one under review (an analysis board).
      const data = await API.line(this.id, m.move, this._shownPly());
      pv.dataset.done = '1';
      const line = data.line || [];
      fill(pv, line.length
        ? h('ol.pv-line', ...line.map((e) => {
          const g = gradeBadge(e);
          // Each move in the game's words, its colours as the player's palette names
          // them (typed parts, as the move list); the notation only as a tooltip.
          // Who plays each move is said before it, the move's words apart.
          const by = moverOf(e);
          return h('li', by ? h('span.pv-by', `${by}: `) : null, h('span', { title: e.move }, saidWords(e)), g ? h(`span.badge-inline.badge-${g.kind}`, { title: g.words }, g.text) : null);
        }))
        : h('p.muted.small', 'The game ends with this move.'),
      data.truncated ? h('p.muted.small', `The first ${line.length} moves are shown.`) : null);
    } catch (e) {
      fill(pv, h('p.muted.small', `The line cannot be shown: ${e.message}`));
    }
  }
}
