//! A game state stepped by integer actions, for front ends without Rust types:
//! the Python package and its OpenSpiel games.
//!
//! [`DynState`] is OpenSpiel's `State` in Tabula's terms: integer actions (each
//! game's [`Actions`](tabula_core::Actions) encoding), chance nodes with explicit probabilities,
//! returns, observation tensors, and the game's own notations for positions and
//! moves. It is implemented once, generically ([`StepState`] over a
//! [`Handle`]), and reached through [`crate::DynGame::new_initial_state`].
//!
//! A game ends when its rules end it, or when the rules of actual play do
//! ([`tabula_core::PlayTracker`], as in the engine's matches and simulations): a
//! draw by repetition or for lack of progress, or, at
//! [`Actions::max_game_length`](tabula_core::Actions::max_game_length) actions
//! (chance outcomes included), a cut-off with no result (returns of 0;
//! [`DynState::play_end`] tells it from a draw). A repetition depends on the
//! history, not only on the position: the state keeps a count of the positions
//! seen, rebuilt from the actions when a serialized state is read back, and the
//! observation tensor shows the position alone (as OpenSpiel's chess does).

use crate::handle::Handle;
use crate::record_check::{quoted, MAX_MOVE_TEXT};
use crate::EngineError;
use serde::Serialize;
use std::any::Any;
use std::sync::Arc;
use tabula_core::{
    Analysis, GameExt, Outcome, PlayEnd, PlayTracker, Registered, Rng, Seat, Strategy, Turn,
};

/// OpenSpiel's id of the chance player.
pub const CHANCE_PLAYER: i32 = -1;
/// OpenSpiel's id for "no one": the game is over.
pub const TERMINAL_PLAYER: i32 = -4;

/// The first line of a serialized state that starts from a position given as
/// text rather than the variant's start (the position follows on that line).
const POSITION_PREFIX: &str = "position:";

/// A game state stepped by integer actions. Every method is safe on any input:
/// a bad id or text is an [`EngineError`] in plain words, never a panic.
pub trait DynState: Send + Sync {
    /// The seat to act (0, 1, …), [`CHANCE_PLAYER`] at a chance node, or
    /// [`TERMINAL_PLAYER`] once the game is over.
    fn current_player(&self) -> i32;
    /// True once the game is over (by its rules, or at the length cap).
    fn is_terminal(&self) -> bool;
    /// True when chance acts next (a die is to be rolled).
    fn is_chance_node(&self) -> bool;
    /// The ids of the legal moves, ascending; at a chance node the outcomes' ids;
    /// empty once the game is over.
    fn legal_actions(&self) -> Vec<usize>;
    /// At a chance node, each outcome's id and probability, ascending by id
    /// (they sum to 1); empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(usize, f64)>;
    /// Plays the legal move (or chance outcome) with this id.
    fn apply_action(&mut self, action: usize) -> Result<(), EngineError>;
    /// The move with this id in the game's notation (as `tabula play` takes it).
    fn action_to_string(&self, action: usize) -> Result<String, EngineError>;
    /// The id of a move written in the game's notation, if it is legal here.
    fn string_to_action(&self, text: &str) -> Result<usize, EngineError>;
    /// What each seat has so far: in two-player games +1 for a win, -1 for a
    /// loss, 0 for a draw or before the end; in puzzles the points scored since
    /// the start (1 for solving a puzzle without points).
    fn returns(&self) -> Vec<f64>;
    /// What each seat got for the last action: a puzzle's points for it; zeros in
    /// two-player games, whose only reward is the result ([`DynState::returns`]).
    fn rewards(&self) -> Vec<f64>;
    /// The position in the game's notation (`tabula analyze --position` reads it).
    fn position(&self) -> String;
    /// Text that [`crate::DynGame::deserialize_state`] turns back into exactly
    /// this state, history included: the action ids one per line, after a
    /// `position:` line when the state did not start from the variant's start.
    fn serialize(&self) -> String;
    /// The ids of the actions played since the start, chance outcomes included.
    fn history(&self) -> Vec<usize>;
    /// Why the game ended when the rules of actual play ended it (a repetition,
    /// no progress, cut off at the length bound); `None` while it goes on or
    /// when its own rules ended it.
    fn play_end(&self) -> Option<PlayEnd>;
    /// The observation tensor from `seat`'s side (as many numbers as the product
    /// of [`GameFacts::observation_shape`]); empty for a seat the game does not have.
    fn observation_tensor(&self, seat: usize) -> Vec<f32>;
    /// How many actions have been played (the length of the history).
    fn move_number(&self) -> usize;
    /// A copy of this state.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The value of the position and every legal move graded, as `tabula analyze`.
    fn analyze(&self) -> Result<Analysis, EngineError>;
    /// What the game declares every face shows of this position with its history
    /// (the board's layout, cells, pieces, facts, the last move, the cards'
    /// facts): the same view the browser draws.
    fn view(&self) -> tabula_core::View;
    /// This state as `Any`, so that a player of the same game can read it.
    fn as_any(&self) -> &dyn Any;
}

