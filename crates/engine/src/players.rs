//! Player names as users type them (`random`, `level:66`, `alphabeta:depth=6`,
//! `high`, `scenario`) and how they become strategies.

use crate::EngineError;
use tabula_ai::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use tabula_ai::players::LEVEL_PRESETS;
use tabula_core::{GenericPlayer, PlayerKind};

/// The level of a level-mixed player: how often it plays the strong move.
const LEVEL: OptionSpec = OptionSpec::new("level", "the level", Kind::Whole { min: 0, max: 100 });

/// The player a level mixes random moves with (a player name, read again).
const BASE: OptionSpec = OptionSpec::new("base", "the player to mix with", Kind::Text);

/// The options of `level:` (`level:25` is `level:level=25`).
const LEVEL_OPTIONS: PlayerOptions = PlayerOptions::new(&[LEVEL, BASE]).nameless("level");

/// The options of a preset (`low:base=alphabeta`): its level is its own.
const PRESET_OPTIONS: PlayerOptions = PlayerOptions::new(&[BASE]);

/// The level any two-player computer player may be given (`alphabeta:level=50`).
const LEVEL_ONLY: PlayerOptions = PlayerOptions::new(&[LEVEL]);

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
        let words = |e: PlayerOptionError| bad(&e.to_string());
        if preset.is_some() || self.generic() == Some(GenericPlayer::Level) {
            // A preset names its level; `level:` takes one, a number on its own.
            let options = if preset.is_some() {
                PRESET_OPTIONS
            } else {
                LEVEL_OPTIONS
            };
            let read = match options.read(&self.options) {
                Ok(read) => read,
                Err(e) => return Some(Err(words(e))),
            };
            let base = match read.text("base").map(base_of).transpose() {
                Ok(base) => base.flatten(),
                Err(e) => return Some(Err(e)),
            };
            let level = read.whole("level").map(|l| l as u32).or(preset);
            return Some(level.map(|l| (l, base)).ok_or_else(|| {
                bad("the level must be a whole number from 0 to 100 (such as level:25)")
            }));
        }
        if !two_player {
            return None;
        }
        let (read, rest) = match LEVEL_ONLY.read_leaving_others(&self.options) {
            Ok(split) => split,
            Err(e) => return Some(Err(words(e))),
        };
        let level = read.whole("level")? as u32;
        let base = PlayerSpec {
            name: self.name.clone(),
            options: rest,
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
