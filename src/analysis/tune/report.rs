//! The tune report in Markdown: the revisions found, a before/after table
//! of every target, each reference revision compared target by target,
//! the trade-offs, and how much of the space the search covered.

use std::fmt::Write;

use super::{describe, Edit, Revision, Tuning};

impl Tuning {
    /// The report; `header` (the command and its time) goes under the
    /// title. `files[i]` names the scenario file of `revisions[i]`.
    pub fn markdown(&self, header: &str, files: &[String]) -> String {
        let mut md = String::new();
        let w = &mut md;
        let _ = writeln!(w, "# Tune: {}\n\n{header}\n", self.board);
        self.write_targets(w);
        self.write_revisions(w, files);
        self.write_table(w);
        for r in &self.references {
            self.write_against(w, r);
        }
        self.write_trade_offs(w);
        self.write_search(w);
        md
    }

    fn write_targets(&self, w: &mut String) {
        let t = &self.targets;
        let _ = writeln!(w, "## Targets\n");
        let _ = writeln!(
            w,
            "Every figure is proven on the revised board, as `ttr-opt balance` computes it \
             at {} cars (the sweep of 1–{} cars, the break-even at {}), and the deal's spread \
             over the seeded sample `balance` values.\n",
            self.cars, self.cars, self.cars
        );
        let on = |b: bool| if b { "yes" } else { "not asked" };
        let _ = writeln!(
            w,
            "- No dead ticket (in no optimum at {} cars and in none of the budgets' optima): {}",
            self.cars,
            on(t.dead)
        );
        let _ = writeln!(
            w,
            "- No generous ticket (in every optimum at {} cars and in the optima of at least \
             half the budgets): {}",
            self.cars,
            on(t.generous)
        );
        let _ = match t.rate_band {
            Some(b) => writeln!(
                w,
                "- Every ticket's points per car on its cheapest connection within {:.0} % of \
                 the board's median rate",
                b * 100.0
            ),
            None => writeln!(w, "- Points per car: not asked"),
        };
        let _ = match self.max_spread {
            Some(s) => writeln!(
                w,
                "- The deal's spread (90th less 10th percentile) at most {s:.1} points{}",
                if t.max_spread.is_none() {
                    " (the board's own: no wider)"
                } else {
                    ""
                }
            ),
            None => writeln!(w, "- The deal's spread: not measured"),
        };
        if let Some(styles) = &t.win_rates {
            let _ = writeln!(
                w,
                "- The win rates of {} ({} at a table, {} games of each table in each of its \
                 rotations, seed {}) within {:.0} points of each other",
                styles.players.join(", "),
                styles.seats,
                styles.games,
                styles.seed,
                styles.band * 100.0
            );
        }
        let _ = writeln!(
            w,
            "- Within: each ticket moved by at most {} points, {}{}; the fewest changes, then \
             the fewest points moved.\n",
            t.max_step,
            match &t.tickets {
                Some(names) => format!("only {}", names.join(", ")),
                None => "any ticket of one trip".to_string(),
            },
            self.levers()
        );
    }

    /// The levers beyond tickets' points, as the targets allow them: ""
    /// where none is.
    fn levers(&self) -> String {
        let t = &self.targets;
        let mut v = Vec::new();
        if t.route_step > 0 {
            v.push(format!(
                "each route's length by at most {} cars ({}; its points the rule card's)",
                t.route_step,
                match &t.routes {
                    Some(names) => format!("only {}", names.join(", ")),
                    None => "any route alone in its pair".to_string(),
                }
            ));
        }
        if t.remove {
            v.push("a ticket whose miss no change of its points reaches taken out".to_string());
        }
        if !t.add.is_empty() {
            let names: Vec<String> = t
                .add
                .iter()
                .map(|n| format!("{} – {} ({})", n.from, n.to, n.points))
                .collect();
            v.push(format!(
                "such a ticket replaced by one of {}",
                names.join(", ")
            ));
        }
        v.iter().map(|x| format!("; {x}")).collect()
    }

