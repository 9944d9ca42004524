//! `tabula_games._native`: the engine's games as Python objects in OpenSpiel's shape.
//!
//! Three classes: [`PyGame`] (one game in one variant: facts, solver, analysis,
//! simulation, training), [`PyState`] (a position to step through with integer
//! actions, as `pyspiel.State`) and [`PyPlayer`] (a computer player by name). They
//! hold the engine's object-safe handles (`DynGame`, `DynState`, `DynPlayer`), so this
//! crate knows no game. The pure-Python package (`python/tabula_games`) adds the
//! friendly functions and the OpenSpiel registration on top.
//!
//! Every error the engine reports for bad input (an illegal action, unknown game or
//! player, a position that does not read) becomes a `ValueError` carrying the CLI's
//! message. Work that may take long (solving, analysing, a perfect player's first
//! move, simulation, training) runs with the interpreter released on a thread of
//! its own ([`interruptible`]), so other Python threads go on meanwhile and Ctrl-C
//! stops it at once: the calling thread looks for signals while it waits, and a
//! `KeyboardInterrupt` cancels the work's budget, as the server does when a
//! client goes away.

use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Duration;
use tabula_core::{Budget, Report, Versioned};
use tabula_engine::{DynGame, DynPlayer, DynState, GameFacts, CHANCE_PLAYER, TERMINAL_PLAYER};

mod cluster;

/// Most games one call of `simulate` plays, as `tabula simulate` allows.
const MAX_SIMULATED_GAMES: u64 = 1_000_000_000;
/// Most training games, as `tabula train` allows.
const MAX_TRAINING_GAMES: u64 = 10_000_000;
/// Most random games one call of `State.random_rollouts` plays (an MCTS
/// evaluator asks for a few; this keeps one call short).
const MAX_ROLLOUTS: u32 = 10_000;
/// Longest text read as a position, a move or a serialized state: longer text is
/// refused before the game parses it (SameGame's 100x100 board is about 10 KB).
const MAX_TEXT_BYTES: usize = 1 << 20;

/// A `ValueError` with the engine's own words.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// How often a thread waiting for long work looks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` outside the interpreter, on a thread of its own, with `budget` as
/// its current budget ([`Budget::run`]: every search and every wait for a table
/// in it stops when the budget is cancelled or out of time). Meanwhile this
/// thread looks for signals every [`SIGNAL_POLL`]: when a handler raises (Ctrl-C's
/// `KeyboardInterrupt`), the budget is cancelled — the cancel the server uses
/// when a client goes away, which also stops a table's build that no one else
/// waits for — and the exception is raised as soon as the work has stopped.
fn interruptible<T: Send>(
    py: Python<'_>,
    budget: &Budget,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (done, finished) = std::sync::mpsc::channel();
    // Waited on outside the interpreter, from this thread only.
    let finished = Mutex::new(finished);
    std::thread::scope(|scope| {
        let worker = budget.clone();
        let handle = scope.spawn(move || {
            let out = worker.run(work);
            // The receiver is gone only once this call has returned.
            let _ = done.send(());
            out
        });
        let join = |handle: std::thread::ScopedJoinHandle<'_, T>| {
            py.detach(|| handle.join()).map_err(|_| {
                PyRuntimeError::new_err("the engine stopped with an internal error (a bug)")
            })
        };
        loop {
            let waited = py.detach(|| {
                let finished = finished.lock().unwrap_or_else(|e| e.into_inner());
                finished.recv_timeout(SIGNAL_POLL)
            });
            match waited {
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return join(handle),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(interrupted) = py.check_signals() {
                budget.cancel();
                // The work stops at its next check of the budget; nothing it
                // returns now is kept.
                let _ = join(handle);
                return Err(interrupted);
            }
        }
    })
}

/// The budget of one call: the process's memory limit (or `max_memory`), ending
/// after `seconds` when given.
fn call_budget(seconds: Option<f64>, max_memory: Option<&str>) -> PyResult<Budget> {
    let mut budget = match max_memory {
        Some(m) => Budget::new(tabula_core::parse_bytes(m).map_err(value_error)?),
        None => Budget::default(),
    };
    if let Some(s) = seconds {
        if !(s > 0.0 && s <= 86_400.0) {
            return Err(PyValueError::new_err("seconds must be between 0 and 86400"));
        }
        budget = budget.with_timeout(Duration::from_secs_f64(s));
    }
    Ok(budget)
}

