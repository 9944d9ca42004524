//! Player names as users type them (`random`, `level:66`, `alphabeta:depth=6`,
//! `high`, `scenario`) and how they become strategies.

use crate::EngineError;
use tabula_ai::players::LEVEL_PRESETS;
use tabula_core::PlayerKind;

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
        self.name == "human"
    }
    /// The level of a level-mixed player (`level:N` or a preset name).
    pub fn level(&self) -> Option<Result<u32, EngineError>> {
        if let Some(&(_, l)) = LEVEL_PRESETS
            .iter()
            .find(|(n, _)| *n == self.name && *n != "perfect")
        {
            return Some(Ok(l));
        }
        if self.name != "level" {
            return None;
        }
        Some(
            self.options
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|l| *l <= 100)
                .ok_or_else(|| EngineError::Player {
                    spec: format!("level:{}", self.options),
                    reason: "the level must be a whole number from 0 to 100".into(),
                }),
        )
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

/// The generic player kinds, each with whether this game supports it.
pub fn generic_player_kinds(two_player: bool, deterministic: bool, exact: bool) -> Vec<PlayerKind> {
    let mut v = vec![PlayerKind::new(
        "human",
        "a person at the keyboard or in the browser",
    )];
    v.push(PlayerKind::new("random", "a uniformly random legal move"));
    if two_player && deterministic && exact {
        v.push(PlayerKind::new(
            "perfect",
            "provably perfect play from the strong solution: wins fastest, loses slowest, random among equals",
        ));
    }
    if two_player && deterministic {
        v.push(PlayerKind::new(
            "level",
            "level:L (0-100): a random move with probability (100-L)%, else the strong move; presets off, low, medium, high",
        ));
        v.push(PlayerKind::new(
            "alphabeta",
            "alpha-beta search: alphabeta:depth=8,ms=500",
        ));
        v.push(PlayerKind::new(
            "matchbox",
            "Gardner's matchbox machine: learns by removing the losing bead (matchbox:symmetry=off)",
        ));
        v.push(PlayerKind::new(
            "menace",
            "MENACE-style bead counts: reinforced after wins and draws, punished after losses",
        ));
    }
    if two_player && !deterministic {
        v.push(PlayerKind::new(
            "expectimax",
            "search over dice outcomes: expectimax:depth=2 or expectimax:ms=50",
        ));
    }
    v
}
