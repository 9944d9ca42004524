//! Mu Torere, the Maori game on an eight-pointed star (as the 2006 blog describes it).
//!
//! Each side has four pieces on adjacent rim points; the putahi (centre) starts
//! empty. A move takes a piece into the one empty point: along the rim to a
//! neighbouring point, from the putahi to any point, or from a rim point into
//! the putahi — the last only when the moving piece has an enemy piece on a rim
//! neighbour (variants relax this). A player who cannot move loses.
//!
//! See `crates/games/mutorere/docs/mutorere.md` for the notation, the variants and the figures.

mod actions;
pub mod board;
pub mod counting;
pub mod notation;
pub mod rules;
pub mod view;

pub use board::{Cell, MtMove, MtState};
pub use rules::MtRules;

use board::{next, prev, CENTRE, POINTS, RIM};
use serde_json::json;
use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};
use tabula_core::{
    Game, MoveError, Outcome, ParseError, PlayDrawRule, Registered, Seat, Turn, Variant,
    VariantChoice, VariantError, VariantOption, View,
};

/// Mu Torere with its rule variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuTorere {
    /// When a piece may enter the putahi.
    pub rules: MtRules,
    /// Misère play (`play=misere`): a side that cannot move wins.
    pub misere: bool,
}

impl Default for MuTorere {
    fn default() -> Self {
        MuTorere {
            rules: MtRules::Usual,
            misere: false,
        }
    }
}

const SEATS: [&str; 2] = ["White", "Black"];

impl MuTorere {
    /// The game under the given rules.
    pub fn new(rules: MtRules) -> Self {
        MuTorere {
            rules,
            misere: false,
        }
    }

    /// The same rules in misère play (`true`: a side that cannot move wins).
    pub fn with_misere(self, misere: bool) -> Self {
        MuTorere { misere, ..self }
    }

    fn status(&self, state: &MtState) -> Vec<String> {
        let mut lines = vec![match self.turn(state) {
            Turn::Over(Outcome::Win(w)) if self.misere => {
                format!("{} cannot move and wins (misère)", SEATS[w])
            }
            Turn::Over(Outcome::Win(w)) => {
                format!("{} wins: {} cannot move", SEATS[w], SEATS[1 - w])
            }
            _ => format!("{} to move", SEATS[usize::from(state.to_move)]),
        }];
        if let MtRules::Best { plies } = self.rules {
            if state.opening_plies < plies {
                lines.push(format!(
                    "opening: putahi restricted for {} more ply(ies)",
                    plies - state.opening_plies
                ));
            }
        }
        lines
    }

    /// Number of moves `seat` would have if it were to move.
    fn mobility(&self, state: &MtState, seat: u8) -> usize {
        let mut s = *state;
        s.to_move = seat;
        let mut out = Vec::new();
        self.rules.legal_moves(&s, &mut out);
        out.len()
    }

    /// The rim point `p` under symmetry `k` (0..8 rotations, 8..16 reflections).
    fn map_point(p: u8, k: usize) -> u8 {
        if p == CENTRE {
            return CENTRE;
        }
        let i = usize::from(p - 1);
        let r = k % 8;
        let j = if k < 8 { (i + r) % 8 } else { (8 - i + r) % 8 };
        j as u8 + 1
    }
}

impl Game for MuTorere {
    type State = MtState;
    type Move = MtMove;

    const NAME: &'static str = "mu-torere";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    /// White (moving first) on points 7, 8, 1, 2 — the blog's user "on the left and
    /// the top" — and Black on 3, 4, 5, 6.
    fn initial_state(&self) -> MtState {
        let mut cells = [Cell::Empty; POINTS];
        for p in [7, 8, 1, 2] {
            cells[p] = Cell::Piece(0);
        }
        for p in [3, 4, 5, 6] {
            cells[p] = Cell::Piece(1);
        }
        MtState {
            cells,
            to_move: 0,
            opening_plies: 0,
        }
    }

    fn turn(&self, state: &MtState) -> Turn {
        let mut out = Vec::with_capacity(4);
        self.rules.legal_moves(state, &mut out);
        if out.is_empty() {
            let stuck = state.to_move;
            Turn::Over(Outcome::Win(usize::from(if self.misere {
                stuck
            } else {
                stuck ^ 1
            })))
        } else {
            Turn::Move(usize::from(state.to_move))
        }
    }

    fn legal_moves(&self, state: &MtState, out: &mut Vec<MtMove>) {
        self.rules.legal_moves(state, out);
    }

    fn play_unchecked(&self, state: &mut MtState, mv: MtMove) {
        self.rules.play(state, mv);
    }

