//! One game at its table: the seats (people and bots), the rules engine's
//! game once started, every accepted move, the public history and the
//! chat. Every move goes through [`Table::act`], which asks the rules engine
//! and records the move only if it is legal; a stored game is rebuilt by
//! replaying its moves ([`Table::restore`]).

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Colour, RouteId};
use crate::bots::{by_name, Strategy};
use crate::engine::cards::Card;
use crate::engine::event::{Ending, Event, Happened, Source};
use crate::engine::rules::{Action, Game, Illegal, RuleError};

use super::store::{
    ChatRecord, GameId, GameRecord, MoveRecord, NoteRecord, SeatRecord, UserId, Write,
};
use super::timer::{Clock, Pace};
use crate::engine::saved::Move;

/// The level of the stand-in that plays for a person whose time is up:
/// the greedy bot decides in milliseconds, so that a timeout never holds
/// the table up further.
pub const STAND_IN: Difficulty = Difficulty::Medium;

/// The players' colours, as 003 names them.
pub const COLORS: [&str; 5] = ["yellow", "black", "red", "blue", "green"];

/// The most players at a table.
pub const MAX_SEATS: usize = 5;

/// A bot's level: a strategy of `ttr-opt tournament`'s ladder, each
/// stronger than the one before ([`super::ladder`] has their ratings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// One Step Thinking, the 2017 paper's agent that looks one route
    /// ahead: the weakest of the ladder on every shipped board.
    Easy,
    /// The greedy player of the C# simulation.
    Medium,
    /// The search player: the planner (the exact best plan from its
    /// state) with a clock, spare claims and a rush to the game's end; the
    /// strongest of the ladder on every shipped board.
    Hard,
}

impl Difficulty {
    /// Every level, the weakest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The level a client names: `easy`, `medium`, `hard`, or the
    /// strategy's name.
    pub fn parse(name: &str) -> Option<Difficulty> {
        let name = name.trim().to_lowercase();
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name() == name || d.strategy() == name)
    }
    /// `easy`, `medium` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
    /// The strategy that plays it.
    pub fn strategy(self) -> &'static str {
        match self {
            Difficulty::Easy => "one-step",
            Difficulty::Medium => "greedy",
            Difficulty::Hard => "search",
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A registered user.
    User(UserId),
    /// A bot of this level.
    Bot(Difficulty),
}

/// One seat.
#[derive(Clone, Debug)]
pub struct Seat {
    /// Who plays it.
    pub who: Who,
    /// Its colour, one of [`COLORS`].
    pub color: &'static str,
    /// The name shown: the username, or "Bot 2 (hard)".
    pub name: String,
}

/// A board a table is played on, validated once, with the online game's
/// numbering of its tracks.
#[derive(Debug)]
pub struct TableBoard {
    /// The lobby's key (`usa`, `upload-3`).
    pub key: String,
    /// The SHA-256 of the file's text.
    pub hash: String,
    /// The file's text.
    pub json: String,
    /// The board.
    pub board: Arc<Board>,
    /// The board as the page draws it, as JSON.
    pub view: String,
    /// Per `routeIndex`: the route and the track in it.
    pub tracks: Vec<(RouteId, usize)>,
    /// Its optimum at its own car count, proven, once a review solved it.
    pub optimum: std::sync::OnceLock<(u32, bool)>,
    /// The most players its tickets and cards deal (up to [`MAX_SEATS`];
    /// below 2, no game can be played on it).
    pub seats: usize,
    /// Its rules in short, as every lobby entry shows them
    /// ([`rules_summary`]): built once, not for each entry.
    pub rules_summary: Arc<serde_json::Value>,
}

impl TableBoard {
    /// A validated board under `key`.
    pub fn new(key: String, hash: String, json: String, board: Board) -> TableBoard {
        let view = serde_json::to_string(&crate::output::board_view::BoardView::new(&board))
            .unwrap_or_default();
        let tracks = board
            .route_ids()
            .flat_map(|r| (0..board.route(r).tracks.len()).map(move |t| (r, t)))
            .collect();
        // Asked of the rules engine, which deals every player 3 tickets
        // and 4 cards: a table never seats more than it can deal.
        let seats = (2..=MAX_SEATS)
            .rev()
            .find(|&n| Game::new(&board, n, 0).is_ok())
            .unwrap_or(0);
        let rules_summary = Arc::new(rules_summary(&board));
        TableBoard {
            key,
            hash,
            json,
            rules_summary,
            board: Arc::new(board),
            view,
            tracks,
            optimum: std::sync::OnceLock::new(),
            seats,
        }
    }

