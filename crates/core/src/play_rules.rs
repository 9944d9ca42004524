//! The rules of actual play, applied to a game as it is played: draws by
//! repetition and for lack of progress ([`crate::MatchRules::play_draw_rule`]) and
//! the length bound ([`crate::Actions::max_game_length`]).
//!
//! Solvers work on the pure game graph and ignore these rules; everything that
//! plays a game from its start follows them through one [`PlayTracker`]: the
//! engine's matches (`tabula play`, the server), the stepping state of the Python
//! package and OpenSpiel, and simulations (`tabula simulate`). A repetition needs
//! the positions seen so far, so the tracker keeps a count per position (only
//! when the game has a repetition rule) and the length of the run of plies
//! without progress after each ply (so that a ply can be taken back), with the
//! lowest value of the game's progress measure so far where it has one
//! ([`crate::MatchRules::progress_measure`]: a ply that does not bring it to a
//! new low is no progress).

use crate::{Actions, MatchRules, Outcome, PlayDrawRule, Turn, UNBOUNDED_GAME_PLIES};
use serde::Serialize;
use std::collections::HashMap;

/// Why a game of actual play ended although its rules did not end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "count", rename_all = "snake_case")]
pub enum PlayEnd {
    /// The position on the board occurred this many times: a draw.
    Repetition(u32),
    /// This many plies in a row made no progress (no capture): a draw.
    NoProgress(u32),
    /// The game reached the most plies a game of its variant may last
    /// ([`Actions::max_game_length`]) with no end: cut off, without a result
    /// (never counted as a draw).
    CutOff(usize),
}

impl PlayEnd {
    /// The outcome it gives: a draw by a draw rule, [`Outcome::Ended`] (no
    /// result) for a cut-off game and for a puzzle (one seat), which cannot be drawn.
    pub fn outcome(self, seats: usize) -> Outcome {
        match self {
            PlayEnd::Repetition(_) | PlayEnd::NoProgress(_) if seats > 1 => Outcome::Draw,
            _ => Outcome::Ended,
        }
    }

    /// True for a game cut off at the length bound.
    pub fn is_cut_off(self) -> bool {
        matches!(self, PlayEnd::CutOff(_))
    }

    /// The end in a player's words (a match's result line).
    pub fn words(self) -> String {
        match self {
            PlayEnd::Repetition(n) => format!("draw by {n}-fold repetition"),
            PlayEnd::NoProgress(n) => {
                format!("draw: {n} plies (moves of either side) without progress")
            }
            PlayEnd::CutOff(n) => format!(
                "cut off after {n} moves without an end (the most one game may last): no result"
            ),
        }
    }
}

/// The most plies a game can last when its draw rules end it: with a repetition
/// rule of `n`, a game visits each of at most `positions` positions at most
/// `n - 1` times before one comes up the `n`-th time, so it lasts at most
/// `positions * (n - 1)` plies; with a no-progress rule of `q` plies and at
/// most `progress_moves` progress moves (captures) in any game, at most
/// `(progress_moves + 1) * q`. The smaller bound that applies, and never more
/// than [`UNBOUNDED_GAME_PLIES`], where a longer game is cut off: what a game
/// that could go on forever declares as its [`Actions::max_game_length`].
pub fn draw_rule_length(
    rule: PlayDrawRule,
    positions: Option<u64>,
    progress_moves: Option<u64>,
) -> usize {
    let mut most = UNBOUNDED_GAME_PLIES as u64;
    if let (Some(n), Some(p)) = (rule.repetitions, positions) {
        most = most.min(p.saturating_mul(u64::from(n.max(1)) - 1));
    }
    if let (Some(q), Some(k)) = (rule.plies_without_progress, progress_moves) {
        most = most.min(k.saturating_add(1).saturating_mul(u64::from(q)));
    }
    most as usize
}

/// One game as it is played, as the rules of actual play see it: how often each
/// position occurred, how long the current run of plies without progress is, and
/// how many plies were played. Plies can be taken back ([`PlayTracker::undo`]).
#[derive(Debug)]
pub struct PlayTracker<G: MatchRules + Actions> {
    rule: PlayDrawRule,
    max_plies: usize,
    /// How often each position occurred (kept only under a repetition rule).
    seen: HashMap<G::State, u32>,
    /// The run of plies without progress after each ply played.
    quiet: Vec<u32>,
    /// The progress measure at the start, for a game with a no-progress rule
    /// and a measure ([`MatchRules::progress_measure`]); `None` otherwise.
    start_low: Option<u64>,
    /// The lowest progress measure so far after each ply played (empty when
    /// `start_low` is `None`).
    lows: Vec<u64>,
}

/// Plies a copy of a tracker has room for before its records grow: a copy is
/// mostly made to be played on (a search copies a position, then plays a few
/// plies), and growing a record that was copied to its exact length costs a
/// reallocation at the first ply.
const ROOM_IN_A_COPY: usize = 8;

