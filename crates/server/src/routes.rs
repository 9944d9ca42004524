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
/// Deepest undo queue that can be asked for.
const MAX_UNDO_DEPTH: u64 = 100_000;

pub fn api() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games", get(list_games))
        .route("/api/games/{name}", get(game_info))
        .route("/api/sessions", post(create_session))
        .route("/api/sessions/{id}", get(get_session))
        .route("/api/sessions/{id}/moves", post(play_move))
        .route("/api/sessions/{id}/undo", post(undo))
        .route("/api/sessions/{id}/redo", post(redo))
        .route("/api/sessions/{id}/new", post(new_game))
        .route("/api/sessions/{id}/resign", post(resign))
        .route("/api/sessions/{id}/step", post(step))
        .route("/api/sessions/{id}/hint", get(hint))
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
        .route("/api/jobs/{job_id}", get(jobs::status))
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
    if req.undo_depth.is_some_and(|d| d > MAX_UNDO_DEPTH) {
        return Err(ApiError::bad_request(format!(
            "undo_depth must be at most {MAX_UNDO_DEPTH} (or null: no limit)"
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
    played: Vec<LogEntry>,
}

async fn play_move(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<Json<MoveOut>> {
    let (played, session) = blocking(move || {
        st.sessions.change(&id, move |m, _| {
            if req.setup {
                return Ok(vec![m.play_setup(&req.mv)?]);
            }
            let mut played = vec![m.play(&req.mv)?];
            // The human move stands even if a computer reply failed (an engine bug).
            played.extend(m.advance().unwrap_or_default());
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
        let _ = m.advance();
        Ok(())
    })
    .await
}

async fn resign(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| Ok(m.resign()?)).await
}

async fn step(State(st): St, Path(id): Path<String>) -> ApiResult<Json<SessionOut>> {
    change(st, id, |m, _| match m.step()? {
        Some(_) => Ok(()),
        None if m.turn().is_over() => Err(ApiError::conflict("the game is over")),
        None => Err(ApiError::conflict(
            "a human is to move: there is no computer or chance move to step",
        )),
    })
    .await
}

async fn hint(State(st): St, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    Ok(Json(
        blocking(move || st.sessions.read(&id, |m| Ok(m.hint()?))).await?,
    ))
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
        let _ = m.advance();
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