    /// Why no game can be played on it, if none can: the rules engine's
    /// refusal to deal two players.
    pub fn undealable(&self) -> Option<String> {
        Game::new(&*self.board, 2, 0).err().map(|e| e.message)
    }

    /// The `routeIndex` of a track.
    pub fn index_of(&self, route: RouteId, track: usize) -> usize {
        self.tracks
            .iter()
            .position(|&t| t == (route, track))
            .unwrap_or(usize::MAX)
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for players.
    Open,
    /// Being played.
    Playing,
    /// Over: final scores are known.
    Over,
}

/// A game and its seats.
pub struct Table {
    /// The game's id.
    pub id: GameId,
    /// Its name.
    pub name: String,
    /// The user who may start it and add bots.
    pub creator: UserId,
    /// Its board.
    pub board: Arc<TableBoard>,
    /// When it was created.
    pub created: i64,
    /// The seats in turn order.
    pub seats: Vec<Seat>,
    /// The seed of its shuffles, once started (secret: it gives the deck).
    seed: Option<u64>,
    /// The rules engine's game, once started.
    game: Option<Game<'static>>,
    /// Every accepted move: the seat and the move.
    pub moves: Vec<(usize, Action)>,
    /// What happened, in words everyone may read.
    pub history: Vec<String>,
    /// The chat.
    pub chat: Vec<ChatRecord>,
    /// The bots' strategies, per seat (`None` for people, and for a bot whose
    /// strategy is out deciding a move).
    bots: Vec<Option<Box<dyn Strategy>>>,
    /// The bots' own randomness (the strategies offered use none).
    bot_rng: ChaCha8Rng,
    /// A bot's move is scheduled.
    pub bot_pending: bool,
    /// Whether its players may ask the coach while it is played (set by
    /// its creator; the review after the end is always open to them).
    pub coach: bool,
    /// The review once the game is over: computed on the first request.
    pub review: ReviewSlot,
    /// The replay once the game is over ([`super::replay`]): built on the
    /// first request, then the answer everyone gets.
    pub replay: std::sync::OnceLock<Arc<serde_json::Value>>,
    /// The rematch its players were offered, once one asked (stored: a
    /// restart, or the game shelved and read back, keeps it).
    pub rematch: Option<GameId>,
    /// Its turn limit, the current turn's deadline, and who is away.
    pub clock: Clock,
    /// When a command last named it, and the journal's number of the
    /// batch that command wrote: a game over is shelved once unused
    /// ([`super::shelf`]), and only once that batch is on disk.
    pub last_use: LastUse,
}

/// When a table was last used ([`Table::last_use`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct LastUse {
    /// When, ms since 1970.
    pub at_ms: i64,
    /// The journal's number of the batch written then
    /// ([`super::journal::Journal::next_number`]).
    pub batch: u64,
}

/// A finished game's review, computed once, outside the lock.
#[derive(Default)]
pub enum ReviewSlot {
    /// Not asked for yet.
    #[default]
    None,
    /// Being computed; these connections wait for it (with their ids).
    Running(Vec<(u64, Option<serde_json::Value>)>),
    /// Done: the answer every player gets.
    Done(Arc<serde_json::Value>),
}

impl Table {
    /// A new open game with its creator in the first seat.
    pub fn new(
        id: GameId,
        name: String,
        creator: UserId,
        creator_name: String,
        color: &'static str,
        board: Arc<TableBoard>,
        created: i64,
    ) -> Table {
        Table {
            id,
            name,
            creator,
            board,
            created,
            seats: vec![Seat {
                who: Who::User(creator),
                color,
                name: creator_name,
            }],
            seed: None,
            game: None,
            moves: Vec::new(),
            history: Vec::new(),
            chat: Vec::new(),
            bots: Vec::new(),
            bot_rng: ChaCha8Rng::seed_from_u64(0),
            bot_pending: false,
            coach: false,
            review: ReviewSlot::None,
            replay: std::sync::OnceLock::new(),
            rematch: None,
            clock: Clock::new(Pace::Untimed, 0),
            last_use: LastUse::default(),
        }
    }

    /// Where the game is.
    pub fn phase(&self) -> Phase {
        match &self.game {
            None => Phase::Open,
            Some(g) if g.is_over() => Phase::Over,
            Some(_) => Phase::Playing,
        }
    }