/// The engine's refusal as a Python exception: `TimeoutError` when the call's
/// budget ran out of time (the work stopped there), else `ValueError`.
fn engine_error(budget: &Budget, seconds: Option<f64>, e: impl std::fmt::Display) -> PyErr {
    match seconds {
        Some(s) if budget.expired() => PyTimeoutError::new_err(format!(
            "stopped: the work did not end within the {s} s allowed ({e})"
        )),
        _ => value_error(e),
    }
}

/// Refuses text longer than [`MAX_TEXT_BYTES`] before any parser sees it.
fn check_text(what: &str, text: &str) -> PyResult<()> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(PyValueError::new_err(format!(
            "the {what} is {} bytes long, more than the {MAX_TEXT_BYTES} allowed",
            text.len()
        )));
    }
    Ok(())
}

/// A JSON value as plain Python objects (dicts, lists, numbers, strings), through
/// the standard library's `json` module so that numbers keep their exact form.
fn to_python<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| PyRuntimeError::new_err(format!("could not encode the result: {e}")))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A result of `game` as `tabula ... --json` prints it: version, game, variant,
/// then the result's own fields (docs/JSON.md).
fn versioned<'py, T: serde::Serialize>(
    py: Python<'py>,
    game: &dyn DynGame,
    result: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let info = game.info();
    to_python(py, &Versioned::new(&info.name, &info.variant, result))
}

/// One game in one variant (`tabula_games.load_game(name, options)`).
#[pyclass(module = "tabula_games._native", name = "Game", frozen)]
pub struct PyGame {
    handle: Arc<dyn DynGame>,
    facts: Arc<GameFacts>,
}

impl PyGame {
    fn state(&self, inner: Box<dyn DynState>) -> PyState {
        PyState {
            inner,
            game: self.handle.clone(),
            facts: self.facts.clone(),
        }
    }
}

#[pymethods]
impl PyGame {
    /// Builds a game from its registry name and variant text (`"heaps=1-2-3,play=misere"`).
    #[new]
    #[pyo3(signature = (name, variant = ""))]
    fn new(name: &str, variant: &str) -> PyResult<Self> {
        check_text("variant", variant)?;
        let handle = tabula_engine::build(name, variant).map_err(value_error)?;
        let facts = Arc::new(handle.facts());
        Ok(PyGame { handle, facts })
    }

    /// The registry name (`"mu-torere"`).
    #[getter]
    fn name(&self) -> String {
        self.facts.name.clone()
    }

    /// The title for people (`"Mu Torere"`).
    #[getter]
    fn title(&self) -> String {
        self.facts.title.clone()
    }

    /// The variant, normalised (`"heaps=1-2-3,play=misere"`; empty for the usual game).
    #[getter]
    fn variant(&self) -> String {
        self.facts.variant.clone()
    }

