//! The server's state, in parts with one job each, and the routing of
//! every command to the part that runs it:
//!
//! | part | its job |
//! | --- | --- |
//! | [`super::sessions`] | users, sessions, logins, registrations, logouts |
//! | [`super::conns`] | the open connections and whom a message goes to |
//! | [`super::lobby`] | the boards offered, the lists of games, the commands of a game not yet started |
//! | [`super::tables`] | every game: the deal, chat, moves, the coach's and the review's inputs |
//! | [`super::saves`] | saved games written and loaded |
//! | [`super::shelf`] | finished games out of memory: their listings, and the read that brings one back (held by [`super::tables`]) |
//! | [`super::ratings`] | ratings of finished games, player pages, the leaderboard (held by [`super::tables`], which rates a game as it ends) |
//!
//! A command arrives typed ([`Command`], read once in
//! [`super::protocol`]); it runs under one lock, changes the state, and
//! hands the writes and the messages it causes to the [`Journal`] before
//! the lock is released, so that changes are committed, and told, in the
//! order they were made.
//!
//! The slow parts run outside the lock: password hashing (the two halves
//! of a login or registration, [`Hub::begin_login`] and
//! [`Hub::finish_login`]), a bot's thinking, the coach and the review
//! ([`super::Server`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use super::conns::{Conn, Conns};
use super::journal::{Batch, Journal, Outbox};
use super::lobby::{self, Lobby};
use super::protocol::{self, description as d, Command, Name, Request};
use super::saves;
use super::sessions::Accounts;
use super::shelf::{Shelf, Shelved, SHELVE_CHECK_MS};
use super::store::{GameId, GameReader, GameRecord, Snapshot, UserId, Write};
use super::table::{Phase, Table, TableBoard};
use super::tables::{Ask, Tables};
use crate::engine::rules::{Action, RuleError};

pub use super::conns::{Caller, ConnId};
pub use super::lobby::Offer;
pub use super::saves::SaveFile;
pub use super::sessions::{
    now, LoginCheck, LoginOutcome, RegisterCheck, SESSION_IDLE, SESSION_MAX,
};
pub use super::tables::{CoachInput, ReviewStart};

/// Connections not logged in from one address, at most: a household's
/// tabs and browsers, far below what fills a server.
pub const MAX_ANONYMOUS_PER_ADDRESS: usize = 32;

/// The server's state: its parts, and the journal every change goes
/// through.
pub struct Hub {
    accounts: Accounts,
    conns: Conns,
    lobby: Lobby,
    tables: Tables,
    journal: Journal,
    /// When the clock last looked for finished games to shelve (ms).
    last_shelving: i64,
}

/// The board of a stored game: the lobby's entry for its key and hash, or
/// its own text's (an upload no longer offered, a board since changed).
fn board_of(
    lobby: &mut Lobby,
    texts: &HashMap<String, String>,
    g: &GameRecord,
) -> Result<Arc<TableBoard>, String> {
    let board = lobby.entry_for(texts, &g.board_key, &g.board_hash)?;
    if board.key == g.board_key {
        return Ok(board);
    }
    Ok(Arc::new(TableBoard::new(
        g.board_key.clone(),
        board.hash.clone(),
        board.json.clone(),
        (*board.board).clone(),
    )))
}

/// Users, sessions and games read back, with a note for anything skipped.
pub struct Loaded {
    /// The state.
    pub hub: Hub,
    /// Games that could not be rebuilt, and why.
    pub warnings: Vec<String>,
}

