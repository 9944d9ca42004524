//! Nim: the rules, variants, notation and drawing.

use crate::analysis;
use crate::player::NimPlayer;
use crate::Nimber;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabula_core::{
    BuildError, ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry,
};
use tabula_core::{
    Game, Oracle, Outcome, OwnPlayer, ParseError, PlayerKind, Registered, Seat, Turn, Variant,
    VariantChoice, VariantError, VariantOption, View, ViewCell, ViewPiece,
};

/// Most counters (all heaps together) a variant may start with to be played: each
/// counter is a cell of the board and a move of the lists the player sees.
pub const MAX_PLAY_COUNTERS: u64 = 1_000;

/// Most heaps a position may have.
pub const MAX_HEAPS: usize = 64;
/// Largest heap a position may hold (keeps the list of legal moves sane: at most
/// `MAX_HEAPS * MAX_HEAP` moves).
pub const MAX_HEAP: u32 = 65_535;

/// Who takes the last counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    /// The player who cannot move (no counters left) loses.
    Normal,
    /// The player who takes the last counter loses.
    Misere,
}

impl Play {
    /// `"normal"` or `"misere"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Play::Normal => "normal",
            Play::Misere => "misere",
        }
    }
}

/// Nim with a chosen start and play convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    /// The heaps of the starting position.
    pub start: Vec<u32>,
    /// Normal or misère play.
    pub play: Play,
}

impl Default for Nim {
    fn default() -> Self {
        Nim {
            start: vec![3, 4, 5],
            play: Play::Normal,
        }
    }
}

/// A Nim position: the heaps (empty heaps keep their place, so heap numbers stay
/// stable through a game) and the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NimState {
    /// Heap sizes, heap 1 first.
    pub heaps: Vec<u32>,
    /// Seat to move: 0 (Lucy) or 1 (Robert).
    pub mover: u8,
}

impl NimState {
    /// A position with `heaps`, Lucy to move.
    pub fn new(heaps: Vec<u32>) -> Self {
        NimState { heaps, mover: 0 }
    }

    /// The nim-sum of the heaps.
    pub fn nim_sum(&self) -> Nimber {
        self.heaps.iter().map(|&h| Nimber(h as u64)).sum()
    }

    /// Total number of counters.
    pub fn counters(&self) -> u64 {
        self.heaps.iter().map(|&h| h as u64).sum()
    }
}

/// A move: reduce heap `heap` (0-based) to `to` counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NimMove {
    /// Heap index, 0-based (written 1-based).
    pub heap: u8,
    /// The heap's size after the move (smaller than before).
    pub to: u32,
}

impl Nim {
    /// Nim with these start heaps and convention.
    pub fn new(start: Vec<u32>, play: Play) -> Self {
        Nim { start, play }
    }

    /// The side to move wins with perfect play (the nim-sum rule, or the misère rule).
    pub fn mover_wins(&self, heaps: &[u32]) -> bool {
        analysis::mover_wins(self.play, heaps)
    }
}

pub(crate) const SEATS: [&str; 2] = ["Lucy", "Robert"];

fn seat_letter(seat: u8) -> &'static str {
    if seat == 0 {
        "L"
    } else {
        "R"
    }
}

/// Reads `3-4-5` (also `3.4.5`, `3/4/5`, `3+4+5`): commas cannot be used because they
/// separate variant options.
fn parse_heap_list(text: &str) -> Result<Vec<u32>, String> {
    let mut heaps = Vec::new();
    for part in text.split(['-', '.', '/', '+', ':']) {
        let part = part.trim();
        let h: u32 = part
            .parse()
            .map_err(|e: std::num::ParseIntError| match e.kind() {
                std::num::IntErrorKind::PosOverflow => {
                    format!("heap {part} is larger than {MAX_HEAP}")
                }
                _ => format!("heap '{part}' is not a whole number (write heaps like 3-4-5)"),
            })?;
        if h > MAX_HEAP {
            return Err(format!("heap {h} is larger than {MAX_HEAP}"));
        }
        heaps.push(h);
    }
    if heaps.len() > MAX_HEAPS {
        return Err(format!(
            "{} heaps: at most {MAX_HEAPS} are allowed",
            heaps.len()
        ));
    }
    Ok(heaps)
}

