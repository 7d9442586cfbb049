//! Analyses for balancing a board, built on exact solves.
//!
//! Sensitivity (the paper's Table 2, extended to routes): for every ticket in
//! the optimal plan, the optimum if that ticket were not in the game; for
//! every route in the plan, the optimum if an opponent had taken it.

use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, RouteId, TicketId};
use crate::model::Instance;
use crate::solve::{self, solve, Outcome, SolveError, SolveOptions};

/// The optimum without one ticket or one route of the optimal plan.
#[derive(Clone, Debug, Serialize)]
pub struct Impact {
    /// "Los Angeles – New York"
    pub name: String,
    /// The ticket's or route's own points.
    pub points: u32,
    /// The optimum without it.
    pub optimum: u32,
    /// `optimum` minus the full optimum (zero or negative).
    pub change: i64,
}

#[derive(Clone, Debug)]
pub struct Sensitivity {
    pub cars: u32,
    /// The full problem's answer.
    pub base: Outcome,
    /// One entry per ticket of the optimal plan, largest loss first.
    pub tickets: Vec<Impact>,
    /// One entry per route of the optimal plan, largest loss first.
    pub routes: Vec<Impact>,
}

/// Solves the board at `cars`, then once more per ticket and per route of
/// the optimal plan without it, on `threads` threads.
pub fn sensitivity(board: &Board, cars: u32, threads: usize) -> Result<Sensitivity, SolveError> {
    solve::worker_pool(threads)?.install(|| {
        let base = solve(&Instance::new(board, cars), &SolveOptions::default())?;
        let optimum = base.plan.score() as i64;
        let impact = |name: String, points: u32, outcome: Outcome| Impact {
            name,
            points,
            optimum: outcome.plan.score(),
            change: outcome.plan.score() as i64 - optimum,
        };
        let mut tickets = base
            .plan
            .tickets
            .par_iter()
            .with_max_len(1)
            .map(|&t| {
                let outcome = solve(&without_ticket(board, cars, t), &SolveOptions::default())?;
                Ok(impact(
                    board.ticket_label(t),
                    board.ticket(t).points,
                    outcome,
                ))
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        let mut routes = base
            .plan
            .routes
            .par_iter()
            .with_max_len(1)
            .map(|&r| {
                let outcome = solve(&blocked(board, cars, r), &SolveOptions::default())?;
                Ok(impact(board.route_label(r), board.route(r).points, outcome))
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        // Largest loss first; ties in board order (the order of the plan).
        tickets.sort_by_key(|i| i.change);
        routes.sort_by_key(|i| i.change);
        Ok(Sensitivity {
            cars,
            base,
            tickets,
            routes,
        })
    })
}

/// The game at `cars` cars with ticket `t` taken out of it.
pub fn without_ticket(board: &Board, cars: u32, t: TicketId) -> Instance<'_> {
    let mut inst = Instance::unreduced(board, cars);
    inst.tickets.retain(|&k| k != t);
    inst.tickets_in_play.retain(|&k| k != t);
    inst.reduced()
}

/// The game at `cars` cars with route `r` taken by an opponent.
pub fn blocked(board: &Board, cars: u32, r: RouteId) -> Instance<'_> {
    let mut inst = Instance::unreduced(board, cars);
    inst.routes.retain(|&e| e != r);
    inst.reduced()
}
