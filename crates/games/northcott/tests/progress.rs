//! Northcott's rule of actual play for progress: a draw after a run of plies in
//! which the total of the gaps comes to no new low. It ends random games in
//! hundreds of plies and never takes a win from a side that plays Nim.

mod common;
use common::random_state;
use proptest::prelude::*;
use tabula_core::{
    rng_from_seed, Actions, Game, GameExt, MatchRules, Notation, Outcome, PlayEnd, PlayTracker,
    Registered, Rng, Turn, Variant,
};
use tabula_northcott::player::nim_reply;
use tabula_northcott::{Northcott, NorthcottMove, NorthcottState};

fn game(variant: &str) -> Northcott {
    Northcott::from_variant(&Variant::parse(variant).unwrap()).unwrap()
}

/// Plays `line` (moves in the notation, over and over) from the start under
/// the rules of actual play until they end the game; returns the plies and how.
fn play_line(g: &Northcott, line: &[&str]) -> (usize, Option<PlayEnd>) {
    let mut s = g.initial_state();
    let mut tracker = PlayTracker::new(g, &s);
    let mut plies = 0;
    while !tracker.turn(g, &s).is_over() {
        let mv = g.parse_move(&s, line[plies % line.len()]).unwrap();
        tracker.play(g, &mut s, mv);
        plies += 1;
    }
    (plies, tracker.end(&s))
}

#[test]
fn going_back_and_forth_is_no_progress() {
    // One row of 6: O and X each advance once (gaps 4 -> 3 -> 2, two new lows),
    // then step back and forth: the gaps total 3, 4, 3, 2, 3, ... and never
    // come below 2 again. Twice the board's 6 cells later, the game is drawn.
    let g = game("size=6x1,repetition=0");
    assert_eq!(g.no_progress_plies(), 12);
    let opening = ["1:1->2", "1:6->5"];
    let shuffle = ["1:2->1", "1:5->6", "1:1->2", "1:6->5"];
    let mut s = g.initial_state();
    let mut tracker = PlayTracker::new(&g, &s);
    for text in opening.iter().chain(shuffle.iter().cycle().take(11)) {
        assert!(!tracker.turn(&g, &s).is_over(), "over before {text}");
        let mv = g.parse_move(&s, text).unwrap();
        tracker.play(&g, &mut s, mv);
    }
    // 11 plies without a new low: the twelfth ends the game.
    assert!(!tracker.turn(&g, &s).is_over());
    let mv = g.parse_move(&s, shuffle[11 % 4]).unwrap();
    tracker.play(&g, &mut s, mv);
    assert_eq!(tracker.end(&s), Some(PlayEnd::NoProgress(12)));
    assert_eq!(tracker.turn(&g, &s), Turn::Over(Outcome::Draw));
    // Taken back, the game goes on.
    tracker.undo(&s);
    assert_eq!(tracker.end(&s), None);
    // With the rule off, only repetition (off here too) or the cap ends it.
    let free = game("size=6x1,repetition=0,progress=off");
    assert_eq!(free.play_draw_rule().plies_without_progress, None);
    assert_eq!(free.max_game_length(), tabula_core::UNBOUNDED_GAME_PLIES);
    // The usual repetition rule comes first on this line: the start's third
    // occurrence, as before the progress rule.
    assert_eq!(
        play_line(&game("size=6x1"), &["1:1->2", "1:6->5", "1:2->1", "1:5->6"]),
        (8, Some(PlayEnd::Repetition(3)))
    );
}

#[test]
fn a_new_low_is_progress_even_after_a_retreat() {
    // O retreats is no progress; the advance that only closes that gap again
    // is none either; an advance past the old low is.
    let g = game("size=8x1,repetition=0");
    let mut s = g.parse_position("1O4X1 O").unwrap();
    let mut tracker = PlayTracker::new(&g, &s);
    let mut quiet_after = |text: &str, s: &mut NorthcottState| {
        let mv = g.parse_move(s, text).unwrap();
        tracker.play(&g, s, mv);
        tracker.end(s)
    };
    assert_eq!(quiet_after("1:2->1", &mut s), None); // gap 4 -> 5
    assert_eq!(quiet_after("1:7->8", &mut s), None); // gap 5 -> 6
    assert_eq!(quiet_after("1:1->3", &mut s), None); // gap 6 -> 4: back to the low
    assert_eq!(quiet_after("1:8->6", &mut s), None); // gap 4 -> 2: a new low

    // Sixteen plies (twice the 8 cells) without a new low from here.
    for ply in 0..16 {
        let text = ["1:3->2", "1:6->7", "1:2->3", "1:7->6"][ply % 4];
        let end = quiet_after(text, &mut s);
        assert_eq!(end.is_some(), ply == 15, "ply {ply}: {end:?}");
    }
}

