//! Accounts and sessions: the users (by id, name and email), their
//! sessions, and the login throttle; logins and registrations in two
//! halves (the password hashing runs between them, outside the lock), and
//! logouts. The rules of a registration, the hashes and the tokens are
//! [`super::accounts`]'; this part keeps the state they apply to.
//!
//! Each method writes what it changed and the messages it causes into the
//! caller's [`Batch`]; the hub commits it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

use serde_json::{json, Value};

use super::accounts::{self, Throttle};
use super::conns::{Caller, ConnId, Conns};
use super::journal::Batch;
use super::protocol::{self, description as d};
use super::store::{SessionRecord, UserId, UserRecord, Write};

/// A session lasts this long without use.
pub const SESSION_IDLE: i64 = 30 * 24 * 3600;
/// And at most this long in all.
pub const SESSION_MAX: i64 = 180 * 24 * 3600;

/// A user holds at most this many live sessions: a login beyond ends the
/// least recently used (one user had 40 live sessions, each a cookie that
/// logs in for months).
pub const MAX_SESSIONS_PER_USER: usize = 20;

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Whether a session is past its idle or absolute limit.
pub(super) fn expired(s: &SessionRecord, now: i64) -> bool {
    now - s.last_used > SESSION_IDLE || now - s.created > SESSION_MAX
}

/// A login's first half: what to verify outside the lock.
pub struct LoginCheck {
    user: Option<UserId>,
    /// The stored hash (or a decoy for an unknown user).
    pub hash: String,
    /// The client's address, whose attempt was counted.
    address: Option<IpAddr>,
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

/// What a login or registration's second half did: its outcome, and the
/// connection it logged in, which gets its lists of games next.
pub(super) struct Logged {
    pub(super) outcome: LoginOutcome,
    pub(super) bound: Option<(ConnId, UserId)>,
}

/// Who asks for a login, a registration or a logout, and the id its
/// answer echoes.
pub(super) type Asker<'a> = (Caller, Option<&'a Value>);

/// The users and their sessions.
#[derive(Default)]
pub(super) struct Accounts {
    users: HashMap<UserId, UserRecord>,
    by_name: HashMap<String, UserId>,
    emails: HashMap<String, UserId>,
    sessions: HashMap<[u8; 32], SessionRecord>,
    throttle: Throttle,
}

impl Accounts {
    /// The users and sessions read back; an expired session is ended.
    pub(super) fn load(
        users: Vec<UserRecord>,
        sessions: Vec<SessionRecord>,
        batch: &mut Batch,
    ) -> Accounts {
        let mut accounts = Accounts::default();
        for u in users {
            accounts.by_name.insert(u.username.to_lowercase(), u.id);
            if let Some(e) = &u.email {
                accounts.emails.insert(e.to_lowercase(), u.id);
            }
            accounts.users.insert(u.id, u);
        }
        let now = now();
        for s in sessions {
            if expired(&s, now) {
                batch.write(Write::EndSession {
                    token_hash: s.token_hash,
                });
            } else {
                accounts.sessions.insert(s.token_hash, s);
            }
        }
        accounts
    }

    /// A user's name (empty for an unknown id).
    pub(super) fn username(&self, user: UserId) -> String {
        self.users
            .get(&user)
            .map(|u| u.username.clone())
            .unwrap_or_default()
    }

    /// A user's name, if the user exists.
    pub(super) fn find_username(&self, user: UserId) -> Option<String> {
        self.users.get(&user).map(|u| u.username.clone())
    }

    /// A user's name, or `user N` for one the store lost: how a restored
    /// table names its seats.
    pub(super) fn seat_name(&self, user: UserId) -> String {
        self.find_username(user)
            .unwrap_or_else(|| format!("user {user}"))
    }

    /// The user of a name, in any case.
    pub(super) fn by_name(&self, name: &str) -> Option<UserId> {
        self.by_name.get(&name.to_lowercase()).copied()
    }

