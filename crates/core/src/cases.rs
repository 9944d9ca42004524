//! What a game declares about itself for the shared tests
//! ([`crate::Registered::test_cases`]): the variants to check beyond its usual
//! game and presets, what each promises (an exact solution, words in its
//! summary), figures published for it, positions with known values, and its
//! counterpart in OpenSpiel.
//!
//! The shared tests (`crates/engine/tests`, `tests/python/test_openspiel.py`)
//! take their games from the registry and these cases from each game, so a new
//! game is checked by every one of them with no edit outside its crate. The
//! Python package reads them with `tabula_games.test_cases(name)`.

use crate::Value;
use serde::Serialize;

/// Everything a game declares for the shared tests. Empty by default: the usual
/// game and the presets are checked anyway.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TestCases {
    /// Variants to run the shared checks on (conformance, the stepping state),
    /// with what each promises. Declaring the usual game (`""`) states whether
    /// it is solved exactly.
    pub variants: Vec<VariantCase>,
    /// Figures published for the game: counts of positions and the value of the start.
    pub counts: Vec<KnownCount>,
    /// Positions whose value is known (a published analysis, a hand proof).
    pub positions: Vec<KnownPosition>,
    /// The same game in OpenSpiel, compared position by position in the Python tests.
    pub openspiel: Vec<OpenSpielCase>,
    /// A variant in which `tabula solve`, `analyze` and `play` each answer within
    /// a few seconds, for the shared checks of the terminal (80 columns); the
    /// usual game when `None`.
    pub quick: Option<&'static str>,
}

/// One variant to check, and what it promises.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VariantCase {
    /// The variant's options (`columns=4,play=misere`; `""` the usual game).
    pub variant: &'static str,
    /// Solved exactly: listed `exact`, with a `perfect` player, and `tabula
    /// solve` counts its positions. The shared tests check both ways.
    pub exact: bool,
    /// Words the variant's one-line summary contains.
    pub summary_says: &'static [&'static str],
    /// Words it must not contain (those of another variant's summary).
    pub summary_not: &'static [&'static str],
}

impl VariantCase {
    /// A variant to check, promising only what `exact` says.
    pub fn new(variant: &'static str, exact: bool) -> Self {
        VariantCase {
            variant,
            exact,
            ..Default::default()
        }
    }

    /// The same, with words its summary says and must not say.
    pub fn summary(mut self, says: &'static [&'static str], not: &'static [&'static str]) -> Self {
        self.summary_says = says;
        self.summary_not = not;
        self
    }
}

/// A published count of a variant's game graph, checked against `tabula solve`.
#[derive(Clone, Debug, Serialize)]
pub struct KnownCount {
    /// The variant.
    pub variant: &'static str,
    /// Positions reachable from the start, as the strong solver counts them.
    pub positions: u64,
    /// The start's value for the side to move, where published.
    pub value: Option<Value>,
    /// Plies to the end with best play from the start (a draw has none).
    pub remoteness: Option<u32>,
    /// Where the figure is published (title and author).
    pub source: &'static str,
}

/// A position whose value for the side to move is known.
#[derive(Clone, Debug, Serialize)]
pub struct KnownPosition {
    /// The variant.
    pub variant: &'static str,
    /// The position in the game's notation.
    pub position: &'static str,
    /// Its value for the side to move.
    pub value: Value,
    /// Plies to the end with best play (none for a draw).
    pub remoteness: Option<u32>,
}

/// The same game in OpenSpiel: which game, how its action ids map to Tabula's,
/// and which positions to compare (legal actions, the end, the returns and the
/// values of solved positions) through `pyspiel`.
#[derive(Clone, Debug, Serialize)]
pub struct OpenSpielCase {
    /// The Tabula variant.
    pub variant: &'static str,
    /// OpenSpiel's game string (`tic_tac_toe`, `connect_four`).
    pub game: String,
    /// Tabula's id of each of OpenSpiel's action ids (`actions[openspiel] =
    /// tabula`); empty when the ids are the same.
    pub actions: Vec<usize>,
    /// Compare every state reachable from the start (a small game).
    pub every_state: bool,
    /// Lines of OpenSpiel action ids from the start: every position along each
    /// is compared.
    pub lines: Vec<Vec<usize>>,
    /// Along the lines, compare the values of positions from this ply on
    /// (OpenSpiel's own alpha-beta search against Tabula's analysis): near the
    /// end, where both can search to the end.
    pub values_from_ply: Option<usize>,
    /// The observation tensors are laid out the same (compared too).
    pub same_observation: bool,
}

impl OpenSpielCase {
    /// A counterpart with the same action ids, compared at every reachable state.
    pub fn every_state(variant: &'static str, game: &str) -> Self {
        OpenSpielCase {
            variant,
            game: game.to_string(),
            actions: Vec::new(),
            every_state: true,
            lines: Vec::new(),
            values_from_ply: None,
            same_observation: false,
        }
    }
}
