//! The server's state and its commands: users, sessions, connections,
//! the boards offered and every table. Each command runs under one lock,
//! changes the state, and hands the writes and the messages it causes to
//! the [`Journal`] before the lock is released, so that changes are
//! committed, and told, in the order they were made.
//!
//! The slow parts run outside the lock: password hashing (the two halves
//! of a login or registration, [`Hub::begin_login`] and
//! [`Hub::finish_login`]) and a bot's thinking ([`super::Server`]).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

use crate::board::{Board, Colour};
use crate::game::rules::{Action, Illegal, RuleError};
use crate::game::state::GameState;

use super::accounts::{self, Throttle};
use super::journal::{Batch, Journal, Outbox};
use super::protocol::{self, description as d, message, Request};
use super::store::{
    BoardRecord, ChatRecord, GameId, GameRecord, MoveRecord, SessionRecord, Snapshot, UploadRecord,
    UserId, UserRecord, Write,
};
use super::table::{
    self, parse_colour, Difficulty, Phase, ReviewSlot, Seat, Table, TableBoard, Who, COLORS,
    MAX_SEATS,
};
use super::view;
use crate::game::saved::{Move, SavedChat, SavedGame, SavedSeat};

/// A connection's id.
pub type ConnId = u64;

/// A session lasts this long without use.
pub const SESSION_IDLE: i64 = 30 * 24 * 3600;
/// And at most this long in all.
pub const SESSION_MAX: i64 = 180 * 24 * 3600;

/// The longest game name, chat message and file name.
const MAX_NAME: usize = 60;
const MAX_CHAT: usize = 500;

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

struct Conn {
    outbox: Outbox,
    user: Option<UserId>,
    /// The session it was opened with or logged in to (none after a login
    /// over the WebSocket itself).
    session: Option<[u8; 32]>,
}

/// Who asks: a connection (a WebSocket) or an HTTP request with its cookie.
#[derive(Clone, Copy, Debug)]
pub enum Caller {
    /// A WebSocket connection.
    Conn(ConnId),
    /// An HTTP request, with the session of its cookie if valid.
    Http(Option<[u8; 32]>),
}

/// A login's first half: what to verify outside the lock.
pub struct LoginCheck {
    user: Option<UserId>,
    /// The stored hash (or a decoy for an unknown user).
    pub hash: String,
}

/// A registration's first half.
pub struct RegisterCheck {
    username: String,
    email: Option<String>,
}

/// The outcome of a login or registration: the answer, and for an HTTP
/// caller the new session's token for its cookie.
pub struct LoginOutcome {
    /// The command's output.
    pub output: Value,
    /// The token to set as the cookie.
    pub token: Option<String>,
}

/// The coach's input for one player: their own state and offer only.
pub struct CoachInput {
    /// The game.
    pub game: GameId,
    /// The player's seat.
    pub seat: usize,
    /// Its board.
    pub board: Arc<TableBoard>,
    /// The player's state: their cars, tracks and tickets, the others'
    /// claimed tracks.
    pub state: GameState,
    /// The player's ticket offer waiting, with how many to keep.
    pub offer: Option<(Vec<crate::board::TicketId>, usize)>,
}

/// What `getReview` found.
pub enum ReviewStart {
    /// The review, done before.
    Ready(Arc<Value>),
    /// Being computed: the answer comes when it is done.
    Waiting,
    /// To compute now: the game, its board and the whole game as saved.
    Compute(GameId, Arc<TableBoard>, SavedGame),
}

/// A saved game to write outside the lock.
pub struct SaveFile {
    /// The game file's path.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// The board file's path, beside it.
    pub board_path: PathBuf,
    /// The board's text.
    pub board_text: String,
}

/// The server's state.
pub struct Hub {
    users: HashMap<UserId, UserRecord>,
    by_name: HashMap<String, UserId>,
    emails: HashMap<String, UserId>,
    sessions: HashMap<[u8; 32], SessionRecord>,
    throttle: Throttle,
    /// The boards offered in the lobby, by key, in the order listed.
    offered: Vec<Arc<TableBoard>>,
    /// Every board a game uses or may use, by hash; and those stored.
    by_hash: HashMap<String, Arc<TableBoard>>,
    stored_boards: std::collections::HashSet<String>,
    uploads: Vec<UploadRecord>,
    tables: BTreeMap<GameId, Table>,
    conns: HashMap<ConnId, Conn>,
    next_conn: ConnId,
    journal: Journal,
    /// Where `saveGameState` writes.
    pub saves: PathBuf,
    /// Deals from this seed plus the game's id instead of at random (tests
    /// and benchmarks only: players who know it know the deck).
    pub seed: Option<u64>,
}

/// A board offered to the lobby: its key and file text.
pub struct Offer {
    /// The key clients name it by.
    pub key: String,
    /// The file's text.
    pub json: String,
    /// Where it came from, for messages.
    pub file: String,
}

/// Users, sessions and games read back, with a note for anything skipped.
pub struct Loaded {
    /// The state.
    pub hub: Hub,
    /// Games that could not be rebuilt, and why.
    pub warnings: Vec<String>,
}

fn board_entry(key: String, json: String, file: &str) -> Result<TableBoard, String> {
    let board = Board::from_json(&json, file).map_err(|e| e.to_string())?;
    let hash = accounts::text_hash(&json);
    Ok(TableBoard::new(key, hash, json, board))
}

impl Hub {
    /// The state from a store's snapshot, offering `offers` (the first is
    /// the default board) and the uploads stored.
    pub fn load(
        snapshot: Snapshot,
        offers: Vec<Offer>,
        journal: Journal,
        saves: PathBuf,
    ) -> Result<Loaded, String> {
        let mut hub = Hub {
            users: HashMap::new(),
            by_name: HashMap::new(),
            emails: HashMap::new(),
            sessions: HashMap::new(),
            throttle: Throttle::default(),
            offered: Vec::new(),
            by_hash: HashMap::new(),
            stored_boards: Default::default(),
            uploads: Vec::new(),
            tables: BTreeMap::new(),
            conns: HashMap::new(),
            next_conn: 1,
            journal,
            saves,
            seed: None,
        };
        let mut warnings = Vec::new();
        for o in offers {
            if hub.offered.iter().any(|b| b.key == o.key) {
                return Err(format!(
                    "two boards are offered as {:?}: rename one file",
                    o.key
                ));
            }
            let entry = Arc::new(board_entry(o.key, o.json, &o.file)?);
            hub.by_hash
                .entry(entry.hash.clone())
                .or_insert(entry.clone());
            hub.offered.push(entry);
        }
        for u in snapshot.users {
            hub.by_name.insert(u.username.to_lowercase(), u.id);
            if let Some(e) = &u.email {
                hub.emails.insert(e.to_lowercase(), u.id);
            }
            hub.users.insert(u.id, u);
        }
        let now = now();
        let mut batch = Batch::default();
        for s in snapshot.sessions {
            if expired(&s, now) {
                batch.write(Write::EndSession {
                    token_hash: s.token_hash,
                });
            } else {
                hub.sessions.insert(s.token_hash, s);
            }
        }
        let texts: HashMap<String, String> = snapshot
            .boards
            .into_iter()
            .map(|b| (b.hash, b.json))
            .collect();
        hub.stored_boards = texts.keys().cloned().collect();
        let entry_for = |hub: &mut Hub, key: &str, hash: &str| -> Result<Arc<TableBoard>, String> {
            if let Some(b) = hub.by_hash.get(hash) {
                return Ok(b.clone());
            }
            let json = texts
                .get(hash)
                .ok_or_else(|| format!("board {hash} is missing"))?;
            let b = Arc::new(board_entry(key.to_string(), json.clone(), key)?);
            hub.by_hash.insert(hash.to_string(), b.clone());
            Ok(b)
        };
        for u in snapshot.uploads {
            let key = format!("upload-{}", u.id);
            match entry_for(&mut hub, &key, &u.hash) {
                Ok(b) => hub.offered.push(Arc::new(TableBoard::new(
                    key,
                    b.hash.clone(),
                    b.json.clone(),
                    (*b.board).clone(),
                ))),
                Err(e) => warnings.push(format!("uploaded board {key}: {e}")),
            }
            hub.uploads.push(u);
        }
        for g in snapshot.games {
            let board = match entry_for(&mut hub, &g.board_key, &g.board_hash) {
                Ok(b) => b,
                Err(e) => {
                    warnings.push(format!("game {} ({}): {e}", g.id, g.name));
                    continue;
                }
            };
            let board = if board.key == g.board_key {
                board
            } else {
                Arc::new(TableBoard::new(
                    g.board_key.clone(),
                    board.hash.clone(),
                    board.json.clone(),
                    (*board.board).clone(),
                ))
            };
            let names = |u: UserId| {
                hub.users
                    .get(&u)
                    .map_or_else(|| format!("user {u}"), |r| r.username.clone())
            };
            match Table::restore(&g, board, &names) {
                Ok(t) => {
                    hub.tables.insert(g.id, t);
                }
                Err(e) => warnings.push(format!(
                    "game {} ({}) cannot be rebuilt and is left out: {e}",
                    g.id, g.name
                )),
            }
        }
        drop(hub.journal.commit(batch));
        Ok(Loaded { hub, warnings })
    }

