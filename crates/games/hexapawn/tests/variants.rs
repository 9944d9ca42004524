//! Hexapawn's variants (GamesmanUni's): wider and longer boards, misère play and
//! compulsory capture. Every solved value is found twice — by the generic retrograde
//! solver and by a plain memoised negamax over the (acyclic) game tree — and the
//! published ones are asserted: Gardner's 3x3 is a win for Black, the 4x4 board
//! ("Octapawn") a win for the first player.

use std::collections::HashMap;
use tabula_ai::retrograde::Solution;
use tabula_core::{Game, GameExt, Outcome, Registered, Turn, Value, Variant};
use tabula_core::{Notation, Presentation};
use tabula_hexapawn::{Hexapawn, Pawns, BLACK, WHITE};

/// Negamax with remoteness: (side to move wins, plies to the end under perfect play).
fn negamax(g: &Hexapawn, s: Pawns, memo: &mut HashMap<Pawns, (bool, u32)>) -> (bool, u32) {
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let v = match g.turn(&s) {
        Turn::Over(Outcome::Win(w)) => (w == s.side_to_move(), 0),
        Turn::Over(_) | Turn::Chance => unreachable!("Hexapawn has no draws or dice"),
        Turn::Move(_) => {
            let children: Vec<(bool, u32)> = g
                .moves(&s)
                .into_iter()
                .map(|mv| {
                    let mut t = s;
                    g.play_unchecked(&mut t, mv);
                    negamax(g, t, memo)
                })
                .collect();
            // Win fastest through a child lost for the opponent; else lose slowest.
            match children.iter().filter(|c| !c.0).map(|c| c.1).min() {
                Some(r) => (true, r + 1),
                None => (false, children.iter().map(|c| c.1).max().unwrap_or(0) + 1),
            }
        }
    };
    memo.insert(s, v);
    v
}

fn game(variant: &str) -> Hexapawn {
    Hexapawn::from_variant(&Variant::parse(variant).unwrap()).unwrap()
}

/// (variant, positions, White to move at the start wins?, remoteness).
const SOLVED: [(&str, usize, bool, u32); 16] = [
    ("", 135, false, 6),
    ("capture=compulsory", 19, true, 5),
    ("play=misere", 135, false, 5),
    ("play=misere,capture=compulsory", 19, true, 4),
    ("columns=4", 1128, true, 5),
    ("columns=4,capture=compulsory", 41, false, 6),
    ("columns=4,play=misere", 1128, false, 7),
    ("columns=4,play=misere,capture=compulsory", 41, true, 6),
    ("rows=4", 987, false, 8),
    ("rows=4,capture=compulsory", 190, false, 8),
    ("rows=4,play=misere", 987, false, 9),
    ("rows=4,play=misere,capture=compulsory", 190, false, 11),
    ("columns=4,rows=4", 20286, true, 11),
    ("columns=4,rows=4,capture=compulsory", 2292, false, 12),
    ("columns=4,rows=4,play=misere", 20286, false, 13),
    (
        "columns=4,rows=4,play=misere,capture=compulsory",
        2292,
        false,
        13,
    ),
];

#[test]
fn solved_values_agree_between_the_solver_and_negamax() {
    for (variant, positions, white_wins, remoteness) in SOLVED {
        let g = game(variant);
        let start = g.initial_state();
        let sol = Solution::solve(&g, &start, 1_000_000).expect("small");
        let st = sol.stats();
        let mut memo = HashMap::new();
        let (wins, plies) = negamax(&g, start, &mut memo);
        assert_eq!(st.draws, 0, "{variant}: no draws in Hexapawn");
        assert_eq!(
            st.start.value == Value::Win,
            wins,
            "{variant}: solver vs negamax"
        );
        assert_eq!(st.start.remoteness, plies, "{variant}: remoteness");
        assert_eq!(st.positions, g.reachable_count(), "{variant}");
        assert_eq!(
            (st.positions, wins, plies),
            (positions, white_wins, remoteness),
            "{variant}"
        );
        // Every position, not only the start, is graded alike by both methods.
        for (s, &(w, r)) in &memo {
            let graded = sol.grade(s).expect("reachable position graded");
            assert_eq!(
                graded.value == Value::Win,
                w,
                "{variant} {}",
                g.format_position(s)
            );
            assert_eq!(graded.remoteness, r, "{variant} {}", g.format_position(s));
        }
    }
}

#[test]
fn compulsory_capture_leaves_only_captures() {
    let g = game("capture=compulsory");
    let s = g.parse_position("BBB/.W./W.W B").unwrap();
    let mut moves: Vec<String> = g.moves(&s).iter().map(|&m| g.format_move(&s, m)).collect();
    moves.sort();
    // Optional captures would add the steps 1 4 and 3 6.
    assert_eq!(moves, ["1 5", "3 5"]);
    let err = g.parse_move(&s, "1 4").unwrap_err();
    assert!(err.message.contains("compulsory"), "{}", err.message);
    let optional = game("");
    assert_eq!(optional.moves(&s).len(), 4);
}

#[test]
fn in_misere_play_reaching_the_far_row_loses() {
    let g = game("play=misere");
    let mut s = g.initial_state();
    for mv in ["8 5", "3 6", "5 1"] {
        let m = g.parse_move(&s, mv).unwrap();
        g.try_play(&mut s, m).unwrap();
    }
    // White's pawn stands on the far row: Black wins.
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(BLACK)));
    let normal = game("");
    let s2 = normal.parse_position(&g.format_position(&s)).unwrap();
    assert_eq!(normal.turn(&s2), Turn::Over(Outcome::Win(WHITE)));
}

#[test]
fn bigger_boards_number_squares_across_then_down() {
    let g = game("columns=5,rows=4");
    let s = g.initial_state();
    assert_eq!(g.format_position(&s), "BBBBB/...../...../WWWWW W");
    let mut moves: Vec<String> = g.moves(&s).iter().map(|&m| g.format_move(&s, m)).collect();
    moves.sort();
    assert_eq!(moves, ["16 11", "17 12", "18 13", "19 14", "20 15"]);
    let mv = g.parse_move(&s, "18 13").unwrap();
    assert_eq!(g.move_cells(&s, mv), vec![18, 13]);
    assert!(g.parse_move(&s, "18 21").is_err());
    assert!(g.parse_position("BBB/.../WWW W").is_err());
    assert_eq!(g.view(&s).cells.len(), 20);
}

#[test]
fn variant_options_round_trip_and_bad_ones_are_refused() {
    for text in [
        "columns=6,rows=4,play=misere,capture=compulsory",
        "rows=6",
        "",
    ] {
        let g = game(text);
        let again = Hexapawn::from_variant(&g.variant()).unwrap();
        assert_eq!(g, again, "{text}");
    }
    for bad in [
        "columns=2",
        "columns=7",
        "rows=9",
        "columns=6,rows=6",
        "columns=5,rows=6",
        "play=loser",
        "capture=sometimes",
    ] {
        assert!(
            Hexapawn::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
}
