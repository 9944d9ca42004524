//! The JSON API (docs/API.md).

use crate::error::{ApiError, ApiJson};
use crate::sessions::SessionOut;
use crate::{jobs, settings, AppState};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json_};
use std::sync::Arc;
use tabula_engine::{build, find, registry, LogEntry, Match, MatchConfig};

type St = State<Arc<AppState>>;
type ApiResult<T> = Result<T, ApiError>;

/// Longest position text accepted when starting a session.
const MAX_POSITION: usize = 16 * 1024;
/// Longest variant text.
const MAX_VARIANT: usize = 1000;
pub fn api() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games", get(list_games))
        .route("/api/games/{name}", get(game_info))
        .route("/api/games/{name}/view", get(position_view))
        .route("/api/games/{name}/rules", get(game_rules))
        .route("/api/sessions", post(create_session))
        .route("/api/sessions/{id}", get(get_session))
        .route("/api/sessions/{id}/moves", post(play_move))
        .route("/api/sessions/{id}/undo", post(undo))
        .route("/api/sessions/{id}/redo", post(redo))
        .route("/api/sessions/{id}/new", post(new_game))
        .route("/api/sessions/{id}/resign", post(resign))
        .route("/api/sessions/{id}/step", post(step))
        .route("/api/sessions/{id}/hint", get(hint))
        .route("/api/sessions/{id}/line", get(line))
        .route("/api/sessions/{id}/history", get(history))
        .route("/api/sessions/{id}/review", get(review))
        .route("/api/sessions/{id}/from", post(play_from))
        .route("/api/sessions/{id}/players", put(set_player))
        .route("/api/sessions/{id}/learned", get(learned))
        .route("/api/sessions/{id}/save", post(save))
        .route("/api/saved", get(list_saved))
        .route("/api/saved/{saved_id}", delete(delete_saved))
        .route("/api/saved/{saved_id}/resume", post(resume_saved))
        .route("/api/settings/{game}", get(get_settings).put(put_settings))
        .route("/api/tallies", get(tallies))
        .route("/api/best/{game}", get(best))
        .route("/api/jobs", post(jobs::create))
        .route("/api/jobs/{job_id}", get(jobs::status).delete(jobs::cancel))
        .route("/api/jobs/{job_id}/events", get(jobs::events))
}

/// Runs engine or store work on a blocking thread.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) if e.is_panic() => Err(ApiError::internal(
            "the engine failed on this request (a bug: please report it)",
        )),
        Err(_) => Err(ApiError::internal("the request was cancelled")),
    }
}

/// The registry name of a game, or 404.
pub(crate) fn game_name(name: &str) -> ApiResult<&'static str> {
    Ok(find(name)?.name)
}

fn check_variant(variant: &str) -> ApiResult<()> {
    if variant.len() > MAX_VARIANT {
        return Err(ApiError::bad_request(format!(
            "the variant text is longer than {MAX_VARIANT} bytes"
        )));
    }
    Ok(())
}

async fn list_games() -> ApiResult<Response> {
    blocking(|| {
        let mut all = Vec::new();
        for e in registry() {
            all.push(build(e.name, "")?.info());
        }
        Ok(Json(all).into_response())
    })
    .await
}

#[derive(Deserialize)]
struct VariantQuery {
    #[serde(default)]
    variant: String,
}

async fn game_info(Path(name): Path<String>, Query(q): Query<VariantQuery>) -> ApiResult<Response> {
    check_variant(&q.variant)?;
    blocking(move || Ok(Json(build(&name, &q.variant)?.info()).into_response())).await
}

/// The game's rules for players, from its page in docs/games: `{game, title, markdown}`.
async fn game_rules(Path(name): Path<String>) -> ApiResult<Response> {
    blocking(move || {
        let handle = build(&name, "")?;
        let info = handle.info();
        Ok(Json(serde_json::json!({
            "game": info.name,
            "title": info.title,
            "markdown": handle.rules(),
        }))
        .into_response())
    })
    .await
}

#[derive(Deserialize)]
struct PositionQuery {
    #[serde(default)]
    variant: String,
    position: String,
}

