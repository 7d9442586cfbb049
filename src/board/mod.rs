//! A Ticket to Ride board: cities, routes and destination tickets.
//!
//! A [`Board`] is read from the JSON format documented in `data/README.md` and
//! validated once, in [`Board::from_json`]: every problem in the file is
//! reported together, each naming the file and the offending entry. After
//! that the rest of the program can rely on its invariants (ids in range, no
//! self-loops, positive lengths, unique city names, every ticket reachable).

pub mod generate;
pub mod graph;
pub mod input;
pub mod rules;
pub mod verify;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::board::input::{describe, Reader};
use crate::board::rules::Rules;

/// The text of `data/usa.json`, built in.
pub const USA_JSON: &str = include_str!("../../data/usa.json");

/// Every board shipped in `data/`, by file stem, built into the binary:
/// the boards an online game can be played on without a file.
pub const SHIPPED: [(&str, &str); 6] = [
    ("usa", USA_JSON),
    ("usa-1910", include_str!("../../data/usa-1910.json")),
    ("usa-mega", include_str!("../../data/usa-mega.json")),
    (
        "usa-big-cities",
        include_str!("../../data/usa-big-cities.json"),
    ),
    ("europe", include_str!("../../data/europe.json")),
    ("switzerland", include_str!("../../data/switzerland.json")),
];

/// Index of a city in [`Board::cities`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CityId(pub usize);

/// Index of a route in [`Board::routes`]. A route is what one claim buys:
/// a length, its points and the colours of the tracks that offer it. A
/// double route of two equal tracks is one [`Route`] with two colours; a
/// city pair whose tracks differ in length or points (a 2-car tunnel beside
/// a 3-car ferry) is one route per kind of track, grouped in a [`PairId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RouteId(pub usize);

/// Index of a city pair in [`Board::pairs`]: the routes printed between two
/// cities, of which a single player may claim at most one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct PairId(pub usize);

/// Index of a ticket in [`Board::tickets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TicketId(pub usize);

/// Colour of one track of a route. `Gray` tracks take cards of any one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// A gray track: claimed with cards of any one colour (`grey` in a file
    /// means the same).
    #[serde(alias = "grey")]
    Gray,
    /// A red track: claimed with red cards.
    Red,
    /// An orange track: claimed with orange cards.
    Orange,
    /// A yellow track: claimed with yellow cards.
    Yellow,
    /// A green track: claimed with green cards.
    Green,
    /// A blue track: claimed with blue cards.
    Blue,
    /// A pink track: claimed with pink cards (`purple` in a file means the
    /// same).
    #[serde(alias = "purple")]
    Pink,
    /// A white track: claimed with white cards.
    White,
    /// A black track: claimed with black cards.
    Black,
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Colour::Gray => "gray",
            Colour::Red => "red",
            Colour::Orange => "orange",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Pink => "pink",
            Colour::White => "white",
            Colour::Black => "black",
        };
        f.write_str(name)
    }
}

/// A city of the board.
#[derive(Clone, Debug, Serialize)]
pub struct City {
    /// The city's name, unique on the board ("Kansas City").
    pub name: String,
    /// Map position (x to the east, y to the south), used for plots only.
    pub x: f64,
    /// The map position's y, to the south (see `x`).
    pub y: f64,
}

/// A route: what one claim buys, between two cities. A double route of equal
/// tracks is one route with two colours.
#[derive(Clone, Debug, Serialize)]
pub struct Route {
    /// One end, as the board file lists it (`from`).
    pub a: CityId,
    /// The other end (`to`).
    pub b: CityId,
    /// Train cars needed to claim the route.
    pub length: u32,
    /// One colour per parallel track of this length and these points (two
    /// for a double route).
    pub tracks: Vec<Colour>,
    /// Points scored when the route is claimed.
    pub points: u32,
    /// A tunnel: claiming it turns three cards from the deck, and each of
    /// the colour paid (or a locomotive) asks for one card more.
    pub tunnel: bool,
    /// A ferry: this many of the cards paid must be locomotives (0 for
    /// other routes).
    pub ferry: u32,
    /// Its city pair: other routes of the pair are tracks of another
    /// length or score, and a player claims at most one route of a pair.
    pub pair: PairId,
}

/// One trip of a destination ticket: the two cities to connect and what that
/// scores. Most tickets have one trip; a ticket with several (the country
/// tickets of the Swiss map) scores only its best completed trip.
#[derive(Clone, Debug, Serialize)]
pub struct Ticket {
    /// One city of the trip, as the board file lists it (`from`).
    pub a: CityId,
    /// The other city of the trip (`to`).
    pub b: CityId,
    /// Points the trip scores when completed.
    pub points: u32,
    /// The printed card this trip belongs to, an index into [`Board::cards`].
    pub card: usize,
}

