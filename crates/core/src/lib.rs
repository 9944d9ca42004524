//! The core vocabulary of Tabula: what a game, a position, a move and a player are.
//!
//! A [`Game`] value holds the rules and the variant options (board size, number of
//! colours, …); its `State` is one position, side to move included. Everything else
//! in Tabula — solvers, players, the CLI, the HTTP server, the web UI — is written
//! against these traits, so adding a game means implementing [`Game`] and its capability
//! traits ([`capabilities`]) once and registering it.

pub mod actions;
mod budget;
mod bytes;
pub mod capabilities;
pub mod cases;
mod cells_json;
pub mod cluster;
pub mod disk_cache;
mod error;
mod game;
mod generic_players;
pub mod ledger;
mod oracle;
mod own_player;
pub mod play_rules;
mod presentation;
mod quoted;
mod registered;
pub mod results;
mod stored;
mod strategy;
mod table_cell;
pub mod text_grid;
mod turn;
mod variant;
mod view;
mod words;

pub use actions::{Actions, UNBOUNDED_GAME_PLIES};
pub use budget::{
    default_max_memory, set_default_max_memory, Budget, BudgetError, CancelFlag, DEFAULT_MAX_MEMORY,
};
pub use bytes::{format_bytes, parse_bytes};
pub use capabilities::{
    ExactAnalysis, MatchRules, Notation, PlayDrawRule, PlayerKind, Players, Presentation, Report,
    Symmetry,
};
pub use cases::{KnownCount, KnownPosition, OpenSpielCase, TestCases, VariantCase};
pub use cells_json::with_kept_cells;
pub use cluster::{FoundLine, OpeningBookWork, PolicyRun, PolicySearch, WorkError};
pub use disk_cache::{CacheError, DiskCache, DEFAULT_CACHE_DIR_BYTES};
pub use error::{MoveError, ParseError, VariantError};
pub use game::{Game, GameExt};
pub use generic_players::GenericPlayer;
pub use ledger::{Ledger, Meter, Reservation};
pub use oracle::{Graded, Oracle, Value, ValueBounds};
pub use own_player::OwnPlayer;
pub use play_rules::{draw_rule_length, PlayEnd, PlayTracker};
pub use presentation::{
    default_opponent, EscapeKey, GamePresentation, GroupPoints, MarkWords, Palette, Panel,
    SeatColour, Term, Tool, ToolAnswer, ToolError, DEFAULT_SEAT_COLOURS, MAX_TOOL_INPUT,
};
pub use quoted::quoted;
pub use registered::Registered;
pub use results::{
    Analysis, AnalysisExtra, CountReport, CurvePoint, Fact, FactValue, GradedMove, Hint, MoveGrade,
    PositionValue, Preparing, PuzzleSolution, Remoteness, SeatChance, Section, SolveFigures,
    SolveReport, StrongCounts, Table, Training, TrainingCounts, TrainingCurve, Versioned,
    RESULTS_VERSION,
};
pub use stored::StoredRecord;
pub use strategy::{Choice, Strategy};
pub use table_cell::{
    pause_words, waiting_budget, waiting_budget_until, BuildError, TableCell, TableError,
    TableStatus,
};
pub use text_grid::{grid_text, BOARD_COLUMNS};
pub use turn::{Outcome, Seat, Turn};
pub use variant::{Preset, Variant, VariantChoice, VariantOption};
pub use view::{
    ClickTarget, History, LabelPlace, LastMove, Layout, Mark, PanelFacts, Shape, View, ViewCell,
    ViewEdge, ViewPiece, ViewSeat,
};
pub use words::{WordPart, Words};

/// The one random generator used everywhere, so that a seed reproduces a run on
/// every platform and every version of Tabula.
pub type Rng = rand_chacha::ChaCha8Rng;

/// Builds the project's generator from a seed.
pub fn rng_from_seed(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}
