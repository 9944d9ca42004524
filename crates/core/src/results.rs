//! What games tell people, as typed data.
//!
//! A game's analysis, hint, solve report and training curve reach the terminal,
//! the JSON of the CLI and API, and the web page through these types. The faces
//! render them generically; none of them needs to know which game produced
//! them. Game-specific facts (a nim-sum, landing classes, a press grid) travel as
//! [`Section`]s of labelled [`Fact`]s, which every face knows how to show.
//!
//! The JSON form of every type here is part of the documented API
//! ([`RESULTS_VERSION`]); fields are only ever added.

use crate::Value;
use serde::{Deserialize, Serialize};

/// Version of the JSON shape of these results, reported by the CLI's `--json`
/// and the API in every result (`"version": 1`) so that clients can tell what
/// they read. Fields are only ever added within a version.
pub const RESULTS_VERSION: u32 = 1;

/// How far a position is from the end of the game under perfect play.
///
/// Some solvers know the distance exactly; others (Northcott's and Nim's
/// nim-sum rule on large boards) know only a bound, and every face must say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "plies", rename_all = "snake_case")]
pub enum Remoteness {
    /// Exactly this many plies to the end with perfect play on both sides.
    Exact(u32),
    /// At most this many plies (the winner may finish sooner).
    AtMost(u32),
    /// The solver knows the result but not how long it takes.
    Unknown,
}

impl Remoteness {
    /// The number of plies, exact or bound.
    pub fn plies(self) -> Option<u32> {
        match self {
            Remoteness::Exact(n) | Remoteness::AtMost(n) => Some(n),
            Remoteness::Unknown => None,
        }
    }

    /// True when the number of plies is exact.
    pub fn is_exact(self) -> bool {
        matches!(self, Remoteness::Exact(_))
    }

    /// Exact when `exact`, else a bound.
    pub fn new(plies: u32, exact: bool) -> Self {
        if exact {
            Remoteness::Exact(plies)
        } else {
            Remoteness::AtMost(plies)
        }
    }

    /// Plain words: `in 11 plies`, `in at most 112 plies`, `in 1 ply`, or empty.
    pub fn words(self) -> String {
        match self {
            Remoteness::Exact(n) => format!("in {}", plies_words(n)),
            Remoteness::AtMost(n) => format!("in at most {}", plies_words(n)),
            Remoteness::Unknown => String::new(),
        }
    }

    /// Short form for a table cell: `11`, `≤ 112`, or empty.
    pub fn short(self) -> String {
        match self {
            Remoteness::Exact(n) => n.to_string(),
            Remoteness::AtMost(n) => format!("≤ {n}"),
            Remoteness::Unknown => String::new(),
        }
    }
}

/// A count with thousands separators: 5478 → "5,478".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1 ply`, `11 plies`.
pub fn plies_words(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

/// One seat's chance of winning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatChance {
    /// The seat's name.
    pub seat: String,
    /// Chance of winning with best play, 0..=1.
    pub chance: f64,
}

/// What a position is worth, for the side to move unless said otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PositionValue {
    /// Solved exactly: win, loss or draw for the side to move. A draw carries no
    /// remoteness.
    Solved {
        /// Win, loss or draw for the side to move.
        value: Value,
        /// How far the end is; `None` for a draw.
        remoteness: Option<Remoteness>,
    },
    /// A game with dice: each seat's chance of winning with best play.
    WinChances {
        /// One per seat in turn order.
        chances: Vec<SeatChance>,
    },
    /// A puzzle: the score so far and the best total known to be reachable.
    Score {
        /// Points so far.
        points: i64,
        /// The best total known to be reachable, if a solver found one.
        best_known: Option<i64>,
    },
}

impl PositionValue {
    /// A solved value; the remoteness is dropped for a draw.
    pub fn solved(value: Value, remoteness: Remoteness) -> Self {
        PositionValue::Solved {
            value,
            remoteness: (value != Value::Draw).then_some(remoteness),
        }
    }