impl Hub {
    /// The state from a store's snapshot, offering `offers` (the first is
    /// the default board) and the uploads stored; games deal from `seed`
    /// plus their id when it is given (tests and benchmarks only).
    pub fn load(
        snapshot: Snapshot,
        offers: Vec<Offer>,
        (journal, reader): (Journal, Box<dyn GameReader>),
        (saves, seed): (PathBuf, Option<u64>),
    ) -> Result<Loaded, String> {
        let texts: HashMap<String, String> = snapshot
            .boards
            .into_iter()
            .map(|b| (b.hash, b.json))
            .collect();
        let mut lobby = Lobby::new(offers, texts.keys().cloned().collect())?;
        let mut batch = Batch::default();
        let accounts = Accounts::load(snapshot.users, snapshot.sessions, &mut batch);
        let mut warnings = Vec::new();
        for u in snapshot.uploads {
            if let Err(e) = lobby.restore_upload(&texts, u) {
                warnings.push(e);
            }
        }
        let mut tables = Tables::new(saves);
        tables.seed = seed;
        tables.shelf = Shelf::new(Some(reader));
        tables.given_up_to(snapshot.last_game_id);
        tables.ratings = super::ratings::Ratings::load(snapshot.results);
        let names = |u| accounts.seat_name(u);
        // Finished games stay on disk: only their listings are kept.
        for f in snapshot.finished {
            let g = &f.header;
            let shelved = board_of(&mut lobby, &texts, g)
                .and_then(|board| Shelved::of_record(g, board, &names));
            match shelved {
                Ok(s) => tables.shelf.put(g.id, s),
                Err(e) => warnings.push(format!("game {} ({}): {e}", g.id, g.name)),
            }
        }
        for g in snapshot.games {
            let restored = board_of(&mut lobby, &texts, &g)
                .and_then(|board| Table::restore(&g, board, &names));
            match restored {
                // A game over not yet marked so (ended before the store
                // kept the mark) is marked, and shelved like the others.
                Ok(t) if t.phase() == Phase::Over => {
                    batch.write(Write::Over { game: t.id });
                    tables.shelf.put(t.id, Shelved::of(&t));
                }
                Ok(t) => tables.insert(t),
                Err(e) => warnings.push(format!(
                    "game {} ({}) cannot be rebuilt and is left out: {e}",
                    g.id, g.name
                )),
            }
        }
        drop(journal.commit(batch));
        let hub = Hub {
            accounts,
            conns: Conns::default(),
            lobby,
            tables,
            journal,
            last_shelving: 0,
        };
        Ok(Loaded { hub, warnings })
    }

    /// The games with a bot to move (after a restart).
    pub fn games_with_bots_to_move(&self) -> Vec<GameId> {
        self.tables
            .iter()
            .filter(|t| t.bot_to_move().is_some())
            .map(|t| t.id)
            .collect()
    }

    /// The server's ticker: the games whose turn's time is up, marked
    /// overdue and their players told (`Tables::time_up`), for the bot
    /// path to play.
    pub fn clock_tick(&mut self, now_ms: i64) -> Vec<GameId> {
        let mut batch = Batch::default();
        let due = self.tables.time_up(&self.conns, &mut batch, now_ms);
        let every = SHELVE_CHECK_MS.min(self.tables.shelf.idle_ms);
        if now_ms - self.last_shelving >= every {
            self.last_shelving = now_ms;
            let committed = self.journal.committed();
            self.tables.shelve_idle(&self.conns, now_ms, committed);
        }
        let lobby = std::mem::take(&mut self.tables.lobby_stale);
        if lobby {
            lobby::send_lobby(&self.tables, &self.conns, &mut batch);
        }
        // Nothing due (nearly every tick): no batch for the journal's thread.
        if !due.is_empty() || lobby {
            self.commit(batch);
        }
        due
    }

    /// Sets how long a finished game stays in memory once unused.
    pub fn set_shelve_after(&mut self, idle: std::time::Duration) {
        self.tables.shelf.idle_ms = idle.as_millis() as i64;
    }

    /// Sets the most finished games kept in memory at once.
    pub fn set_finished_cap(&mut self, cap: usize) {
        self.tables.shelf.awake_cap = cap;
    }

    /// The games in memory, and the finished games shelved
    /// ([`super::shelf`]).
    pub fn games_held(&self) -> (usize, usize) {
        self.tables.counts()
    }

    /// Brings game `id` back into memory if it is shelved: its players'
    /// and spectators' commands then find it as before. A game that does
    /// not read back stays shelved and is reported (the command then
    /// finds no such game).
    fn wake(&mut self, id: GameId) {
        let accounts = &self.accounts;
        let names = |u| accounts.seat_name(u);
        let woke = match self.tables.wake(id, &names) {
            Ok(woke) => woke,
            Err(e) => {
                eprintln!("ttr-opt play: game {id} could not be read back from the store: {e}");
                false
            }
        };
        self.tables.touch(id, super::timer::now_ms(), None);
        if woke {
            let committed = self.journal.committed();
            self.tables.shelve_beyond_cap(&self.conns, committed, id);
        }
    }

