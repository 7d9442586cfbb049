//! The lobby: the boards offered (the shipped ones and those uploaded),
//! the lists of games (those a user may join, those a user is in) and the
//! commands of a game not yet started: create, join, leave, add a bot,
//! start.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::accounts;
use super::conns::{ConnId, Conns};
use super::journal::Batch;
use super::protocol::{self, description as d, envelope, AddAi, CreateGame, GameOnly, JoinGame};
use super::sessions::{now, Accounts};
use super::store::{BoardRecord, GameId, UploadRecord, UserId, Write};
use super::table::{Difficulty, Phase, Seat, Table, TableBoard, Who, COLORS};
use super::tables::{answer_left, Ask, Tables};
use super::timer::Pace;
use super::view;
use crate::board::Board;

/// The longest game name.
pub(super) const MAX_NAME: usize = 60;

/// Boards one account may upload in all. Uploads are kept for good (games
/// are played on them), so without a quota one account filled the disk:
/// 150 boards of 2 MiB in 5 s, 316 MB.
pub const MAX_UPLOADS: usize = 50;
/// The bytes of one account's uploads in all: eight of the largest.
pub const MAX_UPLOAD_BYTES: usize = 16 << 20;
/// Uploads one account may try in a minute: each is validated, which
/// takes a moment on a large board.
pub const UPLOADS_PER_MINUTE: usize = 10;

/// A board offered to the lobby: its key and file text.
pub struct Offer {
    /// The key clients name it by.
    pub key: String,
    /// The file's text.
    pub json: String,
    /// Where it came from, for messages.
    pub file: String,
}

/// A board file validated as the command line validates it, under `key`.
pub(super) fn board_entry(key: String, json: String, file: &str) -> Result<TableBoard, String> {
    let board = Board::from_json(&json, file).map_err(|e| e.to_string())?;
    let hash = accounts::text_hash(&json);
    Ok(TableBoard::new(key, hash, json, board))
}

/// The boards: offered, known by hash, stored, uploaded.
#[derive(Default)]
pub(super) struct Lobby {
    /// The boards offered in the lobby, by key, in the order listed.
    offered: Vec<Arc<TableBoard>>,
    /// Every board a game uses or may use, by hash; and those stored.
    by_hash: HashMap<String, Arc<TableBoard>>,
    stored_boards: HashSet<String>,
    uploads: Vec<UploadRecord>,
    /// Each account's upload attempts in the last minute.
    attempts: HashMap<UserId, VecDeque<Instant>>,
}

impl Lobby {
    /// The boards `offers` (the first is the default), checked to have
    /// distinct keys; `stored` are the hashes of the boards in the store.
    pub(super) fn new(offers: Vec<Offer>, stored: HashSet<String>) -> Result<Lobby, String> {
        let mut lobby = Lobby {
            stored_boards: stored,
            ..Lobby::default()
        };
        for o in offers {
            if lobby.offered.iter().any(|b| b.key == o.key) {
                return Err(format!(
                    "two boards are offered as {:?}: rename one file",
                    o.key
                ));
            }
            let entry = Arc::new(board_entry(o.key, o.json, &o.file)?);
            if let Some(why) = entry.undealable() {
                return Err(format!(
                    "{}: no game can be played on this board: {why}",
                    o.file
                ));
            }
            lobby
                .by_hash
                .entry(entry.hash.clone())
                .or_insert(entry.clone());
            lobby.offered.push(entry);
        }
        Ok(lobby)
    }

    /// The board of `hash`, known already or read from `texts` (the
    /// store's boards) under `key`.
    pub(super) fn entry_for(
        &mut self,
        texts: &HashMap<String, String>,
        key: &str,
        hash: &str,
    ) -> Result<Arc<TableBoard>, String> {
        if let Some(b) = self.by_hash.get(hash) {
            return Ok(b.clone());
        }
        let json = texts
            .get(hash)
            .ok_or_else(|| format!("board {hash} is missing"))?;
        let b = Arc::new(board_entry(key.to_string(), json.clone(), key)?);
        self.by_hash.insert(hash.to_string(), b.clone());
        Ok(b)
    }