impl Registered for Nim {
    /// The nim-sum of the position in a card, and the scoring-system calculator.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![tabula_core::Panel::Facts {
                title: "The nim-sum",
            }],
            tools: vec![crate::cgt::TOOL],
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Nim";
    const SUMMARY: &'static str =
        "Take any number of counters from one heap; normal play: whoever cannot move loses (nim-sum rule).";

    /// Nim is solved by Bouton's rule in every variant.
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", true),
                tabula_core::VariantCase::new("play=misere", true)
                    .summary(&["takes the last counter loses"], &["cannot move loses"]),
                tabula_core::VariantCase::new("heaps=1-2-3,play=misere", true),
            ],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "Heaps of 3, 4 and 5 (the usual game)",
                variant: "",
            },
            tabula_core::Preset {
                name: "Heaps of 3, 4 and 5, last counter loses (misère)",
                variant: "play=misere",
            },
            tabula_core::Preset {
                name: "Heaps of 1, 3, 5 and 7 (Marienbad)",
                variant: "heaps=1-3-5-7",
            },
            tabula_core::Preset {
                name: "Heaps of 7, 9, 11 and 13",
                variant: "heaps=7-9-11-13",
            },
        ]
    }

    /// Misère play: taking the last counter loses.
    fn summary(&self) -> String {
        match self.play {
            Play::Normal => Self::SUMMARY.into(),
            Play::Misere => "Take any number of counters from one heap; misère play: whoever takes the last counter loses.".into(),
        }
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "heaps",
                label: "heaps",
                default: "3-4-5",
                help: "the starting heaps, written like 3-4-5: 1 to 64 heaps of up to 65535 counters each", choices: &[],
            },
            VariantOption {
                name: "play",
                label: "play",
                default: "normal",
                help: "normal (taking the last counter wins) or misere (taking the last counter loses)", choices: &[
                    VariantChoice { value: "normal", words: "normal (last counter wins)" },
                    VariantChoice { value: "misere", words: "misère (last counter loses)" },
                ],
            },
        ]
    }

    fn play_limit(&self) -> Option<String> {
        let total: u64 = self.start.iter().map(|&h| h as u64).sum();
        (total > MAX_PLAY_COUNTERS).then(|| {
            format!(
                "{total} counters are too many to play (at most {MAX_PLAY_COUNTERS}); \
                 analyze or solve this variant instead"
            )
        })
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let start = match variant.get("heaps") {
            None => vec![3, 4, 5],
            Some(text) => parse_heap_list(text).map_err(|reason| VariantError::BadValue {
                name: "heaps".into(),
                value: text.into(),
                reason,
            })?,
        };
        let play = match variant.choice("play", "normal", &["normal", "misere", "misère"])? {
            "normal" => Play::Normal,
            _ => Play::Misere,
        };
        Ok(Nim { start, play })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set(
            "heaps",
            self.start
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("-"),
        );
        v.set("play", self.play.as_str());
        v
    }
}

impl Game for Nim {
    type State = NimState;
    type Move = NimMove;

    const NAME: &'static str = "nim";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> NimState {
        NimState::new(self.start.clone())
    }

    fn turn(&self, state: &NimState) -> Turn {
        if state.heaps.iter().all(|&h| h == 0) {
            let mover = state.mover as Seat;
            let winner = match self.play {
                Play::Normal => 1 - mover,
                Play::Misere => mover,
            };
            Turn::Over(Outcome::Win(winner))
        } else {
            Turn::Move(state.mover as Seat)
        }
    }

    fn legal_moves(&self, state: &NimState, out: &mut Vec<NimMove>) {
        for (i, &h) in state.heaps.iter().enumerate() {
            // Taking the whole heap first: the most natural move to list first.
            out.extend((0..h).map(|to| NimMove { heap: i as u8, to }));
        }
    }

    fn play_unchecked(&self, state: &mut NimState, mv: NimMove) {
        if let Some(h) = state.heaps.get_mut(mv.heap as usize) {
            *h = mv.to.min(*h);
        }
        state.mover ^= 1;
    }

    /// Both players take from the same heaps: Sprague-Grundy applies.
    const IMPARTIAL: bool = true;
}

