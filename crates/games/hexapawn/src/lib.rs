//! Hexapawn, Martin Gardner's 1962 game for his matchbox learning machine (Stenger's "Associative Arrays").
//!
//! A 3x3 board, squares numbered across then down with Black at the top:
//!
//! ```text
//!  (Black)
//!  1 2 3
//!  4 5 6
//!  7 8 9
//!  (White)
//! ```
//!
//! White's three pawns start on 7 8 9 and White moves first; Black's start on 1 2 3.
//! A pawn moves one square straight forward onto an empty square, or one square
//! diagonally forward onto an enemy pawn, capturing it. A side wins by reaching the
//! far row, by capturing every enemy pawn, or when the opponent is to move and has
//! no legal move. There are no draws.
//!
//! Moves are typed as in Stenger's article: the from square, a space, the to square (`7 4`).
//! Position text: the rows from the top (`B`, `W` or `.`), joined by `/`, a space and
//! the side to move (`W` or `B`): the start is `BBB/.../WWW W`.
//!
//! Variants (as GamesCrafters' GamesmanUni offers them): wider and longer boards
//! (`columns=N,rows=M`, 3 to 6 each; a full row of pawns a side, squares still
//! numbered across then down), misère play (`play=misere`: every way of winning
//! the normal game loses instead) and compulsory capture (`capture=compulsory`:
//! a side that can capture must).

mod actions;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};
use tabula_core::{
    Game, GameExt, Outcome, ParseError, Registered, Seat, Turn, Variant, VariantChoice,
    VariantError, VariantOption, View, ViewCell, ViewPiece,
};

/// Seat of White (moves first, starts on the bottom row).
pub const WHITE: Seat = 0;
/// Seat of Black (starts on the top row).
pub const BLACK: Seat = 1;

/// The smallest and largest board side.
pub const MIN_SIDE: u8 = 3;
/// See [`MIN_SIDE`].
pub const MAX_SIDE: u8 = 6;

/// A position: each side's pawns as a mask (bit `n - 1` is square `n`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pawns {
    white: u64,
    black: u64,
    to_move: u8,
}

impl Pawns {
    /// White's pawns as a mask.
    pub fn white_mask(self) -> u64 {
        self.white
    }
    /// Black's pawns as a mask.
    pub fn black_mask(self) -> u64 {
        self.black
    }
    /// The side to move (or that would move, once the game is over).
    pub fn side_to_move(self) -> Seat {
        usize::from(self.to_move)
    }
    /// The pawn on square index `i`: `Some(WHITE)` or `Some(BLACK)`.
    pub fn at(self, i: u8) -> Option<Seat> {
        let bit = 1u64 << i;
        if self.white & bit != 0 {
            Some(WHITE)
        } else if self.black & bit != 0 {
            Some(BLACK)
        } else {
            None
        }
    }
}

/// A move: a pawn from square index `from` to `to` (written as numbers from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// Square index the pawn leaves.
    pub from: u8,
    /// Square index it goes to.
    pub to: u8,
}

/// Hexapawn on a board of `columns` x `rows` (3x3 by default), normal or misère,
/// with optional or compulsory captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hexapawn {
    columns: u8,
    rows: u8,
    misere: bool,
    compulsory: bool,
}

impl Default for Hexapawn {
    fn default() -> Self {
        Hexapawn {
            columns: 3,
            rows: 3,
            misere: false,
            compulsory: false,
        }
    }
}

const SEATS: [&str; 2] = ["White", "Black"];
const LETTERS: [char; 2] = ['W', 'B'];

/// Boards beyond the generic solver's budget (more than 6 million positions:
/// 5x6 has 16.7 million, 6x5 over 30 million); every other board from 3x3 to
/// 6x4, 4x6 and 5x5 solves in seconds (figures in `crates/games/hexapawn/docs/hexapawn.md`).
const TOO_BIG: [(u8, u8); 3] = [(5, 6), (6, 5), (6, 6)];