    /// The facts OpenSpiel's `GameInfo` and `GameType` need, as a dict.
    fn facts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = &self.facts;
        let d = pyo3::types::PyDict::new(py);
        d.set_item("name", &f.name)?;
        d.set_item("title", &f.title)?;
        d.set_item("variant", &f.variant)?;
        d.set_item("num_players", f.num_players)?;
        d.set_item("num_distinct_actions", f.num_distinct_actions)?;
        d.set_item("max_chance_outcomes", f.max_chance_outcomes)?;
        d.set_item("observation_shape", f.observation_shape.clone())?;
        d.set_item("max_game_length", f.max_game_length)?;
        d.set_item("min_utility", f.min_utility)?;
        d.set_item("max_utility", f.max_utility)?;
        d.set_item("zero_sum", f.zero_sum)?;
        d.set_item("one_player", f.one_player)?;
        d.set_item("explicit_chance", f.explicit_chance)?;
        d.set_item("utility_sum", f.utility_sum)?;
        Ok(d.into_any())
    }

    /// What `tabula games --json` shows about this game: options, seats, players.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.handle.info())
    }

    /// The rules for players (Markdown).
    fn rules(&self) -> String {
        self.handle.rules()
    }

    /// Number of action ids: every legal move's id is below it, in every state.
    fn num_distinct_actions(&self) -> usize {
        self.facts.num_distinct_actions
    }

    /// Number of players (1 for the puzzles).
    fn num_players(&self) -> usize {
        self.facts.num_players
    }

    /// Most outcomes a chance node has (0 without dice).
    fn max_chance_outcomes(&self) -> usize {
        self.facts.max_chance_outcomes
    }

    /// Most actions a game lasts (the engine's cap where the rules set none).
    fn max_game_length(&self) -> usize {
        self.facts.max_game_length
    }

    /// The shape of `State.observation_tensor`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.facts.observation_shape.clone()
    }

    /// The length of `State.observation_tensor`.
    fn observation_tensor_size(&self) -> usize {
        self.facts.observation_shape.iter().product()
    }

    /// The lowest return a player can end with.
    fn min_utility(&self) -> f64 {
        self.facts.min_utility
    }

    /// The highest return a player can end with.
    fn max_utility(&self) -> f64 {
        self.facts.max_utility
    }

    /// The start of a new game (SameGame without a seed deals a fresh board).
    fn new_initial_state(&self) -> PyState {
        self.state(self.handle.new_initial_state())
    }

    /// Rebuilds a state from `State.serialize()`.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        check_text("serialized state", text)?;
        let inner = self.handle.deserialize_state(text).map_err(value_error)?;
        Ok(self.state(inner))
    }

    /// A state at a position written in the game's notation (what `str(state)`
    /// and `tabula analyze --position` show), its history starting there.
    fn state_from_position(&self, text: &str) -> PyResult<PyState> {
        check_text("position", text)?;
        let inner = self.handle.state_from_position(text).map_err(value_error)?;
        Ok(self.state(inner))
    }

    /// `tabula solve --json`: the game's own report, or the exact solution's figures,
    /// from `position` (the game's text form) or the start. `seconds` bounds the
    /// whole solve: an anytime search (SameGame) returns its best by then, any
    /// other solve that has not ended raises `TimeoutError` (a table being built
    /// for this process goes on, for the next call); `max_memory` ("512M", "4G")
    /// the solver's memory, as `--max-memory` (default: the process's, see
    /// `set_max_memory`). Ctrl-C stops it at once (`KeyboardInterrupt`).
    #[pyo3(signature = (position = None, seconds = None, seed = 1, max_memory = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        position: Option<String>,
        seconds: Option<f64>,
        seed: u64,
        max_memory: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(p) = &position {
            check_text("position", p)?;
        }
        let budget = call_budget(seconds, max_memory)?;
        let request = Report {
            position,
            seconds,
            seed,
            budget: budget.clone(),
            ..Report::default()
        };
        let handle = &self.handle;
        let report = interruptible(py, &budget, || handle.solve(&request, &|_| {}))?
            .map_err(|e| engine_error(&budget, seconds, e))?;
        versioned(py, handle.as_ref(), &report)
    }

    /// `tabula analyze --json`: the value of a position (the game's text form; the
    /// start if omitted) and every legal move graded.
    #[pyo3(signature = (position = None))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        position: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(p) = &position {
            check_text("position", p)?;
        }
        let handle = &self.handle;
        let analysis = interruptible(py, &Budget::default(), || {
            handle.analyze(position.as_deref())
        })?
        .map_err(value_error)?;
        versioned(py, handle.as_ref(), &analysis)
    }

    /// `tabula count --json`: the game's counting report.
    fn count<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let handle = &self.handle;
        let report =
            interruptible(py, &Budget::default(), || handle.count())?.map_err(value_error)?;
        versioned(py, handle.as_ref(), &report)
    }

    /// `tabula simulate --json`: `games` games between two computer players (names
    /// as in `tabula games`), on all cores, seats alternating.
    #[pyo3(signature = (players, games = 1000, seed = 1))]
    fn simulate<'py>(
        &self,
        py: Python<'py>,
        players: (String, String),
        games: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        if games == 0 || games > MAX_SIMULATED_GAMES {
            return Err(PyValueError::new_err(format!(
                "games must be between 1 and {MAX_SIMULATED_GAMES}"
            )));
        }
        let handle = &self.handle;
        let names = [players.0.trim(), players.1.trim()];
        let report = interruptible(py, &Budget::default(), || {
            handle.simulate(names, games, seed, &|| {})
        })?
        .map_err(value_error)?;
        to_python(py, &report)
    }

    /// `tabula train --json`: a matchbox machine learns against a trainer. `options`
    /// is the JSON object of the engine's training options (`games`, `opponent`,
    /// `player`, `seat`, `options`, `block`, `seed`, `learned`). Returns the report
    /// (with its learning curve) and the learned matchboxes.
    fn train<'py>(
        &self,
        py: Python<'py>,
        options: &str,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        check_text("training options", options)?;
        let options: serde_json::Value = serde_json::from_str(options)
            .map_err(|e| PyValueError::new_err(format!("training options are not JSON: {e}")))?;
        let games = options.get("games").and_then(|g| g.as_u64()).unwrap_or(100);
        if games == 0 || games > MAX_TRAINING_GAMES {
            return Err(PyValueError::new_err(format!(
                "games must be between 1 and {MAX_TRAINING_GAMES}"
            )));
        }
        let handle = &self.handle;
        let trained = interruptible(py, &Budget::default(), || handle.train(&options, &|_| {}))?
            .map_err(value_error)?;
        Ok((
            versioned(py, handle.as_ref(), &trained.training)?,
            to_python(py, &trained.learned)?,
        ))
    }

    /// A computer player by name (`"perfect"`, `"matchbox"`, `"search"`,
    /// `"level:50"`, `"alphabeta:depth=4"`, ...; `info()["players"]` lists them).
    #[pyo3(signature = (name, seed = 0))]
    fn player(&self, py: Python<'_>, name: &str, seed: u64) -> PyResult<PyPlayer> {
        check_text("player name", name)?;
        let handle = &self.handle;
        // A perfect player may build the exact solution first: outside the interpreter.
        let inner = interruptible(py, &Budget::default(), || {
            handle.new_state_player(name, seed)
        })?
        .map_err(value_error)?;
        Ok(PyPlayer {
            inner: Mutex::new(inner),
            facts: self.facts.clone(),
        })
    }

    /// Pickling (multiprocessing sends games to other processes): the game is
    /// built again from its name and variant there.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let this = slf.get();
        Ok((
            slf.get_type().into_any(),
            (this.facts.name.clone(), this.facts.variant.clone()),
        ))
    }

    /// The same game in the same variant.
    fn __eq__(&self, other: PyRef<'_, PyGame>) -> bool {
        self.facts.name == other.facts.name && self.facts.variant == other.facts.variant
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.facts.name.hash(&mut hasher);
        self.facts.variant.hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        if self.facts.variant.is_empty() {
            format!("<tabula_games.Game {}>", self.facts.name)
        } else {
            format!(
                "<tabula_games.Game {}({})>",
                self.facts.name, self.facts.variant
            )
        }
    }
}

