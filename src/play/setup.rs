//! Setting a game up from the command line: its players, the match (new, or
//! resumed from a file or the database), and the exact solution a player needs.

use super::PlayArgs;
use crate::progress;
use anyhow::{bail, Context, Result};
use std::path::Path;
use tabula_engine::{build, Match, MatchConfig, MatchRecord};

/// A match ready to play, and where it is kept.
pub struct Started {
    /// The match, played on to the first human move.
    pub game: Box<dyn Match>,
    /// The database the match is saved in after every move (`--save-as`, `--resume-saved`).
    pub store: Option<tabula_store::Store>,
    /// Its name there.
    pub save_name: Option<String>,
}

/// Checks the arguments and starts the match they ask for.
pub fn start(a: &PlayArgs) -> Result<Started> {
    if a.games.is_some_and(|n| n == 0 || n > 100_000) {
        bail!("--games must be between 1 and 100000");
    }
    tabula_engine::check_undo_depth(a.undo_depth)
        .map_err(|e| anyhow::anyhow!("--undo-depth: {e}"))?;
    let store = open_store(a)?;
    if a.resume.is_some() && a.resume_saved.is_some() {
        bail!("give either --resume FILE or --resume-saved NAME, not both");
    }
    if a.load.is_some() && (a.resume.is_some() || a.resume_saved.is_some()) {
        bail!("--load starts a new game: a resumed game keeps its own learner");
    }
    let saved = match (&store, &a.resume_saved) {
        (Some(st), Some(name)) => Some(
            st.load_game::<MatchRecord>(name)
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .ok_or_else(|| {
                    anyhow::anyhow!("no saved game called '{name}' (see the web UI's saved games)")
                })?,
        ),
        _ => None,
    };
    let save_name = a
        .save_as
        .clone()
        .or_else(|| saved.as_ref().map(|(s, _)| s.name.clone()));
    let m: Box<dyn Match> = match (&a.resume, saved) {
        (_, Some((_, record))) => {
            record.check().context("the saved game cannot be resumed")?;
            same_game(&a.game, &record.game, "the saved game")?;
            resume(&record)?
        }
        (Some(path), None) => {
            let bytes = crate::files::read_bytes(path, crate::files::MAX_SAVED_BYTES)?;
            let record: MatchRecord = serde_json::from_slice(&bytes)
                .with_context(|| format!("{} is not a saved Tabula game", path.display()))?;
            record
                .check()
                .with_context(|| format!("{} is not a saved Tabula game", path.display()))?;
            same_game(&a.game, &record.game, &path.display().to_string())?;
            resume(&record)?
        }
        (None, None) => {
            let handle = build(&a.game, &a.variant)?;
            let info = handle.info();
            let players = seat_players(a, &info)?;
            let config = |players: Vec<String>| MatchConfig {
                players,
                seed: a.seed.unwrap_or(0),
                position: a.position.clone(),
                undo_depth: a.undo_depth,
            };
            // Arguments first: every other player and the start are checked (a
            // bad `--ai foo` refused at once) before a perfect player waits for
            // the solution, and only such a player makes the game be solved.
            let needs: Vec<bool> = players.iter().map(|p| needs_solution(p, &info)).collect();
            if needs.contains(&true) {
                let others = players
                    .iter()
                    .zip(&needs)
                    .map(|(p, &n)| if n { "human".to_string() } else { p.clone() })
                    .collect();
                handle.new_match(config(others))?;
                prepare(handle.as_ref(), &info.title);
            }
            // A game's own player that reads a table of its own (Pig's
            // `optimal`) has it built here, with a bar, not at its first move.
            for p in players.iter() {
                prepare_player(handle.as_ref(), p, &info.title);
            }
            let seed = a.seed.unwrap_or_else(draw_seed);
            let m = handle.new_match(MatchConfig {
                seed,
                ..config(players)
            })?;
            match &a.load {
                Some(path) => with_learned(m.as_ref(), path)?,
                None => m,
            }
        }
    };
    Ok(Started {
        game: m,
        store,
        save_name,
    })
}

