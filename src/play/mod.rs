//! `ttr-opt play`: the online game on any board. Accounts, a
//! lobby, real-time play over a WebSocket with the rules enforced by the
//! server ([`crate::engine::rules`]), bots ([`crate::bots`]), and
//! every game kept in an embedded SQLite file so that a crash loses no
//! acknowledged move. The protocol is documented in `docs/play.md`.
//!
//! - [`protocol`]: the wire format, every command typed ([`protocol::Command`])
//!   with its parameters;
//! - [`hub`]: the state in parts, and each command routed to its part:
//!   [`sessions`] (users, sessions, logins), [`conns`] (the connections and
//!   whom a message goes to), [`lobby`] (the boards offered, the lists of
//!   games, a game before its start), [`tables`] (every game: deals, chat,
//!   moves, the coach's inputs), [`saves`] (saved games); `moves`: a move
//!   command read into the rules engine's action, a refusal told in the
//!   protocol's words;
//! - [`table`]: one game: seats, the rules engine's game, moves, history;
//! - [`timer`]: turn limits, deadlines and the bot that plays for a
//!   person whose time is up or who left;
//! - [`view`]: what each player may see, as typed structs (the only
//!   reader of secrets that sends anything); [`changes`]: what each view
//!   was last pushed and the changes since, compared field by field
//!   (`delta`);
//! - [`coach`]: the coach's plan and the review after the end, computed
//!   on a thread of their own;
//! - [`replay`]: a finished game move by move (`getReplay`), public
//!   information only;
//! - [`shelf`]: finished games out of memory once unused, their listings
//!   kept, each read back from the store when a command names it;
//! - [`accounts`]: registration rules, Argon2id hashes, session tokens,
//!   login throttling;
//! - [`journal`]: commit, then tell: the path of every change to disk and
//!   to the players;
//! - [`store`]: the store's interface and its SQLite implementation;
//! - [`http`]: the page, the WebSocket handshake, the cookie, the boards;
//! - [`load`]: the load benchmark (`ttr-opt bench --play`).

pub mod accounts;
pub mod changes;
pub mod coach;
pub mod conns;
mod delta;
pub mod http;
pub mod hub;
pub mod journal;
pub mod ladder;
pub mod load;
pub mod lobby;
mod moves;
pub mod protocol;
pub mod ratings;
pub mod replay;
pub mod saves;
pub mod sessions;
pub mod shelf;
pub mod store;
pub mod table;
pub mod tables;
pub mod timer;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};

use hub::{Caller, ConnId, Hub, LoginOutcome, Offer};
use journal::{Batch, Journal};
use protocol::{description as d, Command, Name, Request};
use store::{GameId, Sqlite, Store};

