//! `ttr-opt play`: the online game of seed 003 on any board. Accounts, a
//! lobby, real-time play over a WebSocket with the rules enforced by the
//! server ([`crate::game::rules`]), bots ([`crate::game::players`]), and
//! every game kept in an embedded SQLite file so that a crash loses no
//! acknowledged move. The protocol is documented in `docs/play.md`.
//!
//! - [`protocol`]: the wire format and each command's parameters;
//! - [`hub`]: the state (users, sessions, connections, tables) and every
//!   command;
//! - [`table`]: one game: seats, the rules engine's game, moves, history;
//! - [`view`]: what each player may see (the only reader of secrets that
//!   sends anything);
//! - [`coach`]: the coach's plan and the review after the end, computed
//!   on a thread of their own;
//! - [`accounts`]: registration rules, Argon2id hashes, session tokens,
//!   login throttling;
//! - [`journal`]: commit, then tell: the path of every change to disk and
//!   to the players;
//! - [`store`]: the store's interface and its SQLite implementation;
//! - [`http`]: the page, the WebSocket handshake, the cookie, the boards;
//! - [`load`]: the load benchmark (`ttr-opt bench --play`).

pub mod accounts;
pub mod coach;
pub mod http;
pub mod hub;
pub mod journal;
pub mod load;
pub mod protocol;
pub mod store;
pub mod table;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};

use hub::{Caller, ConnId, Hub, LoginOutcome, Offer};
use journal::{Batch, Journal};
use protocol::{description as d, Request};
use store::{GameId, Sqlite, Store};

use crate::game::rules::Action;

/// Password hashes computed at once (one a core).
const HASHES_AT_ONCE: usize = 2;

/// The default database file, in a folder git ignores.
pub const DEFAULT_DB: &str = "play-data/ttr-opt.db";

/// How a server is set up.
pub struct Config {
    /// The database file.
    pub db: PathBuf,
    /// The boards offered, the default first.
    pub boards: Vec<Offer>,
    /// Origins allowed besides the server's own address (a proxy's
    /// public address).
    pub origins: Vec<String>,
    /// A bot's pause before each move.
    pub bot_delay: Duration,
    /// Deal game `g` from seed `seed + g` instead of at random: for tests
    /// and benchmarks only (whoever knows it knows the deck).
    pub seed: Option<u64>,
    /// The coach's time limit for one answer, and the review's for each of
    /// its plans, in seconds.
    pub coach_limit: f64,
}

impl Config {
    /// The shipped boards, after `extra` (the first is the default).
    pub fn offers(extra: Vec<Offer>) -> Vec<Offer> {
        let mut offers = extra;
        for (key, json) in crate::board::SHIPPED {
            if !offers.iter().any(|o| o.key == key) {
                offers.push(Offer {
                    key: key.to_string(),
                    json: json.to_string(),
                    file: format!("data/{key}.json (built in)"),
                });
            }
        }
        offers
    }
}

/// A running server's shared state.
pub struct Server {
    hub: Mutex<Hub>,
    /// The threads that hash passwords, one a core. Each hash takes 19 MiB:
    /// a burst of logins queues here rather than taking the memory of
    /// hundreds, and the allocator keeps at most one such block a thread
    /// (on Tokio's many blocking threads, 40 logins left 650 MB behind).
    hashing: rayon::ThreadPool,
    /// Origins allowed besides the server's own address.
    pub origins: Vec<String>,
    bot_delay: Duration,
    /// The coach's thread: plans for `getCoach` and `getReview`.
    coaching: rayon::ThreadPool,
    /// Requests on it, running or waiting.
    coach_queue: std::sync::atomic::AtomicUsize,
    coach_limit: f64,
}

