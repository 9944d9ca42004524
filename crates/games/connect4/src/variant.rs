//! The variant options, the ready-made variants and the registration.

use crate::board::{Geometry, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use crate::ConnectFour;
use tabula_core::{
    ExactAnalysis, Game, GamePresentation, KnownCount, Mark, MarkWords, OpenSpielCase, Preset,
    Registered, SeatColour, TestCases, Value, Variant, VariantCase, VariantChoice, VariantError,
    VariantOption,
};

/// The ready-made variants ("Type" menu): the classic game first.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "Classic: 7 columns, 6 rows",
        variant: "",
    },
    Preset {
        name: "Small board: 4 columns, 4 rows (solved)",
        variant: "width=4,height=4",
    },
    Preset {
        name: "5 columns, 4 rows (solved)",
        variant: "width=5,height=4",
    },
    Preset {
        name: "Three in a row on 5 columns, 5 rows",
        variant: "width=5,height=5,connect=3",
    },
    Preset {
        name: "Four in a row loses (misère)",
        variant: "play=misere",
    },
    Preset {
        name: "Pop Out: take your own disc out from below",
        variant: "rules=popout",
    },
];

/// The board's widths, `MIN_WIDTH` to `MAX_WIDTH`, as menu choices.
static WIDTHS: [VariantChoice; (MAX_WIDTH - MIN_WIDTH + 1) as usize] = sizes(MIN_WIDTH);

/// The board's heights, `MIN_HEIGHT` to `MAX_HEIGHT`, as menu choices.
static HEIGHTS: [VariantChoice; (MAX_HEIGHT - MIN_HEIGHT + 1) as usize] = sizes(MIN_HEIGHT);

/// `N` sizes from `first` as menu choices, each in figures. A choice's text
/// must be `'static`, and sizes have one digit (a board is at most 7 wide
/// and 6 high), so each is taken from the table of digits.
const fn sizes<const N: usize>(first: u8) -> [VariantChoice; N] {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    const NONE: VariantChoice = VariantChoice {
        value: "",
        words: "",
    };
    let mut choices = [NONE; N];
    let mut i = 0;
    while i < N {
        let digit = DIGITS[first as usize + i];
        choices[i] = VariantChoice {
            value: digit,
            words: digit,
        };
        i += 1;
    }
    choices
}

impl Registered for ConnectFour {
    const TITLE: &'static str = "Connect Four";
    const SUMMARY: &'static str = "Drop discs into 7 columns of 6 rows: the first to line up four of their own across, up or diagonally wins; a full board is a draw.";
    const RULES: &'static str = include_str!("../docs/rules.md");

    /// The opening book in pieces, where the exact solver covers the rules.
    fn opening_book_work(&self) -> Option<Box<dyn tabula_core::OpeningBookWork>> {
        crate::solver::cluster::BookWork::new(self)
            .map(|w| Box::new(w) as Box<dyn tabula_core::OpeningBookWork>)
    }

