//! Northcott's game: the rules, variants, notation and drawing.

use crate::analysis::{self, NorthcottOracle};
use crate::player::XpatPlayer;
use std::fmt::Write as _;
use std::sync::Arc;
use tabula_core::{
    BuildError, ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry,
};
use tabula_core::{
    Game, MoveError, Oracle, Outcome, OwnPlayer, ParseError, PlayDrawRule, PlayerKind, Registered,
    Seat, Turn, Variant, VariantChoice, VariantError, VariantOption, View, ViewCell, ViewPiece,
};

/// Most rows (NY) a board may have.
pub const MAX_ROWS: usize = 32;
/// Most cells per row (NX) a board may have.
pub const MAX_COLS: usize = 128;
/// Boards with at most this many positions (both sides to move) are "small": the
/// generic retrograde solver handles them, and the oracle gives exact remoteness.
pub const SMALL_POSITIONS: u64 = 500_000;

/// The two sides: O (seat 0, Left, starts on the left edge) and X (seat 1, Right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The left player's pieces, `0`/`O` in the slides.
    O,
    /// The right player's pieces.
    X,
}

impl Side {
    /// The seat of this side.
    pub fn seat(self) -> Seat {
        match self {
            Side::O => 0,
            Side::X => 1,
        }
    }
    /// The side of a seat.
    pub fn of_seat(seat: usize) -> Side {
        if seat == 0 {
            Side::O
        } else {
            Side::X
        }
    }
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::O => Side::X,
            Side::X => Side::O,
        }
    }
    /// `"O"` or `"X"`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::O => "O",
            Side::X => "X",
        }
    }
}

/// Northcott's game on an `NX x NY` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Northcott {
    /// Cells per row (NX).
    pub cols: u8,
    /// Rows (NY).
    pub rows: u8,
    /// Who moves first from the start.
    pub first: Side,
    /// Actual play ends in a draw when a position (side to move included) occurs this
    /// many times; 0 turns the rule off (the slides' program, where a game can go on
    /// forever when the side that stands to win keeps retreating instead of winning).
    pub repetition: u8,
    /// Actual play ends in a draw after [`Northcott::no_progress_plies`] plies in a
    /// row that bring the total of the gaps to no new low (see
    /// [`MatchRules::progress_measure`]); `false` turns the rule off.
    pub progress: bool,
}

impl Default for Northcott {
    fn default() -> Self {
        Northcott {
            cols: 16,
            rows: 4,
            first: Side::O,
            repetition: 3,
            progress: true,
        }
    }
}

/// A position: the column (0-based) of O and of X in each row, and the side to move.
/// Rows beyond the board's are zero, so equal positions compare equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NorthcottState {
    /// Column of O in each row.
    pub o: [u8; MAX_ROWS],
    /// Column of X in each row (always right of O).
    pub x: [u8; MAX_ROWS],
    /// Seat to move: 0 (O) or 1 (X).
    pub mover: u8,
}

impl NorthcottState {
    /// The side to move.
    pub fn side(&self) -> Side {
        Side::of_seat(self.mover as usize)
    }
    /// Column of `side`'s piece in `row`.
    pub fn piece(&self, side: Side, row: usize) -> u8 {
        match side {
            Side::O => self.o[row],
            Side::X => self.x[row],
        }
    }
    /// Empty cells between the pieces of `row`.
    pub fn gap(&self, row: usize) -> u8 {
        self.x[row] - self.o[row] - 1
    }
}

/// A move: the side to move's piece in `row` goes to column `to` (both 0-based).
/// A set-up move (the Northcott slides' Ctrl+click correction, `setup` 1 for O, 2 for X) moves
/// the other side's piece and leaves the side to move unchanged; it is never a legal
/// move in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NorthcottMove {
    /// Row, 0-based (written 1-based).
    pub row: u8,
    /// Destination column, 0-based (written 1-based).
    pub to: u8,
    /// 0 for a move of the side to move; 1 (O) or 2 (X) for a set-up move of the other side's piece.
    pub setup: u8,
}

impl NorthcottMove {
    /// The side to move's piece in `row` goes to column `to`.
    pub fn new(row: u8, to: u8) -> Self {
        NorthcottMove { row, to, setup: 0 }
    }
}

impl Northcott {
    /// A board of `cols x rows` (NX x NY), O moving first; `None` if out of range.
    pub fn new(cols: usize, rows: usize) -> Option<Self> {
        ((2..=MAX_COLS).contains(&cols) && (1..=MAX_ROWS).contains(&rows)).then_some(Northcott {
            cols: cols as u8,
            rows: rows as u8,
            first: Side::O,
            repetition: 3,
            progress: true,
        })
    }

    /// Number of rows as `usize`.
    pub fn ny(&self) -> usize {
        self.rows as usize
    }

    /// Number of cells per row as `usize`.
    pub fn nx(&self) -> usize {
        self.cols as usize
    }

    /// The gaps (empty cells between the pieces) of every row.
    pub fn gaps(&self, state: &NorthcottState) -> Vec<u8> {
        (0..self.ny()).map(|r| state.gap(r)).collect()
    }