    /// Plain words for a player: "a win for X in 11 plies", "a loss for O in at
    /// most 112 plies", "a draw with perfect play", "X 53.1%, O 46.9%".
    /// `side` names the side to move (`None`: "the side to move").
    pub fn words(&self, side: Option<&str>) -> String {
        let side = side.unwrap_or("the side to move");
        match self {
            PositionValue::Solved { value, remoteness } => {
                let over = remoteness.and_then(Remoteness::plies) == Some(0);
                match (value, over) {
                    (Value::Draw, _) => "a draw with perfect play".into(),
                    (Value::Win, true) => format!("won for {side} (the game is over)"),
                    (Value::Loss, true) => format!("lost for {side} (the game is over)"),
                    (v, false) => {
                        let what = if *v == Value::Win { "win" } else { "loss" };
                        let when = remoteness.map(Remoteness::words).unwrap_or_default();
                        if when.is_empty() {
                            format!("a {what} for {side}")
                        } else {
                            format!("a {what} for {side} {when}")
                        }
                    }
                }
            }
            PositionValue::WinChances { chances } => chances
                .iter()
                .map(|c| format!("{} wins {:.1}% of the time", c.seat, c.chance * 100.0))
                .collect::<Vec<_>>()
                .join(", "),
            PositionValue::Score { points, best_known } => match best_known {
                Some(b) => format!("{points} points so far, {b} reachable"),
                None => format!("{points} points so far"),
            },
        }
    }
}

/// How good one legal move is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveGrade {
    /// The value of the position the move leads to, from the mover's side.
    Solved {
        /// Win, loss or draw for the mover after this move.
        value: Value,
        /// How far the end is after this move; `None` for a draw.
        remoteness: Option<Remoteness>,
    },
    /// The mover's chance of winning after this move (dice games).
    WinChance {
        /// 0..=1.
        chance: f64,
        /// True for the chance under best play by both (an exact solution);
        /// false for a player's estimate (its look-ahead).
        exact: bool,
    },
    /// Points the move scores at once (puzzles).
    Points {
        /// Points.
        points: i64,
    },
    /// The move is part of a plan that finishes the puzzle (Poggle's presses):
    /// `moves_left` moves in all from here, this one included.
    Plan {
        /// Moves the plan takes from here.
        moves_left: u64,
    },
    /// A search ran out of time on this move but proved bounds on its value
    /// for the mover: "at least a draw" (`draw` to `win`), "at most a draw"
    /// (`loss` to `draw`), or the value itself when the two are equal (how
    /// soon it ends was not worked out).
    Bounded {
        /// The worst the mover can get after this move.
        at_least: Value,
        /// The best the mover can get after this move.
        at_most: Value,
    },
    /// Nothing is known about this move beyond its legality.
    Ungraded,
}

impl MoveGrade {
    /// Whether the move was fully worked out: not ungraded, not only bounded.
    pub fn is_worked_out(&self) -> bool {
        !matches!(self, MoveGrade::Ungraded | MoveGrade::Bounded { .. })
    }

    /// Plain words for bounds: "at least a draw", "at most a draw", "a win
    /// (how soon was not worked out)".
    pub fn bound_words(at_least: Value, at_most: Value) -> String {
        let a = |v: Value| match v {
            Value::Win => "a win",
            Value::Draw => "a draw",
            Value::Loss => "a loss",
        };
        if at_least == at_most {
            format!("{} (how soon was not worked out)", a(at_least))
        } else if at_most == Value::Win {
            format!("at least {}", a(at_least))
        } else {
            format!("at most {}", a(at_most))
        }
    }

    /// A solved grade; the remoteness is dropped for a draw.
    pub fn solved(value: Value, remoteness: Remoteness) -> Self {
        MoveGrade::Solved {
            value,
            remoteness: (value != Value::Draw).then_some(remoteness),
        }
    }
}