    fn try_play(&self, state: &mut MtState, mv: MtMove) -> Result<(), MoveError> {
        if self.turn(state).is_over() {
            return Err(MoveError::GameOver);
        }
        let illegal = |reason: String| MoveError::Illegal {
            mv: notation::format_move(mv),
            reason,
        };
        if usize::from(mv.from) >= POINTS || usize::from(mv.to) >= POINTS {
            return Err(illegal("no such point".into()));
        }
        if mv.to != state.empty_point() {
            return Err(illegal("a piece can only move to the empty point".into()));
        }
        match state.cells[usize::from(mv.from)] {
            Cell::Piece(s) if s == state.to_move => {}
            Cell::Piece(_) => return Err(illegal("that piece is not yours".into())),
            Cell::Empty => return Err(illegal("there is no piece there".into())),
        }
        let adjacent = mv.from == CENTRE
            || mv.to == CENTRE
            || mv.to == next(mv.from)
            || mv.to == prev(mv.from);
        if !adjacent {
            return Err(illegal(
                "pieces move along a line to a neighbouring point".into(),
            ));
        }
        if mv.to == CENTRE && self.rules.restricted(state) && !state.next_to_enemy(mv.from) {
            return Err(illegal(
                "a piece may enter the putahi only when an enemy piece is next to it".into(),
            ));
        }
        let mut legal = Vec::with_capacity(4);
        self.rules.legal_moves(state, &mut legal);
        if !legal.contains(&mv) {
            return Err(illegal(
                "the first move must leave the other player a move".into(),
            ));
        }
        self.rules.play(state, mv);
        Ok(())
    }
}

impl Notation for MuTorere {
    fn parse_move(&self, state: &MtState, text: &str) -> Result<MtMove, ParseError> {
        notation::parse_move(state, text)
    }

    fn format_move(&self, _state: &MtState, mv: MtMove) -> String {
        notation::format_move(mv)
    }

    fn parse_position(&self, text: &str) -> Result<MtState, ParseError> {
        notation::parse_position(self.rules, text)
    }

    fn format_position(&self, state: &MtState) -> String {
        notation::format_position(self.rules, state)
    }
}

impl Presentation for MuTorere {
    fn render_text(&self, state: &MtState) -> String {
        view::render_text(state, &self.status(state).join("; "))
    }

    fn view(&self, state: &MtState) -> View {
        let mut v = view::view(state, &SEATS, self.status(state));
        if let MtRules::Best { plies } = self.rules {
            if state.opening_plies < plies {
                let left = plies - state.opening_plies;
                v.facts.push(tabula_core::Fact::new(
                    "Opening",
                    tabula_core::FactValue::Text(format!(
                        "the centre only beside an enemy piece, {left} more {}",
                        if left == 1 { "ply" } else { "plies" }
                    )),
                ));
            }
        }
        v
    }

    fn move_cells(&self, _state: &MtState, mv: MtMove) -> Vec<u32> {
        vec![u32::from(mv.from), u32::from(mv.to)]
    }
}

impl Symmetry for MuTorere {
    fn symmetry_count(&self) -> usize {
        16
    }

    fn map_state(&self, state: &MtState, k: usize) -> MtState {
        let mut cells = [Cell::Empty; POINTS];
        for p in 0..POINTS as u8 {
            cells[usize::from(Self::map_point(p, k))] = state.cells[usize::from(p)];
        }
        MtState { cells, ..*state }
    }

    fn map_move(&self, _state: &MtState, mv: MtMove, k: usize) -> MtMove {
        MtMove {
            from: Self::map_point(mv.from, k),
            to: Self::map_point(mv.to, k),
        }
    }

    fn inverse_symmetry(&self, k: usize) -> usize {
        if k < 8 {
            (8 - k) % 8
        } else {
            k
        }
    }
}

impl ExactAnalysis for MuTorere {
    fn is_small(&self) -> bool {
        true
    }
}

impl Players for MuTorere {
    /// Mobility difference: a side with more ways to move is further from being
    /// blocked (reversed in misère play, where being blocked wins).
    fn evaluate(&self, state: &MtState, seat: Seat) -> f64 {
        let me = seat as u8;
        let mine = self.mobility(state, me) as f64;
        let theirs = self.mobility(state, me ^ 1) as f64;
        let v = ((mine - theirs) / 4.0).clamp(-1.0, 1.0);
        if self.misere {
            -v
        } else {
            v
        }
    }
}

impl MatchRules for MuTorere {
    /// Play ends in a draw when a position recurs three times (the game graph has
    /// cycles and no captures, so there is no move-count rule).
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule {
            repetitions: Some(3),
            plies_without_progress: None,
        }
    }

    fn is_progress(&self, _state: &MtState, _mv: MtMove) -> bool {
        false
    }
}

/// Colour counts of a full arrangement over the centre then the rim: 4 White, 4 Black, 1 empty.
const PIECES: [usize; 3] = [4, 4, 1];

