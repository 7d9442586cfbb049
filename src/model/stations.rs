//! The paper's per-ticket flow model (see [`super::paper`]) with Europe's
//! stations: beside the routes the player may claim, the routes of other
//! players that the player's stations may borrow, for tickets only.
//!
//! A borrowing b_gc says that the station at city c counts route g, an end
//! of g, as the player's own for tickets (the rule: at the end, a station
//! lets its owner use one route of another player into its city). With
//! `B` the borrowings the state allows ([`Borrowing`]) and `p` the points an
//! unbuilt station scores:
//!
//! ```text
//! max  (1a) − p Σ_{b_gc new} b_gc
//! s.t. (1b)–(1e) of the paper, over the routes to claim, and
//!      Σ_g b_gc ≤ 1                  for every city c     (one route a station)
//!      Σ_{b_gc new} b_gc ≤ left                           (stations still to build)
//!      y_(i,j),k + y_(j,i),k ≤ Σ_c b_gc   for every borrowable g, ticket k
//!      b binary
//! ```
//!
//! A borrowing is *new* where no station of the player stands at c yet:
//! building one there costs its points. Flows are continuous, as in the
//! paper's `paper` method: with the routes and borrowings integer, a ticket
//! carries one unit exactly when they connect its cities.

use std::collections::{HashMap, VecDeque};

use good_lp::{variable, Expression, SolverModel};

use super::{route_sums, Col, Columns, Instance};
use crate::board::{CityId, RouteId, TicketId};
use crate::model::mip::{Mip, MipError, MipStatus};

/// One route a station may borrow: another player's route and the end of it
/// where the station stands (or would).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Borrow {
    /// The city of the station.
    pub city: CityId,
    /// The other player's route into it.
    pub route: RouteId,
    /// Whether the station is still to build (its points are then lost).
    pub new: bool,
}

/// What the stations of a state allow.
#[derive(Clone, Debug, Default)]
pub struct Borrowing {
    /// Every borrowing allowed.
    pub options: Vec<Borrow>,
    /// Stations the player may still build.
    pub left: u32,
    /// Points a station never built scores.
    pub points: u32,
}

/// The model's answer.
#[derive(Clone, Debug)]
pub struct StationPlan {
    /// Routes to claim (from the instance's).
    pub routes: Vec<RouteId>,
    /// Borrowings used.
    pub borrowed: Vec<Borrow>,
    /// The objective: route and ticket points of the instance, less the
    /// points of the stations built.
    pub objective: i64,
    /// Upper bound on the objective.
    pub bound: i64,
    /// Whether the answer is proven optimal.
    pub optimal: bool,
    /// HiGHS's branch-and-bound nodes.
    pub nodes: i64,
}

/// The model's columns: which HiGHS column is which.
struct Model {
    x: Vec<Col>,
    b: Vec<Col>,
    dummy: Vec<Col>,
    /// Per ticket, per edge (the instance's routes, then the borrowable
    /// routes): forward and backward flow.
    flows: Vec<Vec<(Col, Col)>>,
    columns: usize,
}

/// The borrowable routes, in order, each once.
fn borrowable(borrowing: &Borrowing) -> Vec<RouteId> {
    let mut routes: Vec<RouteId> = borrowing.options.iter().map(|b| b.route).collect();
    routes.sort();
    routes.dedup();
    routes
}

/// Solves the model on `inst` with `borrowing`, from the plan `start`
/// (routes only, nothing borrowed), within `seconds` if given.
pub fn solve(
    inst: &Instance,
    borrowing: &Borrowing,
    start: &[RouteId],
    seconds: Option<f64>,
) -> Result<StationPlan, MipError> {
    let lent = borrowable(borrowing);
    let (cols, mut mip) = build(inst, borrowing, &lent)?;
    mip.set_start(&start_values(inst, &cols, &lent, start))?;
    if let Some(left) = seconds {
        mip.set_time_limit(left)?;
    }
    let result = mip.solve()?;
    let values = result
        .values
        .ok_or_else(|| MipError("no solution found (not even the start)".into()))?;
    let on = |c: &Col| values[c.index] > 0.5;
    let routes: Vec<RouteId> = inst
        .routes
        .iter()
        .zip(&cols.x)
        .filter(|(_, c)| on(c))
        .map(|(&r, _)| r)
        .collect();
    let borrowed: Vec<Borrow> = borrowing
        .options
        .iter()
        .zip(&cols.b)
        .filter(|(_, c)| on(c))
        .map(|(&b, _)| b)
        .collect();
    let objective = result.objective.unwrap_or(0.0).round() as i64;
    Ok(StationPlan {
        routes,
        borrowed,
        objective,
        bound: (result.bound + 1e-6).floor() as i64,
        optimal: result.status == MipStatus::Optimal,
        nodes: result.nodes,
    })
}

