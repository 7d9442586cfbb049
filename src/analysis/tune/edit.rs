//! One change of a tuned board, as a revision reports it and as the
//! scenario format (`compare`, the designer page's edits) writes it: a
//! ticket's points, a route's length, a ticket taken out of the deck, or
//! one replaced by a candidate of the targets file.

use serde::Serialize;

use crate::analysis::scenario::{Change, Pair};

/// One ticket's new points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TicketChange {
    /// The ticket's name.
    pub ticket: String,
    /// One city of its trip, as the board names it.
    pub from: String,
    /// The other city.
    pub to: String,
    /// Its points on the board.
    pub before: u32,
    /// Its points in the revision.
    pub after: u32,
}

/// One route's new length, its points then the rule card's for that length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RouteChange {
    /// The route's name ("Paris – Zagrab").
    pub route: String,
    /// One end, as the board names it.
    pub from: String,
    /// The other end.
    pub to: String,
    /// Its length in cars on the board.
    pub before: u32,
    /// Its length in the revision.
    pub after: u32,
}

/// A ticket of one trip, taken out of the deck or put in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TicketCard {
    /// The ticket's name.
    pub ticket: String,
    /// One city of its trip.
    pub from: String,
    /// The other city.
    pub to: String,
    /// Its points.
    pub points: u32,
}

/// One change of a revision. In JSON each carries its `kind`; a ticket's
/// points keep the fields they always had (`ticket`, `from`, `to`,
/// `before`, `after`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Edit {
    /// A ticket's new points.
    Ticket(TicketChange),
    /// A route's new length.
    Route(RouteChange),
    /// A ticket taken out of the deck (the whole card, if it has several
    /// trips: `from`, `to` and `points` are its first trip's).
    Remove(TicketCard),
    /// A ticket taken out, a candidate put in its place: the deck keeps
    /// its size.
    Replace {
        /// The ticket taken out.
        out: TicketCard,
        /// The candidate put in.
        with: TicketCard,
    },
}

impl Edit {
    /// "Los Angeles – Miami 20→19", "route Paris – Zagrab 7→6 cars",
    /// "Athina – Wilno removed", "Athina – Wilno replaced by Paris – Wien (8)".
    pub fn describe(&self) -> String {
        match self {
            Edit::Ticket(c) => format!("{} {}→{}", c.ticket, c.before, c.after),
            Edit::Route(r) => format!("route {} {}→{} cars", r.route, r.before, r.after),
            Edit::Remove(t) => format!("{} removed", t.ticket),
            Edit::Replace { out, with } => format!(
                "{} replaced by {} ({})",
                out.ticket, with.ticket, with.points
            ),
        }
    }

    /// How far it moves the board, for ordering revisions of as many
    /// changes: a ticket's points moved, a route's cars moved, a removed
    /// ticket's points, a replacement's two tickets' points.
    pub fn magnitude(&self) -> u32 {
        match self {
            Edit::Ticket(c) => c.before.abs_diff(c.after),
            Edit::Route(r) => r.before.abs_diff(r.after),
            Edit::Remove(t) => t.points,
            Edit::Replace { out, with } => out.points + with.points,
        }
    }

    /// The scenario's changes that make it (a replacement is two).
    pub fn changes(&self) -> Vec<Change> {
        let pair = |t: &TicketCard| Pair {
            from: t.from.clone(),
            to: t.to.clone(),
        };
        match self {
            Edit::Ticket(c) => vec![Change::SetTicket {
                from: c.from.clone(),
                to: c.to.clone(),
                points: c.after,
            }],
            Edit::Route(r) => vec![Change::SetRoute {
                from: r.from.clone(),
                to: r.to.clone(),
                length: Some(r.after),
                points: None,
            }],
            Edit::Remove(t) => vec![Change::RemoveTicket(pair(t))],
            Edit::Replace { out, with } => vec![
                Change::RemoveTicket(pair(out)),
                Change::AddTicket(serde_json::json!({
                    "from": with.from, "to": with.to, "points": with.points
                })),
            ],
        }
    }

    /// [`Edit::changes`] as a scenario file writes them.
    pub fn changes_json(&self) -> Vec<serde_json::Value> {
        self.changes().iter().map(Change::to_json).collect()
    }

    /// Its place among a revision's changes of as many misses, changes
    /// and points moved: a ticket's name and new points (a route's name
    /// and new length).
    pub fn sort_key(&self) -> (String, u32) {
        match self {
            Edit::Ticket(c) => (c.ticket.clone(), c.after),
            Edit::Route(r) => (format!("route {}", r.route), r.after),
            Edit::Remove(t) => (t.ticket.clone(), 0),
            Edit::Replace { out, with } => (format!("{} by {}", out.ticket, with.ticket), 0),
        }
    }
}
