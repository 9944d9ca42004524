// A game as text and as a short game ID (Simon Tatham's puzzles' "game ID",
// lichess's import and export): the card that shows this game's ID and record,
// opens a game from an ID someone gave you, and starts from a pasted record or
// position. Methods of the game page (mixed into GamePage); nothing here knows a
// game: moves and positions are the game's own notation, checked by the server.

import * as API from './api.js';
import { h, toast, fill } from './ui.js';
import { shortVariant, parseVariant, formatVariant } from './words.js';

/// Moves in an ID or a link are joined by this (no game's notation uses it).
const JOIN = '~';

/// A game ID read back: `VARIANT`, `VARIANT#MOVES` (moves joined by `~`) or
/// `VARIANT@POSITION`; a whole link of this site is read from its address.
export function readGameId(text) {
  const t = String(text || '').trim();
  if (/^https?:\/\//i.test(t)) {
    try {
      const url = new URL(t);
      const p = url.searchParams;
      return {
        game: url.pathname.split('/').filter(Boolean)[1] || null,
        variant: p.get('variant') || '',
        moves: p.get('moves') ? p.get('moves').split(JOIN) : [],
        position: p.get('position'),
      };
    } catch {
      return null;
    }
  }
  const at = t.indexOf('@');
  const hash = t.indexOf('#');
  if (at >= 0 && (hash < 0 || at < hash)) return { game: null, variant: t.slice(0, at).trim(), moves: [], position: t.slice(at + 1).trim() };
  if (hash >= 0) return { game: null, variant: t.slice(0, hash).trim(), moves: t.slice(hash + 1).split(JOIN).map((m) => m.trim()).filter(Boolean), position: null };
  return { game: null, variant: t, moves: [], position: null };
}

