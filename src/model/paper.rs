//! The MIP of Schaefer & Schaefer, "Maximizing the Score in Ticket to Ride"
//! (Schaefer and Schaefer; `docs/paper.md` gives the reference), as published.
//!
//! Each ticket k gets its own directed copy H_k of the board: a forward and a
//! backward arc per route plus a dummy return arc (t_k, s_k). A unit of flow
//! on the dummy arc needs a directed cycle through it, i.e. a path of chosen
//! routes from s_k to t_k (Proposition 1):
//!
//! ```text
//! max  Σ_e f_e x_e + Σ_k d_k y_(t_k,s_k),k                          (1a)
//! s.t. Σ_e l_e x_e <= β                                             (1b)
//!      y_(i,j),k + y_(j,i),k <= x_e         for every e={i,j}, k    (1c)
//!      Σ_in y_a,k − Σ_out y_a,k = 0         for every city i, k     (1d)
//!      x binary; y in [0,1] (binary in the paper, relaxable)        (1e)
//! ```
//!
//! Its LP relaxation is weak (half of every route of a long cycle connects
//! every pair of its cities at full flow), so it is the reference, not the
//! default.

use std::collections::{HashMap, VecDeque};

use good_lp::{variable, Expression, SolverModel};

use super::{route_sums, Col, Columns, Instance};
use crate::board::{CityId, RouteId};
use crate::model::mip::{Mip, MipError};

/// Model (1) of one instance: which HiGHS column is which, for warm starts and
/// for reading solutions. [`PaperModel::build`] makes it with its [`Mip`].
pub struct PaperModel {
    /// x_e, in the order of `Instance::routes`.
    x: Vec<Col>,
    /// Dummy return arc of each ticket, in the order of `Instance::tickets`.
    dummy: Vec<Col>,
    /// Forward and backward arc flows of each ticket, per route:
    /// `flows[k][e] = (y_(a,b),k, y_(b,a),k)` for route e = {a, b}.
    flows: Vec<Vec<(Col, Col)>>,
    columns: usize,
}