    /// An upload read back: offered under its key when its board is known.
    pub(super) fn restore_upload(
        &mut self,
        texts: &HashMap<String, String>,
        u: UploadRecord,
    ) -> Result<(), String> {
        let key = format!("upload-{}", u.id);
        let offered = self.entry_for(texts, &key, &u.hash).map(|b| {
            Arc::new(TableBoard::new(
                key.clone(),
                b.hash.clone(),
                b.json.clone(),
                (*b.board).clone(),
            ))
        });
        self.uploads.push(u);
        self.offered
            .push(offered.map_err(|e| format!("uploaded board {key}: {e}"))?);
        Ok(())
    }

    /// The boards offered, for `GET /api/boards`.
    /// An upload also names its uploader (`names` gives a user's name)
    /// and its time (`uploaded`, seconds since 1970; null if not kept):
    /// two uploads of one name are told apart so.
    pub(super) fn boards(&self, names: &dyn Fn(UserId) -> String) -> Value {
        let boards: Vec<Value> = self
            .offered
            .iter()
            .map(|b| {
                let mut out = json!({
                    "key": b.key,
                    "name": b.board.name,
                    "title": b.board.title,
                    "cars": b.board.cars,
                    "cities": b.board.cities.len(),
                    "routes": b.board.routes.len(),
                    "tickets": b.board.cards.len(),
                    "bots": super::ladder::ladder_json(&b.key),
                });
                let upload = b.key.strip_prefix("upload-").and_then(|n| n.parse().ok());
                if let Some(u) = upload.and_then(|id: i64| self.uploads.iter().find(|u| u.id == id))
                {
                    out["uploader"] = names(u.owner).into();
                    out["uploaded"] = (u.created > 0).then_some(u.created).into();
                }
                out
            })
            .collect();
        json!({ "boards": boards })
    }

