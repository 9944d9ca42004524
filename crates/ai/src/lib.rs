//! Players and solvers that work for every game implementing [`tabula_core::Game`].

pub mod alphabeta;
pub mod chance_solve;
pub mod expectimax;
pub mod grundy;
pub mod lookahead;
pub mod matchbox;
pub mod player_options;
pub mod players;
pub mod retrograde;
pub mod search_options;
pub mod simulate;
pub mod train;

#[cfg(test)]
mod testgame;
#[cfg(test)]
mod tests;
