//! What-if scenarios: a board changed by a list of edits, and the
//! comparison of its optima with the base board's, budget by budget.
//!
//! A scenario file (format in `data/README.md`) changes ticket points, route
//! lengths or points, removes or adds routes and tickets, and may set the car
//! count. The edits are applied to the board's JSON as written, and the
//! result is loaded like any board file, so a variant passes the same
//! validation as the base (an added route to an unknown city is reported the
//! same way).

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::analysis::carry::Carry;
use crate::board::input::{self, join, Reader};
use crate::board::{Board, BoardError};
use crate::solve::limits::Limits;
use crate::solve::sweep::{all_proven, sweep_with, SweepEntry};
use crate::solve::SolveError;

/// A scenario as written in its file, its numbers checked against the
/// ranges of a board file.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Short name of the variant, shown in the comparison.
    pub name: String,
    /// Free text shown above the comparison; empty when the file gives none.
    pub description: String,
    /// Train cars per player in the variant (default: the base board's).
    pub cars: Option<u32>,
    /// The edits, applied in this order.
    pub changes: Vec<Change>,
}

/// City pair naming a route or ticket, in either order.
#[derive(Clone, Debug)]
pub struct Pair {
    /// One city, as the file names it.
    pub from: String,
    /// The other city.
    pub to: String,
}

/// One edit of the board.
#[derive(Clone, Debug)]
pub enum Change {
    /// New points for a ticket (or for one trip of a ticket with several).
    SetTicket {
        /// One city of the trip.
        from: String,
        /// The other city of the trip.
        to: String,
        /// The trip's new points.
        points: u32,
    },
    /// New length and/or points for a route. A new length without points
    /// scores by the rule card.
    SetRoute {
        /// One city of the route.
        from: String,
        /// The other city of the route.
        to: String,
        /// The new length in train cars, if it changes.
        length: Option<u32>,
        /// The new points, if given.
        points: Option<u32>,
    },
    /// Take a route off the board.
    RemoveRoute(Pair),
    /// Take a ticket (the whole card, if it has several trips) out of the deck.
    RemoveTicket(Pair),
    /// A new route, written as in a board file.
    AddRoute(Value),
    /// A new ticket, written as in a board file.
    AddTicket(Value),
}

impl Change {
    /// The change as a scenario file writes it (`{"set_ticket": {...}}`):
    /// what [`Scenario::from_json`] reads back.
    pub fn to_json(&self) -> Value {
        use serde_json::json;
        match self {
            Change::SetTicket { from, to, points } => {
                json!({ "set_ticket": { "from": from, "to": to, "points": points } })
            }
            Change::SetRoute {
                from,
                to,
                length,
                points,
            } => {
                let mut body = Map::new();
                body.insert("from".into(), from.clone().into());
                body.insert("to".into(), to.clone().into());
                if let Some(length) = length {
                    body.insert("length".into(), (*length).into());
                }
                if let Some(points) = points {
                    body.insert("points".into(), (*points).into());
                }
                json!({ "set_route": body })
            }
            Change::RemoveRoute(Pair { from, to }) => {
                json!({ "remove_route": { "from": from, "to": to } })
            }
            Change::RemoveTicket(Pair { from, to }) => {
                json!({ "remove_ticket": { "from": from, "to": to } })
            }
            Change::AddRoute(route) => json!({ "add_route": route }),
            Change::AddTicket(ticket) => json!({ "add_ticket": ticket }),
        }
    }
}

/// Everything wrong with a scenario file, or with the board it makes.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Io {
        /// The file, as named in the message.
        file: String,
        /// The error reading it.
        source: std::io::Error,
    },
    /// The file (or the base board's text) is not valid JSON.
    #[error("{file}:{line}:{column}: {message}")]
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
    /// The file is JSON but not a valid scenario, or its changes name
    /// routes or tickets the board does not have.
    #[error("{file}: {} problem(s) found:\n  - {}", problems.len(), problems.join("\n  - "))]
    Invalid {
        /// The file, as named in the message.
        file: String,
        /// Every problem, each naming its entry (`changes[2]`).
        problems: Vec<String>,
    },
    /// The variant fails a board's checks; the board error names the
    /// scenario file.
    #[error("the changed board is not valid: {problem}")]
    Board {
        /// The board's error.
        problem: BoardError,
    },
}