/// A position of a game, stepped through with integer actions as in OpenSpiel.
#[pyclass(module = "tabula_games._native", name = "State")]
pub struct PyState {
    inner: Box<dyn DynState>,
    game: Arc<dyn DynGame>,
    facts: Arc<GameFacts>,
}

impl PyState {
    fn copy(&self) -> PyState {
        PyState {
            inner: self.inner.clone_box(),
            game: self.game.clone(),
            facts: self.facts.clone(),
        }
    }
}

#[pymethods]
impl PyState {
    /// The seat to act (0, 1, ...), `CHANCE_PLAYER` (-1) at a roll of the dice, or
    /// `TERMINAL_PLAYER` (-4) once the game is over.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// Is the game over?
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Is a roll of the dice next?
    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    /// Is it a player's turn (not chance, not over)?
    fn is_player_node(&self) -> bool {
        self.inner.current_player() >= 0
    }

    /// The ids of the legal moves (or of the chance outcomes), ascending. As
    /// OpenSpiel's `legal_actions(player)`: a seat other than the one to move has
    /// none, and at a chance node the outcomes are given whoever asks.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<usize>> {
        let Some(player) = player else {
            return Ok(self.inner.legal_actions());
        };
        let now = self.inner.current_player();
        if now < 0 || player == i64::from(now) {
            Ok(self.inner.legal_actions())
        } else if player < 0 {
            Err(PyValueError::new_err(format!(
                "player {player} is not a seat: only a seat (0, 1, ...) has legal moves"
            )))
        } else {
            Ok(Vec::new())
        }
    }

    /// A list of 0s and 1s, 1 for each legal action id of `player` (the one to
    /// act if omitted), as OpenSpiel's: `max_chance_outcomes` long for the chance
    /// player, `num_distinct_actions` long otherwise. A seat's mask is all 0s
    /// while it is not the seat's turn, at a roll of the dice too (OpenSpiel's
    /// C++ base would put the dice's outcomes in it).
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask(&self, player: Option<i64>) -> Vec<u32> {
        let now = i64::from(self.inner.current_player());
        let player = player.unwrap_or(now);
        let length = if player == i64::from(CHANCE_PLAYER) {
            self.facts.max_chance_outcomes
        } else {
            self.facts.num_distinct_actions
        };
        let mut mask = vec![0u32; length];
        let legal = if player == now {
            self.inner.legal_actions()
        } else {
            Vec::new()
        };
        for a in legal {
            if let Some(m) = mask.get_mut(a) {
                *m = 1;
            }
        }
        mask
    }

    /// Plays `rollouts` games from this state to their end inside the engine,
    /// each move chosen uniformly at random among the legal ones (a roll of the
    /// dice by its probabilities), seeded by `seed`; returns each player's
    /// returns summed over the games. What an MCTS evaluator's random rollouts
    /// compute, in one call rather than a few calls a move.
    #[pyo3(signature = (rollouts = 1, seed = 0))]
    fn random_rollouts(&self, py: Python<'_>, rollouts: u32, seed: u64) -> PyResult<Vec<f64>> {
        if rollouts == 0 || rollouts > MAX_ROLLOUTS {
            return Err(PyValueError::new_err(format!(
                "rollouts must be between 1 and {MAX_ROLLOUTS}"
            )));
        }
        let start = self.inner.as_ref();
        let players = self.facts.num_players;
        py.detach(|| random_rollouts(start, players, rollouts, seed))
            .map_err(value_error)
    }

    /// `[(outcome id, probability), ...]` at a chance node; empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.inner.chance_outcomes()
    }

    /// Plays the move (or chance outcome) with this id; `ValueError` if it is not legal here.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let action = usize::try_from(action)
            .map_err(|_| PyValueError::new_err(format!("{action} is not an action id")))?;
        self.inner.apply_action(action).map_err(value_error)
    }

    /// A copy with the action applied.
    fn child(&self, action: i64) -> PyResult<PyState> {
        let mut next = self.copy();
        next.apply_action(action)?;
        Ok(next)
    }

    /// The move with this id in the game's move notation. OpenSpiel's signature
    /// (`player, action`) is accepted too.
    #[pyo3(signature = (first, second = None))]
    fn action_to_string(&self, first: i64, second: Option<i64>) -> PyResult<String> {
        let action = second.unwrap_or(first);
        let action = usize::try_from(action)
            .map_err(|_| PyValueError::new_err(format!("{action} is not an action id")))?;
        self.inner.action_to_string(action).map_err(value_error)
    }

    /// The id of a move written in the game's move notation. OpenSpiel's signature
    /// (`player, text`) is accepted too.
    #[pyo3(signature = (first, second = None))]
    fn string_to_action(&self, first: &Bound<'_, PyAny>, second: Option<&str>) -> PyResult<usize> {
        let text: String = match second {
            Some(t) => t.to_string(),
            None => first.extract()?,
        };
        check_text("move", &text)?;
        self.inner.string_to_action(&text).map_err(value_error)
    }

    /// Each player's return: +1/-1/0 at the end of a two-player game (0 before);
    /// the score so far in a puzzle.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// Each player's reward for the last action (puzzles: the points it scored).
    fn rewards(&self) -> Vec<f64> {
        self.inner.rewards()
    }

    /// The position in the game's notation (what `tabula analyze --position` reads).
    fn position(&self) -> String {
        self.inner.position()
    }

    /// Text that `Game.deserialize_state` turns back into this exact state.
    fn serialize(&self) -> String {
        self.inner.serialize()
    }

    /// The action ids applied since the start (chance outcomes included).
    fn history(&self) -> Vec<usize> {
        self.inner.history()
    }

    /// How the rules of actual play ended the game, when they did rather than
    /// the game's own rules: `"repetition"` or `"no_progress"` (a draw), or
    /// `"cut_off"` (the game reached `Game.max_game_length()` with no end: no
    /// result, not a draw); `None` otherwise.
    fn play_end(&self) -> Option<&'static str> {
        self.inner.play_end().map(|end| match end {
            tabula_engine::PlayEnd::Repetition(_) => "repetition",
            tabula_engine::PlayEnd::NoProgress(_) => "no_progress",
            tabula_engine::PlayEnd::CutOff(_) => "cut_off",
        })
    }

    /// The history as OpenSpiel writes it (`"4, 0, 8"`): the information state of
    /// a perfect-information game with perfect recall.
    fn history_str(&self) -> String {
        use std::fmt::Write as _;
        let history = self.inner.history();
        let mut out = String::with_capacity(history.len() * 5);
        for (i, a) in history.iter().enumerate() {
            let sep = if i > 0 { ", " } else { "" };
            // Writing to a String cannot fail.
            let _ = write!(out, "{sep}{a}");
        }
        out
    }

    /// Number of actions applied since the start.
    fn move_number(&self) -> usize {
        self.inner.move_number()
    }

    /// The observation from `player`'s point of view (the side to move if omitted),
    /// flat, of length `Game.observation_tensor_size()`.
    #[pyo3(signature = (player = None))]
    fn observation_tensor(&self, player: Option<i64>) -> PyResult<Vec<f32>> {
        let players = self.facts.num_players;
        let seat = match player {
            Some(p) => usize::try_from(p)
                .ok()
                .filter(|&p| p < players)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "player {p} is not a seat of this game (0 to {})",
                        players.saturating_sub(1)
                    ))
                })?,
            None => usize::try_from(self.inner.current_player()).unwrap_or(0),
        };
        Ok(self.inner.observation_tensor(seat))
    }

    /// `tabula analyze` of this position: its value and every legal move graded.
    fn analyze<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = &self.inner;
        let analysis =
            interruptible(py, &Budget::default(), || inner.analyze())?.map_err(value_error)?;
        versioned(py, self.game.as_ref(), &analysis)
    }

    /// What the game declares every face shows of this position (a dict): the
    /// board's `layout` and `labels`, its `cells` (with their `mark`, `colour` and
    /// click `target`), `edges`, `pieces`, the `facts` beside the board, the
    /// `last_move` and the `panels`' facts; the same view the browser draws.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = &self.inner;
        let view = py.detach(|| inner.view());
        to_python(py, &view)
    }

    /// The game this state belongs to.
    fn get_game(&self) -> PyGame {
        PyGame {
            handle: self.game.clone(),
            facts: self.facts.clone(),
        }
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        self.copy()
    }

    /// Pickling (OpenSpiel serializes Python states by pickling them): the game,
    /// its variant and `serialize()`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, String, String))> {
        let restore = py
            .import("tabula_games._native")?
            .getattr("_restore_state")?;
        Ok((
            restore,
            (
                self.facts.name.clone(),
                self.facts.variant.clone(),
                self.inner.serialize(),
            ),
        ))
    }

    fn __copy__(&self) -> PyState {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.copy()
    }

    fn __str__(&self) -> String {
        self.inner.position()
    }

    fn __repr__(&self) -> String {
        format!("<tabula_games.State {}>", self.inner.position())
    }

    /// Two states are equal when they are of the same game and variant, start
    /// from the same position and have the same history: what `serialize()`
    /// writes. (The same position reached another way may differ under a
    /// repetition rule; compare `str(state)` for the position alone.)
    fn __eq__(&self, other: PyRef<'_, PyState>) -> bool {
        self.facts.name == other.facts.name
            && self.facts.variant == other.facts.variant
            && self.inner.move_number() == other.inner.move_number()
            && self.inner.serialize() == other.inner.serialize()
    }

    /// The hash of what `__eq__` compares. A state used as a key of a dict or a
    /// set must not be played on afterwards (key a `clone()`).
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.facts.name.hash(&mut hasher);
        self.facts.variant.hash(&mut hasher);
        self.inner.serialize().hash(&mut hasher);
        hasher.finish()
    }

    /// The board as an SVG picture, drawn from `view()` (Jupyter shows it).
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        let view = self.view(py)?;
        py.import("tabula_games._display")?
            .call_method1("svg", (view,))?
            .extract()
    }

    /// The board and the position in words, as HTML (Jupyter shows it).
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let view = self.view(py)?;
        py.import("tabula_games._display")?
            .call_method1("html", (view, self.facts.title.as_str()))?
            .extract()
    }
}