/// `GET /api/games/{name}/view?variant=&position=`: the view model of a position
/// (a matchbox's lid drawn as a small board), nothing stored.
async fn position_view(
    Path(name): Path<String>,
    Query(q): Query<PositionQuery>,
) -> ApiResult<Response> {
    check_variant(&q.variant)?;
    if q.position.len() > MAX_POSITION {
        return Err(ApiError::bad_request(format!(
            "the position text is longer than {MAX_POSITION} bytes"
        )));
    }
    blocking(move || {
        let game = build(&name, &q.variant)?;
        let info = game.info();
        let record = tabula_engine::MatchRecord {
            game: info.name.clone(),
            variant: info.variant.clone(),
            config: MatchConfig {
                position: Some(q.position),
                ..Default::default()
            },
            moves: Vec::new(),
            resigned: None,
            tally: Default::default(),
            learned: Vec::new(),
            current: None,
        };
        let m = game.resume(&record)?;
        Ok(Json(json!({ "view": m.view().view })).into_response())
    })
    .await
}

#[derive(Deserialize)]
struct NewSession {
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    undo_depth: Option<u64>,
}

fn random_seed() -> u64 {
    use rand::RngCore;
    rand::rngs::OsRng.next_u64()
}

async fn create_session(State(st): St, ApiJson(req): ApiJson<NewSession>) -> ApiResult<Response> {
    let variant = req.variant.unwrap_or_default();
    check_variant(&variant)?;
    if req.players.len() > 16 {
        return Err(ApiError::bad_request("too many players"));
    }
    if req
        .position
        .as_ref()
        .is_some_and(|p| p.len() > MAX_POSITION)
    {
        return Err(ApiError::bad_request(format!(
            "the position text is longer than {MAX_POSITION} bytes"
        )));
    }
    if req
        .undo_depth
        .is_some_and(|d| d > tabula_engine::MAX_UNDO_DEPTH as u64)
    {
        return Err(ApiError::bad_request(format!(
            "undo_depth must be from 0 to {} (or null: no limit)",
            tabula_engine::MAX_UNDO_DEPTH
        )));
    }
    let config = MatchConfig {
        players: req.players,
        seed: req.seed.unwrap_or_else(random_seed),
        position: req.position,
        undo_depth: req.undo_depth.map(|d| d as usize),
    };
    let out = blocking(move || {
        let game = build(&req.game, &variant)?;
        st.sessions.create(game, config)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

async fn get_session(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    let out = blocking(move || {
        let view = st.sessions.read(&id, |m| Ok(m.view()))?;
        Ok(SessionOut { id, view })
    })
    .await?;
    Ok(Json(out))
}

/// Runs a changing action and answers `{id, view}`.
async fn change(
    st: Arc<AppState>,
    id: String,
    action: impl FnOnce(&mut Box<dyn Match>, &crate::Sessions) -> ApiResult<()> + Send + 'static,
) -> ApiResult<Json<SessionOut>> {
    let ((), out) = blocking(move || st.sessions.change(&id, action)).await?;
    Ok(Json(out))
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    setup: bool,
}

#[derive(Serialize)]
struct MoveOut {
    #[serde(flatten)]
    session: SessionOut,
    played: Vec<Played>,
}

/// A log line of a move just played, with the cells that move touched (in click
/// order), so a front end can outline the last move and the computer's reply.
#[derive(Serialize)]
struct Played {
    #[serde(flatten)]
    entry: LogEntry,
    cells: Vec<u32>,
}

/// True when some seat of the match is played by a person.
pub(crate) fn has_human(m: &dyn Match) -> bool {
    m.view().seats.iter().any(|s| s.player == "human")
}

/// The cells of a move just played, found among the moves that were open before
/// it (by the text asked for or the text logged).
fn cells_of(before: &[tabula_engine::MoveInfo], asked: &str, entry: &LogEntry) -> Vec<u32> {
    before
        .iter()
        .find(|i| i.mv == entry.mv || i.mv == asked)
        .map(|i| i.cells.clone())
        .unwrap_or_default()
}

/// One computer or chance ply with the cells its move touched.
fn step_with_cells(m: &mut Box<dyn Match>) -> Result<Option<Played>, tabula_engine::EngineError> {
    let before = m.view().legal_moves;
    Ok(m.step()?.map(|entry| {
        let cells = before
            .into_iter()
            .find(|i| i.mv == entry.mv)
            .map(|i| i.cells)
            .unwrap_or_default();
        Played { entry, cells }
    }))
}

/// The computer and chance replies up to a human's turn (the engine's `advance`,
/// one ply at a time so each reply's cells are known). A session without any
/// person is not advanced: it is watched through `step`.
fn replies(m: &mut Box<dyn Match>) -> Vec<Played> {
    let mut out = Vec::new();
    if !has_human(m.as_ref()) {
        return out;
    }
    while out.len() < 10_000 {
        match step_with_cells(m) {
            Ok(Some(p)) => out.push(p),
            _ => break,
        }
    }
    out
}

async fn play_move(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<Json<MoveOut>> {
    let (played, session) = blocking(move || {
        st.sessions.change(&id, move |m, _| {
            let before = m.view().legal_moves;
            if req.setup {
                let entry = m.play_setup(&req.mv)?;
                let cells = cells_of(&before, &req.mv, &entry);
                return Ok(vec![Played { entry, cells }]);
            }
            let entry = m.play(&req.mv)?;
            let cells = cells_of(&before, &req.mv, &entry);
            let mut played = vec![Played { entry, cells }];
            // The human move stands even if a computer reply failed (an engine bug).
            played.extend(replies(m));
            Ok(played)
        })
    })
    .await?;
    Ok(Json(MoveOut { session, played }))
}

async fn undo(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| {
        if m.undo() {
            Ok(())
        } else {
            Err(ApiError::conflict("nothing to undo"))
        }
    })
    .await
}

async fn redo(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| {
        if m.redo() {
            Ok(())
        } else {
            Err(ApiError::conflict("nothing to redo"))
        }
    })
    .await
}

async fn new_game(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| {
        m.new_game();
        let _ = replies(m);
        Ok(())
    })
    .await
}

async fn resign(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| Ok(m.resign()?)).await
}

