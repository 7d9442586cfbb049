//! What each player may see, built from scratch for each message: the only
//! code that reads a game's secrets (hands, tickets, the deck) to send
//! anything, and it sends a seat only its own. Another player's hand is a
//! count, their tickets a count until the end, the deck a count; the seed
//! is never sent.
//!
//! A move's messages ([`move_message`], [`ticket_completed`],
//! [`turn_started`]) are built here from the rules engine's
//! [`Event`], whose secrets (the card drawn from the deck, the tickets
//! offered) go to the player who moved alone.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::board::{Board, CityId, TicketId};
use crate::engine::event::{Event, Happened, Next, Paid, Source};
use crate::engine::rules::{Expect, Game, Payment};

use super::delta::{json as json_of, object, view_part};
use super::protocol::description as d;
use super::store::GameId;
use super::table::{card_name, card_of_index, Phase, Table, Who};

/// The lines of history a model carries: the latest (a whole game's would
/// make every message of its end long).
pub const HISTORY: usize = 60;

/// The chat lines a model carries: the latest. The model is pushed to
/// every player after every change, so a whole chat made it grow without
/// end (760 KB after 1,400 lines, to each player at each move); the
/// players get every line as it is sent anyway (`sendChat`).
pub const CHAT_PAGE: usize = 50;

/// The most lines `getHistory` or `getChat` answers at once.
pub const LINES_PAGE: usize = 100;

/// A chat line as the protocol names it.
fn chat_line(c: &super::store::ChatRecord) -> Value {
    json!({ "sender": c.sender, "message": c.message, "at": c.at })
}

/// `getHistory`: the history's lines from `from` on (at most
/// [`LINES_PAGE`]), with the whole length, so that a page can show the
/// start of a long game and number each line by its place.
pub fn history_page(table: &Table, from: usize) -> Value {
    let end = table.history.len().min(from.saturating_add(LINES_PAGE));
    let lines = table.history.get(from..end).unwrap_or(&[]);
    json!({ "description": d::SUCCESS, "gameId": table.id, "from": from, "history": lines, "historyLength": table.history.len() })
}

/// `getChat`: the chat's lines from `from` on (at most [`LINES_PAGE`]).
pub fn chat_page(table: &Table, from: usize) -> Value {
    let end = table.chat.len().min(from.saturating_add(LINES_PAGE));
    let lines: Vec<Value> = table
        .chat
        .get(from..end)
        .unwrap_or(&[])
        .iter()
        .map(chat_line)
        .collect();
    json!({ "description": d::SUCCESS, "gameId": table.id, "from": from, "chat": lines, "chatLength": table.chat.len() })
}

/// A ticket as the protocol names it: `start`, `end`, `points`, the city
/// indexes and the label (every trip of a ticket with several).
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Destination {
    start: String,
    end: String,
    points: u32,
    city_index1: usize,
    city_index2: usize,
    label: String,
}

impl Destination {
    /// Ticket `t` of `board`.
    pub fn new(board: &Board, t: TicketId) -> Destination {
        let x = board.ticket(t);
        let card = &board.cards[x.card];
        Destination {
            start: board.city(x.a).name.clone(),
            end: board.city(x.b).name.clone(),
            points: x.points,
            city_index1: x.a.0,
            city_index2: x.b.0,
            label: if card.trips.len() > 1 {
                card.name.clone()
            } else {
                board.ticket_label(t)
            },
        }
    }
}

/// [`Destination`] as JSON.
pub fn destination(board: &Board, t: TicketId) -> Value {
    json_of(&Destination::new(board, t))
}

/// A ticket its player holds: the [`Destination`], its cities again as
/// `from` and `to`, and whether it is completed.
#[derive(Serialize, Clone, PartialEq)]
struct Held {
    #[serde(flatten)]
    ticket: Destination,
    from: String,
    to: String,
    completed: bool,
}

/// Cards of one colour in a hand.
#[derive(Serialize, Clone, PartialEq)]
struct Cards {
    color: String,
    amount: u32,
}

