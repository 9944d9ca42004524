//! Exact values of Nim positions: who wins (nim-sum rule, misère rule), every winning
//! move, and remoteness by memoised search when the position is small enough.

use crate::game::{Nim, NimMove, NimState, Play, SEATS};
use crate::Nimber;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tabula_core::{FactValue, Graded, Notation, Oracle, Section, Table, Value};

/// Most distinct heap multisets a remoteness search may visit.
pub const REMOTENESS_MAX_POSITIONS: u64 = 200_000;
/// Most work (positions times moves) a remoteness search may do.
pub const REMOTENESS_MAX_WORK: u64 = 50_000_000;

/// The side to move wins with perfect play.
///
/// Normal play: the nim-sum is not zero (Bouton). Misère play: when every heap has at
/// most one counter, the side to move wins iff the number of counters is even (the
/// empty position included: the opponent took the last counter); otherwise the
/// nim-sum rule holds unchanged.
pub fn mover_wins(play: Play, heaps: &[u32]) -> bool {
    let sum = heaps.iter().fold(0u32, |a, &h| a ^ h);
    match play {
        Play::Normal => sum != 0,
        Play::Misere => {
            if heaps.iter().all(|&h| h <= 1) {
                heaps.iter().filter(|&&h| h == 1).count() % 2 == 0
            } else {
                sum != 0
            }
        }
    }
}

/// Every winning move of a position, in heap order (for each heap at most the
/// sizes `r = nim-sum ⊕ h`, 0 and 1 can win, so this is cheap for any heap size).
pub fn winning_moves(play: Play, heaps: &[u32]) -> Vec<NimMove> {
    let sum = heaps.iter().fold(0u32, |a, &h| a ^ h);
    let mut out = Vec::new();
    let mut child = heaps.to_vec();
    for (i, &h) in heaps.iter().enumerate() {
        let mut candidates = [sum ^ h, 0, 1];
        candidates.sort_unstable();
        let mut last = None;
        for t in candidates {
            if t >= h || last == Some(t) {
                continue;
            }
            last = Some(t);
            child[i] = t;
            if !mover_wins(play, &child) {
                out.push(NimMove {
                    heap: i as u8,
                    to: t,
                });
            }
        }
        child[i] = h;
    }
    out
}

/// The key of a position for remoteness: non-empty heaps, largest first (the order of
/// heaps and the side to move do not matter).
fn key(heaps: &[u32]) -> Vec<u32> {
    let mut k: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
    k.sort_unstable_by(|a, b| b.cmp(a));
    k
}

/// How many heap multisets are reachable from `sorted` (largest first), saturating
/// just above `cap`: the non-increasing sequences bounded term by term by `sorted`.
fn reachable_multisets(sorted: &[u32], cap: u64) -> u64 {
    let Some(&top) = sorted.first() else { return 1 };
    let mut product: u64 = 1;
    for &h in sorted {
        product = product.saturating_mul(h as u64 + 1);
    }
    if product <= cap {
        // Cheap bound is enough; the exact count only matters near the cap.
        return product;
    }
    // ways[v]: prefixes whose last term is v.
    let mut ways = vec![1u64; top as usize + 1];
    for &h in &sorted[1..] {
        let mut next = vec![0u64; h as usize + 1];
        let mut suffix = 0u64;
        for v in (0..ways.len()).rev() {
            suffix = suffix.saturating_add(ways[v]).min(cap + 1);
            if v <= h as usize {
                next[v] = suffix;
            }
        }
        ways = next;
    }
    ways.iter()
        .fold(0u64, |a, &w| a.saturating_add(w))
        .min(cap + 1)
}

/// True when [`NimOracle`] computes the exact remoteness of this position.
pub fn remoteness_is_exact(heaps: &[u32]) -> bool {
    let k = key(heaps);
    let sum: u64 = k.iter().map(|&h| h as u64).sum();
    let top = k.first().map_or(0, |&h| h as u64);
    // At least `top + 1` multisets are reachable (the largest heap alone shrinking).
    if (top + 1).saturating_mul(sum) > REMOTENESS_MAX_WORK {
        return false;
    }
    let count = reachable_multisets(&k, REMOTENESS_MAX_POSITIONS);
    let work = count.saturating_mul(k.iter().map(|&h| h as u64).sum::<u64>().max(1));
    count <= REMOTENESS_MAX_POSITIONS && work <= REMOTENESS_MAX_WORK
}

