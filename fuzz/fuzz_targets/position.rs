//! A position typed by a user (`--position`, `?position=`, the API) for any
//! game: refused in words or read; what is read prints back as a position that
//! reads again, and every legal move's name reads back as that move.
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
    let Ok(state) = game.state_from_position(text) else {
        return;
    };
    let printed = state.position();
    let again = game
        .state_from_position(&printed)
        .unwrap_or_else(|e| panic!("{}: {printed:?} does not read back: {e}", entry.name));
    assert_eq!(again.position(), printed, "{}", entry.name);
    if state.is_chance_node() || state.is_terminal() {
        return;
    }
    for action in state.legal_actions() {
        let name = state.action_to_string(action).expect("a legal action has a name");
        assert_eq!(
            state.string_to_action(&name).ok(),
            Some(action),
            "{}: {name:?} at {printed:?}",
            entry.name
        );
    }
});
