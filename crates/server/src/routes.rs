//! The JSON API (docs/API.md).

use crate::compression::compressed;
use crate::error::{ApiError, ApiJson};
use crate::sessions::SessionOut;
use crate::thinking::{blocking, thinking, versioned};
use crate::{jobs, settings, AppState};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json_};
use std::sync::Arc;
use tabula_core::MoveGrade;
use tabula_engine::{build, find, registry, DynGame, LogEntry, Match, MatchConfig, PlayerRequest};

type St = State<Arc<AppState>>;
type ApiResult<T> = Result<T, ApiError>;

/// Longest position text accepted when starting a session.
const MAX_POSITION: usize = 16 * 1024;
/// Longest variant text.
const MAX_VARIANT: usize = 1000;
pub fn api() -> Router<Arc<AppState>> {
    Router::new()
        // What a page reads once about a game goes out compressed when asked;
        // the answers of play do not (compression.rs).
        .route("/api/games", get(list_games).layer(compressed()))
        .route("/api/games/{name}", get(game_info).layer(compressed()))
        .route(
            "/api/games/{name}/view",
            get(position_view).layer(compressed()),
        )
        .route(
            "/api/games/{name}/rules",
            get(game_rules).layer(compressed()),
        )
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
        .route("/api/damaged", get(damaged))
        .route("/api/jobs", post(jobs::create))
        .route("/api/jobs/{job_id}", get(jobs::status).delete(jobs::cancel))
        .route("/api/jobs/{job_id}/events", get(jobs::events))
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

/// `GET /api/games`: every game's facts, made once ([`AppState::games_list`]).
async fn list_games(State(st): St) -> ApiResult<Response> {
    let body = match st.games_list.get() {
        Some(body) => body.clone(),
        None => {
            let made = blocking(|_| {
                let mut all = Vec::new();
                for e in registry() {
                    all.push(build(e.name, "")?.info());
                }
                serde_json::to_vec(&all)
                    .map(axum::body::Bytes::from)
                    .map_err(|e| ApiError::internal(format!("the list could not be written: {e}")))
            })
            .await?;
            st.games_list.get_or_init(|| made).clone()
        }
    };
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

#[derive(Deserialize)]
struct VariantQuery {
    #[serde(default)]
    variant: String,
}

async fn game_info(Path(name): Path<String>, Query(q): Query<VariantQuery>) -> ApiResult<Response> {
    check_variant(&q.variant)?;
    blocking(move |_| Ok(Json(build(&name, &q.variant)?.info()).into_response())).await
}

/// The game's rules for players, from its page crates/games/NAME/docs/rules.md: `{game, title, markdown}`.
async fn game_rules(Path(name): Path<String>) -> ApiResult<Response> {
    blocking(move |_| {
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
    blocking(move |_| {
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
    /// One per seat, each a kind and a level or a name ([`PlayerRequest`]).
    #[serde(default)]
    players: Vec<PlayerRequest>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    undo_depth: Option<u64>,
    /// Moves played on the start as set-up moves before the chance or computer
    /// turn is taken: a game ID's, whose chance moves (the rolls) are replayed as
    /// they were rather than rolled afresh.
    #[serde(default)]
    moves: Vec<String>,
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
    if req.moves.len() > tabula_engine::MAX_GAME_PLIES {
        return Err(ApiError::bad_request(format!(
            "a game of at most {} moves can be started from its moves",
            tabula_engine::MAX_GAME_PLIES
        )));
    }
    let players = player_names(&req.players)?;
    let moves = req.moves;
    let config = MatchConfig {
        players: players.clone(),
        seed: req.seed.unwrap_or_else(random_seed),
        position: req.position,
        undo_depth: req.undo_depth.map(|d| d as usize),
    };
    // Checked in the order that costs least: the variant's own limits before
    // the game is built, then the players the game is asked about; a game no
    // player thinks for is made on the same blocking thread, and only one
    // where a player may think waits for a thinking slot.
    let st2 = st.clone();
    let made = blocking(move |work| {
        tabula_engine::check_playable(&req.game, &variant)?;
        let game = build(&req.game, &variant)?;
        if players_may_think(game.as_ref(), &players) {
            return Ok(NewGame::Thinks(game, config, moves));
        }
        st2.sessions
            .create_with_moves(game, config, &moves, work)
            .map(NewGame::Made)
    })
    .await?;
    let out = match made {
        NewGame::Made(out) => out,
        NewGame::Thinks(game, config, moves) => {
            let st2 = st.clone();
            thinking(&st.thinkers, move |work| {
                st2.sessions.create_with_moves(game, config, &moves, work)
            })
            .await?
        }
    };
    Ok((StatusCode::CREATED, out).into_response())
}

/// A new session made at once, or what making it needs once the request has
/// a thinking slot.
enum NewGame {
    /// Made: no player thinks.
    Made(SessionOut),
    /// A player may think: the game, the match's settings and its moves.
    Thinks(Arc<dyn DynGame>, MatchConfig, Vec<String>),
}

/// The players of a request as the engine names them; a bad one is a 400 in words.
fn player_names(players: &[PlayerRequest]) -> ApiResult<Vec<String>> {
    players
        .iter()
        .map(|p| {
            p.to_text()
                .map_err(|e| ApiError::bad_request(e.to_string()))
        })
        .collect()
}

/// Whether a game with these players (as a request names them) may make the
/// computer think, as the game says of each ([`DynGame::player_may_think`]);
/// so may the game's own opponent when none is named.
fn players_may_think(game: &dyn DynGame, players: &[String]) -> bool {
    players.is_empty() || players.iter().any(|p| game.player_may_think(p))
}

/// Whether a request on session `id` may make the computer think: as of its last
/// request when it is in memory, else from the players its stored record names
/// (reading it back builds its players, and a perfect player's table with them,
/// which must then happen within a thinking slot).
async fn session_may_think(st: &Arc<AppState>, id: &str) -> ApiResult<bool> {
    if let Some(thinks) = st.sessions.live_thinks(id) {
        return Ok(thinks);
    }
    let (st, id) = (st.clone(), id.to_string());
    blocking(move |_| {
        let record = st.store().session::<tabula_engine::MatchRecord>(&id)?;
        Ok(record.map_or(true, |r| {
            build(&r.game, &r.variant).map_or(true, |game| {
                players_may_think(game.as_ref(), &r.config.players)
            })
        }))
    })
    .await
}

/// Runs a changing action on a session where the computer may move: first
/// without a thinking slot when the session's computer only looks its moves up
/// (checked again under its lock: a seat may have changed player meanwhile),
/// else as thinking.
async fn change_replying<T: Send + 'static>(
    st: Arc<AppState>,
    id: String,
    action: impl Fn(&mut Box<dyn Match>, &crate::Sessions) -> ApiResult<T> + Clone + Send + 'static,
) -> ApiResult<(T, SessionOut)> {
    if !session_may_think(&st, &id).await? {
        let (st2, id2, action2) = (st.clone(), id.clone(), action.clone());
        let done = blocking(move |work| {
            st2.sessions
                .change_unless(&id2, work, |m| m.computer_thinks(), action2)
        })
        .await?;
        if let Some(done) = done {
            return Ok(done);
        }
    }
    let st2 = st.clone();
    thinking(&st.thinkers, move |work| {
        st2.sessions.change(&id, work, action)
    })
    .await
}

async fn get_session(State(st): St, Path(id): Path<String>) -> ApiResult<SessionOut> {
    let out = blocking(move |_| {
        let view = st.sessions.view(&id)?;
        Ok(SessionOut { id, view })
    })
    .await?;
    Ok(out)
}

/// Runs a changing action and answers `{id, view}`.
async fn change(
    st: Arc<AppState>,
    id: String,
    action: impl FnOnce(&mut Box<dyn Match>, &crate::Sessions) -> ApiResult<()> + Send + 'static,
) -> ApiResult<SessionOut> {
    let ((), out) = blocking(move |work| st.sessions.change(&id, work, action)).await?;
    Ok(out)
}

/// [`change`] for actions where the computer may think ([`thinking`]).
async fn change_thinking(
    st: Arc<AppState>,
    id: String,
    action: impl FnOnce(&mut Box<dyn Match>, &crate::Sessions) -> ApiResult<()> + Send + 'static,
) -> ApiResult<SessionOut> {
    let st2 = st.clone();
    let ((), out) = thinking(&st.thinkers, move |work| {
        st2.sessions.change(&id, work, action)
    })
    .await?;
    Ok(out)
}

#[derive(Deserialize, Clone)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    setup: bool,
}

/// The answer of a move or a step: the session (`{id, view}`) and the plies
/// just played, `played`, beside them.
struct MoveOut {
    session: SessionOut,
    played: Vec<Played>,
}

impl IntoResponse for MoveOut {
    fn into_response(self) -> Response {
        match self.session.body(Some(&self.played)) {
            Ok(body) => crate::sessions::json_response(body),
            Err(e) => e.into_response(),
        }
    }
}

/// A log line of a move just played, with the cells that move touched (in click
/// order), so a front end can outline the last move and the computer's reply.
#[derive(Serialize)]
struct Played {
    #[serde(flatten)]
    entry: LogEntry,
    cells: Vec<u32>,
}

impl Played {
    /// The entry of a ply just played, with its cells (the match's own record
    /// of the ply: the moves that were open before it are not listed again).
    fn of(m: &dyn Match, entry: LogEntry) -> Played {
        let cells = m.ply_cells(entry.ply);
        Played { entry, cells }
    }
}

/// One computer or chance ply with the cells its move touched.
fn step_with_cells(m: &mut Box<dyn Match>) -> Result<Option<Played>, tabula_engine::EngineError> {
    // A person to move: `step` plays nothing (the common case: every reply
    // loop ends here).
    if m.human_to_move() {
        return Ok(None);
    }
    Ok(m.step()?.map(|entry| Played::of(m.as_ref(), entry)))
}

/// The computer and chance replies up to a human's turn (the engine's `advance`,
/// one ply at a time so each reply's cells are known). A session without any
/// person is not advanced: it is watched through `step`.
fn replies(m: &mut Box<dyn Match>) -> Vec<Played> {
    let mut out = Vec::new();
    if !m.has_human() {
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

/// Plays a person's move and the replies after it (none in set-up mode).
fn play_and_reply(m: &mut Box<dyn Match>, req: MoveRequest) -> ApiResult<Vec<Played>> {
    // The view is built once, after the move and replies.
    if req.setup {
        let entry = m.play_setup(&req.mv)?;
        return Ok(vec![Played::of(m.as_ref(), entry)]);
    }
    let entry = m.play(&req.mv)?;
    let mut played = vec![Played::of(m.as_ref(), entry)];
    // The human move stands even if a computer reply failed (an engine bug).
    played.extend(replies(m));
    Ok(played)
}

async fn play_move(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> ApiResult<MoveOut> {
    // Where only people play, or computers that only look their moves up,
    // nothing thinks: the move runs like an undo, without a thinking slot.
    let (played, session) =
        change_replying(st, id, move |m, _| play_and_reply(m, req.clone())).await?;
    Ok(MoveOut { session, played })
}

async fn undo(State(st): St, Path(id): Path<String>) -> ApiResult<SessionOut> {
    change(st, id, |m, _| {
        if m.undo() {
            Ok(())
        } else {
            Err(ApiError::conflict("nothing to undo"))
        }
    })
    .await
}

async fn redo(State(st): St, Path(id): Path<String>) -> ApiResult<SessionOut> {
    change(st, id, |m, _| {
        if m.redo() {
            Ok(())
        } else {
            Err(ApiError::conflict("nothing to redo"))
        }
    })
    .await
}

async fn new_game(State(st): St, Path(id): Path<String>) -> ApiResult<SessionOut> {
    let ((), session) = change_replying(st, id, |m, _| {
        m.new_game();
        let _ = replies(m);
        Ok(())
    })
    .await?;
    Ok(session)
}

async fn resign(State(st): St, Path(id): Path<String>) -> ApiResult<SessionOut> {
    change(st, id, |m, _| Ok(m.resign()?)).await
}

async fn step(State(st): St, Path(id): Path<String>) -> ApiResult<MoveOut> {
    let (played, session) = change_replying(st, id, |m, _| match step_with_cells(m)? {
        Some(p) => Ok(vec![p]),
        None if m.turn().is_over() => Err(ApiError::conflict("the game is over")),
        None => Err(ApiError::conflict(
            "a human is to move: there is no computer or chance move to step",
        )),
    })
    .await?;
    Ok(MoveOut { session, played })
}

/// How long a hint waits for an exact solution that is being built before it
/// answers with the build's progress instead (`analysis.preparing`; the page
/// asks again): a table read from disk is ready within it, a solve is not.
const HINT_TABLE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The query of `GET /hint`: the ply whose position to grade, if not the latest.
#[derive(Deserialize)]
struct HintQuery {
    #[serde(default)]
    ply: Option<usize>,
}

/// `GET /hint[?ply=N]`: the suggested move, why, and the position's graded
/// analysis in the documented results shape (docs/API.md, "Results"), of
/// the position now or, with `ply`, of the position after the first N plies of the
/// current game (a card beside a reviewed position), without changing the session.
/// While the exact solution is being built the analysis says so, with its progress.
async fn hint(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<HintQuery>,
) -> ApiResult<Json<Json_>> {
    let st2 = st.clone();
    Ok(Json(
        thinking(&st.thinkers, move |_| {
            st2.sessions.read(&id, |m| {
                // The build goes on after this wait (only a cancelled request
                // stops it, when no other waits for it).
                let glance =
                    tabula_core::waiting_budget_until(std::time::Instant::now() + HINT_TABLE_WAIT);
                let view = m.view();
                let hint = match q.ply {
                    None => glance.run(|| m.hint())?,
                    Some(ply) => {
                        let shown = replay_to(m, ply)?;
                        glance.run(|| shown.hint())?
                    }
                };
                Ok(versioned(&view.game, &view.variant, &hint))
            })
        })
        .await?,
    ))
}

/// A copy of the session's match after the first `ply` plies of its current game
/// (400 beyond its end).
fn replay_to(m: &dyn Match, ply: usize) -> ApiResult<Box<dyn Match>> {
    let (mut copy, moves) = replay_copy(m)?;
    if ply > moves.len() {
        return Err(ApiError::bad_request(format!(
            "this game has {} plies; ply {ply} is beyond its end",
            moves.len()
        )));
    }
    for mv in &moves[..ply] {
        copy.play_setup(mv)?;
    }
    Ok(copy)
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

/// The value of the position for the side to move (a `PositionValue`), from a hint.
fn value_of(hint: &tabula_core::Hint) -> Json_ {
    json!({
        "value": hint.analysis.value,
        "to_move": hint.analysis.to_move,
    })
}

#[derive(Deserialize)]
struct LineQuery {
    #[serde(rename = "move")]
    mv: String,
    /// The position after the first `ply` plies of the current game (a
    /// reviewed one); the game's own position when absent.
    ply: Option<usize>,
}

/// `GET /line?move=M[&ply=N]`: the move M and the line of best play after it
/// (the principal variation of the strong solution), each move with its grade,
/// from the game's position or the one after its first N plies.
async fn line(
    State(st): St,
    Path(id): Path<String>,
    Query(q): Query<LineQuery>,
) -> ApiResult<Json<Json_>> {
    if q.mv.len() > 256 {
        return Err(ApiError::bad_request("the move text is too long"));
    }
    let st2 = st.clone();
    let out = thinking(&st.thinkers, move |work| {
        let (mut copy, first) = st2.sessions.read(&id, |m| {
            let copy = replay_to(m, q.ply.unwrap_or(m.record().moves.len()))?;
            let hint = copy.hint()?;
            let graded = hint
                .analysis
                .moves
                .iter()
                .find(|x| x.notation == q.mv)
                .cloned()
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("'{}' is not a move here", q.mv),
                    )
                })?;
            Ok((copy, graded))
        })?;
        if !matches!(first.grade, MoveGrade::Solved { .. }) {
            return Err(ApiError::not_found(
                "this game has no exact values, so there is no line of best play",
            ));
        }
        let mut line = Vec::new();
        let mut next = first;
        let mut truncated = false;
        loop {
            let entry = copy.play_setup(&next.notation)?;
            line.push(json!({
                "move": entry.mv, "text": entry.text, "seat": entry.seat, "by": entry.by,
                "words": entry.words, "parts": entry.parts, "grade": next.grade,
            }));
            if copy.turn().is_over() {
                break;
            }
            if line.len() >= MAX_LINE {
                truncated = true;
                break;
            }
            work.check_time()?;
            let hint = copy.hint()?;
            match hint.analysis.moves.first() {
                Some(best) if matches!(best.grade, MoveGrade::Solved { .. }) => next = best.clone(),
                _ => break,
            }
        }
        Ok(json!({ "line": line, "truncated": truncated }))
    })
    .await?;
    Ok(Json(out))
}

/// `GET /history`: the value of every position of the current game for the side
/// to move (win/draw/loss and remoteness), from the start to now. Graded on a
/// copy, without holding the session; while the game's exact solution is being
/// built (a hint would say `preparing`) every value is null, after at most
/// [`HINT_TABLE_WAIT`].
async fn history(State(st): St, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let st2 = st.clone();
    let out = thinking(&st.thinkers, move |work| {
        // The session's lock is held only to copy it: a hint or a move on the
        // same session does not wait for the grading (it waited its whole
        // deadline while a table was being built).
        let (mut copy, moves) = st2.sessions.read(&id, replay_copy)?;
        if moves.len() > MAX_HISTORY {
            return Err(ApiError::bad_request(format!(
                "the value history covers games of at most {MAX_HISTORY} plies"
            )));
        }
        let glance = tabula_core::waiting_budget_until(std::time::Instant::now() + HINT_TABLE_WAIT);
        if glance.run(|| copy.hint())?.analysis.preparing.is_some() {
            let unknown =
                vec![json!({"value": null, "to_move": null, "seat": null}); moves.len() + 1];
            return Ok(json!({ "values": unknown }));
        }
        let mut values = Vec::with_capacity(moves.len() + 1);
        // Each value says whose it is by the seat's number (`seat`), which a
        // face uses, never matching the seat's name.
        let graded = |copy: &mut Box<dyn Match>| -> ApiResult<Json_> {
            let mut value = value_of(&copy.hint()?);
            value["seat"] = json!(copy.turn().seat());
            Ok(value)
        };
        for mv in &moves {
            work.check_time()?;
            values.push(graded(&mut copy)?);
            copy.play_setup(mv)?;
        }
        let end = if copy.turn().is_over() {
            json!({"value": null, "to_move": null, "seat": null})
        } else {
            graded(&mut copy)?
        };
        values.push(end);
        Ok(json!({ "values": values }))
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
    let out = blocking(move |_| {
        st.sessions.read(&id, |m| {
            let plies = m.record().moves.len();
            let copy = replay_to(m, q.ply)?;
            Ok(json!({ "ply": q.ply, "plies": plies, "view": copy.view() }))
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
    let st2 = st.clone();
    let out = thinking(&st.thinkers, move |work| {
        let st = st2;
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
        st.sessions.resume(&record, work)
    })
    .await?;
    Ok((StatusCode::CREATED, out).into_response())
}

#[derive(Deserialize, Clone)]
struct SeatPlayerRequest {
    seat: usize,
    /// A kind and a level, or a name ([`PlayerRequest`]).
    player: PlayerRequest,
}

async fn set_player(
    State(st): St,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<SeatPlayerRequest>,
) -> ApiResult<SessionOut> {
    if matches!(&req.player, PlayerRequest::Named(n) if n.len() > 256) {
        return Err(ApiError::bad_request("the player name is too long"));
    }
    let player = player_names(std::slice::from_ref(&req.player))?.remove(0);
    let thinks = {
        let (st, id, player) = (st.clone(), id.clone(), player.clone());
        blocking(move |_| {
            let (name, variant) = st.sessions.read(&id, |m| {
                let record = m.record();
                Ok((record.game, record.variant))
            })?;
            let game = build(&name, &variant)?;
            Ok(game.player_may_think(&player))
        })
        .await?
    };
    let seat = req.seat;
    let action = move |m: &mut Box<dyn Match>, sessions: &crate::Sessions| {
        m.set_player(seat, &player)?;
        if m.learned(seat).is_some() {
            sessions.reload_learning(m)?;
        }
        // Only replies to a person: computer against computer is watched by `step`.
        let _ = replies(m);
        Ok(())
    };
    if thinks {
        return change_thinking(st, id, action).await;
    }
    // A person or a random player: thinking only if another seat's player does.
    let ((), session) = change_replying(st, id, action).await?;
    Ok(session)
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
    let out = blocking(move |_| {
        st.sessions.read(&id, |m| {
            let view = m.view();
            let seats: Vec<usize> = match q.seat {
                Some(s) => vec![s],
                None => (0..view.seats.len()).collect(),
            };
            for seat in seats {
                if let Some(state) = m.learned_in_words(seat) {
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
    let saved = blocking(move |_| {
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

/// Saved games, and the saved games that cannot be read (in words, with the id
/// that deletes them): one damaged row never hides the others.
async fn list_saved(State(st): St, Query(q): Query<GameQuery>) -> ApiResult<Json<Json_>> {
    let game = q.game.as_deref().map(game_name).transpose()?;
    let list = blocking(move |_| Ok(st.store().list_saved(game)?)).await?;
    Ok(Json(json!({"saved": list.rows, "damaged": list.damaged})))
}

async fn resume_saved(State(st): St, Path(saved_id): Path<String>) -> ApiResult<Response> {
    let st2 = st.clone();
    let out = thinking(&st.thinkers, move |work| {
        let st = st2;
        let (_, record) = st
            .store()
            .load_game::<tabula_engine::MatchRecord>(&saved_id)?
            .ok_or_else(|| ApiError::not_found("no such saved game"))?;
        st.sessions.resume(&record, work)
    })
    .await?;
    Ok((StatusCode::CREATED, out).into_response())
}

async fn delete_saved(State(st): St, Path(saved_id): Path<String>) -> ApiResult<StatusCode> {
    let found = blocking(move |_| Ok(st.store().delete_saved(&saved_id)?)).await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("no such saved game"))
    }
}

async fn get_settings(State(st): St, Path(game): Path<String>) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    // Settings that cannot be read, or are not settings any more (a damaged
    // row, listed by `GET /api/damaged`), are left out: the game's page opens
    // with the defaults.
    let stored = blocking(move |_| match st.store().settings(game) {
        Err(tabula_store::StoreError::Damaged(_)) => Ok(None),
        other => Ok(other?),
    })
    .await?;
    let readable = stored.and_then(|s| settings::Settings::stored(s).ok());
    Ok(Json(settings::with_defaults(readable)))
}

async fn put_settings(
    State(st): St,
    Path(game): Path<String>,
    ApiJson(body): ApiJson<Json_>,
) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    let stored = blocking(move |_| {
        let settings = settings::parse(game, body)?;
        st.store().write(|w| {
            // Damaged settings are set aside, kept whole, before the new ones
            // take their place.
            let problem = match w.settings(game) {
                Err(tabula_store::StoreError::Damaged(d)) => Some(d.problem),
                Ok(Some(old)) => settings::Settings::stored(old).err(),
                _ => None,
            };
            if let Some(problem) = problem {
                w.set_aside_settings(game, &problem)?;
            }
            w.put_settings(game, &settings.to_json())
        })?;
        Ok(settings)
    })
    .await?;
    Ok(Json(settings::with_defaults(Some(stored))))
}

/// Tallies, and the tallies that cannot be read or were set aside (in words).
async fn tallies(State(st): St, Query(q): Query<GameQuery>) -> ApiResult<Json<Json_>> {
    let game = q.game.as_deref().map(game_name).transpose()?;
    let list = blocking(move |_| Ok(st.store().tallies(game)?)).await?;
    Ok(Json(json!({"tallies": list.rows, "damaged": list.damaged})))
}

/// Best results that can be read (the others are in `GET /api/damaged`).
async fn best(State(st): St, Path(game): Path<String>) -> ApiResult<Json<Json_>> {
    let game = game_name(&game)?;
    let list = blocking(move |_| Ok(st.store().best(game)?)).await?;
    Ok(Json(json!(list.rows)))
}

/// Every row of the database that cannot be read, in words: the store's own
/// findings, and stored settings that are not settings any more.
async fn damaged(State(st): St) -> ApiResult<Json<Json_>> {
    let rows = blocking(move |_| {
        let store = st.store();
        let mut rows = store.damaged()?;
        for (game, stored) in store.read(|r| r.all_settings())?.rows {
            if let Err(problem) = settings::Settings::stored(stored) {
                rows.push(tabula_store::DamagedRow::new(
                    format!(
                        "the settings of {}",
                        tabula_engine::title_of(&game).unwrap_or(&game)
                    ),
                    problem,
                ));
            }
        }
        Ok(rows)
    })
    .await?;
    Ok(Json(json!({ "damaged": rows })))
}
