//! How removing a group scores.

/// A scoring rule, chosen with the `scoring=` variant option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// `(n-2)^2` for a group of `n` blocks, plus 1000 for clearing the board.
    #[default]
    Standard,
    /// `(n-2)^2` for a group of `n` blocks, no bonus for clearing.
    NoBonus,
    /// One point per block removed (the tutorial counts blocks remaining and nothing else).
    Blocks,
}

impl Scoring {
    /// Every rule, in the order the variant help lists them.
    pub const ALL: [Scoring; 3] = [Scoring::Standard, Scoring::NoBonus, Scoring::Blocks];

    /// The option value (`standard`, `nobonus`, `blocks`).
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::NoBonus => "nobonus",
            Scoring::Blocks => "blocks",
        }
    }

    /// The rule with this option value.
    pub fn from_name(name: &str) -> Option<Scoring> {
        Scoring::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// Points for removing a group of `n` blocks (`n >= 2`).
    #[inline]
    pub fn group(self, n: usize) -> i64 {
        match self {
            Scoring::Standard | Scoring::NoBonus => {
                let k = n.saturating_sub(2) as i64;
                k * k
            }
            Scoring::Blocks => n as i64,
        }
    }

    /// Points for the move that leaves the board empty.
    #[inline]
    pub fn clear_bonus(self) -> i64 {
        match self {
            Scoring::Standard => 1000,
            Scoring::NoBonus | Scoring::Blocks => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_scores_published_values() {
        // (n-2)^2: a pair scores nothing, three score 1, ten score 64.
        assert_eq!(Scoring::Standard.group(2), 0);
        assert_eq!(Scoring::Standard.group(3), 1);
        assert_eq!(Scoring::Standard.group(10), 64);
        assert_eq!(Scoring::Standard.clear_bonus(), 1000);
        assert_eq!(Scoring::NoBonus.clear_bonus(), 0);
        assert_eq!(Scoring::Blocks.group(7), 7);
    }

    #[test]
    fn names_round_trip() {
        for s in Scoring::ALL {
            assert_eq!(Scoring::from_name(s.name()), Some(s));
        }
        assert_eq!(Scoring::from_name("fancy"), None);
    }
}