    /// Sets the shortest real-time turn `createGame` accepts, in seconds.
    pub fn set_min_turn_secs(&mut self, secs: u32) {
        self.tables.min_turn_secs = secs;
    }

    /// A table, for the server's bot scheduling.
    pub fn table_mut(&mut self, id: GameId) -> Option<&mut Table> {
        self.tables.get_mut(id)
    }

    /// A table.
    pub fn table(&self, id: GameId) -> Option<&Table> {
        self.tables.get(id)
    }

    /// Stops the journal, committing what is queued.
    pub fn stop(&mut self) {
        self.journal.stop();
    }

    /// Hands `batch` to the journal. Each game it writes is marked used,
    /// with the batch's number: a finished game is shelved only once its
    /// last writes are on disk, where the shelf reads it back.
    fn commit(&mut self, batch: Batch) -> tokio::sync::oneshot::Receiver<()> {
        let number = self.journal.next_number();
        let mut last = None;
        for game in batch.writes.iter().filter_map(Write::game) {
            if last != Some(game) {
                self.tables
                    .touch(game, super::timer::now_ms(), Some(number));
                last = Some(game);
            }
        }
        self.journal.commit(batch)
    }

    // ---- Connections -----------------------------------------------------

    /// A new WebSocket connection, logged in if `session` (its cookie's
    /// token hash) is valid. The first message tells the client whether it
    /// is logged in.
    ///
    /// Refused (`None`) when its address has [`MAX_ANONYMOUS_PER_ADDRESS`]
    /// connections not logged in already: one client opened 3,000, each
    /// holding a socket, a task and a queue. This machine's own address is
    /// not capped (the load benchmark; a proxy in front says whom it
    /// forwards, see `http::client_address`).
    pub fn connect(
        &mut self,
        outbox: Outbox,
        session: Option<[u8; 32]>,
        address: Option<std::net::IpAddr>,
    ) -> Option<ConnId> {
        let mut batch = Batch::default();
        let user = session.and_then(|s| self.accounts.session_user(s, &mut batch));
        if let (None, Some(a)) = (user, address.filter(|a| !a.is_loopback())) {
            let anonymous = self
                .conns
                .iter()
                .filter(|(_, c)| c.user().is_none() && c.address == Some(a))
                .count();
            if anonymous >= MAX_ANONYMOUS_PER_ADDRESS {
                self.commit(batch);
                return None;
            }
        }
        let id = self
            .conns
            .open(Conn::new(outbox, user, user.and(session), address));
        let username = user.and_then(|u| self.accounts.find_username(u));
        self.conns.send(
            &mut batch,
            id,
            None,
            "session",
            json!({
                "description": d::SUCCESS,
                "username": username,
                "serverTime": super::timer::now_ms(),
            }),
        );
        if let Some(u) = user {
            lobby::push_games_to(&self.tables, &self.conns, &mut batch, id, u);
        }
        self.commit(batch);
        Some(id)
    }

    /// The most bytes queued for any one connection now: bounded by
    /// [`super::journal::MAX_QUEUED_BYTES`].
    pub fn most_queued_bytes(&self) -> usize {
        self.conns
            .iter()
            .map(|(_, c)| c.outbox.queued_bytes())
            .max()
            .unwrap_or(0)
    }

    /// The connections open now.
    pub fn connections(&self) -> usize {
        self.conns.iter().count()
    }

    /// A connection closed.
    pub fn disconnect(&mut self, conn: ConnId) {
        self.conns.close(conn);
    }

    /// The user of a valid session, without recording a use (HTTP calls).
    pub fn user_of_session(&self, token_hash: [u8; 32]) -> Option<UserId> {
        self.accounts.user_of_session(token_hash)
    }

    /// Sends `output` to connection `conn` as the answer to `command`.
    pub fn reply(&mut self, conn: ConnId, command: &str, id: Option<&Value>, output: Value) {
        let mut batch = Batch::default();
        self.conns.send(&mut batch, conn, id, command, output);
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
        if let Some(c) = self.conns.get(conn) {
            let m = json!({ "command": command, "output": { "description": description } });
            let mut m = m;
            if let Some(id) = id {
                m["id"] = id.clone();
            }
            batch.send(&c.outbox, m.to_string());
        }
        self.commit(batch);
    }