/// A printed destination ticket: one or more trips, of which at most one
/// scores (the best one completed).
#[derive(Clone, Debug, Serialize)]
pub struct Card {
    /// The ticket's name: the file's `name`, or "Boston – Miami" from its first
    /// trip.
    pub name: String,
    /// Its trips, in file order; a ticket of one trip has one.
    pub trips: Vec<TicketId>,
    /// Dealt from the long-route deck (the file's `"long": true`: Europe
    /// deals each player one of its six long tickets beside three others).
    pub long: bool,
}

/// A validated board. Construct it with [`Board::load`] or [`Board::from_json`].
#[derive(Clone, Debug)]
pub struct Board {
    /// The board's short name ("USA"), used in messages and output file names.
    pub name: String,
    /// The board's long name, shown above the result table; empty when the file
    /// gives none.
    pub title: String,
    /// Train cars each player starts with (45 on the original board).
    pub cars: u32,
    /// The cities, in file order; a [`CityId`] indexes them.
    pub cities: Vec<City>,
    /// The routes, in file order (a city pair with tracks of several kinds
    /// gives one route per kind); a [`RouteId`] indexes them.
    pub routes: Vec<Route>,
    /// The routes of each city pair, in id order: one for most pairs,
    /// several where parallel tracks differ in length or points.
    pub pairs: Vec<Vec<RouteId>>,
    /// Trips of all tickets; every [`Card`] groups the trips of one printed ticket.
    pub tickets: Vec<Ticket>,
    /// The printed tickets, in file order, each with the trips it holds; a
    /// ticket with no connected trip is left out.
    pub cards: Vec<Card>,
    /// The rules the board is played with (the file's `rules`; the
    /// original game's when absent).
    pub rules: Rules,
    /// Things that were accepted but are worth telling the user, such as a
    /// ticket dropped because its cities are not connected by any routes.
    pub warnings: Vec<String>,
}

/// Everything wrong with a board file, found in one pass.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
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
    /// The file is JSON but not a valid board.
    #[error("{file}: {} problem(s) found:\n  - {}", problems.len(), problems.join("\n  - "))]
    Invalid {
        /// The file, as named in the message.
        file: String,
        /// Every problem, in file order, each naming its entry.
        problems: Vec<String>,
    },
}

// The file format, as read: every field already checked against its range
// (see `input`); an entry with a structural problem is left out here, its
// problem recorded, so that the checks across entries still run.
struct RawBoard {
    name: String,
    title: String,
    cars: u32,
    route_points: HashMap<u32, u32>,
    cities: Vec<RawCity>,
    routes: Vec<RawRoute>,
    tickets: Vec<RawTicket>,
    rules: Rules,
}

struct RawCity {
    index: usize,
    name: String,
    x: f64,
    y: f64,
}

struct RawRoute {
    index: usize,
    from: String,
    to: String,
    /// Every track: colour, length and points if given.
    tracks: Vec<RawTrack>,
}

#[derive(Clone, Copy)]
struct RawTrack {
    colour: Colour,
    length: u32,
    points: Option<u32>,
    tunnel: bool,
    ferry: u32,
}

/// A ticket: one trip (`from`, `to`, `points`) or a named list of `trips`.
struct RawTicket {
    name: Option<String>,
    /// Dealt from the long-route deck (Europe's six long tickets).
    long: bool,
    /// Each trip with the entry that names it (`tickets[3].trips[1]`).
    trips: Vec<(String, String, String, u32)>,
}

const BOARD_FIELDS: &[&str] = &[
    "name",
    "title",
    "source",
    "cars",
    "route_points",
    "cities",
    "routes",
    "tickets",
    "rules",
];

/// A track colour at `at` (by the names `Colour` deserialises, `grey` and
/// `purple` included), with the known names if it is none.
pub(crate) fn read_colour(r: &mut Reader, v: &Value, at: &str) -> Option<Colour> {
    r.string(v, at)?;
    let c = serde_json::from_value::<Colour>(v.clone()).ok();
    if c.is_none() {
        r.problem(
            at,
            format!(
                "unknown colour {} (known: gray, red, orange, yellow, green, blue, pink, white, black)",
                describe(v)
            ),
        );
    }
    c
}