    /// The total of the gaps: every ply changes it (an advance lowers it, a
    /// retreat raises it), and a game cannot end before it is 0.
    pub fn gap_total(&self, state: &NorthcottState) -> u64 {
        (0..self.ny()).map(|r| u64::from(state.gap(r))).sum()
    }

    /// Plies in a row without a new low of the total of the gaps after which
    /// actual play is drawn: twice the board's cells (128 on the usual 16x4
    /// board). A side that stands to win and plays the Nim strategy never meets
    /// it: each of its moves narrows a gap, so in a run with no new low the
    /// other side must widen the gaps by as much as they narrow, by retreating;
    /// its pieces can retreat at most `rows * (cols - 2)` cells in all before
    /// an advance of its own makes a new low, so such a run lasts at most
    /// `2 * rows * (cols - 2) + 2` plies, fewer than this.
    pub fn no_progress_plies(&self) -> u32 {
        2 * self.ny() as u32 * self.nx() as u32
    }

    /// The nim-sum of the gaps: non-zero iff the side to move wins.
    pub fn nim_sum(&self, state: &NorthcottState) -> u8 {
        (0..self.ny()).fold(0, |a, r| a ^ state.gap(r))
    }

    /// Number of positions of the board (either side to move): `C(NX,2)^NY * 2`.
    pub fn position_count(&self) -> u64 {
        let per_row = (self.nx() * (self.nx() - 1) / 2) as u64;
        let mut n: u64 = 2;
        for _ in 0..self.ny() {
            n = n.saturating_mul(per_row);
        }
        n
    }

    /// True if `side` has a legal move.
    pub fn can_move(&self, state: &NorthcottState, side: Side) -> bool {
        (0..self.ny()).any(|r| {
            state.gap(r) > 0
                || match side {
                    Side::O => state.o[r] > 0,
                    Side::X => (state.x[r] as usize) < self.nx() - 1,
                }
        })
    }

    /// Why the side to move cannot send its piece of `row` to `cell` (0-based), or `None`.
    pub fn why_illegal(&self, state: &NorthcottState, row: usize, cell: usize) -> Option<String> {
        if row >= self.ny() {
            return Some(format!("no row {}: rows are 1 to {}", row + 1, self.ny()));
        }
        if cell >= self.nx() {
            return Some(format!(
                "no cell {}: cells are 1 to {}",
                cell + 1,
                self.nx()
            ));
        }
        let side = state.side();
        let (o, x) = (state.o[row] as usize, state.x[row] as usize);
        let own = state.piece(side, row) as usize;
        let (r1, c1) = (row + 1, cell + 1);
        if cell == own {
            return Some(format!(
                "{} is already on cell {c1} of row {r1}",
                side.letter()
            ));
        }
        let beyond = match side {
            Side::O => cell >= x,
            Side::X => cell <= o,
        };
        if beyond {
            let enemy = side.other();
            let e = state.piece(enemy, row) as usize + 1;
            return Some(format!(
                "{} cannot reach cell {c1} of row {r1}: {} is on cell {e} and pieces never jump (cells {} can be reached)",
                side.letter(),
                enemy.letter(),
                match side {
                    Side::O => format!("1 to {}", x),
                    Side::X => format!("{} to {}", o + 2, self.nx()),
                }
            ));
        }
        None
    }

    /// The piece a click on `cell` of `row` with `button` moves (the slides'
    /// `remark`): a cell left of O takes O, a cell right of X takes X (the nearest
    /// piece, whatever the button), any other cell the button's piece.
    pub fn clicked_piece(
        &self,
        state: &NorthcottState,
        row: usize,
        cell: usize,
        button: Side,
    ) -> Side {
        let r = row.min(MAX_ROWS - 1);
        if cell < state.o[r] as usize {
            Side::O
        } else if cell > state.x[r] as usize {
            Side::X
        } else {
            button
        }
    }

    /// The slides' Ctrl+click (set-up mode, no reply, the side to move unchanged):
    /// `button` picks the piece (left button O, right button X), but a cell left of O
    /// is always taken by O and a cell right of X by X (the nearest piece), as in the
    /// slides' `remark`. Moving a piece onto the other one is refused (the slides' program
    /// would let it happen).
    pub fn set_up(
        &self,
        state: &NorthcottState,
        row: usize,
        cell: usize,
        button: Side,
    ) -> Result<NorthcottState, String> {
        if row >= self.ny() || cell >= self.nx() {
            return Err(format!(
                "no cell {} in row {}: the board has {} rows of {} cells",
                cell + 1,
                row + 1,
                self.ny(),
                self.nx()
            ));
        }
        let (o, x) = (state.o[row] as usize, state.x[row] as usize);
        let piece = if cell < o {
            Side::O
        } else if cell > x {
            Side::X
        } else {
            button
        };
        let mut next = *state;
        match piece {
            Side::O if cell == o => {
                return Err(format!(
                    "O is already on cell {} of row {}",
                    cell + 1,
                    row + 1
                ))
            }
            Side::X if cell == x => {
                return Err(format!(
                    "X is already on cell {} of row {}",
                    cell + 1,
                    row + 1
                ))
            }
            Side::O if cell >= x => {
                return Err(format!("O cannot go onto or past X in row {}", row + 1))
            }
            Side::X if cell <= o => {
                return Err(format!("X cannot go onto or past O in row {}", row + 1))
            }
            Side::O => next.o[row] = cell as u8,
            Side::X => next.x[row] = cell as u8,
        }
        Ok(next)
    }
}

