//! The stepping state ([`crate::DynState`]) against the typed game it steps:
//! random playouts agree move by move, and serialized states come back exactly.
//! Reached through [`crate::GameEntry::check_stepping`], so the shared test runs
//! it for every registered game and the variants each declares.

use crate::dyn_game::DynGame;
use crate::handle::Handle;
use crate::stepping::{DynState, StepState, CHANCE_PLAYER, TERMINAL_PLAYER};
use rand::Rng as _;
use tabula_core::{GameExt, Outcome, PlayTracker, Registered, Turn};

/// Plays random games through a [`StepState`] and the typed game side by side,
/// the typed one under the rules of actual play ([`PlayTracker`]): the same
/// positions, players, legal ids, chance outcomes, returns and rewards, and the
/// state serialized and read back (from the start and from a position) the same.
pub fn check_stepping<G: Registered>(game: G, seed: u64) -> Result<(), String> {
    let variant = game.variant().to_string();
    let handle = Handle::new(game);
    let game = handle.game().clone();
    let facts = handle.facts();
    let mut rng = tabula_core::rng_from_seed(seed);
    for _ in 0..3 {
        let mut dynamic = StepState::new(handle.clone());
        let mut typed = game.initial_state();
        let mut tracker = PlayTracker::new(&game, &typed);
        let mut rewards = 0.0;
        // Long games are followed for a while; the length cap has its own test.
        for ply in 0..1500usize {
            let name = format!("{} {variant} after {ply} plies", G::NAME);
            if dynamic.position() != game.format_position(&typed) {
                return Err(format!("{name}: the positions differ"));
            }
            let expected_player = match tracker.turn(&game, &typed) {
                Turn::Move(s) => s as i32,
                Turn::Chance => CHANCE_PLAYER,
                Turn::Over(_) => TERMINAL_PLAYER,
            };
            if dynamic.current_player() != expected_player {
                return Err(format!("{name}: current player differs"));
            }
            let mut ids: Vec<usize> = if tracker.turn(&game, &typed).is_over() {
                Vec::new()
            } else {
                game.moves(&typed)
                    .into_iter()
                    .map(|m| game.action_of(&typed, m))
                    .collect()
            };
            ids.sort_unstable();
            if dynamic.legal_actions() != ids {
                return Err(format!("{name}: legal actions differ"));
            }
            if dynamic.move_number() != ply || dynamic.history().len() != ply {
                return Err(format!("{name}: move number differs"));
            }
            let size: usize = facts.observation_shape.iter().product();
            if (0..facts.num_players).any(|s| dynamic.observation_tensor(s).len() != size) {
                return Err(format!("{name}: observation size"));
            }
            if ply < 10 || ply.is_power_of_two() {
                let text = dynamic.serialize();
                let back = handle
                    .deserialize_state(&text)
                    .map_err(|e| format!("{name}: does not deserialize: {e}"))?;
                if back.position() != dynamic.position()
                    || back.history() != dynamic.history()
                    || back.returns() != dynamic.returns()
                {
                    return Err(format!("{name}: the deserialized state differs"));
                }
            }
            if ply == 3 || ply == 40 {
                // A position given as text starts a history of its own, and
                // survives serialization with it.
                let mut from = handle
                    .state_from_position(&dynamic.position())
                    .map_err(|e| format!("{name}: its position is refused: {e}"))?;
                if let Some(&a) = from.legal_actions().first() {
                    from.apply_action(a).map_err(|e| format!("{name}: {e}"))?;
                }
                let back = handle
                    .deserialize_state(&from.serialize())
                    .map_err(|e| format!("{name}: from a position: {e}"))?;
                if back.position() != from.position() || back.history() != from.history() {
                    return Err(format!(
                        "{name}: a state from a position does not round-trip"
                    ));
                }
            }
            if dynamic.is_terminal() {
                break;
            }
            let action = if dynamic.is_chance_node() {
                let outcomes = dynamic.chance_outcomes();
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                if (total - 1.0).abs() > 1e-9
                    || outcomes.iter().map(|o| o.0).collect::<Vec<_>>() != ids
                {
                    return Err(format!("{name}: chance outcomes"));
                }
                outcomes[rng.gen_range(0..outcomes.len())].0
            } else {
                ids[rng.gen_range(0..ids.len())]
            };
            let text = dynamic
                .action_to_string(action)
                .map_err(|e| format!("{name}: {e}"))?;
            if dynamic.string_to_action(&text) != Ok(action) {
                return Err(format!("{name}: '{text}' does not map back to {action}"));
            }
            let mv = game
                .move_of(&typed, action)
                .ok_or_else(|| format!("{name}: no move {action}"))?;
            dynamic
                .apply_action(action)
                .map_err(|e| format!("{name}: {e}"))?;
            tracker.play(&game, &mut typed, mv);
            rewards += dynamic.rewards().iter().sum::<f64>();
        }
        let returns = dynamic.returns();
        match tracker.turn(&game, &typed) {
            Turn::Over(Outcome::Win(w)) if facts.num_players == 2 => {
                if returns[w] != 1.0 || returns[1 - w] != -1.0 {
                    return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                }
            }
            _ if facts.num_players == 2 => {
                if returns != [0.0, 0.0] {
                    return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                }
            }
            _ => {
                if (returns[0] - rewards).abs() > 1e-9 {
                    return Err(format!(
                        "{} {variant}: rewards add up to {rewards}, returns {returns:?}",
                        G::NAME
                    ));
                }
                if let Some(points) = game.score(&typed) {
                    if returns[0] != points as f64 {
                        return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                    }
                }
            }
        }
        if returns
            .iter()
            .any(|&r| r < facts.min_utility || r > facts.max_utility)
        {
            return Err(format!(
                "{} {variant}: returns {returns:?} outside the utility range",
                G::NAME
            ));
        }
    }
    Ok(())
}
