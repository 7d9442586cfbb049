//! The HTTP side: the page, the WebSocket handshake, the three account
//! calls that set the session cookie, and the boards.
//!
//! Every handshake and `POST` is checked against the browser's `Origin`
//! ([`origin_allowed`]); the cookie is `HttpOnly`, `SameSite=Strict`, and
//! `Secure` when the page was reached over TLS.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Notify;

use super::accounts;
use super::hub::{Caller, SESSION_IDLE};
use super::journal::Outbox;
use super::protocol::{self, description as d, MAX_MESSAGE};
use super::Server;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/play.js");
const STYLE: &str = include_str!("assets/play.css");
const MAP: &str = crate::output::board_view::MAP_JS;

/// The cookie holding the session token.
pub const COOKIE: &str = "ttr_session";
/// Its name when served over TLS (the `__Host-` prefix pins it to this
/// host, path `/` and `Secure`).
pub const SECURE_COOKIE: &str = "__Host-ttr_session";

/// The largest board file uploaded.
pub const MAX_UPLOAD: usize = 2 << 20;

/// Messages a connection may send a second, and in a burst.
const RATE: u32 = 40;
const BURST: u32 = 80;
/// A connection that answers no ping for this long is closed.
const PING: Duration = Duration::from_secs(30);
/// Messages queued for a connection before it is closed as not reading
/// (its bytes are bounded too: [`super::journal::MAX_QUEUED_BYTES`]).
const QUEUE: usize = 4096;
/// The longest one message may take to be written: a client that reads
/// nothing for this long is dropped.
const WRITE_LIMIT: Duration = Duration::from_secs(30);

/// The server's routes.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route(
            "/play.js",
            get(|| async { page("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/play.css",
            get(|| async { page("text/css; charset=utf-8", STYLE) }),
        )
        .route(
            "/map.js",
            get(|| async { page("text/javascript; charset=utf-8", MAP) }),
        )
        .route("/ws", get(socket))
        .route(
            "/api/login",
            post(login).layer(DefaultBodyLimit::max(MAX_MESSAGE)),
        )
        .route(
            "/api/register",
            post(register).layer(DefaultBodyLimit::max(MAX_MESSAGE)),
        )
        .route(
            "/api/logout",
            post(logout).layer(DefaultBodyLimit::max(MAX_MESSAGE)),
        )
        .route(
            "/api/boards",
            get(boards)
                .post(upload)
                .layer(DefaultBodyLimit::max(MAX_UPLOAD)),
        )
        .route("/api/games/{id}/board", get(game_board))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                Json(json!({ "description": "no such page" })),
            )
        })
        .layer(axum::middleware::map_response(security_headers))
        .with_state(server)
}

/// The page's content policy: its own scripts, styles and WebSocket
/// only, nothing inline but styles (the map sets some), no plugin, never
/// in another site's frame.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// On every answer: a page that runs only its own code (an injected
/// script would not run), that no other site may frame (clickjacking),
/// whose files are read as the type they say, and whose address is not
/// sent to other sites.
async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    response
}

fn page(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// Whether a request's `Origin` may act here: none (not a browser), one of
/// `allowed`, or the address the browser reached us at (`Host`) when that
/// is an IP address or `localhost`. A domain name is never accepted from
/// `Host` alone: a page on a rebound domain would pass.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().trim_end_matches('/');
    if allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !matches!(scheme, "http" | "https") || !authority.eq_ignore_ascii_case(host) {
        return false;
    }
    let name = if let Some(rest) = authority.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok()
}

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        Json(json!({ "description": "this page's origin may not use the server" })),
    )
        .into_response()
}

/// Whether the browser reached the page over TLS (directly or through a
/// proxy that says so).
fn over_tls(headers: &HeaderMap) -> bool {
    let proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|o| o.starts_with("https://"));
    proto || origin
}

/// The session token's hash from the request's cookie, if any.
fn cookie_session(headers: &HeaderMap) -> Option<[u8; 32]> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == COOKIE || c.name() == SECURE_COOKIE)
        .map(|c| accounts::token_hash(c.value()))
}