impl std::fmt::Debug for dyn DynState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynState")
            .field("position", &self.position())
            .field("history", &self.history())
            .finish()
    }
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// What OpenSpiel's `GameType` and `Game` say about one game in one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameFacts {
    /// Registry name (`mu-torere`).
    pub name: String,
    /// Title (`Mu Torere`).
    pub title: String,
    /// Seats: 2, or 1 for a puzzle.
    pub num_players: usize,
    /// Ids of player moves: `0..num_distinct_actions`.
    pub num_distinct_actions: usize,
    /// Ids of chance outcomes: `0..max_chance_outcomes` (0 without chance).
    pub max_chance_outcomes: usize,
    /// Dimensions of the observation tensor.
    pub observation_shape: Vec<usize>,
    /// The most actions a game lasts (chance outcomes included).
    pub max_game_length: usize,
    /// The lowest return a seat can get.
    pub min_utility: f64,
    /// The highest return a seat can get.
    pub max_utility: f64,
    /// Two players whose returns add up to 0.
    pub zero_sum: bool,
    /// A puzzle (one seat).
    pub one_player: bool,
    /// Chance nodes with explicit probabilities (dice).
    pub explicit_chance: bool,
    /// What the returns of all seats add up to, where it is constant.
    pub utility_sum: Option<f64>,
    /// The normalised variant text (`columns=4`, empty for the usual game).
    pub variant: String,
}

/// A computer player that picks actions for [`DynState`]s of its game.
pub trait DynPlayer: Send {
    /// The id of the move this player makes in `state` (a state of its game and
    /// variant, with a seat to move).
    fn choose(&mut self, state: &dyn DynState) -> Result<usize, EngineError>;
    /// The player as named (`perfect`, `level:66`).
    fn name(&self) -> String;
}

/// The one implementation of [`DynState`], for any registered game.
pub struct StepState<G: Registered> {
    handle: Arc<Handle<G>>,
    /// The position the history starts from; `None`: the variant's start.
    start: Option<G::State>,
    state: G::State,
    history: Vec<usize>,
    /// The rules of actual play over the history (repetitions, no progress,
    /// the length bound).
    tracker: PlayTracker<G>,
    /// The last action's reward for the side that took it (puzzles).
    reward: f64,
    /// A puzzle's points at the start (its returns count from there), kept
    /// because building the start again can be costly (a dealt SameGame board).
    start_points: Option<i64>,
}

/// Actions a new state has room for before its history grows, at most (a
/// game's length bound when it is shorter).
const ROOM_AT_THE_START: usize = 64;

/// Actions a copy of a state has room for before its history grows: a copy is
/// mostly made to be played on (MCTS copies a state a simulation, then applies
/// actions), and a history copied to its exact length would be reallocated at
/// the first action.
const ROOM_IN_A_COPY: usize = 8;

impl<G: Registered> Clone for StepState<G> {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.len() + ROOM_IN_A_COPY);
        history.extend_from_slice(&self.history);
        StepState {
            handle: self.handle.clone(),
            start: self.start.clone(),
            state: self.state.clone(),
            history,
            tracker: self.tracker.clone(),
            reward: self.reward,
            start_points: self.start_points,
        }
    }
}

impl<G: Registered> StepState<G> {
    /// The variant's start.
    pub fn new(handle: Arc<Handle<G>>) -> Self {
        let game = handle.game();
        let state = game.initial_state();
        // A new state is mostly played to its end (a random playout): room
        // for the whole game when it is short, so that the records are
        // allocated once rather than grown action by action.
        let room = game.max_game_length().min(ROOM_AT_THE_START);
        let mut tracker = PlayTracker::new(game, &state);
        tracker.reserve(room);
        StepState {
            start_points: game.score(&state),
            tracker,
            handle,
            start: None,
            state,
            history: Vec::with_capacity(room),
            reward: 0.0,
        }
    }

