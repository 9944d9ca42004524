use super::*;
use std::collections::HashMap;

fn play(g: &Hexapawn, moves: &[&str]) -> Pawns {
    let mut s = g.initial_state();
    for text in moves {
        let mv = g
            .parse_move(&s, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        g.try_play(&mut s, mv).expect("legal move");
    }
    s
}

/// Negamax over the (acyclic) game graph: true if the side to move wins.
fn wins(g: &Hexapawn, s: Pawns, memo: &mut HashMap<Pawns, bool>) -> bool {
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let v = match g.turn(&s) {
        Turn::Over(Outcome::Win(w)) => w == s.side_to_move(),
        _ => g.moves(&s).into_iter().any(|mv| {
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            !wins(g, t, memo)
        }),
    };
    memo.insert(s, v);
    v
}

#[test]
fn start_has_white_on_the_bottom_row_to_move() {
    let g = Hexapawn::default();
    let s = g.initial_state();
    assert_eq!(g.format_position(&s), "BBB/.../WWW W");
    assert_eq!(g.turn(&s), Turn::Move(WHITE));
    let moves: Vec<String> = g.moves(&s).iter().map(|&m| g.format_move(&s, m)).collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(sorted, ["7 4", "8 5", "9 6"]);
}

#[test]
fn pawns_step_forward_and_capture_diagonally() {
    let g = Hexapawn::default();
    let s = play(&g, &["8 5"]);
    assert_eq!(g.format_position(&s), "BBB/.W./W.W B");
    let mut black: Vec<String> = g.moves(&s).iter().map(|&m| g.format_move(&s, m)).collect();
    black.sort();
    // 1 and 3 may step or capture on 5; 2 is blocked by the pawn on 5.
    assert_eq!(black, ["1 4", "1 5", "3 5", "3 6"]);
    let s = play(&g, &["8 5", "1 5"]);
    assert_eq!(g.format_position(&s), ".BB/.B./W.W W");
    let mut white: Vec<String> = g.moves(&s).iter().map(|&m| g.format_move(&s, m)).collect();
    white.sort();
    // White on 7 and 9 may capture on 5 or step forward.
    assert_eq!(white, ["7 4", "7 5", "9 5", "9 6"]);
}

#[test]
fn reaching_the_far_row_wins() {
    let g = Hexapawn::default();
    // White's pawn on 5 takes the Black pawn on 1 and stands on the far row.
    let s = play(&g, &["8 5", "3 6", "5 1"]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(WHITE)));
    assert!(g.moves(&s).is_empty());
    let s = play(&g, &["7 4", "2 4", "9 6", "4 7"]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(BLACK)));
}

fn pawns(white: &[u8], black: &[u8], to_move: Seat) -> Pawns {
    let mask = |squares: &[u8]| squares.iter().fold(0u64, |m, &n| m | 1 << (n - 1));
    Pawns {
        white: mask(white),
        black: mask(black),
        to_move: to_move as u8,
    }
}

#[test]
fn capturing_every_pawn_or_blocking_wins() {
    let g = Hexapawn::default();
    assert_eq!(
        g.turn(&pawns(&[], &[5], WHITE)),
        Turn::Over(Outcome::Win(BLACK))
    );
    assert_eq!(
        g.turn(&pawns(&[4], &[], BLACK)),
        Turn::Over(Outcome::Win(WHITE))
    );
    // Taking one of two pawns: play goes on.
    let mut s = pawns(&[8], &[4, 5], WHITE);
    g.try_play(&mut s, Step { from: 7, to: 3 }).unwrap();
    assert_eq!(g.turn(&s), Turn::Move(BLACK));
    let mut s = pawns(&[7], &[4], WHITE);
    g.try_play(&mut s, Step { from: 6, to: 3 })
        .expect_err("7 to 4 is straight onto a pawn");
    let mut s = pawns(&[8], &[4], WHITE);
    g.try_play(&mut s, Step { from: 7, to: 3 }).unwrap();
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(WHITE)));
    // Blocked: White's pawn on 8 faces a pawn on 5 with nothing to take.
    let blocked = pawns(&[8], &[5], WHITE);
    assert!(g.moves(&blocked).is_empty());
    assert_eq!(g.turn(&blocked), Turn::Over(Outcome::Win(BLACK)));
    // Black on 1 and 3 faces White on 4 and 6, nothing diagonal: Black is blocked.
    let blocked = pawns(&[4, 6], &[1, 3], BLACK);
    assert_eq!(g.turn(&blocked), Turn::Over(Outcome::Win(WHITE)));
    assert!(g.moves(&blocked).is_empty());
    // With White to move there, White is the one blocked.
    assert_eq!(
        g.turn(&pawns(&[4, 6], &[1, 3], WHITE)),
        Turn::Over(Outcome::Win(BLACK))
    );
    // White on 5 can take on 1 or 3 even when 2 is in the way.
    assert_eq!(g.moves(&pawns(&[5], &[1, 2, 3], WHITE)).len(), 2);
}

