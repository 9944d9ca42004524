//! The computer players every game may offer, named once: the name a person types
//! (`perfect`, `level:66`), the words a menu shows, the help and the options, and
//! whether the player learns. The engine builds them, the game list serves them
//! ([`crate::PlayerKind`]) and every face reads them from there; no face keeps a
//! list of its own.

use serde::{Deserialize, Serialize};

/// A generic player kind (the game's own players are [`crate::PlayerKind`]s of
/// its crate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GenericPlayer {
    /// A person at the keyboard or in the browser.
    Human,
    /// A uniformly random legal move.
    Random,
    /// Provably perfect play from the strong solution.
    Perfect,
    /// Random moves mixed with a strong player's, at a level 0-100.
    Level,
    /// The 2006 blog's one-ply look-ahead.
    Lookahead,
    /// Depth-limited alpha-beta search.
    Alphabeta,
    /// Gardner's matchbox machine.
    Matchbox,
    /// Michie's MENACE.
    Menace,
    /// Search over the dice outcomes.
    Expectimax,
}

impl GenericPlayer {
    /// Every generic player, in the order menus list them.
    pub const ALL: [GenericPlayer; 9] = [
        GenericPlayer::Human,
        GenericPlayer::Random,
        GenericPlayer::Perfect,
        GenericPlayer::Level,
        GenericPlayer::Lookahead,
        GenericPlayer::Alphabeta,
        GenericPlayer::Matchbox,
        GenericPlayer::Menace,
        GenericPlayer::Expectimax,
    ];

    /// The name as typed (`--players`, the API's player names).
    pub const fn name(self) -> &'static str {
        match self {
            GenericPlayer::Human => "human",
            GenericPlayer::Random => "random",
            GenericPlayer::Perfect => "perfect",
            GenericPlayer::Level => "level",
            GenericPlayer::Lookahead => "lookahead",
            GenericPlayer::Alphabeta => "alphabeta",
            GenericPlayer::Matchbox => "matchbox",
            GenericPlayer::Menace => "menace",
            GenericPlayer::Expectimax => "expectimax",
        }
    }

    /// The generic player typed as `name` (lower case), if it is one.
    pub fn from_name(name: &str) -> Option<GenericPlayer> {
        GenericPlayer::ALL.into_iter().find(|p| p.name() == name)
    }

    /// A few words for a menu or a legend.
    pub const fn words(self) -> &'static str {
        match self {
            GenericPlayer::Human => "A person",
            GenericPlayer::Random => "Random moves",
            GenericPlayer::Perfect => "Perfect play",
            GenericPlayer::Level => "At a level you choose",
            GenericPlayer::Lookahead => "One move ahead",
            GenericPlayer::Alphabeta => "Thinks ahead (alpha-beta search)",
            GenericPlayer::Matchbox => "Gardner's matchbox machine",
            GenericPlayer::Menace => "Michie's MENACE, the matchbox learner",
            GenericPlayer::Expectimax => "Thinks ahead over the dice",
        }
    }

    /// How it plays, in a player's words (no typing syntax: see [`Self::options`]).
    pub const fn help(self) -> &'static str {
        match self {
            GenericPlayer::Human => "a person at the keyboard or in the browser",
            GenericPlayer::Random => "a uniformly random legal move",
            GenericPlayer::Perfect => {
                "provably perfect play from the strong solution: wins fastest, loses slowest, random among equals"
            }
            GenericPlayer::Level => {
                "a random move with probability (100 - level)%, else the computer's own move; presets off, low, medium, high"
            }
            GenericPlayer::Lookahead => {
                "one-ply look-ahead: takes a winning move, avoids a move after which the opponent wins at once, else random"
            }
            GenericPlayer::Alphabeta => "alpha-beta search to a depth, within a time",
            GenericPlayer::Matchbox => {
                "Gardner's matchbox machine: learns by removing the bead that led to a loss"
            }
            GenericPlayer::Menace => {
                "MENACE-style bead counts: reinforced after wins and draws, punished after losses"
            }
            GenericPlayer::Expectimax => "search over the dice outcomes to a depth, within a time",
        }
    }

    /// How to type its options (`alphabeta:depth=8,ms=500`); empty when it has none.
    pub const fn options(self) -> &'static str {
        match self {
            GenericPlayer::Level => {
                "level:L (0-100), level:L,base=lookahead to choose the move mixed in"
            }
            GenericPlayer::Alphabeta => "alphabeta:depth=8,ms=500",
            GenericPlayer::Matchbox => "matchbox:symmetry=off",
            GenericPlayer::Expectimax => "expectimax:depth=2 or expectimax:ms=50",
            _ => "",
        }
    }

    /// True for a player that learns from the games it plays (its state is kept).
    pub fn learns(self) -> bool {
        matches!(self, GenericPlayer::Matchbox | GenericPlayer::Menace)
    }

    /// True for the players a level may mix random moves with (its base): the
    /// strong players that choose a move of their own, not a person, not random,
    /// not the level itself and not a learner.
    pub fn can_be_level_base(self) -> bool {
        !matches!(
            self,
            GenericPlayer::Human
                | GenericPlayer::Random
                | GenericPlayer::Level
                | GenericPlayer::Matchbox
                | GenericPlayer::Menace
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_json_uses_them() {
        for p in GenericPlayer::ALL {
            assert_eq!(GenericPlayer::from_name(p.name()), Some(p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.name());
            assert!(!p.words().is_empty() && !p.help().is_empty());
            assert!(
                !p.help().contains('='),
                "{}: syntax belongs in options",
                p.name()
            );
        }
        assert_eq!(GenericPlayer::from_name("scenario"), None);
        assert!(GenericPlayer::Menace.learns() && !GenericPlayer::Perfect.learns());
    }
}
