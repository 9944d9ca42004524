//! Moves typed by a user, one per line, from each game's start: each is refused
//! in words or played; a game never panics on a move it was given.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let games = tabula_engine::registry();
    let entry = &games[usize::from(pick) % games.len()];
    let game = tabula_engine::build(entry.name, "").expect("every default variant builds");
    let mut state = game.new_initial_state();
    for line in text.lines().take(64) {
        if state.is_terminal() {
            break;
        }
        if state.is_chance_node() {
            let first = state.chance_outcomes()[0].0;
            state.apply_action(first).expect("a chance outcome applies");
            continue;
        }
        if let Ok(action) = state.string_to_action(line) {
            state
                .apply_action(action)
                .expect("a move that reads is a legal action");
        }
    }
});
