//! Player names as users type them (`random`, `level:66`, `alphabeta:depth=6`,
//! `high`, `scenario`) and how they become strategies.

use crate::EngineError;
use tabula_ai::players::LEVEL_PRESETS;
use tabula_core::{GenericPlayer, PlayerKind};

/// A parsed player name: `name[:options]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The kind (`human`, `random`, `level`, …), lower case.
    pub name: String,
    /// Whatever followed the first `:` (`66`, `depth=6,ms=200`).
    pub options: String,
}

impl PlayerSpec {
    /// True for a person at the keyboard (or browser).
    pub fn is_human(&self) -> bool {
        self.generic() == Some(GenericPlayer::Human)
    }
    /// The generic player this names, if it names one.
    pub fn generic(&self) -> Option<GenericPlayer> {
        GenericPlayer::from_name(&self.name)
    }
    /// A level-mixed player, split into its level and the player it mixes with
    /// random moves (`None`: the game's [`tabula_core::Registered::level_base`]).
    ///
    /// Accepted forms: `level:25`, `level:25,base=lookahead`, a preset (`low`,
    /// `low:base=alphabeta`) and, in two-player games, any player with a `level=N`
    /// option (`lookahead:level=25`, `alphabeta:depth=6,level=50`, `perfect:level=95`).
    pub fn level_split(
        &self,
        two_player: bool,
    ) -> Option<Result<(u32, Option<PlayerSpec>), EngineError>> {
        let bad = |reason: &str| EngineError::Player {
            spec: self.to_text(),
            reason: reason.into(),
        };
        let parse_level = |text: &str| {
            text.trim()
                .parse::<u32>()
                .ok()
                .filter(|l| *l <= 100)
                .ok_or_else(|| bad("the level must be a whole number from 0 to 100"))
        };
        let base_of = |name: &str| -> Result<Option<PlayerSpec>, EngineError> {
            let base = parse_player_spec(name)?;
            if matches!(
                base.generic(),
                Some(GenericPlayer::Human | GenericPlayer::Random | GenericPlayer::Level)
            ) || LEVEL_PRESETS
                .iter()
                .any(|(n, _)| *n == base.name && *n != "perfect")
            {
                return Err(bad(
                    "the level mixes random moves with a computer player such as lookahead, alphabeta or perfect",
                ));
            }
            Ok(Some(base))
        };
        let preset = LEVEL_PRESETS
            .iter()
            .find(|(n, _)| *n == self.name && *n != "perfect")
            .map(|&(_, l)| l);
        if preset.is_some() || self.generic() == Some(GenericPlayer::Level) {
            let mut level = preset;
            let mut base = None;
            for part in self
                .options
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
            {
                match part.split_once('=') {
                    Some((k, v)) if k.trim() == "base" => match base_of(v.trim()) {
                        Ok(b) => base = b,
                        Err(e) => return Some(Err(e)),
                    },
                    Some((k, v)) if k.trim() == "level" && preset.is_none() => {
                        match parse_level(v) {
                            Ok(l) => level = Some(l),
                            Err(e) => return Some(Err(e)),
                        }
                    }
                    None if preset.is_none() => match parse_level(part) {
                        Ok(l) => level = Some(l),
                        Err(e) => return Some(Err(e)),
                    },
                    _ => {
                        return Some(Err(bad(&format!(
                        "unknown level option '{part}' (try level:25 or level:25,base=lookahead)"
                    ))))
                    }
                }
            }
            return Some(
                level
                    .map(|l| (l, base))
                    .ok_or_else(|| bad("the level must be a whole number from 0 to 100")),
            );
        }
        if !two_player {
            return None;
        }
        let mut level = None;
        let mut rest = Vec::new();
        for part in self
            .options
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            match part.split_once('=') {
                Some((k, v)) if k.trim() == "level" => match parse_level(v) {
                    Ok(l) => level = Some(l),
                    Err(e) => return Some(Err(e)),
                },
                _ => rest.push(part),
            }
        }
        let level = level?;
        let base = PlayerSpec {
            name: self.name.clone(),
            options: rest.join(","),
        };
        Some(base_of(&base.to_text()).map(|b| (level, b)))
    }
    /// Back to text.
    pub fn to_text(&self) -> String {
        if self.options.is_empty() {
            self.name.clone()
        } else {
            format!("{}:{}", self.name, self.options)
        }
    }
}

/// Reads `name[:options]`; the name must be a simple word.
pub fn parse_player_spec(text: &str) -> Result<PlayerSpec, EngineError> {
    let text = text.trim();
    let (name, options) = text.split_once(':').unwrap_or((text, ""));
    let name = name.trim().to_ascii_lowercase();
    if name.is_empty()
        || name.len() > 32
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(EngineError::Player {
            spec: text.chars().take(40).collect(),
            reason: "expected a player name such as human, random, perfect, level:66".into(),
        });
    }
    if options.len() > 200 {
        return Err(EngineError::Player {
            spec: name,
            reason: "options too long".into(),
        });
    }
    Ok(PlayerSpec {
        name,
        options: options.trim().to_string(),
    })
}

/// The generic player kinds this game supports.
pub fn generic_player_kinds(two_player: bool, deterministic: bool, exact: bool) -> Vec<PlayerKind> {
    GenericPlayer::ALL
        .into_iter()
        .filter(|&p| match p {
            GenericPlayer::Human | GenericPlayer::Random => true,
            GenericPlayer::Perfect => two_player && deterministic && exact,
            GenericPlayer::Level
            | GenericPlayer::Lookahead
            | GenericPlayer::Alphabeta
            | GenericPlayer::Matchbox
            | GenericPlayer::Menace => two_player && deterministic,
            GenericPlayer::Expectimax => two_player && !deterministic,
        })
        .map(PlayerKind::generic)
        .collect()
}
