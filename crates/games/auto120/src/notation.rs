//! Text forms of moves and positions.
//!
//! Moves: `start 1` / `start 2` (the draw for the first player), `roll 5` or `r5`
//! (a die roll), `marker 3` or `m3` (move marker 3 by the pending roll). A bare
//! number is read as a roll when the die is to be rolled and as a marker when a
//! marker is to be chosen.
//!
//! Positions: `P1/P2:T`, where P1 and P2 are the positions of markers 1..4 of each
//! player, comma separated (120 = retired), and T is `?` before the draw for the
//! first player, else the player whose turn it is (`1` or `2`), followed by `rN`
//! when that player has rolled N (2..=6) and must now choose a marker.
//! Examples: `1,1,1,1/1,1,1,1:?` (the start), `4,1,1,1/6,1,1,1:2` (Player 2 to
//! roll), `4,1,1,1/6,1,1,1:2r5` (Player 2 rolled 5).

use crate::board::{is_reachable, MARKERS, TARGET};
use crate::state::{Move, State, NO_SIDE};
use tabula_core::{ParseError, Turn};

/// Writes a move.
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Starter(s) => format!("start {}", s as u32 + 1),
        Move::Roll(r) => format!("roll {r}"),
        Move::Marker(m) => format!("marker {}", m as u32 + 1),
    }
}

/// A move as its number alone (who starts, the roll, the marker): what
/// [`parse_move`] reads in the position the move is made in.
pub fn short_move(mv: Move) -> String {
    match mv {
        Move::Starter(s) => (s as u32 + 1).to_string(),
        Move::Roll(r) => r.to_string(),
        Move::Marker(m) => (m as u32 + 1).to_string(),
    }
}

fn small_number(text: &str, what: &str, max: u32) -> Result<u8, ParseError> {
    let t = text.trim();
    match t.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n as u8),
        Ok(_) => Err(ParseError::new(format!(
            "{what} must be between 1 and {max}, not {t}"
        ))),
        Err(_) => Err(ParseError::new(format!(
            "expected a {what} number, found '{t}'"
        ))),
    }
}

/// Reads a move typed in `state` (legality is checked when it is played).
pub fn parse_move(state: &State, text: &str) -> Result<Move, ParseError> {
    let t = text.trim().to_ascii_lowercase();
    let words: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    let rest_after = |prefixes: &[&str]| -> Option<String> {
        prefixes
            .iter()
            .find_map(|p| words.strip_prefix(p).map(|r| r.trim().to_string()))
    };
    if let Some(r) = rest_after(&["starter", "start"]) {
        return Ok(Move::Starter(small_number(&r, "player", 2)? - 1));
    }
    if let Some(r) = rest_after(&["roll", "r"]) {
        return Ok(Move::Roll(small_number(&r, "die roll", 6)?));
    }
    if let Some(r) = rest_after(&["marker", "m"]) {
        return Ok(Move::Marker(
            small_number(&r, "marker", state.n as u32)? - 1,
        ));
    }
    if !words.is_empty() && words.chars().all(|c| c.is_ascii_digit()) {
        return match state.turn() {
            Turn::Move(_) => Ok(Move::Marker(
                small_number(&words, "marker", state.n as u32)? - 1,
            )),
            Turn::Chance if state.side == NO_SIDE => {
                Ok(Move::Starter(small_number(&words, "player", 2)? - 1))
            }
            Turn::Chance => Ok(Move::Roll(small_number(&words, "die roll", 6)?)),
            Turn::Over(_) => Err(ParseError::new("the game is over")),
        };
    }
    Err(ParseError::new(format!(
        "cannot read move '{}': expected 'roll N' (or rN), 'marker N' (or mN) or 'start N'",
        text.trim()
    )))
}