    /// The rules engine's game, once started.
    pub fn game(&self) -> Option<&Game<'static>> {
        self.game.as_ref()
    }

    /// The seed, for a saved file (never for a player).
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The seat of `user`, if seated.
    pub fn seat_of(&self, user: UserId) -> Option<usize> {
        self.seats.iter().position(|s| s.who == Who::User(user))
    }

    /// The users seated.
    pub fn users(&self) -> impl Iterator<Item = UserId> + '_ {
        self.seats.iter().filter_map(|s| match s.who {
            Who::User(u) => Some(u),
            Who::Bot(_) => None,
        })
    }

    /// The colours not taken.
    pub fn free_colors(&self) -> Vec<&'static str> {
        COLORS
            .iter()
            .copied()
            .filter(|c| self.seats.iter().all(|s| s.color != *c))
            .collect()
    }

    /// The seats as stored.
    pub fn seat_records(&self) -> Vec<SeatRecord> {
        self.seats
            .iter()
            .map(|s| match s.who {
                Who::User(u) => SeatRecord {
                    user: Some(u),
                    bot: None,
                    color: s.color.to_string(),
                },
                Who::Bot(d) => SeatRecord {
                    user: None,
                    bot: Some(d.name().to_string()),
                    color: s.color.to_string(),
                },
            })
            .collect()
    }

    /// A bot's name for the next bot seat.
    pub fn bot_name(&self, d: Difficulty) -> String {
        let n = self
            .seats
            .iter()
            .filter(|s| matches!(s.who, Who::Bot(_)))
            .count();
        crate::engine::saved::bot_name(n + 1, d.name())
    }

    /// Starts the game with `seed`: deals the cards and every player's
    /// first tickets.
    pub fn start(&mut self, seed: u64) -> Result<(), RuleError> {
        let game = Game::new(self.board.board.clone(), self.seats.len(), seed)?;
        // A person's seat has a strategy too: the stand-in that plays it
        // when their time is up (the easy bot's, the quickest to decide).
        self.bots = self
            .seats
            .iter()
            .map(|s| match s.who {
                Who::Bot(d) => by_name(d.strategy()),
                Who::User(_) => by_name(STAND_IN.strategy()),
            })
            .collect();
        self.clock = Clock::new(self.clock.pace, self.seats.len());
        self.bot_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
        self.seed = Some(seed);
        self.game = Some(game);
        self.history.push(format!(
            "The game started: {} players; everyone chooses their first tickets",
            self.seats.len()
        ));
        Ok(())
    }

    /// Makes `action` for `seat`: checked by the rules engine, recorded if
    /// legal, and nothing changed if not. What the move did comes from the
    /// engine's [`Event`].
    pub fn act(&mut self, seat: usize, action: &Action) -> Result<Event, RuleError> {
        let Some(game) = self.game.as_mut() else {
            return Err(RuleError::new(
                Illegal::NotYourTurn,
                "the game has not started",
            ));
        };
        let event = game.apply(seat, action)?;
        let game = &*game;
        let name = &self.seats[seat].name;
        let line = move_line(&self.board.board, name, &event);
        self.history.push(line);
        // Only a claim can begin the last round on a board of more than 2
        // cars; the history has always told it after a claim alone.
        if event.last_round_began() && matches!(event.happened, Happened::Claimed(_)) {
            self.history.push(format!(
                "{name} has {} left: every player has one last turn",
                counted(game.players[seat].cars, "car")
            ));
        }
        if event.ended() == Some(Ending::Stalled) {
            self.history
                .push("Nobody can move any more: the game ends here".to_string());
        }
        if event.ended().is_some() {
            let results = game.results();
            let line = results
                .iter()
                .zip(&self.seats)
                .map(|(r, s)| format!("{} {}", s.name, r.score))
                .collect::<Vec<_>>()
                .join(", ");
            self.history.push(format!("The game is over: {line}"));
        } else if let Some(next) = event.turn_begins() {
            let next = &self.seats[next].name;
            self.history.push(format!("{next}'s turn"));
        }
        self.moves.push((seat, action.clone()));
        Ok(event)
    }

    /// The seat a bot must move for now, if any: a bot still to choose its
    /// first tickets, or the bot to move.
    pub fn bot_to_move(&self) -> Option<usize> {
        let game = self.game.as_ref()?;
        if game.is_over() {
            return None;
        }
        // A person's seat is played by the stand-in once their time is up.
        let is_bot =
            |s: usize| matches!(self.seats[s].who, Who::Bot(_)) || self.clock.is_overdue(s);
        if game.in_setup() {
            return (0..self.seats.len()).find(|&s| is_bot(s) && game.offer(s).is_some());
        }
        Some(game.current()).filter(|&s| is_bot(s))
    }

    /// The seats of people who must act now: everyone still choosing first
    /// tickets in setup, else the person to move (none when a bot is, or
    /// the game is not being played).
    pub fn people_to_act(&self) -> Vec<usize> {
        let Some(game) = self.game.as_ref().filter(|g| !g.is_over()) else {
            return Vec::new();
        };
        let person = |s: &usize| matches!(self.seats[*s].who, Who::User(_));
        if game.in_setup() {
            (0..self.seats.len())
                .filter(|&s| game.offer(s).is_some())
                .filter(person)
                .collect()
        } else {
            Some(game.current()).filter(person).into_iter().collect()
        }
    }

    /// Takes out the strategy of the bot in `seat` with what it needs to
    /// decide away from the table: a copy of the game and the randomness.
    pub fn lend_bot(
        &mut self,
        seat: usize,
    ) -> Option<(Box<dyn Strategy>, Game<'static>, ChaCha8Rng)> {
        let game = self.game.clone()?;
        let strategy = self.bots.get_mut(seat)?.take()?;
        Some((strategy, game, self.bot_rng.clone()))
    }

    /// Gives the strategy back, with the randomness it used.
    pub fn return_bot(&mut self, seat: usize, strategy: Box<dyn Strategy>, rng: ChaCha8Rng) {
        if let Some(slot) = self.bots.get_mut(seat) {
            *slot = Some(strategy);
        }
        self.bot_rng = rng;
    }

    /// A stored game, rebuilt: its seats, then its moves replayed through the
    /// rules engine. `names` gives each user's name.
    pub fn restore(
        record: &GameRecord,
        board: Arc<TableBoard>,
        names: &dyn Fn(UserId) -> String,
    ) -> Result<Table, String> {
        let mut table = Table::new(
            record.id,
            record.name.clone(),
            record.creator,
            String::new(),
            COLORS[0],
            board,
            record.created,
        );
        table.coach = record.coach;
        table.clock.pace = Pace::from_columns(record.turn_limit, record.turn_based);
        table.seats.clear();
        for s in &record.seats {
            let color = COLORS
                .iter()
                .copied()
                .find(|c| *c == s.color)
                .ok_or_else(|| format!("seat colour {:?} unknown", s.color))?;
            let seat = match (s.user, &s.bot) {
                (Some(u), _) => Seat {
                    who: Who::User(u),
                    color,
                    name: names(u),
                },
                (None, Some(b)) => {
                    let d =
                        Difficulty::parse(b).ok_or_else(|| format!("bot level {b:?} unknown"))?;
                    let name = table.bot_name(d);
                    Seat {
                        who: Who::Bot(d),
                        color,
                        name,
                    }
                }
                (None, None) => return Err("a seat has neither a user nor a bot".into()),
            };
            table.seats.push(seat);
        }
        table.chat = record.chat.clone();
        table.rematch = record.rematch;
        if let Some(seed) = record.seed {
            table.start(seed).map_err(|e| e.to_string())?;
            let mut notes = record.notes.iter().peekable();
            for (i, m) in record.moves.iter().enumerate() {
                while let Some(n) = notes.next_if(|n| n.after_moves <= i) {
                    table.history.push(n.line.clone());
                }
                let action = Action::from(&Move::from_json(&m.action)?);
                table
                    .act(m.seat, &action)
                    .map_err(|e| format!("move {i} ({}): {e}", m.action))?;
            }
            table.history.extend(notes.map(|n| n.line.clone()));
            table.clock.set_away_bits(record.away);
            table.resume_clock(record.turn_start, super::timer::now_ms());
        }
        Ok(table)
    }

    /// The clock after a restart ([`Clock::resume`]).
    fn resume_clock(&mut self, stored: Option<i64>, now: i64) {
        let people = self.people_to_act();
        self.clock.resume(now, stored, &people);
    }

    /// A line of the history that is not a move (a player timed out,
    /// left, came back): added, and its write to store.
    pub fn note(&mut self, line: String) -> Write {
        let note = NoteRecord {
            seq: self.history.len(),
            after_moves: self.moves.len(),
            line: line.clone(),
        };
        self.history.push(line);
        Write::Note {
            game: self.id,
            note,
        }
    }

    /// The last move as stored.
    pub fn last_move_record(&self) -> Option<MoveRecord> {
        self.moves.last().map(|(seat, a)| MoveRecord {
            seat: *seat,
            action: Move::from(a).to_json(),
        })
    }
}

