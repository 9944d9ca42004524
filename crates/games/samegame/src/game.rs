//! The `Game` and `Registered` implementations.

use crate::board::{Board, Group, Scan, MAX_COLOURS, MAX_SIDE, NO_GROUP};
use crate::player::SearchPlayer;
use crate::scoring::Scoring;
use crate::search;
use crate::text::{format_board, parse_board};
use std::cell::RefCell;
use tabula_core::{
    ClickTarget, Game, Layout, MoveError, Outcome, OwnPlayer, PanelFacts, ParseError, PlayerKind,
    Registered, Report, Seat, Shape, Turn, Variant, VariantChoice, VariantError, VariantOption,
    View, ViewCell, Words,
};
use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};

/// SameGame in one variant: the size, colours and seed of the starting board, and
/// the scoring rule. Positions given as text may have any size up to 100 x 100 and
/// any colours 1-9; the variant only shapes the random starting board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SameGame {
    /// Columns of the starting board.
    pub width: usize,
    /// Rows of the starting board.
    pub height: usize,
    /// Colours of the starting board (2..=9).
    pub colours: u8,
    /// Seed of the starting board (see [`Board::random`]); `None` (the default) deals
    /// a fresh random board for every new game (the Same Game tutorial's New), and commands that
    /// need one fixed board without being given one use seed 1.
    pub seed: Option<u64>,
    /// How groups and clearing score.
    pub scoring: Scoring,
}

impl Default for SameGame {
    fn default() -> Self {
        SameGame {
            width: 15,
            height: 15,
            colours: 3,
            seed: None,
            scoring: Scoring::Standard,
        }
    }
}

/// The board seed used when the variant names none and no new game is dealt.
pub const FIXED_SEED: u64 = 1;

/// A click on the canonical block of a group: the lowest block of the group's
/// leftmost column. Row 0 is the top row, column 0 the left column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Click {
    /// Row from the top.
    pub row: u8,
    /// Column from the left.
    pub col: u8,
}

thread_local! {
    static SCRATCH: RefCell<(Scan, Vec<Group>)> = RefCell::new((Scan::default(), Vec::new()));
}

/// Runs `f` with this thread's reusable group scan of `board`.
fn with_groups<R>(board: &Board, f: impl FnOnce(&Scan, &[Group]) -> R) -> R {
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let (scan, groups) = &mut *guard;
        groups.clear();
        board.label_groups(scan, groups);
        f(scan, groups)
    })
}

impl SameGame {
    /// The starting board of this variant.
    pub fn start_board(&self) -> Board {
        Board::random(
            self.width,
            self.height,
            self.colours,
            self.seed.unwrap_or(FIXED_SEED),
        )
    }

    /// The group under the block at row `r`, column `c`, if there is a block there.
    fn group_at(&self, board: &Board, r: usize, c: usize) -> Option<Group> {
        if board.colour(r, c) == 0 {
            return None;
        }
        let y = board.height() - 1 - r;
        with_groups(board, |scan, groups| {
            let label = scan.label[c * board.height() + y];
            (label != NO_GROUP).then(|| groups[label as usize])
        })
    }

    fn click_of(board: &Board, g: &Group) -> Click {
        Click {
            row: board.row_of(g.y as usize) as u8,
            col: g.col,
        }
    }

    /// Checks a click lands on a removable group; returns that group.
    fn removable(&self, board: &Board, mv: Click) -> Result<Group, String> {
        let (r, c) = (mv.row as usize, mv.col as usize);
        if r >= board.height() || c >= board.width() {
            return Err(format!(
                "row {r} column {c} is off the board ({} rows, {} columns)",
                board.height(),
                board.width()
            ));
        }
        let g = self
            .group_at(board, r, c)
            .ok_or_else(|| format!("row {r} column {c} is empty"))?;
        if g.size < 2 {
            return Err(format!(
                "the block at row {r} column {c} has no neighbour of the same colour"
            ));
        }
        Ok(g)
    }
}

impl Game for SameGame {
    type State = Board;
    type Move = Click;

    const NAME: &'static str = "samegame";

