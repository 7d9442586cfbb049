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

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use crate::board::{Board, CityId, TicketId};
use crate::engine::event::{Event, Happened, Next, Paid, Source};
use crate::engine::rules::{Expect, Game, Payment};

use super::protocol::description as d;
use super::store::UserId;
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
pub fn destination(board: &Board, t: TicketId) -> Value {
    let x = board.ticket(t);
    let card = &board.cards[x.card];
    json!({
        "start": board.city(x.a).name,
        "end": board.city(x.b).name,
        "points": x.points,
        "cityIndex1": x.a.0,
        "cityIndex2": x.b.0,
        "label": if card.trips.len() > 1 { card.name.clone() } else { board.ticket_label(t) },
    })
}

/// A hand as `[{color, amount}]`, colours with none left out.
fn hand(h: &[u32; 9]) -> Value {
    (0..9)
        .filter(|&k| h[k] > 0)
        .map(|k| json!({ "color": card_name(Some(card_of_index(k))), "amount": h[k] }))
        .collect()
}

/// A payment's cards as `{color, amount, numberOfWilds}` (`color` is
/// `wild` when only wilds were paid).
fn paid(p: &Paid) -> Value {
    let (colour, amount) = match p.cards {
        Some((c, n)) => (c.to_string(), n),
        None => ("wild".to_string(), 0),
    };
    json!({ "color": colour, "amount": amount, "numberOfWilds": p.locomotives })
}

