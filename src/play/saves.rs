//! Saved games: `saveGameState` (a player's state file with the whole game
//! inside, written to the saves folder) and `loadGameState` (a saved game
//! that is no longer on the server restored, by one of its players, with
//! its seats, replayed through the rules engine), and a table as a saved
//! game, which the review reads too.
//!
//! A saved file holds its game's seed, which gives the whole deck: a
//! second table dealt from it while the first is still on the server
//! would let a player draw ahead in the copy. So a load never makes a
//! second table of a game the server holds.

use std::sync::Arc;

use serde_json::{json, Value};

use super::conns::Conns;
use super::journal::Batch;
use super::lobby::{self, board_entry, Lobby, MAX_NAME};
use super::protocol::{description as d, GameOnly, LoadGame};
use super::sessions::{now, Accounts};
use super::store::{ChatRecord, GameRecord, MoveRecord, SeatRecord, Write};
use super::table::{Table, Who};
use super::tables::{Ask, Tables};
use crate::engine::saved::{Move, SavedChat, SavedGame, SavedSeat};
use crate::engine::state::GameState;

/// A saved game to write outside the lock.
pub struct SaveFile {
    /// The game file's path.
    pub path: std::path::PathBuf,
    /// Its text.
    pub text: String,
    /// The board file's path, beside it.
    pub board_path: std::path::PathBuf,
    /// The board's text.
    pub board_text: String,
}

/// Writes a saved file readable by the server's owner alone (0600): it
/// holds its game's seed, which gives the whole deck.
pub fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        // A file saved before keeps its mode when rewritten: set it too.
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// `saveGameState`: the asking player's state file, the whole game inside.
pub(super) fn save(
    tables: &Tables,
    accounts: &Accounts,
    ask: Ask,
    p: &GameOnly,
) -> Result<SaveFile, Value> {
    let (t, seat) = tables.seated(ask.user, p.game_id)?;
    let Some(g) = t.game() else {
        return Err(
            json!({ "description": d::INVALID_INPUT, "reason": "the game has not started" }),
        );
    };
    let board_name = format!("game-{}.board.json", t.id);
    let mut file = GameState::of_player(g, seat).to_json(&t.board.board, &board_name);
    file["game"] = saved(accounts, t, seat).to_json();
    let name = format!("game-{}-{}.json", t.id, t.moves.len());
    Ok(SaveFile {
        path: tables.saves.join(name),
        text: serde_json::to_string_pretty(&file).unwrap_or_default() + "\n",
        board_path: tables.saves.join(board_name),
        board_text: t.board.json.clone(),
    })
}