/// An upper bound on the remoteness when it is not computed exactly: each ply takes at
/// least one counter, and the parity of the remoteness is fixed by who wins.
pub fn remoteness_upper_bound(play: Play, heaps: &[u32]) -> u32 {
    let counters: u64 = heaps.iter().map(|&h| h as u64).sum();
    let win = mover_wins(play, heaps);
    // Normal play: a win ends on the winner's ply (odd). Misère: the loser takes the
    // last counter, so a win is even and a loss odd.
    let want_odd = match play {
        Play::Normal => win,
        Play::Misere => !win,
    };
    let mut r = counters.min(u32::MAX as u64 - 1) as u32;
    if (r % 2 == 1) != want_odd {
        r = r.saturating_sub(1);
    }
    r
}

struct Frame {
    key: Vec<u32>,
    win: bool,
    children: Vec<Vec<u32>>,
    next: usize,
    best: Option<u32>,
}

impl Frame {
    fn new(play: Play, key: Vec<u32>) -> Frame {
        let win = mover_wins(play, &key);
        let mut children = Vec::new();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            for t in 0..key[i] {
                let mut c = key.clone();
                c[i] = t;
                // A win only needs the moves that leave the opponent lost.
                if win && mover_wins(play, &c) {
                    continue;
                }
                children.push(self::key(&c));
            }
        }
        Frame {
            key,
            win,
            children,
            next: 0,
            best: None,
        }
    }

    fn absorb(&mut self, r: u32) {
        self.best = Some(match (self.best, self.win) {
            (None, _) => r,
            (Some(b), true) => b.min(r),
            (Some(b), false) => b.max(r),
        });
        self.next += 1;
    }
}

/// Remoteness of a (small) position by memoised depth-first search with an explicit
/// stack: the winner takes the shortest win, the loser the longest resistance.
fn search_remoteness(play: Play, root: Vec<u32>, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if root.is_empty() {
        return 0;
    }
    if let Some(&r) = memo.get(&root) {
        return r;
    }
    let mut stack = vec![Frame::new(play, root)];
    loop {
        let top = stack.last_mut().expect("stack is never empty here");
        if top.next < top.children.len() {
            let child = &top.children[top.next];
            if child.is_empty() {
                top.absorb(0);
            } else if let Some(&r) = memo.get(child) {
                top.absorb(r);
            } else {
                let child = child.clone();
                stack.push(Frame::new(play, child));
            }
            continue;
        }
        let done = stack.pop().expect("a frame");
        let r = done.best.map_or(0, |b| b + 1);
        memo.insert(done.key, r);
        match stack.last_mut() {
            Some(parent) => parent.absorb(r),
            None => return r,
        }
    }
}

/// The exact oracle for Nim: value by rule, remoteness by search when small (see
/// [`remoteness_is_exact`]), otherwise [`remoteness_upper_bound`].
pub struct NimOracle {
    play: Play,
    memo: Mutex<HashMap<Vec<u32>, u32>>,
}

impl NimOracle {
    /// An oracle for the given convention.
    pub fn new(play: Play) -> Self {
        NimOracle {
            play,
            memo: Mutex::new(HashMap::new()),
        }
    }

    /// The process's oracle for the given convention. Its remoteness memo is
    /// shared by the perfect player, hints and the analysis: each analysis
    /// searching afresh made a game's value history search the whole game once
    /// per position played.
    pub fn shared(play: Play) -> Arc<NimOracle> {
        static ORACLES: OnceLock<[Arc<NimOracle>; 2]> = OnceLock::new();
        let [normal, misere] = ORACLES.get_or_init(|| {
            [
                Arc::new(NimOracle::new(Play::Normal)),
                Arc::new(NimOracle::new(Play::Misere)),
            ]
        });
        match play {
            Play::Normal => normal.clone(),
            Play::Misere => misere.clone(),
        }
    }

