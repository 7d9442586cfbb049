//! A game in progress, from one player's side: the file `ttr-opt replan`
//! reads (format in `data/README.md`, examples in `data/states/`).
//!
//! Routes and tickets are named by their cities (and, on a double route, the
//! track's colour), never by index. A [`GameState`] is validated once, in
//! [`GameState::from_json`], against its board: every problem is reported
//! together, each naming the entry (`owned[2]`, `tickets[0]`, …).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::board::input::{self, Reader};
use crate::board::{read_colour, Board, BoardError, CityId, Colour, RouteId, TicketId};
use crate::engine::rules::Game;

/// One track of a route: the route and the index of the track in its
/// `tracks` (0 for a single route).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Track {
    /// The route the track belongs to.
    pub route: RouteId,
    /// The track's index in the route's
    /// [`tracks`](crate::board::Route::tracks), which gives its colour.
    pub index: usize,
}

/// A validated game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Players in the game (2–5). With 2 or 3, a double route is closed once
    /// one of its tracks is claimed; with 4 or 5 both tracks can be claimed,
    /// by different players.
    pub players: u32,
    /// Train cars the player still has.
    pub cars_left: u32,
    /// Tracks the player has claimed.
    pub owned: Vec<Track>,
    /// Tracks other players have claimed.
    pub taken: Vec<Track>,
    /// Tickets in the player's hand: each scores its points if completed at
    /// the end, and loses them if not.
    pub tickets: Vec<TicketId>,
    /// Whether the player may still draw tickets: if so, every ticket not in
    /// the hand may be added when completing it pays (an upper bound, as in
    /// the paper: the draw is luck).
    pub may_draw: bool,
    /// The stations, on a board whose rules have them (`None` on the
    /// others, and where a caller leaves them out).
    pub stations: Option<StationState>,
}

/// Stations in a game state: where the player's stand, where the others'
/// stand (no second station goes there), and how many the player may still
/// build. A station lets its owner count, for tickets only, one route of
/// another player into its city; each station never built scores the
/// board's points for it at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StationState {
    /// Cities where the player has built a station.
    pub built: Vec<CityId>,
    /// Cities where other players have built one.
    pub others: Vec<CityId>,
    /// Stations the player may still build.
    pub left: u32,
}

impl StationState {
    /// A player's stations before any is built, on a board whose rules
    /// have them.
    pub fn unused(board: &Board) -> Option<StationState> {
        board.rules.stations.as_ref().map(|s| StationState {
            left: s.count() as u32,
            ..StationState::default()
        })
    }
}

/// Everything wrong with a game-state file.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Io {
        /// The file, as named in the message.
        file: String,
        /// The error reading it.
        source: std::io::Error,
    },
    /// The file is not valid JSON.
    #[error("{file}: invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// The file, as named in the message.
        file: String,
        /// Line of the syntax error, from 1.
        line: usize,
        /// Column of the syntax error, from 1.
        column: usize,
        /// What is wrong, without the location.
        message: String,
    },
    /// The board file the state (or plan) names does not load.
    #[error("{file}: board {board}: {source}")]
    Board {
        /// The state or plan file, as named in the message.
        file: String,
        /// The board file as the state names it, relative to the state file.
        board: String,
        /// Why the board does not load.
        source: BoardError,
    },
    /// The file is JSON but not a valid state (or plan), or names routes or
    /// tickets its board does not have.
    #[error("{file}: {} problem(s) found:\n  - {}", problems.len(), problems.join("\n  - "))]
    Invalid {
        /// The file, as named in the message.
        file: String,
        /// Every problem, each naming its entry (`owned[2]`).
        problems: Vec<String>,
    },
}

