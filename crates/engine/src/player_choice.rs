//! A seat's player as a face chooses it: its kind and, for a level-mixed
//! computer, its level, the same two facts a session's view declares of each
//! seat (`seats[].kind`, `seats[].level`). A face sends this and reads this, so
//! it never writes or splits a player's name (`level:66`).

use crate::players::PlayerSpec;
use crate::EngineError;
use serde::{Deserialize, Serialize};
use tabula_ai::players::LEVEL_PRESETS;
use tabula_core::GenericPlayer;

/// A player by kind and level: `{"kind":"level","level":66}`, `{"kind":"perfect"}`,
/// `{"kind":"alphabeta","level":50}` (alpha-beta mixed with random moves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerChoice {
    /// The kind of player (`human`, `random`, `level`, `perfect`, a game's own).
    pub kind: String,
    /// 0 to 100: how often the player's own move is played rather than a random
    /// one; none for a player that is not mixed with random moves.
    #[serde(
        default,
        deserialize_with = "given",
        skip_serializing_if = "Option::is_none"
    )]
    pub level: Option<u32>,
}

/// A level that is given is a number (null is not one: leave it out instead).
fn given<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    u32::deserialize(d).map(Some)
}

impl PlayerChoice {
    /// The player named `spec`, when its kind and level say all of it (`level:66`,
    /// `medium`, `perfect`, `alphabeta:level=50`); `None` for a name with other
    /// options (`alphabeta:depth=6`, `level:25,base=lookahead`), which a kind and a
    /// level cannot say. `two_player`: whether the game has two seats (where any
    /// player takes a `level=N` option).
    pub fn of_spec(spec: &PlayerSpec, two_player: bool) -> Option<PlayerChoice> {
        let levelled = spec.generic() == Some(GenericPlayer::Level) || is_preset(&spec.name);
        match spec.level_split(two_player) {
            // `level:66` or a preset, mixed with the game's usual player.
            Some(Ok((level, None))) if levelled => Some(PlayerChoice {
                kind: GenericPlayer::Level.name().to_string(),
                level: Some(level),
            }),
            // `alphabeta:level=50`: the player itself, mixed, with no other option.
            Some(Ok((level, Some(base))))
                if !levelled && base.name == spec.name && base.options.is_empty() =>
            {
                Some(PlayerChoice {
                    kind: spec.name.clone(),
                    level: Some(level),
                })
            }
            Some(_) => None,
            None => spec.options.is_empty().then(|| PlayerChoice {
                kind: spec.name.clone(),
                level: None,
            }),
        }
    }

    /// The player's name as the engine reads it: `level:66` for the level-mixed
    /// computer (a preset's name with a level too), `NAME:level=N` for another
    /// kind with a level, the kind alone without one. `Err` in words for a kind
    /// that is not a simple name or a level above 100.
    pub fn to_spec(&self) -> Result<PlayerSpec, EngineError> {
        let bad = |reason: &str| EngineError::Player {
            spec: self.kind.chars().take(40).collect(),
            reason: reason.into(),
        };
        let kind = self.kind.trim().to_ascii_lowercase();
        if kind.is_empty()
            || kind.len() > 32
            || !kind
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(bad(
                "expected a kind of player such as human, random, perfect or level",
            ));
        }
        let options = match self.level {
            None => String::new(),
            Some(l) if l > 100 => {
                return Err(bad("the level must be a whole number from 0 to 100"));
            }
            Some(l) if kind == GenericPlayer::Level.name() || is_preset(&kind) => {
                return Ok(PlayerSpec {
                    name: GenericPlayer::Level.name().to_string(),
                    options: l.to_string(),
                });
            }
            Some(l) => format!("level={l}"),
        };
        Ok(PlayerSpec {
            name: kind,
            options,
        })
    }
}

/// A named level below perfect play (`off`, `low`, `medium`, `high`).
fn is_preset(name: &str) -> bool {
    LEVEL_PRESETS
        .iter()
        .any(|(n, _)| *n == name && *n != GenericPlayer::Perfect.name())
}