/// A hand as `[{color, amount}]`, colours with none left out.
fn hand(h: &[u32; 9]) -> Vec<Cards> {
    (0..9)
        .filter(|&k| h[k] > 0)
        .map(|k| Cards {
            color: card_name(Some(card_of_index(k))),
            amount: h[k],
        })
        .collect()
}

/// A payment's cards as `{color, amount, numberOfWilds}` (`color` is
/// `wild` when only wilds were paid).
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct PaidCards {
    color: String,
    amount: u32,
    number_of_wilds: u32,
}

fn paid(p: &Paid) -> PaidCards {
    let (color, amount) = match p.cards {
        Some((c, n)) => (c.to_string(), n),
        None => ("wild".to_string(), 0),
    };
    PaidCards {
        color,
        amount,
        number_of_wilds: p.locomotives,
    }
}

/// A way to pay as `{color, minWilds, maxWilds}` (wilds alone: `wild`).
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Way {
    color: String,
    min_wilds: u32,
    max_wilds: u32,
}

fn payments(list: &[Payment]) -> Vec<Way> {
    list.iter()
        .map(|p| Way {
            color: p.colour.map_or("wild".to_string(), |c| c.to_string()),
            min_wilds: p.min_locomotives,
            max_wilds: p.max_locomotives,
        })
        .collect()
}

/// The board's rules for the game's model: [`rules_summary`](super::table::rules_summary) with the
/// tracks (by `routeIndex`) that are tunnels, and the ferries' locomotives.
fn rules(table: &Table) -> Value {
    let board = &table.board.board;
    let mut out = super::table::rules_summary(board);
    let tracks = table.board.tracks.iter().enumerate();
    out["tunnelTracks"] = tracks
        .clone()
        .filter(|(_, &(r, _))| board.route(r).tunnel)
        .map(|(i, _)| i)
        .collect();
    out["ferryTracks"] = tracks
        .filter(|(_, &(r, _))| board.route(r).ferry > 0)
        .map(|(i, &(r, _))| json!({ "routeIndex": i, "wilds": board.route(r).ferry }))
        .collect();
    out
}

/// The tunnel being claimed, as everyone sees it (its track, the cards
/// paid first, the cards turned, the extra cards asked for), with the
/// legal extra payments ([`Game::tunnel_options`]) for the player who
/// claims it alone.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Tunnel {
    player_id: usize,
    route_index: usize,
    paid: PaidCards,
    drawn_cards: Vec<String>,
    additional_cards: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<Vec<PaidCards>>,
}

fn tunnel(table: &Table, game: &Game, seat: Option<usize>) -> Option<Tunnel> {
    let Expect::Tunnel(t) = game.expect() else {
        return None;
    };
    if game.is_over() {
        return None;
    }
    let mine = seat == Some(game.current());
    Some(Tunnel {
        player_id: game.current(),
        route_index: table.board.index_of(t.route, t.track),
        paid: paid(&t.paid),
        drawn_cards: t.turned.iter().map(|&c| card_name(Some(c))).collect(),
        additional_cards: t.required,
        options: mine.then(|| game.tunnel_options().iter().map(paid).collect()),
    })
}

/// The phase of the turn, for clients.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Turn {
    /// None at the start, when everyone chooses at once.
    player_id: Option<usize>,
    phase: &'static str,
    last_round: bool,
}

fn turn(game: &Game) -> Option<Turn> {
    if game.is_over() {
        return None;
    }
    let phase = if game.in_setup() {
        "setup"
    } else {
        match game.expect() {
            Expect::Turn => "turn",
            Expect::SecondCard => "secondCard",
            Expect::Tickets { .. } => "destinations",
            Expect::Tunnel(_) => "tunnel",
        }
    };
    Some(Turn {
        player_id: (!game.in_setup()).then(|| game.current()),
        phase,
        last_round: game.in_last_round(),
    })
}

/// A track `seat` may claim now, every way to pay it, whether it is a
/// tunnel and a ferry's wilds.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Claimable {
    route_index: usize,
    payments: Vec<Way>,
    tunnel: bool,
    ferry_wilds: u32,
}

