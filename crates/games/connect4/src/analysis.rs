//! Size facts for the exact solver, the search's hints beyond it, the
//! heuristic and the game's own player, and the draw rule of Pop Out.

use crate::board::Position;
use crate::search::{MoveScore, SearchLimits, SearchPlayer};
use crate::solver::oracle::{SolverOracle, GRADE_SECONDS};
use crate::ConnectFour;
use std::sync::Arc;
use std::time::Duration;
use tabula_core::{
    AnalysisExtra, BuildError, ExactAnalysis, FactValue, Game, GradedMove, MatchRules, MoveGrade,
    Notation, Oracle, OwnPlayer, PlayDrawRule, PlayerKind, Players, PositionValue, Presentation,
    Remoteness, Report, Seat, Section, Turn, Value,
};

/// The most positions the generic solver is offered: about 100 bytes each
/// by the solver's own estimate while it solves, some 600 MB at most.
pub const SMALL_POSITIONS: u64 = 6_000_000;

/// How long a hint searches on a board too large for the exact solver.
pub const HINT_MS: u64 = 700;

/// Positions the generic solver reaches from the empty board, measured
/// (`cargo test -p tabula-connect4 --release --test counts -- --ignored`
/// checks each): width, height, connect, Pop Out, positions. Misère
/// play stops at the same lines, so it reaches the same positions.
pub const MEASURED: &[(u8, u8, u8, bool, u64)] = &[
    (4, 4, 4, false, 161_029),
    (5, 4, 4, false, 3_945_711),
    (4, 5, 4, false, 1_706_255),
    (4, 4, 3, false, 41_750),
    (5, 4, 3, false, 613_459),
    (6, 4, 3, false, 8_466_825),
    (4, 5, 3, false, 195_472),
    (5, 5, 3, false, 4_176_536),
    (4, 6, 3, false, 844_488),
];

impl ConnectFour {
    /// Gravity boards whose counts a classic game can have (Red as many
    /// discs as Yellow or one more): a bound on the positions of any game
    /// without pops, counted column by column.
    fn balanced_boards(&self) -> u64 {
        let g = self.geometry();
        let (w, h) = (usize::from(g.width()), usize::from(g.height()));
        // ways[d + offset]: colourings of the columns so far with Red - Yellow = d.
        let offset = w * h;
        let mut ways = vec![0u64; 2 * offset + 1];
        ways[offset] = 1;
        let mut binomial = vec![vec![0u64; h + 1]; h + 1];
        for n in 0..=h {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] =
                    binomial[n - 1][k - 1] + if k < n { binomial[n - 1][k] } else { 0 };
            }
        }
        for _ in 0..w {
            let mut next = vec![0u64; ways.len()];
            for (d, &n) in ways.iter().enumerate().filter(|(_, &n)| n > 0) {
                for (k, row) in binomial.iter().enumerate() {
                    for (red, &choose) in row.iter().enumerate().take(k + 1) {
                        let at = d + 2 * red - k;
                        next[at] = next[at].saturating_add(n.saturating_mul(choose));
                    }
                }
            }
            ways = next;
        }
        ways[offset].saturating_add(ways[offset + 1])
    }

    /// The positions the generic solver reaches from the empty board, where
    /// measured.
    pub fn measured_positions(&self) -> Option<u64> {
        let g = self.geometry();
        MEASURED
            .iter()
            .find(|&&(w, h, k, popout, _)| {
                (w, h, k, popout) == (g.width(), g.height(), g.connect(), self.is_popout())
            })
            .map(|&(.., n)| n)
    }

    /// Positions reachable from the empty board, at most: the measured count
    /// where there is one, else a bound from the board's size.
    pub fn positions_from_start(&self) -> u64 {
        if let Some(n) = self.measured_positions() {
            return n;
        }
        let g = self.geometry();
        if self.is_popout() {
            // Any gravity board, either side to move.
            let column = (1u64 << (g.height() + 1)) - 1;
            column
                .saturating_pow(u32::from(g.width()))
                .saturating_mul(2)
        } else {
            self.balanced_boards()
        }
    }

    /// Grades a searched move for the hint: as solved when every move's value
    /// is known (`known`), else every move as an estimated chance (a proven
    /// win 100%, a proven loss 0%), so that one list has one kind of grade.
    fn grade(&self, state: &Position, m: MoveScore, known: bool) -> GradedMove {
        let grade = match (m.proven_plies(), known) {
            (Some(plies), true) => MoveGrade::solved(
                if m.score > 0 { Value::Win } else { Value::Loss },
                // Counted from the position, the move included (a move that
                // ends the game at once is 1 ply): a bound, as the search's
                // table may have cut a line short, but exact for a move that
                // ends the game.
                Remoteness::new(plies, plies <= 1),
            ),
            (None, true) => MoveGrade::solved(Value::Draw, Remoteness::new(0, true)),
            (Some(_), false) => MoveGrade::WinChance {
                chance: if m.score > 0 { 1.0 } else { 0.0 },
                exact: false,
            },
            // The search's estimate as a chance: 50% is even.
            (None, false) => MoveGrade::WinChance {
                chance: (0.5 + f64::from(m.score) / 2000.0).clamp(0.02, 0.98),
                exact: false,
            },
        };
        GradedMove {
            notation: self.format_move(state, m.mv),
            cells: self.move_cells(state, m.mv),
            grade,
        }
    }
}