impl StateError {
    /// A JSON syntax error of `file`.
    pub(crate) fn syntax(file: &str, e: input::Syntax) -> StateError {
        StateError::Json {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

// The file format, as read: fields checked against their ranges by
// `input`. An entry with a problem is `None`, so that the others keep their
// index in messages.
struct RawState {
    /// Board file, relative to the state file.
    board: String,
    players: u32,
    cars_left: u32,
    owned: Vec<Option<RawRoute>>,
    taken: Vec<Option<RawRoute>>,
    tickets: Vec<Option<RawTicket>>,
    may_draw: bool,
    /// City names of the player's stations (`stations`) and of the other
    /// players' (`others_stations`); `None` where the file has no such field.
    stations: Option<Vec<Option<String>>>,
    others_stations: Option<Vec<Option<String>>>,
}

/// A route as a file names it: its cities, and the track where several
/// differ.
pub(crate) struct RawRoute {
    from: String,
    to: String,
    track: Option<Colour>,
    /// Needed only where parallel tracks of one colour differ in length.
    length: Option<u32>,
}

struct RawTicket {
    from: String,
    to: String,
}

const STATE_FIELDS: &[&str] = &[
    "board",
    "players",
    "cars_left",
    "owned",
    "taken",
    "tickets",
    "may_draw",
    "stations",
    "others_stations",
    "game",
];

/// Reads the fields of a state; `None` (with the problems recorded) when a
/// field the checks need is missing or bad.
fn read_state(root: &Value, r: &mut Reader) -> Option<RawState> {
    let map = r.object(root, "", STATE_FIELDS)?;
    let board = r.required(map, "", "board", Reader::name);
    let players = r.required(map, "", "players", |r, v, at| r.integer(v, at, 2..=5));
    let cars_left = r.required(map, "", "cars_left", |r, v, at| {
        r.integer(v, at, 0..=*input::CARS.end())
    });
    let owned = read_routes(r, map, "owned");
    let taken = read_routes(r, map, "taken");
    let tickets = match map
        .get("tickets")
        .and_then(|v| r.list(v, "tickets", input::MAX_TICKETS))
    {
        Some(list) => list
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let at = input::index("tickets", i);
                let e = r.object(v, &at, &["from", "to"])?;
                let (from, to) = r.ends(e, &at)?;
                Some(RawTicket { from, to })
            })
            .collect(),
        None => Vec::new(),
    };
    let may_draw = r.optional(map, "", "may_draw", Reader::boolean);
    let stations = read_cities(r, map, "stations");
    let others_stations = read_cities(r, map, "others_stations");
    // A bad count was reported; the most permissive value lets the checks
    // against the board run all the same without adding spurious problems.
    Some(RawState {
        board: board?.to_string(),
        players: players.unwrap_or(5),
        cars_left: cars_left.unwrap_or(0),
        owned,
        taken,
        tickets,
        may_draw: may_draw.flatten().unwrap_or(false),
        stations,
        others_stations,
    })
}

/// The city names listed under `key` of `map`, `None` without the field; an
/// entry with a problem (recorded) is `None`, so that the others keep their
/// index.
fn read_cities(
    r: &mut Reader,
    map: &serde_json::Map<String, Value>,
    key: &str,
) -> Option<Vec<Option<String>>> {
    let list = r.list(map.get(key)?, key, input::MAX_CITIES)?;
    Some(
        list.iter()
            .enumerate()
            .map(|(i, v)| r.name(v, &input::index(key, i)).map(str::to_string))
            .collect(),
    )
}

/// The list of routes under `key` of `map` (none if it is missing), each
/// `from`, `to` and optionally `track` and `length`; an entry with a
/// problem (recorded) is `None`, so that the others keep their index.
pub(crate) fn read_routes(
    r: &mut Reader,
    map: &serde_json::Map<String, Value>,
    key: &str,
) -> Vec<Option<RawRoute>> {
    let Some(list) = map.get(key).and_then(|v| r.list(v, key, input::MAX_ROUTES)) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let at = input::index(key, i);
            let e = r.object(v, &at, &["from", "to", "track", "length"])?;
            let (from, to) = r.ends(e, &at)?;
            let track = r.optional(e, &at, "track", read_colour)?;
            let length =
                r.optional(e, &at, "length", |r, v, at| r.integer(v, at, input::LENGTH))?;
            Some(RawRoute {
                from,
                to,
                track,
                length,
            })
        })
        .collect()
}