    /// Whether `user` may upload `bytes` more now: under the account's
    /// quota ([`MAX_UPLOADS`], [`MAX_UPLOAD_BYTES`]) and its rate
    /// ([`UPLOADS_PER_MINUTE`], this attempt counted).
    pub(super) fn upload_allowed(&mut self, user: UserId, bytes: usize) -> Result<(), Value> {
        let refused =
            |reason: String| json!({ "description": d::TOO_MANY_UPLOADS, "reason": reason });
        let now = Instant::now();
        let recent = self.attempts.entry(user).or_default();
        while recent
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= Duration::from_secs(60))
        {
            recent.pop_front();
        }
        if recent.len() >= UPLOADS_PER_MINUTE {
            return Err(refused(format!(
                "at most {UPLOADS_PER_MINUTE} uploads a minute: try again in a minute"
            )));
        }
        recent.push_back(now);
        self.within_quota(user, bytes).map_err(refused)
    }

    /// Whether `user`'s uploads leave room for one more of `bytes`.
    fn within_quota(&self, user: UserId, bytes: usize) -> Result<(), String> {
        let mine: Vec<&UploadRecord> = self.uploads.iter().filter(|u| u.owner == user).collect();
        if mine.len() >= MAX_UPLOADS {
            return Err(format!(
                "an account uploads at most {MAX_UPLOADS} boards, and yours has {}",
                mine.len()
            ));
        }
        let used: usize = mine
            .iter()
            .filter_map(|u| self.by_hash.get(&u.hash))
            .map(|b| b.json.len())
            .sum();
        if used + bytes > MAX_UPLOAD_BYTES {
            return Err(format!(
                "an account uploads at most {} MiB of boards, and yours has {:.1} MiB: this one ({:.1} MiB) does not fit",
                MAX_UPLOAD_BYTES >> 20,
                used as f64 / (1 << 20) as f64,
                bytes as f64 / (1 << 20) as f64
            ));
        }
        Ok(())
    }

    /// A board file uploaded by `user`, validated as the command line
    /// validates it, then offered as `upload-<id>`.
    pub(super) fn upload(
        &mut self,
        batch: &mut Batch,
        user: UserId,
        name: &str,
        text: String,
    ) -> Value {
        let id = self.uploads.iter().map(|u| u.id).max().unwrap_or(0) + 1;
        let key = format!("upload-{id}");
        let name = if name.trim().is_empty() {
            "the uploaded board"
        } else {
            name.trim()
        };
        let name: String = name.chars().take(200).collect();
        // Checked again under the lock: two uploads may race past the
        // first check.
        if let Err(reason) = self.within_quota(user, text.len()) {
            return json!({ "description": d::TOO_MANY_UPLOADS, "reason": reason });
        }
        let entry = board_entry(key.clone(), text, &name).and_then(|e| match e.undealable() {
            Some(why) => Err(format!(
                "{name}: no game can be played on this board: {why}"
            )),
            None => Ok(e),
        });
        match entry {
            Err(reason) => json!({ "description": d::INVALID_INPUT, "reason": reason }),
            Ok(entry) => {
                let entry = Arc::new(entry);
                self.store_board(batch, &entry);
                let record = UploadRecord {
                    id,
                    name: name.clone(),
                    hash: entry.hash.clone(),
                    owner: user,
                    created: now(),
                };
                batch.write(Write::Upload(record.clone()));
                self.uploads.push(record);
                self.by_hash
                    .entry(entry.hash.clone())
                    .or_insert(entry.clone());
                self.offered.push(entry);
                json!({ "description": d::SUCCESS, "key": key, "name": name })
            }
        }
    }

    /// Writes a board to the store unless it is there.
    pub(super) fn store_board(&mut self, batch: &mut Batch, b: &TableBoard) {
        if self.stored_boards.insert(b.hash.clone()) {
            batch.write(Write::Board(BoardRecord {
                hash: b.hash.clone(),
                json: b.json.clone(),
            }));
        }
    }

    /// `createGame`: a table with its creator seated, open to join.
    pub(super) fn create(
        &mut self,
        tables: &mut Tables,
        (accounts, conns): (&Accounts, &Conns),
        batch: &mut Batch,
        ask: Ask,
        p: &CreateGame,
    ) -> Result<(), Value> {
        let name = p.game_name.trim().to_string();
        let color = color(&p.color).ok_or_else(|| protocol::described(d::INVALID_INPUT))?;
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(
                json!({ "description": d::INVALID_INPUT, "reason": format!("a game's name is 1 to {MAX_NAME} characters") }),
            );
        }
        let pace = Pace::asked(
            p.turn_seconds,
            p.turn_based,
            p.turn_hours,
            tables.min_turn_secs,
        )?;
        tables.admits(ask.user)?;
        let key = p.board.clone().unwrap_or_else(|| "usa".to_string());
        let board = self
            .offered
            .iter()
            .find(|b| b.key == key)
            .cloned()
            .ok_or_else(|| protocol::described(d::UNKNOWN_BOARD))?;
        let id = tables.next_id();
        let created = now();
        let mut table = Table::new(
            id,
            name,
            ask.user,
            accounts.username(ask.user),
            color,
            board.clone(),
            created,
        );
        table.coach = p.coach;
        table.clock.pace = pace;
        self.store_board(batch, &board);
        write_new(batch, &table);
        tables.insert(table);
        conns.send(
            batch,
            ask.conn,
            ask.id,
            "createGame",
            json!({ "description": d::SUCCESS, "gameId": id }),
        );
        push_changed(tables, conns, batch, id);
        Ok(())
    }
}

