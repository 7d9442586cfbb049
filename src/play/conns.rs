//! Connections: every open WebSocket, the user it is logged in as (and the
//! session it came with), and the sending of messages to one connection,
//! to every connection of a user, or to a table's users. Messages go into
//! a [`Batch`], never straight to a socket: the journal commits the batch's
//! writes before it tells anyone ([`super::journal`]).

use std::collections::HashMap;

use serde_json::Value;

use super::journal::{Batch, Outbox};
use super::protocol::{envelope, message};
use super::store::{GameId, UserId};

/// A connection's id.
pub type ConnId = u64;

/// One open WebSocket. Its user and the game it watches change through
/// [`Conns`] alone, which indexes connections by both.
pub(super) struct Conn {
    pub(super) outbox: Outbox,
    user: Option<UserId>,
    /// The session it was opened with or logged in to (none after a login
    /// over the WebSocket itself).
    pub(super) session: Option<[u8; 32]>,
    /// The client's address (the login throttle counts per address).
    pub(super) address: Option<std::net::IpAddr>,
    /// The game this connection watches as a spectator (one at most, so
    /// that watching is bounded as connections are).
    watching: Option<GameId>,
}

impl Conn {
    /// A connection opened by `user` (if its session was valid), watching
    /// nothing.
    pub(super) fn new(
        outbox: Outbox,
        user: Option<UserId>,
        session: Option<[u8; 32]>,
        address: Option<std::net::IpAddr>,
    ) -> Conn {
        Conn {
            outbox,
            user,
            session,
            address,
            watching: None,
        }
    }

    /// The user it is logged in as.
    pub(super) fn user(&self) -> Option<UserId> {
        self.user
    }

    /// The game it watches.
    pub(super) fn watching(&self) -> Option<GameId> {
        self.watching
    }
}

/// Who asks: a connection (a WebSocket) or an HTTP request with its cookie.
#[derive(Clone, Copy, Debug)]
pub enum Caller {
    /// A WebSocket connection.
    Conn(ConnId),
    /// An HTTP request, with the session of its cookie if valid.
    Http(Option<[u8; 32]>),
}

/// Every open connection, indexed by user and by game watched: a message
/// to a user or to a game's spectators went through every connection
/// before (2,000 of them for each of a move's messages, under load).
pub(super) struct Conns {
    open: HashMap<ConnId, Conn>,
    by_user: HashMap<UserId, Vec<ConnId>>,
    by_game: HashMap<GameId, Vec<ConnId>>,
    next: ConnId,
}

impl Default for Conns {
    fn default() -> Conns {
        Conns {
            open: HashMap::new(),
            by_user: HashMap::new(),
            by_game: HashMap::new(),
            next: 1,
        }
    }
}

/// Adds `id` to `key`'s list of `index`.
fn index_add<K: std::hash::Hash + Eq>(
    index: &mut HashMap<K, Vec<ConnId>>,
    key: Option<K>,
    id: ConnId,
) {
    if let Some(k) = key {
        index.entry(k).or_default().push(id);
    }
}

/// Takes `id` off `key`'s list of `index` (and the list, once empty).
fn index_remove<K: std::hash::Hash + Eq>(
    index: &mut HashMap<K, Vec<ConnId>>,
    key: Option<K>,
    id: ConnId,
) {
    let Some(k) = key else { return };
    if let Some(list) = index.get_mut(&k) {
        list.retain(|&c| c != id);
        if list.is_empty() {
            index.remove(&k);
        }
    }
}

impl Conns {
    /// A new connection, under a new id.
    pub(super) fn open(&mut self, conn: Conn) -> ConnId {
        let id = self.next;
        self.next += 1;
        index_add(&mut self.by_user, conn.user, id);
        index_add(&mut self.by_game, conn.watching, id);
        self.open.insert(id, conn);
        id
    }

    /// A connection closed.
    pub(super) fn close(&mut self, id: ConnId) {
        if let Some(c) = self.open.remove(&id) {
            index_remove(&mut self.by_user, c.user, id);
            index_remove(&mut self.by_game, c.watching, id);
        }
    }

    /// Logs connection `id` in as `user` (or out: `None`), with `session`.
    pub(super) fn set_user(&mut self, id: ConnId, user: Option<UserId>, session: Option<[u8; 32]>) {
        let Some(c) = self.open.get_mut(&id) else {
            return;
        };
        let old = std::mem::replace(&mut c.user, user);
        c.session = session;
        index_remove(&mut self.by_user, old, id);
        index_add(&mut self.by_user, user, id);
    }

    /// Connection `id` watches `game` (or nothing).
    pub(super) fn set_watching(&mut self, id: ConnId, game: Option<GameId>) {
        let Some(c) = self.open.get_mut(&id) else {
            return;
        };
        let old = std::mem::replace(&mut c.watching, game);
        index_remove(&mut self.by_game, old, id);
        index_add(&mut self.by_game, game, id);
    }

    /// The connections of session `old` move to session `new`, as `user`
    /// (a session renewed).
    pub(super) fn renew_session(&mut self, old: [u8; 32], new: [u8; 32], user: UserId) {
        let moving: Vec<ConnId> = self
            .open
            .iter()
            .filter(|(_, c)| c.session == Some(old))
            .map(|(&id, _)| id)
            .collect();
        for id in moving {
            self.set_user(id, Some(user), Some(new));
        }
    }

    /// The user a connection is logged in as.
    pub(super) fn user(&self, id: ConnId) -> Option<UserId> {
        self.open.get(&id).and_then(|c| c.user)
    }

    /// A connection.
    pub(super) fn get(&self, id: ConnId) -> Option<&Conn> {
        self.open.get(&id)
    }

    /// Every connection with its id.
    pub(super) fn iter(&self) -> impl Iterator<Item = (ConnId, &Conn)> {
        self.open.iter().map(|(&id, c)| (id, c))
    }

    /// Sends `output` for `command` to connection `conn`, with the
    /// request's `id`.
    pub(super) fn send(
        &self,
        batch: &mut Batch,
        conn: ConnId,
        id: Option<&Value>,
        command: &str,
        output: Value,
    ) {
        if let Some(c) = self.open.get(&conn) {
            batch.send(&c.outbox, message(command, id, &output));
        }
    }

    /// Sends to every connection watching `game` (spectators get the
    /// public message: the one built for no seat).
    pub(super) fn send_watchers(
        &self,
        batch: &mut Batch,
        game: GameId,
        command: &str,
        output: &Value,
    ) {
        let Some(list) = self.by_game.get(&game) else {
            return;
        };
        let body = output.to_string();
        for c in list.iter().filter_map(|id| self.open.get(id)) {
            batch.send(&c.outbox, envelope(command, None, &body));
        }
    }

    /// How many connections watch `game`.
    pub(super) fn watchers(&self, game: GameId) -> usize {
        self.by_game.get(&game).map_or(0, Vec::len)
    }

    /// Sends to every connection of `user`; the connection `answer` (the
    /// one that asked) gets the request's id.
    pub(super) fn send_user(
        &self,
        batch: &mut Batch,
        user: UserId,
        answer: Option<(ConnId, Option<&Value>)>,
        command: &str,
        output: &Value,
    ) {
        let Some(list) = self.by_user.get(&user) else {
            return;
        };
        let body = output.to_string();
        for &cid in list {
            if let Some(c) = self.open.get(&cid) {
                let id = answer.filter(|(a, _)| *a == cid).and_then(|(_, id)| id);
                batch.send(&c.outbox, envelope(command, id, &body));
            }
        }
    }
}
