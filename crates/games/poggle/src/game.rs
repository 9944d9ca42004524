//! Poggle as a Tabula game: variants, positions, presses, views, reports.

use crate::report::{solution_report, solve_report};
use crate::solver::{apply_presses, solve, Solution, SolveOptions, MAX_COLOURS, MAX_SOLVE_SIZE};
use crate::text;
use crate::torus;
use crate::Start;
use rand::Rng as _;
use std::time::Instant;
use tabula_core::{
    rng_from_seed, Choice, Game, Outcome, OwnPlayer, ParseError, PlayerKind, Registered, Report,
    Rng, Seat, Shape, Strategy, Turn, Variant, VariantChoice, VariantError, VariantOption, View,
    ViewCell,
};
use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};

/// Largest board side for interactive play (the solver goes to [`MAX_SOLVE_SIZE`]).
pub const PLAY_LIMIT: usize = 30;

/// The seed of a random start when the variant names none and no game deals one.
pub const FIXED_SEED: u64 = 1;

/// How the board starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartRule {
    /// Every button at colour 1 (the blog's puzzle).
    Ones,
    /// Random presses from the solved board (so always solvable), from `seed`.
    Random,
}

/// The shape of the board's neighbourhoods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    /// A flat board: edge buttons have fewer neighbours (the blog's Poggle, Lights Out).
    Flat,
    /// The edges wrap around (Orbix, Merlin's Machine): every button has four neighbours.
    Torus,
}

/// Poggle with its variant options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poggle {
    /// Board side.
    pub size: usize,
    /// Number of colours.
    pub colours: u32,
    /// The start.
    pub start: StartRule,
    /// Seed of a random start; `None`: every new game deals a fresh one
    /// ([`Registered::deal`]), and where nothing deals (a solve) the board of
    /// seed [`FIXED_SEED`].
    pub seed: Option<u64>,
    /// Flat board or torus.
    pub topology: Topology,
}

impl Default for Poggle {
    fn default() -> Self {
        Poggle {
            size: 5,
            colours: 2,
            start: StartRule::Ones,
            seed: None,
            topology: Topology::Flat,
        }
    }
}

/// A position: the colour of every button, row-major. Boards above [`PLAY_LIMIT`]
/// are not played: their state is empty and the game is over at once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PoggleState {
    /// Colours, row-major (row 0 at the top).
    pub cells: Vec<u8>,
}

/// One press of a button (0-based coordinates; written 1-based as `row,col`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Press {
    /// Row, 0 at the top.
    pub row: u16,
    /// Column, 0 at the left.
    pub col: u16,
}

impl Poggle {
    /// A game of the given size and colours from the all-ones start.
    pub fn new(size: usize, colours: u32) -> Self {
        Poggle {
            size,
            colours,
            ..Poggle::default()
        }
    }

    /// Why this board cannot be played interactively, if it cannot.
    pub fn play_error(&self) -> Option<String> {
        (self.size > PLAY_LIMIT).then(|| {
            format!(
                "a {n}x{n} board is too large to play (at most {PLAY_LIMIT}x{PLAY_LIMIT}); \
                 use `tabula solve poggle --variant size={n},colours={k}`",
                n = self.size,
                k = self.colours
            )
        })
    }

    /// The start colours (row-major) for any size, or `None` for the all-ones start.
    pub fn start_cells(&self) -> Option<Vec<u8>> {
        match (self.start, self.topology) {
            (StartRule::Ones, _) => None,
            (StartRule::Random, Topology::Flat) => Some(random_start(
                self.size,
                self.colours,
                self.seed.unwrap_or(FIXED_SEED),
            )),
            (StartRule::Random, Topology::Torus) => Some(random_torus_start(
                self.size,
                self.colours,
                self.seed.unwrap_or(FIXED_SEED),
            )),
        }
    }

    /// Solves a position of this game (fewest presses when the search is small).
    pub fn solve_state(&self, state: &PoggleState) -> Result<Solution, String> {
        if self.topology == Topology::Torus {
            return torus::solve(
                self.size,
                self.colours,
                &state.cells,
                &SolveOptions::default(),
            );
        }
        solve(
            self.size,
            self.colours,
            Start::Grid(&state.cells),
            &SolveOptions::default(),
        )
    }

