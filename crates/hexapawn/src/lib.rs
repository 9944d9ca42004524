//! Hexapawn, Martin Gardner's 1962 game for his matchbox learning machine (seed 004).
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
//! Moves are typed as in the seed: the from square, a space, the to square (`7 4`).
//! Position text: the rows from the top (`B`, `W` or `.`), joined by `/`, a space and
//! the side to move (`W` or `B`): the start is `BBB/.../WWW W`.

use std::collections::HashSet;
use std::sync::OnceLock;
use tabula_core::{
    Game, GameExt, Outcome, ParseError, Registered, Seat, Turn, Variant, VariantError,
    VariantOption, View, ViewCell, ViewPiece,
};

/// Seat of White (moves first, starts on 7 8 9).
pub const WHITE: Seat = 0;
/// Seat of Black (starts on 1 2 3).
pub const BLACK: Seat = 1;

const TOP_ROW: u16 = 0b000_000_111;
const BOTTOM_ROW: u16 = 0b111_000_000;
/// Squares in the left and right columns: pawns there cannot capture outwards.
const LEFT_COLUMN: u16 = 0b001_001_001;
const RIGHT_COLUMN: u16 = 0b100_100_100;

/// A position: each side's pawns as a mask (bit `n - 1` is square `n`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pawns {
    white: u16,
    black: u16,
    to_move: u8,
}

impl Pawns {
    /// White's pawns as a mask.
    pub fn white_mask(self) -> u16 {
        self.white
    }
    /// Black's pawns as a mask.
    pub fn black_mask(self) -> u16 {
        self.black
    }
    /// The side to move (or that would move, once the game is over).
    pub fn side_to_move(self) -> Seat {
        usize::from(self.to_move)
    }
    /// The pawn on square index `i` (0-8): `Some(WHITE)` or `Some(BLACK)`.
    pub fn at(self, i: u8) -> Option<Seat> {
        let bit = 1u16 << i;
        if self.white & bit != 0 {
            Some(WHITE)
        } else if self.black & bit != 0 {
            Some(BLACK)
        } else {
            None
        }
    }

    /// Target masks of the side to move: (forward steps, captures towards the left
    /// column, captures towards the right column), each as the squares moved to.
    fn targets(self) -> (u16, u16, u16) {
        let empty = !(self.white | self.black) & 0x1FF;
        if self.to_move == WHITE as u8 {
            let w = self.white;
            (
                (w >> 3) & empty,
                ((w & !LEFT_COLUMN) >> 4) & self.black,
                ((w & !RIGHT_COLUMN) >> 2) & self.black,
            )
        } else {
            let b = self.black;
            (
                (b << 3) & empty & 0x1FF,
                ((b & !LEFT_COLUMN) << 2) & self.white & 0x1FF,
                ((b & !RIGHT_COLUMN) << 4) & self.white & 0x1FF,
            )
        }
    }

    /// The winner, if the game is over.
    fn winner(self) -> Option<Seat> {
        if self.white & TOP_ROW != 0 || self.black == 0 {
            return Some(WHITE);
        }
        if self.black & BOTTOM_ROW != 0 || self.white == 0 {
            return Some(BLACK);
        }
        let (forward, left, right) = self.targets();
        if forward | left | right == 0 {
            return Some(1 - self.side_to_move());
        }
        None
    }
}

/// A move: a pawn from square index `from` to `to` (0-8; written as numbers 1-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// Square index the pawn leaves.
    pub from: u8,
    /// Square index it goes to.
    pub to: u8,
}

/// Hexapawn. It has no variant options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hexapawn;

const SEATS: [&str; 2] = ["White", "Black"];
const LETTERS: [char; 2] = ['W', 'B'];

/// Every position reachable from the start (a few hundred), for validating text.
fn reachable() -> &'static HashSet<Pawns> {
    static SET: OnceLock<HashSet<Pawns>> = OnceLock::new();
    SET.get_or_init(|| {
        let g = Hexapawn;
        let mut seen = HashSet::from([g.initial_state()]);
        let mut stack = vec![g.initial_state()];
        while let Some(s) = stack.pop() {
            for mv in g.moves(&s) {
                let mut t = s;
                g.play_unchecked(&mut t, mv);
                if seen.insert(t) {
                    stack.push(t);
                }
            }
        }
        seen
    })
}