/// [`PyState::random_rollouts`]: `rollouts` random games from `start`, each
/// ending within the game's length bound (the engine cuts a game off there).
fn random_rollouts(
    start: &dyn DynState,
    players: usize,
    rollouts: u32,
    seed: u64,
) -> Result<Vec<f64>, tabula_engine::EngineError> {
    use rand::Rng as _;
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut total = vec![0.0; players];
    for _ in 0..rollouts {
        let mut state = start.clone_box();
        while !state.is_terminal() {
            let action = if state.is_chance_node() {
                let outcomes = state.chance_outcomes();
                let mut left: f64 = rng.gen();
                let mut chosen = outcomes.last().map(|&(a, _)| a);
                for &(a, p) in &outcomes {
                    if left < p {
                        chosen = Some(a);
                        break;
                    }
                    left -= p;
                }
                chosen
            } else {
                let legal = state.legal_actions();
                (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())])
            };
            let Some(action) = action else {
                // Never for a game that keeps the laws (a side to move has a move).
                return Err(tabula_engine::EngineError::Invalid(
                    "the game has no move to play in a position that is not over".into(),
                ));
            };
            state.apply_action(action)?;
        }
        for (sum, r) in total.iter_mut().zip(state.returns()) {
            *sum += r;
        }
    }
    Ok(total)
}

