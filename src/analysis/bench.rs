//! `ttr-opt bench`: the paper's plain model (with a time limit per budget)
//! against the sweep, budget by budget; every board swept from 1 car to its
//! own car count; every board solved at its own car count on one lane and
//! on two; and the generated boards solved at their own car count.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::verify::VerifyError;
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
                    ..SolveOptions::default()
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

/// One board of `ttr-opt bench --boards`: swept from 1 car to its own car
/// count, every budget proven or not. A line of `boards.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct BoardSweep {
    /// The board's file name without `.json`.
    pub board: String,
    /// Its own car count, the largest budget swept.
    pub cars: u32,
    /// Budgets proven optimal.
    pub proven: usize,
    /// Budgets swept.
    pub budgets: usize,
    /// Wall-clock time of the whole sweep, in seconds.
    pub wall_seconds: f64,
    /// CPU time of the process during the sweep (every thread, user and
    /// system), in seconds: twice the wall time when both workers are busy
    /// throughout. `None` where the operating system does not tell.
    pub cpu_seconds: Option<f64>,
    /// The budget that took longest.
    pub slowest_budget: u32,
    /// Its time, in seconds (a frontier run's budgets share its time).
    pub slowest_seconds: f64,
    /// Peak resident memory of the process during the sweep, in MB (`None`
    /// where the operating system does not tell).
    pub peak_mb: Option<u64>,
    /// The score at the largest budget.
    pub optimum: u32,
}

/// What a benchmarked run cost the process: wall and CPU seconds, and its
/// peak memory from a fresh start ([`reset_peak_memory`]).
struct Cost {
    wall_seconds: f64,
    cpu_seconds: Option<f64>,
    peak_mb: Option<u64>,
}

/// Runs `work`, measuring its [`Cost`].
fn measured<T, E>(work: impl FnOnce() -> Result<T, E>) -> Result<(T, Cost), E> {
    reset_peak_memory();
    let cpu = cpu_seconds();
    let started = Instant::now();
    let value = work()?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let cost = Cost {
        wall_seconds,
        cpu_seconds: cpu.zip(cpu_seconds()).map(|(before, after)| after - before),
        peak_mb: peak_memory_mb(),
    };
    Ok((value, cost))
}

/// Sweeps `board` from 1 car to its own car count on `threads` threads,
/// measuring the peak memory of the process from a fresh start.
pub fn sweep_board(board: &Board, name: &str, threads: usize) -> Result<BoardSweep, SolveError> {
    let (entries, cost) = measured(|| sweep(board, 1, board.cars, threads, &|_: &SweepEntry| {}))?;
    let slowest = entries
        .iter()
        .max_by(|a, b| a.outcome.seconds.total_cmp(&b.outcome.seconds))
        .expect("a board has at least one budget");
    Ok(BoardSweep {
        board: name.to_string(),
        cars: board.cars,
        proven: entries.iter().filter(|e| e.outcome.proven).count(),
        budgets: entries.len(),
        wall_seconds: cost.wall_seconds,
        cpu_seconds: cost.cpu_seconds,
        slowest_budget: slowest.cars,
        slowest_seconds: slowest.outcome.seconds,
        peak_mb: cost.peak_mb,
        optimum: entries.last().map_or(0, |e| e.outcome.plan.score()),
    })
}

/// Generates the board of `seed` and sweeps it like [`sweep_board`].
pub fn sweep_generated(seed: u64, threads: usize) -> Result<BoardSweep, SolveError> {
    let board = generated(seed);
    sweep_board(&board, &format!("generated {seed}"), threads)
}

fn generated(seed: u64) -> Board {
    let text = crate::board::generate::board_json(seed).to_string();
    Board::from_json(&text, &format!("generated board {seed}"))
        .expect("the generator makes valid boards")
}

/// `boards.md`: one row per board.
pub fn boards_markdown(rows: &[BoardSweep], threads: usize) -> String {
    let head = format!(
        "Every board swept from 1 car to its own car count (`ttr-opt bench --boards`, the sweep \
         on {threads} worker threads, one board at a time), {}.\n\
         Frontier budgets share one run; each is given an equal share of its time. \
         CPU s is the process's CPU time over the sweep, all threads: twice the wall time \
         would mean both workers busy throughout.\n\n",
        machine()
    );
    head + &sweep_table(rows)
}

