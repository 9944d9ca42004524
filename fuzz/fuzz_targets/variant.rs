//! A variant typed by a user (`--variant`, the API's `variant`): refused in
//! words or built within the limits; a variant that parses prints back as text
//! that parses to the same variant.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_core::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(variant) = Variant::parse(text) else {
        return;
    };
    let printed = variant.to_string();
    assert_eq!(Variant::parse(&printed).ok(), Some(variant), "{printed:?}");
    let games = tabula_engine::registry();
    let entry = &games[usize::from(pick) % games.len()];
    // Refused before anything is built when it is beyond the limits.
    if tabula_engine::check_playable(entry.name, text).is_ok() {
        let _ = tabula_engine::build(entry.name, text);
    }
});
