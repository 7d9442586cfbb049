//! Tables and moves: every game the server holds ([`Table`], one game,
//! is [`super::table`]'s), the deal that starts one, chat, each move from
//! its typed command through the rules engine to every player's message,
//! and what the coach and the review may read of a game.
//!
//! Every message to a player is built by [`super::view`] from the table
//! and that player's seat; this part only says whom it goes to.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use super::accounts;
use super::changes;
use super::conns::{ConnId, Conns};
use super::journal::Batch;
use super::moves::{answer_name, move_of, refusal};
use super::protocol::{self, description as d, Chat, GameOnly, MoveCommand, Page};
use super::ratings::{Finish, Ratings};
use super::sessions::{now, Accounts};
use super::shelf::{Shelf, Shelved};
use super::store::{ChatRecord, GameId, MoveRecord, UserId, Write};
use super::table::{Phase, ReviewSlot, Table, TableBoard, Who};
use super::timer::{self, now_ms};
use super::view::{self, LobbyEntry, Numbered::ByOrder};
use crate::engine::event::Happened;
use crate::engine::rules::{Action, Illegal, RuleError};
use crate::engine::saved::{Move, SavedGame};
use crate::engine::state::GameState;

/// The longest chat message.
const MAX_CHAT: usize = 500;

/// A user sits at no more than this many unfinished games (created,
/// joined or loaded): each is a table in memory with a deal and bots, and
/// one account could otherwise create them without end. A player of turn
/// based games keeps a handful going; Board Game Arena's default limit of
/// simultaneous turn-based tables is of this order.
pub const MAX_GAMES_PER_USER: usize = 20;

/// At most this many connections watch one game: every message of a move
/// goes to each, so a crowd would slow the players' game.
pub const MAX_WATCHERS: usize = 50;

/// `watchableGames` lists at most this many games, the newest first.
pub const WATCHABLE: usize = 50;

/// The server holds at most this many unfinished games in all: beyond, a
/// new one waits for others to end. The load benchmark plays 1,000 at
/// once (`ttr-opt bench --play`), well inside.
pub const MAX_LIVE_GAMES: usize = 10_000;

/// Who asks: the user, their connection and the id the answer echoes.
#[derive(Clone, Copy)]
pub(super) struct Ask<'a> {
    pub(super) user: UserId,
    pub(super) conn: ConnId,
    pub(super) id: Option<&'a Value>,
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

/// Every game, with what deals them and where saves go.
pub(super) struct Tables {
    games: BTreeMap<GameId, Table>,
    /// Where `saveGameState` writes.
    pub(super) saves: PathBuf,
    /// Deals from this seed plus the game's id instead of at random (tests
    /// and benchmarks only: players who know it know the deck).
    pub(super) seed: Option<u64>,
    /// The highest id ever given, games closed since included.
    last_id: GameId,
    /// Every player's rating, from the games that ended.
    pub(super) ratings: Ratings,
    /// What each game's views were last pushed (a push sends the changes).
    sent: HashMap<GameId, changes::Sent>,
    /// The lists of joinable games changed since they were last sent
    /// ([`super::lobby::lobby_changed`]).
    pub(super) lobby_stale: bool,
    /// The shortest real-time turn `createGame` accepts, in seconds
    /// ([`timer::MIN_TURN_SECS`]; tests lower it).
    pub(super) min_turn_secs: u32,
    /// The finished games out of memory ([`super::shelf`]).
    pub(super) shelf: Shelf,
}

impl Tables {
    /// No game yet.
    pub(super) fn new(saves: PathBuf) -> Tables {
        Tables {
            games: BTreeMap::new(),
            saves,
            seed: None,
            last_id: 0,
            ratings: Ratings::default(),
            sent: HashMap::new(),
            lobby_stale: false,
            min_turn_secs: timer::MIN_TURN_SECS,
            shelf: Shelf::new(None),
        }
    }

