//! What the commands report: a table for people, JSON for programs (the
//! shapes the CLI writes and the Python package returns).
//!
//! The JSON schema is documented in docs/formats.md ("JSON output") and is stable:
//! fields may be added, never renamed or removed.

use std::fmt::Write as _;

use serde::Serialize;

use crate::board::{Board, Colour};
use crate::solve::{Outcome, Produced};

/// A claimed route in the JSON output.
#[derive(Serialize)]
pub struct RouteRow {
    /// One end, as the board file lists it.
    pub from: String,
    /// The other end.
    pub to: String,
    /// Train cars the route takes.
    pub length: u32,
    /// Colour of each parallel track; a player claims one of them.
    pub colours: Vec<Colour>,
    /// Points the route scores.
    pub points: u32,
}

/// A completed ticket in the JSON output (of a ticket with several trips, the
/// trip completed).
#[derive(Serialize)]
pub struct TicketRow {
    /// One city of the trip, as the board file lists it.
    pub from: String,
    /// The other city.
    pub to: String,
    /// Points the trip scores.
    pub points: u32,
}

pub use crate::solve::Status;

/// The answer to `solve`, in the documented JSON schema.
#[derive(Serialize)]
pub struct SolveReport {
    /// The board's short name.
    pub board: String,
    /// The budget, in train cars.
    pub cars: u32,
    /// The plan's score: `ticket_points + route_points`.
    pub score: u32,
    /// Points from completed tickets.
    pub ticket_points: u32,
    /// Points from claimed routes.
    pub route_points: u32,
    /// Train cars the plan needs (at most `cars`).
    pub cars_used: u32,
    /// Whether the plan is proven optimal.
    pub status: Status,
    /// Proven upper bound on the optimum.
    pub bound: u32,
    /// (bound − score) / bound; 0 when proven optimal.
    pub gap: f64,
    /// Wall-clock time of the solve, in seconds (to the millisecond).
    pub seconds: f64,
    /// The method that produced the answer (never `auto`).
    pub method: Produced,
    /// The claimed routes, in board order.
    pub routes: Vec<RouteRow>,
    /// The completed tickets, in board order.
    pub tickets: Vec<TicketRow>,
    /// The single player's maximum under the board's own rules: `score`
    /// plus `station_points` and `longest_path_bonus` (only for a board
    /// with rules of its own, so that the original board's output is
    /// unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_score: Option<u32>,
    /// Points of the stations a single player alone leaves unbuilt: all
    /// of them, as no other player's route is there to borrow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub station_points: Option<u32>,
    /// The longest-path bonus, which a single player alone always holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_path_bonus: Option<u32>,
    /// The solver's work: solves, cuts and nodes.
    pub solver: SolverStats,
    /// Messages about the input (tickets dropped at load, …).
    pub warnings: Vec<String>,
}