pub(crate) fn side_word(state: &NorthcottState) -> &'static str {
    state.side().letter()
}

impl Registered for Northcott {
    /// Northcott's own click protocol (left button O, right button X, Ctrl or
    /// Shift sets up) is the crate's browser module; Esc puts the pieces back for
    /// a new game, as in the slides' program.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            module: Some(include_str!("../web/northcott.js")),
            escape: tabula_core::EscapeKey::StartsAgain,
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Northcott's game";
    const SUMMARY: &'static str =
        "Slide your piece along its row toward or away from the enemy piece, never jumping it; whoever cannot move loses (Nim on the gaps).";
    /// The Northcott slides' program answers every move with `nim`, else `lose`.
    fn default_opponent(&self) -> Option<&'static str> {
        Some("nim")
    }

    /// Solved by the nim-sum of the gaps.
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", true),
                tabula_core::VariantCase::new("size=6x1,repetition=2", true),
            ],
            quick: Some("size=6x3"),
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "16 columns by 4 rows (the usual board)",
                variant: "",
            },
            tabula_core::Preset {
                name: "8 columns by 3 rows",
                variant: "size=8x3",
            },
            tabula_core::Preset {
                name: "10 columns by 6 rows",
                variant: "size=10x6",
            },
            tabula_core::Preset {
                name: "16 by 4, X moves first",
                variant: "first=x",
            },
            tabula_core::Preset {
                name: "32 columns by 8 rows",
                variant: "size=32x8",
            },
        ]
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "size",
                label: "board",
                default: "16x4",
                help: "cells per row x rows, written like 16x4: 2 to 128 cells per row, 1 to 32 rows", choices: &[],
            },
            VariantOption { name: "first", label: "first to move", default: "o", help: "who moves first: o (the left player) or x", choices: &[
                    VariantChoice { value: "o", words: "O (the left player)" },
                    VariantChoice { value: "x", words: "X (the right player)" },
                ] },
            VariantOption {
                name: "repetition",
                label: "draw on repetition",
                default: "3",
                help: "actual play is drawn when a position occurs this many times (2 to 100); 0 = never (a losing player may then keep the game going for ever)", choices: &[],
            },
            VariantOption {
                name: "progress",
                label: "draw without progress",
                default: "on",
                help: "on: actual play is drawn after twice as many moves as the board has cells (128 on the usual board) in which the gaps never come to a new lowest total; off: never (with repetition 0 too, a game may go on for ever)",
                choices: &[
                    VariantChoice {
                        value: "on",
                        words: "on (a long run without progress is a draw)",
                    },
                    VariantChoice {
                        value: "off",
                        words: "off (play on however long it takes)",
                    },
                ],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let (cols, rows) = variant.size("size", (16, 4), (2, 1), (MAX_COLS, MAX_ROWS))?;
        let first = match variant.choice("first", "o", &["o", "x", "0"])? {
            "x" => Side::X,
            _ => Side::O,
        };
        let repetition = variant.int("repetition", 3, 0, 100)?;
        if repetition == 1 {
            return Err(VariantError::BadValue {
                name: "repetition".into(),
                value: "1".into(),
                reason: "must be 0 (off) or between 2 and 100".into(),
            });
        }
        let progress = variant.choice("progress", "on", &["on", "off"])? == "on";
        Ok(Northcott {
            cols: cols as u8,
            rows: rows as u8,
            first,
            repetition: repetition as u8,
            progress,
        })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set("size", format!("{}x{}", self.cols, self.rows));
        v.set("first", if self.first == Side::O { "o" } else { "x" });
        v.set("repetition", self.repetition.to_string());
        v.set("progress", if self.progress { "on" } else { "off" });
        v
    }
}

impl Game for Northcott {
    type State = NorthcottState;
    type Move = NorthcottMove;

    const NAME: &'static str = "northcott";

    fn seats(&self) -> &'static [&'static str] {
        &["O", "X"]
    }

    fn initial_state(&self) -> NorthcottState {
        let mut s = NorthcottState {
            o: [0; MAX_ROWS],
            x: [0; MAX_ROWS],
            mover: self.first.seat() as u8,
        };
        for r in 0..self.ny() {
            s.x[r] = self.cols - 1;
        }
        s
    }

    fn turn(&self, state: &NorthcottState) -> Turn {
        let side = state.side();
        if self.can_move(state, side) {
            Turn::Move(side.seat())
        } else {
            Turn::Over(Outcome::Win(side.other().seat()))
        }
    }

    fn legal_moves(&self, state: &NorthcottState, out: &mut Vec<NorthcottMove>) {
        let side = state.side();
        for r in 0..self.ny() {
            let (o, x) = (state.o[r], state.x[r]);
            let cells = match side {
                Side::O => (0..o).chain(o + 1..x),
                Side::X => (o + 1..x).chain(x + 1..self.cols),
            };
            out.extend(cells.map(|to| NorthcottMove::new(r as u8, to)));
        }
    }

    fn play_unchecked(&self, state: &mut NorthcottState, mv: NorthcottMove) {
        let r = mv.row as usize;
        let piece = match mv.setup {
            1 => Side::O,
            2 => Side::X,
            _ => state.side(),
        };
        if r < MAX_ROWS {
            match piece {
                Side::O => state.o[r] = mv.to,
                Side::X => state.x[r] = mv.to,
            }
        }
        if mv.setup == 0 {
            state.mover ^= 1;
        }
    }

    fn try_play(&self, state: &mut NorthcottState, mv: NorthcottMove) -> Result<(), MoveError> {
        if mv.setup != 0 {
            return Err(MoveError::Illegal {
                mv: self.format_move(state, mv),
                reason: format!(
                    "it is {}'s move: the other side's piece can only be moved in set-up",
                    state.side().letter()
                ),
            });
        }
        if let Turn::Over(_) = self.turn(state) {
            return Err(MoveError::GameOver);
        }
        if let Some(why) = self.why_illegal(state, mv.row as usize, mv.to as usize) {
            return Err(MoveError::Illegal {
                mv: self.format_move(state, mv),
                reason: why,
            });
        }
        self.play_unchecked(state, mv);
        Ok(())
    }
}

