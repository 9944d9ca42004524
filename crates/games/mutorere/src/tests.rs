use super::*;
use proptest::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;
use tabula_ai::lookahead::{self, Lookahead};
use tabula_ai::players::{LeveledPlayer, PerfectPlayer, RandomPlayer};
use tabula_ai::retrograde::Solution;
use tabula_core::{rng_from_seed, GameExt, Oracle, Strategy, Value};

fn seed() -> MuTorere {
    MuTorere::new(MtRules::Usual)
}

fn moves_text(game: &MuTorere, state: &MtState) -> Vec<String> {
    let mut v: Vec<String> = game
        .moves(state)
        .iter()
        .map(|&m| game.format_move(state, m))
        .collect();
    v.sort();
    v
}

/// A random position reached by `plies` random moves from the start.
fn random_position(game: &MuTorere, seed: u64, plies: usize) -> MtState {
    let mut rng = rng_from_seed(seed);
    let mut s = game.initial_state();
    game.random_playout(&mut s, &mut rng, plies);
    s
}

#[test]
fn start_position_text_and_moves() {
    let g = seed();
    let s = g.initial_state();
    assert_eq!(g.format_position(&s), "wwbbbbww/. w");
    // Only the two White pieces touching Black may enter the putahi.
    assert_eq!(moves_text(&g, &s), vec!["2-c", "7-c"]);
    assert_eq!(g.turn(&s), Turn::Move(0));
}

#[test]
fn without_the_restriction_the_first_player_blocks_at_once() {
    let g = MuTorere::new(MtRules::Free);
    let mut s = g.initial_state();
    assert_eq!(moves_text(&g, &s), vec!["1-c", "2-c", "7-c", "8-c"]);
    let mv = g.parse_move(&s, "1-c").unwrap();
    g.try_play(&mut s, mv).unwrap();
    // Point 1 is now empty, its neighbours 2 and 8 and the putahi are all White.
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
}

#[test]
fn best_rules_lift_the_restriction_after_the_opening() {
    let g = MuTorere::new(MtRules::Best { plies: 2 });
    let mut s = g.initial_state();
    assert_eq!(g.format_position(&s), "wwbbbbww/. w 0");
    assert_eq!(moves_text(&g, &s), vec!["2-c", "7-c"]);
    for text in ["2-c", "3-2"] {
        let mv = g.parse_move(&s, text).unwrap();
        g.try_play(&mut s, mv).unwrap();
    }
    assert_eq!(g.format_position(&s), "wb.bbbww/w w 2");
    let p = g.parse_position("wwbbbbww/. w 2").unwrap();
    assert_eq!(moves_text(&g, &p), vec!["1-c", "2-c", "7-c", "8-c"]);
    let p = g.parse_position("wwbbbbww/. b 1").unwrap();
    assert_eq!(moves_text(&g, &p), vec!["3-c", "6-c"]);
    let p = g.parse_position("wwbbbbww/. b 2").unwrap();
    assert_eq!(moves_text(&g, &p), vec!["3-c", "4-c", "5-c", "6-c"]);
}

#[test]
fn rim_moves_and_moves_out_of_the_putahi() {
    let g = seed();
    // Empty point 3: its rim neighbours 2 (w) and 4 (b), and the putahi (b).
    let s = g.parse_position("w.bbbwww/b b").unwrap();
    assert_eq!(moves_text(&g, &s), vec!["3-2", "c-2"]);
    let s = g.parse_position("w.bbbwww/b w").unwrap();
    assert_eq!(moves_text(&g, &s), vec!["1-2"]);
    let s = g.parse_position(".wbbbbww/w b").unwrap();
    // Empty 1: neighbours 8 (w) and 2 (w), putahi w: Black is blocked.
    assert!(g.moves(&s).is_empty());
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
}

#[test]
fn try_play_explains_illegal_moves() {
    let g = seed();
    let s = g.initial_state();
    let err = |text: &str| {
        let mut t = s;
        let mv = g.parse_move(&s, text).unwrap();
        g.try_play(&mut t, mv).unwrap_err().to_string()
    };
    assert!(err("1-c").contains("enemy piece"));
    assert!(err("3-c").contains("not yours"));
    assert!(g.parse_move(&s, "1-2").is_err(), "2 is not empty");
    assert!(g.parse_move(&s, "9-c").is_err());
    assert!(g.parse_move(&s, "").is_err());
    assert!(
        g.parse_move(&s, "c").is_err(),
        "a piece must leave its point"
    );
}