    fn seats(&self) -> &'static [&'static str] {
        &["Player"]
    }

    fn initial_state(&self) -> Board {
        self.start_board()
    }

    fn turn(&self, state: &Board) -> Turn {
        if state.has_move() {
            Turn::Move(0)
        } else if state.is_cleared() {
            Turn::Over(Outcome::Win(0))
        } else {
            Turn::Over(Outcome::Ended)
        }
    }

    fn legal_moves(&self, state: &Board, out: &mut Vec<Click>) {
        with_groups(state, |_, groups| {
            out.extend(
                groups
                    .iter()
                    .filter(|g| g.size >= 2)
                    .map(|g| Self::click_of(state, g)),
            );
        });
    }

    fn play_unchecked(&self, state: &mut Board, mv: Click) {
        let (r, c) = (mv.row as usize, mv.col as usize);
        if r >= state.height() {
            return;
        }
        let y = state.height() - 1 - r;
        SCRATCH.with(|cell| {
            let mut guard = cell.borrow_mut();
            state.play(c, y, self.scoring, &mut guard.0.stack);
        });
    }

    fn try_play(&self, state: &mut Board, mv: Click) -> Result<(), MoveError> {
        if !state.has_move() {
            return Err(MoveError::GameOver);
        }
        self.removable(state, mv)
            .map_err(|reason| MoveError::Illegal {
                mv: self.format_move(state, mv),
                reason,
            })?;
        self.play_unchecked(state, mv);
        Ok(())
    }
}

impl Notation for SameGame {
    fn parse_move(&self, state: &Board, text: &str) -> Result<Click, ParseError> {
        let cleaned: String = text
            .chars()
            .map(|ch| {
                if matches!(ch, ',' | '(' | ')' | '[' | ']') {
                    ' '
                } else {
                    ch
                }
            })
            .collect();
        let parts: Vec<&str> = cleaned.split_whitespace().collect();
        let [r, c] = parts[..] else {
            return Err(ParseError::new(format!(
                "expected 'row column' (row 0 at the top, column 0 at the left), like '14 0', got '{}'",
                text.trim()
            )));
        };
        let number = |s: &str, what: &str| {
            s.parse::<usize>()
                .map_err(|_| ParseError::new(format!("{what} '{s}' is not a whole number")))
        };
        let (r, c) = (number(r, "row")?, number(c, "column")?);
        if r >= state.height() || c >= state.width() {
            return Err(ParseError::new(format!(
                "row {r} column {c} is off the board (rows 0-{}, columns 0-{})",
                state.height() - 1,
                state.width() - 1
            )));
        }
        self.removable(
            state,
            Click {
                row: r as u8,
                col: c as u8,
            },
        )
        .map_err(ParseError::illegal)?;
        // The cell the user typed, not the group's representative: the log shows what was typed.
        Ok(Click {
            row: r as u8,
            col: c as u8,
        })
    }

    fn format_move(&self, _state: &Board, mv: Click) -> String {
        format!("{} {}", mv.row, mv.col)
    }

    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        parse_board(text)
    }

    fn format_position(&self, state: &Board) -> String {
        format_board(state)
    }
}

