//! Tic-tac-toe (noughts and crosses) as in Stenger's "Associative Arrays": squares 1-9 numbered across
//! then down, X moves first, three in a row wins, a full board without a line is a
//! draw (Stenger's "Cat" wins).
//!
//! The board is two 9-bit masks, so a move is one `or` and the end-of-game test is
//! two table look-ups; random playouts run well above ten million moves a second.
//!
//! Position text: the three rows from the top, `X`, `O` or `.` per square, joined by
//! `/`, then a space and the side to move, e.g. `X.O/.X./... O`. The side to move is
//! always the one the piece counts imply (X when both have placed as many marks), also
//! once the game has ended; text naming the other side is rejected.

mod actions;
mod symmetry;

use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};
use tabula_core::{
    Game, Outcome, ParseError, Registered, Seat, Turn, Variant, VariantChoice, VariantError,
    VariantOption, View, ViewCell, ViewPiece,
};

pub use symmetry::{map_mask, SYMMETRY_NAMES};

/// All nine squares.
const FULL: u16 = 0x1FF;

/// The eight lines as square masks (square `n` is bit `n - 1`).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// `HAS_LINE[mask]`: whether the squares in `mask` contain a complete line.
static HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if mask as u16 & LINES[i] == LINES[i] {
                table[mask] = true;
            }
            i += 1;
        }
        mask += 1;
    }
    table
};

/// Whether the squares in `mask` (bit `n - 1` for square `n`) hold three in a row.
pub fn has_line(mask: u16) -> bool {
    HAS_LINE[(mask & FULL) as usize]
}

/// A position: the squares of each side as bit masks (bit `n - 1` is square `n`).
/// The side to move follows from the counts: X when both have as many marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// The squares of X as a mask.
    pub fn x_mask(self) -> u16 {
        self.x
    }
    /// The squares of O as a mask.
    pub fn o_mask(self) -> u16 {
        self.o
    }
    /// The mark on square index `i` (0-8): `Some(0)` for X, `Some(1)` for O.
    pub fn at(self, i: u8) -> Option<Seat> {
        let bit = 1u16 << i;
        if self.x & bit != 0 {
            Some(0)
        } else if self.o & bit != 0 {
            Some(1)
        } else {
            None
        }
    }
    /// The seat whose turn it is (or would be) by the counts of marks.
    pub fn side_to_move(self) -> Seat {
        usize::from(self.x.count_ones() > self.o.count_ones())
    }
    /// Number of marks on the board.
    pub fn plies(self) -> u32 {
        (self.x | self.o).count_ones()
    }
}

/// A move: the square index 0-8 (written as the square number 1-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square number users type, 1-9.
    pub fn number(self) -> u8 {
        self.0 + 1
    }
}

/// Tic-tac-toe, in normal play (three in a row wins) or misère play
/// (`play=misere`: whoever completes three in a row loses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe {
    misere: bool,
}

const SEATS: [&str; 2] = ["X", "O"];
const MARKS: [char; 2] = ['X', 'O'];

impl TicTacToe {
    /// Normal (`false`) or misère (`true`) play.
    pub fn new(misere: bool) -> Self {
        TicTacToe { misere }
    }
    /// Misère play?
    pub fn is_misere(&self) -> bool {
        self.misere
    }

    /// The seat that wins when `liner` has completed a line.
    #[inline]
    fn line_winner(&self, liner: Seat) -> Seat {
        if self.misere {
            1 - liner
        } else {
            liner
        }
    }

    fn status_line(&self, turn: Turn) -> String {
        match turn {
            Turn::Move(seat) => format!("{} to move", SEATS[seat]),
            Turn::Over(Outcome::Win(seat)) if self.misere => {
                format!(
                    "{} wins: {} made three in a row (misère)",
                    SEATS[seat],
                    SEATS[1 - seat]
                )
            }
            Turn::Over(Outcome::Win(seat)) => format!("{} wins", SEATS[seat]),
            Turn::Over(_) => "draw: the Cat wins".into(),
            Turn::Chance => String::new(),
        }
    }

