//! The standard test set of the SameGame literature: the 20 boards of Schadd et al.
//! (2008), 15 x 15 with 5 colours, on which SP-MCTS, nested Monte-Carlo search and
//! NRPA report their totals. The data file is `tests/data/standard_boards.txt`.

use crate::board::Board;

/// The data file: colours 0-4, top row first, boards separated by blank lines.
pub const STANDARD_BOARDS_TEXT: &str = include_str!("../tests/data/standard_boards.txt");

/// Reads boards in the literature's format: rows of colours `0`-`8` separated by
/// spaces, top row first, boards separated by blank lines, `#` comment lines.
/// Colour `c` becomes Tabula's colour `c + 1`.
pub fn parse_literature_boards(text: &str) -> Result<Vec<Board>, String> {
    let mut boards = Vec::new();
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let mut finish = |rows: &mut Vec<Vec<u8>>| -> Result<(), String> {
        if !rows.is_empty() {
            let board = Board::from_rows(rows, 0)
                .map_err(|e| format!("board {}: {e:?}", boards.len() + 1))?;
            boards.push(board);
            rows.clear();
        }
        Ok(())
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            finish(&mut rows)?;
            continue;
        }
        let row = line
            .split_whitespace()
            .map(|t| match t.parse::<u8>() {
                Ok(c) if c < 9 => Ok(c + 1),
                _ => Err(format!("line {}: '{t}' is not a colour 0-8", n + 1)),
            })
            .collect::<Result<Vec<u8>, String>>()?;
        rows.push(row);
    }
    finish(&mut rows)?;
    Ok(boards)
}

/// The 20 standard boards, board 1 first.
pub fn standard_boards() -> Vec<Board> {
    parse_literature_boards(STANDARD_BOARDS_TEXT).expect("the standard boards parse")
}

/// Published totals on the 20 standard boards (see `crates/games/samegame/docs/samegame.md`).
pub const PUBLISHED_TOTALS: [(&str, i64); 5] = [
    ("SP-MCTS (Schadd et al. 2008)", 73_998),
    ("Nested Monte-Carlo search, level 3 (Cazenave 2009)", 77_934),
    ("Parallel SP-MCTS (Schadd et al. 2012)", 78_012),
    ("NRPA with selective policies (Cazenave 2016)", 80_030),
    ("Distributed NRPA (Negrevergne and Cazenave 2017)", 83_050),
];
