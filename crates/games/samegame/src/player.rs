//! The `search` computer player.
//!
//! It searches once for the whole game and then follows its plan; it searches
//! again only when the board is not the one its plan expected (after an undo, or
//! when it takes over a game someone else played).

use crate::board::Board;
use crate::game::{Click, SameGame};
use crate::search::{search, SearchOptions};
use tabula_ai::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use tabula_core::{Choice, Game, Rng, Seat, Strategy};

/// The options of `search:`, for the shared reader.
pub const SEARCH_PLAYER_OPTIONS: PlayerOptions = PlayerOptions::new(&[
    OptionSpec::new(
        "seconds",
        "the thinking time in seconds",
        Kind::Number {
            min: 0.0,
            max: 3600.0,
        },
    ),
    OptionSpec::new("level", "the search level", Kind::Whole { min: 1, max: 3 }),
]);

/// Plays the first click of the best line the search finds (NRPA by default).
pub struct SearchPlayer {
    options: SearchOptions,
    /// Boards the plan expects, each with the click to play there.
    plan: Vec<(Board, Click)>,
}

impl SearchPlayer {
    /// Reads options `seconds=S` (default 1) and `level=N` (fixed work instead of a
    /// time budget: two NRPA runs of level 1-3 with 100 iterations per level, so the
    /// same seed gives the same game; level 3 takes minutes), separated by commas.
    pub fn from_options(options: &str, seed: u64) -> Result<SearchPlayer, PlayerOptionError> {
        let read = SEARCH_PLAYER_OPTIONS.read(options)?;
        let mut opts = SearchOptions {
            seconds: read.number("seconds").unwrap_or(1.0),
            seed,
            ..SearchOptions::default()
        };
        if let Some(level) = read.whole("level") {
            opts.level = Some(level as u32);
            opts.runs = Some(2);
        }
        Ok(SearchPlayer {
            options: opts,
            plan: Vec::new(),
        })
    }
}

impl Strategy<SameGame> for SearchPlayer {
    fn choose(
        &mut self,
        game: &SameGame,
        state: &Board,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<Click>> {
        if let Some(pos) = self.plan.iter().position(|(b, _)| b == state) {
            let (_, click) = self.plan[pos];
            self.plan.drain(..=pos);
            return Some(Choice::because(click, "as planned"));
        }
        // Within the request's deadline and cancel flag, if one is running.
        let result = match tabula_core::Budget::current() {
            Some(budget) => {
                let options = SearchOptions {
                    budget,
                    ..self.options.clone()
                };
                search(state, game.scoring, &options, &|_| {})
            }
            None => search(state, game.scoring, &self.options, &|_| {}),
        };
        let mut board = state.clone();
        self.plan.clear();
        for &[row, col] in &result.moves {
            let click = Click {
                row: row as u8,
                col: col as u8,
            };
            self.plan.push((board.clone(), click));
            game.play_unchecked(&mut board, click);
        }
        if self.plan.is_empty() {
            // Nothing found in time: any legal click keeps the game going.
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            return moves
                .first()
                .map(|&m| Choice::because(m, "no plan found in time: any move"));
        }
        let (_, click) = self.plan.remove(0);
        Some(Choice::because(
            click,
            format!("plans to score {}", result.score),
        ))
    }

    fn forget_game(&mut self) {
        self.plan.clear();
    }
}