impl Presentation for SameGame {
    fn render_text(&self, state: &Board) -> String {
        let (w, h) = (state.width(), state.height());
        // Three columns a cell where 80 columns hold them; wider boards take two,
        // their column numbers written tens above units, and past 38 columns
        // the board comes in bands of columns (tabula_core::text_grid).
        let cells: Vec<Vec<String>> = (0..h)
            .map(|r| {
                (0..w)
                    .map(|c| match state.colour(r, c) {
                        0 => ".".to_string(),
                        k => k.to_string(),
                    })
                    .collect()
            })
            .collect();
        let mut out = tabula_core::grid_text(&cells, 0, 0, 3, tabula_core::BOARD_COLUMNS);
        for line in status_lines(state, self.scoring) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// One square cell per board place, id `row * width + column`, `colour` 1-9 for
    /// a block and none when empty. Every block of a removable group has the
    /// click target of the group, numbered by the group's move cell (what
    /// [`Presentation::move_cells`] gives), so a face lights the group under the
    /// pointer and turns a click anywhere on it into that move. The score card's
    /// facts are the score and the blocks left.
    fn view(&self, state: &Board) -> View {
        let (w, h) = (state.width(), state.height());
        let mut cells = Vec::with_capacity(w * h);
        with_groups(state, |scan, groups| {
            for r in 0..h {
                for c in 0..w {
                    let colour = state.colour(r, c);
                    let target = if colour == 0 {
                        ClickTarget::Cell
                    } else {
                        let g = groups[scan.label[c * h + (h - 1 - r)] as usize];
                        if g.size >= 2 {
                            ClickTarget::Group {
                                group: (state.row_of(g.y as usize) * w + g.col as usize) as u32,
                            }
                        } else {
                            ClickTarget::Cell
                        }
                    };
                    cells.push(ViewCell {
                        id: (r * w + c) as u32,
                        x: c as f64,
                        y: r as f64,
                        w: 1.0,
                        h: 1.0,
                        shape: Shape::Rect,
                        colour: (colour != 0).then_some(colour as u32),
                        label: None,
                        mark: None,
                        name: None,
                        target,
                    });
                }
            }
        });
        View {
            width: w as f64,
            height: h as f64,
            layout: Layout::Grid {
                columns: w as u32,
                rows: h as u32,
            },
            cells,
            status: status_lines(state, self.scoring),
            panels: vec![PanelFacts::Score {
                score: state.score(),
                left: state.blocks_left() as u64,
            }],
            ..View::default()
        }
    }

    fn move_cells(&self, state: &Board, mv: Click) -> Vec<u32> {
        vec![mv.row as u32 * state.width() as u32 + mv.col as u32]
    }

    fn score(&self, state: &Board) -> Option<i64> {
        Some(state.score())
    }

    fn move_words(&self, state: &Board, mv: Click) -> String {
        self.move_parts(state, mv).to_string()
    }

    /// "row r, column c" counted from 1 as a player counts (the notation a
    /// player types counts from 0 beside the terminal's numbered board) and the
    /// group, its colour as a colour; not its points, which a hint list and the
    /// score already show.
    fn move_parts(&self, state: &Board, mv: Click) -> Words {
        Words::text(format!(
            "row {}, column {}",
            u32::from(mv.row) + 1,
            u32::from(mv.col) + 1
        ))
        .and(self.group_words(state, mv, false))
    }

    fn describe_move(&self, state: &Board, mv: Click) -> String {
        Words::text(self.format_move(state, mv))
            .and(self.group_words(state, mv, true))
            .to_string()
    }
}

impl SameGame {
    /// What removing the group at `mv` brings, after the place clicked
    /// (": 3 blocks of colour 2", with `with_points` " (+1)"); nothing when no group
    /// is there.
    fn group_words(&self, state: &Board, mv: Click, with_points: bool) -> Words {
        let Ok(g) = self.removable(state, mv) else {
            return Words::new();
        };
        let points = self.scoring.group(g.size as usize);
        // The last group also brings the bonus for clearing the board:
        // said apart, so that it does not read as the group's points.
        let bonus = if state.blocks_left() == g.size as usize {
            self.scoring.clear_bonus()
        } else {
            0
        };
        let bonus = if bonus > 0 {
            format!(", and +{bonus} for clearing the board")
        } else {
            String::new()
        };
        let blocks =
            Words::text(format!(": {} blocks of ", g.size)).and_colour(u32::from(g.colour));
        if with_points {
            blocks.and_text(format!(" (+{points}{bonus})"))
        } else {
            blocks
        }
    }
}

impl Symmetry for SameGame {}

impl ExactAnalysis for SameGame {
    fn solve_report(
        &self,
        request: &Report,
        progress: &dyn Fn(f64),
    ) -> Option<Result<tabula_core::SolveReport, String>> {
        Some(search::solve_report(self, request, progress))
    }