/// One legal move with its grade, best first in any list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradedMove {
    /// The move in the game's notation (what a player types).
    #[serde(rename = "move")]
    pub notation: String,
    /// The cells a move touches, in the order a player clicks them.
    pub cells: Vec<u32>,
    /// How good the move is.
    pub grade: MoveGrade,
}

/// A labelled value a game wants shown: "Nim-sum: 2", "Chance to win: 53.1%".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fact {
    /// A few plain words, capitalised as the start of a sentence.
    pub label: String,
    /// The value.
    pub value: FactValue,
    /// The term of the game's glossary (`Presentation::glossary`) the label uses,
    /// if it uses one: a face that explains terms where they appear reads it here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
}

impl Fact {
    /// A fact with a label and a value.
    pub fn new(label: impl Into<String>, value: FactValue) -> Self {
        Fact {
            label: label.into(),
            value,
            term: None,
        }
    }

    /// This fact, its label using `term` of the game's glossary.
    pub fn with_term(mut self, term: impl Into<String>) -> Self {
        self.term = Some(term.into());
        self
    }
}

/// The value of a [`Fact`], typed so that each face can format it (thousands
/// separators, percentages, durations, grids) without guessing from names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum FactValue {
    /// Words.
    Text(String),
    /// A count or other whole number.
    Integer(i64),
    /// A number with a fraction.
    Number(f64),
    /// A probability or share, 0..=1, shown as a percentage.
    Percent(f64),
    /// A duration in seconds.
    Seconds(f64),
    /// An amount of memory in bytes.
    Bytes(u64),
    /// Yes or no.
    Flag(bool),
    /// A list of short items (moves, cells), shown in a row and wrapped.
    List(Vec<String>),
    /// A list of short items whose words name the board's colours (SameGame's
    /// blocks of each colour), each item words with typed parts ([`crate::Words`]),
    /// shown as [`FactValue::List`] is.
    Phrases(Vec<crate::Words>),
    /// Rows of numbers, shown as a grid with 1-based row and column numbers
    /// (Poggle's presses).
    Grid(Vec<Vec<i64>>),
    /// A table with headed columns.
    Table(Table),
}

/// A table of words, with a header row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows, each with one entry per column.
    pub rows: Vec<Vec<String>>,
}

/// A titled group of facts: one card on the web page, one block in the terminal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// Plain-words title ("The nim-sum", "Where markers can land").
    pub title: String,
    /// A sentence or two for a player, shown before the facts, if any.
    pub note: Option<String>,
    /// The facts, in the order to show them.
    pub facts: Vec<Fact>,
}

impl Section {
    /// An empty section with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Section {
            title: title.into(),
            note: None,
            facts: Vec::new(),
        }
    }

    /// Sets the note (builder style).
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Adds a fact (builder style).
    pub fn with(mut self, label: impl Into<String>, value: FactValue) -> Self {
        self.facts.push(Fact::new(label, value));
        self
    }

    /// Adds a fact in place.
    pub fn push(&mut self, label: impl Into<String>, value: FactValue) {
        self.facts.push(Fact::new(label, value));
    }
}

/// The value of a position and every legal move graded (`tabula analyze`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The position in the game's notation.
    pub position: String,
    /// The seat to move, by name; `None` at a chance node or when the game is over.
    pub to_move: Option<String>,
    /// What the position is worth, when known.
    pub value: Option<PositionValue>,
    /// Legal moves, best first (in the game's order when ungraded).
    pub moves: Vec<GradedMove>,
    /// What the game adds (the nim-sum, landing classes, …).
    pub sections: Vec<Section>,
    /// A plain-words remark for the player ("moves are listed without grades").
    pub note: Option<String>,
    /// The exact solution that will grade these moves is not ready yet: it is
    /// being built, or tried again after a passing failure. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preparing: Option<Preparing>,
}