/// Builds the exact solution before play when a computer or a hint needs it,
/// saying what is happening when it takes a while (Kono solves its 64 million
/// positions once, then loads them from the cache).
pub fn prepare(handle: &dyn tabula_engine::DynGame, title: &str) {
    let pb = progress::bar(1000, &format!("{title}: solving"), false);
    let began = std::time::Instant::now();
    let said = std::cell::Cell::new(false);
    handle.prepare(&|f| {
        if f < 1.0 && !said.get() && began.elapsed().as_millis() > 300 {
            said.set(true);
            progress::notice(
                &pb,
                &format!(
                    "Solving {title} once for perfect play and hints (the bar shows \
                     how far it is; longer on a busy machine); the solution is then \
                     kept for next time."
                ),
            );
        }
        pb.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64);
    });
    pb.finish_and_clear();
}

/// Builds the table a computer player of the game's own reads before its first
/// move, with a bar and a line saying what it is when it takes a while; a table
/// that cannot be had is left to the player, which says so when it moves.
fn prepare_player(handle: &dyn tabula_engine::DynGame, player: &str, title: &str) {
    let pb = progress::bar(1000, &format!("{title}: preparing"), false);
    let began = std::time::Instant::now();
    let said = std::cell::Cell::new(false);
    handle.prepare_player(player, &|f| {
        if f < 1.0 && !said.get() && began.elapsed().as_millis() > 300 {
            said.set(true);
            progress::notice(
                &pb,
                &format!(
                    "Working out {title}'s table of best play once, for the computer's \
                     moves and hints (the bar shows how far it is; longer on a busy \
                     machine); it is then kept for next time."
                ),
            );
        }
        pb.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64);
    });
    pb.finish_and_clear();
}

/// Whether a player needs the game's exact solution before it can move: the
/// perfect player, and a level that mixes random moves with it. Other players
/// (random, the matchbox, a game's own) start at once, so nothing is solved
/// for them.
fn needs_solution(player: &str, info: &tabula_engine::GameInfo) -> bool {
    let Ok(spec) = tabula_engine::parse_player_spec(player) else {
        return false;
    };
    if spec.name == "perfect" {
        return true;
    }
    match spec.level_split(info.seats.len() == 2) {
        Some(Ok((_, Some(base)))) => base.name == "perfect",
        Some(Ok((_, None))) => info.level_base.as_deref() == Some("perfect"),
        _ => false,
    }
}

/// A computer player in words, not as its option string: `level:66` is
/// "medium: level 66 of 100", `alphabeta:depth=8` "alphabeta, depth 8".
pub fn player_words(player: &str, info: Option<&tabula_engine::GameInfo>) -> String {
    let Ok(spec) = tabula_engine::parse_player_spec(player) else {
        return player.to_string();
    };
    let two = info.is_some_and(|i| i.seats.len() == 2);
    if let Some(Ok((level, base))) = spec.level_split(two) {
        // A preset's name (low, medium, high) only for the game's own mix.
        let preset = info
            .filter(|_| base.is_none())
            .and_then(|i| {
                i.level_presets
                    .iter()
                    .find(|p| p.level == level && p.name != "perfect")
            })
            .map(|p| format!("{}: ", p.name))
            .unwrap_or_default();
        let over = base
            .map(|b| format!(", mixed with {}", b.name))
            .unwrap_or_default();
        return format!("{preset}level {level} of 100{over}");
    }
    // The few words the game declares for the player ("Gardner's matchbox
    // machine"), not the name typed in `--players`.
    let name = info
        .and_then(|i| i.players.iter().find(|p| p.name == spec.name))
        .map(|p| p.words.clone())
        .filter(|words| !words.is_empty())
        .unwrap_or(spec.name);
    if spec.options.is_empty() {
        return name;
    }
    let options: Vec<String> = spec
        .options
        .split(',')
        .map(|o| o.trim().replace('=', " "))
        .filter(|o| !o.is_empty())
        .collect();
    format!("{name}; {}", options.join(", "))
}

/// A seed for a game whose seed was not given: short enough to read and type
/// again (`--seed 4821937`).
fn draw_seed() -> u64 {
    use rand::Rng;
    rand::thread_rng().gen_range(1..10_000_000)
}

