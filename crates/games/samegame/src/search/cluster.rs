//! NRPA in pieces, for a cluster to share out ([`tabula_core::PolicySearch`]):
//! a level of the search from a policy that came from elsewhere, and a policy
//! moved towards a line. Distributed NRPA (Negrevergne and Cazenave, 2017)
//! keeps the top level on one machine and sends the iterations below it to
//! the others with the top level's policy; the best lines they return move
//! that policy on.
//!
//! Positions cross as the game's notation, moves as the game writes them
//! (`row column`), policies as [`Policy::to_bytes`]. Every run uses the
//! selective policy with the board's commonest colour tabu, as the crate's
//! own NRPA starts.

use super::nrpa::{Nrpa, Plan, Policy, Seq, Work};
use super::playout::commonest_colour;
use crate::board::Board;
use crate::game::{Click, SameGame};
use crate::standard::{parse_literature_boards, standard_boards};
use crate::text::{format_board, parse_board};
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};
use tabula_core::{CancelFlag, FoundLine, Notation, PolicyRun, PolicySearch, WorkError};

/// Most codes a policy sent between machines may hold.
const MAX_POLICY_CODES: usize = 1 << 22;
/// Highest level a piece may run.
const MAX_LEVEL: u32 = 6;
/// Most iterations per level.
const MAX_ITERATIONS: u32 = 10_000;

/// NRPA in pieces on boards of one scoring rule.
pub struct PolicyWork {
    game: SameGame,
}

impl PolicyWork {
    /// The pieces of `game`'s search (its scoring rule).
    pub fn new(game: &SameGame) -> PolicyWork {
        PolicyWork { game: game.clone() }
    }

    fn board(&self, position: &str) -> Result<Board, WorkError> {
        parse_board(position)
            .map_err(|e| WorkError::BadInput(format!("the board does not read: {e}")))
    }

    fn policy(bytes: &[u8]) -> Result<Policy, WorkError> {
        Policy::from_bytes(bytes, MAX_POLICY_CODES)
            .ok_or_else(|| WorkError::BadInput("the policy's bytes are not a policy".to_string()))
    }

    /// The clicks `(column, height above the floor)` of `moves` from `board`,
    /// each checked by the game's own rules.
    fn clicks(&self, board: &Board, moves: &[String]) -> Result<Vec<(u8, u8)>, WorkError> {
        let mut b = board.clone();
        let mut stack = Vec::new();
        let h = board.height();
        let mut out = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let Click { row, col } = self
                .game
                .parse_move(&b, text)
                .map_err(|e| WorkError::BadInput(format!("move {} of the line: {e}", i + 1)))?;
            let y = h - 1 - usize::from(row);
            b.play(usize::from(col), y, self.game.scoring, &mut stack);
            out.push((col, y as u8));
        }
        Ok(out)
    }

    fn nrpa<'a>(&self, board: &'a Board, stop: &'a CancelFlag, seconds: f64) -> Nrpa<'a> {
        Nrpa {
            board,
            scoring: self.game.scoring,
            alpha: 1.0,
            deadline: Some(Instant::now() + Duration::from_secs_f64(seconds.min(1e9))),
            stop,
            playouts: AtomicU64::new(0),
        }
    }

    /// `seq`'s clicks as the game writes its moves.
    fn moves(&self, board: &Board, seq: &Seq) -> Vec<String> {
        let h = board.height();
        seq.clicks
            .iter()
            .map(|&(col, y)| {
                let click = Click {
                    row: (h - 1 - usize::from(y)) as u8,
                    col,
                };
                self.game.format_move(board, click)
            })
            .collect()
    }
}

impl PolicySearch for PolicyWork {
    fn test_set(&self) -> Vec<String> {
        standard_boards().iter().map(format_board).collect()
    }

