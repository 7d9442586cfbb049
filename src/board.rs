//! A Ticket to Ride board: cities, routes and destination tickets.
//!
//! A [`Board`] is read from the JSON format documented in `data/README.md` and
//! validated once, in [`Board::from_json`]: every problem in the file is
//! reported together, each naming the file and the offending entry. After
//! that the rest of the program can rely on its invariants (ids in range, no
//! self-loops, positive lengths, unique city names, every ticket reachable).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Index of a city in [`Board::cities`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CityId(pub usize);

/// Index of a route in [`Board::routes`]. A route is one city pair as printed
/// on the board; a double route is one [`Route`] with two tracks, because a
/// single player may claim only one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RouteId(pub usize);

/// Index of a ticket in [`Board::tickets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TicketId(pub usize);

/// Colour of one track of a route. `Gray` tracks take cards of any one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    #[serde(alias = "grey")]
    Gray,
    Red,
    Orange,
    Yellow,
    Green,
    Blue,
    #[serde(alias = "purple")]
    Pink,
    White,
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

#[derive(Clone, Debug, Serialize)]
pub struct City {
    pub name: String,
    /// Map position (x to the east, y to the south), used for plots only.
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Route {
    pub a: CityId,
    pub b: CityId,
    /// Train cars needed to claim the route.
    pub length: u32,
    /// One colour per parallel track (two for a double route).
    pub tracks: Vec<Colour>,
    /// Points scored when the route is claimed.
    pub points: u32,
}

/// One trip of a destination ticket: the two cities to connect and what that
/// scores. Most tickets have one trip; a ticket with several (the country
/// tickets of the Swiss map) scores only its best completed trip.
#[derive(Clone, Debug, Serialize)]
pub struct Ticket {
    pub a: CityId,
    pub b: CityId,
    pub points: u32,
    /// The printed card this trip belongs to, an index into [`Board::cards`].
    pub card: usize,
}

/// A printed destination ticket: one or more trips, of which at most one
/// scores (the best one completed).
#[derive(Clone, Debug, Serialize)]
pub struct Card {
    pub name: String,
    pub trips: Vec<TicketId>,
}

/// A validated board. Construct it with [`Board::load`] or [`Board::from_json`].
#[derive(Clone, Debug)]
pub struct Board {
    pub name: String,
    pub title: String,
    /// Train cars each player starts with (45 on the original board).
    pub cars: u32,
    pub cities: Vec<City>,
    pub routes: Vec<Route>,
    /// Trips of all tickets; every [`Card`] groups the trips of one printed ticket.
    pub tickets: Vec<Ticket>,
    pub cards: Vec<Card>,
    /// Things that were accepted but are worth telling the user, such as a
    /// ticket dropped because its cities are not connected by any routes.
    pub warnings: Vec<String>,
}

/// Everything wrong with a board file, found in one pass.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error("cannot read {file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: invalid JSON at line {line}, column {column}: {message}")]
    Json {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{file}: {} problem(s) found:\n  - {}", problems.len(), problems.join("\n  - "))]
    Invalid { file: String, problems: Vec<String> },
}

// The file format, as written in JSON. Unknown fields are rejected so that a
// typo ("lenght") is an error instead of a silently ignored value.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    source: String,
    cars: i64,
    route_points: BTreeMap<String, i64>,
    cities: Vec<RawCity>,
    routes: Vec<RawRoute>,
    tickets: Vec<RawTicket>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCity {
    name: String,
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoute {
    from: String,
    to: String,
    length: i64,
    tracks: Vec<Colour>,
    #[serde(default)]
    points: Option<i64>,
}

/// A ticket is either one trip (`from`, `to`, `points`) or a named list of
/// `trips`; both shapes share one struct so that a typo is still an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTicket {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    points: Option<i64>,
    #[serde(default)]
    trips: Option<Vec<RawTrip>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTrip {
    from: String,
    to: String,
    points: i64,
}

impl Board {
    /// Reads and validates a board file.
    pub fn load(path: &Path) -> Result<Board, BoardError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| BoardError::Io {
            file: file.clone(),
            source,
        })?;
        Board::from_json(&text, &file)
    }

