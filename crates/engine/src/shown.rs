//! The view of a position as every face receives it: the game's declared view
//! ([`Presentation::view_after`]) of the position with its history, and the
//! cells of the last move and the cells' names, filled in here for every game
//! that leaves them out.

use tabula_core::{History, LastMove, Presentation, Registered, Turn, View, ViewSeat};

/// How far back the last move that touched the board is looked for (dice rolls
/// and other plies without cells in between).
const LAST_MOVE_LOOKBACK: usize = 8;

/// The view of the last of `states`, reached from the first by `moves`
/// (`states.len() == moves.len() + 1`; otherwise the last state alone, as a start).
pub fn view_after<G: Registered>(game: &G, states: &[G::State], moves: &[G::Move]) -> View {
    let history = match (History::new(states, moves), states.last()) {
        (Some(h), _) => h,
        (None, Some(last)) => History::start(last),
        (None, None) => return View::default(),
    };
    let mut view = game.view_after(history);
    view.name_cells();
    if view.last_move.is_none() {
        view.last_move = last_move(game, history);
    }
    if view.seats.is_empty() {
        let seats = game.seats();
        let colours = game.presentation().completed(seats.len()).seat_colours;
        view.seats = seats
            .iter()
            .zip(colours)
            .map(|(name, colour)| ViewSeat {
                name: name.to_string(),
                colour,
            })
            .collect();
    }
    view
}

/// The last move (within [`LAST_MOVE_LOOKBACK`] plies) whose cells the game names,
/// and who played it.
fn last_move<G: Presentation>(game: &G, history: History<'_, G>) -> Option<LastMove> {
    history
        .recent()
        .take(LAST_MOVE_LOOKBACK)
        .find_map(|(before, mv)| {
            let cells = game.move_cells(before, mv);
            (!cells.is_empty()).then(|| LastMove {
                seat: match game.turn(before) {
                    Turn::Move(s) => Some(s),
                    _ => None,
                },
                cells,
            })
        })
}
