//! Exact values of Northcott positions: Nim on the gaps.
//!
//! A position's value is the nim-sum of its gaps (the empty cells between the two
//! pieces of each row): the side to move wins iff it is not zero. Retreats do not
//! change this: whoever stands to win answers a retreat by advancing the same row by
//! the same amount, and the winner's pieces only ever advance, so the winner also
//! wins in a bounded number of moves (the loser cannot escape into a cycle).

use crate::game::{Northcott, NorthcottMove, NorthcottState, Side};
use crate::player::{xpat_reply, ReplyKind};
use serde::Serialize;
use std::sync::Mutex;
use tabula_ai::retrograde::Solution;
use tabula_core::{ExactAnalysis, Notation};
use tabula_core::{FactValue, Game, Graded, Oracle, Section, Table, Turn, Value};

/// Every move that leaves the opponent a zero nim-sum, row by row. Unlike Nim, a
/// retreat can win too: when `gap ^ nim-sum` is larger than the gap and the piece has
/// room behind it.
pub fn winning_moves(game: &Northcott, state: &NorthcottState) -> Vec<NorthcottMove> {
    let s = game.nim_sum(state);
    let mut out = Vec::new();
    if s == 0 {
        return out;
    }
    let side = state.side();
    for r in 0..game.ny() {
        let (o, x, g) = (state.o[r] as i32, state.x[r] as i32, state.gap(r) as i32);
        let t = g ^ s as i32;
        // The mover's piece moves by `g - t` toward the enemy (negative: a retreat).
        let to = match side {
            Side::O => o + (g - t),
            Side::X => x - (g - t),
        };
        if (0..game.nx() as i32).contains(&to) {
            out.push(NorthcottMove::new(r as u8, to as u8));
        }
    }
    out
}

/// An upper bound on the remoteness: the winner's Nim strategy only advances its own
/// pieces, each at most to the cell next to the far edge, so it needs at most `W`
/// moves (the sum of that room), and the game lasts at most `2W - 1` plies from a won
/// position and `2W` from a lost one.
pub fn remoteness_upper_bound(game: &Northcott, state: &NorthcottState) -> u32 {
    if game.turn(state).is_over() {
        return 0;
    }
    let wins = game.nim_sum(state) != 0;
    let winner = if wins {
        state.side()
    } else {
        state.side().other()
    };
    let room: u32 = (0..game.ny())
        .map(|r| match winner {
            Side::O => (game.nx() - 2 - state.o[r] as usize) as u32,
            Side::X => (state.x[r] as u32).saturating_sub(1),
        })
        .sum();
    if wins {
        (2 * room).saturating_sub(1).max(1)
    } else {
        2 * room
    }
}

/// The exact oracle: the value from the nim-sum; the remoteness from the generic
/// retrograde solver on small boards, and otherwise [`remoteness_upper_bound`] (not
/// exact).
///
/// On a small board the whole graph reachable from the start is solved up front; the
/// few positions it misses (such as every row `OX....` with X to move: O cannot have
/// retreated onto the edge next to X) are solved from themselves when first asked.
pub struct NorthcottOracle {
    solution: Option<Solution<Northcott>>,
    extra: Mutex<Vec<Solution<Northcott>>>,
}

impl NorthcottOracle {
    /// Builds the oracle, solving the whole board first when it is small.
    pub fn new(game: Northcott, progress: &dyn Fn(f64)) -> Self {
        let solution = if game.is_small() {
            let limit = game.position_count() as usize + 1;
            Solution::solve_with_progress(&game, &game.initial_state(), limit, progress).ok()
        } else {
            None
        };
        NorthcottOracle {
            solution,
            extra: Mutex::new(Vec::new()),
        }
    }

    /// The retrograde solution, when the board is small.
    pub fn solution(&self) -> Option<&Solution<Northcott>> {
        self.solution.as_ref()
    }

    /// Remoteness and whether it is exact.
    pub fn remoteness(&self, game: &Northcott, state: &NorthcottState) -> (u32, bool) {
        let Some(main) = self.solution.as_ref() else {
            return (remoteness_upper_bound(game, state), false);
        };
        if let Some(g) = main.grade(state) {
            return (g.remoteness, true);
        }
        let mut extra = match self.extra.lock() {
            Ok(e) => e,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(g) = extra.iter().find_map(|s| s.grade(state)) {
            return (g.remoteness, true);
        }
        match Solution::solve(game, state, game.position_count() as usize + 1) {
            Ok(sol) => {
                let r = sol.grade(state).map(|g| g.remoteness);
                extra.push(sol);
                match r {
                    Some(r) => (r, true),
                    None => (remoteness_upper_bound(game, state), false),
                }
            }
            Err(_) => (remoteness_upper_bound(game, state), false),
        }
    }
}

impl Oracle<Northcott> for NorthcottOracle {
    fn memory_bytes(&self) -> u64 {
        // Not while a solve holds the extra solutions: then they are not counted.
        let extra = match self.extra.try_lock() {
            Ok(e) => e.iter().map(Solution::memory_bytes).sum(),
            Err(_) => 0,
        };
        self.solution.as_ref().map_or(0, Solution::memory_bytes) + extra
    }

