//! What a game may offer beyond its rules, one trait per capability.
//!
//! [`Game`] holds the rules only. A game adds the faces it has by implementing
//! these traits; each one is a supertrait chain back to `Game`, so generic code
//! names exactly what it uses (`G: Notation + Symmetry` for the matchbox learner,
//! `G: Players` for alpha-beta's evaluation) and stays monomorphised: no trait
//! object stands between a search loop and the game.
//!
//! [`crate::Registered`] requires all of them, so the compiler checks that a
//! registered game has declared each one. [`Notation`] and [`Presentation`] have
//! required methods (every game must be read, written and shown); the other
//! capabilities are optional: their methods have defaults that mean "this game
//! offers none" (the identity as its only symmetry, no custom players, no
//! special solver, no draw rules), and `impl Symmetry for MyGame {}` declares
//! exactly that. The laws of each capability are checked for every game by the
//! engine's shared conformance suite (`tabula_engine::conformance`).

use crate::{
    BuildError, Game, History, MoveError, Oracle, OwnPlayer, ParseError, Seat, Strategy, View,
};
use serde::Serialize;
use std::sync::Arc;

/// A computer player a game offers (`scenario`, `nim`), or one of the generic ones
/// ([`crate::GenericPlayer`]), as the game list serves it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerKind {
    /// Name as typed in `--players` / `--ai` (`scenario`).
    pub name: String,
    /// One line on how it plays, in a player's words (no typing syntax).
    pub help: String,
    /// How to type its options (`hold:N, default 20`); empty when it has none.
    pub options: String,
    /// A few words for a menu or a legend ("The original program's rules of
    /// thumb"): declared with the game's own player ([`PlayerKind::with_words`]),
    /// the generic player's words for the others and for a game's own player
    /// that stands in for a generic one (the engine fills those).
    pub words: String,
    /// True for a player that learns from its games (its state is kept).
    pub learns: bool,
}

impl PlayerKind {
    /// A player kind with a name and a help line.
    pub fn new(name: &str, help: &str) -> Self {
        PlayerKind {
            name: name.into(),
            help: help.into(),
            options: String::new(),
            words: String::new(),
            learns: false,
        }
    }

    /// The same kind with how to type its options (builder style).
    pub fn with_options(mut self, options: &str) -> Self {
        self.options = options.into();
        self
    }

    /// The same kind with its words for a menu or a legend (builder style).
    pub fn with_words(mut self, words: &str) -> Self {
        self.words = words.into();
        self
    }

    /// A generic player kind, all of it from [`crate::GenericPlayer`].
    pub fn generic(player: crate::GenericPlayer) -> Self {
        PlayerKind {
            name: player.name().into(),
            help: player.help().into(),
            options: player.options().into(),
            words: player.words().into(),
            learns: player.learns(),
        }
    }
}

/// Rules that end *actual play* in a draw although the pure game graph goes on
/// (solvers ignore them; matches apply them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayDrawRule {
    /// Draw when the same position (side to move included) occurs this many times.
    pub repetitions: Option<u32>,
    /// Draw after this many consecutive plies without progress (see [`MatchRules::is_progress`]).
    pub plies_without_progress: Option<u32>,
}

/// A request for a game-specific solver or analysis (`tabula solve poggle`, SameGame search).
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The position to work on (the game's text form); `None` means the start.
    pub position: Option<String>,
    /// Time budget in seconds, for anytime searches.
    pub seconds: Option<f64>,
    /// Random seed.
    pub seed: u64,
    /// Memory, deadline and cancel flag: a solver refuses what cannot fit and an
    /// anytime search stops at the deadline or when cancelled (with its best so far).
    pub budget: crate::Budget,
    /// A line of moves in the game's notation that an anytime search may start
    /// from (what an earlier search found: a hint keeps its plan between moves).
    /// A search never returns less than the plan; games that cannot use one, or a
    /// plan that does not fit the position, ignore it.
    pub plan: Vec<String>,
}

/// Reading and writing moves and positions as text (the command line, saved
/// games, the JSON API). Every registered game has a notation.
///
/// Laws (checked by the conformance suite): `parse_move(s, &format_move(s, m)) == m`
/// and `parse_move(s, &short_move(s, m)) == m` for every legal move `m` of `s`, and
/// `parse_position(&format_position(s)) == s`.
pub trait Notation: Game {
    /// Reads a move typed by a user in this position.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, ParseError>;
    /// Writes a move so that [`Notation::parse_move`] reads it back in the same position.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;
    /// The move as a game ID writes it (Simon Tatham's short game IDs): a short
    /// text that [`Notation::parse_move`] reads back as this move in the same
    /// position, such as a bare number where the position says what it numbers.
    /// `format_move` by default.
    fn short_move(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }
    /// Reads a position from its documented text form (the only way untrusted text
    /// becomes a state). Must reject positions that break the rules' invariants.
    fn parse_position(&self, text: &str) -> Result<Self::State, ParseError>;
    /// Writes a position in its text form, side to move included.
    fn format_position(&self, state: &Self::State) -> String;
}