/// How much work the solve took.
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
    /// The report of `outcome`, the answer for `cars` cars on `board`.
    pub fn new(board: &Board, cars: u32, outcome: &Outcome) -> SolveReport {
        let plan = &outcome.plan;
        let city = |c: crate::board::CityId| board.city(c).name.clone();
        let extra = RulesExtra::of_board(board);
        SolveReport {
            board: board.name.clone(),
            cars,
            score: plan.score(),
            ticket_points: plan.ticket_points,
            route_points: plan.route_points,
            cars_used: plan.cars_used,
            status: outcome.status(),
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
            rules_score: extra.map(|e| plan.score() + e.stations + e.bonus),
            station_points: extra.map(|e| e.stations),
            longest_path_bonus: extra.map(|e| e.bonus),
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
        if let (Some(total), Some(stations), Some(bonus)) = (
            self.rules_score,
            self.station_points,
            self.longest_path_bonus,
        ) {
            let _ = writeln!(
                out,
                "Under the board's rules, one player alone: {total} points ({} above + the lines below)",
                self.score
            );
            let _ = writeln!(
                out,
                "  unbuilt stations  {stations:>4}  (no other player's route to borrow: every station stays unbuilt)"
            );
            let _ = writeln!(
                out,
                "  longest path      {bonus:>4}  (a single player alone holds the longest path)"
            );
        }

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

/// What the board's own rules add to a single player's score: every
/// station unbuilt, and the longest-path bonus. `None` for a board that
/// plays the original game's rules (its reports stay the paper's).
#[derive(Clone, Copy)]
struct RulesExtra {
    stations: u32,
    bonus: u32,
}

impl RulesExtra {
    fn of_board(board: &Board) -> Option<RulesExtra> {
        let own = board.has_own_rules() || board.rules != crate::board::rules::Rules::default();
        own.then(|| RulesExtra {
            stations: board
                .rules
                .stations
                .as_ref()
                .map_or(0, |s| s.count() as u32 * s.points),
            bonus: board.rules.longest_path_bonus,
        })
    }
}

/// One element of sweep.json: the `solve` schema plus the budget whose
/// solve found the reported plan (see the tie-break).
#[derive(Serialize)]
pub struct SweepReport {
    /// The budget whose solve found the reported plan (`cars` or less).
    pub plan_from: u32,
    /// The `solve` fields, flattened into the same object.
    #[serde(flatten)]
    pub report: SolveReport,
}

impl SweepReport {
    /// The report of one sweep entry.
    pub fn new(board: &Board, e: &crate::solve::sweep::SweepEntry) -> SweepReport {
        SweepReport {
            plan_from: e.plan_from,
            report: SolveReport::new(board, e.cars, &e.outcome),
        }
    }
}

/// The answer to `sensitivity` (`sensitivity-<cars>.json`).
#[derive(Serialize)]
pub struct SensitivityReport<'a> {
    /// The board's short name.
    pub board: &'a str,
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum with every ticket and route, in points.
    pub optimum: u32,
    /// One row per ticket of the optimal plan, largest loss first.
    pub tickets: &'a [crate::analysis::Impact],
    /// One row per route of the optimal plan, largest loss first.
    pub routes: &'a [crate::analysis::Impact],
    /// Tickets and routes whose solve the time limit cut short (no row).
    pub unfinished: &'a [String],
}

impl<'a> SensitivityReport<'a> {
    /// The report of a sensitivity analysis of `board`.
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

/// The answer to `breakeven` (`breakeven-<cars>.json`).
#[derive(Serialize)]
pub struct BreakEvenReport<'a> {
    /// The board's short name.
    pub board: &'a str,
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum at that budget, in points.
    pub optimum: u32,
    /// Every ticket of the board, in board order, with its break-even values.
    pub tickets: &'a [crate::analysis::BreakEven],
    /// Every route of the reported optimal plan, with the optimum if blocked.
    pub routes: Vec<RouteBlock<'a>>,
    /// Tickets and routes whose solves the time limit cut short (no row).
    pub unfinished: &'a [String],
}

/// A route of the optimum and the optimum without it.
#[derive(Serialize)]
pub struct RouteBlock<'a> {
    /// "Denver – Kansas City".
    pub name: &'a str,
    /// The route's own points.
    pub points: u32,
    /// The optimum with the route taken by an opponent, in points.
    pub optimum_if_blocked: u32,
    /// `optimum_if_blocked` minus the optimum (zero or negative).
    pub change: i64,
    /// Some optimal plan does without it.
    pub avoidable: bool,
}

impl<'a> BreakEvenReport<'a> {
    /// The report of a break-even analysis of `board`.
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

/// The answer to `optima` (`optima-<cars>.json`).
#[derive(Serialize)]
pub struct OptimaReport<'a> {
    /// The board's short name.
    pub board: &'a str,
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum, in points.
    pub score: u32,
    /// Number of optimal route sets (a string: it can exceed JSON's exact integers).
    pub count: String,
    /// The fewest train cars an optimal plan uses.
    pub fewest_cars: u32,
    /// Optimal plans listed in `plans`.
    pub listed: usize,
    /// More optimal plans exist than are listed.
    pub capped: bool,
    /// Tickets completed by at least one optimal plan, most often first.
    pub tickets: Vec<crate::analysis::optima::Share>,
    /// Routes claimed by at least one optimal plan, most often first.
    pub routes: Vec<crate::analysis::optima::Share>,
    /// The listed optimal plans, fewest cars first.
    pub plans: Vec<PlanRow>,
}

/// One listed optimal plan.
#[derive(Serialize)]
pub struct PlanRow {
    /// Train cars the plan uses.
    pub cars_used: u32,
    /// The plan's routes, in board order.
    pub routes: Vec<String>,
    /// The tickets the plan completes, in board order.
    pub tickets: Vec<String>,
}