    /// The games with a bot to move (after a restart).
    pub fn games_with_bots_to_move(&self) -> Vec<GameId> {
        self.tables
            .values()
            .filter(|t| t.bot_to_move().is_some())
            .map(|t| t.id)
            .collect()
    }

    /// A table, for the server's bot scheduling.
    pub fn table_mut(&mut self, id: GameId) -> Option<&mut Table> {
        self.tables.get_mut(&id)
    }

    /// A table.
    pub fn table(&self, id: GameId) -> Option<&Table> {
        self.tables.get(&id)
    }

    /// Stops the journal, committing what is queued.
    pub fn stop(&mut self) {
        self.journal.stop();
    }

    // ---- Connections -----------------------------------------------------

    /// A new WebSocket connection, logged in if `session` (its cookie's
    /// token hash) is valid. The first message tells the client whether it
    /// is logged in.
    pub fn connect(&mut self, outbox: Outbox, session: Option<[u8; 32]>) -> ConnId {
        let id = self.next_conn;
        self.next_conn += 1;
        let mut batch = Batch::default();
        let user = session.and_then(|s| self.session_user(s, &mut batch));
        self.conns.insert(
            id,
            Conn {
                outbox,
                user,
                session: user.and(session),
            },
        );
        let username = user
            .and_then(|u| self.users.get(&u))
            .map(|u| u.username.clone());
        self.send_conn(
            &mut batch,
            id,
            None,
            "session",
            json!({ "description": d::SUCCESS, "username": username }),
        );
        if let Some(u) = user {
            self.push_games_to(&mut batch, id, u);
        }
        self.commit(batch);
        id
    }

    /// A connection closed.
    pub fn disconnect(&mut self, conn: ConnId) {
        self.conns.remove(&conn);
    }

    /// The user of a valid session (used now: its time is recorded).
    fn session_user(&mut self, token_hash: [u8; 32], batch: &mut Batch) -> Option<UserId> {
        let now = now();
        let s = self.sessions.get_mut(&token_hash)?;
        if expired(s, now) {
            self.sessions.remove(&token_hash);
            batch.write(Write::EndSession { token_hash });
            return None;
        }
        s.last_used = now;
        batch.write(Write::SessionUsed {
            token_hash,
            at: now,
        });
        Some(s.user)
    }

    /// The user of a valid session, without recording a use (HTTP calls).
    pub fn user_of_session(&self, token_hash: [u8; 32]) -> Option<UserId> {
        self.sessions
            .get(&token_hash)
            .filter(|s| !expired(s, now()))
            .map(|s| s.user)
    }

    fn commit(&self, batch: Batch) -> tokio::sync::oneshot::Receiver<()> {
        self.journal.commit(batch)
    }

    fn send_conn(
        &self,
        batch: &mut Batch,
        conn: ConnId,
        id: Option<&Value>,
        command: &str,
        output: Value,
    ) {
        if let Some(c) = self.conns.get(&conn) {
            batch.send(&c.outbox, message(command, id, &output));
        }
    }

    /// Sends to every connection of `user`; the connection `answer` (the
    /// one that asked) gets the request's id.
    fn send_user(
        &self,
        batch: &mut Batch,
        user: UserId,
        answer: Option<(ConnId, Option<&Value>)>,
        command: &str,
        output: &Value,
    ) {
        let mut body = None;
        for (&cid, c) in &self.conns {
            if c.user == Some(user) {
                let id = answer.filter(|(a, _)| *a == cid).and_then(|(_, id)| id);
                let body = body.get_or_insert_with(|| output.to_string());
                batch.send(&c.outbox, protocol::envelope(command, id, body));
            }
        }
    }

    // ---- Commands ----------------------------------------------------------

    /// Runs a command of a logged-in or anonymous connection (every command
    /// but `login` and `register`, whose hashing the server runs outside the
    /// lock). Returns a saved game to write, for `saveGameState`.
    pub fn command(&mut self, conn: ConnId, req: &Request) -> Option<SaveFile> {
        let mut batch = Batch::default();
        let id = req.id.as_ref();
        let Some(user) = self.conns.get(&conn).and_then(|c| c.user) else {
            let answer = if matches!(req.command.as_str(), "logout") {
                d::SUCCESS
            } else if is_command(&req.command) {
                d::NOT_LOGGED_IN
            } else {
                d::UNKNOWN_COMMAND
            };
            self.send_conn(
                &mut batch,
                conn,
                id,
                &req.command,
                protocol::described(answer),
            );
            self.commit(batch);
            return None;
        };
        let mut save = None;
        let result: Result<(), Value> = match req.command.as_str() {
            "login" | "register" => Err(protocol::described(d::ALREADY_LOGGED_IN)),
            "logout" => {
                self.logout(&mut batch, Caller::Conn(conn), id);
                Ok(())
            }
            "updateJoinableGames" => {
                let out = self.joinable(user);
                self.send_conn(&mut batch, conn, id, &req.command, out);
                Ok(())
            }
            "updateUserGames" => {
                let out = self.user_games(user);
                self.send_conn(&mut batch, conn, id, &req.command, out);
                Ok(())
            }
            "sendChat" => self.chat(&mut batch, user, conn, req),
            "createGame" => self.create(&mut batch, user, conn, req),
            "joinGame" => self.join(&mut batch, user, conn, req),
            "leaveGame" => self.leave(&mut batch, user, conn, req),
            "addAI" => self.add_ai(&mut batch, user, conn, req),
            "startGame" => self.start(&mut batch, user, conn, req),
            "sendClientModelInformation" => self.model(&mut batch, user, conn, req),
            "buyRoute" | "drawTrainCard" | "getDestinations" | "selectDestinations"
            | "passTurn" => self.game_move(&mut batch, user, conn, req),
            // The server writes the file, then answers with its path.
            "saveGameState" => self.save(user, req).map(|file| save = Some(file)),
            "loadGameState" => self.load_game(&mut batch, user, conn, req),
            _ => Err(protocol::described(d::UNKNOWN_COMMAND)),
        };
        if let Err(out) = result {
            self.send_conn(&mut batch, conn, id, &req.command, out);
        }
        self.commit(batch);
        save
    }

