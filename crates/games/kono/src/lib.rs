//! Four Field Kono (as the 2006 blog describes it) with a strong solution of the whole game.
//!
//! A 4x4 board starts full: Top's 8 pieces on ranks 4 and 3, Bottom's on ranks
//! 2 and 1; Top moves first. A move is a step to an orthogonally adjacent empty
//! cell, or a capture: jump orthogonally over one adjacent friendly piece onto
//! an enemy piece directly beyond it, which is removed. A player who cannot move
//! (no pieces, or all blocked) loses. Variant `gamesman`: captures compulsory,
//! and the side to move also loses with one piece left.
//!
//! The solver ([`solve`]) values every position with at most 8 pieces a side;
//! [`table::full_table`] keeps it in memory and in a cache file. See
//! `crates/games/kono/docs/kono.md`.

mod actions;
pub mod bits;
pub mod cache;
pub mod index;
pub mod notation;
pub mod reach;
pub mod rules;
pub mod solve;
pub mod sym;
pub mod table;
pub mod verify;

pub use rules::KonoRules;
pub use table::KonoTable;

use std::sync::Arc;
use std::time::Instant;
use tabula_core::{
    BuildError, ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry,
};
use tabula_core::{
    Fact, FactValue, Game, Graded, MoveError, Oracle, Outcome, ParseError, PlayDrawRule,
    Registered, Report, Seat, Shape, Turn, Variant, VariantChoice, VariantError, VariantOption,
    View, ViewCell, ViewPiece,
};

/// Asks the processor to bring `value`'s cache line in soon (no effect elsewhere).
// Unsafe code: the prefetch intrinsic (see the SAFETY comment).
#[allow(unsafe_code)]
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: prefetching is a hint; it never faults, and SSE is part of x86_64.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Default for the `nocapture` option: plies without a capture before actual play is
/// drawn. It is above the longest forced win of either rule set (120 and 138 plies),
/// so a won position, once the count starts afresh, is never drawn by the rule.
pub const DEFAULT_NO_CAPTURE: u32 = 150;

/// Four Field Kono with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kono {
    /// Which rules.
    pub rules: KonoRules,
    /// Plies without a capture after which actual play is a draw (0: no limit).
    pub no_capture_limit: u32,
}

impl Default for Kono {
    fn default() -> Self {
        Kono {
            rules: KonoRules::Standard,
            no_capture_limit: DEFAULT_NO_CAPTURE,
        }
    }
}

/// A position: each side's pieces as a mask of cells (bit `row * 4 + col`, row 0
/// is rank 4) and the seat to move (0 Top, 1 Bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KonoState {
    /// Top's pieces.
    pub top: u16,
    /// Bottom's pieces.
    pub bottom: u16,
    /// Seat to move.
    pub to_move: u8,
}

impl KonoState {
    /// (mover's pieces, opponent's pieces).
    pub fn masks(&self) -> (u32, u32) {
        if self.to_move == 0 {
            (u32::from(self.top), u32::from(self.bottom))
        } else {
            (u32::from(self.bottom), u32::from(self.top))
        }
    }
}

/// A move from one cell to another (two cells apart for a capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KonoMove {
    /// Cell left.
    pub from: u8,
    /// Cell entered (an empty cell, or the captured enemy piece's cell).
    pub to: u8,
}

impl KonoMove {
    /// True for a capture.
    pub fn is_capture(self) -> bool {
        rules::is_jump(u32::from(self.from), u32::from(self.to))
    }
}

const SEATS: [&str; 2] = ["Top", "Bottom"];

/// A count of pieces in words: "1 piece", "8 pieces".
fn pieces(n: u32) -> String {
    format!("{n} piece{}", if n == 1 { "" } else { "s" })
}
const CELL: f64 = 25.0;

impl Kono {
    /// The game with the given rules and the default no-capture limit.
    pub fn new(rules: KonoRules) -> Self {
        Kono {
            rules,
            ..Kono::default()
        }
    }

