//! The human tables of the analyses: what the CLI prints without `--json`,
//! built from the same reports as the JSON (so the two never disagree).
//! `solve` and `replan` keep theirs beside their reports.

use std::fmt::Write as _;

use crate::analysis::optima::SweepOptima;
use crate::analysis::scenario::Comparison;
use crate::analysis::{Frequency, Membership};
use crate::output::report::{
    BreakEvenReport, OptimaReport, SensitivityReport, SimulateReport, Status, SweepReport,
};

impl SensitivityReport<'_> {
    /// The optimum, then one line per ticket and route of the optimal plan.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Optimum with {} cars: {} points",
            self.cars, self.optimum
        );
        for (title, what, impacts) in [
            ("Ticket removed from the game", "Ticket", self.tickets),
            ("Route taken by an opponent", "Route", self.routes),
        ] {
            let _ = writeln!(out, "\n{title}");
            let _ = writeln!(
                out,
                "  {:<34} {:>6} {:>8} {:>7}",
                what, "Points", "Optimum", "Change"
            );
            for i in impacts {
                let _ = writeln!(
                    out,
                    "  {:<34} {:>6} {:>8} {:>7}",
                    i.name, i.points, i.optimum, i.change
                );
            }
        }
        out
    }
}

impl BreakEvenReport<'_> {
    /// Every ticket's break-even values, then the blocking cost of every
    /// route of the optimum, with a legend.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let opt = |v: Option<u32>| v.map_or("-".to_string(), |x| x.to_string());
        let _ = writeln!(
            out,
            "Optimum with {} cars: {} points\n",
            self.cars, self.optimum
        );
        let _ = writeln!(
            out,
            "  {:<34} {:>6}  {:<10} {:>9} {:>9} {:>8} {:>8}",
            "Ticket", "Points", "In optima", "Best with", "Without", "Raise by", "Lower by"
        );
        for t in self.tickets {
            let membership = match t.membership {
                Membership::Every => "every",
                Membership::Some => "some",
                Membership::None => "none",
            };
            let lower = match (t.membership, t.lower_by) {
                (Membership::Every, None) if t.several_trips => "n/a".to_string(),
                (Membership::Every, None) => "never".to_string(),
                (_, v) => opt(v),
            };
            let _ = writeln!(
                out,
                "  {:<34} {:>6}  {:<10} {:>9} {:>9} {:>8} {:>8}",
                t.name,
                t.points,
                membership,
                opt(t.best_with),
                t.best_without,
                opt(t.raise_by),
                lower
            );
        }
        out.push_str("\n  Raise by: points to add before an optimum completes the ticket (a tie; one more and every optimum does).\n");
        out.push_str("  Lower by: points to remove before an optimum leaves it out; never: completed even at 0 points.\n");
        let _ = writeln!(
            out,
            "\n  {:<34} {:>6} {:>10} {:>7}  avoidable",
            "Route of the optimum", "Points", "If blocked", "Change"
        );
        for b in &self.routes {
            let _ = writeln!(
                out,
                "  {:<34} {:>6} {:>10} {:>7}  {}",
                b.name,
                b.points,
                b.optimum_if_blocked,
                b.change,
                if b.avoidable { "yes" } else { "no" }
            );
        }
        out
    }
}

impl OptimaReport<'_> {
    /// The count, each ticket's and route's share of the optima, and the
    /// plans listed.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} optimal plan(s) of {} points with {} cars (the fewest cars any uses: {})",
            self.count, self.score, self.cars, self.fewest_cars
        );
        for (title, rows) in [("Tickets", &self.tickets), ("Routes", &self.routes)] {
            let _ = writeln!(out, "\n{title} in the optimal plans");
            let _ = writeln!(out, "  {:<34} {:>6} {:>7}", "", "Points", "Share");
            for s in rows {
                let _ = writeln!(
                    out,
                    "  {:<34} {:>6} {:>6.1}%",
                    s.name,
                    s.points,
                    s.share * 100.0
                );
            }
        }
        for (k, p) in self.plans.iter().enumerate() {
            let _ = writeln!(
                out,
                "\nPlan {} ({} cars): {}",
                k + 1,
                p.cars_used,
                p.routes.join(", ")
            );
            let _ = writeln!(out, "  tickets: {}", p.tickets.join(", "));
        }
        if self.capped {
            let _ = writeln!(
                out,
                "\n(listed {} of {}; --max lists more)",
                self.listed, self.count
            );
        }
        out
    }
}

/// The sweep's table: one line per budget, the count of proven budgets,
/// and the tickets and routes most often in the reported plans.
pub fn sweep(reports: &[SweepReport], freq: &Frequency, seconds: f64, threads: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5} {:>6} {:>8} {:>7} {:>5}  {:<9} {:>8}",
        "cars", "score", "tickets", "routes", "used", "method", "status"
    );
    for r in reports.iter().map(|r| &r.report) {
        let _ = writeln!(
            out,
            "{:>5} {:>6} {:>8} {:>7} {:>5}  {:<9} {:>8}",
            r.cars,
            r.score,
            r.ticket_points,
            r.route_points,
            r.cars_used,
            r.method.name(),
            if r.status == Status::Optimal {
                "optimal"
            } else {
                "UNPROVEN"
            }
        );
    }
    let proven = reports
        .iter()
        .filter(|r| r.report.status == Status::Optimal)
        .count();
    let _ = writeln!(
        out,
        "\n{} budgets, {proven} proven optimal, in {seconds:.1} s on {threads} threads",
        reports.len(),
    );
    let _ = writeln!(out, "\nTie-break: {}", crate::solve::sweep::TIE_BREAK);
    for (title, rows) in [
        ("Tickets most often completed", &freq.tickets),
        ("Routes most often claimed", &freq.routes),
    ] {
        let _ = writeln!(out, "\n{title} (over {} optima)", freq.plans);
        let _ = writeln!(out, "  {:<34} {:>6} {:>6}", "", "Points", "Count");
        for c in rows.iter().take(10) {
            let _ = writeln!(out, "  {:<34} {:>6} {:>6}", c.name, c.points, c.count);
        }
    }
    out
}