    /// Why a board (with any counts) cannot arise in play, or `None` if it can.
    fn unreachable_reason(x: u16, o: u16) -> Option<String> {
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Some(format!(
                "X has {nx} marks and O has {no}: X moves first, so X has as many marks as O or one more"
            ));
        }
        let (x_line, o_line) = (has_line(x), has_line(o));
        if x_line && o_line {
            return Some("both sides have three in a row".into());
        }
        // The last mark placed must have completed every line on the board, so some
        // mark of the winner must leave a board without lines when taken back.
        let last_move_made_it =
            |mine: u16| (0..9).any(|i| mine & (1 << i) != 0 && !has_line(mine & !(1 << i)));
        if x_line && (nx != no + 1 || !last_move_made_it(x)) {
            return Some("X has three in a row but play would have stopped earlier".into());
        }
        if o_line && (nx != no || !last_move_made_it(o)) {
            return Some("O has three in a row but play would have stopped earlier".into());
        }
        None
    }

    /// A board from two masks, if it can arise in play.
    pub fn board(x: u16, o: u16) -> Result<Board, ParseError> {
        if x & !FULL != 0 || o & !FULL != 0 || x & o != 0 {
            return Err(ParseError::new(
                "the masks must be disjoint sets of squares 1-9",
            ));
        }
        match Self::unreachable_reason(x, o) {
            Some(reason) => Err(ParseError::new(format!("impossible position: {reason}"))),
            None => Ok(Board { x, o }),
        }
    }
}

impl Game for TicTacToe {
    type State = Board;
    type Move = Square;