    // ---- Commands ----------------------------------------------------------

    /// Who asks, and what: the connection's user and the command `name`
    /// with the request's parameters read. A connection that is not logged
    /// in is refused before its parameters are read (a `logout` of one is
    /// a success); a move whose parameters do not read is refused for its
    /// game first (`Tables::misread_move`).
    pub fn read(
        &self,
        conn: ConnId,
        name: Name,
        req: &Request,
    ) -> Result<(UserId, Command), Value> {
        let Some(user) = self.conns.user(conn) else {
            let answer = if name == Name::Logout {
                d::SUCCESS
            } else {
                d::NOT_LOGGED_IN
            };
            return Err(protocol::described(answer));
        };
        match Command::parse(name, req) {
            Ok(c) => Ok((user, c)),
            Err(misread) if name.is_move() => {
                let game = req.parameters.get("gameId").and_then(Value::as_i64);
                Err(self.tables.misread_move(user, game, misread))
            }
            Err(misread) => Err(misread),
        }
    }

    /// Runs a command of a connection, read as [`Hub::read`] reads it
    /// (every command but `login` and `register`, whose hashing the server
    /// runs outside the lock, and the coach's and the review's, which run
    /// on the coach's thread). Returns the command run, and for
    /// `saveGameState` the file to write.
    pub fn command(
        &mut self,
        conn: ConnId,
        name: Name,
        req: &Request,
    ) -> (Option<Command>, Option<SaveFile>) {
        let mut batch = Batch::default();
        let id = req.id.as_ref();
        let (user, command) = match self.read(conn, name, req) {
            Ok(read) => read,
            Err(out) => {
                self.conns.send(&mut batch, conn, id, name.as_str(), out);
                self.commit(batch);
                return (None, None);
            }
        };
        if let Some(game) = command.game_id() {
            self.wake(game);
        }
        let ask = Ask { user, conn, id };
        let mut save = None;
        if let Err(out) = self.run(&mut batch, ask, &command, &mut save) {
            self.conns.send(&mut batch, conn, id, name.as_str(), out);
        }
        self.commit(batch);
        (Some(command), save)
    }