    /// The user of a valid session (used now: its time is recorded).
    pub(super) fn session_user(
        &mut self,
        token_hash: [u8; 32],
        batch: &mut Batch,
    ) -> Option<UserId> {
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
    pub(super) fn user_of_session(&self, token_hash: [u8; 32]) -> Option<UserId> {
        self.sessions
            .get(&token_hash)
            .filter(|s| !expired(s, now()))
            .map(|s| s.user)
    }

    /// A login's first half: refused at once (already logged in, throttled),
    /// or the hash to verify outside the lock.
    pub(super) fn begin_login(
        &mut self,
        conns: &Conns,
        caller: Caller,
        (username, address): (&str, Option<IpAddr>),
    ) -> Result<LoginCheck, Value> {
        if let Caller::Conn(c) = caller {
            if conns.user(c).is_some() {
                return Err(protocol::described(d::ALREADY_LOGGED_IN));
            }
        }
        // Counted now, before the hash, in the same step as the check:
        // guesses racing over many connections are each counted.
        if let Err(wait) = self.throttle.reserve(username, address, Instant::now()) {
            return Err(json!({
                "description": d::TOO_MANY_ATTEMPTS,
                "retryAfter": wait.as_secs().max(1),
            }));
        }
        let user = self.by_name(username);
        let hash = user.and_then(|u| self.users.get(&u)).map_or_else(
            || accounts::decoy_hash().to_string(),
            |u| u.password.clone(),
        );
        Ok(LoginCheck {
            user,
            hash,
            address,
        })
    }

    /// A login's second half, once the password was checked (`verified`:
    /// whether it matched, and a new hash at today's parameters when the
    /// stored one is weaker).
    pub(super) fn finish_login(
        &mut self,
        conns: &mut Conns,
        batch: &mut Batch,
        asker: Asker,
        username: &str,
        (check, verified): (LoginCheck, (bool, Option<String>)),
    ) -> Logged {
        let (ok, rehash) = verified;
        let user = match (check.user, ok) {
            (Some(u), true) => u,
            // The failure was counted when the attempt was let through.
            _ => {
                let out = protocol::described(d::INVALID_INPUT);
                return refused(conns, batch, asker, "login", out);
            }
        };
        self.throttle.succeed(username, check.address);
        if let Some(hash) = rehash {
            if let Some(u) = self.users.get_mut(&user) {
                u.password = hash.clone();
            }
            batch.write(Write::Password { user, hash });
        }
        self.log_in(conns, batch, asker, "login", user)
    }

    /// A registration's first half: the rules, and whether the name or
    /// email is taken.
    pub(super) fn begin_register(
        &self,
        conns: &Conns,
        caller: Caller,
        (username, password, email): (&str, &str, Option<&str>),
    ) -> Result<RegisterCheck, Value> {
        if let Caller::Conn(c) = caller {
            if conns.user(c).is_some() {
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
    pub(super) fn finish_register(
        &mut self,
        conns: &mut Conns,
        batch: &mut Batch,
        asker: Asker,
        check: RegisterCheck,
        hash: Result<String, String>,
    ) -> Logged {
        let hash = match hash {
            Ok(h) => h,
            Err(e) => {
                eprintln!("ttr-opt play: {e}");
                let out = protocol::described(d::SERVER_ERROR);
                return refused(conns, batch, asker, "register", out);
            }
        };
        // Checked again: another registration may have taken the name while
        // this one was hashing.
        if let Err(reason) = self.taken(&check.username, check.email.as_deref()) {
            let out = json!({ "description": d::INVALID_INPUT, "reason": reason });
            return refused(conns, batch, asker, "register", out);
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
        batch.write(Write::User(record));
        self.log_in(conns, batch, asker, "register", id)
    }

    /// Logs `user` in for the asker: a connection is bound to the user; an
    /// HTTP caller gets a new session (its old one, if any, ended and its
    /// connections moved over). A user may be logged in from several
    /// browsers at once (issue 57: a second browser was refused); each
    /// session is listed and revocable.
    fn log_in(
        &mut self,
        conns: &mut Conns,
        batch: &mut Batch,
        asker: Asker,
        command: &str,
        user: UserId,
    ) -> Logged {
        let (caller, req_id) = asker;
        let username = self.find_username(user);
        let out = json!({ "description": d::SUCCESS, "username": username });
        match caller {
            Caller::Conn(conn) => {
                conns.set_user(conn, Some(user), None);
                conns.send(batch, conn, req_id, command, out.clone());
                Logged {
                    outcome: LoginOutcome {
                        output: out,
                        token: None,
                    },
                    bound: Some((conn, user)),
                }
            }
            Caller::Http(old) => {
                let token = match accounts::new_token() {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("ttr-opt play: {e}");
                        let out = protocol::described(d::SERVER_ERROR);
                        return refused(conns, batch, asker, command, out);
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
                self.cap_sessions(conns, batch, user);
                if let Some(old) = old {
                    if self.sessions.remove(&old).is_some() {
                        batch.write(Write::EndSession { token_hash: old });
                    }
                    conns.renew_session(old, hash, user);
                }
                Logged {
                    outcome: LoginOutcome {
                        output: out,
                        token: Some(token),
                    },
                    bound: None,
                }
            }
        }
    }

    /// Ends the caller's session and closes its connections (a connection
    /// logged in over the WebSocket: that one).
    pub(super) fn logout(&mut self, conns: &mut Conns, batch: &mut Batch, asker: Asker) {
        let (caller, id) = asker;
        let session = match caller {
            Caller::Conn(c) => conns.get(c).and_then(|c| c.session),
            Caller::Http(s) => s,
        };
        let out = protocol::described(d::SUCCESS);
        if let Caller::Conn(c) = caller {
            conns.send(batch, c, id, "logout", out);
        }
        if let Some(s) = session {
            if self.sessions.remove(&s).is_some() {
                batch.write(Write::EndSession { token_hash: s });
            }
        }
        close(conns, batch, |cid, c| {
            (session.is_some() && c.session == session)
                || matches!(caller, Caller::Conn(me) if me == cid)
        });
    }

    /// Ends a session and logs out (and closes) its connections.
    pub(super) fn end_session(
        &mut self,
        conns: &mut Conns,
        batch: &mut Batch,
        token_hash: [u8; 32],
    ) {
        if self.sessions.remove(&token_hash).is_some() {
            batch.write(Write::EndSession { token_hash });
        }
        close(conns, batch, |_, c| c.session == Some(token_hash));
    }

    /// Ends `user`'s least recently used sessions beyond
    /// [`MAX_SESSIONS_PER_USER`].
    fn cap_sessions(&mut self, conns: &mut Conns, batch: &mut Batch, user: UserId) {
        let mut mine: Vec<(i64, i64, [u8; 32])> = self
            .sessions
            .values()
            .filter(|s| s.user == user)
            .map(|s| (s.last_used, s.created, s.token_hash))
            .collect();
        if mine.len() <= MAX_SESSIONS_PER_USER {
            return;
        }
        mine.sort_unstable();
        let over = mine.len() - MAX_SESSIONS_PER_USER;
        for &(_, _, token_hash) in &mine[..over] {
            self.end_session(conns, batch, token_hash);
        }
    }

    /// `listSessions`: the user's live sessions, most recently used first,
    /// each with its id (to revoke it), when it was created and last used
    /// (seconds since 1970), how many connections it has open, and whether
    /// it is the asker's own.
    pub(super) fn list_sessions(
        &self,
        conns: &Conns,
        user: UserId,
        current: Option<[u8; 32]>,
    ) -> Value {
        let now = now();
        let mut mine: Vec<&SessionRecord> = self
            .sessions
            .values()
            .filter(|s| s.user == user && !expired(s, now))
            .collect();
        mine.sort_unstable_by_key(|s| {
            (std::cmp::Reverse(s.last_used), std::cmp::Reverse(s.created))
        });
        let sessions: Vec<Value> = mine
            .iter()
            .map(|s| {
                let open = conns
                    .iter()
                    .filter(|(_, c)| c.session == Some(s.token_hash))
                    .count();
                json!({
                    "sessionId": session_id(&s.token_hash),
                    "created": s.created,
                    "lastUsed": s.last_used,
                    "connections": open,
                    "current": current == Some(s.token_hash),
                })
            })
            .collect();
        json!({ "description": d::SUCCESS, "sessions": sessions })
    }

    /// `revokeSession`'s session: one of the user's, by the id
    /// `listSessions` gave.
    pub(super) fn find_session(&self, user: UserId, id: &str) -> Result<[u8; 32], Value> {
        self.sessions
            .values()
            .find(|s| s.user == user && session_id(&s.token_hash) == id)
            .map(|s| s.token_hash)
            // Another user's id is no session of yours: the same answer.
            .ok_or_else(|| json!({ "description": d::INVALID_INPUT, "reason": "no such session" }))
    }

    /// `revokeOtherSessions`: ends every session of the user but the
    /// asker's, and closes every other connection of the user (those
    /// logged in over the WebSocket, without a session, too).
    pub(super) fn revoke_other_sessions(
        &mut self,
        conns: &mut Conns,
        batch: &mut Batch,
        user: UserId,
        (me, current): (ConnId, Option<[u8; 32]>),
    ) {
        let others: Vec<[u8; 32]> = self
            .sessions
            .values()
            .filter(|s| s.user == user && Some(s.token_hash) != current)
            .map(|s| s.token_hash)
            .collect();
        for token_hash in others {
            self.end_session(conns, batch, token_hash);
        }
        close(conns, batch, |cid, c| {
            cid != me && c.user() == Some(user) && (current.is_none() || c.session != current)
        });
    }
}

/// A session's public id: the first 8 bytes of its token's hash, in hex.
/// It names the session to its user; it cannot be used to log in (the
/// token cannot be found from its hash).
fn session_id(token_hash: &[u8; 32]) -> String {
    token_hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Logs out the connections `which` picks, and asks each to close.
fn close(
    conns: &mut Conns,
    batch: &mut Batch,
    which: impl Fn(ConnId, &super::conns::Conn) -> bool,
) {
    let closing: Vec<ConnId> = conns
        .iter()
        .filter(|&(cid, c)| which(cid, c))
        .map(|(cid, _)| cid)
        .collect();
    for cid in closing {
        conns.set_user(cid, None, None);
        if let Some(c) = conns.get(cid) {
            // An empty frame asks the connection to close once the
            // answer before it is sent.
            batch.send(&c.outbox, String::new());
        }
    }
}

/// A refused login or registration: the answer to a connection, nothing
/// logged in.
fn refused(conns: &Conns, batch: &mut Batch, asker: Asker, command: &str, out: Value) -> Logged {
    let (caller, req_id) = asker;
    if let Caller::Conn(conn) = caller {
        conns.send(batch, conn, req_id, command, out.clone());
    }
    Logged {
        outcome: LoginOutcome {
            output: out,
            token: None,
        },
        bound: None,
    }
}