impl PaperModel {
    /// Builds model (1) and hands it to HiGHS. With `integer_flows` the flow
    /// variables are binary as in (1e); otherwise they are continuous.
    pub fn build(inst: &Instance, integer_flows: bool) -> Result<(PaperModel, Mip), MipError> {
        let board = inst.board;
        let mut cols = Columns::default();
        let flow = || {
            if integer_flows {
                variable().binary()
            } else {
                variable().min(0).max(1)
            }
        };
        let x: Vec<Col> = inst
            .routes
            .iter()
            .map(|_| cols.add(variable().binary()))
            .collect();
        let mut flows = Vec::with_capacity(inst.tickets.len());
        let mut dummy = Vec::with_capacity(inst.tickets.len());
        for _ in &inst.tickets {
            flows.push(
                inst.routes
                    .iter()
                    .map(|_| (cols.add(flow()), cols.add(flow())))
                    .collect::<Vec<_>>(),
            );
            dummy.push(cols.add(flow()));
        }

        // (1a) route points plus the points of tickets whose dummy arc carries flow
        let (route_points, cars) = route_sums(inst, &x);
        let objective: Expression = route_points
            + inst
                .tickets
                .iter()
                .zip(&dummy)
                .map(|(&t, c)| board.ticket(t).points as f64 * c.var)
                .sum::<Expression>();
        let columns = cols.count;
        let mut problem = cols.vars.maximise(objective).using(good_lp::highs);

        // (1b) the train-car budget
        problem.add_constraint(cars.leq(inst.cars as f64));
        // A player claims one route of a city pair (an extension: the
        // paper's parallel tracks are alike and make one route).
        for expr in super::one_route_per_pair(inst, &x) {
            problem.add_constraint(expr.leq(1));
        }
        // A ticket with several trips scores one of them (an extension; the
        // paper's tickets have one trip each).
        let scores: Vec<Expression> = dummy.iter().map(|c| c.var.into()).collect();
        for expr in super::one_trip_per_ticket(inst, &scores) {
            problem.add_constraint(expr.leq(1));
        }

        for (k, &t) in inst.tickets.iter().enumerate() {
            let ticket = board.ticket(t);
            // (1c) flow only on chosen routes, in one direction per ticket
            for (e, &(fwd, bwd)) in flows[k].iter().enumerate() {
                problem.add_constraint((fwd.var + bwd.var).leq(x[e].var));
            }
            // (1d) flow conservation at every city, dummy arc (t_k, s_k) included
            let mut balance: HashMap<CityId, Expression> = HashMap::new();
            for (e, &(fwd, bwd)) in flows[k].iter().enumerate() {
                let r = board.route(inst.routes[e]);
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
        let is_mip = true;
        let mip = Mip::new(problem, is_mip)?;
        Ok((
            PaperModel {
                x,
                dummy,
                flows,
                columns,
            },
            mip,
        ))
    }

    /// The x_e columns, in the order of `Instance::routes`.
    pub fn x_columns(&self) -> Vec<usize> {
        self.x.iter().map(|c| c.index).collect()
    }

    /// Column values of model (1) for claiming `routes`: each ticket they
    /// complete sends one unit around a path of claimed routes and its dummy arc.
    pub fn start(&self, inst: &Instance, routes: &[RouteId]) -> Vec<f64> {
        let board = inst.board;
        let mut values = vec![0.0; self.columns];
        let chosen: Vec<usize> = (0..inst.routes.len())
            .filter(|&e| routes.contains(&inst.routes[e]))
            .collect();
        for &e in &chosen {
            values[self.x[e].index] = 1.0;
        }
        let scoring = super::scoring_trips(inst, routes);
        for (k, &t) in inst.tickets.iter().enumerate() {
            if !scoring.contains(&t) {
                continue;
            }
            let ticket = board.ticket(t);
            // Breadth-first search from s_k over the claimed routes.
            let mut parent: HashMap<CityId, (CityId, usize)> = HashMap::new();
            let mut queue = VecDeque::from([ticket.a]);
            while let Some(c) = queue.pop_front() {
                for &e in &chosen {
                    let r = board.route(inst.routes[e]);
                    let next = if r.a == c {
                        r.b
                    } else if r.b == c {
                        r.a
                    } else {
                        continue;
                    };
                    if next != ticket.a && !parent.contains_key(&next) {
                        parent.insert(next, (c, e));
                        queue.push_back(next);
                    }
                }
            }
            if !parent.contains_key(&ticket.b) {
                continue;
            }
            let mut c = ticket.b;
            while c != ticket.a {
                let (prev, e) = parent[&c];
                let (fwd, bwd) = self.flows[k][e];
                // forward arc goes from route end a to end b
                let arc = if board.route(inst.routes[e]).b == c {
                    fwd
                } else {
                    bwd
                };
                values[arc.index] = 1.0;
                c = prev;
            }
            values[self.dummy[k].index] = 1.0;
        }
        values
    }

    /// Routes chosen in a solution.
    pub fn routes(&self, inst: &Instance, values: &[f64]) -> Vec<RouteId> {
        chosen_routes(inst, &self.x, values)
    }

    /// Tickets whose dummy arc carries flow in a solution.
    pub fn completed(&self, inst: &Instance, values: &[f64]) -> Vec<crate::board::TicketId> {
        inst.tickets
            .iter()
            .zip(&self.dummy)
            .filter(|(_, c)| values[c.index] > 0.5)
            .map(|(&t, _)| t)
            .collect()
    }
}

/// Routes whose x column is 1 (rounded) in `values`.
pub(crate) fn chosen_routes(inst: &Instance, x: &[Col], values: &[f64]) -> Vec<RouteId> {
    inst.routes
        .iter()
        .zip(x)
        .filter(|(_, c)| values[c.index] > 0.5)
        .map(|(&r, _)| r)
        .collect()
}