    /// Sends `output` to connection `conn` as the answer to `command`.
    pub fn reply(&mut self, conn: ConnId, command: &str, id: Option<&Value>, output: Value) {
        let mut batch = Batch::default();
        self.send_conn(&mut batch, conn, id, command, output);
        self.commit(batch);
    }

    /// Answers a connection directly (a malformed message, a rate limit).
    pub fn answer(
        &mut self,
        conn: ConnId,
        command: Option<&str>,
        id: Option<&Value>,
        description: &str,
    ) {
        let mut batch = Batch::default();
        if let Some(c) = self.conns.get(&conn) {
            let m = json!({ "command": command, "output": { "description": description } });
            let mut m = m;
            if let Some(id) = id {
                m["id"] = id.clone();
            }
            batch.send(&c.outbox, m.to_string());
        }
        self.commit(batch);
    }

    // ---- Accounts ----------------------------------------------------------

    /// A login's first half: refused at once (already logged in, throttled),
    /// or the hash to verify outside the lock.
    pub fn begin_login(&mut self, caller: Caller, username: &str) -> Result<LoginCheck, Value> {
        if let Caller::Conn(c) = caller {
            if self.conns.get(&c).is_some_and(|c| c.user.is_some()) {
                return Err(protocol::described(d::ALREADY_LOGGED_IN));
            }
        }
        if let Some(wait) = self.throttle.wait(username, Instant::now()) {
            return Err(json!({
                "description": d::TOO_MANY_ATTEMPTS,
                "retryAfter": wait.as_secs().max(1),
            }));
        }
        let user = self.by_name.get(&username.to_lowercase()).copied();
        let hash = user.and_then(|u| self.users.get(&u)).map_or_else(
            || accounts::decoy_hash().to_string(),
            |u| u.password.clone(),
        );
        Ok(LoginCheck { user, hash })
    }

    /// A login's second half, once the password was checked (`rehash`: a
    /// new hash at today's parameters, when the stored one is weaker).
    pub fn finish_login(
        &mut self,
        caller: Caller,
        req_id: Option<&Value>,
        username: &str,
        check: LoginCheck,
        verified: bool,
        rehash: Option<String>,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        let mut batch = Batch::default();
        let user = match (check.user, verified) {
            (Some(u), true) => u,
            _ => {
                self.throttle.fail(username, Instant::now());
                let out = protocol::described(d::INVALID_INPUT);
                return self.answer_login(caller, req_id, "login", batch, out, None);
            }
        };
        self.throttle.succeed(username);
        if let Some(hash) = rehash {
            if let Some(u) = self.users.get_mut(&user) {
                u.password = hash.clone();
            }
            batch.write(Write::Password { user, hash });
        }
        self.log_in(caller, req_id, "login", user, batch)
    }

    /// A registration's first half: the rules, and whether the name or
    /// email is taken.
    pub fn begin_register(
        &mut self,
        caller: Caller,
        username: &str,
        password: &str,
        email: Option<&str>,
    ) -> Result<RegisterCheck, Value> {
        if let Caller::Conn(c) = caller {
            if self.conns.get(&c).is_some_and(|c| c.user.is_some()) {
                return Err(protocol::described(d::ALREADY_LOGGED_IN));
            }
        }
        let email = email.map(str::trim).filter(|e| !e.is_empty());
        let invalid = |reason: String| json!({ "description": d::INVALID_INPUT, "reason": reason });
        accounts::check_registration(username, password, email).map_err(invalid)?;
        self.taken(username, email).map_err(invalid)?;
        Ok(RegisterCheck {
            username: username.to_string(),
            email: email.map(str::to_string),
        })
    }

    fn taken(&self, username: &str, email: Option<&str>) -> Result<(), String> {
        if self.by_name.contains_key(&username.to_lowercase()) {
            return Err("that username is taken".into());
        }
        if email.is_some_and(|e| self.emails.contains_key(&e.to_lowercase())) {
            return Err("that email is registered already".into());
        }
        Ok(())
    }

    /// A registration's second half, with the password's hash.
    pub fn finish_register(
        &mut self,
        caller: Caller,
        req_id: Option<&Value>,
        check: RegisterCheck,
        hash: Result<String, String>,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        let batch = Batch::default();
        let hash = match hash {
            Ok(h) => h,
            Err(e) => {
                eprintln!("ttr-opt play: {e}");
                let out = protocol::described(d::SERVER_ERROR);
                return self.answer_login(caller, req_id, "register", batch, out, None);
            }
        };
        // Checked again: another registration may have taken the name while
        // this one was hashing.
        if let Err(reason) = self.taken(&check.username, check.email.as_deref()) {
            let out = json!({ "description": d::INVALID_INPUT, "reason": reason });
            return self.answer_login(caller, req_id, "register", batch, out, None);
        }
        let id = self.users.keys().max().copied().unwrap_or(0) + 1;
        let record = UserRecord {
            id,
            username: check.username.clone(),
            email: check.email.clone(),
            password: hash,
            created: now(),
        };
        self.by_name.insert(check.username.to_lowercase(), id);
        if let Some(e) = &check.email {
            self.emails.insert(e.to_lowercase(), id);
        }
        self.users.insert(id, record.clone());
        let mut batch = batch;
        batch.write(Write::User(record));
        self.log_in(caller, req_id, "register", id, batch)
    }

