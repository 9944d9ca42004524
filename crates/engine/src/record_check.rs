//! Checks of a saved [`MatchRecord`] before it is replayed: a record comes back
//! from a file, the database or a client, so every count, seat and text in it is
//! someone's input. What the replay itself proves (moves legal, players known,
//! positions readable) is left to the replay; what it would take on trust
//! (seats used as indices, tallies added to, texts printed as they are) is
//! checked here, with a message that names the field.

use crate::record::{MatchRecord, MAX_GAME_PLIES};
use crate::EngineError;

/// The longest move or reason a record may hold (the same bound as a typed move).
pub const MAX_MOVE_TEXT: usize = 4096;

/// The longest game name, variant or player name a record may hold.
pub const MAX_NAME_TEXT: usize = 4096;

/// The most games a saved tally may count: far beyond any real match, and far
/// from where adding one more game could overflow.
pub const MAX_TALLY_GAMES: u64 = 1_000_000_000_000;

/// A piece of a record (or a message about one) as an error may quote it: at most
/// 200 characters, control characters written out (`\u{1b}`), never sent raw to a
/// terminal.
pub(crate) fn quoted(text: &str) -> String {
    tabula_core::quoted(text, 200)
}

/// "1 player", "2 players".
fn players(n: usize) -> String {
    if n == 1 {
        "1 player".into()
    } else {
        format!("{n} players")
    }
}

fn bad(what: String) -> EngineError {
    EngineError::Replay(what)
}

/// A text shown to users as it is must be short and free of control characters
/// (a saved file must not be able to send escape sequences to a terminal).
fn check_text(field: &str, text: &str, max: usize) -> Result<(), String> {
    if text.len() > max {
        return Err(format!(
            "{field} is {} characters long; the most is {max}",
            text.chars().count()
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(format!("{field} contains control characters"));
    }
    Ok(())
}

impl MatchRecord {
    /// Everything that can be checked without the game: texts, counts, the move
    /// count and the clock. [`MatchRecord::check_seats`] checks the rest once the
    /// game (its number of seats) is known.
    pub fn check(&self) -> Result<(), EngineError> {
        check_text("the game name", &self.game, MAX_NAME_TEXT).map_err(bad)?;
        check_text("the variant", &self.variant, MAX_NAME_TEXT).map_err(bad)?;
        // The set-up (players, undo depth, seats) is checked as a new match checks
        // it: the server starts every match from a record, and a bad set-up is a
        // bad request there, not a damaged record.
        for (seat, p) in self.config.players.iter().enumerate() {
            check_text(&format!("player {}", seat + 1), p, MAX_NAME_TEXT)
                .map_err(EngineError::Invalid)?;
        }
        if self.moves.len() > MAX_GAME_PLIES {
            return Err(bad(format!(
                "it has {} moves; a game ends after at most {MAX_GAME_PLIES}",
                self.moves.len()
            )));
        }
        for (i, m) in self.moves.iter().enumerate() {
            check_text(&format!("move {}", i + 1), &m.mv, MAX_MOVE_TEXT).map_err(bad)?;
            if let Some(r) = &m.reason {
                check_text(
                    &format!("the reason given for move {}", i + 1),
                    r,
                    MAX_MOVE_TEXT,
                )
                .map_err(bad)?;
            }
        }
        let t = &self.tally;
        let total: u128 = t.wins.iter().map(|w| u128::from(*w)).sum::<u128>() + u128::from(t.cat);
        if total != u128::from(t.games) {
            return Err(bad(format!(
                "the scores do not add up: {} games, but {total} wins and games for the Cat",
                t.games
            )));
        }
        if t.games > MAX_TALLY_GAMES {
            return Err(bad(format!(
                "the scores count {} games; the most is {MAX_TALLY_GAMES}",
                t.games
            )));
        }
        if let Some(c) = &self.current {
            if let Some(s) = c.seconds {
                if !(s.is_finite() && s >= 0.0) {
                    return Err(bad(format!("the game's time is {s} seconds")));
                }
            }
            if let Some(v) = &c.dealt_variant {
                check_text("the dealt variant", v, MAX_NAME_TEXT).map_err(bad)?;
            }
            for p in c.counted_for.iter().flatten() {
                check_text("a player the last game counted for", p, MAX_NAME_TEXT).map_err(bad)?;
            }
            for u in &c.untaught {
                check_text(
                    "a player whose lesson was taken back",
                    &u.player,
                    MAX_NAME_TEXT,
                )
                .map_err(bad)?;
            }
        }
        Ok(())
    }

    /// Every seat the record names (the resigned seat, tallies and learned state
    /// per seat) exists in a game of `seats` seats.
    pub fn check_seats(&self, title: &str, seats: usize) -> Result<(), EngineError> {
        if let Some(r) = self.resigned {
            if r >= seats {
                return Err(bad(format!(
                    "it says player {} resigned; {title} has {}",
                    r.saturating_add(1),
                    players(seats)
                )));
            }
        }
        if !self.tally.wins.is_empty() && self.tally.wins.len() != seats {
            return Err(bad(format!(
                "the scores list wins for {}; {title} has {}",
                players(self.tally.wins.len()),
                players(seats)
            )));
        }
        if let Some(c) = &self.current {
            let counted = c.counted_for.as_ref().map_or(0, Vec::len);
            if counted > seats {
                return Err(bad(format!(
                    "it says the last game was counted for {}; {title} has {}",
                    players(counted),
                    players(seats)
                )));
            }
            if let Some(u) = c.untaught.iter().find(|u| u.seat >= seats) {
                return Err(bad(format!(
                    "it takes a lesson back from player {}; {title} has {}",
                    u.seat.saturating_add(1),
                    players(seats)
                )));
            }
        }
        if self.learned.len() > seats {
            return Err(bad(format!(
                "it has learned state for {}; {title} has {}",
                players(self.learned.len()),
                players(seats)
            )));
        }
        Ok(())
    }
}
