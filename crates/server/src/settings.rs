//! Settings per game: a typed [`Settings`] that refuses unknown keys, each value
//! read into a type that holds only what is allowed.
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
//! | `players` | array of at most 8 players, one per seat: each a kind and a level (`{"kind":"level","level":66}`, `{"kind":"human"}`) or a name (`"level:66"`, as saved before) |
//! | `theme` | string of 1..=32 letters, digits, `-` or `_` |
//!
//! Settings saved with players by name are read as they were saved; the answer to
//! `GET` names each player by kind and level where those say all of it
//! ([`tabula_engine::PlayerChoice::of_spec`]), as a page reads them. `ai_level`
//! is kept for settings saved before a player carried its own level.
//!
//! A colour is `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a CSS colour name (letters).

use crate::error::ApiError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use tabula_engine::{build, PlayerRequest};

/// The settings of one game. Every key may be left out; `undo_depth` may also
/// be null (no limit), which is not the same as leaving it out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    ai_level: Option<Ranged<0, 100>>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    undo_depth: Option<Option<Ranged<0, { tabula_engine::MAX_UNDO_DEPTH as i64 }>>>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    legend: Option<bool>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    hints: Option<bool>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    animations: Option<bool>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    sound: Option<bool>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    colours: Option<Colours>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    board_colours: Option<Colours>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    board_size: Option<Ranged<120, 4000>>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    variant: Option<VariantText>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    players: Option<Players>,
    #[serde(
        default,
        deserialize_with = "some",
        skip_serializing_if = "Option::is_none"
    )]
    theme: Option<Theme>,
}

/// The keys, in the order of the table above.
const KEYS: &str = "ai_level, undo_depth, legend, hints, animations, sound, colours, \
                    board_colours, board_size, variant, players, theme";

/// What a key's value must be, in words.
fn expected(key: &str) -> String {
    match key {
        "ai_level" => "an integer from 0 to 100".into(),
        "undo_depth" => format!(
            "an integer from 0 to {}, or null",
            tabula_engine::MAX_UNDO_DEPTH
        ),
        "legend" | "hints" | "animations" | "sound" => "true or false".into(),
        "colours" | "board_colours" => {
            "an object of at most 32 names to colours (#rrggbb or a colour name)".into()
        }
        "board_size" => "an integer from 120 to 4000 (pixels)".into(),
        "variant" => "a variant text of at most 1000 bytes, such as \"size=5\"".into(),
        "players" => "an array of at most 8 players, each a name or {\"kind\", \"level\"}".into(),
        "theme" => "a name of 1 to 32 letters, digits, - or _".into(),
        _ => "something else".into(),
    }
}

/// A key that is present: its value, never null (only `undo_depth` may be null).
fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A key that is present with any value, null included (`Some(None)` for null).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// An integer from `LO` to `HI`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "i64")]
struct Ranged<const LO: i64, const HI: i64>(i64);

impl<const LO: i64, const HI: i64> TryFrom<i64> for Ranged<LO, HI> {
    type Error = String;
    fn try_from(n: i64) -> Result<Self, String> {
        if (LO..=HI).contains(&n) {
            Ok(Ranged(n))
        } else {
            Err(format!("{n} is not from {LO} to {HI}"))
        }
    }
}

impl<const LO: i64, const HI: i64> From<Ranged<LO, HI>> for i64 {
    fn from(r: Ranged<LO, HI>) -> i64 {
        r.0
    }
}

/// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a colour name of letters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Colour(String);

impl TryFrom<String> for Colour {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let ok = match s.strip_prefix('#') {
            Some(hex) => {
                matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
            }
            None => !s.is_empty() && s.len() <= 30 && s.bytes().all(|b| b.is_ascii_alphabetic()),
        };
        if ok {
            Ok(Colour(s))
        } else {
            Err("not a colour".into())
        }
    }
}

impl From<Colour> for String {
    fn from(c: Colour) -> String {
        c.0
    }
}

/// At most 32 names (1 to 32 characters) with a colour each.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, Colour>")]
struct Colours(BTreeMap<String, Colour>);

impl TryFrom<BTreeMap<String, Colour>> for Colours {
    type Error = String;
    fn try_from(m: BTreeMap<String, Colour>) -> Result<Self, String> {
        let names_ok = m.keys().all(|k| !k.is_empty() && k.chars().count() <= 32);
        if m.len() <= 32 && names_ok {
            Ok(Colours(m))
        } else {
            Err("too many names, or a name that is empty or too long".into())
        }
    }
}

/// A variant's text, at most 1000 bytes (whether the game has it is checked
/// with the game, [`parse`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct VariantText(String);

impl TryFrom<String> for VariantText {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if s.len() <= 1000 {
            Ok(VariantText(s))
        } else {
            Err("too long".into())
        }
    }
}

impl From<VariantText> for String {
    fn from(v: VariantText) -> String {
        v.0
    }
}

/// At most 8 players, each a kind and a level or a name Tabula reads, kept as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<PlayerRequest>")]
struct Players(Vec<PlayerRequest>);

