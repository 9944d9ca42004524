//! Property tests: random games keep the rules' invariants, and a logged game
//! (its moves, dice included) replays exactly.

use proptest::prelude::*;
use rand::Rng as _;
use tabula_auto120::{Auto120, Move, State};
use tabula_core::{rng_from_seed, Game, Outcome, Strategy, Turn};
use tabula_core::{Notation, Players};

const TARGET: u8 = 120;

fn reachable(p: u8) -> bool {
    // Products of die rolls 2..6 are exactly the numbers whose only prime factors
    // are 2, 3 and 5 (written independently of the crate's derivation).
    let mut n = p as u32;
    for f in [2, 3, 5] {
        while n % f == 0 {
            n /= f;
        }
    }
    n == 1 && (1..=TARGET).contains(&p)
}

/// Checks one ply against the rules, written out independently of `State::apply`.
fn check_ply(before: &State, mv: Move, after: &State) {
    for seat in 0..2 {
        for (m, (&a, &b)) in before
            .markers(seat)
            .iter()
            .zip(after.markers(seat).iter())
            .enumerate()
        {
            assert!(reachable(b), "marker {m} of seat {seat} on {b}");
            if a == TARGET {
                assert_eq!(b, TARGET, "a retired marker never moves");
            }
        }
    }
    // Opposing markers never share a square other than 1 and 120.
    for &p in &after.markers(0) {
        if p != 1 && p != TARGET {
            assert!(!after.markers(1).contains(&p), "both players on {p}");
        }
    }
    match mv {
        Move::Starter(_) | Move::Roll(_) => {
            assert_eq!(before.markers(0), after.markers(0));
            assert_eq!(before.markers(1), after.markers(1));
        }
        Move::Marker(m) => {
            let seat = before.side().unwrap();
            let roll = before.pending_roll().unwrap() as u32;
            let from = before.markers(seat)[m as usize];
            let product = from as u32 * roll;
            let to = if product > TARGET as u32 {
                1
            } else {
                product as u8
            };
            for i in 0..4 {
                let expected = if i == m as usize {
                    to
                } else {
                    before.markers(seat)[i]
                };
                assert_eq!(after.markers(seat)[i], expected, "own marker {i}");
                let theirs = before.markers(1 - seat)[i];
                let bumped = to != 1 && to != TARGET && theirs == to;
                assert_eq!(
                    after.markers(1 - seat)[i],
                    if bumped { 1 } else { theirs },
                    "opposing marker {i}"
                );
            }
            assert_eq!(after.pending_roll(), None);
        }
    }
}

fn random_game(seed: u64, max_plies: usize) -> Vec<(State, Move)> {
    let g = Auto120::default();
    let mut rng = rng_from_seed(seed);
    let mut state = g.initial_state();
    let mut moves = Vec::new();
    let mut plies = Vec::new();
    while plies.len() < max_plies && !g.turn(&state).is_over() {
        moves.clear();
        g.legal_moves(&state, &mut moves);
        let mv = moves[rng.gen_range(0..moves.len())];
        plies.push((state, mv));
        g.play_unchecked(&mut state, mv);
    }
    plies
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>()) {
        let g = Auto120::default();
        let plies = random_game(seed, 3000);
        for w in plies.windows(2) {
            check_ply(&w[0].0, w[0].1, &w[1].0);
        }
        for (state, mv) in &plies {
            let text = g.format_position(state);
            prop_assert_eq!(&g.parse_position(&text).unwrap(), state);
            prop_assert_eq!(g.parse_move(state, &g.format_move(state, *mv)).unwrap(), *mv);
            let mut checked = *state;
            prop_assert!(g.try_play(&mut checked, *mv).is_ok());
        }
    }

    #[test]
    fn untrusted_position_text_never_panics(text in "\\PC{0,40}") {
        let _ = Auto120::default().parse_position(&text);
        let _ = Auto120::default().parse_move(&State::start(), &text);
    }

    #[test]
    fn near_miss_position_text_never_panics(text in "[0-9,/:?r ]{0,30}") {
        if let Ok(s) = Auto120::default().parse_position(&text) {
            prop_assert_eq!(Auto120::default().parse_position(&Auto120::default().format_position(&s)).unwrap(), s);
        }
    }

    #[test]
    fn a_logged_game_replays_exactly(seed in any::<u64>()) {
        let g = Auto120::default();
        let mut players: [Box<dyn Strategy<Auto120>>; 2] =
            [g.custom_player("scenario", "", 0).unwrap().unwrap(), g.custom_player("best", "depth=1", 0).unwrap().unwrap()];
        let mut rng = rng_from_seed(seed);
        let mut state = g.initial_state();
        let mut record: Vec<(Move, Option<String>)> = Vec::new();
        let mut outcomes = Vec::new();
        let outcome = loop {
            match g.turn(&state) {
                Turn::Over(o) => break o,
                Turn::Chance => {
                    outcomes.clear();
                    g.chance_outcomes(&state, &mut outcomes);
                    let mv = outcomes[rng.gen_range(0..outcomes.len())].0;
                    record.push((mv, None));
                    g.play_unchecked(&mut state, mv);
                }
                Turn::Move(seat) => {
                    let c = players[seat].choose(&g, &state, seat, &mut rng).unwrap();
                    record.push((c.mv, c.reason));
                    g.play_unchecked(&mut state, c.mv);
                }
            }
        };
        prop_assert!(matches!(outcome, Outcome::Win(_)));
        let log = g.game_log(&g.initial_state(), &record).unwrap();
        // Replay from the text of the moves alone: same positions, same log.
        let mut replay = g.initial_state();
        let mut replayed = Vec::new();
        for (mv, reason) in &record {
            let text = g.format_move(&replay, *mv);
            let parsed = g.parse_move(&replay, &text).unwrap();
            replayed.push((parsed, reason.clone()));
            g.try_play(&mut replay, parsed).unwrap();
        }
        prop_assert_eq!(replay, state);
        prop_assert_eq!(g.game_log(&g.initial_state(), &replayed).unwrap(), log.clone());
        // One line per decision: the draw, each forfeit and each marker move.
        let forfeits = record.iter().filter(|(m, _)| *m == Move::Roll(1)).count();
        let marker_moves = record.iter().filter(|(m, _)| matches!(m, Move::Marker(_))).count();
        prop_assert_eq!(log.len(), 1 + forfeits + marker_moves);
        let winner = match outcome { Outcome::Win(w) => w + 1, _ => 0 };
        let last = log.last().unwrap();
        let suffix = format!("Player {winner} wins");
        prop_assert!(last.ends_with(&suffix), "{}", last);
    }
}