    fn status(&self, state: &KonoState) -> Vec<String> {
        let line = match self.turn(state) {
            Turn::Over(Outcome::Win(w)) => format!("{} wins", SEATS[w]),
            _ => format!(
                "{} ({}) to move",
                SEATS[usize::from(state.to_move)],
                if state.to_move == 0 { 'x' } else { 'o' }
            ),
        };
        vec![
            line,
            // Seat names, not the terminal's letters: the web board draws no x or o.
            format!(
                "{} has {}, {} {}",
                SEATS[0],
                pieces(state.top.count_ones()),
                SEATS[1],
                state.bottom.count_ones()
            ),
        ]
    }

    fn mobility(&self, mover: u32, opponent: u32) -> u32 {
        let mut n = 0;
        self.rules.for_each_move(mover, opponent, |_, _, _| n += 1);
        n
    }
}

/// A strong solution of Kono as an oracle for the perfect player and `analyze`.
pub struct KonoOracle {
    /// The solved table.
    pub table: Arc<KonoTable>,
}

impl Oracle<Kono> for KonoOracle {
    fn grade(&self, game: &Kono, state: &KonoState) -> Option<Graded> {
        if game.rules != self.table.rules {
            return None;
        }
        let (m, o) = state.masks();
        self.table.grade(m, o)
    }
}

impl Game for Kono {
    type State = KonoState;
    type Move = KonoMove;

    const NAME: &'static str = "kono";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> KonoState {
        KonoState {
            top: table::START_TOP as u16,
            bottom: table::START_BOTTOM as u16,
            to_move: 0,
        }
    }

    fn turn(&self, state: &KonoState) -> Turn {
        let (m, o) = state.masks();
        if self.rules.is_lost(m, o) {
            Turn::Over(Outcome::Win(usize::from(state.to_move ^ 1)))
        } else {
            Turn::Move(usize::from(state.to_move))
        }
    }

    fn legal_moves(&self, state: &KonoState, out: &mut Vec<KonoMove>) {
        let (m, o) = state.masks();
        self.rules.for_each_move(m, o, |from, to, _| {
            out.push(KonoMove {
                from: from as u8,
                to: to as u8,
            })
        });
    }

    fn play_unchecked(&self, state: &mut KonoState, mv: KonoMove) {
        let (m, o) = state.masks();
        let (new_opponent, new_mover) =
            rules::after_move(m, o, u32::from(mv.from), u32::from(mv.to));
        if state.to_move == 0 {
            state.top = new_mover as u16;
            state.bottom = new_opponent as u16;
        } else {
            state.bottom = new_mover as u16;
            state.top = new_opponent as u16;
        }
        state.to_move ^= 1;
    }

    fn try_play(&self, state: &mut KonoState, mv: KonoMove) -> Result<(), MoveError> {
        if self.turn(state).is_over() {
            return Err(MoveError::GameOver);
        }
        let text = self.format_move(state, mv);
        let illegal = |reason: &str| MoveError::Illegal {
            mv: text.clone(),
            reason: reason.into(),
        };
        if mv.from >= 16 || mv.to >= 16 {
            return Err(illegal("no such cell"));
        }
        let (m, o) = state.masks();
        let (from, to) = (u32::from(mv.from), u32::from(mv.to));
        if m >> from & 1 == 0 {
            return Err(illegal(if o >> from & 1 == 1 {
                "that piece is not yours"
            } else {
                "there is no piece there"
            }));
        }
        if rules::is_step(from, to) {
            if (m | o) >> to & 1 == 1 {
                return Err(illegal("a step must go to an empty cell"));
            }
            if !self.rules.steps_allowed(m, o) {
                return Err(illegal(
                    "a capture is available, and captures are compulsory under these rules",
                ));
            }
        } else if rules::is_jump(from, to) {
            if m >> rules::between(from, to) & 1 == 0 {
                return Err(illegal("a capture jumps over one of your own pieces"));
            }
            if o >> to & 1 == 0 {
                return Err(illegal("a capture lands on an enemy piece"));
            }
        } else {
            return Err(illegal(
                "pieces move one cell, or jump two, along a rank or file",
            ));
        }
        self.play_unchecked(state, mv);
        Ok(())
    }
}