impl Notation for Nim {
    fn parse_move(&self, state: &NimState, text: &str) -> Result<NimMove, ParseError> {
        parse_move(state, text)
    }

    fn format_move(&self, state: &NimState, mv: NimMove) -> String {
        let from = state.heaps.get(mv.heap as usize).copied().unwrap_or(0);
        format!("{}:{}->{}", mv.heap as usize + 1, from, mv.to)
    }

    fn parse_position(&self, text: &str) -> Result<NimState, ParseError> {
        parse_position(text)
    }

    fn format_position(&self, state: &NimState) -> String {
        let heaps = state
            .heaps
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        if state.mover == 0 {
            heaps
        } else {
            format!("{heaps} R")
        }
    }
}

impl Presentation for Nim {
    fn render_text(&self, state: &NimState) -> String {
        let mut s = String::new();
        let width = state.heaps.iter().copied().max().unwrap_or(0).min(40) as usize;
        for (i, &h) in state.heaps.iter().enumerate() {
            let shown = (h as usize).min(40);
            let mut bar = "o".repeat(shown);
            if (h as usize) > shown {
                bar.push('…');
            }
            s.push_str(&format!(
                "heap {:>2}: {:<w$}  {}\n",
                i + 1,
                bar,
                h,
                w = width + 1
            ));
        }
        let sum = state.nim_sum();
        let who = SEATS[state.mover as usize];
        s.push_str(&format!(
            "nim-sum {}; {} ({}) to move\n",
            sum.0,
            who,
            seat_letter(state.mover)
        ));
        s
    }

    fn view(&self, state: &NimState) -> View {
        view(state, &self.start, self.play)
    }

    fn move_cells(&self, _state: &NimState, mv: NimMove) -> Vec<u32> {
        // One click: on the lowest counter taken (it and all above it go).
        vec![cell_id(mv.heap as usize, mv.to)]
    }

    fn move_words(&self, state: &NimState, mv: NimMove) -> String {
        let from = state.heaps.get(mv.heap as usize).copied().unwrap_or(0);
        let taken = from.saturating_sub(mv.to);
        format!(
            "take {taken} from heap {}, leaving {}",
            mv.heap as usize + 1,
            mv.to
        )
    }

    fn describe_move(&self, state: &NimState, mv: NimMove) -> String {
        let from = state.heaps.get(mv.heap as usize).copied().unwrap_or(0);
        format!(
            "{} (heap {} from {} to {}, taking {})",
            self.format_move(state, mv),
            mv.heap as usize + 1,
            from,
            mv.to,
            from.saturating_sub(mv.to)
        )
    }
}

impl Symmetry for Nim {}

impl ExactAnalysis for Nim {
    fn position_bound(&self, start: &NimState) -> Option<u64> {
        Some(
            start
                .heaps
                .iter()
                .fold(2u64, |n, &h| n.saturating_mul(h as u64 + 1)),
        )
    }

    fn state_heap_bytes(&self, state: &NimState) -> usize {
        // The heaps' allocation, with the allocator's own bookkeeping.
        (state.heaps.len() * 4).next_multiple_of(16) + 16
    }

    fn is_small(&self) -> bool {
        // Reachable positions: every heap at any size up to its start, either seat to move.
        let mut count: u64 = 2;
        for &h in &self.start {
            count = count.saturating_mul(h as u64 + 1);
        }
        count <= 4_000_000
    }

