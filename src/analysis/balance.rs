//! The balance report: one Markdown page a designer can read about a board.
//!
//! It puts together what the other analyses compute, all from proven optima:
//! the score curve and the points each extra car is worth (one sweep), how
//! often each ticket and route is in the optima of the sweep, each ticket's
//! points per car on its cheapest connection against the board's typical
//! rate, and at the board's own car count the break-even value of every
//! ticket and the cost of losing each route of the optimum; and the luck of
//! the deal over a seeded sample of starting hands.

use std::fmt::Write;

use serde::Serialize;

use crate::analysis::{
    break_even, frequency, AnalysisOptions, Balance, Frequency, Membership, Standing, Step,
};
use crate::board::graph::BoardGraph;
use crate::board::Board;
use crate::plans::deals::{deals_within, keepable_per_hand, DealError, DealOptions, DealReport};
use crate::solve::limits::Limits;
use crate::solve::sweep::{all_proven, sweep_with, SweepEntry, TIE_BREAK};
use crate::solve::SolveError;

/// One budget of the score curve.
#[derive(Clone, Debug, Serialize)]
pub struct CurvePoint {
    /// The budget, in train cars.
    pub cars: u32,
    /// The proven optimum at that budget, in points.
    pub score: u32,
    /// Points of the optimum from completed tickets.
    pub ticket_points: u32,
    /// Points of the optimum from claimed routes.
    pub route_points: u32,
    /// Points the last car added (score at `cars` minus at `cars − 1`).
    pub marginal: i64,
}

/// One ticket's value against its cost.
#[derive(Clone, Debug, Serialize)]
pub struct TicketValue {
    /// The ticket's name, "Los Angeles – New York".
    pub name: String,
    /// Printed points (of a ticket with several trips: of the trip that
    /// pays most per car, whose figures all the columns give).
    pub points: u32,
    /// Cars of the cheapest connection.
    pub cheapest_cars: u32,
    /// Points per car on it.
    pub points_per_car: f64,
    /// The points the board's median rate gives for `cheapest_cars`.
    pub fair_points: u32,
    /// Budgets of the sweep whose reported optimum completes it.
    pub in_sweep_optima: usize,
    /// At the board's car count: in every, some or no optimum (`None`:
    /// its break-even solve was cut short, see `unfinished`).
    pub membership: Option<Membership>,
    /// Points to add before an optimal plan completes it, as in
    /// [`crate::analysis::BreakEven::raise_by`] (`None` also where its solve
    /// was cut short).
    pub raise_by: Option<u32>,
    /// Points to remove before an optimal plan leaves it out, as in
    /// [`crate::analysis::BreakEven::lower_by`] (`None` also where its solve
    /// was cut short).
    pub lower_by: Option<u32>,
    /// The ticket has several trips; the figures are those of its best trip per
    /// car.
    pub several_trips: bool,
    /// Its value as a card: the mean best score of the sampled starting
    /// hands holding it (see [`BalanceReport::deal`]; `None` without one).
    pub hand_value: Option<f64>,
}

impl TicketValue {
    /// Perhaps too generous: in every optimum at the car count and in the
    /// optima of at least half of the `budgets` swept.
    pub fn generous(&self, budgets: usize) -> bool {
        self.membership == Some(Membership::Every) && 2 * self.in_sweep_optima >= budgets
    }

    /// Dead: in no optimum at the car count and in none of the budgets'.
    pub fn dead(&self) -> bool {
        self.membership == Some(Membership::None) && self.in_sweep_optima == 0
    }
}

