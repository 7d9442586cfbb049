//! Where the online game's state is kept: a small interface ([`Store`]) and
//! its one implementation, an embedded SQLite file ([`Sqlite`]).
//!
//! The server holds its whole state in memory and treats the store as a
//! durable journal: it reads everything once at start ([`Store::load`]) and
//! then hands it batches of typed writes ([`Write`]), each batch one
//! transaction, durable when [`Store::write`] returns. So another database
//! replaces this one by implementing two methods. A game is stored as its
//! seats, its seed and its moves, and rebuilt by replaying them through the
//! rules engine, which is deterministic for a seed.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

/// A user's id.
pub type UserId = i64;
/// A game's id.
pub type GameId = i64;

/// A registered user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRecord {
    /// The id, from 1.
    pub id: UserId,
    /// The name, unique without regard to case.
    pub username: String,
    /// The email, unique without regard to case, if given.
    pub email: Option<String>,
    /// The password's Argon2id hash as a PHC string (never the password).
    pub password: String,
    /// Registration time, seconds since 1970.
    pub created: i64,
}

/// A login session: the hash of its token (the token itself is only in the
/// user's cookie).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    /// SHA-256 of the token.
    pub token_hash: [u8; 32],
    /// Whose session it is.
    pub user: UserId,
    /// When it began, seconds since 1970.
    pub created: i64,
    /// When it was last used, seconds since 1970.
    pub last_used: i64,
}

/// A board file a game is played on, by the SHA-256 of its text, so that a
/// game keeps its board even when the file changes later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRecord {
    /// Hex SHA-256 of `json`.
    pub hash: String,
    /// The board file's text.
    pub json: String,
}

/// A board a user uploaded, offered in the lobby as `upload-<id>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadRecord {
    /// The upload's id, from 1.
    pub id: i64,
    /// The file name it was uploaded under.
    pub name: String,
    /// Its board, by hash.
    pub hash: String,
    /// Who uploaded it.
    pub owner: UserId,
    /// When, seconds since 1970 (0: uploaded before the store kept it).
    pub created: i64,
}

/// One seat of a game: a user or a bot, and the seat's colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// The user in the seat, or `None` for a bot.
    pub user: Option<UserId>,
    /// The bot's difficulty (`easy`, `hard`), for a bot.
    pub bot: Option<String>,
    /// The player's colour.
    pub color: String,
}

/// One accepted move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The seat that made it.
    pub seat: usize,
    /// The move as JSON ([`crate::engine::saved::Move`]).
    pub action: String,
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    /// The sender's username.
    pub sender: String,
    /// The message.
    pub message: String,
    /// When it was sent, seconds since 1970.
    pub at: i64,
}

/// A game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The id, from 1.
    pub id: GameId,
    /// The name its creator gave it.
    pub name: String,
    /// Who may start it and add bots.
    pub creator: UserId,
    /// The lobby's key for its board (`usa`, `upload-3`).
    pub board_key: String,
    /// Its board, by hash.
    pub board_hash: String,
    /// Creation time, seconds since 1970.
    pub created: i64,
    /// The seed of its shuffles, set when it starts.
    pub seed: Option<u64>,
    /// Whether its players may ask the coach during the game.
    pub coach: bool,
    /// Its turn limit in seconds (none: untimed).
    pub turn_limit: Option<u32>,
    /// Whether it is turn-based (its limit in hours).
    pub turn_based: bool,
    /// When the current turn began, ms since 1970 (none when no turn
    /// has a limit): its deadline follows from the limit.
    pub turn_start: Option<i64>,
    /// The seats a bot plays until their players move again, as bits.
    pub away: u32,
    /// Whether it is over (marked when it ends, or when a start finds it
    /// so): a game over is read back whole only when someone opens it.
    pub over: bool,
    /// The rematch its players were offered, once one asked.
    pub rematch: Option<GameId>,
    /// Its seats in turn order.
    pub seats: Vec<SeatRecord>,
    /// Its moves in order.
    pub moves: Vec<MoveRecord>,
    /// Its chat in order.
    pub chat: Vec<ChatRecord>,
    /// Its history's lines that are not moves, in order.
    pub notes: Vec<NoteRecord>,
}

