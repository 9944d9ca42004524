//! The generic computer players: random, perfect (from an exact oracle) and
//! level-mixed (the 2006 blog's "AI level of effort").

use crate::retrograde::graded_moves;
use rand::Rng as _;
use std::sync::Arc;
use tabula_core::{Choice, Game, Oracle, Rng, Seat, Strategy};

/// Plays a uniformly random legal move.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer;

impl<G: Game> Strategy<G> for RandomPlayer {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return None;
        }
        Some(Choice::because(
            moves[rng.gen_range(0..moves.len())],
            "random",
        ))
    }

    fn thinks(&self, _game: &G, _state: &G::State) -> bool {
        false
    }
}

/// Plays perfectly from an exact oracle: wins as fast as possible, loses as slowly
/// as possible, and breaks ties between equally good moves at random.
pub struct PerfectPlayer<G: Game> {
    oracle: Arc<dyn Oracle<G>>,
}

impl<G: Game> PerfectPlayer<G> {
    /// A perfect player reading values from `oracle`.
    pub fn new(oracle: Arc<dyn Oracle<G>>) -> Self {
        PerfectPlayer { oracle }
    }
}

impl<G: Game> Strategy<G> for PerfectPlayer<G> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let graded = graded_moves(game, self.oracle.as_ref(), state);
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if graded.len() < moves.len() {
            return partly_graded_choice(&graded, &moves, rng);
        }
        let best = graded.first()?.1;
        let ties = graded
            .iter()
            .take_while(|(_, g)| g.rank() == best.rank())
            .count();
        let (mv, g) = graded[rng.gen_range(0..ties)];
        // In a player's words: the log shows it beside the move.
        let plies = |n: u32| {
            if n == 1 {
                "1 ply".to_string()
            } else {
                format!("{n} plies")
            }
        };
        let reason = match g.value {
            tabula_core::Value::Draw => "perfect play, drawing".to_string(),
            tabula_core::Value::Win => format!("perfect play, winning in {}", plies(g.remoteness)),
            tabula_core::Value::Loss => format!("perfect play, losing in {}", plies(g.remoteness)),
        };
        Some(Choice::because(mv, reason))
    }

    /// A look-up where the oracle covers `state` (then it covers every position
    /// reached from it too).
    fn thinks(&self, game: &G, state: &G::State) -> bool {
        !self.oracle.answers_at_once(game, state)
    }
}

/// The move of a perfect player whose oracle could not grade every move in
/// time (one that searches on demand, against a deadline): a proven win or
/// draw among those graded, else one of the moves not worked out (each may
/// be better than a proven loss), said in words.
fn partly_graded_choice<M: Copy + PartialEq>(
    graded: &[(M, tabula_core::Graded)],
    moves: &[M],
    rng: &mut Rng,
) -> Option<Choice<M>> {
    use tabula_core::Value;
    if let Some(&(mv, g)) = graded.first().filter(|(_, g)| g.value != Value::Loss) {
        let what = if g.value == Value::Win {
            "a winning move"
        } else {
            "a drawing move"
        };
        return Some(Choice::because(
            mv,
            format!("{what}: not every move could be worked out in the time allowed"),
        ));
    }
    let open: Vec<M> = moves
        .iter()
        .copied()
        .filter(|m| !graded.iter().any(|(g, _)| g == m))
        .collect();
    let mv = *open.get(rng.gen_range(0..open.len().max(1)))?;
    Some(Choice::because(
        mv,
        if graded.is_empty() {
            "a move chosen at random: no move could be worked out in the time allowed"
        } else {
            "a move not worked out in the time allowed: every move worked out loses"
        },
    ))
}

/// Level-mixed play: at level L (0..=100) a random legal move with probability
/// (100-L)%, otherwise the strong player's move. This is the 2006 blog's rule "a random
/// move when a random value mod 100 exceeds the level", with the random value
/// drawn from 1..=100 so that level 0 is always random and level 100 never.
pub struct LeveledPlayer<G: Game> {
    level: u32,
    strong: Box<dyn Strategy<G>>,
    random: RandomPlayer,
}

impl<G: Game> LeveledPlayer<G> {
    /// Mixes `strong` with random play at `level` (clamped to 0..=100).
    pub fn new(level: u32, strong: Box<dyn Strategy<G>>) -> Self {
        LeveledPlayer {
            level: level.min(100),
            strong,
            random: RandomPlayer,
        }
    }
    /// The level.
    pub fn level(&self) -> u32 {
        self.level
    }
}

impl<G: Game> Strategy<G> for LeveledPlayer<G> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let roll: u32 = rng.gen_range(1..=100);
        if roll > self.level {
            let c = self.random.choose(game, state, seat, rng)?;
            Some(Choice::because(
                c.mv,
                format!("level {}: a random move", self.level),
            ))
        } else {
            let c = self.strong.choose(game, state, seat, rng)?;
            let why = c.reason.unwrap_or_default();
            Some(Choice::because(
                c.mv,
                format!("level {}: {why}", self.level),
            ))
        }
    }
    fn game_over(&mut self, game: &G, seat: Seat, outcome: tabula_core::Outcome) {
        self.strong.game_over(game, seat, outcome);
    }
    fn forget_game(&mut self) {
        self.strong.forget_game();
    }
}

/// The named level presets of the 2006 blog (Perfect is level 100 with the perfect player).
pub const LEVEL_PRESETS: [(&str, u32); 5] = [
    ("off", 0),
    ("low", 25),
    ("medium", 66),
    ("high", 95),
    ("perfect", 100),
];

#[cfg(test)]
mod tests {
    use super::partly_graded_choice;
    use rand::SeedableRng;
    use tabula_core::{Graded, Rng, Value};

    fn g(value: Value, remoteness: u32) -> Graded {
        Graded { value, remoteness }
    }

    /// With moves left ungraded, a proven win or draw is kept, a proven loss
    /// is not chosen over a move not worked out, and the reason says so.
    #[test]
    fn a_perfect_player_short_of_time_never_passes_off_a_guess() {
        let mut rng = Rng::seed_from_u64(3);
        let win = partly_graded_choice(&[(2u8, g(Value::Win, 5))], &[1, 2, 3], &mut rng).unwrap();
        assert_eq!(win.mv, 2);
        assert!(win.reason.unwrap().contains("not every move"));
        for _ in 0..20 {
            let c =
                partly_graded_choice(&[(2u8, g(Value::Loss, 4))], &[1, 2, 3], &mut rng).unwrap();
            assert_ne!(c.mv, 2, "a proven loss is not preferred to the unknown");
            assert!(c.reason.unwrap().contains("every move worked out loses"));
        }
        let none = partly_graded_choice::<u8>(&[], &[1, 2], &mut rng).unwrap();
        assert!(none.reason.unwrap().contains("no move could be worked out"));
        assert!(partly_graded_choice::<u8>(&[], &[], &mut rng).is_none());
    }
}
