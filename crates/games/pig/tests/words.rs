//! Pig's log in sentences (issue 44): a turn's first roll is not "roll
//! again", and a die's fall is not "Chance: a 4".

use tabula_core::{Presentation, Words};
use tabula_pig::{Move, Pig, State};

fn line(game: &Pig, state: &State, mv: Move) -> String {
    game.log_line(state, state.side(), mv, None)
        .as_ref()
        .map(Words::to_string)
        .unwrap_or_default()
}

#[test]
fn the_first_roll_of_a_turn_is_a_roll_and_the_die_is_said_to_fall() {
    let game = Pig::default();
    let start_of_turn = State {
        scores: [10, 20],
        turn_total: 0,
        side: 0,
        rolling: false,
    };
    assert_eq!(game.describe_move(&start_of_turn, Move::Roll), "roll");
    assert_eq!(line(&game, &start_of_turn, Move::Roll), "Player 1 rolls");
    let later = State {
        turn_total: 7,
        ..start_of_turn
    };
    assert_eq!(game.describe_move(&later, Move::Roll), "roll again");
    assert_eq!(line(&game, &later, Move::Roll), "Player 1 rolls again");
    let falling = State {
        rolling: true,
        ..later
    };
    assert_eq!(
        line(&game, &falling, Move::Die(4)),
        "The die shows 4: 11 points this turn"
    );
    assert_eq!(
        line(&game, &falling, Move::Die(1)),
        "The die shows 1: the 7 points of this turn are lost"
    );
    assert!(line(&game, &later, Move::Hold).starts_with("Player 1 holds: banks 7 points"));
}

#[test]
fn a_solve_reports_one_peak_memory() {
    let h = tabula_engine::build("pig", "goal=20").unwrap();
    let report = h.solve(&tabula_core::Report::default(), &|_| {}).unwrap();
    let memories: Vec<&str> = report
        .sections
        .iter()
        .flat_map(|s| &s.facts)
        .map(|f| f.label.as_str())
        .filter(|l| l.to_lowercase().contains("memory"))
        .collect();
    assert!(memories.is_empty(), "{memories:?}");
    assert!(report.figures.peak_bytes.is_some());
}
