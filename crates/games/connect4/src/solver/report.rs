//! `tabula solve` on the boards the exact solver answers: the value of the
//! position (the start unless one is given) and of each of its moves, from
//! the book where it reaches, else by search within the request's budget.

use super::board::SolverBoard;
use super::negamax::{remoteness, Limits, Solved, Solver};
use super::table::{FULL_ENTRIES, SMALL_ENTRIES};
use crate::ConnectFour;
use std::time::Instant;
use tabula_core::{
    FactValue, Game, Graded, Notation, PositionValue, Remoteness, Report, Section, SolveFigures,
    SolveReport, Table, Turn, Value,
};

/// A move's result in a player's words, for the mover.
fn move_words(g: Graded) -> String {
    let plies = |n: u32| {
        if n == 1 {
            "1 move".to_string()
        } else {
            format!("{n} moves")
        }
    };
    match g.value {
        Value::Win => format!(
            "wins in {} (counting both sides' moves)",
            plies(g.remoteness)
        ),
        Value::Loss => format!(
            "loses in {} (counting both sides' moves)",
            plies(g.remoteness)
        ),
        Value::Draw => "draws".to_string(),
    }
}

/// The report of `state` on `game`'s board, within `request`'s budget.
pub fn report(game: &ConnectFour, request: &Report) -> Result<SolveReport, String> {
    let state = match &request.position {
        Some(text) => game.parse_position(text).map_err(|e| e.to_string())?,
        None => game.initial_state(),
    };
    let Turn::Move(seat) = game.turn(&state) else {
        return Err("the game is already over in this position".into());
    };
    let started = Instant::now();
    let shape = game.shape();
    let entries = if game.geometry().cells() >= 30 {
        FULL_ENTRIES
    } else {
        SMALL_ENTRIES
    };
    let mut solver = Solver::new(shape, entries, game.book());
    let limits = Limits {
        deadline: request.budget.deadline,
        cancel: Some(request.budget.cancel_flag()),
    };
    let stopped = || "the solve was stopped before it finished".to_string();
    let cells = game.geometry().cells();
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    let mut rows = Vec::new();
    let mut best: Option<Graded> = None;
    for mv in moves {
        let mut child = state;
        game.play_unchecked(&mut child, mv);
        let grade = match game.turn(&child) {
            Turn::Over(tabula_core::Outcome::Win(_)) => Graded {
                value: Value::Win,
                remoteness: 1,
            },
            Turn::Over(_) => Graded {
                value: Value::Draw,
                remoteness: 0,
            },
            _ => {
                let b = SolverBoard::from_position(&child);
                match solver.solve(&b, limits.clone()) {
                    Solved::Exact(s) => remoteness(s, b.discs(), cells).as_move_grade(),
                    Solved::Bounds { .. } => return Err(stopped()),
                }
            }
        };
        if best.map_or(true, |b| grade.rank() > b.rank()) {
            best = Some(grade);
        }
        rows.push(vec![game.format_move(&state, mv), move_words(grade)]);
    }
    // The position's value is its best move's (a move's remoteness counts
    // from the position, and a draw's is 0).
    let value = best.ok_or("there is no move to make here")?;
    let side = game.seats()[seat];
    let position_value =
        PositionValue::solved(value.value, Remoteness::new(value.remoteness, true));
    let section = Section::new("Each move").with(
        "Moves",
        FactValue::Table(Table {
            columns: ["column", "with best play after it"]
                .map(String::from)
                .to_vec(),
            rows,
        }),
    );
    Ok(SolveReport {
        summary: format!("This position is {}.", position_value.words(Some(side))),
        position: request
            .position
            .as_ref()
            .map(|_| game.format_position(&state)),
        value: Some(position_value),
        solution: None,
        counts: None,
        sections: vec![section],
        figures: SolveFigures {
            positions: Some(solver.nodes()),
            seconds: started.elapsed().as_secs_f64(),
            peak_bytes: Some(solver.table_bytes()),
            sweeps: None,
            first_mover_wins: None,
        },
    })
}
