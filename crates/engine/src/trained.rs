//! A training run's result as the faces show it ([`tabula_core::Training`]),
//! with the machine it trained (opaque, for saving and loading).

use tabula_ai::train::TrainReport;
use tabula_core::{
    CurvePoint, FactValue, Section, SolveFigures, Training, TrainingCounts, TrainingCurve,
};

/// What `DynGame::train` returns: the result for every face, and the trained
/// machine's matchboxes to save or store (no face shows them).
#[derive(Clone, Debug)]
pub struct Trained {
    /// The result.
    pub training: Training,
    /// The machine's matchboxes after training (loadable as a `learned` option).
    pub learned: serde_json::Value,
}

impl Trained {
    /// The faces' result of a trainer's report; `seconds` is how long it took.
    pub fn from_report(r: TrainReport, seconds: f64) -> Self {
        let share = |n: u64| {
            FactValue::Text(format!(
                "{n} ({:.1}%)",
                n as f64 * 100.0 / r.games.max(1) as f64
            ))
        };
        let summary = format!(
            "The learning machine, playing {}, trained for {} game{} against {}: it won {}, \
             lost {} and drew {}.",
            r.learner,
            r.games,
            if r.games == 1 { "" } else { "s" },
            r.opponent_words,
            r.wins,
            r.losses,
            r.draws
        );
        let mut results = Section::new("The machine's games")
            .with("Games", FactValue::Integer(r.games as i64))
            .with("Won", share(r.wins))
            .with("Lost", share(r.losses))
            .with("Drawn", share(r.draws))
            .with("Resigned at an empty box", share(r.resignations));
        if let Some(g) = r.last_loss {
            results.push("Its last loss", FactValue::Text(format!("game {g}")));
        }
        if let Some(g) = r.first_run_of_100_non_losses_ended_at {
            results.push(
                "First 100 games in a row without a loss",
                FactValue::Text(format!("by game {g}")),
            );
        }
        match (r.unbeatable_after, r.unbeatable_checked) {
            (Some(0), _) => results.push(
                "Unbeatable",
                FactValue::Text("from the start: no line of play beats its beads".into()),
            ),
            (Some(g), _) => results.push(
                "Unbeatable",
                FactValue::Text(format!(
                    "after game {g}: no line of play beats the beads it has left"
                )),
            ),
            (None, true) => results.push(
                "Unbeatable",
                FactValue::Text("not yet: some line of play still beats it".into()),
            ),
            (None, false) => {}
        }
        let mut machine = Section::new("The machine")
            .note(format!("{}.", r.machine_rules))
            .with("Matchboxes", FactValue::Integer(r.matchboxes as i64))
            .with("Beads left in them", FactValue::Integer(r.beads as i64));
        if let Some(n) = r.learner_positions {
            machine.push("Positions it can meet", FactValue::Integer(n as i64));
        }
        if let Some(n) = r.learner_positions_up_to_symmetry {
            machine.push("The same up to symmetry", FactValue::Integer(n as i64));
        }
        machine.push(
            "Random seed (the same seed replays the same training)",
            FactValue::Integer(r.seed as i64),
        );
        Trained {
            training: Training {
                summary,
                counts: TrainingCounts {
                    games: r.games,
                    wins: r.wins,
                    losses: r.losses,
                    draws: r.draws,
                    resignations: r.resignations,
                    last_loss: r.last_loss,
                    unbeatable_after: r.unbeatable_after,
                    matchboxes: r.matchboxes as u64,
                    beads: r.beads,
                },
                curve: TrainingCurve {
                    block: r.block,
                    points: r
                        .curve
                        .iter()
                        .map(|b| CurvePoint {
                            from: b.from,
                            to: b.to,
                            wins: b.wins,
                            losses: b.losses,
                            draws: b.draws,
                        })
                        .collect(),
                },
                sections: vec![results, machine],
                figures: SolveFigures {
                    positions: None,
                    seconds,
                    peak_bytes: None,
                    sweeps: None,
                    first_mover_wins: None,
                },
            },
            learned: r.learned,
        }
    }
}