    /// The next press of a fewest-presses solution (the first button, in reading
    /// order, that the solution presses), or `None` if solved or unsolvable.
    pub fn hint(&self, state: &PoggleState) -> Option<Press> {
        let sol = self.solve_state(state).ok()?;
        first_press(self.size, sol.presses.as_deref()?)
    }

    fn press_of(&self, i: usize) -> Press {
        Press {
            row: (i / self.size) as u16,
            col: (i % self.size) as u16,
        }
    }

    fn symmetric_cell(&self, r: usize, c: usize, k: usize) -> (usize, usize) {
        let last = self.size - 1;
        let (mut r, mut c) = if k >= 4 { (r, last - c) } else { (r, c) };
        for _ in 0..k % 4 {
            (r, c) = (c, last - r);
        }
        (r, c)
    }
}

fn first_press(n: usize, presses: &[u8]) -> Option<Press> {
    let i = presses.iter().position(|&v| v != 0)?;
    Some(Press {
        row: (i / n) as u16,
        col: (i % n) as u16,
    })
}

/// A random start on a torus, made like [`random_start`] with wrapping presses.
pub fn random_torus_start(n: usize, k: u32, seed: u64) -> Vec<u8> {
    let mut rng = rng_from_seed(seed);
    let zero = vec![0u8; n * n];
    let mut board = zero.clone();
    for _ in 0..100 {
        let presses: Vec<u8> = (0..n * n).map(|_| rng.gen_range(0..k) as u8).collect();
        board = torus::apply_presses(n, k, &zero, &presses);
        if board.iter().any(|&c| c != 0) {
            break;
        }
    }
    board
}

/// A start made by random presses (uniform press counts) from the solved board, so
/// it is solvable and uniform among solvable boards; redrawn if it came out solved.
pub fn random_start(n: usize, k: u32, seed: u64) -> Vec<u8> {
    let mut rng = rng_from_seed(seed);
    let mut board = Vec::new();
    for _ in 0..100 {
        let presses: Vec<u8> = (0..n * n).map(|_| rng.gen_range(0..k) as u8).collect();
        board = apply_presses(n, k, Start::Zero, &presses);
        if board.iter().any(|&c| c != 0) {
            break;
        }
    }
    board
}

impl Registered for Poggle {
    /// The solution card (solvable or not, the presses drawn on the buttons) and
    /// the goal colour named in the legend.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![tabula_core::Panel::Solution],
            coloured_cell: Some("button"),
            goal_colour: Some(0),
            // A random start is dealt by its board number.
            board_number: (self.start == StartRule::Random).then_some("seed"),
            // The board number deals a random start; a fixed start has none to deal.
            idle_options: if self.start == StartRule::Random {
                Vec::new()
            } else {
                vec!["seed"]
            },
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    /// A random start without a `seed` deals a fresh board for every new game;
    /// the dealt game names its seed, so the record and a shared link replay it.
    fn deal(&self, rng: &mut tabula_core::Rng) -> Option<Self> {
        use rand::Rng as _;
        (self.start == StartRule::Random && self.seed.is_none()).then(|| Poggle {
            seed: Some(rng.gen_range(0..1_000_000_000)),
            ..self.clone()
        })
    }

