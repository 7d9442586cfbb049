//! A board as the pages draw it: cities at their positions, every route
//! with its tracks' colours and labels, every ticket trip. The designer
//! page ([`crate::web`]) and the online game ([`crate::play`]) share it,
//! and its drawing ([`MAP_JS`]): it sits in this layer, below both, so that
//! neither server imports the other.

use serde::Serialize;

use crate::board::{Board, Colour, RouteId};

/// The map drawing both pages serve beside their own scripts: it draws a
/// [`BoardView`].
pub const MAP_JS: &str = include_str!("assets/map.js");

/// A board as the page draws it: cities at their positions, every route
/// and ticket trip with its label.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// Short name.
    pub name: String,
    /// Long name (empty if the file gives none).
    pub title: String,
    /// Train cars per player.
    pub cars: u32,
    /// Cities: name and map position.
    pub cities: Vec<CityView>,
    /// Routes in id order.
    pub routes: Vec<RouteView>,
    /// Ticket trips in id order.
    pub tickets: Vec<TicketView>,
}

/// A city on the page's map.
#[derive(Clone, Debug, Serialize)]
pub struct CityView {
    /// The city's name.
    pub name: String,
    /// Position, x to the east.
    pub x: f64,
    /// Position, y to the south.
    pub y: f64,
}

/// A route on the page's map.
#[derive(Clone, Debug, Serialize)]
pub struct RouteView {
    /// "Denver – Omaha", unique on the board.
    pub label: String,
    /// One end's city index.
    pub a: usize,
    /// The other end's city index.
    pub b: usize,
    /// Train cars.
    pub length: u32,
    /// Points it scores.
    pub points: u32,
    /// One colour per parallel track.
    pub colours: Vec<Colour>,
    /// Routes of the same city pair drawn beside it (unequal tracks), and
    /// this one's place among them.
    pub pair_size: usize,
    /// This route's place among its pair's routes (0 first).
    pub pair_index: usize,
    /// The online game's index of its first track (`routeIndex`): the
    /// tracks of every route in file order are numbered from 0.
    pub first_track: usize,
}

/// A ticket trip in the page's table.
#[derive(Clone, Debug, Serialize)]
pub struct TicketView {
    /// "Los Angeles – New York" (a trip of a ticket with several trips is
    /// followed by the ticket's name).
    pub label: String,
    /// One city, as the board file names it.
    pub from: String,
    /// The other city.
    pub to: String,
    /// Points of the trip.
    pub points: u32,
    /// The printed ticket it belongs to (index in the board's tickets).
    pub card: usize,
    /// The ticket has several trips (the page edits those by file only).
    pub several_trips: bool,
}

impl BoardView {
    /// The view of `board`.
    pub fn new(board: &Board) -> BoardView {
        BoardView {
            name: board.name.clone(),
            title: board.title.clone(),
            cars: board.cars,
            cities: board
                .cities
                .iter()
                .map(|c| CityView {
                    name: c.name.clone(),
                    x: c.x,
                    y: c.y,
                })
                .collect(),
            routes: (0..board.routes.len())
                .scan(0, |next, i| {
                    let first_track = *next;
                    *next += board.routes[i].tracks.len();
                    Some((i, first_track))
                })
                .map(|(i, first_track)| {
                    let id = RouteId(i);
                    let r = board.route(id);
                    let pair = board.pair_routes(id);
                    RouteView {
                        label: board.route_label(id),
                        a: r.a.0,
                        b: r.b.0,
                        length: r.length,
                        points: r.points,
                        colours: r.tracks.clone(),
                        pair_size: pair.len(),
                        pair_index: pair.iter().position(|&p| p == id).unwrap_or(0),
                        first_track,
                    }
                })
                .collect(),
            tickets: board
                .ticket_ids()
                .map(|t| {
                    let ticket = board.ticket(t);
                    TicketView {
                        label: board.ticket_label(t),
                        from: board.city(ticket.a).name.clone(),
                        to: board.city(ticket.b).name.clone(),
                        points: ticket.points,
                        card: ticket.card,
                        several_trips: board.cards[ticket.card].trips.len() > 1,
                    }
                })
                .collect(),
        }
    }
}