async fn step(State(st): St, Path(id): Path<String>) -> ApiResult<Json<MoveOut>> {
    let (played, session) = blocking(move || {
        st.sessions.change(&id, |m, _| match step_with_cells(m)? {
            Some(p) => Ok(vec![p]),
            None if m.turn().is_over() => Err(ApiError::conflict("the game is over")),
            None => Err(ApiError::conflict(
                "a human is to move: there is no computer or chance move to step",
            )),
        })
    })
    .await?;
    Ok(Json(MoveOut { session, played }))
}

async fn hint(State(st): St, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    Ok(Json(
        blocking(move || st.sessions.read(&id, |m| Ok(m.hint()?))).await?,
    ))
}

/// Longest line of best play `line` shows.
const MAX_LINE: usize = 40;
/// Most plies `history` grades.
const MAX_HISTORY: usize = 2000;

/// A copy of the session's match at its start (set-up position included), with
/// the moves of its current game, to replay without touching the session.
fn replay_copy(m: &dyn Match) -> ApiResult<(Box<dyn Match>, Vec<String>)> {
    let mut record = m.record();
    let moves: Vec<String> = record.moves.drain(..).map(|r| r.mv).collect();
    record.resigned = None;
    let game = build(&record.game, &record.variant)?;
    let copy = game.resume(&record)?;
    Ok((copy, moves))
}

/// The value of the position for the side to move, from a hint.
fn value_of(hint: &Json_) -> Json_ {
    json!({
        "value": hint.get("value").cloned().unwrap_or(Json_::Null),
        "remoteness": hint.get("remoteness").cloned().unwrap_or(Json_::Null),
        "to_move": hint.get("turn").and_then(|t| t.get("seat")).cloned().unwrap_or(Json_::Null),
    })
}

#[derive(Deserialize)]
struct LineQuery {
    #[serde(rename = "move")]
    mv: String,
}