#[test]
fn white_loses_the_start_with_perfect_play() {
    let g = Hexapawn::default();
    let mut memo = HashMap::new();
    assert!(!wins(&g, g.initial_state(), &mut memo));
    // Black has a winning answer to each of White's three openings.
    for opening in ["7 4", "8 5", "9 6"] {
        assert!(wins(&g, play(&g, &[opening]), &mut memo), "{opening}");
    }
}

#[test]
fn moves_read_in_the_seed_format_and_other_spellings() {
    let g = Hexapawn::default();
    let s = g.initial_state();
    let mv = Step { from: 6, to: 3 };
    for text in ["7 4", " 7 4 ", "7-4", "74", "7x4", "7  4"] {
        assert_eq!(g.parse_move(&s, text), Ok(mv), "{text:?}");
    }
    assert_eq!(g.format_move(&s, mv), "7 4");
    for (bad, why) in [
        ("", "two squares"),
        ("7", "two squares"),
        ("7 4 1", "two squares"),
        ("0 4", "not a square"),
        ("a b", "not a square"),
        ("resign", "not a square"),
        ("1 4", "no White pawn"),
        ("7 1", "not a pawn move"),
        ("8 4", "not a pawn move"),
        ("7 5", "not a pawn move"),
    ] {
        let err = g.parse_move(&s, bad).expect_err(bad);
        assert!(err.message.contains(why), "{bad:?}: {}", err.message);
    }
    assert_eq!(g.move_cells(&s, mv), vec![7, 4]);
}

#[test]
fn position_text_round_trips_and_rejects_unreachable_positions() {
    let g = Hexapawn::default();
    for s in Hexapawn::default().reachable().unwrap().iter() {
        let text = g.format_position(s);
        assert_eq!(g.parse_position(&text).as_ref(), Ok(s), "{text}");
    }
    assert_eq!(g.parse_position("bbb/.../www white"), Ok(g.initial_state()));
    for (bad, why) in [
        ("BBB/.../WWW B", "cannot arise"),
        ("BBB/WWW/... W", "cannot arise"),
        ("WBB/.../.WW B", "cannot arise"),
        ("BBB/.../WWW", "expected"),
        ("BBB/.../WW W", "3 squares"),
        ("BBB/WWW W", "3 rows"),
        ("BBQ/.../WWW W", "unexpected"),
        ("BBB/.../WWW X", "side to move"),
    ] {
        let err = g.parse_position(bad).expect_err(bad);
        assert!(err.message.contains(why), "{bad}: {}", err.message);
    }
}

#[test]
fn the_mirror_commutes_with_play() {
    let g = Hexapawn::default();
    assert_eq!(g.symmetry_count(), 2);
    for s in Hexapawn::default().reachable().unwrap().iter() {
        let m = g.map_state(s, 1);
        assert!(Hexapawn::default().reachable().unwrap().contains(&m));
        assert_eq!(g.map_state(&m, g.inverse_symmetry(1)), *s);
        assert_eq!(g.turn(&m), g.turn(s));
        let mut mapped: Vec<Step> = g
            .moves(s)
            .into_iter()
            .map(|mv| g.map_move(s, mv, 1))
            .collect();
        let mut direct = g.moves(&m);
        mapped.sort();
        direct.sort();
        assert_eq!(mapped, direct);
        for mv in g.moves(s) {
            let (mut a, mut b) = (*s, m);
            g.play_unchecked(&mut a, mv);
            g.play_unchecked(&mut b, g.map_move(s, mv, 1));
            assert_eq!(b, g.map_state(&a, 1));
        }
    }
    assert_eq!(
        g.map_move(&g.initial_state(), Step { from: 6, to: 3 }, 1),
        Step { from: 8, to: 5 }
    );
}

#[test]
fn render_and_view_show_the_numbered_board() {
    let g = Hexapawn::default();
    let s = play(&g, &["7 4"]);
    let text = g.render_text(&s);
    assert!(text.contains("B B B    1 2 3"));
    assert!(text.contains("W . .    4 5 6"));
    assert!(text.contains(". W W    7 8 9"));
    assert!(text.contains("Black to move"));
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 9);
    assert_eq!(v.pieces.len(), 6);
}

#[test]
fn variant_has_no_options() {
    assert!(Hexapawn::from_variant(&Variant::default()).is_ok());
    assert!(Hexapawn::from_variant(&Variant::parse("size=4").unwrap()).is_err());
}

#[test]
fn evaluate_favours_the_side_ahead() {
    let g = Hexapawn::default();
    let s = play(&g, &["8 5", "1 5"]);
    assert!(g.evaluate(&s, BLACK) > 0.0);
    assert!(g.evaluate(&s, WHITE) < 0.0);
    let won = play(&g, &["8 5", "3 6", "5 1"]);
    assert_eq!(g.evaluate(&won, WHITE), 1.0);
}