    /// A position given in the game's notation, checked to fit the variant's
    /// action ids ([`Actions::state_fits`](tabula_core::Actions::state_fits)).
    pub fn from_position(handle: Arc<Handle<G>>, text: &str) -> Result<Self, EngineError> {
        if text.len() > MAX_MOVE_TEXT * 16 {
            return Err(EngineError::Invalid(format!(
                "the position text is {} characters long, more than any position of {} needs",
                text.len(),
                G::TITLE
            )));
        }
        let game = handle.game();
        let state = game.parse_position(text).map_err(EngineError::Position)?;
        game.state_fits(&state).map_err(|why| {
            EngineError::Invalid(format!(
                "this position does not fit the game being played: {why}"
            ))
        })?;
        Ok(StepState {
            start_points: game.score(&state),
            tracker: PlayTracker::new(game, &state),
            handle,
            start: Some(state.clone()),
            state,
            history: Vec::new(),
            reward: 0.0,
        })
    }

    /// Rebuilds a state from [`DynState::serialize`]'s text.
    pub fn deserialize(handle: Arc<Handle<G>>, text: &str) -> Result<Self, EngineError> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let mut rest: Vec<&str> = Vec::new();
        let mut out = match lines.next() {
            Some(first) if first.starts_with(POSITION_PREFIX) => {
                let position = first[POSITION_PREFIX.len()..].trim();
                StepState::from_position(handle, &unescape(position))?
            }
            Some(first) => {
                rest.push(first);
                StepState::new(handle)
            }
            None => StepState::new(handle),
        };
        let most = out.handle.game().max_game_length();
        for line in rest.into_iter().chain(lines) {
            if out.history.len() >= most {
                return Err(EngineError::Invalid(format!(
                    "the saved state has more moves than a game of {} may last ({most})",
                    G::TITLE
                )));
            }
            let action: usize = line.parse().map_err(|_| {
                EngineError::Invalid(format!(
                    "'{}' is not a move number: a saved state lists move numbers, one per line",
                    quoted(line)
                ))
            })?;
            out.apply_action(action)?;
        }
        Ok(out)
    }

    /// The typed game.
    pub fn game(&self) -> &G {
        self.handle.game()
    }

    /// The typed position.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    fn seats(&self) -> usize {
        self.game().seats().len()
    }

    /// The turn under the rules of actual play: the game's own, or the end a
    /// repetition, a run without progress or the length bound makes.
    fn turn(&self) -> Turn {
        self.tracker.turn(self.game(), &self.state)
    }

    /// A puzzle's return at `state`: its points since the start, or 1 once solved
    /// when it keeps no points.
    fn puzzle_return(&self, state: &G::State) -> f64 {
        let game = self.game();
        match (game.score(state), self.start_points) {
            (Some(now), Some(then)) => (now - then) as f64,
            (Some(now), None) => now as f64,
            _ => match game.turn(state) {
                Turn::Over(Outcome::Win(_)) => 1.0,
                _ => 0.0,
            },
        }
    }

    fn not_legal(&self, action: usize) -> EngineError {
        let what = if matches!(self.turn(), Turn::Chance) {
            "what the dice can show"
        } else {
            "a legal move"
        };
        EngineError::Invalid(format!(
            "{action} is not the number of {what} here (legal: {})",
            list_ids(&self.legal_actions())
        ))
    }

    /// The legal move with this id, or why there is none.
    fn legal_move(&self, action: usize) -> Result<G::Move, EngineError> {
        if let Turn::Over(_) = self.turn() {
            return Err(EngineError::Move(tabula_core::MoveError::GameOver));
        }
        self.game()
            .move_of(&self.state, action)
            .ok_or_else(|| self.not_legal(action))
    }
}

/// Ids for a message: the first twenty, then how many more.
fn list_ids(ids: &[usize]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let mut text = ids
        .iter()
        .take(20)
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > 20 {
        text.push_str(&format!(" and {} more", ids.len() - 20));
    }
    text
}

