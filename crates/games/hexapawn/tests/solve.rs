//! The generic retrograde solver on Hexapawn: the side to move at the start loses.

use tabula_ai::retrograde::Solution;
use tabula_core::{Game, Value};
use tabula_hexapawn::Hexapawn;

#[test]
fn white_to_move_at_the_start_loses() {
    let g = Hexapawn::default();
    let solution = Solution::solve(&g, &g.initial_state(), 10_000).expect("small game");
    let stats = solution.stats();
    assert_eq!(stats.start.value, Value::Loss);
    assert_eq!(stats.draws, 0, "Hexapawn has no draws");
    assert_eq!(stats.positions, g.reachable_count());
    // With perfect play White loses in 3 moves: 1. 8 5  1 5  2. 9 5  3 6  3. 7 4  6 9.
    assert_eq!(stats.start.remoteness, 6);
}
