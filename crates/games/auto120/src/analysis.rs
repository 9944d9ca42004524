//! What `tabula analyze auto120` and a hint show of a position, typed: the exact
//! chances when the variant is solved (else the best player's estimates), the
//! race to 120 alone, and the squares that matter.

use crate::best::Best;
use crate::board;
use crate::notation;
use crate::state::{Move, State};
use crate::{solo, view, Auto120, SEATS};
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
        // The four-marker table has not been made (or cannot be read): say so,
        // and how to make it, beside the estimates below.
        Err(Some(why)) => out.sections.push(
            Section::new("Exact chances")
                .note(format!("Not shown: {why}. The chances here are estimates.")),
        ),
        Err(None) => {}
    }
    if out.moves.is_none() && matches!(state.turn(), Turn::Move(_)) {
        let ranked: Vec<GradedMove> = Best::default()
            .for_markers(game.markers())
            .without_building()
            .rank_moves(state)
            .into_iter()
            .map(|(m, p)| graded(state, m, p, false))
            .collect();
        if !ranked.is_empty() {
            out.moves = Some(ranked);
        }
    }
    out
}