impl GameState {
    /// The state of `player` in a game in progress: their cars, tracks and
    /// tickets, and the tracks the others claimed. Nothing secret of the
    /// others (hands, tickets) goes into it. Tickets still to choose from
    /// are not held yet, and `may_draw` is false: the plan is for the
    /// tickets in hand.
    pub fn of_player(game: &Game, player: usize) -> GameState {
        let track = |&(route, index): &(RouteId, usize)| Track { route, index };
        let me = &game.players[player];
        GameState {
            players: game.players.len() as u32,
            cars_left: me.cars,
            owned: me.tracks.iter().map(track).collect(),
            taken: game
                .players
                .iter()
                .enumerate()
                .filter(|&(p, _)| p != player)
                .flat_map(|(_, other)| other.tracks.iter().map(track))
                .collect(),
            tickets: me.tickets.clone(),
            may_draw: false,
            stations: game.board.rules.stations.as_ref().map(|_| StationState {
                built: me.stations.clone(),
                others: game
                    .players
                    .iter()
                    .enumerate()
                    .filter(|&(p, _)| p != player)
                    .flat_map(|(_, other)| other.stations.iter().copied())
                    .collect(),
                left: game.stations_left(player) as u32,
            }),
        }
    }

    /// The state as the JSON of a state file naming `board_file` (relative
    /// to the state file): [`GameState::from_json`] reads it back as the same
    /// state (a track of two alike, such as gray and gray, may come back as
    /// its twin).
    pub fn to_json(&self, board: &Board, board_file: &str) -> Value {
        let route = |t: &Track| {
            let r = board.route(t.route);
            let mut entry = serde_json::json!({
                "from": board.city(r.a).name,
                "to": board.city(r.b).name,
                "track": r.tracks[t.index].to_string(),
            });
            if board.pair_routes(t.route).len() > 1 {
                entry["length"] = r.length.into();
            }
            entry
        };
        let ticket = |&t: &TicketId| {
            let x = board.ticket(t);
            serde_json::json!({ "from": board.city(x.a).name, "to": board.city(x.b).name })
        };
        let mut json = serde_json::json!({
            "board": board_file,
            "players": self.players,
            "cars_left": self.cars_left,
            "owned": self.owned.iter().map(route).collect::<Vec<_>>(),
            "taken": self.taken.iter().map(route).collect::<Vec<_>>(),
            "tickets": self.tickets.iter().map(ticket).collect::<Vec<_>>(),
            "may_draw": self.may_draw,
        });
        let names = |cities: &[CityId]| -> Vec<String> {
            cities.iter().map(|&c| board.city(c).name.clone()).collect()
        };
        if let Some(s) = &self.stations {
            if !s.built.is_empty() {
                json["stations"] = names(&s.built).into();
            }
            if !s.others.is_empty() {
                json["others_stations"] = names(&s.others).into();
            }
        }
        json
    }

    /// Reads a state file and the board it names.
    pub fn load(path: &Path) -> Result<(Board, GameState), StateError> {
        let file = path.display().to_string();
        let text = input::read_text(path).map_err(|source| StateError::Io {
            file: file.clone(),
            source,
        })?;
        let (raw, problems) = parse(&text, &file)?;
        let board_path: PathBuf = path.parent().unwrap_or(Path::new(".")).join(&raw.board);
        let board = Board::load(&board_path).map_err(|source| StateError::Board {
            file: file.clone(),
            board: raw.board.clone(),
            source,
        })?;
        let state = checked(raw, problems, &board, &file)?;
        Ok((board, state))
    }

    /// Parses and validates a state against `board` (its `board` field is
    /// not read); `file` names the source in messages.
    pub fn from_json(text: &str, file: &str, board: &Board) -> Result<GameState, StateError> {
        let (raw, problems) = parse(text, file)?;
        checked(raw, problems, board, file)
    }

    /// Whether an opponent's claims close `route` to the player: a single
    /// track once taken; of a city pair with several tracks, the track once
    /// taken and every track once one is taken with 2–3 players.
    pub fn is_blocked(&self, board: &Board, route: RouteId) -> bool {
        let pair = board.pair_routes(route);
        let on_pair = self
            .taken
            .iter()
            .filter(|t| pair.contains(&t.route))
            .count();
        let on_route = self.taken.iter().filter(|t| t.route == route).count();
        (on_pair > 0 && self.players <= 3) || on_route >= board.route(route).tracks.len()
    }

