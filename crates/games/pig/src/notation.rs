//! Text forms of moves and positions (see crates/games/pig/docs/pig.md).
//!
//! Moves: `roll` (or `r`), `hold` (or `h`); what chance decides: `die 4`,
//! `dice 2+5` (two dice, smaller first), `start 1` / `start 2`. A bare number at a
//! chance node is the die's face (or the starting player).
//!
//! Positions: `S1-S2:T`, the banked scores of Player 1 and Player 2, then `T`: `?`
//! before the draw for the first player, else the player whose turn it is (`1` or
//! `2`), followed by `+K` when the turn total K is not 0, and `r` when the player has
//! chosen to roll and the die is about to land. Examples: `0-0:1` (the start),
//! `12-30:2+8` (Player 2 to choose, 8 points this turn), `12-30:2+8r` (Player 2
//! rolls), `103-30:1` (Player 1 has won).

use crate::state::{Move, State, NO_SIDE};
use crate::Pig;
use tabula_core::ParseError;

/// Writes a move.
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Roll => "roll".into(),
        Move::Hold => "hold".into(),
        Move::Die(d) => format!("die {d}"),
        Move::Dice(a, b) => format!("dice {a}+{b}"),
        Move::Starter(s) => format!("start {}", s as u32 + 1),
    }
}

fn face(text: &str) -> Result<u8, ParseError> {
    match text.trim().parse::<u8>() {
        Ok(n @ 1..=6) => Ok(n),
        _ => Err(ParseError::new(format!(
            "a die shows 1 to 6, not '{}'",
            text.trim()
        ))),
    }
}

/// Reads a move typed in `state` (legality is checked when it is played).
pub fn parse_move(game: &Pig, state: &State, text: &str) -> Result<Move, ParseError> {
    let words = text.trim().to_ascii_lowercase();
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.as_str() {
        "roll" | "r" => return Ok(Move::Roll),
        "hold" | "h" => return Ok(Move::Hold),
        _ => {}
    }
    let two = |rest: &str| -> Result<Move, ParseError> {
        let (a, b) = rest
            .split_once(['+', ' ', ','])
            .ok_or_else(|| ParseError::new("two dice are written like 'dice 2+5'"))?;
        let (a, b) = (face(a)?, face(b)?);
        Ok(Move::Dice(a.min(b), a.max(b)))
    };
    if let Some(rest) = words.strip_prefix("dice") {
        return two(rest.trim());
    }
    if let Some(rest) = words.strip_prefix("die") {
        return Ok(Move::Die(face(rest)?));
    }
    if let Some(rest) = words.strip_prefix("start") {
        return match rest.trim() {
            "1" => Ok(Move::Starter(0)),
            "2" => Ok(Move::Starter(1)),
            other => Err(ParseError::new(format!(
                "the player to start is 1 or 2, not '{other}'"
            ))),
        };
    }
    if state.side == NO_SIDE && (words == "1" || words == "2") {
        return Ok(Move::Starter(if words == "1" { 0 } else { 1 }));
    }
    if !words.is_empty() && words.chars().all(|c| c.is_ascii_digit()) && game.dice() == 1 {
        return Ok(Move::Die(face(&words)?));
    }
    if game.dice() == 2 && words.contains('+') {
        return two(&words);
    }
    Err(ParseError::new(format!(
        "cannot read move '{}': type 'roll' or 'hold'",
        clip(text.trim())
    )))
}

/// Writes a position in the documented text form.
pub fn format_position(state: &State) -> String {
    let mut out = format!("{}-{}:", state.scores[0], state.scores[1]);
    match state.side() {
        None => out.push('?'),
        Some(s) => out.push_str(&(s + 1).to_string()),
    }
    if state.turn_total > 0 {
        out.push_str(&format!("+{}", state.turn_total));
    }
    if state.rolling {
        out.push('r');
    }
    out
}

/// Reads a position and checks it against the rules of `game`.
pub fn parse_position(game: &Pig, text: &str) -> Result<State, ParseError> {
    let bad = |why: String| ParseError::new(why);
    let t = text.trim();
    let (scores, rest) = t.split_once(':').ok_or_else(|| {
        bad("a position looks like '12-30:2+8': the scores, a colon, then whose turn it is".into())
    })?;
    let (a, b) = scores
        .split_once('-')
        .ok_or_else(|| bad("the scores are written like '12-30'".into()))?;
    let goal = game.goal();
    // A winner's banked score can pass the goal by less than one roll's worth.
    let most = goal + game.most_points_per_roll() - 1;
    let number = |s: &str, what: &str| -> Result<u16, ParseError> {
        let s = s.trim();
        if s.is_empty() || s.len() > 5 || !s.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad(format!("{what} must be a whole number, not '{s}'")));
        }
        let n: u32 = s
            .parse()
            .map_err(|_| bad(format!("{what} '{s}' is too large")))?;
        if n > most as u32 {
            return Err(bad(format!("{what} {n} is more than this game allows")));
        }
        Ok(n as u16)
    };
    let scores = [number(a, "a score")?, number(b, "a score")?];
    let rest = rest.trim();
    let (rest, rolling) = match rest.strip_suffix('r') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (side_text, total_text) = match rest.split_once('+') {
        Some((s, k)) => (s, Some(k)),
        None => (rest, None),
    };
    let side = match side_text.trim() {
        "?" => NO_SIDE,
        "1" => 0,
        "2" => 1,
        other => {
            return Err(bad(format!(
                "after the colon comes the player to move, 1 or 2 (or ? before the draw), not '{other}'"
            )))
        }
    };
    let turn_total = match total_text {
        Some(k) => number(k, "the turn total")?,
        None => 0,
    };
    let state = State {
        scores,
        turn_total,
        side,
        rolling,
    };
    if side == NO_SIDE {
        if scores != [0, 0] || turn_total != 0 || rolling {
            return Err(bad(
                "only the start, 0-0:?, waits for the draw of who begins".into(),
            ));
        }
        return Ok(state);
    }
    match state.winner(goal) {
        Some(w) => {
            if scores[1 - w] >= goal {
                return Err(bad("both players cannot have reached the goal".into()));
            }
            if w != side as usize || turn_total != 0 || rolling {
                return Err(bad(format!(
                    "the game is over: write it as {}-{}:{}",
                    scores[0],
                    scores[1],
                    w + 1
                )));
            }
        }
        None => {
            let mine = scores[side as usize];
            if mine + turn_total >= goal {
                return Err(bad(format!(
                    "with {turn_total} points this turn the player would already have reached {goal}"
                )));
            }
            if turn_total > 0 && turn_total < game.least_points_per_roll() {
                return Err(bad(format!(
                    "a turn total of {turn_total} cannot be rolled in this game"
                )));
            }
        }
    }
    Ok(state)
}

/// At most 40 characters of what a user typed, for a message.
fn clip(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