impl Scenario {
    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let file = path.display().to_string();
        let text = input::read_text(path).map_err(|source| ScenarioError::Io {
            file: file.clone(),
            source,
        })?;
        Scenario::from_json(&text, &file)
    }

    /// Parses and checks a scenario's text; `file` names it in messages.
    pub fn from_json(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
        let value = input::parse(text).map_err(|e| ScenarioError::Json {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let mut reader = Reader::default();
        match read_scenario(&value, &mut reader) {
            Some(scenario) if reader.problems.is_empty() => Ok(scenario),
            _ => Err(ScenarioError::Invalid {
                file: file.to_string(),
                problems: reader.problems,
            }),
        }
    }

    /// The variant: `board_json` (the base board's file text) with the
    /// changes applied, validated as a board. `file` names the scenario in
    /// messages. Every change that names nothing on the board is reported.
    pub fn apply(&self, board_json: &str, file: &str) -> Result<Board, ScenarioError> {
        let mut raw: Value = input::parse(board_json).map_err(|e| ScenarioError::Json {
            file: file.to_string(),
            line: e.line,
            column: e.column,
            message: format!("the base board: {}", e.message),
        })?;
        let mut problems = Vec::new();
        let Some(board) = raw.as_object_mut() else {
            return Err(ScenarioError::Invalid {
                file: file.to_string(),
                problems: vec!["the base board is not a JSON object".into()],
            });
        };
        for (i, change) in self.changes.iter().enumerate() {
            if let Err(problem) = edit(board, change) {
                problems.push(format!("changes[{i}]: {problem}"));
            }
        }
        if let Some(cars) = self.cars {
            board.insert("cars".into(), cars.into());
        }
        let name = board.get("name").and_then(Value::as_str).unwrap_or("board");
        let variant_name = format!("{name} ({})", self.name);
        board.insert("name".into(), variant_name.into());
        if !problems.is_empty() {
            return Err(ScenarioError::Invalid {
                file: file.to_string(),
                problems,
            });
        }
        Board::from_json(&raw.to_string(), file).map_err(|problem| ScenarioError::Board { problem })
    }
}

const CHANGES: &[&str] = &[
    "set_ticket",
    "set_route",
    "remove_route",
    "remove_ticket",
    "add_route",
    "add_ticket",
];

fn read_scenario(root: &Value, r: &mut Reader) -> Option<Scenario> {
    let map = r.object(root, "", &["name", "description", "cars", "changes"])?;
    let name = r.required(map, "", "name", Reader::name);
    let description = r.optional(map, "", "description", Reader::string);
    let cars = r.optional(map, "", "cars", |r, v, at| r.integer(v, at, input::CARS));
    let mut changes = Some(Vec::new());
    let list = map
        .get("changes")
        .map(|v| r.list(v, "changes", input::MAX_ROUTES + input::MAX_TICKETS));
    for (i, v) in list.flatten().unwrap_or_default().iter().enumerate() {
        match read_change(r, v, &input::index("changes", i)) {
            Some(c) => {
                if let Some(cs) = changes.as_mut() {
                    cs.push(c);
                }
            }
            None => changes = None,
        }
    }
    Some(Scenario {
        name: name?.to_string(),
        description: description?.unwrap_or_default().to_string(),
        cars: cars?,
        changes: changes?,
    })
}

/// One change: an object with one key, the kind of change.
fn read_change(r: &mut Reader, v: &Value, at: &str) -> Option<Change> {
    let map = r.object(v, at, CHANGES)?;
    if map.len() != 1 {
        r.problem(at, format!("needs exactly one of {}", CHANGES.join(", ")));
        return None;
    }
    let (kind, body) = map.iter().next()?;
    let at = join(at, kind);
    let fields: &[&str] = match kind.as_str() {
        "set_ticket" => &["from", "to", "points"],
        "set_route" => &["from", "to", "length", "points"],
        "remove_route" | "remove_ticket" => &["from", "to"],
        // Written as in a board file, and checked as such in the variant.
        _ => {
            r.object(
                body,
                &at,
                &["from", "to", "length", "tracks", "points", "name", "trips"],
            )?;
            return Some(if kind == "add_route" {
                Change::AddRoute(body.clone())
            } else {
                Change::AddTicket(body.clone())
            });
        }
    };
    let e = r.object(body, &at, fields)?;
    let (from, to) = r.ends(e, &at)?;
    Some(match kind.as_str() {
        "set_ticket" => {
            let points = r.required(e, &at, "points", |r, v, at| {
                r.integer(v, at, input::TICKET_POINTS)
            })?;
            Change::SetTicket { from, to, points }
        }
        "set_route" => {
            let length =
                r.optional(e, &at, "length", |r, v, at| r.integer(v, at, input::LENGTH))?;
            let points = r.optional(e, &at, "points", |r, v, at| {
                r.integer(v, at, input::ROUTE_POINTS)
            })?;
            Change::SetRoute {
                from,
                to,
                length,
                points,
            }
        }
        "remove_route" => Change::RemoveRoute(Pair { from, to }),
        _ => Change::RemoveTicket(Pair { from, to }),
    })
}

/// Whether a board entry joins `a` and `b` (either order).
fn joins(entry: &Value, a: &str, b: &str) -> bool {
    let end = |k: &str| entry.get(k).and_then(Value::as_str);
    matches!((end("from"), end("to")), (Some(x), Some(y)) if (x, y) == (a, b) || (x, y) == (b, a))
}

/// The board's `key` list; a field of another type is replaced (the board
/// then fails validation with its own message).
fn list<'v>(board: &'v mut Map<String, Value>, key: &str) -> &'v mut Vec<Value> {
    let entry = board.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    if !entry.is_array() {
        *entry = Value::Array(Vec::new());
    }
    entry.as_array_mut().expect("made an array above")
}