    fn play_limit(&self) -> Option<String> {
        self.play_error()
    }
    const TITLE: &'static str = "Poggle";
    /// With no human at the buttons, the solver presses them (a fewest-presses solution).
    fn default_opponent(&self) -> Option<&'static str> {
        Some("solver")
    }
    const SUMMARY: &'static str =
        "Lights Out with k colours: a press advances a button and its orthogonal neighbours by one colour; bring every button to the goal colour";

    /// A puzzle (its solver is linear algebra, not a game value); the boards on
    /// a torus too.
    fn test_cases() -> tabula_core::TestCases {
        let puzzle = |v| tabula_core::VariantCase::new(v, false);
        tabula_core::TestCases {
            variants: vec![
                puzzle("").summary(&["Lights Out with 2 colours"], &[]),
                puzzle("colours=3").summary(&["3 colours"], &["k colours"]),
                puzzle("topology=torus").summary(&["wrap around"], &["k colours"]),
                puzzle("topology=torus,size=3,colours=3"),
                puzzle("topology=torus,size=4,colours=4,start=random,seed=3"),
                puzzle("topology=torus,size=6,colours=2"),
            ],
            quick: Some("size=7,colours=3"),
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "5x5, 2 colours (Lights Out, the usual puzzle)",
                variant: "",
            },
            tabula_core::Preset {
                name: "3x3, 2 colours",
                variant: "size=3",
            },
            tabula_core::Preset {
                name: "7x7, 2 colours",
                variant: "size=7",
            },
            tabula_core::Preset {
                name: "5x5, 3 colours",
                variant: "colours=3",
            },
            tabula_core::Preset {
                name: "5x5, a random start",
                variant: "start=random",
            },
            tabula_core::Preset {
                name: "5x5 with wrapping edges",
                variant: "topology=torus",
            },
        ]
    }

    /// The number of colours (the static summary's k) and the board's shape.
    fn summary(&self) -> String {
        let shape = match self.topology {
            Topology::Flat => "",
            Topology::Torus => " on a board whose edges wrap around",
        };
        format!(
            "Lights Out with {} colours{shape}: a press advances a button and its orthogonal neighbours by one colour; bring every button to the goal colour.",
            self.colours
        )
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "size",
                // "size 5": the variant in words; "buttons on a side 5" read badly.
                label: "size",
                default: "5",
                help: "buttons on a side (the board is square): 1 to 30 to play, up to 10000 to solve only", choices: &[],
            },
            VariantOption { name: "colours", label: "colours", default: "2", help: "number of colours, 2 to 256 (2 is Lights Out)", choices: &[] },
            VariantOption {
                name: "start",
                label: "start",
                default: "ones",
                help: "ones (every button at colour 1) or random (random presses from the solved board, so always solvable)", choices: &[
                    VariantChoice { value: "ones", words: "every button at colour 1" },
                    VariantChoice { value: "random", words: "random (always solvable)" },
                ],
            },
            VariantOption { name: "seed", label: "board number", default: "", help: "which random start to deal (with start random; 0 or more): the same number deals the same board; without one, every new game deals a fresh board", choices: &[] },
            VariantOption {
                name: "topology",
                label: "board shape",
                default: "flat",
                help: "flat, or torus: the edges wrap around so every button has four neighbours (sizes 3 to 30)", choices: &[
                    VariantChoice { value: "flat", words: "flat (edges do not wrap)" },
                    VariantChoice { value: "torus", words: "torus (edges wrap around)" },
                ],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let size = variant.int("size", 5, 1, MAX_SOLVE_SIZE as i64)? as usize;
        let colours = variant.int("colours", 2, 2, MAX_COLOURS as i64)? as u32;
        let start = match variant.choice("start", "ones", &["ones", "random"])? {
            "random" => StartRule::Random,
            _ => StartRule::Ones,
        };
        let seed = match variant.get("seed") {
            Some(_) => Some(variant.int("seed", 1, 0, i64::MAX)? as u64),
            None => None,
        };
        let topology = match variant.choice("topology", "flat", &["flat", "torus"])? {
            "torus" => Topology::Torus,
            _ => Topology::Flat,
        };
        if topology == Topology::Torus
            && !(torus::MIN_TORUS_SIZE..=torus::MAX_TORUS_SIZE).contains(&size)
        {
            return Err(VariantError::BadValue {
                name: "size".into(),
                value: size.to_string(),
                reason: format!(
                    "a torus is {}x{} to {}x{} (its solver works on the whole system of n² buttons)",
                    torus::MIN_TORUS_SIZE,
                    torus::MIN_TORUS_SIZE,
                    torus::MAX_TORUS_SIZE,
                    torus::MAX_TORUS_SIZE
                ),
            });
        }
        Ok(Poggle {
            size,
            colours,
            start,
            seed,
            topology,
        })
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        v.set("size", self.size.to_string());
        v.set("colours", self.colours.to_string());
        match self.start {
            StartRule::Ones => v.set("start", "ones"),
            StartRule::Random => {
                v.set("start", "random");
                if let Some(seed) = self.seed {
                    v.set("seed", seed.to_string());
                }
            }
        }
        if self.topology == Topology::Torus {
            v.set("topology", "torus");
        }
        v
    }
}