impl ConnectFour {
    /// What `analyze` says of how the exact solver answers: from the book,
    /// or by a search that may run out of time.
    fn solver_section(&self, state: &Position) -> Option<AnalysisExtra> {
        if !matches!(self.turn(state), Turn::Move(_)) {
            return None;
        }
        let book = self.book();
        let depth = book.as_ref().map_or(0, |b| b.depth());
        let in_book = book.is_some_and(|b| !b.is_empty()) && state.disc_count() < depth;
        let note = if in_book {
            "Every move here is graded from the opening book: exact values worked out \
             in advance for the first moves of the game."
                .to_string()
        } else {
            format!(
                "Every move is graded by an exact search to the end of the game. A move \
                 whose search cannot finish in the time allowed (at most {GRADE_SECONDS} s \
                 a position) is left ungraded rather than guessed."
            )
        };
        let mut section = Section::new("How the moves were graded").note(note);
        if let Some(book) = self.book().filter(|b| !b.is_empty()) {
            section = section.with(
                "Opening book",
                FactValue::Text(format!(
                    "every position with up to {} discs on the board ({} positions)",
                    book.depth(),
                    book.len()
                )),
            );
        }
        Some(AnalysisExtra {
            value: None,
            moves: None,
            sections: vec![section],
        })
    }
}

impl ExactAnalysis for ConnectFour {
    /// Boards whose positions from the start are known to number at most
    /// [`SMALL_POSITIONS`]: from the table of measured counts, else the
    /// bound (4x4 and 5x4, 4x5 by its bound, Pop Out on 4x4, and three in a
    /// row on 4x4 to 5x5 and 4x6); known before a player is offered.
    fn is_small(&self) -> bool {
        self.positions_from_start() <= SMALL_POSITIONS
    }

    /// From the empty board, the measured count or the bound; from elsewhere
    /// the same (a position reaches no more than the empty board does, Pop Out
    /// aside, whose bound counts every board).
    fn position_bound(&self, _start: &Position) -> Option<u64> {
        Some(self.positions_from_start())
    }

    /// The exact solver's oracle on the classic boards too large for the
    /// generic solver: the book where it reaches, a search elsewhere.
    fn exact_oracle(
        &self,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<Arc<dyn Oracle<Self>>, BuildError>> {
        self.solver_answers()
            .then(|| Ok(Arc::new(SolverOracle::new(*self, self.book())) as Arc<dyn Oracle<Self>>))
    }

    fn exact_oracle_bytes(&self) -> Option<u64> {
        self.solver_answers()
            .then(|| SolverOracle::least_bytes(self.book().as_deref()))
    }

    /// The exact solver's value of the position and of each move.
    fn solve_report(
        &self,
        request: &Report,
        _progress: &dyn Fn(f64),
    ) -> Option<Result<tabula_core::SolveReport, String>> {
        self.solver_answers()
            .then(|| crate::solver::report::report(self, request))
    }

    /// On boards the exact solver does not take, a search grades the moves:
    /// a win or loss it proves is given as one (at most so many plies), the
    /// rest as its estimate, and a section says these come from a search.
    fn analysis_extra(&self, state: &Position) -> Option<AnalysisExtra> {
        if self.solver_answers() {
            return self.solver_section(state);
        }
        if self.is_small() || !matches!(self.turn(state), Turn::Move(_)) {
            return None;
        }
        let limits = SearchLimits {
            depth: None,
            time: Duration::from_millis(HINT_MS),
        };
        let result = self.search_position(state, limits, true, None)?;
        let exact = result.complete;
        let known = exact || result.moves.iter().all(|m| m.proven_plies().is_some());
        let moves: Vec<GradedMove> = result
            .moves
            .iter()
            .map(|&m| self.grade(state, m, known))
            .collect();
        let best = result.moves[0];
        let value = match best.proven_plies() {
            Some(plies) => Some(PositionValue::solved(
                if best.score > 0 {
                    Value::Win
                } else {
                    Value::Loss
                },
                Remoteness::new(plies, false),
            )),
            None if exact => Some(PositionValue::solved(Value::Draw, Remoteness::new(0, true))),
            None => None,
        };
        let note = if exact {
            "The search reached the end of every line: these grades are exact.".to_string()
        } else {
            format!(
                "This board is too large to solve here: these grades come from a search {} plies \
                 deep, not a proof. A move it rates 100% or 0% is a win or a loss it found \
                 for certain; the other percentages are its estimate.",
                result.depth
            )
        };
        let section = Section::new("How the moves were graded")
            .note(note)
            .with(
                "Plies looked ahead",
                FactValue::Integer(i64::from(result.depth)),
            )
            .with(
                "Positions looked at",
                FactValue::Integer(result.nodes as i64),
            );
        Some(AnalysisExtra {
            value,
            moves: Some(moves),
            sections: vec![section],
        })
    }
}

impl Players for ConnectFour {
    /// Open lines and threats, the search's evaluation
    /// ([`crate::search::evaluate`]).
    fn evaluate(&self, s: &Position, seat: Seat) -> f64 {
        crate::search::evaluate(self, s, seat)
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![OwnPlayer::with_options(
            PlayerKind::new(
                "search",
                "looks ahead with an alpha-beta search for a second a move, centre columns first: strong, but a search, not a proof",
            )
            .with_words("Looks many moves ahead"),
            |_, options, _| SearchLimits::parse(options).map(SearchPlayer::new),
        )]
    }
}

/// Pop Out can repeat positions: a position met for the third time is a draw.
impl MatchRules for ConnectFour {
    fn play_draw_rule(&self) -> PlayDrawRule {
        PlayDrawRule {
            repetitions: self.is_popout().then_some(3),
            plies_without_progress: None,
        }
    }
}