/// An exact solution on its way: why the moves are not graded yet, and when
/// they will be (ask again).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preparing {
    /// How far its build has come, 0..1, while it is being built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<f64>,
    /// After a build that failed for a passing reason: seconds until it is
    /// tried again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_in_seconds: Option<f64>,
    /// What is happening, in a sentence for a player.
    pub words: String,
}

/// What a game adds to the generic analysis of a position (its analysis hook).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalysisExtra {
    /// The position's value when the game knows it and no exact oracle does
    /// (the chances of a dice game); ignored when an oracle grades the position.
    pub value: Option<PositionValue>,
    /// Every legal move graded by the game, best first, replacing the engine's
    /// ungraded list when no oracle grades them.
    pub moves: Option<Vec<GradedMove>>,
    /// The game's own facts.
    pub sections: Vec<Section>,
}

/// A hint for the player to move: the move to play, why, and what follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hint {
    /// The suggested move, in notation, with the cells to highlight; `None` when
    /// nothing can be suggested (no legal move, or no move is known to be better).
    pub best: Option<GradedMove>,
    /// Why this move, in a sentence for a player.
    pub reason: String,
    /// The whole graded analysis the hint came from.
    pub analysis: Analysis,
}

/// A move as a hint's reason names it: "play" and its notation, never at the
/// start of a sentence bare (a capital would change lower-case notation,
/// "b1-c1", and a lone "2" reads as a number), with the game's words for it
/// when they say more than the notation ("play 3 (column 3)").
fn play(notation: &str, words: Option<String>) -> String {
    match words.filter(|w| w != notation && !w.is_empty()) {
        Some(w) => format!("play {notation} ({w})"),
        None => format!("play {notation}"),
    }
}

/// `text` with its first letter a capital: a reason begins with words
/// ("play …", "no move …"), never with a move's notation.
fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => text,
    }
}

impl Hint {
    /// The hint an analysis gives: its first graded move (moves are best first)
    /// and why, in a sentence for a player, the move named by its notation.
    pub fn from_analysis(analysis: Analysis) -> Self {
        Self::from_analysis_named(analysis, &|_| None)
    }

