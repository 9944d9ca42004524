// Northcott's game: the left button moves O, the right button X, Ctrl or Shift +
// click moves the other side's piece without a reply (a set-up move, kept in the
// move list and undone like any move).
//
// The game's own browser module: embedded in the game's crate, declared in its
// presentation and served by the server at /games/northcott/module.js; the page
// (web/game.js) imports it only for this game and calls the hooks below with
// itself as `page`.

import { toast, h } from '/static/ui.js';

/// Set-up by touch: a touch screen has no Ctrl, Shift or right button, so a
/// "Set up" button under the board turns taps into corrections (as Ctrl + click)
/// until it is pressed again. Returned as the module's card with no element of
/// its own; the button joins the game's buttons when the game starts.
export function panel(page) {
  const button = h('button.btn.setup-toggle', {
    type: 'button',
    'aria-pressed': 'false',
    title: 'Taps move pieces without a reply (a set-up), as Ctrl + click does',
    onclick: () => {
      page.setupMode = !page.setupMode;
      button.setAttribute('aria-pressed', String(page.setupMode));
      button.textContent = page.setupMode ? 'Setting up: tap to stop' : 'Set up';
      const words = page.setupMode
        ? 'Set-up: a tap moves a piece without a reply (between the pieces, the other side\'s piece). Undo takes each one back.'
        : 'Set-up finished: taps play moves again.';
      page._say(words);
      toast(words, 'info', 3500);
    },
  }, 'Set up');
  return {
    panel: null,
    onStart() {
      if (!button.isConnected && page.actionsEl) page.actionsEl.append(button);
    },
  };
}

/// The right button (and its key, X) moves X: the page passes context clicks on.
export const rightClick = true;

/// The page's line of key help.
export const keyHelp = 'Click a cell to move your piece in that row there (left button O, right button X when you play both); hold Ctrl or Shift to move the other side\'s piece without a reply (a set-up, undone like a move); Esc cancels a selection, or with none puts the pieces back for a new game (Undo brings the last one back). Keys: arrows, Enter moves O, X moves X.';

/// A key on the board: X acts as the right button at the cursor.
export function key(page, e) {
  if ((e.key === 'x' || e.key === 'X') && page.cursor !== null) {
    e.preventDefault();
    page._click(page.cursor, { keyboard: true, button: 2, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, type: 'key' });
    return true;
  }
  return false;
}

/// A click on a cell: always handled here (true).
export function click(page, id, e) {
  moveHere.call(page, id, e);
  return true;
}

function moveHere(id, e) {
  const mv = this.mv;
  if (!mv) return;
  this.cursor = id;
  // A cell left of O always takes O and a cell right of X always X, whatever the
  // button (the Northcott slides' `remark`: the nearest piece); between them the button decides.
  const width = Math.round(mv.view.width);
  const row = Math.floor(id / width);
  const col = id % width;
  const at = {};
  for (const p of mv.view.pieces || []) if (Math.floor(p.cell / width) === row) at[p.owner] = p.cell % width;
  const between = col >= at[0] && col <= at[1];
  const humans = [0, 1].filter((s) => this._isHuman(s));
  const setup = !!(e.ctrlKey || e.shiftKey || e.metaKey || this.setupMode);
  if (setup) {
    // A set-up is for the piece a plain click cannot move: between the pieces the
    // right button means X, and any other click the side the person does not play
    // (their own piece moves by a plain click; left of O it is O's set-up).
    const other = humans.length === 1 ? 1 - humans[0] : 0;
    const seat = col < at[0] ? 0 : col > at[1] ? 1 : e.button === 2 ? 1 : other;
    setUp.call(this, id, seat);
    return;
  }
  // A plain click or tap between the pieces moves the piece of the one side a
  // person plays: a touch screen has no right button for X.
  const buttonSeat = col < at[0] ? 0 : col > at[1] ? 1 : e.button === 2 ? 1 : 0;
  const seat = between && e.button !== 2 && humans.length === 1 ? humans[0] : buttonSeat;
  const side = this._seatName(seat);
  if (mv.outcome) {
    this._say(`${mv.result || 'The game is over'}. Undo takes moves back; N starts a new game.`);
    toast(`${mv.result || 'The game is over'}. Undo takes moves back, or start a new game.`, 'info', 3000);
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

/// Ctrl/Shift + click: the piece of `seat` in that row jumps to the cell, with no
/// reply and the same side to move (the Northcott slides' "correction"). It is a set-up move
/// of the session (`set X 2:5`): in the move list, undone and redone like any
/// move, and kept through a reload.
async function setUp(id, seat) {
  const mv = this.mv;
  if (mv.outcome) {
    toast(`${mv.result || 'The game is over'}: Undo takes moves back before you set up.`, 'info', 3000);
    return;
  }
  if (!mv.human_to_move) {
    this._say('Wait a moment: it is not your turn.');
    return;
  }
  const width = Math.round(mv.view.width);
  const row = Math.floor(id / width);
  const col = id % width;
  const letter = seat === 0 ? 'O' : 'X';
  const pieces = (mv.view.pieces || []).filter((p) => Math.floor(p.cell / width) === row);
  const o = pieces.find((p) => p.owner === 0)?.cell % width;
  const x = pieces.find((p) => p.owner === 1)?.cell % width;
  if ((seat === 0 && col >= x) || (seat === 1 && col <= o) || col === (seat === 0 ? o : x)) {
    this._nope(id);
    toast((seat === 0 && col === o) || (seat === 1 && col === x) ? `${letter} is already there.` : 'O must stay left of X in its row.', 'info', 2500);
    return;
  }
  // `set`: a set-up even of the mover's own piece (a bare `O 1:3` would be O's move).
  await this.play({ move: `set ${letter} ${row + 1}:${col + 1}`, cells: [id] }, { setup: true });
  if (this.mv !== mv) this._say(`Set up: ${this._seatName(seat)} in row ${row + 1} moved to cell ${col + 1}. Undo takes it back.`);
}
