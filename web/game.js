// The page of one game: the board, the click and keyboard protocol, and the side panel.
//
// Everything here works from the game's GameInfo and MatchView alone; the few
// panels special to one game live in extras.js, keyed by game name.

import * as API from './api.js';
import { Board, STYLED_MARKS, shade } from './render.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill } from './ui.js';
import { loadSettings, saveSettings, seatDefaults } from './settings.js';
import { extrasFor } from './extras.js';
import { Review } from './review.js';
import { grade, extraSentences, variantWords, withOption, plain, colourName, parseVariant, pressWords, cap } from './words.js';

const GENERIC_KINDS = new Set(['human', 'random', 'perfect', 'level', 'alphabeta', 'matchbox', 'menace', 'expectimax']);
const PRESETS = [
  { name: 'Off', level: 0 },
  { name: 'Low', level: 25 },
  { name: 'Medium', level: 66 },
  { name: 'High', level: 95 },
];
/// How close the slider must be to a preset for the preset to show as chosen (seed 000's EPSILON).
const EPSILON = 3;
/// Pause between plies when watching the computer play itself, per speed.
const WATCH_SPEEDS = { slow: 1400, normal: 650, fast: 200 };

const sessionKey = (game) => `tabula.session.${game}`;
const kindOf = (spec) => (spec || '').split(':')[0].trim().toLowerCase();

export class GamePage {
  constructor(main, name, { setCrumbs, navigate }) {
    this.main = main;
    this.name = name;
    this.setCrumbs = setCrumbs;
    this.navigate = navigate;
    this.selection = [];
    this.busy = false;
    this.hintData = null;
    this.alive = true;
    this.cursor = null;
    this.onKey = (e) => this.#globalKey(e);
  }

  destroy() {
    this.alive = false;
    document.removeEventListener('keydown', this.onKey);
    this.extras?.destroy?.();
    clearTimeout(this.watchTimer);
  }

  // ----- start-up -----

  async start() {
    const params = new URLSearchParams(location.search);
    fill(this.main, h('p.loading', 'Loading…'));
    try {
      this.info = await API.gameInfo(this.name, params.get('variant') || undefined);
    } catch (e) {
      fill(this.main, h('div.empty',
        h('h1', e.status === 404 ? 'There is no such game' : 'This game cannot be opened'),
        h('p', e.status === 404 ? e.message : `This game cannot be opened: ${e.message}`),
        h('p', h('a', { href: '/', 'data-link': true }, 'See every game'))));
      toast(e.message);
      return;
    }
    this.name = this.info.name;
    this.setCrumbs([{ text: 'Games', href: '/' }, { text: this.info.title }]);
    document.title = `${this.info.title} · Tabula`;
    this.settings = await loadSettings(this.name, this.info.seats);
    this.#layout();
    document.addEventListener('keydown', this.onKey);

    // A shared link names the variant (with its board number) and maybe a position:
    // it opens exactly that game, never a stored session of another variant.
    const askedVariant = params.has('variant');
    const position = params.get('position');
    const wanted = position ? null : params.get('s') || localStorage.getItem(sessionKey(this.name));
    let data = null;
    if (wanted) {
      try {
        data = await API.getSession(wanted);
        if (data.view.game !== this.name) data = null;
        else if (data.view.variant !== this.info.variant) {
          if (askedVariant && !params.get('s')) data = null;
          else this.info = await API.gameInfo(this.name, data.view.variant || undefined);
        }
      } catch (e) {
        data = null;
        if (params.get('s')) toast(`The game in the address could not be found (${e.message}); a new one was started.`, 'info');
      }
    }
    if (!data) data = await this.#createFirst(position ? { position } : {});
    if (!this.alive) return;
    if (!data) return;
    this.#renderVariant();
    this.#adopt(data);
    this.apply(data.view, { animate: false });
    this.#refreshSaved();
    this.#refreshTallies();
    this.extras?.onStart?.();
  }

  /// The players of a new session, from the settings.
  #playersFor(humanSeat = this.#humanSeat()) {
    const seats = this.info.seats.length;
    if (this.info.puzzle || seats === 1) return ['human'];
    return this.info.seats.map((_, i) => (humanSeat === -1 || i === humanSeat ? 'human' : this.#computerSpec()));
  }

  #humanSeat() {
    const s = this.settings.human_seat;
    return typeof s === 'number' && s >= -1 && s < this.info.seats.length ? s : 0;
  }