    /// [`Hint::from_analysis`] with the game's words for a move (`words` of
    /// its notation, `None` where the notation says it all), so that a reason
    /// reads "play 3 (column 3): it wins …", not "3 wins …".
    pub fn from_analysis_named(analysis: Analysis, words: &dyn Fn(&str) -> Option<String>) -> Self {
        let name = |m: &GradedMove| play(&m.notation, words(&m.notation));
        let best = analysis
            .moves
            .first()
            .filter(|m| m.grade.is_worked_out())
            .cloned();
        // Nothing worked out in the time allowed: the move with the best proven
        // bounds, said as bounds.
        let bounded = || {
            analysis
                .moves
                .iter()
                .filter_map(|m| match m.grade {
                    MoveGrade::Bounded { at_least, at_most } => Some((at_least, at_most, m)),
                    _ => None,
                })
                .max_by_key(|(low, high, _)| (low.rank(), high.rank()))
        };
        let best_bounded = if best.is_none() { bounded() } else { None };
        if let Some((at_least, at_most, m)) = best_bounded {
            return Hint {
                best: Some(m.clone()),
                reason: format!(
                    "No move could be worked out exactly in the time allowed; {}: it is proven \
                     to give {} with perfect play.",
                    name(m),
                    MoveGrade::bound_words(at_least, at_most)
                ),
                analysis,
            };
        }
        let reason = match &best {
            None if analysis.moves.is_empty() => "There is no move to make here.".to_string(),
            None => match &analysis.note {
                Some(note) => format!("No move can be suggested. {note}"),
                None => "Nothing here tells one move from another: any legal move will do.".into(),
            },
            Some(m) => match &m.grade {
                MoveGrade::Solved { value, remoteness } => {
                    let when = remoteness.map(Remoteness::words).unwrap_or_default();
                    // Moves left ungraded (an oracle out of time) may be
                    // better, unless the position's own value says not.
                    let partial = analysis.moves.iter().any(|m| !m.grade.is_worked_out())
                        && !matches!(analysis.value,
                            Some(PositionValue::Solved { value: v, .. }) if v == *value);
                    let play = name(m);
                    match (value, partial) {
                        (Value::Win, _) => format!("{play}: it wins {when} with perfect play."),
                        (Value::Draw, false) => {
                            format!("No move wins against perfect play; {play} to hold the draw.")
                        }
                        (Value::Draw, true) => format!(
                            "{play} to hold the draw with perfect play; no move worked out in the \
                             time allowed wins, and the others were not worked out."
                        ),
                        (Value::Loss, false) => format!(
                            "Every move loses against perfect play; {play} to hold out longest \
                             (it loses {when})."
                        ),
                        (Value::Loss, true) => format!(
                            "Every move worked out in the time allowed loses; {play} to hold out \
                             longest of them (it loses {when}). The others were not worked out."
                        ),
                    }
                }
                MoveGrade::WinChance {
                    chance,
                    exact: true,
                } => format!(
                    "{} for the best chance to win with best play on both sides: {:.1}%.",
                    name(m),
                    chance * 100.0
                ),
                MoveGrade::WinChance {
                    chance,
                    exact: false,
                } => format!(
                    "The strongest computer player's look-ahead would {}: about {:.0}% to win.",
                    name(m),
                    chance * 100.0
                ),
                MoveGrade::Points { points } => format!(
                    "{} for the most points now: +{points}. This looks no further ahead.",
                    name(m)
                ),
                MoveGrade::Plan { moves_left } => format!(
                    "{}: it is part of a solution that finishes in {moves_left} move{} from here.",
                    name(m),
                    if *moves_left == 1 { "" } else { "s" }
                ),
                MoveGrade::Ungraded | MoveGrade::Bounded { .. } => String::new(),
            },
        };
        Hint {
            best,
            reason: sentence(reason),
            analysis,
        }
    }
}

/// A puzzle's solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PuzzleSolution {
    /// How often to press each button, one row per board row (Lights Out).
    Presses {
        /// Press counts, row by row (empty on boards wider than 1000 buttons,
        /// where `rows` holds them).
        grid: Vec<Vec<u8>>,
        /// The press counts as text rows in the game's position notation, used
        /// instead of `grid` on boards wider than 1000 buttons (empty otherwise).
        rows: Vec<String>,
        /// Presses in all.
        total: u64,
    },
    /// A line of moves from the start with the score it reaches (SameGame).
    Line {
        /// The moves, in notation.
        moves: Vec<String>,
        /// The score at the end of the line.
        score: i64,
        /// True when the line clears the board.
        cleared: bool,
    },
    /// No solution exists; why, in words.
    Impossible {
        /// A sentence for a player.
        reason: String,
    },
}

/// What a solver did: the figures every solve reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SolveFigures {
    /// Positions the solver visited or holds, when it counts them.
    pub positions: Option<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak memory the solver's tables took, when known.
    pub peak_bytes: Option<u64>,
    /// Sweeps of an iterative solver, when it iterates.
    pub sweeps: Option<u32>,
    /// The chance that the player who moves first wins with best play on both
    /// sides, for games with chance whose solve finds it (Pig's 0.5306).
    #[serde(default)]
    pub first_mover_wins: Option<f64>,
}

/// `tabula solve`: the value of the start (or given) position, a puzzle's
/// solution, the game's own findings, and the solver's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// One sentence for a player ("The first player wins in 11 plies").
    pub summary: String,
    /// The position solved, in notation (`None`: the start).
    pub position: Option<String>,
    /// The value of the position solved.
    pub value: Option<PositionValue>,
    /// A puzzle's solution.
    pub solution: Option<PuzzleSolution>,
    /// A strong solution's positions counted by value, for scripts (the faces
    /// show them from `sections`).
    pub counts: Option<StrongCounts>,
    /// What else the game tells (counts by result, the exact chances, …).
    pub sections: Vec<Section>,
    /// The solver's figures.
    pub figures: SolveFigures,
}