#[test]
fn bad_positions_are_rejected_with_reasons() {
    let g = seed();
    for bad in [
        "",
        "wwbbbbww/.",
        "wwbbbbww/. x",
        "wwbbbbw/. w",
        "wwbbbbwww/. w",
        "wwbbbbww/w w",
        "wwbbbbww/.. w",
        "wwbbbxww/. w",
        "wwbbbbww. w",
        "wwbbbbww/. w 3",
        "wwwbbbww/. w",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad:?} should be rejected");
    }
    let best = MuTorere::new(MtRules::Best { plies: 2 });
    assert!(best.parse_position("wwbbbbww/. w x").is_err());
    assert_eq!(
        best.parse_position("wwbbbbww/. w 7").unwrap().opening_plies,
        2
    );
    assert_eq!(
        best.parse_position("wwbbbbww/. w").unwrap().opening_plies,
        2
    );
}

#[test]
fn seed_rules_match_the_published_analysis() {
    // GamesCrafters: 1,180 positions reachable, 208 wins, 128 losses, 844 draws; start drawn.
    let g = seed();
    let sol = Solution::solve(&g, &g.initial_state(), 100_000).unwrap();
    let st = sol.stats();
    assert_eq!(st.positions, 1180);
    assert_eq!(st.wins, 208);
    assert_eq!(st.losses, 128);
    assert_eq!(st.draws, 844);
    assert_eq!(st.start.value, Value::Draw);
}

#[test]
fn free_rules_start_is_won_in_one() {
    let g = MuTorere::new(MtRules::Free);
    let sol = Solution::solve(&g, &g.initial_state(), 100_000).unwrap();
    assert_eq!(sol.stats().start.value, Value::Win);
    assert_eq!(sol.stats().start.remoteness, 1);
    let st = sol.stats();
    assert_eq!(st.positions, st.wins + st.losses + st.draws);
}