fn session_cookie(token: &str, secure: bool, max_age: i64) -> String {
    let name = if secure { SECURE_COOKIE } else { COOKIE };
    cookie::Cookie::build((name, token.to_string()))
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .path("/")
        .max_age(cookie::time::Duration::seconds(max_age))
        .build()
        .to_string()
}

/// The client's address: the peer's, or, when the peer is this machine
/// (the proxy in front that the hosting guide sets up), the address that
/// proxy appended to `X-Forwarded-For` (the last one: those before it
/// are the client's own word).
pub fn client_address(peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    let ip = peer.ip();
    if !ip.is_loopback() {
        return ip;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .next_back()
        .and_then(|v| v.rsplit(',').next())
        .and_then(|a| a.trim().parse::<IpAddr>().ok())
        .unwrap_or(ip)
}

/// A WebSocket's read buffer, in bytes. tungstenite's default is 128 KiB,
/// and it zeroes the buffer's free part before each read of the socket:
/// under load that memset was 9 % of the server's CPU, and 2,000
/// connections held 250 MB of buffers. Requests are small (the largest
/// allowed is [`MAX_MESSAGE`]; a longer frame grows the buffer as it needs).
const READ_BUFFER: usize = 4 << 10;

async fn socket(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &server.origins) {
        return forbidden();
    }
    let session = cookie_session(&headers);
    let address = client_address(peer, &headers);
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| connection(server, socket, session, address))
}

/// One WebSocket, from the handshake to its close: requests in, queued
/// messages out, pings to find a dead peer.
async fn connection(
    server: Arc<Server>,
    socket: WebSocket,
    session: Option<[u8; 32]>,
    address: IpAddr,
) {
    let (mut sink, mut stream) = socket.split();
    let (queue, mut outgoing) = tokio::sync::mpsc::channel::<String>(QUEUE);
    let close = Arc::new(Notify::new());
    let outbox = Outbox::new(queue, close.clone());
    let conn = server.hub().connect(outbox.clone(), session, Some(address));
    let Some(conn) = conn else {
        let frame = CloseFrame {
            code: 1008,
            reason: "too many connections from your address".into(),
        };
        let _ = sink.send(Message::Close(Some(frame))).await;
        return;
    };
    let limiter = RateLimiter::direct(
        Quota::per_second(std::num::NonZeroU32::new(RATE).expect("not zero"))
            .allow_burst(std::num::NonZeroU32::new(BURST).expect("not zero")),
    );
    let mut ping = tokio::time::interval(PING);
    ping.tick().await;
    let mut alive = true;
    loop {
        tokio::select! {
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if limiter.check().is_err() {
                        // Answered all the same (with its id), so that a
                        // client waiting for it learns to slow down.
                        let (command, id) = protocol::Request::salvage(text.as_str());
                        server.hub().answer(conn, command.as_deref(), id.as_ref(), d::TOO_MANY_MESSAGES);
                    } else {
                        server.handle(conn, text.as_str()).await;
                    }
                }
                Some(Ok(Message::Binary(_))) => server.hub().answer(conn, None, None, d::INVALID_INPUT),
                Some(Ok(Message::Pong(_))) => alive = true,
                Some(Ok(Message::Ping(_))) => {}
                Some(Ok(Message::Close(_))) | None => break,
                Some(Err(_)) => {
                    // Above the size limit, or broken: say so and close.
                    let frame = CloseFrame { code: 1009, reason: "message too big or malformed".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            },
            out = outgoing.recv() => match out {
                // An empty message asks to close (a logout).
                Some(text) if text.is_empty() => {
                    let _ = sink.send(Message::Close(Some(CloseFrame { code: 1000, reason: "logged out".into() }))).await;
                    break;
                }
                Some(text) => {
                    // The messages queued with it go in the same write: one
                    // system call for a move's several messages, instead of
                    // one each (7 % of the server's CPU under load).
                    let (batch, logout) = queued_with(text, &mut outgoing);
                    // A client that stops reading stalls this write: the
                    // bell (its queue over the cap) or the time limit ends
                    // it, so that its queue is freed with it.
                    let write = async {
                        for text in batch {
                            outbox.taken(&text);
                            sink.feed(Message::Text(text.into())).await?;
                        }
                        sink.flush().await
                    };
                    let sent = tokio::select! {
                        sent = write => sent.is_ok(),
                        () = close.notified() => false,
                        () = tokio::time::sleep(WRITE_LIMIT) => false,
                    };
                    if !sent {
                        break;
                    }
                    if logout {
                        let _ = sink.send(Message::Close(Some(CloseFrame { code: 1000, reason: "logged out".into() }))).await;
                        break;
                    }
                }
                None => break,
            },
            () = close.notified() => {
                let _ = sink.send(Message::Close(Some(CloseFrame { code: 1008, reason: "too slow to read".into() }))).await;
                break;
            }
            _ = ping.tick() => {
                if !alive || sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
                alive = false;
            }
        }
    }
    server.hub().disconnect(conn);
}

