//! The optimisation problem and its MIP formulations.
//!
//! An [`Instance`] is one question: a board, a train-car budget, the routes a
//! player may claim and the tickets that can score. Two formulations answer
//! it exactly:
//! - [`paper`]: the per-ticket flow model of Schaefer & Schaefer, constraints
//!   (1a)–(1e), as published. The reference; slow on the full board.
//! - [`forest`]: a rooted-arborescence (directed cut) model of the same
//!   problem, with cuts separated by max-flow. The default; much tighter.
//!
//! [`stations`] extends the paper's model with Europe's stations, for
//! plans in the middle of a game (`replan`).

pub mod forest;
pub mod mip;
pub mod paper;
pub mod stations;
pub(crate) mod steiner;

use good_lp::{Expression, ProblemVariables, Variable, VariableDefinition};

use std::collections::BTreeMap;

use crate::board::graph::BoardGraph;
use crate::board::{Board, PairId, RouteId, TicketId};

/// One optimisation question on a board.
#[derive(Clone, Debug)]
pub struct Instance<'a> {
    /// The board asked about.
    pub board: &'a Board,
    /// Train cars available.
    pub cars: u32,
    /// Routes the model may choose.
    pub routes: Vec<RouteId>,
    /// Tickets the model may complete.
    pub tickets: Vec<TicketId>,
    /// Every ticket in play, for scoring a solution (a superset of `tickets`).
    pub tickets_in_play: Vec<TicketId>,
    /// Rows beyond the game's rules, each "at most so many of these
    /// routes" (the stations of `replan`, written as routes: one borrowing
    /// a station, no more stations than are left). Empty for a board's own
    /// question; only the forest model's branch and cut takes them.
    pub at_most: Vec<AtMost>,
    /// An upper bound on the score proven elsewhere (replan's relaxation
    /// of the stations), if any: the branch and cut stops, proven, once
    /// its plan scores it.
    pub score_at_most: Option<u32>,
}

/// A row "at most `most` of `routes`" of an [`Instance`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtMost {
    /// The routes, in the order a plan over the row keeps them
    /// ([`Instance::within_rows`]).
    pub routes: Vec<RouteId>,
    /// How many of them a plan may hold.
    pub most: usize,
}

impl<'a> Instance<'a> {
    /// The whole board with `cars` train cars, reduced by exact preprocessing.
    pub fn new(board: &'a Board, cars: u32) -> Instance<'a> {
        Instance::unreduced(board, cars).reduced()
    }

    /// The whole board as the paper states it, without preprocessing.
    pub fn unreduced(board: &'a Board, cars: u32) -> Instance<'a> {
        let tickets: Vec<TicketId> = board.ticket_ids().collect();
        Instance {
            board,
            cars,
            routes: board.route_ids().collect(),
            tickets_in_play: tickets.clone(),
            tickets,
            at_most: Vec::new(),
            score_at_most: None,
        }
    }

    /// Cars to claim a route of every city pair the instance may use, the
    /// longest of each: a budget at or above it is answered at once
    /// ([`Instance::everything`]), and no method needs tables larger than it.
    pub fn total_length(&self) -> u32 {
        let mut longest: BTreeMap<PairId, u32> = BTreeMap::new();
        for &r in &self.routes {
            let route = self.board.route(r);
            let l = longest.entry(route.pair).or_default();
            *l = (*l).max(route.length);
        }
        longest.values().sum()
    }

    /// Whether the budget covers a route of every pair, whichever is chosen,
    /// and they keep the instance's own rows: the optimum is then
    /// [`Instance::everything`].
    pub fn takes_everything(&self) -> bool {
        self.cars >= self.total_length()
            && (self.at_most.is_empty() || self.broken_row(&self.everything()).is_none())
    }

    /// The first row of [`Instance::at_most`] that `routes` break, if any.
    pub fn broken_row(&self, routes: &[RouteId]) -> Option<&AtMost> {
        self.at_most
            .iter()
            .find(|row| row.routes.iter().filter(|r| routes.contains(r)).count() > row.most)
    }

    /// `routes` made to keep every row of [`Instance::at_most`]: row by
    /// row, the routes of the row past its first `most` (in the row's
    /// order) dropped. A plan of a heuristic becomes a plan that may be
    /// offered; one that keeps the rows is unchanged.
    pub fn within_rows(&self, mut routes: Vec<RouteId>) -> Vec<RouteId> {
        for row in &self.at_most {
            let mut kept = 0;
            for r in &row.routes {
                if let Some(i) = routes.iter().position(|x| x == r) {
                    if kept < row.most {
                        kept += 1;
                    } else {
                        routes.remove(i);
                    }
                }
            }
        }
        routes
    }

    /// One route of every city pair, the one with the most points (then the
    /// shortest, then the first): the optimum when the budget covers them
    /// all, since every ticket then scores whichever route joins each pair.
    pub fn everything(&self) -> Vec<RouteId> {
        let rank = |id: RouteId| {
            let x = self.board.route(id);
            (x.points, std::cmp::Reverse(x.length), std::cmp::Reverse(id))
        };
        let mut best: BTreeMap<PairId, RouteId> = BTreeMap::new();
        for &r in &self.routes {
            let b = best.entry(self.board.route(r).pair).or_insert(r);
            if rank(r) > rank(*b) {
                *b = r;
            }
        }
        let mut routes: Vec<RouteId> = best.into_values().collect();
        routes.sort();
        routes
    }

    /// Exact preprocessing: a route longer than the budget can never be
    /// claimed, and a ticket whose shortest connection (over the remaining
    /// routes) needs more cars than the budget can never be completed.
    pub fn reduced(mut self) -> Instance<'a> {
        let board = self.board;
        self.routes.retain(|&r| board.route(r).length <= self.cars);
        let graph = BoardGraph::new(board, self.routes.iter().copied());
        let mut distances = std::collections::HashMap::new();
        self.tickets.retain(|&t| {
            let ticket = board.ticket(t);
            let from = distances
                .entry(ticket.a)
                .or_insert_with(|| graph.distances(ticket.a, |r| board.route(r).length));
            matches!(from[ticket.b.0], Some(d) if d <= self.cars)
        });
        self
    }
}

/// A set of claimed routes with what it is worth, as recomputed by the
/// independent verifier.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Claimed routes, in id order.
    pub routes: Vec<RouteId>,
    /// Completed tickets, in id order.
    pub tickets: Vec<TicketId>,
    /// Train cars the routes take.
    pub cars_used: u32,
    /// Points of the claimed routes.
    pub route_points: u32,
    /// Points of the completed tickets.
    pub ticket_points: u32,
}