impl Game for Poggle {
    type State = PoggleState;
    type Move = Press;

    const NAME: &'static str = "poggle";

    fn seats(&self) -> &'static [&'static str] {
        &["Player"]
    }

    fn initial_state(&self) -> PoggleState {
        if self.play_error().is_some() {
            return PoggleState { cells: Vec::new() };
        }
        let cells = self
            .start_cells()
            .unwrap_or_else(|| vec![(1 % self.colours) as u8; self.size * self.size]);
        PoggleState { cells }
    }

    fn turn(&self, state: &PoggleState) -> Turn {
        if state.cells.len() != self.size * self.size {
            Turn::Over(Outcome::Ended)
        } else if state.cells.iter().all(|&c| c == 0) {
            Turn::Over(Outcome::Win(0))
        } else {
            Turn::Move(0)
        }
    }

    fn legal_moves(&self, state: &PoggleState, out: &mut Vec<Press>) {
        if self.turn(state).is_over() {
            return;
        }
        out.extend((0..self.size * self.size).map(|i| self.press_of(i)));
    }

    fn play_unchecked(&self, state: &mut PoggleState, mv: Press) {
        let n = self.size;
        let (r, c) = (mv.row as usize, mv.col as usize);
        if r >= n || c >= n || state.cells.len() != n * n {
            return;
        }
        let k = self.colours;
        let mut bump = |i: usize| state.cells[i] = ((state.cells[i] as u32 + 1) % k) as u8;
        if self.topology == Topology::Torus {
            for i in torus::neighbourhood(n, r * n + c) {
                bump(i);
            }
            return;
        }
        bump(r * n + c);
        if r > 0 {
            bump((r - 1) * n + c);
        }
        if r + 1 < n {
            bump((r + 1) * n + c);
        }
        if c > 0 {
            bump(r * n + c - 1);
        }
        if c + 1 < n {
            bump(r * n + c + 1);
        }
    }
}

impl Notation for Poggle {
    fn parse_move(&self, _state: &PoggleState, text_in: &str) -> Result<Press, ParseError> {
        if let Some(e) = self.play_error() {
            return Err(ParseError::new(e));
        }
        let (r, c) = text::parse_press(text_in, self.size)?;
        Ok(Press {
            row: r as u16,
            col: c as u16,
        })
    }

    fn format_move(&self, _state: &PoggleState, mv: Press) -> String {
        text::format_press(mv.row as usize, mv.col as usize)
    }

    fn parse_position(&self, text_in: &str) -> Result<PoggleState, ParseError> {
        if let Some(e) = self.play_error() {
            return Err(ParseError::new(e));
        }
        Ok(PoggleState {
            cells: text::parse_board(text_in, self.size, self.colours)?,
        })
    }

    fn format_position(&self, state: &PoggleState) -> String {
        text::format_board(&state.cells, self.size, self.colours)
    }
}