#[test]
fn best_rules_agree_with_free_rules_once_the_opening_is_over() {
    let best = MuTorere::new(MtRules::Best { plies: 2 });
    let free = MuTorere::new(MtRules::Free);
    let sb = Solution::solve(&best, &best.initial_state(), 100_000).unwrap();
    let sf = Solution::solve(&free, &free.initial_state(), 100_000).unwrap();
    let mut compared = 0;
    for (state, grade) in sb.iter() {
        if state.opening_plies == 2 {
            let mut as_free = *state;
            as_free.opening_plies = 0;
            // Every position the free game reaches may not be reached from its start,
            // but the free game's start reaches all arrangements the best game does.
            if let Some(g) = sf.grade(&as_free) {
                assert_eq!(g, grade, "{}", best.format_position(state));
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "compared {compared}");
    // The opening positions are told apart by the ply counter.
    let opening = sb.iter().filter(|(s, _)| s.opening_plies < 2).count();
    assert!(opening >= 3);
}

#[test]
fn symmetries_map_moves_and_keep_values() {
    let g = seed();
    let sol = Solution::solve(&g, &g.initial_state(), 100_000).unwrap();
    let all: Vec<(MtState, _)> = sol.iter().map(|(s, v)| (*s, v)).collect();
    for (state, grade) in &all {
        for k in 0..g.symmetry_count() {
            let image = g.map_state(state, k);
            assert_eq!(g.map_state(&image, g.inverse_symmetry(k)), *state);
            let mut mapped: Vec<MtMove> = g
                .moves(state)
                .iter()
                .map(|&m| g.map_move(state, m, k))
                .collect();
            let mut direct = g.moves(&image);
            mapped.sort();
            direct.sort();
            assert_eq!(mapped, direct);
            // The image of a reachable position need not be reachable; when it is, it has the same value.
            if let Some(other) = sol.grade(&image) {
                assert_eq!(other, *grade);
            }
        }
    }
    let images: HashSet<MtState> = (0..16)
        .map(|k| g.map_state(&g.initial_state(), k))
        .collect();
    assert_eq!(
        images.len(),
        8,
        "the start has a mirror symmetry, so 16/2 images"
    );
}

#[test]
fn count_report_matches_the_seed_and_hand_counts() {
    let r = count_report();
    // The blog: 10 + 35 + 35 = 80 up to rotation.
    assert_eq!(r["rotation"]["centre_empty"], 10);
    assert_eq!(r["rotation"]["centre_white"], 35);
    assert_eq!(r["rotation"]["centre_black"], 35);
    assert_eq!(r["rotation"]["total"], 80);
    assert_eq!(r["rotation"]["total_by_enumeration"], 80);
    assert_eq!(
        r["rotation"]["cycle_index_rim"],
        "(g1^8 + g2^4 + 2 g4^2 + 4 g8)/8"
    );
    // By hand: 8 bracelets of 4+4 beads; with one empty rim point, (280 + 4*6)/16 = 19.
    assert_eq!(r["rotation_reflection"]["centre_empty"], 8);
    assert_eq!(r["rotation_reflection"]["centre_white"], 19);
    assert_eq!(r["rotation_reflection"]["centre_black"], 19);
    assert_eq!(r["rotation_reflection"]["total"], 46);
    assert_eq!(r["rotation_reflection"]["total_by_enumeration"], 46);
    assert_eq!(r["labelled"]["total"], 630);
    assert_eq!(r["rotation"]["agrees"], true);
    assert_eq!(r["rotation_reflection"]["agrees"], true);
    assert!(seed().count_report().is_some());
}

#[test]
fn the_games_symmetries_are_the_counting_group() {
    // The 16 map_state images of a labelled arrangement are exactly its orbit under
    // the dihedral group used by the count.
    let g = seed();
    let group = counting::dihedral_group(8, 1);
    let s = g.parse_position("wb.bwbbw/w b").unwrap();
    let by_game: HashSet<MtState> = (0..16).map(|k| g.map_state(&s, k)).collect();
    let by_group: HashSet<MtState> = group
        .iter()
        .map(|perm| {
            let mut cells = [Cell::Empty; POINTS];
            for (i, &j) in perm.iter().enumerate() {
                cells[j] = s.cells[i];
            }
            MtState { cells, ..s }
        })
        .collect();
    assert_eq!(by_game, by_group);
}

#[test]
fn variants_round_trip_and_reject_bad_values() {
    for text in [
        "",
        "rules=seed",
        "rules=usual",
        "seed",
        "best",
        "rules=best,best_plies=4",
        "free",
    ] {
        let v = Variant::parse(text).unwrap();
        let g = MuTorere::from_variant(&v).unwrap();
        assert_eq!(MuTorere::from_variant(&g.variant()).unwrap(), g);
    }
    assert_eq!(
        MuTorere::from_variant(&Variant::parse("best").unwrap())
            .unwrap()
            .rules,
        MtRules::Best { plies: 2 }
    );
    for bad in [
        "rules=chess",
        "best_plies=3",
        "rules=best,best_plies=0",
        "colour=red",
    ] {
        assert!(
            MuTorere::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn lookahead_takes_a_win_and_avoids_a_loss() {
    let g = MuTorere::new(MtRules::Free);
    let s = g.initial_state();
    let mut rng = rng_from_seed(1);
    for _ in 0..20 {
        let c = Lookahead.choose(&g, &s, 0, &mut rng).unwrap();
        let mut t = s;
        g.play_unchecked(&mut t, c.mv);
        assert_eq!(
            g.turn(&t),
            Turn::Over(Outcome::Win(0)),
            "{}",
            g.format_move(&s, c.mv)
        );
    }
    // Seed rules, White to move: 2-c lets Black answer 3-2 and block White? Check
    // that every chosen move leaves Black without an immediate win when possible.
    let g = seed();
    for seed_no in 0..200 {
        let s = random_position(&g, seed_no, (seed_no % 15) as usize);
        let Turn::Move(seat) = g.turn(&s) else {
            continue;
        };
        let mut buf = Vec::new();
        let marks: Vec<_> = g
            .moves(&s)
            .iter()
            .map(|&m| lookahead::look(&g, &s, seat, m, &mut buf))
            .collect();
        let c = Lookahead.choose(&g, &s, seat, &mut rng).unwrap();
        let chosen = lookahead::look(&g, &s, seat, c.mv, &mut buf);
        if marks.contains(&lookahead::Lookout::Wins) {
            assert_eq!(chosen, lookahead::Lookout::Wins);
        } else if marks.contains(&lookahead::Lookout::Safe) {
            assert_eq!(chosen, lookahead::Lookout::Safe);
        }
    }
}

/// Plays `plies` plies at most; returns the outcome if the game ended.
fn play_out(
    g: &MuTorere,
    start: MtState,
    players: &mut [Box<dyn Strategy<MuTorere>>; 2],
    oracle: &dyn Oracle<MuTorere>,
    perfect_seat: usize,
    seed_no: u64,
) {
    let mut rng = rng_from_seed(seed_no);
    let mut s = start;
    let before = oracle.grade(g, &s).unwrap();
    // The perfect side's value at the start of the game.
    let mover = usize::from(s.to_move);
    let initial = if mover == perfect_seat {
        before.value
    } else {
        before.value.flip()
    };
    for _ in 0..300 {
        let Turn::Move(seat) = g.turn(&s) else { break };
        let c = players[seat].choose(g, &s, seat, &mut rng).expect("a move");
        g.try_play(&mut s, c.mv).expect("legal");
    }
    let now = oracle.grade(g, &s).unwrap();
    let value_now = if usize::from(s.to_move) == perfect_seat {
        now.value
    } else {
        now.value.flip()
    };
    if initial != Value::Loss {
        assert_ne!(
            g.turn(&s),
            Turn::Over(Outcome::Win(1 - perfect_seat)),
            "perfect player lost"
        );
        assert!(
            value_now >= initial,
            "perfect player's value fell from {initial:?} to {value_now:?}"
        );
    }
}

#[test]
fn perfect_player_never_loses_a_drawn_or_won_position() {
    for rules in [MtRules::Usual, MtRules::Best { plies: 2 }, MtRules::Free] {
        let g = MuTorere::new(rules);
        let sol: Arc<dyn Oracle<MuTorere>> =
            Arc::new(Solution::solve(&g, &g.initial_state(), 100_000).unwrap());
        for game_no in 0..60u64 {
            let start = random_position(&g, game_no, (game_no % 9) as usize);
            if g.turn(&start).is_over() {
                continue;
            }
            let perfect_seat = (game_no % 2) as usize;
            // Every other kind of player: random, the blog's look-ahead, level-mixed
            // (Low 25, Medium 66, High 95 over the perfect player) and perfect itself.
            let leveled =
                |level: u32| LeveledPlayer::new(level, Box::new(PerfectPlayer::new(sol.clone())));
            let opponent: Box<dyn Strategy<MuTorere>> = match game_no % 6 {
                0 => Box::new(RandomPlayer),
                1 | 2 => Box::new(Lookahead),
                3 => Box::new(leveled(25)),
                4 => Box::new(leveled(if game_no % 12 < 6 { 66 } else { 95 })),
                _ => Box::new(PerfectPlayer::new(sol.clone())),
            };
            let perfect: Box<dyn Strategy<MuTorere>> = Box::new(PerfectPlayer::new(sol.clone()));
            let mut players = if perfect_seat == 0 {
                [perfect, opponent]
            } else {
                [opponent, perfect]
            };
            play_out(&g, start, &mut players, sol.as_ref(), perfect_seat, game_no);
        }
    }
}

#[test]
fn view_has_nine_points_and_sixteen_edges() {
    let g = seed();
    let s = g.initial_state();
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 9);
    assert_eq!(v.edges.len(), 16);
    assert_eq!(v.pieces.len(), 8);
    let ids: HashSet<u32> = v.cells.iter().map(|c| c.id).collect();
    for mv in g.moves(&s) {
        for c in g.move_cells(&s, mv) {
            assert!(ids.contains(&c));
        }
    }
    // Every rim point is joined to its two neighbours and the putahi.
    for p in 1..=8u32 {
        let degree = v.edges.iter().filter(|e| e.from == p || e.to == p).count();
        assert_eq!(degree, 3);
    }
    assert!(g.render_text(&s).contains("White to move"));
}

#[test]
fn the_level_mixes_with_the_seeds_lookahead() {
    assert_eq!(MuTorere::default().level_base(), "lookahead");
}

proptest! {
    #[test]
    fn notation_round_trips(seed_no in 0u64..10_000, plies in 0usize..40, rules in 0u8..3) {
        let rules = match rules { 0 => MtRules::Usual, 1 => MtRules::Best { plies: 2 }, _ => MtRules::Free };
        let g = MuTorere::new(rules);
        let s = random_position(&g, seed_no, plies);
        let text = g.format_position(&s);
        prop_assert_eq!(g.parse_position(&text).unwrap(), s);
        for mv in g.moves(&s) {
            let t = g.format_move(&s, mv);
            prop_assert_eq!(g.parse_move(&s, &t).unwrap(), mv);
            let from_only = t.split('-').next().unwrap();
            prop_assert_eq!(g.parse_move(&s, from_only).unwrap(), mv);
            let mut after = s;
            prop_assert!(g.try_play(&mut after, mv).is_ok());
        }
    }

    #[test]
    fn parsing_never_panics(text in ".{0,30}") {
        let g = MuTorere::new(MtRules::Best { plies: 2 });
        let _ = g.parse_position(&text);
        let _ = g.parse_move(&g.initial_state(), &text);
    }
}