    /// True when the memo holds the remoteness of this position.
    pub fn knows(&self, heaps: &[u32]) -> bool {
        let memo = match self.memo.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        memo.contains_key(&key(heaps))
    }

    /// Remoteness of a position and whether it is exact.
    pub fn remoteness(&self, heaps: &[u32]) -> (u32, bool) {
        if !remoteness_is_exact(heaps) {
            return (remoteness_upper_bound(self.play, heaps), false);
        }
        let mut memo = match self.memo.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        if memo.len() > 4_000_000 {
            memo.clear();
        }
        (search_remoteness(self.play, key(heaps), &mut memo), true)
    }

    /// The grade of a position given by its heaps.
    pub fn grade_heaps(&self, heaps: &[u32]) -> Option<Graded> {
        let value = if mover_wins(self.play, heaps) {
            Value::Win
        } else {
            Value::Loss
        };
        let (remoteness, _) = self.remoteness(heaps);
        Some(Graded { value, remoteness })
    }
}

impl Oracle<Nim> for NimOracle {
    fn grade(&self, _game: &Nim, state: &NimState) -> Option<Graded> {
        self.grade_heaps(&state.heaps)
    }

    fn remoteness_exact(&self, _game: &Nim, state: &NimState) -> bool {
        remoteness_is_exact(&state.heaps)
    }

    fn memory_bytes(&self) -> u64 {
        // A memo entry: its heap list (heap vector and its heaps), the remoteness
        // and the hash table's slot overhead.
        // Not while a search holds the memo: then it is not counted this time.
        let Ok(memo) = self.memo.try_lock() else {
            return 0;
        };
        let per_entry: u64 = memo
            .keys()
            .next()
            .map_or(48, |k| 40 + 4 * k.capacity() as u64);
        memo.capacity() as u64 * per_entry
    }
}

/// One winning move in the analysis.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct WinningMove {
    /// The move in the game's notation (`1:3->1`).
    #[serde(rename = "move")]
    pub notation: String,
    /// Heap number, 1-based.
    pub heap: usize,
    /// Size before.
    pub from: u32,
    /// Size after.
    pub to: u32,
    /// Counters taken.
    pub take: u32,
}

/// What `tabula analyze nim` adds: the nim-sum, who wins, and every winning move.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct NimAnalysis {
    /// `normal` or `misere`.
    pub play: &'static str,
    /// The heaps.
    pub heaps: Vec<u32>,
    /// Nim-sum of the heaps (the position's nimber in normal play).
    pub nim_sum: Nimber,
    /// The nim-sum in the blog's notation (`0`, `3*`).
    pub nim_sum_text: String,
    /// Seat name of the side to move.
    pub side_to_move: &'static str,
    /// True when the side to move wins with perfect play.
    pub side_to_move_wins: bool,
    /// The rule that decides it, in words.
    pub rule: String,
    /// Every move that wins (empty when the side to move loses).
    pub winning_moves: Vec<WinningMove>,
    /// Plies to the end under perfect play (exact, or an upper bound, see next field).
    pub remoteness: u32,
    /// Whether `remoteness` is exact (memoised search) or only an upper bound.
    pub remoteness_exact: bool,
}

impl NimAnalysis {
    /// The analysis as sections every face shows: the rule that decides the
    /// position and the moves that win.
    pub fn sections(&self) -> Vec<Section> {
        let mut rule = Section::new("The nim-sum")
            .note(format!("{}.", capitalise(&self.rule)))
            .with(
                "Heaps",
                FactValue::List(self.heaps.iter().map(u32::to_string).collect()),
            )
            .with("Nim-sum", FactValue::Text(self.nim_sum_text.clone()));
        if !self.remoteness_exact {
            rule.push(
                "Plies to the end",
                FactValue::Text(format!(
                    "at most {} (too many positions to count them exactly)",
                    self.remoteness
                )),
            );
        }
        let mut out = vec![rule];
        if !self.winning_moves.is_empty() {
            let rows = self
                .winning_moves
                .iter()
                .map(|m| {
                    vec![
                        m.notation.clone(),
                        m.heap.to_string(),
                        m.from.to_string(),
                        m.to.to_string(),
                        m.take.to_string(),
                    ]
                })
                .collect();
            out.push(
                Section::new("Winning moves").with(
                    "Moves",
                    FactValue::Table(Table {
                        columns: ["move", "heap", "from", "to", "take"]
                            .map(String::from)
                            .to_vec(),
                        rows,
                    }),
                ),
            );
        }
        out
    }
}