/// The native state behind `obj`: a `State`, or an object carrying one as its
/// `tabula_state` attribute (the OpenSpiel wrapper's states).
fn state_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, PyState>> {
    if let Ok(state) = obj.extract::<PyRef<'py, PyState>>() {
        return Ok(state);
    }
    match obj.getattr("tabula_state") {
        Ok(inner) => Ok(inner.extract::<PyRef<'py, PyState>>()?),
        Err(_) => Err(PyValueError::new_err(
            "expected a state of a Tabula game (tabula_games.State or a registered OpenSpiel one)",
        )),
    }
}

/// A computer player (`Game.player(name)`); `step(state)` returns its move's id.
#[pyclass(module = "tabula_games._native", name = "Player", frozen)]
pub struct PyPlayer {
    inner: Mutex<Box<dyn DynPlayer>>,
    facts: Arc<GameFacts>,
}

#[pymethods]
impl PyPlayer {
    /// The player's name as the engine writes it.
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(self.lock()?.name())
    }

    /// The id of the move this player makes in `state` (a player's turn, not chance
    /// or the end). Thinks outside the interpreter.
    fn step(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<usize> {
        let state = state_of(state)?;
        let same = &state.facts;
        let mine = &self.facts;
        if same.name != mine.name || same.variant != mine.variant {
            return Err(PyValueError::new_err(format!(
                "this player plays {}, not {}",
                mine.title, same.title
            )));
        }
        let inner: &dyn DynState = state.inner.as_ref();
        let mut player = self.lock()?;
        let player: &mut Box<dyn DynPlayer> = &mut player;
        interruptible(py, &Budget::default(), || player.choose(inner))?.map_err(value_error)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<tabula_games.Player {}>", self.lock()?.name()))
    }
}

