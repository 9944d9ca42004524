use crate::{
    Actions, ExactAnalysis, GamePresentation, MatchRules, Players, Presentation, Preset, Symmetry,
    Variant, VariantError, VariantOption,
};

/// A game that can be listed in the registry and built from variant options.
///
/// Implementing this (plus [`Game`](crate::Game) and its capability traits: the
/// supertraits below, checked by the compiler) is all a new game needs; the
/// engine's registry then lists it with one line, and the CLI, server, solvers and
/// UI work for it. [`Presentation`] brings [`crate::Notation`] with it; the optional
/// capabilities may be declared empty (`impl Symmetry for MyGame {}`); [`Actions`]
/// (integer move ids, an observation tensor) is required of every game.
pub trait Registered:
    Presentation + Symmetry + ExactAnalysis + Players + MatchRules + Actions + Sized
{
    /// Human title (`Four Field Kono`).
    const TITLE: &'static str;
    /// One sentence on what the game is.
    const SUMMARY: &'static str;
    /// The computer player a new game of this variant uses when the user names
    /// none, when the game's source prescribes one for it (Northcott's program
    /// answers with its `nim` reply; Gardner's matchbox machine plays the 3x3
    /// Hexapawn board it was built for); `None` leaves the choice to the front end.
    fn default_opponent(&self) -> Option<&'static str> {
        None
    }
    /// The player the AI level mixes with random moves in this variant when the
    /// user names none (`level:25`, the presets `off`/`low`/`medium`/`high`): the
    /// strongest player by default (`perfect`, else alpha-beta); Mu Torere and
    /// Kono use the 2006 blog's one-ply `lookahead`, as the blog's "AI level of
    /// effort" does.
    fn level_base(&self) -> &'static str {
        "perfect"
    }
    /// How to play, for players: the game's page `crates/games/NAME/docs/rules.md` (Markdown,
    /// usually `include_str!`), shown by `tabula rules GAME`, the web page's "How to
    /// play" card and `GET /api/games/{game}/rules`. Empty: no rules text. The
    /// programmer's page (`crates/games/NAME/docs/NAME.md`) is kept apart: it names types and sources.
    const RULES: &'static str = "";
    /// One sentence on what this variant is: the page's line under the title, which
    /// follows the variant ("a 4x4 board", "three in a row loses"). [`Self::SUMMARY`]
    /// by default, for games whose summary no option changes.
    fn summary(&self) -> String {
        Self::SUMMARY.to_string()
    }
    /// The variant options the game understands.
    fn options() -> Vec<VariantOption>;
    /// Named variants a player can pick at once (Simon Tatham's "Type" menu), the
    /// usual game among them; each must be accepted by `from_variant`. None by default.
    fn presets() -> Vec<Preset> {
        Vec::new()
    }
    /// Builds the game from options; unknown options and bad values are errors.
    fn from_variant(variant: &Variant) -> Result<Self, VariantError>;
    /// The normalised options of this game (round-trips through `from_variant`).
    fn variant(&self) -> Variant;
    /// Why this variant cannot be *played* interactively although it can be solved
    /// (a 10000x10000 Poggle board), or `None` when it can.
    fn play_limit(&self) -> Option<String> {
        None
    }
    /// A one-player puzzle's win in its own words, as its result reads
    /// ("solved"; SameGame's cleared board: "board cleared").
    fn goal_words(&self) -> &'static str {
        "solved"
    }
    /// A copy of this game with a fresh start dealt from `rng`, for games whose
    /// variant leaves the start open (SameGame without `seed`: every new game deals a
    /// new random board, the Same Game tutorial's New). `None` (the default) keeps the variant's start.
    fn deal(&self, _rng: &mut crate::Rng) -> Option<Self> {
        None
    }
    /// How the game is shown beyond its board, moves and hints: extra panels,
    /// tools, its own browser module, palettes ([`GamePresentation`]). The faces
    /// switch these on from the declaration and know no game by name. It may depend
    /// on the variant (the scoring rule a score card previews). Nothing extra by default.
    fn presentation(&self) -> GamePresentation {
        GamePresentation::default()
    }
    /// What the game declares for the shared tests: variants to check and what
    /// each promises, published counts, positions with known values, its
    /// OpenSpiel counterpart ([`crate::TestCases`]). Nothing by default: the
    /// usual game and the presets are checked anyway.
    fn test_cases() -> crate::TestCases {
        crate::TestCases::default()
    }
    /// Extra `tabula count` report (Burnside counts), if the game has one.
    fn count_report(&self) -> Option<crate::CountReport> {
        None
    }
    /// The opening book of this variant made one position at a time, for a
    /// cluster to share out ([`crate::OpeningBookWork`]); `None` (the default):
    /// the game makes no book.
    fn opening_book_work(&self) -> Option<Box<dyn crate::OpeningBookWork>> {
        None
    }
    /// The puzzle's nested rollout policy search in pieces, for a cluster to
    /// share out ([`crate::PolicySearch`]); `None` (the default): none.
    fn policy_search(&self) -> Option<Box<dyn crate::PolicySearch>> {
        None
    }
}