/// `generated-sweep.md`: the distribution of the sweeps' wall times, then a
/// row per board.
pub fn generated_sweeps_markdown(rows: &[BoardSweep], threads: usize) -> String {
    let mut secs: Vec<f64> = rows.iter().map(|r| r.wall_seconds).collect();
    secs.sort_by(f64::total_cmp);
    let boards = rows.len();
    let mut md = format!(
        "Generated boards (`ttr-opt bench --generated {boards} --sweep`, seeds 1..{boards}), each \
         swept from 1 car to its own car count on {threads} worker threads, one board at a \
         time, {}. CPU s is the process's CPU time over the sweep, all threads.\n\n",
        machine()
    );
    if !secs.is_empty() {
        let proven = rows.iter().filter(|r| r.proven == r.budgets).count();
        md.push_str(&format!(
            "{proven} of {boards} boards with every budget proven; wall seconds of a sweep: \
             median {:.1}, 95th percentile {:.1}, max {:.1}.\n\n",
            percentile(&secs, 50.0),
            percentile(&secs, 95.0),
            secs[secs.len() - 1],
        ));
    }
    md + &sweep_table(rows)
}

/// Nearest-rank percentile `p` of the sorted `values` (not empty).
fn percentile(values: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0 * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// The CPU time of this process so far (every thread, user and system), in
/// seconds, from Linux's `/proc/self/stat`.
pub fn cpu_seconds() -> Option<f64> {
    process_cpu_seconds("/proc/self/stat")
}

/// A process's user and system CPU time from its `/proc/<pid>/stat`, in
/// seconds (clock ticks of 1/100 s, Linux's USER_HZ).
pub fn process_cpu_seconds(stat: &str) -> Option<f64> {
    let text = std::fs::read_to_string(stat).ok()?;
    // The fields after the command's name, which is in parentheses.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn sweep_table(rows: &[BoardSweep]) -> String {
    let mut md = String::from(
        "| board | cars | proven | wall s | CPU s | slowest budget | its s | peak MB | optimum |\n",
    );
    md.push_str("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for r in rows {
        md.push_str(&format!(
            "| {} | {} | {}/{} | {:.1} | {} | {} | {:.2} | {} | {} |\n",
            r.board,
            r.cars,
            r.proven,
            r.budgets,
            r.wall_seconds,
            seconds(r.cpu_seconds),
            r.slowest_budget,
            r.slowest_seconds,
            mb(r.peak_mb),
            r.optimum
        ));
    }
    md
}

/// One board of `ttr-opt bench --balance`: its whole balance report (the
/// sweep, break-even values and route blocking costs at its own car count,
/// the deal's sample), timed. A line of `balance.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct BalanceRun {
    /// The board's file name without `.json`.
    pub board: String,
    /// Its own car count: the sweep's last budget and the break-even budget.
    pub cars: u32,
    /// Wall-clock time of the report, in seconds.
    pub wall_seconds: f64,
    /// CPU time of the process over the report (all threads), in seconds.
    pub cpu_seconds: Option<f64>,
    /// Peak resident memory of the process during the report, in MB.
    pub peak_mb: Option<u64>,
    /// The optimum at `cars`.
    pub optimum: u32,
    /// Solves the time limit cut short (none in a complete report).
    pub unfinished: usize,
}

/// The goal for a balance report, in seconds: issue 28's 60 s, raised to
/// 30 s by issue 59 (a designer's loop of tuning runs many of them).
pub const BALANCE_GOAL: f64 = 30.0;

/// Writes the balance report of `board` at its own car count on `threads`
/// threads, timed (the report itself is dropped: `ttr-opt balance` writes it).
pub fn balance_board(board: &Board, name: &str, threads: usize) -> Result<BalanceRun, SolveError> {
    let ((report, _), cost) = measured(|| {
        let options = crate::analysis::balance::BalanceOptions::threads(threads);
        crate::analysis::balance::balance(board, board.cars, &options)
    })?;
    Ok(BalanceRun {
        board: name.to_string(),
        cars: board.cars,
        wall_seconds: cost.wall_seconds,
        cpu_seconds: cost.cpu_seconds,
        peak_mb: cost.peak_mb,
        optimum: report.optimum,
        unfinished: report.unfinished.len(),
    })
}

/// `balance.md`: one row per board, against [`BALANCE_GOAL`].
pub fn balance_markdown(rows: &[BalanceRun], threads: usize) -> String {
    let mut md = format!(
        "The balance report of every board at its own car count (`ttr-opt bench --balance`: \
         the sweep from 1 car, break-even values and route blocking costs at the board's car \
         count, the deal's sample; {threads} worker threads, one board at a time), {}. \
         CPU s is the process's CPU time over the report, all threads. Goal: under \
         {BALANCE_GOAL:.0} s.\n\n",
        machine()
    );
    md.push_str("| board | cars | optimum | wall s | CPU s | peak MB | unfinished | goal met |\n");
    md.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for r in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {:.1} | {} | {} | {} | {} |\n",
            r.board,
            r.cars,
            r.optimum,
            r.wall_seconds,
            seconds(r.cpu_seconds),
            mb(r.peak_mb),
            r.unfinished,
            if r.wall_seconds < BALANCE_GOAL && r.unfinished == 0 {
                "yes"
            } else {
                "no"
            }
        ));
    }
    md
}

