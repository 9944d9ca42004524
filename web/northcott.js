// Northcott's game (seed 002): the left button moves O, the right button X, Ctrl or
// Shift + click corrects the position without a reply, Esc restores the start.
// Methods of the game page (mixed into GamePage).

import * as API from './api.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill } from './ui.js';
import { grade, extraSentences, plain, pressWords } from './words.js';

export class NorthcottMethods {
  // ----- Northcott (seed 002): left click O, right click X, Ctrl/Shift sets up -----

  _northcott(id, e) {
    const mv = this.mv;
    if (!mv) return;
    this.cursor = id;
    // A cell left of O always takes O and a cell right of X always X, whatever the
    // button (seed 002's `remark`: the nearest piece); between them the button decides.
    const width = Math.round(mv.view.width);
    const row = Math.floor(id / width);
    const col = id % width;
    const at = {};
    for (const p of mv.view.pieces || []) if (Math.floor(p.cell / width) === row) at[p.owner] = p.cell % width;
    const buttonSeat = col < at[0] ? 0 : col > at[1] ? 1 : e.button === 2 ? 1 : 0;
    const setup = !!(e.ctrlKey || e.shiftKey || e.metaKey);
    if (setup) {
      this._northcottSetup(id, buttonSeat);
      return;
    }
    // A plain click or tap between the pieces moves the piece of the one side a
    // person plays: a touch screen has no right button for X.
    const humans = [0, 1].filter((s) => this._isHuman(s));
    const between = col >= at[0] && col <= at[1];
    const seat = between && e.button !== 2 && humans.length === 1 ? humans[0] : buttonSeat;
    const side = this._seatName(seat);
    if (mv.outcome) {
      this._say(`${mv.result || 'The game is over'}. Esc restores the start.`);
      toast(`${mv.result || 'The game is over'}. Press Esc to restore the start.`, 'info', 3000);
      return;
    }
    if (!this._isHuman(seat)) {
      toast(`${side} is played by the computer: use the ${seat === 0 ? 'right' : 'left'} button for your own pieces, or hold Ctrl to set up.`, 'info', 3500);
      return;
    }
    if (mv.to_move !== seat || !mv.human_to_move) {
      toast(`It is ${this._seatName(mv.to_move ?? 1 - seat)}'s turn.`, 'info', 3000);
      return;
    }
    const move = (mv.legal_moves || []).find((m) => m.cells[m.cells.length - 1] === id);
    if (!move) {
      this._nope(id);
      return;
    }
    this.play(move);
  }

  /// Ctrl/Shift + click: the piece of that side jumps to the cell, no reply (seed 002's
  /// "correction"). The side to move's piece moves by a set-up move; the other side's
  /// by a new session from the edited position (the API's set-up moves follow the turn).
  async _northcottSetup(id, seat) {
    const mv = this.mv;
    const width = Math.round(mv.view.width);
    const rows = Math.round(mv.view.height);
    const row = Math.floor(id / width);
    const col = id % width;
    const at = { 0: [], 1: [] };
    for (const p of mv.view.pieces || []) at[p.owner][Math.floor(p.cell / width)] = p.cell % width;
    at[seat][row] = col;
    if (at[0][row] >= at[1][row]) {
      this._nope(id);
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
      const data = await this._createSession({ position, players: mv.seats.map((s) => s.player) });
      localStorage.setItem(`tabula.custom.${data.id}`, '1');
      this._adopt(data);
      this.apply(data.view, { animate: true });
      this._say(`Set up: ${this._seatName(seat)} in row ${row + 1} moved to cell ${col + 1}.`);
    } catch (err) {
      toast(err.message);
    } finally {
      this.busy = false;
    }
  }

  /// Esc in Northcott: back to the start (a fresh session if this one began from a set-up).
  async _northcottRestore() {
    if (!localStorage.getItem(`tabula.custom.${this.id}`)) {
      await this.newGame();
      return;
    }
    const data = await guarded(() => this._createSession({ players: this.mv.seats.map((s) => s.player) }));
    if (!data) return;
    this._adopt(data);
    this.apply(data.view, { animate: true });
  }
}