/// The tracks of route entry `e`, in either form: the short one (`length`,
/// optional `points`, `tracks` as colour names, all tracks alike) or the
/// long one (`tracks` as objects with their own `colour`, `length` and
/// optional `points`, for parallel tracks that differ).
fn read_tracks(r: &mut Reader, e: &Map<String, Value>, at: &str) -> Option<Vec<RawTrack>> {
    let list = r.required(e, at, "tracks", |r, v, at| {
        r.nonempty_list(v, at, input::MAX_TRACKS, "needs at least one track")
    })?;
    let long = list.iter().any(Value::is_object);
    if long && !list.iter().all(Value::is_object) {
        r.problem(
            &input::join(at, "tracks"),
            "mixes colour names and track objects: write every track as a colour name \
             (tracks alike, with the route's \"length\") or every track as an object \
             {\"colour\", \"length\"}",
        );
        return None;
    }
    if !long {
        let length = r.required(e, at, "length", |r, v, at| r.integer(v, at, input::LENGTH));
        let points = r.optional(e, at, "points", |r, v, at| {
            r.integer(v, at, input::ROUTE_POINTS)
        });
        let special = read_special(r, e, at, length);
        // Every colour is read, so that each bad one is reported.
        let colours: Vec<Option<Colour>> = list
            .iter()
            .enumerate()
            .map(|(j, c)| read_colour(r, c, &input::index(&input::join(at, "tracks"), j)))
            .collect();
        let colours = colours.into_iter().collect::<Option<Vec<Colour>>>()?;
        let (length, points, (tunnel, ferry)) = (length?, points?, special?);
        return Some(
            colours
                .into_iter()
                .map(|colour| RawTrack {
                    colour,
                    length,
                    points,
                    tunnel,
                    ferry,
                })
                .collect(),
        );
    }
    for key in ["length", "points", "tunnel", "ferry"] {
        if e.contains_key(key) {
            r.problem(
                &input::join(at, key),
                "not allowed when the tracks are objects: give each track its own",
            );
        }
    }
    let tracks: Vec<Option<RawTrack>> = list
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let at = input::index(&input::join(at, "tracks"), j);
            let t = r.object(v, &at, &["colour", "length", "points", "tunnel", "ferry"])?;
            let colour = r.required(t, &at, "colour", read_colour);
            let length = r.required(t, &at, "length", |r, v, at| r.integer(v, at, input::LENGTH));
            let points = r.optional(t, &at, "points", |r, v, at| {
                r.integer(v, at, input::ROUTE_POINTS)
            });
            let special = read_special(r, t, &at, length);
            Some(RawTrack {
                colour: colour?,
                length: length?,
                points: points?,
                tunnel: special?.0,
                ferry: special?.1,
            })
        })
        .collect();
    if ["length", "points", "tunnel", "ferry"]
        .iter()
        .any(|k| e.contains_key(*k))
    {
        return None;
    }
    tracks.into_iter().collect()
}

/// A track's optional `tunnel` (true or false) and `ferry` (locomotives
/// it needs, at most its `length`), read from `m` at `at`: a track is a
/// tunnel or a ferry, never both.
fn read_special(
    r: &mut Reader,
    m: &Map<String, Value>,
    at: &str,
    length: Option<u32>,
) -> Option<(bool, u32)> {
    let tunnel = r.optional(m, at, "tunnel", Reader::boolean);
    let ferry = r.optional(m, at, "ferry", |r, v, at| {
        r.integer(v, at, 0..=length.unwrap_or(*input::LENGTH.end()))
    });
    let (tunnel, ferry) = (tunnel?.unwrap_or(false), ferry?.unwrap_or(0));
    if tunnel && ferry > 0 {
        r.problem(
            at,
            "a track is a tunnel or a ferry, not both (\"tunnel\": true with \"ferry\" above 0)",
        );
        return None;
    }
    Some((tunnel, ferry))
}

/// Reads every field of the board file, each problem reported to `r`
/// (`None` where the file is no object); the entries are checked against
/// each other by [`validate`].
fn read_board(root: &Value, r: &mut Reader) -> Option<RawBoard> {
    let map = r.object(root, "", BOARD_FIELDS)?;
    let name = r.required(map, "", "name", Reader::name);
    let title = r.optional(map, "", "title", Reader::string);
    r.optional(map, "", "source", Reader::string);
    let cars = r.required(map, "", "cars", |r, v, at| r.integer(v, at, input::CARS));
    let route_points = read_route_points(r, map);
    let cities = read_cities(r, map);
    let routes = read_routes(r, map);
    let tickets = read_tickets(r, map);
    let long_tickets = tickets.iter().filter(|t| t.long).count();
    let rules = rules::read_rules(r, map, long_tickets);

    // Bad scalars were reported above; defaults let the checks across
    // entries run all the same.
    Some(RawBoard {
        name: name.unwrap_or_default().to_string(),
        title: title.flatten().unwrap_or_default().to_string(),
        cars: cars.unwrap_or(1),
        route_points,
        cities,
        routes,
        tickets,
        rules,
    })
}