/// Everything in the report, also written as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct BalanceReport {
    /// The board's short name.
    pub board: String,
    /// The board's title, or its name when it has none.
    pub title: String,
    /// The budget analysed, in train cars: the sweep covers 1 to `cars`.
    pub cars: u32,
    /// The optimum at `cars`, in points.
    pub optimum: u32,
    /// The optimum of every budget from 1 to `cars`.
    pub curve: Vec<CurvePoint>,
    /// Median ticket points per car on the cheapest connection.
    pub median_rate: f64,
    /// Every ticket, most points per car first.
    pub tickets: Vec<TicketValue>,
    /// How often each ticket and route is in the sweep's reported optima.
    pub frequency: Frequency,
    /// Routes of the optimum at `cars`: the optimum if each were blocked.
    pub blocking: Vec<crate::analysis::Impact>,
    /// The luck of the deal over a seeded sample of starting hands (`None`
    /// when the deck is too small to deal a hand).
    pub deal: Option<DealReport>,
    /// Tickets and routes whose break-even or blocking solve the run's time
    /// limit (or Ctrl-C) cut short: their cells are missing. Empty when the
    /// report is complete.
    pub unfinished: Vec<String>,
    /// Wall-clock time of the whole report, in seconds.
    pub seconds: f64,
}

/// What a balance report has just finished: a budget of its sweep, or a
/// solve of its break-even analysis.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A budget of the sweep is proven.
    Budget(&'a SweepEntry),
    /// A solve of the break-even analysis has finished.
    Step(crate::analysis::Step<'a>),
    /// A solve of the deal's sample has finished, of `total`.
    Deal {
        /// Solves the sample needs at most.
        total: usize,
    },
}

/// Subset solves the report's deal sample aims at: enough hands for the
/// shape of the distribution and each ticket's value as a card, in seconds
/// (the whole deal is `ttr-opt deals`).
pub const DEAL_SOLVES: usize = 1200;

/// The deal the report samples: as the rules deal it, 3 tickets keeping 2
/// (with long tickets on the board, as Europe: 1 long and 3 others, keeping
/// 2), and as many seeded hands as [`DEAL_SOLVES`] subsets allow.
pub fn deal_sample(board: &Board, cars: u32) -> DealOptions {
    let long = usize::from(board.cards.iter().any(|c| c.long));
    let (hand, keep) = if long == 1 { (4, 2) } else { (3, 2) };
    DealOptions {
        cars,
        hand,
        long,
        keep,
        sample: Some(((DEAL_SOLVES / keepable_per_hand(hand, keep)).max(20), 1)),
    }
}

/// How [`balance`] runs: on how many threads, within which limits,
/// telling whom of each budget of the sweep and each break-even solve.
/// The default: one thread, no limits, no one told.
#[derive(Clone)]
pub struct BalanceOptions<'a> {
    /// Solver threads (0 or 1: one).
    pub threads: usize,
    /// The call's limits: past them, [`SolveError::TimeLimit`] (or the
    /// parts cut short, listed).
    pub limits: Limits,
    /// Hears about each budget of the sweep and each break-even solve.
    pub progress: &'a (dyn Fn(Progress) + Sync),
}

impl Default for BalanceOptions<'_> {
    fn default() -> Self {
        BalanceOptions::threads(1)
    }
}

impl BalanceOptions<'_> {
    /// No limits, no one told, on `threads` threads.
    pub fn threads(threads: usize) -> Self {
        BalanceOptions {
            threads,
            limits: Limits::none(),
            progress: &|_| {},
        }
    }
}