    /// The part that runs each command.
    fn run(
        &mut self,
        batch: &mut Batch,
        ask: Ask,
        command: &Command,
        save: &mut Option<SaveFile>,
    ) -> Result<(), Value> {
        let Hub {
            accounts,
            conns,
            lobby,
            tables,
            ..
        } = self;
        match command {
            Command::Login(_) | Command::Register(_) => {
                Err(protocol::described(d::ALREADY_LOGGED_IN))
            }
            Command::Logout => {
                accounts.logout(conns, batch, (Caller::Conn(ask.conn), ask.id));
                Ok(())
            }
            // The lists: each answered whole to the connection that asked.
            Command::UpdateJoinableGames | Command::UpdateUserGames | Command::WatchableGames => {
                let (name, out) = match command {
                    Command::UpdateJoinableGames => {
                        (Name::UpdateJoinableGames, lobby::joinable(tables, ask.user))
                    }
                    Command::UpdateUserGames => {
                        (Name::UpdateUserGames, lobby::user_games(tables, ask.user))
                    }
                    _ => (Name::WatchableGames, tables.watchable(ask.user)),
                };
                conns.send(batch, ask.conn, ask.id, name.as_str(), out);
                Ok(())
            }
            Command::SendChat(p) => tables.chat((accounts, conns), batch, ask, p),
            Command::CreateGame(p) => lobby.create(tables, (accounts, conns), batch, ask, p),
            Command::JoinGame(p) => lobby::join(tables, (accounts, conns), batch, ask, p),
            Command::LeaveGame(p) => lobby::leave(tables, conns, batch, ask, p),
            Command::AddAi(p) => lobby::add_ai(tables, conns, batch, ask, p),
            Command::StartGame(p) => lobby::start(tables, conns, batch, ask, p),
            Command::Model(p) => tables.model(conns, batch, ask, p),
            Command::GetHistory(p) => tables.lines(conns, batch, (ask, false), p),
            Command::GetReplay(p) => tables.replay(conns, batch, ask, p),
            Command::GetChat(p) => tables.lines(conns, batch, (ask, true), p),
            Command::WatchGame(p) => tables.watch(conns, batch, ask, p),
            Command::Rematch(p) => lobby::rematch(tables, (accounts, conns), batch, ask, p),
            Command::Move(m) => {
                if tables.game_move(conns, batch, ask, m)? {
                    lobby::push_user_games(tables, conns, batch, m.game_id());
                }
                Ok(())
            }
            // The server writes the file, then answers with its path.
            Command::SaveGameState(p) => {
                *save = Some(saves::save(tables, accounts, ask, p)?);
                Ok(())
            }
            Command::LoadGameState(p) => {
                saves::load_game((tables, lobby), (accounts, conns), batch, ask, p)
            }
            Command::ListSessions => {
                let current = conns.get(ask.conn).and_then(|c| c.session);
                let out = accounts.list_sessions(conns, ask.user, current);
                conns.send(batch, ask.conn, ask.id, Name::ListSessions.as_str(), out);
                Ok(())
            }
            Command::RevokeSession(p) => {
                // Answered first: revoking one's own session closes this
                // connection once the answer is sent.
                let session = accounts.find_session(ask.user, &p.session_id)?;
                let out = protocol::described(d::SUCCESS);
                let name = Name::RevokeSession.as_str();
                conns.send(batch, ask.conn, ask.id, name, out);
                accounts.end_session(conns, batch, session);
                Ok(())
            }
            Command::RevokeOtherSessions => {
                let current = conns.get(ask.conn).and_then(|c| c.session);
                let out = protocol::described(d::SUCCESS);
                let name = Name::RevokeOtherSessions.as_str();
                conns.send(batch, ask.conn, ask.id, name, out);
                accounts.revoke_other_sessions(conns, batch, ask.user, (ask.conn, current));
                Ok(())
            }
            Command::GetCoach(_) | Command::GetReview(_) => {
                Err(protocol::described(d::UNKNOWN_COMMAND))
            }
            Command::GetPlayer(p) => {
                let out = tables.player_page(accounts, &p.name)?;
                conns.send(batch, ask.conn, ask.id, Name::GetPlayer.as_str(), out);
                Ok(())
            }
            Command::GetRatings => {
                let out = tables.ratings.leaderboard();
                conns.send(batch, ask.conn, ask.id, Name::GetRatings.as_str(), out);
                Ok(())
            }
        }
    }

    /// Plays `action` for `seat` (a bot's move): the rules engine decides;
    /// if legal, the move is recorded and every player told, each what they
    /// may know (`Tables::play`).
    pub fn play(
        &mut self,
        batch: &mut Batch,
        game: GameId,
        seat: usize,
        action: &Action,
    ) -> Result<(), RuleError> {
        if self
            .tables
            .play(&self.conns, batch, game, seat, action, None)?
        {
            lobby::push_user_games(&mut self.tables, &self.conns, batch, game);
        }
        Ok(())
    }

    /// Commits a bot's move made through [`Hub::play`].
    pub fn commit_batch(&mut self, batch: Batch) {
        self.commit(batch);
    }

    // ---- Accounts ----------------------------------------------------------

    /// A login's first half: refused at once (already logged in, throttled),
    /// or the hash to verify outside the lock.
    pub fn begin_login(
        &mut self,
        caller: Caller,
        username: &str,
        address: Option<std::net::IpAddr>,
    ) -> Result<LoginCheck, Value> {
        self.accounts
            .begin_login(&self.conns, caller, (username, address))
    }

    /// The client address of a connection.
    pub fn conn_address(&self, conn: ConnId) -> Option<std::net::IpAddr> {
        self.conns.get(conn).and_then(|c| c.address)
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
        let logged = self.accounts.finish_login(
            &mut self.conns,
            &mut batch,
            (caller, req_id),
            username,
            (check, (verified, rehash)),
        );
        self.logged(batch, logged)
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
        self.accounts
            .begin_register(&self.conns, caller, (username, password, email))
    }