/// Ways to pay as `[{color, minWilds, maxWilds}]` (wilds alone: `wild`).
fn payments(list: &[Payment]) -> Value {
    list.iter()
        .map(|p| {
            let colour = p.colour.map_or("wild".to_string(), |c| c.to_string());
            json!({ "color": colour, "minWilds": p.min_locomotives, "maxWilds": p.max_locomotives })
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
fn tunnel(table: &Table, game: &Game, seat: Option<usize>) -> Value {
    let Expect::Tunnel(t) = game.expect() else {
        return Value::Null;
    };
    if game.is_over() {
        return Value::Null;
    }
    let mut out = json!({
        "playerId": game.current(),
        "routeIndex": table.board.index_of(t.route, t.track),
        "paid": paid(&t.paid),
        "drawnCards": t.turned.iter().map(|&c| card_name(Some(c))).collect::<Vec<_>>(),
        "additionalCards": t.required,
    });
    if seat == Some(game.current()) {
        out["options"] = game.tunnel_options().iter().map(paid).collect();
    }
    out
}

/// The phase of the turn, for clients.
fn turn(game: &Game) -> Value {
    if game.is_over() {
        return Value::Null;
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
    // At the start everyone chooses at once: no one is to move.
    let player = if game.in_setup() {
        Value::Null
    } else {
        game.current().into()
    };
    json!({ "playerId": player, "phase": phase, "lastRound": game.in_last_round() })
}

/// Every track `seat` may claim now and every way to pay (the engine's
/// [`Game::payments`], a ferry's wilds counted in): per card colour, the
/// fewest and the most wilds; paying with wilds alone is the colour
/// `wild`. Each says whether it is a tunnel and a ferry's wilds.
fn claimable(table: &Table, game: &Game, seat: usize) -> Value {
    if game.is_over() || game.in_setup() || game.current() != seat || *game.expect() != Expect::Turn
    {
        return json!([]);
    }
    let mut out = Vec::new();
    for (index, &(route, track)) in table.board.tracks.iter().enumerate() {
        let list = game.payments(seat, route, track);
        if !list.is_empty() {
            let r = table.board.board.route(route);
            out.push(json!({
                "routeIndex": index, "payments": payments(&list),
                "tunnel": r.tunnel, "ferryWilds": r.ferry,
            }));
        }
    }
    Value::Array(out)
}

/// The game as `seat` may see it (`None`: a spectator, who sees only what
/// is public): 003's `sendClientModelInformation` output, with the
/// version of that view the server last pushed (`version`: a later
/// [`Sent::push`] applies to it).
pub fn model(table: &Table, seat: Option<usize>, sent: Option<&Sent>) -> Value {
    let mut out = parts(table, seat);
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
    let version = sent.map_or_else(first_version, |s| s.version(seat));
    out.insert("version".into(), version.into());
    Value::Object(out)
}

/// The parts of `seat`'s model (`None`: the spectators') that a push
/// compares with the last sent: all but the rules (fixed when the game is
/// made), the history's lines (a push adds the new ones) and the chat's
/// (each line reaches the players as it is sent).
fn parts(table: &Table, seat: Option<usize>) -> Map<String, Value> {
    let mut out = public_parts(table);
    let mut own = private_parts(table, seat);
    if let (Some(hand), Some(s)) = (own.remove("hand"), seat) {
        if let Some(p) = out.get_mut("players").and_then(|p| p.get_mut(s)) {
            p["cards"] = hand;
        }
    }
    out.extend(own);
    out
}

/// What every viewer of the game sees alike: built once for each push.
fn public_parts(table: &Table) -> Map<String, Value> {
    let board = &table.board.board;
    let game = table.game();
    let phase = match table.phase() {
        Phase::Open => "open",
        Phase::Playing => "playing",
        Phase::Over => "over",
    };
    let players: Vec<Value> = table
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "playerId": i,
                "username": s.name,
                "order": i,
                "color": s.color,
                "bot": match s.who { Who::Bot(d) => Value::from(d.name()), Who::User(_) => Value::Null },
                "trainsLeft": game.map_or(board.cars, |g| g.players[i].cars),
                "points": game.map_or(0, |g| g.players[i].route_points),
                "cardCount": game.map_or(0, |g| g.players[i].cards()),
                "destinationCount": game.map_or(0, |g| g.players[i].tickets.len()),
                "stations": game.map_or(Vec::new(), |g| g.players[i].stations.iter().map(|&c| board.city(c).name.clone()).collect()),
                "stationsLeft": game.map_or(board.rules.stations.as_ref().map_or(0, |r| r.count()), |g| g.stations_left(i)),
                "nextStationCost": board.rules.stations.as_ref().and_then(|r| r.costs.get(game.map_or(0, |g| g.players[i].stations.len())).copied()),
                "away": table.clock.is_away(i),
            })
        })
        .collect();
    let out = json!({
        "gameId": table.id,
        "gameName": table.name,
        "board": table.board.key,
        "boardName": board.name,
        "state": phase,
        "coach": table.coach,
        "turnLimit": table.clock.pace.fields().0,
        "turnBased": table.clock.pace.fields().1,
        "deadline": table.clock.deadline,
        "creator": table.seats.iter().find(|s| s.who == Who::User(table.creator)).map(|s| s.name.clone()),
        "players": players,
        "turn": game.map_or(Value::Null, turn),
        "routes": table.board.tracks.iter().map(|&(r, t)| game.and_then(|g| g.owner(r, t))).collect::<Vec<_>>(),
        "faceUp": game.map_or(Vec::new(), |g| g.face_up().iter().map(|&c| card_name(Some(c))).collect::<Vec<_>>()),
        "deckCount": game.map_or(0, |g| g.deck_len()),
        "discardCount": game.map_or(0, |g| g.discard_len()),
        "destinationDeckCount": game.map_or(0, |g| g.tickets_left()),
        "canDrawWild": game.is_some_and(|g| !g.drawing_second()),
        "historyLength": table.history.len(),
        "chatLength": table.chat.len(),
        "results": game.filter(|g| g.is_over()).map_or(Value::Null, |_| results(table)),
    });
    match out {
        Value::Object(map) => map,
        _ => unreachable!("a model is an object"),
    }
}