/// What a strong solution counts: positions by their value for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrongCounts {
    /// Positions reachable from the position solved.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest forced win, in plies.
    pub max_remoteness: u32,
}

impl SolveReport {
    /// The report of a strong solution: the value of the position solved (for
    /// `side`, the side to move there) and the positions counted by value.
    pub fn strong(
        value: PositionValue,
        side: Option<&str>,
        counts: StrongCounts,
        seconds: f64,
    ) -> Self {
        let total = counts.positions.max(1) as f64;
        let row = |what: &str, n: u64| {
            vec![
                what.to_string(),
                thousands(n),
                format!("{:.1}%", n as f64 * 100.0 / total),
            ]
        };
        let section = Section::new("Positions by their value")
            .with(
                "Positions",
                FactValue::Table(Table {
                    columns: ["positions", "count", "share"].map(String::from).to_vec(),
                    rows: vec![
                        row("won for the side to move", counts.wins),
                        row("lost for the side to move", counts.losses),
                        row("drawn", counts.draws),
                        row("positions reachable", counts.positions),
                    ],
                }),
            )
            .with(
                "Longest forced win",
                FactValue::Text(plies_words(counts.max_remoteness)),
            );
        SolveReport {
            summary: format!("This position is {}.", value.words(side)),
            position: None,
            value: Some(value),
            solution: None,
            counts: Some(counts),
            sections: vec![section],
            figures: SolveFigures {
                positions: Some(counts.positions),
                seconds,
                peak_bytes: None,
                sweeps: None,
                first_mover_wins: None,
            },
        }
    }
}

/// `tabula count`: what a game counts about itself (positions up to symmetry, …).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountReport {
    /// One sentence for a player.
    pub summary: String,
    /// The counts.
    pub sections: Vec<Section>,
}

/// One point of a learning curve: how a learner fared over a block of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// First game of the block (1-based).
    pub from: u64,
    /// Last game of the block.
    pub to: u64,
    /// The learner's wins in the block.
    pub wins: u64,
    /// The learner's losses in the block (resignations included).
    pub losses: u64,
    /// Draws in the block.
    pub draws: u64,
}

/// A learning curve: one point per block of games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingCurve {
    /// Games in each block.
    pub block: u64,
    /// One point per block, in order.
    pub points: Vec<CurvePoint>,
}

/// What a training counts, for scripts (the faces show them from `sections`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainingCounts {
    /// Games played.
    pub games: u64,
    /// The machine's wins.
    pub wins: u64,
    /// Its losses, resignations included.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Losses by resigning at an empty box.
    pub resignations: u64,
    /// The last game it lost (1-based), if any.
    pub last_loss: Option<u64>,
    /// The game after which no line of play beat its beads (0: from the
    /// start), when that happened and was checked.
    pub unbeatable_after: Option<u64>,
    /// Boxes it made.
    pub matchboxes: u64,
    /// Beads left in them.
    pub beads: u64,
}

/// A learning machine's training (`tabula train`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// One sentence for a player.
    pub summary: String,
    /// The figures, for scripts.
    pub counts: TrainingCounts,
    /// The learning curve.
    pub curve: TrainingCurve,
    /// What else the trainer reports (results, matchboxes, beads, …).
    pub sections: Vec<Section>,
    /// The trainer's figures (time).
    pub figures: SolveFigures,
}