/// The rule card `route_points`: points by route length.
fn read_route_points(r: &mut Reader, map: &Map<String, Value>) -> HashMap<u32, u32> {
    let mut route_points = HashMap::new();
    // The rule card's keys are lengths, read here rather than by `object`.
    let card = r.required(map, "", "route_points", |r, v, at| {
        let card = v.as_object();
        if card.is_none() {
            r.problem(
                at,
                format!(
                    "expected an object {{ \"length\": points, … }}, got {}",
                    describe(v)
                ),
            );
        }
        card
    });
    for (key, v) in card.into_iter().flatten() {
        let at = format!("route_points[\"{key}\"]");
        // Only the plain spelling of a length: "01" and "1" would both
        // mean 1, and one would silently win.
        let length = key
            .parse::<u32>()
            .ok()
            .filter(|l| l.to_string() == *key && input::LENGTH.contains(l));
        if length.is_none() {
            r.problem(
                &at,
                format!(
                    "the key must be a length written as a whole number from {} to {}",
                    input::LENGTH.start(),
                    input::LENGTH.end()
                ),
            );
        }
        let points = r.integer(v, &at, input::ROUTE_POINTS);
        if let (Some(l), Some(p)) = (length, points) {
            route_points.insert(l, p);
        }
    }
    route_points
}

/// The `cities` list: the entries read whole (a bad coordinate reads as 0).
fn read_cities(r: &mut Reader, map: &Map<String, Value>) -> Vec<RawCity> {
    let mut cities = Vec::new();
    let list = r.required(map, "", "cities", |r, v, at| {
        r.list(v, at, input::MAX_CITIES)
    });
    for (i, v) in list.unwrap_or_default().iter().enumerate() {
        let at = input::index("cities", i);
        let Some(c) = r.object(v, &at, &["name", "x", "y"]) else {
            continue;
        };
        let name = r.required(c, &at, "name", Reader::name);
        let mut coordinate = |key: &str| {
            r.required(c, &at, key, |r, v, at| {
                r.number(v, at, input::MAX_COORDINATE)
            })
            .unwrap_or(0.0)
        };
        let (x, y) = (coordinate("x"), coordinate("y"));
        if let Some(name) = name {
            cities.push(RawCity {
                index: i,
                name: name.to_string(),
                x,
                y,
            });
        }
    }
    cities
}

/// The `routes` list: the entries read whole, their ends not yet checked
/// against the cities.
fn read_routes(r: &mut Reader, map: &Map<String, Value>) -> Vec<RawRoute> {
    let mut routes = Vec::new();
    let list = r.required(map, "", "routes", |r, v, at| {
        r.list(v, at, input::MAX_ROUTES)
    });
    for (i, v) in list.unwrap_or_default().iter().enumerate() {
        let at = input::index("routes", i);
        let Some(e) = r.object(
            v,
            &at,
            &[
                "from", "to", "length", "tracks", "points", "tunnel", "ferry",
            ],
        ) else {
            continue;
        };
        let ends = r.ends(e, &at);
        let tracks = read_tracks(r, e, &at);
        if let (Some((from, to)), Some(tracks)) = (ends, tracks) {
            routes.push(RawRoute {
                index: i,
                from,
                to,
                tracks,
            });
        }
    }
    routes
}

/// The `tickets` list: the entries read whole, and no more trips in all
/// than allowed.
fn read_tickets(r: &mut Reader, map: &Map<String, Value>) -> Vec<RawTicket> {
    let mut tickets = Vec::new();
    let list = r.required(map, "", "tickets", |r, v, at| {
        r.list(v, at, input::MAX_TICKETS)
    });
    let mut trips_total = 0;
    for (i, v) in list.unwrap_or_default().iter().enumerate() {
        if let Some(t) = read_ticket(r, v, i) {
            trips_total += t.trips.len();
            tickets.push(t);
        }
    }
    if trips_total > input::MAX_TICKETS {
        r.problem(
            "tickets",
            format!(
                "{trips_total} trips in all; at most {} are allowed",
                input::MAX_TICKETS
            ),
        );
    }
    tickets
}