/// Every track `seat` may claim now and every way to pay (the engine's
/// [`Game::payments`], a ferry's wilds counted in): per card colour, the
/// fewest and the most wilds; paying with wilds alone is the colour
/// `wild`.
fn claimable(table: &Table, game: &Game, seat: usize) -> Vec<Claimable> {
    if game.is_over() || game.in_setup() || game.current() != seat || *game.expect() != Expect::Turn
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, &(route, track)) in table.board.tracks.iter().enumerate() {
        let list = game.payments(seat, route, track);
        if !list.is_empty() {
            let r = table.board.board.route(route);
            out.push(Claimable {
                route_index: index,
                payments: payments(&list),
                tunnel: r.tunnel,
                ferry_wilds: r.ferry,
            });
        }
    }
    out
}

/// A player as every viewer sees them.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Player {
    player_id: usize,
    username: String,
    order: usize,
    color: &'static str,
    bot: Option<&'static str>,
    trains_left: u32,
    points: u32,
    card_count: u32,
    destination_count: usize,
    stations: Vec<String>,
    stations_left: usize,
    next_station_cost: Option<u32>,
    away: bool,
}

view_part! {
    /// What every viewer of the game sees alike: built once for each push.
    pub(super) struct Public {
        game_id: GameId => "gameId",
        game_name: String => "gameName",
        board: String => "board",
        board_name: String => "boardName",
        state: &'static str => "state",
        coach: bool => "coach",
        turn_limit: Value => "turnLimit",
        turn_based: bool => "turnBased",
        deadline: Option<i64> => "deadline",
        creator: Option<String> => "creator",
        players: Vec<Player> => "players",
        turn: Option<Turn> => "turn",
        routes: Vec<Option<usize>> => "routes",
        face_up: Vec<String> => "faceUp",
        deck_count: usize => "deckCount",
        discard_count: usize => "discardCount",
        destination_deck_count: usize => "destinationDeckCount",
        can_draw_wild: bool => "canDrawWild",
        history_length: usize => "historyLength",
        chat_length: usize => "chatLength",
        results: Value => "results",
    }
}

/// Tickets offered to a player and the fewest they must keep.
#[derive(Serialize, Clone, PartialEq)]
struct Offer {
    destinations: Vec<Destination>,
    min: usize,
}

view_part! {
    /// What one seat alone sees (the spectators: nothing of their own):
    /// its tickets, its offer, what it may do now and the tunnel's
    /// payments if it claims one. Its hand is apart ([`Own::hand`]): the
    /// model shows it as its player's `cards`.
    pub(super) struct Own {
        you: Option<usize> => "you",
        cities: Vec<Held> => "cities",
        offer: Option<Offer> => "offer",
        can_pass: bool => "canPass",
        claimable: Vec<Claimable> => "claimable",
        tunnel: Option<Tunnel> => "tunnel",
        station_payments: Vec<Way> => "stationPayments",
    }
}

/// The cards of a seat's hand, as its player's `cards` in the model.
#[derive(Serialize, Clone, PartialEq)]
pub(super) struct Hand(Vec<Cards>);

/// The creator's name while they are seated.
fn creator(table: &Table) -> Option<String> {
    let seat = table
        .seats
        .iter()
        .find(|s| s.who == Who::User(table.creator));
    seat.map(|s| s.name.clone())
}

/// Where the game is, as the protocol names it.
fn state(table: &Table) -> &'static str {
    match table.phase() {
        Phase::Open => "open",
        Phase::Playing => "playing",
        Phase::Over => "over",
    }
}

