//! The HTTP routes: the page (served from the binary) and the JSON API.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /` | the page (`app.js`, `map.js` and `style.css` beside it) |
//! | `GET /api/status` | every run: the base board's, the variant's ([`super::jobs::Status`]) |
//! | `POST /api/board?name=FILE` | a board file's text: validated, then computed (400 naming every problem) |
//! | `POST /api/variant?cars=N` | a scenario file's text: applied to the base board, then `N` cars first and every budget (400 naming the changes that fail) |
//! | `DELETE /api/variant` | drops the variant |
//! | `POST /api/suggest?seconds=S` | tunes the base board ([`super::suggest`]) for at most `S` seconds (120 by default), replacing the suggestion running |
//! | `GET /api/suggest` | the suggestion ([`super::suggest::Suggestion`]), or `null` |
//!
//! Errors are JSON `{"error": "..."}` with a 4xx status; bodies above
//! [`MAX_BODY`] bytes get 413.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::jobs::Jobs;
use super::suggest::{Suggester, MAX_SECONDS};
use crate::board::Board;

/// The largest request body accepted: far above any real board file.
pub const MAX_BODY: usize = 2 << 20;

const INDEX: &str = include_str!("assets/index.html");
const APP: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");
/// The map drawing, shared with the online game's page.
const MAP: &str = crate::output::board_view::MAP_JS;

/// What the handlers share: the worker and the suggestion.
#[derive(Clone)]
struct App {
    jobs: Arc<Jobs>,
    suggest: Arc<Suggester>,
}

impl FromRef<App> for Arc<Jobs> {
    fn from_ref(app: &App) -> Arc<Jobs> {
        Arc::clone(&app.jobs)
    }
}

impl FromRef<App> for Arc<Suggester> {
    fn from_ref(app: &App) -> Arc<Suggester> {
        Arc::clone(&app.suggest)
    }
}

/// The server's routes over `jobs`.
pub fn router(jobs: Arc<Jobs>) -> Router {
    let app = App {
        jobs,
        suggest: Arc::new(Suggester::default()),
    };
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", APP) }),
        )
        .route(
            "/map.js",
            get(|| async { page("text/javascript; charset=utf-8", MAP) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", STYLE) }),
        )
        .route("/api/status", get(status))
        .route("/api/board", post(set_board))
        .route("/api/variant", post(set_variant).delete(clear_variant))
        .route("/api/suggest", post(start_suggest).get(suggestion))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn page(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

/// A JSON error with its status.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

async fn status(State(jobs): State<Arc<Jobs>>) -> Response {
    Json(jobs.status()).into_response()
}

#[derive(Deserialize)]
struct BoardQuery {
    /// The uploaded file's name, for messages.
    name: Option<String>,
}

async fn set_board(
    State(jobs): State<Arc<Jobs>>,
    State(suggest): State<Arc<Suggester>>,
    Query(query): Query<BoardQuery>,
    body: String,
) -> Response {
    let name = query
        .name
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "the uploaded board".into());
    // Validating a large board is quick, but not for the async threads.
    let parsed = tokio::task::spawn_blocking(move || {
        Board::from_json(&body, &name).map(|board| (board, body))
    })
    .await;
    match parsed {
        Ok(Ok((board, text))) => {
            suggest.clear();
            let id = jobs.set_board(board, text);
            Json(serde_json::json!({ "id": id })).into_response()
        }
        Ok(Err(e)) => error(StatusCode::BAD_REQUEST, e.to_string()),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "validation stopped"),
    }
}

#[derive(Deserialize)]
struct VariantQuery {
    /// The budget to prove first (the page's selected one).
    cars: Option<u32>,
}

async fn set_variant(
    State(jobs): State<Arc<Jobs>>,
    Query(query): Query<VariantQuery>,
    body: String,
) -> Response {
    if let Some(c) = query.cars {
        if !crate::board::input::CARS.contains(&c) {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "cars must be from 1 to {}, got {c}",
                    crate::board::input::CARS.end()
                ),
            );
        }
    }
    let answer = tokio::task::spawn_blocking(move || jobs.set_variant(&body, query.cars)).await;
    match answer {
        Ok(Ok(id)) => (StatusCode::ACCEPTED, Json(serde_json::json!({ "id": id }))).into_response(),
        Ok(Err(refused)) => error(StatusCode::BAD_REQUEST, refused.0),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the scenario stopped"),
    }
}

async fn clear_variant(State(jobs): State<Arc<Jobs>>) -> Response {
    jobs.clear_variant();
    StatusCode::NO_CONTENT.into_response()
}

#[derive(Deserialize)]
struct SuggestQuery {
    /// The longest the search may take, in seconds.
    seconds: Option<f64>,
}

async fn start_suggest(
    State(jobs): State<Arc<Jobs>>,
    State(suggest): State<Arc<Suggester>>,
    Query(query): Query<SuggestQuery>,
) -> Response {
    let seconds = query.seconds.unwrap_or(120.0);
    if !(seconds.is_finite() && (1.0..=MAX_SECONDS).contains(&seconds)) {
        return error(
            StatusCode::BAD_REQUEST,
            format!("seconds must be from 1 to {MAX_SECONDS}, got {seconds}"),
        );
    }
    let (board, text, run) = jobs.base();
    let id = suggest.start(board, text, run, seconds);
    (StatusCode::ACCEPTED, Json(serde_json::json!({ "id": id }))).into_response()
}

async fn suggestion(State(suggest): State<Arc<Suggester>>) -> Response {
    Json(suggest.status()).into_response()
}
