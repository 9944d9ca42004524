//! A saved game sent by a client or read from a file (JSON): refused in words or
//! resumed into a match whose own record resumes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_engine::MatchRecord;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<MatchRecord>(data) else {
        return;
    };
    let Ok(game) = tabula_engine::build(&record.game, &record.variant) else {
        return;
    };
    let Ok(resumed) = game.resume(&record) else {
        return;
    };
    let saved = resumed.record();
    game.resume(&saved)
        .unwrap_or_else(|e| panic!("a match's own record does not resume: {e}"));
});