/// One board of `ttr-opt bench --solve`: `ttr-opt solve` at its own car
/// count, on one lane and on two ([`crate::solve::SolveOptions::both_cores`]),
/// `runs` times each, alternated. A line of `solve.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct LanesSolve {
    /// The board's file name without `.json`.
    pub board: String,
    /// Its own car count.
    pub cars: u32,
    /// The optimum, proven by both.
    pub optimum: u32,
    /// Median wall time of one lane, in seconds.
    pub one_lane_seconds: f64,
    /// Median wall time of two lanes, in seconds.
    pub two_lanes_seconds: f64,
    /// HiGHS solves (LPs) of one lane and of two (the same every run).
    pub one_lane_lps: usize,
    /// LPs of the two lanes together.
    pub two_lanes_lps: usize,
    /// Runs of each.
    pub runs: usize,
}

/// The goal of issue 28 for one solve at a board's own car count, in seconds.
pub const SOLVE_GOAL: f64 = 3.0;

/// Solves `board` at its own car count `runs` times on one lane and on
/// two, alternated (so that the machine's load falls on both alike); an
/// error if any run is unproven or the two disagree on the optimum.
pub fn solve_board(board: &Board, name: &str, runs: usize) -> Result<LanesSolve, SolveError> {
    let inst = Instance::new(board, board.cars);
    let mut times = [Vec::new(), Vec::new()];
    let mut lps = [0, 0];
    let mut optima = [0, 0];
    for _ in 0..runs.max(1) {
        for (lane, both_cores) in [false, true].into_iter().enumerate() {
            let options = SolveOptions {
                both_cores,
                ..SolveOptions::default()
            };
            let started = Instant::now();
            let outcome = solve(&inst, &options)?;
            times[lane].push(started.elapsed().as_secs_f64());
            if !outcome.proven {
                return Err(SolveError::TimeLimit(format!(
                    "the optimum of {} cars on {name} was proven",
                    board.cars
                )));
            }
            lps[lane] = outcome.solves;
            optima[lane] = outcome.plan.score();
        }
    }
    if optima[0] != optima[1] {
        return Err(VerifyError(format!(
            "{name} at {} cars: one lane proves {}, two lanes {}",
            board.cars, optima[0], optima[1]
        ))
        .into());
    }
    let [one, two] = [&times[0], &times[1]].map(|t| {
        let mut sorted = t.clone();
        sorted.sort_by(f64::total_cmp);
        percentile(&sorted, 50.0)
    });
    Ok(LanesSolve {
        board: name.to_string(),
        cars: board.cars,
        optimum: optima[0],
        one_lane_seconds: one,
        two_lanes_seconds: two,
        one_lane_lps: lps[0],
        two_lanes_lps: lps[1],
        runs: times[0].len(),
    })
}

/// `solve.md`: one row per board, against [`SOLVE_GOAL`].
pub fn solve_markdown(rows: &[LanesSolve]) -> String {
    let runs = rows.first().map_or(0, |r| r.runs);
    let mut md = format!(
        "`ttr-opt solve` at every board's own car count (`ttr-opt bench --solve --runs {runs}`): \
         the branch and cut's tree on one lane, and on two lanes (on both cores, as `ttr-opt \
         solve` runs it), alternated, medians of {runs} runs, {}. LPs are the HiGHS solves of \
         the proof (both lanes together), the same on every run and machine. Goal: under \
         {SOLVE_GOAL:.0} s.\n\n",
        machine()
    );
    md.push_str(
        "| board | cars | optimum | one lane s | two lanes s | speed-up | one lane LPs | two lanes LPs | goal met |\n",
    );
    md.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for r in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {} | {} | {} |\n",
            r.board,
            r.cars,
            r.optimum,
            r.one_lane_seconds,
            r.two_lanes_seconds,
            r.one_lane_seconds / r.two_lanes_seconds.max(1e-9),
            r.one_lane_lps,
            r.two_lanes_lps,
            if r.two_lanes_seconds < SOLVE_GOAL {
                "yes"
            } else {
                "no"
            }
        ));
    }
    md
}

/// Time limit of each generated board's solve in `ttr-opt bench
/// --generated`, in seconds (the "none over 5 minutes").
pub const GENERATED_LIMIT: f64 = 300.0;

