//! How a game wants to be shown, declared by the game as data.
//!
//! The faces (the browser page, the terminal) know no game by name: everything a
//! game shows beyond its board, its moves and its hints is declared here by the
//! game itself ([`crate::Registered::presentation`]) and switched on by the face
//! from this declaration. Generic features that one game happens to use today (a
//! score card with a timer, a colour palette choice, a solution drawn on the
//! board) are generic panels here; browser code a game really needs of its own
//! (a click protocol) is its own module, embedded in its crate and served by the
//! server at `/games/NAME/module.js`.
//!
//! The JSON form (in `GET /api/games`, field `presentation`) is documented in
//! docs/WEB.md; fields are only ever added.

use crate::view::Mark;
use serde::{Serialize, Serializer};

/// Everything a game declares about how it is shown. `Default` is a game with no
/// extras: the board, the moves, the hints and the default computer rule.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GamePresentation {
    /// Extra cards the page shows beside the board, in order.
    pub panels: Vec<Panel>,
    /// Tools the game offers (a calculator): `tabula tool NAME INPUT` and
    /// `POST /api/games/{game}/tools/{tool}`.
    pub tools: Vec<Tool>,
    /// The game's own browser module (JavaScript source, usually
    /// `include_str!("../web/NAME.js")`), served at `/games/NAME/module.js` and
    /// loaded by the page only when declared. Serialised as `true`/`false`.
    #[serde(serialize_with = "declared")]
    pub module: Option<&'static str>,
    /// Colour palettes a player can choose for the board's colours, besides the
    /// default one that stays apart for colour-blind players. Empty: no choice.
    pub palettes: Vec<Palette>,
    /// What one cell holding a colour is called ("block", "button").
    pub coloured_cell: Option<&'static str>,
    /// The colour every cell must reach in a puzzle ("the goal" in the legend).
    pub goal_colour: Option<u32>,
    /// The hint runs the game's solver from the position for this many seconds
    /// and lights the first move of its line (puzzles whose hints search).
    pub hint_search_seconds: Option<f64>,
    /// Words of the game's own that the page shows (in the move log, the status
    /// lines) explained for a player: the page puts each explanation beside the
    /// term wherever the term appears ("scenario B", "Retired").
    pub glossary: Vec<Term>,
    /// Each seat's colour, in seat order; seats the game leaves out get the
    /// default colours of their places ([`DEFAULT_SEAT_COLOURS`]). Served complete
    /// (see [`GamePresentation::completed`]).
    pub seat_colours: Vec<SeatColour>,
    /// The game's words for the marks of its cells, for legends ("one roll from
    /// 120" for [`Mark::Near`]); marks the game leaves out read [`Mark::words`].
    /// Served complete, one entry per mark.
    pub marks: Vec<MarkWords>,
    /// The variant option that is a board number: each value deals another start
    /// of the same kind of game, so a new game draws a fresh one and Restart keeps
    /// it (SameGame's `seed`). `None`: every option makes another kind of game.
    pub board_number: Option<&'static str>,
    /// The variant options that change nothing in this variant (Poggle's board
    /// number when its start is not dealt at random): a form does not offer them.
    pub idle_options: Vec<&'static str>,
    /// What Esc does when there is nothing for it to cancel (no selection, menu
    /// or question): by default nothing; a game whose own program put the pieces
    /// back with Esc declares [`EscapeKey::StartsAgain`].
    pub escape: EscapeKey,
}

/// What Esc does on a game's page when it has nothing to cancel. Served as
/// `"cancels"` or `"starts_again"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeKey {
    /// Esc only cancels (a selection, a menu, a question) and never changes the game.
    #[default]
    Cancels,
    /// Esc with nothing to cancel puts the pieces back for a new game from the
    /// same start; the old game is kept and Undo at the new start brings it back.
    StartsAgain,
}

impl GamePresentation {
    /// The declaration as served: a colour for each of `seats` seats and words for
    /// every mark, the game's own first.
    pub fn completed(mut self, seats: usize) -> Self {
        for i in self.seat_colours.len()..seats {
            self.seat_colours
                .push(DEFAULT_SEAT_COLOURS[i % DEFAULT_SEAT_COLOURS.len()]);
        }
        self.seat_colours.truncate(seats);
        let own = std::mem::take(&mut self.marks);
        self.marks = Mark::ALL
            .iter()
            .map(|&mark| {
                own.iter()
                    .find(|m| m.mark == mark)
                    .copied()
                    .unwrap_or(MarkWords {
                        mark,
                        words: mark.words(),
                    })
            })
            .collect();
        self
    }
}

/// A mark of the board's cells and the game's words for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MarkWords {
    /// The mark.
    pub mark: Mark,
    /// What it means here, in a player's words ("one roll from 120").
    pub words: &'static str,
}

/// A seat's colour: its pieces, its swatch in the legend and the move list. Served
/// as `{"name": "yellow", "css": "#eab308"}` (read back by its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatColour {
    /// Ivory white pieces.
    White,
    /// Near-black pieces.
    Black,
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Green.
    Green,
    /// Purple.
    Purple,
    /// Yellow.
    Yellow,
    /// Orange.
    Orange,
}

