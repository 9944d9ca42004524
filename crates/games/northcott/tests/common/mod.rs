//! Helpers shared by the crate's test binaries.

use tabula_core::{Game, Rng};
use tabula_northcott::{Northcott, NorthcottState};

/// A random legal position of `g`: each row's O left of its X, either side to move.
pub fn random_state(g: &Northcott, rng: &mut Rng) -> NorthcottState {
    use rand::Rng as _;
    let mut s = g.initial_state();
    for r in 0..g.ny() {
        let a = rng.gen_range(0..g.nx() - 1);
        let b = rng.gen_range(a + 1..g.nx());
        s.o[r] = a as u8;
        s.x[r] = b as u8;
    }
    s.mover = rng.gen_range(0..2);
    s
}