/// What every viewer of the game sees alike.
pub(super) fn public_parts(table: &Table) -> Public {
    let board = &table.board.board;
    let game = table.game();
    let state = state(table);
    let stations = board.rules.stations.as_ref();
    let players = table
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| Player {
            player_id: i,
            username: s.name.clone(),
            order: i,
            color: s.color,
            bot: match s.who {
                Who::Bot(d) => Some(d.name()),
                Who::User(_) => None,
            },
            trains_left: game.map_or(board.cars, |g| g.players[i].cars),
            points: game.map_or(0, |g| g.players[i].route_points),
            card_count: game.map_or(0, |g| g.players[i].cards()),
            destination_count: game.map_or(0, |g| g.players[i].tickets.len()),
            stations: game.map_or(Vec::new(), |g| {
                let built = g.players[i].stations.iter();
                built.map(|&c| board.city(c).name.clone()).collect()
            }),
            stations_left: game.map_or(stations.map_or(0, |r| r.count()), |g| g.stations_left(i)),
            next_station_cost: stations.and_then(|r| {
                let built = game.map_or(0, |g| g.players[i].stations.len());
                r.costs.get(built).copied()
            }),
            away: table.clock.is_away(i),
        })
        .collect();
    let (turn_limit, turn_based) = table.clock.pace.fields();
    Public {
        game_id: table.id,
        game_name: table.name.clone(),
        board: table.board.key.clone(),
        board_name: board.name.clone(),
        state,
        coach: table.coach,
        turn_limit,
        turn_based,
        deadline: table.clock.deadline,
        creator: creator(table),
        players,
        turn: game.and_then(turn),
        routes: table
            .board
            .tracks
            .iter()
            .map(|&(r, t)| game.and_then(|g| g.owner(r, t)))
            .collect(),
        face_up: game.map_or(Vec::new(), |g| {
            g.face_up().iter().map(|&c| card_name(Some(c))).collect()
        }),
        deck_count: game.map_or(0, |g| g.deck_len()),
        discard_count: game.map_or(0, |g| g.discard_len()),
        destination_deck_count: game.map_or(0, |g| g.tickets_left()),
        can_draw_wild: game.is_some_and(|g| !g.drawing_second()),
        history_length: table.history.len(),
        chat_length: table.chat.len(),
        results: game
            .filter(|g| g.is_over())
            .map_or(Value::Null, |_| results(table)),
    }
}

/// What `seat` alone sees (`None`: the spectators), and its hand once
/// dealt.
pub(super) fn private_parts(table: &Table, seat: Option<usize>) -> (Own, Option<Hand>) {
    let board = &table.board.board;
    let game = table.game();
    let mut own = Own {
        you: seat,
        cities: Vec::new(),
        offer: None,
        can_pass: false,
        claimable: Vec::new(),
        tunnel: game.and_then(|g| tunnel(table, g, seat)),
        station_payments: Vec::new(),
    };
    let (Some(g), Some(s)) = (game, seat) else {
        return (own, None);
    };
    let done = g.completed_tickets(s);
    own.cities = g.players[s]
        .tickets
        .iter()
        .map(|&t| {
            let ticket = Destination::new(board, t);
            Held {
                from: ticket.start.clone(),
                to: ticket.end.clone(),
                completed: done.contains(&t),
                ticket,
            }
        })
        .collect();
    own.offer = g.offer(s).map(|(offered, min)| Offer {
        destinations: offered
            .iter()
            .map(|&t| Destination::new(board, t))
            .collect(),
        min: min.min(offered.len()),
    });
    own.claimable = claimable(table, g, s);
    let moving = !g.is_over() && !g.in_setup() && g.current() == s;
    if moving && *g.expect() == Expect::Turn {
        // None when every city has a station.
        let free = (0..board.cities.len()).any(|c| g.station_owner(CityId(c)).is_none());
        if free {
            own.station_payments = payments(&g.station_payments(s));
        }
    }
    // Passing is legal only when nothing else is: while the deck or the
    // discard holds a card, drawing is (and listing every legal move to
    // find out was the costliest part of a push).
    own.can_pass = moving
        && g.deck_len() == 0
        && g.discard_len() == 0
        && g.legal() == [crate::engine::rules::Action::Pass];
    (own, Some(Hand(hand(&g.players[s].hand))))
}

