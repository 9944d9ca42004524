//! A player's settings sent to `PUT /api/settings/{game}` (JSON): refused with a
//! 400 in words, or accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let Ok(json) = serde_json::from_slice(body) else {
        return;
    };
    let games = tabula_engine::registry();
    let game = games[usize::from(pick) % games.len()].name;
    if let Err(e) = tabula_server::parse_settings(game, json) {
        assert!(!e.message.trim().is_empty());
    }
});