/// `GET /line?move=M`: the move M and the line of best play after it (the
/// principal variation of the strong solution), each move with its grade.
async fn line(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<LineQuery>,
) -> ApiResult<Json<Json_>> {
    if q.mv.len() > 256 {
        return Err(ApiError::bad_request("the move text is too long"));
    }
    let out = blocking(move || {
        let (mut copy, first) = st.sessions.read(&id, |m| {
            let (mut copy, moves) = replay_copy(m)?;
            for mv in &moves {
                copy.play_setup(mv)?;
            }
            let hint = copy.hint()?;
            let graded = hint["moves"]
                .as_array()
                .and_then(|ms| ms.iter().find(|x| x["move"] == q.mv.as_str()))
                .cloned()
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("'{}' is not a move here", q.mv),
                    )
                })?;
            Ok((copy, graded))
        })?;
        if first.get("value").is_none() {
            return Err(ApiError::not_found(
                "this game has no exact values, so there is no line of best play",
            ));
        }
        let mut line = Vec::new();
        let mut next = first;
        let mut truncated = false;
        loop {
            let mv = next["move"].as_str().unwrap_or_default().to_string();
            let entry = copy.play_setup(&mv)?;
            line.push(json!({
                "move": entry.mv, "text": entry.text, "seat": entry.seat,
                "value": next.get("value"), "remoteness": next.get("remoteness"),
            }));
            if copy.turn().is_over() {
                break;
            }
            if line.len() >= MAX_LINE {
                truncated = true;
                break;
            }
            let hint = copy.hint()?;
            match hint["moves"].as_array().and_then(|m| m.first()) {
                Some(best) if best.get("value").is_some() => next = best.clone(),
                _ => break,
            }
        }
        Ok(json!({ "line": line, "truncated": truncated }))
    })
    .await?;
    Ok(Json(out))
}

/// `GET /history`: the value of every position of the current game for the side
/// to move (win/draw/loss and remoteness), from the start to now.
async fn history(State(st): St, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let out = blocking(move || {
        st.sessions.read(&id, |m| {
            let (mut copy, moves) = replay_copy(m)?;
            if moves.len() > MAX_HISTORY {
                return Err(ApiError::bad_request(format!(
                    "the value history covers games of at most {MAX_HISTORY} plies"
                )));
            }
            let mut values = Vec::with_capacity(moves.len() + 1);
            for mv in &moves {
                values.push(value_of(&copy.hint()?));
                copy.play_setup(mv)?;
            }
            let end = if copy.turn().is_over() {
                json!({"value": null, "remoteness": 0, "to_move": null})
            } else {
                value_of(&copy.hint()?)
            };
            values.push(end);
            Ok(json!({ "values": values }))
        })
    })
    .await?;
    Ok(Json(out))
}

#[derive(Deserialize)]
struct PlyQuery {
    ply: usize,
}

/// `GET /review?ply=N`: the view after the first N plies of the current game,
/// without changing the session.
async fn review(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<PlyQuery>,
) -> ApiResult<Json<Json_>> {
    let out = blocking(move || {
        st.sessions.read(&id, |m| {
            let (mut copy, moves) = replay_copy(m)?;
            if q.ply > moves.len() {
                return Err(ApiError::bad_request(format!(
                    "this game has {} plies; ply {} is beyond its end",
                    moves.len(),
                    q.ply
                )));
            }
            for mv in &moves[..q.ply] {
                copy.play_setup(mv)?;
            }
            Ok(json!({ "ply": q.ply, "plies": moves.len(), "view": copy.view() }))
        })
    })
    .await?;
    Ok(Json(out))
}

