//! Rules checked against an independent, deliberately naive implementation that
//! follows the tutorial's own algorithm (recursive DeleteBlocks, then CompactBoard:
//! first everything down, then empty columns moved left), on a row-major grid.

use proptest::prelude::*;
use rand::Rng as _;
use tabula_core::{Game, MoveError, Outcome, Registered, Turn, Variant};
use tabula_core::{Notation, Presentation};
use tabula_samegame::{parse_board, Board, Click, SameGame, Scoring};

/// The tutorial's board: `grid[row][col]`, row 0 at the top, 0 = background.
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    grid: Vec<Vec<u8>>,
    score: i64,
}

// Index loops on purpose: this mirrors the tutorial's C++.
#[allow(clippy::needless_range_loop)]
impl Reference {
    fn rows(&self) -> usize {
        self.grid.len()
    }
    fn cols(&self) -> usize {
        self.grid[0].len()
    }

    fn delete_neighbours(&mut self, row: isize, col: isize, colour: u8) -> usize {
        if row < 0 || col < 0 || row as usize >= self.rows() || col as usize >= self.cols() {
            return 0;
        }
        if self.grid[row as usize][col as usize] != colour {
            return 0;
        }
        self.grid[row as usize][col as usize] = 0;
        1 + self.delete_neighbours(row - 1, col, colour)
            + self.delete_neighbours(row + 1, col, colour)
            + self.delete_neighbours(row, col - 1, colour)
            + self.delete_neighbours(row, col + 1, colour)
    }

    /// The tutorial's DeleteBlocks: -1 when nothing can be deleted.
    fn delete_blocks(&mut self, row: usize, col: usize) -> isize {
        let colour = self.grid[row][col];
        if colour == 0 {
            return -1;
        }
        let (r, c) = (row as isize, col as isize);
        let same = |rr: isize, cc: isize| {
            rr >= 0
                && cc >= 0
                && (rr as usize) < self.rows()
                && (cc as usize) < self.cols()
                && self.grid[rr as usize][cc as usize] == colour
        };
        if !(same(r - 1, c) || same(r + 1, c) || same(r, c - 1) || same(r, c + 1)) {
            return -1;
        }
        let n = self.delete_neighbours(r, c, colour);
        self.compact();
        n as isize
    }

    fn compact(&mut self) {
        let (rows, cols) = (self.rows(), self.cols());
        for c in 0..cols {
            let column: Vec<u8> = (0..rows)
                .rev()
                .map(|r| self.grid[r][c])
                .filter(|&v| v != 0)
                .collect();
            for r in 0..rows {
                let from_bottom = rows - 1 - r;
                self.grid[r][c] = column.get(from_bottom).copied().unwrap_or(0);
            }
        }
        let kept: Vec<usize> = (0..cols).filter(|&c| self.grid[rows - 1][c] != 0).collect();
        let old = self.grid.clone();
        for r in 0..rows {
            for c in 0..cols {
                self.grid[r][c] = kept.get(c).map_or(0, |&k| old[r][k]);
            }
        }
    }

    /// The tutorial's IsGameOver.
    fn is_game_over(&self) -> bool {
        for c in 0..self.cols() {
            for r in (0..self.rows()).rev() {
                let v = self.grid[r][c];
                if v == 0 {
                    break;
                }
                if (r > 0 && self.grid[r - 1][c] == v)
                    || (c + 1 < self.cols() && self.grid[r][c + 1] == v)
                {
                    return false;
                }
            }
        }
        true
    }
}

fn reference(board: &Board) -> Reference {
    Reference {
        grid: board.rows(),
        score: board.score(),
    }
}

fn game(variant: &str) -> SameGame {
    SameGame::from_variant(&Variant::parse(variant).unwrap()).unwrap()
}

/// Random games: every click is a random block (legal or not); the two
/// implementations must agree on what happens, and the invariants must hold.
fn random_game(g: &SameGame, seed: u64) {
    let mut state = g.initial_state();
    let mut naive = reference(&state);
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..400 {
        assert_eq!(g.turn(&state).is_over(), naive.is_game_over());
        if naive.is_game_over() {
            break;
        }
        let (r, c) = (
            rng.gen_range(0..state.height()),
            rng.gen_range(0..state.width()),
        );
        let click = Click {
            row: r as u8,
            col: c as u8,
        };
        let before_blocks = state.blocks_left();
        let deleted = naive.delete_blocks(r, c);
        let result = g.try_play(&mut state, click);
        if deleted < 0 {
            assert!(
                matches!(result, Err(MoveError::Illegal { .. })),
                "{r} {c}: {result:?}"
            );
            assert!(g.parse_move(&state, &format!("{r} {c}")).is_err());
            continue;
        }
        result.unwrap();
        let n = deleted as usize;
        naive.score += g.scoring.group(n)
            + if naive.grid.iter().flatten().all(|&v| v == 0) {
                g.scoring.clear_bonus()
            } else {
                0
            };
        assert_eq!(state.rows(), naive.grid, "after clicking {r} {c}");
        assert_eq!(state.score(), naive.score);
        assert_eq!(state.blocks_left(), before_blocks - n);
        // Gravity and closed-up columns: the text form is re-read, and reading
        // refuses floating blocks and gaps between columns.
        let text = g.format_position(&state);
        assert_eq!(g.parse_position(&text).unwrap(), state);
        // Every legal move round-trips through its notation.
        moves.clear();
        g.legal_moves(&state, &mut moves);
        for &m in &moves {
            assert_eq!(g.parse_move(&state, &g.format_move(&state, m)).unwrap(), m);
        }
    }
}