    fn grade(&self, game: &Northcott, state: &NorthcottState) -> Option<Graded> {
        let value = if game.nim_sum(state) != 0 {
            Value::Win
        } else {
            Value::Loss
        };
        let (remoteness, _) = self.remoteness(game, state);
        Some(Graded { value, remoteness })
    }

    fn remoteness_exact(&self, game: &Northcott, state: &NorthcottState) -> bool {
        // Solved once and kept: asking after `grade` finds the same solution.
        self.remoteness(game, state).1
    }
}

/// One winning move in the analysis.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct WinningMove {
    /// The move in the game's notation (`2:1->5`).
    #[serde(rename = "move")]
    pub notation: String,
    /// Row, 1-based.
    pub row: usize,
    /// Cell before, 1-based.
    pub from: usize,
    /// Cell after, 1-based.
    pub to: usize,
    /// `advance` (toward the enemy) or `retreat`.
    pub kind: &'static str,
    /// The row's gap before the move.
    pub gap_before: u8,
    /// The row's gap after the move.
    pub gap_after: u8,
}

/// The slides' computer's answer in this position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct XpatReply {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The slides' function that chose it: `nim` or `lose`.
    pub function: &'static str,
    /// What it does, in words.
    pub reason: &'static str,
}

/// What `tabula analyze northcott` adds: the gaps, their nim-sum, every winning move.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct NorthcottAnalysis {
    /// Board size `NXxNY`.
    pub size: String,
    /// Empty cells between O and X in each row, top row first.
    pub gaps: Vec<u8>,
    /// Nim-sum of the gaps.
    pub nim_sum: u8,
    /// `O` or `X`.
    pub side_to_move: &'static str,
    /// True when the side to move wins with perfect play (nim-sum not 0).
    pub side_to_move_wins: bool,
    /// The rule in words.
    pub rule: String,
    /// Every winning move (empty when the side to move loses).
    pub winning_moves: Vec<WinningMove>,
    /// What the slides' computer plays here (`null` when the side to move cannot move).
    pub xpat_reply: Option<XpatReply>,
    /// Plies to the end under perfect play: exact on small boards when an oracle was
    /// given, otherwise an upper bound (see `remoteness_exact`).
    pub remoteness: u32,
    /// Whether `remoteness` is exact.
    pub remoteness_exact: bool,
}

impl NorthcottAnalysis {
    /// The analysis as sections every face shows: the gaps and their nim-sum,
    /// the moves that win, and what the slides' computer would play.
    pub fn sections(&self) -> Vec<Section> {
        let mut rule = Section::new("The gaps and their nim-sum")
            .note(format!(
                "The nim-sum of the gaps is {}: {} to move {}.",
                self.nim_sum,
                self.side_to_move,
                if self.side_to_move_wins {
                    "wins"
                } else {
                    "loses"
                }
            ))
            .with("Board", FactValue::Text(self.size.clone()))
            .with(
                "Gaps, top row first",
                FactValue::List(self.gaps.iter().map(u8::to_string).collect()),
            )
            .with("Nim-sum", FactValue::Integer(self.nim_sum as i64));
        if !self.remoteness_exact {
            rule.push(
                "Plies to the end",
                FactValue::Text(format!(
                    "at most {} (too many positions to count them exactly)",
                    self.remoteness
                )),
            );
        }
        let mut out = vec![rule];
        if !self.winning_moves.is_empty() {
            let rows = self
                .winning_moves
                .iter()
                .map(|m| {
                    vec![
                        m.notation.clone(),
                        m.row.to_string(),
                        m.from.to_string(),
                        m.to.to_string(),
                        m.kind.to_string(),
                        format!("{} -> {}", m.gap_before, m.gap_after),
                    ]
                })
                .collect();
            out.push(
                Section::new("Winning moves").with(
                    "Moves",
                    FactValue::Table(Table {
                        columns: ["move", "row", "from", "to", "kind", "gap"]
                            .map(String::from)
                            .to_vec(),
                        rows,
                    }),
                ),
            );
        }
        if let Some(r) = &self.xpat_reply {
            out.push(
                Section::new("What the slides' program plays here")
                    .note({
                        // The reason names the program's function first ("nim: ..."):
                        // a player reads only what it does.
                        let what = r.reason.split_once(": ").map_or(r.reason, |(_, w)| w);
                        let mut chars = what.chars();
                        let first = chars.next().map(|c| c.to_uppercase().to_string());
                        format!("{}{}.", first.unwrap_or_default(), chars.as_str())
                    })
                    .with("Move", FactValue::Text(r.notation.clone())),
            );
        }
        out
    }
}