/// The loser's most stubborn play: retreat one cell where it can (the longest
/// run of retreats), else the advance that narrows a gap least.
fn stalling_move(g: &Northcott, s: &NorthcottState) -> Option<NorthcottMove> {
    let widens = |mv: &NorthcottMove| {
        let mut t = *s;
        g.play_unchecked(&mut t, *mv);
        let row = mv.row as usize;
        i32::from(t.gap(row)) - i32::from(s.gap(row))
    };
    g.moves(s).into_iter().max_by_key(|mv| match widens(mv) {
        1 => i32::MAX,
        d => d,
    })
}

fn random_move(g: &Northcott, s: &NorthcottState, rng: &mut Rng) -> Option<NorthcottMove> {
    use rand::Rng as _;
    let moves = g.moves(s);
    (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_side_playing_nim_to_win_is_never_drawn_for_lack_of_progress(
        nx in 3usize..=40, ny in 1usize..=8, seed: u64, stall: bool
    ) {
        // From any position the side to move wins, it plays the Nim move every
        // turn (each narrows a gap); the other side stalls or plays at random.
        // The run without a new low never reaches the rule's length: the game
        // ends with the Nim player's win.
        let g = game(&format!("size={nx}x{ny},repetition=0"));
        let mut rng = rng_from_seed(seed);
        let mut s = random_state(&g, &mut rng);
        if nim_reply(&g, &s).is_none() || g.turn(&s).is_over() {
            return Ok(());
        }
        let winner = s.mover as usize;
        let mut tracker = PlayTracker::new(&g, &s);
        let mut plies = 0;
        while !g.turn(&s).is_over() {
            prop_assert_eq!(tracker.end(&s), None, "{} after {} plies", g.format_position(&s), plies);
            let mv = if s.mover as usize == winner {
                nim_reply(&g, &s).expect("the Nim player keeps a winning position")
            } else if stall {
                stalling_move(&g, &s).unwrap()
            } else {
                random_move(&g, &s, &mut rng).unwrap()
            };
            tracker.play(&g, &mut s, mv);
            plies += 1;
            prop_assert!(plies <= g.max_game_length());
        }
        prop_assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(winner)));
    }
}

#[test]
fn random_games_end_in_hundreds_of_plies() {
    // Before the rule, random games on the usual board ran to the engine's cap
    // of 20,000 plies. Now each of these ends within a few hundred, drawn by
    // the rule, and within the game's declared bound.
    let g = Northcott::default();
    let most = g.max_game_length();
    assert_eq!(most, (4 * 14 + 1) * 128);
    let mut longest = 0;
    for seed in 0..20 {
        let mut rng = rng_from_seed(seed);
        let mut s = g.initial_state();
        let mut tracker = PlayTracker::new(&g, &s);
        let mut plies = 0;
        while !tracker.turn(&g, &s).is_over() {
            let mv = random_move(&g, &s, &mut rng).unwrap();
            tracker.play(&g, &mut s, mv);
            plies += 1;
        }
        assert!(plies < 1000, "seed {seed}: {plies} plies");
        assert!(plies <= most);
        longest = longest.max(plies);
    }
    assert!(longest > g.no_progress_plies() as usize);
}

#[test]
fn alpha_beta_players_close_gaps_and_win_instead_of_wandering() {
    // A search player scores positions by the nim-sum alone would pick any
    // move back to a nim-sum of 0, retreats too, and two of them wandered to
    // the progress rule's draw (before it, to the 20,000-ply cap). Scored
    // with narrower gaps better for the winner, it closes gaps: the side the
    // nim-sum names wins.
    use tabula_ai::alphabeta::{AlphaBeta, SearchLimits};
    use tabula_core::Strategy;
    for size in ["16x4", "10x3"] {
        let g = game(&format!("size={size}"));
        let start = g.initial_state();
        let winner = if g.nim_sum(&start) != 0 {
            start.mover
        } else {
            1 - start.mover
        };
        let limits = SearchLimits {
            depth: 3,
            time: None,
        };
        let mut players = [AlphaBeta::new(limits), AlphaBeta::new(limits)];
        let mut rng = rng_from_seed(1);
        let mut s = start;
        let mut tracker = PlayTracker::new(&g, &s);
        while !tracker.turn(&g, &s).is_over() {
            let seat = s.mover as usize;
            let choice = players[seat].choose(&g, &s, seat, &mut rng).unwrap();
            tracker.play(&g, &mut s, choice.mv);
        }
        assert_eq!(
            tracker.turn(&g, &s),
            Turn::Over(Outcome::Win(usize::from(winner))),
            "{size}: {} after {} plies",
            g.format_position(&s),
            tracker.plies()
        );
    }
}