/// One generated board of `ttr-opt bench --generated`, solved at its own
/// car count by the default method. A line of `generated.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct GeneratedSolve {
    /// The generator's seed (`ttr-opt generate --seed`).
    pub seed: u64,
    /// Cities of the board.
    pub cities: usize,
    /// City pairs joined by a route.
    pub city_pairs: usize,
    /// Tickets (cards) of the board.
    pub tickets: usize,
    /// Its own car count, the budget solved.
    pub cars: u32,
    /// `optimal`, or `time_limit` when [`GENERATED_LIMIT`] stopped it.
    pub status: &'static str,
    /// The best plan's score.
    pub score: u32,
    /// The upper bound proven.
    pub bound: u32,
    /// The method that answered.
    pub method: &'static str,
    /// Time of the solve, in seconds.
    pub seconds: f64,
    /// Peak resident memory of the process during the solve, in MB.
    pub peak_mb: Option<u64>,
}

/// Generates the board of `seed` and solves it at its own car count.
pub fn solve_generated(seed: u64) -> Result<GeneratedSolve, SolveError> {
    let board = generated(seed);
    reset_peak_memory();
    let options = SolveOptions {
        time_limit: Some(GENERATED_LIMIT),
        ..SolveOptions::default()
    };
    let outcome = solve(&Instance::new(&board, board.cars), &options)?;
    Ok(GeneratedSolve {
        seed,
        cities: board.cities.len(),
        city_pairs: board.pairs.len(),
        tickets: board.cards.len(),
        cars: board.cars,
        status: if outcome.proven {
            "optimal"
        } else {
            "time_limit"
        },
        score: outcome.plan.score(),
        bound: outcome.bound,
        method: outcome.method.name(),
        seconds: outcome.seconds,
        peak_mb: peak_memory_mb(),
    })
}

/// `generated.md`: the distribution of the solve times, then a row per board.
pub fn generated_markdown(rows: &[GeneratedSolve]) -> String {
    let mut secs: Vec<f64> = rows.iter().map(|r| r.seconds).collect();
    secs.sort_by(f64::total_cmp);
    let pct = |p: f64| percentile(&secs, p);
    let proven = rows.iter().filter(|r| r.status == "optimal").count();
    let peak = rows.iter().filter_map(|r| r.peak_mb).max();
    let mut md = format!(
        "Generated boards (`ttr-opt bench --generated {}`, seeds 1..{}), each solved at its own car \
         count by the default method with a {GENERATED_LIMIT} s limit, {}.\n\n",
        rows.len(),
        rows.len(),
        machine()
    );
    if !secs.is_empty() {
        md.push_str(&format!(
            "{proven} of {} proven; seconds: median {:.1}, 95th percentile {:.1}, max {:.1}; \
             peak memory max {} MB.\n\n",
            rows.len(),
            pct(50.0),
            pct(95.0),
            secs[secs.len() - 1],
            mb(peak)
        ));
    }
    md.push_str("| seed | cities | pairs | tickets | cars | status | score | bound | method | seconds | peak MB |\n");
    md.push_str("| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: |\n");
    for r in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} |\n",
            r.seed,
            r.cities,
            r.city_pairs,
            r.tickets,
            r.cars,
            r.status,
            r.score,
            r.bound,
            r.method,
            r.seconds,
            mb(r.peak_mb)
        ));
    }
    md
}

fn mb(peak: Option<u64>) -> String {
    peak.map_or_else(|| "?".to_string(), |m| m.to_string())
}

/// A table cell of seconds where the operating system may not tell.
fn seconds(s: Option<f64>) -> String {
    s.map_or_else(|| "?".to_string(), |s| format!("{s:.1}"))
}

/// Cores, processor and date, for the benchmark's heading.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown processor".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_date(days);
    format!("{cores} cores, {cpu}, {y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Starts the process's peak-memory count afresh (Linux: writing 5 to
/// `/proc/self/clear_refs` resets VmHWM to the memory held now); elsewhere
/// nothing happens and the peak is that of the whole process. The heap
/// freed by the previous board is first handed back to the system (glibc
/// keeps it otherwise: Big Cities measured 271 MB after the boards before
/// it, 52 MB alone).
fn reset_peak_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::os::raw::c_int;
        }
        // SAFETY: glibc's malloc_trim only returns free heap pages to the
        // system; it takes no pointers and is safe to call at any time.
        unsafe {
            malloc_trim(0);
        }
    }
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory since [`reset_peak_memory`], in MB
/// (Linux's VmHWM; `None` elsewhere).
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