impl Notation for Kono {
    fn parse_move(&self, _state: &KonoState, text: &str) -> Result<KonoMove, ParseError> {
        let (from, to) = notation::parse_cells(text)?;
        if !rules::is_step(from, to) && !rules::is_jump(from, to) {
            return Err(ParseError::new(format!(
                "{}-{} is neither a step nor a jump along a line",
                notation::cell_name(from),
                notation::cell_name(to)
            )));
        }
        Ok(KonoMove {
            from: from as u8,
            to: to as u8,
        })
    }

    fn format_move(&self, _state: &KonoState, mv: KonoMove) -> String {
        let sep = if mv.is_capture() { 'x' } else { '-' };
        format!(
            "{}{sep}{}",
            notation::cell_name(u32::from(mv.from)),
            notation::cell_name(u32::from(mv.to))
        )
    }

    fn parse_position(&self, text: &str) -> Result<KonoState, ParseError> {
        notation::parse_position(text)
    }

    fn format_position(&self, state: &KonoState) -> String {
        notation::format_position(state)
    }
}

impl Presentation for Kono {
    /// The move in words for a player who clicks (the browser's hint list and
    /// log): "the piece on a4 jumps over a3 and takes a2", "the piece on a4
    /// moves to b4", not the notation.
    fn move_words(&self, _state: &KonoState, mv: KonoMove) -> String {
        let from = notation::cell_name(u32::from(mv.from));
        let to = notation::cell_name(u32::from(mv.to));
        if mv.is_capture() {
            let over = notation::cell_name(rules::between(u32::from(mv.from), u32::from(mv.to)));
            format!("the piece on {from} jumps over {over} and takes {to}")
        } else {
            format!("the piece on {from} moves to {to}")
        }
    }

    fn describe_move(&self, state: &KonoState, mv: KonoMove) -> String {
        let text = self.format_move(state, mv);
        if mv.is_capture() {
            let over = rules::between(u32::from(mv.from), u32::from(mv.to));
            format!(
                "{text} (jumps {}, takes {})",
                notation::cell_name(over),
                notation::cell_name(u32::from(mv.to))
            )
        } else {
            text
        }
    }

    fn render_text(&self, state: &KonoState) -> String {
        let mut out = String::from("    a b c d\n");
        for row in 0..4u32 {
            out.push_str(&format!("  {} ", 4 - row));
            for col in 0..4u32 {
                let bit = 1u16 << (row * 4 + col);
                let c = if state.top & bit != 0 {
                    'x'
                } else if state.bottom & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                out.push(c);
                out.push(' ');
            }
            out.push_str(&format!("{}\n", 4 - row));
        }
        out.push_str("    a b c d\n");
        out.push_str(&self.status(state).join("; "));
        out.push('\n');
        out
    }

    fn view(&self, state: &KonoState) -> View {
        let cells = (0..16u32)
            .map(|i| ViewCell {
                id: i,
                x: f64::from(i % 4) * CELL,
                y: f64::from(i / 4) * CELL,
                w: CELL,
                h: CELL,
                shape: Shape::Rect,
                colour: None,
                label: Some(notation::cell_name(i)),
                mark: ((i / 4 + i % 4) % 2 == 1).then_some(tabula_core::Mark::Dark),
                name: Some(notation::cell_name(i)),
                target: tabula_core::ClickTarget::Cell,
            })
            .collect();
        let pieces = (0..16u32)
            .filter_map(|i| {
                let owner = if state.top >> i & 1 == 1 {
                    0
                } else if state.bottom >> i & 1 == 1 {
                    1
                } else {
                    return None;
                };
                Some(ViewPiece {
                    cell: i,
                    owner: Some(owner),
                    label: None,
                })
            })
            .collect();
        View {
            width: 4.0 * CELL,
            height: 4.0 * CELL,
            layout: tabula_core::Layout::Grid {
                columns: 4,
                rows: 4,
            },
            cells,
            pieces,
            status: self.status(state),
            facts: vec![
                Fact::new(
                    SEATS[0],
                    FactValue::Text(crate::pieces(state.top.count_ones())),
                ),
                Fact::new(
                    SEATS[1],
                    FactValue::Text(crate::pieces(state.bottom.count_ones())),
                ),
            ],
            ..View::default()
        }
    }