    fn write_revisions(&self, w: &mut String, files: &[String]) {
        let _ = writeln!(w, "## Revisions found\n");
        if self.revisions.is_empty() {
            let _ = writeln!(
                w,
                "No revision within the bounds misses fewer targets than the board \
                 ({} missed).\n",
                self.base.misses
            );
            return;
        }
        for (i, r) in self.revisions.iter().enumerate() {
            let file = files.get(i).map_or(String::new(), |f| format!(" (`{f}`)"));
            let _ = writeln!(
                w,
                "- **{}**{file}: {}. {} of {} targets' misses left.",
                r.name,
                describe(&r.changes),
                r.misses,
                self.base.misses
            );
        }
        let _ = writeln!(w);
    }

    /// Every target, before and after, for the board, each revision and
    /// each reference.
    fn write_table(&self, w: &mut String) {
        let cols: Vec<&Revision> = std::iter::once(&self.base)
            .chain(&self.revisions)
            .chain(&self.references)
            .collect();
        let _ = writeln!(w, "## Before and after\n");
        let head: Vec<String> = cols.iter().map(|r| r.name.clone()).collect();
        let _ = writeln!(w, "| target | {} |", head.join(" | "));
        let _ = writeln!(w, "| --- |{}", " ---: |".repeat(cols.len()));
        let row = |w: &mut String, what: &str, f: &dyn Fn(&Revision) -> String| {
            let cells: Vec<String> = cols.iter().map(|r| f(r)).collect();
            let _ = writeln!(w, "| {what} | {} |", cells.join(" | "));
        };
        let names = |v: &[String]| {
            if v.is_empty() {
                "0".to_string()
            } else {
                format!("{}: {}", v.len(), v.join(", "))
            }
        };
        row(w, "dead tickets", &|r| names(&r.measure.dead));
        row(w, "generous tickets", &|r| names(&r.measure.generous));
        row(w, "off the band", &|r| names(&r.measure.off_band));
        row(w, "deal's spread (p10–p90)", &|r| match &r.measure.spread {
            Some(s) => format!("{:.1} ({:.0}–{:.0})", s.spread, s.p10, s.p90),
            None => "not measured".into(),
        });
        if self.targets.win_rates.is_some() {
            row(
                w,
                "styles' win rates (spread)",
                &|r| match &r.measure.win_rates {
                    Some(x) => {
                        let each: Vec<String> = x
                            .styles
                            .iter()
                            .map(|s| format!("{} {:.0} %", s.strategy, s.win_rate * 100.0))
                            .collect();
                        format!("{:.0} ({})", x.spread * 100.0, each.join(", "))
                    }
                    None => "not measured".into(),
                },
            );
        }
        row(w, "targets missed", &|r| r.misses.to_string());
        row(w, "changes (points moved)", &|r| {
            format!("{} ({})", r.changes.len(), r.magnitude())
        });
        row(w, &format!("optimum at {} cars", self.cars), &|r| {
            r.measure.optimum.to_string()
        });
        row(w, "median points per car", &|r| {
            format!("{:.2}", r.measure.median_rate)
        });
        let _ = writeln!(w);
    }