impl Notation for Northcott {
    fn parse_move(&self, state: &NorthcottState, text: &str) -> Result<NorthcottMove, ParseError> {
        parse_move(self, state, text)
    }

    fn format_move(&self, state: &NorthcottState, mv: NorthcottMove) -> String {
        let r = (mv.row as usize).min(MAX_ROWS - 1);
        if mv.setup != 0 {
            let side = if mv.setup == 1 { Side::O } else { Side::X };
            // The mover's own piece is a set-up only when it says so.
            let set = if side == state.side() { "set " } else { "" };
            return format!("{set}{} {}:{}", side.letter(), r + 1, mv.to as usize + 1);
        }
        let from = state.piece(state.side(), r);
        format!(
            "{}:{}->{}",
            mv.row as usize + 1,
            from as usize + 1,
            mv.to as usize + 1
        )
    }

    fn parse_position(&self, text: &str) -> Result<NorthcottState, ParseError> {
        parse_position(self, text)
    }

    fn format_position(&self, state: &NorthcottState) -> String {
        let mut s = String::new();
        for r in 0..self.ny() {
            if r > 0 {
                s.push('/');
            }
            let (o, x) = (state.o[r] as usize, state.x[r] as usize);
            let run = |n: usize, s: &mut String| {
                if n > 0 {
                    let _ = write!(s, "{n}");
                }
            };
            run(o, &mut s);
            s.push('O');
            run(x - o - 1, &mut s);
            s.push('X');
            run(self.nx() - x - 1, &mut s);
        }
        let _ = write!(s, " {}", side_word(state));
        s
    }
}

impl Presentation for Northcott {
    // The widest board that fits 80 columns: see render.rs.
    fn render_text(&self, state: &NorthcottState) -> String {
        crate::render::render_text(self, state)
    }

    fn view(&self, state: &NorthcottState) -> View {
        let mut v = View {
            width: self.nx() as f64,
            height: self.ny() as f64,
            layout: tabula_core::Layout::Grid {
                columns: self.nx() as u32,
                rows: self.ny() as u32,
            },
            ..View::default()
        };
        for r in 0..self.ny() {
            for c in 0..self.nx() {
                v.cells.push(ViewCell {
                    id: (r * self.nx() + c) as u32,
                    x: c as f64,
                    y: r as f64,
                    w: 1.0,
                    h: 1.0,
                    label: (c == 0 || r == 0).then(|| {
                        if c == 0 {
                            format!("{}", r + 1)
                        } else {
                            format!("{}", c + 1)
                        }
                    }),
                    ..ViewCell::default()
                });
            }
            for (side, col) in [(Side::O, state.o[r]), (Side::X, state.x[r])] {
                v.pieces.push(ViewPiece {
                    cell: (r * self.nx() + col as usize) as u32,
                    owner: Some(side.seat()),
                    label: Some(side.letter().into()),
                });
            }
        }
        let gaps = self
            .gaps(state)
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        v.facts = vec![
            tabula_core::Fact::new("Gaps", tabula_core::FactValue::Text(gaps.clone())),
            tabula_core::Fact::new(
                "Nim-sum",
                tabula_core::FactValue::Integer(i64::from(self.nim_sum(state))),
            ),
        ];
        v.status.push(format!("gaps {gaps}"));
        v.status.push(format!("nim-sum {}", self.nim_sum(state)));
        v.status.push(format!("{} to move", side_word(state)));
        v
    }

    fn move_cells(&self, state: &NorthcottState, mv: NorthcottMove) -> Vec<u32> {
        let r = (mv.row as usize).min(MAX_ROWS - 1);
        let from = state.piece(state.side(), r) as usize;
        let base = mv.row as usize * self.nx();
        vec![(base + from) as u32, (base + mv.to as usize) as u32]
    }

