//! The options a search player is given: `depth=N` (plies ahead) and `ms=M`
//! (thinking time a move), comma separated, either or both. One reader for
//! every search (alpha-beta, expectimax and the searches games bring), so they
//! accept the same text and refuse it in the same words.

use crate::player_options::{Kind, OptionSpec, PlayerOptionError, PlayerOptions};
use std::time::Duration;

/// The longest a search may be asked to think about one move, in milliseconds.
pub const MAX_MS: u64 = 10_000;

/// The deepest a search may be asked to go, in plies.
pub const MAX_DEPTH: u32 = 64;

/// The options of every search player, for the shared reader.
pub const SEARCH_OPTIONS: PlayerOptions = PlayerOptions::new(&[
    OptionSpec::new(
        "depth",
        "the search depth",
        Kind::Whole {
            min: 1,
            max: MAX_DEPTH as u64,
        },
    ),
    OptionSpec::new(
        "ms",
        "the thinking time in milliseconds",
        Kind::Whole {
            min: 1,
            max: MAX_MS,
        },
    ),
]);

/// What a player's options asked for; `None` where an option was not given
/// (each player has its own default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// `depth=N`: at most so many plies, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `ms=M`: at most so long a move, 1 ms to [`MAX_MS`] ms.
    pub time: Option<Duration>,
}

impl SearchOptions {
    /// Reads `depth=N,ms=M` (either may be omitted; spaces around names and
    /// values are allowed; the last of a repeated option counts).
    pub fn parse(options: &str) -> Result<SearchOptions, PlayerOptionError> {
        let read = SEARCH_OPTIONS.read(options)?;
        Ok(SearchOptions {
            depth: read.whole("depth").map(|d| d as u32),
            time: read.whole("ms").map(Duration::from_millis),
        })
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
        let depth = "the search depth must be a whole number from 1 to 64";
        let ms = "the thinking time in milliseconds must be a whole number from 1 to 10000";
        let unknown = "this player has no option 'speed' (its options: depth, ms)";
        let cases = [
            ("depth=0", depth),
            ("depth=65", depth),
            ("depth=x", depth),
            ("depth", depth),
            ("ms=0", ms),
            ("ms=10001", ms),
            ("ms=-3", ms),
            ("speed=3", unknown),
            ("speed=fast", unknown),
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