/// A move's line of history, in words every player may read: the card a
/// draw took from the deck and the tickets kept are not named (the
/// replay, [`super::replay`], tells each move by this same line).
pub fn move_line(board: &Board, name: &str, event: &Event) -> String {
    match &event.happened {
        Happened::Drew(draw) => match draw.from {
            Source::FaceUp { .. } => {
                format!("{name} took a face-up {}", card_name(Some(draw.card)))
            }
            Source::Deck => format!("{name} drew a card from the deck"),
        },
        Happened::TicketsOffered(_) => format!("{name} drew destination tickets"),
        Happened::TicketsKept { kept, .. } => {
            format!(
                "{name} kept {}",
                counted(kept.len() as u32, "destination ticket")
            )
        }
        Happened::Claimed(c) => {
            let r = board.route(c.route);
            let mut paid = Vec::new();
            if let Some((colour, n)) = c.paid.cards {
                paid.push(format!("{n} {colour}"));
            }
            if c.paid.locomotives > 0 {
                paid.push(format!("{} wild", c.paid.locomotives));
            }
            // A tunnel's turned cards are public: every player reads them here.
            let tunnel = if c.turned.is_empty() {
                String::new()
            } else {
                format!("; the tunnel turned {}", turned(&c.turned))
            };
            format!(
                "{name} claimed {} ({} track, {}, {}) with {}{tunnel}",
                board.route_label(c.route),
                r.tracks[c.track],
                counted(r.length, "car"),
                counted(r.points, "point"),
                paid.join(" + ")
            )
        }
        Happened::TunnelDrawn(t) => format!(
            "{name} tried the tunnel {}: the cards turned ({}) ask for {} more",
            board.route_label(t.route),
            turned(&t.turned),
            counted(t.required, "card")
        ),
        Happened::TunnelGivenUp(t) => format!(
            "{name} gave up the tunnel {} (the cards turned, {}, asked for {} more)",
            board.route_label(t.route),
            turned(&t.turned),
            counted(t.required, "card")
        ),
        Happened::StationBuilt { city, .. } => {
            format!("{name} built a station in {}", board.city(*city).name)
        }
        Happened::Passed => format!("{name} passed: no move was possible"),
    }
}