/// The parts of `seat`'s model (`None`: the spectators') that a push
/// compares with the last sent, as JSON: all but the rules (fixed when
/// the game is made), the history's lines (a push adds the new ones) and
/// the chat's (each line reaches the players as it is sent). A seat's
/// hand is its player's `cards`; the spectators' view says `spectator`.
pub(super) fn parts_json(
    public: &Public,
    own: &Own,
    hand: Option<&Hand>,
    seat: Option<usize>,
) -> Map<String, Value> {
    let mut out = object(public);
    if let (Some(hand), Some(s)) = (hand, seat) {
        if let Some(p) = out.get_mut("players").and_then(|p| p.get_mut(s)) {
            p["cards"] = json_of(hand);
        }
    }
    out.extend(object(own));
    if seat.is_none() {
        out.insert("spectator".into(), true.into());
    }
    out
}

/// The game as `seat` may see it (`None`: a spectator, who sees only what
/// is public): 003's `sendClientModelInformation` output, with the
/// version of that view a later push applies to
/// ([`super::changes::model`] knows it).
pub fn model_at(table: &Table, seat: Option<usize>, version: u64) -> Value {
    let (own, hand) = private_parts(table, seat);
    let mut out = parts_json(&public_parts(table), &own, hand.as_ref(), seat);
    out.insert("description".into(), "success".into());
    out.insert("rules".into(), rules(table));
    out.insert(
        "history".into(),
        table.history[table.history.len().saturating_sub(HISTORY)..].into(),
    );
    out.insert(
        "chat".into(),
        table.chat[table.chat.len().saturating_sub(CHAT_PAGE)..]
            .iter()
            .map(chat_line)
            .collect(),
    );
    out.insert("version".into(), version.into());
    Value::Object(out)
}

/// 003's `gameEnded` output: every player's final score, its parts, and
/// now every hand of tickets.
pub fn results(table: &Table) -> Value {
    let Some(game) = table.game() else {
        return Value::Null;
    };
    let board = &table.board.board;
    let results = game.results();
    let players: Vec<Value> = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let trip = |&t: &TicketId| destination(board, t);
            let done = game.completed_tickets(i);
            json!({
                "playerIndex": i,
                "username": table.seats[i].name,
                "points": r.score,
                "routePoints": r.route_points,
                "destinationPoints": r.ticket_points,
                "longestPath": r.longest_path,
                "longestRouteRecipient": r.bonus > 0,
                "bonusPoints": r.bonus,
                "stationPoints": r.station_points,
                "stations": game.players[i].stations.iter().map(|&c| board.city(c).name.clone()).collect::<Vec<_>>(),
                "borrowed": r.borrowed.iter().map(|&route| borrowed(table, game, i, route)).collect::<Vec<_>>(),
                "completed": done.iter().map(trip).collect::<Vec<_>>(),
                "failed": game.players[i].tickets.iter().filter(|t| !done.contains(t)).map(trip).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "gameId": table.id, "players": players })
}

/// A route another player owns that `player`'s station borrows: its
/// track's `routeIndex`, its owner and its cities.
fn borrowed(table: &Table, game: &Game, player: usize, route: crate::board::RouteId) -> Value {
    let board = &table.board.board;
    let r = board.route(route);
    let track = (0..r.tracks.len()).find(|&k| game.owner(route, k).is_some_and(|o| o != player));
    json!({
        "routeIndex": track.map(|k| table.board.index_of(route, k)),
        "owner": track.and_then(|k| game.owner(route, k)),
        "start": board.city(r.a).name,
        "end": board.city(r.b).name,
    })
}

/// 003's `startGame` output for `seat`: its own cards and first tickets.
pub fn deal(table: &Table, seat: usize) -> Value {
    let board = &table.board.board;
    let Some(game) = table.game() else {
        return json!({ "description": "server error" });
    };
    let h = &game.players[seat].hand;
    let cards: Vec<String> = (0..9)
        .flat_map(|k| std::iter::repeat_n(card_name(Some(card_of_index(k))), h[k] as usize))
        .collect();
    let offered: Vec<Value> = game
        .offer(seat)
        .map(|(o, _)| o.iter().map(|&t| destination(board, t)).collect())
        .unwrap_or_default();
    json!({
        "description": "game has started",
        "gameId": table.id,
        "initialTrainCards": cards,
        "initialDestination": offered,
    })
}