/// A line of a game's history that is not a move: a player timed out,
/// left, or came back ([`super::timer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRecord {
    /// Its place in the history.
    pub seq: usize,
    /// The number of moves made when it was said.
    pub after_moves: usize,
    /// The line.
    pub line: String,
}

/// One seat's result in a rated game: public once the game is over.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// The rated player: a username, or `bot:<strategy>` for a bot.
    pub player: String,
    /// The final score.
    pub score: i64,
    /// The place, from 1; tied scores share a place.
    pub rank: usize,
    /// Tickets completed.
    pub tickets: usize,
    /// The rating (mu, sigma) before the game.
    pub before: (f64, f64),
    /// The rating (mu, sigma) the game gave this seat.
    pub after: (f64, f64),
}

/// A game that ended and was rated, with every seat's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRecord {
    /// The game.
    pub game: GameId,
    /// The lobby's key of its board.
    pub board: String,
    /// When it ended, seconds since 1970.
    pub at: i64,
    /// Its seats in turn order.
    pub seats: Vec<SeatResult>,
}

/// A change to the stored state.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// A new user.
    User(UserRecord),
    /// A user's new password hash (parameters raised).
    Password {
        /// The user.
        user: UserId,
        /// The new PHC string.
        hash: String,
    },
    /// A new session.
    Session(SessionRecord),
    /// A session used again.
    SessionUsed {
        /// The session's token hash.
        token_hash: [u8; 32],
        /// When, seconds since 1970.
        at: i64,
    },
    /// A session ended (logout or expiry).
    EndSession {
        /// The session's token hash.
        token_hash: [u8; 32],
    },
    /// A board's text (kept once per hash).
    Board(BoardRecord),
    /// A board uploaded to the lobby.
    Upload(UploadRecord),
    /// A new game, with no seats yet.
    Game {
        /// The id.
        id: GameId,
        /// Its name.
        name: String,
        /// Its creator.
        creator: UserId,
        /// The lobby's board key.
        board_key: String,
        /// The board's hash.
        board_hash: String,
        /// Creation time.
        created: i64,
        /// Whether its players may ask the coach.
        coach: bool,
        /// Its pace as stored ([`super::timer::Pace::to_columns`]).
        pace: (Option<u32>, bool),
    },
    /// A line of a game's history that is not a move.
    Note {
        /// The game.
        game: GameId,
        /// The line and its place.
        note: NoteRecord,
    },
    /// A game's clock: when the current turn began and the seats away.
    Clock {
        /// The game.
        game: GameId,
        /// When the turn began, ms since 1970 (none: no deadline).
        turn_start: Option<i64>,
        /// The seats away, as bits.
        away: u32,
    },
    /// A game's seats, replaced (before the start).
    Seats {
        /// The game.
        game: GameId,
        /// Its seats in turn order.
        seats: Vec<SeatRecord>,
    },
    /// A game's new creator (the creator left).
    Creator {
        /// The game.
        game: GameId,
        /// The new creator.
        user: UserId,
    },
    /// A game started with this seed.
    Start {
        /// The game.
        game: GameId,
        /// The seed of its shuffles.
        seed: u64,
    },
    /// A move, the `seq`-th of its game (from 0).
    Move {
        /// The game.
        game: GameId,
        /// Its place in the game's moves.
        seq: usize,
        /// The move.
        record: MoveRecord,
    },
    /// A chat message, the `seq`-th of its game (from 0).
    Chat {
        /// The game.
        game: GameId,
        /// Its place in the game's chat.
        seq: usize,
        /// The message.
        record: ChatRecord,
    },
    /// A game's rematch, opened by the first of its players to ask.
    Rematch {
        /// The game over.
        game: GameId,
        /// The new game.
        rematch: GameId,
    },
    /// A game ended: it is read back whole only when opened.
    Over {
        /// The game.
        game: GameId,
    },
    /// A game closed before it started (its last person left).
    DeleteGame {
        /// The game.
        game: GameId,
    },
    /// A game ended and rated.
    Result(ResultRecord),
}