/// A copy of `records` with room for [`ROOM_IN_A_COPY`] more.
fn with_room<T: Copy>(records: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(records.len() + ROOM_IN_A_COPY);
    out.extend_from_slice(records);
    out
}

impl<G: MatchRules + Actions> Clone for PlayTracker<G> {
    fn clone(&self) -> Self {
        PlayTracker {
            rule: self.rule,
            max_plies: self.max_plies,
            seen: self.seen.clone(),
            quiet: with_room(&self.quiet),
            start_low: self.start_low,
            // Kept only for a game with a progress measure.
            lows: if self.start_low.is_some() {
                with_room(&self.lows)
            } else {
                Vec::new()
            },
        }
    }
}

impl<G: MatchRules + Actions> PlayTracker<G> {
    /// A game of `game` starting at `start` (which counts as seen once).
    pub fn new(game: &G, start: &G::State) -> Self {
        let rule = game.play_draw_rule();
        let mut seen = HashMap::new();
        if rule.repetitions.is_some() {
            seen.insert(start.clone(), 1);
        }
        let start_low = rule
            .plies_without_progress
            .and_then(|_| game.progress_measure(start));
        PlayTracker {
            rule,
            max_plies: game.max_game_length().min(UNBOUNDED_GAME_PLIES),
            seen,
            quiet: Vec::new(),
            start_low,
            lows: Vec::new(),
        }
    }

    /// Makes room in the records for `plies` more plies, so that playing them
    /// does not grow the records one reallocation after another.
    pub fn reserve(&mut self, plies: usize) {
        self.quiet.reserve(plies);
        if self.start_low.is_some() {
            self.lows.reserve(plies);
        }
    }

    /// Plies played since the start.
    pub fn plies(&self) -> usize {
        self.quiet.len()
    }

    /// Records that `mv` was played from `before`, giving `after`.
    pub fn record(&mut self, game: &G, before: &G::State, mv: G::Move, after: &G::State) {
        let progress = self.rule.plies_without_progress.is_none() || game.is_progress(before, mv);
        self.after(game, progress, after);
    }

    /// Plays `mv` on `state` (a legal move) and records it: what a loop that
    /// keeps one position does, without a copy of the position before.
    pub fn play(&mut self, game: &G, state: &mut G::State, mv: G::Move) {
        let progress = self.rule.plies_without_progress.is_none() || game.is_progress(state, mv);
        game.play_unchecked(state, mv);
        self.after(game, progress, state);
    }

    /// The lowest progress measure so far, for a game that has one.
    fn low(&self) -> Option<u64> {
        self.lows.last().copied().or(self.start_low)
    }

    fn after(&mut self, game: &G, mut progress: bool, after: &G::State) {
        if let Some(low) = self.low() {
            let now = game.progress_measure(after).unwrap_or(low);
            // Only a new low is progress: a ply that gives back what an
            // earlier one gained is none.
            progress &= now < low;
            self.lows.push(now.min(low));
        }
        let run = if progress {
            0
        } else {
            self.quiet.last().copied().unwrap_or(0).saturating_add(1)
        };
        self.quiet.push(run);
        if self.rule.repetitions.is_some() {
            *self.seen.entry(after.clone()).or_insert(0) += 1;
        }
    }

    /// Takes back the last ply, which had given `after`.
    pub fn undo(&mut self, after: &G::State) {
        if self.quiet.pop().is_none() {
            return;
        }
        self.lows.pop();
        if let Some(n) = self.seen.get_mut(after) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(after);
            }
        }
    }

    /// Why play ends at `now` (the position after the plies recorded) when the
    /// rules of actual play end it there: a repetition, a run without progress
    /// or the length bound. `None` while play goes on (or the game's own rules
    /// decide: callers ask [`crate::Game::turn`] first).
    pub fn end(&self, now: &G::State) -> Option<PlayEnd> {
        if let Some(n) = self.rule.repetitions {
            if self.seen.get(now).copied().unwrap_or(0) >= n {
                return Some(PlayEnd::Repetition(n));
            }
        }
        if let Some(q) = self.rule.plies_without_progress {
            if self.quiet.last().copied().unwrap_or(0) >= q {
                return Some(PlayEnd::NoProgress(q));
            }
        }
        if self.plies() >= self.max_plies {
            return Some(PlayEnd::CutOff(self.max_plies));
        }
        None
    }

    /// Whose turn it is at `now` under the rules of actual play: the game's own
    /// turn, or the end that [`PlayTracker::end`] finds.
    pub fn turn(&self, game: &G, now: &G::State) -> Turn {
        match game.turn(now) {
            Turn::Over(o) => Turn::Over(o),
            t => match self.end(now) {
                Some(end) => Turn::Over(end.outcome(game.seats().len())),
                None => t,
            },
        }
    }
}
