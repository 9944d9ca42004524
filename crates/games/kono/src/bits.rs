//! The 4x4 board as 16-bit masks: bit `row * 4 + col`, row 0 at the top.
//!
//! Everything that generates moves works on a pair of masks (the mover's pieces,
//! the opponent's pieces), so the same code serves the game, the solver and the
//! reachability pass.

/// All 16 cells.
pub const FULL: u32 = 0xFFFF;
const COL0: u32 = 0x1111;
const COL3: u32 = 0x8888;

/// The four orthogonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards row 3.
    Down,
    /// Towards column a.
    Left,
    /// Towards column d.
    Right,
}

/// The directions, in the order moves are generated.
pub const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

impl Dir {
    /// Moves every bit of `m` one cell in this direction, dropping bits that leave the board.
    #[inline(always)]
    pub fn shift(self, m: u32) -> u32 {
        match self {
            Dir::Up => m >> 4,
            Dir::Down => (m << 4) & FULL,
            Dir::Left => (m >> 1) & !COL3,
            Dir::Right => (m << 1) & !COL0 & FULL,
        }
    }

    /// The change of cell index for one step in this direction.
    #[inline(always)]
    pub fn offset(self) -> i32 {
        match self {
            Dir::Up => -4,
            Dir::Down => 4,
            Dir::Left => -1,
            Dir::Right => 1,
        }
    }
}

/// Iterates over the set bits of a mask, lowest first.
#[inline(always)]
pub fn bits(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros();
            m &= m - 1;
            Some(b)
        }
    })
}

/// Cells a piece of `mover` can capture onto in direction `d`: a friendly piece
/// next to it and an enemy piece just beyond.
#[inline(always)]
pub fn capture_targets(d: Dir, mover: u32, opponent: u32) -> u32 {
    d.shift(d.shift(mover) & mover) & opponent
}

/// True if `mover` has a capture.
#[inline(always)]
pub fn has_capture(mover: u32, opponent: u32) -> bool {
    DIRS.iter()
        .any(|&d| capture_targets(d, mover, opponent) != 0)
}

/// Number of step moves of `mover` (to an adjacent empty cell).
#[inline(always)]
pub fn step_count(mover: u32, opponent: u32) -> u32 {
    let empty = !(mover | opponent) & FULL;
    DIRS.iter()
        .map(|&d| (d.shift(mover) & empty).count_ones())
        .sum()
}

/// True if `mover` has a step move.
#[inline(always)]
pub fn has_step(mover: u32, opponent: u32) -> bool {
    let empty = !(mover | opponent) & FULL;
    DIRS.iter().any(|&d| d.shift(mover) & empty != 0)
}

/// Mirror left-right (columns a<->d, b<->c).
pub fn mirror(m: u32) -> u32 {
    let mut out = 0;
    for b in bits(m) {
        let (r, c) = (b / 4, b % 4);
        out |= 1 << (r * 4 + 3 - c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_drop_bits_at_the_edges() {
        // Cell 3 is d4 (top right): right of it is off the board.
        assert_eq!(Dir::Right.shift(1 << 3), 0);
        assert_eq!(Dir::Left.shift(1 << 4), 0);
        assert_eq!(Dir::Up.shift(1 << 2), 0);
        assert_eq!(Dir::Down.shift(1 << 13), 0);
        assert_eq!(Dir::Right.shift(1 << 5), 1 << 6);
        assert_eq!(Dir::Down.shift(1 << 5), 1 << 9);
        for d in DIRS {
            for cell in 0..16u32 {
                let moved = d.shift(1 << cell);
                if moved != 0 {
                    assert_eq!(moved.trailing_zeros() as i32, cell as i32 + d.offset());
                }
            }
        }
    }

    #[test]
    fn full_board_has_only_captures() {
        let top = 0x00FF;
        let bottom = 0xFF00;
        assert_eq!(step_count(top, bottom), 0);
        // Row 0 jumps over row 1 onto row 2: four captures, all downwards.
        assert_eq!(capture_targets(Dir::Down, top, bottom), 0x0F00);
        assert_eq!(capture_targets(Dir::Left, top, bottom), 0);
        assert!(has_capture(bottom, top));
    }

    #[test]
    fn mirror_is_an_involution() {
        for m in [0u32, 1, 0x1234, 0xFFFF, 0x8421] {
            assert_eq!(mirror(mirror(m)), m);
            assert_eq!(mirror(m).count_ones(), m.count_ones());
        }
        assert_eq!(mirror(1), 8);
    }
}