impl PyPlayer {
    /// The player, unless another thread is using it now (waiting would hold the
    /// interpreter while that thread, thinking outside it, needs it back).
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn DynPlayer>>> {
        match self.inner.try_lock() {
            Ok(g) => Ok(g),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this player is thinking in another thread",
            )),
        }
    }
}

/// Every registered game's facts and options (`tabula games --json`), each in its
/// usual variant.
#[pyfunction]
fn game_infos<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for entry in tabula_engine::registry() {
        let handle = tabula_engine::build(entry.name, "").map_err(value_error)?;
        list.append(to_python(py, &handle.info())?)?;
    }
    Ok(list)
}

/// The names of the registered games, in the order `tabula games` lists them.
#[pyfunction]
fn game_names() -> Vec<String> {
    tabula_engine::registry()
        .into_iter()
        .map(|e| e.name.to_string())
        .collect()
}

/// Every game's variant options: `{game: [{name, label, default, help}]}`.
#[pyfunction]
fn game_options<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let entry = tabula_engine::find(name).map_err(value_error)?;
    to_python(py, &(entry.options)())
}

/// What a game declares for the shared tests (`Registered::test_cases`): the
/// variants to check and what each promises, published counts, positions with
/// known values, its OpenSpiel counterpart (`{variant, game, actions, every_state,
/// lines, values_from_ply, same_observation}`).
#[pyfunction]
fn test_cases<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let entry = tabula_engine::find(name).map_err(value_error)?;
    to_python(py, &(entry.test_cases)())
}

