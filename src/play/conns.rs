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

/// One open WebSocket.
pub(super) struct Conn {
    pub(super) outbox: Outbox,
    pub(super) user: Option<UserId>,
    /// The session it was opened with or logged in to (none after a login
    /// over the WebSocket itself).
    pub(super) session: Option<[u8; 32]>,
    /// The client's address (the login throttle counts per address).
    pub(super) address: Option<std::net::IpAddr>,
    /// The game this connection watches as a spectator (one at most, so
    /// that watching is bounded as connections are).
    pub(super) watching: Option<GameId>,
}

/// Who asks: a connection (a WebSocket) or an HTTP request with its cookie.
#[derive(Clone, Copy, Debug)]
pub enum Caller {
    /// A WebSocket connection.
    Conn(ConnId),
    /// An HTTP request, with the session of its cookie if valid.
    Http(Option<[u8; 32]>),
}

/// Every open connection.
pub(super) struct Conns {
    open: HashMap<ConnId, Conn>,
    next: ConnId,
}

impl Default for Conns {
    fn default() -> Conns {
        Conns {
            open: HashMap::new(),
            next: 1,
        }
    }
}

impl Conns {
    /// A new connection, under a new id.
    pub(super) fn open(&mut self, conn: Conn) -> ConnId {
        let id = self.next;
        self.next += 1;
        self.open.insert(id, conn);
        id
    }

    /// A connection closed.
    pub(super) fn close(&mut self, id: ConnId) {
        self.open.remove(&id);
    }

    /// The user a connection is logged in as.
    pub(super) fn user(&self, id: ConnId) -> Option<UserId> {
        self.open.get(&id).and_then(|c| c.user)
    }

    /// A connection.
    pub(super) fn get(&self, id: ConnId) -> Option<&Conn> {
        self.open.get(&id)
    }

    /// A connection, to log it in or out.
    pub(super) fn get_mut(&mut self, id: ConnId) -> Option<&mut Conn> {
        self.open.get_mut(&id)
    }

    /// Every connection with its id.
    pub(super) fn iter(&self) -> impl Iterator<Item = (ConnId, &Conn)> {
        self.open.iter().map(|(&id, c)| (id, c))
    }

    /// Every connection, to move them to a new session.
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Conn> {
        self.open.values_mut()
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
        let mut body = None;
        for c in self.open.values().filter(|c| c.watching == Some(game)) {
            let body = body.get_or_insert_with(|| output.to_string());
            batch.send(&c.outbox, envelope(command, None, body));
        }
    }

    /// How many connections watch `game`.
    pub(super) fn watchers(&self, game: GameId) -> usize {
        self.open
            .values()
            .filter(|c| c.watching == Some(game))
            .count()
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
        let mut body = None;
        for (&cid, c) in &self.open {
            if c.user == Some(user) {
                let id = answer.filter(|(a, _)| *a == cid).and_then(|(_, id)| id);
                let body = body.get_or_insert_with(|| output.to_string());
                batch.send(&c.outbox, envelope(command, id, body));
            }
        }
    }
}