    /// Logs `user` in for `caller`: a connection is bound to the user; an
    /// HTTP caller gets a new session (its old one, if any, ended and its
    /// connections moved over). Refused while the user is connected under
    /// another session (003: one login at a time).
    fn log_in(
        &mut self,
        caller: Caller,
        req_id: Option<&Value>,
        command: &str,
        user: UserId,
        mut batch: Batch,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        let mine = match caller {
            Caller::Http(s) => s,
            Caller::Conn(_) => None,
        };
        let elsewhere = self.conns.iter().any(|(&cid, c)| {
            c.user == Some(user)
                && !matches!(caller, Caller::Conn(me) if me == cid)
                && (mine.is_none() || c.session != mine)
        });
        if elsewhere {
            let out = protocol::described(d::ALREADY_LOGGED_IN);
            return self.answer_login(caller, req_id, command, batch, out, None);
        }
        let username = self.users.get(&user).map(|u| u.username.clone());
        let out = json!({ "description": d::SUCCESS, "username": username });
        match caller {
            Caller::Conn(conn) => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.user = Some(user);
                    c.session = None;
                }
                self.send_conn(&mut batch, conn, req_id, command, out.clone());
                self.push_games_to(&mut batch, conn, user);
                let done = self.commit(batch);
                (
                    LoginOutcome {
                        output: out,
                        token: None,
                    },
                    done,
                )
            }
            Caller::Http(old) => {
                let token = match accounts::new_token() {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("ttr-opt play: {e}");
                        let out = protocol::described(d::SERVER_ERROR);
                        return self.answer_login(caller, req_id, command, batch, out, None);
                    }
                };
                let hash = accounts::token_hash(&token);
                let now = now();
                let record = SessionRecord {
                    token_hash: hash,
                    user,
                    created: now,
                    last_used: now,
                };
                self.sessions.insert(hash, record.clone());
                batch.write(Write::Session(record));
                if let Some(old) = old {
                    if self.sessions.remove(&old).is_some() {
                        batch.write(Write::EndSession { token_hash: old });
                    }
                    for c in self.conns.values_mut().filter(|c| c.session == Some(old)) {
                        c.session = Some(hash);
                        c.user = Some(user);
                    }
                }
                let done = self.commit(batch);
                (
                    LoginOutcome {
                        output: out,
                        token: Some(token),
                    },
                    done,
                )
            }
        }
    }

    fn answer_login(
        &mut self,
        caller: Caller,
        req_id: Option<&Value>,
        command: &str,
        mut batch: Batch,
        out: Value,
        token: Option<String>,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        if let Caller::Conn(conn) = caller {
            self.send_conn(&mut batch, conn, req_id, command, out.clone());
        }
        let done = self.commit(batch);
        (LoginOutcome { output: out, token }, done)
    }

    /// Ends the caller's session and closes its connections (a connection
    /// logged in over the WebSocket: that one).
    pub fn logout(&mut self, batch: &mut Batch, caller: Caller, id: Option<&Value>) {
        let session = match caller {
            Caller::Conn(c) => self.conns.get(&c).and_then(|c| c.session),
            Caller::Http(s) => s,
        };
        let out = protocol::described(d::SUCCESS);
        if let Caller::Conn(c) = caller {
            self.send_conn(batch, c, id, "logout", out);
        }
        if let Some(s) = session {
            if self.sessions.remove(&s).is_some() {
                batch.write(Write::EndSession { token_hash: s });
            }
        }
        let closing: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(&cid, c)| {
                (session.is_some() && c.session == session)
                    || matches!(caller, Caller::Conn(me) if me == cid)
            })
            .map(|(&cid, _)| cid)
            .collect();
        for cid in closing {
            if let Some(c) = self.conns.get_mut(&cid) {
                c.user = None;
                c.session = None;
                // An empty frame asks the connection to close once the
                // answer before it is sent.
                batch.send(&c.outbox, String::new());
            }
        }
    }

    /// Logs out an HTTP caller.
    pub fn logout_http(&mut self, session: Option<[u8; 32]>) -> tokio::sync::oneshot::Receiver<()> {
        let mut batch = Batch::default();
        self.logout(&mut batch, Caller::Http(session), None);
        self.commit(batch)
    }

    // ---- The lobby -----------------------------------------------------------

    fn joinable(&self, user: UserId) -> Value {
        let games: Vec<Value> = self
            .tables
            .values()
            .filter(|t| {
                t.phase() == Phase::Open && t.seats.len() < MAX_SEATS && t.seat_of(user).is_none()
            })
            .map(|t| view::lobby_entry(t, "playerId", None))
            .collect();
        json!({ "description": d::SUCCESS, "games": games })
    }

    fn user_games(&self, user: UserId) -> Value {
        let games: Vec<Value> = self
            .tables
            .values()
            .filter_map(|t| {
                t.seat_of(user)
                    .map(|s| view::lobby_entry(t, "playerOrder", Some(s)))
            })
            .collect();
        json!({ "description": d::SUCCESS, "games": games })
    }

    /// A connection's lists of games.
    fn push_games_to(&self, batch: &mut Batch, conn: ConnId, user: UserId) {
        self.send_conn(batch, conn, None, "updateUserGames", self.user_games(user));
        self.send_conn(
            batch,
            conn,
            None,
            "updateJoinableGames",
            self.joinable(user),
        );
    }

    /// The joinable games, to every logged-in connection: each game's entry
    /// is made once, and each user's list leaves out the user's own games.
    fn push_lobby(&self, batch: &mut Batch) {
        let open: Vec<(&Table, String)> = self
            .tables
            .values()
            .filter(|t| t.phase() == Phase::Open && t.seats.len() < MAX_SEATS)
            .map(|t| (t, view::lobby_entry(t, "playerId", None).to_string()))
            .collect();
        let mut lists: HashMap<UserId, String> = HashMap::new();
        for c in self.conns.values() {
            if let Some(u) = c.user {
                let text = lists.entry(u).or_insert_with(|| {
                    let games: Vec<&str> = open
                        .iter()
                        .filter(|(t, _)| t.seat_of(u).is_none())
                        .map(|(_, entry)| entry.as_str())
                        .collect();
                    let output = format!(
                        "{{\"description\":\"{}\",\"games\":[{}]}}",
                        d::SUCCESS,
                        games.join(",")
                    );
                    protocol::envelope("updateJoinableGames", None, &output)
                });
                batch.send(&c.outbox, text.clone());
            }
        }
    }

    /// The game lists of the users seated at `table`.
    fn push_user_games(&self, batch: &mut Batch, table: GameId) {
        let Some(t) = self.tables.get(&table) else {
            return;
        };
        for u in t.users().collect::<Vec<_>>() {
            self.send_user(batch, u, None, "updateUserGames", &self.user_games(u));
        }
    }

    /// Every seated user's own view of the game.
    fn push_models(&self, batch: &mut Batch, table: GameId) {
        let Some(t) = self.tables.get(&table) else {
            return;
        };
        for (seat, s) in t.seats.iter().enumerate() {
            if let Who::User(u) = s.who {
                self.send_user(
                    batch,
                    u,
                    None,
                    "sendClientModelInformation",
                    &view::model(t, Some(seat)),
                );
            }
        }
    }

    /// Sends `output` to every user at `table`, the asking connection with
    /// its id.
    fn send_table(
        &self,
        batch: &mut Batch,
        table: GameId,
        answer: (ConnId, Option<&Value>),
        command: &str,
        output: &Value,
    ) {
        let Some(t) = self.tables.get(&table) else {
            return;
        };
        for u in t.users().collect::<Vec<_>>() {
            self.send_user(batch, u, Some(answer), command, output);
        }
    }

    fn params<T: serde::de::DeserializeOwned>(req: &Request) -> Result<T, Value> {
        req.params()
            .ok_or_else(|| protocol::described(d::INVALID_INPUT))
    }

    fn seated(&self, user: UserId, game: GameId) -> Result<(&Table, usize), Value> {
        let t = self
            .tables
            .get(&game)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        let seat = t
            .seat_of(user)
            .ok_or_else(|| protocol::described(d::NOT_IN_GAME))?;
        Ok((t, seat))
    }

    /// The boards offered, for `GET /api/boards`.
    pub fn boards(&self) -> Value {
        let boards: Vec<Value> = self
            .offered
            .iter()
            .map(|b| {
                json!({
                    "key": b.key,
                    "name": b.board.name,
                    "title": b.board.title,
                    "cars": b.board.cars,
                    "cities": b.board.cities.len(),
                    "routes": b.board.routes.len(),
                    "tickets": b.board.cards.len(),
                })
            })
            .collect();
        json!({ "boards": boards })
    }

    /// A game's board as the map draws it (JSON).
    pub fn board_view(&self, game: GameId) -> Option<String> {
        self.tables.get(&game).map(|t| t.board.view.clone())
    }

    /// A board file uploaded by `user`, validated as the command line
    /// validates it, then offered as `upload-<id>`.
    pub fn upload(
        &mut self,
        user: UserId,
        name: &str,
        text: String,
    ) -> (Value, tokio::sync::oneshot::Receiver<()>) {
        let id = self.uploads.iter().map(|u| u.id).max().unwrap_or(0) + 1;
        let key = format!("upload-{id}");
        let name = if name.trim().is_empty() {
            "the uploaded board"
        } else {
            name.trim()
        };
        let name: String = name.chars().take(200).collect();
        let mut batch = Batch::default();
        let out = match board_entry(key.clone(), text, &name) {
            Err(reason) => json!({ "description": d::INVALID_INPUT, "reason": reason }),
            Ok(entry) => {
                let entry = Arc::new(entry);
                self.store_board(&mut batch, &entry);
                let record = UploadRecord {
                    id,
                    name: name.clone(),
                    hash: entry.hash.clone(),
                    owner: user,
                };
                batch.write(Write::Upload(record.clone()));
                self.uploads.push(record);
                self.by_hash
                    .entry(entry.hash.clone())
                    .or_insert(entry.clone());
                self.offered.push(entry);
                json!({ "description": d::SUCCESS, "key": key, "name": name })
            }
        };
        let done = self.commit(batch);
        (out, done)
    }

    fn store_board(&mut self, batch: &mut Batch, b: &TableBoard) {
        if self.stored_boards.insert(b.hash.clone()) {
            batch.write(Write::Board(BoardRecord {
                hash: b.hash.clone(),
                json: b.json.clone(),
            }));
        }
    }

    fn create(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::CreateGame = Self::params(req)?;
        let name = p.game_name.trim().to_string();
        let color = color(&p.color).ok_or_else(|| protocol::described(d::INVALID_INPUT))?;
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(
                json!({ "description": d::INVALID_INPUT, "reason": format!("a game's name is 1 to {MAX_NAME} characters") }),
            );
        }
        let key = p.board.unwrap_or_else(|| "usa".to_string());
        let board = self
            .offered
            .iter()
            .find(|b| b.key == key)
            .cloned()
            .ok_or_else(|| protocol::described(d::UNKNOWN_BOARD))?;
        let id = self.tables.keys().max().copied().unwrap_or(0) + 1;
        let username = self
            .users
            .get(&user)
            .map(|u| u.username.clone())
            .unwrap_or_default();
        let created = now();
        let mut table = Table::new(
            id,
            name.clone(),
            user,
            username,
            color,
            board.clone(),
            created,
        );
        table.coach = p.coach;
        self.store_board(batch, &board);
        batch.write(Write::Game {
            id,
            name,
            creator: user,
            board_key: board.key.clone(),
            board_hash: board.hash.clone(),
            created,
            coach: p.coach,
        });
        batch.write(Write::Seats {
            game: id,
            seats: table.seat_records(),
        });
        self.tables.insert(id, table);
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "createGame",
            json!({ "description": d::SUCCESS, "gameId": id }),
        );
        self.push_lobby(batch);
        self.push_user_games(batch, id);
        self.push_models(batch, id);
        Ok(())
    }

    fn join(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::JoinGame = Self::params(req)?;
        let username = self
            .users
            .get(&user)
            .map(|u| u.username.clone())
            .unwrap_or_default();
        let t = self
            .tables
            .get_mut(&p.game_id)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        let c = color(&p.color).ok_or_else(|| protocol::described(d::INVALID_INPUT))?;
        if t.seat_of(user).is_some() {
            return Err(protocol::described(d::ALREADY_IN_GAME));
        }
        if t.phase() != Phase::Open {
            return Err(protocol::described(d::ALREADY_STARTED));
        }
        if t.seats.len() >= MAX_SEATS {
            return Err(protocol::described(d::GAME_FULL));
        }
        if !t.free_colors().contains(&c) {
            return Err(protocol::described(d::COLOR_TAKEN));
        }
        t.seats.push(Seat {
            who: Who::User(user),
            color: c,
            name: username,
        });
        batch.write(Write::Seats {
            game: t.id,
            seats: t.seat_records(),
        });
        let full = t.seats.len() == MAX_SEATS;
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "joinGame",
            protocol::described(d::SUCCESS),
        );
        if full {
            self.begin(batch, p.game_id, None)?;
        }
        self.push_lobby(batch);
        self.push_user_games(batch, p.game_id);
        self.push_models(batch, p.game_id);
        Ok(())
    }

    fn leave(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::GameOnly = Self::params(req)?;
        let t = self
            .tables
            .get_mut(&p.game_id)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        let seat = t
            .seat_of(user)
            .ok_or_else(|| protocol::described(d::NOT_IN_GAME))?;
        if t.phase() != Phase::Open {
            return Err(protocol::described(d::ALREADY_STARTED));
        }
        t.seats.remove(seat);
        let closed = t.users().next().is_none();
        if closed {
            batch.write(Write::DeleteGame { game: t.id });
            self.tables.remove(&p.game_id);
        } else {
            if t.creator == user {
                let next = t.users().next().expect("checked above");
                t.creator = next;
                batch.write(Write::Creator {
                    game: t.id,
                    user: t.creator,
                });
            }
            batch.write(Write::Seats {
                game: t.id,
                seats: t.seat_records(),
            });
        }
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "leaveGame",
            protocol::described(d::SUCCESS),
        );
        self.push_lobby(batch);
        self.send_conn(batch, conn, None, "updateUserGames", self.user_games(user));
        if !closed {
            self.push_user_games(batch, p.game_id);
            self.push_models(batch, p.game_id);
        }
        Ok(())
    }

    fn add_ai(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::AddAi = Self::params(req)?;
        let t = self
            .tables
            .get_mut(&p.game_id)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        if t.phase() != Phase::Open {
            return Err(protocol::described(d::ALREADY_STARTED));
        }
        if t.seats.len() >= MAX_SEATS {
            return Err(protocol::described(d::GAME_FULL));
        }
        if t.creator != user {
            return Err(protocol::described(d::CREATOR_ADDS));
        }
        let level = Difficulty::parse(&p.difficulty).ok_or_else(
            || json!({ "description": d::INVALID_INPUT, "reason": "difficulty is easy or hard" }),
        )?;
        let name = t.bot_name(level);
        let c = t.free_colors()[0];
        t.seats.push(Seat {
            who: Who::Bot(level),
            color: c,
            name,
        });
        batch.write(Write::Seats {
            game: t.id,
            seats: t.seat_records(),
        });
        let full = t.seats.len() == MAX_SEATS;
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "addAI",
            protocol::described(d::SUCCESS),
        );
        if full {
            self.begin(batch, p.game_id, None)?;
        }
        self.push_lobby(batch);
        self.push_user_games(batch, p.game_id);
        self.push_models(batch, p.game_id);
        Ok(())
    }

    fn start(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::GameOnly = Self::params(req)?;
        let t = self
            .tables
            .get(&p.game_id)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        if t.seat_of(user).is_none() {
            return Err(protocol::described(d::NOT_IN_GAME));
        }
        if t.phase() != Phase::Open {
            return Err(protocol::described(d::ALREADY_STARTED));
        }
        if t.creator != user {
            return Err(protocol::described(d::CREATOR_STARTS));
        }
        if t.seats.len() < 2 {
            return Err(protocol::described(d::INSUFFICIENT_PLAYERS));
        }
        self.begin(batch, p.game_id, Some((conn, req.id.as_ref())))?;
        self.push_lobby(batch);
        self.push_user_games(batch, p.game_id);
        self.push_models(batch, p.game_id);
        Ok(())
    }

    /// Deals: a fresh seed, each player's own `startGame` answer.
    fn begin(
        &mut self,
        batch: &mut Batch,
        game: GameId,
        answer: Option<(ConnId, Option<&Value>)>,
    ) -> Result<(), Value> {
        let seed = match self.seed {
            Some(base) => base.wrapping_add(game as u64),
            None => accounts::new_seed().map_err(|e| {
                eprintln!("ttr-opt play: {e}");
                protocol::described(d::SERVER_ERROR)
            })?,
        };
        let t = self
            .tables
            .get_mut(&game)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        t.start(seed).map_err(|e| {
            eprintln!("ttr-opt play: game {game} cannot start: {e}");
            protocol::described(d::SERVER_ERROR)
        })?;
        batch.write(Write::Start { game, seed });
        let t = &self.tables[&game];
        for (seat, s) in t.seats.iter().enumerate() {
            if let Who::User(u) = s.who {
                self.send_user(batch, u, answer, "startGame", &view::deal(t, seat));
            }
        }
        Ok(())
    }

    fn chat(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::Chat = Self::params(req)?;
        let message = p.message.trim().to_string();
        self.seated(user, p.game_id)?;
        if message.is_empty() || message.chars().count() > MAX_CHAT {
            return Err(
                json!({ "description": d::INVALID_INPUT, "reason": format!("a message is 1 to {MAX_CHAT} characters") }),
            );
        }
        let sender = self
            .users
            .get(&user)
            .map(|u| u.username.clone())
            .unwrap_or_default();
        let t = self.tables.get_mut(&p.game_id).expect("seated above");
        let record = ChatRecord {
            sender: sender.clone(),
            message: message.clone(),
            at: now(),
        };
        batch.write(Write::Chat {
            game: t.id,
            seq: t.chat.len(),
            record: record.clone(),
        });
        t.chat.push(record);
        let out = json!({ "description": d::SUCCESS, "gameId": p.game_id, "sender": sender, "message": message });
        self.send_table(batch, p.game_id, (conn, req.id.as_ref()), "sendChat", &out);
        self.push_models(batch, p.game_id);
        Ok(())
    }

    fn model(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let p: protocol::GameOnly = Self::params(req)?;
        let (t, seat) = self.seated(user, p.game_id)?;
        let out = view::model(t, Some(seat));
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "sendClientModelInformation",
            out,
        );
        Ok(())
    }

    // ---- Moves -------------------------------------------------------------

    fn game_move(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let game: protocol::GameOnly = match req.parameters.get("gameId").and_then(Value::as_i64) {
            Some(g) => protocol::GameOnly { game_id: g },
            None => return Err(protocol::described(d::INVALID_INPUT)),
        };
        let (t, seat) = self.seated(user, game.game_id)?;
        let action = move_of(t, seat, req)?;
        self.play(
            batch,
            game.game_id,
            seat,
            &action,
            Some((conn, req.id.as_ref(), req.command.as_str())),
        )
        .map_err(|e| json!({ "description": refusal(&req.command, req, &e), "reason": e.message }))
    }

    /// Plays `action` for `seat` (a person's command, answered on `answer`,
    /// or a bot's move): the rules engine decides; if legal, the move is
    /// recorded and every player told, each what they may know.
    pub fn play(
        &mut self,
        batch: &mut Batch,
        game: GameId,
        seat: usize,
        action: &Action,
        answer: Option<(ConnId, Option<&Value>, &str)>,
    ) -> Result<(), RuleError> {
        let t = self
            .tables
            .get_mut(&game)
            .ok_or_else(|| RuleError::new(Illegal::Setup, "no such game"))?;
        let seq = t.moves.len();
        let outcome = t.act(seat, action)?;
        batch.write(Write::Move {
            game,
            seq,
            record: MoveRecord {
                seat,
                action: Move::from(action).to_json(),
            },
        });
        let t = &self.tables[&game];
        let g = t.game().expect("a move was made");
        let board = &t.board.board;
        let ask = answer.map(|(c, id, _)| (c, id));
        // Each user at the table gets the move's message: the asking
        // connection with its id; a card from the deck only to its player.
        let users: Vec<(usize, UserId)> = t
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.who {
                Who::User(u) => Some((i, u)),
                Who::Bot(_) => None,
            })
            .collect();
        let totals: Vec<Value> = g
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| json!({ "playerId": i, "points": p.route_points }))
            .collect();
        for &(s, u) in &users {
            let mine = s == seat;
            let (command, out) = match action {
                Action::Claim {
                    route,
                    track,
                    colour,
                    locomotives,
                } => (
                    "buyRoute",
                    json!({
                        "description": d::SUCCESS, "gameId": game, "playerId": seat,
                        "routeIndexPurchased": t.board.index_of(*route, *track),
                        "trainColor": if *locomotives == board.route(*route).length { "wild".to_string() } else { colour.to_string() },
                        "numberOfWilds": locomotives,
                        "trainsLeft": g.players[seat].cars, "pointTotals": totals,
                    }),
                ),
                Action::DrawFaceUp(_) | Action::DrawDeck => {
                    let from_deck = *action == Action::DrawDeck;
                    let shown = if mine || !from_deck {
                        Value::from(table::card_name(outcome.card))
                    } else {
                        Value::Null
                    };
                    (
                        "drawTrainCard",
                        json!({
                            "description": d::SUCCESS, "gameId": game, "playerId": seat,
                            "cardDrawn": shown,
                            "cardLocation": match action { Action::DrawFaceUp(i) => *i, _ => 5 },
                            "drawAgain": outcome.draw_again,
                            "deckCount": g.deck_len(),
                            "availableTrainCards": g.face_up().iter().enumerate().map(|(i, &c)| json!({ "color": table::card_name(Some(c)), "index": i })).collect::<Vec<_>>(),
                            "canDrawWild": !g.drawing_second(),
                        }),
                    )
                }
                Action::DrawTickets => {
                    let mut out =
                        json!({ "description": d::SUCCESS, "gameId": game, "playerId": seat });
                    let offered = g.offer(seat).map(|(o, _)| o.to_vec()).unwrap_or_default();
                    if mine {
                        out["destinationCards"] = offered
                            .iter()
                            .map(|&x| view::destination(board, x))
                            .collect();
                    } else {
                        out["count"] = offered.len().into();
                    }
                    ("getDestinations", out)
                }
                Action::KeepTickets(kept) => (
                    "selectDestinations",
                    json!({ "description": d::SUCCESS, "gameId": game, "playerId": seat, "kept": kept.len() }),
                ),
                Action::Pass => (
                    "passTurn",
                    json!({ "description": d::SUCCESS, "gameId": game, "playerId": seat }),
                ),
            };
            let from = if mine { ask } else { None };
            self.send_user(batch, u, from, command, &out);
        }
        if let Some(&(_, u)) = users.iter().find(|(s, _)| *s == seat) {
            for &x in &outcome.completed {
                let out = json!({
                    "gameId": game, "playerId": seat,
                    "route": { "start": board.city(board.ticket(x).a).name, "end": board.city(board.ticket(x).b).name, "points": board.ticket(x).points },
                });
                self.send_user(batch, u, None, "notifyDestinationRouteCompleted", &out);
            }
        }
        if outcome.turn_started {
            let out =
                json!({ "gameId": game, "playerId": g.current(), "lastRound": g.in_last_round() });
            for &(_, u) in &users {
                self.send_user(batch, u, None, "turnStartedNotification", &out);
            }
        }
        if outcome.ended {
            let out = view::results(t);
            for &(_, u) in &users {
                self.send_user(batch, u, None, "gameEnded", &out);
            }
        }
        self.push_models(batch, game);
        if outcome.turn_started || outcome.ended || matches!(action, Action::KeepTickets(_)) {
            self.push_user_games(batch, game);
        }
        Ok(())
    }

    /// Commits a bot's move made through [`Hub::play`].
    pub fn commit_batch(&self, batch: Batch) {
        self.commit(batch);
    }

    // ---- The coach and the review -------------------------------------------

    /// The user of connection `conn`, or the answer to a caller who is not
    /// logged in.
    fn user_of(&self, conn: ConnId) -> Result<UserId, Value> {
        self.conns
            .get(&conn)
            .and_then(|c| c.user)
            .ok_or_else(|| protocol::described(d::NOT_LOGGED_IN))
    }

    /// What the coach may know for `getCoach`: the asking player's own
    /// state ([`GameState::of_player`]) and offer, nothing of the others'.
    /// Refused outside the player's seat, before the start, and while the
    /// game is played if its creator left the coach off.
    pub fn coach_input(&self, conn: ConnId, req: &Request) -> Result<CoachInput, Value> {
        let user = self.user_of(conn)?;
        let p: protocol::GameOnly = Self::params(req)?;
        let (t, seat) = self.seated(user, p.game_id)?;
        let Some(g) = t.game() else {
            return Err(protocol::described(d::NOT_STARTED));
        };
        if !t.coach && !g.is_over() {
            return Err(protocol::described(d::COACH_OFF));
        }
        Ok(CoachInput {
            game: t.id,
            seat,
            board: t.board.clone(),
            state: GameState::of_player(g, seat),
            offer: g.offer(seat).map(|(o, min)| (o.to_vec(), min)),
        })
    }

    /// `getReview`: the review if done; else whether to start it (this
    /// connection waits for it either way).
    pub fn review_input(&mut self, conn: ConnId, req: &Request) -> Result<ReviewStart, Value> {
        let user = self.user_of(conn)?;
        let p: protocol::GameOnly = Self::params(req)?;
        self.seated(user, p.game_id)?;
        let saved = {
            let t = &self.tables[&p.game_id];
            if t.phase() != Phase::Over {
                return Err(protocol::described(d::NOT_OVER));
            }
            self.saved(t, 0)
        };
        let t = self.tables.get_mut(&p.game_id).expect("seated above");
        let waiter = (conn, req.id.clone());
        Ok(match &mut t.review {
            ReviewSlot::Done(v) => ReviewStart::Ready(v.clone()),
            ReviewSlot::Running(waiting) => {
                waiting.push(waiter);
                ReviewStart::Waiting
            }
            slot @ ReviewSlot::None => {
                *slot = ReviewSlot::Running(vec![waiter]);
                ReviewStart::Compute(t.id, t.board.clone(), saved)
            }
        })
    }

    /// A review computed (or the answer that it was not: busy, failed):
    /// every waiting connection gets it, and later requests get the review
    /// at once (or try again).
    pub fn review_done(&mut self, game: GameId, review: Result<Value, Value>) {
        let Some(t) = self.tables.get_mut(&game) else {
            return;
        };
        let waiting = match std::mem::take(&mut t.review) {
            ReviewSlot::Running(w) => w,
            other => {
                t.review = other;
                return;
            }
        };
        let out = match review {
            Ok(v) => {
                let v = Arc::new(v);
                t.review = ReviewSlot::Done(v.clone());
                (*v).clone()
            }
            Err(out) => out,
        };
        let mut batch = Batch::default();
        for (conn, id) in waiting {
            self.send_conn(&mut batch, conn, id.as_ref(), "getReview", out.clone());
        }
        self.commit(batch);
    }

    // ---- Saved games -----------------------------------------------------------

    fn save(&self, user: UserId, req: &Request) -> Result<SaveFile, Value> {
        let p: protocol::GameOnly = Self::params(req)?;
        let (t, seat) = self.seated(user, p.game_id)?;
        let Some(g) = t.game() else {
            return Err(
                json!({ "description": d::INVALID_INPUT, "reason": "the game has not started" }),
            );
        };
        let board_name = format!("game-{}.board.json", t.id);
        let mut file = GameState::of_player(g, seat).to_json(&t.board.board, &board_name);
        file["game"] = self.saved(t, seat).to_json();
        let name = format!("game-{}-{}.json", t.id, t.moves.len());
        Ok(SaveFile {
            path: self.saves.join(name),
            text: serde_json::to_string_pretty(&file).unwrap_or_default() + "\n",
            board_path: self.saves.join(board_name),
            board_text: t.board.json.clone(),
        })
    }

    /// A table as a saved game, from `seat`'s point of view.
    pub fn saved(&self, t: &Table, seat: usize) -> SavedGame {
        SavedGame {
            name: t.name.clone(),
            board_key: t.board.key.clone(),
            seed: t.seed().unwrap_or(0),
            seats: t
                .seats
                .iter()
                .map(|s| match s.who {
                    Who::User(u) => SavedSeat {
                        username: self.users.get(&u).map(|r| r.username.clone()),
                        bot: None,
                        color: s.color.to_string(),
                    },
                    Who::Bot(l) => SavedSeat {
                        username: None,
                        bot: Some(l.name().to_string()),
                        color: s.color.to_string(),
                    },
                })
                .collect(),
            saved_by: seat,
            moves: t.moves.clone(),
            chat: t
                .chat
                .iter()
                .map(|c| SavedChat {
                    sender: c.sender.clone(),
                    message: c.message.clone(),
                    at: c.at,
                })
                .collect(),
        }
    }

    fn load_game(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        conn: ConnId,
        req: &Request,
    ) -> Result<(), Value> {
        let error = |reason: String| json!({ "status": "error", "description": d::INVALID_INPUT, "reason": reason });
        let p: protocol::LoadGame = Self::params(req)
            .map_err(|_| error("path is a file name in the saves folder".into()))?;
        let asked = std::path::Path::new(&p.path);
        let name = asked
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        // Only the saves folder is read: a bare name, or a path into it.
        let inside = asked
            .parent()
            .is_none_or(|d| d.as_os_str().is_empty() || d == self.saves);
        if name.is_empty() || !inside || !name.ends_with(".json") {
            return Err(error(format!(
                "{}: only files in the saves folder are read",
                p.path
            )));
        }
        let (_, board_text, saved) =
            SavedGame::load(&self.saves.join(&name)).map_err(|e| error(e.to_string()))?;
        let board =
            Arc::new(board_entry(saved.board_key.clone(), board_text, &name).map_err(error)?);
        let mut seats = Vec::new();
        for (i, s) in saved.seats.iter().enumerate() {
            let user_id = match &s.username {
                Some(u) => Some(
                    self.by_name
                        .get(&u.to_lowercase())
                        .copied()
                        .ok_or_else(|| error(format!("{name}: game.seats[{i}]: no user {u}")))?,
                ),
                None => None,
            };
            seats.push(super::store::SeatRecord {
                user: user_id,
                bot: s.bot.clone(),
                color: s.color.clone(),
            });
        }
        if !seats.iter().any(|s| s.user == Some(user)) {
            return Err(error(format!("{name}: you have no seat in that game")));
        }
        let moves: Vec<MoveRecord> = saved
            .moves
            .iter()
            .map(|(seat, a)| MoveRecord {
                seat: *seat,
                action: Move::from(a).to_json(),
            })
            .collect();
        let chat: Vec<ChatRecord> = saved
            .chat
            .iter()
            .map(|c| ChatRecord {
                sender: c.sender.clone(),
                message: c.message.clone(),
                at: c.at,
            })
            .collect();
        let id = self.tables.keys().max().copied().unwrap_or(0) + 1;
        let created = now();
        let game_name: String = format!("{} (loaded)", saved.name)
            .chars()
            .take(MAX_NAME + 9)
            .collect();
        let g = GameRecord {
            id,
            name: game_name.clone(),
            creator: user,
            board_key: board.key.clone(),
            board_hash: board.hash.clone(),
            created,
            seed: Some(saved.seed),
            // A loaded game is a test fixture: the coach stays off.
            coach: false,
            seats: seats.clone(),
            moves: moves.clone(),
            chat: chat.clone(),
        };
        let names = |u: UserId| {
            self.users
                .get(&u)
                .map_or_else(|| format!("user {u}"), |r| r.username.clone())
        };
        let table =
            Table::restore(&g, board.clone(), &names).map_err(|e| error(format!("{name}: {e}")))?;
        self.store_board(batch, &board);
        batch.write(Write::Game {
            id,
            name: game_name,
            creator: user,
            board_key: board.key.clone(),
            board_hash: board.hash.clone(),
            created,
            coach: false,
        });
        batch.write(Write::Seats { game: id, seats });
        batch.write(Write::Start {
            game: id,
            seed: saved.seed,
        });
        for (seq, record) in moves.into_iter().enumerate() {
            batch.write(Write::Move {
                game: id,
                seq,
                record,
            });
        }
        for (seq, record) in chat.into_iter().enumerate() {
            batch.write(Write::Chat {
                game: id,
                seq,
                record,
            });
        }
        self.tables.insert(id, table);
        self.send_conn(
            batch,
            conn,
            req.id.as_ref(),
            "loadGameState",
            json!({ "status": "success", "description": d::SUCCESS, "gameId": id }),
        );
        self.push_user_games(batch, id);
        self.push_models(batch, id);
        Ok(())
    }
}