/// How positions and moves are shown to a player: the terminal board, the view
/// model of graphical front ends, the move log. Every registered game has one.
pub trait Presentation: Notation {
    /// A board drawing for the terminal.
    fn render_text(&self, state: &Self::State) -> String;
    /// The view model for graphical front ends: the board of `state` (layout,
    /// cells, pieces) and the facts of the position beside it.
    fn view(&self, state: &Self::State) -> View;
    /// The view of the position last in `history`: [`Presentation::view`] of it by
    /// default. A game whose cards show something of how the position was reached
    /// (the last roll of the dice) says it here. The engine fills the view's
    /// `last_move` from the history when the game leaves it empty.
    fn view_after(&self, history: History<'_, Self>) -> View {
        self.view(history.position())
    }
    /// The cells a move touches, in the order a user clicks them (from, to).
    /// None by default (a front end then offers the move by its text).
    fn move_cells(&self, _state: &Self::State, _mv: Self::Move) -> Vec<u32> {
        Vec::new()
    }
    /// The move in words for the move log (Auto120 names the rule); the notation by default.
    fn describe_move(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }
    /// The move named for a player who clicks rather than types (a browser's move
    /// menus and hint lists): words alone, without the notation a terminal player
    /// types. `describe_move` by default.
    fn move_words(&self, state: &Self::State, mv: Self::Move) -> String {
        self.describe_move(state, mv)
    }
    /// [`Presentation::move_words`] with its typed parts: a game whose words name
    /// its board's colours says each as a colour ([`crate::WordPart::Colour`]),
    /// so that every face names a colour its own way (the browser as the player's
    /// palette shows it). Its text ([`crate::Words`]' `Display`) is `move_words`
    /// (checked by the conformance suite); `move_words` as one text by default.
    fn move_parts(&self, state: &Self::State, mv: Self::Move) -> crate::Words {
        crate::Words::text(self.move_words(state, mv))
    }
    /// A whole move-log line for a decision, when the game words it better than the
    /// engine's default `"<seat>: <describe_move> (<reason>)"` (without the seat in a
    /// one-player puzzle, whose moves are all its player's). `state` is the position
    /// before the move; `seat` is `None` for chance. Typed parts as in
    /// [`Presentation::move_parts`]; a term of the game's glossary as a term part.
    fn log_line(
        &self,
        _state: &Self::State,
        _seat: Option<Seat>,
        _mv: Self::Move,
        _reason: Option<&str>,
    ) -> Option<crate::Words> {
        None
    }
    /// Score so far (puzzles), higher is better; `None` for games without a score.
    fn score(&self, _state: &Self::State) -> Option<i64> {
        None
    }
}

/// The symmetries of the board: a group of `symmetry_count()` maps, index 0 the
/// identity, under which the rules are unchanged. The matchbox learner keeps one
/// box per class of positions. The defaults describe a game whose only symmetry
/// is the identity (`impl Symmetry for MyGame {}`).
///
/// Laws, for every position `s`, every symmetry `k` and every legal move `m` of `s`
/// (checked by the conformance suite):
/// * `map_state(&map_state(s, k), inverse_symmetry(k)) == s`, and `k = 0` maps
///   every position to itself;
/// * `map_move(s, m, k)` is a legal move of `map_state(s, k)`, and playing it there
///   gives `map_state` of the position after `m`;
/// * the turn and, where an exact oracle exists, the value of a position are those
///   of its images.
pub trait Symmetry: Game {
    /// Number of board symmetries, identity included (index 0 is the identity).
    fn symmetry_count(&self) -> usize {
        1
    }
    /// The position under symmetry `k`.
    fn map_state(&self, state: &Self::State, _k: usize) -> Self::State {
        state.clone()
    }
    /// A move of `state` under symmetry `k` (a move of `map_state(state, k)`).
    fn map_move(&self, _state: &Self::State, mv: Self::Move, _k: usize) -> Self::Move {
        mv
    }
    /// The symmetry that undoes `k`.
    fn inverse_symmetry(&self, k: usize) -> usize {
        k
    }
}

