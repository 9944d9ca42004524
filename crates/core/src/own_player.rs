//! A computer player special to one game, declared once: how it is listed
//! and how it is made. A game lists its own players in
//! [`crate::Players::own_players`]; the trait's defaults list them
//! ([`crate::Players::custom_player_kinds`]) and make the one asked for by
//! name ([`crate::Players::custom_player`]), so a game writes only what its
//! players are, not the matching of names and the boxing.

use crate::{Game, PlayerKind, Strategy};

/// Makes a player from its options and the match's seed; `None` when the
/// options are not ones it reads (the engine then names the players it knows).
type Make<G> = Box<dyn Fn(&G, &str, u64) -> Option<Box<dyn Strategy<G>>>>;

/// A computer player special to a game: its listing and how it is made.
pub struct OwnPlayer<G: Game> {
    /// How it is listed (name as typed, help, how to type its options).
    pub kind: PlayerKind,
    make: Make<G>,
}

impl<G: Game> OwnPlayer<G> {
    /// A player that takes no options: made by `make` when none are given,
    /// not made when any are.
    pub fn plain<S: Strategy<G> + 'static>(
        kind: PlayerKind,
        make: impl Fn(&G) -> S + 'static,
    ) -> Self {
        OwnPlayer {
            kind,
            make: Box::new(move |game, options, _seed| {
                options
                    .trim()
                    .is_empty()
                    .then(|| Box::new(make(game)) as Box<dyn Strategy<G>>)
            }),
        }
    }

    /// A player made by `make` from its options (and the match's seed), not
    /// made when `make` refuses them.
    pub fn with_options<S: Strategy<G> + 'static, E>(
        kind: PlayerKind,
        make: impl Fn(&G, &str, u64) -> Result<S, E> + 'static,
    ) -> Self {
        OwnPlayer {
            kind,
            make: Box::new(move |game, options, seed| {
                make(game, options, seed)
                    .ok()
                    .map(|player| Box::new(player) as Box<dyn Strategy<G>>)
            }),
        }
    }

    /// The player for `game` with `options`, or `None` when it does not take them.
    pub fn make(&self, game: &G, options: &str, seed: u64) -> Option<Box<dyn Strategy<G>>> {
        (self.make)(game, options, seed)
    }
}