    fn move_words(&self, state: &NorthcottState, mv: NorthcottMove) -> String {
        // The log's words without the typed notation: which piece goes where.
        let r = (mv.row as usize).min(MAX_ROWS - 1);
        let mut after = *state;
        self.play_unchecked(&mut after, mv);
        let (before, gap) = (state.gap(r), after.gap(r));
        if mv.setup != 0 {
            let piece = if mv.setup == 1 { Side::O } else { Side::X };
            return format!(
                "set up {} on cell {} of row {} (gap {before} to {gap})",
                piece.letter(),
                mv.to as usize + 1,
                r + 1
            );
        }
        let side = state.side();
        let from = state.piece(side, r);
        let toward = match side {
            Side::O => mv.to > from,
            Side::X => mv.to < from,
        };
        format!(
            "{} {} to cell {} in row {} (gap {before} to {gap})",
            side.letter(),
            if toward { "advances" } else { "retreats" },
            mv.to as usize + 1,
            r + 1
        )
    }

    fn describe_move(&self, state: &NorthcottState, mv: NorthcottMove) -> String {
        let r = (mv.row as usize).min(MAX_ROWS - 1);
        if mv.setup != 0 {
            // A correction is no advance or retreat of the side to move.
            let piece = if mv.setup == 1 { Side::O } else { Side::X };
            let mut after = *state;
            self.play_unchecked(&mut after, mv);
            return format!(
                "{} (set-up: {} put on cell {} of row {}, gap {} -> {})",
                self.format_move(state, mv),
                piece.letter(),
                mv.to as usize + 1,
                r + 1,
                state.gap(r),
                after.gap(r)
            );
        }
        let side = state.side();
        let from = state.piece(side, r);
        let toward = match side {
            Side::O => mv.to > from,
            Side::X => mv.to < from,
        };
        let mut after = *state;
        self.play_unchecked(&mut after, mv);
        format!(
            "{} ({} {} in row {}, gap {} -> {})",
            self.format_move(state, mv),
            side.letter(),
            if toward { "advances" } else { "retreats" },
            r + 1,
            state.gap(r),
            after.gap(r)
        )
    }

    /// A set-up move (either side's piece put on a cell, the turn unchanged) is
    /// logged as a set-up, not as a move of the side to move.
    fn log_line(
        &self,
        state: &NorthcottState,
        _seat: Option<Seat>,
        mv: NorthcottMove,
        _reason: Option<&str>,
    ) -> Option<tabula_core::Words> {
        if mv.setup == 0 {
            return None;
        }
        let r = (mv.row as usize).min(MAX_ROWS - 1);
        let piece = if mv.setup == 1 { Side::O } else { Side::X };
        let mut after = *state;
        self.play_unchecked(&mut after, mv);
        Some(
            format!(
                "Set-up: {} put on cell {} of row {} (gap {} -> {})",
                piece.letter(),
                mv.to as usize + 1,
                r + 1,
                state.gap(r),
                after.gap(r)
            )
            .into(),
        )
    }
}

impl Symmetry for Northcott {}

impl ExactAnalysis for Northcott {
    fn is_small(&self) -> bool {
        self.position_count() <= SMALL_POSITIONS
    }

    fn position_bound(&self, _start: &NorthcottState) -> Option<u64> {
        Some(self.position_count())
    }

    fn exact_oracle(
        &self,
        progress: &dyn Fn(f64),
    ) -> Option<Result<Arc<dyn Oracle<Self>>, BuildError>> {
        Some(Ok(Arc::new(NorthcottOracle::new(*self, progress))))
    }

    /// The nim-sum rule on the gaps: nothing to build beyond a small board's
    /// solution (within `is_small`'s bound).
    fn exact_oracle_bytes(&self) -> Option<u64> {
        Some(0)
    }

    fn analysis_extra(&self, state: &NorthcottState) -> Option<tabula_core::AnalysisExtra> {
        // Tiny boards: exact remoteness is cheap enough to solve on the spot.
        let oracle =
            (self.position_count() <= 50_000).then(|| NorthcottOracle::new(*self, &|_| {}));
        Some(tabula_core::AnalysisExtra {
            sections: analysis::analyze(self, state, oracle.as_ref()).sections(),
            ..Default::default()
        })
    }
}

impl Players for Northcott {
    /// The nim-sum names the winner; among won positions the winner prefers
    /// narrower gaps (and the loser wider ones), so that a search player that
    /// stands to win closes gaps as the Nim strategy does, which the progress
    /// rule of actual play counts as progress, instead of retreating into
    /// another won position.
    fn evaluate(&self, state: &NorthcottState, seat: Seat) -> f64 {
        let mover_wins = self.nim_sum(state) != 0;
        let most = (self.ny() * self.nx().saturating_sub(2)).max(1) as f64;
        let closed = 1.0 - self.gap_total(state) as f64 / most;
        let won = 0.85 + 0.05 * closed;
        if mover_wins == (seat == state.mover as Seat) {
            won
        } else {
            -won
        }
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![OwnPlayer::plain(
            PlayerKind::new(
                "nim",
                "the original program's computer: the winning Nim move on the gaps (in the first row holding the nim-sum's top bit), else advance one cell in the first row with a gap, else retreat one cell",
            )
            .with_words("The original program's play"),
            |_| XpatPlayer,
        )]
    }
}

