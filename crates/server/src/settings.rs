//! Settings per game: known keys with checked value types only.
//!
//! | key | type |
//! | --- | --- |
//! | `ai_level` | integer 0..=100 |
//! | `undo_depth` | integer 0..=1000 (`tabula_engine::MAX_UNDO_DEPTH`), or null (no limit) |
//! | `legend` | bool (square numbers / coordinates shown) |
//! | `hints` | bool |
//! | `animations` | bool |
//! | `sound` | bool |
//! | `colours` | object: name (1..=32 chars) -> colour, at most 32 entries (player colours) |
//! | `board_colours` | object: name -> colour, at most 32 entries |
//! | `board_size` | integer 120..=4000 (pixels the board is drawn at) |
//! | `variant` | string: a variant of this game (checked by building it) |
//! | `players` | array of at most 8 player names (`human`, `level:66`, ...) |
//! | `theme` | string of 1..=32 letters, digits, `-` or `_` |
//!
//! A colour is `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a CSS colour name (letters).

use crate::error::ApiError;
use serde_json::{json, Map, Value as Json};
use tabula_engine::{build, parse_player_spec};

/// The settings of a game nobody has changed.
pub fn defaults() -> Map<String, Json> {
    let v = json!({
        "ai_level": 50,
        "undo_depth": null,
        "legend": true,
        "hints": true,
        "animations": true,
        "sound": false,
        "colours": {},
        "board_colours": {},
        "variant": "",
        "players": [],
    });
    match v {
        Json::Object(m) => m,
        _ => Map::new(),
    }
}

/// Stored settings over the defaults.
pub fn with_defaults(stored: Option<Json>) -> Json {
    let mut out = defaults();
    if let Some(Json::Object(m)) = stored {
        out.extend(m);
    }
    Json::Object(out)
}

fn int_in(v: &Json, lo: i64, hi: i64) -> bool {
    v.as_i64().is_some_and(|n| (lo..=hi).contains(&n))
}

