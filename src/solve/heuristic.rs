//! Fast plans that are good but not proven optimal: the starting solution
//! of the MIP and the score the frontier programme must beat. A good
//! incumbent from the first second lets both prune from the start.

use petgraph::algo::astar;
use petgraph::graph::NodeIndex;

use crate::board::graph::{self, BoardGraph};
use crate::board::{Board, RouteId, TicketId};
use crate::model::Instance;
use crate::solve::frontier::Frontier;
use crate::solve::limits::Limits;

/// States kept per car count by the beam search in [`start`].
const BEAM_WIDTH: usize = 20;

/// The better of the greedy plan and a beam search of the frontier
/// programme, each cut short where the call's `limits` stop it.
pub fn start(inst: &Instance, limits: &Limits) -> Vec<RouteId> {
    let beam = beam(inst.board, &inst.routes, &inst.tickets, inst.cars, limits);
    start_from(inst, beam.as_ref(), limits)
}

/// A beam search of the frontier programme over every budget up to
/// `max_cars` (`None` where the programme cannot take the board): one run
/// seeds many budgets. `None` also where `limits` stopped it.
pub fn beam(
    board: &Board,
    routes: &[RouteId],
    tickets: &[TicketId],
    max_cars: u32,
    limits: &Limits,
) -> Option<Frontier> {
    if !Frontier::fits(board, routes, tickets) {
        return None;
    }
    Frontier::beam(board, routes, tickets, max_cars, BEAM_WIDTH, limits)
}

/// The better of the greedy plan and `beam`'s plan for the instance's budget.
pub fn start_from(inst: &Instance, beam: Option<&Frontier>, limits: &Limits) -> Vec<RouteId> {
    let greedy = greedy(inst, limits);
    // Above the beam's largest budget its plan for that budget is the best
    // it knows (the sweep caps it at the cars of every route).
    match beam.map(|b| b.plan(inst.cars.min(b.max_cars())).0) {
        Some(beamed) => better(inst, greedy, beamed),
        None => greedy,
    }
}

/// Of two plans for `inst`, the one scoring more (`first` on a tie).
pub fn better(inst: &Instance, first: Vec<RouteId>, second: Vec<RouteId>) -> Vec<RouteId> {
    if score(inst, &second).0 > score(inst, &first).0 {
        second
    } else {
        first
    }
}

/// Score of `routes` and the instance tickets they complete (via
/// `petgraph`'s union-find; the verifier keeps its own).
pub fn score(inst: &Instance, routes: &[RouteId]) -> (u32, Vec<TicketId>) {
    let board = inst.board;
    let picked: Vec<_> = routes.iter().map(|&r| board.route(r).clone()).collect();
    let component = graph::components(board.cities.len(), &picked);
    let completed: Vec<TicketId> = board.scoring(
        inst.tickets
            .iter()
            .copied()
            .filter(|&t| component[board.ticket(t).a.0] == component[board.ticket(t).b.0]),
    );
    let points = picked.iter().map(|r| r.points).sum::<u32>()
        + completed
            .iter()
            .map(|&t| board.ticket(t).points)
            .sum::<u32>();
    (points, completed)
}

/// Repeatedly connects the ticket with the most points gained per car spent
/// (routes already claimed are free), then spends the remaining cars on the
/// unclaimed routes worth the most points (an exact knapsack). The call's
/// `limits` end the ticket phase early.
pub fn greedy(inst: &Instance, limits: &Limits) -> Vec<RouteId> {
    let board = inst.board;
    let graph = BoardGraph::new(board, inst.routes.iter().copied());
    let mut chosen: Vec<RouteId> = Vec::new();
    // Per city pair: whether a route of it is claimed (then every route of
    // the pair joins its cities for free, and none other can be claimed).
    let mut joined = vec![false; board.pairs.len()];
    let mut used = 0;
    // The call's time limit ends the ticket phase early: a worse start,
    // but the solve that wanted it can still answer in time.
    while !limits.passed() {
        let current = score(inst, &chosen).0;
        let mut best: Option<(f64, Vec<RouteId>, u32)> = None;
        for &t in &inst.tickets {
            let ticket = board.ticket(t);
            let goal = NodeIndex::new(ticket.b.0);
            let cost = |r: RouteId| {
                let route = board.route(r);
                if joined[route.pair.0] {
                    0
                } else {
                    route.length
                }
            };
            let Some((total, path)) = astar(
                &graph.graph,
                NodeIndex::new(ticket.a.0),
                |n| n == goal,
                |e| cost(*e.weight()),
                |_| 0,
            ) else {
                continue;
            };
            if total == 0 || used + total > inst.cars {
                continue;
            }
            // Each step of the path by its cheapest route (parallel tracks
            // may differ), skipping pairs already joined.
            let new: Vec<RouteId> = path
                .windows(2)
                .filter_map(|w| {
                    graph
                        .graph
                        .edges_connecting(w[0], w[1])
                        .map(|e| *e.weight())
                        .min_by_key(|&r| (cost(r), r))
                })
                .filter(|r| !joined[board.route(*r).pair.0])
                .collect();
            let mut candidate = chosen.clone();
            candidate.extend(&new);
            let gain = score(inst, &candidate).0 - current;
            let ratio = gain as f64 / total as f64;
            if best.as_ref().is_none_or(|(b, _, _)| ratio > *b) {
                best = Some((ratio, new, total));
            }
        }
        let Some((_, new, cost)) = best else { break };
        for r in &new {
            joined[board.route(*r).pair.0] = true;
        }
        chosen.extend(new);
        used += cost;
    }
    let rest: Vec<RouteId> = inst
        .routes
        .iter()
        .copied()
        .filter(|r| !joined[board.route(*r).pair.0])
        .collect();
    chosen.extend(knapsack(inst, &rest, inst.cars - used));
    chosen.sort();
    chosen
}

/// The routes among `routes` with the most points that fit in `cars`, at
/// most one of each city pair (a knapsack with one choice per pair).
pub(crate) fn knapsack(inst: &Instance, routes: &[RouteId], cars: u32) -> Vec<RouteId> {
    let board = inst.board;
    let cap = cars as usize;
    // The routes grouped by city pair, in order of first route.
    let mut groups: Vec<Vec<RouteId>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = Default::default();
    for &r in routes {
        let g = *group_of.entry(board.route(r).pair.0).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(r);
    }
    // best[i][c]: most points from the first i pairs with c cars.
    let mut best = vec![vec![0u32; cap + 1]; groups.len() + 1];
    for (i, group) in groups.iter().enumerate() {
        for c in 0..=cap {
            let mut most = best[i][c];
            for &r in group {
                let route = board.route(r);
                let len = route.length as usize;
                if len <= c {
                    most = most.max(best[i][c - len] + route.points);
                }
            }
            best[i + 1][c] = most;
        }
    }
    let mut picked = Vec::new();
    let mut c = cap;
    for i in (0..groups.len()).rev() {
        if best[i + 1][c] == best[i][c] {
            continue;
        }
        let r = groups[i]
            .iter()
            .copied()
            .find(|&r| {
                let route = board.route(r);
                let len = route.length as usize;
                len <= c && best[i][c - len] + route.points == best[i + 1][c]
            })
            .expect("a route of the pair gives the value");
        picked.push(r);
        c -= board.route(r).length as usize;
    }
    picked
}