impl SweepOptima {
    /// The ten tickets and routes most often in some optimum, and the
    /// budgets with more than one optimal plan.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let budgets = self.budgets.len();
        for (title, rows) in [("Tickets", &self.tickets), ("Routes", &self.routes)] {
            let _ = writeln!(out, "\n{title} over every optimal plan of the {budgets} budgets (some: budgets where at least one optimum uses it; every: where all do; share: its share of the optima summed over the budgets; picked: where the reported plan does)");
            let _ = writeln!(
                out,
                "  {:<34} {:>6} {:>5} {:>5} {:>6} {:>6}",
                "", "Points", "some", "every", "share", "picked"
            );
            for p in rows.iter().take(10) {
                let _ = writeln!(
                    out,
                    "  {:<34} {:>6} {:>5} {:>5} {:>6.1} {:>6}",
                    p.name, p.points, p.some, p.every, p.share_sum, p.picked
                );
            }
        }
        let many = self
            .budgets
            .iter()
            .filter(|b| b.count != "1")
            .map(|b| format!("{} ({})", b.cars, b.count))
            .collect::<Vec<_>>();
        let _ = writeln!(
            out,
            "\nBudgets with more than one optimal plan (cars (plans)): {}",
            if many.is_empty() {
                "none".to_string()
            } else {
                many.join(", ")
            }
        );
        out
    }
}

impl SimulateReport {
    /// One line per strategy: wins, score quantiles, tickets, cars, turns
    /// and the gap to the single-player optimum.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} games of {} on {} in {:.1} s ({:.0} games/s), {} stalled; single-player optimum {}",
            self.games,
            self.players.join(" vs "),
            self.board,
            self.seconds,
            self.games_per_second,
            self.stalled,
            self.optimum
        );
        let _ = writeln!(
            out,
            "\n{:<8} {:>6} {:>5} {:>6} {:>5} {:>5} {:>6} {:>5} {:>5} {:>5}  {:>7} {:>6} {:>5} {:>5}",
            "strategy", "seats", "wins", "mean", "p10", "p25", "median", "p75", "p90", "max", "tickets", "cars", "turns", "gap"
        );
        for s in &self.strategies {
            let _ = writeln!(
                out,
                "{:<8} {:>6} {:>5} {:>6.1} {:>5.0} {:>5.0} {:>6.0} {:>5.0} {:>5.0} {:>5}  {:>3.1}/{:<3.1} {:>6.1} {:>5.1} {:>5.0}",
                s.strategy,
                s.seats,
                s.wins,
                s.mean,
                s.p10,
                s.p25,
                s.median,
                s.p75,
                s.p90,
                s.max,
                s.mean_tickets_completed,
                s.mean_tickets_held,
                s.mean_cars_used,
                s.mean_turns,
                s.mean_gap_to_optimum
            );
        }
        out.push_str("\n(tickets: completed/held per game; gap: optimum minus score without the longest-path bonus)\n");
        if let Some(u) = &self.rules_used {
            let _ = writeln!(
                out,
                "\nthe board's own rules, over all games: tunnels claimed {}, given up {} ({} asked for extra cards); ferries claimed {}; stations built {}, routes borrowed by stations {}",
                u.tunnels_claimed,
                u.tunnels_given_up,
                u.tunnels_asked_more,
                u.ferries_claimed,
                u.stations_built,
                u.routes_borrowed
            );
        }
        out
    }
}

impl Comparison {
    /// Both optima of every budget, then the tickets and routes that differ
    /// at each board's own car count.
    pub fn table(&self, description: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Base: {}\nVariant: {}", self.base, self.variant);
        if !description.is_empty() {
            let _ = writeln!(out, "  {description}");
        }
        let _ = writeln!(
            out,
            "\n{:>5} {:>6} {:>8} {:>7}",
            "cars", "base", "variant", "change"
        );
        for r in &self.rows {
            let mark = if r.change != 0 {
                format!("{:+}", r.change)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{:>5} {:>6} {:>8} {:>7}",
                r.cars, r.base, r.variant, mark
            );
        }
        let _ = writeln!(
            out,
            "\nAt {} cars (base) and {} cars (variant): {} against {} points",
            self.base_cars, self.variant_cars, self.base_score, self.variant_score
        );
        for (title, rows) in [
            (
                "Tickets only the base plan completes",
                &self.tickets_base_only,
            ),
            (
                "Tickets only the variant plan completes",
                &self.tickets_variant_only,
            ),
            ("Tickets both complete", &self.tickets_both),
            ("Routes only the base plan claims", &self.routes_base_only),
            (
                "Routes only the variant plan claims",
                &self.routes_variant_only,
            ),
        ] {
            let _ = writeln!(
                out,
                "\n{title}: {}",
                if rows.is_empty() {
                    "none".to_string()
                } else {
                    rows.join(", ")
                }
            );
        }
        out
    }
}
