//! Gardner's matchbox machine learns Hexapawn (Stenger's "Associative Arrays").

use tabula_ai::matchbox::{Matchbox, MatchboxOptions};
use tabula_ai::train::{train, Opponent, TrainOptions};
use tabula_core::{Game, GameExt, Outcome, Strategy, Turn};
use tabula_hexapawn::{Hexapawn, BLACK, WHITE};

fn options(opponent: Opponent, seed: u64, symmetry: bool) -> TrainOptions {
    let machine = MatchboxOptions::parse(if symmetry {
        "symmetry=on"
    } else {
        "symmetry=off"
    })
    .unwrap();
    TrainOptions {
        games: 100,
        seed,
        opponent,
        seat: BLACK,
        machine,
        ..TrainOptions::default()
    }
}

/// Whether White has any line of play that beats the machine's remaining beads,
/// looking only at the boxes as `box_for` shows them.
fn white_can_win(
    g: &Hexapawn,
    machine: &mut Matchbox<Hexapawn>,
    s: tabula_hexapawn::Pawns,
) -> bool {
    match g.turn(&s) {
        Turn::Over(o) => o == Outcome::Win(WHITE),
        Turn::Move(WHITE) => g.moves(&s).into_iter().any(|mv| {
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            white_can_win(g, machine, t)
        }),
        _ => {
            let beads: Vec<_> = match machine.box_for(&s) {
                Some(b) => b
                    .into_iter()
                    .filter(|&(_, n)| n > 0)
                    .map(|(mv, _)| mv)
                    .collect(),
                None => g.moves(&s),
            };
            beads.is_empty()
                || beads.into_iter().any(|mv| {
                    let mut t = s;
                    g.play_unchecked(&mut t, mv);
                    white_can_win(g, machine, t)
                })
        }
    }
}

#[test]
fn black_machine_becomes_unbeatable_against_exploit_within_100_games() {
    let g = Hexapawn::default();
    for symmetry in [true, false] {
        for seed in 1..=20 {
            let report = train(&g, &options(Opponent::Exploit, seed, symmetry)).unwrap();
            let after = report
                .unbeatable_after
                .unwrap_or_else(|| panic!("seed {seed} symmetry {symmetry}: never unbeatable"));
            assert!(after <= 100);
            assert!(report.losses >= 1, "a fresh machine can be beaten");
            assert_eq!(
                report.last_loss,
                Some(report.last_loss.unwrap().min(after)),
                "no loss after unbeatable"
            );
            assert_eq!(report.wins + report.losses, 100, "Hexapawn has no draws");
            // Check the claim without the trainer's search: reload the boxes and try
            // every line White has.
            let mut machine = Matchbox::new(&g, MatchboxOptions::gardner());
            machine.load_learned(&report.learned).unwrap();
            assert!(
                !white_can_win(&g, &mut machine, g.initial_state()),
                "seed {seed}"
            );
            assert!(report.matchboxes <= report.learner_positions.unwrap());
        }
    }
}

#[test]
fn a_trained_machine_never_loses_to_the_perfect_player() {
    let g = Hexapawn::default();
    let report = train(&g, &options(Opponent::Exploit, 7, true)).unwrap();
    let trained = report.learned.clone();
    let mut later = options(Opponent::Perfect, 8, true);
    later.learned = Some(trained);
    let again = train(&g, &later).unwrap();
    assert_eq!(again.losses, 0);
    assert_eq!(again.unbeatable_after, Some(0));
}

#[test]
fn the_machine_improves_against_random_and_perfect_play() {
    let g = Hexapawn::default();
    for opponent in [Opponent::Random, Opponent::Perfect] {
        let mut o = options(opponent, 3, true);
        o.games = 300;
        let r = train(&g, &o).unwrap();
        let first = &r.curve[0];
        let last = r.curve.last().unwrap();
        assert!(last.losses <= first.losses, "{opponent:?}: {:?}", r.curve);
        assert_eq!(
            r.curve
                .iter()
                .map(|b| b.wins + b.losses + b.draws)
                .sum::<u64>(),
            300
        );
    }
}

#[test]
fn white_machine_cannot_become_unbeatable() {
    // White loses with perfect play, so some line always beats a White machine: it
    // ends up resigning at its first move, all beads gone.
    let g = Hexapawn::default();
    let mut o = options(Opponent::Exploit, 1, true);
    o.seat = WHITE;
    o.games = 200;
    let r = train(&g, &o).unwrap();
    assert_eq!(r.unbeatable_after, None);
    assert_eq!(r.last_loss, Some(200));
}
