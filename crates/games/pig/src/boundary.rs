//! The roll/hold boundary of best play, as Neller and Presser drew it: for the
//! mover's banked score `i` and the other's `j`, the least turn total `k` at
//! which holding has a strictly better chance than rolling (ties roll, as the
//! `optimal` player plays). Offered as the tool `hold-boundary` (`tabula tool
//! hold-boundary "30 40"`, `POST /api/games/pig/tools/hold-boundary`), whose data
//! the browser module (crates/games/pig/web/pig.js) draws.

use crate::state::{Move, State};
use crate::{solve, Pig};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tabula_core::{Budget, Registered, ToolAnswer, ToolError, Variant};

/// How long the tool waits for the exact table before answering that it is
/// still being built (the build goes on for the next request).
const WAIT: Duration = Duration::from_secs(20);

/// The least turn total at which best play holds with `mine` banked against
/// `theirs`, or `None` when it rolls on until the goal. `mine` and `theirs`
/// must be below the goal.
pub fn hold_at(sol: &solve::Solution, game: &Pig, mine: u16, theirs: u16) -> Option<u16> {
    // No turn total a roll cannot make: the least is one scoring roll.
    (game.least_points_per_roll()..game.goal().saturating_sub(mine)).find(|&k| {
        let state = State {
            scores: [mine, theirs],
            turn_total: k,
            side: 0,
            rolling: false,
        };
        matches!(sol.move_values(&state).first(), Some((Move::Hold, _)))
    })
}

/// The whole boundary: `rows[mine][theirs]`, scores 0 to goal - 1.
pub fn table(sol: &solve::Solution, game: &Pig) -> Vec<Vec<Option<u16>>> {
    (0..game.goal())
        .map(|i| (0..game.goal()).map(|j| hold_at(sol, game, i, j)).collect())
        .collect()
}

/// The boundaries this process has worked out, by (goal, dice): each is small
/// (at most 200 x 200 entries) beside the exact table it comes from, which the
/// process keeps anyway, and working one out reads the table a million times.
type Boundaries = Mutex<HashMap<(u16, u8), Arc<Vec<Vec<Option<u16>>>>>>;

/// [`table`] for `game`, worked out once per process.
pub fn shared_table(sol: &solve::Solution, game: &Pig) -> Arc<Vec<Vec<Option<u16>>>> {
    static KEPT: OnceLock<Boundaries> = OnceLock::new();
    let kept = KEPT.get_or_init(Default::default);
    let key = (game.goal(), game.dice());
    if let Some(t) = kept.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return t.clone();
    }
    // Worked out outside the lock: two first requests at once both work it out.
    let t = Arc::new(table(sol, game));
    kept.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, t.clone());
    t
}

/// The tool the game offers: the boundary of a variant, with one pair of scores
/// said in words.
pub const TOOL: tabula_core::Tool = tabula_core::Tool {
    name: "hold-boundary",
    title: "When best play holds",
    about: "Give your score and the other player's (and a variant, such as goal=50 or dice=2): \
            the turn total at which best play stops rolling and holds.",
    example: "30 40",
    run: answer,
};

/// Reads `[options] [MINE THEIRS]`: options as `name=value` words, then none or
/// two scores.
fn answer(input: &str) -> Result<ToolAnswer, ToolError> {
    let bad = |s: String| ToolError::Input(s);
    let (mut options, mut scores) = (Vec::new(), Vec::new());
    for word in input.split([' ', ',']).filter(|w| !w.trim().is_empty()) {
        if word.contains('=') {
            options.push(word);
        } else {
            let n: u16 = word.trim().parse().map_err(|_| {
                bad(format!(
                    "'{word}' is not a score: write your score and the other player's, such as 30 40"
                ))
            })?;
            scores.push(n);
        }
    }
    let variant = Variant::parse(&options.join(",")).map_err(|e| bad(e.to_string()))?;
    let game = Pig::from_variant(&variant).map_err(|e| bad(e.to_string()))?;
    let goal = game.goal();
    let pair = match scores[..] {
        [] => None,
        [mine, theirs] if mine < goal && theirs < goal => Some((mine, theirs)),
        [_, _] => return Err(bad(format!("both scores must be below the goal, {goal}"))),
        _ => {
            return Err(bad(
                "write two scores, yours and the other player's, such as 30 40".into(),
            ))
        }
    };
    // Waits a bounded time whatever the caller's budget: the table's build is
    // bounded by the memory ledger and goes on in the background.
    let until = Budget::default().with_deadline(Instant::now() + WAIT);
    let sol = solve::shared(&game, until.ledger().limit(), &until, &|_| {}).map_err(|e| {
        bad(format!(
            "the exact table is not ready ({e}); ask again in a moment"
        ))
    })?;
    let rows = shared_table(&sol, &game);
    let mut lines = Vec::new();
    let mut data = serde_json::json!({
        "goal": goal,
        "dice": game.dice(),
        "hold_at": *rows,
    });
    if let Some((mine, theirs)) = pair {
        let at = rows[mine as usize][theirs as usize];
        lines.push(match at {
            Some(k) => format!(
                "With {mine} points against {theirs}, best play rolls until the turn reaches {k} points, then holds."
            ),
            None => format!(
                "With {mine} points against {theirs}, best play never holds: it rolls on for the goal."
            ),
        });
        data["mine"] = mine.into();
        data["theirs"] = theirs.into();
        data["at"] = serde_json::json!(at);
    } else {
        lines.push(format!(
            "The turn totals at which best play holds in {}, for every pair of scores.",
            game.title()
        ));
    }
    Ok(ToolAnswer { lines, data })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At 0-0 best play holds at 21, where Neller and Presser's "keep pace"
    /// rule (fitted to the optimal policy) holds too.
    #[test]
    fn the_start_holds_at_21_and_the_tool_says_it() {
        let a = (TOOL.run)("0 0").expect("answers");
        assert_eq!(a.data["at"], 21, "{:?}", a.lines);
        assert!(a.lines[0].contains("21 points"), "{:?}", a.lines);
        assert_eq!(a.data["hold_at"].as_array().map(Vec::len), Some(100));
    }

    #[test]
    fn garbage_is_refused_in_words() {
        for bad in ["x y", "30", "100 0", "goal=1000 1 1", "1 2 3"] {
            assert!(matches!((TOOL.run)(bad), Err(ToolError::Input(_))), "{bad}");
        }
    }

    /// The boundary agrees with the optimal player's choice at every turn total
    /// below it and at it (goal 20: every pair of scores).
    #[test]
    fn the_boundary_is_where_optimal_first_holds() {
        let game = Pig::new(20, 1, crate::Start::First);
        let sol = solve::shared(&game, 1 << 30, &Budget::default(), &|_| {}).unwrap();
        for i in 0..20 {
            for j in 0..20 {
                let at = hold_at(&sol, &game, i, j);
                for k in 2..20 - i {
                    let s = State {
                        scores: [i, j],
                        turn_total: k,
                        side: 0,
                        rolling: false,
                    };
                    let best = sol.move_values(&s)[0].0;
                    if !matches!(at, Some(a) if k >= a) {
                        assert_eq!(best, Move::Roll, "{i}-{j}+{k}");
                    }
                    if at == Some(k) {
                        assert_eq!(best, Move::Hold, "{i}-{j}+{k}");
                    }
                }
            }
        }
    }
}