    /// Parses and validates a board; `file` names the source in messages.
    pub fn from_json(text: &str, file: &str) -> Result<Board, BoardError> {
        let raw: RawBoard = serde_json::from_str(text).map_err(|e| BoardError::Json {
            file: file.to_string(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let _ = &raw.source; // documentation only
        validate(raw).map_err(|problems| BoardError::Invalid {
            file: file.to_string(),
            problems,
        })
    }

    pub fn city(&self, id: CityId) -> &City {
        &self.cities[id.0]
    }

    pub fn route(&self, id: RouteId) -> &Route {
        &self.routes[id.0]
    }

    pub fn ticket(&self, id: TicketId) -> &Ticket {
        &self.tickets[id.0]
    }

    pub fn city_id(&self, name: &str) -> Option<CityId> {
        self.cities.iter().position(|c| c.name == name).map(CityId)
    }

    pub fn route_ids(&self) -> impl Iterator<Item = RouteId> {
        (0..self.routes.len()).map(RouteId)
    }

    pub fn ticket_ids(&self) -> impl Iterator<Item = TicketId> {
        (0..self.tickets.len()).map(TicketId)
    }

    /// "Denver – Kansas City"
    pub fn route_label(&self, id: RouteId) -> String {
        let r = self.route(id);
        format!("{} – {}", self.city(r.a).name, self.city(r.b).name)
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

fn validate(raw: RawBoard) -> Result<Board, Vec<String>> {
    let mut problems = Vec::new();

    if raw.name.trim().is_empty() {
        problems.push("name: must not be empty".to_string());
    }
    if raw.cars < 0 {
        problems.push(format!("cars: {} is negative", raw.cars));
    }

    let mut route_points = HashMap::new();
    for (key, &points) in &raw.route_points {
        match key.parse::<u32>() {
            Ok(length) if length > 0 && points >= 0 => {
                route_points.insert(length, points as u32);
            }
            _ => problems.push(format!(
                "route_points[\"{key}\"]: needs a positive length as key and a non-negative score, got {points}"
            )),
        }
    }

    let mut cities = Vec::with_capacity(raw.cities.len());
    let mut by_name: HashMap<&str, CityId> = HashMap::new();
    for (i, c) in raw.cities.iter().enumerate() {
        if c.name.trim().is_empty() {
            problems.push(format!("cities[{i}]: empty name"));
        } else if by_name.insert(&c.name, CityId(i)).is_some() {
            problems.push(format!("cities[{i}]: duplicate city name \"{}\"", c.name));
        }
        cities.push(City {
            name: c.name.clone(),
            x: c.x,
            y: c.y,
        });
    }

    // Resolves both ends of a route or ticket, reporting unknown names and self-loops.
    let resolve = |what: &str, from: &str, to: &str, problems: &mut Vec<String>| {
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
    };

    let mut routes = Vec::with_capacity(raw.routes.len());
    let mut pairs: HashMap<(CityId, CityId), usize> = HashMap::new();
    for (i, r) in raw.routes.iter().enumerate() {
        let what = format!("routes[{i}]");
        let ends = resolve(&what, &r.from, &r.to, &mut problems);
        let mut ok = ends.is_some();
        if r.length <= 0 {
            problems.push(format!(
                "{what} ({} – {}): length must be positive, got {}",
                r.from, r.to, r.length
            ));
            ok = false;
        }
        if r.tracks.is_empty() {
            problems.push(format!(
                "{what} ({} – {}): needs at least one track colour",
                r.from, r.to
            ));
            ok = false;
        }
        let points = match r.points {
            Some(p) if p < 0 => {
                problems.push(format!(
                    "{what} ({} – {}): points must not be negative, got {p}",
                    r.from, r.to
                ));
                ok = false;
                0
            }
            Some(p) => p as u32,
            None => match u32::try_from(r.length)
                .ok()
                .and_then(|l| route_points.get(&l))
            {
                Some(&p) => p,
                None => {
                    if r.length > 0 {
                        problems.push(format!(
                            "{what} ({} – {}): no score for length {} in route_points and no \"points\" given",
                            r.from, r.to, r.length
                        ));
                    }
                    ok = false;
                    0
                }
            },
        };
        if let Some((a, b)) = ends {
            let key = (a.min(b), a.max(b));
            if let Some(first) = pairs.insert(key, i) {
                problems.push(format!(
                    "{what} ({} – {}): same city pair as routes[{first}]; list parallel tracks in one entry's \"tracks\"",
                    r.from, r.to
                ));
                ok = false;
            }
            if ok {
                routes.push(Route {
                    a,
                    b,
                    length: r.length as u32,
                    tracks: r.tracks.clone(),
                    points,
                });
            }
        }
    }

    // Trips with the index of their card; card names alongside.
    let mut tickets = Vec::with_capacity(raw.tickets.len());
    let mut names = Vec::with_capacity(raw.tickets.len());
    for (i, t) in raw.tickets.iter().enumerate() {
        let what = format!("tickets[{i}]");
        let trips: Vec<(String, &str, &str, i64)> = match (&t.trips, &t.from, &t.to, t.points) {
            (None, Some(from), Some(to), Some(points)) if t.name.is_none() => {
                vec![(what.clone(), from.as_str(), to.as_str(), points)]
            }
            (Some(trips), None, None, None) if !trips.is_empty() => trips
                .iter()
                .enumerate()
                .map(|(j, r)| {
                    (
                        format!("{what}.trips[{j}]"),
                        r.from.as_str(),
                        r.to.as_str(),
                        r.points,
                    )
                })
                .collect(),
            _ => {
                problems.push(format!(
                    "{what}: needs either `from`, `to` and `points`, or a non-empty `trips` list (with an optional `name`)"
                ));
                continue;
            }
        };
        let name = t.name.clone().unwrap_or_else(|| {
            let (_, from, to, _) = trips[0];
            format!("{from} – {to}")
        });
        for (what, from, to, points) in trips {
            let ends = resolve(&what, from, to, &mut problems);
            if points <= 0 {
                problems.push(format!(
                    "{what} ({from} – {to}): points must be positive, got {points}"
                ));
            } else if let Some((a, b)) = ends {
                tickets.push(Ticket {
                    a,
                    b,
                    points: points as u32,
                    card: names.len(),
                });
            }
        }
        names.push(name);
    }

    if !problems.is_empty() {
        return Err(problems);
    }

    // A ticket whose cities no set of routes connects can never score; the
    // paper assumes such tickets away, so drop them and say so.
    let components = crate::graph::components(cities.len(), &routes);
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
    // Number the cards that still have a trip, in file order.
    let mut cards: Vec<Card> = Vec::new();
    let mut renumber: HashMap<usize, usize> = HashMap::new();
    for (i, t) in tickets.iter_mut().enumerate() {
        let card = *renumber.entry(t.card).or_insert_with(|| {
            cards.push(Card {
                name: names[t.card].clone(),
                trips: Vec::new(),
            });
            cards.len() - 1
        });
        cards[card].trips.push(TicketId(i));
        t.card = card;
    }

    Ok(Board {
        name: raw.name,
        title: raw.title,
        cars: raw.cars as u32,
        cities,
        routes,
        tickets,
        cards,
        warnings,
    })
}
