//! What the commands report: a table for people, JSON for programs (the
//! shapes the CLI writes and the Python package returns).
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

/// One element of sweep.json: the `solve` schema plus the budget whose
/// solve found the reported plan (see the tie-break).
#[derive(Serialize)]
pub struct SweepReport {
    pub plan_from: u32,
    #[serde(flatten)]
    pub report: SolveReport,
}

impl SweepReport {
    pub fn new(board: &Board, e: &crate::sweep::SweepEntry) -> SweepReport {
        SweepReport {
            plan_from: e.plan_from,
            report: SolveReport::new(board, e.cars, &e.outcome),
        }
    }
}

/// The answer to `sensitivity` (sensitivity-<cars>.json).
#[derive(Serialize)]
pub struct SensitivityReport<'a> {
    pub board: &'a str,
    pub cars: u32,
    pub optimum: u32,
    pub tickets: &'a [crate::analysis::Impact],
    pub routes: &'a [crate::analysis::Impact],
    /// Tickets and routes whose solve the time limit cut short (no row).
    pub unfinished: &'a [String],
}

impl<'a> SensitivityReport<'a> {
    pub fn new(board: &'a Board, s: &'a crate::analysis::Sensitivity) -> SensitivityReport<'a> {
        SensitivityReport {
            board: &board.name,
            cars: s.cars,
            optimum: s.base.plan.score(),
            tickets: &s.tickets,
            routes: &s.routes,
            unfinished: &s.unfinished,
        }
    }
}

/// The answer to `breakeven` (breakeven-<cars>.json).
#[derive(Serialize)]
pub struct BreakEvenReport<'a> {
    pub board: &'a str,
    pub cars: u32,
    pub optimum: u32,
    pub tickets: &'a [crate::analysis::BreakEven],
    pub routes: Vec<RouteBlock<'a>>,
    /// Tickets and routes whose solves the time limit cut short (no row).
    pub unfinished: &'a [String],
}

/// A route of the optimum and the optimum without it.
#[derive(Serialize)]
pub struct RouteBlock<'a> {
    pub name: &'a str,
    pub points: u32,
    pub optimum_if_blocked: u32,
    pub change: i64,
    /// Some optimal plan does without it.
    pub avoidable: bool,
}

impl<'a> BreakEvenReport<'a> {
    pub fn new(board: &'a Board, b: &'a crate::analysis::Balance) -> BreakEvenReport<'a> {
        BreakEvenReport {
            board: &board.name,
            cars: b.cars,
            optimum: b.optimum,
            tickets: &b.tickets,
            routes: b
                .routes
                .iter()
                .map(|i| RouteBlock {
                    name: &i.name,
                    points: i.points,
                    optimum_if_blocked: i.optimum,
                    change: i.change,
                    avoidable: i.change == 0,
                })
                .collect(),
            unfinished: &b.unfinished,
        }
    }
}

/// The answer to `optima` (optima-<cars>.json).
#[derive(Serialize)]
pub struct OptimaReport<'a> {
    pub board: &'a str,
    pub cars: u32,
    pub score: u32,
    /// Number of optimal route sets (a string: it can exceed JSON's exact integers).
    pub count: String,
    pub fewest_cars: u32,
    pub listed: usize,
    pub capped: bool,
    pub tickets: Vec<crate::optima::Share>,
    pub routes: Vec<crate::optima::Share>,
    pub plans: Vec<PlanRow>,
}

/// One listed optimal plan.
#[derive(Serialize)]
pub struct PlanRow {
    pub cars_used: u32,
    pub routes: Vec<String>,
    pub tickets: Vec<String>,
}

impl<'a> OptimaReport<'a> {
    pub fn new(board: &'a Board, o: &crate::optima::Optima) -> OptimaReport<'a> {
        let (tickets, routes) = o.shares(board);
        OptimaReport {
            board: &board.name,
            cars: o.cars,
            score: o.score,
            count: o.count.to_string(),
            fewest_cars: o.fewest_cars,
            listed: o.plans.len(),
            capped: o.capped,
            tickets,
            routes,
            plans: o
                .plans
                .iter()
                .map(|p| PlanRow {
                    cars_used: p.iter().map(|&r| board.route(r).length).sum(),
                    routes: p.iter().map(|&r| board.route_label(r)).collect(),
                    tickets: o
                        .tickets_of(board, p)
                        .iter()
                        .map(|&t| board.ticket_label(t))
                        .collect(),
                })
                .collect(),
        }
    }
}