impl Presentation for Poggle {
    fn render_text(&self, state: &PoggleState) -> String {
        if let Some(e) = self.play_error() {
            return e + "\n";
        }
        let n = self.size;
        // Three columns a button where 80 columns hold them; wider boards take
        // two, their column numbers written tens above units; colours of more
        // than one digit take what they need, and a board too wide for one line
        // comes in bands of columns (tabula_core::text_grid).
        // Every cell as wide as the largest colour, so that the board keeps its
        // layout as colours change.
        let digits = (self.colours - 1).to_string().len();
        let cells: Vec<Vec<String>> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let v = state.cells[r * n + c];
                        if self.colours <= text::DIGIT_COLOURS {
                            char::from_digit(v as u32, 36).unwrap_or('?').to_string()
                        } else {
                            format!("{v:>digits$}")
                        }
                    })
                    .collect()
            })
            .collect();
        let mut out = tabula_core::grid_text(&cells, 1, 1, 3, tabula_core::BOARD_COLUMNS);
        // The view's status lines, so that a terminal shows each once; no
        // invitation to press on a solved board.
        let status = self.view(state).status;
        out += &format!("{}.\n", status.join("; "));
        if state.cells.iter().any(|&c| c != 0) {
            out += "Press a button as row,col (like 1,2).\n";
        }
        out
    }

    fn view(&self, state: &PoggleState) -> View {
        let n = self.size;
        if let Some(e) = self.play_error() {
            return View {
                width: 1.0,
                height: 1.0,
                status: vec![e],
                ..View::default()
            };
        }
        let cells = (0..n * n)
            .map(|i| ViewCell {
                id: i as u32,
                x: (i % n) as f64 + 0.05,
                y: (i / n) as f64 + 0.05,
                w: 0.9,
                h: 0.9,
                shape: Shape::Circle,
                colour: state.cells.get(i).map(|&c| c as u32),
                ..ViewCell::default()
            })
            .collect();
        let left = state.cells.iter().filter(|&&c| c != 0).count();
        let mut facts = vec![tabula_core::Fact::new(
            "Colours",
            tabula_core::FactValue::Integer(i64::from(self.colours)),
        )];
        if self.topology == Topology::Torus {
            facts.push(tabula_core::Fact::new(
                "Edges",
                tabula_core::FactValue::Text("wrap around".into()),
            ));
        }
        facts.push(tabula_core::Fact::new(
            "Buttons not yet the goal colour",
            tabula_core::FactValue::Integer(left as i64),
        ));
        View {
            width: n as f64,
            height: n as f64,
            layout: tabula_core::Layout::Grid {
                columns: n as u32,
                rows: n as u32,
            },
            facts,
            cells,
            status: [
                Some(if self.topology == Topology::Torus {
                    format!("{} colours, edges wrap around", self.colours)
                } else {
                    format!("{} colours", self.colours)
                }),
                // In words for the board's viewer: the web draws colours, not
                // numbers. Nothing once solved: the result says so, once.
                match left {
                    0 => None,
                    1 => Some("1 button not yet the goal colour".into()),
                    _ => Some(format!("{left} buttons not yet the goal colour")),
                },
            ]
            .into_iter()
            .flatten()
            .collect(),
            ..View::default()
        }
    }

    fn move_cells(&self, _state: &PoggleState, mv: Press) -> Vec<u32> {
        vec![mv.row as u32 * self.size as u32 + mv.col as u32]
    }

    /// The press in words for a player who clicks (the browser's hint list and
    /// log), not the notation "1,1" a player types.
    fn move_words(&self, _state: &PoggleState, mv: Press) -> String {
        format!(
            "press the button in row {}, column {}",
            mv.row as usize + 1,
            mv.col as usize + 1
        )
    }

    fn describe_move(&self, _state: &PoggleState, mv: Press) -> String {
        format!(
            "press {}",
            text::format_press(mv.row as usize, mv.col as usize)
        )
    }
}

impl Symmetry for Poggle {
    fn symmetry_count(&self) -> usize {
        8
    }

    fn map_state(&self, state: &PoggleState, k: usize) -> PoggleState {
        let n = self.size;
        if state.cells.len() != n * n {
            return state.clone();
        }
        let mut cells = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let (r2, c2) = self.symmetric_cell(r, c, k);
                cells[r2 * n + c2] = state.cells[r * n + c];
            }
        }
        PoggleState { cells }
    }

    fn map_move(&self, _state: &PoggleState, mv: Press, k: usize) -> Press {
        if mv.row as usize >= self.size || mv.col as usize >= self.size {
            return mv;
        }
        let (r, c) = self.symmetric_cell(mv.row as usize, mv.col as usize, k);
        Press {
            row: r as u16,
            col: c as u16,
        }
    }

    fn inverse_symmetry(&self, k: usize) -> usize {
        if k < 4 {
            (4 - k) % 4
        } else {
            k
        }
    }
}

impl ExactAnalysis for Poggle {
    fn is_small(&self) -> bool {
        if self.size > PLAY_LIMIT {
            return false;
        }
        let cells = (self.size * self.size) as u32;
        (self.colours as u64)
            .checked_pow(cells)
            .is_some_and(|p| p <= 2_000_000)
    }