impl MatchRules for Northcott {
    fn try_setup(
        &self,
        state: &mut NorthcottState,
        mv: NorthcottMove,
    ) -> Option<Result<(), MoveError>> {
        let side = match mv.setup {
            1 => Side::O,
            2 => Side::X,
            _ => return None,
        };
        Some(
            self.set_up(state, mv.row as usize, mv.to as usize, side)
                .map(|next| *state = next)
                .map_err(|reason| MoveError::Illegal {
                    mv: self.format_move(state, mv),
                    reason,
                }),
        )
    }

    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule {
            repetitions: (self.repetition > 0).then_some(self.repetition as u32),
            plies_without_progress: self.progress.then(|| self.no_progress_plies()),
        }
    }

    /// Progress is the gaps coming to a lower total than ever before in the
    /// game: a retreat and the advance that closes the gap again are none.
    fn progress_measure(&self, state: &NorthcottState) -> Option<u64> {
        Some(self.gap_total(state))
    }
}

fn parse_index(word: &str, what: &str, max: usize) -> Result<usize, ParseError> {
    let w = word.trim();
    let n: usize = w
        .parse()
        .map_err(|_| ParseError::new(format!("{what} '{w}' is not a whole number")))?;
    if n == 0 || n > max {
        return Err(ParseError::new(format!(
            "no {what} {n}: {what}s are numbered 1 to {max}"
        )));
    }
    Ok(n - 1)
}

/// Reads `ROW:CELL`, `ROW CELL` or `ROW:FROM->CELL` (1-based): the side to move's piece
/// in ROW goes to CELL.
fn parse_move(
    game: &Northcott,
    state: &NorthcottState,
    text: &str,
) -> Result<NorthcottMove, ParseError> {
    let t = text.trim();
    let usage = || {
        ParseError::new(format!(
            "cannot read move '{t}': write ROW:CELL like 2:7 (your piece in row 2 goes to cell 7), or ROW:FROM->CELL like 2:1->7"
        ))
    };
    // The slides' click: a piece letter (the mouse button: O left, X right), then the
    // row and cell. A cell left of O always takes O, a cell right of X always X (the
    // nearest piece, as the slides' `remark`); a click for the side not to move is a
    // set-up move (Ctrl+click), accepted only in set-up. `set O 1:3` is a set-up
    // move whichever side is to move: a correction of the mover's own piece, which
    // keeps the turn as the slides' corrections do.
    let (forced, t) = match t.get(..4) {
        Some(w) if w.eq_ignore_ascii_case("set ") => (true, t[4..].trim_start()),
        _ => (false, t),
    };
    let mut words = t.splitn(2, char::is_whitespace);
    if let (Some(letter), Some(rest)) = (words.next(), words.next()) {
        let button = match letter {
            "O" | "o" | "0" => Some(Side::O),
            "X" | "x" => Some(Side::X),
            _ => None,
        };
        if let Some(button) = button {
            let rest = rest.trim();
            let (row_text, cell_text) = rest
                .split_once(':')
                .or_else(|| rest.split_once(char::is_whitespace))
                .ok_or_else(usage)?;
            let row = parse_index(row_text, "row", game.ny())?;
            let cell = parse_index(cell_text, "cell", game.nx())?;
            let piece = game.clicked_piece(state, row, cell, button);
            if piece == state.side() && !forced {
                if let Some(why) = game.why_illegal(state, row, cell) {
                    return Err(ParseError::new(why));
                }
                return Ok(NorthcottMove::new(row as u8, cell as u8));
            }
            game.set_up(state, row, cell, piece)
                .map_err(ParseError::new)?;
            return Ok(NorthcottMove {
                row: row as u8,
                to: cell as u8,
                setup: if piece == Side::O { 1 } else { 2 },
            });
        }
    }
    if forced {
        return Err(ParseError::new(format!(
            "cannot read set-up 'set {t}': write set O ROW:CELL or set X ROW:CELL, like set O 2:7"
        )));
    }
    let (row_text, rest) = t
        .split_once(':')
        .or_else(|| t.split_once(char::is_whitespace))
        .ok_or_else(usage)?;
    let (from_text, cell_text) = match rest.split_once("->") {
        Some((f, c)) => (Some(f), c),
        None => (None, rest),
    };
    let row = parse_index(row_text, "row", game.ny())?;
    let cell = parse_index(cell_text, "cell", game.nx())?;
    let side = state.side();
    if let Some(f) = from_text {
        let from = parse_index(f, "cell", game.nx())?;
        let actual = state.piece(side, row) as usize;
        if from != actual {
            return Err(ParseError::new(format!(
                "{} in row {} is on cell {}, not {}",
                side.letter(),
                row + 1,
                actual + 1,
                from + 1
            )));
        }
    }
    if let Some(why) = game.why_illegal(state, row, cell) {
        return Err(ParseError::new(why));
    }
    Ok(NorthcottMove::new(row as u8, cell as u8))
}