/// How a lobby entry numbers its players: `playerId` in the list of
/// joinable games, `playerOrder` in a user's own list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Numbered {
    /// `playerId`.
    ById,
    /// `playerOrder`.
    ByOrder,
}

/// A player in a lobby entry.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct EntryPlayer {
    username: String,
    color: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_id: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_order: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<&'static str>,
}

/// A game in the lobby's lists.
#[derive(Serialize, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LobbyEntry {
    game_id: GameId,
    game_name: String,
    board: String,
    board_name: String,
    /// The board's rules in short, shared by every entry of the board.
    rules: Arc<Value>,
    creator: Option<String>,
    players: Vec<EntryPlayer>,
    colors: Vec<&'static str>,
    state: &'static str,
    coach: bool,
    turn_limit: Value,
    turn_based: bool,
    deadline: Option<i64>,
    your_turn: bool,
    turn_of: Option<String>,
}

impl LobbyEntry {
    /// `table` as the lobby lists it, to seat `you` if any (whose turn
    /// it may be).
    pub fn new(table: &Table, numbered: Numbered, you: Option<usize>) -> LobbyEntry {
        let players = table
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| EntryPlayer {
                username: s.name.clone(),
                color: s.color,
                player_id: (numbered == Numbered::ById).then_some(i),
                player_order: (numbered == Numbered::ByOrder).then_some(i),
                bot: match s.who {
                    Who::Bot(d) => Some(d.name()),
                    Who::User(_) => None,
                },
            })
            .collect();
        let state = state(table);
        let your_turn = match (table.game(), you) {
            (Some(g), Some(s)) => {
                !g.is_over() && (g.offer(s).is_some() || (!g.in_setup() && g.current() == s))
            }
            _ => false,
        };
        let (turn_limit, turn_based) = table.clock.pace.fields();
        LobbyEntry {
            game_id: table.id,
            game_name: table.name.clone(),
            board: table.board.key.clone(),
            board_name: table.board.board.name.clone(),
            rules: table.board.rules_summary.clone(),
            creator: creator(table),
            players,
            colors: table.free_colors(),
            state,
            coach: table.coach,
            turn_limit,
            turn_based,
            deadline: table.clock.deadline,
            your_turn,
            turn_of: table
                .game()
                .filter(|g| !g.is_over() && !g.in_setup())
                .map(|g| table.seats[g.current()].name.clone()),
        }
    }
}

/// [`LobbyEntry`] as JSON.
pub fn lobby_entry(table: &Table, numbered: Numbered, you: Option<usize>) -> Value {
    json_of(&LobbyEntry::new(table, numbered, you))
}

/// The viewer of [`move_message`] who has no seat (a spectator): sees what
/// every player but the mover sees.
pub const NO_SEAT: usize = usize::MAX;