/// `rematch`: once a game is over, one of its players asks for another on
/// the same board. The first to ask opens it (their colour, the same bots
/// in theirs, the coach as before, the name marked "rematch") and every
/// other player of the game is told (`rematchOffered`); the others asking
/// then join it in their old colour (or the first free one). The answer
/// is the new game's id.
pub(super) fn rematch(
    tables: &mut Tables,
    (accounts, conns): (&Accounts, &Conns),
    batch: &mut Batch,
    ask: Ask,
    p: &GameOnly,
) -> Result<(), Value> {
    let (old, seat) = tables.seated(ask.user, p.game_id)?;
    if old.phase() != Phase::Over {
        return Err(
            json!({ "description": d::INVALID_INPUT, "reason": "a rematch follows a game that is over" }),
        );
    }
    let colour = old.seats[seat].color;
    let open = old
        .rematch
        .filter(|&id| tables.get(id).is_some_and(|t| t.phase() == Phase::Open));
    if let Some(id) = open {
        let answer = json!({ "description": d::SUCCESS, "gameId": id });
        let t = tables.get(id).expect("checked above");
        if t.seat_of(ask.user).is_some() {
            conns.send(batch, ask.conn, ask.id, "rematch", answer);
            return Ok(());
        }
        tables.admits(ask.user)?;
        let free = t.free_colors();
        let c = if free.contains(&colour) {
            colour
        } else {
            *free
                .first()
                .ok_or_else(|| protocol::described(d::GAME_FULL))?
        };
        let seat = Seat {
            who: Who::User(ask.user),
            color: c,
            name: accounts.username(ask.user),
        };
        // Answered with the game's id, not joinGame's bare success.
        let quiet = Ask { id: None, ..ask };
        seat_taken(tables, (conns, batch), (quiet, "joinGame"), id, seat)?;
        conns.send(batch, ask.conn, ask.id, "rematch", answer);
        return Ok(());
    }
    tables.admits(ask.user)?;
    let old = tables.get(p.game_id).expect("seated above");
    let name: String = format!("{} (rematch)", old.name)
        .chars()
        .take(MAX_NAME)
        .collect();
    let id = tables.next_id();
    let mut table = Table::new(
        id,
        name,
        ask.user,
        accounts.username(ask.user),
        colour,
        old.board.clone(),
        now(),
    );
    table.coach = old.coach;
    table.clock.pace = old.clock.pace;
    for s in &old.seats {
        if let Who::Bot(level) = s.who {
            let name = table.bot_name(level);
            table.seats.push(Seat {
                who: s.who,
                color: s.color,
                name,
            });
        }
    }
    let others: Vec<UserId> = old.users().filter(|&u| u != ask.user).collect();
    write_new(batch, &table);
    tables.insert(table);
    tables.get_mut(p.game_id).expect("seated above").rematch = Some(id);
    batch.write(Write::Rematch {
        game: p.game_id,
        rematch: id,
    });
    conns.send(
        batch,
        ask.conn,
        ask.id,
        "rematch",
        json!({ "description": d::SUCCESS, "gameId": id }),
    );
    let offer = json!({ "description": d::SUCCESS, "gameId": p.game_id, "rematchId": id, "by": accounts.username(ask.user) });
    for u in others {
        conns.send_user(batch, u, None, "rematchOffered", &offer);
    }
    push_changed(tables, conns, batch, id);
    Ok(())
}

/// A new open table's game and seats, written as `createGame` and
/// `rematch` open one.
fn write_new(batch: &mut Batch, table: &Table) {
    batch.write(Write::Game {
        id: table.id,
        name: table.name.clone(),
        creator: table.creator,
        board_key: table.board.key.clone(),
        board_hash: table.board.hash.clone(),
        created: table.created,
        coach: table.coach,
        pace: table.clock.pace.to_columns(),
    });
    batch.write(Write::Seats {
        game: table.id,
        seats: table.seat_records(),
    });
}

/// `joinGame`: a seat for the asking user, in the colour chosen; a full
/// table starts.
pub(super) fn join(
    tables: &mut Tables,
    (accounts, conns): (&Accounts, &Conns),
    batch: &mut Batch,
    ask: Ask,
    p: &JoinGame,
) -> Result<(), Value> {
    let username = accounts.username(ask.user);
    if tables
        .get(p.game_id)
        .is_some_and(|t| t.seat_of(ask.user).is_none())
    {
        tables.admits(ask.user)?;
    }
    let t = tables
        .get_mut(p.game_id)
        .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
    let c = color(&p.color).ok_or_else(|| protocol::described(d::INVALID_INPUT))?;
    if t.seat_of(ask.user).is_some() {
        return Err(protocol::described(d::ALREADY_IN_GAME));
    }
    if t.phase() != Phase::Open {
        return Err(protocol::described(d::ALREADY_STARTED));
    }
    if t.seats.len() >= t.board.seats {
        return Err(protocol::described(d::GAME_FULL));
    }
    if !t.free_colors().contains(&c) {
        return Err(protocol::described(d::COLOR_TAKEN));
    }
    let seat = Seat {
        who: Who::User(ask.user),
        color: c,
        name: username,
    };
    seat_taken(tables, (conns, batch), (ask, "joinGame"), p.game_id, seat)
}