/// The most messages written at once (one flush).
const WRITE_BATCH: usize = 32;

/// `first` and the messages queued after it, up to [`WRITE_BATCH`], and
/// whether an empty one (a logout: close after them) came among them.
fn queued_with(
    first: String,
    outgoing: &mut tokio::sync::mpsc::Receiver<String>,
) -> (Vec<String>, bool) {
    let mut batch = vec![first];
    while batch.len() < WRITE_BATCH {
        match outgoing.try_recv() {
            Ok(text) if text.is_empty() => return (batch, true),
            Ok(text) => batch.push(text),
            Err(_) => break,
        }
    }
    (batch, false)
}

/// 003's answer as an HTTP response, with the cookie when one is set.
fn answered(output: Value, cookie: Option<String>) -> Response {
    let mut response = Json(output).into_response();
    if let Some(c) = cookie.and_then(|c| c.parse().ok()) {
        response.headers_mut().insert(header::SET_COOKIE, c);
    }
    response
}

fn invalid() -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(protocol::described(d::INVALID_INPUT)),
    )
        .into_response()
}

/// The caller's valid session, from the cookie.
fn caller(server: &Server, headers: &HeaderMap) -> Option<[u8; 32]> {
    cookie_session(headers).filter(|s| server.hub().user_of_session(*s).is_some())
}

async fn login(
    State(server): State<Arc<Server>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !origin_allowed(&headers, &server.origins) {
        return forbidden();
    }
    let Ok(p) = serde_json::from_slice::<protocol::Credentials>(&body) else {
        return invalid();
    };
    let who = Caller::Http(caller(&server, &headers));
    let address = Some(client_address(peer, &headers));
    let outcome = server
        .login(who, None, (&p.username, &p.password), address)
        .await;
    let cookie = outcome
        .token
        .map(|t| session_cookie(&t, over_tls(&headers), SESSION_IDLE));
    answered(outcome.output, cookie)
}

async fn register(State(server): State<Arc<Server>>, headers: HeaderMap, body: Bytes) -> Response {
    if !origin_allowed(&headers, &server.origins) {
        return forbidden();
    }
    let Ok(p) = serde_json::from_slice::<protocol::Credentials>(&body) else {
        return invalid();
    };
    let who = Caller::Http(caller(&server, &headers));
    let outcome = server
        .register(who, None, &p.username, &p.password, p.email.as_deref())
        .await;
    let cookie = outcome
        .token
        .map(|t| session_cookie(&t, over_tls(&headers), SESSION_IDLE));
    answered(outcome.output, cookie)
}

async fn logout(State(server): State<Arc<Server>>, headers: HeaderMap) -> Response {
    if !origin_allowed(&headers, &server.origins) {
        return forbidden();
    }
    let done = server.hub().logout_http(cookie_session(&headers));
    let _ = done.await;
    // The cookie is cleared too (the session is already ended).
    answered(
        protocol::described(d::SUCCESS),
        Some(session_cookie("", over_tls(&headers), 0)),
    )
}

async fn boards(State(server): State<Arc<Server>>) -> Response {
    Json(server.hub().boards()).into_response()
}

#[derive(Deserialize)]
struct UploadQuery {
    name: Option<String>,
}