impl TryFrom<Vec<PlayerRequest>> for Players {
    type Error = String;
    fn try_from(players: Vec<PlayerRequest>) -> Result<Self, String> {
        if players.len() > 8 {
            return Err("more than 8 players".into());
        }
        if let Some(e) = players.iter().find_map(|p| p.to_text().err()) {
            return Err(e.to_string());
        }
        Ok(Players(players))
    }
}

/// A theme's name: 1 to 32 letters, digits, `-` or `_`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Theme(String);

impl TryFrom<String> for Theme {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let ok = !s.is_empty()
            && s.len() <= 32
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(Theme(s))
        } else {
            Err("not a theme's name".into())
        }
    }
}

impl From<Theme> for String {
    fn from(t: Theme) -> String {
        t.0
    }
}

impl Settings {
    /// The settings of a game nobody has changed.
    pub fn defaults() -> Settings {
        Settings {
            ai_level: Some(Ranged(50)),
            undo_depth: Some(None),
            legend: Some(true),
            hints: Some(true),
            animations: Some(true),
            sound: Some(false),
            colours: Some(Colours(BTreeMap::new())),
            board_colours: Some(Colours(BTreeMap::new())),
            board_size: None,
            variant: Some(VariantText(String::new())),
            players: Some(Players(Vec::new())),
            theme: None,
        }
    }

    /// These settings, with what they leave out taken from `base`.
    fn over(self, base: Settings) -> Settings {
        Settings {
            ai_level: self.ai_level.or(base.ai_level),
            undo_depth: self.undo_depth.or(base.undo_depth),
            legend: self.legend.or(base.legend),
            hints: self.hints.or(base.hints),
            animations: self.animations.or(base.animations),
            sound: self.sound.or(base.sound),
            colours: self.colours.or(base.colours),
            board_colours: self.board_colours.or(base.board_colours),
            board_size: self.board_size.or(base.board_size),
            variant: self.variant.or(base.variant),
            players: self.players.or(base.players),
            theme: self.theme.or(base.theme),
        }
    }

    /// The settings as stored and sent: a JSON object of the keys present.
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_else(|_| Json::Object(Default::default()))
    }

    /// Settings read back from the database, where no game check is made
    /// again. `Err` in words when they are not settings (a damaged row).
    pub fn stored(json: Json) -> Result<Settings, String> {
        read(json).map_err(|(key, problem)| match key {
            Some(key) => format!("its setting '{key}' is not {}", expected(&key)),
            None => problem,
        })
    }
}

/// Stored settings over the defaults, as `GET /api/settings/{game}` answers:
/// each player by kind and level where those say all of it (one player per
/// seat, so two of them are a two-player game's).
pub fn with_defaults(stored: Option<Settings>) -> Json {
    let mut settings = stored.unwrap_or_default().over(Settings::defaults());
    if let Some(Players(players)) = &mut settings.players {
        let two_player = players.len() == 2;
        for p in players.iter_mut() {
            *p = p.as_chosen(two_player);
        }
    }
    settings.to_json()
}

/// The first problem of a settings object: the top-level key it is under (when
/// there is one) and serde's words.
fn read(json: Json) -> Result<Settings, (Option<String>, String)> {
    if !json.is_object() {
        return Err((None, "settings must be a JSON object".into()));
    }
    serde_path_to_error::deserialize(json).map_err(|e| {
        let key = e.path().iter().next().and_then(|segment| match segment {
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            _ => None,
        });
        (key, e.into_inner().to_string())
    })
}

