//! A MENACE-style machine learns tic-tac-toe against the perfect player.

use tabula_ai::matchbox::{Matchbox, MatchboxOptions, Mode};
use tabula_ai::train::{train, Opponent, TrainOptions};
use tabula_core::{Game, Strategy};
use tabula_tictactoe::TicTacToe;

#[test]
fn menace_as_x_reaches_100_games_without_a_loss_against_perfect_play() {
    for seed in 1..=3 {
        let machine = MatchboxOptions::menace();
        assert_eq!(machine.mode, Mode::Menace);
        let o = TrainOptions {
            games: 5000,
            seed,
            opponent: Opponent::Perfect,
            seat: 0,
            machine,
            ..TrainOptions::default()
        };
        let r = train(&TicTacToe::default(), &o).unwrap();
        let ended = r
            .first_run_of_100_non_losses_ended_at
            .unwrap_or_else(|| panic!("seed {seed}: no run of 100"));
        assert!(ended <= 5000);
        assert_eq!(r.wins, 0, "nobody beats the perfect player");
        assert!(r.losses >= 1);
        // Later blocks lose less than the first.
        assert!(
            r.curve.last().unwrap().losses < r.curve[0].losses,
            "{:?}",
            r.curve
        );
        // The boxes are saved and restored whole.
        let mut copy = Matchbox::new(&TicTacToe::default(), MatchboxOptions::gardner());
        copy.load_learned(&r.learned).unwrap();
        assert_eq!(
            (copy.matchbox_count(), copy.bead_count()),
            (r.matchboxes, r.beads)
        );
        assert!(r.matchboxes <= r.learner_positions_up_to_symmetry.unwrap());
    }
}

#[test]
fn x_decision_positions_match_michies_304_boxes() {
    // Reachable non-final positions with X to move, counted independently of the
    // trainer by walking every board. Michie's MENACE had 304 boxes for X's first four
    // moves (1 + 12 + 108 + 183 by move); X's fifth move is forced.
    let g = TicTacToe::default();
    let (mut all, mut classes) = (0, std::collections::HashSet::new());
    let mut by_move = [
        std::collections::HashSet::new(),
        Default::default(),
        Default::default(),
        Default::default(),
        Default::default(),
    ];
    for code in 0..3u32.pow(9) {
        let (mut x, mut o, mut rest) = (0u16, 0u16, code);
        for i in 0..9 {
            match rest % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            rest /= 3;
        }
        let Ok(b) = TicTacToe::board(x, o) else {
            continue;
        };
        if g.turn(&b) == tabula_core::Turn::Move(0) {
            all += 1;
            let class = (0..8)
                .map(|k| {
                    (
                        tabula_tictactoe::map_mask(x, k),
                        tabula_tictactoe::map_mask(o, k),
                    )
                })
                .min();
            classes.insert(class);
            by_move[b.plies() as usize / 2].insert(class);
        }
    }
    let sizes: Vec<usize> = by_move.iter().map(|s| s.len()).collect();
    assert_eq!(sizes[..4], [1, 12, 108, 183]);
    eprintln!(
        "X to move: {all} positions, {} up to symmetry, by move {sizes:?}",
        classes.len()
    );
    let r = train(
        &g,
        &TrainOptions {
            games: 1,
            opponent: Opponent::Random,
            seat: 0,
            machine: MatchboxOptions::menace(),
            ..TrainOptions::default()
        },
    )
    .unwrap();
    assert_eq!(r.learner_positions, Some(all));
    assert_eq!(r.learner_positions_up_to_symmetry, Some(classes.len()));
}