/// Boards whose reachable positions are enumerated to validate position text
/// (bigger boards get structural checks only).
const REACHABLE_CHECK_MAX_SQUARES: u8 = 16;

impl Hexapawn {
    /// A board of `columns` x `rows` (each 3..=6), normal play, optional captures.
    pub fn new(columns: u8, rows: u8) -> Self {
        Hexapawn {
            columns: columns.clamp(MIN_SIDE, MAX_SIDE),
            rows: rows.clamp(MIN_SIDE, MAX_SIDE),
            ..Hexapawn::default()
        }
    }
    /// The same board in misère play (`true`) or normal play.
    pub fn with_misere(self, misere: bool) -> Self {
        Hexapawn { misere, ..self }
    }
    /// The same board with compulsory (`true`) or optional captures.
    pub fn with_compulsory_capture(self, compulsory: bool) -> Self {
        Hexapawn { compulsory, ..self }
    }
    /// Columns of the board.
    pub fn columns(&self) -> u8 {
        self.columns
    }
    /// Rows of the board.
    pub fn rows(&self) -> u8 {
        self.rows
    }
    /// Misère play?
    pub fn is_misere(&self) -> bool {
        self.misere
    }
    /// Compulsory captures?
    pub fn is_compulsory_capture(&self) -> bool {
        self.compulsory
    }

    fn squares(&self) -> u8 {
        self.columns * self.rows
    }
    fn full(&self) -> u64 {
        (1u64 << self.squares()) - 1
    }
    fn top_row(&self) -> u64 {
        (1u64 << self.columns) - 1
    }
    fn bottom_row(&self) -> u64 {
        self.top_row() << (self.columns * (self.rows - 1))
    }
    fn left_column(&self) -> u64 {
        (0..self.rows).fold(0, |m, r| m | 1u64 << (r * self.columns))
    }
    fn right_column(&self) -> u64 {
        self.left_column() << (self.columns - 1)
    }

    /// Target masks of the side to move: (forward steps, captures towards the left
    /// column, captures towards the right column), each as the squares moved to.
    /// With compulsory captures, steps are dropped when a capture exists.
    fn targets(&self, s: Pawns) -> (u64, u64, u64) {
        let full = self.full();
        let c = u32::from(self.columns);
        let empty = !(s.white | s.black) & full;
        let (l, r) = (self.left_column(), self.right_column());
        let (forward, left, right) = if s.to_move == WHITE as u8 {
            let w = s.white;
            (
                (w >> c) & empty,
                ((w & !l) >> (c + 1)) & s.black,
                ((w & !r) >> (c - 1)) & s.black,
            )
        } else {
            let b = s.black;
            (
                (b << c) & empty & full,
                ((b & !l) << (c - 1)) & s.white & full,
                ((b & !r) << (c + 1)) & s.white & full,
            )
        };
        if self.compulsory && left | right != 0 {
            (0, left, right)
        } else {
            (forward, left, right)
        }
    }

    /// Who won under the normal rules, if the game is over.
    fn normal_winner(&self, s: Pawns) -> Option<Seat> {
        if s.white & self.top_row() != 0 || s.black == 0 {
            return Some(WHITE);
        }
        if s.black & self.bottom_row() != 0 || s.white == 0 {
            return Some(BLACK);
        }
        let (forward, left, right) = self.targets(s);
        if forward | left | right == 0 {
            return Some(1 - s.side_to_move());
        }
        None
    }

    /// The winner, if the game is over (misère play turns every normal win into a loss).
    fn winner(&self, s: Pawns) -> Option<Seat> {
        self.normal_winner(s)
            .map(|w| if self.misere { 1 - w } else { w })
    }