    /// The AI level mixes random moves with the perfect player where it
    /// answers at once (a board the generic solver tables, or one whose
    /// opening book reaches the plies the search cannot finish in a second),
    /// else with the bitboard search.
    fn level_base(&self) -> &'static str {
        let booked = self.book().is_some_and(|b| {
            b.depth() >= crate::solver::oracle::BOOK_PLIES_FOR_PLAY && !b.is_empty()
        });
        if self.is_small() || (self.solver_answers() && booked) {
            "perfect"
        } else {
            "search"
        }
    }

    fn test_cases() -> TestCases {
        TestCases {
            // The classic board is solved by search, not tabled: the
            // terminal's checks solve, analyse and play the small board.
            quick: Some("width=4,height=4"),
            variants: vec![
                VariantCase::new("", true).summary(
                    &["7 columns of 6 rows", "four of their own", "wins"],
                    &["loses"],
                ),
                VariantCase::new("width=4,height=4", true),
                VariantCase::new("width=5,height=4", true),
                VariantCase::new("width=4,height=5", true),
                VariantCase::new("width=5,height=5,connect=3", true)
                    .summary(&["three of their own"], &["four"]),
                VariantCase::new("width=6,height=4,connect=3", true),
                VariantCase::new("width=4,height=4,play=misere", true)
                    .summary(&["loses"], &["wins"]),
                VariantCase::new("play=misere", false),
                VariantCase::new("rules=popout,width=4,height=4", true)
                    .summary(&["bottom row"], &["a full board is a draw"]),
                VariantCase::new("rules=popout", false),
            ],
            counts: vec![KnownCount {
                variant: "width=4,height=4",
                positions: 161_029,
                value: Some(Value::Draw),
                remoteness: None,
                source: "John Tromp, John's Connect Four Playground",
            }],
            openspiel: vec![
                OpenSpielCase {
                    variant: "",
                    game: "connect_four".into(),
                    actions: Vec::new(),
                    every_state: false,
                    lines: vec![
                        vec![
                            1, 3, 3, 2, 6, 1, 5, 5, 3, 4, 2, 2, 6, 4, 0, 6, 6, 1, 1, 2, 4, 4, 5, 6,
                            1, 0, 3, 5, 5, 6, 4, 0, 5, 2, 4, 1, 0, 2,
                        ],
                        vec![
                            6, 3, 2, 6, 2, 5, 1, 6, 2, 3, 1, 1, 3, 0, 5, 3, 4, 1, 0, 2, 4, 0, 1, 2,
                            3, 2, 3, 1, 0, 0, 6, 5, 4, 5, 5, 0, 5, 4,
                        ],
                        vec![
                            0, 6, 3, 0, 5, 5, 1, 1, 6, 2, 3, 0, 5, 6, 1, 2, 5, 1, 5, 5, 4, 3, 0, 4,
                            3, 4, 2, 3, 1, 3, 1, 6, 6, 0, 2, 4, 4, 6, 4, 0, 2, 2,
                        ],
                    ],
                    // Nine empty cells and fewer: both sides search to the end.
                    values_from_ply: Some(33),
                    same_observation: true,
                },
                OpenSpielCase {
                    variant: "width=4,height=4",
                    game: "connect_four(columns=4,rows=4)".into(),
                    actions: Vec::new(),
                    every_state: false,
                    lines: vec![
                        vec![2, 2, 0, 3, 1, 0, 1, 0, 2, 3, 1, 3, 0, 3],
                        vec![1, 0, 1, 3, 2, 1, 3, 1, 0, 0, 3, 3, 2],
                        vec![1, 1, 1, 3, 2, 0, 2, 3, 1, 0, 2, 0, 2],
                    ],
                    values_from_ply: Some(0),
                    same_observation: true,
                },
            ],
            ..TestCases::default()
        }
    }

    fn summary(&self) -> String {
        let g = self.geometry();
        let line = match g.connect() {
            3 => "three",
            _ => "four",
        };
        let outcome = if self.is_misere() {
            format!("whoever lines up {line} of their own across, up or diagonally loses")
        } else {
            format!("the first to line up {line} of their own across, up or diagonally wins")
        };
        let popout = if self.is_popout() {
            "; instead of dropping, you may take one of your own discs out of the bottom row, and a game can go on past a full board"
        } else {
            "; a full board is a draw"
        };
        format!(
            "Drop discs into {} columns of {} rows: {outcome}{popout}.",
            g.width(),
            g.height()
        )
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "width",
                label: "columns",
                default: "7",
                help: "columns, 4 to 7",
                choices: &WIDTHS,
            },
            VariantOption {
                name: "height",
                label: "rows",
                default: "6",
                help: "rows, 4 to 6",
                choices: &HEIGHTS,
            },
            VariantOption {
                name: "connect",
                label: "discs in a row",
                default: "4",
                help: "how many in a row make a line: 4, or 3",
                choices: &[
                    VariantChoice {
                        value: "4",
                        words: "four in a row",
                    },
                    VariantChoice {
                        value: "3",
                        words: "three in a row",
                    },
                ],
            },
            VariantOption {
                name: "play",
                label: "play",
                default: "normal",
                help: "normal (a line wins), or misere: whoever makes a line loses",
                choices: &[
                    VariantChoice {
                        value: "normal",
                        words: "normal (a line wins)",
                    },
                    VariantChoice {
                        value: "misere",
                        words: "misère (a line loses)",
                    },
                ],
            },
            VariantOption {
                name: "rules",
                label: "rules",
                default: "classic",
                help: "classic, or popout: instead of dropping a disc you may take one of your own out of the bottom row",
                choices: &[
                    VariantChoice {
                        value: "classic",
                        words: "classic (discs only dropped)",
                    },
                    VariantChoice {
                        value: "popout",
                        words: "Pop Out (take your disc out from below)",
                    },
                ],
            },
        ]
    }

    fn presets() -> Vec<Preset> {
        PRESETS.to_vec()
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let width = variant.int("width", 7, i64::from(MIN_WIDTH), i64::from(MAX_WIDTH))? as u8;
        let height = variant.int("height", 6, i64::from(MIN_HEIGHT), i64::from(MAX_HEIGHT))? as u8;
        let connect = variant.int("connect", 4, 3, 4)? as u8;
        let misere = variant.choice("play", "normal", &["normal", "misere"])? == "misere";
        let popout = variant.choice("rules", "classic", &["classic", "popout"])? == "popout";
        let geometry =
            Geometry::new(width, height, connect).ok_or_else(|| VariantError::BadValue {
                name: "width".into(),
                value: width.to_string(),
                reason: "not a board this game offers".into(),
            })?;
        Ok(ConnectFour::new(geometry, misere, popout))
    }

    fn variant(&self) -> Variant {
        let g = self.geometry();
        let mut v = Variant::default();
        if g.width() != 7 {
            v.set("width", g.width().to_string());
        }
        if g.height() != 6 {
            v.set("height", g.height().to_string());
        }
        if g.connect() != 4 {
            v.set("connect", g.connect().to_string());
        }
        if self.is_misere() {
            v.set("play", "misere");
        }
        if self.is_popout() {
            v.set("rules", "popout");
        }
        v
    }

    fn presentation(&self) -> GamePresentation {
        GamePresentation {
            // The seats are named for their discs' colours.
            seat_colours: vec![SeatColour::Red, SeatColour::Yellow],
            marks: vec![MarkWords {
                mark: Mark::Win,
                words: if self.geometry().connect() == 3 {
                    "the three in a row"
                } else {
                    "the four in a row"
                },
            }],
            ..GamePresentation::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The width and height menus offer exactly the sizes the board takes,
    /// in order, each one a board the game makes, and their help says so.
    #[test]
    fn size_menus_are_the_board_ranges() {
        let options = ConnectFour::options();
        for (name, sizes, cells) in [
            ("width", MIN_WIDTH..=MAX_WIDTH, "columns"),
            ("height", MIN_HEIGHT..=MAX_HEIGHT, "rows"),
        ] {
            let option = options.iter().find(|o| o.name == name).unwrap();
            let expected: Vec<String> = sizes.clone().map(|n| n.to_string()).collect();
            let values: Vec<&str> = option.choice_values().collect();
            assert_eq!(values, expected, "{name}");
            let words: Vec<&str> = option.choices.iter().map(|c| c.words).collect();
            assert_eq!(words, expected, "{name}");
            let (low, high) = (sizes.start(), sizes.end());
            assert_eq!(option.help, format!("{cells}, {low} to {high}"));
            for n in sizes {
                let game = ConnectFour::from_variant(
                    &Variant::parse(&format!("{name}={n},connect=3")).unwrap(),
                )
                .unwrap();
                let g = game.geometry();
                assert_eq!(
                    if name == "width" {
                        g.width()
                    } else {
                        g.height()
                    },
                    n
                );
            }
        }
    }
}
