//! Work a game offers in pieces small enough to spread over many machines: the
//! long computations a cluster runs (the Python package's `tabula-cluster`).
//!
//! Each capability is an object-safe trait a game may return from
//! [`Registered::opening_book_work`](crate::Registered::opening_book_work) or
//! [`Registered::policy_search`](crate::Registered::policy_search), so a face
//! reaches it by the game's name in the registry and knows no game. Everything
//! crosses as text and bytes (positions in the game's notation, moves as the
//! game writes them, books and policies as files), because the pieces travel
//! between processes and machines.

/// Why a piece of cluster work was refused or did not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    /// A position, move, book or policy that does not read, or a request out
    /// of range; the words say which.
    #[error("{0}")]
    BadInput(String),
    /// The time given ran out before the work was done.
    #[error("the time given ran out before the work was done")]
    OutOfTime,
}

/// A game whose exact values of the first plies make an opening book, solved
/// one position at a time and put together in the game's own book file.
pub trait OpeningBookWork: Send + Sync {
    /// The deepest book this board can have (plies).
    fn max_plies(&self) -> u32;

    /// Every position reached after exactly `plies` moves that the book keeps
    /// (positions that are images of each other once), as `(key, position)`:
    /// the book's key and the position in the game's notation, keys ascending.
    fn positions(&self, plies: u32) -> Result<Vec<(u64, String)>, WorkError>;

    /// The book's score of each of `positions` (the game's notation), as
    /// `(key, score)` in the same order, reading the scores of deeper
    /// positions from `deeper` (a book file, or no bytes) and stopping with
    /// [`WorkError::OutOfTime`] after `seconds` when given.
    fn solve(
        &self,
        positions: &[String],
        deeper: &[u8],
        seconds: Option<f64>,
    ) -> Result<Vec<(u64, i32)>, WorkError>;

    /// The book file of every position up to `depth` plies from its entries
    /// (any order): the same entries always give the same bytes.
    fn assemble(&self, depth: u32, entries: &[(u64, i32)]) -> Result<Vec<u8>, WorkError>;
}

/// One nested rollout policy search ([`PolicySearch::search`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyRun {
    /// The nesting level (0: one playout).
    pub level: u32,
    /// Iterations of each level.
    pub iterations: u32,
    /// Seeds every random choice: the same run gives the same line.
    pub seed: u64,
    /// The search stops after this many seconds with the best line so far.
    pub seconds: f64,
}

/// A line a policy search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundLine {
    /// Its score.
    pub score: i64,
    /// Its moves, as the game writes them, from the position searched.
    pub moves: Vec<String>,
    /// Playouts the search ran.
    pub playouts: u64,
}

/// A puzzle searched by nested rollout policy adaptation (NRPA), in pieces:
/// a level of the search from a given policy, and the policy moved towards a
/// line, so that the top levels can run on one machine and the levels below
/// on many (distributed NRPA).
pub trait PolicySearch: Send + Sync {
    /// The published test set of the puzzle: its positions, in the game's
    /// notation (none when it has none).
    fn test_set(&self) -> Vec<String>;

    /// Positions read from a file's text: the published format or the game's
    /// notation, as the game reads boards.
    fn read_positions(&self, text: &str) -> Result<Vec<String>, WorkError>;

    /// A search of `run` from `position` starting from `policy` (bytes from
    /// [`PolicySearch::adapt`], or none for the uniform policy).
    fn search(
        &self,
        position: &str,
        policy: &[u8],
        run: &PolicyRun,
    ) -> Result<FoundLine, WorkError>;

    /// `policy` (no bytes: the uniform one) moved once towards the line
    /// `moves` from `position`: the step a level of the search takes after
    /// each of its iterations.
    fn adapt(&self, position: &str, policy: &[u8], moves: &[String]) -> Result<Vec<u8>, WorkError>;
}