fn is_colour(v: &Json) -> bool {
    let Some(s) = v.as_str() else { return false };
    if let Some(hex) = s.strip_prefix('#') {
        return matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    !s.is_empty() && s.len() <= 30 && s.bytes().all(|b| b.is_ascii_alphabetic())
}

fn colour_map(v: &Json) -> bool {
    let Some(m) = v.as_object() else { return false };
    m.len() <= 32
        && m.iter()
            .all(|(k, c)| !k.is_empty() && k.chars().count() <= 32 && is_colour(c))
}

/// Checks every key and value; the first problem is reported by name.
pub fn validate(game: &str, settings: &Json) -> Result<(), ApiError> {
    let Some(obj) = settings.as_object() else {
        return Err(ApiError::bad_request("settings must be a JSON object"));
    };
    for (key, v) in obj {
        let problem: Option<String> = match key.as_str() {
            "ai_level" => (!int_in(v, 0, 100)).then(|| "an integer from 0 to 100".into()),
            "undo_depth" => (!(v.is_null() || int_in(v, 0, tabula_engine::MAX_UNDO_DEPTH as i64)))
                .then(|| format!("an integer from 0 to {}, or null", tabula_engine::MAX_UNDO_DEPTH)),
            "legend" | "hints" | "animations" | "sound" => (!v.is_boolean()).then(|| "true or false".into()),
            "colours" | "board_colours" => (!colour_map(v))
                .then(|| "an object of at most 32 names to colours (#rrggbb or a colour name)".into()),
            "board_size" => (!int_in(v, 120, 4000)).then(|| "an integer from 120 to 4000 (pixels)".into()),
            "theme" => {
                let ok = v.as_str().is_some_and(|s| {
                    !s.is_empty() && s.len() <= 32 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                });
                (!ok).then(|| "a name of 1 to 32 letters, digits, - or _".into())
            }
            "variant" => match v.as_str() {
                None => Some("a variant text such as \"size=5\"".into()),
                Some(s) if s.len() > 1000 => Some("a variant text of at most 1000 bytes".into()),
                Some(s) => build(game, s).err().map(|e| format!("a valid variant ({e})")),
            },
            "players" => match v.as_array() {
                Some(a) if a.len() <= 8 => a.iter().find_map(|p| match p.as_str() {
                    Some(s) => parse_player_spec(s).err().map(|e| format!("player names ({e})")),
                    None => Some("an array of player names".into()),
                }),
                _ => Some("an array of at most 8 player names".into()),
            },
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown setting '{}' (known: ai_level, undo_depth, legend, hints, animations, sound, colours, board_colours, board_size, variant, players, theme)",
                    other.chars().take(40).collect::<String>()
                )))
            }
        };
        if let Some(expected) = problem {
            return Err(ApiError::bad_request(format!(
                "setting '{key}' must be {expected}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_known_keys_with_right_types() {
        let ok = json!({
            "ai_level": 66, "undo_depth": null, "legend": false, "colours": {"X": "#c00", "O": "navy"},
            "board_colours": {"light": "#ffeedd"}, "board_size": 480, "variant": "", "players": ["human", "level:66"],
            "theme": "dark", "hints": true, "animations": false, "sound": true
        });
        validate("tictactoe", &ok).unwrap();
        validate("tictactoe", &json!({})).unwrap();
    }

    #[test]
    fn refuses_unknown_keys_and_wrong_types() {
        for bad in [
            json!({"colour": {}}),
            json!({"ai_level": 101}),
            json!({"ai_level": "high"}),
            json!({"undo_depth": -1}),
            json!({"legend": 1}),
            json!({"colours": {"X": "red; background: url(x)"}}),
            json!({"colours": {"X": "#12345"}}),
            json!({"board_size": 10}),
            json!({"variant": "size=zz"}),
            json!({"players": ["no such thing!"]}),
            json!({"theme": "<script>"}),
            json!([1, 2]),
        ] {
            let e = validate("tictactoe", &bad).unwrap_err();
            assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST, "{bad}");
        }
    }

    /// Any JSON value, nested a few levels.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
            (-200i64..5000).prop_map(Json::from),
            any::<f64>().prop_map(Json::from),
            "\\PC{0,24}".prop_map(Json::from),
            prop::sample::select(vec![
                "#c00",
                "#12345",
                "navy",
                "size=5",
                "size=zz",
                "level:66",
                "human",
                "alphabeta:ms=99999",
                "dark",
                "",
            ])
            .prop_map(Json::from),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Json::from),
                prop::collection::btree_map("[a-z_]{0,12}", inner, 0..6)
                    .prop_map(|m| Json::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
            failure_persistence: None,
            ..Default::default()
        })]
        /// Fuzzed settings bodies (arbitrary JSON, and valid settings with one key
        /// changed to anything): never a panic; a refusal is a 400 in words; what is
        /// accepted still validates after a JSON round trip and over the defaults.
        #[test]
        fn fuzzed_settings_are_accepted_or_refused_in_words(
            game in proptest::sample::select(vec!["tictactoe", "nim", "samegame", "poggle", "northcott"]),
            key in proptest::sample::select(vec![
                "ai_level", "undo_depth", "legend", "hints", "animations", "sound", "colours",
                "board_colours", "board_size", "variant", "players", "theme", "other",
            ]),
            value in any_json(),
            whole in any_json(),
            use_whole in proptest::prelude::any::<bool>(),
        ) {
            let mut settings = json!({
                "ai_level": 66, "undo_depth": null, "legend": false, "colours": {"X": "#c00"},
                "board_size": 480, "variant": "", "players": ["human", "level:66"], "theme": "dark"
            });
            settings[key] = value;
            let input = if use_whole { whole } else { settings };
            match validate(game, &input) {
                Err(e) => {
                    proptest::prop_assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST);
                    proptest::prop_assert!(!e.message.trim().is_empty());
                    proptest::prop_assert!(
                        e.message.chars().count() <= 400 + 2 * input.to_string().chars().count(),
                        "{}", e.message
                    );
                }
                Ok(()) => {
                    let text = input.to_string();
                    let back: Json = serde_json::from_str(&text).unwrap();
                    proptest::prop_assert!(validate(game, &back).is_ok(), "{}", text);
                    proptest::prop_assert!(validate(game, &with_defaults(Some(back))).is_ok(), "{}", text);
                }
            }
        }
    }

    #[test]
    fn defaults_fill_in_what_is_not_stored() {
        let v = with_defaults(Some(json!({"legend": false})));
        assert_eq!(v["legend"], json!(false));
        assert_eq!(v["ai_level"], json!(50));
    }
}
