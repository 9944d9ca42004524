//! The `search` computer player.
//!
//! It searches once for the whole game and then follows its plan; it searches
//! again only when the board is not the one its plan expected (after an undo, or
//! when it takes over a game someone else played).

use crate::board::Board;
use crate::game::{Click, SameGame};
use crate::search::{search, SearchOptions};
use tabula_core::{Choice, Game, Rng, Seat, Strategy};

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
    pub fn from_options(options: &str, seed: u64) -> Result<SearchPlayer, String> {
        let mut opts = SearchOptions {
            seconds: 1.0,
            seed,
            ..SearchOptions::default()
        };
        for item in options
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, got '{item}'"))?;
            match k.trim() {
                "seconds" => {
                    let s: f64 = v
                        .trim()
                        .parse()
                        .map_err(|_| format!("seconds '{v}' is not a number"))?;
                    if !(s.is_finite() && (0.0..=3600.0).contains(&s)) {
                        return Err(format!("seconds must be between 0 and 3600, got {v}"));
                    }
                    opts.seconds = s;
                }
                "level" => {
                    let l: u32 = v
                        .trim()
                        .parse()
                        .map_err(|_| format!("level '{v}' is not a whole number"))?;
                    if !(1..=3).contains(&l) {
                        return Err(format!("level must be between 1 and 3, got {v}"));
                    }
                    opts.level = Some(l);
                    opts.runs = Some(2);
                }
                other => return Err(format!("unknown option '{other}' (known: seconds, level)")),
            }
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
