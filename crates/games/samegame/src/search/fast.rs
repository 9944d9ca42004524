//! A bit-parallel board for playouts on boards up to 64 rows high.
//!
//! Each column keeps one 64-bit mask per colour (bit `y` = height `y` above the
//! floor) and one for all blocks. A group is flood-filled a column at a time,
//! removing it compresses each mask of a touched column (gravity), and empty
//! columns are dropped from the vector (closing up). Removable blocks are those
//! with a same-coloured neighbour, found with shifts: no scan block by block.

use crate::board::{Board, MAX_COLOURS};
use crate::scoring::Scoring;
use rand::Rng as _;
use tabula_core::Rng;

const LAYERS: usize = MAX_COLOURS as usize + 1;

/// The tallest board the fast path handles.
pub(crate) const FAST_MAX_HEIGHT: usize = 64;

#[derive(Clone, Debug, Default)]
pub(crate) struct FastBoard {
    /// `cols[c][k]`: blocks of colour `k` in column `c`; `cols[c][0]`: all blocks.
    cols: Vec<[u64; LAYERS]>,
    height: usize,
    /// Highest colour number present at load time (+1).
    layers: usize,
    blocks: usize,
    score: i64,
    group: Vec<u64>,
    cands: Vec<(u64, u16, u8)>,
    /// Candidates not yet assigned to a group, per column ([`FastBoard::list_moves`]).
    rem: Vec<u64>,
    /// What the last removal changed.
    last: Change,
}

/// The columns a removal changed: `lo..=hi` (the group's), and whether an emptied
/// column closed up (moving every column to its right).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Change {
    lo: usize,
    hi: usize,
    closed: bool,
}

/// A removable group found by [`FastBoard::list_moves`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mv {
    /// Column of the canonical block (the group's leftmost column).
    pub col: u8,
    /// Height of the canonical block (the group's lowest block in that column).
    pub y: u8,
    /// Colour 1..=9.
    pub colour: u8,
    /// The group's rightmost column.
    pub hi: u8,
    /// For the search: the move's weight under its policy, kept while the group
    /// stays unchanged (negative until set).
    pub weight: f64,
    /// The group's identity for the search policy: a hash of its colour and cells
    /// (never 0).
    pub code: u64,
}