    /// A registration's second half, with the password's hash.
    pub fn finish_register(
        &mut self,
        caller: Caller,
        req_id: Option<&Value>,
        check: RegisterCheck,
        hash: Result<String, String>,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        let mut batch = Batch::default();
        let logged = self.accounts.finish_register(
            &mut self.conns,
            &mut batch,
            (caller, req_id),
            check,
            hash,
        );
        self.logged(batch, logged)
    }

    /// A login or registration done: a connection logged in gets its lists
    /// of games, then it is all committed.
    fn logged(
        &mut self,
        mut batch: Batch,
        logged: super::sessions::Logged,
    ) -> (LoginOutcome, tokio::sync::oneshot::Receiver<()>) {
        if let Some((conn, user)) = logged.bound {
            lobby::push_games_to(&self.tables, &self.conns, &mut batch, conn, user);
        }
        (logged.outcome, self.commit(batch))
    }

    /// Logs out an HTTP caller.
    pub fn logout_http(&mut self, session: Option<[u8; 32]>) -> tokio::sync::oneshot::Receiver<()> {
        let mut batch = Batch::default();
        self.accounts
            .logout(&mut self.conns, &mut batch, (Caller::Http(session), None));
        self.commit(batch)
    }

    // ---- The boards ----------------------------------------------------------

    /// The boards offered, for `GET /api/boards`.
    pub fn boards(&self) -> Value {
        let accounts = &self.accounts;
        self.lobby.boards(&|u| accounts.username(u))
    }

    /// A game's board as the map draws it (JSON), for its players and,
    /// once begun, its spectators.
    pub fn board_view(&self, game: GameId, user: UserId) -> Option<String> {
        // Its players, and once begun its spectators (any user may watch
        // a game begun: `watchableGames` lists them). A shelved game is
        // over: its board is shown without reading it back.
        let shelved = || self.tables.shelf.get(game).map(|g| g.board.view.clone());
        self.tables
            .get(game)
            .filter(|t| t.seat_of(user).is_some() || t.phase() != Phase::Open)
            .map(|t| t.board.view.clone())
            .or_else(shelved)
    }

    /// Whether `user` may upload a board of `bytes` now (quota and rate);
    /// the attempt is counted.
    pub fn upload_allowed(&mut self, user: UserId, bytes: usize) -> Result<(), Value> {
        self.lobby.upload_allowed(user, bytes)
    }

    /// A board file uploaded by `user`, validated as the command line
    /// validates it, then offered as `upload-<id>`.
    pub fn upload(
        &mut self,
        user: UserId,
        name: &str,
        text: String,
    ) -> (Value, tokio::sync::oneshot::Receiver<()>) {
        let mut batch = Batch::default();
        let out = self.lobby.upload(&mut batch, user, name, text);
        (out, self.commit(batch))
    }

    // ---- The coach and the review -------------------------------------------

    /// What the coach may know for `getCoach` (`Tables::coach_input`),
    /// for the user of `conn`.
    pub fn coach_input(&mut self, conn: ConnId, req: &Request) -> Result<CoachInput, Value> {
        match self.read(conn, Name::GetCoach, req)? {
            (user, Command::GetCoach(p)) => {
                self.wake(p.game_id);
                self.tables.coach_input(user, &p)
            }
            _ => Err(protocol::described(d::UNKNOWN_COMMAND)),
        }
    }

    /// `getReview`: the review if done; else whether to start it (this
    /// connection waits for it either way).
    pub fn review_input(&mut self, conn: ConnId, req: &Request) -> Result<ReviewStart, Value> {
        let (user, p) = match self.read(conn, Name::GetReview, req)? {
            (user, Command::GetReview(p)) => (user, p),
            _ => return Err(protocol::described(d::UNKNOWN_COMMAND)),
        };
        self.wake(p.game_id);
        let ask = Ask {
            user,
            conn,
            id: req.id.as_ref(),
        };
        let accounts = &self.accounts;
        self.tables
            .review_input(ask, &p, |t| saves::saved(accounts, t, 0))
    }

    /// A review computed (or the answer that it was not): every waiting
    /// connection gets it.
    pub fn review_done(&mut self, game: GameId, review: Result<Value, Value>) {
        let mut batch = Batch::default();
        self.tables
            .review_done(&self.conns, &mut batch, game, review);
        self.commit(batch);
    }
}