    fn exact_oracle(
        &self,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<Arc<dyn Oracle<Self>>, BuildError>> {
        Some(Ok(analysis::NimOracle::shared(self.play)))
    }

    /// The nim-sum rule: nothing to build (the remoteness memo grows as used).
    fn exact_oracle_bytes(&self) -> Option<u64> {
        Some(0)
    }

    fn analysis_extra(&self, state: &NimState) -> Option<tabula_core::AnalysisExtra> {
        Some(tabula_core::AnalysisExtra {
            sections: analysis::analyze(self, state).sections(),
            ..Default::default()
        })
    }
}

impl Players for Nim {
    fn evaluate(&self, state: &NimState, seat: Seat) -> f64 {
        let mover_wins = self.mover_wins(&state.heaps);
        let good = mover_wins == (seat == state.mover as Seat);
        if good {
            0.9
        } else {
            -0.9
        }
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![OwnPlayer::plain(
            PlayerKind::new(
                "nim",
                "plays a winning move (nim-sum 0, or the misère rule) when there is one; otherwise takes one counter from the largest heap",
            )
            .with_words("The winning Nim strategy"),
            |_| NimPlayer,
        )]
    }
}

impl MatchRules for Nim {}

/// Cell id of place `index` (0-based from the left) of heap `heap`: the same in
/// every position, whatever the other heaps hold, so a move's cells and a heap's
/// places never move ([`MAX_HEAP`] places fit in a heap's stride).
fn cell_id(heap: usize, index: u32) -> u32 {
    heap as u32 * (MAX_HEAP + 1) + index
}

/// The board: one row per heap, as many places as the heap held at the start
/// of the game (or holds now, if more), a counter on each place still filled.
/// An emptied heap keeps its row and the board keeps its size, so nothing moves
/// while a game is played or reviewed.
fn view(state: &NimState, start: &[u32], play: Play) -> View {
    let heaps = state.heaps.len().max(start.len());
    let extent = |i: usize| {
        state
            .heaps
            .get(i)
            .copied()
            .unwrap_or(0)
            .max(start.get(i).copied().unwrap_or(0))
    };
    let width = (0..heaps).map(extent).max().unwrap_or(0).max(1);
    let mut v = View {
        // Room on the left for the heaps' names.
        width: f64::from(width) + 2.0,
        height: heaps as f64,
        layout: tabula_core::Layout::Heaps {
            heaps: heaps as u32,
        },
        labels: tabula_core::LabelPlace::RowStart,
        ..View::default()
    };
    for i in 0..heaps {
        let filled = state.heaps.get(i).copied().unwrap_or(0);
        for j in 0..extent(i) {
            let id = cell_id(i, j);
            v.cells.push(ViewCell {
                id,
                x: 2.0 + f64::from(j),
                y: i as f64,
                w: 1.0,
                h: 1.0,
                label: (j == 0).then(|| format!("heap {}", i + 1)),
                ..ViewCell::default()
            });
            if j < filled {
                v.pieces.push(ViewPiece {
                    cell: id,
                    owner: None,
                    label: None,
                });
            }
        }
    }
    let sum = state.nim_sum();
    v.facts.push(tabula_core::Fact::new(
        "Nim-sum",
        tabula_core::FactValue::Integer(i64::try_from(sum.0).unwrap_or(i64::MAX)),
    ));
    v.status.push(format!("nim-sum {}", sum.0));
    v.status.push(format!(
        "{} to move ({} play)",
        SEATS[state.mover as usize],
        play.as_str()
    ));
    v
}

/// A whole number of a move; `what` names it in the message when it is not one.
/// A number too large for any heap is said to be so, not "not a whole number".
fn parse_number(word: &str, what: &str) -> Result<u32, ParseError> {
    let w = word.trim();
    w.parse::<u32>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => ParseError::new(format!(
            "{what} {w} is far more than any heap has (a heap holds at most {MAX_HEAP} counters)"
        )),
        _ => ParseError::new(format!("{what} '{w}' is not a whole number")),
    })
}