/// Everything stored, as read at start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Every user, by id.
    pub users: Vec<UserRecord>,
    /// Every session.
    pub sessions: Vec<SessionRecord>,
    /// Every board text games use.
    pub boards: Vec<BoardRecord>,
    /// Every uploaded board, by id.
    pub uploads: Vec<UploadRecord>,
    /// Every game not marked over, whole, by id.
    pub games: Vec<GameRecord>,
    /// Every game marked over, by id: its row and seats only. Its moves,
    /// chat and notes stay on disk until someone opens it
    /// ([`GameReader::game`]).
    pub finished: Vec<FinishedRecord>,
    /// The highest game id ever given, deleted games included.
    pub last_game_id: GameId,
    /// Every rated game, in the order they were rated.
    pub results: Vec<ResultRecord>,
}

/// A game marked over, as read at start: what the lists of games show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedRecord {
    /// The game's row and seats; its `moves`, `chat` and `notes` are left
    /// empty (read them with [`GameReader::game`]).
    pub header: GameRecord,
}

/// A store that failed: the message names the file and the operation.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// A durable journal of the server's state.
pub trait Store: Send {
    /// Everything stored.
    fn load(&mut self) -> Result<Snapshot, StoreError>;
    /// Makes the writes durable, all or none, before returning.
    fn write(&mut self, batch: &[Write]) -> Result<(), StoreError>;
}

/// Reads one game back whole, beside the journal's writes: a finished
/// game out of memory, opened again. It sees every committed write.
pub trait GameReader: Send {
    /// The game `id` with its seats, moves, chat and notes; `None` if the
    /// store has no such game.
    fn game(&mut self, id: GameId) -> Result<Option<GameRecord>, StoreError>;
}

/// The SQLite store: one file, in WAL mode with `synchronous=FULL`, so that
/// a committed transaction survives a crash of the process or the machine.
pub struct Sqlite {
    connection: Connection,
    file: String,
    path: std::path::PathBuf,
}

impl Write {
    /// The game it writes, if any.
    pub fn game(&self) -> Option<GameId> {
        match self {
            Write::Game { id, .. } => Some(*id),
            Write::Note { game, .. }
            | Write::Clock { game, .. }
            | Write::Seats { game, .. }
            | Write::Creator { game, .. }
            | Write::Start { game, .. }
            | Write::Move { game, .. }
            | Write::Chat { game, .. }
            | Write::Rematch { game, .. }
            | Write::Over { game }
            | Write::DeleteGame { game } => Some(*game),
            Write::Result(r) => Some(r.game),
            Write::User(_)
            | Write::Password { .. }
            | Write::Session(_)
            | Write::SessionUsed { .. }
            | Write::EndSession { .. }
            | Write::Board(_)
            | Write::Upload(_) => None,
        }
    }
}