/// One trip: its entry, its cities and points.
fn read_trip(
    r: &mut Reader,
    e: &Map<String, Value>,
    at: &str,
) -> Option<(String, String, String, u32)> {
    let ends = r.ends(e, at);
    let points = r.required(e, at, "points", |r, v, at| {
        r.integer(v, at, input::TICKET_POINTS)
    });
    let (from, to) = ends?;
    Some((at.to_string(), from, to, points?))
}

/// Ticket `i` of the list: one trip, or a named list of trips.
fn read_ticket(r: &mut Reader, v: &Value, i: usize) -> Option<RawTicket> {
    let at = input::index("tickets", i);
    let e = r.object(v, &at, &["name", "from", "to", "points", "trips", "long"])?;
    let long = r
        .optional(e, &at, "long", Reader::boolean)
        .flatten()
        .unwrap_or(false);
    // One trip, or a named list of trips: never a mix.
    let single = ["from", "to", "points"].iter().any(|k| e.contains_key(*k));
    if single == e.contains_key("trips") || (single && e.contains_key("name")) {
        r.problem(
            &at,
            "needs either \"from\", \"to\" and \"points\", or a non-empty \"trips\" list (with an optional \"name\")",
        );
        return None;
    }
    if single {
        return read_trip(r, e, &at).map(|t| RawTicket {
            name: None,
            long,
            trips: vec![t],
        });
    }
    let name = r.optional(e, &at, "name", Reader::name);
    let trips = r.required(e, &at, "trips", |r, v, at| {
        let list = r.nonempty_list(v, at, input::MAX_TRIPS, "must not be empty")?;
        // A bad trip is reported; the others are still checked
        // against the cities.
        let trips: Vec<_> = list
            .iter()
            .enumerate()
            .filter_map(|(j, v)| {
                let at = input::index(at, j);
                let e = r.object(v, &at, &["from", "to", "points"])?;
                read_trip(r, e, &at)
            })
            .collect();
        Some(trips)
    });
    match (name, trips) {
        (Some(name), Some(trips)) => Some(RawTicket {
            name: name.map(str::to_string),
            long,
            trips,
        }),
        _ => None,
    }
}

impl Board {
    /// Points of a ticket's best trip (its only trip, for most tickets).
    pub fn best_trip(&self, card: &Card) -> u32 {
        card.trips
            .iter()
            .map(|&t| self.ticket(t).points)
            .max()
            .unwrap_or(0)
    }

    /// Reads and validates a board file.
    pub fn load(path: &Path) -> Result<Board, BoardError> {
        Board::load_with_text(path).map(|(board, _)| board)
    }

    /// [`Board::load`], also returning the file's text: what-if scenarios
    /// apply to the board as written.
    pub fn load_with_text(path: &Path) -> Result<(Board, String), BoardError> {
        let file = path.display().to_string();
        let text = input::read_text(path).map_err(|source| BoardError::Io {
            file: file.clone(),
            source,
        })?;
        Ok((Board::from_json(&text, &file)?, text))
    }

    /// The original North-American board (`data/usa.json`), built into
    /// the library.
    pub fn usa() -> Board {
        Board::from_json(USA_JSON, "data/usa.json (built in)")
            .expect("the built-in USA board is valid (the tests load it)")
    }