/// Position texts are kept on one line: a line break is written `\n`, a
/// backslash `\\`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl<G: Registered> DynState for StepState<G> {
    fn current_player(&self) -> i32 {
        match self.turn() {
            Turn::Move(seat) => seat as i32,
            Turn::Chance => CHANCE_PLAYER,
            Turn::Over(_) => TERMINAL_PLAYER,
        }
    }

    fn is_terminal(&self) -> bool {
        self.turn().is_over()
    }

    fn is_chance_node(&self) -> bool {
        matches!(self.turn(), Turn::Chance)
    }

    fn legal_actions(&self) -> Vec<usize> {
        if self.turn().is_over() {
            return Vec::new();
        }
        let game = self.game();
        let mut ids: Vec<usize> = game
            .moves(&self.state)
            .into_iter()
            .map(|m| game.action_of(&self.state, m))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if !matches!(self.turn(), Turn::Chance) {
            return Vec::new();
        }
        let game = self.game();
        let mut outcomes = Vec::new();
        game.chance_outcomes(&self.state, &mut outcomes);
        let mut ids: Vec<(usize, f64)> = outcomes
            .into_iter()
            .map(|(m, p)| (game.action_of(&self.state, m), p))
            .collect();
        ids.sort_by_key(|&(a, _)| a);
        ids
    }

    fn apply_action(&mut self, action: usize) -> Result<(), EngineError> {
        let mv = self.legal_move(action)?;
        let puzzle = self.seats() == 1;
        let before = if puzzle {
            self.puzzle_return(&self.state)
        } else {
            0.0
        };
        let mut next = self.state.clone();
        // `move_of` gives only legal moves (a law the conformance suite checks).
        let game = self.handle.game();
        game.play_unchecked(&mut next, mv);
        self.tracker.record(game, &self.state, mv, &next);
        self.reward = if puzzle {
            self.puzzle_return(&next) - before
        } else {
            0.0
        };
        self.state = next;
        self.history.push(action);
        Ok(())
    }

    fn action_to_string(&self, action: usize) -> Result<String, EngineError> {
        let mv = self.legal_move(action)?;
        Ok(self.game().format_move(&self.state, mv))
    }

    fn string_to_action(&self, text: &str) -> Result<usize, EngineError> {
        if text.len() > MAX_MOVE_TEXT {
            return Err(EngineError::Invalid(format!(
                "a move is at most {MAX_MOVE_TEXT} characters long"
            )));
        }
        if let Turn::Over(_) = self.turn() {
            return Err(EngineError::Move(tabula_core::MoveError::GameOver));
        }
        let game = self.game();
        let mv = game
            .parse_move(&self.state, text)
            .map_err(|e| EngineError::Invalid(e.to_string()))?;
        let action = game.action_of(&self.state, mv);
        match game.move_of(&self.state, action) {
            Some(m) if m == mv => Ok(action),
            _ => Err(EngineError::Invalid(format!(
                "'{}' is not a legal move here",
                quoted(text.trim())
            ))),
        }
    }

    fn returns(&self) -> Vec<f64> {
        let n = self.seats();
        if n == 1 {
            return vec![self.puzzle_return(&self.state)];
        }
        match self.turn() {
            Turn::Over(Outcome::Win(w)) => {
                (0..n).map(|s| if s == w { 1.0 } else { -1.0 }).collect()
            }
            _ => vec![0.0; n],
        }
    }

    fn rewards(&self) -> Vec<f64> {
        let n = self.seats();
        if n == 1 {
            vec![self.reward]
        } else {
            vec![0.0; n]
        }
    }

    fn position(&self) -> String {
        self.game().format_position(&self.state)
    }

    fn serialize(&self) -> String {
        let mut out = String::new();
        if let Some(start) = &self.start {
            out.push_str(POSITION_PREFIX);
            out.push(' ');
            out.push_str(&escape(&self.game().format_position(start)));
            out.push('\n');
        }
        for a in &self.history {
            out.push_str(&a.to_string());
            out.push('\n');
        }
        out
    }

    fn history(&self) -> Vec<usize> {
        self.history.clone()
    }

    fn play_end(&self) -> Option<PlayEnd> {
        if self.game().turn(&self.state).is_over() {
            return None;
        }
        self.tracker.end(&self.state)
    }

    fn observation_tensor(&self, seat: usize) -> Vec<f32> {
        let mut out = Vec::new();
        if seat < self.seats() {
            self.game().observation(&self.state, seat, &mut out);
        }
        out
    }

    fn move_number(&self) -> usize {
        self.history.len()
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn analyze(&self) -> Result<Analysis, EngineError> {
        Ok(self.handle.analyze_state(&self.state))
    }

    fn view(&self) -> tabula_core::View {
        // The positions from the start, replayed from the history's action ids.
        let game = self.game();
        let mut state = match &self.start {
            Some(s) => s.clone(),
            None => game.initial_state(),
        };
        let mut states = vec![state.clone()];
        let mut moves = Vec::with_capacity(self.history.len());
        for &action in &self.history {
            let Some(mv) = game.move_of(&state, action) else {
                // Never for a history this state played; show the position alone.
                return crate::view_after(game, std::slice::from_ref(&self.state), &[]);
            };
            game.play_unchecked(&mut state, mv);
            states.push(state.clone());
            moves.push(mv);
        }
        crate::view_after(game, &states, &moves)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The facts of a handle's game ([`crate::DynGame::facts`]).
pub(crate) fn facts<G: Registered>(handle: &Handle<G>) -> GameFacts {
    let game = handle.game();
    let num_players = game.seats().len();
    let (min_utility, max_utility) = game.utility_range();
    let zero_sum = num_players == 2;
    GameFacts {
        name: G::NAME.into(),
        title: G::TITLE.into(),
        num_players,
        num_distinct_actions: game.num_distinct_actions(),
        max_chance_outcomes: game.max_chance_outcomes(),
        observation_shape: game.observation_shape(),
        max_game_length: game.max_game_length(),
        min_utility,
        max_utility,
        zero_sum,
        one_player: num_players == 1,
        explicit_chance: game.max_chance_outcomes() > 0,
        utility_sum: zero_sum.then_some(0.0),
        variant: game.variant().to_string(),
    }
}

/// A computer player of one game and variant, stepping [`StepState`]s.
struct StepPlayer<G: Registered> {
    handle: Arc<Handle<G>>,
    strategy: Box<dyn Strategy<G>>,
    rng: Rng,
    name: String,
}

impl<G: Registered> DynPlayer for StepPlayer<G> {
    fn choose(&mut self, state: &dyn DynState) -> Result<usize, EngineError> {
        let Some(s) = state.as_any().downcast_ref::<StepState<G>>() else {
            return Err(EngineError::Invalid(format!(
                "this player plays {}, and the state is of another game",
                G::TITLE
            )));
        };
        let (mine, theirs) = (self.handle.game().variant(), s.game().variant());
        if mine != theirs {
            return Err(EngineError::Invalid(format!(
                "this player plays {} ({}), and the state is of another variant ({})",
                G::TITLE,
                variant_text(&mine.to_string()),
                variant_text(&theirs.to_string())
            )));
        }
        let seat: Seat = match s.turn() {
            Turn::Move(seat) => seat,
            Turn::Chance => {
                return Err(EngineError::Invalid(
                    "the dice are to be rolled here, not a player to move".into(),
                ))
            }
            Turn::Over(_) => return Err(EngineError::Move(tabula_core::MoveError::GameOver)),
        };
        let game = s.game();
        let choice = self
            .strategy
            .choose(game, &s.state, seat, &mut self.rng)
            .ok_or_else(|| {
                EngineError::Unsupported(format!("{} resigned: it has no move to offer", self.name))
            })?;
        let action = game.action_of(&s.state, choice.mv);
        match game.move_of(&s.state, action) {
            Some(m) if m == choice.mv => Ok(action),
            _ => Err(EngineError::Unsupported(format!(
                "{} chose a move that is not legal here",
                self.name
            ))),
        }
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

fn variant_text(v: &str) -> String {
    if v.is_empty() {
        "the usual game".into()
    } else {
        v.to_string()
    }
}

/// Builds a computer player by name ([`crate::DynGame::new_state_player`]).
pub(crate) fn new_player<G: Registered>(
    handle: &Arc<Handle<G>>,
    name: &str,
    seed: u64,
) -> Result<Box<dyn DynPlayer>, EngineError> {
    let spec = crate::parse_player_spec(name)?;
    let strategy = handle
        .make_player(&spec, seed)?
        .ok_or_else(|| EngineError::Player {
            spec: spec.to_text(),
            reason: "a person plays through the state itself; name a computer player".into(),
        })?;
    Ok(Box::new(StepPlayer {
        handle: handle.clone(),
        strategy,
        rng: tabula_core::rng_from_seed(seed),
        name: spec.to_text(),
    }))
}