/// The analysis of a position (`oracle` gives exact remoteness on small boards).
pub fn analyze(
    game: &Northcott,
    state: &NorthcottState,
    oracle: Option<&NorthcottOracle>,
) -> NorthcottAnalysis {
    let gaps = game.gaps(state);
    let s = game.nim_sum(state);
    let side = state.side();
    let winning_moves = winning_moves(game, state)
        .into_iter()
        .map(|mv| {
            let r = mv.row as usize;
            let from = state.piece(side, r);
            let mut after = *state;
            game.play_unchecked(&mut after, mv);
            let advance = after.gap(r) < state.gap(r);
            WinningMove {
                notation: game.format_move(state, mv),
                row: r + 1,
                from: from as usize + 1,
                to: mv.to as usize + 1,
                kind: if advance { "advance" } else { "retreat" },
                gap_before: state.gap(r),
                gap_after: after.gap(r),
            }
        })
        .collect();
    let xpat_reply = if matches!(game.turn(state), Turn::Move(_)) {
        xpat_reply(game, state).map(|(mv, kind)| XpatReply {
            notation: game.format_move(state, mv),
            function: if kind == ReplyKind::Nim {
                "nim"
            } else {
                "lose"
            },
            reason: kind.reason(),
        })
    } else {
        None
    };
    let (remoteness, remoteness_exact) = match oracle {
        Some(o) => o.remoteness(game, state),
        None => (remoteness_upper_bound(game, state), false),
    };
    NorthcottAnalysis {
        size: format!("{}x{}", game.cols, game.rows),
        gaps,
        nim_sum: s,
        side_to_move: side.letter(),
        side_to_move_wins: s != 0,
        rule: format!(
            "nim-sum of the gaps {} {} 0: {} to move {}",
            s,
            if s != 0 { "≠" } else { "=" },
            side.letter(),
            if s != 0 { "wins" } else { "loses" }
        ),
        winning_moves,
        xpat_reply,
        remoteness,
        remoteness_exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{GameExt, Registered, Variant};

    fn game(size: &str) -> Northcott {
        Northcott::from_variant(&Variant::parse(&format!("size={size}")).unwrap()).unwrap()
    }

    #[test]
    fn winning_moves_are_exactly_the_moves_to_nim_sum_zero() {
        let g = game("9x3");
        let mut rng = tabula_core::rng_from_seed(7);
        let mut s = g.initial_state();
        for _ in 0..300 {
            let expected: Vec<_> = g
                .moves(&s)
                .into_iter()
                .filter(|&mv| {
                    let mut t = s;
                    g.play_unchecked(&mut t, mv);
                    g.nim_sum(&t) == 0
                })
                .collect();
            let mut got = winning_moves(&g, &s);
            got.sort();
            let mut want = expected;
            want.sort();
            assert_eq!(got, want, "{}", g.format_position(&s));
            if g.random_playout(&mut s, &mut rng, 1) == 0 {
                s = g.initial_state();
            }
        }
    }

    #[test]
    fn a_retreat_can_be_the_winning_move() {
        // Gaps 1 and 2 (nim-sum 3): O can close row 2 to 1, or retreat in row 1 to gap 2.
        let g = game("6x2");
        let s = g.parse_position("1O1X2/O2X2 O").unwrap();
        let a = analyze(&g, &s, None);
        let kinds: Vec<_> = a
            .winning_moves
            .iter()
            .map(|m| (m.notation.as_str(), m.kind))
            .collect();
        assert_eq!(kinds, vec![("1:2->1", "retreat"), ("2:1->2", "advance")]);
    }

    #[test]
    fn analysis_json_fields() {
        let g = game("16x4");
        let a = serde_json::to_value(analyze(&g, &g.initial_state(), None)).unwrap();
        assert_eq!(a["gaps"], serde_json::json!([14, 14, 14, 14]));
        assert_eq!(a["nim_sum"], 0);
        assert_eq!(a["side_to_move_wins"], false);
        assert_eq!(a["winning_moves"], serde_json::json!([]));
        assert_eq!(a["xpat_reply"]["function"], "lose");
        assert_eq!(a["xpat_reply"]["move"], "1:1->2");
        assert_eq!(a["remoteness_exact"], false);
    }
}