impl SeatColour {
    /// The colour's name, for words ("the yellow pieces").
    pub fn name(self) -> &'static str {
        match self {
            SeatColour::White => "white",
            SeatColour::Black => "black",
            SeatColour::Red => "red",
            SeatColour::Blue => "blue",
            SeatColour::Green => "green",
            SeatColour::Purple => "purple",
            SeatColour::Yellow => "yellow",
            SeatColour::Orange => "orange",
        }
    }

    /// The colour as CSS (`#rrggbb`).
    pub fn css(self) -> &'static str {
        match self {
            SeatColour::White => "#f3efe4",
            SeatColour::Black => "#262a33",
            SeatColour::Red => "#c8102e",
            SeatColour::Blue => "#1d4ed8",
            SeatColour::Green => "#15803d",
            SeatColour::Purple => "#7c3aed",
            SeatColour::Yellow => "#eab308",
            SeatColour::Orange => "#ea580c",
        }
    }
}

impl Serialize for SeatColour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("SeatColour", 2)?;
        st.serialize_field("name", self.name())?;
        st.serialize_field("css", self.css())?;
        st.end()
    }
}

impl<'de> serde::Deserialize<'de> for SeatColour {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Named {
            name: String,
        }
        let named = Named::deserialize(d)?;
        SeatColour::ALL
            .into_iter()
            .find(|c| c.name() == named.name)
            .ok_or_else(|| serde::de::Error::custom(format!("no seat colour '{}'", named.name)))
    }
}

impl SeatColour {
    /// Every seat colour.
    pub const ALL: [SeatColour; 8] = [
        SeatColour::White,
        SeatColour::Black,
        SeatColour::Red,
        SeatColour::Blue,
        SeatColour::Green,
        SeatColour::Purple,
        SeatColour::Yellow,
        SeatColour::Orange,
    ];
}

/// The colours of seats a game does not colour itself, by seat.
pub const DEFAULT_SEAT_COLOURS: [SeatColour; 4] = [
    SeatColour::Red,
    SeatColour::Blue,
    SeatColour::Green,
    SeatColour::Purple,
];

/// A word of the game's own and what it means, in a player's words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    /// The word as the page shows it (`scenario B`), matched without regard to case.
    pub term: &'static str,
    /// What it means ("the original program's second rule of thumb: ...").
    pub words: &'static str,
}

/// `module` in JSON: whether the game has a browser module, not its source.
fn declared<S: Serializer>(module: &Option<&'static str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(module.is_some())
}

/// A card of the game page, switched on by the game's declaration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Panel {
    /// Watch a learning machine learn: its box for the position shown, training
    /// against an opponent with a learning curve, and playing the trained machine.
    Learn {
        /// The learning player (`matchbox`, `menace`).
        player: &'static str,
        /// The machine's name in a sentence ("the matchbox machine", "MENACE").
        machine: &'static str,
        /// The seat the machine is trained for and plays.
        seat: usize,
        /// Games offered first for a training run.
        games: u32,
        /// One or two sentences on how the machine learns, for a player.
        about: &'static str,
    },
    /// The last roll drawn as a die, and a quick simulation of computer players
    /// against each other (a win-rate table).
    Dice {
        /// The computer players the simulation pits against each other.
        players: Vec<&'static str>,
    },
    /// A puzzle's score card: score, coloured cells left, optionally the time
    /// taken and the best scores, what a group would score, and the computer
    /// playing a line of its solver.
    Score {
        /// The time taken so far, ticking while the game runs.
        timer: bool,
        /// The best scores kept by the server for this game.
        best_scores: bool,
        /// "Let the computer play": the solver's line replayed on the board.
        computer_line: bool,
        /// What removing a group of `n` cells scores, for the hover preview.
        group_points: Option<GroupPoints>,
    },
    /// A puzzle's solution: whether the board can be solved, the press counts
    /// drawn on the cells, and which cell to press next.
    Solution,
    /// The game's own facts about the position shown (from its analysis), in a
    /// card of their own with this title.
    Facts {
        /// The card's title, in a player's words.
        title: &'static str,
    },
}

/// How many points removing a group of `n` cells scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupPoints {
    /// `(n - 2)²`.
    SquareLessTwo,
    /// `n`.
    Count,
}

impl GroupPoints {
    /// Points for a group of `n`.
    pub fn points(self, n: u64) -> u64 {
        match self {
            GroupPoints::SquareLessTwo => n.saturating_sub(2).saturating_pow(2),
            GroupPoints::Count => n,
        }
    }
}

/// A colour palette a player can choose for the board's colours.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Palette {
    /// Key kept in the browser's storage (`original`).
    pub name: &'static str,
    /// The choice in a player's words ("Red, yellow, blue").
    pub label: &'static str,
    /// CSS colour per colour number; `None` keeps the default palette's colour.
    pub colours: Vec<Option<&'static str>>,
    /// The name of each colour for legends and screen readers; `None` keeps the default name.
    pub names: Vec<Option<&'static str>>,
    /// The board's empty cells are drawn black under this palette.
    pub dark_board: bool,
}