impl Plan {
    /// The plan's score: `route_points + ticket_points`.
    pub fn score(&self) -> u32 {
        self.route_points + self.ticket_points
    }
}

/// good_lp variables that remember their HiGHS column: good_lp numbers columns
/// in the order variables are added, and the cut loop and warm starts need
/// those numbers.
#[derive(Default)]
pub(crate) struct Columns {
    pub vars: ProblemVariables,
    pub count: usize,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Col {
    pub var: Variable,
    pub index: usize,
}

impl Columns {
    pub fn add(&mut self, def: VariableDefinition) -> Col {
        let var = self.vars.add(def);
        self.count += 1;
        Col {
            var,
            index: self.count - 1,
        }
    }
}

/// The route points and the cars of the chosen routes, as expressions over
/// the x columns (in the order of `Instance::routes`): the route part of the
/// objective and the left side of the budget row, in every formulation.
pub(crate) fn route_sums(inst: &Instance, x: &[Col]) -> (Expression, Expression) {
    let board = inst.board;
    let mut points = Expression::default();
    let mut cars = Expression::default();
    for (&r, c) in inst.routes.iter().zip(x) {
        points += board.route(r).points as f64 * c.var;
        cars += board.route(r).length as f64 * c.var;
    }
    (points, cars)
}

/// The left sides of "at most one route of a city pair is claimed", one per
/// pair with several routes in the instance (tracks of different lengths or
/// points), over the x columns in the order of `Instance::routes`.
pub(crate) fn one_route_per_pair(inst: &Instance, x: &[Col]) -> Vec<Expression> {
    let mut by_pair: BTreeMap<PairId, Vec<usize>> = BTreeMap::new();
    for (e, &r) in inst.routes.iter().enumerate() {
        by_pair.entry(inst.board.route(r).pair).or_default().push(e);
    }
    by_pair
        .into_values()
        .filter(|routes| routes.len() > 1)
        .map(|routes| routes.iter().map(|&e| x[e].var).sum())
        .collect()
}

/// The left sides of "at most one trip of a ticket scores", one per ticket
/// with several trips in the instance: `scores[k]` is the expression that is
/// 1 when the instance's k-th trip scores. Tickets with one trip need none.
pub(crate) fn one_trip_per_ticket(inst: &Instance, scores: &[Expression]) -> Vec<Expression> {
    let mut by_card: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (k, &t) in inst.tickets.iter().enumerate() {
        by_card
            .entry(inst.board.ticket(t).card)
            .or_default()
            .push(k);
    }
    by_card
        .into_values()
        .filter(|trips| trips.len() > 1)
        .map(|trips| trips.iter().map(|&k| scores[k].clone()).sum())
        .collect()
}

/// The instance's trips that score when `routes` are claimed: connected,
/// and the best trip of their ticket (for a start solution, where a second
/// trip of the same ticket must not score again).
pub(crate) fn scoring_trips(inst: &Instance, routes: &[RouteId]) -> Vec<TicketId> {
    let board = inst.board;
    let picked: Vec<_> = routes.iter().map(|&r| board.route(r).clone()).collect();
    let component = crate::board::graph::components(board.cities.len(), &picked);
    board.scoring(
        inst.tickets
            .iter()
            .copied()
            .filter(|&t| component[board.ticket(t).a.0] == component[board.ticket(t).b.0]),
    )
}

/// Names for the route columns `cols` (in the order of `Instance::routes`)
/// in a written model: `x<index>_<cities>`, ASCII letters, digits and
/// underscores only, as MPS and LP files accept (the index keeps parallel
/// tracks apart).
pub fn route_column_names(inst: &Instance, cols: &[usize]) -> Vec<(usize, String)> {
    cols.iter()
        .zip(&inst.routes)
        .enumerate()
        .map(|(e, (&c, &r))| {
            // The label's runs of letters and digits, joined by one
            // underscore each ("Los Angeles – Miami": Los_Angeles_Miami).
            let label = inst.board.route_label(r);
            let words: Vec<&str> = label
                .split(|ch: char| !ch.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            (c, format!("x{e}_{}", words.join("_")))
        })
        .collect()
}