    const NAME: &'static str = "tictactoe";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> Board {
        Board::EMPTY
    }

    #[inline]
    fn turn(&self, s: &Board) -> Turn {
        if HAS_LINE[s.x as usize] {
            Turn::Over(Outcome::Win(self.line_winner(0)))
        } else if HAS_LINE[s.o as usize] {
            Turn::Over(Outcome::Win(self.line_winner(1)))
        } else if s.x | s.o == FULL {
            Turn::Over(Outcome::Draw)
        } else {
            Turn::Move(s.side_to_move())
        }
    }

    #[inline]
    fn legal_moves(&self, s: &Board, out: &mut Vec<Square>) {
        if HAS_LINE[s.x as usize] || HAS_LINE[s.o as usize] {
            return;
        }
        let mut empty = !(s.x | s.o) & FULL;
        while empty != 0 {
            out.push(Square(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    #[inline]
    fn play_unchecked(&self, s: &mut Board, mv: Square) {
        let bit = 1u16 << (mv.0 & 15);
        if s.x.count_ones() > s.o.count_ones() {
            s.o |= bit & FULL;
        } else {
            s.x |= bit & FULL;
        }
    }
}

impl Notation for TicTacToe {
    fn parse_move(&self, s: &Board, text: &str) -> Result<Square, ParseError> {
        let t = text.trim();
        let n: u8 = match t.parse() {
            Ok(n) if (1..=9).contains(&n) => n,
            _ => {
                return Err(ParseError::new(format!(
                    "'{t}' is not a square: type a number from 1 to 9"
                )))
            }
        };
        if let Turn::Over(_) = self.turn(s) {
            return Err(ParseError::new("the game is over"));
        }
        let mv = Square(n - 1);
        if let Some(seat) = s.at(mv.0) {
            return Err(ParseError::new(format!(
                "square {n} is already taken by {}",
                SEATS[seat]
            )));
        }
        Ok(mv)
    }

    fn format_move(&self, _s: &Board, mv: Square) -> String {
        mv.number().to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        let mut parts = text.split_whitespace();
        let (Some(rows), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new(
                "expected three rows joined by '/' and the side to move, like 'X.O/.X./... O'",
            ));
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 3 {
            return Err(ParseError::new(format!(
                "expected 3 rows separated by '/', found {}",
                rows.len()
            )));
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != 3 {
                return Err(ParseError::new(format!(
                    "row {} '{row}' must have 3 squares",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u16 << (r * 3 + c);
                match ch.to_ascii_uppercase() {
                    'X' => x |= bit,
                    'O' => o |= bit,
                    '.' | '-' => {}
                    _ => {
                        return Err(ParseError::new(format!(
                            "unexpected '{ch}' in row {}: use X, O or '.'",
                            r + 1
                        )))
                    }
                }
            }
        }
        let board = Self::board(x, o)?;
        let seat = match side.to_ascii_uppercase().as_str() {
            "X" => 0,
            "O" => 1,
            _ => {
                return Err(ParseError::new(format!(
                    "side to move '{side}' must be X or O"
                )))
            }
        };
        if seat != board.side_to_move() {
            return Err(ParseError::new(format!(
                "it cannot be {}'s turn: X has {} marks and O has {}",
                SEATS[seat],
                x.count_ones(),
                o.count_ones()
            )));
        }
        Ok(board)
    }

    fn format_position(&self, s: &Board) -> String {
        let mut text = String::with_capacity(13);
        for i in 0..9u8 {
            if i > 0 && i % 3 == 0 {
                text.push('/');
            }
            text.push(s.at(i).map_or('.', |seat| MARKS[seat]));
        }
        text.push(' ');
        text.push(MARKS[s.side_to_move()]);
        text
    }
}

impl Presentation for TicTacToe {
    fn render_text(&self, s: &Board) -> String {
        let mut out = String::new();
        for r in 0..3u8 {
            if r > 0 {
                out.push_str("---+---+---\n");
            }
            let cells: Vec<String> = (0..3u8)
                .map(|c| {
                    let i = r * 3 + c;
                    s.at(i)
                        .map_or_else(|| (i + 1).to_string(), |seat| MARKS[seat].to_string())
                })
                .collect();
            out.push_str(&format!(" {} | {} | {}\n", cells[0], cells[1], cells[2]));
        }
        out.push_str(&self.status_line(self.turn(s)));
        out.push('\n');
        out
    }

    fn view(&self, s: &Board) -> View {
        // The squares of a completed line are marked `win`, so a front end can show
        // how the game was won.
        let won: u16 = LINES
            .iter()
            .filter(|&&l| s.x & l == l || s.o & l == l)
            .fold(0, |acc, l| acc | l);
        let cells = (0..9u8)
            .map(|i| ViewCell {
                id: u32::from(i) + 1,
                x: f64::from(i % 3),
                y: f64::from(i / 3),
                w: 1.0,
                h: 1.0,
                label: Some((i + 1).to_string()),
                mark: (won & (1 << i) != 0).then_some(tabula_core::Mark::Win),
                ..ViewCell::default()
            })
            .collect();
        let pieces = (0..9u8)
            .filter_map(|i| {
                s.at(i).map(|seat| ViewPiece {
                    cell: u32::from(i) + 1,
                    owner: Some(seat),
                    label: Some(MARKS[seat].to_string()),
                })
            })
            .collect();
        View {
            width: 3.0,
            height: 3.0,
            layout: tabula_core::Layout::Grid {
                columns: 3,
                rows: 3,
            },
            cells,
            pieces,
            status: vec![self.status_line(self.turn(s))],
            ..View::default()
        }
    }

    fn move_cells(&self, _s: &Board, mv: Square) -> Vec<u32> {
        vec![u32::from(mv.number())]
    }
}

impl Symmetry for TicTacToe {
    fn symmetry_count(&self) -> usize {
        8
    }

    fn map_state(&self, s: &Board, k: usize) -> Board {
        Board {
            x: map_mask(s.x, k),
            o: map_mask(s.o, k),
        }
    }

    fn map_move(&self, _s: &Board, mv: Square, k: usize) -> Square {
        Square(symmetry::map_index(mv.0, k))
    }

    fn inverse_symmetry(&self, k: usize) -> usize {
        symmetry::inverse(k)
    }
}

impl ExactAnalysis for TicTacToe {
    fn is_small(&self) -> bool {
        true
    }
}

impl Players for TicTacToe {
    /// Open lines: each line free of the opponent counts for its owner, more when
    /// it holds more of their marks; a won game is worth +-1.
    fn evaluate(&self, s: &Board, seat: Seat) -> f64 {
        let (mine, theirs) = if seat == 0 { (s.x, s.o) } else { (s.o, s.x) };
        let sign = if self.misere { -1.0 } else { 1.0 };
        if has_line(mine) {
            return sign;
        }
        if has_line(theirs) {
            return -sign;
        }
        let weight = [0.0, 1.0, 4.0, 0.0];
        let score: f64 = LINES
            .iter()
            .map(
                |&line| match ((mine & line).count_ones(), (theirs & line).count_ones()) {
                    (m, 0) => weight[m as usize],
                    (0, t) => -weight[t as usize],
                    _ => 0.0,
                },
            )
            .sum();
        (sign * score / 16.0).clamp(-0.95, 0.95)
    }
}

impl MatchRules for TicTacToe {}

impl Registered for TicTacToe {
    /// The page shows MENACE learning: it plays X, as Michie's machine did.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![tabula_core::Panel::Learn {
                player: "menace",
                machine: "MENACE",
                seat: 0,
                games: 1000,
                about: "MENACE keeps a matchbox of beads for every position it meets: beads for moves that led to wins are added, those that lost are taken away.",
            }],
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Tic-tac-toe";
    /// Michie's MENACE, the matchbox learner built for this game (Stenger's
    /// Gardner-style machine, built for Hexapawn, is `matchbox`).
    fn default_opponent(&self) -> Option<&'static str> {
        Some("menace")
    }
    const SUMMARY: &'static str =
        "Noughts and crosses on squares 1-9: X moves first, three in a row wins, a full board is the Cat's game.";

    /// Both rule sets are solved; OpenSpiel's `tic_tac_toe` has the same cells
    /// as action ids, so every one of its 5,478 states is compared.
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", true)
                    .summary(&["three in a row wins"], &["loses"]),
                tabula_core::VariantCase::new("play=misere", true)
                    .summary(&["three in a row loses"], &["three in a row wins"]),
            ],
            openspiel: vec![tabula_core::OpenSpielCase::every_state("", "tic_tac_toe")],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "Three in a row wins (the usual game)",
                variant: "",
            },
            tabula_core::Preset {
                name: "Three in a row loses (misère)",
                variant: "play=misere",
            },
        ]
    }

    /// Misère play reverses what three in a row does.
    fn summary(&self) -> String {
        if self.misere {
            "Noughts and crosses on squares 1-9, misère: X moves first, whoever makes three in a row loses, a full board is the Cat's game.".into()
        } else {
            Self::SUMMARY.into()
        }
    }

    fn options() -> Vec<VariantOption> {
        vec![VariantOption {
            name: "play",
            label: "play",
            default: "normal",
            help: "normal (three in a row wins), or misere: whoever makes three in a row loses",
            choices: &[
                VariantChoice {
                    value: "normal",
                    words: "normal (three in a row wins)",
                },
                VariantChoice {
                    value: "misere",
                    words: "misère (three in a row loses)",
                },
            ],
        }]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let misere = variant.choice("play", "normal", &["normal", "misere"])? == "misere";
        Ok(TicTacToe { misere })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        if self.misere {
            v.set("play", "misere");
        }
        v
    }

    fn count_report(&self) -> Option<tabula_core::CountReport> {
        Some(symmetry::count_results())
    }
}

#[cfg(test)]
mod tests;
