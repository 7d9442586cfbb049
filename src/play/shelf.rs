//! Finished games out of memory: what the lists show of each, and the
//! read that brings one back whole when someone opens it.
//!
//! A finished game in memory is its rules engine's state, its history,
//! chat, views and replay: about 0.2 MB on the USA board, and a server
//! that ran for months held every game it ever played. Now a game over
//! stays in memory while it is used (its players read the results, the
//! review, the replay, ask a rematch), and once nobody has touched it for
//! [`SHELVE_AFTER`] it is shelved: only its listing stays (a few
//! hundred bytes), and a start reads no finished game's moves at all.
//! Any command that names it (`Tables::wake`) reads it
//! back from the store and rebuilds it by replaying its moves, about a
//! millisecond for a whole USA game.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::store::{GameId, GameReader, GameRecord, UserId};
use super::table::{Table, TableBoard};

/// A finished game stays in memory this long after its last use: long
/// enough for its players to read the results, the review and the
/// replay, and to ask a rematch, without it being read back
/// ([`super::Config::shelve_after`]; tests shorten it).
pub const SHELVE_AFTER: Duration = Duration::from_secs(10 * 60);

/// The longest time between two looks for idle finished games (each one
/// pass over the tables in memory).
pub const SHELVE_CHECK_MS: i64 = 10_000;

/// The most finished games kept in memory at once: beyond it, reading
/// one back shelves the least recently used (each holds its views, its
/// replay and its review, about 0.2 MB: 256 is some 50 MB). Without it,
/// commands naming old games, a few a second each, could bring the whole
/// shelf back within the idle time.
pub const MAX_FINISHED_AWAKE: usize = 256;

/// A finished game out of memory.
pub(super) struct Shelved {
    /// The game as the lists show it ([`super::view::lobby_entry`]): the
    /// same for every viewer once a game is over (it is nobody's turn).
    pub(super) entry: Value,
    /// Its people.
    users: Vec<UserId>,
    /// Its board, shared with the lobby's and the other games'.
    pub(super) board: Arc<TableBoard>,
    /// Its seed (a saved copy of a game on this server is refused, see
    /// [`super::saves`]).
    seed: Option<u64>,
}

impl Shelved {
    /// The shelved form of `table`, a game over.
    pub(super) fn of(table: &Table) -> Shelved {
        Shelved {
            entry: super::view::lobby_entry(table, super::view::Numbered::ByOrder, None),
            users: table.users().collect(),
            board: table.board.clone(),
            seed: table.seed(),
        }
    }

    /// The shelved form of a game marked over in the store, from its row
    /// and seats alone (`header`, as a start reads it): its listing is
    /// that of its seats at a table not dealt, marked over; nothing else
    /// in a listing depends on the moves once a game is over (no turn,
    /// no deadline).
    pub(super) fn of_record(
        header: &GameRecord,
        board: Arc<TableBoard>,
        names: &dyn Fn(UserId) -> String,
    ) -> Result<Shelved, String> {
        let seats_only = GameRecord {
            seed: None,
            ..header.clone()
        };
        let table = Table::restore(&seats_only, board, names)?;
        let mut shelved = Shelved::of(&table);
        shelved.entry["state"] = "over".into();
        shelved.seed = header.seed;
        Ok(shelved)
    }

    /// Whether `user` has a seat at it.
    pub(super) fn seats(&self, user: UserId) -> bool {
        self.users.contains(&user)
    }
}

/// Every finished game out of memory, and the store's reader that brings
/// one back.
#[derive(Default)]
pub(super) struct Shelf {
    games: BTreeMap<GameId, Shelved>,
    /// Each user's shelved games, by id.
    by_user: HashMap<UserId, Vec<GameId>>,
    reader: Option<Box<dyn GameReader>>,
    /// How long a finished game stays in memory unused (ms).
    pub(super) idle_ms: i64,
    /// The most finished games kept in memory ([`MAX_FINISHED_AWAKE`]).
    pub(super) awake_cap: usize,
}

impl Shelf {
    /// An empty shelf that reads games back with `reader`.
    pub(super) fn new(reader: Option<Box<dyn GameReader>>) -> Shelf {
        Shelf {
            reader,
            idle_ms: SHELVE_AFTER.as_millis() as i64,
            awake_cap: MAX_FINISHED_AWAKE,
            ..Shelf::default()
        }
    }

    /// Puts a game on the shelf.
    pub(super) fn put(&mut self, id: GameId, game: Shelved) {
        for &u in &game.users {
            let mine = self.by_user.entry(u).or_default();
            if let Err(at) = mine.binary_search(&id) {
                mine.insert(at, id);
            }
        }
        self.games.insert(id, game);
    }

    /// The shelved game `id`.
    pub(super) fn get(&self, id: GameId) -> Option<&Shelved> {
        self.games.get(&id)
    }

    /// How many games are shelved.
    pub(super) fn len(&self) -> usize {
        self.games.len()
    }

    /// `user`'s shelved games, by id.
    pub(super) fn of_user(&self, user: UserId) -> impl Iterator<Item = (GameId, &Shelved)> {
        self.by_user
            .get(&user)
            .into_iter()
            .flatten()
            .map(|id| (*id, &self.games[id]))
    }

    /// Every shelved game, the newest first.
    pub(super) fn newest_first(&self) -> impl Iterator<Item = (GameId, &Shelved)> {
        self.games.iter().rev().map(|(id, g)| (*id, g))
    }

    /// The shelved game dealt from `seed`, if any.
    pub(super) fn with_seed(&self, seed: u64) -> Option<GameId> {
        self.games
            .iter()
            .find(|(_, g)| g.seed == Some(seed))
            .map(|(id, _)| *id)
    }

    /// The whole record of shelved game `id`, read from the store, and its
    /// board; `Ok(None)` if it is not shelved. It stays shelved until
    /// [`Shelf::remove`] (a record that does not rebuild stays listed).
    pub(super) fn read(
        &mut self,
        id: GameId,
    ) -> Result<Option<(GameRecord, Arc<TableBoard>)>, String> {
        let Some(board) = self.games.get(&id).map(|g| g.board.clone()) else {
            return Ok(None);
        };
        let reader = self
            .reader
            .as_mut()
            .ok_or("the server has no reader of its store")?;
        let record = reader
            .game(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("game {id} is no longer in the store"))?;
        Ok(Some((record, board)))
    }

    /// Takes game `id` off the shelf (it is in memory again).
    pub(super) fn remove(&mut self, id: GameId) {
        let Some(game) = self.games.remove(&id) else {
            return;
        };
        for u in &game.users {
            if let Some(mine) = self.by_user.get_mut(u) {
                mine.retain(|g| *g != id);
                if mine.is_empty() {
                    self.by_user.remove(u);
                }
            }
        }
    }
}
