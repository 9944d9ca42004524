//! What a match is started from and saved as: its set-up ([`MatchConfig`]) and
//! its record ([`MatchRecord`]), plain data that the store, the server and the
//! CLI keep. [`crate::record_check`] checks a record read back; a match
//! ([`crate::matches`]) is made from and saved to these.

use serde::{Deserialize, Serialize};
use tabula_core::Seat;

/// How to start a match.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MatchConfig {
    /// One player name per seat (`human`, `random`, `level:66`, …); missing seats are human.
    pub players: Vec<String>,
    /// Seed of the match's random generator (computer choices, dice).
    pub seed: u64,
    /// A start position in the game's text form, instead of the usual start.
    #[serde(default)]
    pub position: Option<String>,
    /// How many of your own moves can be taken back (the 2006 blog's undo queue depth);
    /// `None` means no limit.
    #[serde(default)]
    pub undo_depth: Option<usize>,
}

/// The deepest undo a match allows (`--undo-depth`, the web settings, the API's
/// `undo_depth`): one limit, checked by [`check_undo_depth`] everywhere.
pub const MAX_UNDO_DEPTH: usize = 1000;

/// Checks an undo depth: `None` (no limit) or 0 (undo off) to [`MAX_UNDO_DEPTH`].
pub fn check_undo_depth(depth: Option<usize>) -> Result<(), String> {
    match depth {
        Some(d) if d > MAX_UNDO_DEPTH => Err(format!(
            "the undo depth must be from 0 to {MAX_UNDO_DEPTH} moves (or no limit), got {d}"
        )),
        _ => Ok(()),
    }
}

/// No game lasts more than this many plies: a game's
/// [`tabula_core::Actions::max_game_length`] is at most this, and a game that reaches
/// its bound with no end is cut off, without a result (not a draw). Random players
/// may otherwise never finish (Poggle, Northcott), and a game people play (or a
/// script sends moves to) must not grow without bound: the log, the view that
/// carries it and the stored record all grow with it.
pub const MAX_GAME_PLIES: usize = 20_000;

/// Wins per seat and the Cat's share, over the games of a match.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Tally {
    /// Games won by each seat.
    pub wins: Vec<u64>,
    /// Draws, and games every player resigned: the Cat's.
    pub cat: u64,
    /// Games finished.
    pub games: u64,
}

/// A move in a saved record.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RecordedMove {
    /// The move (die rolls included) in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The reason the computer gave, kept for the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Everything needed to rebuild a match exactly: the game, players, seed and
/// every move played (dice included).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MatchRecord {
    /// Registry name.
    pub game: String,
    /// Variant text.
    pub variant: String,
    /// How the match was set up.
    pub config: MatchConfig,
    /// The moves of the current game, in order.
    pub moves: Vec<RecordedMove>,
    /// The seat that resigned, if the game ended so.
    #[serde(default)]
    pub resigned: Option<Seat>,
    /// Score tallies of earlier games in this match.
    #[serde(default)]
    pub tally: Tally,
    /// Learned state of learning players, per seat.
    #[serde(default)]
    pub learned: Vec<Option<serde_json::Value>>,
    /// When the current game started, how long it took (the Same Game tutorial keeps "the time it
    /// takes to complete the game" in its document) and the start it dealt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<CurrentGame>,
}

/// The clock and the dealt start of the current game.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct CurrentGame {
    /// Start of the current game, Unix milliseconds.
    pub started_ms: u64,
    /// Seconds from the start to the end, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// The variant that deals this game's start again, when the game dealt one
    /// (SameGame without `seed`); the record's `config.position` holds the start itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealt_variant: Option<String>,
    /// The learners' state (per seat) from before the end of this game taught
    /// them, once it has ended: undoing the end restores it, so a game teaches a
    /// learner exactly once however often its end is undone and redone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlearned: Option<Vec<Option<serde_json::Value>>>,
    /// Every player resigned, the record's `resigned` seat first and then the
    /// other (Stenger's "Associative Arrays": "if all players resign, the Cat
    /// wins"): the game is the Cat's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_resigned: bool,
    /// The players (one per seat, as their specs' text) when this game ended:
    /// the tally and the lessons of its end are theirs, even if a seat changes
    /// player before the end is undone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_for: Option<Vec<String>>,
    /// The lessons the last undo took back from learners that had left their
    /// seat since the end taught them (their seat now has another player): each
    /// learner's state from before that end. Whoever keeps learners' state
    /// outside the match (the server's stored matchboxes) writes it back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untaught: Vec<Untaught>,
}

/// A lesson taken back from a learner that no longer plays in the match (see
/// [`CurrentGame::untaught`]).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Untaught {
    /// The seat it played.
    pub seat: Seat,
    /// The player it was (its spec's text, e.g. `matchbox`).
    pub player: String,
    /// Its learned state from before the game's end taught it.
    pub learned: serde_json::Value,
}
