use crate::{Graded, MoveError, Oracle, ParseError, Rng, Seat, Strategy, Turn, View};
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

/// A computer player a game offers beyond the generic ones (`scenario`, `nim`, `lookahead`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerKind {
    /// Name as typed in `--players` / `--ai` (`scenario`).
    pub name: String,
    /// One line on how it plays.
    pub help: String,
}

impl PlayerKind {
    /// A player kind with a name and a help line.
    pub fn new(name: &str, help: &str) -> Self {
        PlayerKind {
            name: name.into(),
            help: help.into(),
        }
    }
}

/// Rules that end *actual play* in a draw although the pure game graph goes on
/// (solvers ignore them; matches apply them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayDrawRule {
    /// Draw when the same position (side to move included) occurs this many times.
    pub repetitions: Option<u32>,
    /// Draw after this many consecutive plies without progress (see [`Game::is_progress`]).
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

/// The rules of one game in one variant.
///
/// A `Game` value is immutable configuration (board size, rule options); all
/// changing data lives in [`Game::State`]. Methods that only make sense for some
/// kinds of game have defaults, so a simple game implements only the first block.
pub trait Game: Clone + Send + Sync + 'static {
    /// A position, side to move included.
    type State: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    /// A move (also a chance outcome such as a die roll). Small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Registry name (`tictactoe`, `kono`).
    fn name(&self) -> &'static str;
    /// Names of the seats, in turn order (`["X", "O"]`, `["White", "Black"]`, `["Player"]`).
    fn seats(&self) -> &'static [&'static str];
    /// The starting position. Games that start with chance (who begins) return a chance node.
    fn initial_state(&self) -> Self::State;
    /// Who acts next.
    fn turn(&self, state: &Self::State) -> Turn;
    /// Appends the legal moves (or chance outcomes, at a chance node) to `out`.
    /// Callers clear `out` first; implementations must not allocate beyond pushing.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// Plays a move known to be legal. The fast path for search: it may misbehave
    /// (but must not be unsafe) on an illegal move.
    fn play_unchecked(&self, state: &mut Self::State, mv: Self::Move);

    /// Reads a move typed by a user in this position.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, ParseError>;
    /// Writes a move so that [`Game::parse_move`] reads it back in the same position.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Reads a position from its documented text form (the only way untrusted text
    /// becomes a state). Must reject positions that break the rules' invariants.
    fn parse_position(&self, text: &str) -> Result<Self::State, ParseError>;
    /// Writes a position in its text form, side to move included.
    fn format_position(&self, state: &Self::State) -> String;
    /// A board drawing for the terminal.
    fn render_text(&self, state: &Self::State) -> String;
    /// The view model for graphical front ends.
    fn view(&self, state: &Self::State) -> View;

    // ----- optional capabilities -----

    /// Plays a move after checking it is legal.
    fn try_play(&self, state: &mut Self::State, mv: Self::Move) -> Result<(), MoveError> {
        if let Turn::Over(_) = self.turn(state) {
            return Err(MoveError::GameOver);
        }
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        if !moves.contains(&mv) {
            return Err(MoveError::Illegal {
                mv: self.format_move(state, mv),
                reason: "not a legal move in this position".into(),
            });
        }
        self.play_unchecked(state, mv);
        Ok(())
    }

    /// Plays `mv` as a set-up move (the Northcott slides' Ctrl+click: a correction of the
    /// position, such as moving the piece of the side not to move) when the game has
    /// such moves and `mv` is one; `None` for ordinary moves. Matches only accept them
    /// in set-up mode; records replay them.
    fn try_setup(
        &self,
        _state: &mut Self::State,
        _mv: Self::Move,
    ) -> Option<Result<(), MoveError>> {
        None
    }

    /// At a chance node: each outcome with its probability (they sum to 1).
    /// The default gives every legal outcome the same probability.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Self::Move, f64)>) {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        let p = 1.0 / moves.len().max(1) as f64;
        out.extend(moves.into_iter().map(|m| (m, p)));
    }

    /// The cells a move touches, in the order a user clicks them (from, to).
    fn move_cells(&self, _state: &Self::State, _mv: Self::Move) -> Vec<u32> {
        Vec::new()
    }

    /// Score so far (puzzles), higher is better.
    fn score(&self, _state: &Self::State) -> Option<i64> {
        None
    }

    /// True for impartial games (both sides have the same moves): enables Sprague-Grundy.
    fn is_impartial(&self) -> bool {
        false
    }

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

    /// Draw rules for actual play (repetition, no-progress counters).
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule::default()
    }
    /// Whether playing `mv` from `state` counts as progress (a capture) for
    /// [`PlayDrawRule::plies_without_progress`].
    fn is_progress(&self, _state: &Self::State, _mv: Self::Move) -> bool {
        true
    }

    /// Heuristic value of a position for `seat`, in about -1..1, for depth-limited search.
    fn evaluate(&self, _state: &Self::State, _seat: Seat) -> f64 {
        0.0
    }

    /// Computer players special to this game.
    fn custom_player_kinds(&self) -> Vec<PlayerKind> {
        Vec::new()
    }
    /// Builds one of [`Game::custom_player_kinds`] (`options` is what followed a `:`).
    fn custom_player(
        &self,
        _name: &str,
        _options: &str,
        _seed: u64,
    ) -> Option<Box<dyn Strategy<Self>>>
    where
        Self: Sized,
    {
        None
    }

    /// An exact oracle built by the game itself (closed-form rule, special solver)
    /// instead of the generic retrograde solver. `progress` receives fractions 0..1.
    fn exact_oracle(&self, _progress: &dyn Fn(f64)) -> Option<Arc<dyn Oracle<Self>>>
    where
        Self: Sized,
    {
        None
    }

    /// A game-specific `tabula solve` report (puzzle solvers, searches), or `None`
    /// to use the generic strong solver.
    fn solve_report(
        &self,
        _request: &Report,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<serde_json::Value, String>> {
        None
    }

    /// Game-specific facts added to `tabula analyze` output for a position
    /// (Nim: the nim-sum and winning moves; Northcott: the gaps).
    fn analysis_extra(&self, _state: &Self::State) -> Option<serde_json::Value> {
        None
    }

    /// Extra lines for the move log when `mv` is played (Auto120 names the rule).
    fn describe_move(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }

    /// A whole move-log line for a decision, when the game words it better than the
    /// engine's default `"<seat>: <describe_move> (<reason>)"`. `state` is the position
    /// before the move; `seat` is `None` for chance.
    fn log_line(
        &self,
        _state: &Self::State,
        _seat: Option<Seat>,
        _mv: Self::Move,
        _reason: Option<&str>,
    ) -> Option<String> {
        None
    }

    /// Grades a position directly when the game knows it cheaply (unused by default).
    fn quick_grade(&self, _state: &Self::State) -> Option<Graded> {
        None
    }
}

/// Helpers every game gets.
pub trait GameExt: Game {
    /// The legal moves as a new vector (convenience; search code should reuse a buffer).
    fn moves(&self, state: &Self::State) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.legal_moves(state, &mut v);
        v
    }
    /// Plays a random game from `state` to the end (or `max_plies`), returning the plies played.
    fn random_playout(&self, state: &mut Self::State, rng: &mut Rng, max_plies: usize) -> usize {
        use rand::Rng as _;
        let mut buf = Vec::new();
        let mut plies = 0;
        while plies < max_plies {
            if self.turn(state).is_over() {
                break;
            }
            buf.clear();
            self.legal_moves(state, &mut buf);
            if buf.is_empty() {
                break;
            }
            let mv = buf[rng.gen_range(0..buf.len())];
            self.play_unchecked(state, mv);
            plies += 1;
        }
        plies
    }
}
impl<G: Game> GameExt for G {}