/// `leaveGame`: the asking user's seat given up before the start; the
/// last person to leave closes the table.
pub(super) fn leave(
    tables: &mut Tables,
    conns: &Conns,
    batch: &mut Batch,
    ask: Ask,
    p: &GameOnly,
) -> Result<(), Value> {
    let t = tables
        .get_mut(p.game_id)
        .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
    let seat = t
        .seat_of(ask.user)
        .ok_or_else(|| protocol::described(d::NOT_IN_GAME))?;
    match t.phase() {
        Phase::Open => {}
        Phase::Playing => {
            tables.leave_playing(conns, batch, ask, p.game_id)?;
            push_user_games(tables, conns, batch, p.game_id);
            return Ok(());
        }
        Phase::Over => return Err(protocol::described(d::ALREADY_STARTED)),
    }
    t.seats.remove(seat);
    let closed = t.users().next().is_none();
    if closed {
        batch.write(Write::DeleteGame { game: t.id });
        tables.remove(p.game_id);
    } else {
        if t.creator == ask.user {
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
    answer_left(conns, batch, ask);
    lobby_changed(tables);
    conns.send(
        batch,
        ask.conn,
        None,
        "updateUserGames",
        user_games(tables, ask.user),
    );
    if !closed {
        push_user_games(tables, conns, batch, p.game_id);
        tables.push_models(conns, batch, p.game_id);
    }
    Ok(())
}

/// `addAI`: a bot in the next free colour, added by the creator; a full
/// table starts.
pub(super) fn add_ai(
    tables: &mut Tables,
    conns: &Conns,
    batch: &mut Batch,
    ask: Ask,
    p: &AddAi,
) -> Result<(), Value> {
    let t = tables
        .get_mut(p.game_id)
        .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
    if t.phase() != Phase::Open {
        return Err(protocol::described(d::ALREADY_STARTED));
    }
    if t.seats.len() >= t.board.seats {
        return Err(protocol::described(d::GAME_FULL));
    }
    if t.creator != ask.user {
        return Err(protocol::described(d::CREATOR_ADDS));
    }
    let level = Difficulty::parse(&p.difficulty).ok_or_else(
        || json!({ "description": d::INVALID_INPUT, "reason": "difficulty is easy, medium or hard" }),
    )?;
    let name = t.bot_name(level);
    let c = t.free_colors()[0];
    let seat = Seat {
        who: Who::Bot(level),
        color: c,
        name,
    };
    seat_taken(tables, (conns, batch), (ask, "addAI"), p.game_id, seat)
}

/// A seat taken at an open table (checked by the caller): written,
/// answered to `command`, and the table dealt once it is full.
fn seat_taken(
    tables: &mut Tables,
    (conns, batch): (&Conns, &mut Batch),
    (ask, command): (Ask, &str),
    game: GameId,
    seat: Seat,
) -> Result<(), Value> {
    let t = tables
        .get_mut(game)
        .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
    t.seats.push(seat);
    batch.write(Write::Seats {
        game: t.id,
        seats: t.seat_records(),
    });
    let full = t.seats.len() >= t.board.seats;
    conns.send(
        batch,
        ask.conn,
        ask.id,
        command,
        protocol::described(d::SUCCESS),
    );
    if full {
        tables.begin(conns, batch, game, None)?;
    }
    push_changed(tables, conns, batch, game);
    Ok(())
}

/// `startGame`: the creator deals, with at least two players seated.
pub(super) fn start(
    tables: &mut Tables,
    conns: &Conns,
    batch: &mut Batch,
    ask: Ask,
    p: &GameOnly,
) -> Result<(), Value> {
    let t = tables
        .get(p.game_id)
        .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
    if t.seat_of(ask.user).is_none() {
        return Err(protocol::described(d::NOT_IN_GAME));
    }
    if t.phase() != Phase::Open {
        return Err(protocol::described(d::ALREADY_STARTED));
    }
    if t.creator != ask.user {
        return Err(protocol::described(d::CREATOR_STARTS));
    }
    if t.seats.len() < 2 {
        return Err(protocol::described(d::INSUFFICIENT_PLAYERS));
    }
    tables.begin(conns, batch, p.game_id, Some((ask.conn, ask.id)))?;
    push_changed(tables, conns, batch, p.game_id);
    Ok(())
}

/// After a table's seats changed: the lobby to everyone, the game lists
/// and the views to its players.
fn push_changed(tables: &mut Tables, conns: &Conns, batch: &mut Batch, game: GameId) {
    lobby_changed(tables);
    push_user_games(tables, conns, batch, game);
    tables.push_models(conns, batch, game);
}

/// The games `user` may join.
pub(super) fn joinable(tables: &Tables, user: UserId) -> Value {
    let games: Vec<Value> = tables
        .iter()
        .filter(|t| {
            t.phase() == Phase::Open && t.seats.len() < t.board.seats && t.seat_of(user).is_none()
        })
        .map(|t| view::lobby_entry(t, view::Numbered::ById, None))
        .collect();
    json!({ "description": d::SUCCESS, "games": games })
}

/// The games `user` is seated at.
pub(super) fn user_games(tables: &Tables, user: UserId) -> Value {
    let games = tables.listings_of(user);
    json!({ "description": d::SUCCESS, "games": games })
}

/// A connection's lists of games.
pub(super) fn push_games_to(
    tables: &Tables,
    conns: &Conns,
    batch: &mut Batch,
    conn: ConnId,
    user: UserId,
) {
    conns.send(
        batch,
        conn,
        None,
        "updateUserGames",
        user_games(tables, user),
    );
    conns.send(
        batch,
        conn,
        None,
        "updateJoinableGames",
        joinable(tables, user),
    );
}

/// The lists of joinable games are stale: every connection gets them
/// again at the clock's next tick ([`send_lobby`]), however many games
/// changed meanwhile. Sent at once, 1,000 games starting at once sent
/// each of 2,000 connections several lists a game: slow readers' queues
/// filled and they were dropped, and the server held 2 GB of them.
pub(super) fn lobby_changed(tables: &mut Tables) {
    tables.lobby_stale = true;
}

/// The joinable games, to every logged-in connection: each game's entry
/// is made once, and each user's list leaves out the user's own games.
pub(super) fn send_lobby(tables: &Tables, conns: &Conns, batch: &mut Batch) {
    let open: Vec<(&Table, String)> = tables
        .iter()
        .filter(|t| t.phase() == Phase::Open && t.seats.len() < t.board.seats)
        .map(|t| {
            (
                t,
                view::lobby_entry(t, view::Numbered::ById, None).to_string(),
            )
        })
        .collect();
    let mut lists: HashMap<UserId, String> = HashMap::new();
    for (_, c) in conns.iter() {
        if let Some(u) = c.user() {
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
                envelope("updateJoinableGames", None, &output)
            });
            batch.send(&c.outbox, text.clone());
        }
    }
}

/// The users seated at `table` get its entry in their lists of games
/// (`userGameChanged`), as it is for each of them, if it changed since
/// last pushed. Once each user got the whole list (`updateUserGames`),
/// built over every game the server holds, at every turn: under load
/// most of a move's cost after the models'.
pub(super) fn push_user_games(
    tables: &mut Tables,
    conns: &Conns,
    batch: &mut Batch,
    table: GameId,
) {
    for (u, game) in tables.entries_changed(table) {
        let out = json!({ "description": d::SUCCESS, "game": game });
        conns.send_user(batch, u, None, "userGameChanged", &out);
    }
}

/// A player colour as a client names it.
fn color(name: &str) -> Option<&'static str> {
    let name = name.trim().to_lowercase();
    COLORS.iter().copied().find(|c| *c == name)
}