/// What `seat` alone sees (`None`: the spectators, who see nothing of
/// their own): its tickets, its offer, what it may do now, the tunnel's
/// payments if it claims one, and its hand (`hand`, which the model
/// shows as its player's `cards`).
fn private_parts(table: &Table, seat: Option<usize>) -> Map<String, Value> {
    let board = &table.board.board;
    let game = table.game();
    let mut out = json!({
        "you": seat,
        "cities": [],
        "offer": Value::Null,
        "canPass": false,
        "claimable": [],
        "tunnel": game.map_or(Value::Null, |g| tunnel(table, g, seat)),
        "stationPayments": [],
    });
    if let (Some(g), Some(s)) = (game, seat) {
        out["hand"] = hand(&g.players[s].hand);
        let done = g.completed_tickets(s);
        out["cities"] = g.players[s]
            .tickets
            .iter()
            .map(|&t| {
                let mut d = destination(board, t);
                d["from"] = d["start"].clone();
                d["to"] = d["end"].clone();
                d["completed"] = done.contains(&t).into();
                d
            })
            .collect();
        out["offer"] = g.offer(s).map_or(Value::Null, |(offered, min)| {
            json!({
                "destinations": offered.iter().map(|&t| destination(board, t)).collect::<Vec<_>>(),
                "min": min.min(offered.len()),
            })
        });
        out["claimable"] = claimable(table, g, s);
        if !g.is_over() && !g.in_setup() && g.current() == s && *g.expect() == Expect::Turn {
            // None when every city has a station.
            let free = (0..board.cities.len()).any(|c| g.station_owner(CityId(c)).is_none());
            if free {
                out["stationPayments"] = payments(&g.station_payments(s));
            }
        }
        // Passing is legal only when nothing else is: while the deck or
        // the discard holds a card, drawing is (and listing every legal
        // move to find out was the costliest part of a push).
        out["canPass"] = (!g.is_over()
            && !g.in_setup()
            && g.current() == s
            && g.deck_len() == 0
            && g.discard_len() == 0
            && g.legal() == [crate::engine::rules::Action::Pass])
        .into();
    }
    if seat.is_none() {
        out["spectator"] = true.into();
    }
    match out {
        Value::Object(map) => map,
        _ => unreachable!("a model is an object"),
    }
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

/// A game in the lobby's lists; `order_key` is `playerId` (joinable
/// games) or `playerOrder` (the user's games).
pub fn lobby_entry(table: &Table, order_key: &str, you: Option<usize>) -> Value {
    let players: Vec<Value> = table
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut p = json!({ "username": s.name, "color": s.color });
            p[order_key] = i.into();
            if let Who::Bot(d) = s.who {
                p["bot"] = d.name().into();
            }
            p
        })
        .collect();
    let state = match table.phase() {
        Phase::Open => "open",
        Phase::Playing => "playing",
        Phase::Over => "over",
    };
    let your_turn = match (table.game(), you) {
        (Some(g), Some(s)) => {
            !g.is_over() && (g.offer(s).is_some() || (!g.in_setup() && g.current() == s))
        }
        _ => false,
    };
    json!({
        "gameId": table.id,
        "gameName": table.name,
        "board": table.board.key,
        "boardName": table.board.board.name,
        "rules": table.board.rules_summary.clone(),
        "creator": table.seats.iter().find(|s| s.who == Who::User(table.creator)).map(|s| s.name.clone()),
        "players": players,
        "colors": table.free_colors(),
        "state": state,
        "coach": table.coach,
        "turnLimit": table.clock.pace.fields().0,
        "turnBased": table.clock.pace.fields().1,
        "deadline": table.clock.deadline,
        "yourTurn": your_turn,
        "turnOf": table.game().filter(|g| !g.is_over() && !g.in_setup()).map(|g| table.seats[g.current()].name.clone()),
    })
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
                out["options"] = game.tunnel_options().iter().map(paid).collect();
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
                "trainColor": paid(p)["color"],
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

/// The first version of every view in this run of the server: its start
/// time in milliseconds, so that a version a page kept from before a
/// restart never matches one of this run (the page then asks for the
/// whole model again).
fn first_version() -> u64 {
    static FIRST: OnceLock<u64> = OnceLock::new();
    *FIRST.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_millis() as u64)
    })
}