#[test]
fn agrees_with_the_seed_algorithm_on_random_games() {
    for seed in 0..20 {
        random_game(&game(&format!("size=8x6,colours=3,seed={seed}")), seed);
        random_game(
            &game(&format!("size=5x9,colours=2,seed={seed},scoring=blocks")),
            seed + 100,
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_agree(w in 1usize..12, h in 1usize..12, colours in 2u8..6, seed in 0u64..1_000_000) {
        random_game(&game(&format!("size={w}x{h},colours={colours},seed={seed}")), seed);
    }

    /// Random playouts through legal_moves: each legal move is accepted by
    /// try_play, removes at least two blocks, and every block of the group, typed,
    /// is read as that cell and removes the same group.
    #[test]
    fn legal_playouts(w in 2usize..16, h in 2usize..16, colours in 2u8..7, seed in 0u64..1_000_000) {
        let g = game(&format!("size={w}x{h},colours={colours},seed={seed}"));
        let mut state = g.initial_state();
        let mut rng = tabula_core::rng_from_seed(seed);
        let mut moves = Vec::new();
        loop {
            moves.clear();
            g.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                prop_assert!(g.turn(&state).is_over());
                break;
            }
            prop_assert_eq!(g.turn(&state), Turn::Move(0));
            let m = moves[rng.gen_range(0..moves.len())];
            let view = g.view(&state);
            let id = m.row as u32 * state.width() as u32 + m.col as u32;
            let target = tabula_core::ClickTarget::Group { group: id };
            let mut group_cells = 0;
            for cell in view.cells.iter().filter(|c| c.target == target) {
                let (r, c) = (cell.id as usize / state.width(), cell.id as usize % state.width());
                let typed = g.parse_move(&state, &format!("{r} {c}")).unwrap();
                prop_assert_eq!(typed, Click { row: r as u8, col: c as u8 });
                let (mut a, mut b) = (state.clone(), state.clone());
                g.try_play(&mut a, typed).unwrap();
                g.try_play(&mut b, m).unwrap();
                prop_assert_eq!(a, b);
                group_cells += 1;
            }
            prop_assert!(group_cells >= 2);
            prop_assert_eq!(g.move_cells(&state, m), vec![id]);
            let before = state.blocks_left();
            g.try_play(&mut state, m).unwrap();
            prop_assert_eq!(before - state.blocks_left(), group_cells);
        }
        let outcome = match g.turn(&state) { Turn::Over(o) => o, t => panic!("{t:?}") };
        prop_assert_eq!(outcome == Outcome::Win(0), state.is_cleared());
        prop_assert_eq!(g.score(&state), Some(state.score()));
    }

    /// Any text either parses to a board that writes back to itself or is refused.
    #[test]
    fn position_text_round_trips_or_is_refused(text in "[0-9./a \\n]{0,40}( score=[0-9]{1,3})?") {
        let g = SameGame::default();
        if let Ok(b) = g.parse_position(&text) {
            let again = g.parse_position(&g.format_position(&b)).unwrap();
            prop_assert_eq!(again, b);
        }
    }

    #[test]
    fn move_text_never_panics(text in "\\PC{0,12}") {
        let g = SameGame::default();
        let _ = g.parse_move(&g.initial_state(), &text);
    }
}

#[test]
fn game_over_outcomes() {
    let g = SameGame::default();
    let cleared = g.parse_position("11 score=1000").unwrap();
    let mut s = g.parse_position("11/22").unwrap();
    assert_eq!(g.turn(&s), Turn::Move(0));
    let m = g.parse_move(&s, "1 1").unwrap();
    assert_eq!(m, Click { row: 1, col: 1 });
    g.try_play(&mut s, m).unwrap();
    let m = g.parse_move(&s, "1 0").unwrap();
    g.try_play(&mut s, m).unwrap();
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    assert_eq!(s.score(), 1000);
    assert_eq!(g.turn(&cleared), Turn::Move(0));
    let stuck = g.parse_position("12/21").unwrap();
    assert_eq!(g.turn(&stuck), Turn::Over(Outcome::Ended));
    let mut over = stuck.clone();
    assert_eq!(
        g.try_play(&mut over, Click { row: 0, col: 0 }),
        Err(MoveError::GameOver)
    );
}

#[test]
fn move_notation() {
    let g = SameGame::default();
    let s = g.parse_position("1.2/1112").unwrap_err();
    assert!(
        s.message.contains("row 1") && s.message.contains("4 cells"),
        "{}",
        s.message
    );
    let s = g.parse_position("12.\n112\n312").unwrap();
    // The 1s form one group whose canonical block is the bottom of column 0? No:
    // column 0 holds 1 (top), 1, 3 (bottom), so the lowest 1 of column 0 is row 1.
    // A typed cell is kept as typed (the log shows it); every cell of the group
    // removes the same group.
    let m = g.parse_move(&s, "1,0").unwrap();
    assert_eq!(m, Click { row: 1, col: 0 });
    assert_eq!(g.format_move(&s, m), "1 0");
    let mut after = s.clone();
    g.try_play(&mut after, m).unwrap();
    for typed in ["0 0", "(1, 1)", "1,0"] {
        let t = g.parse_move(&s, typed).unwrap();
        let mut other = s.clone();
        g.try_play(&mut other, t).unwrap();
        assert_eq!(other, after, "{typed}");
    }
    assert_eq!(
        g.parse_move(&s, "(1, 1)").unwrap(),
        Click { row: 1, col: 1 }
    );
    assert!(g
        .parse_move(&s, "2 0")
        .unwrap_err()
        .message
        .contains("no neighbour"));
    assert!(g
        .parse_move(&s, "0 2")
        .unwrap_err()
        .message
        .contains("empty"));
    assert!(g
        .parse_move(&s, "3 0")
        .unwrap_err()
        .message
        .contains("off the board"));
    assert!(g.parse_move(&s, "a b").is_err());
    assert!(g.parse_move(&s, "1").is_err());
    assert!(
        g.describe_move(&s, m).contains("4 blocks of colour 1 (+4)"),
        "{}",
        g.describe_move(&s, m)
    );
}

#[test]
fn the_clearing_bonus_is_said_apart_from_the_groups_points() {
    // Two 2s left: the group is worth (2-2)^2 = 0, clearing the board 1000.
    let g = SameGame::default();
    let s = g.parse_position("22").unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves);
    let text = g.describe_move(&s, moves[0]);
    assert!(
        text.ends_with("2 blocks of colour 2 (+0, and +1000 for clearing the board)"),
        "{text}"
    );
    // Without the bonus, nothing is added.
    let g = SameGame::from_variant(&Variant::parse("scoring=nobonus").unwrap()).unwrap();
    let text = g.describe_move(&s, moves[0]);
    assert!(text.ends_with("(+0)"), "{text}");
}