/// Whether a session is past its idle or absolute limit.
fn expired(s: &SessionRecord, now: i64) -> bool {
    now - s.last_used > SESSION_IDLE || now - s.created > SESSION_MAX
}

/// A player colour as a client names it.
fn color(name: &str) -> Option<&'static str> {
    let name = name.trim().to_lowercase();
    COLORS.iter().copied().find(|c| *c == name)
}

/// Every command of the protocol.
fn is_command(name: &str) -> bool {
    [
        "login",
        "register",
        "logout",
        "sendChat",
        "updateJoinableGames",
        "updateUserGames",
        "createGame",
        "joinGame",
        "leaveGame",
        "startGame",
        "addAI",
        "sendClientModelInformation",
        "buyRoute",
        "drawTrainCard",
        "getDestinations",
        "selectDestinations",
        "passTurn",
        "saveGameState",
        "loadGameState",
        "getCoach",
        "getReview",
    ]
    .contains(&name)
}

/// The rules engine's action for a move command of `seat`.
fn move_of(t: &Table, seat: usize, req: &Request) -> Result<Action, Value> {
    let bad = || protocol::described(d::INVALID_INPUT);
    match req.command.as_str() {
        "buyRoute" => {
            let p: protocol::BuyRoute = req.params().ok_or_else(bad)?;
            let &(route, track) = usize::try_from(p.route_index)
                .ok()
                .and_then(|i| t.board.tracks.get(i))
                .ok_or_else(|| protocol::described(d::INVALID_ROUTE))?;
            let length = t.board.board.route(route).length;
            let locomotives = u32::try_from(p.number_of_wilds).ok().filter(|&w| w <= length).ok_or_else(|| {
                json!({ "description": d::INSUFFICIENT_CARDS, "reason": format!("{} wilds for a route of {length}", p.number_of_wilds) })
            })?;
            let colour = if p.train_color.trim().eq_ignore_ascii_case("wild") {
                if locomotives < length {
                    return Err(
                        json!({ "description": d::INVALID_TRAIN_COLOR, "reason": "wild names a payment in wilds only" }),
                    );
                }
                match t.board.board.route(route).tracks[track] {
                    Colour::Gray => Colour::Red,
                    c => c,
                }
            } else {
                parse_colour(&p.train_color)
                    .ok_or_else(|| protocol::described(d::INVALID_TRAIN_COLOR))?
            };
            Ok(Action::Claim {
                route,
                track,
                colour,
                locomotives,
            })
        }
        "drawTrainCard" => {
            let p: protocol::DrawTrainCard = req.params().ok_or_else(bad)?;
            match p.card_location {
                0..=4 => Ok(Action::DrawFaceUp(p.card_location as usize)),
                5 => Ok(Action::DrawDeck),
                _ => Err(protocol::described(d::INVALID_CARD_LOCATION)),
            }
        }
        "getDestinations" => {
            let _: protocol::GameOnly = req.params().ok_or_else(bad)?;
            Ok(Action::DrawTickets)
        }
        "passTurn" => {
            let _: protocol::GameOnly = req.params().ok_or_else(bad)?;
            Ok(Action::Pass)
        }
        "selectDestinations" => {
            let p: protocol::SelectDestinations = req.params().ok_or_else(bad)?;
            let g = t
                .game()
                .ok_or_else(|| protocol::described(d::NOT_YOUR_TURN))?;
            let Some((offered, _)) = g.offer(seat) else {
                let mine = !g.is_over() && !g.in_setup() && g.current() == seat;
                return Err(protocol::described(if mine {
                    d::NO_DESTINATIONS
                } else {
                    d::NOT_YOUR_TURN
                }));
            };
            if p.destinations_selected.len() > offered.len() {
                return Err(protocol::described(d::NOT_A_VALID_INDEX));
            }
            let kept = p
                .destinations_selected
                .iter()
                .map(|&i| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| offered.get(i))
                        .copied()
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| protocol::described(d::NOT_A_VALID_INDEX))?;
            Ok(Action::KeepTickets(kept))
        }
        _ => Err(protocol::described(d::UNKNOWN_COMMAND)),
    }
}