/// The `tabula count mu-torere` report, typed: the counts of arrangements up to
/// each group of symmetries side by side, by Burnside's lemma and by enumeration.
pub fn count_results() -> tabula_core::CountReport {
    use counting::{
        burnside_orbits, cycle_index, cyclic_group, dihedral_group, orbits_by_enumeration,
    };
    use tabula_core::{CountReport, FactValue, Section, Table};
    let identity: Vec<Vec<usize>> = vec![(0..POINTS).collect()];
    let groups = [
        (
            "rotations",
            cyclic_group(RIM as usize, 1),
            cyclic_group(RIM as usize, 0),
        ),
        (
            "rotations and reflections",
            dihedral_group(RIM as usize, 1),
            dihedral_group(RIM as usize, 0),
        ),
    ];
    let labelled = burnside_orbits(&identity, &PIECES);
    let mut rows: Vec<Vec<String>> = vec![
        vec!["arrangements".into(), labelled.to_string()],
        vec!["centre empty".into(), String::new()],
        vec!["centre white".into(), String::new()],
        vec!["centre black".into(), String::new()],
        vec!["counted one by one".into(), labelled.to_string()],
        vec!["with the side to move".into(), (2 * labelled).to_string()],
    ];
    let mut cycle_indices = Vec::new();
    let mut agree = true;
    for (name, star, rim) in &groups {
        let empty = burnside_orbits(rim, &[4, 4, 0]);
        let white = burnside_orbits(rim, &[3, 4, 1]);
        let black = burnside_orbits(rim, &[4, 3, 1]);
        let total = burnside_orbits(star, &PIECES);
        let enumerated = orbits_by_enumeration(star, &PIECES);
        agree &= total == enumerated && total == empty + white + black;
        for (row, v) in rows
            .iter_mut()
            .zip([total, empty, white, black, enumerated, 2 * total])
        {
            row.push(v.to_string());
        }
        cycle_indices.push(vec![
            name.to_string(),
            star.len().to_string(),
            cycle_index(rim),
        ]);
    }
    CountReport {
        summary: format!(
            "Mu Torere's {POINTS} points hold 4 White, 4 Black and one empty point: {labelled} \
             arrangements, {} up to rotation and {} up to rotation and reflection.",
            rows[0][2], rows[0][3]
        ),
        sections: vec![
            Section::new("Arrangements")
                .note(if agree {
                    "Burnside's lemma and counting one by one agree."
                } else {
                    "Burnside's lemma and counting one by one DISAGREE."
                })
                .with(
                    "Counts",
                    FactValue::Table(Table {
                        columns: [
                            "",
                            "as drawn",
                            "up to rotation",
                            "up to rotation and reflection",
                        ]
                        .map(String::from)
                        .to_vec(),
                        rows,
                    }),
                ),
            Section::new("The groups acting on the rim").with(
                "Groups",
                FactValue::Table(Table {
                    columns: ["group", "order", "cycle index"].map(String::from).to_vec(),
                    rows: cycle_indices,
                }),
            ),
        ],
    }
}

/// The `tabula count mu-torere` report: arrangements of 4 White, 4 Black and one
/// empty point up to rotation, and up to rotation and reflection, by Burnside's
/// lemma and by enumerating orbits.
pub fn count_report() -> serde_json::Value {
    use counting::{
        burnside_orbits, cycle_index, cyclic_group, dihedral_group, orbits_by_enumeration,
    };
    let section = |name: &str, star: Vec<Vec<usize>>, rim: Vec<Vec<usize>>| {
        // The centre is a fixed point of every symmetry, so splitting by what stands
        // there leaves the rim alone with one colour one short (or the empty point gone).
        let centre_empty = burnside_orbits(&rim, &[4, 4, 0]);
        let centre_white = burnside_orbits(&rim, &[3, 4, 1]);
        let centre_black = burnside_orbits(&rim, &[4, 3, 1]);
        let total = burnside_orbits(&star, &PIECES);
        let enumerated = orbits_by_enumeration(&star, &PIECES);
        json!({
            "group": name,
            "group_order": star.len(),
            "cycle_index_rim": cycle_index(&rim),
            "total": total,
            "centre_empty": centre_empty,
            "centre_white": centre_white,
            "centre_black": centre_black,
            "total_by_enumeration": enumerated,
            "agrees": total == enumerated && total == centre_empty + centre_white + centre_black,
            "with_side_to_move": 2 * total,
        })
    };
    let identity: Vec<Vec<usize>> = vec![(0..POINTS).collect()];
    json!({
        "game": "mu-torere",
        "points": POINTS,
        "colours": {"white": 4, "black": 4, "empty": 1},
        "labelled": {
            "total": burnside_orbits(&identity, &PIECES),
            "with_side_to_move": 2 * burnside_orbits(&identity, &PIECES),
        },
        "rotation": section("rotations (cyclic, order 8)", cyclic_group(RIM as usize, 1), cyclic_group(RIM as usize, 0)),
        "rotation_reflection": section(
            "rotations and reflections (dihedral, order 16)",
            dihedral_group(RIM as usize, 1),
            dihedral_group(RIM as usize, 0),
        ),
    })
}

