//! The Auto120 posts, part 2: the board as the author coloured it in his spreadsheet, and
//! the "position x roll" landing table beneath it.
//!
//! Every square 1..=120 falls in one class: the start (1), home (120, dark blue),
//! the five penultimate positions (light green: one roll from 120), the nine factor
//! positions (orange: on the path to 120), off-path positions (a marker can stand
//! there but can never again land exactly on 120), primes above 6 (red: never landed
//! on) and the other positions no product of rolls reaches (14, 21, ...). All of it
//! is derived from the rules in [`crate::board`], not typed in.

use crate::board::{
    destination, is_factor, is_on_path, is_penultimate, is_reachable, DIE_FACES, MIN_MOVING_ROLL,
    TARGET,
};
use serde::Serialize;
use serde_json::{json, Value};

/// The class of a square, as the posts' board colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SquareClass {
    /// Position 1, where every marker starts and returns.
    Start,
    /// Position 120: a marker landing exactly here retires.
    Home,
    /// One roll of 2-6 from 120: 20, 24, 30, 40, 60.
    Penultimate,
    /// Any other position from which 120 can still be reached exactly.
    Factor,
    /// Reachable, but 120 can never be reached exactly from here (9, 16, 25, ...).
    OffPath,
    /// A prime above 6: no product of rolls lands on it.
    Prime,
    /// Another position no product of rolls lands on (14, 21, 22, ...).
    Unreachable,
}

impl SquareClass {
    /// Every class, in the order of the legend.
    pub const ALL: [SquareClass; 7] = [
        SquareClass::Start,
        SquareClass::Home,
        SquareClass::Penultimate,
        SquareClass::Factor,
        SquareClass::OffPath,
        SquareClass::Prime,
        SquareClass::Unreachable,
    ];

    /// The class name used in JSON and as the view's style class (`off_path`).
    pub fn name(self) -> &'static str {
        match self {
            SquareClass::Start => "start",
            SquareClass::Home => "home",
            SquareClass::Penultimate => "penultimate",
            SquareClass::Factor => "factor",
            SquareClass::OffPath => "off_path",
            SquareClass::Prime => "prime",
            SquareClass::Unreachable => "unreachable",
        }
    }

    /// What the class means, in words for a player.
    pub fn meaning(self) -> &'static str {
        match self {
            SquareClass::Start => "where markers start and return when bumped or blown out",
            SquareClass::Home => "land here exactly to retire a marker",
            SquareClass::Penultimate => "one roll from 120",
            SquareClass::Factor => "on the path to 120",
            SquareClass::OffPath => "a marker here can never land exactly on 120",
            SquareClass::Prime => "a prime above 6: never landed on",
            SquareClass::Unreachable => "no product of rolls lands here",
        }
    }
}

fn is_prime(p: u32) -> bool {
    p >= 2 && (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0)
}

/// The class of position `p` (1..=120); `None` off the track.
pub fn classify(p: u32) -> Option<SquareClass> {
    if !(1..=u32::from(TARGET)).contains(&p) {
        return None;
    }
    Some(if p == 1 {
        SquareClass::Start
    } else if p == u32::from(TARGET) {
        SquareClass::Home
    } else if is_penultimate(p) {
        SquareClass::Penultimate
    } else if is_factor(p) {
        SquareClass::Factor
    } else if is_reachable(p) {
        debug_assert!(!is_on_path(p));
        SquareClass::OffPath
    } else if is_prime(p) {
        SquareClass::Prime
    } else {
        SquareClass::Unreachable
    })
}

/// One row of the landing table: where a marker on `position` goes for each roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LandingRow {
    /// The marker's position.
    pub position: u8,
    /// Its class.
    pub class: SquareClass,
    /// Destination for rolls 2, 3, 4, 5, 6 (1 after a blow out above 120).
    pub lands: [u8; 5],
}

/// The posts' "position x roll" table: every position a marker can stand on
/// (below 120) against the moving rolls 2-6. A roll of 1 forfeits the turn.
pub fn landing_table() -> Vec<LandingRow> {
    (1..TARGET)
        .filter(|&p| is_reachable(u32::from(p)))
        .map(|p| {
            let mut lands = [0u8; 5];
            for (i, r) in (MIN_MOVING_ROLL..=DIE_FACES).enumerate() {
                lands[i] = destination(p, r);
            }
            LandingRow {
                position: p,
                class: classify(u32::from(p)).unwrap_or(SquareClass::Unreachable),
                lands,
            }
        })
        .collect()
}

/// Both, as JSON for `tabula analyze auto120` and the API: `{classes: [{class,
/// meaning, positions}], rolls: [2..6], landing: [{position, class, lands}]}`.
pub fn facts_json() -> Value {
    let classes: Vec<Value> = SquareClass::ALL
        .iter()
        .map(|&c| {
            let positions: Vec<u32> = (1..=u32::from(TARGET))
                .filter(|&p| classify(p) == Some(c))
                .collect();
            json!({"class": c.name(), "meaning": c.meaning(), "positions": positions})
        })
        .collect();
    json!({
        "classes": classes,
        "rolls": (MIN_MOVING_ROLL..=DIE_FACES).collect::<Vec<u8>>(),
        "landing": landing_table(),
    })
}