    /// Train cars the owned routes took.
    pub fn owned_cars(&self, board: &Board) -> u32 {
        self.owned.iter().map(|t| board.route(t.route).length).sum()
    }
}

/// The state's fields and the problems found in them; an error if the
/// checks against the board cannot run.
fn parse(text: &str, file: &str) -> Result<(RawState, Vec<String>), StateError> {
    let value = input::parse(text).map_err(|e| StateError::syntax(file, e))?;
    let mut reader = Reader::default();
    match read_state(&value, &mut reader) {
        Some(raw) => Ok((raw, reader.problems)),
        None => Err(StateError::Invalid {
            file: file.to_string(),
            problems: reader.problems,
        }),
    }
}

/// Checks `raw` against the board, after the problems of its fields.
fn checked(
    raw: RawState,
    mut problems: Vec<String>,
    board: &Board,
    file: &str,
) -> Result<GameState, StateError> {
    let result = validate(raw, board);
    if let Err(more) = &result {
        problems.extend(more.iter().cloned());
    }
    match result {
        Ok(state) if problems.is_empty() => Ok(state),
        _ => {
            input::in_file_order(&mut problems, STATE_FIELDS);
            Err(StateError::Invalid {
                file: file.to_string(),
                problems,
            })
        }
    }
}

fn validate(raw: RawState, board: &Board) -> Result<GameState, Vec<String>> {
    let mut problems = Vec::new();
    if raw.cars_left > board.cars {
        problems.push(format!(
            "cars_left: {} is more than the {} cars a player starts with",
            raw.cars_left, board.cars
        ));
    }

    // Each referenced track, with the entry that names it.
    let mut seen: Vec<(Track, String)> = Vec::new();
    let mut lists = Vec::new();
    for (list, entries) in [("owned", &raw.owned), ("taken", &raw.taken)] {
        let mut tracks = Vec::new();
        for (i, r) in entries.iter().enumerate() {
            let Some(r) = r else { continue };
            let entry = format!("{list}[{i}]");
            match resolve_route(board, r, &seen, false) {
                Ok(track) => {
                    let label = describe(board, track);
                    if let Some((_, first)) = seen.iter().find(|(t, _)| *t == track) {
                        let what = if first.starts_with(list) {
                            "is listed twice".to_string()
                        } else {
                            "is both owned by the player and taken by others".to_string()
                        };
                        problems.push(format!("{first} and {entry}: {label} {what}"));
                    } else {
                        seen.push((track, entry));
                        tracks.push(track);
                    }
                }
                Err(problem) => problems.push(format!("{entry}: {problem}")),
            }
        }
        lists.push(tracks);
    }
    let taken = lists.pop().unwrap_or_default();
    let owned = lists.pop().unwrap_or_default();

    // The double-route rules, over every track of a city pair.
    let one_pair = |a: &Track, b: &Track| board.route(a.route).pair == board.route(b.route).pair;
    let cities = |t: &Track| {
        let r = board.route(t.route);
        format!("{} – {}", board.city(r.a).name, board.city(r.b).name)
    };
    // "both tracks" of a double route, "two tracks" of three or more.
    let two = |t: &Track| {
        let tracks: usize = board
            .pair_routes(t.route)
            .iter()
            .map(|&r| board.route(r).tracks.len())
            .sum();
        if tracks == 2 {
            "both tracks"
        } else {
            "two tracks"
        }
    };
    for (i, a) in owned.iter().enumerate() {
        if owned[..i].iter().any(|b| one_pair(a, b)) {
            problems.push(format!(
                "owned: {} of {}: a player may claim only one track of a double route",
                two(a),
                cities(a)
            ));
        }
    }
    if raw.players <= 3 {
        let claims = owned.iter().chain(&taken);
        for (i, a) in claims.clone().enumerate() {
            if claims.clone().take(i).any(|b| one_pair(a, b)) {
                problems.push(format!(
                    "{}: {} are claimed, but with {} players only one track of a double route may be",
                    cities(a),
                    two(a),
                    raw.players
                ));
            }
        }
    }

    let owned_cars: i64 = owned
        .iter()
        .map(|t| board.route(t.route).length as i64)
        .sum();
    if owned_cars + raw.cars_left as i64 > board.cars as i64 {
        problems.push(format!(
            "owned routes use {owned_cars} cars and cars_left is {}: together more than the {} cars a player starts with",
            raw.cars_left, board.cars
        ));
    }

    let mut tickets: Vec<TicketId> = Vec::new();
    for (i, t) in raw.tickets.iter().enumerate() {
        let Some(t) = t else { continue };
        let entry = format!("tickets[{i}]");
        match resolve_ticket(board, t) {
            Ok(matching) => match matching.iter().find(|id| !tickets.contains(id)) {
                Some(&id) => tickets.push(id),
                None => {
                    let first = raw
                        .tickets
                        .iter()
                        .position(|u| u.as_ref().is_some_and(|u| same_pair(u, t)))
                        .unwrap_or(0);
                    problems.push(format!(
                        "tickets[{first}] and {entry}: {} is listed twice",
                        board.ticket_label(matching[0])
                    ));
                }
            },
            Err(problem) => problems.push(format!("{entry}: {problem}")),
        }
    }

    let stations = station_state(&raw, board, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(GameState {
        players: raw.players,
        cars_left: raw.cars_left,
        owned,
        taken,
        tickets,
        may_draw: raw.may_draw,
        stations,
    })
}

/// The stations of a state on `board`: `None` where its rules have none (a
/// state naming stations there is a problem); else the cities listed, every
/// problem recorded, and the stations left of the board's count.
fn station_state(
    raw: &RawState,
    board: &Board,
    problems: &mut Vec<String>,
) -> Option<StationState> {
    let Some(rules) = &board.rules.stations else {
        for key in ["stations", "others_stations"] {
            let listed = if key == "stations" {
                &raw.stations
            } else {
                &raw.others_stations
            };
            if listed.as_ref().is_some_and(|l| !l.is_empty()) {
                problems.push(format!("{key}: the board's rules have no stations"));
            }
        }
        return None;
    };
    let mut seen: Vec<(CityId, String)> = Vec::new();
    let mut cities = |key: &str, names: &Option<Vec<Option<String>>>| -> Vec<CityId> {
        let mut out = Vec::new();
        for (i, name) in names.iter().flatten().enumerate() {
            let Some(name) = name else { continue };
            let entry = input::index(key, i);
            match city(board, name) {
                Ok(c) => match seen.iter().find(|(d, _)| *d == c) {
                    Some((_, first)) => problems.push(format!(
                        "{first} and {entry}: a city holds one station, and {name} is listed twice"
                    )),
                    None => {
                        seen.push((c, entry));
                        out.push(c);
                    }
                },
                Err(problem) => problems.push(format!("{entry}: {problem}")),
            }
        }
        out
    };
    let built = cities("stations", &raw.stations);
    let others = cities("others_stations", &raw.others_stations);
    let count = rules.count() as u32;
    if built.len() as u32 > count {
        problems.push(format!(
            "stations: {} stations listed, but a player has {count}",
            built.len()
        ));
    }
    Some(StationState {
        left: count.saturating_sub(built.len() as u32),
        built,
        others,
    })
}

/// "Denver – Kansas City (black)", or without the colour for a single
/// route; "Bern – Basel (green, 2 cars)" where the pair's tracks differ.
pub fn describe(board: &Board, track: Track) -> String {
    let route = board.route(track.route);
    let colour = route.tracks[track.index];
    if board.pair_routes(track.route).len() > 1 {
        board.tracks_label(track.route, &[colour])
    } else if route.tracks.len() == 1 {
        board.route_label(track.route)
    } else {
        format!("{} ({colour})", board.route_label(track.route))
    }
}

fn city(board: &Board, name: &str) -> Result<crate::board::CityId, String> {
    board
        .city_id(name)
        .ok_or_else(|| format!("unknown city \"{name}\""))
}

/// The track a reference names. Where several tracks fit (a double route
/// whose tracks share a colour, or no colour given and they do), the first
/// not already named by an earlier entry. With `any_colour`, the colour of
/// tracks alike in length and points need not be given (a plan's score does
/// not depend on it; a game state's claims do).
pub(crate) fn resolve_route(
    board: &Board,
    r: &RawRoute,
    seen: &[(Track, String)],
    any_colour: bool,
) -> Result<Track, String> {
    let (a, b) = (city(board, &r.from), city(board, &r.to));
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => return Err(e),
        (Err(e), Err(f)) => return Err(format!("{e}, {f}")),
    };
    let first = board
        .route_ids()
        .find(|&id| {
            let x = board.route(id);
            (x.a, x.b) == (a, b) || (x.a, x.b) == (b, a)
        })
        .ok_or_else(|| format!("no route between {} and {}", r.from, r.to))?;
    let label = format!("{} – {}", board.city(a).name, board.city(b).name);
    // Every track of the pair: (track, colour, length).
    let all: Vec<(Track, Colour, u32)> = board
        .pair_routes(first)
        .iter()
        .flat_map(|&route| {
            let x = board.route(route);
            x.tracks
                .iter()
                .enumerate()
                .map(move |(index, &c)| (Track { route, index }, c, x.length))
        })
        .collect();
    let unequal = board.pair_routes(first).len() > 1;
    let names = || {
        all.iter()
            .map(|&(_, c, l)| {
                if unequal {
                    format!("{c} of {l}")
                } else {
                    c.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let candidates: Vec<Track> = all
        .iter()
        .filter(|&&(_, c, l)| r.track.is_none_or(|t| t == c) && r.length.is_none_or(|n| n == l))
        .map(|&(t, _, _)| t)
        .collect();
    if candidates.is_empty() {
        let wanted = match (r.track, r.length) {
            (Some(c), Some(l)) => format!("{c} track of length {l}"),
            (Some(c), None) => format!("{c} track"),
            (None, Some(l)) => format!("track of length {l}"),
            (None, None) => "track".into(),
        };
        return Err(format!("{label} has no {wanted} (its tracks: {})", names()));
    }
    // Tracks that differ (in colour, or in length where the pair's do)
    // must be told apart.
    let kinds = |t: &Track| {
        let x = board.route(t.route);
        (x.tracks[t.index], x.length)
    };
    // Tracks of one route share length and points.
    let alike = if any_colour {
        candidates.iter().all(|t| t.route == candidates[0].route)
    } else {
        candidates.iter().all(|t| kinds(t) == kinds(&candidates[0]))
    };
    if !alike && !unequal {
        return Err(format!(
            "{label} is a double route: say which track with \"track\" ({})",
            names()
        ));
    }
    if !alike {
        let say = if r.track.is_none() {
            "\"track\" (its colour)"
        } else {
            "\"length\""
        };
        return Err(format!(
            "{label} has tracks of different lengths: say which with {say} (its tracks: {})",
            names()
        ));
    }
    let free = candidates
        .iter()
        .copied()
        .find(|t| !seen.iter().any(|(u, _)| u == t));
    // All named already: the first, which the caller reports as listed twice.
    Ok(free.unwrap_or(candidates[0]))
}

/// The board's tickets between the two cities (usually one).
fn resolve_ticket(board: &Board, t: &RawTicket) -> Result<Vec<TicketId>, String> {
    let (a, b) = (city(board, &t.from)?, city(board, &t.to)?);
    let matching: Vec<TicketId> = board
        .ticket_ids()
        .filter(|&id| {
            let x = board.ticket(id);
            (x.a, x.b) == (a, b) || (x.a, x.b) == (b, a)
        })
        .collect();
    if matching.is_empty() {
        return Err(format!("the board has no ticket {} – {}", t.from, t.to));
    }
    Ok(matching)
}

fn same_pair(x: &RawTicket, y: &RawTicket) -> bool {
    (x.from == y.from && x.to == y.to) || (x.from == y.to && x.to == y.from)
}