fn edit(board: &mut Map<String, Value>, change: &Change) -> Result<(), String> {
    let missing = |what: &str, a: &str, b: &str| format!("no {what} {a} – {b} on the board");
    match change {
        Change::SetTicket { from, to, points } => {
            for ticket in list(board, "tickets") {
                if joins(ticket, from, to) {
                    ticket["points"] = (*points).into();
                    return Ok(());
                }
                if let Some(trips) = ticket.get_mut("trips").and_then(Value::as_array_mut) {
                    if let Some(trip) = trips.iter_mut().find(|t| joins(t, from, to)) {
                        trip["points"] = (*points).into();
                        return Ok(());
                    }
                }
            }
            Err(missing("ticket", from, to))
        }
        Change::SetRoute {
            from,
            to,
            length,
            points,
        } => {
            let route = list(board, "routes")
                .iter_mut()
                .find(|r| joins(r, from, to))
                .ok_or_else(|| missing("route", from, to))?;
            let Some(route) = route.as_object_mut() else {
                return Err(format!("route {from} – {to} is not an object"));
            };
            if let Some(Value::Array(tracks)) = route.get("tracks") {
                if tracks.iter().any(Value::is_object) {
                    return Err(format!(
                        "set_route cannot change {from} – {to}: its tracks have their own lengths; \
                         use remove_route and add_route"
                    ));
                }
            }
            if let Some(length) = length {
                route.insert("length".into(), (*length).into());
                route.remove("points");
            }
            if let Some(points) = points {
                route.insert("points".into(), (*points).into());
            }
            if length.is_none() && points.is_none() {
                return Err(format!("set_route {from} – {to} changes nothing"));
            }
            Ok(())
        }
        Change::RemoveRoute(Pair { from, to }) => {
            let routes = list(board, "routes");
            let before = routes.len();
            routes.retain(|r| !joins(r, from, to));
            if routes.len() == before {
                return Err(missing("route", from, to));
            }
            Ok(())
        }
        Change::RemoveTicket(Pair { from, to }) => {
            // The first ticket (in file order) holding the trip, as for set_ticket.
            let tickets = list(board, "tickets");
            let holds = |t: &Value| {
                let trips = t.get("trips").and_then(Value::as_array);
                joins(t, from, to) || trips.is_some_and(|ts| ts.iter().any(|x| joins(x, from, to)))
            };
            let i = tickets
                .iter()
                .position(holds)
                .ok_or_else(|| missing("ticket", from, to))?;
            tickets.remove(i);
            Ok(())
        }
        Change::AddRoute(route) => {
            list(board, "routes").push(route.clone());
            Ok(())
        }
        Change::AddTicket(ticket) => {
            list(board, "tickets").push(ticket.clone());
            Ok(())
        }
    }
}

/// One budget of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The budget, in train cars.
    pub cars: u32,
    /// The base board's optimum, in points.
    pub base: u32,
    /// The variant's optimum, in points.
    pub variant: u32,
    /// `variant` minus `base`, in points.
    pub change: i64,
}

/// The base board and a variant, side by side.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The base board's name.
    pub base: String,
    /// The variant's name, the base's with the scenario's: "USA (1910
    /// revisions)".
    pub variant: String,
    /// Every budget from 1 to the larger car count, in order.
    pub rows: Vec<Row>,
    /// The plans at each board's own car count.
    pub base_cars: u32,
    /// The variant's own car count.
    pub variant_cars: u32,
    /// The base optimum at `base_cars`, in points.
    pub base_score: u32,
    /// The variant's optimum at `variant_cars`, in points.
    pub variant_score: u32,
    /// Tickets completed by the base plan only, the variant plan only, and both.
    pub tickets_base_only: Vec<String>,
    /// Tickets completed by the variant plan only.
    pub tickets_variant_only: Vec<String>,
    /// Tickets completed by both plans.
    pub tickets_both: Vec<String>,
    /// Routes claimed by the base plan only and by the variant plan only.
    pub routes_base_only: Vec<String>,
    /// Routes claimed by the variant plan only.
    pub routes_variant_only: Vec<String>,
}

