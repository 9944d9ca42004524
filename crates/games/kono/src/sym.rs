//! The eight symmetries of the 4x4 board, on masks.
//!
//! Kono's rules only speak of orthogonal neighbours, and the table keys a
//! position by (mover, opponent) — not by which seat is which — so all eight
//! rotations and reflections of the square keep a position's value. The solver
//! works on one representative per class (the least packed code among the
//! images). Which seat started where is not symmetric under most of them, so
//! reachability uses only the left-right mirror ([`MIRROR`]), which keeps each
//! side on its own half.

use std::sync::LazyLock;

/// Index of the left-right mirror among the symmetries.
pub const MIRROR: usize = 1;

/// Tables mapping each byte of a mask to its image, per symmetry.
pub struct Symmetry {
    tables: [[[u16; 256]; 2]; 8],
}

/// The tables.
pub static SYM: LazyLock<Symmetry> = LazyLock::new(Symmetry::build);

/// Where cell (row, col) goes under symmetry `g`.
fn image(g: usize, r: usize, c: usize) -> (usize, usize) {
    match g {
        0 => (r, c),
        1 => (r, 3 - c),     // mirror left-right
        2 => (3 - r, c),     // mirror top-bottom
        3 => (3 - r, 3 - c), // half turn
        4 => (c, r),         // transpose
        5 => (c, 3 - r),     // quarter turn
        6 => (3 - c, r),     // three-quarter turn
        _ => (3 - c, 3 - r), // anti-transpose
    }
}

impl Symmetry {
    fn build() -> Symmetry {
        let mut tables = [[[0u16; 256]; 2]; 8];
        for (g, table) in tables.iter_mut().enumerate() {
            for (half, bytes) in table.iter_mut().enumerate() {
                for (byte, out) in bytes.iter_mut().enumerate() {
                    for bit in 0..8 {
                        if byte >> bit & 1 == 1 {
                            let cell = half * 8 + bit;
                            let (r, c) = image(g, cell / 4, cell % 4);
                            *out |= 1 << (r * 4 + c);
                        }
                    }
                }
            }
        }
        Symmetry { tables }
    }

    /// The image of a mask under symmetry `g` (0..8, 0 the identity).
    #[inline(always)]
    pub fn apply(&self, g: usize, m: u32) -> u32 {
        let t = &self.tables[g];
        u32::from(t[0][(m & 0xFF) as usize] | t[1][(m >> 8 & 0xFF) as usize])
    }

    /// The representative of a position's class and the class size (1, 2, 4 or 8).
    /// The representative has the least code `mover << 16 | opponent`, so its mover
    /// mask is the least of its own images ([`Symmetry::is_least_image`]).
    #[inline(always)]
    pub fn canon(&self, m: u32, o: u32) -> (u32, u32, u32) {
        let own = m << 16 | o;
        let (mut best, mut same) = (own, 1u32);
        for g in 1..8 {
            let code = self.apply(g, m) << 16 | self.apply(g, o);
            same += u32::from(code == own);
            best = best.min(code);
        }
        (best >> 16, best & 0xFFFF, 8 / same)
    }

    /// True if the position is its class's representative.
    #[inline(always)]
    pub fn is_canonical(&self, m: u32, o: u32) -> bool {
        let own = m << 16 | o;
        (1..8).all(|g| (self.apply(g, m) << 16 | self.apply(g, o)) >= own)
    }

    /// True if no symmetry maps `m` to a smaller mask (true of every representative's mover).
    #[inline(always)]
    pub fn is_least_image(&self, m: u32) -> bool {
        (1..8).all(|g| self.apply(g, m) >= m)
    }

    /// The representative under the left-right mirror only.
    #[inline(always)]
    pub fn mirror_canon(&self, m: u32, o: u32) -> (u32, u32) {
        let (mm, mo) = (self.apply(MIRROR, m), self.apply(MIRROR, o));
        if (mm | mo << 16) < (m | o << 16) {
            (mm, mo)
        } else {
            (m, o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{after_move, KonoRules};

    #[test]
    fn symmetries_form_the_square_group() {
        let s = &*SYM;
        let probe = 0b1000_0100_0011_0001u32;
        let images: std::collections::HashSet<u32> = (0..8).map(|g| s.apply(g, probe)).collect();
        assert_eq!(images.len(), 8, "an asymmetric mask has 8 distinct images");
        for g in 0..8 {
            for h in 0..8 {
                let composed = s.apply(g, s.apply(h, probe));
                assert!(
                    (0..8).any(|k| s.apply(k, probe) == composed),
                    "closed under composition"
                );
            }
            assert_eq!(s.apply(g, 0xFFFF), 0xFFFF);
        }
        assert_eq!(s.apply(MIRROR, 1), 8, "a4 <-> d4");
    }

    #[test]
    fn moves_commute_with_symmetries() {
        // The image of every move is a move of the image, for both rule sets.
        let s = &*SYM;
        let positions = [
            (0x00FFu32, 0xFF00u32),
            (0x0013, 0x0C40),
            (0x0600, 0x0090),
            (0x1248, 0x8421 & !0x1248),
        ];
        for rules in [KonoRules::Standard, KonoRules::Gamesman] {
            for &(m, o) in &positions {
                for g in 0..8 {
                    let mut mapped = Vec::new();
                    rules.for_each_move(m, o, |f, t, _| {
                        let (a, b) = after_move(m, o, f, t);
                        mapped.push((s.apply(g, a), s.apply(g, b)));
                    });
                    let mut direct = Vec::new();
                    let (gm, go) = (s.apply(g, m), s.apply(g, o));
                    rules.for_each_move(gm, go, |f, t, _| direct.push(after_move(gm, go, f, t)));
                    mapped.sort();
                    direct.sort();
                    assert_eq!(mapped, direct);
                }
            }
        }
    }

    #[test]
    fn canon_is_constant_on_classes() {
        let s = &*SYM;
        for &(m, o) in &[
            (0x00FFu32, 0xFF00u32),
            (0x0013, 0x0C40),
            (0x0001, 0x0000),
            (0x0660, 0x0000),
        ] {
            let (cm, co, size) = s.canon(m, o);
            assert!(s.is_canonical(cm, co));
            for g in 0..8 {
                let (gm, go, gsize) = s.canon(s.apply(g, m), s.apply(g, o));
                assert_eq!((gm, go, gsize), (cm, co, size));
            }
        }
        assert_eq!(
            s.canon(0x0660, 0).2,
            1,
            "the centre square is fully symmetric"
        );
        assert_eq!(s.canon(0x00FF, 0xFF00).2, 4);
    }
}