impl Server {
    /// Opens the store and rebuilds every game. Returns the server and a
    /// note for each game that could not be rebuilt.
    pub fn open(config: Config) -> Result<(Arc<Server>, Vec<String>), String> {
        return_large_blocks();
        let mut store = Sqlite::open(&config.db).map_err(|e| e.to_string())?;
        let snapshot = store.load().map_err(|e| e.to_string())?;
        let saves = config
            .db
            .parent()
            .map_or_else(|| PathBuf::from("saves"), |d| d.join("saves"));
        let mut loaded = Hub::load(
            snapshot,
            config.boards,
            Journal::start(Box::new(store)),
            saves,
        )?;
        loaded.hub.seed = config.seed;
        let hashing = rayon::ThreadPoolBuilder::new()
            .num_threads(HASHES_AT_ONCE)
            .thread_name(|i| format!("ttr-play-hash-{i}"))
            .build()
            .map_err(|e| format!("cannot start the hashing threads: {e}"))?;
        let coaching = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "ttr-play-coach".to_string())
            .build()
            .map_err(|e| format!("cannot start the coach's thread: {e}"))?;
        let server = Arc::new(Server {
            hub: Mutex::new(loaded.hub),
            hashing,
            origins: config.origins,
            bot_delay: config.bot_delay,
            coaching,
            coach_queue: Default::default(),
            coach_limit: config.coach_limit,
        });
        Ok((server, loaded.warnings))
    }

    /// The state, locked. Never held across an await.
    pub fn hub(&self) -> MutexGuard<'_, Hub> {
        // A panic while holding the lock leaves no half-made change behind
        // that matters: every change is journalled before the lock is let go.
        self.hub.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the bots that are to move (after a restart).
    pub fn wake_bots(self: &Arc<Self>) {
        let games = self.hub().games_with_bots_to_move();
        for g in games {
            self.schedule_bot(g);
        }
    }

    /// One text frame from connection `conn`.
    pub async fn handle(self: &Arc<Self>, conn: ConnId, text: &str) {
        let Some(req) = Request::parse(text) else {
            let (command, id) = Request::salvage(text);
            self.hub()
                .answer(conn, command.as_deref(), id.as_ref(), d::INVALID_INPUT);
            return;
        };
        let id = req.id.as_ref();
        match req.command.as_str() {
            "login" | "register" => {
                let Some(p) = req.params::<protocol::Credentials>() else {
                    self.hub()
                        .answer(conn, Some(&req.command), id, d::INVALID_INPUT);
                    return;
                };
                if req.command == "login" {
                    self.login(Caller::Conn(conn), id, &p.username, &p.password)
                        .await;
                } else {
                    self.register(
                        Caller::Conn(conn),
                        id,
                        &p.username,
                        &p.password,
                        p.email.as_deref(),
                    )
                    .await;
                }
            }
            "getCoach" => self.coach(conn, &req).await,
            "getReview" => self.review(conn, &req).await,
            "saveGameState" => {
                let file = self.hub().command(conn, &req);
                if let Some(file) = file {
                    // Written before the answer is: the answer names it.
                    let written = tokio::task::spawn_blocking(move || {
                        std::fs::create_dir_all(file.path.parent().unwrap_or(&file.path))
                            .and_then(|()| std::fs::write(&file.board_path, &file.board_text))
                            .and_then(|()| std::fs::write(&file.path, &file.text))
                            .map(|()| file.path)
                    })
                    .await;
                    let out = match written {
                        Ok(Ok(path)) => {
                            json!({ "description": d::SUCCESS, "path": path.display().to_string() })
                        }
                        Ok(Err(e)) => {
                            eprintln!("ttr-opt play: cannot save a game: {e}");
                            protocol::described(d::SERVER_ERROR)
                        }
                        Err(_) => protocol::described(d::SERVER_ERROR),
                    };
                    self.hub().reply(conn, "saveGameState", id, out);
                }
            }
            _ => {
                let touched = {
                    let mut hub = self.hub();
                    hub.command(conn, &req);
                    req.parameters.get("gameId").and_then(Value::as_i64)
                };
                if let Some(g) = touched {
                    self.schedule_bot(g);
                }
                if req.command == "loadGameState" {
                    self.wake_bots();
                }
            }
        }
    }

    /// A login: checked under the lock, the password verified outside it.
    pub async fn login(
        self: &Arc<Self>,
        caller: Caller,
        id: Option<&Value>,
        username: &str,
        password: &str,
    ) -> LoginOutcome {
        let check = self.hub().begin_login(caller, username);
        let check = match check {
            Ok(c) => c,
            Err(out) => return self.refuse(caller, "login", id, out),
        };
        let (hash, password) = (check.hash.clone(), password.to_string());
        let verified = self
            .hash(move || {
                let ok = accounts::verify_password(&password, &hash);
                let rehash = (ok && accounts::needs_rehash(&hash))
                    .then(|| accounts::hash_password(&password).ok())
                    .flatten();
                (ok, rehash)
            })
            .await;
        let (ok, rehash) = verified.unwrap_or((false, None));
        let (outcome, done) = self
            .hub()
            .finish_login(caller, id, username, check, ok, rehash);
        let _ = done.await;
        outcome
    }

    /// A registration: the rules under the lock, the hashing outside it.
    pub async fn register(
        self: &Arc<Self>,
        caller: Caller,
        id: Option<&Value>,
        username: &str,
        password: &str,
        email: Option<&str>,
    ) -> LoginOutcome {
        let check = self.hub().begin_register(caller, username, password, email);
        let check = match check {
            Ok(c) => c,
            Err(out) => return self.refuse(caller, "register", id, out),
        };
        let password = password.to_string();
        let hash = self
            .hash(move || accounts::hash_password(&password))
            .await
            .unwrap_or_else(|| Err("the hashing thread stopped".into()));
        let (outcome, done) = self.hub().finish_register(caller, id, check, hash);
        let _ = done.await;
        outcome
    }

    /// Runs `work` (password hashing) on the hashing threads.
    async fn hash<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        on_pool(&self.hashing, work).await
    }

    fn refuse(
        &self,
        caller: Caller,
        command: &str,
        id: Option<&Value>,
        out: Value,
    ) -> LoginOutcome {
        if let Caller::Conn(conn) = caller {
            self.hub().reply(conn, command, id, out.clone());
        }
        LoginOutcome {
            output: out,
            token: None,
        }
    }

    /// Schedules the move of the bot to move in `game`, if any and none is
    /// scheduled: after the pause, it decides on a copy of the game away
    /// from the lock, then plays through the same path as a person.
    pub fn schedule_bot(self: &Arc<Self>, game: GameId) {
        {
            let mut hub = self.hub();
            let Some(t) = hub.table_mut(game) else { return };
            if t.bot_pending || t.bot_to_move().is_none() {
                return;
            }
            t.bot_pending = true;
        }
        let server = self.clone();
        tokio::spawn(async move { server.bot_turn(game).await });
    }

    async fn bot_turn(self: Arc<Self>, game: GameId) {
        tokio::time::sleep(self.bot_delay).await;
        let lent = {
            let mut hub = self.hub();
            let Some(t) = hub.table_mut(game) else { return };
            match t.bot_to_move() {
                Some(seat) => t.lend_bot(seat).map(|l| (seat, l, t.moves.len())),
                None => None,
            }
        };
        let Some((seat, (mut strategy, copy, mut rng), at)) = lent else {
            if let Some(t) = self.hub().table_mut(game) {
                t.bot_pending = false;
            }
            return;
        };
        let decided = tokio::task::spawn_blocking(move || {
            let action = strategy.decide(&copy, seat, &mut rng);
            (strategy, rng, action, copy)
        })
        .await;
        let Ok((strategy, rng, action, copy)) = decided else {
            eprintln!("ttr-opt play: a bot of game {game} failed to decide");
            return;
        };
        {
            let mut hub = self.hub();
            let Some(t) = hub.table_mut(game) else { return };
            t.return_bot(seat, strategy, rng);
            t.bot_pending = false;
            if t.moves.len() == at {
                let mut batch = Batch::default();
                if let Err(e) = hub.play(&mut batch, game, seat, &action, None) {
                    // A strategy's mistake must not stop the game: the
                    // simplest legal move instead (keep every ticket
                    // offered, or the first legal move).
                    let fallback = match copy.offer(seat) {
                        Some((offered, _)) => Some(Action::KeepTickets(offered.to_vec())),
                        None => copy.legal().into_iter().next(),
                    };
                    let played = fallback
                        .is_some_and(|f| hub.play(&mut batch, game, seat, &f, None).is_ok());
                    eprintln!(
                        "ttr-opt play: game {game}: a bot's move {action:?} was refused ({e}); {}",
                        if played {
                            "it made the simplest legal move instead"
                        } else {
                            "it is stuck"
                        }
                    );
                    if !played {
                        hub.commit_batch(batch);
                        return;
                    }
                }
                hub.commit_batch(batch);
            }
        }
        self.schedule_bot(game);
    }
}