/// A table as a saved game, from `seat`'s point of view.
pub(super) fn saved(accounts: &Accounts, t: &Table, seat: usize) -> SavedGame {
    SavedGame {
        name: t.name.clone(),
        board_key: t.board.key.clone(),
        seed: t.seed().unwrap_or(0),
        seats: t
            .seats
            .iter()
            .map(|s| match s.who {
                Who::User(u) => SavedSeat {
                    username: accounts.find_username(u),
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

/// `loadGameState`: a saved game from the saves folder, by one of its
/// players, restored with its seats when the server no longer holds it
/// (another database, say); refused, naming the game, when it does. In
/// phases: the file read and its reader seated in it; the game refused
/// if still on this server; its records; the table restored; the journal.
pub(super) fn load_game(
    (tables, lobby): (&mut Tables, &mut Lobby),
    (accounts, conns): (&Accounts, &Conns),
    batch: &mut Batch,
    ask: Ask,
    p: &LoadGame,
) -> Result<(), Value> {
    let (name, board_text, saved) = read_own_save(tables, accounts, ask, &p.path)?;
    tables.admits(ask.user)?;
    // A game still on this server is never dealt a second time: a copy
    // with its seed would show its players the real game's next cards and
    // tickets (draw in the copy, then play knowing them). It is the same
    // game; its players open it from their games. A finished game is
    // refused too: its copy would seat its other players without asking.
    if let Some(id) = tables.with_seed(saved.seed) {
        return Err(json!({
            "status": "error",
            "description": d::INVALID_INPUT,
            "reason": format!(
                "{name}: that game is still on this server as game {id}: open it from your games (a copy would deal its cards again)",
            ),
            "gameId": id,
        }));
    }
    let board = Arc::new(board_entry(saved.board_key.clone(), board_text, &name).map_err(invalid)?);
    let Records { seats, moves, chat } = records_of(accounts, &saved, &name)?;
    let id = tables.next_id();
    let game_name: String = format!("{} (loaded)", saved.name)
        .chars()
        .take(MAX_NAME + 9)
        .collect();
    let g = GameRecord {
        id,
        name: game_name,
        creator: ask.user,
        board_key: board.key.clone(),
        board_hash: board.hash.clone(),
        created: now(),
        seed: Some(saved.seed),
        // A loaded game is a test fixture: the coach stays off.
        coach: false,
        // Untimed too: whoever loads it plays it at their own pace.
        turn_limit: None,
        turn_based: false,
        turn_start: None,
        away: 0,
        over: false,
        rematch: None,
        seats,
        moves,
        chat,
        notes: Vec::new(),
    };
    let names = |u| accounts.seat_name(u);
    let table =
        Table::restore(&g, board.clone(), &names).map_err(|e| invalid(format!("{name}: {e}")))?;
    lobby.store_board(batch, &board);
    journal_loaded(batch, g, saved.seed);
    tables.insert(table);
    conns.send(
        batch,
        ask.conn,
        ask.id,
        "loadGameState",
        json!({ "status": "success", "description": d::SUCCESS, "gameId": id }),
    );
    lobby::push_user_games(tables, conns, batch, id);
    tables.push_models(conns, batch, id);
    Ok(())
}

/// `loadGameState`'s refusal of bad input, with its reason.
fn invalid(reason: String) -> Value {
    json!({ "status": "error", "description": d::INVALID_INPUT, "reason": reason })
}

/// The saved game at `path` (its file name, the board's text, the game),
/// read only from the saves folder and only for one of its players: the
/// file holds its seed.
fn read_own_save(
    tables: &Tables,
    accounts: &Accounts,
    ask: Ask,
    path: &str,
) -> Result<(String, String, SavedGame), Value> {
    let asked = std::path::Path::new(path);
    let name = asked
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    // Only the saves folder is read: a bare name, or a path into it.
    let inside = asked
        .parent()
        .is_none_or(|d| d.as_os_str().is_empty() || d == tables.saves);
    if name.is_empty() || !inside || !name.ends_with(".json") {
        return Err(invalid(format!(
            "{path}: only files in the saves folder are read"
        )));
    }
    let (_, board_text, saved) =
        SavedGame::load(&tables.saves.join(&name)).map_err(|e| invalid(e.to_string()))?;
    let asker = accounts.username(ask.user).to_lowercase();
    let seated = saved.seats.iter().any(|s| {
        s.username
            .as_ref()
            .is_some_and(|u| u.to_lowercase() == asker)
    });
    if !seated {
        return Err(invalid(format!("{name}: you have no seat in that game")));
    }
    Ok((name, board_text, saved))
}

/// A saved game as the store records it.
struct Records {
    seats: Vec<SeatRecord>,
    moves: Vec<MoveRecord>,
    chat: Vec<ChatRecord>,
}

/// A saved game's seats (each user found on this server), moves and chat,
/// as the store records them.
fn records_of(accounts: &Accounts, saved: &SavedGame, name: &str) -> Result<Records, Value> {
    let mut seats = Vec::new();
    for (i, s) in saved.seats.iter().enumerate() {
        let user_id = match &s.username {
            Some(u) => Some(
                accounts
                    .by_name(u)
                    .ok_or_else(|| invalid(format!("{name}: game.seats[{i}]: no user {u}")))?,
            ),
            None => None,
        };
        seats.push(SeatRecord {
            user: user_id,
            bot: s.bot.clone(),
            color: s.color.clone(),
        });
    }
    let moves = saved
        .moves
        .iter()
        .map(|(seat, a)| MoveRecord {
            seat: *seat,
            action: Move::from(a).to_json(),
        })
        .collect();
    let chat = saved
        .chat
        .iter()
        .map(|c| ChatRecord {
            sender: c.sender.clone(),
            message: c.message.clone(),
            at: c.at,
        })
        .collect();
    Ok(Records { seats, moves, chat })
}

/// The journal's writes of a loaded game: the game as its record has it,
/// its seats, its start with `seed`, then its moves and chat in order.
fn journal_loaded(batch: &mut Batch, g: GameRecord, seed: u64) {
    batch.write(Write::Game {
        id: g.id,
        name: g.name,
        creator: g.creator,
        board_key: g.board_key,
        board_hash: g.board_hash,
        created: g.created,
        coach: g.coach,
        pace: (g.turn_limit, g.turn_based),
    });
    batch.write(Write::Seats {
        game: g.id,
        seats: g.seats,
    });
    batch.write(Write::Start { game: g.id, seed });
    for (seq, record) in g.moves.into_iter().enumerate() {
        batch.write(Write::Move {
            game: g.id,
            seq,
            record,
        });
    }
    for (seq, record) in g.chat.into_iter().enumerate() {
        batch.write(Write::Chat {
            game: g.id,
            seq,
            record,
        });
    }
}