    fn move_cells(&self, _state: &KonoState, mv: KonoMove) -> Vec<u32> {
        vec![u32::from(mv.from), u32::from(mv.to)]
    }
}

impl Symmetry for Kono {
    /// Left-right mirror (the only board symmetry that keeps each side's home ranks).
    fn symmetry_count(&self) -> usize {
        2
    }

    fn map_state(&self, state: &KonoState, k: usize) -> KonoState {
        if k == 0 {
            return *state;
        }
        KonoState {
            top: bits::mirror(u32::from(state.top)) as u16,
            bottom: bits::mirror(u32::from(state.bottom)) as u16,
            to_move: state.to_move,
        }
    }

    fn map_move(&self, _state: &KonoState, mv: KonoMove, k: usize) -> KonoMove {
        if k == 0 {
            return mv;
        }
        let m = |c: u8| (c & !3) | (3 - (c & 3));
        KonoMove {
            from: m(mv.from),
            to: m(mv.to),
        }
    }
}

impl ExactAnalysis for Kono {
    fn exact_oracle(
        &self,
        progress: &dyn Fn(f64),
    ) -> Option<Result<Arc<dyn Oracle<Self>>, BuildError>> {
        // Within the memory limit of the ledger the thread's budget counts its
        // tables in (the process's), waited for as long as that budget allows
        // (a computer move in the server); a refusal says whether it is worth
        // trying again.
        let budget = tabula_core::waiting_budget();
        let limit = budget.ledger().limit();
        let budget = budget.with_max_memory(limit);
        Some(
            table::full_table(self.rules, &budget, progress)
                .map(|(table, _, _)| Arc::new(KonoOracle { table }) as Arc<dyn Oracle<Self>>),
        )
    }

    /// The table read back from the disk cache: the least it can be had in.
    fn exact_oracle_bytes(&self) -> Option<u64> {
        Some(table::loading_bytes())
    }

    fn solve_report(
        &self,
        request: &Report,
        progress: &dyn Fn(f64),
    ) -> Option<Result<tabula_core::SolveReport, String>> {
        Some(self.report(request, progress))
    }
}

impl Players for Kono {
    /// Material first, mobility second.
    fn evaluate(&self, state: &KonoState, seat: Seat) -> f64 {
        let (mine, theirs) = if seat == 0 {
            (u32::from(state.top), u32::from(state.bottom))
        } else {
            (u32::from(state.bottom), u32::from(state.top))
        };
        let material = f64::from(mine.count_ones()) - f64::from(theirs.count_ones());
        let mobility =
            f64::from(self.mobility(mine, theirs)) - f64::from(self.mobility(theirs, mine));
        ((material + 0.1 * mobility) / 8.0).clamp(-1.0, 1.0)
    }
}

impl MatchRules for Kono {
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule {
            repetitions: Some(3),
            plies_without_progress: (self.no_capture_limit > 0).then_some(self.no_capture_limit),
        }
    }

    fn is_progress(&self, _state: &KonoState, mv: KonoMove) -> bool {
        mv.is_capture()
    }
}