#[test]
fn variants() {
    let g = SameGame::default();
    assert_eq!(
        (g.width, g.height, g.colours, g.scoring),
        (15, 15, 3, Scoring::Standard)
    );
    let s = g.initial_state();
    assert_eq!((s.width(), s.height(), s.blocks_left()), (15, 15, 225));
    let big = game("size=40x40,colours=9,seed=5,scoring=nobonus");
    assert_eq!(big.initial_state().blocks_left(), 1600);
    assert_eq!(SameGame::from_variant(&big.variant()).unwrap(), big);
    for bad in [
        "colours=1",
        "colours=10",
        "size=0x3",
        "size=101x5",
        "scoring=fancy",
        "seed=-1",
        "shape=round",
    ] {
        assert!(
            SameGame::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
    // Different seeds, different boards; the same seed, the same board.
    assert_ne!(
        game("seed=2").initial_state(),
        game("seed=3").initial_state()
    );
    assert_eq!(
        game("seed=2").initial_state(),
        game("seed=2").initial_state()
    );
}

#[test]
fn view_and_status() {
    let g = SameGame::default();
    let s = g.parse_position("1../223").unwrap();
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 6);
    use tabula_core::{ClickTarget, PanelFacts};
    let targets: Vec<ClickTarget> = v.cells.iter().map(|c| c.target).collect();
    // Cell ids are row * width + column; the 2s' canonical block is row 1 column 0
    // (id 3): a click on either 2 is that group's move; lone blocks and empty
    // places are cells of their own.
    let group = ClickTarget::Group { group: 3 };
    assert_eq!(
        targets,
        vec![
            ClickTarget::Cell,
            ClickTarget::Cell,
            ClickTarget::Cell,
            group,
            group,
            ClickTarget::Cell
        ]
    );
    assert_eq!(v.panels, vec![PanelFacts::Score { score: 0, left: 4 }]);
    assert_eq!(v.cells[4].colour, Some(2));
    assert_eq!(v.cells[1].colour, None);
    // One line, so that the terminal's first screen fits 24 rows.
    assert!(v.status.contains(&"score 0 · blocks left 4".to_string()));
    let text = g.render_text(&s);
    assert!(text.contains("blocks left 4"), "{text}");
    assert_eq!(parse_board("1../223").unwrap(), s);
}