/// "1 car", "2 cars".
fn counted(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A tunnel's turned cards in words: "green, red, wild" ("none" when the
/// deck and the discard pile had none left to turn).
fn turned(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".to_string();
    }
    let names: Vec<String> = cards.iter().map(|&c| card_name(Some(c))).collect();
    names.join(", ")
}

/// A card's name in the protocol: its colour, or `wild`.
pub fn card_name(card: Option<Card>) -> String {
    match card {
        Some(Card::Train(c)) => c.to_string(),
        Some(Card::Locomotive) => "wild".to_string(),
        None => "nothing".to_string(),
    }
}

/// The card at `index` of a hand ([`Card::index`]).
pub fn card_of_index(index: usize) -> Card {
    crate::engine::cards::COLOURS
        .get(index)
        .map_or(Card::Locomotive, |&c| Card::Train(c))
}

/// A card colour as a client names it (`wild` is not a colour here).
pub fn parse_colour(name: &str) -> Option<Colour> {
    crate::engine::cards::COLOURS
        .iter()
        .copied()
        .find(|c| c.to_string() == name.trim().to_lowercase())
}

/// The board's own rules, in short (the lobby's entry): how many tunnels
/// and ferries, the stations, the longest-path bonus and the deal.
pub fn rules_summary(board: &Board) -> serde_json::Value {
    let r = &board.rules;
    serde_json::json!({
        "tunnels": board.routes.iter().filter(|x| x.tunnel).map(|x| x.tracks.len()).sum::<usize>(),
        "ferries": board.routes.iter().filter(|x| x.ferry > 0).map(|x| x.tracks.len()).sum::<usize>(),
        "stations": r.stations.as_ref().map(|s| serde_json::json!({ "count": s.count(), "costs": s.costs, "points": s.points })),
        "longestPathBonus": r.longest_path_bonus,
        "deal": { "tickets": r.deal.tickets, "long": r.deal.long, "keep": r.deal.keep },
    })
}