/// Folds one column of a group into its code.
#[inline]
fn code_step(code: u64, col: usize, mask: u64) -> u64 {
    let z = (mask ^ (col as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (code ^ (z ^ (z >> 29)))
        .rotate_left(17)
        .wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// Removes from `m` the bits set in `r`, moving the higher bits down.
#[inline]
fn compress(mut m: u64, mut r: u64) -> u64 {
    while r != 0 {
        let p = 63 - r.leading_zeros();
        let low = m & ((1u64 << p) - 1);
        m = low | ((m >> p >> 1) << p);
        r &= !(1u64 << p);
    }
    m
}

/// The blocks of `m` connected vertically to `seeds` (a subset of `m`): adding the
/// seeds to `m` clears each run of `m` from its lowest seed up (the carry), then the
/// runs grow down a block at a time.
#[inline]
fn expand(m: u64, seeds: u64) -> u64 {
    debug_assert_eq!(seeds & !m, 0);
    let mut s = (m & !m.wrapping_add(seeds)) | seeds;
    loop {
        let next = (s | s >> 1) & m;
        if next == s {
            return s;
        }
        s = next;
    }
}

impl FastBoard {
    /// Loads `board` (whose height must be at most [`FAST_MAX_HEIGHT`]).
    pub(crate) fn load(&mut self, board: &Board) {
        debug_assert!(board.height() <= FAST_MAX_HEIGHT);
        let h = board.height();
        self.height = h;
        self.cols.clear();
        self.blocks = 0;
        self.layers = board.max_colour() as usize + 1;
        for col in 0..board.width() {
            if board.at(col, 0) == 0 {
                break;
            }
            let mut masks = [0u64; LAYERS];
            for y in 0..h {
                let c = board.at(col, y) as usize;
                if c == 0 {
                    break;
                }
                masks[c] |= 1 << y;
                masks[0] |= 1 << y;
                self.blocks += 1;
            }
            self.cols.push(masks);
        }
        self.score = board.score();
    }

    #[inline]
    fn colour_at(&self, col: usize, y: usize) -> usize {
        let bit = 1u64 << y;
        (1..self.layers)
            .find(|&k| self.cols[col][k] & bit != 0)
            .unwrap_or(0)
    }

    #[inline]
    fn removable(&self, col: usize, y: usize, k: usize) -> bool {
        let m = self.cols[col][k];
        let bit = 1u64 << y;
        let near = m << 1
            | m >> 1
            | if col > 0 { self.cols[col - 1][k] } else { 0 }
            | self.cols.get(col + 1).map_or(0, |c| c[k]);
        near & bit != 0
    }

    /// Removes the group of colour `k` through (`col`, `y`); returns its size.
    fn remove(&mut self, col: usize, y: usize, k: usize, scoring: Scoring) -> usize {
        let (lo, hi) = self.flood(col, y, k);
        self.apply(lo, hi, k, scoring)
    }

    /// Marks the group of colour `k` through (`col`, `y`) in `self.group`; returns
    /// the range of columns it spans.
    fn flood(&mut self, col: usize, y: usize, k: usize) -> (usize, usize) {
        self.group.clear();
        self.group.resize(self.cols.len(), 0);
        self.flood_keep(col, y, k)
    }

    /// Removes the group marked by [`FastBoard::flood`] (colour `k`, columns `lo..=hi`).
    fn apply(&mut self, lo: usize, hi: usize, k: usize, scoring: Scoring) -> usize {
        let mut removed = 0;
        for c in lo..=hi {
            let r = self.group[c];
            if r == 0 {
                continue;
            }
            removed += r.count_ones() as usize;
            let layers = self.layers;
            let masks = &mut self.cols[c];
            masks[0] = compress(masks[0], r);
            masks[k] = compress(masks[k], r);
            // Only layers with blocks above the lowest removed one move.
            let above = !((r & r.wrapping_neg()) - 1);
            for (j, m) in masks.iter_mut().enumerate().take(layers).skip(1) {
                if j != k && *m & above != 0 {
                    *m = compress(*m, r);
                }
            }
        }
        // Close up the columns emptied (only touched columns can have emptied).
        let closed = self.cols[lo..=hi].iter().any(|m| m[0] == 0);
        if closed {
            self.cols.retain(|m| m[0] != 0);
        }
        self.last = Change { lo, hi, closed };
        self.blocks -= removed;
        self.score += scoring.group(removed);
        if self.blocks == 0 {
            self.score += scoring.clear_bonus();
        }
        removed
    }

    /// Points made so far.
    pub(crate) fn score(&self) -> i64 {
        self.score
    }

    /// Lists every removable group (all colours) into `all`, one [`Mv`] per group.
    pub(crate) fn list_moves(&mut self, all: &mut Vec<Mv>) {
        all.clear();
        self.find_groups(0, self.cols.len(), all);
    }

    /// Brings `all`, the groups listed before the last move, up to date after it.
    /// A group's blocks, connections and code depend only on its columns and their
    /// neighbours, so only groups near the columns the move changed are found again:
    /// those meeting the span of the groups that met columns `lo - 1 ..= hi + 1`, or
    /// every group from `lo - 1` on when an emptied column closed up and moved the
    /// columns to its right.
    /// Groups kept come first in `all`, in their old order; returns how many.
    pub(crate) fn relist(&mut self, change: Change, all: &mut Vec<Mv>) -> usize {
        let used = self.cols.len();
        let a = change.lo.saturating_sub(1);
        if change.closed {
            all.retain(|g| (g.hi as usize) < a);
            let kept = all.len();
            self.find_groups(a, used, all);
            return kept;
        }
        // The groups meeting the changed columns or their neighbours may have changed,
        // split or merged: everything they spanned is searched again, so every group
        // meeting that span is dropped and found again (unchanged or not). A colour's
        // groups depend only on that colour's blocks, so each colour has its own span.
        let (a0, b0) = (a, (change.hi + 1).min(used.saturating_sub(1)));
        let mut spans = [(a0, b0); LAYERS];
        for g in all.iter() {
            let (c, h) = (g.col as usize, g.hi as usize);
            if c <= b0 && h >= a0 {
                let span = &mut spans[g.colour as usize];
                span.0 = span.0.min(c);
                span.1 = span.1.max(h);
            }
        }
        all.retain(|g| {
            let (a, b) = spans[g.colour as usize];
            (g.hi as usize) < a || (g.col as usize) > b
        });
        let kept = all.len();
        self.prepare();
        for (k, &(a, b)) in spans.iter().enumerate().take(self.layers).skip(1) {
            self.colour_groups(k, a, b + 1, all);
        }
        kept
    }

    /// Appends to `all` every removable group with a block in columns `s..end`.
    fn find_groups(&mut self, s: usize, end: usize, all: &mut Vec<Mv>) {
        self.prepare();
        for k in 1..self.layers {
            self.colour_groups(k, s, end, all);
        }
    }

    /// Clears the scratch masks used by [`FastBoard::colour_groups`].
    fn prepare(&mut self) {
        let used = self.cols.len();
        self.group.clear();
        self.group.resize(used, 0);
        self.rem.clear();
        self.rem.resize(used, 0);
    }

    /// Appends to `all` every removable group of colour `k` with a block in columns
    /// `s..end` (after [`FastBoard::prepare`]; leaves the scratch masks clear).
    fn colour_groups(&mut self, k: usize, s: usize, end: usize, all: &mut Vec<Mv>) {
        let used = self.cols.len();
        let end = end.min(used);
        if end <= s {
            return;
        }
        let mut any = 0u64;
        let mut prev = if s > 0 { self.cols[s - 1][k] } else { 0 };
        let mut here = self.cols[s][k];
        for col in s..end {
            let next = if col + 1 < used {
                self.cols[col + 1][k]
            } else {
                0
            };
            let cand = here & (here << 1 | here >> 1 | prev | next);
            self.rem[col] = cand;
            any |= cand;
            prev = here;
            here = next;
        }
        if any == 0 {
            return;
        }
        for col in s..end {
            while self.rem[col] != 0 {
                let y = self.rem[col].trailing_zeros() as usize;
                let (glo, ghi) = self.flood_keep(col, y, k);
                // The canonical block: the lowest of the leftmost column.
                let cy = self.group[glo].trailing_zeros() as usize;
                let mut code = k as u64;
                for c in glo..=ghi {
                    let g = self.group[c];
                    if g != 0 {
                        code = code_step(code, c, g);
                        self.rem[c] &= !g;
                        self.group[c] = 0;
                    }
                }
                all.push(Mv {
                    col: glo as u8,
                    y: cy as u8,
                    colour: k as u8,
                    hi: ghi as u8,
                    weight: -1.0,
                    code: code | 1,
                });
            }
        }
    }

    /// Marks in `self.group` (all zero before) the group of colour `k` through
    /// (`col`, `y`); returns the range of columns it spans. Sweeps right, then left,
    /// each column passing its blocks to the next; a right sweep closes every pair
    /// it passes, so the group is complete when a left sweep adds nothing.
    fn flood_keep(&mut self, col: usize, y: usize, k: usize) -> (usize, usize) {
        let used = self.cols.len();
        let cols = &self.cols[..used];
        let group = &mut self.group[..used];
        group[col] = expand(cols[col][k], 1 << y);
        let (mut lo, mut hi) = (col, col);
        loop {
            let mut c = lo;
            while c <= hi && c + 1 < used {
                let m = cols[c + 1][k];
                let seeds = group[c] & m & !group[c + 1];
                if seeds != 0 {
                    group[c + 1] = expand(m, group[c + 1] | seeds);
                    hi = hi.max(c + 1);
                }
                c += 1;
            }
            let mut grew = false;
            let mut c = hi;
            while c > lo || (c == lo && c > 0) {
                let m = cols[c - 1][k];
                let seeds = group[c] & m & !group[c - 1];
                if seeds != 0 {
                    group[c - 1] = expand(m, group[c - 1] | seeds);
                    lo = lo.min(c - 1);
                    grew = true;
                }
                c -= 1;
            }
            if !grew {
                return (lo, hi);
            }
        }
    }

    /// The canonical block `(column, height)` of the group through (`col`, `y`), or
    /// `None` when that is not a block of a group of two or more.
    pub(crate) fn canonical(&mut self, col: usize, y: usize) -> Option<(u8, u8)> {
        if col >= self.cols.len() || y >= self.height || self.cols[col][0] >> y & 1 == 0 {
            return None;
        }
        let k = self.colour_at(col, y);
        if !self.removable(col, y, k) {
            return None;
        }
        let (lo, _) = self.flood(col, y, k);
        Some((lo as u8, self.group[lo].trailing_zeros() as u8))
    }

    /// Removes the group `mv` (listed on this board); returns what changed, for
    /// [`FastBoard::relist`].
    pub(crate) fn play(&mut self, mv: &Mv, scoring: Scoring) -> Change {
        self.remove(mv.col as usize, mv.y as usize, mv.colour as usize, scoring);
        self.last
    }

    /// Plays to the end with the TabuColorRandom policy (groups drawn in proportion
    /// to their size), appending the clicks `(column, height)`; returns the score.
    pub(crate) fn tabu_playout(
        &mut self,
        scoring: Scoring,
        tabu: u8,
        rng: &mut Rng,
        clicks: &mut Vec<(u8, u8)>,
    ) -> i64 {
        let tabu = tabu as usize;
        let h = self.height;
        let mut only_tabu = false;
        loop {
            let used = self.cols.len();
            if used == 0 {
                return self.score;
            }
            let mut chosen = None;
            if !only_tabu {
                for _ in 0..6 {
                    let i = rng.gen_range(0..used * h);
                    let (col, y) = (i / h, i % h);
                    if self.cols[col][0] >> y & 1 == 0 {
                        continue;
                    }
                    let k = self.colour_at(col, y);
                    if k != tabu && self.removable(col, y, k) {
                        chosen = Some((col, y, k));
                        break;
                    }
                }
            }
            let (col, y, k) = match chosen {
                Some(c) => c,
                None => match self.draw_removable(tabu, rng) {
                    Some((col, y, k, tabu_only)) => {
                        // Random tries would only find tabu blocks from now on.
                        only_tabu = tabu_only;
                        (col, y, k)
                    }
                    None => return self.score,
                },
            };
            self.remove(col, y, k, scoring);
            clicks.push((col as u8, y as u8));
        }
    }

    /// A removable block drawn uniformly among those not of colour `tabu`, or
    /// among the tabu ones when there are no others (then the flag is true).
    fn draw_removable(
        &mut self,
        tabu: usize,
        rng: &mut Rng,
    ) -> Option<(usize, usize, usize, bool)> {
        let used = self.cols.len();
        if used == 0 {
            return None;
        }
        self.cands.clear();
        let mut total = 0u32;
        let mut tabu_total = 0u32;
        for k in 1..self.layers {
            let mut prev = 0u64;
            let mut here = self.cols[0][k];
            for col in 0..used {
                let next = if col + 1 < used {
                    self.cols[col + 1][k]
                } else {
                    0
                };
                let cand = here & (here << 1 | here >> 1 | prev | next);
                if cand != 0 {
                    let n = cand.count_ones();
                    if k == tabu {
                        tabu_total += n;
                    } else {
                        total += n;
                    }
                    self.cands.push((cand, col as u16, k as u8));
                }
                prev = here;
                here = next;
            }
        }
        let only_tabu = total == 0;
        let mut pick = match (only_tabu, tabu_total) {
            (true, 0) => return None,
            (true, t) => rng.gen_range(0..t),
            (false, _) => rng.gen_range(0..total),
        };
        for &(cand, col, k) in &self.cands {
            if (k as usize == tabu) != only_tabu {
                continue;
            }
            let n = cand.count_ones();
            if pick < n {
                let mut m = cand;
                for _ in 0..pick {
                    m &= m - 1;
                }
                return Some((
                    col as usize,
                    m.trailing_zeros() as usize,
                    k as usize,
                    only_tabu,
                ));
            }
            pick -= n;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The carry trick agrees with growing the seeds a block at a time.
    #[test]
    fn expand_fills_the_runs_of_the_seeds() {
        use rand::Rng as _;
        let mut rng = tabula_core::rng_from_seed(5);
        for _ in 0..20_000 {
            let m: u64 = rng.gen::<u64>() | rng.gen::<u64>();
            let seeds = m & rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>();
            let mut slow = seeds;
            loop {
                let next = (slow | slow << 1 | slow >> 1) & m;
                if next == slow {
                    break;
                }
                slow = next;
            }
            assert_eq!(expand(m, seeds), slow, "{m:064b} {seeds:064b}");
        }
        assert_eq!(expand(u64::MAX, 1 << 63), u64::MAX);
        assert_eq!(expand(u64::MAX, 1), u64::MAX);
        assert_eq!(expand(0b0111_0110, 0b10), 0b110);
    }

    #[test]
    fn compress_drops_bits() {
        assert_eq!(compress(0b1011_0110, 0b0000_0100), 0b101_1010);
        assert_eq!(compress(0b1111, 0b1111), 0);
        assert_eq!(compress(u64::MAX, 1 << 63), u64::MAX >> 1);
    }

    /// Fast playouts replayed on the reference board: every click removes a group
    /// and the scores agree; the game ends with no group of two.
    #[test]
    fn playouts_replay_on_the_plain_board() {
        let mut fast = FastBoard::default();
        for seed in 0..300u64 {
            let (w, h) = (1 + (seed % 17) as usize, 1 + (seed * 7 % 64) as usize);
            let colours = 2 + (seed % 8) as u8;
            let board = Board::random(w, h, colours, seed);
            for scoring in [Scoring::Standard, Scoring::Blocks] {
                fast.load(&board);
                let mut rng = tabula_core::rng_from_seed(seed);
                let mut clicks = Vec::new();
                let tabu = (seed % 4) as u8;
                let score = fast.tabu_playout(scoring, tabu, &mut rng, &mut clicks);
                let mut b = board.clone();
                let mut stack = Vec::new();
                for &(c, y) in &clicks {
                    assert!(b.play(c as usize, y as usize, scoring, &mut stack) >= 2);
                }
                assert_eq!(b.score(), score);
                assert!(!b.has_move());
            }
        }
    }

    /// The groups kept up to date move by move by `relist` are exactly the groups of
    /// the board found from scratch, and exactly the plain board's groups of two or
    /// more (same canonical block and colour).
    #[test]
    fn relisting_matches_the_plain_board() {
        use crate::board::Scan;
        use rand::Rng as _;
        let mut fast = FastBoard::default();
        let mut fresh = FastBoard::default();
        let (mut all, mut again) = (Vec::new(), Vec::new());
        let (mut scan, mut groups, mut stack) = (Scan::default(), Vec::new(), Vec::new());
        let key = |m: &Mv| (m.col, m.y, m.colour, m.hi, m.code);
        for seed in 0..200u64 {
            let (w, h) = (1 + (seed % 16) as usize, 1 + (seed * 7 % 40) as usize);
            let mut board = Board::random(w, h, 2 + (seed % 5) as u8, seed);
            let mut rng = tabula_core::rng_from_seed(seed);
            fast.load(&board);
            fast.list_moves(&mut all);
            loop {
                fresh.load(&board);
                fresh.list_moves(&mut again);
                let mut a: Vec<_> = all.iter().map(key).collect();
                let mut b: Vec<_> = again.iter().map(key).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "seed {seed}");
                groups.clear();
                board.label_groups(&mut scan, &mut groups);
                let mut plain: Vec<_> = groups
                    .iter()
                    .filter(|g| g.size >= 2)
                    .map(|g| (g.col, g.y, g.colour))
                    .collect();
                plain.sort_unstable();
                let mine: Vec<_> = a.iter().map(|k| (k.0, k.1, k.2)).collect();
                assert_eq!(mine, plain, "seed {seed}");
                if all.is_empty() {
                    break;
                }
                let m = all[rng.gen_range(0..all.len())];
                let lo = fast.play(&m, Scoring::Standard);
                fast.relist(lo, &mut all);
                board.play(m.col as usize, m.y as usize, Scoring::Standard, &mut stack);
                assert_eq!(board.score(), fast.score());
            }
        }
    }
}
