//! The options a search player is given: `depth=N` (plies ahead) and `ms=M`
//! (thinking time a move), comma separated, either or both. One reader for
//! every search (alpha-beta, expectimax and the searches games bring), so they
//! accept the same text and refuse it in the same words.

use std::time::Duration;
use thiserror::Error;

/// The longest a search may be asked to think about one move, in milliseconds.
pub const MAX_MS: u64 = 10_000;

/// The deepest a search may be asked to go, in plies.
pub const MAX_DEPTH: u32 = 64;

/// What a player's options asked for; `None` where an option was not given
/// (each player has its own default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// `depth=N`: at most so many plies, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `ms=M`: at most so long a move, 1 ms to [`MAX_MS`] ms.
    pub time: Option<Duration>,
}

/// Why a search player's options cannot be read, in a player's words.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SearchOptionError {
    /// An item is not of the form `name=value`.
    #[error("expected name=value, got '{0}'")]
    NotNameValue(String),
    /// A value is not a whole number.
    #[error("'{0}' is not a whole number")]
    NotWhole(String),
    /// `depth` is outside 1 to [`MAX_DEPTH`].
    #[error("depth must be 1 to {MAX_DEPTH}")]
    Depth,
    /// `ms` is outside 1 to [`MAX_MS`].
    #[error("ms must be 1 to {MAX_MS} (at most ten seconds a move)")]
    Time,
    /// A name other than `depth` and `ms`.
    #[error("unknown option '{0}' (known: depth, ms)")]
    Unknown(String),
}

impl SearchOptions {
    /// Reads `depth=N,ms=M` (either may be omitted; spaces around names and
    /// values are allowed; the last of a repeated option counts).
    pub fn parse(options: &str) -> Result<SearchOptions, SearchOptionError> {
        let mut read = SearchOptions::default();
        for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| SearchOptionError::NotNameValue(item.to_string()))?;
            let (name, value) = (name.trim(), value.trim());
            if name != "depth" && name != "ms" {
                return Err(SearchOptionError::Unknown(name.to_string()));
            }
            let n: u64 = value
                .parse()
                .map_err(|_| SearchOptionError::NotWhole(value.to_string()))?;
            if name == "depth" {
                if !(1..=u64::from(MAX_DEPTH)).contains(&n) {
                    return Err(SearchOptionError::Depth);
                }
                read.depth = Some(n as u32);
            } else {
                if !(1..=MAX_MS).contains(&n) {
                    return Err(SearchOptionError::Time);
                }
                read.time = Some(Duration::from_millis(n));
            }
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_and_time_are_read_in_either_order() {
        assert_eq!(SearchOptions::parse("").unwrap(), SearchOptions::default());
        let both = SearchOptions {
            depth: Some(5),
            time: Some(Duration::from_millis(20)),
        };
        assert_eq!(SearchOptions::parse("depth=5,ms=20").unwrap(), both);
        assert_eq!(SearchOptions::parse(" ms = 20 , depth=5 ").unwrap(), both);
        assert_eq!(
            SearchOptions::parse("depth=64").unwrap().depth,
            Some(MAX_DEPTH)
        );
        assert_eq!(
            SearchOptions::parse("ms=10000").unwrap().time,
            Some(Duration::from_millis(MAX_MS))
        );
    }

    #[test]
    fn refusals_say_which_option_and_what_is_allowed() {
        let cases = [
            ("depth=0", "depth must be 1 to 64"),
            ("depth=65", "depth must be 1 to 64"),
            ("ms=0", "ms must be 1 to 10000 (at most ten seconds a move)"),
            (
                "ms=10001",
                "ms must be 1 to 10000 (at most ten seconds a move)",
            ),
            ("depth=x", "'x' is not a whole number"),
            ("ms=-3", "'-3' is not a whole number"),
            ("depth", "expected name=value, got 'depth'"),
            ("speed=3", "unknown option 'speed' (known: depth, ms)"),
            ("speed=fast", "unknown option 'speed' (known: depth, ms)"),
        ];
        for (text, words) in cases {
            assert_eq!(
                SearchOptions::parse(text).unwrap_err().to_string(),
                words,
                "{text}"
            );
        }
    }
}