    fn analysis_extra(&self, state: &Board) -> Option<tabula_core::AnalysisExtra> {
        use tabula_core::{AnalysisExtra, FactValue, Section};
        let (groups, largest) = with_groups(state, |_, groups| {
            let removable = groups.iter().filter(|g| g.size >= 2);
            (
                removable.clone().count(),
                removable.map(|g| g.size).max().unwrap_or(0),
            )
        });
        let counts = state.colour_counts();
        let colours = (1..=state.max_colour().max(1) as usize)
            .map(|c| {
                Words::new()
                    .and_colour(c as u32)
                    .and_text(format!(": {}", counts[c]))
            })
            .collect();
        Some(AnalysisExtra {
            sections: vec![Section::new("The board")
                .with("Score so far", FactValue::Integer(state.score()))
                .with(
                    "Blocks left",
                    FactValue::Integer(state.blocks_left() as i64),
                )
                .with(
                    "Groups that can be removed",
                    FactValue::Integer(groups as i64),
                )
                .with("Largest group", FactValue::Integer(largest as i64))
                .with("Blocks of each colour", FactValue::Phrases(colours))],
            ..AnalysisExtra::default()
        })
    }
}

impl Players for SameGame {
    /// Score plus what the colours left could still bring, squashed into -1..1.
    fn evaluate(&self, state: &Board, _seat: Seat) -> f64 {
        let counts = state.colour_counts();
        let potential: i64 = counts.iter().map(|&n| self.scoring.group(n as usize)).sum();
        let total = (state.score() + potential) as f64;
        total / (total.abs() + 1000.0)
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![OwnPlayer::with_options(
            PlayerKind::new(
                "search",
                "NRPA search (nested rollout policy adaptation) on both cores, plans the whole game once",
            )
            .with_options("search:seconds=S (default 1),level=N")
            .with_words("Search ahead (NRPA)"),
            |_, options, seed| SearchPlayer::from_options(options, seed),
        )]
    }
}

impl MatchRules for SameGame {}

fn status_lines(state: &Board, _scoring: Scoring) -> Vec<String> {
    // One line: with the board's 15 rows and the heading, the first screen
    // fits 24 rows.
    let mut lines = vec![format!(
        "score {} · blocks left {}",
        state.score(),
        state.blocks_left()
    )];
    if !state.has_move() {
        lines.push(if state.is_cleared() {
            "board cleared".into()
        } else {
            "no group of two left".into()
        });
    }
    lines
}

impl Registered for SameGame {
    /// NRPA in pieces, for a cluster to share out.
    fn policy_search(&self) -> Option<Box<dyn tabula_core::PolicySearch>> {
        Some(Box::new(crate::search::cluster::PolicyWork::new(self)))
    }