fn seat_players(a: &PlayArgs, info: &tabula_engine::GameInfo) -> Result<Vec<String>> {
    let seats = info.seats.len();
    if let Some(p) = &a.players {
        let v: Vec<String> = p.split(',').map(|s| s.trim().to_string()).collect();
        if v.len() != seats {
            bail!("--players needs {seats} player(s), got {}", v.len());
        }
        return Ok(v);
    }
    let ai = match (&a.ai, a.level) {
        (_, Some(l)) if l > 100 => bail!("--level must be a whole number from 0 to 100, got {l}"),
        (Some(ai), Some(l)) if ai.contains(':') => format!("{ai},level={l}"),
        (Some(ai), Some(l)) => format!("{ai}:level={l}"),
        (None, Some(l)) => format!("level:{l}"),
        (Some(ai), None) => ai.clone(),
        // The one rule, decided by the engine for every face (the browser reads the same).
        (None, None) => info.default_opponent.clone(),
    };
    if seats == 1 {
        return Ok(vec![match a.human.as_str() {
            "none" => ai,
            _ => "human".into(),
        }]);
    }
    let (h0, h1) = match a.human.as_str() {
        "first" => (true, false),
        "second" => (false, true),
        "both" => (true, true),
        "none" => (false, false),
        other => bail!("--human must be first, second, both or none (got '{other}')"),
    };
    Ok(vec![
        if h0 { "human".into() } else { ai.clone() },
        if h1 { "human".into() } else { ai },
    ])
}

/// Writes the record so that `--resume` reads it back (see [`crate::files::save`]).
pub fn save_record(path: &Path, record: &MatchRecord) -> Result<()> {
    let text = serde_json::to_string_pretty(record)?;
    Ok(crate::files::save(
        path,
        &text,
        crate::files::MAX_SAVED_BYTES,
    )?)
}

fn open_store(a: &PlayArgs) -> Result<Option<tabula_store::Store>> {
    if a.save_as.is_none() && a.resume_saved.is_none() {
        return Ok(None);
    }
    let store = match &a.db {
        Some(p) => {
            crate::files::check_database(p)?;
            tabula_store::Store::open(p)
        }
        None => tabula_store::Store::open_default(),
    }
    .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    // A write-ahead log damaged while no program used the database was kept
    // aside as it opened: said here as the server says it.
    if let Some((log, _)) = store.damaged_log() {
        eprintln!("tabula: warning: {}", log.message());
    }
    Ok(Some(store))
}

/// A saved match taken up again: its game built (and solved first when a
/// player of it needs the solution) and played on to the human's turn.
fn resume(record: &MatchRecord) -> Result<Box<dyn Match>> {
    let handle = build(&record.game, &record.variant)?;
    let info = handle.info();
    if record
        .config
        .players
        .iter()
        .any(|p| needs_solution(p, &info))
    {
        prepare(handle.as_ref(), &info.title);
    }
    let mut m = handle.resume(record)?;
    m.advance()?;
    Ok(m)
}

/// `--load FILE`: the matchboxes `tabula train --save` wrote, given to every
/// computer learner of a new match before its first move (the match is taken
/// up again from its record with them, as a saved game's learner is).
fn with_learned(m: &dyn Match, path: &Path) -> Result<Box<dyn Match>> {
    let bytes = crate::files::read_bytes(path, crate::files::MAX_SAVED_BYTES)?;
    let boxes: serde_json::Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not saved matchboxes", path.display()))?;
    let mut record = m.record();
    let seats = record.config.players.len();
    let learners: Vec<usize> = (0..seats).filter(|&s| m.learned(s).is_some()).collect();
    if learners.is_empty() {
        bail!(
            "--load: no computer player here learns; play against one that does \
             (--ai matchbox or --ai menace)"
        );
    }
    record.learned.resize(seats, None);
    for s in learners {
        record.learned[s] = Some(boxes.clone());
    }
    resume(&record).with_context(|| format!("{} cannot be loaded", path.display()))
}

/// Refuses a saved game of another game than the one named on the command line.
fn same_game(asked: &str, saved: &str, what: &str) -> Result<()> {
    let asked_entry = tabula_engine::find(asked).ok().map(|e| e.name);
    if asked_entry != Some(saved) && asked != saved {
        bail!("{what} is a game of {saved}, not {asked}: run `tabula play {saved} --resume …`");
    }
    Ok(())
}
