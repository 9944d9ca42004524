//! A computer player special to one game, declared once: how it is listed
//! and how it is made. A game lists its own players in
//! [`crate::Players::own_players`]; the trait's defaults list them
//! ([`crate::Players::custom_player_kinds`]) and make the one asked for by
//! name ([`crate::Players::custom_player`]), so a game writes only what its
//! players are, not the matching of names and the boxing.

use crate::{Game, PlayerKind, Strategy};

/// Makes a player from its options and the match's seed, or says in a
/// player's words why it does not take them.
type Make<G> = Box<dyn Fn(&G, &str, u64) -> Result<Box<dyn Strategy<G>>, String>>;

/// A computer player special to a game: its listing and how it is made.
pub struct OwnPlayer<G: Game> {
    /// How it is listed (name as typed, help, how to type its options).
    pub kind: PlayerKind,
    make: Make<G>,
}

impl<G: Game> OwnPlayer<G> {
    /// A player that takes no options: made by `make` when none are given,
    /// refused in words when any are.
    pub fn plain<S: Strategy<G> + 'static>(
        kind: PlayerKind,
        make: impl Fn(&G) -> S + 'static,
    ) -> Self {
        let name = kind.name.clone();
        OwnPlayer {
            kind,
            make: Box::new(move |game, options, _seed| {
                if options.trim().is_empty() {
                    Ok(Box::new(make(game)) as Box<dyn Strategy<G>>)
                } else {
                    Err(format!("{name} takes no options"))
                }
            }),
        }
    }

    /// A player made by `make` from its options (and the match's seed), or
    /// `make`'s refusal of them, in its words.
    pub fn with_options<S: Strategy<G> + 'static, E: std::fmt::Display>(
        kind: PlayerKind,
        make: impl Fn(&G, &str, u64) -> Result<S, E> + 'static,
    ) -> Self {
        OwnPlayer {
            kind,
            make: Box::new(move |game, options, seed| {
                make(game, options, seed)
                    .map(|player| Box::new(player) as Box<dyn Strategy<G>>)
                    .map_err(|e| e.to_string())
            }),
        }
    }

    /// The player for `game` with `options`, or why it does not take them.
    pub fn make(&self, game: &G, options: &str, seed: u64) -> Result<Box<dyn Strategy<G>>, String> {
        (self.make)(game, options, seed)
    }
}