/// 003's description of a move the rules engine refused.
fn refusal(command: &str, req: &Request, e: &RuleError) -> &'static str {
    match e.kind {
        Illegal::NotYourTurn => d::NOT_YOUR_TURN,
        Illegal::Over => d::GAME_OVER,
        Illegal::ChooseTickets => d::SELECT_FIRST,
        Illegal::DrawSecond => d::DRAW_SECOND,
        Illegal::LocomotiveSecond => d::WILD_ON_DRAW_AGAIN,
        Illegal::NoCard => {
            if req.parameters.get("cardLocation").and_then(Value::as_i64) == Some(5) {
                d::NO_MORE_CARDS
            } else {
                d::INVALID_CARD_LOCATION
            }
        }
        Illegal::NoTicket if command == "selectDestinations" => d::NO_DESTINATIONS,
        Illegal::NoTicket => d::NO_MORE_DESTINATIONS,
        Illegal::KeepMore => d::SELECT_MORE,
        Illegal::NotOffered => d::NOT_A_VALID_INDEX,
        Illegal::RouteUnavailable => d::INVALID_ROUTE,
        Illegal::Cars => d::INSUFFICIENT_TRAINS,
        Illegal::Colour => d::INVALID_TRAIN_COLOR,
        Illegal::Cards => d::INSUFFICIENT_CARDS,
        Illegal::Pass => d::PASS_NOT_ALLOWED,
        Illegal::Setup => d::SERVER_ERROR,
    }
}