/// A version no view has had in this run: versions are unique across
/// views and games, so that a page whose seat moved (a player left an
/// open game before it) never applies another view's changes.
fn next_version() -> u64 {
    static PUSHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    first_version() + PUSHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What one view of a game (a seat, or the spectators) was last pushed.
struct SentView {
    /// The version the next push's changes apply to.
    version: u64,
    /// Its own parts ([`private_parts`]) as pushed, the hand apart.
    own: Map<String, Value>,
    /// The hand as pushed (a seat's, once dealt).
    hand: Option<Value>,
    /// The history's length then.
    history: usize,
}

/// What a game's views were last pushed: a push sends each only what
/// changed since ([`Sent::push`]). Before, every change pushed each
/// player the whole model (the rules, 60 history lines, 50 chat lines: 10
/// to 20 KB on the shipped boards), built again for each; building and
/// writing those was most of the server's CPU under load.
#[derive(Default)]
pub struct Sent {
    /// The parts every view shares ([`public_parts`]), as last pushed.
    public: Option<Map<String, Value>>,
    views: HashMap<Option<usize>, SentView>,
    /// Each player's entry of the game in their list of games, as last
    /// pushed (`userGameChanged`).
    entries: HashMap<UserId, Value>,
}

impl Sent {
    /// The version of `seat`'s view (`None`: the spectators') that the
    /// next push's changes apply to.
    pub fn version(&self, seat: Option<usize>) -> u64 {
        self.views
            .get(&seat)
            .map_or_else(first_version, |v| v.version)
    }

    /// Whether `entry`, `user`'s entry of the game in their list of
    /// games, differs from the one last pushed to them (then it is kept as
    /// pushed). A move within a turn (a first card drawn) changes no
    /// entry: pushing it anyway was about 3 % of a move's CPU at 1,000
    /// games.
    pub fn entry_changed(&mut self, user: UserId, entry: &Value) -> bool {
        if self.entries.get(&user) == Some(entry) {
            return false;
        }
        self.entries.insert(user, entry.clone());
        true
    }

    /// `modelChanged` for each of `views` (a seat, or `None`: the
    /// spectators) whose model changed since the last push: what
    /// changed, applied by [`apply`] to the model of version `base`,
    /// gives the model of version `version`. Each key of `changed`
    /// replaces the model's; `patched` names, for a list that kept its
    /// length (the players, the tracks' owners), the items that changed
    /// by index (an object's changed keys, another value whole);
    /// `historyAdded` lines are appended to `history`, of which the model
    /// keeps the last [`HISTORY`]. A view pushed for the first time gets
    /// every part. The views not named are forgotten (a seat that left, or
    /// spectators no longer there): their next push sends every part.
    pub fn push(&mut self, table: &Table, views: &[Option<usize>]) -> Vec<(Option<usize>, Value)> {
        self.views.retain(|v, _| views.contains(v));
        let public = public_parts(table);
        let shared = self.public.as_ref().map(|old| diff(old, &public));
        let mut out = Vec::new();
        for &seat in views {
            let mut own = private_parts(table, seat);
            let hand = own.remove("hand");
            let view = self.views.get_mut(&seat);
            let (mut changed, mut patched, added, base) = match (view, &shared) {
                (Some(view), Some((changed, patched))) => {
                    let (c, p) = diff(&view.own, &own);
                    let (mut changed, mut patched) = (changed.clone(), patched.clone());
                    changed.extend(c);
                    patched.extend(p);
                    let added = table.history.get(view.history..).unwrap_or(&[]);
                    (changed, patched, added, view.version)
                }
                _ => {
                    let mut changed = public.clone();
                    changed.extend(own.clone());
                    let h = &table.history[table.history.len().saturating_sub(HISTORY)..];
                    changed.insert("history".into(), h.into());
                    (changed, Map::new(), &[][..], first_version())
                }
            };
            let old_hand = self.views.get(&seat).and_then(|v| v.hand.as_ref());
            if let (Some(h), Some(s)) = (&hand, seat) {
                if let Some(p) = changed.get_mut("players").and_then(|p| p.get_mut(s)) {
                    p["cards"] = h.clone();
                } else if old_hand != Some(h) {
                    let items = patched.entry("players").or_insert_with(|| json!({}));
                    let item = &mut items[s.to_string()];
                    if item.is_null() {
                        *item = json!({});
                    }
                    item["cards"] = h.clone();
                }
            }
            if changed.is_empty() && patched.is_empty() && added.is_empty() {
                continue;
            }
            let version = next_version();
            let mut change = json!({ "gameId": table.id, "base": base, "version": version });
            if !changed.is_empty() {
                change["changed"] = Value::Object(changed);
            }
            if !patched.is_empty() {
                change["patched"] = Value::Object(patched);
            }
            if !added.is_empty() {
                change["historyAdded"] = added.into();
            }
            self.views.insert(
                seat,
                SentView {
                    version,
                    own,
                    hand,
                    history: table.history.len(),
                },
            );
            out.push((seat, change));
        }
        self.public = Some(public);
        out
    }
}

/// The keys of `new` that differ from `old`'s: those replaced whole, and
/// the lists patched item by item ([`patch`]).
fn diff(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
) -> (Map<String, Value>, Map<String, Value>) {
    let (mut changed, mut patched) = (Map::new(), Map::new());
    for (key, value) in new {
        match old.get(key) {
            Some(o) if o == value => {}
            Some(o) => match patch(o, value) {
                Some(p) => {
                    patched.insert(key.clone(), Value::Object(p));
                }
                None => {
                    changed.insert(key.clone(), value.clone());
                }
            },
            None => {
                changed.insert(key.clone(), value.clone());
            }
        }
    }
    (changed, patched)
}

/// The items of list `new` that differ from `old`'s, by index (an
/// object's changed keys, any other value whole), or `None` when the
/// lists differ in length, or an object lost a key: then the list is
/// sent whole. A move changes one player's counts and one track's owner:
/// the whole lists were most of a change's bytes.
fn patch(old: &Value, new: &Value) -> Option<Map<String, Value>> {
    let (Value::Array(old), Value::Array(new)) = (old, new) else {
        return None;
    };
    if old.len() != new.len() {
        return None;
    }
    let mut out = Map::new();
    for (i, (o, n)) in old.iter().zip(new).enumerate() {
        if o == n {
            continue;
        }
        let item = match (o, n) {
            (Value::Object(o), Value::Object(n)) => {
                if o.keys().any(|k| !n.contains_key(k)) {
                    return None;
                }
                let keys = n.iter().filter(|(k, v)| o.get(*k) != Some(v));
                Value::Object(keys.map(|(k, v)| (k.clone(), v.clone())).collect())
            }
            (Value::Object(_), _) | (_, Value::Object(_)) => return None,
            _ => n.clone(),
        };
        out.insert(i.to_string(), item);
    }
    Some(out)
}

/// Applies `modelChanged`'s output to `model`, as a page does: the
/// protocol's meaning of a change, kept beside [`Sent::push`] so that the
/// tests check one against the other. False (and `model` untouched) if
/// the change does not follow it.
pub fn apply(model: &mut Value, change: &Value) -> bool {
    if model["version"] != change["base"] || model["gameId"] != change["gameId"] {
        return false;
    }
    if let (Some(m), Some(c)) = (model.as_object_mut(), change["changed"].as_object()) {
        for (k, v) in c {
            m.insert(k.clone(), v.clone());
        }
    }
    for (key, items) in change["patched"].as_object().into_iter().flatten() {
        for (i, item) in items.as_object().into_iter().flatten() {
            let Some(slot) = i.parse::<usize>().ok().and_then(|i| model[key].get_mut(i)) else {
                continue;
            };
            match (slot.as_object_mut(), item.as_object()) {
                (Some(o), Some(keys)) => o.extend(keys.clone()),
                _ => *slot = item.clone(),
            }
        }
    }
    if let Some(added) = change["historyAdded"].as_array() {
        if let Some(h) = model["history"].as_array_mut() {
            h.extend(added.iter().cloned());
            let extra = h.len().saturating_sub(HISTORY);
            h.drain(..extra);
        }
    }
    model["version"] = change["version"].clone();
    true
}