    /// The score card (with the time, the best scores and the computer's line),
    /// the original red, yellow and blue palette, and hints that search.
    fn presentation(&self) -> tabula_core::GamePresentation {
        use tabula_core::{GamePresentation, GroupPoints, Palette, Panel};
        GamePresentation {
            panels: vec![Panel::Score {
                timer: true,
                best_scores: true,
                computer_line: true,
                group_points: Some(match self.scoring {
                    Scoring::Blocks => GroupPoints::Count,
                    Scoring::Standard | Scoring::NoBonus => GroupPoints::SquareLessTwo,
                }),
            }],
            palettes: vec![Palette {
                name: "original",
                label: "Red, yellow, blue",
                colours: vec![None, Some("#ff0000"), Some("#ffff40"), Some("#0000ff")],
                names: vec![None, Some("red"), Some("yellow"), Some("blue")],
                dark_board: true,
            }],
            coloured_cell: Some("block"),
            hint_search_seconds: Some(1.0),
            // Each board number deals another board of the same game.
            board_number: Some("seed"),
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "SameGame";
    const SUMMARY: &'static str =
        "Remove groups of two or more same-coloured blocks; blocks fall and columns close up. \
         Score (n-2)² per group and 1000 for clearing the board.";

    /// A puzzle searched, not solved.
    fn test_cases() -> tabula_core::TestCases {
        let puzzle = |v| tabula_core::VariantCase::new(v, false);
        tabula_core::TestCases {
            variants: vec![
                puzzle(""),
                puzzle("size=5x5"),
                puzzle("size=6x4,colours=4,seed=3"),
                puzzle("size=10x8,colours=4"),
                puzzle("scoring=blocks").summary(&["1 per block"], &["1000"]),
            ],
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "5x5, 3 colours",
                variant: "size=5x5",
            },
            tabula_core::Preset {
                name: "10x10, 3 colours",
                variant: "size=10x10",
            },
            tabula_core::Preset {
                name: "15x10, 4 colours",
                variant: "size=15x10,colours=4",
            },
            tabula_core::Preset {
                name: "15x15, 3 colours (standard)",
                variant: "",
            },
            tabula_core::Preset {
                name: "15x15, 5 colours",
                variant: "colours=5",
            },
            tabula_core::Preset {
                name: "20x15, 4 colours",
                variant: "size=20x15,colours=4",
            },
        ]
    }

    /// The scoring rule the board is played under.
    fn summary(&self) -> String {
        let rule = match self.scoring {
            Scoring::Standard => return Self::SUMMARY.into(),
            Scoring::NoBonus => "Score (n-2)² per group, no bonus for clearing the board.",
            Scoring::Blocks => "Score 1 per block removed.",
        };
        format!("Remove groups of two or more same-coloured blocks; blocks fall and columns close up. {rule}")
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption { name: "size", label: "board", default: "15x15", help: "columns x rows, written like 15x15: from 1x1 to 100x100", choices: &[] },
            VariantOption { name: "colours", label: "colours", default: "3", help: "number of block colours, 2 to 9", choices: &[VariantChoice { value: "2", words: "2" }, VariantChoice { value: "3", words: "3" }, VariantChoice { value: "4", words: "4" }, VariantChoice { value: "5", words: "5" }, VariantChoice { value: "6", words: "6" }, VariantChoice { value: "7", words: "7" }, VariantChoice { value: "8", words: "8" }, VariantChoice { value: "9", words: "9" }] },
            VariantOption { name: "seed", label: "board number", default: "", help: "which board to deal (0 or more): the same number deals the same board; without one, every new game deals a fresh board", choices: &[] },
            VariantOption {
                name: "scoring",
                label: "scoring",
                default: "standard",
                help: "standard: (n-2)² per group + 1000 for clearing; nobonus: (n-2)² only; blocks: 1 per block removed", choices: &[
                    VariantChoice { value: "standard", words: "standard (bonus for clearing)" },
                    VariantChoice { value: "nobonus", words: "no bonus for clearing" },
                    VariantChoice { value: "blocks", words: "one point a block" },
                ],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let (width, height) = variant.size("size", (15, 15), (1, 1), (MAX_SIDE, MAX_SIDE))?;
        let colours = variant.int("colours", 3, 2, MAX_COLOURS as i64)? as u8;
        let seed = match variant.get("seed") {
            Some(_) => Some(variant.int("seed", 1, 0, i64::MAX)? as u64),
            None => None,
        };
        let names: Vec<&str> = Scoring::ALL.iter().map(|s| s.name()).collect();
        let scoring =
            Scoring::from_name(variant.choice("scoring", "standard", &names)?).unwrap_or_default();
        Ok(SameGame {
            width,
            height,
            colours,
            seed,
            scoring,
        })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set("size", format!("{}x{}", self.width, self.height));
        v.set("colours", self.colours.to_string());
        if let Some(seed) = self.seed {
            v.set("seed", seed.to_string());
        }
        v.set("scoring", self.scoring.name());
        v
    }

    /// Without a `seed`, every new game deals a fresh random board (the Same Game tutorial's New);
    /// the dealt game names its seed, so Restart and a shared link replay it.
    fn goal_words(&self) -> &'static str {
        "board cleared"
    }

    fn deal(&self, rng: &mut tabula_core::Rng) -> Option<Self> {
        use rand::Rng as _;
        self.seed.is_none().then(|| SameGame {
            seed: Some(rng.gen_range(0..1_000_000_000)),
            ..self.clone()
        })
    }
}