/// A move's message to the player at `viewer`: its command and output.
/// Every player sees the move; the card a draw took from the deck and the
/// tickets offered only the player who moved (the others see that a card
/// was drawn, and how many tickets).
pub fn move_message(table: &Table, viewer: usize, event: &Event) -> (&'static str, Value) {
    let game = table.game().expect("a move was made");
    let board = &table.board.board;
    let (seat, id) = (event.player, table.id);
    let mine = viewer == seat;
    match &event.happened {
        Happened::Claimed(c) => {
            let totals: Vec<Value> = game
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| json!({ "playerId": i, "points": p.route_points }))
                .collect();
            // Paid in locomotives alone, the payment is named `wild`.
            let colour = match c.paid.cards {
                Some((colour, _)) => colour.to_string(),
                None => "wild".to_string(),
            };
            (
                "buyRoute",
                json!({
                    "description": d::SUCCESS, "gameId": id, "playerId": seat,
                    "routeIndexPurchased": table.board.index_of(c.route, c.track),
                    "trainColor": colour,
                    "numberOfWilds": c.paid.locomotives,
                    "drawnCards": c.turned.iter().map(|&x| card_name(Some(x))).collect::<Vec<_>>(),
                    "trainsLeft": game.players[seat].cars, "pointTotals": totals,
                }),
            )
        }
        Happened::Drew(draw) => {
            let (location, from_deck) = match draw.from {
                Source::FaceUp { slot, .. } => (slot, false),
                Source::Deck => (5, true),
            };
            let shown = if mine || !from_deck {
                Value::from(card_name(Some(draw.card)))
            } else {
                Value::Null
            };
            // Only a draw that leaves the player a second card says "draw
            // again": a second card that ended the game said so too, and a
            // client then waited for a draw no rule allows.
            let draw_again = matches!(event.next, Next::Again);
            let face_up: Vec<Value> = game
                .face_up()
                .iter()
                .enumerate()
                .map(|(i, &c)| json!({ "color": card_name(Some(c)), "index": i }))
                .collect();
            (
                "drawTrainCard",
                json!({
                    "description": d::SUCCESS, "gameId": id, "playerId": seat,
                    "cardDrawn": shown,
                    "cardLocation": location,
                    "drawAgain": draw_again,
                    "deckCount": game.deck_len(),
                    "availableTrainCards": face_up,
                    "canDrawWild": !game.drawing_second(),
                }),
            )
        }
        Happened::TicketsOffered(offered) => {
            let mut out = json!({ "description": d::SUCCESS, "gameId": id, "playerId": seat });
            if mine {
                out["destinationCards"] = offered.iter().map(|&x| destination(board, x)).collect();
            } else {
                out["count"] = offered.len().into();
            }
            ("getDestinations", out)
        }
        Happened::TicketsKept { kept, .. } => (
            "selectDestinations",
            json!({ "description": d::SUCCESS, "gameId": id, "playerId": seat, "kept": kept.len() }),
        ),
        Happened::TunnelDrawn(t) | Happened::TunnelGivenUp(t) => {
            let turned: Vec<Value> = t
                .turned
                .iter()
                .map(|&c| card_name(Some(c)).into())
                .collect();
            let given_up = matches!(event.happened, Happened::TunnelGivenUp(_));
            let mut out = json!({
                "description": d::SUCCESS, "gameId": id, "playerId": seat,
                "routeIndex": table.board.index_of(t.route, t.track),
                "paid": paid(&t.paid),
                "drawnCards": turned, "additionalCards": t.required,
            });
            // The legal extra payments are the mover's: they tell their hand.
            if mine && !given_up {
                let options: Vec<PaidCards> = game.tunnel_options().iter().map(paid).collect();
                out["options"] = json_of(&options);
            }
            (
                if given_up {
                    "tunnelGivenUp"
                } else {
                    "tunnelCards"
                },
                out,
            )
        }
        Happened::StationBuilt { city, paid: p } => (
            "buildStation",
            json!({
                "description": d::SUCCESS, "gameId": id, "playerId": seat,
                "city": board.city(*city).name,
                "cityIndex": city.0,
                "trainColor": paid(p).color,
                "numberOfWilds": p.locomotives,
                "stationsLeft": game.stations_left(seat),
            }),
        ),
        Happened::Passed => (
            "passTurn",
            json!({ "description": d::SUCCESS, "gameId": id, "playerId": seat }),
        ),
    }
}

/// `notifyDestinationRouteCompleted`: a ticket the move completed, for the
/// player who moved alone.
pub fn ticket_completed(table: &Table, event: &Event, ticket: TicketId) -> Value {
    let board = &table.board.board;
    let t = board.ticket(ticket);
    json!({
        "gameId": table.id, "playerId": event.player,
        "route": { "start": board.city(t.a).name, "end": board.city(t.b).name, "points": t.points },
    })
}

/// `turnStartedNotification`: whose turn it is, and whether the last round
/// is on.
pub fn turn_started(table: &Table) -> Value {
    let game = table.game().expect("a move was made");
    json!({ "gameId": table.id, "playerId": game.current(), "lastRound": game.in_last_round() })
}
