// Multiplication Ludo (Auto120): one click per decision. The die is rolled for
// the player and the roll fixes where a marker goes, so the only choice is which
// marker: a click (or tap) on one of your markers moves it at once. Markers
// sharing a square all go to the same square, so a click on the square moves the
// marker under the pointer, else the lowest-numbered one there: no "which move?"
// question for a choice that changes nothing. Hovering your markers outlines where
// the roll takes them.
//
// The game's own browser module: embedded in the game's crate, declared in its
// presentation and served at /games/auto120/module.js; the page (web/game.js)
// calls the hooks below with itself as `page`.

/// The page's line of key help.
export const keyHelp = 'Click or tap one of your markers to move it by the roll (markers on one square all go to the same place). Keys: arrows move the cursor, Enter moves a marker on that square, Ctrl+Z / Ctrl+Y undo and redo, N new game, H hint.';

/// The marker moves (`marker N`) of the player to move that start on cell `id`.
function markerMoves(page, id) {
  return (page.mv?.legal_moves || []).filter((m) => /^marker \d+$/.test(m.move) && m.cells[0] === id);
}

/// The number of the mover's marker nearest the pointer on this cell, if the
/// click has a position (a key press has none).
function markerUnderPointer(page, id, e) {
  const svg = page.board?.svg;
  if (!svg || !e || typeof e.clientX !== 'number' || (e.clientX === 0 && e.clientY === 0)) return null;
  const ctm = svg.getScreenCTM?.();
  if (!ctm) return null;
  const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  let best = null;
  for (const g of svg.querySelectorAll(`.piece[data-piece-cell="${id}"]:not(.leaving)`)) {
    if (Number(g.dataset.owner) !== page.mv.to_move) continue;
    const m = /translate\(([-\d.e]+)px,\s*([-\d.e]+)px\)/.exec(g.style.transform || '');
    if (!m) continue;
    const d = Math.hypot(Number(m[1]) - pt.x, Number(m[2]) - pt.y);
    if (!best || d < best.d) best = { d, label: g.textContent.trim() };
  }
  return best?.label ?? null;
}

/// A click on a cell holding markers of the player to move: moves one at once
/// (true). Anything else goes to the page's usual protocol (false).
export function click(page, id, e) {
  const mv = page.mv;
  if (!mv || mv.outcome || !mv.human_to_move || page.selection?.length) return false;
  const moves = markerMoves(page, id);
  if (!moves.length) return false;
  const label = markerUnderPointer(page, id, e);
  const move = moves.find((m) => m.move === `marker ${label}`)
    || [...moves].sort((a, b) => Number(a.move.split(' ')[1]) - Number(b.move.split(' ')[1]))[0];
  page.cursor = id;
  page.play(move);
  return true;
}

/// Where a marker would go, shown before the click: hovering a square holding
/// markers of the player to move outlines the square the roll takes them to (the
/// page's target outline). Returned as the module's card, with no element of its own.
export function panel(page) {
  let lit = null;
  const clear = () => {
    lit?.classList.remove('target');
    lit = null;
  };
  return {
    panel: null,
    onHover(id) {
      clear();
      const mv = page.mv;
      if (id === null || !mv?.human_to_move || mv.outcome || page.selection?.length) return false;
      const moves = markerMoves(page, id);
      if (!moves.length) return false;
      const cells = moves[0].cells;
      lit = page.board.cells.get(cells[cells.length - 1])?.g ?? null;
      lit?.classList.add('target');
      // The page's own hover (groups of cells) goes on.
      return false;
    },
    onView() {
      lit = null;
    },
  };
}