/// Reads a request's settings for `game`: each key typed and checked, an unknown
/// key refused, the variant built. The first problem is a 400 that names the key.
pub fn parse(game: &str, json: Json) -> Result<Settings, ApiError> {
    let settings = read(json).map_err(|(key, problem)| {
        ApiError::bad_request(match key {
            _ if problem.starts_with("unknown field") => {
                let name = problem
                    .split('`')
                    .nth(1)
                    .unwrap_or("")
                    .chars()
                    .take(40)
                    .collect::<String>();
                format!("unknown setting '{name}' (known: {KEYS})")
            }
            Some(key) if key == "players" => format!(
                "setting 'players' must be {} ({problem})",
                expected("players")
            ),
            Some(key) => format!("setting '{key}' must be {}", expected(&key)),
            None => problem,
        })
    })?;
    if let Some(VariantText(v)) = &settings.variant {
        if let Err(e) = build(game, v) {
            return Err(ApiError::bad_request(format!(
                "setting 'variant' must be a valid variant ({e})"
            )));
        }
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn validate(game: &str, json: &Json) -> Result<Settings, ApiError> {
        parse(game, json.clone())
    }

    #[test]
    fn accepts_known_keys_with_right_types() {
        let ok = json!({
            "ai_level": 66, "undo_depth": null, "legend": false, "colours": {"X": "#c00", "O": "navy"},
            "board_colours": {"light": "#ffeedd"}, "board_size": 480, "variant": "", "players": ["human", "level:66"],
            "theme": "dark", "hints": true, "animations": false, "sound": true
        });
        let settings = validate("tictactoe", &ok).unwrap();
        assert_eq!(settings.to_json(), ok, "kept as sent");
        assert_eq!(
            validate("tictactoe", &json!({})).unwrap(),
            Settings::default()
        );
        // Null is not the same as leaving the key out.
        assert_eq!(
            validate("tictactoe", &json!({"undo_depth": 3}))
                .unwrap()
                .to_json(),
            json!({"undo_depth": 3})
        );
        assert_eq!(Settings::default().to_json(), json!({}));
    }

    #[test]
    fn refuses_unknown_keys_and_wrong_types_naming_the_key() {
        for (bad, words) in [
            (json!({"colour": {}}), "unknown setting 'colour'"),
            (
                json!({"ai_level": 101}),
                "'ai_level' must be an integer from 0 to 100",
            ),
            (json!({"ai_level": "high"}), "'ai_level'"),
            (json!({"ai_level": 5.5}), "'ai_level'"),
            (
                json!({"undo_depth": -1}),
                "'undo_depth' must be an integer from 0 to 1000, or null",
            ),
            (json!({"legend": 1}), "'legend' must be true or false"),
            (
                json!({"colours": {"X": "red; background: url(x)"}}),
                "'colours'",
            ),
            (json!({"colours": {"X": "#12345"}}), "'colours'"),
            (json!({"colours": {"": "#123"}}), "'colours'"),
            (json!({"board_size": 10}), "'board_size'"),
            (
                json!({"variant": "size=zz"}),
                "'variant' must be a valid variant",
            ),
            (json!({"variant": "x".repeat(1001)}), "'variant'"),
            (json!({"players": ["no such thing!"]}), "'players'"),
            (json!({"players": vec!["human"; 9]}), "'players'"),
            (json!({"theme": "<script>"}), "'theme'"),
            (json!([1, 2]), "settings must be a JSON object"),
        ] {
            let e = validate("tictactoe", &bad).unwrap_err();
            assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST, "{bad}");
            assert!(e.message.contains(words), "{bad}: {}", e.message);
        }
        // A long unknown key is quoted in part.
        let mut long = serde_json::Map::new();
        long.insert("y".repeat(500), json!(1));
        let e = validate("tictactoe", &Json::Object(long)).unwrap_err();
        assert!(e.message.len() < 300, "{}", e.message);
    }

    #[test]
    fn stored_settings_that_are_not_settings_say_why() {
        assert!(Settings::stored(json!({"legend": true})).is_ok());
        let e = Settings::stored(json!({"legend": "yes"})).unwrap_err();
        assert_eq!(e, "its setting 'legend' is not true or false");
        assert!(Settings::stored(json!([1])).is_err());
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
        /// accepted is stored as it was sent, reads back as the same settings and
        /// still validates over the defaults.
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
                Ok(accepted) => {
                    let stored = accepted.to_json();
                    proptest::prop_assert_eq!(&stored, &input);
                    let back = Settings::stored(stored.clone()).unwrap();
                    proptest::prop_assert_eq!(&back, &accepted);
                    let shown = with_defaults(Some(back));
                    proptest::prop_assert!(validate(game, &shown).is_ok(), "{}", shown);
                }
            }
        }
    }

    #[test]
    fn players_saved_by_name_still_load_and_read_back_by_kind_and_level() {
        let old = json!({"players": ["human", "level:66"], "ai_level": 66});
        let stored = Settings::stored(old.clone()).unwrap();
        assert_eq!(stored.to_json(), old, "kept as saved");
        let shown = with_defaults(Some(stored));
        assert_eq!(
            shown["players"],
            json!([{"kind": "human"}, {"kind": "level", "level": 66}])
        );
        // A name that a kind and a level cannot say is answered as saved.
        let other = json!({"players": ["human", "alphabeta:depth=6"]});
        let shown = with_defaults(Some(Settings::stored(other).unwrap()));
        assert_eq!(shown["players"][1], json!("alphabeta:depth=6"));
        // The page's form is accepted as sent; a bad kind or level is refused.
        let typed = json!({"players": [{"kind": "human"}, {"kind": "perfect"}]});
        assert_eq!(validate("tictactoe", &typed).unwrap().to_json(), typed);
        for bad in [
            json!({"players": [{"kind": "level", "level": 101}]}),
            json!({"players": [{"kind": "level:66"}]}),
            json!({"players": [{"kind": "level", "depth": 6}]}),
            json!({"players": [{"kind": "level", "level": null}]}),
        ] {
            let e = validate("tictactoe", &bad).unwrap_err();
            assert!(e.message.contains("'players'"), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn defaults_fill_in_what_is_not_stored() {
        let v = with_defaults(Some(Settings::stored(json!({"legend": false})).unwrap()));
        assert_eq!(v["legend"], json!(false));
        assert_eq!(v["ai_level"], json!(50));
        assert_eq!(v["undo_depth"], json!(null));
        let stored = Settings::stored(json!({"undo_depth": 7})).unwrap();
        assert_eq!(with_defaults(Some(stored))["undo_depth"], json!(7));
    }
}