/// Longest input a tool accepts, in bytes: longer input is refused before the
/// tool runs, so no tool works on unbounded text.
pub const MAX_TOOL_INPUT: usize = 4096;

/// A tool a game offers beside play: text in, an answer out.
#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    /// The tool's name as typed (`tabula tool NAME`), unique among all games.
    pub name: &'static str,
    /// Its title in a player's words.
    pub title: &'static str,
    /// What it does, a sentence or two for a player.
    pub about: &'static str,
    /// An input to show as an example.
    pub example: &'static str,
    /// The tool itself.
    #[serde(skip)]
    pub run: fn(&str) -> Result<ToolAnswer, ToolError>,
}

impl Tool {
    /// Runs the tool on `input` after checking its length ([`MAX_TOOL_INPUT`]).
    pub fn answer(&self, input: &str) -> Result<ToolAnswer, ToolError> {
        if input.len() > MAX_TOOL_INPUT {
            return Err(ToolError::TooLong {
                bytes: input.len(),
                max: MAX_TOOL_INPUT,
            });
        }
        (self.run)(input)
    }
}

/// What a tool answers: sentences for a person, and the same as data.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolAnswer {
    /// The answer in a few lines of plain words.
    pub lines: Vec<String>,
    /// The answer as data, for scripts (`--json`, the API's `data`).
    pub data: serde_json::Value,
}

/// Why a tool gave no answer.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// The input could not be read; the message says where and how to write it.
    #[error("{0}")]
    Input(String),
    /// The input is longer than any tool accepts.
    #[error("the input is too long ({bytes} bytes; at most {max})")]
    TooLong {
        /// Its length.
        bytes: usize,
        /// The limit.
        max: usize,
    },
}

/// The one rule for the computer a new game uses when the person names none:
/// the game's own declared opponent (`Registered::default_opponent`, the one its
/// source prescribes) when it is offered; else the Medium level (`level:66`, the
/// 2006 blog's "AI level of effort") where levels are offered; else the game's own
/// player (the first not among the generic ones); else `expectimax` for dice;
/// else `random`. Both the terminal and the browser read the result from the
/// game list (`default_opponent`) and never decide themselves.
pub fn default_opponent(declared: Option<&str>, players: &[&str]) -> String {
    use crate::GenericPlayer;
    let offered = |p: GenericPlayer| players.contains(&p.name());
    if let Some(d) = declared.filter(|d| players.contains(d)) {
        return d.to_string();
    }
    if offered(GenericPlayer::Level) {
        return format!("{}:66", GenericPlayer::Level.name());
    }
    if let Some(own) = players
        .iter()
        .find(|p| GenericPlayer::from_name(p).is_none())
    {
        return own.to_string();
    }
    if offered(GenericPlayer::Expectimax) {
        return GenericPlayer::Expectimax.name().to_string();
    }
    GenericPlayer::Random.name().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(input: &str) -> Result<ToolAnswer, ToolError> {
        Ok(ToolAnswer {
            lines: vec![input.to_string()],
            data: serde_json::Value::Null,
        })
    }

    #[test]
    fn the_default_opponent_follows_one_rule() {
        let generic = ["human", "random", "perfect", "level", "alphabeta"];
        assert_eq!(default_opponent(None, &generic), "level:66");
        assert_eq!(default_opponent(Some("perfect"), &generic), "perfect");
        // A declared player the variant does not offer falls back to the rule.
        assert_eq!(default_opponent(Some("solver"), &generic), "level:66");
        assert_eq!(
            default_opponent(None, &["human", "random", "search"]),
            "search"
        );
        assert_eq!(
            default_opponent(None, &["human", "random", "expectimax"]),
            "expectimax"
        );
        assert_eq!(default_opponent(None, &["human", "random"]), "random");
    }

    #[test]
    fn tools_refuse_long_input_before_running() {
        let tool = Tool {
            name: "echo",
            title: "Echo",
            about: "",
            example: "",
            run: echo,
        };
        assert!(tool.answer("hello").is_ok());
        let long = "x".repeat(MAX_TOOL_INPUT + 1);
        assert!(matches!(tool.answer(&long), Err(ToolError::TooLong { .. })));
    }

    #[test]
    fn json_says_whether_a_module_exists_without_its_source() {
        let p = GamePresentation {
            module: Some("export const x = 1;"),
            panels: vec![Panel::Facts { title: "Facts" }],
            ..Default::default()
        };
        let j = serde_json::to_value(&p).unwrap();
        assert_eq!(j["module"], true);
        assert_eq!(j["panels"][0]["kind"], "facts");
        assert_eq!(GroupPoints::SquareLessTwo.points(5), 9);
        assert_eq!(GroupPoints::SquareLessTwo.points(1), 0);
        assert_eq!(GroupPoints::Count.points(5), 5);
    }
}