impl<'a> OptimaReport<'a> {
    /// The report of the optimal plans `o` of `board`.
    pub fn new(board: &'a Board, o: &crate::analysis::optima::Optima) -> OptimaReport<'a> {
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

/// The answer to a sweep's frequency table (`frequency.json`): how often
/// each ticket and route is in the reported optimum of the budgets.
#[derive(Serialize)]
pub struct FrequencyReport<'a> {
    /// The board's short name.
    pub board: &'a str,
    /// The smallest budget of the sweep, in train cars.
    pub from: u32,
    /// The largest budget of the sweep, in train cars.
    pub to: u32,
    /// How the sweep picks one plan among a budget's optima.
    pub tie_break: &'static str,
    /// The counts, flattened into the same object: `plans`, `tickets`,
    /// `routes`.
    #[serde(flatten)]
    pub frequency: &'a crate::analysis::Frequency,
}

impl<'a> FrequencyReport<'a> {
    /// The report of the frequency table of a sweep of `board` over budgets
    /// `from` to `to`.
    pub fn new(
        board: &'a Board,
        from: u32,
        to: u32,
        frequency: &'a crate::analysis::Frequency,
    ) -> FrequencyReport<'a> {
        FrequencyReport {
            board: &board.name,
            from,
            to,
            tie_break: crate::solve::sweep::TIE_BREAK,
            frequency,
        }
    }
}

/// The answer to `sweep --all-optima` (`frequency-optima.json`): every
/// ticket and route over every optimal plan of every budget.
#[derive(Serialize)]
pub struct SweepOptimaReport<'a> {
    /// The board's short name.
    pub board: &'a str,
    /// The counts, flattened into the same object.
    #[serde(flatten)]
    pub optima: &'a crate::analysis::optima::SweepOptima,
}

/// The answer to `simulate` (`simulate-<players>.json`).
#[derive(Serialize)]
pub struct SimulateReport {
    /// The board's short name.
    pub board: String,
    /// The strategies at the table, in the first game's seat order (the seats
    /// rotate from game to game).
    pub players: Vec<String>,
    /// Games finished (fewer than asked if a time limit stopped the run).
    pub games: u64,
    /// The seed of the first game; game g is played with `seed + g`.
    pub seed: u64,
    /// The single-player optimum the gaps are measured against.
    pub optimum: u32,
    /// Wall-clock time of the run, in seconds.
    pub seconds: f64,
    /// Games finished per second of the run.
    pub games_per_second: f64,
    /// Games that ended because no player could move.
    pub stalled: usize,
    /// The score distribution of each strategy, in order of first appearance in
    /// `players`.
    pub strategies: Vec<crate::leagues::simulate::Summary>,
    /// Per strategy: the routes claimed most often in play (share of its
    /// seats), beside their share of the optima of a sweep when known.
    pub routes: Vec<RouteShare>,
    /// How often the board's own rules were used, over all games (only on
    /// a board with tunnels, ferries or stations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_used: Option<crate::leagues::simulate::RulesUsed>,
}

/// A route a strategy claims often, in play and in the optima.
#[derive(Serialize)]
pub struct RouteShare {
    /// The strategy's name.
    pub strategy: String,
    /// "Denver – Kansas City".
    pub route: String,
    /// Share of the strategy's seats that claimed the route (0 to 1).
    pub in_play: f64,
    /// The route's share of a sweep's reported optima (from `frequency.json`),
    /// when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_optima: Option<f64>,
}

impl SimulateReport {
    /// The report of `played` games between `players`; `in_optima` gives
    /// each route's share of a sweep's optima (from `frequency.json`), when
    /// one is known, to set beside its share in play.
    pub fn new(
        board: &Board,
        players: &[&str],
        seed: u64,
        optimum: u32,
        seconds: f64,
        played: &[crate::leagues::simulate::Played],
        in_optima: Option<&crate::analysis::Frequency>,
    ) -> SimulateReport {
        use crate::leagues::simulate::{route_shares, summarise};
        let strategies = summarise(played, players, optimum);
        let mut routes = Vec::new();
        for s in &strategies {
            let shares = route_shares(board, played, &s.strategy);
            let mut ranked: Vec<(usize, f64)> = shares.into_iter().enumerate().collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (r, share) in ranked.into_iter().take(10) {
                let route = board.route_label(crate::board::RouteId(r));
                let in_optima = in_optima
                    .and_then(|f| f.routes.iter().find(|c| c.name == route))
                    .map(|c| c.share);
                routes.push(RouteShare {
                    strategy: s.strategy.clone(),
                    route,
                    in_play: share,
                    in_optima,
                });
            }
        }
        let games = played.len() as u64;
        SimulateReport {
            board: board.name.clone(),
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            seed,
            optimum,
            seconds,
            games_per_second: games as f64 / seconds.max(1e-9),
            stalled: played.iter().filter(|p| p.stalled).count(),
            strategies,
            routes,
            rules_used: board.has_own_rules().then(|| {
                played.iter().fold(
                    Default::default(),
                    |all: crate::leagues::simulate::RulesUsed, p| all + p.used,
                )
            }),
        }
    }
}