/// The board's classes and the landing table as sections every face shows.
pub fn sections() -> Vec<tabula_core::Section> {
    use tabula_core::{FactValue, Section, Table};
    let classes = SquareClass::ALL
        .iter()
        .map(|&c| {
            let positions: Vec<String> = (1..=u32::from(TARGET))
                .filter(|&p| classify(p) == Some(c))
                .map(|p| p.to_string())
                .collect();
            vec![
                c.name().replace('_', " "),
                c.meaning().to_string(),
                positions.join(" "),
            ]
        })
        .collect();
    let mut columns = vec!["from".to_string()];
    columns.extend((MIN_MOVING_ROLL..=DIE_FACES).map(|r| format!("x{r}")));
    columns.push("class".into());
    let rows = landing_table()
        .into_iter()
        .map(|row| {
            let mut cells = vec![row.position.to_string()];
            for (i, &d) in row.lands.iter().enumerate() {
                let r = MIN_MOVING_ROLL + i as u8;
                let blown = u32::from(row.position) * u32::from(r) > u32::from(TARGET);
                cells.push(if blown {
                    "1 (blown out)".to_string()
                } else {
                    d.to_string()
                });
            }
            cells.push(row.class.name().replace('_', " "));
            cells
        })
        .collect();
    vec![
        Section::new("The squares of the board").with(
            "Classes",
            FactValue::Table(Table {
                columns: ["class", "meaning", "squares"].map(String::from).to_vec(),
                rows: classes,
            }),
        ),
        Section::new("Where markers land")
            .note("For each square a marker can stand on, where each roll takes it; a roll of 1 forfeits the turn.")
            .with("Landing", FactValue::Table(Table { columns, rows })),
    ]
}

/// The landing table as text: one line per position, one column per roll, a blow
/// out written as `1!`.
pub fn landing_text() -> String {
    let mut out = String::from("  from |");
    for r in MIN_MOVING_ROLL..=DIE_FACES {
        out.push_str(&format!("  x{r}"));
    }
    out.push_str(" | class\n");
    for row in landing_table() {
        out.push_str(&format!("  {:>4} |", row.position));
        for (i, &d) in row.lands.iter().enumerate() {
            let r = MIN_MOVING_ROLL + i as u8;
            let blown = u32::from(row.position) * u32::from(r) > u32::from(TARGET);
            let cell = if blown {
                "1!".to_string()
            } else {
                d.to_string()
            };
            out.push_str(&format!(" {cell:>3}"));
        }
        out.push_str(&format!(" | {}\n", row.class.name().replace('_', " ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(c: SquareClass) -> Vec<u32> {
        (1..=120).filter(|&p| classify(p) == Some(c)).collect()
    }

    #[test]
    fn every_square_has_one_class_and_the_seeds_counts_hold() {
        let total: usize = SquareClass::ALL.iter().map(|&c| of(c).len()).sum();
        assert_eq!(total, 120);
        // Seed part 2: five penultimate (light green) and nine factor (orange) positions.
        assert_eq!(of(SquareClass::Penultimate), vec![20, 24, 30, 40, 60]);
        assert_eq!(of(SquareClass::Factor), vec![2, 3, 4, 5, 6, 8, 10, 12, 15]);
        assert_eq!(of(SquareClass::Home), vec![120]);
        assert_eq!(of(SquareClass::Start), vec![1]);
        // The primes above 6 (red) are never landed on; 2, 3 and 5 are factors.
        let primes: Vec<u32> = (7..=120).filter(|&p| is_prime(p)).collect();
        assert_eq!(of(SquareClass::Prime), primes);
        assert_eq!(primes.len(), 27);
        // 36 positions are reachable (the 5-smooth numbers up to 120), 15 of them
        // on the path (1, 120, 5 penultimate, 9 factors... and none else).
        let off = of(SquareClass::OffPath);
        assert_eq!(off.len(), 36 - 16);
        for p in &off {
            assert!(
                120 % p != 0 || *p == 120,
                "{p} divides 120 but is off path?"
            );
        }
        assert!(off.contains(&9) && off.contains(&64) && off.contains(&90));
        assert!(of(SquareClass::Unreachable).contains(&14));
    }

    #[test]
    fn the_landing_table_follows_the_rules() {
        let table = landing_table();
        assert_eq!(table.len(), 35, "36 reachable positions less 120 itself");
        for row in &table {
            for (i, &d) in row.lands.iter().enumerate() {
                let r = u32::from(MIN_MOVING_ROLL) + i as u32;
                let product = u32::from(row.position) * r;
                if product > 120 {
                    assert_eq!(d, 1, "{} x {r} blows out", row.position);
                } else {
                    assert_eq!(u32::from(d), product);
                    assert!(is_reachable(product));
                }
            }
        }
        let row = |p: u8| table.iter().find(|r| r.position == p).unwrap().clone();
        // The fastest journey of the posts: 4, 20, 120.
        assert_eq!(row(1).lands[2], 4);
        assert_eq!(row(4).lands[3], 20);
        assert_eq!(row(20).lands[4], 120);
        // From a penultimate position exactly one roll lands on 120.
        for p in [20u8, 24, 30, 40, 60] {
            assert_eq!(row(p).lands.iter().filter(|&&d| d == 120).count(), 1, "{p}");
        }
        // From an off-path position no roll ever leads back onto the path (except via 1).
        for r in table.iter().filter(|r| r.class == SquareClass::OffPath) {
            for &d in &r.lands {
                assert!(d == 1 || classify(u32::from(d)) == Some(SquareClass::OffPath));
            }
        }
        let text = landing_text();
        assert!(text.contains("x6"));
        assert!(text
            .lines()
            .any(|l| l.trim_start().starts_with("20 |") && l.contains("120")));
        let json = facts_json();
        assert_eq!(json["landing"].as_array().unwrap().len(), 35);
        assert_eq!(json["classes"].as_array().unwrap().len(), 7);
    }
}