/// The tools the games offer (`tabula tool`): `[{name, title, about, example}]`.
#[pyfunction]
fn tools<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    let mut all = Vec::new();
    for entry in tabula_engine::registry() {
        let info = tabula_engine::build(entry.name, "")
            .map_err(value_error)?
            .info();
        all.extend(info.presentation.tools);
    }
    to_python(py, &all)
}

/// `tabula tool NAME INPUT --json`: runs a game's tool (`cgt`, Poggle's and Pig's
/// calculators, ...). Returns `(lines, data)`: sentences and the same as data.
#[pyfunction]
fn tool<'py>(
    py: Python<'py>,
    name: &str,
    input: &str,
) -> PyResult<(Vec<String>, Bound<'py, PyAny>)> {
    check_text("tool input", input)?;
    for entry in tabula_engine::registry() {
        let info = tabula_engine::build(entry.name, "")
            .map_err(value_error)?
            .info();
        if let Some(t) = info
            .presentation
            .tools
            .into_iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
        {
            let answer = py.detach(|| t.answer(input)).map_err(value_error)?;
            return Ok((answer.lines, to_python(py, &answer.data)?));
        }
    }
    Err(PyValueError::new_err(format!(
        "no tool named '{}'",
        name.chars().take(40).collect::<String>()
    )))
}

/// Rebuilds a pickled state (see `State.__reduce__`).
#[pyfunction]
fn _restore_state(name: &str, variant: &str, text: &str) -> PyResult<PyState> {
    PyGame::new(name, variant)?.deserialize_state(text)
}

/// Sets the memory every solver may use from now on, as the CLI's `--max-memory`
/// (`"512M"`, `"4G"`, or a number of bytes); returns the bytes.
#[pyfunction]
fn set_max_memory(size: &Bound<'_, PyAny>) -> PyResult<u64> {
    let bytes = match size.extract::<u64>() {
        Ok(b) => b,
        Err(_) => {
            let text: String = size.extract()?;
            tabula_core::parse_bytes(&text).map_err(value_error)?
        }
    };
    if bytes == 0 {
        return Err(PyValueError::new_err(
            "the memory budget must be above 0 bytes",
        ));
    }
    tabula_core::set_default_max_memory(bytes);
    Ok(bytes)
}

/// The memory every solver may use (bytes; 1 GiB unless set).
#[pyfunction]
fn max_memory() -> u64 {
    tabula_core::default_max_memory()
}

#[pymodule]
#[pyo3(name = "_native")]
fn tabula_games(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CHANCE_PLAYER", CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", TERMINAL_PLAYER)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyPlayer>()?;
    cluster::register(m)?;
    m.add_function(wrap_pyfunction!(game_infos, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(game_options, m)?)?;
    m.add_function(wrap_pyfunction!(test_cases, m)?)?;
    m.add_function(wrap_pyfunction!(tools, m)?)?;
    m.add_function(wrap_pyfunction!(tool, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_memory, m)?)?;
    m.add_function(wrap_pyfunction!(max_memory, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    Ok(())
}