/// Reads `H:F->T` (heap H, 1-based, from F counters to T), `H->T` or `heap H to T`.
fn parse_move(state: &NimState, text: &str) -> Result<NimMove, ParseError> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let (heap_text, from_text, to_text) = if let Some(rest) = lower.strip_prefix("heap") {
        let (h, to) = rest.split_once(" to ").ok_or_else(|| {
            ParseError::new(format!("cannot read move '{t}': expected 'heap H to T'"))
        })?;
        (h.to_string(), None, to.to_string())
    } else if let Some((left, to)) = lower.split_once("->") {
        match left.split_once(':') {
            Some((h, from)) => (h.to_string(), Some(from.to_string()), to.to_string()),
            None => (left.to_string(), None, to.to_string()),
        }
    } else if let Some((h, taken)) = lower
        .split_once(':')
        .or_else(|| lower.split_once(char::is_whitespace))
    {
        // "1 2" or "1:2": the heap, then how many counters to take from it (a
        // player says what they take, not what they leave).
        return parse_take(state, t, h, taken);
    } else {
        return Err(ParseError::new(format!(
            "cannot read move '{t}': write the heap and how many to take, like 1:2 (take 2 from heap 1), or HEAP:FROM->TO like 1:3->1"
        )));
    };
    let heap = parse_heap(state, &heap_text)?;
    let to = parse_number(&to_text, "new heap size")?;
    let size = state.heaps[heap as usize - 1];
    if let Some(from) = from_text {
        let from = parse_number(&from, "heap size")?;
        if from != size {
            return Err(ParseError::new(format!(
                "heap {heap} has {size} counters, not {from}"
            )));
        }
    }
    if to >= size {
        return Err(ParseError::new(format!(
            "heap {heap} has {size} counters: a move must leave fewer (0 to {})",
            size.saturating_sub(1)
        )));
    }
    Ok(NimMove {
        heap: (heap - 1) as u8,
        to,
    })
}

/// Reads a heap's number (1-based), one of `state`'s heaps.
fn parse_heap(state: &NimState, heap_text: &str) -> Result<u32, ParseError> {
    let count = state.heaps.len();
    let heap = parse_number(heap_text, "heap").map_err(|e| {
        if heap_text.trim().bytes().all(|b| b.is_ascii_digit()) {
            ParseError::new(format!(
                "no heap {}: heaps are numbered 1 to {count}",
                heap_text.trim()
            ))
        } else {
            e
        }
    })?;
    if heap == 0 || heap as usize > count {
        return Err(ParseError::new(format!(
            "no heap {heap}: heaps are numbered 1 to {count}"
        )));
    }
    Ok(heap)
}

/// Reads a move written as the heap and the counters taken (`1:2`, `1 2`: take
/// 2 from heap 1); `t` is the whole text, for the errors.
fn parse_take(
    state: &NimState,
    t: &str,
    heap_text: &str,
    taken_text: &str,
) -> Result<NimMove, ParseError> {
    let heap = parse_heap(state, heap_text)?;
    let taken = parse_number(taken_text, "the number to take").map_err(|e| {
        ParseError::new(format!(
            "cannot read move '{t}': {e}; write the heap and how many to take, like 1:2 (take 2 from heap 1)"
        ))
    })?;
    let size = state.heaps[heap as usize - 1];
    if taken == 0 || taken > size {
        return Err(ParseError::new(match size {
            0 => format!("heap {heap} is empty: take from another heap"),
            1 => format!("heap {heap} has 1 counter: take 1"),
            _ => format!("heap {heap} has {size} counters: take 1 to {size}"),
        }));
    }
    Ok(NimMove {
        heap: (heap - 1) as u8,
        to: size - taken,
    })
}