/// A player as a request or a stored setting names it: a kind and a level
/// (`{"kind":"level","level":66}`, what the browser sends) or a name as typed
/// (`"level:66"`, what settings saved before kinds and levels hold, and what a
/// terminal player types).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PlayerRequest {
    /// By kind and level.
    Chosen(PlayerChoice),
    /// By name.
    Named(String),
}

impl PlayerRequest {
    /// The player's name as the engine reads it ([`PlayerChoice::to_spec`]).
    pub fn to_text(&self) -> Result<String, EngineError> {
        match self {
            PlayerRequest::Chosen(c) => c.to_spec().map(|s| s.to_text()),
            PlayerRequest::Named(n) => crate::parse_player_spec(n).map(|s| s.to_text()),
        }
    }

    /// The same player by kind and level where those say all of it
    /// ([`PlayerChoice::of_spec`]); a name they cannot say is kept as written.
    pub fn as_chosen(&self, two_player: bool) -> PlayerRequest {
        match self {
            PlayerRequest::Named(n) => crate::parse_player_spec(n)
                .ok()
                .and_then(|s| PlayerChoice::of_spec(&s, two_player))
                .map_or_else(|| self.clone(), PlayerRequest::Chosen),
            PlayerRequest::Chosen(_) => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_player_spec;

    fn chosen(kind: &str, level: Option<u32>) -> PlayerChoice {
        PlayerChoice {
            kind: kind.into(),
            level,
        }
    }

    #[test]
    fn a_kind_and_level_name_the_player_the_seat_declares() {
        for (c, text) in [
            (chosen("level", Some(66)), "level:66"),
            (chosen("perfect", None), "perfect"),
            (chosen("human", None), "human"),
            (chosen("medium", Some(40)), "level:40"),
            (chosen("alphabeta", Some(50)), "alphabeta:level=50"),
            (chosen("Random", None), "random"),
        ] {
            assert_eq!(c.to_spec().unwrap().to_text(), text, "{c:?}");
        }
        for bad in [
            chosen("level:66", None),
            chosen("", None),
            chosen("level", Some(101)),
        ] {
            assert!(bad.to_spec().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_name_reads_as_kind_and_level_where_they_say_all_of_it() {
        let of = |t: &str| PlayerChoice::of_spec(&parse_player_spec(t).unwrap(), true);
        assert_eq!(of("level:66"), Some(chosen("level", Some(66))));
        assert_eq!(of("medium"), Some(chosen("level", Some(66))));
        assert_eq!(of("perfect"), Some(chosen("perfect", None)));
        assert_eq!(
            of("alphabeta:level=50"),
            Some(chosen("alphabeta", Some(50)))
        );
        assert_eq!(of("alphabeta:depth=6"), None);
        assert_eq!(of("level:25,base=lookahead"), None);
        // Each one said back names the same player.
        for t in ["level:66", "perfect", "alphabeta:level=50", "human"] {
            assert_eq!(of(t).unwrap().to_spec().unwrap().to_text(), t);
        }
    }

    #[test]
    fn requests_are_names_or_kinds_and_levels() {
        let named: PlayerRequest = serde_json::from_str(r#""level:66""#).unwrap();
        let typed: PlayerRequest = serde_json::from_str(r#"{"kind":"level","level":66}"#).unwrap();
        assert_eq!(named.to_text().unwrap(), typed.to_text().unwrap());
        assert_eq!(named.as_chosen(true), typed);
        assert!(serde_json::from_str::<PlayerRequest>(r#"{"kind":"level","depth":6}"#).is_err());
        assert!(serde_json::from_str::<PlayerRequest>("5").is_err());
        assert!(serde_json::from_str::<PlayerRequest>(r#"{"kind":"level","level":null}"#).is_err());
        let kept = PlayerRequest::Named("alphabeta:depth=6".into());
        assert_eq!(kept.as_chosen(true), kept);
        assert_eq!(
            serde_json::to_value(&typed).unwrap(),
            serde_json::json!({"kind":"level","level":66})
        );
    }
}