/// A result as the faces send it: the shape's version, the game and its variant,
/// then the result's own fields (`{"version":1,"game":"nim","variant":"…",…}`).
#[derive(Clone, Debug, Serialize)]
pub struct Versioned<'a, T: Serialize> {
    /// [`RESULTS_VERSION`].
    pub version: u32,
    /// The game's registry name.
    pub game: &'a str,
    /// The variant, normalised.
    pub variant: &'a str,
    /// The result.
    #[serde(flatten)]
    pub result: &'a T,
}

impl<'a, T: Serialize> Versioned<'a, T> {
    /// Wraps a result of `game` in `variant`.
    pub fn new(game: &'a str, variant: &'a str, result: &'a T) -> Self {
        Versioned {
            version: RESULTS_VERSION,
            game,
            variant,
            result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remoteness_words_say_when_they_are_a_bound() {
        assert_eq!(Remoteness::Exact(11).words(), "in 11 plies");
        assert_eq!(Remoteness::Exact(1).words(), "in 1 ply");
        assert_eq!(Remoteness::AtMost(112).words(), "in at most 112 plies");
        assert_eq!(Remoteness::Unknown.words(), "");
        assert!(!Remoteness::AtMost(3).is_exact());
        assert_eq!(Remoteness::AtMost(3).plies(), Some(3));
    }

    #[test]
    fn json_names_the_kind_of_every_value() {
        let v = PositionValue::Solved {
            value: Value::Loss,
            remoteness: Some(Remoteness::AtMost(112)),
        };
        let j = serde_json::to_value(&v).unwrap();
        assert_eq!(j["kind"], "solved");
        assert_eq!(j["value"], "loss");
        assert_eq!(j["remoteness"]["kind"], "at_most");
        assert_eq!(j["remoteness"]["plies"], 112);
        let back: PositionValue = serde_json::from_value(j).unwrap();
        assert_eq!(back, v);

        let f = Fact::new("Nim-sum", FactValue::Integer(2));
        let j = serde_json::to_value(&f).unwrap();
        assert_eq!(j["value"]["kind"], "integer");
        assert_eq!(j["value"]["value"], 2);
        assert!(j.get("term").is_none(), "no term unless the label uses one");
        let j = serde_json::to_value(f.with_term("Nim-sum")).unwrap();
        assert_eq!(j["term"], "Nim-sum");
    }

    /// A reason never begins with a move's notation: a capital would change
    /// lower-case notation ("b1-c1" is not "B1-c1") and a bare "2" reads as a
    /// number; the move is played ("Play b1-c1: …"), with the game's words
    /// for it where they say more.
    #[test]
    fn a_hint_reason_names_its_move_as_a_move_in_words() {
        let one = |notation: &str, grade: MoveGrade| Analysis {
            position: String::new(),
            to_move: None,
            value: None,
            moves: vec![GradedMove {
                notation: notation.into(),
                cells: Vec::new(),
                grade,
            }],
            sections: Vec::new(),
            note: None,
            preparing: None,
        };
        let win = one(
            "b1-c1",
            MoveGrade::solved(Value::Win, Remoteness::Exact(10)),
        );
        let hint = Hint::from_analysis(win);
        assert!(
            hint.reason.starts_with("Play b1-c1: it wins in 10 plies"),
            "{}",
            hint.reason
        );
        let draw = one("1", MoveGrade::solved(Value::Draw, Remoteness::Exact(0)));
        let words = |n: &str| (n == "1").then(|| "column 1".to_string());
        let hint = Hint::from_analysis_named(draw, &words);
        assert_eq!(
            hint.reason,
            "No move wins against perfect play; play 1 (column 1) to hold the draw."
        );
        let chance = one(
            "marker 1",
            MoveGrade::WinChance {
                chance: 0.503,
                exact: true,
            },
        );
        let hint = Hint::from_analysis(chance);
        assert!(
            hint.reason.starts_with("Play marker 1 for the best chance"),
            "{}",
            hint.reason
        );
        // Points said once.
        let points = one("4 1", MoveGrade::Points { points: 121 });
        let hint = Hint::from_analysis(points);
        assert_eq!(hint.reason.matches("121").count(), 1, "{}", hint.reason);
        assert_eq!(sentence(String::new()), "");
    }

    /// With moves left ungraded, a hint does not say "every move" of the
    /// moves it knows, unless the position's own value proves it.
    #[test]
    fn a_hint_with_moves_left_ungraded_claims_only_what_was_worked_out() {
        let graded = |n: &str, value: Value, plies: u32| GradedMove {
            notation: n.into(),
            cells: Vec::new(),
            grade: MoveGrade::solved(value, Remoteness::Exact(plies)),
        };
        let ungraded = GradedMove {
            notation: "7".into(),
            cells: Vec::new(),
            grade: MoveGrade::Ungraded,
        };
        let analysis = |value: Option<PositionValue>, moves: Vec<GradedMove>| Analysis {
            position: String::new(),
            to_move: None,
            value,
            moves,
            sections: Vec::new(),
            note: None,
            preparing: None,
        };
        let loss = Hint::from_analysis(analysis(
            None,
            vec![graded("1", Value::Loss, 28), ungraded.clone()],
        ));
        assert!(loss
            .reason
            .starts_with("Every move worked out in the time allowed loses"));
        let proven = Hint::from_analysis(analysis(
            Some(PositionValue::solved(Value::Loss, Remoteness::Exact(28))),
            vec![graded("1", Value::Loss, 28), ungraded.clone()],
        ));
        assert!(proven
            .reason
            .starts_with("Every move loses against perfect play"));
        let draw = Hint::from_analysis(analysis(
            None,
            vec![graded("3", Value::Draw, 0), ungraded.clone()],
        ));
        assert!(
            draw.reason.contains("the others were not worked out"),
            "{}",
            draw.reason
        );
        let whole = Hint::from_analysis(analysis(None, vec![graded("3", Value::Draw, 0)]));
        assert!(whole
            .reason
            .starts_with("No move wins against perfect play"));
    }

    /// With nothing worked out in time, the hint names the move with the best
    /// proven bounds and says them as bounds, never as a result; with no bounds
    /// either, it suggests nothing and says why.
    #[test]
    fn a_hint_with_nothing_worked_out_says_what_was_proven() {
        let bounded = |n: &str, at_least: Value, at_most: Value| GradedMove {
            notation: n.into(),
            cells: Vec::new(),
            grade: MoveGrade::Bounded { at_least, at_most },
        };
        let ungraded = GradedMove {
            notation: "7".into(),
            cells: Vec::new(),
            grade: MoveGrade::Ungraded,
        };
        let analysis = |moves: Vec<GradedMove>, note: Option<&str>| Analysis {
            position: String::new(),
            to_move: None,
            value: None,
            moves,
            sections: Vec::new(),
            note: note.map(String::from),
            preparing: None,
        };
        let hint = Hint::from_analysis(analysis(
            vec![
                ungraded.clone(),
                bounded("2", Value::Loss, Value::Draw),
                bounded("4", Value::Draw, Value::Win),
            ],
            None,
        ));
        assert_eq!(hint.best.map(|m| m.notation), Some("4".to_string()));
        assert!(
            hint.reason
                .contains("play 4: it is proven to give at least a draw"),
            "{}",
            hint.reason
        );
        let nothing = Hint::from_analysis(analysis(
            vec![ungraded],
            Some("No move could be worked out exactly in the time allowed."),
        ));
        assert_eq!(nothing.best, None);
        assert_eq!(
            nothing.reason,
            "No move can be suggested. No move could be worked out exactly in the time allowed."
        );
        assert_eq!(
            MoveGrade::bound_words(Value::Loss, Value::Draw),
            "at most a draw"
        );
        assert_eq!(
            MoveGrade::bound_words(Value::Win, Value::Win),
            "a win (how soon was not worked out)"
        );
    }
}