/// Reads `3 4 5` (Lucy to move) or `3 4 5 R` (Robert to move; `L` is accepted too).
fn parse_position(text: &str) -> Result<NimState, ParseError> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let mut mover = 0u8;
    if let Some(last) = words.last() {
        match last.to_ascii_lowercase().as_str() {
            "l" | "lucy" => {
                words.pop();
            }
            "r" | "robert" => {
                mover = 1;
                words.pop();
            }
            _ => {}
        }
    }
    if words.is_empty() {
        return Err(ParseError::new(
            "empty Nim position: write heap sizes separated by spaces, like '3 4 5' (add ' R' when Robert is to move)",
        ));
    }
    if words.len() > MAX_HEAPS {
        return Err(ParseError::new(format!(
            "{} heaps: at most {MAX_HEAPS} are allowed",
            words.len()
        )));
    }
    let mut heaps = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let h: u32 = w.parse().map_err(|e: std::num::ParseIntError| {
            if *e.kind() == std::num::IntErrorKind::PosOverflow {
                return ParseError::new(format!(
                    "heap {} has {w} counters: at most {MAX_HEAP}",
                    i + 1
                ));
            }
            ParseError::new(format!(
                "heap {} '{w}' is not a whole number (a Nim position is heap sizes separated by spaces, then optionally L or R for the side to move)",
                i + 1
            ))
        })?;
        if h > MAX_HEAP {
            return Err(ParseError::new(format!(
                "heap {} has {h} counters: at most {MAX_HEAP}",
                i + 1
            )));
        }
        heaps.push(h);
    }
    Ok(NimState { heaps, mover })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tabula_core::GameExt;

    #[test]
    fn variant_round_trips_and_rejects_bad_values() {
        let v = Variant::parse("heaps=1-2-3,play=misere").unwrap();
        let g = Nim::from_variant(&v).unwrap();
        assert_eq!(g.start, vec![1, 2, 3]);
        assert_eq!(g.play, Play::Misere);
        assert_eq!(Nim::from_variant(&g.variant()).unwrap(), g);
        assert_eq!(
            Nim::from_variant(&Variant::default()).unwrap(),
            Nim::default()
        );
        for bad in ["heaps=3-x", "heaps=70000", "play=loser", "size=3"] {
            let e = Nim::from_variant(&Variant::parse(bad).unwrap()).unwrap_err();
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn numbers_too_large_for_a_heap_are_said_to_be_so() {
        let g = Nim::default();
        let s = g.initial_state();
        let e = g
            .parse_move(&s, "1:3->99999999999999")
            .unwrap_err()
            .to_string();
        assert!(e.contains("far more than any heap has"), "{e}");
        assert!(!e.contains("not a whole number"), "{e}");
        let e = g
            .parse_move(&s, "99999999999999:3->1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no heap 99999999999999"), "{e}");
        let e = g.parse_move(&s, "1:x->1").unwrap_err().to_string();
        assert!(e.contains("not a whole number"), "{e}");
        let e = g.parse_position("3 99999999999 5").unwrap_err().to_string();
        assert!(e.contains("at most 65535"), "{e}");
        let e = Nim::from_variant(&Variant::parse("heaps=3-99999999999").unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than 65535"), "{e}");
    }

    #[test]
    fn a_move_reads_as_the_heap_and_the_counters_taken() {
        let g = Nim::default();
        let s = g.initial_state(); // heaps 3 4 5
        let take_two = NimMove { heap: 0, to: 1 };
        for text in ["1:2", "1 2", " 1  2 ", "1:3->1", "1->1", "heap 1 to 1"] {
            assert_eq!(g.parse_move(&s, text), Ok(take_two), "{text}");
        }
        assert_eq!(g.parse_move(&s, "3 5"), Ok(NimMove { heap: 2, to: 0 }));
        for (bad, says) in [
            ("1:4", "heap 1 has 3 counters: take 1 to 3"),
            ("1 0", "take 1 to 3"),
            ("4 1", "no heap 4: heaps are numbered 1 to 3"),
            ("1:x", "not a whole number"),
            ("1 2 3", "not a whole number"),
            ("99999999999999:1", "no heap 99999999999999"),
        ] {
            let e = g.parse_move(&s, bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        let empty = g.parse_position("0 4 5").unwrap();
        let e = g.parse_move(&empty, "1 1").unwrap_err().to_string();
        assert!(e.contains("heap 1 is empty"), "{e}");
    }

    #[test]
    fn positions_round_trip_with_the_side_to_move() {
        let g = Nim::default();
        for text in ["1 2 3", "3 4 5 R", "0 0 7", "0"] {
            let s = g.parse_position(text).unwrap();
            assert_eq!(g.format_position(&s), text);
        }
        assert_eq!(
            g.parse_position("  3  4 5 l ").unwrap(),
            NimState::new(vec![3, 4, 5])
        );
        for bad in ["", "R", "3 x 5", "-1", "1 2 99999999999", "3 4 5 Q"] {
            assert!(g.parse_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_round_trip_and_bad_moves_are_explained() {
        let g = Nim::default();
        let s = g.parse_position("3 4 5").unwrap();
        for mv in g.moves(&s) {
            let text = g.format_move(&s, mv);
            assert_eq!(g.parse_move(&s, &text).unwrap(), mv, "{text}");
        }
        assert_eq!(
            g.parse_move(&s, "1->1").unwrap(),
            NimMove { heap: 0, to: 1 }
        );
        assert_eq!(
            g.parse_move(&s, "heap 3 to 0").unwrap(),
            NimMove { heap: 2, to: 0 }
        );
        let e = g.parse_move(&s, "4:1->0").unwrap_err();
        assert!(e.message.contains("no heap 4"), "{e}");
        let e = g.parse_move(&s, "1:4->1").unwrap_err();
        assert!(e.message.contains("has 3 counters"), "{e}");
        let e = g.parse_move(&s, "1->3").unwrap_err();
        assert!(e.message.contains("fewer"), "{e}");
        assert!(g.parse_move(&s, "take two").is_err());
    }

    #[test]
    fn the_game_ends_when_the_heaps_are_empty() {
        let normal = Nim::default();
        let misere = Nim::new(vec![1], Play::Misere);
        let mut s = NimState::new(vec![0, 2]);
        assert_eq!(normal.turn(&s), Turn::Move(0));
        normal.play_unchecked(&mut s, NimMove { heap: 1, to: 0 });
        // Lucy took the last counter: she wins normal play and loses misère play.
        assert_eq!(normal.turn(&s), Turn::Over(Outcome::Win(0)));
        assert_eq!(misere.turn(&s), Turn::Over(Outcome::Win(1)));
    }

    #[test]
    fn legal_moves_count_is_the_number_of_counters() {
        let g = Nim::default();
        let s = g.parse_position("3 0 5").unwrap();
        assert_eq!(g.moves(&s).len(), 8);
        assert!(g.is_small());
        assert!(!Nim::new(vec![65535; 3], Play::Normal).is_small());
    }

    #[test]
    fn view_has_one_click_per_move() {
        let g = Nim::default();
        let s = g.parse_position("3 4 5").unwrap();
        let v = g.view(&s);
        assert_eq!(v.cells.len(), 12);
        let mut seen = std::collections::HashSet::new();
        for mv in g.moves(&s) {
            let cells = g.move_cells(&s, mv);
            assert_eq!(cells.len(), 1);
            assert!(v.cells.iter().any(|c| c.id == cells[0]));
            assert!(seen.insert(cells[0]), "two moves share a click");
        }
        assert!(g.render_text(&s).contains("nim-sum 2"));
    }

    #[test]
    fn heaps_keep_their_places_and_ids_as_they_empty() {
        let g = Nim::default();
        let start = g.initial_state();
        let full = g.view(&start);
        // Heap 1 emptied, heap 3 down to 2: the same places, fewer counters.
        let later = g.parse_position("0 4 2").unwrap();
        let v = g.view(&later);
        let places = |v: &View| {
            v.cells
                .iter()
                .map(|c| (c.id, c.x.to_bits(), c.y.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(places(&v), places(&full));
        assert_eq!((v.width, v.height), (full.width, full.height));
        assert_eq!(v.pieces.len(), 6);
        // A move's cell is the same id before and after it is played, in its heap's row.
        let mv = g.parse_move(&later, "3:2->0").unwrap();
        let cell = g.move_cells(&later, mv)[0];
        let row = |id: u32| v.cells.iter().find(|c| c.id == id).unwrap().y;
        assert_eq!(row(cell), 2.0);
        let mut after = later.clone();
        g.play_unchecked(&mut after, mv);
        assert_eq!(g.move_cells(&after, mv), vec![cell]);
        let empty = g.view(&after);
        assert!(empty.cells.iter().any(|c| c.id == cell));
        assert!(!empty.pieces.iter().any(|p| p.cell == cell));
    }

    proptest! {
        #[test]
        fn parsing_arbitrary_text_never_panics(text in "\\PC{0,40}") {
            let g = Nim::default();
            let _ = g.parse_position(&text);
            let s = NimState::new(vec![3, 4, 5]);
            let _ = g.parse_move(&s, &text);
        }
    }
}