/// Sweeps `variant` over budgets 1 to the largest of `base_entries` (the
/// base's sweep), every answer proven: a budget whose optimum the base's
/// proves ([`crate::analysis::carry`]) is not solved again, and the others
/// start from the base's plan where it scores more.
pub fn sweep_variant(
    base: &Board,
    base_entries: &[SweepEntry],
    variant: &Board,
    threads: usize,
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    sweep_variant_within(
        base,
        base_entries,
        variant,
        threads,
        &Limits::none(),
        progress,
    )
}

/// [`sweep_variant`] within the call's `limits`: past them,
/// [`SolveError::TimeLimit`].
pub fn sweep_variant_within(
    base: &Board,
    base_entries: &[SweepEntry],
    variant: &Board,
    threads: usize,
    limits: &Limits,
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    let to = base_entries.iter().map(|e| e.cars).max().unwrap_or(1);
    let carry = Carry::new(base, variant);
    let prior = |cars: u32| {
        let base = base_entries.iter().find(|e| e.cars == cars);
        carry.prior(cars, base.map(|e| &e.outcome))
    };
    let entries = sweep_with(variant, 1, to, threads, limits, &prior, progress)?;
    all_proven(variant, &entries)?;
    Ok(entries)
}

/// Sweeps both boards over budgets 1 to the larger of their car counts
/// (every answer proven and verified) and sets the results side by side.
pub fn compare(
    base: &Board,
    variant: &Board,
    threads: usize,
    progress: &(dyn Fn(&str, &SweepEntry) + Sync),
) -> Result<Comparison, SolveError> {
    compare_within(base, variant, threads, &Limits::none(), progress)
}

/// [`compare`] within the call's `limits`: past them,
/// [`SolveError::TimeLimit`].
pub fn compare_within(
    base: &Board,
    variant: &Board,
    threads: usize,
    limits: &Limits,
    progress: &(dyn Fn(&str, &SweepEntry) + Sync),
) -> Result<Comparison, SolveError> {
    let to = base.cars.max(variant.cars).max(1);
    let nothing = |_| Ok(crate::solve::sweep::Prior::Nothing);
    let a = sweep_with(base, 1, to, threads, limits, &nothing, &|e| {
        progress("base", e)
    })?;
    all_proven(base, &a)?;
    let b = sweep_variant_within(base, &a, variant, threads, limits, &|e| {
        progress("variant", e)
    })?;
    let at = |entries: &[SweepEntry], cars: u32| -> Option<crate::model::Plan> {
        entries
            .iter()
            .find(|e| e.cars == cars)
            .map(|e| e.outcome.plan.clone())
    };
    let empty = crate::model::Plan::default();
    let plan_a = at(&a, base.cars).unwrap_or_else(|| empty.clone());
    let plan_b = at(&b, variant.cars).unwrap_or(empty);
    let tickets = |board: &Board, plan: &crate::model::Plan| -> Vec<String> {
        plan.tickets
            .iter()
            .map(|&t| board.ticket_label(t))
            .collect()
    };
    let routes = |board: &Board, plan: &crate::model::Plan| -> Vec<String> {
        plan.routes.iter().map(|&r| board.route_label(r)).collect()
    };
    let (ta, tb) = (tickets(base, &plan_a), tickets(variant, &plan_b));
    let (ra, rb) = (routes(base, &plan_a), routes(variant, &plan_b));
    let minus = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter().filter(|s| !y.contains(s)).cloned().collect()
    };
    Ok(Comparison {
        base: base.name.clone(),
        variant: variant.name.clone(),
        rows: a
            .iter()
            .zip(&b)
            .map(|(x, y)| Row {
                cars: x.cars,
                base: x.outcome.plan.score(),
                variant: y.outcome.plan.score(),
                change: y.outcome.plan.score() as i64 - x.outcome.plan.score() as i64,
            })
            .collect(),
        base_cars: base.cars,
        variant_cars: variant.cars,
        base_score: plan_a.score(),
        variant_score: plan_b.score(),
        tickets_base_only: minus(&ta, &tb),
        tickets_variant_only: minus(&tb, &ta),
        tickets_both: ta.iter().filter(|s| tb.contains(s)).cloned().collect(),
        routes_base_only: minus(&ra, &rb),
        routes_variant_only: minus(&rb, &ra),
    })
}