use crate::engine::rules::Action;

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
    /// The shortest real-time turn a game may ask for, in seconds
    /// ([`timer::MIN_TURN_SECS`]; tests lower it to play timeouts fast).
    pub min_turn_secs: u32,
    /// How long a finished game stays in memory once unused
    /// ([`shelf::SHELVE_AFTER`]; tests shorten it).
    pub shelve_after: Duration,
    /// The most finished games kept in memory at once
    /// ([`shelf::MAX_FINISHED_AWAKE`]; tests lower it).
    pub finished_in_memory: usize,
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
        let reader = store.reader().map_err(|e| e.to_string())?;
        let saves = config
            .db
            .parent()
            .map_or_else(|| PathBuf::from("saves"), |d| d.join("saves"));
        let loaded = Hub::load(
            snapshot,
            config.boards,
            (Journal::start(Box::new(store)), Box::new(reader)),
            (saves, config.seed),
        )?;
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
        let mut hub = loaded.hub;
        hub.set_min_turn_secs(config.min_turn_secs);
        hub.set_shelve_after(config.shelve_after);
        hub.set_finished_cap(config.finished_in_memory);
        let server = Arc::new(Server {
            hub: Mutex::new(hub),
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

    /// Starts the server's one clock: a task that, each [`timer::TICK`],
    /// hands every game whose turn's time is up to the bot path, which
    /// plays for the people who did not move. It stops with the runtime.
    pub fn start_clock(self: &Arc<Self>) {
        let server = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(timer::TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(server) = server.upgrade() else {
                    return;
                };
                let due = server.hub().clock_tick(timer::now_ms());
                for g in due {
                    server.schedule_bot(g);
                }
            }
        });
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
        let Some(name) = Name::parse(&req.command) else {
            let out = protocol::described(d::UNKNOWN_COMMAND);
            self.hub().reply(conn, &req.command, id, out);
            return;
        };
        match name {
            Name::Login | Name::Register => {
                let p = match Command::parse(name, &req) {
                    Ok(Command::Login(p) | Command::Register(p)) => p,
                    _ => {
                        self.hub()
                            .answer(conn, Some(name.as_str()), id, d::INVALID_INPUT);
                        return;
                    }
                };
                if name == Name::Login {
                    let address = self.hub().conn_address(conn);
                    self.login(Caller::Conn(conn), id, (&p.username, &p.password), address)
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
            // On a task of their own: the socket goes on reading (pings,
            // other commands) and pushing while the coach thinks.
            Name::GetCoach => {
                let server = self.clone();
                tokio::spawn(async move { server.coach(conn, &req).await });
            }
            Name::GetReview => {
                let server = self.clone();
                tokio::spawn(async move { server.review(conn, &req).await });
            }
            Name::SaveGameState => {
                let (_, file) = self.hub().command(conn, name, &req);
                if let Some(file) = file {
                    // Written before the answer is: the answer names it.
                    let written = tokio::task::spawn_blocking(move || {
                        std::fs::create_dir_all(file.path.parent().unwrap_or(&file.path))
                            .and_then(|()| saves::write_private(&file.board_path, &file.board_text))
                            .and_then(|()| saves::write_private(&file.path, &file.text))
                            .map(|()| file.path)
                    })
                    .await;
                    let out = match written {
                        // The name in the saves folder, as loadGameState
                        // takes it: never the server's own path.
                        Ok(Ok(path)) => {
                            let name = path
                                .file_name()
                                .map(|n| n.to_string_lossy().to_string())
                                .unwrap_or_default();
                            json!({ "description": d::SUCCESS, "path": name })
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
                let (command, _) = self.hub().command(conn, name, &req);
                if let Some(g) = command.as_ref().and_then(Command::game_id) {
                    self.schedule_bot(g);
                }
                if name == Name::LoadGameState {
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
        (username, password): (&str, &str),
        address: Option<std::net::IpAddr>,
    ) -> LoginOutcome {
        let check = self.hub().begin_login(caller, username, address);
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
                if let Err(e) = hub.play(&mut batch, game, seat, &action) {
                    // A strategy's mistake must not stop the game: the
                    // simplest legal move instead (keep every ticket
                    // offered, or the first legal move).
                    let fallback = match copy.offer(seat) {
                        Some((offered, _)) => Some(Action::KeepTickets(offered.to_vec())),
                        None => copy.legal().into_iter().next(),
                    };
                    let played =
                        fallback.is_some_and(|f| hub.play(&mut batch, game, seat, &f).is_ok());
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
        server.start_clock();
        let app = http::router(server.clone()).into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(listener, app)
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
    server.start_clock();
    let app = http::router(server.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((at, server))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::journal::Outbox;
    use tokio::sync::mpsc::Receiver;

    /// The output of the message answering request `id` (or, with `None`,
    /// the next message of `command`).
    async fn wait(queue: &mut Receiver<String>, command: &str, id: Option<u64>) -> Value {
        loop {
            let text = tokio::time::timeout(Duration::from_secs(120), queue.recv())
                .await
                .expect("the server answers")
                .expect("the connection is open");
            let m: Value = serde_json::from_str(&text).unwrap();
            let answers = id.is_none_or(|id| m["id"] == id);
            if m["command"] == command && answers {
                return m["output"].clone();
            }
        }
    }

    fn ask(command: &str, parameters: Value, id: u64) -> String {
        json!({ "command": command, "parameters": parameters, "id": id }).to_string()
    }

    /// `getCoach` runs on a task of its own: with the coach's thread held
    /// busy, the same connection's next command is still answered (before,
    /// the socket waited for the coach, and `handle` did not return).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_coach_does_not_block_its_own_socket() {
        let dir = std::env::temp_dir().join(format!("ttr-play-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (server, _) = Server::open(Config {
            db: dir.join("t.db"),
            boards: Config::offers(Vec::new()),
            origins: Vec::new(),
            bot_delay: Duration::from_secs(3600),
            seed: Some(5),
            coach_limit: 10.0,
            min_turn_secs: timer::MIN_TURN_SECS,
            shelve_after: shelf::SHELVE_AFTER,
            finished_in_memory: shelf::MAX_FINISHED_AWAKE,
        })
        .unwrap();
        let (queue, mut out) = tokio::sync::mpsc::channel(1024);
        let close = Arc::new(tokio::sync::Notify::new());
        let conn = server
            .hub()
            .connect(Outbox::new(queue, close), None, None)
            .unwrap();
        let credentials = json!({ "username": "coached", "password": "correct horse battery" });
        server.handle(conn, &ask("register", credentials, 1)).await;
        let registered = wait(&mut out, "register", Some(1)).await;
        assert_eq!(registered["description"], "success");
        let create = json!({ "gameName": "g", "color": "red", "coach": true });
        server.handle(conn, &ask("createGame", create, 2)).await;
        let g = wait(&mut out, "createGame", Some(2)).await["gameId"].clone();
        let bot = json!({ "gameId": g, "difficulty": "medium" });
        server.handle(conn, &ask("addAI", bot, 3)).await;
        server
            .handle(conn, &ask("startGame", json!({ "gameId": g }), 4))
            .await;
        wait(&mut out, "startGame", Some(4)).await;

        // Hold the coach's one thread until the model has been answered.
        let (release, held) = std::sync::mpsc::channel::<()>();
        server.coaching.spawn(move || {
            let _ = held.recv();
        });
        let coach = ask("getCoach", json!({ "gameId": g }), 5);
        tokio::time::timeout(Duration::from_secs(60), server.handle(conn, &coach))
            .await
            .expect("getCoach returns to the socket before the coach answers");
        let model = json!({ "gameId": g });
        server
            .handle(conn, &ask("sendClientModelInformation", model, 6))
            .await;
        let model = wait(&mut out, "sendClientModelInformation", Some(6)).await;
        assert_eq!(model["description"], "success", "{model}");
        release.send(()).unwrap();
        let coach = wait(&mut out, "getCoach", Some(5)).await;
        assert_eq!(coach["description"], "success", "{coach}");
        server.hub().stop();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