    fn read_positions(&self, text: &str) -> Result<Vec<String>, WorkError> {
        if let Ok(boards) = parse_literature_boards(text) {
            if !boards.is_empty() {
                return Ok(boards.iter().map(format_board).collect());
            }
        }
        // Otherwise one board a line in the game's notation.
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let board = parse_board(line).map_err(|e| {
                WorkError::BadInput(format!(
                    "line {} is neither a board of the published test sets nor one in Tabula's notation: {e}",
                    n + 1
                ))
            })?;
            out.push(format_board(&board));
        }
        if out.is_empty() {
            return Err(WorkError::BadInput("the file holds no board".to_string()));
        }
        Ok(out)
    }

    fn search(
        &self,
        position: &str,
        policy: &[u8],
        run: &PolicyRun,
    ) -> Result<FoundLine, WorkError> {
        if run.level > MAX_LEVEL || !(1..=MAX_ITERATIONS).contains(&run.iterations) {
            return Err(WorkError::BadInput(format!(
                "a search runs at levels 0 to {MAX_LEVEL} with 1 to {MAX_ITERATIONS} iterations a level"
            )));
        }
        if !(run.seconds.is_finite() && run.seconds >= 0.0) {
            return Err(WorkError::BadInput(format!(
                "the time must be a number of seconds, 0 or more (got {})",
                run.seconds
            )));
        }
        let board = self.board(position)?;
        let policy = Self::policy(policy)?;
        let stop = CancelFlag::new();
        let nrpa = self.nrpa(&board, &stop, run.seconds);
        let plan = Plan {
            tabu: usize::from(commonest_colour(&board)),
            level: run.level,
            iterations: run.iterations,
            open: false,
        };
        let mut work = Work::default();
        let seq = nrpa.run(plan, &policy, run.seed, None, &mut work, &mut |_| {});
        Ok(FoundLine {
            score: seq.score,
            moves: self.moves(&board, &seq),
            playouts: work.playouts,
        })
    }

    fn adapt(&self, position: &str, policy: &[u8], moves: &[String]) -> Result<Vec<u8>, WorkError> {
        let board = self.board(position)?;
        let mut policy = Self::policy(policy)?;
        let clicks = self.clicks(&board, moves)?;
        let stop = CancelFlag::new();
        let nrpa = self.nrpa(&board, &stop, 1e9);
        let tabu = usize::from(commonest_colour(&board));
        // A line that stops before the end is finished by a playout (seed 0):
        // the policy learns the whole game, as a search's best line is.
        let seq = nrpa
            .replay(&clicks, tabu, 0, &mut Work::default())
            .ok_or_else(|| {
                WorkError::BadInput("a move of the line removes no group".to_string())
            })?;
        nrpa.adapt(&mut policy, &seq, &mut Vec::new());
        Ok(policy.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Game, Registered, Variant};

    fn work() -> PolicyWork {
        let game =
            SameGame::from_variant(&Variant::parse("size=15x15,colours=5").unwrap()).unwrap();
        PolicyWork::new(&game)
    }

    fn replayed_score(position: &str, moves: &[String]) -> i64 {
        let w = work();
        let mut board = w.board(position).unwrap();
        for m in moves {
            let click = w.game.parse_move(&board, m).unwrap();
            w.game.try_play(&mut board, click).unwrap();
        }
        board.score()
    }

    #[test]
    fn a_search_piece_returns_a_line_that_replays_to_its_score() {
        let w = work();
        let board = &w.test_set()[0];
        let run = PolicyRun {
            level: 1,
            iterations: 20,
            seed: 7,
            seconds: 60.0,
        };
        let found = w.search(board, &[], &run).unwrap();
        assert_eq!(found.playouts, 20);
        assert_eq!(replayed_score(board, &found.moves), found.score);
        // The same piece gives the same line.
        assert_eq!(w.search(board, &[], &run).unwrap(), found);
    }

    #[test]
    fn an_adapted_policy_favours_the_line_and_crosses_as_bytes() {
        let w = work();
        let board = &w.test_set()[1];
        let run = PolicyRun {
            level: 0,
            iterations: 1,
            seed: 3,
            seconds: 60.0,
        };
        let line = w.search(board, &[], &run).unwrap();
        let mut policy = Vec::new();
        for _ in 0..50 {
            policy = w.adapt(board, &policy, &line.moves).unwrap();
        }
        assert!(!policy.is_empty());
        assert_eq!(
            Policy::from_bytes(&policy, MAX_POLICY_CODES)
                .unwrap()
                .to_bytes(),
            policy
        );
        // Playouts under the adapted policy score more than uniform ones.
        let mean = |policy: &[u8]| {
            (0..20)
                .map(|seed| {
                    w.search(board, policy, &PolicyRun { seed, ..run })
                        .unwrap()
                        .score
                })
                .sum::<i64>()
                / 20
        };
        let (adapted, uniform) = (mean(&policy), mean(&[]));
        assert!(adapted > uniform, "{adapted} against {uniform}");
    }

    #[test]
    fn bad_pieces_are_refused_in_words() {
        let w = work();
        let board = &w.test_set()[0];
        let run = PolicyRun {
            level: 1,
            iterations: 10,
            seed: 1,
            seconds: 1.0,
        };
        assert!(w.search("nonsense", &[], &run).is_err());
        assert!(w.search(board, &[1, 2, 3], &run).is_err());
        assert!(w
            .search(board, &[], &PolicyRun { level: 40, ..run })
            .is_err());
        assert!(w
            .search(
                board,
                &[],
                &PolicyRun {
                    seconds: f64::NAN,
                    ..run
                }
            )
            .is_err());
        assert!(w.adapt(board, &[], &["99 99".to_string()]).is_err());
        assert!(w.read_positions("").is_err());
        assert_eq!(
            w.read_positions(&w.test_set().join("\n")).unwrap(),
            w.test_set()
        );
    }
}