/// `POST /from?ply=N`: a new session with the same players that continues from
/// the position after the first N plies of this one ("play from here").
async fn play_from(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<PlyQuery>,
) -> ApiResult<Response> {
    let out = blocking(move || {
        let mut record = st.sessions.read(&id, |m| Ok(m.record()))?;
        if q.ply > record.moves.len() {
            return Err(ApiError::bad_request(format!(
                "this game has {} plies; ply {} is beyond its end",
                record.moves.len(),
                q.ply
            )));
        }
        record.moves.truncate(q.ply);
        record.resigned = None;
        record.tally = Default::default();
        st.sessions.resume(&record)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

#[derive(Deserialize)]
struct PlayerRequest {
    seat: usize,
    player: String,
}

async fn set_player(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<PlayerRequest>,
) -> ApiResult<Json<SessionOut>> {
    if req.player.len() > 256 {
        return Err(ApiError::bad_request("the player name is too long"));
    }
    change(st, id, move |m, sessions| {
        m.set_player(req.seat, &req.player)?;
        if m.learned(req.seat).is_some() {
            sessions.reload_learning(m)?;
        }
        // Only replies to a person: computer against computer is watched by `step`.
        let _ = replies(m);
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
struct SeatQuery {
    #[serde(default)]
    seat: Option<usize>,
}

async fn learned(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> ApiResult<Json<Json_>> {
    let out = blocking(move || {
        st.sessions.read(&id, |m| {
            let view = m.view();
            let seats: Vec<usize> = match q.seat {
                Some(s) => vec![s],
                None => (0..view.seats.len()).collect(),
            };
            for seat in seats {
                if let Some(state) = m.learned(seat) {
                    let player = view
                        .seats
                        .get(seat)
                        .map(|s| s.player.clone())
                        .unwrap_or_default();
                    return Ok(json!({"seat": seat, "player": player, "learned": state}));
                }
            }
            Err(ApiError::not_found(match q.seat {
                Some(s) => format!("the player in seat {s} does not learn"),
                None => "no player in this session learns".into(),
            }))
        })
    })
    .await?;
    Ok(Json(out))
}

#[derive(Deserialize, Default)]
struct SaveRequest {
    #[serde(default)]
    name: Option<String>,
}

async fn save(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<SaveRequest>,
) -> ApiResult<Json<Json_>> {
    let saved = blocking(move || {
        let (record, result) = st
            .sessions
            .read(&id, |m| Ok((m.record(), m.view().result)))?;
        Ok(st
            .store()
            .save_game(req.name.as_deref(), &record, result.as_deref())?)
    })
    .await?;
    Ok(Json(json!({ "saved": saved })))
}

#[derive(Deserialize)]
struct GameQuery {
    #[serde(default)]
    game: Option<String>,
}

async fn list_saved(State(st): St, Query(q): Query<GameQuery>) -> ApiResult<Json<Json_>> {
    let game = q.game.as_deref().map(game_name).transpose()?;
    let list = blocking(move || Ok(st.store().list_saved(game)?)).await?;
    Ok(Json(json!(list)))
}

async fn resume_saved(State(st): St, Path(saved_id): Path<String>) -> ApiResult<Response> {
    let out = blocking(move || {
        let (_, record) = st
            .store()
            .load_game(&saved_id)?
            .ok_or_else(|| ApiError::not_found("no such saved game"))?;
        st.sessions.resume(&record)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

async fn delete_saved(State(st): St, Path(saved_id): Path<String>) -> ApiResult<StatusCode> {
    let found = blocking(move || Ok(st.store().delete_saved(&saved_id)?)).await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("no such saved game"))
    }
}

async fn get_settings(State(st): St, Path(game): Path<String>) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    let stored = blocking(move || Ok(st.store().settings(game)?)).await?;
    Ok(Json(settings::with_defaults(stored)))
}

async fn put_settings(
    State(st): St,
    Path(game): Path<String>,
    ApiJson(body): ApiJson<Json_>,
) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    let stored = blocking(move || {
        settings::validate(game, &body)?;
        st.store().put_settings(game, &body)?;
        Ok(body)
    })
    .await?;
    Ok(Json(settings::with_defaults(Some(stored))))
}

async fn tallies(State(st): St, Query(q): Query<GameQuery>) -> ApiResult<Json<Json_>> {
    let game = q.game.as_deref().map(game_name).transpose()?;
    let rows = blocking(move || Ok(st.store().tallies(game)?)).await?;
    Ok(Json(json!(rows)))
}

async fn best(State(st): St, Path(game): Path<String>) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    let rows = blocking(move || Ok(st.store().best(game)?)).await?;
    Ok(Json(json!(rows)))
}