/// The first letter in capitals.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// The analysis of a position.
pub fn analyze(game: &Nim, state: &NimState) -> NimAnalysis {
    let play = game.play;
    let heaps = &state.heaps;
    let sum = state.nim_sum();
    let wins = mover_wins(play, heaps);
    let all_small = heaps.iter().all(|&h| h <= 1);
    let rule = match (play, all_small) {
        (Play::Misere, true) => {
            let left = heaps.iter().filter(|&&h| h == 1).count();
            format!(
                "misère, every heap at most 1: {left} counter{} left, the side to move {} (it wins when the count is even)",
                if left == 1 { "" } else { "s" },
                if wins { "wins" } else { "loses" }
            )
        }
        (Play::Misere, false) => format!(
            "misère with a heap larger than 1: same as normal play, nim-sum {}: the side to move {}",
            sum.0,
            if wins { "wins" } else { "loses" }
        ),
        (Play::Normal, _) => format!(
            "nim-sum {} {} 0: the side to move {}",
            sum.0,
            if wins { "≠" } else { "=" },
            if wins { "wins" } else { "loses" }
        ),
    };
    let winning_moves = winning_moves(play, heaps)
        .into_iter()
        .map(|mv| {
            let from = heaps[mv.heap as usize];
            WinningMove {
                notation: game.format_move(state, mv),
                heap: mv.heap as usize + 1,
                from,
                to: mv.to,
                take: from - mv.to,
            }
        })
        .collect();
    let (remoteness, remoteness_exact) = NimOracle::shared(play).remoteness(heaps);
    NimAnalysis {
        play: play.as_str(),
        heaps: heaps.clone(),
        nim_sum: sum,
        nim_sum_text: sum.to_string(),
        side_to_move: SEATS[state.mover as usize],
        side_to_move_wins: wins,
        rule,
        winning_moves,
        remoteness,
        remoteness_exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Brute force: the side to move wins iff some move leads to a lost position.
    fn brute(play: Play, heaps: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        let k = key(heaps);
        if k.is_empty() {
            return play == Play::Misere;
        }
        if let Some(&w) = memo.get(&k) {
            return w;
        }
        let mut win = false;
        'outer: for i in 0..k.len() {
            for t in 0..k[i] {
                let mut c = k.clone();
                c[i] = t;
                if !brute(play, &c, memo) {
                    win = true;
                    break 'outer;
                }
            }
        }
        memo.insert(k, win);
        win
    }

    #[test]
    fn seed_positions() {
        let g = Nim::default();
        let s = NimState::new(vec![1, 2, 3]);
        let a = analyze(&g, &s);
        assert!(!a.side_to_move_wins);
        assert!(a.winning_moves.is_empty());
        assert_eq!(a.nim_sum, Nimber(0));

        let s = NimState::new(vec![3, 4, 5]);
        let a = analyze(&g, &s);
        assert!(a.side_to_move_wins);
        assert_eq!(a.nim_sum, Nimber(2));
        assert_eq!(a.winning_moves.len(), 1);
        let m = &a.winning_moves[0];
        assert_eq!(
            (m.heap, m.from, m.to, m.notation.as_str()),
            (1, 3, 1, "1:3->1")
        );
    }

    #[test]
    fn seed_three_stack_rule_find_the_third_stack() {
        // "find the Nimber value of two smaller stacks ... reduce the third stack to the value".
        let g = Nim::default();
        let s = NimState::new(vec![1, 2, 7]);
        let a = analyze(&g, &s);
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!((a.winning_moves[0].heap, a.winning_moves[0].to), (3, 3));
    }

    #[test]
    fn rules_match_brute_force_on_every_small_position() {
        for play in [Play::Normal, Play::Misere] {
            let mut memo = HashMap::new();
            for a in 0..6u32 {
                for b in 0..6u32 {
                    for c in 0..6u32 {
                        for d in 0..3u32 {
                            let h = [a, b, c, d];
                            let truth = brute(play, &h, &mut memo);
                            assert_eq!(mover_wins(play, &h), truth, "{play:?} {h:?}");
                            // Every winning move, and only those.
                            let mut expected = Vec::new();
                            for i in 0..4 {
                                for t in 0..h[i] {
                                    let mut child = h;
                                    child[i] = t;
                                    if !brute(play, &child, &mut memo) {
                                        expected.push(NimMove {
                                            heap: i as u8,
                                            to: t,
                                        });
                                    }
                                }
                            }
                            assert_eq!(winning_moves(play, &h), expected, "{play:?} {h:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn remoteness_of_simple_positions() {
        let o = NimOracle::new(Play::Normal);
        assert_eq!(o.remoteness(&[]), (0, true));
        assert_eq!(o.remoteness(&[5]), (1, true));
        // Two equal heaps of one: each player takes one.
        assert_eq!(o.remoteness(&[1, 1]), (2, true));
        // 2 2: the loser's longest line takes one counter at a time: 4 plies.
        assert_eq!(o.remoteness(&[2, 2]), (4, true));
        let m = NimOracle::new(Play::Misere);
        assert_eq!(m.remoteness(&[1]), (1, true));
        assert_eq!(m.remoteness(&[5]), (2, true)); // take 4, leave 1: the opponent takes the last
        assert_eq!(m.remoteness(&[]), (0, true));
    }

    #[test]
    fn the_analysis_searches_into_the_memo_every_face_shares() {
        // A value history analyses every position of a game: each analysis
        // must find what the ones before it searched, not search it again.
        let game = Nim::default();
        let state = NimState::new(vec![37, 23, 11]);
        let analysis = analyze(&game, &state);
        assert!(analysis.remoteness_exact);
        let shared = NimOracle::shared(Play::Normal);
        // The position after the winning move (37 -> 28: nim-sum 0), and one
        // after the loser's reply to it.
        for later in [[28, 23, 11], [28, 23, 10]] {
            assert!(shared.knows(&later), "{later:?} was searched and forgotten");
        }
        assert!(Arc::ptr_eq(&shared, &NimOracle::shared(Play::Normal)));
        assert!(!Arc::ptr_eq(&shared, &NimOracle::shared(Play::Misere)));
    }

    #[test]
    fn large_positions_give_a_bound_with_the_right_parity() {
        let heaps = [60000, 50000, 40000, 30000];
        assert!(!remoteness_is_exact(&heaps));
        let o = NimOracle::new(Play::Normal);
        let (r, exact) = o.remoteness(&heaps);
        assert!(!exact);
        assert_eq!(r % 2, 1, "a normal-play win ends on an odd ply");
        assert!(r <= 180_000);
    }

    #[test]
    fn reachable_multisets_counts_exactly() {
        // Brute-force count of sorted sequences dominated term by term.
        let heaps = [7u32, 5, 5, 3];
        let mut set = std::collections::HashSet::new();
        for a in 0..=7 {
            for b in 0..=5 {
                for c in 0..=5 {
                    for d in 0..=3 {
                        set.insert(key(&[a, b, c, d]));
                    }
                }
            }
        }
        assert_eq!(reachable_multisets(&heaps, 10), 11, "saturates at cap + 1");
        assert_eq!(reachable_multisets(&heaps, 1000), set.len() as u64);
    }

    proptest! {
        #[test]
        fn winning_moves_are_exactly_the_moves_to_nim_sum_zero(heaps in proptest::collection::vec(0u32..2000, 1..8)) {
            let moves = winning_moves(Play::Normal, &heaps);
            let sum = heaps.iter().fold(0, |a, &h| a ^ h);
            prop_assert_eq!(moves.is_empty(), sum == 0);
            for mv in &moves {
                let mut c = heaps.clone();
                c[mv.heap as usize] = mv.to;
                prop_assert_eq!(c.iter().fold(0, |a, &h| a ^ h), 0);
            }
            let expected = heaps.iter().filter(|&&h| (h ^ sum) < h).count();
            prop_assert_eq!(moves.len(), expected);
        }
    }
}