/// Builds the model and hands it to HiGHS.
fn build(
    inst: &Instance,
    borrowing: &Borrowing,
    lent: &[RouteId],
) -> Result<(Model, Mip), MipError> {
    let board = inst.board;
    let mut cols = Columns::default();
    let x: Vec<Col> = inst
        .routes
        .iter()
        .map(|_| cols.add(variable().binary()))
        .collect();
    let b: Vec<Col> = borrowing
        .options
        .iter()
        .map(|_| cols.add(variable().binary()))
        .collect();
    let edges = inst.routes.len() + lent.len();
    let mut flows = Vec::with_capacity(inst.tickets.len());
    let mut dummy = Vec::with_capacity(inst.tickets.len());
    for _ in &inst.tickets {
        flows.push(
            (0..edges)
                .map(|_| {
                    (
                        cols.add(variable().min(0).max(1)),
                        cols.add(variable().min(0).max(1)),
                    )
                })
                .collect::<Vec<_>>(),
        );
        dummy.push(cols.add(variable().min(0).max(1)));
    }

    let (route_points, cars) = route_sums(inst, &x);
    let new_stations: Expression = borrowing
        .options
        .iter()
        .zip(&b)
        .filter(|(o, _)| o.new)
        .map(|(_, c)| c.var)
        .sum();
    let objective: Expression = route_points - borrowing.points as f64 * new_stations.clone()
        + inst
            .tickets
            .iter()
            .zip(&dummy)
            .map(|(&t, c)| board.ticket(t).points as f64 * c.var)
            .sum::<Expression>();
    let columns = cols.count;
    let mut problem = cols.vars.maximise(objective).using(good_lp::highs);

    problem.add_constraint(cars.leq(inst.cars as f64));
    for expr in super::one_route_per_pair(inst, &x) {
        problem.add_constraint(expr.leq(1));
    }
    let scores: Vec<Expression> = dummy.iter().map(|c| c.var.into()).collect();
    for expr in super::one_trip_per_ticket(inst, &scores) {
        problem.add_constraint(expr.leq(1));
    }
    // One route a station, and no more stations than are left.
    let mut at_city: HashMap<CityId, Expression> = HashMap::new();
    for (o, c) in borrowing.options.iter().zip(&b) {
        *at_city.entry(o.city).or_default() += c.var;
    }
    let mut at_city: Vec<_> = at_city.into_iter().collect();
    at_city.sort_by_key(|(c, _)| *c);
    for (_, expr) in at_city {
        problem.add_constraint(expr.leq(1));
    }
    problem.add_constraint(new_stations.leq(borrowing.left as f64));

    // The capacity of each edge: x_e for a route to claim, the borrowings
    // of it for a borrowable one.
    let mut capacity: Vec<Expression> = x.iter().map(|c| c.var.into()).collect();
    for &g in lent {
        capacity.push(
            borrowing
                .options
                .iter()
                .zip(&b)
                .filter(|(o, _)| o.route == g)
                .map(|(_, c)| c.var)
                .sum(),
        );
    }
    for (k, &t) in inst.tickets.iter().enumerate() {
        let ticket = board.ticket(t);
        let mut balance: HashMap<CityId, Expression> = HashMap::new();
        for (e, &(fwd, bwd)) in flows[k].iter().enumerate() {
            problem.add_constraint((fwd.var + bwd.var).leq(capacity[e].clone()));
            let r = board.route(edge_route(inst, lent, e));
            *balance.entry(r.b).or_default() += fwd.var - bwd.var;
            *balance.entry(r.a).or_default() += bwd.var - fwd.var;
        }
        *balance.entry(ticket.a).or_default() += dummy[k].var;
        *balance.entry(ticket.b).or_default() -= dummy[k].var;
        let mut cities: Vec<_> = balance.into_iter().collect();
        cities.sort_by_key(|(c, _)| *c);
        for (_, expr) in cities {
            problem.add_constraint(expr.eq(0));
        }
    }
    let mip = Mip::new(problem, true)?;
    Ok((
        Model {
            x,
            b,
            dummy,
            flows,
            columns,
        },
        mip,
    ))
}

/// The route of edge `e`: the instance's routes, then the borrowable ones.
fn edge_route(inst: &Instance, lent: &[RouteId], e: usize) -> RouteId {
    inst.routes
        .get(e)
        .copied()
        .unwrap_or_else(|| lent[e - inst.routes.len()])
}

/// Column values for claiming `routes` and borrowing nothing: each trip
/// they connect (the best of its ticket) sends one unit along a path.
fn start_values(inst: &Instance, cols: &Model, lent: &[RouteId], routes: &[RouteId]) -> Vec<f64> {
    let board = inst.board;
    let mut values = vec![0.0; cols.columns];
    let chosen: Vec<usize> = (0..inst.routes.len())
        .filter(|&e| routes.contains(&inst.routes[e]))
        .collect();
    for &e in &chosen {
        values[cols.x[e].index] = 1.0;
    }
    let scoring: Vec<TicketId> = super::scoring_trips(inst, routes);
    for (k, &t) in inst.tickets.iter().enumerate() {
        if !scoring.contains(&t) {
            continue;
        }
        let ticket = board.ticket(t);
        let Some(path) = path(inst, lent, &chosen, ticket.a, ticket.b) else {
            continue;
        };
        for (e, forward) in path {
            let (fwd, bwd) = cols.flows[k][e];
            values[if forward { fwd.index } else { bwd.index }] = 1.0;
        }
        values[cols.dummy[k].index] = 1.0;
    }
    values
}

/// A path from `from` to `to` over the edges `chosen`, breadth first: each
/// edge with whether it is walked from its end a to its end b.
fn path(
    inst: &Instance,
    lent: &[RouteId],
    chosen: &[usize],
    from: CityId,
    to: CityId,
) -> Option<Vec<(usize, bool)>> {
    let board = inst.board;
    let mut parent: HashMap<CityId, (CityId, usize, bool)> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for &e in chosen {
            let r = board.route(edge_route(inst, lent, e));
            let (next, forward) = match (r.a == c, r.b == c) {
                (true, _) => (r.b, true),
                (_, true) => (r.a, false),
                _ => continue,
            };
            if next != from && !parent.contains_key(&next) {
                parent.insert(next, (c, e, forward));
                queue.push_back(next);
            }
        }
    }
    let mut out = Vec::new();
    let mut c = to;
    while c != from {
        let &(prev, e, forward) = parent.get(&c)?;
        out.push((e, forward));
        c = prev;
    }
    Some(out)
}
