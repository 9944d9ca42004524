//! Poggle: an n x n board of buttons in k colours. Pressing a button advances it and
//! its orthogonal neighbours by one colour (mod k); the puzzle is solved when every
//! button shows colour 0. With two colours it is Lights Out. See `crates/games/poggle/docs/poggle.md`.
//!
//! The solver ([`solve`]) works over Z/kZ for every k: light chasing reduces the
//! n^2 x n^2 system to the first row, and the first-row matrix is a polynomial in the
//! tridiagonal row matrix, so the system is solved with polynomial arithmetic modulo
//! each prime power of k and glued by the Chinese remainder theorem.

mod actions;
mod arith;
mod binary;
pub mod chase;
mod count;
mod fewest;
mod game;
mod gf2;
mod modular;
mod poly;
mod report;
mod smith;
mod solver;
mod text;
pub mod torus;

pub use chase::Start;
pub use count::BigCount;
pub use game::{
    random_start, random_torus_start, Poggle, PoggleState, Press, SolverPlayer, StartRule,
    Topology, PLAY_LIMIT,
};
pub use report::{solution_json, solution_report, solve_json, solve_report};
pub use solver::{
    apply_presses, check_puzzle, quiet_pattern, solve, Method, ModulusSummary, Obstruction,
    Solution, SolveOptions, MAX_COLOURS, MAX_SOLVE_SIZE,
};
