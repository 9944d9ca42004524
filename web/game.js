// The page of one game: the board, the click and keyboard protocol, and the side panel.
//
// Everything here works from the game's GameInfo and MatchView alone: the extra
// panels a game declares (its presentation) live in extras.js, and a game's own
// browser code, if it declares any, is served from its crate and imported here.
// What the page shows of a position (the board, the status line, the facts
// beside it, the legend, every card) comes from the MatchView of the position
// shown: the game's latest, or an earlier one under review (`shownMv`).

import * as API from './api.js';
import { Board, targetKey } from './render.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill, keepWhole } from './ui.js';
import { loadSettings } from './settings.js';
import { extrasFor } from './extras.js';
import { Review } from './review.js';
import { HintMethods } from './hints.js';
import { PlayerMethods, PERSON } from './players.js';
import { PanelMethods } from './panels.js';
import { GameTextMethods } from './gametext.js';
import { presetOf, withOption, plain, colourName, cap, count, termsIn, useColourNames, saidWords, moverOf } from './words.js';
import { statusWords, factValue } from './results.js';

/// The smallest touch target on a touch screen, in CSS pixels (the usual guidance for fingers).
const MIN_TARGET = 44;

const sessionKey = (game) => `tabula.session.${game}`;
/// Marks a session that began from a position of its own (a shared link, or an
/// older Northcott set-up): its New game is the usual start, not that position.
const setStartKey = (id) => `tabula.set-start.${id}`;
const hasSetStart = (id) => !!id && !!(localStorage.getItem(setStartKey(id)) || localStorage.getItem(`tabula.custom.${id}`));
/// The game a session replaced when Esc put the pieces back (a game that declares
/// `presentation.escape: "starts_again"`): Undo at the new game's start goes back to it.
const beforeKey = (id) => `tabula.before.${id}`;

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
    this.confirming = null;
    this.onKey = (e) => this._globalKey(e);
  }

  destroy() {
    this.alive = false;
    document.removeEventListener('keydown', this.onKey);
    this.extras?.destroy?.();
    this.unplace?.();
    useColourNames(null);
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
    this.settings = await loadSettings(this.info);
    // A game's own browser code (its click protocol), declared in its presentation
    // and served from its crate: loaded only for the games that declare one.
    this.own = null;
    if (this.info.presentation?.module) {
      try {
        this.own = await import(`/games/${encodeURIComponent(this.name)}/module.js`);
      } catch (e) {
        toast(`Part of this game's page could not be loaded (${e.message}); plain clicks still play.`);
      }
    }
    if (!this.alive) return;
    this._layout();
    document.addEventListener('keydown', this.onKey);

    // A shared link names the variant (with its board number) and maybe a position:
    // it opens exactly that game, never a stored session of another variant.
    const askedVariant = params.has('variant');
    const position = params.get('position');
    // A short game ID: the variant's start and the moves played on it.
    const moves = params.get('moves');
    if (moves && !params.get('s')) {
      try {
        await this.startFrom({ variant: this.info.variant, position, moves: moves.split('~').filter(Boolean) });
        if (!this.alive) return;
        this._refreshSaved();
        this._refreshTallies();
        return;
      } catch (e) {
        toast(`The game in the address could not be opened (${e.message}); a new one was started.`, 'info');
      }
    }
    const wanted = position ? null : params.get('s') || localStorage.getItem(sessionKey(this.name));
    let data = null;
    if (wanted) {
      try {
        data = await API.getSession(wanted);
        if (data.view.game !== this.name) data = null;
        // A variant chosen by name ("The usual game", a preset) is that variant's
        // start, never the position a shared link once opened.
        else if (askedVariant && !params.get('s') && hasSetStart(data.id)) data = null;
        else if (data.view.variant !== this.info.variant) {
          if (askedVariant && !params.get('s')) data = null;
          else this.info = await API.gameInfo(this.name, data.view.variant || undefined);
        }
      } catch (e) {
        data = null;
        if (params.get('s')) toast(`The game in the address could not be found (${e.message}); a new one was started.`, 'info');
      }
    }
    if (!data) {
      data = await this._createFirst(position ? { position } : {});
      if (data && position) localStorage.setItem(setStartKey(data.id), '1');
    }
    if (!this.alive) return;
    if (!data) return;
    data = await this._reclaimPuzzle(data);
    if (!this.alive) return;
    this._renderVariant();
    this._adopt(data);
    this.apply(data.view, { animate: false });
    this._refreshSaved();
    this._refreshTallies();
    this.extras?.onStart?.();
  }

  async _createSession(extra = {}) {
    const body = {
      game: this.name,
      variant: this.info.variant,
      players: this._playersFor(),
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
      const plainBody = { game: this.name, variant: body.variant, seed: body.seed, position: body.position };
      if (extra.players) plainBody.players = extra.players;
      // Moves to replay stay: a move the server cannot play is refused again, in its words.
      if (body.moves) plainBody.moves = body.moves;
      const data = await API.createSession(plainBody);
      toast(`Your saved settings could not be used (${e.message}); the game started with the usual ones.`, 'info', 6000);
      return data;
    }
  }

  /// The first session of the page; if even that fails, the page says why and
  /// offers to start afresh (nothing else is clickable without a session).
  async _createFirst(extra) {
    try {
      return await this._createSession(extra);
    } catch (e) {
      fill(this.boardWrap, h('div.empty',
        h('p', `This game could not be started: ${e.message}`),
        h('button.btn', { type: 'button', onclick: () => location.assign(`/game/${this.name}`) }, 'Start the usual game')));
      for (const b of [this.undoBtn, this.redoBtn, this.hintBtn, this.newBtn, this.restartBtn, this.resignBtn]) b.disabled = true;
      toast(e.message);
      return null;
    }
  }

  /// A puzzle whose board the computer held when its page closed (a replay of its
  /// line cut short by a reload): nobody replays it now, so the board is the
  /// person's again rather than locked behind "the computer is playing".
  async _reclaimPuzzle(data) {
    if (!this.info.puzzle || data.view.seats[0]?.human || data.view.outcome) return data;
    try {
      const view = (await API.setPlayer(data.id, 0, PERSON)).view;
      return { ...data, view };
    } catch (e) {
      toast(`The board could not be given back to you: ${e.message}`);
      return data;
    }
  }

  /// The variant in words under the title, and in the address (a shareable link).
  _renderVariant() {
    const preset = presetOf(this.info);
    const usual = presetOf(this.info, '');
    // The server words the options that differ from the usual game (the terminal
    // shows the same words).
    const words = preset ? (preset === usual ? '' : preset.name) : this.info.variant_words || '';
    fill(this.variantEl, words ? h('span.variant', { title: 'Variant' }, words) : '');
    // The server words the summary for the variant ("a 4x4 board", "three in a row loses").
    if (this.summaryEl) this.summaryEl.textContent = plain(this.info.summary);
    if (this.variantForm) this.variantForm.sync();
  }

  _adopt(data) {
    this.id = data.id;
    this.review = null;
    localStorage.setItem(sessionKey(this.name), this.id);
    const url = new URL(location.href);
    url.searchParams.set('s', this.id);
    url.searchParams.delete('position');
    url.searchParams.delete('moves');
    if (data.view.variant) url.searchParams.set('variant', data.view.variant);
    else url.searchParams.delete('variant');
    if (url.pathname + url.search !== location.pathname + location.search) history.replaceState(null, '', url.pathname + url.search);
  }

  /// A link that opens exactly this game, its moves included (as the Game ID holds
  /// them), so whoever opens it can look back through the game: the variant (a
  /// dealt board by its board number, never the whole board), the start when the
  /// game began from a position of its own, and every move played on it.
  async shareLink() {
    const url = new URL(`/game/${this.name}`, location.href);
    const fromStart = hasSetStart(this.id);
    const variant = this.boardNumber && !fromStart ? this._dealtVariant() : this.info.variant;
    if (variant) url.searchParams.set('variant', variant);
    const moves = this.mv?.log?.length ? this._shortMoves() : [];
    if (fromStart) {
      // The position the game began from (the first of its review).
      let start = this.mv?.position;
      if (moves.length) {
        try {
          start = (await API.review(this.id, 0)).view.position;
        } catch {
          // The start cannot be read: the position now, without its moves.
          if (start) url.searchParams.set('position', start);
          return url.href;
        }
      }
      if (start) url.searchParams.set('position', start);
    }
    if (moves.length) url.searchParams.set('moves', moves.join('~'));
    return url.href;
  }

  /// A new session with these players (the server loads a trained machine's boxes).
  async restartWith(players) {
    const data = await guarded(() => this._createSession({ players }));
    if (!data) return;
    this._adopt(data);
    this.apply(data.view, { animate: false });
  }

  // ----- layout -----

  _layout() {
    const info = this.info;
    this.boardWrap = h('div.board-wrap');
    this.statusEl = h('p.turn-line', { 'aria-live': 'polite' });
    this.statusChips = h('ul.status-chips');
    this.legendEl = h('div.legend', { 'aria-label': 'Colour legend' });
    this.chooser = h('div.chooser', { hidden: true, role: 'menu' });
    this.freeMoves = h('div.free-moves');
    this.announce = h('p.visually-hidden', { 'aria-live': 'polite' });
    this.keyHelp = h('p.key-help', this._keyHelpText());
    // The game's own words on the page ("Retired", "scenario B") explained where they appear.
    this.glossaryEl = h('dl.glossary', { hidden: true, 'aria-label': 'Words used here' });
    this.logGlossary = h('dl.glossary', { hidden: true, 'aria-label': 'Words in the move list' });
    // On a phone the cards a player reads while playing (hint, dice, score) sit here,
    // under the board's buttons, instead of in the panel far below.
    this.nearCards = h('div.near-cards');
    this.boardNote = h('p.board-note', { hidden: true }, 'The board is wider than the screen: swipe it sideways to see all of it.');

    this.board = new Board(this.boardWrap, {
      interactive: true,
      onCell: (id, e) => this._click(id, e),
      onContext: this.own?.rightClick ? (id, e) => this._click(id, e) : null,
      onHover: (id) => this._hover(id),
      seatColour: (seat) => this.settings.colours[seat],
      cellWords: (id, view) => `${this._cellName(id, view)}: ${this._cellContents(id, view)}`,
      palette: () => this.chosenPalette()?.colours ?? null,
    });
    // Every drawing of the board (the game, review, a replay) goes through the
    // phone's orientation: see _oriented.
    const draw = this.board.update.bind(this.board);
    this.board.update = (view, options) => {
      this.drawnView = view;
      return draw(this._oriented(view), options);
    };
    this.boardWrap.classList.toggle('dark-palette', !!this.chosenPalette()?.dark_board);
    this.board.svg.setAttribute('aria-label', `${info.title} board`);
    this.board.svg.addEventListener('keydown', (e) => this._boardKey(e));
    this.board.svg.addEventListener('focus', () => {
      // The cursor is for keyboard users: a mouse click focuses the board too.
      if (!this.board.svg.matches(':focus-visible')) return;
      if (this.cursor === null) this._moveCursorTo(this._defaultCursor());
      else this.board.setCursor(this.cursor);
    });
    this.board.svg.addEventListener('blur', () => this.board.setCursor(null));
    this.boardWrap.appendChild(this.chooser);

    // Side panel.
    this.undoBtn = h('button.btn', { type: 'button', onclick: () => this.act('undo'), title: 'Undo (Ctrl+Z)' }, '↶ Undo');
    this.redoBtn = h('button.btn', { type: 'button', onclick: () => this.act('redo'), title: 'Redo (Ctrl+Y)' }, '↷ Redo');
    this.newBtn = h('button.btn', { type: 'button', onclick: () => this.newGame(), title: 'New game (Ctrl+N or N)' }, 'New game');
    // The option the game declares a board number: New game deals a fresh board, Restart the same one.
    this.boardNumber = info.presentation?.board_number || null;
    // Restart in every game: this game again from its start (the same dealt board,
    // the same shared position, the usual start).
    this.restartBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this.restart(), title: 'This game again from its start' }, 'Restart');
    this.shareBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this._share(), title: 'Copy a link to this game' }, 'Share');
    this.flipped = localStorage.getItem(`tabula.flip.${this.name}`) === 'on';
    this.flipBtn = h('button.btn.btn-quiet', { type: 'button', onclick: () => this.flip(), title: 'Flip the board (F)', 'aria-pressed': String(this.flipped) }, 'Flip board');
    this.watchBar = this._watchControls();
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
    this.extras = extrasFor(this);
    this.actionsEl = h('div.actions.board-actions', this.undoBtn, this.redoBtn, this.hintBtn, this.newBtn, this.restartBtn, this.resignBtn, this.shareBtn, this.flipBtn, this._valuesSwitch());
    this.variantForm = (info.options || []).length ? this._variantChooser() : null;
    const panel = h('aside.panel', { 'aria-label': 'Game panel' },
      (this.hintCard = h('section.card.card-hint', { hidden: true }, h('h2', 'Hint'), this.hintList)),
      // The move list beside the board (lichess's), right under the board on a phone.
      (this.movesCard = h('section.card.card-moves', h('h2', 'Moves'), this.logList, this.logGlossary)),
      info.puzzle ? null : card('Players', this.playersEl),
      this.extras?.panel ?? null,
      (this.coloursCard = card('Colours and undo', this._coloursEditor())),
      info.puzzle && this.extras ? null : card(info.puzzle ? 'Score' : 'Tally', this.tallyEl),
      card('Saved games', this._saveForm(), this.savedEl),
      card('Game ID and text', this._gameTextCard()),
      this.variantForm ? card('Variant', this.variantForm) : null,
      card('How to play', this._aboutCard()),
    );

    fill(this.main, h('div.game-page',
      h('section.board-area',
        h('header.board-head',
          h('div',
            h('h1', info.title),
            (this.summaryEl = h('p.summary', plain(info.summary)))),
          this.variantEl),
        this.statusEl,
        // The game's facts about the position (Pig's score, Nim's nim-sum) right under
        // the status line, in view with the board on any screen.
        this.statusChips,
        this.watchBar,
        this.reviewer.bar,
        this.boardNote,
        this.boardWrap,
        this.board.keyEl,
        this.freeMoves,
        this.actionsEl,
        // On a phone the cards read while playing come right under the board's
        // buttons: the whole board stays in view above them.
        this.nearCards,
        // The value history, under the board and as wide as it (lichess's chart).
        this.reviewer.chart,
        this.glossaryEl,
        this.legendEl,
        this.keyHelp,
        this.announce),
      panel));
    this.panelEl = panel;
    this._placeCards();
  }

  /// The cards read while playing (the hint, the declared dice and score cards):
  /// under the board's buttons on a narrow screen, where the panel comes after the board,
  /// and back in the panel on a wide one (beside the board).
  _placeCards() {
    const kinds = new Set(['dice', 'score']);
    const declared = this.info.presentation?.panels || [];
    const extras = this.extras?.list || [];
    const near = [this.hintCard];
    declared.forEach((p, i) => {
      if (kinds.has(p.kind) && extras[i]?.panel && extras.length >= declared.length) near.push(extras[i].panel);
    });
    near.push(this.movesCard);
    // Their places in the panel, so a wide screen puts each back where it was.
    const homes = near.map((c) => [c, c.nextSibling]);
    const narrow = window.matchMedia('(max-width: 960px)');
    const place = () => {
      if (narrow.matches) {
        for (const c of near) this.nearCards.appendChild(c);
      } else {
        for (const [c, next] of [...homes].reverse()) this.panelEl.insertBefore(c, next?.parentNode === this.panelEl ? next : this.panelEl.firstChild);
      }
      this._fitBoard();
    };
    place();
    narrow.addEventListener('change', place);
    // Once a frame at most while a window is being resized (a large board has
    // thousands of cells to measure).
    let pending = false;
    this.onResize = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        if (!this.alive) return;
        // Across a phone's width the board may turn (or turn back): draw it again.
        if (this.mv && !!this._turns(this.mv.view) !== !!this.turned) {
          this.board.update(this.drawnView || this.mv.view, { animate: false });
          this._highlight();
        }
        this._fitBoard();
      });
    };
    window.addEventListener('resize', this.onResize);
    this.unplace = () => {
      narrow.removeEventListener('change', place);
      window.removeEventListener('resize', this.onResize);
    };
  }

  /// Whether a board is drawn turned a quarter: on a phone (520 px or narrower), a
  /// board at least 2.5 times as wide as tall (Northcott's 16 by 4) runs down the
  /// screen instead, so its cells can be 44 px with all of it in view (its 16
  /// columns across would be 22 px, or need a sideways swipe).
  _turns(view) {
    if (!view?.cells?.length || view.turned || !window.matchMedia('(max-width: 520px)').matches) return false;
    const w = view.width || Math.max(...view.cells.map((c) => c.x + c.w));
    const hgt = view.height || Math.max(...view.cells.map((c) => c.y + c.h));
    return w >= 2.5 * hgt;
  }

  /// The view as drawn: turned a quarter where _turns says so (x and y swapped, a
  /// mirror image along the diagonal, so the first row becomes the left column).
  /// Clicks, moves and names go by cell id and the game's own coordinates, so
  /// nothing else changes.
  _oriented(view) {
    this.turned = this._turns(view);
    const turned = !this.turned ? view : {
      ...view,
      turned: true,
      width: view.height,
      height: view.width,
      cells: view.cells.map((c) => ({ ...c, x: c.y, y: c.x, w: c.h, h: c.w })),
    };
    return this.flipped && view.flippable !== false ? flipView(turned) : turned;
  }

  /// Whether the board shown can be flipped: its view says so (a board of
  /// buttons alone has no sides to see it from).
  _canFlip() {
    return this.mv?.view.flippable !== false;
  }

  /// Flip the board (lichess's): the board drawn turned half round, the far side
  /// near you; kept in this browser per game. Clicks go by cell, so nothing else
  /// changes.
  flip() {
    if (!this._canFlip()) return;
    this.flipped = !this.flipped;
    localStorage.setItem(`tabula.flip.${this.name}`, this.flipped ? 'on' : 'off');
    this.flipBtn.setAttribute('aria-pressed', String(this.flipped));
    if (!this.drawnView) return;
    this.board.update(this.drawnView, { animate: false });
    if (this.reviewer.active && this.reviewer.mv) {
      const [recent, mine] = this._lastMoveFrames(this.reviewer.mv);
      this.board.setHighlights({ recent, mine });
      this.board.setMoveValues(this.hintData ? this._moveValues() : []);
    } else this._highlight();
  }

  /// The keyboard shortcuts, on `?` (lichess's overlay): every key of the page and
  /// the game's own; Esc or Close shuts it.
  showShortcuts() {
    if (this.shortcutsEl?.open) return;
    const rows = [
      ['?', 'this list of keys'],
      ['Tab', 'reach the board'],
      ['arrow keys', 'on the board: move the cursor; elsewhere: step through the moves (Left back, Right forward)'],
      ['Enter or Space', 'on the board: act as a click'],
      ['Home / End', 'the start of the game / back to the game'],
      ['Esc', this._escapeStartsAgain()
        ? 'cancel a selection, a menu or a question; back to the game from a review; with nothing to cancel, the pieces back for a new game (Undo brings the last one back)'
        : 'cancel a selection, a menu or a question; back to the game from a review'],
      ['Ctrl+Z / Ctrl+Y', 'undo / redo'],
      ['N or Ctrl+N', 'new game (asks first in a game under way)'],
      ['H', 'hint'],
      this._canFlip() ? ['F', 'flip the board'] : null,
    ].filter(Boolean);
    const own = this.own?.keyHelp;
    const close = h('button.btn', { type: 'button', onclick: () => this.shortcutsEl.close() }, 'Close');
    this.shortcutsEl = h('dialog.shortcuts', { 'aria-label': 'Keyboard shortcuts' },
      h('h2', 'Keyboard shortcuts'),
      h('table.shortcut-table', h('tbody', ...rows.map(([k, what]) => h('tr', h('th', h('kbd', k)), h('td', what))))),
      own ? h('p.small', `In this game: ${own}`) : null,
      h('div.actions', close));
    this.shortcutsEl.addEventListener('close', () => this.shortcutsEl.remove());
    document.body.appendChild(this.shortcutsEl);
    this.shortcutsEl.showModal();
    close.focus();
  }

  /// Touch targets of at least 44 CSS pixels (the usual guidance for fingers): on
  /// a touch screen a board whose cells would be smaller is drawn at that size,
  /// taller where its width allows, else scrolling sideways inside its frame with
  /// a note saying so.
  _fitBoard() {
    const svg = this.board?.svg;
    const box = this.board?.box;
    if (!svg || !box || !this.mv) return;
    svg.style.minWidth = '';
    svg.style.maxHeight = '';
    svg.style.height = '';
    this.boardWrap.classList.remove('scrolls', 'small-cells');
    const drawn = this._smallestDrawn();
    if (!drawn) {
      this.boardNote.hidden = true;
      return;
    }
    // Corner numbers of small cells are drawn larger (style.css), to stay readable.
    this.boardWrap.classList.toggle('small-cells', drawn < 64);
    const touch = window.matchMedia('(pointer: coarse)').matches || window.matchMedia('(max-width: 520px)').matches;
    if (!touch || drawn >= MIN_TARGET) {
      this.boardNote.hidden = true;
      return;
    }
    // The drawing inside the element (the view box is fitted whole, centred).
    const rect = svg.getBoundingClientRect();
    const k = Math.min(rect.width / box.w, rect.height / box.h);
    const grow = MIN_TARGET / drawn;
    svg.style.maxHeight = 'none';
    if (box.w * k * grow <= rect.width + 0.5) {
      // Wide enough already (a board held down by its height, a turned one): taller.
      svg.style.height = `${Math.ceil(box.h * k * grow) + 1}px`;
      this.boardNote.hidden = true;
      return;
    }
    svg.style.minWidth = `${Math.ceil(rect.width * grow) + 1}px`;
    this.boardWrap.classList.add('scrolls');
    this.boardNote.hidden = this.boardWrap.scrollWidth <= this.boardWrap.clientWidth + 1;
  }

  /// On a board that scrolls sideways (a phone), brings the last of these cells
  /// (where the last move or the computer's reply landed) into view, if it is out of it.
  _showCells(ids) {
    const wrap = this.boardWrap;
    if (!ids?.length || !wrap.classList.contains('scrolls')) return;
    const r = this.board.cells.get(ids[ids.length - 1])?.g?.getBoundingClientRect();
    if (!r) return;
    const frame = wrap.getBoundingClientRect();
    const margin = 8;
    let shift = 0;
    if (r.right > frame.right - margin) shift = r.right - frame.right + margin;
    else if (r.left < frame.left + margin) shift = r.left - frame.left - margin;
    if (shift) wrap.scrollTo({ left: Math.max(0, wrap.scrollLeft + shift), behavior: reducedMotion() ? 'auto' : 'smooth' });
  }

  /// The narrower side of the board's smallest cell as drawn now, in CSS pixels
  /// (every cell, so the board keeps one size from turn to turn).
  _smallestDrawn() {
    let least = Infinity;
    for (const shape of this.boardWrap.querySelectorAll('[data-cell] .cell-shape')) {
      const r = shape.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) least = Math.min(least, r.width, r.height);
    }
    return Number.isFinite(least) ? least : null;
  }

  _keyHelpText() {
    const base = `Keys: arrows move the cursor, Enter or Space selects, Esc cancels, Ctrl+Z / Ctrl+Y undo and redo, N new game, H hint, ${this._canFlip() ? 'F flip, ' : ''}? every key.`;
    return this.own?.keyHelp || base;
  }

  // ----- showing a view -----

  /// Shows a MatchView. `animate`: slide the pieces that moved; `mine`: the cells of
  /// the move the user just made (the rest of the changes are the computer's reply).
  apply(mv, { animate = true, mine = [], played = null, mineCount = 1 } = {}) {
    const previous = this.mv;
    // A new state of the game ends any review: the game's position is shown.
    if (this.reviewer.active) this.reviewer.leave({ redraw: false });
    this.played = played;
    this.mv = mv;
    this.selection = [];
    this.hintData = null;
    this._hideConfirm();
    this.hintBtn.setAttribute('aria-pressed', 'false');
    fill(this.hintList);
    this._hideChooser();
    const motion = animate && !reducedMotion();
    this.board.update(mv.view, { animate: motion });
    // The colours the server's words name, named as the legend names them, on a board of colours.
    useColourNames(this.colouredBoard() ? (i) => colourName(i, this.chosenPalette()) : null);
    const v = previous?.view;
    if (!v || v.width !== mv.view.width || v.height !== mv.view.height || v.cells?.length !== mv.view.cells?.length) this._fitBoard();
    // The last move: the cells of the computer's (or chance's) replies as the server
    // lists them; the user's own move is not the computer's reply. A view shown
    // without a move just played (a reload, undo) frames its declared last move.
    // The plies played in answer to the person's move (the computer's whole turn,
    // the dice rolled in it), for the cards that show a turn.
    this.replies = played ? played.slice(mineCount) : [];
    if (played) {
      this.recent = [...new Set(played.slice(mineCount).flatMap((p) => p.cells || []))];
      this.mine = mine;
    } else {
      [this.recent, this.mine] = this._lastMoveFrames(mv);
    }
    this.hinted = [];
    this._highlight();
    this._showCells(this.recent.length ? this.recent : this.mine);
    this._renderStatus();
    this._renderPlayers();
    this._renderLog();
    this._renderTally();
    this._renderLegend();
    this._renderFreeMoves();
    // Seat colours mean nothing on a puzzle without pieces (SameGame, Poggle).
    this.coloursCard.querySelectorAll('.colour-row').forEach((r) => (r.hidden = !!this.info.puzzle && !(mv.view.pieces || []).length));
    this.undoBtn.disabled = !mv.can_undo && !this._gameBefore();
    this.redoBtn.disabled = !mv.can_redo;
    this.resignBtn.hidden = !!this.info.puzzle;
    this.flipBtn.hidden = !this._canFlip();
    this.keyHelp.textContent = this._keyHelpText();
    // The engine says who may resign: the person to move, or the winner of a
    // resigned game (every player resigning gives the Cat the game).
    this.resignBtn.disabled = !mv.can_resign;
    this.hintBtn.disabled = !!mv.outcome;
    this.hintCard.hidden = true;
    this.watchBar.hidden = !this._watching();
    if (this.cursor !== null && !this.board.cellData(this.cursor)) this.cursor = null;
    if (this.board.svg.matches(':focus-visible') && this.cursor !== null) this.board.setCursor(this.cursor);
    this.extras?.onView?.(mv, previous);
    if (!previous || previous.log?.length !== mv.log?.length || previous.position !== mv.position) this.reviewer.refreshValues();
    if (previous && previous.tally?.games !== mv.tally?.games) this._refreshTallies();
    // A puzzle finished by you: a short celebration.
    if (this.info.puzzle && mv.outcome && previous && !previous.outcome && previous.log?.length < mv.log?.length && mv.seats[0]?.human) {
      this.boardWrap.classList.remove('celebrate');
      void this.boardWrap.offsetWidth;
      this.boardWrap.classList.add('celebrate');
      toast(mv.outcome.kind === 'win' ? 'Solved! Well done.' : `Finished: ${mv.result || 'no more moves'}.`, 'success', 4000);
    }
    this._maybeWatch();
    this.showValues();
    this._renderGameText();
  }

  _seatName(seat) {
    return this.info.seats[seat] ?? `Player ${seat + 1}`;
  }

  /// The MatchView of the position shown: the one under review, else the game's.
  shownMv() {
    return this.reviewer?.active && this.reviewer.mv ? this.reviewer.mv : this.mv;
  }

  shownView() {
    return this.shownMv()?.view || {};
  }

  /// The frames of a view's declared last move: `[recent, mine]`, the move of a
  /// seat a person plays framed as theirs, any other as the computer's (or chance's).
  _lastMoveFrames(mv) {
    const last = mv?.view?.last_move;
    if (!last?.cells?.length) return [[], []];
    const human = last.seat !== null && last.seat !== undefined && mv.seats?.[last.seat]?.human;
    return human ? [[], last.cells] : [last.cells, []];
  }

  /// Shows the position under review, or the game's again (`reviewing` false):
  /// the board (drawn by the reviewer), and beside it the status line, the facts,
  /// the legend, the moves without cells and every card, all of that position.
  showPosition() {
    const mv = this.shownMv();
    const reviewing = mv !== this.mv;
    this._renderStatus();
    this._renderLegend();
    this._renderFreeMoves();
    // Hints analyse the position shown, a reviewed one too (lichess's analysis
    // board): an open hint follows the review to each position it steps to.
    this.hintBtn.disabled = !!mv.outcome;
    const hintOpen = !!this.hintData && !this.valuesOn;
    clearTimeout(this.hintAgain);
    this.hintData = null;
    this.hinted = [];
    this.hintBtn.setAttribute('aria-pressed', 'false');
    this.hintCard.hidden = true;
    fill(this.hintList);
    if (hintOpen && !mv.outcome) this.toggleHint();
    this.extras?.onView?.(mv, null, { review: reviewing ? this.reviewer.ply : null });
    // With "Show move values" on, the position shown (a reviewed one too) is graded.
    this.showValues();
  }

  /// The status line again (a card's search began or ended).
  refreshStatus() {
    if (this.mv) this._renderStatus();
  }

  /// The status line and the facts beside the board, of the position shown.
  _renderStatus() {
    const mv = this.shownMv();
    const reviewing = mv !== this.mv;
    const { text, kind: cls } = reviewing && !mv.outcome
      // An earlier position: whose move it was, never "Your move" or "thinking".
      ? { text: this.info.puzzle ? (typeof mv.score === 'number' ? `Score ${formatNumber(mv.score)}` : 'Not solved yet') : mv.turn?.kind === 'chance' ? 'A roll of the dice is due' : `${this._seatName(mv.to_move)} to move`, kind: '' }
      : !mv.outcome && this.extras?.statusText?.() ? { text: this.extras.statusText(), kind: '' }
        : statusWords(mv, { puzzle: !!this.info.puzzle, seatName: (i) => this._seatName(i), paused: this.watchPaused && this._watching() });
    this.statusEl.className = `turn-line ${cls}`;
    fill(this.statusEl, 
      mv.to_move !== null && mv.to_move !== undefined && !mv.outcome && !this.info.puzzle
        ? h('span.swatch', { style: `background:${this.settings.colours[mv.to_move]}` }) : null,
      h('span', text));
    // The game's facts about the position, as it declares them (never whose turn
    // it is or the result: the line above says those).
    const chips = (mv.view.facts || []).map((f) => `${f.label}: ${factValue(f.value)}`);
    fill(this.statusChips, ...chips.map((s) => h('li', s)));
    this._fillGlossary(this.glossaryEl, { facts: mv.view.facts || [] });
  }

  /// Explains the game's own words (its glossary) that the server marks as used
  /// in `used` (`{parts, facts}`, see `termsIn`).
  _fillGlossary(el, used) {
    const terms = termsIn(this.info, used);
    fill(el, ...terms.flatMap((t) => [h('dt', cap(t.term)), h('dd', plain(t.words))]));
    el.hidden = !terms.length;
  }

  /// A move named in the game's words (the legal move's declared `parts` or
  /// `words`), its notation where the server gave none.
  moveName(move) {
    return saidWords((this.shownMv()?.legal_moves || []).find((m) => m.move === move)) || move;
  }

  _isHuman(seat) {
    return this.mv.seats[seat]?.human;
  }

  /// The move list: each move a button that shows the position after it (review),
  /// numbered in rows as players write a game down ("1. … …  2. … …"): a row holds
  /// a turn of each seat, one column per seat (a puzzle: one move a row); a seat's
  /// several moves in a turn (a dice game's rolls) and chance's lines stay in its cell.
  _renderLog() {
    const log = this.mv.log || [];
    // Each move in the game's words; its notation (what a terminal player types) as the tooltip.
    const said = saidWords;
    const chance = (e) => e.seat === null || e.seat === undefined;
    this.logButtons = log.map((e, i) => h('button.log-move', {
      type: 'button', onclick: () => this.reviewer.show(i + 1), 'aria-label': `Show the position after move ${i + 1}: ${moverOf(e) ? `${moverOf(e)}: ` : ''}${said(e)}`, title: e.move,
      class: ['log-move', chance(e) ? 'chance' : `seat-${e.seat}`, i === log.length - 1 ? 'last' : ''].join(' '),
    },
    chance(e) ? h('span.die-mark', { title: 'chance' }, '⚄')
      : this.info.puzzle ? null : h('span.swatch.round', { style: `background:${this.settings.colours[e.seat]}` }),
    h('span.log-text', keepWhole(said(e))),
    e.reason && !said(e).includes(e.reason) ? h('span.reason', plain(e.reason)) : null,
    h('span.log-mark')));
    const columns = this.info.puzzle ? 1 : Math.max(1, this.info.seats.length);
    const rows = [];
    let column = -1;
    log.forEach((e, i) => {
      // A seat's move opens a new row when its column comes before the last one's
      // (one column: every move); chance stays with the seat it rolled for.
      const at = chance(e) ? Math.max(0, column) : Math.min(columns - 1, columns === 1 ? 0 : e.seat);
      if (!rows.length || (!chance(e) && (columns === 1 ? column >= 0 : at < column))) rows.push(Array.from({ length: columns }, () => []));
      rows.at(-1)[at].push(this.logButtons[i]);
      column = at;
    });
    // Moves named in long words (Northcott's "O advances to cell 2 in row 1 (gap 14 to
    // 13)") each take the row's width, one under another, rather than narrow columns.
    this.logList.classList.toggle('log-long', columns > 1 && log.some((e) => said(e).length > 18));
    fill(this.logList, ...rows.map((cells, r) => h('li.log-row', { style: `--log-cols: ${columns}` },
      h('span.log-num', { 'aria-hidden': 'true' }, `${r + 1}.`),
      ...cells.map((buttons) => h('div.log-cell', ...(buttons.length ? buttons : [h('span.log-gap', { 'aria-hidden': 'true' }, '…')]))))));
    if (!log.length) this.logList.appendChild(h('li.empty-note', 'No moves yet.'));
    this._fillGlossary(this.logGlossary, { parts: log.map((e) => e.parts || []) });
    this.logList.scrollTop = this.logList.scrollHeight;
    this.renderLogMarks();
  }

  /// Marks in the move list: the move under review, and moves that threw away a win or a draw.
  renderLogMarks() {
    (this.logButtons || []).forEach((b, i) => {
      b.classList.toggle('reviewed', this.reviewer.ply === i + 1);
      const why = this.reviewer.mistake(this.mv?.log?.[i]?.ply ?? i + 1);
      b.classList.toggle('mistake', !!why);
      // With "Show move values" on, each move coloured by its value for its mover.
      const value = this.valuesOn ? this.reviewer.moveValue(this.mv?.log?.[i]?.ply ?? i + 1, this.mv?.log?.[i]?.seat) : null;
      for (const k of ['win', 'draw', 'loss']) b.classList.toggle(`value-${k}`, value === k);
      const mark = b.querySelector('.log-mark');
      mark.textContent = why ? '?' : '';
      mark.title = why || '';
      if (why) mark.setAttribute('aria-label', why);
    });
  }

  /// Shows a new session (play from here): it keeps the start of the one it came from.
  adoptAndShow(data) {
    if (hasSetStart(this.id)) localStorage.setItem(setStartKey(data.id), '1');
    this._adopt(data);
    this.apply(data.view, { animate: false });
  }

  reduced() {
    return reducedMotion();
  }

  // ----- moves by click -----

  refreshHighlights() {
    this._highlight();
  }

  /// Draws attention to some cells (a hint from a game panel).
  flashCells(ids) {
    this.hinted = ids;
    // A reviewed position keeps its own frames (the move that led to it) under the hint's.
    this._drawHint();
  }

  _legal() {
    return this.mv?.human_to_move ? this.mv.legal_moves || [] : [];
  }

  _candidates(prefix) {
    return this._legal().filter((m) => m.cells.length >= prefix.length && prefix.every((c, i) => m.cells[i] === c));
  }

  _starts() {
    return [...new Set(this._legal().map((m) => m.cells[0]).filter((c) => c !== undefined))];
  }

  /// Cells where a move starts, unless that is every cell (Poggle), where it says nothing.
  _movableMarks() {
    const starts = this._starts();
    return starts.length >= (this.mv?.view.cells || []).length ? [] : starts;
  }

  _highlight() {
    const prefix = this.selection;
    const targets = prefix.length
      ? [...new Set(this._candidates(prefix).map((m) => m.cells[prefix.length]).filter((c) => c !== undefined))]
      : [];
    // Buttons on the board (Pig's roll and hold) that no move starts at now look,
    // and are said to be, unavailable.
    const starts = this._starts();
    this.board.svg.classList.toggle('has-starts', starts.length > 0);
    for (const [id, entry] of this.board.cells) {
      const off = starts.length > 0 && !starts.includes(id) && entry.data?.mark === 'button';
      if (off) entry.g.setAttribute('aria-disabled', 'true');
      else entry.g.removeAttribute('aria-disabled');
    }
    this.board.setHighlights({
      selected: prefix,
      targets,
      starts: this._movableMarks(),
      group: this.group || [],
      recent: this.recent || [],
      mine: this.mine || [],
      hint: this.hinted || [],
      badges: null,
      counts: this.extras?.overlayCounts?.() || null,
    });
    this.board.setMoveValues(this._moveValues(), this.focusKey ?? null);
    this._followSelection();
  }

  _click(id, e) {
    if (this.busy) return;
    if (this.reviewer.active) {
      toast('You are looking back at an earlier position: use Back to the game, or Play from here.', 'info', 3000);
      return;
    }
    this._hideChooser();
    if (this.extras?.onCell?.(id, e)) return;
    if (this.own?.click?.(this, id, e)) return;
    this.cursor = id;
    if (e?.detail === 0 || e?.keyboard) this.board.setCursor(id);
    const mv = this.mv;
    if (!mv) return;
    if (mv.outcome) {
      this._say(`${mv.result || 'The game is over'}. Start a new game with N.`);
      return;
    }
    if (!mv.human_to_move) {
      this._say('Wait a moment: it is not your turn.');
      return;
    }
    id = this._groupStart(id);
    let prefix = [...this.selection, id];
    let cands = this._candidates(prefix);
    if (!cands.length && this.selection.length) {
      if (this.selection.includes(id)) {
        this.selection = [];
        this._highlight();
        this._say('Selection cleared.');
        return;
      }
      prefix = [id];
      cands = this._candidates(prefix);
    }
    if (!cands.length) {
      this.selection = [];
      this._highlight();
      this._nope(id);
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
      this._choose(complete, id);
      return;
    }
    this.selection = prefix;
    this._highlight();
    const n = new Set(cands.map((m) => m.cells[prefix.length])).size;
    this._say(`Selected ${this._cellName(id)}: ${count(n, 'place')} to go, highlighted.`);
  }

  /// The cells acting as one with `id` (its declared click target: a group, a
  /// column), `id` alone for a cell that stands for itself.
  sameTarget(id, mv = this.mv) {
    const cells = mv?.view.cells || [];
    const key = targetKey(cells.find((c) => c.id === id));
    return key ? cells.filter((c) => targetKey(c) === key).map((c) => c.id) : [id];
  }

  /// A click on a cell of a group or a column means the cell its move is listed
  /// under (any cell of the target where a move starts).
  _groupStart(id) {
    if (this.selection.length) return id;
    const starts = new Set(this._starts());
    if (starts.has(id)) return id;
    return this.sameTarget(id).find((c) => starts.has(c)) ?? id;
  }

  /// The legal move a click on `id` would play, if one cell decides it (a puzzle's replay).
  moveAt(id, mv = this.mv) {
    const legal = mv?.legal_moves || [];
    const target = new Set(this.sameTarget(id, mv));
    const moves = legal.filter((m) => m.cells.length && target.has(m.cells[0]));
    return moves.length === 1 ? moves[0] : null;
  }

  /// A cell as a player names it: the name its view declares ("b3", "row 2,
  /// column 3", "heap 1, place 2"), never made up here from its label.
  _cellName(id, view = this.shownMv()?.view) {
    const raw = (view?.cells || []).find((x) => x.id === id);
    return raw?.name || `point ${id}`;
  }

  _nope(id) {
    const g = this.board.cells.get(id)?.g;
    if (g) {
      g.classList.remove('nope');
      void g.getBoundingClientRect();
      g.classList.add('nope');
      setTimeout(() => g.classList.remove('nope'), 500);
    }
    this._say(`No move of yours starts at ${this._cellName(id)}.`);
  }

  colouredBoard() {
    return (this.mv?.view.cells || []).some((c) => c.colour !== undefined && c.colour !== null);
  }

  _say(text) {
    this.announce.textContent = text;
  }

  /// Several moves touch exactly the same cells (two markers on one square): ask which.
  _choose(moves, id) {
    const c = this.board.cellData(id);
    fill(this.chooser, 
      h('p.chooser-title', 'Which move?'),
      ...moves.map((m) => h('button.btn.btn-small', { type: 'button', role: 'menuitem', onclick: () => { this._hideChooser(); this.play(m); } }, saidWords(m))),
      h('button.btn.btn-small.btn-quiet', { type: 'button', onclick: () => this._hideChooser() }, 'Cancel'));
    this.chooser.hidden = false;
    if (c && this.board.box) {
      const left = ((c.x + c.w / 2 - this.board.box.x) / this.board.box.w) * 100;
      const top = ((c.y + c.h - this.board.box.y) / this.board.box.h) * 100;
      this.chooser.style.left = `${Math.min(80, Math.max(5, left))}%`;
      this.chooser.style.top = `${Math.min(85, top)}%`;
    }
    this.chooser.querySelector('button')?.focus();
  }

  _hideChooser() {
    if (this.chooser && !this.chooser.hidden) {
      const hadFocus = this.chooser.contains(document.activeElement);
      this.chooser.hidden = true;
      if (hadFocus) this.board.svg.focus();
    }
  }

  /// Moves no cell stands for (a pass): buttons under the board (none under review).
  _renderFreeMoves() {
    const free = this.reviewer.active ? [] : this._legal().filter((m) => !m.cells.length);
    fill(this.freeMoves, ...free.map((m) => h('button.btn', { type: 'button', onclick: () => this.play(m) }, saidWords(m))));
    this.freeMoves.hidden = !free.length;
  }

  _hover(id) {
    if (this.extras?.onHover?.(id)) return;
    // The cells of a declared group or column light up together.
    const cell = id === null || this.reviewer.active ? null : (this.mv?.view.cells || []).find((c) => c.id === id);
    const kind = cell?.target?.kind;
    const next = kind === 'group' || kind === 'column' ? this.sameTarget(id) : [];
    if (next.join() === (this.group || []).join()) return;
    this.group = next;
    this._highlight();
    this.extras?.onGroup?.(kind === 'group' ? next : []);
    if (kind === 'group' && next.length) this._say(`A group of ${next.length}.`);
  }

  /// Plays a legal move (a MoveInfo) and animates the answer.
  async play(move, { setup = false } = {}) {
    if (this.busy) return;
    this.busy = true;
    this.board.svg.classList.add('busy');
    this.selection = [];
    this._highlight();
    try {
      const data = await API.playMove(this.id, move.move, setup);
      if (!this.alive) return;
      if (!setup && (data.played || []).length > 1 && !reducedMotion()) {
        // Let the user see their own move land before the reply slides in.
        await sleep(180);
      }
      this.apply(data.view, { animate: true, mine: move.cells || [], played: data.played || [] });
      const replies = (data.played || []).slice(1).map((e) => e.text || e.move);
      if (replies.length) this._say(`Reply: ${replies.join('; ')}`);
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
      this.board.svg.classList.remove('busy');
    }
  }

  async act(what) {
    // Undo or redo while the computer replays its line: the replay stops first
    // and the board is the person's again.
    if (this.extras?.replaying) await this.extras.interrupt();
    if (this.busy || !this.id) return;
    if (what === 'undo' && !this.mv?.can_undo && this._gameBefore()) {
      await this._backToGameBefore();
      return;
    }
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

  /// Esc with nothing to cancel, in a game whose own program put the pieces back
  /// with Esc: a new game from this one's start, in a
  /// session of its own, so the old game is kept whole; Undo at the new start
  /// goes back to it (and the move list and review of that game with it).
  async startAgain() {
    const mv = this.mv;
    if (!mv || !this.id || this.busy || !mv.log?.length) return;
    if (this.extras?.replaying) await this.extras.interrupt();
    const before = this.id;
    this.busy = true;
    let data;
    try {
      data = await API.playFrom(before, 0);
    } catch (e) {
      toast(e.message);
      return;
    } finally {
      this.busy = false;
    }
    if (!this.alive || this.id !== before) return;
    localStorage.setItem(beforeKey(data.id), before);
    this.adoptAndShow(data);
    const words = 'The pieces are back for a new game. Undo brings the last game back.';
    this._say(words);
    toast(words, 'info', 4000);
  }

  /// The session Esc replaced with this one, if any.
  _gameBefore() {
    return this.id ? localStorage.getItem(beforeKey(this.id)) : null;
  }

  /// Undo at the start of a game Esc began: the game before it, as it was left.
  async _backToGameBefore() {
    const before = this._gameBefore();
    const now = this.id;
    this.busy = true;
    try {
      const data = await API.getSession(before);
      if (!this.alive || this.id !== now) return;
      localStorage.removeItem(beforeKey(now));
      this.adoptAndShow(data);
      this._say('The last game is back.');
      toast('The last game is back.', 'info', 2500);
    } catch (e) {
      localStorage.removeItem(beforeKey(now));
      this.undoBtn.disabled = !this.mv?.can_undo;
      toast(`The last game could not be brought back (${e.message}).`);
    } finally {
      this.busy = false;
    }
  }

  /// New game: a fresh random board where the game deals one (the option it
  /// declares a board number), the same players otherwise.
  async newGame() {
    this._hideConfirm();
    if (this.extras?.replaying) await this.extras.interrupt();
    if (!this.id || this.busy) return;
    // A game opened from a shared position: the next game is the usual one
    // (the server's `new` would go back to that position).
    if (hasSetStart(this.id) && !this.boardNumber) {
      await this._startVariant(this.info.variant);
      return;
    }
    if (!this.boardNumber) {
      await this.act('new');
      return;
    }
    const variant = withOption(this.info.variant, this.boardNumber, Math.floor(Math.random() * 1e9));
    await this._startVariant(variant);
  }

  /// Restart: the same board again from its start.
  async restart() {
    if (this.extras?.replaying) await this.extras.interrupt();
    if (!this.id || this.busy) return;
    // A shared position, or a game whose start is always the same: the server's
    // `new` goes back to this game's start.
    if (hasSetStart(this.id) || !this.boardNumber) {
      await this.act('new');
      return;
    }
    // A dealt board: the variant that deals this very board again.
    await this._startVariant(this.mv?.dealt_variant || this.info.variant);
  }

  /// A new session of `variant`, from its usual start.
  async _startVariant(variant) {
    this.busy = true;
    try {
      const info = variant === this.info.variant ? this.info : await API.gameInfo(this.name, variant);
      const data = await this._createSession({ variant: info.variant });
      if (!this.alive) return;
      this.info = info;
      this._adopt(data);
      this._renderVariant();
      this.apply(data.view, { animate: false });
      this.extras?.onStart?.();
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
    }
  }

  // ----- keyboard -----

  _defaultCursor() {
    const starts = this._starts();
    if (starts.length) return starts[0];
    const first = this.mv?.view.cells?.[0];
    return first ? first.id : null;
  }

  _moveCursorTo(id) {
    if (id === null || id === undefined) return;
    this.cursor = id;
    this.board.setCursor(id);
    this._say(`${this._cellName(id)}: ${this._cellContents(id, this.mv?.view)}`);
    this._hover(id);
  }

  /// What is on a cell of `view`, in words: its pieces by owner ("X", "Player 1 3"),
  /// its colour ("yellow block"), else "empty".
  _cellContents(id, view) {
    const c = (view?.cells || []).find((x) => x.id === id);
    const pieces = (view?.pieces || []).filter((p) => p.cell === id);
    if (pieces.length) {
      return pieces.map((p) => {
        const owner = p.owner !== undefined && p.owner !== null ? this._seatName(p.owner) : '';
        return owner && (!p.label || p.label === owner) ? owner : `${owner} ${p.label || 'piece'}`.trim();
      }).join(', ');
    }
    if (c?.colour !== undefined && c?.colour !== null) return `${colourName(c.colour, this.chosenPalette())} ${this.info.presentation?.coloured_cell || 'block'}`;
    return (view?.cells || []).some((x) => x.colour !== undefined && x.colour !== null) ? 'no block' : 'empty';
  }

  _boardKey(e) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      if (this.cursor === null) {
        this._moveCursorTo(this._defaultCursor());
        return;
      }
      const next = this.board.neighbour(this.cursor, ...dirs[e.key]);
      if (next !== null) this._moveCursorTo(next);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.cursor === null) this._moveCursorTo(this._defaultCursor());
      else this._click(this.cursor, { keyboard: true, button: 0, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, type: 'key' });
      return;
    }
    this.own?.key?.(this, e);
  }

  _globalKey(e) {
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
      this._newByKey();
    } else if (e.key === 'Escape') {
      // Esc cancels, on every game page. With nothing to cancel, a game whose own
      // program put the pieces back with Esc (its presentation says so) starts
      // again; the old game is kept, a step of Undo away, so none is thrown away.
      if (this.confirming) this._hideConfirm({ refocus: true });
      else if (!this.chooser.hidden) this._hideChooser();
      else if (this.selection.length) {
        this.selection = [];
        this._highlight();
        this._say('Selection cleared.');
      } else if (this._escapeStartsAgain() && !typing && !e.defaultPrevented && !this.reviewer.active
        && !document.querySelector('dialog[open], [role=menu]:not([hidden])')) {
        e.preventDefault();
        this.startAgain();
      }
    } else if (!ctrl && !e.altKey && !typing) {
      if (key === 'n') this._newByKey();
      else if (key === 'h') this.toggleHint();
      else if (e.key === '?') {
        e.preventDefault();
        this.showShortcuts();
      } else if (key === 'f' && !e.target.closest?.('.board')) this.flip();
    }
  }

  /// True when the game declares that Esc with nothing to cancel starts it again.
  _escapeStartsAgain() {
    return this.info.presentation?.escape === 'starts_again';
  }

  /// N or Ctrl+N: a key pressed by mistake must not throw away a game in
  /// progress, so one with moves asks first (the button says what it does).
  _newByKey() {
    const mv = this.mv;
    if (!mv || !this.id) return;
    if (!mv.log?.length || mv.outcome) {
      this.newGame();
      return;
    }
    if (this.confirming) return;
    const n = mv.log.length;
    const keep = h('button.btn.btn-quiet', { type: 'button', onclick: () => this._hideConfirm({ refocus: true }) }, 'Keep playing');
    this.confirming = h('div.confirm-bar', { role: 'alertdialog', 'aria-label': 'Start a new game?' },
      h('p', `Start a new game? This one's ${count(n, 'move')} will be gone (Esc keeps playing).`),
      h('div.actions',
        h('button.btn', { type: 'button', onclick: () => this.newGame() }, 'Start a new game'),
        keep));
    this.confirmFocus = document.activeElement;
    this.actionsEl.before(this.confirming);
    keep.focus();
  }

  _hideConfirm({ refocus = false } = {}) {
    if (!this.confirming) return;
    const had = this.confirming.contains(document.activeElement);
    this.confirming.remove();
    this.confirming = null;
    if (refocus && had && this.confirmFocus?.isConnected) this.confirmFocus.focus();
  }
}

// The page's methods by concern, each in its own module.
for (const mixin of [HintMethods, PlayerMethods, PanelMethods, GameTextMethods]) {
  for (const key of Object.getOwnPropertyNames(mixin.prototype)) {
    if (key !== 'constructor') Object.defineProperty(GamePage.prototype, key, Object.getOwnPropertyDescriptor(mixin.prototype, key));
  }
}

/// A view turned half round (a point reflection through the board's middle).
function flipView(view) {
  const cells = view.cells || [];
  if (!cells.length) return view;
  const minX = Math.min(0, ...cells.map((c) => c.x));
  const minY = Math.min(0, ...cells.map((c) => c.y));
  const maxX = Math.max(view.width || 0, ...cells.map((c) => c.x + c.w));
  const maxY = Math.max(view.height || 0, ...cells.map((c) => c.y + c.h));
  return { ...view, cells: cells.map((c) => ({ ...c, x: minX + maxX - c.x - c.w, y: minY + maxY - c.y - c.h })) };
}