async fn upload(
    State(server): State<Arc<Server>>,
    headers: HeaderMap,
    Query(query): Query<UploadQuery>,
    body: String,
) -> Response {
    if !origin_allowed(&headers, &server.origins) {
        return forbidden();
    }
    let Some(user) = cookie_session(&headers).and_then(|s| server.hub().user_of_session(s)) else {
        return (
            StatusCode::UNAUTHORIZED,
            Json(protocol::described(d::NOT_LOGGED_IN)),
        )
            .into_response();
    };
    // The quota and the rate before the validation's work.
    let allowed = server.hub().upload_allowed(user, body.len());
    if let Err(out) = allowed {
        return Json(out).into_response();
    }
    let name = query.name.unwrap_or_default();
    // Validating a large board takes a moment: not on the async threads,
    // and not under the lock.
    let checked = tokio::task::spawn_blocking(move || {
        crate::board::Board::from_json(&body, &name).map(|_| (body, name))
    })
    .await;
    match checked {
        Ok(Ok((body, name))) => {
            let (out, done) = server.hub().upload(user, &name, body);
            let _ = done.await;
            Json(out).into_response()
        }
        Ok(Err(e)) => Json(json!({ "description": d::INVALID_INPUT, "reason": e.to_string() }))
            .into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(protocol::described(d::SERVER_ERROR)),
        )
            .into_response(),
    }
}

/// A game's board, for its players only: anyone else (and a game that
/// does not exist) gets the same 404, so the answer tells no one which
/// games exist.
async fn game_board(
    State(server): State<Arc<Server>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    let Some(user) = cookie_session(&headers).and_then(|s| server.hub().user_of_session(s)) else {
        return (
            StatusCode::UNAUTHORIZED,
            Json(protocol::described(d::NOT_LOGGED_IN)),
        )
            .into_response();
    };
    let view = server.hub().board_view(id, user);
    match view {
        Some(view) => ([(header::CONTENT_TYPE, "application/json")], view).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(protocol::described(d::NO_SUCH_GAME)),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins() {
        let none: Vec<String> = Vec::new();
        assert!(origin_allowed(&headers(None, "127.0.0.1:8046"), &none));
        assert!(origin_allowed(
            &headers(Some("http://127.0.0.1:8046"), "127.0.0.1:8046"),
            &none
        ));
        assert!(origin_allowed(
            &headers(Some("http://localhost:8046"), "localhost:8046"),
            &none
        ));
        assert!(origin_allowed(
            &headers(Some("http://[::1]:8046"), "[::1]:8046"),
            &none
        ));
        assert!(origin_allowed(
            &headers(Some("http://192.168.1.5:8046"), "192.168.1.5:8046"),
            &none
        ));
        // Another site, another port, a rebound domain, "null".
        assert!(!origin_allowed(
            &headers(Some("http://evil.example"), "127.0.0.1:8046"),
            &none
        ));
        assert!(!origin_allowed(
            &headers(Some("http://127.0.0.1:9999"), "127.0.0.1:8046"),
            &none
        ));
        assert!(!origin_allowed(
            &headers(Some("http://rebound.example:8046"), "rebound.example:8046"),
            &none
        ));
        assert!(!origin_allowed(
            &headers(Some("null"), "127.0.0.1:8046"),
            &none
        ));
        let listed = vec!["https://ttr.example.org".to_string()];
        assert!(origin_allowed(
            &headers(Some("https://ttr.example.org"), "127.0.0.1:8046"),
            &listed
        ));
    }

    #[test]
    fn cookies() {
        let c = session_cookie("abc", false, 60);
        assert!(c.starts_with("ttr_session=abc"), "{c}");
        for part in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=60"] {
            assert!(c.contains(part), "{c}");
        }
        assert!(!c.contains("Secure"));
        let s = session_cookie("abc", true, 60);
        assert!(
            s.starts_with("__Host-ttr_session=abc") && s.contains("Secure"),
            "{s}"
        );
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "a=1; ttr_session=abc".parse().unwrap());
        assert_eq!(cookie_session(&h), Some(accounts::token_hash("abc")));
    }
}