/// Writes a position in the documented text form.
pub fn format_position(state: &State) -> String {
    let seat = |s: usize| {
        state.markers[s][..state.n as usize]
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let turn = match (state.side, state.roll) {
        (NO_SIDE, _) => "?".to_string(),
        (s, 0) => format!("{}", s + 1),
        (s, r) => format!("{}r{r}", s + 1),
    };
    format!("{}/{}:{turn}", seat(0), seat(1))
}

/// Reads a position of the four-marker game, rejecting any that the rules cannot produce.
pub fn parse_position(text: &str) -> Result<State, ParseError> {
    parse_position_with(text, MARKERS)
}

/// Reads a position with `n` markers per player (1..=4).
pub fn parse_position_with(text: &str, n: usize) -> Result<State, ParseError> {
    let n = n.clamp(1, MARKERS);
    let example = format!("{}/{}:?", vec!["1"; n].join(","), vec!["1"; n].join(","));
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (boards, turn) = compact.split_once(':').ok_or_else(|| {
        ParseError::new(format!(
            "expected P1/P2:T, like {example} (see the Auto120 notation)"
        ))
    })?;
    let groups: Vec<&str> = boards.split('/').collect();
    if groups.len() != 2 {
        return Err(ParseError::new(format!(
            "expected two players' markers separated by '/', found {} group(s)",
            groups.len()
        )));
    }
    let mut markers = [[TARGET; MARKERS]; 2];
    for (seat, group) in groups.iter().enumerate() {
        let items: Vec<&str> = group.split(',').collect();
        if items.len() != n {
            return Err(ParseError::new(format!(
                "Player {} needs {n} marker position{}, found {}",
                seat + 1,
                if n == 1 { "" } else { "s" },
                items.len()
            )));
        }
        for (m, item) in items.iter().enumerate() {
            let p: u32 = item.parse().map_err(|_| {
                ParseError::new(format!(
                    "Player {} marker {}: '{item}' is not a position",
                    seat + 1,
                    m + 1
                ))
            })?;
            if !(1..=TARGET as u32).contains(&p) {
                return Err(ParseError::new(format!(
                    "Player {} marker {}: position {p} is outside 1..120",
                    seat + 1,
                    m + 1
                )));
            }
            if !is_reachable(p) {
                return Err(ParseError::new(format!(
                    "Player {} marker {}: no marker can stand on {p} (only 1 and products of rolls 2-6 are reachable)",
                    seat + 1,
                    m + 1
                )));
            }
            markers[seat][m] = p as u8;
        }
    }
    for &p in &markers[0] {
        if p != 1 && p != TARGET && markers[1].contains(&p) {
            return Err(ParseError::new(format!(
                "both players have markers on {p}: the later arrival would have bumped the other"
            )));
        }
    }
    let (side, roll) = parse_turn(turn)?;
    let state = State {
        markers,
        side,
        roll,
        n: n as u8,
    };
    if side == NO_SIDE && markers != State::start_with(n).markers {
        return Err(ParseError::new(
            "'?' (first player not yet drawn) needs every marker on 1",
        ));
    }
    let done = [0, 1].map(|s| markers[s] == [TARGET; MARKERS]);
    if done[0] && done[1] {
        return Err(ParseError::new(
            "both players cannot have retired all their markers",
        ));
    }
    if let Some(w) = state.winner() {
        if side as usize != 1 - w || roll != 0 {
            return Err(ParseError::new(format!(
                "Player {} has retired every marker, so the game is over: write the turn as '{}' (the other player, no roll)",
                w + 1,
                2 - w
            )));
        }
    }
    Ok(state)
}

fn parse_turn(turn: &str) -> Result<(u8, u8), ParseError> {
    if turn == "?" {
        return Ok((NO_SIDE, 0));
    }
    let lower = turn.to_ascii_lowercase();
    let (who, roll) = match lower.split_once('r') {
        Some((w, r)) => (w.to_string(), Some(r.to_string())),
        None => (lower.clone(), None),
    };
    let side = match who.as_str() {
        "1" => 0,
        "2" => 1,
        _ => {
            return Err(ParseError::new(format!(
                "turn '{turn}' must be ?, 1 or 2, optionally followed by rN for a pending roll"
            )))
        }
    };
    let roll = match roll {
        None => 0,
        Some(r) => match r.parse::<u8>() {
            Ok(n @ 2..=6) => n,
            Ok(1) => {
                return Err(ParseError::new(
                    "a roll of 1 forfeits the turn and is never pending",
                ))
            }
            _ => {
                return Err(ParseError::new(format!(
                    "pending roll '{r}' must be 2 to 6"
                )))
            }
        },
    };
    Ok((side, roll))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        for text in [
            "1,1,1,1/1,1,1,1:?",
            "4,1,1,1/6,1,1,1:2",
            "4,1,1,1/6,1,1,1:2r5",
            "120,120,120,120/4,20,1,1:2",
        ] {
            let s = parse_position(text).unwrap();
            assert_eq!(format_position(&s), text);
        }
        assert_eq!(format_position(&State::start()), "1,1,1,1/1,1,1,1:?");
    }

    #[test]
    fn bad_positions_are_rejected() {
        for (text, why) in [
            ("1,1,1/1,1,1,1:1", "needs 4"),
            ("1,1,1,7/1,1,1,1:1", "no marker can stand on 7"),
            ("1,1,1,121/1,1,1,1:1", "outside"),
            ("20,1,1,1/20,1,1,1:1", "both players"),
            ("1,1,1,1/1,1,1,1:1r1", "forfeits"),
            ("1,1,1,1/1,1,1,1:1r7", "2 to 6"),
            ("1,1,1,1/1,1,1,1:3", "must be ?"),
            ("4,1,1,1/1,1,1,1:?", "every marker on 1"),
            ("120,120,120,120/1,1,1,1:1", "game is over"),
            ("120,120,120,120/120,120,120,120:1", "both players"),
            ("1,1,1,1/1,1,1,1", "expected"),
            ("x,1,1,1/1,1,1,1:1", "not a position"),
            ("", "expected"),
            ("::://", "expected two"),
        ] {
            let err = parse_position(text).unwrap_err().message;
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn moves_round_trip_and_bare_numbers_follow_the_turn() {
        let start = State::start();
        let rolling = parse_position("1,1,1,1/1,1,1,1:1").unwrap();
        let moving = parse_position("1,1,1,1/1,1,1,1:1r3").unwrap();
        for (s, mv) in [
            (start, Move::Starter(1)),
            (rolling, Move::Roll(4)),
            (moving, Move::Marker(2)),
        ] {
            assert_eq!(parse_move(&s, &format_move(mv)).unwrap(), mv);
        }
        assert_eq!(parse_move(&rolling, "r6").unwrap(), Move::Roll(6));
        assert_eq!(parse_move(&moving, " M4 ").unwrap(), Move::Marker(3));
        assert_eq!(parse_move(&moving, "2").unwrap(), Move::Marker(1));
        assert_eq!(parse_move(&rolling, "2").unwrap(), Move::Roll(2));
        assert_eq!(parse_move(&start, "2").unwrap(), Move::Starter(1));
        for bad in [
            "marker 5",
            "m0",
            "roll 7",
            "jump",
            "",
            "marker",
            "99999999999999999999",
        ] {
            assert!(parse_move(&moving, bad).is_err(), "{bad}");
        }
    }
}