    /// Every position reachable from the start, for small boards (cached per variant).
    fn reachable(&self) -> Option<Arc<HashSet<Pawns>>> {
        if self.squares() > REACHABLE_CHECK_MAX_SQUARES {
            return None;
        }
        static SETS: OnceLock<Mutex<HashMap<Hexapawn, Arc<HashSet<Pawns>>>>> = OnceLock::new();
        let sets = SETS.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(set) = sets.lock().ok()?.get(self) {
            return Some(set.clone());
        }
        let mut seen = HashSet::from([self.initial_state()]);
        let mut stack = vec![self.initial_state()];
        let mut buf = Vec::new();
        while let Some(s) = stack.pop() {
            buf.clear();
            self.legal_moves(&s, &mut buf);
            for &mv in &buf {
                let mut t = s;
                self.play_unchecked(&mut t, mv);
                if seen.insert(t) {
                    stack.push(t);
                }
            }
        }
        let set = Arc::new(seen);
        sets.lock().ok()?.insert(*self, set.clone());
        Some(set)
    }

    /// Number of positions reachable from the start, terminal ones included
    /// (enumerated; meant for boards of up to 16 squares).
    pub fn reachable_count(&self) -> usize {
        match self.reachable() {
            Some(set) => set.len(),
            None => {
                let mut seen = HashSet::from([self.initial_state()]);
                let mut stack = vec![self.initial_state()];
                while let Some(s) = stack.pop() {
                    for mv in self.moves(&s) {
                        let mut t = s;
                        self.play_unchecked(&mut t, mv);
                        if seen.insert(t) {
                            stack.push(t);
                        }
                    }
                }
                seen.len()
            }
        }
    }

    fn mirror_index(&self, i: u8) -> u8 {
        let c = self.columns;
        i - i % c + (c - 1 - i % c)
    }

    fn mirror_mask(&self, mask: u64) -> u64 {
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as u8;
            out |= 1u64 << self.mirror_index(i);
            m &= m - 1;
        }
        out
    }

    fn status_line(&self, turn: Turn) -> String {
        match turn {
            Turn::Move(seat) => format!("{} to move", SEATS[seat]),
            Turn::Over(Outcome::Win(seat)) if self.misere => {
                format!("{} wins (misère)", SEATS[seat])
            }
            Turn::Over(Outcome::Win(seat)) => format!("{} wins", SEATS[seat]),
            Turn::Over(_) => String::new(),
            Turn::Chance => String::new(),
        }
    }

    /// Structural checks for position text on boards too big to enumerate.
    fn plausible(&self, s: &Pawns) -> Result<(), String> {
        let cols = u32::from(self.columns);
        if s.white.count_ones() > cols || s.black.count_ones() > cols {
            return Err(format!("each side has at most {cols} pawns"));
        }
        if s.white & self.top_row() != 0 && s.black & self.bottom_row() != 0 {
            return Err("both sides cannot have reached the far row".into());
        }
        Ok(())
    }
}

impl Game for Hexapawn {
    type State = Pawns;
    type Move = Step;

    const NAME: &'static str = "hexapawn";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> Pawns {
        Pawns {
            white: self.bottom_row(),
            black: self.top_row(),
            to_move: WHITE as u8,
        }
    }

    fn turn(&self, s: &Pawns) -> Turn {
        match self.winner(*s) {
            Some(w) => Turn::Over(Outcome::Win(w)),
            None => Turn::Move(s.side_to_move()),
        }
    }

    fn legal_moves(&self, s: &Pawns, out: &mut Vec<Step>) {
        if s.white & self.top_row() != 0
            || s.black & self.bottom_row() != 0
            || s.white == 0
            || s.black == 0
        {
            return;
        }
        let (forward, left, right) = self.targets(*s);
        let c = self.columns as i8;
        // Offsets from the target back to the pawn that moves there.
        let back: [i8; 3] = if s.to_move == WHITE as u8 {
            [c, c + 1, c - 1]
        } else {
            [-c, -(c - 1), -(c + 1)]
        };
        for (mut targets, offset) in [forward, left, right].into_iter().zip(back) {
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                out.push(Step {
                    from: (to as i8 + offset) as u8,
                    to,
                });
                targets &= targets - 1;
            }
        }
    }

    fn play_unchecked(&self, s: &mut Pawns, mv: Step) {
        let n = self.squares();
        let (from, to) = (1u64 << (mv.from % n), 1u64 << (mv.to % n));
        if s.to_move == WHITE as u8 {
            s.white = (s.white & !from) | to;
            s.black &= !to;
        } else {
            s.black = (s.black & !from) | to;
            s.white &= !to;
        }
        s.to_move ^= 1;
    }
}

