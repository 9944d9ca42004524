//! How a position is shown: the terminal board and the browser's view model.

use crate::board::Position;
use crate::notation::LETTERS;
use crate::rules::SEATS;
use crate::{ConnectFour, Move};
use tabula_core::{
    ClickTarget, Game, Layout, Mark, Outcome, Presentation, Shape, Turn, View, ViewCell, ViewPiece,
};

impl ConnectFour {
    /// "four in a row", "three in a row".
    pub(crate) fn line_words(&self) -> &'static str {
        if self.geometry().connect() == 3 {
            "three in a row"
        } else {
            "four in a row"
        }
    }

    /// The cells of the line that ended the game (none while it goes on).
    fn winning_cells(&self, s: &Position) -> u64 {
        let g = self.geometry();
        match self.turn(s) {
            Turn::Over(Outcome::Win(winner)) => {
                let liner = if self.is_misere() { 1 - winner } else { winner };
                g.line_cells(s.discs(liner))
            }
            _ => 0,
        }
    }

    /// One line on the state of play, for a player.
    fn status_line(&self, s: &Position) -> String {
        match self.turn(s) {
            Turn::Move(seat) => format!("{} to move", SEATS[seat]),
            Turn::Over(Outcome::Win(winner)) if self.is_misere() => format!(
                "{} wins: {} made {}",
                SEATS[winner],
                SEATS[1 - winner],
                self.line_words()
            ),
            Turn::Over(Outcome::Win(winner)) => {
                format!("{} wins with {}", SEATS[winner], self.line_words())
            }
            Turn::Over(_) if self.is_popout() => {
                "a draw: the board is full and the side to move has no disc to take out".into()
            }
            Turn::Over(_) => "a draw: the board is full".into(),
            Turn::Chance => String::new(),
        }
    }

    /// The id of cell `(column, row)` in the view: numbered row by row from the
    /// top left, from 1.
    fn cell_id(&self, column: u8, row: u8) -> u32 {
        self.geometry().cell_number(column, row) + 1
    }
}

impl Presentation for ConnectFour {
    /// Column numbers above the board, one character a cell (`R`, `Y`, `.`),
    /// the discs of a finished line in small letters, and the state of play:
    /// at most 15 columns wide.
    fn render_text(&self, s: &Position) -> String {
        let g = self.geometry();
        let won = self.winning_cells(s);
        let numbers: Vec<String> = (1..=g.width()).map(|c| c.to_string()).collect();
        let mut out = format!(" {}\n", numbers.join(" "));
        for row in (0..g.height()).rev() {
            let cells: Vec<String> = (0..g.width())
                .map(|c| match s.at(g, c, row) {
                    None => ".".to_string(),
                    Some(seat) if won & g.bit(c, row) != 0 => {
                        LETTERS[seat].to_ascii_lowercase().to_string()
                    }
                    Some(seat) => LETTERS[seat].to_string(),
                })
                .collect();
            out.push_str(&format!("|{}|\n", cells.join(" ")));
        }
        out.push_str(&format!(
            "+{}+\n",
            "-".repeat(usize::from(g.width()) * 2 - 1)
        ));
        out.push_str(&self.status_line(s));
        if won != 0 {
            out.push_str(" (in small letters)");
        }
        out.push('\n');
        out
    }

    /// A grid of square cells, one a place, row by row from the top; the column
    /// numbers in the corners of the top row. Every cell's click target is its
    /// column, so a click anywhere in a column plays there (in Pop Out a click on
    /// the bottom cell, where a pop starts, takes the disc out); once the game is
    /// won, the cells of the line are marked [`Mark::Win`].
    fn view(&self, s: &Position) -> View {
        let g = self.geometry();
        let won = self.winning_cells(s);
        let mut cells = Vec::with_capacity(g.cells() as usize);
        let mut pieces = Vec::new();
        for row in (0..g.height()).rev() {
            for c in 0..g.width() {
                let id = self.cell_id(c, row);
                // Square slots: a disc is drawn inside its slot, so the frame of a
                // marked slot (the winning line) stays visible around it.
                cells.push(ViewCell {
                    id,
                    x: f64::from(c),
                    y: f64::from(g.height() - 1 - row),
                    w: 1.0,
                    h: 1.0,
                    shape: Shape::Rect,
                    label: (row == g.height() - 1).then(|| (c + 1).to_string()),
                    mark: (won & g.bit(c, row) != 0).then_some(Mark::Win),
                    target: ClickTarget::Column {
                        column: u32::from(c),
                    },
                    ..ViewCell::default()
                });
                if let Some(seat) = s.at(g, c, row) {
                    pieces.push(ViewPiece {
                        cell: id,
                        owner: Some(seat),
                        label: None,
                    });
                }
            }
        }
        View {
            width: f64::from(g.width()),
            height: f64::from(g.height()),
            layout: Layout::Grid {
                columns: u32::from(g.width()),
                rows: u32::from(g.height()),
            },
            cells,
            pieces,
            status: vec![self.status_line(s)],
            ..View::default()
        }
    }

    /// A drop touches the cell the disc lands on; a pop the bottom cell.
    fn move_cells(&self, s: &Position, mv: Move) -> Vec<u32> {
        let g = self.geometry();
        let c = mv.column();
        if c >= g.width() {
            return Vec::new();
        }
        let row = match mv {
            Move::Drop(_) => g.column_height(s.occupied(), c).min(g.height() - 1),
            Move::Pop(_) => 0,
        };
        vec![self.cell_id(c, row)]
    }

    fn describe_move(&self, _s: &Position, mv: Move) -> String {
        match mv {
            Move::Drop(c) => format!("column {}", c + 1),
            Move::Pop(c) => format!("takes out the bottom disc of column {}", c + 1),
        }
    }
}