impl Registered for MuTorere {
    /// White and Black pieces, and the centre point named as the players call it.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            seat_colours: vec![
                tabula_core::SeatColour::White,
                tabula_core::SeatColour::Black,
            ],
            marks: vec![tabula_core::MarkWords {
                mark: tabula_core::Mark::Centre,
                words: "the centre (pūtahi)",
            }],
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Mu Torere";
    fn level_base(&self) -> &'static str {
        "lookahead"
    }
    const SUMMARY: &'static str =
        "The Maori blocking game on an eight-pointed star: move into the one empty point; who cannot move loses.";

    /// Every rule set is solved; the usual game's count is GamesCrafters'.
    fn test_cases() -> tabula_core::TestCases {
        let solved = |v| tabula_core::VariantCase::new(v, true);
        tabula_core::TestCases {
            variants: vec![
                solved(""),
                solved("play=misere").summary(&["who cannot move wins"], &["cannot move loses"]),
                solved("rules=first_move"),
                solved("rules=free,play=misere"),
                solved("rules=first_move,play=misere"),
            ],
            counts: vec![tabula_core::KnownCount {
                variant: "",
                positions: 1180,
                value: Some(tabula_core::Value::Draw),
                remoteness: None,
                source: "GamesCrafters' analysis of Mu Torere (University of California, Berkeley)",
            }],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "Usual: into the centre only beside an enemy piece",
                variant: "",
            },
            tabula_core::Preset {
                name: "Opening only: that rule only in each player's first move",
                variant: "rules=best",
            },
            tabula_core::Preset {
                name: "Free: the centre always open",
                variant: "rules=free",
            },
            tabula_core::Preset {
                name: "Open centre, but the first move must leave a reply",
                variant: "rules=first_move",
            },
            tabula_core::Preset {
                name: "Misère: who cannot move wins",
                variant: "play=misere",
            },
        ]
    }

    /// Misère play: who cannot move wins.
    fn summary(&self) -> String {
        if self.misere {
            "The Maori blocking game on an eight-pointed star: move into the one empty point; misère: who cannot move wins.".into()
        } else {
            Self::SUMMARY.into()
        }
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "rules",
                label: "rules",
                default: "usual",
                help: "usual: a piece enters the centre only next to an enemy piece, always; best: only during the opening; free: no restriction; first_move: no restriction, but the first move must leave the other player a move", choices: &[
                    VariantChoice { value: "usual", words: "usual (centre only beside an enemy)" },
                    VariantChoice { value: "best", words: "opening restriction only" },
                    VariantChoice { value: "free", words: "free (no centre rule)" },
                    VariantChoice { value: "first_move", words: "free, but the first move must leave a move" },
                ],
            },
            VariantOption {
                name: "play",
                label: "play",
                default: "normal",
                help: "normal (who cannot move loses), or misere: who cannot move wins", choices: &[
                    VariantChoice { value: "normal", words: "normal (who cannot move loses)" },
                    VariantChoice { value: "misere", words: "misère (who cannot move wins)" },
                ],
            },
            VariantOption {
                name: "best_plies",
                label: "restricted opening moves",
                default: "2",
                help: "with the best rules: how many single moves (1 to 40) the restriction lasts; 2 = each player's first move, 4 = each player's first two moves", choices: &[],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        // `seed` is the name this rule had before (kept so saved games still load).
        let word = variant.choice(
            "rules",
            "usual",
            &["usual", "seed", "best", "free", "first_move"],
        )?;
        let misere = variant.choice("play", "normal", &["normal", "misere"])? == "misere";
        let plies = variant.int("best_plies", 2, 1, 40)? as u8;
        if word != "best" && variant.get("best_plies").is_some() {
            return Err(VariantError::BadValue {
                name: "best_plies".into(),
                value: variant.get("best_plies").unwrap_or_default().into(),
                reason: "only used with rules=best".into(),
            });
        }
        let rules = match word {
            "best" => MtRules::Best { plies },
            "free" => MtRules::Free,
            "first_move" => MtRules::FirstMove,
            _ => MtRules::Usual,
        };
        Ok(MuTorere { rules, misere })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set("rules", self.rules.word());
        if let MtRules::Best { plies } = self.rules {
            v.set("best_plies", plies.to_string());
        }
        if self.misere {
            v.set("play", "misere");
        }
        v
    }

    fn count_report(&self) -> Option<tabula_core::CountReport> {
        Some(count_results())
    }
}

#[cfg(test)]
mod tests;
