//! What `ttr-opt solve` prints: a table for people, JSON for programs.
//!
//! The JSON schema is documented in the README ("JSON output") and is stable:
//! fields may be added, never renamed or removed.

use std::fmt::Write as _;

use serde::Serialize;

use crate::board::{Board, Colour};
use crate::solve::{Method, Outcome};

#[derive(Serialize)]
pub struct RouteRow {
    pub from: String,
    pub to: String,
    pub length: u32,
    /// Colour of each parallel track; a player claims one of them.
    pub colours: Vec<Colour>,
    pub points: u32,
}

#[derive(Serialize)]
pub struct TicketRow {
    pub from: String,
    pub to: String,
    pub points: u32,
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The plan is proven optimal.
    Optimal,
    /// The time limit stopped the solver; the plan may not be optimal.
    TimeLimit,
}

/// The answer to `solve`, in the documented JSON schema.
#[derive(Serialize)]
pub struct SolveReport {
    pub board: String,
    pub cars: u32,
    pub score: u32,
    pub ticket_points: u32,
    pub route_points: u32,
    pub cars_used: u32,
    pub status: Status,
    /// Proven upper bound on the optimum.
    pub bound: u32,
    /// (bound − score) / bound; 0 when proven optimal.
    pub gap: f64,
    pub seconds: f64,
    pub method: Method,
    pub routes: Vec<RouteRow>,
    pub tickets: Vec<TicketRow>,
    pub solver: SolverStats,
    /// Messages about the input (tickets dropped at load, …).
    pub warnings: Vec<String>,
}

#[derive(Serialize)]
pub struct SolverStats {
    /// HiGHS solves, LP and MIP.
    pub solves: usize,
    /// Directed cuts added by separation.
    pub cuts: usize,
    /// Branch-and-bound nodes, over all MIP solves.
    pub nodes: i64,
}

impl SolveReport {
    pub fn new(board: &Board, cars: u32, outcome: &Outcome) -> SolveReport {
        let plan = &outcome.plan;
        let city = |c: crate::board::CityId| board.city(c).name.clone();
        SolveReport {
            board: board.name.clone(),
            cars,
            score: plan.score(),
            ticket_points: plan.ticket_points,
            route_points: plan.route_points,
            cars_used: plan.cars_used,
            status: if outcome.proven {
                Status::Optimal
            } else {
                Status::TimeLimit
            },
            bound: outcome.bound,
            gap: outcome.gap(),
            seconds: (outcome.seconds * 1000.0).round() / 1000.0,
            method: outcome.method,
            routes: plan
                .routes
                .iter()
                .map(|&r| {
                    let route = board.route(r);
                    RouteRow {
                        from: city(route.a),
                        to: city(route.b),
                        length: route.length,
                        colours: route.tracks.clone(),
                        points: route.points,
                    }
                })
                .collect(),
            tickets: plan
                .tickets
                .iter()
                .map(|&t| {
                    let ticket = board.ticket(t);
                    TicketRow {
                        from: city(ticket.a),
                        to: city(ticket.b),
                        points: ticket.points,
                    }
                })
                .collect(),
            solver: SolverStats {
                solves: outcome.solves,
                cuts: outcome.cuts,
                nodes: outcome.nodes,
            },
            warnings: board.warnings.clone(),
        }
    }

    /// The human-readable table.
    pub fn table(&self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{title}: {} train cars", self.cars);
        let verdict = match self.status {
            Status::Optimal => "Optimal score",
            Status::TimeLimit => "Best score found (NOT proven optimal)",
        };
        let _ = writeln!(
            out,
            "{verdict}: {} points ({} from {} tickets, {} from {} routes), {} of {} cars used",
            self.score,
            self.ticket_points,
            self.tickets.len(),
            self.route_points,
            self.routes.len(),
            self.cars_used,
            self.cars
        );
        let _ = writeln!(
            out,
            "Proof: {} (upper bound {}, gap {:.1}%), method {}, {:.2} s, {} HiGHS solves, {} cuts, {} nodes",
            match self.status {
                Status::Optimal => "optimal",
                Status::TimeLimit => "time limit reached",
            },
            self.bound,
            self.gap * 100.0,
            serde_json::to_value(self.method)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            self.seconds,
            self.solver.solves,
            self.solver.cuts,
            self.solver.nodes
        );

        let _ = writeln!(out, "\nRoutes claimed");
        let _ = writeln!(
            out,
            "  {:<34} {:>4}  {:<16} {:>6}",
            "Route", "Cars", "Colour", "Points"
        );
        for r in &self.routes {
            let colours: Vec<String> = r.colours.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                out,
                "  {:<34} {:>4}  {:<16} {:>6}",
                format!("{} – {}", r.from, r.to),
                r.length,
                colours.join(" or "),
                r.points
            );
        }
        let _ = writeln!(
            out,
            "  {:<34} {:>4}  {:<16} {:>6}",
            "total", self.cars_used, "", self.route_points
        );

        let _ = writeln!(out, "\nTickets completed");
        let _ = writeln!(out, "  {:<34} {:>6}", "Ticket", "Points");
        for t in &self.tickets {
            let _ = writeln!(
                out,
                "  {:<34} {:>6}",
                format!("{} – {}", t.from, t.to),
                t.points
            );
        }
        let _ = writeln!(out, "  {:<34} {:>6}", "total", self.ticket_points);
        for w in &self.warnings {
            let _ = writeln!(out, "\nwarning: {w}");
        }
        out
    }
}