/// Exact analysis: how the game is solved, and how big its graph is. The defaults
/// leave everything to the generic retrograde solver and say nothing of size.
pub trait ExactAnalysis: Game {
    /// True when the reachable game graph is small enough for the generic
    /// retrograde solver (a few million positions at most).
    fn is_small(&self) -> bool {
        false
    }
    /// How many positions are reachable from `start`, at most (a cheap upper
    /// bound, e.g. Nim: the product of heap sizes + 1, times two sides), or `None`
    /// when the game cannot tell. The generic solver uses it to refuse, before it
    /// starts, a graph that cannot fit its memory budget.
    fn position_bound(&self, _start: &Self::State) -> Option<u64> {
        None
    }
    /// Bytes a position keeps on the heap beyond `size_of::<State>()` (boards in a
    /// `Vec`), for memory estimates. Default 0.
    fn state_heap_bytes(&self, _state: &Self::State) -> usize {
        0
    }
    /// An exact oracle built by the game itself (closed-form rule, special solver)
    /// instead of the generic retrograde solver: `None` when the game has none of
    /// its own, else the oracle or why it could not be built now (a passing
    /// [`BuildError`] is tried again later; a lasting one is not). `progress`
    /// receives fractions 0..1.
    fn exact_oracle(
        &self,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<Arc<dyn Oracle<Self>>, BuildError>> {
        None
    }
    /// The least memory the game's own exact oracle can be had in (its table read
    /// back from disk, say), when [`ExactAnalysis::exact_oracle`] gives one;
    /// `None` when the game has none of its own. A size fact known without
    /// building anything: the engine offers a perfect player (and graded hints)
    /// exactly when this fits the process's memory limit, or, for games without
    /// an oracle of their own, when [`ExactAnalysis::is_small`] says so and the
    /// estimate from [`ExactAnalysis::position_bound`] fits.
    fn exact_oracle_bytes(&self) -> Option<u64> {
        None
    }
    /// Builds or reads now the table that the computer player named `player`
    /// (the game's own player, as typed) needs before its first move, when the
    /// game keeps one apart from its exact oracle (a dice game's table of
    /// chances, which its hints read too), so that a front end can say what is
    /// being prepared instead of showing nothing; `progress` receives fractions
    /// 0..1. `None` when the player needs no such table, else whether it could
    /// be had (why not, in words).
    fn prepare_player(&self, _player: &str, _progress: &dyn Fn(f64)) -> Option<Result<(), String>> {
        None
    }
    /// A game-specific `tabula solve` report (puzzle solvers, searches), or `None`
    /// to use the generic strong solver.
    fn solve_report(
        &self,
        _request: &Report,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<crate::SolveReport, String>> {
        None
    }
    /// Game-specific facts added to `tabula analyze` output for a position
    /// (Nim: the nim-sum and winning moves; Northcott: the gaps).
    fn analysis_extra(&self, _state: &Self::State) -> Option<crate::AnalysisExtra> {
        None
    }
}

/// Computer players: the heuristic the generic searches use and the players
/// special to this game.
pub trait Players: Game {
    /// Heuristic value of a position for `seat`, in about -1..1, for depth-limited
    /// search (alpha-beta, expectimax). 0 (no opinion) by default.
    fn evaluate(&self, _state: &Self::State, _seat: Seat) -> f64 {
        0.0
    }
    /// Computer players special to this game, each with how it is made.
    /// None by default.
    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        Vec::new()
    }
    /// How [`Players::own_players`] are listed.
    fn custom_player_kinds(&self) -> Vec<PlayerKind> {
        self.own_players().into_iter().map(|p| p.kind).collect()
    }
    /// Builds the one of [`Players::own_players`] named `name` (`options` is
    /// what followed a `:`); `None` for another name, `Some(Err(words))` for
    /// options it refuses.
    fn custom_player(
        &self,
        name: &str,
        options: &str,
        seed: u64,
    ) -> Option<Result<Box<dyn Strategy<Self>>, String>> {
        let player = self
            .own_players()
            .into_iter()
            .find(|p| p.kind.name == name)?;
        Some(player.make(self, options, seed))
    }
}

/// Rules of actual play that the pure game graph does not have: draws by
/// repetition or without progress, and set-up moves. Matches apply them; solvers
/// ignore them. None by default.
pub trait MatchRules: Game {
    /// Draw rules for actual play (repetition, no-progress counters).
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule::default()
    }
    /// Whether playing `mv` from `state` counts as progress (a capture) for
    /// [`PlayDrawRule::plies_without_progress`].
    fn is_progress(&self, _state: &Self::State, _mv: Self::Move) -> bool {
        true
    }
    /// For a game whose progress is no single kind of move but a quantity that
    /// play can raise and lower (Northcott's total of the gaps), that quantity:
    /// a ply is then progress only when it also brings the measure below every
    /// value it had earlier in the game (a new low), so that going back and
    /// forth is never progress. `None` (the default): [`MatchRules::is_progress`]
    /// alone decides.
    fn progress_measure(&self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// Plays `mv` as a set-up move (a correction of the position from the board,
    /// such as moving the piece of the side not to move) when the game has such
    /// moves and `mv` is one; `None` for ordinary moves. Matches only accept them
    /// in set-up mode; records replay them.
    fn try_setup(
        &self,
        _state: &mut Self::State,
        _mv: Self::Move,
    ) -> Option<Result<(), MoveError>> {
        None
    }
}
