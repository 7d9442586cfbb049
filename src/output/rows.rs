//! The CSV files: one flat row type per file, built from the same results
//! as the JSON reports (the csv crate writes no nested or flattened fields,
//! so each row spells its columns out). Every face writes the same columns;
//! the Python package returns these rows as records.

use serde::Serialize;

use crate::analysis::optima::SweepOptima;
use crate::analysis::{Frequency, Sensitivity};
use crate::output::report::{OptimaReport, Status, SweepReport};

/// The rows as CSV text (a header line, then one line per row).
pub fn to_csv<T: Serialize>(rows: impl IntoIterator<Item = T>) -> Result<Vec<u8>, csv::Error> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in rows {
        csv.serialize(row)?;
    }
    csv.into_inner().map_err(|e| e.into_error().into())
}

/// One row per ticket, then one per route, each told its kind.
fn kinded<'a, T, R>(
    tickets: &'a [T],
    routes: &'a [T],
    row: impl Fn(&'static str, &'a T) -> R,
) -> Vec<R> {
    let tickets = tickets.iter().map(|t| row("ticket", t));
    let routes = routes.iter().map(|r| row("route", r));
    tickets.chain(routes).collect()
}

/// One line of `sweep.csv`: the numbers, with routes and tickets as
/// `A – B; C – D` lists.
#[derive(Serialize)]
pub struct SweepRow {
    /// The budget, in train cars.
    pub cars: u32,
    /// The budget whose solve found the reported plan (`cars` or less).
    pub plan_from: u32,
    /// The plan's score: `ticket_points + route_points`.
    pub score: u32,
    /// Points from completed tickets.
    pub ticket_points: u32,
    /// Points from claimed routes.
    pub route_points: u32,
    /// Train cars the plan needs.
    pub cars_used: u32,
    /// `optimal`, or `time_limit` when the plan is not proven optimal.
    pub status: Status,
    /// Proven upper bound on the optimum.
    pub bound: u32,
    /// The method that produced the answer.
    pub method: &'static str,
    /// Wall-clock time of the solve, in seconds.
    pub seconds: f64,
    /// The claimed routes, "A – B; C – D".
    pub routes: String,
    /// The completed tickets, "A – B; C – D".
    pub tickets: String,
}

impl SweepRow {
    /// The row of one element of `sweep.json`.
    pub fn new(s: &SweepReport) -> SweepRow {
        let r = &s.report;
        let pairs = |names: Vec<String>| names.join("; ");
        SweepRow {
            cars: r.cars,
            plan_from: s.plan_from,
            score: r.score,
            ticket_points: r.ticket_points,
            route_points: r.route_points,
            cars_used: r.cars_used,
            status: r.status,
            bound: r.bound,
            method: r.method.name(),
            seconds: r.seconds,
            routes: pairs(
                r.routes
                    .iter()
                    .map(|x| format!("{} – {}", x.from, x.to))
                    .collect(),
            ),
            tickets: pairs(
                r.tickets
                    .iter()
                    .map(|x| format!("{} – {}", x.from, x.to))
                    .collect(),
            ),
        }
    }
}

/// One line of `frequency.csv`: a ticket or route and the reported plans
/// that use it.
#[derive(Serialize)]
pub struct FrequencyRow<'a> {
    /// `ticket` or `route`.
    pub kind: &'static str,
    /// "Los Angeles – New York".
    pub name: &'a str,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Train cars (routes only; empty for tickets).
    pub length: Option<u32>,
    /// Reported plans that use it.
    pub count: usize,
    /// `count` over the number of plans.
    pub share: f64,
}

/// The rows of `frequency.csv`: tickets, then routes.
pub fn frequency_rows(f: &Frequency) -> Vec<FrequencyRow<'_>> {
    kinded(&f.tickets, &f.routes, |kind, c| FrequencyRow {
        kind,
        name: &c.name,
        points: c.points,
        length: c.length,
        count: c.count,
        share: c.share,
    })
}

/// One line of `frequency-optima.csv`: a ticket or route over every optimum
/// of every budget.
#[derive(Serialize)]
pub struct PresenceRow<'a> {
    /// `ticket` or `route`.
    pub kind: &'static str,
    /// "Los Angeles – New York".
    pub name: &'a str,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Train cars (routes only; empty for tickets).
    pub length: Option<u32>,
    /// Budgets where some optimal plan uses it.
    pub some: u32,
    /// Budgets where every optimal plan uses it.
    pub every: u32,
    /// Its share of each budget's optima, summed over the budgets.
    pub share_sum: f64,
    /// Budgets whose reported plan uses it.
    pub picked: u32,
}

/// The rows of `frequency-optima.csv`: tickets, then routes.
pub fn presence_rows(o: &SweepOptima) -> Vec<PresenceRow<'_>> {
    kinded(&o.tickets, &o.routes, |kind, p| PresenceRow {
        kind,
        name: &p.name,
        points: p.points,
        length: p.length,
        some: p.some,
        every: p.every,
        share_sum: p.share_sum,
        picked: p.picked,
    })
}

/// One line of `sensitivity-<cars>.csv`: the optimum without one ticket or
/// route of the optimal plan.
#[derive(Serialize)]
pub struct ImpactRow<'a> {
    /// `ticket` or `route`.
    pub kind: &'static str,
    /// "Los Angeles – New York".
    pub name: &'a str,
    /// The ticket's or route's own points.
    pub points: u32,
    /// The optimum without it, in points.
    pub optimum: u32,
    /// `optimum` minus the full optimum (zero or negative).
    pub change: i64,
}

/// The rows of `sensitivity-<cars>.csv`: tickets, then routes.
pub fn impact_rows(s: &Sensitivity) -> Vec<ImpactRow<'_>> {
    kinded(&s.tickets, &s.routes, |kind, i| ImpactRow {
        kind,
        name: &i.name,
        points: i.points,
        optimum: i.optimum,
        change: i.change,
    })
}

/// One line of `optima-<cars>.csv`: a ticket or route and the optimal
/// plans that use it (the count as text: it can exceed 2^64).
#[derive(Serialize)]
pub struct ShareRow<'a> {
    /// `ticket` or `route`.
    pub kind: &'static str,
    /// "Los Angeles – New York".
    pub name: &'a str,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Optimal plans that use it.
    pub count: String,
    /// `count` over the number of optimal plans.
    pub share: f64,
}

/// The rows of `optima-<cars>.csv`: tickets, then routes.
pub fn share_rows<'a>(o: &'a OptimaReport) -> Vec<ShareRow<'a>> {
    kinded(&o.tickets, &o.routes, |kind, s| ShareRow {
        kind,
        name: &s.name,
        points: s.points,
        count: s.count.to_string(),
        share: s.share,
    })
}