/// The columns added since the tables' first version, with their tables
/// and types: an older database gets them when opened.
const COLUMNS_ADDED: [(&str, &str, &str); 8] = [
    ("games", "coach", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "turn_limit", "INTEGER"),
    ("games", "turn_based", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "turn_start", "INTEGER"),
    ("games", "away", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "over", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "rematch", "INTEGER"),
    ("uploads", "created", "INTEGER NOT NULL DEFAULT 0"),
];

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
    email TEXT UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash BLOB PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created INTEGER NOT NULL,
    last_used INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS boards (
    hash TEXT PRIMARY KEY,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS uploads (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL REFERENCES boards(hash),
    owner INTEGER NOT NULL REFERENCES users(id)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    creator INTEGER NOT NULL REFERENCES users(id),
    board_key TEXT NOT NULL,
    board_hash TEXT NOT NULL REFERENCES boards(hash),
    created INTEGER NOT NULL,
    seed INTEGER,
    coach INTEGER NOT NULL DEFAULT 0,
    turn_limit INTEGER,
    turn_based INTEGER NOT NULL DEFAULT 0,
    turn_start INTEGER,
    away INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER REFERENCES users(id),
    bot TEXT,
    color TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- The history's lines that are not moves (a player timed out, left, came
-- back), each at its place: after how many moves it was said.
CREATE TABLE IF NOT EXISTS notes (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    after_moves INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS last_ids (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    sender TEXT NOT NULL,
    message TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- Rated games in the order they were rated (ratings replay in this order);
-- new tables only, so a database made before ratings opens unchanged.
CREATE TABLE IF NOT EXISTS rated_games (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL UNIQUE,
    board_key TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES rated_games(game_id),
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    score INTEGER NOT NULL,
    place INTEGER NOT NULL,
    tickets INTEGER NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
";

impl Sqlite {
    /// Opens (or creates) the database file, creating its folder.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let file = path.display().to_string();
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            StoreError(format!("database {file}: {what}: {e}"))
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail("cannot create its folder", &e))?;
        }
        owner_only(path).map_err(|e| fail("cannot make it private", &e))?;
        let connection = Connection::open(path).map_err(|e| fail("cannot open", &e))?;
        // WAL with FULL: each commit is synced to disk before it returns.
        let mode: String = connection
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(|e| fail("cannot set WAL mode", &e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(fail("WAL mode refused", &mode));
        }
        connection
            .execute_batch(
                "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;",
            )
            .and_then(|()| connection.execute_batch(SCHEMA))
            .map_err(|e| fail("cannot create its tables", &e))?;
        // A database made before games had a coach setting, or a clock,
        // gets the columns.
        for (table, column, ddl) in COLUMNS_ADDED {
            let has: bool = connection
                .prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")
                .and_then(|mut q| q.exists([table, column]))
                .map_err(|e| fail("cannot read its tables", &e))?;
            if !has {
                connection
                    .execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {ddl}"))
                    .map_err(|e| fail(&format!("cannot add the column {column}"), &e))?;
            }
        }
        Ok(Sqlite {
            connection,
            file,
            path: path.to_path_buf(),
        })
    }

    fn error(&self, what: &str, e: rusqlite::Error) -> StoreError {
        StoreError(format!("database {}: {what}: {e}", self.file))
    }

    fn read(&mut self) -> rusqlite::Result<Snapshot> {
        let c = &self.connection;
        let users = c
            .prepare("SELECT id, username, email, password, created FROM users ORDER BY id")?
            .query_map([], |r| {
                Ok(UserRecord {
                    id: r.get(0)?,
                    username: r.get(1)?,
                    email: r.get(2)?,
                    password: r.get(3)?,
                    created: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let sessions = c
            .prepare("SELECT token_hash, user_id, created, last_used FROM sessions")?
            .query_map([], |r| {
                Ok(SessionRecord {
                    token_hash: r.get(0)?,
                    user: r.get(1)?,
                    created: r.get(2)?,
                    last_used: r.get(3)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let boards = c
            .prepare("SELECT hash, json FROM boards")?
            .query_map([], |r| {
                Ok(BoardRecord {
                    hash: r.get(0)?,
                    json: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let uploads = c
            .prepare("SELECT id, name, hash, owner, created FROM uploads ORDER BY id")?
            .query_map([], |r| {
                Ok(UploadRecord {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    hash: r.get(2)?,
                    owner: r.get(3)?,
                    created: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut games = Sqlite::read_games(c, None)?;
        for g in &mut games {
            Sqlite::read_seats(c, g)?;
        }
        let (finished, mut games): (Vec<_>, Vec<_>) = games.into_iter().partition(|g| g.over);
        for g in &mut games {
            Sqlite::read_log(c, g)?;
        }
        let finished: Vec<FinishedRecord> = finished
            .into_iter()
            .map(|header| FinishedRecord { header })
            .collect();
        let last_game: Option<i64> = c
            .query_row("SELECT value FROM last_ids WHERE name = 'game'", [], |r| {
                r.get(0)
            })
            .optional()?;
        let last_game_id = last_game
            .into_iter()
            .chain(games.iter().map(|g| g.id))
            .chain(finished.iter().map(|f| f.header.id))
            .max()
            .unwrap_or(0);
        Ok(Snapshot {
            users,
            sessions,
            boards,
            uploads,
            games,
            finished,
            last_game_id,
            results: Sqlite::read_results(c)?,
        })
    }

    /// The rows of `games`, every one or the one `id`, without their
    /// seats, moves, chat or notes.
    fn read_games(c: &Connection, id: Option<GameId>) -> rusqlite::Result<Vec<GameRecord>> {
        let mut q = c.prepare_cached(
            "SELECT id, name, creator, board_key, board_hash, created, seed, coach,
                    turn_limit, turn_based, turn_start, away, over, rematch
             FROM games WHERE ?1 IS NULL OR id = ?1 ORDER BY id",
        )?;
        let rows = q.query_map([id], |r| {
            Ok(GameRecord {
                id: r.get(0)?,
                name: r.get(1)?,
                creator: r.get(2)?,
                board_key: r.get(3)?,
                board_hash: r.get(4)?,
                created: r.get(5)?,
                // SQLite integers are signed: the seed's bits, kept.
                seed: r.get::<_, Option<i64>>(6)?.map(|s| s as u64),
                coach: r.get(7)?,
                turn_limit: r.get(8)?,
                turn_based: r.get(9)?,
                turn_start: r.get(10)?,
                away: r.get(11)?,
                over: r.get(12)?,
                rematch: r.get(13)?,
                seats: Vec::new(),
                moves: Vec::new(),
                chat: Vec::new(),
                notes: Vec::new(),
            })
        })?;
        rows.collect()
    }

    /// A game's seats, read into `g`.
    fn read_seats(c: &Connection, g: &mut GameRecord) -> rusqlite::Result<()> {
        g.seats = c
            .prepare_cached(
                "SELECT user_id, bot, color FROM seats WHERE game_id = ?1 ORDER BY seat",
            )?
            .query_map([g.id], |r| {
                Ok(SeatRecord {
                    user: r.get(0)?,
                    bot: r.get(1)?,
                    color: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(())
    }

    /// A game's moves, chat and notes, read into `g`.
    fn read_log(c: &Connection, g: &mut GameRecord) -> rusqlite::Result<()> {
        g.moves = c
            .prepare_cached("SELECT seat, action FROM moves WHERE game_id = ?1 ORDER BY seq")?
            .query_map([g.id], |r| {
                Ok(MoveRecord {
                    seat: r.get::<_, i64>(0)? as usize,
                    action: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        g.chat = c
            .prepare_cached("SELECT sender, message, at FROM chat WHERE game_id = ?1 ORDER BY seq")?
            .query_map([g.id], |r| {
                Ok(ChatRecord {
                    sender: r.get(0)?,
                    message: r.get(1)?,
                    at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        g.notes = c
            .prepare_cached(
                "SELECT seq, after_moves, line FROM notes WHERE game_id = ?1 ORDER BY seq",
            )?
            .query_map([g.id], |r| {
                Ok(NoteRecord {
                    seq: r.get::<_, i64>(0)? as usize,
                    after_moves: r.get::<_, i64>(1)? as usize,
                    line: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(())
    }

    /// A second connection to the same file, for [`GameReader`]: WAL lets
    /// it read while the journal's connection writes, and it sees every
    /// committed transaction. It never writes (`query_only`).
    pub fn reader(&self) -> Result<Sqlite, StoreError> {
        let c = Connection::open(&self.path)
            .and_then(|c| {
                c.execute_batch("PRAGMA query_only=ON; PRAGMA busy_timeout=5000;")?;
                Ok(c)
            })
            .map_err(|e| self.error("cannot open a reader", e))?;
        Ok(Sqlite {
            connection: c,
            file: self.file.clone(),
            path: self.path.clone(),
        })
    }

    fn read_results(c: &Connection) -> rusqlite::Result<Vec<ResultRecord>> {
        let mut games: Vec<ResultRecord> = c
            .prepare("SELECT game_id, board_key, at FROM rated_games ORDER BY id")?
            .query_map([], |r| {
                Ok(ResultRecord {
                    game: r.get(0)?,
                    board: r.get(1)?,
                    at: r.get(2)?,
                    seats: Vec::new(),
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut seats = c.prepare(
            "SELECT player, score, place, tickets, mu_before, sigma_before, mu_after, sigma_after
             FROM results WHERE game_id = ?1 ORDER BY seat",
        )?;
        for g in &mut games {
            g.seats = seats
                .query_map([g.game], |r| {
                    Ok(SeatResult {
                        player: r.get(0)?,
                        score: r.get(1)?,
                        rank: r.get::<_, i64>(2)? as usize,
                        tickets: r.get::<_, i64>(3)? as usize,
                        before: (r.get(4)?, r.get(5)?),
                        after: (r.get(6)?, r.get(7)?),
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(games)
    }

    fn write_result(tx: &rusqlite::Transaction, g: &ResultRecord) -> rusqlite::Result<()> {
        tx.prepare_cached("INSERT INTO rated_games (game_id, board_key, at) VALUES (?1, ?2, ?3)")?
            .execute(params![g.game, g.board, g.at])?;
        for (i, s) in g.seats.iter().enumerate() {
            tx.prepare_cached(
                "INSERT INTO results (game_id, seat, player, score, place, tickets,
                 mu_before, sigma_before, mu_after, sigma_after)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                g.game,
                i as i64,
                s.player,
                s.score,
                s.rank as i64,
                s.tickets as i64,
                s.before.0,
                s.before.1,
                s.after.0,
                s.after.1
            ])?;
        }
        Ok(())
    }

    fn apply(tx: &rusqlite::Transaction, w: &Write) -> rusqlite::Result<()> {
        match w {
            Write::User(u) => {
                tx.prepare_cached(
                    "INSERT INTO users (id, username, email, password, created)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![u.id, u.username, u.email, u.password, u.created])?;
            }
            Write::Password { user, hash } => {
                tx.prepare_cached("UPDATE users SET password = ?2 WHERE id = ?1")?
                    .execute(params![user, hash])?;
            }
            Write::Session(s) => {
                tx.prepare_cached(
                    "INSERT INTO sessions (token_hash, user_id, created, last_used)
                     VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![s.token_hash, s.user, s.created, s.last_used])?;
            }
            Write::SessionUsed { token_hash, at } => {
                tx.prepare_cached("UPDATE sessions SET last_used = ?2 WHERE token_hash = ?1")?
                    .execute(params![token_hash, at])?;
            }
            Write::EndSession { token_hash } => {
                tx.prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
                    .execute(params![token_hash])?;
            }
            Write::Board(b) => {
                tx.prepare_cached("INSERT OR IGNORE INTO boards (hash, json) VALUES (?1, ?2)")?
                    .execute(params![b.hash, b.json])?;
            }
            Write::Upload(u) => {
                tx.prepare_cached(
                    "INSERT INTO uploads (id, name, hash, owner, created)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![u.id, u.name, u.hash, u.owner, u.created])?;
            }
            Write::Game {
                id,
                name,
                creator,
                board_key,
                board_hash,
                created,
                coach,
                pace: (turn_limit, turn_based),
            } => {
                tx.prepare_cached(
                    "INSERT INTO games (id, name, creator, board_key, board_hash, created, coach,
                                        turn_limit, turn_based)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )?
                .execute(params![
                    id, name, creator, board_key, board_hash, created, coach, turn_limit,
                    turn_based
                ])?;
                // Kept when the game is deleted: its id is never given
                // again (a page or link that had it open would show
                // another game).
                tx.prepare_cached(
                    "INSERT INTO last_ids (name, value) VALUES ('game', ?1)
                     ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)",
                )?
                .execute([id])?;
            }
            Write::Seats { game, seats } => {
                tx.prepare_cached("DELETE FROM seats WHERE game_id = ?1")?
                    .execute([game])?;
                for (i, s) in seats.iter().enumerate() {
                    tx.prepare_cached(
                        "INSERT INTO seats (game_id, seat, user_id, bot, color)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                    )?
                    .execute(params![game, i as i64, s.user, s.bot, s.color])?;
                }
            }
            Write::Creator { game, user } => {
                tx.prepare_cached("UPDATE games SET creator = ?2 WHERE id = ?1")?
                    .execute(params![game, user])?;
            }
            Write::Note { game, note } => {
                tx.prepare_cached(
                    "INSERT INTO notes (game_id, seq, after_moves, line) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![
                    game,
                    note.seq as i64,
                    note.after_moves as i64,
                    note.line
                ])?;
            }
            Write::Clock {
                game,
                turn_start,
                away,
            } => {
                tx.prepare_cached("UPDATE games SET turn_start = ?2, away = ?3 WHERE id = ?1")?
                    .execute(params![game, turn_start, away])?;
            }
            Write::Start { game, seed } => {
                tx.prepare_cached("UPDATE games SET seed = ?2 WHERE id = ?1")?
                    .execute(params![game, *seed as i64])?;
            }
            Write::Move { game, seq, record } => {
                tx.prepare_cached(
                    "INSERT INTO moves (game_id, seq, seat, action) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![
                    game,
                    *seq as i64,
                    record.seat as i64,
                    record.action
                ])?;
            }
            Write::Chat { game, seq, record } => {
                tx.prepare_cached(
                    "INSERT INTO chat (game_id, seq, sender, message, at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    game,
                    *seq as i64,
                    record.sender,
                    record.message,
                    record.at
                ])?;
            }
            Write::Rematch { game, rematch } => {
                tx.prepare_cached("UPDATE games SET rematch = ?2 WHERE id = ?1")?
                    .execute(params![game, rematch])?;
            }
            Write::Over { game } => {
                tx.prepare_cached("UPDATE games SET over = 1 WHERE id = ?1")?
                    .execute([game])?;
            }
            Write::DeleteGame { game } => {
                tx.prepare_cached("DELETE FROM games WHERE id = ?1")?
                    .execute([game])?;
            }
            Write::Result(g) => Sqlite::write_result(tx, g)?,
        }
        Ok(())
    }

    /// The number of rows of `table`: for tests.
    pub fn count(&self, table: &str) -> Result<i64, StoreError> {
        let known = [
            "users",
            "sessions",
            "boards",
            "uploads",
            "games",
            "seats",
            "moves",
            "chat",
            "last_ids",
            "rated_games",
            "results",
        ];
        if !known.contains(&table) {
            return Err(StoreError(format!("no table {table}")));
        }
        self.connection
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .optional()
            .map(|n| n.unwrap_or(0))
            .map_err(|e| self.error("cannot count", e))
    }
}

/// Creates the database file readable and writable by its owner alone
/// (0600: it holds password hashes, sessions and every game's seed), or
/// makes an older one so. SQLite gives its `-wal` and `-shm` files the
/// database file's mode.
fn owner_only(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl GameReader for Sqlite {
    fn game(&mut self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        let c = &self.connection;
        let read = (|| {
            let Some(mut g) = Sqlite::read_games(c, Some(id))?.pop() else {
                return Ok(None);
            };
            Sqlite::read_seats(c, &mut g)?;
            Sqlite::read_log(c, &mut g)?;
            Ok(Some(g))
        })();
        read.map_err(|e| self.error(&format!("cannot read game {id}"), e))
    }
}

impl Store for Sqlite {
    fn load(&mut self) -> Result<Snapshot, StoreError> {
        self.read().map_err(|e| self.error("cannot read", e))
    }

    fn write(&mut self, batch: &[Write]) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let result = (|| {
            let tx = self.connection.transaction()?;
            for w in batch {
                Sqlite::apply(&tx, w)?;
            }
            tx.commit()
        })();
        result.map_err(|e| self.error("cannot write", e))
    }
}