/// Stenger's own rules (Listing 2), written with its square arithmetic on an array
/// of owners: squares 1-9, player 1 White, 2 Black.
mod seed_rules {
    pub fn legal(board: &[u8; 10], who: u8, from: usize, to: usize) -> bool {
        let valid_forward = {
            let d = to as i32 - from as i32;
            (if who == 1 { d } else { -d }) == -3
        };
        let valid_capture = {
            let mut d = to as i32 - from as i32;
            if who != 1 {
                d -= 6;
            }
            match from % 3 {
                0 => d == -4,
                1 => d == -2,
                _ => d == -4 || d == -2,
            }
        };
        let free = board[from] == who && board[to] == 0 && valid_forward;
        let capture = board[from] == who && board[to] != who && board[to] != 0 && valid_capture;
        free || capture
    }

    pub fn all_legal(board: &[u8; 10], who: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for from in 1..=9 {
            if board[from] == who {
                for to in 1..=9 {
                    if legal(board, who, from, to) {
                        out.push((from, to));
                    }
                }
            }
        }
        out
    }
}

/// Every position reached under Stenger's rules, with its game state in ours: the
/// seed's boards paired with ours, checking move lists and results on the way.
fn walk_with_seed_rules() -> Vec<([u8; 10], u8, Pawns)> {
    let g = Hexapawn::default();
    let mut stack = vec![([0u8, 2, 2, 2, 0, 0, 0, 1, 1, 1], 1u8, g.initial_state())];
    let mut seen = HashMap::new();
    while let Some((board, who, state)) = stack.pop() {
        if seen.insert(state, (board, who)).is_some() {
            continue;
        }
        let seed_moves = seed_rules::all_legal(&board, who);
        let reached_far_row = (1..=3).any(|i| board[i] == 1) || (7..=9).any(|i| board[i] == 2);
        if reached_far_row {
            // Stenger's article declares the mover the winner as the pawn arrives.
            assert_eq!(
                g.turn(&state),
                Turn::Over(Outcome::Win(if who == 1 { BLACK } else { WHITE }))
            );
            continue;
        }
        if seed_moves.is_empty() {
            // No legal move (no pawns left, or all blocked): the side to move loses.
            assert_eq!(
                g.turn(&state),
                Turn::Over(Outcome::Win(if who == 1 { BLACK } else { WHITE }))
            );
            continue;
        }
        let mut ours: Vec<(usize, usize)> = g
            .moves(&state)
            .iter()
            .map(|m| (m.from as usize + 1, m.to as usize + 1))
            .collect();
        ours.sort();
        assert_eq!(ours, seed_moves, "{}", g.format_position(&state));
        for (from, to) in seed_moves {
            let mut next = board;
            next[from] = 0;
            next[to] = who;
            let mut t = state;
            g.play_unchecked(
                &mut t,
                Step {
                    from: from as u8 - 1,
                    to: to as u8 - 1,
                },
            );
            stack.push((next, 3 - who, t));
        }
    }
    seen.into_iter().map(|(s, (b, w))| (b, w, s)).collect()
}

#[test]
fn rules_agree_with_the_seed_listing_everywhere() {
    let all = walk_with_seed_rules();
    assert_eq!(all.len(), Hexapawn::default().reachable_count());
}

#[test]
fn black_to_move_positions_counted_with_the_seed_rules() {
    let g = Hexapawn::default();
    let mirror = |b: &[u8; 10]| -> [u8; 10] {
        let mut m = *b;
        for r in 0..3 {
            m.swap(r * 3 + 1, r * 3 + 3);
        }
        m
    };
    let black_decisions: Vec<[u8; 10]> = walk_with_seed_rules()
        .into_iter()
        .filter(|(b, who, _)| {
            *who == 2
                && !seed_rules::all_legal(b, 2).is_empty()
                && !(1..=3).any(|i| b[i] == 1)
                && !(7..=9).any(|i| b[i] == 2)
        })
        .map(|(b, _, _)| b)
        .collect();
    let orbits: std::collections::HashSet<[u8; 10]> = black_decisions
        .iter()
        .map(|b| (*b).min(mirror(b)))
        .collect();
    let ours = Hexapawn::default()
        .reachable()
        .unwrap()
        .iter()
        .filter(|s| g.turn(s) == Turn::Move(BLACK))
        .count();
    let our_orbits: std::collections::HashSet<Pawns> = Hexapawn::default()
        .reachable()
        .unwrap()
        .iter()
        .filter(|s| g.turn(s) == Turn::Move(BLACK))
        .map(|s| (*s).min(g.map_state(s, 1)))
        .collect();
    assert_eq!(ours, black_decisions.len());
    assert_eq!(our_orbits.len(), orbits.len());
    // White's three openings: 3 positions, 2 up to the mirror.
    assert!(black_decisions.len() > 3 && orbits.len() < black_decisions.len());
    eprintln!(
        "black to move: {} positions, {} up to the mirror",
        ours,
        our_orbits.len()
    );
}