/// Reads one row like `O14X` or `2O3X1`.
fn parse_row(game: &Northcott, text: &str, r: usize) -> Result<(u8, u8), ParseError> {
    let mut col = 0usize;
    let (mut o, mut x) = (None, None);
    let mut digits = String::new();
    let flush = |digits: &mut String, col: &mut usize| -> Result<(), ParseError> {
        if !digits.is_empty() {
            let n: usize = digits.parse().map_err(|_| {
                ParseError::new(format!(
                    "row {}: '{digits}' is not a count of empty cells",
                    r + 1
                ))
            })?;
            *col = col.saturating_add(n);
            digits.clear();
        }
        Ok(())
    };
    for ch in text.chars() {
        match ch {
            '0'..='9' if !(ch == '0' && digits.is_empty()) => digits.push(ch),
            'O' | 'o' | '0' => {
                flush(&mut digits, &mut col)?;
                if o.is_some() {
                    return Err(ParseError::new(format!("row {} has two O pieces", r + 1)));
                }
                o = Some(col);
                col += 1;
            }
            'X' | 'x' => {
                flush(&mut digits, &mut col)?;
                if x.is_some() {
                    return Err(ParseError::new(format!("row {} has two X pieces", r + 1)));
                }
                x = Some(col);
                col += 1;
            }
            '.' => {
                flush(&mut digits, &mut col)?;
                col += 1;
            }
            other => {
                return Err(ParseError::new(format!(
                    "row {}: unexpected '{other}' (a row is O, X, '.' and counts of empty cells, like O14X)",
                    r + 1
                )))
            }
        }
    }
    flush(&mut digits, &mut col)?;
    let (Some(o), Some(x)) = (o, x) else {
        return Err(ParseError::new(format!(
            "row {} needs one O and one X",
            r + 1
        )));
    };
    if col != game.nx() {
        return Err(ParseError::new(format!(
            "row {} has {col} cells, the board is {} wide",
            r + 1,
            game.nx()
        )));
    }
    if o > x {
        return Err(ParseError::new(format!(
            "row {}: O must stand left of X",
            r + 1
        )));
    }
    Ok((o as u8, x as u8))
}