    /// Parses and validates a board; `file` names the source in messages.
    ///
    /// Every problem is reported at once, each naming its entry:
    /// ```
    /// use ttr_opt::board::Board;
    ///
    /// let text = r#"{ "name": "bad", "cars": 45,
    ///     "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 } ],
    ///     "routes": [ { "from": "A", "to": "B", "length": 0, "tracks": ["red"] },
    ///                 { "from": "A", "to": "Nowhere", "length": 2, "tracks": ["red"] } ],
    ///     "tickets": [] }"#;
    /// let message = Board::from_json(text, "bad.json").unwrap_err().to_string();
    /// assert!(message.contains("bad.json"));
    /// assert!(message.contains("routes[0].length"));
    /// assert!(message.contains("Nowhere"));
    /// ```
    pub fn from_json(text: &str, file: &str) -> Result<Board, BoardError> {
        let value = input::parse(text).map_err(|e| BoardError::Json {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let mut reader = Reader::default();
        let raw = read_board(&value, &mut reader);
        let mut problems = reader.problems;
        if let Some(raw) = raw {
            match validate(raw) {
                Ok(board) if problems.is_empty() => return Ok(board),
                Ok(_) => {}
                Err(more) => problems.extend(more),
            }
        }
        input::in_file_order(&mut problems, BOARD_FIELDS);
        Err(BoardError::Invalid {
            file: file.to_string(),
            problems,
        })
    }

    /// Whether the board plays rules of its own beyond the original game's
    /// scoring: tunnels, ferries or stations.
    pub fn has_own_rules(&self) -> bool {
        self.rules.stations.is_some() || self.routes.iter().any(|r| r.tunnel || r.ferry > 0)
    }

    /// The city of an id.
    pub fn city(&self, id: CityId) -> &City {
        &self.cities[id.0]
    }

    /// The route of an id.
    pub fn route(&self, id: RouteId) -> &Route {
        &self.routes[id.0]
    }

    /// The ticket trip of an id.
    pub fn ticket(&self, id: TicketId) -> &Ticket {
        &self.tickets[id.0]
    }

    /// The city of this exact name, if the board has one.
    pub fn city_id(&self, name: &str) -> Option<CityId> {
        self.cities.iter().position(|c| c.name == name).map(CityId)
    }

    /// Every route id, in order.
    pub fn route_ids(&self) -> impl Iterator<Item = RouteId> {
        (0..self.routes.len()).map(RouteId)
    }

    /// Every ticket trip id, in order.
    pub fn ticket_ids(&self) -> impl Iterator<Item = TicketId> {
        (0..self.tickets.len()).map(TicketId)
    }

    /// "Denver – Kansas City"; where the pair has tracks of several kinds,
    /// followed by this route's colours and cars: "Bern – Basel (green, 2 cars)".
    pub fn route_label(&self, id: RouteId) -> String {
        self.tracks_label(id, &self.route(id).tracks)
    }

    /// `route_label` naming only the tracks of `colours` where the pair's
    /// tracks differ: "Bern – Basel (green, 2 cars)" (one track of a game
    /// state, or every track of the route).
    pub fn tracks_label(&self, id: RouteId, colours: &[Colour]) -> String {
        let r = self.route(id);
        let cities = format!("{} – {}", self.city(r.a).name, self.city(r.b).name);
        if self.pair_routes(id).len() == 1 {
            return cities;
        }
        let colours: Vec<String> = colours.iter().map(Colour::to_string).collect();
        let cars = if r.length == 1 { "car" } else { "cars" };
        format!("{cities} ({}, {} {cars})", colours.join("/"), r.length)
    }

    /// The routes of `id`'s city pair, itself included, in id order.
    pub fn pair_routes(&self, id: RouteId) -> &[RouteId] {
        &self.pairs[self.route(id).pair.0]
    }

    /// Two routes of one city pair among `routes`, if there are: a player
    /// may claim at most one route of a pair.
    pub fn same_pair(&self, routes: &[RouteId]) -> Option<(RouteId, RouteId)> {
        let mut seen: HashMap<PairId, RouteId> = HashMap::new();
        for &r in routes {
            if let Some(first) = seen.insert(self.route(r).pair, r) {
                if first != r {
                    return Some((first, r));
                }
            }
        }
        None
    }

    /// Whether some city pair has tracks that differ in length or points.
    pub fn has_unequal_tracks(&self) -> bool {
        self.pairs.iter().any(|p| p.len() > 1)
    }

    /// "Los Angeles – New York"; a trip of a ticket with several trips is
    /// followed by the ticket's name.
    pub fn ticket_label(&self, id: TicketId) -> String {
        let t = self.ticket(id);
        let trip = format!("{} – {}", self.city(t.a).name, self.city(t.b).name);
        let card = &self.cards[t.card];
        if card.trips.len() > 1 {
            format!("{trip} ({})", card.name)
        } else {
            trip
        }
    }

    /// Whether some ticket has more than one trip.
    pub fn has_multi_trip(&self) -> bool {
        self.cards.iter().any(|c| c.trips.len() > 1)
    }

    /// The trips that score among `connected` ones: the best trip of each
    /// ticket (the first in the file on a tie), in id order. For boards whose
    /// tickets have one trip each this is `connected`, sorted.
    pub fn scoring(&self, connected: impl IntoIterator<Item = TicketId>) -> Vec<TicketId> {
        let mut best: BTreeMap<usize, TicketId> = BTreeMap::new();
        for t in connected {
            let ticket = self.ticket(t);
            best.entry(ticket.card)
                .and_modify(|b| {
                    let held = self.ticket(*b);
                    if (ticket.points, std::cmp::Reverse(t)) > (held.points, std::cmp::Reverse(*b))
                    {
                        *b = t;
                    }
                })
                .or_insert(t);
        }
        let mut out: Vec<TicketId> = best.into_values().collect();
        out.sort();
        out
    }
}

/// Checks the entries against each other (city names unique and known,
/// a score for every track, one entry per city pair) and builds the board;
/// every problem is reported at once.
fn validate(raw: RawBoard) -> Result<Board, Vec<String>> {
    let mut problems = Vec::new();
    let (cities, by_name) = city_table(&raw.cities, &mut problems);
    let (routes, pairs) = route_table(&raw, &by_name, &mut problems);
    let (mut tickets, names, long) = trip_table(&raw.tickets, &by_name, &mut problems);

    if !problems.is_empty() {
        return Err(problems);
    }

    let warnings = drop_unconnected(&cities, &routes, &mut tickets);
    let cards = number_cards(&mut tickets, &names, &long);

    Ok(Board {
        name: raw.name,
        title: raw.title,
        cars: raw.cars,
        cities,
        routes,
        pairs,
        tickets,
        cards,
        rules: raw.rules,
        warnings,
    })
}

/// The cities, and their ids by name (a name given twice is a problem).
fn city_table<'a>(
    raw: &'a [RawCity],
    problems: &mut Vec<String>,
) -> (Vec<City>, HashMap<&'a str, CityId>) {
    let mut cities = Vec::with_capacity(raw.len());
    let mut by_name: HashMap<&str, CityId> = HashMap::new();
    for (i, c) in raw.iter().enumerate() {
        if by_name.insert(&c.name, CityId(i)).is_some() {
            problems.push(format!(
                "cities[{}]: duplicate city name \"{}\"",
                c.index, c.name
            ));
        }
        cities.push(City {
            name: c.name.clone(),
            x: c.x,
            y: c.y,
        });
    }
    (cities, by_name)
}

/// Resolves both ends of a route or ticket, reporting unknown names and self-loops.
fn resolve(
    by_name: &HashMap<&str, CityId>,
    what: &str,
    from: &str,
    to: &str,
    problems: &mut Vec<String>,
) -> Option<(CityId, CityId)> {
    let a = by_name.get(from).copied();
    let b = by_name.get(to).copied();
    for (name, id) in [(from, a), (to, b)] {
        if id.is_none() {
            problems.push(format!("{what} ({from} – {to}): unknown city \"{name}\""));
        }
    }
    match (a, b) {
        (Some(a), Some(b)) if a == b => {
            problems.push(format!(
                "{what} ({from} – {to}): both ends are the same city"
            ));
            None
        }
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    }
}

/// Tracks of one entry alike in length, points, tunnel and ferry: those,
/// and their colours.
struct TrackKind {
    length: u32,
    points: u32,
    tunnel: bool,
    ferry: u32,
    colours: Vec<Colour>,
}

/// The routes, one per kind of track of each entry, and the routes of each
/// city pair; an entry with a problem makes no route.
fn route_table(
    raw: &RawBoard,
    by_name: &HashMap<&str, CityId>,
    problems: &mut Vec<String>,
) -> (Vec<Route>, Vec<Vec<RouteId>>) {
    let mut routes: Vec<Route> = Vec::with_capacity(raw.routes.len());
    let mut pairs: Vec<Vec<RouteId>> = Vec::with_capacity(raw.routes.len());
    let mut pair_of: HashMap<(CityId, CityId), usize> = HashMap::new();
    for r in &raw.routes {
        let what = format!("routes[{}]", r.index);
        let ends = resolve(by_name, &what, &r.from, &r.to, problems);
        let (kinds, tracks_ok) = track_kinds(&what, r, &raw.route_points, problems);
        let mut ok = ends.is_some() && tracks_ok;
        if let Some((a, b)) = ends {
            let key = (a.min(b), a.max(b));
            if let Some(first) = pair_of.insert(key, r.index) {
                problems.push(format!(
                    "{what} ({} – {}): same city pair as routes[{first}]; list parallel tracks in one entry's \"tracks\"",
                    r.from, r.to
                ));
                ok = false;
            }
            if ok {
                let pair = PairId(pairs.len());
                let mut ids = Vec::new();
                for kind in kinds {
                    ids.push(RouteId(routes.len()));
                    routes.push(Route {
                        a,
                        b,
                        length: kind.length,
                        tracks: kind.colours,
                        points: kind.points,
                        tunnel: kind.tunnel,
                        ferry: kind.ferry,
                        pair,
                    });
                }
                pairs.push(ids);
            }
        }
    }
    (routes, pairs)
}

/// The kinds of track of route entry `r` (named `what`), each track scored
/// by its own points or the rule card's; false where a track has no score
/// or two tracks a game state could not tell apart differ in points.
fn track_kinds(
    what: &str,
    r: &RawRoute,
    route_points: &HashMap<u32, u32>,
    problems: &mut Vec<String>,
) -> (Vec<TrackKind>, bool) {
    let mut ok = true;
    // Tracks alike in length and points make one route (a double
    // route); each other kind of track is a route of the same pair.
    let mut kinds: Vec<TrackKind> = Vec::new();
    for (j, t) in r.tracks.iter().enumerate() {
        let Some(points) = t.points.or_else(|| route_points.get(&t.length).copied()) else {
            let track = if r.tracks.iter().all(|u| u.length == t.length) {
                String::new()
            } else {
                format!(".tracks[{j}]")
            };
            problems.push(format!(
                "{what}{track} ({} – {}): no score for length {} in route_points and no \"points\" given",
                r.from, r.to, t.length
            ));
            ok = false;
            break;
        };
        if let Some(k) = r.tracks[..j]
            .iter()
            .position(|u| u.colour == t.colour && u.length == t.length)
        {
            let u = &r.tracks[k];
            let theirs = u.points.or_else(|| route_points.get(&t.length).copied());
            if theirs != Some(points) || (u.tunnel, u.ferry) != (t.tunnel, t.ferry) {
                problems.push(format!(
                    "{what}.tracks[{j}] ({} – {}): same colour and length as tracks[{k}] but other points, tunnel or ferry: a game state could not tell them apart",
                    r.from, r.to
                ));
                ok = false;
            }
        }
        let alike = |k: &&mut TrackKind| {
            (k.length, k.points, k.tunnel, k.ferry) == (t.length, points, t.tunnel, t.ferry)
        };
        match kinds.iter_mut().find(alike) {
            Some(kind) => kind.colours.push(t.colour),
            None => kinds.push(TrackKind {
                length: t.length,
                points,
                tunnel: t.tunnel,
                ferry: t.ferry,
                colours: vec![t.colour],
            }),
        }
    }
    (kinds, ok)
}

/// Trips with the index of their card; card names and whether each card
/// is a long ticket alongside.
fn trip_table(
    raw: &[RawTicket],
    by_name: &HashMap<&str, CityId>,
    problems: &mut Vec<String>,
) -> (Vec<Ticket>, Vec<String>, Vec<bool>) {
    let mut tickets = Vec::with_capacity(raw.len());
    let mut names = Vec::with_capacity(raw.len());
    let mut long = Vec::with_capacity(raw.len());
    for t in raw {
        long.push(t.long);
        let trips = &t.trips;
        let name = t.name.clone().unwrap_or_else(|| {
            let (_, from, to, _) = &trips[0];
            format!("{from} – {to}")
        });
        for (what, from, to, points) in trips {
            if let Some((a, b)) = resolve(by_name, what, from, to, problems) {
                tickets.push(Ticket {
                    a,
                    b,
                    points: *points,
                    card: names.len(),
                });
            }
        }
        names.push(name);
    }
    (tickets, names, long)
}

/// Drops the trips whose cities no set of routes connects, returning the
/// warnings that say so: such a ticket can never score, and the paper
/// assumes such tickets away.
fn drop_unconnected(cities: &[City], routes: &[Route], tickets: &mut Vec<Ticket>) -> Vec<String> {
    let components = crate::board::graph::components(cities.len(), routes);
    let mut warnings = Vec::new();
    tickets.retain(|t| {
        let keep = components[t.a.0] == components[t.b.0];
        if !keep {
            warnings.push(format!(
                "ticket {} – {} dropped: no routes connect these cities",
                cities[t.a.0].name, cities[t.b.0].name
            ));
        }
        keep
    });
    warnings
}

/// The cards that still have a trip, numbered in file order, each trip's
/// `card` renumbered to match.
fn number_cards(tickets: &mut [Ticket], names: &[String], long: &[bool]) -> Vec<Card> {
    let mut cards: Vec<Card> = Vec::new();
    let mut renumber: HashMap<usize, usize> = HashMap::new();
    for (i, t) in tickets.iter_mut().enumerate() {
        let card = *renumber.entry(t.card).or_insert_with(|| {
            cards.push(Card {
                name: names[t.card].clone(),
                trips: Vec::new(),
                long: long[t.card],
            });
            cards.len() - 1
        });
        cards[card].trips.push(TicketId(i));
        t.card = card;
    }
    cards
}
