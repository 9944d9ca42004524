//! Mu Torere's further rule sets: misère play (`play=misere`, who cannot move wins)
//! and Ludii's "First Move" rules observed by Best (`rules=first_move`: no
//! restriction on the putahi, but the first move must leave the other player a
//! move). Values come from the generic retrograde solver and, independently, from a
//! plain fixed-point iteration over the position graph (the graph has cycles, so
//! what is never forced stays a draw).

use std::collections::HashMap;
use tabula_ai::retrograde::Solution;
use tabula_core::{Game, GameExt, Outcome, Registered, Turn, Value, Variant};
use tabula_core::{Notation, Presentation};
use tabula_mutorere::{MtState, MuTorere};

fn game(variant: &str) -> MuTorere {
    MuTorere::from_variant(&Variant::parse(variant).unwrap()).unwrap()
}

/// Win/loss/draw for the side to move, with remoteness, by iterating to a fixed point:
/// a position is won in n+1 if some move reaches a position lost in n, lost in n+1
/// if every move reaches a position won in at most n (and one in exactly n).
fn fixed_point(g: &MuTorere) -> HashMap<MtState, (Value, u32)> {
    let mut all = vec![g.initial_state()];
    let mut index = HashMap::from([(g.initial_state(), 0usize)]);
    let mut i = 0;
    while i < all.len() {
        let s = all[i];
        for mv in g.moves(&s) {
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            if let std::collections::hash_map::Entry::Vacant(e) = index.entry(t) {
                e.insert(all.len());
                all.push(t);
            }
        }
        i += 1;
    }
    let mut value: HashMap<MtState, (Value, u32)> = HashMap::new();
    for s in &all {
        if let Turn::Over(Outcome::Win(w)) = g.turn(s) {
            let v = if w == usize::from(s.to_move) {
                Value::Win
            } else {
                Value::Loss
            };
            value.insert(*s, (v, 0));
        }
    }
    let mut quiet = 0;
    for n in 0.. {
        let mut changed = false;
        for s in &all {
            if value.contains_key(s) {
                continue;
            }
            let children: Vec<Option<(Value, u32)>> = g
                .moves(s)
                .into_iter()
                .map(|mv| {
                    let mut t = *s;
                    g.play_unchecked(&mut t, mv);
                    value.get(&t).copied()
                })
                .collect();
            if children.contains(&Some((Value::Loss, n))) {
                value.insert(*s, (Value::Win, n + 1));
                changed = true;
            } else if children
                .iter()
                .all(|c| matches!(c, Some((Value::Win, r)) if *r <= n))
                && children.contains(&Some((Value::Win, n)))
            {
                value.insert(*s, (Value::Loss, n + 1));
                changed = true;
            }
        }
        quiet = if changed { 0 } else { quiet + 1 };
        if quiet > 2 {
            break;
        }
    }
    for s in &all {
        value.entry(*s).or_insert((Value::Draw, 0));
    }
    value
}

/// (variant, positions, wins, losses, draws, start value, start remoteness).
type Solved = (&'static str, usize, usize, usize, usize, Value, u32);
const SOLVED: [Solved; 4] = [
    ("play=misere", 1180, 80, 0, 1100, Value::Draw, 0),
    ("rules=free,play=misere", 1180, 80, 0, 1100, Value::Draw, 0),
    ("rules=first_move", 1181, 320, 161, 700, Value::Loss, 4),
    (
        "rules=first_move,play=misere",
        1181,
        80,
        0,
        1101,
        Value::Draw,
        0,
    ),
];

#[test]
fn solved_values_agree_between_the_solver_and_a_fixed_point() {
    let mut report = Vec::new();
    for (variant, ..) in SOLVED {
        let g = game(variant);
        let sol = Solution::solve(&g, &g.initial_state(), 100_000).unwrap();
        let st = sol.stats();
        let fp = fixed_point(&g);
        assert_eq!(fp.len(), st.positions, "{variant}");
        for (s, &(v, r)) in &fp {
            let graded = sol.grade(s).unwrap();
            assert_eq!(graded.value, v, "{variant} {}", g.format_position(s));
            if v != Value::Draw {
                assert_eq!(graded.remoteness, r, "{variant} {}", g.format_position(s));
            }
        }
        report.push((
            variant,
            st.positions,
            st.wins,
            st.losses,
            st.draws,
            st.start.value,
            st.start.remoteness,
        ));
    }
    assert_eq!(report, SOLVED.to_vec());
}

#[test]
fn in_misere_play_the_blocked_side_wins() {
    let g = game("play=misere");
    let normal = MuTorere::default();
    let mut found = 0;
    // Point 1 empty, its neighbours 2 and 8 and the putahi Black: White cannot move.
    for text in [".bwwwwbb/b w", "w.wbbbbw/w b"] {
        let Ok(pos) = g.parse_position(text) else {
            continue;
        };
        if g.moves(&pos).is_empty() {
            found += 1;
            let stuck = usize::from(pos.to_move);
            assert_eq!(g.turn(&pos), Turn::Over(Outcome::Win(stuck)), "{text}");
            assert_eq!(
                normal.turn(&pos),
                Turn::Over(Outcome::Win(1 - stuck)),
                "{text}"
            );
            assert!(g.render_text(&pos).contains("misère"), "{text}");
        }
    }
    assert_eq!(found, 2, "both examples are blocked");
}

#[test]
fn first_move_rules_forbid_only_a_blocking_first_move() {
    let free = game("rules=free");
    let first = game("rules=first_move");
    let start = free.initial_state();
    let blocking: Vec<_> = free
        .moves(&start)
        .into_iter()
        .filter(|&mv| {
            let mut t = start;
            free.play_unchecked(&mut t, mv);
            free.moves(&t).is_empty()
        })
        .collect();
    assert!(
        !blocking.is_empty(),
        "under free rules White can block at once"
    );
    for mv in free.moves(&start) {
        assert_eq!(first.moves(&start).contains(&mv), !blocking.contains(&mv));
    }
    let mut s = start;
    let err = first.try_play(&mut s, blocking[0]).unwrap_err();
    assert!(err.to_string().contains("first move"), "{err}");
    // After the first move the putahi is free as under rules=free.
    let mv = first.moves(&start)[0];
    let mut after = start;
    first.play_unchecked(&mut after, mv);
    let mut as_free = after;
    as_free.opening_plies = 0;
    assert_eq!(first.moves(&after), free.moves(&as_free));
    assert!(first.format_position(&after).ends_with(" 1"));
    assert_eq!(
        first.parse_position(&first.format_position(&after)),
        Ok(after)
    );
}