impl Hexapawn {
    /// Number of positions reachable from the start, terminal ones included.
    pub fn reachable_count() -> usize {
        reachable().len()
    }
}

fn mirror_index(i: u8) -> u8 {
    i - i % 3 + (2 - i % 3)
}

fn mirror_mask(mask: u16) -> u16 {
    let col = |m: u16, c: u16| m & (LEFT_COLUMN << c);
    (col(mask, 0) << 2) | col(mask, 1) | (col(mask, 2) >> 2)
}

impl Game for Hexapawn {
    type State = Pawns;
    type Move = Step;

    fn name(&self) -> &'static str {
        "hexapawn"
    }

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> Pawns {
        Pawns {
            white: BOTTOM_ROW,
            black: TOP_ROW,
            to_move: WHITE as u8,
        }
    }

    fn turn(&self, s: &Pawns) -> Turn {
        match s.winner() {
            Some(w) => Turn::Over(Outcome::Win(w)),
            None => Turn::Move(s.side_to_move()),
        }
    }

    fn legal_moves(&self, s: &Pawns, out: &mut Vec<Step>) {
        if s.white & TOP_ROW != 0 || s.black & BOTTOM_ROW != 0 || s.white == 0 || s.black == 0 {
            return;
        }
        let (forward, left, right) = s.targets();
        // Offsets from the target back to the pawn that moves there.
        let back: [i8; 3] = if s.to_move == WHITE as u8 {
            [3, 4, 2]
        } else {
            [-3, -2, -4]
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
        let (from, to) = (1u16 << (mv.from % 9), 1u16 << (mv.to % 9));
        if s.to_move == WHITE as u8 {
            s.white = (s.white & !from) | to;
            s.black &= !to;
        } else {
            s.black = (s.black & !from) | to;
            s.white &= !to;
        }
        s.to_move ^= 1;
    }

    fn parse_move(&self, s: &Pawns, text: &str) -> Result<Step, ParseError> {
        let digits: Vec<u32> = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | 'x' | 'X'))
            .map(|c| c.to_digit(10).filter(|d| (1..=9).contains(d)).ok_or(c))
            .collect::<Result<_, _>>()
            .map_err(|c| {
                ParseError::new(format!(
                    "unexpected '{c}': type a move as 'from to', like 7 4"
                ))
            })?;
        let [from, to] = digits[..] else {
            return Err(ParseError::new(
                "type a move as two squares 1-9, 'from to', like 7 4",
            ));
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
        let mut parts = text.split_whitespace();
        let (Some(rows), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new(
                "expected three rows joined by '/' and the side to move, like 'BBB/.../WWW W'",
            ));
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 3 {
            return Err(ParseError::new(format!(
                "expected 3 rows separated by '/', found {}",
                rows.len()
            )));
        }
        let (mut white, mut black) = (0u16, 0u16);
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
        if !reachable().contains(&state) {
            return Err(ParseError::new(format!(
                "'{}' cannot arise in a game from the start (pawns only move forward, \
                 White moves first, play stops when someone has won)",
                self.format_position(&state)
            )));
        }
        Ok(state)
    }

    fn format_position(&self, s: &Pawns) -> String {
        let mut text = String::with_capacity(13);
        for i in 0..9u8 {
            if i > 0 && i % 3 == 0 {
                text.push('/');
            }
            text.push(s.at(i).map_or('.', |seat| LETTERS[seat]));
        }
        text.push(' ');
        text.push(LETTERS[s.side_to_move()]);
        text
    }

    fn render_text(&self, s: &Pawns) -> String {
        let mut out = String::from("  (Black)\n");
        for r in 0..3u8 {
            let pieces: Vec<String> = (0..3)
                .map(|c| {
                    s.at(r * 3 + c)
                        .map_or('.', |seat| LETTERS[seat])
                        .to_string()
                })
                .collect();
            let numbers: Vec<String> = (0..3).map(|c| (r * 3 + c + 1).to_string()).collect();
            out.push_str(&format!(
                "  {}    {}\n",
                pieces.join(" "),
                numbers.join(" ")
            ));
        }
        out.push_str("  (White)\n");
        out.push_str(&status_line(self.turn(s)));
        out.push('\n');
        out
    }

    fn view(&self, s: &Pawns) -> View {
        let cells = (0..9u8)
            .map(|i| ViewCell {
                id: u32::from(i) + 1,
                x: f64::from(i % 3),
                y: f64::from(i / 3),
                w: 1.0,
                h: 1.0,
                label: Some((i + 1).to_string()),
                mark: ((i / 3 + i % 3) % 2 == 1).then(|| "dark".to_string()),
                ..ViewCell::default()
            })
            .collect();
        let pieces = (0..9u8)
            .filter_map(|i| {
                s.at(i).map(|seat| ViewPiece {
                    cell: u32::from(i) + 1,
                    owner: Some(seat),
                    label: Some(LETTERS[seat].to_string()),
                })
            })
            .collect();
        View {
            width: 3.0,
            height: 3.0,
            cells,
            edges: Vec::new(),
            pieces,
            status: vec![status_line(self.turn(s))],
        }
    }

    fn move_cells(&self, _s: &Pawns, mv: Step) -> Vec<u32> {
        vec![u32::from(mv.from) + 1, u32::from(mv.to) + 1]
    }

    fn is_small(&self) -> bool {
        true
    }

    fn symmetry_count(&self) -> usize {
        2
    }

    fn map_state(&self, s: &Pawns, k: usize) -> Pawns {
        if k & 1 == 0 {
            *s
        } else {
            Pawns {
                white: mirror_mask(s.white),
                black: mirror_mask(s.black),
                to_move: s.to_move,
            }
        }
    }

    fn map_move(&self, _s: &Pawns, mv: Step, k: usize) -> Step {
        if k & 1 == 0 {
            mv
        } else {
            Step {
                from: mirror_index(mv.from % 9),
                to: mirror_index(mv.to % 9),
            }
        }
    }

    /// Material and how far the pawns have come, from `seat`'s side.
    fn evaluate(&self, s: &Pawns, seat: Seat) -> f64 {
        if let Some(w) = s.winner() {
            return if w == seat { 1.0 } else { -1.0 };
        }
        // Rows advanced: White counts rows up from the bottom, Black rows down from the top.
        let progress = |mask: u16, forward_rows: [u16; 3]| -> f64 {
            forward_rows
                .iter()
                .enumerate()
                .map(|(steps, &row)| (mask & row).count_ones() as f64 * (2.0 + steps as f64))
                .sum()
        };
        let white = progress(s.white, [BOTTOM_ROW, BOTTOM_ROW >> 3, TOP_ROW]);
        let black = progress(s.black, [TOP_ROW, TOP_ROW << 3, BOTTOM_ROW]);
        let diff = (white - black) / 12.0;
        let v = if seat == WHITE { diff } else { -diff };
        v.clamp(-0.95, 0.95)
    }
}

fn status_line(turn: Turn) -> String {
    match turn {
        Turn::Move(seat) => format!("{} to move", SEATS[seat]),
        Turn::Over(Outcome::Win(seat)) => format!("{} wins", SEATS[seat]),
        Turn::Over(_) => String::new(),
        Turn::Chance => String::new(),
    }
}

impl Registered for Hexapawn {
    const NAME: &'static str = "hexapawn";
    const TITLE: &'static str = "Hexapawn";
    const SUMMARY: &'static str =
        "Martin Gardner's three-pawn chess on a 3x3 board, made to teach a matchbox machine.";

    fn options() -> Vec<VariantOption> {
        Vec::new()
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        Ok(Hexapawn)
    }

    fn variant(&self) -> Variant {
        Variant::default()
    }
}

#[cfg(test)]
mod tests;