    fn solve_report(
        &self,
        request: &Report,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<tabula_core::SolveReport, String>> {
        Some(self.report(request))
    }

    fn analysis_extra(&self, state: &PoggleState) -> Option<tabula_core::AnalysisExtra> {
        if state.cells.len() != self.size * self.size {
            return None;
        }
        let sol = self.solve_state(state).ok()?;
        Some(crate::report::analysis_extra(&sol))
    }
}

impl Players for Poggle {
    fn evaluate(&self, state: &PoggleState, _seat: Seat) -> f64 {
        if state.cells.is_empty() {
            return 0.0;
        }
        let zeros = state.cells.iter().filter(|&&c| c == 0).count();
        2.0 * zeros as f64 / state.cells.len() as f64 - 1.0
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![OwnPlayer::plain(
            PlayerKind::new(
                "solver",
                "presses the next button of a fewest-presses solution (linear algebra mod k)",
            )
            .with_words("The fewest-presses solution"),
            |_| SolverPlayer,
        )]
    }
}

/// A game ends unsolved after [`Poggle::press_limit`] presses: a run without
/// progress in which no press counts as progress.
impl MatchRules for Poggle {
    fn play_draw_rule(&self) -> tabula_core::PlayDrawRule {
        tabula_core::PlayDrawRule {
            repetitions: None,
            plies_without_progress: Some(self.press_limit()),
        }
    }

    fn is_progress(&self, _state: &PoggleState, _mv: Press) -> bool {
        false
    }
}

impl Poggle {
    /// The `tabula solve` report: the position given, else this variant's start.
    pub fn report(&self, request: &Report) -> Result<tabula_core::SolveReport, String> {
        // A few bytes a button: the board, the presses, the board they are checked
        // on and the solution's text (10000x10000 peaked at about 300 MB, 3 bytes a
        // button, with or without a random start).
        let buttons = (self.size * self.size) as u64;
        // Reserved beside the process's other tables while the solve runs.
        request
            .budget
            .uses(
                &format!("solving a {0}x{0} Poggle board", self.size),
                BYTES_PER_BUTTON * buttons,
            )
            .map_err(|e| e.to_string())?;
        let options = SolveOptions::default();
        if self.topology == Topology::Torus {
            let (cells, kind) = match &request.position {
                Some(text_in) => (
                    text::parse_board(text_in, self.size, self.colours).map_err(|e| e.message)?,
                    "position",
                ),
                None => match self.start_cells() {
                    Some(cells) => (cells, "random"),
                    None => (
                        vec![(1 % self.colours) as u8; self.size * self.size],
                        "ones",
                    ),
                },
            };
            let began = Instant::now();
            let sol = torus::solve(self.size, self.colours, &cells, &options)?;
            return Ok(solution_report(
                &sol,
                kind,
                began.elapsed().as_secs_f64(),
                true,
            ));
        }
        match &request.position {
            Some(text_in) => {
                let cells =
                    text::parse_board(text_in, self.size, self.colours).map_err(|e| e.message)?;
                solve_report(self.size, self.colours, Some(&cells), "position", &options)
            }
            None => match self.start_cells() {
                Some(cells) => {
                    solve_report(self.size, self.colours, Some(&cells), "random", &options)
                }
                None => solve_report(self.size, self.colours, None, "ones", &options),
            },
        }
    }
}

/// Memory a solve needs per button of the board, about (see [`Poggle::report`]).
pub const BYTES_PER_BUTTON: u64 = 4;

/// Plays the next press of a fewest-presses solution; resigns on an unsolvable board.
pub struct SolverPlayer;

impl Strategy<Poggle> for SolverPlayer {
    fn choose(
        &mut self,
        game: &Poggle,
        state: &PoggleState,
        _seat: Seat,
        _rng: &mut Rng,
    ) -> Option<Choice<Press>> {
        let sol = game.solve_state(state).ok()?;
        let presses = sol.presses.as_deref()?;
        let mv = first_press(game.size, presses)?;
        let left: u64 = presses.iter().map(|&v| v as u64).sum();
        Some(Choice::because(
            mv,
            format!(
                "solution: {left} press{} left",
                if left == 1 { "" } else { "es" }
            ),
        ))
    }
}