/// A record as text, read back: `Variant:`, `Start:` and the moves after
/// `Moves:` (one a line, "12. " numbers optional); text with none of those
/// lines is a position to start from.
export function readRecord(text) {
  const lines = String(text || '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const field = (name) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  const at = lines.findIndex((l) => /^moves:?$/i.test(l));
  if (at < 0 && field('start') === undefined && field('variant') === undefined) {
    return { variant: null, start: lines.join('\n') || null, moves: [] };
  }
  const variant = field('variant');
  const start = field('start');
  return {
    variant: variant === undefined || /^\(.*\)$/.test(variant) ? null : variant,
    start: !start || /^\(.*\)$/.test(start) ? null : start,
    moves: at < 0 ? [] : lines.slice(at + 1).map((l) => l.replace(/^\d+\.\s*/, '')).filter(Boolean),
  };
}

/// A dealt board's variant as a player names it: its board number as "Game 9"
/// (Simon Tatham's puzzles' word), the other options after it; the variant alone
/// when the game declares no board number or none is set.
export function variantInWords(info, variant) {
  const option = info.presentation?.board_number;
  const pairs = parseVariant(variant);
  const number = option ? pairs.find(([k]) => k === option)?.[1] : undefined;
  if (number === undefined || number === '') return variant;
  const rest = formatVariant(pairs.filter(([k]) => k !== option));
  return rest ? `Game ${number}; ${rest}` : `Game ${number}`;
}

/// A variant as entered: "Game 9" (with other options after a ";") read back as
/// the game's board number option; any other text is the variant itself.
export function variantFromWords(info, text) {
  const option = info.presentation?.board_number;
  const m = /^game\s+(\S+?)\s*(?:;\s*(.*))?$/i.exec(String(text || '').trim());
  if (!option || !m) return text;
  return formatVariant([...parseVariant(m[2] || ''), [option, m[1]]]);
}

export class GameTextMethods {
  /// The card: this game's ID (short: the variant with its board number and the
  /// moves played, never the whole board of a dealt game), a box to enter an ID,
  /// the game as text to copy, and a pasted record or position to start from.
  _gameTextCard() {
    this.gameIdEl = h('input.text.game-id', { type: 'text', readonly: true, 'aria-label': 'This game\'s ID', placeholder: 'the usual game, from its start', spellcheck: 'false' });
    const enter = h('input.text.enter-id', { type: 'text', 'aria-label': 'A game ID to open', placeholder: 'Paste a game ID or link', spellcheck: 'false', autocomplete: 'off' });
    const idForm = h('form.id-form', {
      onsubmit: (e) => {
        e.preventDefault();
        this.openGameId(enter.value);
      },
    }, enter, h('button.btn', { type: 'submit' }, 'Open'));
    this.recordEl = h('textarea.text.record-text', { rows: 6, readonly: true, 'aria-label': 'This game as text', spellcheck: 'false' });
    const copy = h('button.btn.btn-small', { type: 'button', onclick: () => this._copyRecord() }, 'Copy');
    const paste = h('textarea.text.import-text', { rows: 4, 'aria-label': 'A game or position to start from', placeholder: 'Paste a game as text, or a position', spellcheck: 'false' });
    this.importNote = h('p.small.import-note', { 'aria-live': 'polite' });
    const importForm = h('form.import-form', {
      onsubmit: (e) => {
        e.preventDefault();
        this.importText(paste.value);
      },
    }, paste, h('button.btn', { type: 'submit' }, 'Start from this'));
    return h('div.id-card',
      h('label.field', h('span', 'Game ID'), this.gameIdEl),
      h('p.small.muted', 'Anyone who enters this ID (or opens the Share link) gets this very game.'),
      h('label.field', h('span', 'Enter a game ID'), idForm),
      h('h3', 'The game as text'), this.recordEl, h('div.actions', copy),
      h('h3', 'Start from a game or a position'), importForm, this.importNote);
  }

  /// Moves played since the start of this game, in the game's notation: every
  /// ply, the chance moves the log folds into the next line (a roll) included,
  /// so that an ID replays the same dice.
  _movesPlayed() {
    return this.mv?.moves || (this.mv?.log || []).map((e) => e.move);
  }

  /// The same moves as a game ID and a link write them: each as short as the
  /// game's notation reads it back (`short_moves`: Auto120's "5" for "roll 5").
  _shortMoves() {
    const short = this.mv?.short_moves;
    return Array.isArray(short) && short.length === this._movesPlayed().length ? short : this._movesPlayed();
  }

  /// The variant that deals this very start: a dealt board's own.
  _dealtVariant() {
    return shortVariant(this.info, this.mv?.dealt_variant || this.info.variant || '');
  }

  /// This game's ID: its variant (with the board number of a dealt board) and
  /// the moves played; a game started from a position that is not the variant's
  /// own start names the position now instead.
  gameId() {
    const moves = this._shortMoves();
    if (this._fromSetStart() && this.mv?.position) return `${shortVariant(this.info, this.info.variant || '')}@${this.mv.position}`;
    const dealt = variantInWords(this.info, this._dealtVariant());
    return moves.length ? `${dealt}#${moves.join(JOIN)}` : dealt;
  }

  _fromSetStart() {
    return !!this.id && !!(localStorage.getItem(`tabula.set-start.${this.id}`) || localStorage.getItem(`tabula.custom.${this.id}`));
  }

  /// The card's ID and text, for the game now.
  async _renderGameText() {
    if (!this.gameIdEl || !this.mv) return;
    this.gameIdEl.value = this.gameId();
    const mv = this.mv;
    let start = null;
    if (this._fromSetStart() && mv.log?.length) {
      try {
        start = (await API.review(this.id, 0)).view.position;
      } catch {
        start = null;
      }
      if (this.mv !== mv) return;
    } else if (this._fromSetStart()) start = mv.position;
    const moves = this._movesPlayed();
    this.recordEl.value = [
      `Game: ${this.info.title}`,
      `Variant: ${variantInWords(this.info, this._dealtVariant()) || '(the usual game)'}`,
      `Start: ${start || '(the usual start)'}`,
      'Moves:',
      ...moves.map((m, i) => `${i + 1}. ${m}`),
    ].join('\n');
  }

  async _copyRecord() {
    try {
      await navigator.clipboard.writeText(this.recordEl.value);
      toast('The game was copied as text.', 'success', 2500);
    } catch {
      this.recordEl.select();
    }
  }

  /// Opens a game ID (or a link of this site): the game it names, from its
  /// start with its moves played (never a game of that board already under way
  /// here); a position's ID opens the page at that position.
  async openGameId(text) {
    const id = readGameId(text);
    if (!id || (id.game && id.game !== this.name)) {
      toast(id?.game ? `That is a game of ${id.game}: open it from the list of games.` : 'That is not a game ID.', 'error');
      return;
    }
    const variant = variantFromWords(this.info, id.variant);
    if (!id.position) {
      try {
        await this.startFrom({ variant: variant || '', moves: id.moves });
      } catch (e) {
        toast(`That game could not be opened: ${e.message}`, 'error');
      }
      return;
    }
    const url = new URL(`/game/${this.name}`, location.href);
    url.searchParams.set('variant', variant || '');
    url.searchParams.set('position', id.position);
    location.assign(url.href);
  }

  /// Starts from a pasted record (its variant, start and moves) or position.
  async importText(text) {
    const r = readRecord(text);
    fill(this.importNote);
    if (!r.start && !r.moves.length && r.variant === null) {
      fill(this.importNote, 'Paste a game as text (as shown above) or a position.');
      return;
    }
    try {
      const data = await this.startFrom({ variant: r.variant === null ? this._dealtVariant() : variantFromWords(this.info, r.variant), position: r.start, moves: r.moves });
      if (data) fill(this.importNote, `Started from it${r.moves.length ? `, ${r.moves.length} moves in` : ''}.`);
    } catch (e) {
      fill(this.importNote, h('span.tool-error', e.message));
    }
  }

  /// A new session of `variant` from `position` (or its start), with `moves`
  /// played on it as they were (set-up moves: nobody replies to them), then the
  /// computer's turn taken if it is to move. Throws the server's words.
  async startFrom({ variant = '', position = null, moves = [] }) {
    const info = variant === this.info.variant ? this.info : await API.gameInfo(this.name, variant);
    // The players of the game now (a pasted game is played on by the same people).
    const players = (this.mv?.seats || []).map((s) => s.player);
    // The server plays the moves on the start before any roll or computer's
    // turn is taken, so a game ID's rolls are replayed as they were; a move it
    // cannot play is named by its number ("Move 2 (5) cannot be played: …").
    let data = await this._createSession({ variant: info.variant, ...(players.length ? { players } : {}), ...(position ? { position } : {}), ...(moves.length ? { moves } : {}) });
    if (!data.view.outcome && !data.view.human_to_move && data.view.seats.some((s) => s.human)) {
      try {
        data = await API.action(data.id, 'step');
      } catch {
        // Left to the page's own stepping.
      }
    }
    if (!this.alive) return null;
    this.info = info;
    this._adopt(data);
    if (position) localStorage.setItem(`tabula.set-start.${data.id}`, '1');
    this._renderVariant();
    this.apply(data.view, { animate: false });
    this.extras?.onStart?.();
    return data;
  }
}