    /// Remembers that ids up to `id` were given (read from the store).
    pub(super) fn given_up_to(&mut self, id: GameId) {
        self.last_id = self.last_id.max(id);
    }

    /// A table.
    pub(super) fn get(&self, id: GameId) -> Option<&Table> {
        self.games.get(&id)
    }

    /// A table, to change.
    pub(super) fn get_mut(&mut self, id: GameId) -> Option<&mut Table> {
        self.games.get_mut(&id)
    }

    /// Every table, by id.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Table> {
        self.games.values()
    }

    /// Adds a table under its id.
    pub(super) fn insert(&mut self, table: Table) {
        self.last_id = self.last_id.max(table.id);
        self.games.insert(table.id, table);
    }

    /// Removes a table.
    pub(super) fn remove(&mut self, id: GameId) {
        self.games.remove(&id);
        self.sent.remove(&id);
    }

    /// Brings shelved game `id` back into memory ([`super::shelf`]): its
    /// record read from the store and its moves replayed. Nothing to do
    /// (false) for a game in memory or unknown.
    pub(super) fn wake(
        &mut self,
        id: GameId,
        names: &dyn Fn(UserId) -> String,
    ) -> Result<bool, String> {
        let Some((record, board)) = self.shelf.read(id)? else {
            return Ok(false);
        };
        let table = Table::restore(&record, board, names)?;
        self.shelf.remove(id);
        self.insert(table);
        Ok(true)
    }

    /// Marks game `id` used at `at_ms`, and if `batch` is given, written
    /// in the journal's batch of that number.
    pub(super) fn touch(&mut self, id: GameId, at_ms: i64, batch: Option<u64>) {
        if let Some(t) = self.games.get_mut(&id) {
            t.last_use.at_ms = at_ms;
            if let Some(b) = batch {
                t.last_use.batch = t.last_use.batch.max(b);
            }
        }
    }

    /// Whether game `t` may leave memory now: over, its last writes on
    /// disk (`committed`, the journal's count), no one watching it and
    /// its review not being computed (its rematch is stored: read back,
    /// it joins the same new game).
    fn shelvable(t: &Table, conns: &Conns, committed: u64) -> bool {
        t.phase() == Phase::Over
            && t.last_use.batch <= committed
            && conns.watchers(t.id) == 0
            && !matches!(t.review, super::table::ReviewSlot::Running(_))
    }

    /// Shelves every game that may leave memory ([`Self::shelvable`])
    /// and that nobody has used for the shelf's idle time.
    pub(super) fn shelve_idle(&mut self, conns: &Conns, now_ms: i64, committed: u64) -> usize {
        let idle_ms = self.shelf.idle_ms;
        let done: Vec<GameId> = self
            .games
            .values()
            .filter(|t| {
                now_ms - t.last_use.at_ms >= idle_ms && Self::shelvable(t, conns, committed)
            })
            .map(|t| t.id)
            .collect();
        self.shelve(&done);
        done.len()
    }

    /// Shelves the least recently used finished games that may leave
    /// memory until at most the shelf's cap of finished games stays
    /// ([`super::shelf::MAX_FINISHED_AWAKE`]), `keep` (the game just read
    /// back) aside. Games watched, or not yet on disk, stay even beyond it.
    pub(super) fn shelve_beyond_cap(
        &mut self,
        conns: &Conns,
        committed: u64,
        keep: GameId,
    ) -> usize {
        let over = self
            .games
            .values()
            .filter(|t| t.phase() == Phase::Over)
            .count();
        let Some(extra) = over.checked_sub(self.shelf.awake_cap).filter(|&n| n > 0) else {
            return 0;
        };
        let mut unused: Vec<(i64, GameId)> = self
            .games
            .values()
            .filter(|t| t.id != keep && Self::shelvable(t, conns, committed))
            .map(|t| (t.last_use.at_ms, t.id))
            .collect();
        unused.sort_unstable();
        let done: Vec<GameId> = unused.into_iter().take(extra).map(|(_, id)| id).collect();
        self.shelve(&done);
        done.len()
    }

    /// Moves games `ids`, all over, from memory to the shelf.
    fn shelve(&mut self, ids: &[GameId]) {
        for id in ids {
            let t = self.games.remove(id).expect("listed by the caller");
            self.sent.remove(id);
            self.shelf.put(*id, Shelved::of(&t));
        }
    }

    /// The games in memory and the games shelved.
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.games.len(), self.shelf.len())
    }

    /// `user`'s games, in memory or shelved, by id, as the lobby lists
    /// them.
    pub(super) fn listings_of(&self, user: UserId) -> Vec<Value> {
        let mut games: Vec<(GameId, Value)> = self
            .games
            .values()
            .filter_map(|t| {
                t.seat_of(user)
                    .map(|s| (t.id, view::lobby_entry(t, ByOrder, Some(s))))
            })
            .chain(
                self.shelf
                    .of_user(user)
                    .map(|(id, g)| (id, g.entry.clone())),
            )
            .collect();
        games.sort_by_key(|(id, _)| *id);
        games.into_iter().map(|(_, v)| v).collect()
    }

    /// The game on this server dealt from `seed`, in memory or shelved.
    pub(super) fn with_seed(&self, seed: u64) -> Option<GameId> {
        self.games
            .values()
            .find(|t| t.seed() == Some(seed))
            .map(|t| t.id)
            .or_else(|| self.shelf.with_seed(seed))
    }

    /// The id the next game gets: never one given before, even to a game
    /// closed since (a page or an old `#game=N` link that had it open
    /// would show someone else's game).
    pub(super) fn next_id(&self) -> GameId {
        self.games
            .keys()
            .max()
            .copied()
            .unwrap_or(0)
            .max(self.last_id)
            + 1
    }

    /// Whether `user` may sit at one more unfinished game, and the server
    /// hold one more ([`MAX_GAMES_PER_USER`], [`MAX_LIVE_GAMES`]).
    pub(super) fn admits(&self, user: UserId) -> Result<(), Value> {
        let live = self.games.values().filter(|t| t.phase() != Phase::Over);
        let (mut all, mut mine) = (0, 0);
        for t in live {
            all += 1;
            mine += usize::from(t.seat_of(user).is_some());
        }
        let reason = if mine >= MAX_GAMES_PER_USER {
            format!("a player sits at most at {MAX_GAMES_PER_USER} unfinished games, and you sit at {mine}: finish or leave one first")
        } else if all >= MAX_LIVE_GAMES {
            format!("the server holds {MAX_LIVE_GAMES} unfinished games, its most: try again when some have ended")
        } else {
            return Ok(());
        };
        Err(json!({ "description": d::INVALID_INPUT, "reason": reason }))
    }

    /// The table of `game`, or the protocol's "no such game".
    fn existing(&self, game: GameId) -> Result<&Table, Value> {
        self.games
            .get(&game)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))
    }

    /// The table of `game` with `user`'s seat at it.
    pub(super) fn seated(&self, user: UserId, game: GameId) -> Result<(&Table, usize), Value> {
        let t = self.existing(game)?;
        let seat = t
            .seat_of(user)
            .ok_or_else(|| protocol::described(d::NOT_IN_GAME))?;
        Ok((t, seat))
    }

    /// Each user seated at game `table` whose entry in their list of
    /// games changed since last pushed ([`changes::Sent::entry_changed`]),
    /// with the entry.
    pub(super) fn entries_changed(&mut self, table: GameId) -> Vec<(UserId, LobbyEntry)> {
        let Some(t) = self.games.get(&table) else {
            return Vec::new();
        };
        let sent = self.sent.entry(table).or_default();
        t.seats
            .iter()
            .enumerate()
            .filter_map(|(seat, s)| match s.who {
                Who::User(u) => Some((u, LobbyEntry::new(t, ByOrder, Some(seat)))),
                Who::Bot(_) => None,
            })
            .filter(|(u, entry)| sent.entry_changed(*u, entry))
            .collect()
    }

    /// What changed in each seated user's own view of the game, and in
    /// the spectators' ([`changes::Sent::push`]): every person's seat is
    /// followed whether or not they are connected, and the spectators'
    /// while anyone watches (a first spectator gets the whole model).
    pub(super) fn push_models(&mut self, conns: &Conns, batch: &mut Batch, table: GameId) {
        let Some(t) = self.games.get(&table) else {
            return;
        };
        // A bot's seat has no one to tell.
        let people = t.seats.iter().enumerate();
        let mut views: Vec<Option<usize>> = people
            .filter(|(_, s)| matches!(s.who, Who::User(_)))
            .map(|(i, _)| Some(i))
            .collect();
        if conns.watchers(table) > 0 {
            views.push(None);
        }
        let sent = self.sent.entry(table).or_default();
        for (seat, out) in sent.push(t, &views) {
            match seat {
                Some(s) => {
                    if let Who::User(u) = t.seats[s].who {
                        conns.send_user(batch, u, None, "modelChanged", &out);
                    }
                }
                None => conns.send_watchers(batch, table, "modelChanged", &out),
            }
        }
    }

    /// Deals: a fresh seed, each player's own `startGame` answer.
    pub(super) fn begin(
        &mut self,
        conns: &Conns,
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
            .games
            .get_mut(&game)
            .ok_or_else(|| protocol::described(d::NO_SUCH_GAME))?;
        t.start(seed).map_err(|e| {
            eprintln!("ttr-opt play: game {game} cannot start: {e}");
            protocol::described(d::SERVER_ERROR)
        })?;
        batch.write(Write::Start { game, seed });
        let t = self.games.get_mut(&game).expect("started above");
        let people = t.people_to_act();
        t.clock.turn_begins(now_ms(), &people);
        batch.write(clock_write(t));
        let t = &self.games[&game];
        for (seat, s) in t.seats.iter().enumerate() {
            if let Who::User(u) = s.who {
                conns.send_user(batch, u, answer, "startGame", &view::deal(t, seat));
            }
        }
        Ok(())
    }

    /// `sendChat`: the message to everyone at the table.
    pub(super) fn chat(
        &mut self,
        (accounts, conns): (&Accounts, &Conns),
        batch: &mut Batch,
        ask: Ask,
        p: &Chat,
    ) -> Result<(), Value> {
        let message = p.message.trim().to_string();
        self.seated(ask.user, p.game_id)?;
        if message.is_empty() || message.chars().count() > MAX_CHAT {
            return Err(
                json!({ "description": d::INVALID_INPUT, "reason": format!("a message is 1 to {MAX_CHAT} characters") }),
            );
        }
        let sender = accounts.username(ask.user);
        let t = self.games.get_mut(&p.game_id).expect("seated above");
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
        let t = &self.games[&p.game_id];
        for u in t.users().collect::<Vec<_>>() {
            conns.send_user(batch, u, Some((ask.conn, ask.id)), "sendChat", &out);
        }
        conns.send_watchers(batch, t.id, "sendChat", &out);
        self.push_models(conns, batch, p.game_id);
        Ok(())
    }

    /// `sendClientModelInformation`: the asking player's view.
    pub(super) fn model(
        &self,
        conns: &Conns,
        batch: &mut Batch,
        ask: Ask,
        p: &GameOnly,
    ) -> Result<(), Value> {
        let (t, seat) = self.seated(ask.user, p.game_id)?;
        let out = changes::model(t, Some(seat), self.sent.get(&t.id));
        conns.send(batch, ask.conn, ask.id, "sendClientModelInformation", out);
        Ok(())
    }

    /// `watchGame`: the connection becomes a spectator of a game it has
    /// no seat at, begun or over: it is answered the public model (no
    /// hand, no ticket, no offer: the view of no seat) and from then on
    /// gets every public message of the game (moves as others see them,
    /// chat, turns, the end) until it watches another game or closes. A
    /// spectator cannot move or chat: every such command asks for a seat.
    pub(super) fn watch(
        &self,
        conns: &mut Conns,
        batch: &mut Batch,
        ask: Ask,
        p: &GameOnly,
    ) -> Result<(), Value> {
        let t = self.existing(p.game_id)?;
        let refuse = |reason: &str| json!({ "description": d::INVALID_INPUT, "reason": reason });
        if t.seat_of(ask.user).is_some() {
            return Err(refuse("you play in this game: open it instead"));
        }
        if t.phase() == Phase::Open {
            return Err(refuse("the game has not started"));
        }
        let already = conns.get(ask.conn).and_then(|c| c.watching()) == Some(t.id);
        if !already && conns.watchers(t.id) >= MAX_WATCHERS {
            return Err(refuse(&format!(
                "{MAX_WATCHERS} people watch this game already, its most"
            )));
        }
        conns.set_watching(ask.conn, Some(t.id));
        let out = changes::model(t, None, self.sent.get(&t.id));
        conns.send(batch, ask.conn, ask.id, "watchGame", out);
        Ok(())
    }

    /// `watchableGames`: games begun or over that `user` has no seat at,
    /// the newest first (at most [`WATCHABLE`]), as the lobby lists games.
    pub(super) fn watchable(&self, user: UserId) -> Value {
        let live = self
            .games
            .values()
            .rev()
            .filter(|t| t.phase() != Phase::Open && t.seat_of(user).is_none())
            .map(|t| (t.id, view::lobby_entry(t, ByOrder, None)));
        let shelved = self
            .shelf
            .newest_first()
            .filter(|(_, g)| !g.seats(user))
            .map(|(id, g)| (id, g.entry.clone()));
        // Both newest first: merged, the newest of the two first.
        let mut games: Vec<(GameId, Value)> = live.take(WATCHABLE).collect();
        games.extend(shelved.take(WATCHABLE));
        games.sort_by_key(|(id, _)| std::cmp::Reverse(*id));
        games.truncate(WATCHABLE);
        let games: Vec<Value> = games.into_iter().map(|(_, v)| v).collect();
        json!({ "description": d::SUCCESS, "games": games })
    }

    /// `getHistory` (`chat` false) or `getChat`: a page of a game's
    /// lines, for its players.
    pub(super) fn lines(
        &self,
        conns: &Conns,
        batch: &mut Batch,
        (ask, chat): (Ask, bool),
        p: &Page,
    ) -> Result<(), Value> {
        let (t, _) = self.seated(ask.user, p.game_id)?;
        let (name, out) = if chat {
            ("getChat", view::chat_page(t, p.from))
        } else {
            ("getHistory", view::history_page(t, p.from))
        };
        conns.send(batch, ask.conn, ask.id, name, out);
        Ok(())
    }

    /// `getReplay`: the finished game move by move ([`super::replay`]),
    /// for its players and for the connections watching it (everything in
    /// it is public once the game is over). Built on the first request and
    /// kept.
    pub(super) fn replay(
        &self,
        conns: &Conns,
        batch: &mut Batch,
        ask: Ask,
        p: &GameOnly,
    ) -> Result<(), Value> {
        let t = self.existing(p.game_id)?;
        let watching = conns.get(ask.conn).and_then(|c| c.watching()) == Some(t.id);
        if t.seat_of(ask.user).is_none() && !watching {
            return Err(protocol::described(d::NOT_IN_GAME));
        }
        if t.phase() != Phase::Over {
            return Err(protocol::described(d::NOT_OVER));
        }
        let out = match t.replay.get() {
            Some(done) => done.clone(),
            None => {
                let built = super::replay::replay(t).map_err(|e| {
                    eprintln!("ttr-opt play: game {}: no replay: {e}", t.id);
                    protocol::described(d::SERVER_ERROR)
                })?;
                t.replay.get_or_init(|| Arc::new(built)).clone()
            }
        };
        conns.send(batch, ask.conn, ask.id, "getReplay", (*out).clone());
        Ok(())
    }

    /// A move command of a person: read into the rules engine's action,
    /// then played as [`Tables::play`] plays it.
    pub(super) fn game_move(
        &mut self,
        conns: &Conns,
        batch: &mut Batch,
        ask: Ask,
        m: &MoveCommand,
    ) -> Result<bool, Value> {
        let game = m.game_id();
        let (t, seat) = self.seated(ask.user, game)?;
        let action = move_of(t, seat, m)?;
        self.play(conns, batch, game, seat, &action, Some((ask.conn, ask.id)))
            .map_err(|e| json!({ "description": refusal(m, &e), "reason": e.message }))
    }

    /// Plays `action` for `seat` (a person's command, answered on `answer`,
    /// or a bot's move): the rules engine decides; if legal, the move is
    /// recorded and every player told, each what they may know. Returns
    /// whether the players' lists of games changed (the turn passed, the
    /// game ended, or tickets were kept).
    pub(super) fn play(
        &mut self,
        conns: &Conns,
        batch: &mut Batch,
        game: GameId,
        seat: usize,
        action: &Action,
        answer: Option<(ConnId, Option<&Value>)>,
    ) -> Result<bool, RuleError> {
        let t = self
            .games
            .get_mut(&game)
            .ok_or_else(|| RuleError::new(Illegal::Setup, "no such game"))?;
        let seq = t.moves.len();
        let event = t.act(seat, action)?;
        batch.write(Write::Move {
            game,
            seq,
            record: MoveRecord {
                seat,
                action: Move::from(action).to_json(),
            },
        });
        // A person's own command (answered) takes an away seat back; a
        // move made for them by the stand-in has no answer.
        if answer.is_some() && t.clock.moved_by_person(seat) {
            let line = format!(
                "{} is back and plays their own seat again",
                t.seats[seat].name
            );
            batch.write(t.note(line));
            batch.write(clock_write(t));
        }
        if event.ended().is_some() {
            t.clock.stop();
            batch.write(clock_write(t));
        } else if event.turn_begins().is_some() {
            let people = t.people_to_act();
            t.clock.turn_begins(now_ms(), &people);
            batch.write(clock_write(t));
        }
        let t = &self.games[&game];
        // Each user at the table gets the move's message, built from the
        // engine's event for that user's seat: the asking connection with
        // its id.
        let users: Vec<(usize, UserId)> = t
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.who {
                Who::User(u) => Some((i, u)),
                Who::Bot(_) => None,
            })
            .collect();
        for &(s, u) in &users {
            let (command, out) = view::move_message(t, s, &event);
            let from = if s == seat { answer } else { None };
            // The answer to a request carries the request's command (a
            // `buyRoute` that turned a tunnel's cards is answered as
            // `buyRoute`, a `payTunnel` that claimed it as `payTunnel`);
            // the others' messages name what happened.
            let command = match from {
                Some(_) => answer_name(action),
                None => command,
            };
            conns.send_user(batch, u, from, command, &out);
        }
        // Spectators get the message of no seat: what every other player
        // sees of the move.
        let (command, out) = view::move_message(t, view::NO_SEAT, &event);
        conns.send_watchers(batch, game, command, &out);
        if let Some(&(_, u)) = users.iter().find(|(s, _)| *s == seat) {
            for &x in event.completed() {
                let out = view::ticket_completed(t, &event, x);
                conns.send_user(batch, u, None, "notifyDestinationRouteCompleted", &out);
            }
        }
        let turn_started = event.turn_begins().is_some();
        if turn_started {
            let out = view::turn_started(t);
            for &(_, u) in &users {
                conns.send_user(batch, u, None, "turnStartedNotification", &out);
            }
            conns.send_watchers(batch, game, "turnStartedNotification", &out);
        }
        let ended = event.ended().is_some();
        if ended {
            batch.write(Write::Over { game });
            if let Some(record) = rate(&mut self.ratings, t) {
                batch.write(Write::Result(record));
            }
            let t = &self.games[&game];
            let out = view::results(t);
            for &(_, u) in &users {
                conns.send_user(batch, u, None, "gameEnded", &out);
            }
            conns.send_watchers(batch, game, "gameEnded", &out);
        }
        self.push_models(conns, batch, game);
        let kept = matches!(event.happened, Happened::TicketsKept { .. });
        Ok(turn_started || ended || kept)
    }

    /// The server's ticker, at `now` (ms): every table whose turn's time
    /// is up is marked overdue, its players told in the history who timed
    /// out (and who is now away), and returned for the bot path to play.
    /// One pass over the tables a tick: at most [`MAX_LIVE_GAMES`] checks
    /// of an `Option<i64>`.
    pub(super) fn time_up(&mut self, conns: &Conns, batch: &mut Batch, now: i64) -> Vec<GameId> {
        let mut due = Vec::new();
        for t in self.games.values_mut() {
            if !t.clock.expired(now) {
                continue;
            }
            let people = t.people_to_act();
            let was_away: Vec<bool> = people.iter().map(|&s| t.clock.is_away(s)).collect();
            let (up, now_away) = t.clock.time_up(now, &people);
            for (&s, away) in people.iter().zip(was_away) {
                if !up.contains(&s) {
                    continue;
                }
                let name = &t.seats[s].name;
                let line = if away {
                    format!("{name} is away; a bot played for them")
                } else if now_away.contains(&s) {
                    format!("{name} timed out again; a bot plays their seat until they make a move")
                } else {
                    format!("{name} timed out; a bot played for them")
                };
                batch.write(t.note(line));
            }
            if !now_away.is_empty() {
                batch.write(clock_write(t));
            }
            due.push(t.id);
        }
        for &g in &due {
            self.push_models(conns, batch, g);
        }
        due
    }

    /// `leaveGame` in a game being played: the seat stays (the game's
    /// scores need every seat) and is played by the stand-in until its
    /// person makes a move again.
    pub(super) fn leave_playing(
        &mut self,
        conns: &Conns,
        batch: &mut Batch,
        ask: Ask,
        game: GameId,
    ) -> Result<(), Value> {
        let (_, seat) = self.seated(ask.user, game)?;
        let t = self.games.get_mut(&game).expect("seated above");
        if t.clock.set_away(seat, true) {
            let line = format!(
                "{} left the game; a bot plays their seat until they make a move",
                t.seats[seat].name
            );
            batch.write(t.note(line));
            let people = t.people_to_act();
            t.clock.replan(&people);
            batch.write(clock_write(t));
        }
        answer_left(conns, batch, ask);
        self.push_models(conns, batch, game);
        Ok(())
    }

    /// `getPlayer`: the page of a user or a rated bot, or
    /// [`d::NO_SUCH_PLAYER`]. A user never rated gets the prior's page.
    pub(super) fn player_page(&self, accounts: &Accounts, name: &str) -> Result<Value, Value> {
        let name = match accounts.by_name(name) {
            Some(u) => accounts.seat_name(u),
            None if self.ratings.knows(name) || bot_rating_name(name) => name.to_lowercase(),
            None => return Err(protocol::described(d::NO_SUCH_PLAYER)),
        };
        Ok(self.ratings.page(&name))
    }

    /// What the coach may know for `getCoach`: the asking player's own
    /// state ([`GameState::of_player`]) and offer, nothing of the others'.
    /// Refused outside the player's seat, before the start, and while the
    /// game is played if its creator left the coach off.
    pub(super) fn coach_input(&self, user: UserId, p: &GameOnly) -> Result<CoachInput, Value> {
        let (t, seat) = self.seated(user, p.game_id)?;
        let Some(g) = t.game() else {
            return Err(protocol::described(d::NOT_STARTED));
        };
        // A plan is of no use once no move is left: the review tells what
        // the game was (issue 57: the coach offered routes to claim after
        // the end).
        if g.is_over() {
            return Err(protocol::described(d::GAME_OVER));
        }
        if !t.coach {
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
    /// connection waits for it either way). `saved` is the whole game as
    /// a file, once it is over.
    pub(super) fn review_input(
        &mut self,
        ask: Ask,
        p: &GameOnly,
        saved: impl FnOnce(&Table) -> SavedGame,
    ) -> Result<ReviewStart, Value> {
        self.seated(ask.user, p.game_id)?;
        let saved = {
            let t = &self.games[&p.game_id];
            if t.phase() != Phase::Over {
                return Err(protocol::described(d::NOT_OVER));
            }
            saved(t)
        };
        let t = self.games.get_mut(&p.game_id).expect("seated above");
        let waiter = (ask.conn, ask.id.cloned());
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
    pub(super) fn review_done(
        &mut self,
        conns: &Conns,
        batch: &mut Batch,
        game: GameId,
        review: Result<Value, Value>,
    ) {
        let Some(t) = self.games.get_mut(&game) else {
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
        for (conn, id) in waiting {
            conns.send(batch, conn, id.as_ref(), "getReview", out.clone());
        }
    }

    /// The answer to a move command whose parameters did not read: a move
    /// names its game first, so a game the user has no seat in is refused
    /// for that (as the engine's checks come after the seat's), whatever
    /// else the parameters hold.
    pub(super) fn misread_move(&self, user: UserId, game: Option<i64>, misread: Value) -> Value {
        // A shelved game answers as it would in memory.
        if let Some(g) = game.and_then(|g| self.shelf.get(g)) {
            return if g.seats(user) {
                misread
            } else {
                protocol::described(d::NOT_IN_GAME)
            };
        }
        match game.map(|g| self.seated(user, g)) {
            Some(Err(not_seated)) => not_seated,
            _ => misread,
        }
    }
}

/// A table's clock as stored.
fn clock_write(t: &Table) -> Write {
    Write::Clock {
        game: t.id,
        turn_start: t.clock.turn_start(),
        away: t.clock.away_bits(),
    }
}

/// The name a bot's seat is rated under: one rating per strategy.
fn bot_player(d: super::table::Difficulty) -> String {
    format!("bot:{}", d.strategy())
}

/// Whether `name` is a bot level's rating name (`bot:greedy`).
fn bot_rating_name(name: &str) -> bool {
    super::table::Difficulty::ALL
        .iter()
        .any(|&d| bot_player(d).eq_ignore_ascii_case(name))
}

/// Rates the game that just ended at `t` from its final scores (a game of
/// one seat is not rated): the record to store.
fn rate(ratings: &mut Ratings, t: &Table) -> Option<super::store::ResultRecord> {
    let game = t.game()?;
    let seats: Vec<Finish> = game
        .results()
        .iter()
        .zip(&t.seats)
        .enumerate()
        .map(|(i, (r, s))| Finish {
            player: match s.who {
                Who::User(_) => s.name.clone(),
                Who::Bot(d) => bot_player(d),
            },
            score: r.score,
            tickets: game.completed_tickets(i).len(),
        })
        .collect();
    ratings.rate(t.id, (&t.board.key, now()), &seats)
}

/// `leaveGame`'s answer to the player who left, before the game or
/// during it ([`Tables::leave_playing`]; `lobby` answers with it too).
pub(super) fn answer_left(conns: &Conns, batch: &mut Batch, ask: Ask) {
    conns.send(
        batch,
        ask.conn,
        ask.id,
        "leaveGame",
        protocol::described(d::SUCCESS),
    );
}