/// Reads `O14X/O14X/O14X/O14X O`: rows top to bottom separated by `/`, each written
/// with `O`, `X` and counts of empty cells (a `.` is one empty cell; the slides' `0`
/// for O is accepted), then the side to move (`O` or `X`).
fn parse_position(game: &Northcott, text: &str) -> Result<NorthcottState, ParseError> {
    let t = text.trim();
    let (board, side) = t.rsplit_once(char::is_whitespace).ok_or_else(|| {
        ParseError::new(format!(
            "cannot read position '{t}': write the rows separated by '/', then the side to move, like O14X/O14X/O14X/O14X O"
        ))
    })?;
    let mover = match side.trim() {
        "O" | "o" | "0" => 0,
        "X" | "x" => 1,
        other => {
            return Err(ParseError::new(format!(
                "side to move '{other}' must be O or X"
            )));
        }
    };
    let rows: Vec<&str> = board.trim().split('/').collect();
    if rows.len() != game.ny() {
        return Err(ParseError::new(format!(
            "{} rows given, the board has {} (variant size={}x{})",
            rows.len(),
            game.ny(),
            game.cols,
            game.rows
        )));
    }
    let mut s = NorthcottState {
        o: [0; MAX_ROWS],
        x: [0; MAX_ROWS],
        mover,
    };
    for (r, row) in rows.iter().enumerate() {
        let (o, x) = parse_row(game, row.trim(), r)?;
        s.o[r] = o;
        s.x[r] = x;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tabula_core::GameExt;

    fn game(size: &str) -> Northcott {
        Northcott::from_variant(&Variant::parse(&format!("size={size}")).unwrap()).unwrap()
    }

    #[test]
    fn default_board_is_the_seeds_16x4() {
        let g = Northcott::from_variant(&Variant::default()).unwrap();
        assert_eq!((g.cols, g.rows, g.first, g.repetition), (16, 4, Side::O, 3));
        assert_eq!(g.play_draw_rule().repetitions, Some(3));
        let seedlike =
            Northcott::from_variant(&Variant::parse("repetition=0,first=x").unwrap()).unwrap();
        assert_eq!(seedlike.play_draw_rule().repetitions, None);
        assert_eq!(seedlike.initial_state().side(), Side::X);
        assert_eq!(
            Northcott::from_variant(&seedlike.variant()).unwrap(),
            seedlike
        );
        assert!(Northcott::from_variant(&Variant::parse("repetition=1").unwrap()).is_err());
        let s = g.initial_state();
        assert_eq!(g.format_position(&s), "O14X/O14X/O14X/O14X O");
        assert_eq!(g.gaps(&s), vec![14; 4]);
        assert_eq!(g.nim_sum(&s), 0);
        assert_eq!(Northcott::from_variant(&g.variant()).unwrap(), g);
        assert!(!g.is_small());
        assert!(game("6x3").is_small());
        assert!(game("7x4").is_small());
    }

    #[test]
    fn bad_sizes_are_refused_with_a_clear_message() {
        for bad in [
            "0x4",
            "1x1",
            "16x",
            "x4",
            "200x4",
            "16x40",
            "99999999999999999999x4",
            "16x0",
            "abc",
        ] {
            let e = Northcott::from_variant(&Variant::parse(&format!("size={bad}")).unwrap())
                .unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains("size") && msg.contains(bad), "{bad}: {msg}");
        }
        assert!(game("64x16").nx() == 64);
        assert!(game("128x32").ny() == 32);
        assert!(Northcott::from_variant(&Variant::parse("first=y").unwrap()).is_err());
    }

    #[test]
    fn moves_slide_without_jumping() {
        let g = game("6x1");
        let s = g.parse_position("1O2X1 O").unwrap();
        let moves: Vec<u8> = g.moves(&s).iter().map(|m| m.to).collect();
        assert_eq!(moves, vec![0, 2, 3]);
        let s = g.parse_position("1O2X1 X").unwrap();
        let moves: Vec<u8> = g.moves(&s).iter().map(|m| m.to).collect();
        assert_eq!(moves, vec![2, 3, 5]);
    }

    #[test]
    fn stalemate_ends_the_game() {
        let g = game("4x2");
        let s = g.parse_position("OX2/OX2 O").unwrap();
        assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(1)));
        let s = g.parse_position("OX2/OX2 X").unwrap();
        assert_eq!(g.turn(&s), Turn::Move(1));
        let s = g.parse_position("2OX/2OX X").unwrap();
        assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
        let g2 = game("2x3");
        assert_eq!(g2.turn(&g2.initial_state()), Turn::Over(Outcome::Win(1)));
    }

    #[test]
    fn notation_round_trips_and_errors_are_clear() {
        let g = game("16x4");
        let mut s = g.initial_state();
        for _ in 0..2 {
            for mv in g.moves(&s) {
                let text = g.format_move(&s, mv);
                assert_eq!(g.parse_move(&s, &text).unwrap(), mv, "{text}");
                let short = format!("{}:{}", mv.row + 1, mv.to + 1);
                assert_eq!(g.parse_move(&s, &short).unwrap(), mv);
                assert_eq!(g.move_cells(&s, mv).len(), 2);
            }
            s.mover ^= 1;
        }
        let s = g.initial_state();
        assert_eq!(g.parse_move(&s, "2 7").unwrap(), NorthcottMove::new(1, 6));
        let cases = [
            ("1:16", "cannot reach cell 16"),
            ("1:1", "already on cell 1"),
            ("5:3", "no row 5"),
            ("1:17", "no cell 17"),
            ("1:2->5", "is on cell 1, not 2"),
            ("hello", "cannot read move"),
            ("1:x", "not a whole number"),
        ];
        for (text, needle) in cases {
            let e = g.parse_move(&s, text).unwrap_err();
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn positions_round_trip_and_bad_ones_are_refused() {
        let g = game("6x3");
        for text in ["O4X/1O2X1/4OX X", "O4X/O4X/O4X O", "OX4/4OX/2O1X1 O"] {
            let s = g.parse_position(text).unwrap();
            assert_eq!(g.format_position(&s), text);
        }
        assert_eq!(
            g.parse_position("0....X/O4X/O4X o").unwrap(),
            g.initial_state()
        );
        for bad in [
            "O4X/O4X O",
            "O4X/O4X/O5X O",
            "X4O/O4X/O4X O",
            "OO3X/O4X/O4X O",
            "O4X/O4X/O4X Z",
            "O4X/O4X/O4X",
            "O4X/O4X/O4 O",
            "O99999999999999999999999X/O4X/O4X O",
            "O4X/O4X/O4?X O",
        ] {
            assert!(g.parse_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn set_up_follows_the_seeds_remark() {
        let g = game("8x1");
        let s = g.parse_position("2O2X2 O").unwrap();
        // Between the pieces: the button decides.
        assert_eq!(
            g.format_position(&g.set_up(&s, 0, 4, Side::O).unwrap()),
            "4OX2 O"
        );
        assert_eq!(
            g.format_position(&g.set_up(&s, 0, 3, Side::X).unwrap()),
            "2OX4 O"
        );
        // Beyond a piece: the nearest piece goes there, whatever the button.
        assert_eq!(
            g.format_position(&g.set_up(&s, 0, 0, Side::X).unwrap()),
            "O4X2 O"
        );
        assert_eq!(
            g.format_position(&g.set_up(&s, 0, 7, Side::O).unwrap()),
            "2O4X O"
        );
        assert!(g.set_up(&s, 0, 2, Side::O).is_err());
        assert!(g.set_up(&s, 0, 2, Side::X).is_err(), "X may not land on O");
        assert!(g.set_up(&s, 1, 2, Side::X).is_err());
    }

    #[test]
    fn view_has_every_cell_and_two_pieces_a_row() {
        let g = game("16x4");
        let s = g.initial_state();
        let v = g.view(&s);
        assert_eq!(v.cells.len(), 64);
        assert_eq!(v.pieces.len(), 8);
        assert!(v
            .pieces
            .iter()
            .any(|p| p.cell == 15 && p.label.as_deref() == Some("X")));
        let text = g.render_text(&s);
        assert!(
            text.contains("gap 14") && text.contains("nim-sum 0"),
            "{text}"
        );
    }

    proptest! {
        #[test]
        fn parsing_arbitrary_text_never_panics(text in "\\PC{0,40}") {
            let g = game("6x3");
            let _ = g.parse_position(&text);
            let _ = g.parse_move(&g.initial_state(), &text);
            let _ = Northcott::from_variant(&Variant::parse(&format!("size={text}")).unwrap_or_default());
        }
    }
}