    /// The best revision against reference `reference`, target by target.
    fn write_against(&self, w: &mut String, reference: &Revision) {
        let Some(best) = self.revisions.first() else {
            return;
        };
        let _ = writeln!(
            w,
            "## {} against {}\n\n{}: {}.\n",
            best.name,
            reference.name,
            reference.name,
            describe(&reference.changes)
        );
        let (a, b) = (&best.measure, &reference.measure);
        let lists: [(&str, &Vec<String>, &Vec<String>); 3] = [
            ("Dead tickets", &a.dead, &b.dead),
            ("Generous tickets", &a.generous, &b.generous),
            ("Off the band", &a.off_band, &b.off_band),
        ];
        for (what, x, y) in lists {
            let only = |p: &Vec<String>, q: &Vec<String>| -> Vec<String> {
                p.iter().filter(|n| !q.contains(n)).cloned().collect()
            };
            let (ox, oy) = (only(x, y), only(y, x));
            let why = match (ox.is_empty(), oy.is_empty()) {
                (true, true) if x.is_empty() => "neither misses it".to_string(),
                (true, true) => format!("both miss it with {}", x.join(", ")),
                _ => {
                    let mut parts = Vec::new();
                    if !oy.is_empty() {
                        parts.push(format!("only {} misses {}", reference.name, oy.join(", ")));
                    }
                    if !ox.is_empty() {
                        parts.push(format!("only {} misses {}", best.name, ox.join(", ")));
                    }
                    parts.join("; ")
                }
            };
            let _ = writeln!(
                w,
                "- {what}: {} ({} against {}): {why}.",
                verdict(x.len() as f64, y.len() as f64, &best.name, &reference.name),
                x.len(),
                y.len()
            );
        }
        if let (Some(x), Some(y)) = (&a.spread, &b.spread) {
            let _ = writeln!(
                w,
                "- The deal's spread: {} ({:.1} against {:.1} points, the 10th to 90th \
                 percentile of the same seeded hands).",
                verdict(x.spread, y.spread, &best.name, &reference.name),
                x.spread,
                y.spread
            );
        }
        if let (Some(x), Some(y)) = (&a.win_rates, &b.win_rates) {
            let _ = writeln!(
                w,
                "- The styles' win rates: {} ({:.0} against {:.0} points between the highest \
                 and the lowest, the same {} games).",
                verdict(x.spread, y.spread, &best.name, &reference.name),
                x.spread * 100.0,
                y.spread * 100.0,
                x.games
            );
        }
        // "tickets" and "points" where every change is a ticket's points.
        let tickets_only = best
            .changes
            .iter()
            .chain(&reference.changes)
            .all(|c| matches!(c, Edit::Ticket(_)));
        let (what, moved) = match tickets_only {
            true => ("tickets", "points"),
            false => ("changes", "points and cars"),
        };
        let _ = writeln!(
            w,
            "- Changes: {} ({} {what}, {} {moved} moved, against {} and {}).",
            verdict(
                best.changes.len() as f64 + best.magnitude() as f64 / 1000.0,
                reference.changes.len() as f64 + reference.magnitude() as f64 / 1000.0,
                &best.name,
                &reference.name
            ),
            best.changes.len(),
            best.magnitude(),
            reference.changes.len(),
            reference.magnitude()
        );
        let _ = writeln!(
            w,
            "- In all: {} ({} targets missed against {}; the optimum at {} cars {} against {}).\n",
            verdict(
                best.misses as f64,
                reference.misses as f64,
                &best.name,
                &reference.name
            ),
            best.misses,
            reference.misses,
            self.cars,
            a.optimum,
            b.optimum
        );
    }

    fn write_trade_offs(&self, w: &mut String) {
        if self.trade_offs.is_empty() {
            return;
        }
        let _ = writeln!(
            w,
            "## Trade-offs\n\nSingle changes that fix a target the board misses and miss \
             another (measured alone, on the board):\n"
        );
        for t in &self.trade_offs {
            let _ = writeln!(
                w,
                "- {}: fixes {}; but {}.",
                describe(std::slice::from_ref(&t.change)),
                t.fixes.join(", "),
                t.breaks.join(", ")
            );
        }
        let _ = writeln!(w);
    }

    fn write_search(&self, w: &mut String) {
        let s = &self.search;
        let _ = writeln!(w, "## The search\n");
        let _ = writeln!(
            w,
            "{} candidate revisions considered: {} measured by exact solves (each a sweep and \
             the tickets' standings, as `balance` finds them), {} skipped by the bound of their rates (no solve), \
             {} combinations skipped because the best revision found already met their \
             prediction, {} left untried past the cap on combinations, {} proposed changes \
             out of bounds. {} {:.0} s in all.\n",
            s.considered,
            s.solved,
            s.skipped_by_bound,
            s.skipped_by_prediction,
            s.left_untried,
            s.out_of_bounds,
            match &s.stopped {
                Some(why) =>
                    format!("**Stopped early** ({why}): the revisions are the best so far."),
                None => "The search ran to its end.".to_string(),
            },
            s.seconds
        );
        let _ = writeln!(
            w,
            "It is a local search, not an exhaustive one: another revision within the bounds \
             may miss fewer targets. What it reports is proven: each revision's figures come \
             from solves on the revised board (`ttr-opt balance` and `ttr-opt deals` on it \
             give the same), and its scenario file loads in `ttr-opt compare`."
        );
    }
}

/// Which of two values is better (the lower).
fn verdict(ours: f64, theirs: f64, us: &str, them: &str) -> String {
    if (ours - theirs).abs() < 1e-9 {
        "equal".into()
    } else if ours < theirs {
        format!("{us} is better")
    } else {
        format!("{them} is better")
    }
}