impl Notation for Hexapawn {
    fn parse_move(&self, s: &Pawns, text: &str) -> Result<Step, ParseError> {
        let n = u32::from(self.squares());
        let example = if n == 9 { "7 4" } else { "from to, like 8 5" };
        let cleaned: String = text
            .chars()
            .map(|c| {
                if matches!(c, '-' | 'x' | 'X' | ',') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        let mut tokens: Vec<&str> = cleaned.split_whitespace().collect();
        // Stenger's 3x3 board also reads two digits without a space ("74").
        let joined;
        if tokens.len() == 1 && n <= 9 && tokens[0].chars().count() == 2 {
            joined = tokens[0].chars().map(|c| c.to_string()).collect::<Vec<_>>();
            tokens = joined.iter().map(String::as_str).collect();
        }
        let numbers: Vec<u32> = tokens
            .iter()
            .map(|t| {
                t.parse::<u32>()
                    .ok()
                    .filter(|d| (1..=n).contains(d))
                    .ok_or_else(|| {
                        ParseError::new(format!(
                            "'{t}' is not a square: squares are numbered 1 to {n} across then down ({example})"
                        ))
                    })
            })
            .collect::<Result<_, _>>()?;
        let [from, to] = numbers[..] else {
            return Err(ParseError::new(format!(
                "type a move as two squares 1-{n}, 'from to', like {example}"
            )));
        };
        let mv = Step {
            from: from as u8 - 1,
            to: to as u8 - 1,
        };
        let seat = match self.turn(s) {
            Turn::Move(seat) => seat,
            _ => return Err(ParseError::new("the game is over")),
        };
        if s.at(mv.from) != Some(seat) {
            return Err(ParseError::new(format!(
                "square {from} has no {} pawn",
                SEATS[seat]
            )));
        }
        if !self.moves(s).contains(&mv) {
            let (_, left, right) = self.targets(*s);
            if self.compulsory && left | right != 0 {
                return Err(ParseError::new(format!(
                    "{from} to {to} is not allowed: a capture is possible, and captures are compulsory"
                )));
            }
            return Err(ParseError::new(format!(
                "{from} to {to} is not a pawn move: a pawn goes one square forward onto an empty square \
                 or one square diagonally forward onto an enemy pawn"
            )));
        }
        Ok(mv)
    }

    fn format_move(&self, _s: &Pawns, mv: Step) -> String {
        format!("{} {}", mv.from + 1, mv.to + 1)
    }

    fn parse_position(&self, text: &str) -> Result<Pawns, ParseError> {
        let (cols, rows) = (usize::from(self.columns), usize::from(self.rows));
        let example = self.format_position(&self.initial_state());
        let mut parts = text.split_whitespace();
        let (Some(row_text), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new(format!(
                "expected {rows} rows joined by '/' and the side to move, like '{example}'"
            )));
        };
        let lines: Vec<&str> = row_text.split('/').collect();
        if lines.len() != rows {
            return Err(ParseError::new(format!(
                "expected {rows} rows separated by '/', found {}",
                lines.len()
            )));
        }
        let (mut white, mut black) = (0u64, 0u64);
        for (r, row) in lines.iter().enumerate() {
            if row.chars().count() != cols {
                return Err(ParseError::new(format!(
                    "row {} '{row}' must have {cols} squares",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r * cols + c);
                match ch.to_ascii_uppercase() {
                    'W' => white |= bit,
                    'B' => black |= bit,
                    '.' | '-' => {}
                    _ => {
                        return Err(ParseError::new(format!(
                            "unexpected '{ch}' in row {}: use W, B or '.'",
                            r + 1
                        )))
                    }
                }
            }
        }
        let to_move = match side.to_ascii_uppercase().as_str() {
            "W" | "WHITE" => WHITE as u8,
            "B" | "BLACK" => BLACK as u8,
            _ => {
                return Err(ParseError::new(format!(
                    "side to move '{side}' must be W or B"
                )))
            }
        };
        let state = Pawns {
            white,
            black,
            to_move,
        };
        match self.reachable() {
            Some(set) if !set.contains(&state) => {
                return Err(ParseError::new(format!(
                    "'{}' cannot arise in a game from the start (pawns only move forward, \
                     White moves first, play stops when someone has won)",
                    self.format_position(&state)
                )))
            }
            Some(_) => {}
            None => self.plausible(&state).map_err(ParseError::new)?,
        }
        Ok(state)
    }

    fn format_position(&self, s: &Pawns) -> String {
        let cols = self.columns;
        let mut text = String::with_capacity(usize::from(self.squares() + self.rows + 2));
        for i in 0..self.squares() {
            if i > 0 && i % cols == 0 {
                text.push('/');
            }
            text.push(s.at(i).map_or('.', |seat| LETTERS[seat]));
        }
        text.push(' ');
        text.push(LETTERS[s.side_to_move()]);
        text
    }
}

impl Presentation for Hexapawn {
    fn render_text(&self, s: &Pawns) -> String {
        let width = if self.squares() > 9 { 2 } else { 1 };
        let mut out = String::from("  (Black)\n");
        for r in 0..self.rows {
            let pieces: Vec<String> = (0..self.columns)
                .map(|c| {
                    s.at(r * self.columns + c)
                        .map_or('.', |seat| LETTERS[seat])
                        .to_string()
                })
                .collect();
            let numbers: Vec<String> = (0..self.columns)
                .map(|c| format!("{:>width$}", r * self.columns + c + 1))
                .collect();
            out.push_str(&format!(
                "  {}    {}\n",
                pieces.join(" "),
                numbers.join(" ")
            ));
        }
        out.push_str("  (White)\n");
        out.push_str(&self.status_line(self.turn(s)));
        out.push('\n');
        out
    }

    fn view(&self, s: &Pawns) -> View {
        let cols = self.columns;
        let cells = (0..self.squares())
            .map(|i| ViewCell {
                id: u32::from(i) + 1,
                x: f64::from(i % cols),
                y: f64::from(i / cols),
                w: 1.0,
                h: 1.0,
                label: Some((i + 1).to_string()),
                mark: ((i / cols + i % cols) % 2 == 1).then_some(tabula_core::Mark::Dark),
                ..ViewCell::default()
            })
            .collect();
        let pieces = (0..self.squares())
            .filter_map(|i| {
                s.at(i).map(|seat| ViewPiece {
                    cell: u32::from(i) + 1,
                    owner: Some(seat),
                    label: Some(LETTERS[seat].to_string()),
                })
            })
            .collect();
        View {
            width: f64::from(cols),
            height: f64::from(self.rows),
            layout: tabula_core::Layout::Grid {
                columns: u32::from(cols),
                rows: u32::from(self.rows),
            },
            cells,
            pieces,
            status: vec![self.status_line(self.turn(s))],
            ..View::default()
        }
    }

    fn move_cells(&self, _s: &Pawns, mv: Step) -> Vec<u32> {
        vec![u32::from(mv.from) + 1, u32::from(mv.to) + 1]
    }

    fn move_words(&self, s: &Pawns, mv: Step) -> String {
        // Squares are numbered 1.. row by row, as on the board and in the notation.
        let (from, to) = (mv.from + 1, mv.to + 1);
        let taken = (s.white | s.black) & (1u64 << mv.to) != 0;
        if taken {
            format!("the pawn on {from} takes the pawn on {to}")
        } else {
            format!("the pawn on {from} moves to {to}")
        }
    }
}

impl Symmetry for Hexapawn {
    fn symmetry_count(&self) -> usize {
        2
    }

    fn map_state(&self, s: &Pawns, k: usize) -> Pawns {
        if k & 1 == 0 {
            *s
        } else {
            Pawns {
                white: self.mirror_mask(s.white),
                black: self.mirror_mask(s.black),
                to_move: s.to_move,
            }
        }
    }

    fn map_move(&self, _s: &Pawns, mv: Step, k: usize) -> Step {
        if k & 1 == 0 {
            mv
        } else {
            let n = self.squares();
            Step {
                from: self.mirror_index(mv.from % n),
                to: self.mirror_index(mv.to % n),
            }
        }
    }
}

impl ExactAnalysis for Hexapawn {
    /// Every board the variant accepts is solved by the generic solver (the
    /// largest, 6x4, has 5.9 million positions; see `crates/games/hexapawn/docs/hexapawn.md`).
    fn is_small(&self) -> bool {
        true
    }
}

impl Players for Hexapawn {
    /// Material and how far the pawns have come, from `seat`'s side (reversed in misère play).
    fn evaluate(&self, s: &Pawns, seat: Seat) -> f64 {
        if let Some(w) = self.winner(*s) {
            return if w == seat { 1.0 } else { -1.0 };
        }
        let cols = self.columns;
        let row_mask = |r: u8| self.top_row() << (r * cols);
        // Rows advanced: White counts rows up from the bottom, Black rows down from the top.
        let progress = |mask: u64, white: bool| -> f64 {
            (0..self.rows)
                .map(|steps| {
                    let r = if white { self.rows - 1 - steps } else { steps };
                    (mask & row_mask(r)).count_ones() as f64 * (2.0 + f64::from(steps))
                })
                .sum()
        };
        let scale = f64::from(cols) * (2.0 + f64::from(self.rows)) / 1.5;
        let diff = (progress(s.white, true) - progress(s.black, false)) / scale;
        let mut v = if seat == WHITE { diff } else { -diff };
        if self.misere {
            v = -v;
        }
        v.clamp(-0.95, 0.95)
    }
}

impl MatchRules for Hexapawn {}

impl Registered for Hexapawn {
    /// The page shows Gardner's matchbox machine learning: it plays Black, as in his article.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![tabula_core::Panel::Learn {
                player: "matchbox",
                machine: "matchbox",
                seat: 1,
                games: 200,
                about: "Gardner's machine keeps a matchbox for every position it meets, one bead per move; after a loss it removes the bead that led to it.",
            }],
            // The seats are named for their colours.
            seat_colours: vec![tabula_core::SeatColour::White, tabula_core::SeatColour::Black],
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Hexapawn";
    /// Stenger's "Associative Arrays" plays you against Gardner's learning
    /// matchbox machine, built for the 3x3 board (its 24 boxes); on other boards
    /// it would need thousands of games to learn, so the front end chooses.
    fn default_opponent(&self) -> Option<&'static str> {
        (self.columns == 3 && self.rows == 3).then_some("matchbox")
    }
    const SUMMARY: &'static str =
        "Martin Gardner's three-pawn chess on a 3x3 board, made to teach a matchbox machine.";

