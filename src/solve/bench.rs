//! `ttr-opt bench`: the paper's plain model (with a time limit per budget)
//! against the sweep, budget by budget, on the same board and threads.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::Board;
use crate::model::Instance;
use crate::solve::sweep::{sweep, SweepEntry};
use crate::solve::{solve, worker_pool, Method, Outcome, SolveError, SolveOptions};

/// Both runs over the same budgets.
pub struct Bench {
    /// The smallest budget, in train cars.
    pub from: u32,
    /// The largest budget, in train cars.
    pub to: u32,
    /// Worker threads of both runs.
    pub threads: usize,
    /// The paper model's time limit per budget, in seconds.
    pub paper_limit: f64,
    /// The paper model's outcome per budget, in budget order.
    pub paper: Vec<Outcome>,
    /// Wall-clock time of the paper model's run, in seconds.
    pub paper_seconds: f64,
    /// The sweep's entry per budget, in budget order.
    pub sweep: Vec<SweepEntry>,
    /// Wall-clock time of the sweep, in seconds.
    pub sweep_seconds: f64,
}

/// One line of `bench.csv`.
#[derive(Serialize)]
pub struct BenchRow {
    /// The budget, in train cars.
    pub cars: u32,
    /// Whether the paper model proved its answer optimal within its time limit.
    pub paper_proven: bool,
    /// The score of the paper model's best plan.
    pub paper_score: u32,
    /// The paper model's upper bound on the optimum.
    pub paper_bound: u32,
    /// The paper model's time for this budget, in seconds.
    pub paper_seconds: f64,
    /// The method the sweep used for this budget.
    pub method: &'static str,
    /// Whether the sweep proved its answer optimal.
    pub proven: bool,
    /// The sweep's score (the optimum, when proven).
    pub score: u32,
    /// The sweep's time for this budget, in seconds.
    pub seconds: f64,
}

/// Runs the paper's model (no preprocessing, no warm start, `paper_limit`
/// seconds per budget) on every budget `from..=to`, then the sweep.
pub fn paper_against_sweep(
    board: &Board,
    from: u32,
    to: u32,
    paper_limit: f64,
    threads: usize,
    progress: &dyn Fn(&str),
) -> Result<Bench, SolveError> {
    let budgets: Vec<u32> = (from..=to).collect();
    progress(&format!(
        "paper model, {} budgets, {paper_limit} s limit each, {threads} threads ...",
        budgets.len()
    ));
    let started = Instant::now();
    let paper: Vec<Outcome> = worker_pool(threads)?.install(|| {
        budgets
            .par_iter()
            .with_max_len(1)
            .map(|&c| {
                let options = SolveOptions {
                    method: Method::Paper,
                    time_limit: Some(paper_limit),
                    start: Some(Vec::new()),
                };
                solve(&Instance::unreduced(board, c), &options)
            })
            .collect::<Result<_, _>>()
    })?;
    let paper_seconds = started.elapsed().as_secs_f64();
    progress(&format!(
        "paper model done in {paper_seconds:.1} s; sweep ..."
    ));
    let started = Instant::now();
    let entries = sweep(board, from, to, threads, &|_: &SweepEntry| {})?;
    Ok(Bench {
        from,
        to,
        threads,
        paper_limit,
        paper,
        paper_seconds,
        sweep: entries,
        sweep_seconds: started.elapsed().as_secs_f64(),
    })
}

impl Bench {
    /// The rows of `bench.csv`, one per budget.
    pub fn rows(&self) -> Vec<BenchRow> {
        self.paper
            .iter()
            .zip(&self.sweep)
            .map(|(p, e)| BenchRow {
                cars: e.cars,
                paper_proven: p.proven,
                paper_score: p.plan.score(),
                paper_bound: p.bound,
                paper_seconds: p.seconds,
                method: e.outcome.method.name(),
                proven: e.outcome.proven,
                score: e.outcome.plan.score(),
                seconds: e.outcome.seconds,
            })
            .collect()
    }

    /// `bench.md`: a summary of both runs and a table per budget with the
    /// ratio of their times.
    pub fn markdown(&self, board: &str) -> String {
        let mut md = format!(
            "Sweep {}..{} on the {board} board: all {} budgets proven optimal in {:.1} s wall on {} threads.\n\n",
            self.from,
            self.to,
            self.sweep.len(),
            self.sweep_seconds,
            self.threads
        );
        md.push_str(&format!(
            "The paper's plain model (no preprocessing, no warm start, {} s limit per budget) over the same budgets: {:.1} s wall on {} threads, {} of {} proven.\n\n",
            self.paper_limit,
            self.paper_seconds,
            self.threads,
            self.paper.iter().filter(|o| o.proven).count(),
            self.paper.len()
        ));
        md.push_str("| cars | paper: proven | score | bound | seconds | fast: method | proven | score | seconds | paper ÷ fast |\n");
        md.push_str("| ---: | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |\n");
        let yes = |b: bool| if b { "yes" } else { "no" };
        for r in self.rows() {
            let ratio = r.paper_seconds / r.seconds.max(1e-3);
            let ratio = if r.paper_proven {
                format!("{ratio:.1}")
            } else {
                format!("> {ratio:.1}")
            };
            md.push_str(&format!(
                "| {} | {} | {} | {} | {:.2} | {} | {} | {} | {:.2} | {} |\n",
                r.cars,
                yes(r.paper_proven),
                r.paper_score,
                r.paper_bound,
                r.paper_seconds,
                r.method,
                yes(r.proven),
                r.score,
                r.seconds,
                ratio
            ));
        }
        md.push_str("\nFrontier budgets share one run of the programme: each is given an equal share of its time.\n");
        md
    }
}