  #kinds() {
    return (this.info.players || []).map((p) => p.name);
  }

  #supports(spec) {
    const kind = kindOf(spec);
    const kinds = this.#kinds();
    if (kinds.includes(kind)) return true;
    return ['off', 'low', 'medium', 'high'].includes(kind) && kinds.includes('level');
  }

  #computerSpec() {
    if (this.settings.ai && this.#supports(this.settings.ai)) return this.settings.ai;
    const kinds = this.#kinds();
    // The game's own source may prescribe its computer (Northcott's `nim` reply).
    if (this.info.default_opponent && kinds.includes(this.info.default_opponent)) return this.info.default_opponent;
    if (kinds.includes('level')) return 'level:66';
    const custom = kinds.find((k) => !GENERIC_KINDS.has(k));
    if (custom) return custom;
    if (kinds.includes('expectimax')) return 'expectimax';
    return 'random';
  }

  async #createSession(extra = {}) {
    const body = {
      game: this.name,
      variant: this.info.variant,
      players: this.#playersFor(),
      seed: Math.floor(Math.random() * 2 ** 31),
      ...extra,
    };
    if (typeof this.settings.undo_depth === 'number') body.undo_depth = this.settings.undo_depth;
    try {
      return await API.createSession(body);
    } catch (e) {
      // A stored setting the server refuses must never leave the page without a game:
      // start with the defaults and say which setting was dropped.
      if (e.status !== 400) throw e;
      const plainBody = { game: this.name, variant: this.info.variant, seed: body.seed, position: body.position };
      if (extra.players) plainBody.players = extra.players;
      const data = await API.createSession(plainBody);
      toast(`Your saved settings could not be used (${e.message}); the game started with the usual ones.`, 'info', 6000);
      return data;
    }
  }

  /// The first session of the page; if even that fails, the page says why and
  /// offers to start afresh (nothing else is clickable without a session).
  async #createFirst(extra) {
    try {
      return await this.#createSession(extra);
    } catch (e) {
      fill(this.boardWrap, h('div.empty',
        h('p', `This game could not be started: ${e.message}`),
        h('button.btn', { type: 'button', onclick: () => location.assign(`/game/${this.name}`) }, 'Start the usual game')));
      for (const b of [this.undoBtn, this.redoBtn, this.hintBtn, this.newBtn, this.restartBtn, this.resignBtn]) b.disabled = true;
      toast(e.message);
      return null;
    }
  }

  /// The variant in words under the title, and in the address (a shareable link).
  #renderVariant() {
    const words = variantWords(this.info);
    fill(this.variantEl, words ? h('span.variant', { title: 'Variant' }, words) : '');
    if (this.variantForm) this.variantForm.sync();
  }

  #adopt(data) {
    this.id = data.id;
    this.review = null;
    localStorage.setItem(sessionKey(this.name), this.id);
    const url = new URL(location.href);
    url.searchParams.set('s', this.id);
    url.searchParams.delete('position');
    if (data.view.variant) url.searchParams.set('variant', data.view.variant);
    else url.searchParams.delete('variant');
    if (url.pathname + url.search !== location.pathname + location.search) history.replaceState(null, '', url.pathname + url.search);
  }

  /// A link that opens exactly this game: the variant (with its board number) and
  /// the position now.
  shareLink() {
    const url = new URL(`/game/${this.name}`, location.href);
    if (this.info.variant) url.searchParams.set('variant', this.info.variant);
    if (this.mv?.log?.length && this.mv.position) url.searchParams.set('position', this.mv.position);
    return url.href;
  }

  /// A new session with these players (the server loads a trained machine's boxes).
  async restartWith(players) {
    const data = await guarded(() => this.#createSession({ players }));
    if (!data) return;
    this.#adopt(data);
    this.apply(data.view, { animate: false });
  }

  // ----- layout -----

  #layout() {
    const info = this.info;
    this.boardWrap = h('div.board-wrap');
    this.statusEl = h('p.turn-line', { 'aria-live': 'polite' });
    this.statusChips = h('ul.status-chips');
    this.legendEl = h('div.legend', { 'aria-label': 'Colour legend' });
    this.chooser = h('div.chooser', { hidden: true, role: 'menu' });
    this.freeMoves = h('div.free-moves');
    this.announce = h('p.visually-hidden', { 'aria-live': 'polite' });
    this.keyHelp = h('p.key-help', this.#keyHelpText());

    this.board = new Board(this.boardWrap, {
      interactive: true,
      onCell: (id, e) => this.#click(id, e),
      onContext: this.name === 'northcott' ? (id, e) => this.#click(id, e) : null,
      onHover: (id) => this.#hover(id),
      seatColour: (seat) => this.settings.colours[seat] || '#888',
    });
    this.board.svg.setAttribute('aria-label', `${info.title} board`);
    this.board.svg.addEventListener('keydown', (e) => this.#boardKey(e));
    this.board.svg.addEventListener('focus', () => {
      // The cursor is for keyboard users: a mouse click focuses the board too.
      if (!this.board.svg.matches(':focus-visible')) return;
      if (this.cursor === null) this.#moveCursorTo(this.#defaultCursor());
      else this.board.setCursor(this.cursor);
    });
    this.board.svg.addEventListener('blur', () => this.board.setCursor(null));
    this.boardWrap.appendChild(this.chooser);

    // Side panel.
    this.undoBtn = h('button.btn', { type: 'button', onclick: () => this.act('undo'), title: 'Undo (Ctrl+Z)' }, '↶ Undo');
    this.redoBtn = h('button.btn', { type: 'button', onclick: () => this.act('redo'), title: 'Redo (Ctrl+Y)' }, '↷ Redo');
    this.newBtn = h('button.btn', { type: 'button', onclick: () => this.newGame(), title: 'New game (Ctrl+N or N)' }, 'New game');
    this.hasSeed = (info.options || []).some((o) => o.name === 'seed');
    this.restartBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this.restart(), title: 'The same board again', hidden: !this.hasSeed }, 'Restart');
    this.shareBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this.#share(), title: 'Copy a link to this game' }, 'Share');
    this.watchBar = this.#watchControls();
    this.reviewer = new Review(this);
    this.variantEl = h('div.variant-line');
    this.hintBtn = h('button.btn', { type: 'button', onclick: () => this.toggleHint(), title: 'Hint (H)', 'aria-pressed': 'false' }, 'Hint');
    this.resignBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this.act('resign') }, 'Resign');
    this.hintList = h('div.hint-list', { 'aria-live': 'polite' });
    this.logList = h('ol.log', { 'aria-label': 'Move log' });
    this.tallyEl = h('div.tally');
    this.savedEl = h('ul.saved-list');
    this.playersEl = h('div.players');

    const card = (title, ...body) => h('section.card', h('h2', title), ...body);
    this.extras = extrasFor(this.name, this);
    this.actionsEl = h('div.actions.board-actions', this.undoBtn, this.redoBtn, this.hintBtn, this.newBtn, this.restartBtn, this.resignBtn, this.shareBtn);
    this.variantForm = (info.options || []).length ? this.#variantChooser() : null;
    const panel = h('aside.panel', { 'aria-label': 'Game panel' },
      (this.hintCard = h('section.card.card-hint', { hidden: true }, h('h2', 'Hint'), this.hintList)),
      info.puzzle ? null : card('Players', this.playersEl),
      this.extras?.panel ?? null,
      (this.coloursCard = card('Colours and undo', this.#coloursEditor())),
      card('Moves', this.logList, this.reviewer.chart),
      info.puzzle && this.extras ? null : card(info.puzzle ? 'Score' : 'Tally', this.tallyEl),
      card('Saved games', this.#saveForm(), this.savedEl),
      this.variantForm ? card('Variant', this.variantForm) : null,
    );

    fill(this.main, h('div.game-page',
      h('section.board-area',
        h('header.board-head',
          h('div',
            h('h1', info.title),
            h('p.summary', plain(info.summary))),
          this.variantEl),
        this.statusEl,
        this.watchBar,
        this.reviewer.bar,
        this.boardWrap,
        this.freeMoves,
        this.actionsEl,
        this.statusChips,
        this.legendEl,
        this.keyHelp,
        this.announce),
      panel));
  }

  #keyHelpText() {
    const base = 'Keys: arrows move the cursor, Enter or Space selects, Esc cancels, Ctrl+Z / Ctrl+Y undo and redo, N new game, H hint.';
    if (this.name === 'northcott') {
      return 'Left click moves O, right click moves X; hold Ctrl or Shift to set up without a reply; Esc restores the start. Keys: arrows, Enter moves O, X moves X.';
    }
    return base;
  }

  /// Watching the computer play itself: pause, one ply, speed.
  #watchControls() {
    this.watchPaused = false;
    this.watchSpeed = 'normal';
    this.pauseBtn = h('button.btn.btn-small', { type: 'button', 'aria-pressed': 'false', onclick: () => this.#setPaused(!this.watchPaused) }, 'Pause');
    this.stepBtn = h('button.btn.btn-small', { type: 'button', onclick: () => this.#stepOnce() }, 'One move');
    const speed = h('select', { 'aria-label': 'Watching speed' },
      ...Object.keys(WATCH_SPEEDS).map((k) => h('option', { value: k, selected: k === 'normal' }, k)));
    speed.addEventListener('change', () => {
      this.watchSpeed = speed.value;
      this.#maybeWatch();
    });
    return h('div.watch-bar', { hidden: true, role: 'group', 'aria-label': 'Watching the computer' },
      h('span.watch-title', 'Watching the computer'), this.pauseBtn, this.stepBtn, h('label.watch-speed', h('span', 'Speed'), speed));
  }

  #setPaused(paused) {
    this.watchPaused = paused;
    this.pauseBtn.textContent = paused ? 'Play' : 'Pause';
    this.pauseBtn.setAttribute('aria-pressed', String(paused));
    this.#maybeWatch();
  }

  async #stepOnce() {
    if (this.busy || !this.mv || this.mv.outcome || this.mv.human_to_move) return;
    this.busy = true;
    try {
      const data = await API.action(this.id, 'step');
      if (this.alive) this.apply(data.view, { animate: true, played: data.played || [], mineCount: 0 });
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
    }
    this.#maybeWatch();
  }

  /// A form built from the game's variant options, checked by the server before
  /// a game of it starts (its error is shown here).
  #variantChooser() {
    const fields = new Map();
    const err = h('p.form-error', { role: 'alert', hidden: true });
    const rows = this.info.options.map((o) => {
      const input = h('input.text', { type: 'text', name: o.name, placeholder: String(o.default), 'aria-describedby': `opt-help-${o.name}` });
      fields.set(o.name, input);
      return h('label.field.option-field',
        h('span', cap(o.name.replace(/_/g, ' '))),
        input,
        h('small.muted', { id: `opt-help-${o.name}` }, plain(o.help)));
    });
    const form = h('form.variant-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const pairs = [];
        for (const o of this.info.options) {
          const v = fields.get(o.name).value.trim();
          if (v && v !== String(o.default)) pairs.push(`${o.name}=${v}`);
        }
        const variant = pairs.join(',');
        err.hidden = true;
        try {
          const info = await API.gameInfo(this.name, variant || undefined);
          this.navigate(`/game/${this.name}${info.variant ? `?variant=${encodeURIComponent(info.variant)}` : ''}`);
        } catch (ex) {
          err.textContent = ex.message;
          err.hidden = false;
        }
      },
    }, ...rows, err, h('div.actions', h('button.btn', { type: 'submit' }, 'Play this variant'),
      h('button.btn.btn-quiet', { type: 'button', onclick: () => this.navigate(`/game/${this.name}?variant=`) }, 'The usual game')));
    form.sync = () => {
      const now = new Map(parseVariant(this.info.variant));
      for (const o of this.info.options) fields.get(o.name).value = now.get(o.name) ?? String(o.default);
    };
    return form;
  }

  async #share() {
    const link = this.shareLink();
    try {
      await navigator.clipboard.writeText(link);
      toast('A link to this game was copied.', 'success', 2500);
    } catch {
      toast(`Link to this game: ${link}`, 'info', 10000);
    }
  }

  #coloursEditor() {
    const rows = this.info.seats.map((seat, i) => {
      const input = h('input', { type: 'color', value: this.settings.colours[i] || '#888888', 'aria-label': `Colour of ${seat}` });
      input.addEventListener('input', () => {
        this.settings.colours[i] = input.value;
        this.board.recolour();
        this.#renderLegend();
      });
      input.addEventListener('change', () => this.#persist());
      return h('label.colour-row', input, h('span', seat));
    });
    const legendToggle = h('input', { type: 'checkbox', checked: this.settings.legend !== false });
    legendToggle.addEventListener('change', () => {
      this.settings.legend = legendToggle.checked;
      this.#renderLegend();
      this.#persist();
    });
    const reset = h('button.btn.btn-small.btn-quiet', {
      type: 'button',
      onclick: () => {
        this.settings.colours = seatDefaults(this.info.seats);
        rows.forEach((r, i) => (r.querySelector('input').value = this.settings.colours[i]));
        this.board.recolour();
        this.#renderLegend();
        this.#persist();
      },
    }, 'Default colours');
    const depths = [['', 'all of them'], ['1', '1'], ['2', '2'], ['5', '5'], ['10', '10'], ['0', 'none']];
    const undo = h('select', { 'aria-label': 'Moves you can take back' },
      ...depths.map(([v, t]) => h('option', { value: v, selected: String(this.settings.undo_depth ?? '') === v }, t)));
    undo.addEventListener('change', () => {
      this.settings.undo_depth = undo.value === '' ? null : Number(undo.value);
      this.#persist();
      toast('The new limit applies from the next game.', 'info', 2500);
    });
    return h('div.colours', ...rows, h('label.toggle', legendToggle, h('span', 'Show the colour legend')), reset,
      h('label.field', h('span', 'Moves you can take back'), undo));
  }

  #saveForm() {
    const input = h('input.text', { type: 'text', placeholder: 'Name (optional)', maxlength: 60, 'aria-label': 'Name of the saved game' });
    const form = h('form.save-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const r = await guarded(() => API.save(this.id, input.value.trim() || undefined));
        if (r) {
          input.value = '';
          toast('Game saved.', 'success', 2500);
          this.#refreshSaved();
        }
      },
    }, input, h('button.btn', { type: 'submit' }, 'Save'));
    return form;
  }

  async #persist() {
    try {
      await saveSettings(this.name, this.info.seats, this.settings);
    } catch (e) {
      toast(`Settings could not be saved: ${e.message}`);
    }
  }

  // ----- showing a view -----

  /// Shows a MatchView. `animate`: slide the pieces that moved; `mine`: the cells of
  /// the move the user just made (the rest of the changes are the computer's reply).
  apply(mv, { animate = true, mine = [], played = null, mineCount = 1 } = {}) {
    const previous = this.mv;
    this.played = played;
    this.mv = mv;
    this.selection = [];
    this.hintData = null;
    this.hintBtn.setAttribute('aria-pressed', 'false');
    fill(this.hintList);
    this.#hideChooser();
    const motion = animate && !reducedMotion();
    this.board.update(mv.view, { animate: motion });
    // The last move: the cells of the computer's (or chance's) replies as the server
    // lists them; the user's own move is not the computer's reply.
    this.recent = played ? [...new Set(played.slice(mineCount).flatMap((p) => p.cells || []))] : [];
    this.mine = played ? mine : [];
    this.#highlight();
    this.#renderStatus();
    this.#renderPlayers();
    this.#renderLog();
    this.#renderTally();
    this.#renderLegend();
    this.#renderFreeMoves();
    // Seat colours mean nothing on a puzzle without pieces (SameGame, Poggle).
    this.coloursCard.querySelectorAll('.colour-row').forEach((r) => (r.hidden = !!this.info.puzzle && !(mv.view.pieces || []).length));
    this.undoBtn.disabled = !mv.can_undo;
    this.redoBtn.disabled = !mv.can_redo;
    this.resignBtn.hidden = !!this.info.puzzle;
    this.resignBtn.disabled = !mv.human_to_move || !!mv.outcome;
    this.hintBtn.disabled = !!mv.outcome;
    this.hintCard.hidden = true;
    this.watchBar.hidden = !this.#watching();
    if (this.cursor !== null && !this.board.cellData(this.cursor)) this.cursor = null;
    if (this.board.svg.matches(':focus-visible') && this.cursor !== null) this.board.setCursor(this.cursor);
    this.extras?.onView?.(mv, previous);
    if (this.reviewer.active) this.reviewer.leave();
    if (!previous || previous.log?.length !== mv.log?.length || previous.position !== mv.position) this.reviewer.refreshValues();
    if (previous && previous.tally?.games !== mv.tally?.games) this.#refreshTallies();
    // A puzzle finished by you: a short celebration.
    if (this.info.puzzle && mv.outcome && previous && !previous.outcome && previous.log?.length < mv.log?.length && mv.seats[0]?.player === 'human') {
      this.boardWrap.classList.remove('celebrate');
      void this.boardWrap.offsetWidth;
      this.boardWrap.classList.add('celebrate');
      toast(mv.outcome.kind === 'win' ? 'Solved! Well done.' : `Finished: ${mv.result || 'no more moves'}.`, 'success', 4000);
    }
    this.#maybeWatch();
  }

  #seatName(seat) {
    return this.info.seats[seat] ?? `Player ${seat + 1}`;
  }

  #renderStatus() {
    const mv = this.mv;
    let text;
    let cls = '';
    if (mv.outcome) {
      text = mv.result || 'Game over';
      const o = mv.outcome;
      if (o.kind === 'win') {
        const human = this.#isHuman(o.seat);
        const anyHuman = mv.seats.some((s) => s.player === 'human');
        cls = this.info.puzzle ? 'won' : human && anyHuman && mv.seats.filter((s) => s.player === 'human').length === 1 ? 'won' : anyHuman && !human ? 'lost' : 'over';
      } else cls = 'over';
      if (mv.score !== null && mv.score !== undefined && this.info.puzzle) text += ` — score ${formatNumber(mv.score)}`;
    } else if (mv.human_to_move) {
      const seat = mv.to_move;
      const humans = mv.seats.filter((s) => s.player === 'human').length;
      text = this.info.puzzle ? 'Your move' : humans > 1 ? `${this.#seatName(seat)} to move` : `Your move — you play ${this.#seatName(seat)}`;
      cls = 'your-move';
    } else if (mv.turn?.kind === 'chance') {
      text = 'Rolling the die…';
    } else {
      text = `${this.#seatName(mv.to_move)} is thinking…`;
    }
    this.statusEl.className = `turn-line ${cls}`;
    fill(this.statusEl, 
      mv.to_move !== null && mv.to_move !== undefined && !mv.outcome && !this.info.puzzle
        ? h('span.swatch', { style: `background:${this.settings.colours[mv.to_move]}` }) : null,
      h('span', text));
    // Status lines the banner already says (whose turn, the result) are not repeated.
    const said = /to move|wins|draw|turn|solved|game over/i;
    fill(this.statusChips, ...(mv.view.status || []).filter((s) => !said.test(s)).map((s) => h('li', plain(s))));
  }

  #isHuman(seat) {
    return this.mv.seats[seat]?.player === 'human';
  }

  #renderLegend() {
    if (!this.mv) return;
    this.legendEl.hidden = this.settings.legend === false;
    const items = [];
    if (!this.info.puzzle) {
      this.mv.seats.forEach((s, i) => {
        const colour = this.settings.colours[i] || '#888';
        const who = s.player === 'human' ? 'you' : this.#playerWords(s.player);
        items.push(h('li', h('span.swatch.round', { style: `background:${colour};border-color:${shade(colour)}` }), h('span', `${s.name} — ${who}`)));
      });
    }
    const colours = [...new Set((this.mv.view.cells || []).map((c) => c.colour).filter((c) => c !== undefined && c !== null))].sort((a, b) => a - b);
    if (colours.length && colours.length <= 12) {
      for (const c of colours) items.push(h('li', h('span.swatch', { style: `background:${this.board.paletteColour(c)}` }), h('span', this.name === 'poggle' && c === 0 ? `${colourName(c)} (the goal)` : colourName(c))));
    }
    const marks = new Set((this.mv.view.cells || []).map((c) => c.mark).filter((m) => m && STYLED_MARKS[m]));
    for (const m of marks) items.push(h('li', h(`span.swatch.mark-swatch.mark-${m}`), h('span', STYLED_MARKS[m])));
    fill(this.legendEl, h('ul', ...items));
  }

  #playerWords(spec) {
    const kind = kindOf(spec);
    if (kind === 'level') {
      const n = Number(spec.split(':')[1]);
      const preset = PRESETS.find((p) => Math.abs(p.level - n) < EPSILON);
      return `computer, level ${n}${preset ? ` (${preset.name})` : ''}`;
    }
    if (kind === 'perfect') return 'computer, perfect';
    if (kind === 'matchbox') return 'matchbox machine';
    if (kind === 'menace') return 'MENACE';
    return `computer (${spec})`;
  }

  /// The move list: each move a button that shows the position after it (review).
  #renderLog() {
    const log = this.mv.log || [];
    this.logButtons = log.map((e, i) => h('button.log-move', {
      type: 'button', onclick: () => this.reviewer.show(i + 1), 'aria-label': `Show the position after move ${i + 1}: ${e.text || e.move}`,
    },
    e.seat === null || e.seat === undefined ? h('span.die-mark', { title: 'chance' }, '⚄')
      : this.info.puzzle ? h('span.log-num', String(e.ply)) : h('span.swatch.round', { style: `background:${this.settings.colours[e.seat]}` }),
    h('span.log-text', e.text || e.move),
    e.reason && !(e.text || '').includes(e.reason) ? h('span.reason', plain(e.reason)) : null,
    h('span.log-mark')));
    fill(this.logList, ...this.logButtons.map((b, i) => h('li', {
      class: [log[i].seat === null || log[i].seat === undefined ? 'chance' : `seat-${log[i].seat}`, i === log.length - 1 ? 'last' : ''].join(' '),
    }, b)));
    if (!log.length) this.logList.appendChild(h('li.empty-note', 'No moves yet.'));
    this.logList.scrollTop = this.logList.scrollHeight;
    this.renderLogMarks();
  }

  /// Marks in the move list: the move under review, and moves that threw away a win or a draw.
  renderLogMarks() {
    (this.logButtons || []).forEach((b, i) => {
      b.classList.toggle('reviewed', this.reviewer.ply === i + 1);
      const why = this.reviewer.mistake(i + 1);
      b.classList.toggle('mistake', !!why);
      const mark = b.querySelector('.log-mark');
      mark.textContent = why ? '?' : '';
      mark.title = why || '';
      if (why) mark.setAttribute('aria-label', why);
    });
  }

  /// Shows a new session (play from here).
  adoptAndShow(data) {
    this.#adopt(data);
    this.apply(data.view, { animate: false });
  }

  reduced() {
    return reducedMotion();
  }

  #renderTally() {
    const t = this.mv.tally || { wins: [], cat: 0, games: 0 };
    const rows = [];
    if (this.info.puzzle) {
      rows.push(h('div.tally-row', h('span', 'Score'), h('strong', formatNumber(this.mv.score ?? 0))));
    } else {
      this.mv.seats.forEach((s, i) => rows.push(h('div.tally-row',
        h('span', h('span.swatch.round', { style: `background:${this.settings.colours[i]}` }), `${s.name} (${s.player === 'human' ? 'you' : kindOf(s.player)})`),
        h('strong', String(t.wins?.[i] ?? 0)))));
      rows.push(h('div.tally-row', h('span', 'Cat (draws)'), h('strong', String(t.cat ?? 0))));
    }
    const overall = this.overallTallies;
    fill(this.tallyEl, 
      h('p.muted', this.info.puzzle ? 'This game' : `This match: ${t.games ?? 0} game${t.games === 1 ? '' : 's'} finished`),
      ...rows,
      overall && overall.length ? h('details.overall',
        h('summary', 'All matches of this game'),
        h('table.table',
          h('thead', h('tr', h('th', 'Players'), h('th', 'Wins'), h('th', 'Cat'), h('th', 'Games'))),
          h('tbody', ...overall.map((r) => h('tr',
            h('td', (r.players || []).join(' vs ')),
            h('td', (r.wins || []).join(' – ')),
            h('td', String(r.cat ?? 0)),
            h('td', String(r.games ?? 0))))))) : null);
  }

  async #refreshTallies() {
    try {
      const list = await API.tallies(this.name);
      this.overallTallies = Array.isArray(list) ? list : list?.tallies;
      if (this.mv) this.#renderTally();
    } catch {
      /* tallies are a nicety */
    }
  }

  async #refreshSaved() {
    let list;
    try {
      list = await API.savedList(this.name);
    } catch (e) {
      fill(this.savedEl, h('li.empty-note', `Saved games could not be listed: ${e.message}`));
      return;
    }
    if (!Array.isArray(list)) list = list?.saved || [];
    if (!list.length) {
      fill(this.savedEl, h('li.empty-note', 'No saved games yet.'));
      return;
    }
    fill(this.savedEl, ...list.map((s) => {
      const when = s.saved_at || s.created_at || s.when || s.updated_at;
      const date = when ? new Date(typeof when === 'number' && when < 1e12 ? when * 1000 : when) : null;
      const sub = [s.moves !== undefined ? `${s.moves} moves` : null, date && !isNaN(date) ? date.toLocaleString() : null].filter(Boolean).join(' · ');
      return h('li.saved',
        h('div.saved-text', h('strong', s.name || `Game ${s.id}`), sub ? h('span.muted', sub) : null),
        h('div.saved-actions',
          h('button.btn.btn-small', { type: 'button', onclick: () => this.#resume(s.id) }, 'Resume'),
          h('button.btn.btn-small.btn-quiet', {
            type: 'button',
            'aria-label': `Delete ${s.name || 'saved game'}`,
            onclick: async () => {
              if (await guarded(() => API.deleteSaved(s.id).then(() => true))) this.#refreshSaved();
            },
          }, 'Delete')));
    }));
  }

  async #resume(savedId) {
    const data = await guarded(() => API.resume(savedId));
    if (!data) return;
    this.#adopt(data);
    this.apply(data.view, { animate: false });
    toast('Saved game resumed.', 'success', 2500);
  }

  // ----- players and the AI level -----

  #renderPlayers() {
    if (this.info.puzzle || !this.playersEl) return;
    const mv = this.mv;
    const humans = mv.seats.map((s) => s.player === 'human');
    const humanSeat = humans.filter(Boolean).length === 1 ? humans.indexOf(true) : humans.every(Boolean) ? -1 : -2;
    const computerSeat = mv.seats.findIndex((s) => s.player !== 'human');
    const spec = computerSeat >= 0 ? mv.seats[computerSeat].player : this.#computerSpec();
    const kind = kindOf(spec);

    const seatSelect = h('select', { 'aria-label': 'Which side you play' },
      ...this.info.seats.map((name, i) => h('option', { value: String(i), selected: humanSeat === i }, name)),
      h('option', { value: '-1', selected: humanSeat === -1 }, 'Both sides (two people)'),
      h('option', { value: '-2', selected: humanSeat === -2 }, 'Neither (watch the computer)'));
    seatSelect.addEventListener('change', () => this.#setSeats(Number(seatSelect.value)));

    const kinds = (this.info.players || []).filter((p) => p.name !== 'human');
    const kindSelect = h('select', { 'aria-label': 'Computer player' },
      ...kinds.map((p) => h('option', { value: p.name, selected: p.name === kind || (kind === 'perfect' && p.name === 'level' && !kinds.some((k) => k.name === 'perfect')), title: plain(p.help) }, p.name === 'level' ? 'level (slider)' : p.name)));
    if (kinds.some((p) => p.name === 'level') && ['off', 'low', 'medium', 'high'].includes(kind)) kindSelect.value = 'level';
    kindSelect.addEventListener('change', () => {
      const k = kindSelect.value;
      const next = k === 'level' ? `level:${this.#levelOf(spec) ?? 66}` : k;
      this.setComputer(next);
    });
    const help = kinds.find((p) => p.name === kind)?.help;

    const parts = [
      h('label.field', h('span', 'You play'), seatSelect),
      kinds.length ? h('label.field', h('span', 'Computer'), kindSelect) : null,
    ];
    if (this.#kinds().includes('level')) parts.push(this.#levelControl(spec));
    if (help && !['level', 'perfect'].includes(kind)) parts.push(h('p.muted.small', plain(help)));
    fill(this.playersEl, ...parts);
  }

  #levelOf(spec) {
    const kind = kindOf(spec);
    if (kind === 'level') {
      const n = Number(spec.split(':')[1]);
      return Number.isFinite(n) ? n : null;
    }
    const preset = { off: 0, low: 25, medium: 66, high: 95 }[kind];
    return preset ?? null;
  }

  #levelControl(spec) {
    const kind = kindOf(spec);
    const perfect = kind === 'perfect';
    const level = this.#levelOf(spec);
    const canPerfect = this.#kinds().includes('perfect');
    const value = perfect ? 100 : level ?? 66;
    const out = h('output.level-value', perfect ? 'Perfect' : String(value));
    const slider = h('input.slider', { type: 'range', min: 0, max: 100, step: 1, value, 'aria-label': 'Computer level, 0 to 100' });
    slider.addEventListener('input', () => (out.textContent = slider.value));
    slider.addEventListener('change', () => this.setComputer(`level:${slider.value}`));
    const chosen = (p) => !perfect && level !== null && Math.abs(level - p.level) < EPSILON;
    const presets = h('div.presets', { role: 'group', 'aria-label': 'Level presets' },
      ...PRESETS.map((p) => h('button.chip', {
        type: 'button', 'aria-pressed': String(chosen(p)), title: `level ${p.level}`,
        onclick: () => this.setComputer(`level:${p.level}`),
      }, p.name)),
      canPerfect ? h('button.chip', { type: 'button', 'aria-pressed': String(perfect), title: 'never makes a mistake', onclick: () => this.setComputer('perfect') }, 'Perfect') : null);
    const active = kind === 'level' || perfect || level !== null;
    return h('div.level' + (active ? '' : '.inactive'),
      h('div.level-head', h('span', 'Level'), out),
      slider,
      h('div.scale', h('span', 'random'), h('span', 'strong')),
      presets);
  }

  async setComputer(spec) {
    this.settings.ai = spec;
    this.#persist();
    const seats = this.mv.seats.map((s, i) => (s.player === 'human' ? null : i)).filter((i) => i !== null);
    if (!seats.length) {
      this.#renderPlayers();
      return;
    }
    let data;
    for (const seat of seats) {
      data = await guarded(() => API.setPlayer(this.id, seat, spec));
      if (!data) break;
    }
    if (data) this.apply(data.view, { animate: true });
    else this.#renderPlayers();
  }

  async #setSeats(humanSeat) {
    this.settings.human_seat = humanSeat === -2 ? this.settings.human_seat : humanSeat;
    this.#persist();
    const computer = this.#computerSpec();
    const wanted = this.info.seats.map((_, i) => (humanSeat === -1 || i === humanSeat ? 'human' : computer));
    // Humans first, so the server never sees a table without the seat about to move settled.
    const order = wanted.map((p, i) => [p, i]).sort((a, b) => (a[0] === 'human' ? -1 : 1) - (b[0] === 'human' ? -1 : 1));
    let data;
    for (const [player, seat] of order) {
      if (this.mv.seats[seat]?.player === player) continue;
      data = await guarded(() => API.setPlayer(this.id, seat, player));
      if (!data) break;
    }
    if (data) this.apply(data.view, { animate: true });
    else this.#renderPlayers();
  }

  /// Computer-vs-computer (or a computer to move after a seat change): step with a pause.
  /// No seat is a person's: the page steps the game, one ply at a time.
  #watching() {
    return !!this.mv && !this.info.puzzle && this.mv.seats.every((s) => s.player !== 'human');
  }

  /// Computer against computer: one `step` per pause, unless paused. Nothing is
  /// stepped for a person's game (the server answers every move itself), after a
  /// set-up, or on a puzzle the computer is replaying.
  #maybeWatch() {
    clearTimeout(this.watchTimer);
    const mv = this.mv;
    if (!mv || mv.outcome || mv.human_to_move || !this.#watching() || this.watchPaused) return;
    this.watchTimer = setTimeout(async () => {
      if (!this.alive || this.busy || this.mv !== mv || this.watchPaused) return;
      this.busy = true;
      let data;
      try {
        data = await API.action(this.id, 'step');
      } catch (e) {
        toast(e.message);
      } finally {
        this.busy = false;
      }
      if (!data || !this.alive || this.mv !== mv) return;
      this.apply(data.view, { animate: true, played: data.played || [], mineCount: 0 });
    }, WATCH_SPEEDS[this.watchSpeed] ?? 650);
  }

  // ----- moves by click -----

  refreshHighlights() {
    this.#highlight();
  }

  /// Draws attention to some cells (a hint from a game panel).
  flashCells(ids) {
    this.recent = ids;
    this.#highlight();
  }

  #legal() {
    return this.mv?.human_to_move ? this.mv.legal_moves || [] : [];
  }

  #candidates(prefix) {
    return this.#legal().filter((m) => m.cells.length >= prefix.length && prefix.every((c, i) => m.cells[i] === c));
  }

  #starts() {
    return [...new Set(this.#legal().map((m) => m.cells[0]).filter((c) => c !== undefined))];
  }

  /// Cells where a move starts, unless that is every cell (Poggle), where it says nothing.
  #movableMarks() {
    const starts = this.#starts();
    return starts.length >= (this.mv?.view.cells || []).length ? [] : starts;
  }

  #highlight() {
    const prefix = this.selection;
    const targets = prefix.length
      ? [...new Set(this.#candidates(prefix).map((m) => m.cells[prefix.length]).filter((c) => c !== undefined))]
      : [];
    this.board.setHighlights({
      selected: prefix,
      targets,
      starts: this.#movableMarks(),
      group: this.group || [],
      recent: this.recent || [],
      mine: this.mine || [],
      badges: null,
      counts: this.extras?.overlayCounts?.() || null,
    });
    this.board.setMoveValues(this.#moveValues(), this.focusKey ?? null);
  }

  #click(id, e) {
    if (this.busy) return;
    if (this.reviewer.active) {
      toast('You are looking back at an earlier position: use Back to the game, or Play from here.', 'info', 3000);
      return;
    }
    this.#hideChooser();
    if (this.extras?.onCell?.(id, e)) return;
    if (this.name === 'northcott') {
      this.#northcott(id, e);
      return;
    }
    this.cursor = id;
    if (e?.detail === 0 || e?.keyboard) this.board.setCursor(id);
    const mv = this.mv;
    if (!mv) return;
    if (mv.outcome) {
      this.#say(`${mv.result || 'The game is over'}. Start a new game with N.`);
      return;
    }
    if (!mv.human_to_move) {
      this.#say('Wait a moment: it is not your turn.');
      return;
    }
    id = this.#groupStart(id);
    let prefix = [...this.selection, id];
    let cands = this.#candidates(prefix);
    if (!cands.length && this.selection.length) {
      if (this.selection.includes(id)) {
        this.selection = [];
        this.#highlight();
        this.#say('Selection cleared.');
        return;
      }
      prefix = [id];
      cands = this.#candidates(prefix);
    }
    if (!cands.length) {
      this.selection = [];
      this.#highlight();
      this.#nope(id);
      return;
    }
    // One move left and this click completes it: play. A piece with one move is
    // selected first, so a click never plays before you see where it goes.
    if (cands.length === 1 && cands[0].cells.length === prefix.length) {
      this.play(cands[0]);
      return;
    }
    const complete = cands.filter((m) => m.cells.length === prefix.length);
    if (complete.length === cands.length) {
      this.#choose(complete, id);
      return;
    }
    this.selection = prefix;
    this.#highlight();
    const n = new Set(cands.map((m) => m.cells[prefix.length])).size;
    this.#say(`Selected ${this.#cellName(id)}: ${n} place${n === 1 ? '' : 's'} to go, highlighted.`);
  }

  /// Cells sharing a group mark (`g12`: a SameGame group) act as one: a click on
  /// any of them means the cell the group's move is listed under.
  #groupStart(id) {
    const mark = this.board.cellData(id)?.mark;
    if (!mark || !/^g\d+$/.test(mark) || this.selection.length) return id;
    const starts = new Set(this.#starts());
    if (starts.has(id)) return id;
    const other = (this.mv.view.cells || []).find((c) => c.mark === mark && starts.has(c.id));
    return other ? other.id : id;
  }

  /// The legal move a click on `id` would play, if one cell decides it (SameGame replay).
  moveAt(id) {
    const legal = this.mv?.legal_moves || [];
    const mark = this.board.cellData(id)?.mark;
    const group = mark && /^g\d+$/.test(mark) ? new Set((this.mv.view.cells || []).filter((c) => c.mark === mark).map((c) => c.id)) : new Set([id]);
    const moves = legal.filter((m) => m.cells.length && group.has(m.cells[0]));
    return moves.length === 1 ? moves[0] : null;
  }

  /// A cell as a player would name it: its label, else its row and column on a grid.
  #cellName(id) {
    const c = this.board.cellData(id);
    if (c?.label) return /^\d+$/.test(c.label) ? `square ${c.label}` : c.label;
    const raw = (this.mv?.view.cells || []).find((x) => x.id === id);
    if (raw && raw.shape !== 'circle' && raw.w > 0 && raw.h > 0) return `row ${Math.round(raw.y / raw.h) + 1}, column ${Math.round(raw.x / raw.w) + 1}`;
    return `point ${id}`;
  }

  #nope(id) {
    const g = this.board.cells.get(id)?.g;
    if (g) {
      g.classList.remove('nope');
      void g.getBoundingClientRect();
      g.classList.add('nope');
      setTimeout(() => g.classList.remove('nope'), 500);
    }
    this.#say(`No move of yours starts at ${this.#cellName(id)}.`);
  }

  colouredBoard() {
    return (this.mv?.view.cells || []).some((c) => c.colour !== undefined && c.colour !== null);
  }

  #say(text) {
    this.announce.textContent = text;
  }

  /// Several moves touch exactly the same cells (two markers on one square): ask which.
  #choose(moves, id) {
    const c = this.board.cellData(id);
    fill(this.chooser, 
      h('p.chooser-title', 'Which move?'),
      ...moves.map((m) => h('button.btn.btn-small', { type: 'button', role: 'menuitem', onclick: () => { this.#hideChooser(); this.play(m); } }, m.move)),
      h('button.btn.btn-small.btn-quiet', { type: 'button', onclick: () => this.#hideChooser() }, 'Cancel'));
    this.chooser.hidden = false;
    if (c && this.board.box) {
      const left = ((c.x + c.w / 2 - this.board.box.x) / this.board.box.w) * 100;
      const top = ((c.y + c.h - this.board.box.y) / this.board.box.h) * 100;
      this.chooser.style.left = `${Math.min(80, Math.max(5, left))}%`;
      this.chooser.style.top = `${Math.min(85, top)}%`;
    }
    this.chooser.querySelector('button')?.focus();
  }

  #hideChooser() {
    if (this.chooser && !this.chooser.hidden) {
      const hadFocus = this.chooser.contains(document.activeElement);
      this.chooser.hidden = true;
      if (hadFocus) this.board.svg.focus();
    }
  }

  /// Moves no cell stands for (a pass): buttons under the board.
  #renderFreeMoves() {
    const free = this.#legal().filter((m) => !m.cells.length);
    fill(this.freeMoves, ...free.map((m) => h('button.btn', { type: 'button', onclick: () => this.play(m) }, m.move)));
    this.freeMoves.hidden = !free.length;
  }

  #hover(id) {
    if (this.extras?.onHover?.(id)) return;
    // Cells marked with a group id (SameGame) light up together.
    const mark = id === null ? null : this.board.cellData(id)?.mark;
    const next = mark && /^g\d+$/.test(mark)
      ? (this.mv?.view.cells || []).filter((c) => c.mark === mark).map((c) => c.id)
      : [];
    if (next.join() === (this.group || []).join()) return;
    this.group = next;
    this.#highlight();
    this.extras?.onGroup?.(next);
    if (next.length) this.#say(`A group of ${next.length}.`);
  }

  /// Plays a legal move (a MoveInfo) and animates the answer.
  async play(move, { setup = false } = {}) {
    if (this.busy) return;
    this.busy = true;
    this.board.svg.classList.add('busy');
    this.selection = [];
    this.#highlight();
    try {
      const data = await API.playMove(this.id, move.move, setup);
      if (!this.alive) return;
      if (!setup && (data.played || []).length > 1 && !reducedMotion()) {
        // Let the user see their own move land before the reply slides in.
        await sleep(180);
      }
      this.apply(data.view, { animate: true, mine: move.cells || [], played: data.played || [] });
      const replies = (data.played || []).slice(1).map((e) => e.text || e.move);
      if (replies.length) this.#say(`Reply: ${replies.join('; ')}`);
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
      this.board.svg.classList.remove('busy');
    }
  }

  async act(what) {
    if (this.busy || !this.id) return;
    if ((what === 'undo' && !this.mv?.can_undo) || (what === 'redo' && !this.mv?.can_redo)) return;
    this.busy = true;
    try {
      const data = await API.action(this.id, what);
      if (this.alive) this.apply(data.view, { animate: true });
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
    }
  }

  /// New game: a fresh random board where the game deals one (its `seed` option),
  /// the same players otherwise.
  async newGame() {
    if (!this.id || this.busy) return;
    if (!this.hasSeed) {
      await this.act('new');
      return;
    }
    const variant = withOption(this.info.variant, 'seed', Math.floor(Math.random() * 1e9));
    await this.#startVariant(variant);
  }

  /// Restart: the same board again from its start.
  async restart() {
    if (!this.id || this.busy) return;
    await this.#startVariant(this.info.variant);
  }

  async #startVariant(variant) {
    this.busy = true;
    try {
      const info = variant === this.info.variant ? this.info : await API.gameInfo(this.name, variant);
      const data = await this.#createSession({ variant: info.variant });
      if (!this.alive) return;
      this.info = info;
      this.#adopt(data);
      this.#renderVariant();
      this.apply(data.view, { animate: false });
      this.extras?.onStart?.();
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
    }
  }

  // ----- hints -----

  async toggleHint() {
    if (this.hintData) {
      this.hintData = null;
      this.hintBtn.setAttribute('aria-pressed', 'false');
      fill(this.hintList);
      this.hintCard.hidden = true;
      this.#highlight();
      return;
    }
    if (!this.id || !this.mv) return;
    this.hintBtn.disabled = true;
    const mv = this.mv;
    const t0 = performance.now();
    const data = await guarded(() => API.hint(this.id));
    this.hintBtn.disabled = !!this.mv?.outcome;
    if (!data || this.mv !== mv) return;
    this.hintData = data;
    this.hintBtn.setAttribute('aria-pressed', 'true');
    this.hintCard.hidden = false;
    this.#renderHint();
    this.#highlight();
    this.lastHintMs = performance.now() - t0;
    this.extras?.onHint?.(data);
  }

  /// Graded moves as the board draws them: an arrow (or a ring) per move, coloured
  /// by value and shaded by remoteness (a quick win or a slow loss is strongest).
  #moveValues() {
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

  #renderHint() {
    const d = this.hintData;
    const parts = [];
    const seat = this.#seatName(this.mv.to_move ?? 0);
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
            onclick: (e) => this.#why(m, pv, e.currentTarget),
            onmouseenter: () => this.#focusMove(m.move), onmouseleave: () => this.#focusMove(null),
            onfocus: () => this.#focusMove(m.move), onblur: () => this.#focusMove(null),
          }, h(`span.badge-inline.badge-${g.kind}`, g.text), h('span.hint-move-name', m.move), h('span.muted', g.words)),
          pv);
        return item;
      })));
    }
    const sentences = extraSentences(this.name, d.extra);
    const own = this.#ownHint(d);
    if (own) parts.push(own);
    if (sentences.length && !this.extras?.rendersExtra) parts.push(h('ul.hint-facts', ...sentences.map((t) => h('li', t))));
    if (!graded.length && !own && !sentences.length) parts.push(h('p.muted.small', 'No analysis is available for this position.'));
    fill(this.hintList, ...parts);
  }

  /// Games without exact grades: their own suggestion in words, and the cells lit.
  #ownHint(d) {
    const extra = d.extra || {};
    if (this.name === 'poggle' && extra.hint) {
      const move = (d.moves || []).find((m) => m.move === extra.hint);
      if (move) this.flashCells(move.cells);
      return h('p.hint-summary', `Press ${pressWords(extra.hint)} next (lit on the board).`);
    }
    if (this.name === 'auto120' && (extra.best_moves || []).length) {
      const best = extra.best_moves[0];
      const move = (d.moves || []).find((m) => m.move === best.move);
      if (move) this.flashCells(move.cells.slice(-1));
      return null;
    }
    if (this.name === 'samegame') {
      const p = h('p.hint-summary', 'Searching for a good next group…');
      this.#sameGameHint(p);
      return p;
    }
    return null;
  }

  /// SameGame: a short search from this board; its first group is lit, with the
  /// final score the search expects.
  async #sameGameHint(p) {
    const mv = this.mv;
    try {
      const result = await API.runJob({ kind: 'solve', game: this.name, variant: this.info.variant, position: mv.position, seconds: 1, seed: 1 });
      if (this.mv !== mv || !this.hintData) return;
      const first = (result.moves || [])[0];
      if (first === undefined) {
        p.textContent = 'No group can be removed.';
        return;
      }
      const width = Math.round(mv.view.width);
      const id = Array.isArray(first) ? first[0] * width + first[1] : null;
      const move = id !== null ? this.moveAt(id) : (mv.legal_moves || []).find((m) => m.move === first);
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

  #focusMove(key) {
    this.focusKey = key;
    this.board.setMoveValues(this.#moveValues(), key);
  }

  /// "Why": the line of best play after a graded move (the principal variation).
  async #why(m, pv, button) {
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

  // ----- keyboard -----

  #defaultCursor() {
    const starts = this.#starts();
    if (starts.length) return starts[0];
    const first = this.mv?.view.cells?.[0];
    return first ? first.id : null;
  }

  #moveCursorTo(id) {
    if (id === null || id === undefined) return;
    this.cursor = id;
    this.board.setCursor(id);
    const c = this.board.cellData(id);
    const piece = (this.mv?.view.pieces || []).filter((p) => p.cell === id);
    const what = piece.length ? piece.map((p) => `${p.owner !== undefined && p.owner !== null ? this.#seatName(p.owner) : ''} ${p.label || 'piece'}`.trim()).join(', ') : c?.colour !== undefined && c?.colour !== null ? `${colourName(c.colour)} ${this.info.puzzle && this.name === 'poggle' ? 'button' : 'block'}` : this.colouredBoard() ? 'no block' : 'empty';
    this.#say(`${this.#cellName(id)}: ${what}`);
    this.#hover(id);
  }

  #boardKey(e) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      if (this.cursor === null) {
        this.#moveCursorTo(this.#defaultCursor());
        return;
      }
      const next = this.board.neighbour(this.cursor, ...dirs[e.key]);
      if (next !== null) this.#moveCursorTo(next);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.cursor === null) this.#moveCursorTo(this.#defaultCursor());
      else this.#click(this.cursor, { keyboard: true, button: 0, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, type: 'key' });
      return;
    }
    if (this.name === 'northcott' && (e.key === 'x' || e.key === 'X') && this.cursor !== null) {
      e.preventDefault();
      this.#click(this.cursor, { keyboard: true, button: 2, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, type: 'key' });
    }
  }

  #globalKey(e) {
    const typing = e.target.closest?.('input, textarea, select, [contenteditable]');
    const ctrl = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (ctrl && key === 'z' && !e.shiftKey) {
      if (typing) return;
      e.preventDefault();
      this.act('undo');
    } else if (ctrl && (key === 'y' || (key === 'z' && e.shiftKey))) {
      if (typing) return;
      e.preventDefault();
      this.act('redo');
    } else if (ctrl && key === 'n') {
      e.preventDefault();
      this.newGame();
    } else if (e.key === 'Escape') {
      if (!this.chooser.hidden) this.#hideChooser();
      else if (this.name === 'northcott') this.#northcottRestore();
      else if (this.selection.length) {
        this.selection = [];
        this.#highlight();
        this.#say('Selection cleared.');
      }
    } else if (!ctrl && !e.altKey && !typing) {
      if (key === 'n') this.newGame();
      else if (key === 'h') this.toggleHint();
    }
  }

  // ----- Northcott (seed 002): left click O, right click X, Ctrl/Shift sets up -----

  #northcott(id, e) {
    const mv = this.mv;
    if (!mv) return;
    this.cursor = id;
    const seat = e.button === 2 ? 1 : 0;
    const setup = !!(e.ctrlKey || e.shiftKey || e.metaKey);
    const side = this.#seatName(seat);
    if (setup) {
      this.#northcottSetup(id, seat);
      return;
    }
    if (mv.outcome) {
      this.#say(`${mv.result || 'The game is over'}. Esc restores the start.`);
      toast(`${mv.result || 'The game is over'}. Press Esc to restore the start.`, 'info', 3000);
      return;
    }
    if (!this.#isHuman(seat)) {
      toast(`${side} is played by the computer: use the ${seat === 0 ? 'right' : 'left'} button for your own pieces, or hold Ctrl to set up.`, 'info', 3500);
      return;
    }
    if (mv.to_move !== seat || !mv.human_to_move) {
      toast(`It is ${this.#seatName(mv.to_move ?? 1 - seat)}'s turn.`, 'info', 3000);
      return;
    }
    const move = (mv.legal_moves || []).find((m) => m.cells[m.cells.length - 1] === id);
    if (!move) {
      this.#nope(id);
      return;
    }
    this.play(move);
  }

  /// Ctrl/Shift + click: the piece of that side jumps to the cell, no reply (seed 002's
  /// "correction"). The side to move's piece moves by a set-up move; the other side's
  /// by a new session from the edited position (the API's set-up moves follow the turn).
  async #northcottSetup(id, seat) {
    const mv = this.mv;
    const width = Math.round(mv.view.width);
    const rows = Math.round(mv.view.height);
    const row = Math.floor(id / width);
    const col = id % width;
    const at = { 0: [], 1: [] };
    for (const p of mv.view.pieces || []) at[p.owner][Math.floor(p.cell / width)] = p.cell % width;
    at[seat][row] = col;
    if (at[0][row] >= at[1][row]) {
      this.#nope(id);
      toast('O must stay left of X in its row.', 'info', 2500);
      return;
    }
    const text = [];
    for (let r = 0; r < rows; r++) {
      const o = at[0][r];
      const x = at[1][r];
      const gap = (n) => (n > 0 ? String(n) : '');
      text.push(`${gap(o)}O${gap(x - o - 1)}X${gap(width - x - 1)}`);
    }
    // A correction does not pass the turn (seed 002): whoever was to move still
    // is, so nothing replies and two set-ups of the same side follow each other.
    const humanSeat = mv.seats.findIndex((s) => s.player === 'human');
    const mover = mv.to_move !== null && mv.to_move !== undefined && (mv.human_to_move || humanSeat < 0)
      ? mv.to_move : humanSeat >= 0 ? humanSeat : (mv.position.trim().endsWith('X') ? 1 : 0);
    const position = `${text.join('/')} ${mover === 1 ? 'X' : 'O'}`;
    if (this.busy) return;
    this.busy = true;
    try {
      const data = await this.#createSession({ position, players: mv.seats.map((s) => s.player) });
      localStorage.setItem(`tabula.custom.${data.id}`, '1');
      this.#adopt(data);
      this.apply(data.view, { animate: true });
      this.#say(`Set up: ${this.#seatName(seat)} in row ${row + 1} moved to cell ${col + 1}.`);
    } catch (err) {
      toast(err.message);
    } finally {
      this.busy = false;
    }
  }

  /// Esc in Northcott: back to the start (a fresh session if this one began from a set-up).
  async #northcottRestore() {
    if (!localStorage.getItem(`tabula.custom.${this.id}`)) {
      await this.newGame();
      return;
    }
    const data = await guarded(() => this.#createSession({ players: this.mv.seats.map((s) => s.player) }));
    if (!data) return;
    this.#adopt(data);
    this.apply(data.view, { animate: true });
  }
}

/// A game's own analysis (`extra`) as a small table.
export function extraTable(extra) {
  if (extra === null || typeof extra !== 'object') return h('p.muted.small', String(extra));
  const rows = Object.entries(extra).map(([k, v]) => h('tr',
    h('th', k.replace(/_/g, ' ')),
    h('td', typeof v === 'object' ? JSON.stringify(v) : String(v))));
  return h('table.table.extra', h('tbody', ...rows));
}