    /// Every board size and rule is solved by the generic solver.
    fn test_cases() -> tabula_core::TestCases {
        let solved = |v| tabula_core::VariantCase::new(v, true);
        tabula_core::TestCases {
            variants: vec![
                solved(""),
                solved("columns=4"),
                solved("columns=4,rows=4").summary(&["4x4 board"], &["3x3"]),
                solved("columns=5,rows=3"),
                solved("columns=3,rows=6"),
                solved("play=misere").summary(&["misère"], &["made to teach"]),
                solved("capture=compulsory"),
                solved("columns=4,rows=5,play=misere,capture=compulsory"),
            ],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "3 by 3, Gardner's game",
                variant: "",
            },
            tabula_core::Preset {
                name: "3 by 3, capturing compulsory",
                variant: "capture=compulsory",
            },
            tabula_core::Preset {
                name: "3 by 3, misère: reaching the far row loses",
                variant: "play=misere",
            },
            tabula_core::Preset {
                name: "4 by 4",
                variant: "columns=4,rows=4",
            },
            tabula_core::Preset {
                name: "4 by 5",
                variant: "columns=4,rows=5",
            },
        ]
    }

    /// The board's size, pawns a side and the rules that differ from Gardner's game.
    fn summary(&self) -> String {
        if self.columns == 3 && self.rows == 3 && !self.misere && !self.compulsory {
            return Self::SUMMARY.into();
        }
        let pawns = ["three", "four", "five", "six"]
            .get(usize::from(self.columns).saturating_sub(3))
            .map_or_else(|| self.columns.to_string(), |w| w.to_string());
        let mut text = format!(
            "Martin Gardner's pawn chess on a {}x{} board, {pawns} pawns a side",
            self.columns, self.rows
        );
        if self.compulsory {
            text.push_str("; a side that can capture must");
        }
        if self.misere {
            text.push_str(
                "; misère: reaching the far row, taking every pawn or blocking the opponent loses",
            );
        }
        text.push('.');
        text
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "columns",
                label: "columns",
                default: "3",
                help: "board width, 3 to 6 (a full row of pawns a side; boards up to 6x4, 4x6 and 5x5, the solver's budget)", choices: &[VariantChoice { value: "3", words: "3" }, VariantChoice { value: "4", words: "4" }, VariantChoice { value: "5", words: "5" }, VariantChoice { value: "6", words: "6" }],
            },
            VariantOption {
                name: "rows",
                label: "rows",
                default: "3",
                help: "board length, 3 to 6", choices: &[VariantChoice { value: "3", words: "3" }, VariantChoice { value: "4", words: "4" }, VariantChoice { value: "5", words: "5" }, VariantChoice { value: "6", words: "6" }],
            },
            VariantOption {
                name: "play",
                label: "play",
                default: "normal",
                help: "normal, or misere: reaching the far row, taking every pawn or blocking the opponent loses", choices: &[
                    VariantChoice { value: "normal", words: "normal (reaching the far row wins)" },
                    VariantChoice { value: "misere", words: "misère (reaching the far row loses)" },
                ],
            },
            VariantOption {
                name: "capture",
                label: "capture",
                default: "optional",
                help: "optional, or compulsory: a side that can capture must", choices: &[
                    VariantChoice { value: "optional", words: "optional captures" },
                    VariantChoice { value: "compulsory", words: "compulsory captures" },
                ],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let columns = variant.int("columns", 3, i64::from(MIN_SIDE), i64::from(MAX_SIDE))? as u8;
        let rows = variant.int("rows", 3, i64::from(MIN_SIDE), i64::from(MAX_SIDE))? as u8;
        let misere = variant.choice("play", "normal", &["normal", "misere"])? == "misere";
        let compulsory =
            variant.choice("capture", "optional", &["optional", "compulsory"])? == "compulsory";
        if TOO_BIG.contains(&(columns, rows)) {
            return Err(VariantError::BadValue {
                name: "columns".into(),
                value: format!("{columns} (with rows={rows})"),
                reason: format!(
                    "a {columns}x{rows} board has more positions than the solver's budget of 6 million; \
                     boards from 3x3 up to 6x4, 4x6 and 5x5 are solved"
                ),
            });
        }
        Ok(Hexapawn {
            columns,
            rows,
            misere,
            compulsory,
        })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        if self.columns != 3 {
            v.set("columns", self.columns.to_string());
        }
        if self.rows != 3 {
            v.set("rows", self.rows.to_string());
        }
        if self.misere {
            v.set("play", "misere");
        }
        if self.compulsory {
            v.set("capture", "compulsory");
        }
        v
    }
}

#[cfg(test)]
mod tests;