/// Runs `work` on `pool` and waits for it without holding a Tokio thread;
/// `None` if the work panicked.
async fn on_pool<T: Send + 'static>(
    pool: &rayon::ThreadPool,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (done, result) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        let _ = done.send(work());
    });
    result.await.ok()
}

/// Makes the allocator give every block of 1 MiB or more back to the
/// system when it is freed. glibc otherwise keeps the 19 MiB of each
/// password hash once it has seen a few (its mmap threshold grows to 32
/// MiB): 40 registrations left the server at 360 MB instead of 60.
fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(
                param: std::os::raw::c_int,
                value: std::os::raw::c_int,
            ) -> std::os::raw::c_int;
        }
        /// glibc's `M_MMAP_THRESHOLD`; setting it also stops its growth.
        const M_MMAP_THRESHOLD: std::os::raw::c_int = -3;
        // SAFETY: mallopt only changes the allocator's tuning; it takes no
        // pointers, and this threshold is valid at any time.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}

/// Runs the server on `addr` until Ctrl-C, calling `ready` with the address
/// it listens on and the notes on games that could not be rebuilt.
pub fn serve(
    config: Config,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr, &[String]),
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let (server, warnings) = Server::open(config)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let at = listener.local_addr().map_err(|e| e.to_string())?;
        ready(at, &warnings);
        server.wake_bots();
        axum::serve(listener, http::router(server.clone()))
            .with_graceful_shutdown(async {
                while !crate::solve::limits::interrupted() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
            .await
            .map_err(|e| e.to_string())?;
        server.hub().stop();
        Ok(())
    })
}

/// Starts a server on `addr` inside the current Tokio runtime (for tests
/// and benchmarks): the address it listens on, and the server.
pub async fn spawn(config: Config, addr: SocketAddr) -> Result<(SocketAddr, Arc<Server>), String> {
    let (server, warnings) = Server::open(config)?;
    for w in warnings {
        eprintln!("ttr-opt play: {w}");
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let at = listener.local_addr().map_err(|e| e.to_string())?;
    server.wake_bots();
    let app = http::router(server.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((at, server))
}
