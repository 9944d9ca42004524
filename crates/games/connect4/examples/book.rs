//! Makes the opening book of the classic board (or another, with
//! `--width/--height/--connect`): every position with at most `--plies`
//! discs, solved exactly, written to `--out`. Each result is kept in
//! `--checkpoint` (default: the output's name plus `.progress`) as it comes,
//! so a stopped or killed build goes on from there when run again; the file
//! is the same, byte for byte, however often it was stopped.
//!
//! `cargo run --release -p tabula-connect4 --example book -- --plies 4 --out 7x6.book`

use std::path::PathBuf;
use std::time::Instant;
use tabula_connect4::solver::building::build_book;
use tabula_connect4::solver::Limits;
use tabula_connect4::Geometry;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |name: &str, default: u8| {
        value(name).map_or(default, |v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("{name} must be a whole number");
                std::process::exit(2)
            })
        })
    };
    let plies = u32::from(number("--plies", 2));
    let Some(geometry) = Geometry::new(
        number("--width", 7),
        number("--height", 6),
        number("--connect", 4),
    ) else {
        eprintln!("not a board the game offers (4-7 columns, 4-6 rows, 3 or 4 in a row)");
        std::process::exit(2)
    };
    let Some(out) = value("--out").map(PathBuf::from) else {
        eprintln!("say where the book goes: --out FILE");
        std::process::exit(2)
    };
    let checkpoint = value("--checkpoint")
        .map(PathBuf::from)
        .unwrap_or_else(|| out.with_extension("progress"));
    let started = Instant::now();
    let book = build_book(geometry, plies, &checkpoint, &Limits::default(), &|p| {
        eprintln!(
            "{}/{} positions solved, {:.0} s",
            p.solved,
            p.total,
            started.elapsed().as_secs_f64()
        );
    });
    match book {
        Ok(book) => {
            let bytes = book.to_bytes();
            if let Err(e) = std::fs::write(&out, &bytes) {
                eprintln!("could not write {}: {e}", out.display());
                std::process::exit(1);
            }
            println!(
                "{{\"plies\":{plies},\"positions\":{},\"bytes\":{},\"seconds\":{:.1}}}",
                book.len(),
                bytes.len(),
                started.elapsed().as_secs_f64()
            );
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