/// Runs the analyses for `board` at `cars` (the sweep covers 1..=cars).
pub fn balance(
    board: &Board,
    cars: u32,
    options: &BalanceOptions,
) -> Result<(BalanceReport, Vec<SweepEntry>), SolveError> {
    let &BalanceOptions {
        threads,
        ref limits,
        progress,
    } = options;
    let started = std::time::Instant::now();
    let cars = cars.max(1);
    let options = deal_sample(board, cars);
    let nothing = |_| Ok(crate::solve::sweep::Prior::Nothing);
    let entries = sweep_with(board, 1, cars, threads, limits, &nothing, &|e| {
        progress(Progress::Budget(e))
    })?;
    all_proven(board, &entries)?;
    let base = entries
        .iter()
        .find(|e| e.cars == cars)
        .map(|e| e.outcome.clone());
    let sample = |pool: Result<rayon::ThreadPool, SolveError>| {
        pool.map_err(DealError::Solve)?.install(|| {
            deals_within(board, &options, limits, &|| {
                progress(Progress::Deal { total: DEAL_SOLVES })
            })
        })
    };
    // The deal's sample needs nothing of the break-even: on more than one
    // thread it runs beside it, at the lowest priority, on the time its
    // solves leave a core idle (the family search's lanes waiting for each
    // other, the last solves running alone), and what is left of it after.
    // (Beside the sweep too, it slowed the sweep's frontier run more than
    // it gained: Europe's report 121 -> 127 s, one run each.) On one thread
    // it comes after, as asked.
    let beside = threads > 1;
    let (balance, deal) = std::thread::scope(|scope| {
        let deal = beside.then(|| scope.spawn(|| sample(crate::solve::idle_pool(threads))));
        let step = |step: Step| progress(Progress::Step(step));
        let options = AnalysisOptions {
            threads,
            base,
            limits: limits.clone(),
            progress: &step,
        };
        let balance = break_even(board, cars, &options);
        let deal = deal.map(|d| d.join().expect("the deal sample does not panic"));
        (balance, deal)
    });
    let Balance {
        optimum,
        tickets: break_even_rows,
        routes: blocking,
        unfinished,
        ..
    } = balance?;
    let freq = frequency(board, entries.iter().map(|e| &e.outcome.plan));
    let deal = match deal.unwrap_or_else(|| sample(crate::solve::worker_pool(threads))) {
        Ok(report) => Some(report),
        // A deck too small for a hand has no deal to report.
        Err(DealError::Invalid(_)) => None,
        Err(DealError::Solve(e)) => return Err(e),
    };

    let curve = curve_of(&entries);
    let standings: Vec<Standing> = break_even_rows.iter().map(Standing::from).collect();
    let (median_rate, tickets) = ticket_values(board, &entries, &standings, deal.as_ref());
    let report = BalanceReport {
        board: board.name.clone(),
        title: if board.title.is_empty() {
            board.name.clone()
        } else {
            board.title.clone()
        },
        cars,
        optimum,
        curve,
        median_rate,
        tickets,
        frequency: freq,
        blocking,
        deal,
        unfinished,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((report, entries))
}

/// The score curve of a sweep: each budget's optimum, its parts, and the
/// points its last car added.
fn curve_of(entries: &[SweepEntry]) -> Vec<CurvePoint> {
    let mut curve = Vec::new();
    let mut last = 0i64;
    for e in entries {
        let plan = &e.outcome.plan;
        curve.push(CurvePoint {
            cars: e.cars,
            score: plan.score(),
            ticket_points: plan.ticket_points,
            route_points: plan.route_points,
            marginal: plan.score() as i64 - last,
        });
        last = plan.score() as i64;
    }
    curve
}

/// Every ticket's cost and points per car (its cheapest connection, the
/// board's median rate), known before any solve: the columns that need a
/// solve are empty (`membership`, break-even values, the hand's value;
/// `in_sweep_optima` 0). The designer page shows them at once.
pub fn ticket_rates(board: &Board) -> (f64, Vec<TicketValue>) {
    ticket_values(board, &[], &[], None)
}

/// The report's ticket table from a sweep of 1 to the car count and the
/// tickets' standings at it, without the deal's column: the rows `tune`
/// measures a revised board by, the same as `balance` writes for it (but
/// break-even values past the standings' reach).
pub fn ticket_table(
    board: &Board,
    entries: &[SweepEntry],
    standings: &[Standing],
) -> (f64, Vec<TicketValue>) {
    ticket_values(board, entries, standings, None)
}

/// Every ticket's value against its cost, most points per car first, with
/// the median rate: its cheapest connection, how often the sweep's optima
/// complete it, its break-even values (its standing, where its solve
/// finished) and its value in the `deal`'s hands.
fn ticket_values(
    board: &Board,
    entries: &[SweepEntry],
    standings: &[Standing],
    deal: Option<&DealReport>,
) -> (f64, Vec<TicketValue>) {
    // Cheapest connection of every trip, by Dijkstra over route lengths; of
    // a ticket with several trips, the trip paying most per car (its points,
    // cars and rate together).
    let graph = BoardGraph::new(board, board.route_ids());
    let rates: Vec<(u32, u32, f64)> = board
        .cards
        .iter()
        .map(|card| {
            card.trips
                .iter()
                .filter_map(|&t| {
                    let trip = board.ticket(t);
                    let d = graph.distances(trip.a, |r| board.route(r).length)[trip.b.0]?.max(1);
                    Some((trip.points, d, trip.points as f64 / d as f64))
                })
                .max_by(|x, y| x.2.total_cmp(&y.2))
                .unwrap_or((0, 0, 0.0))
        })
        .collect();
    // Per trip's card: budgets whose plan completes it (by index: names of
    // identical cards repeat).
    let mut in_sweep = vec![0usize; board.tickets.len()];
    for e in entries {
        for &t in &e.outcome.plan.tickets {
            in_sweep[board.cards[board.ticket(t).card].trips[0].0] += 1;
        }
    }
    let mut sorted: Vec<f64> = rates.iter().map(|r| r.2).collect();
    sorted.sort_by(f64::total_cmp);
    let median_rate = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let mut tickets: Vec<TicketValue> = board
        .cards
        .iter()
        .enumerate()
        .zip(&rates)
        .map(|((c, card), &(points, cheapest_cars, rate))| {
            // A row is missing where the time limit cut its solve short.
            let be = standings.iter().find(|b| b.card == c);
            TicketValue {
                name: card.name.clone(),
                points,
                cheapest_cars,
                points_per_car: rate,
                fair_points: (median_rate * cheapest_cars as f64).round() as u32,
                in_sweep_optima: in_sweep[card.trips[0].0],
                membership: be.map(|b| b.membership),
                raise_by: be.and_then(|b| b.raise_by),
                lower_by: be.and_then(|b| b.lower_by),
                several_trips: card.trips.len() > 1,
                hand_value: deal
                    .as_ref()
                    .and_then(|d| d.tickets.iter().find(|v| v.card == c))
                    .filter(|v| v.hands > 0)
                    .map(|v| v.mean_best),
            }
        })
        .collect();
    tickets.sort_by(|a, b| b.points_per_car.total_cmp(&a.points_per_car));
    (median_rate, tickets)
}

impl BalanceReport {
    /// The report as Markdown; `figures` are the image files beside it
    /// (score curve, frequency, map), linked if present.
    pub fn markdown(&self, figures: &[(&str, &str)]) -> String {
        let mut md = String::new();
        let w = &mut md;
        self.write_intro(w, figures);
        self.write_curve(w);
        self.write_tickets(w);
        self.write_candidates(w);
        if let Some(d) = &self.deal {
            self.write_deal(w, d);
        }
        self.write_routes(w);
        let _ = writeln!(w, "\n*Tie-break among alternate optima:* {TIE_BREAK}");
        let _ = writeln!(w, "\n*Computed in {:.0} s.*", self.seconds);
        md
    }

    /// The title, what the numbers are, what is missing if a time limit
    /// cut the run short, and the figures.
    fn write_intro(&self, w: &mut String, figures: &[(&str, &str)]) {
        let _ = writeln!(w, "# Balance report: {}\n", self.title);
        let _ = writeln!(
            w,
            "Every number below comes from proven optimal plans of a single player who \
             may pick any tickets (Schaefer & Schaefer's question), checked by an \
             independent union-find. {} train cars; the optimum is **{} points**.\n",
            self.cars, self.optimum
        );
        if !self.unfinished.is_empty() {
            let _ = writeln!(
                w,
                "**Incomplete:** the run's time limit (or Ctrl-C) stopped the solves for {} \
                 before they were proven; their cells show `?` or are missing. Run again with \
                 more time for the whole report.\n",
                self.unfinished.join(", ")
            );
        }
        for (caption, file) in figures {
            let _ = writeln!(w, "![{caption}]({file})\n");
        }
    }

    /// The score curve: a car's average worth, the biggest step, the
    /// budgets where a car adds nothing, and the table of every budget.
    fn write_curve(&self, w: &mut String) {
        let _ = writeln!(w, "## Score curve and marginal points per car\n");
        let best = self
            .curve
            .iter()
            .max_by_key(|p| (p.marginal, std::cmp::Reverse(p.cars)));
        let flat: Vec<String> = self
            .curve
            .iter()
            .filter(|p| p.marginal <= 0)
            .map(|p| p.cars.to_string())
            .collect();
        let avg = self.optimum as f64 / self.cars as f64;
        let _ = writeln!(
            w,
            "On average a car is worth {avg:.1} points. The biggest single step is first \
             reached at {} cars (+{}). {}\n",
            best.map_or(0, |p| p.cars),
            best.map_or(0, |p| p.marginal),
            if flat.is_empty() {
                "Every extra car raises the optimum.".to_string()
            } else {
                format!("An extra car adds nothing at {} cars.", flat.join(", "))
            }
        );
        let _ = writeln!(w, "| cars | optimum | tickets | routes | +last car |");
        let _ = writeln!(w, "| ---: | ---: | ---: | ---: | ---: |");
        for p in &self.curve {
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} | {:+} |",
                p.cars, p.score, p.ticket_points, p.route_points, p.marginal
            );
        }
    }

    /// The tickets' table: points per car against the median rate, how
    /// often each is in the sweep's optima, and its break-even values.
    fn write_tickets(&self, w: &mut String) {
        let _ = writeln!(w, "\n## Tickets: value against cost\n");
        let _ = writeln!(
            w,
            "Points per car on the cheapest connection; the board's median is {:.2}. \
             *Fair* is what the median rate pays for that many cars. *Optima* counts \
             the budgets 1–{} whose optimum completes the ticket (one plan per budget, the \
             sweep's tie-break). *At {}*: in every, some or no optimum, and how many points \
             would change that (break-even).\n",
            self.median_rate, self.cars, self.cars
        );
        let _ = writeln!(
            w,
            "| ticket | points | cheapest cars | points/car | fair | optima | at {} | raise by | lower by |",
            self.cars
        );
        let _ = writeln!(
            w,
            "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
        );
        let opt = |v: Option<u32>| v.map_or("never".to_string(), |v| v.to_string());
        for t in &self.tickets {
            let (raise, lower) = match t.membership {
                Some(Membership::None) => (opt(t.raise_by), "–".to_string()),
                Some(Membership::Every) if t.several_trips => ("–".to_string(), "n/a".to_string()),
                Some(Membership::Every) => ("–".to_string(), opt(t.lower_by)),
                Some(Membership::Some) => ("0".to_string(), "0".to_string()),
                None => ("?".to_string(), "?".to_string()),
            };
            let _ = writeln!(
                w,
                "| {} | {} | {} | {:.2} | {} | {} | {} | {} | {} |",
                t.name,
                t.points,
                t.cheapest_cars,
                t.points_per_car,
                t.fair_points,
                t.in_sweep_optima,
                membership(t.membership),
                raise,
                lower
            );
        }
    }

    /// The tickets perhaps valued too high or too low: in every optimum and
    /// most budgets', or in none.
    fn write_candidates(&self, w: &mut String) {
        let budgets = self.curve.len();
        let names = |keep: &dyn Fn(&TicketValue) -> bool| -> String {
            let v: Vec<String> = self
                .tickets
                .iter()
                .filter(|t| keep(t))
                .map(|t| format!("{} ({})", t.name, t.points))
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        let _ = writeln!(w, "\n**Candidates for re-valuing**\n");
        let _ = writeln!(
            w,
            "- In every optimum at {} cars and in the optima of at least half the budgets \
             (perhaps too generous): {}",
            self.cars,
            names(&|t| t.generous(budgets))
        );
        let _ = writeln!(
            w,
            "- In no optimum at {} cars and in none of the budgets' optima (perhaps too \
             stingy, or too long for the car count): {}",
            self.cars,
            names(&|t| t.dead())
        );
    }

    /// The luck of the deal `d`: the spread of the sampled hands' worth,
    /// the tickets that are gifts and traps, and the best hand.
    fn write_deal(&self, w: &mut String, d: &DealReport) {
        let _ = writeln!(w, "\n## The luck of the deal\n");
        let long = if d.long > 0 {
            format!(", {} of them from the long-route deck", d.long)
        } else {
            String::new()
        };
        let _ = writeln!(
            w,
            "A seeded sample of {} starting hands of {} tickets{long} (of {} possible), \
             each valued by the best score it allows alone on the board at {} cars, \
             keeping at least {} of its tickets{}. `ttr-opt deals` values every hand.\n",
            d.hands_valued,
            d.hand,
            d.hands_possible,
            d.cars,
            d.keep,
            if d.all_proven {
                ""
            } else {
                " (a time limit left some solves unproven)"
            }
        );
        let _ = writeln!(
            w,
            "- A hand is worth {} to {} points: median {:.0}, 10th percentile {:.0}, \
             90th {:.0}; {:.1} % of the hands come within 10 % of the best hand sampled.",
            d.min,
            d.max,
            d.median,
            d.p10,
            d.p90,
            d.within_10_percent * 100.0
        );
        let cards = |v: &[&crate::plans::deals::CardValue]| -> String {
            v.iter()
                .map(|c| format!("{} ({}, {:.1})", c.ticket, c.points, c.mean_best))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let held: Vec<&crate::plans::deals::CardValue> =
            d.tickets.iter().filter(|c| c.hands > 0).collect();
        let top: Vec<_> = held.iter().take(5).copied().collect();
        let bottom: Vec<_> = held.iter().rev().take(5).copied().collect();
        let _ = writeln!(
            w,
            "- Gifts, by the mean value of the hands holding them: {}",
            cards(&top)
        );
        let _ = writeln!(w, "- Traps: {}", cards(&bottom));
        if let Some(best) = d.best_hands.first() {
            let _ = writeln!(
                w,
                "- Best hand sampled: {} ({} points, keeping {})",
                best.hand.join(", "),
                best.best,
                best.keep.join(", ")
            );
        }
    }

    /// The routes most and never used over the budgets' optima, and the
    /// cost of losing each route of the optimum.
    fn write_routes(&self, w: &mut String) {
        let budgets = self.curve.len();
        let _ = writeln!(w, "\n## Routes\n");
        let used = |keep: &dyn Fn(usize) -> bool| -> String {
            let v: Vec<String> = self
                .frequency
                .routes
                .iter()
                .filter(|c| keep(c.count))
                .map(|c| format!("{} ({})", c.name, c.count))
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        let top = self.frequency.routes.get(9).map_or(1, |c| c.count.max(1));
        let _ = writeln!(
            w,
            "- Most used over the {} budgets' optima: {}",
            budgets,
            used(&|c| c >= top)
        );
        let _ = writeln!(
            w,
            "- Never in an optimum of any budget: {}",
            used(&|c| c == 0)
        );
        let _ = writeln!(
            w,
            "\nAt {} cars, the optimum if an opponent took a route of the optimal plan \
             (0: some optimum avoids it):\n",
            self.cars
        );
        let _ = writeln!(w, "| route | points | optimum if blocked | change |");
        let _ = writeln!(w, "| --- | ---: | ---: | ---: |");
        for r in &self.blocking {
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} |",
                r.name, r.points, r.optimum, r.change
            );
        }
    }
}

fn membership(m: Option<Membership>) -> &'static str {
    match m {
        Some(Membership::Every) => "every",
        Some(Membership::Some) => "some",
        Some(Membership::None) => "none",
        None => "?",
    }
}