impl Kono {
    /// The `tabula solve kono` report (see `crates/games/kono/docs/kono.md`).
    pub fn report(
        &self,
        request: &Report,
        progress: &dyn Fn(f64),
    ) -> Result<tabula_core::SolveReport, String> {
        use tabula_core::{FactValue, PositionValue, Remoteness, Section, StrongCounts};
        let position = match &request.position {
            Some(text) => Some(self.parse_position(text).map_err(|e| e.to_string())?),
            None => None,
        };
        let began = Instant::now();
        let (table, source, _path) =
            table::full_table(self.rules, &request.budget, progress).map_err(|e| e.to_string())?;
        let seconds = began.elapsed().as_secs_f64();
        let s = &table.summary;
        let value = |g: Graded| PositionValue::solved(g.value, Remoteness::Exact(g.remoteness));
        let seat_name = |state: &KonoState| match self.turn(state) {
            Turn::Move(seat) => self.seats().get(seat).copied(),
            _ => None,
        };
        let counts = StrongCounts {
            positions: s.positions,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            max_remoteness: s.max_remoteness,
        };
        let start = self.initial_state();
        let mut report =
            tabula_core::SolveReport::strong(value(s.start), seat_name(&start), counts, seconds);
        report.summary = format!("From the start: {}", report.summary);
        report.sections.push(
            Section::new("The table")
                .with("Rules", FactValue::Text(self.rules.word().into()))
                .with(
                    "Where it came from",
                    FactValue::Text(
                        match source {
                            table::Source::Memory => "already in memory",
                            table::Source::Disk => "read from the disk cache",
                            table::Source::Solved => "solved now",
                        }
                        .into(),
                    ),
                )
                .with(
                    "Time the solve took",
                    FactValue::Seconds(table.solve_seconds),
                )
                // Not the reachable positions above: the table has an entry
                // for every arrangement of up to 8 pieces a side, reachable or
                // not, seen from the side to move, so one entry serves both
                // seats. Said so, as two counts of "positions" contradicted.
                .with(
                    "Entries in the table (every arrangement of pieces, reachable or not, \
                     each kept once for either side to move)",
                    FactValue::Integer(table.values.len() as i64),
                ),
        );
        if let Some(state) = position {
            let (m, o) = state.masks();
            if let Some(g) = table.grade(m, o) {
                let v = value(g);
                report.summary = format!(
                    "This position is {} ({})",
                    v.words(seat_name(&state)),
                    report.summary.trim_end_matches('.').to_lowercase()
                );
                report.value = Some(v);
            }
            report.position = Some(self.format_position(&state));
        }
        Ok(report)
    }
}

impl Registered for Kono {
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Four Field Kono";
    fn level_base(&self) -> &'static str {
        "lookahead"
    }
    const SUMMARY: &'static str =
        "Korean 4x4 blocking game: step to an empty cell or jump a friend to take an enemy; who cannot move loses.";

    /// Both rule sets are solved (the dense table).
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", true),
                tabula_core::VariantCase::new("rules=gamesman", true)
                    .summary(&["one piece left loses"], &[]),
            ],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "Standard: captures optional, who cannot move loses",
                variant: "",
            },
            tabula_core::Preset {
                name: "Compulsory captures: one piece left loses",
                variant: "rules=gamesman",
            },
            tabula_core::Preset {
                name: "Standard, never drawn for lack of captures",
                variant: "nocapture=0",
            },
        ]
    }

    /// The gamesman rules: captures compulsory, one piece left loses.
    fn summary(&self) -> String {
        match self.rules {
            KonoRules::Gamesman => "Korean 4x4 blocking game: step to an empty cell or jump a friend to take an enemy (a capture is compulsory); who cannot move or has one piece left loses.".into(),
            _ => Self::SUMMARY.into(),
        }
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "rules",
                label: "rules",
                default: "standard",
                help: "which rules: captures optional, and a player who cannot move loses (the usual rules); or captures compulsory, and a player left with one piece loses", choices: &[
                    VariantChoice { value: "standard", words: "standard (captures optional)" },
                    VariantChoice { value: "gamesman", words: "captures compulsory, one piece left loses" },
                ],
            },
            VariantOption {
                name: "nocapture",
                label: "draw after quiet moves",
                default: "150",
                help: "moves in a row without a capture after which the game is a draw (0 = never, up to 10000); the perfect player does not count it", choices: &[],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let rules = match variant.choice("rules", "standard", &["standard", "gamesman"])? {
            "gamesman" => KonoRules::Gamesman,
            _ => KonoRules::Standard,
        };
        let limit = variant.int("nocapture", i64::from(DEFAULT_NO_CAPTURE), 0, 10_000)? as u32;
        Ok(Kono {
            rules,
            no_capture_limit: limit,
        })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set("rules", self.rules.word());
        v.set("nocapture", self.no_capture_limit.to_string());
        v
    }
}

#[cfg(test)]
mod tests;
