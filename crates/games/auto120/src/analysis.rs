//! What `tabula analyze auto120` and a hint show of a position, typed: the exact
//! chances when the variant is solved (else the best player's estimates), the
//! race to 120 alone, and the squares that matter.

use crate::best::Best;
use crate::board;
use crate::notation;
use crate::state::{Move, State};
use crate::{exact, solo, view, Auto120, SEATS};
use tabula_core::{
    AnalysisExtra, FactValue, GradedMove, MoveGrade, PositionValue, SeatChance, Section, Turn,
};

/// Each seat's chance when the side to act (`side`) wins with chance `p`.
pub fn chances(side: usize, p: f64) -> PositionValue {
    let mut chances: Vec<SeatChance> = SEATS
        .iter()
        .map(|s| SeatChance {
            seat: s.to_string(),
            chance: 0.0,
        })
        .collect();
    chances[side & 1].chance = p;
    chances[1 - (side & 1)].chance = 1.0 - p;
    PositionValue::WinChances { chances }
}

fn graded(state: &State, marker: u8, chance: f64, exact: bool) -> GradedMove {
    let mv = Move::Marker(marker);
    GradedMove {
        notation: notation::format_move(mv),
        cells: view::move_cells(state, mv),
        grade: MoveGrade::WinChance { chance, exact },
    }
}

/// The analysis of a position of `game`, within the memory this work may use
/// ([`crate::memory_limit`]): what does not fit is left out and said so.
pub fn analysis(game: &Auto120, state: &State) -> AnalysisExtra {
    let limit = crate::memory_limit();
    if solo::TABLE_BYTES > limit {
        let words = format!(
            "The race tables behind this analysis need {} of memory, more than the {} allowed; allow more memory to see it.",
            tabula_core::format_bytes(solo::TABLE_BYTES),
            tabula_core::format_bytes(limit)
        );
        return AnalysisExtra {
            value: None,
            moves: None,
            sections: vec![Section::new("Not worked out").note(&words)],
        };
    }
    let t = solo::tables();
    let mut race = Section::new("The race to 120 alone").note(
        "How many turns each side would need on average to bring every marker home \
         if nobody bumped anybody.",
    );
    for (s, seat) in SEATS.iter().enumerate() {
        race.push(
            format!("{seat}: turns expected"),
            FactValue::Number((t.expected_turns(state.markers[s]) * 10.0).round() / 10.0),
        );
        race.push(
            format!("{seat}: markers retired"),
            FactValue::Integer(state.retired(s) as i64),
        );
    }
    let squares = Section::new("Squares that matter")
        .with(
            "One roll from 120",
            FactValue::List(
                board::positions(board::is_penultimate)
                    .iter()
                    .map(u8::to_string)
                    .collect(),
            ),
        )
        .with(
            "On the path to 120",
            FactValue::List(
                board::positions(board::is_factor)
                    .iter()
                    .map(u8::to_string)
                    .collect(),
            ),
        );
    let mut out = AnalysisExtra {
        value: None,
        moves: None,
        sections: vec![race, squares],
    };
    let side = state.side();
    // The estimator first: its endgame table is then had before a long build
    // of the exact table (three markers) takes the process's turn to build.
    let estimator = estimator(game);
    match game.analysis_solution() {
        Ok(sol) => {
            if let (Some(p), Some(s)) = (sol.value(state), side) {
                out.value = Some(chances(s, p));
            }
            let moves: Vec<GradedMove> = sol
                .move_values(state)
                .into_iter()
                .map(|(m, p)| graded(state, m, p, true))
                .collect();
            if !moves.is_empty() {
                out.moves = Some(moves);
            }
        }
        // No exact table yet (four markers: not made; three: being worked
        // out): say so, and how to have it, beside the estimates below.
        Err(why) => out.sections.push(
            Section::new("Exact chances")
                .note(format!("Not shown: {why}. The chances here are estimates.")),
        ),
    }
    if out.moves.is_none() && matches!(state.turn(), Turn::Move(_)) {
        let ranked: Vec<GradedMove> = every_marker(state, estimator.rank_moves(state))
            .into_iter()
            .map(|(m, p)| graded(state, m, p, false))
            .collect();
        if !ranked.is_empty() {
            out.moves = Some(ranked);
        }
    }
    out
}

/// Every marker the mover may move with its chance, best first (ties: the
/// lower number first), from `ranked`, which values one marker a square:
/// markers on one square move alike, and the exact table lists each too.
fn every_marker(state: &State, ranked: Vec<(u8, f64)>) -> Vec<(u8, f64)> {
    let Some(side) = state.side() else {
        return ranked;
    };
    let mine = state.markers[side];
    let mut out: Vec<(u8, f64)> = (0..state.n)
        .filter_map(|m| {
            ranked
                .iter()
                .find(|&&(j, _)| mine[j as usize] == mine[m as usize])
                .map(|&(_, p)| (m, p))
        })
        .filter(|&(m, _)| mine[m as usize] != crate::board::TARGET)
        .collect();
    out.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    out
}

/// The player whose estimates grade the moves when no exact table does: the
/// `best` player as it plays, with its exact endgame table (two markers, read
/// from the disk cache or built in seconds). So a hint and `tabula analyze`
/// give the same estimates in every process, whatever tables it happens to
/// hold already; only where that table cannot be had in time are the moves
/// valued by the race alone.
fn estimator(game: &Auto120) -> Best {
    let best = Best::default().for_markers(game.markers());
    if best.exact == 0 || exact::solution_waiting(best.exact, exact::ANALYSIS_WAIT).is_ok() {
        best
    } else {
        Best { exact: 0, ..best }
    }
}
