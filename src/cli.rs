//! The `ttr-opt` command line: argument parsing and printing only; the work
//! is done by the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::analysis::{break_even_with, frequency, sensitivity_with, Frequency, Membership};
use crate::board::Board;
use crate::board::RouteId;
use crate::model::Instance;
use crate::optima::{self, all_optima, SweepOptima};
use crate::players::{by_name, STRATEGIES};
use crate::plot;
use crate::replan::{replan, ReplanReport};
use crate::report::{
    BreakEvenReport, OptimaReport, SensitivityReport, SolveReport, Status, SweepReport,
};
use crate::simulate::{route_shares, simulate, summarise, Summary};
use crate::solve::{self, solve, Method, Outcome, SolveError, SolveOptions};
use crate::state::GameState;
use crate::sweep::{sweep, SweepEntry, TIE_BREAK};
use std::time::Instant;

/// `println!` that passes a failed write up as a [`StdoutError`] instead
/// of panicking (a closed pipe, `> /dev/full`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err($crate::cli::StdoutError)?
    }};
}

/// `print!`, likewise.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*).map_err($crate::cli::StdoutError)?
    }};
}

mod check;
mod designer;
mod export;

/// Standard output could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {0}")]
pub struct StdoutError(pub std::io::Error);

/// Exit code when a time limit stopped the solver before it proved optimality.
pub const EXIT_TIME_LIMIT: u8 = 3;

/// Exit code after Ctrl-C (what was finished is still reported), as shells
/// report a process ended by SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

#[derive(Parser)]
#[command(
    name = "ttr-opt",
    version,
    about = "Maximum score in Ticket to Ride, computed exactly by mixed-integer programming",
    long_about = "Maximum score in Ticket to Ride, computed exactly by mixed-integer programming.\n\n\
        ttr-opt chooses the routes that, within a train-car budget, maximise route points plus \
        completed destination tickets (Schaefer & Schaefer, \"Maximizing the Score in Ticket to \
        Ride\"). Every answer is re-checked by an independent union-find over the cities.",
    after_help = "Exit status: 0 success (proven optimal), 1 error (bad input, solver failure), \
        2 bad command line, 3 time limit reached before optimality was proven, 130 interrupted \
        (Ctrl-C: what was finished is reported; a second Ctrl-C quits at once)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Memory the frontier programme may use, in MB (default: half of the
    /// memory available at start). A run that would need more hands over to
    /// the branch and cut, or, for `optima`, stops with an error.
    #[arg(long, global = true, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    memory_limit: Option<u64>,
    /// Stop after SECS seconds, whatever the command (exit status 3 if that
    /// cut it short): `solve`, `replan` and `sweep` report the best plans
    /// found with their bounds and gaps, `simulate` the games finished;
    /// sensitivity, breakeven and balance write the rows whose solves
    /// finished and name the others; optima and compare stop and say what
    /// was not proven.
    #[arg(long, global = true, value_name = "SECS", value_parser = positive_seconds)]
    time_limit: Option<f64>,
}

#[derive(Subcommand)]
enum Command {
    /// Find the highest-scoring set of routes for a train-car budget.
    Solve(SolveArgs),
    /// Solve every budget in a range to proven optimality; write CSV and JSON.
    Sweep(SweepArgs),
    /// How much the optimum loses without each ticket and each route of the
    /// optimal plan (a ticket taken out of the game, a route taken by an
    /// opponent); writes CSV and JSON.
    Sensitivity(SensitivityArgs),
    /// The best plan from the middle of a game: cars left, routes owned and
    /// taken by others, tickets held (format in data/README.md).
    Replan(ReplanArgs),
    /// A plan of your own (a list of routes): legal or not, its score by the
    /// independent verifier, and how far it is from the proven optimum.
    Check(check::CheckArgs),
    /// Every optimal plan of a budget: how many, how often each ticket and
    /// route is in them, and the plans (up to --max); writes CSV and JSON.
    Optima(OptimaArgs),
    /// For every ticket, how far its value is from entering or leaving the
    /// optimal plans; for every route of the optimum, the cost of losing it.
    Breakeven(BreakEvenArgs),
    /// Simulated games between strategies (random, greedy, planner),
    /// measured against the single-player optimum; writes CSV and JSON.
    Simulate(SimulateArgs),
    /// A what-if scenario (ticket points, route lengths, routes or tickets
    /// added or removed, the car count) against the base board: the optimum
    /// of every budget side by side, and the tickets and routes that change.
    Compare(designer::CompareArgs),
    /// A Markdown balance report on a board for designers: score curve,
    /// marginal points per car, ticket value per car against the board's
    /// rate, break-even values, route blocking costs, with figures.
    Balance(designer::BalanceArgs),
    /// A budget's model (the paper's, or the forest model with the cuts
    /// that proved its optimum) as an MPS or LP file for another solver.
    Export(export::ExportArgs),
    /// A seeded random board shaped like the published maps (35–60 cities,
    /// planar routes, a deck valued like real ones), as a board file.
    Generate(GenerateArgs),
    /// Benchmark: the paper's model (with a time limit) against the sweep,
    /// per budget; prints a Markdown table and writes it with a CSV.
    Bench(BenchArgs),
}

/// Options shared by the commands that write result files.
#[derive(clap::Args)]
struct FilesArgs {
    /// Board file (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Directory for the result files (default: output/<board name>, the
    /// name reduced to letters, digits and dashes).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON (as written) instead of the table.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 64 (each solve itself is single-threaded).
    #[arg(long, default_value_t = 2, value_parser = threads)]
    threads: usize,
    /// Also draw the figures, as PNG and SVG, into the result directory.
    #[arg(long)]
    plot: bool,
}

impl FilesArgs {
    /// The result directory for `board`, created if missing.
    fn out_dir(&self, board: &Board) -> Result<PathBuf> {
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| crate::output::board_folder(&board.name));
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        Ok(out)
    }
}

#[derive(clap::Args)]
struct SensitivityArgs {
    /// Train cars (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    #[command(flatten)]
    files: FilesArgs,
}

#[derive(serde::Serialize)]
struct ImpactRow<'a> {
    kind: &'a str,
    name: &'a str,
    points: u32,
    optimum: u32,
    change: i64,
}

/// Progress of an analysis's solves: a bar with an ETA on a terminal, a
/// line per solve otherwise (as the sweep does).
pub(crate) struct StepBar {
    bar: indicatif::ProgressBar,
}

impl StepBar {
    pub(crate) fn new() -> StepBar {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} solves  {elapsed} elapsed, ETA {eta}  {msg}",
            )
            .expect("a valid template"),
        );
        StepBar { bar }
    }

    pub(crate) fn step(&self, step: crate::analysis::Step) {
        if self.bar.is_hidden() {
            eprintln!("{}", step.what);
        } else {
            self.bar.set_length(step.total as u64);
            self.bar.set_message(step.what.to_string());
            self.bar.inc(1);
        }
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn run_sensitivity(args: &SensitivityArgs) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let out = args.files.out_dir(&board)?;
    eprintln!("solving {cars} cars, then once without each ticket and route of the optimum ...");
    let bar = StepBar::new();
    let result = sensitivity_with(&board, cars, args.files.threads, &|step| bar.step(step));
    bar.finish();
    let result = result.context("sensitivity failed")?;
    let report = SensitivityReport::new(&board, &result);
    let json_path = out.join(format!("sensitivity-{cars}.json"));
    let json = serde_json::to_string_pretty(&report)?;
    write_text(&json_path, &(json.clone() + "\n"))?;
    let csv_path = out.join(format!("sensitivity-{cars}.csv"));
    let mut csv = csv::Writer::from_writer(Vec::new());
    for (kind, impacts) in [("ticket", &result.tickets), ("route", &result.routes)] {
        for i in impacts.iter() {
            csv.serialize(ImpactRow {
                kind,
                name: &i.name,
                points: i.points,
                optimum: i.optimum,
                change: i.change,
            })?;
        }
    }
    write_csv(csv, &csv_path)?;
    let mut written = vec![csv_path, json_path];
    if args.files.plot {
        let title = format!(
            "{}: the optimum without one ticket or route ({cars} cars, optimum {})",
            board.name, report.optimum
        );
        written.extend(plot::sensitivity(
            &title,
            &result.tickets,
            &result.routes,
            &out.join(format!("sensitivity-{cars}")),
        )?);
        written.extend(plot::map(
            &board,
            &result.base.plan,
            cars,
            &out.join(format!("map-{cars}")),
        )?);
    }
    if args.files.json {
        outln!("{json}");
    } else {
        outln!("Optimum with {cars} cars: {} points", report.optimum);
        for (title, what, impacts) in [
            ("Ticket removed from the game", "Ticket", &result.tickets),
            ("Route taken by an opponent", "Route", &result.routes),
        ] {
            outln!("\n{title}");
            outln!(
                "  {:<34} {:>6} {:>8} {:>7}",
                what,
                "Points",
                "Optimum",
                "Change"
            );
            for i in impacts.iter() {
                outln!(
                    "  {:<34} {:>6} {:>8} {:>7}",
                    i.name,
                    i.points,
                    i.optimum,
                    i.change
                );
            }
        }
        outln!("\nwrote {}", list(&written));
    }
    Ok(finished_or_cut_short(&result.unfinished))
}

/// Exit status of an analysis whose rows are all there (success), or of
/// one the time limit (or Ctrl-C) cut short (3, after saying which rows are
/// missing: the files written hold the others).
pub(crate) fn finished_or_cut_short(unfinished: &[String]) -> ExitCode {
    if unfinished.is_empty() {
        return ExitCode::SUCCESS;
    }
    const NAMED: usize = 8;
    let more = unfinished.len().saturating_sub(NAMED);
    eprintln!(
        "time limit: the solves for {}{} were cut short (all are listed under \"unfinished\" in \
         the JSON); the files written hold every other row",
        unfinished[..unfinished.len().min(NAMED)].join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    ExitCode::from(EXIT_TIME_LIMIT)
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Smallest budget.
    #[arg(long, default_value_t = 1, value_parser = budget)]
    from: u32,
    /// Largest budget.
    #[arg(long, default_value_t = 50, value_parser = budget)]
    to: u32,
    /// Time limit in seconds for the paper's model at each budget.
    #[arg(long, default_value_t = 10.0, value_parser = positive_seconds)]
    paper_limit: f64,
    /// Directory for bench.md and bench.csv.
    #[arg(long, value_name = "DIR", default_value = "output/bench")]
    out: PathBuf,
    /// Worker threads for the sweep, 1 to 64 (the paper's model runs on as many).
    #[arg(long, default_value_t = 2, value_parser = threads)]
    threads: usize,
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// The seed: the same seed gives the same board on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the board here instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn run_generate(args: &GenerateArgs) -> Result<ExitCode> {
    let text = serde_json::to_string_pretty(&crate::generate::board_json(args.seed))?;
    // Validated like any board file before anyone sees it.
    Board::from_json(&text, &format!("generated board {}", args.seed))?;
    match &args.out {
        Some(path) => write_text(path, &(text + "\n"))?,
        None => outln!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct SweepArgs {
    /// Smallest budget.
    #[arg(long, default_value_t = 1, value_parser = budget)]
    from: u32,
    /// Largest budget.
    #[arg(long, default_value_t = 50, value_parser = budget)]
    to: u32,
    /// Also count every optimal plan of every budget and write
    /// frequency-optima.{csv,json}: per ticket and route, the budgets where
    /// some optimum uses it, where every optimum does, and its share of the
    /// optima summed over the budgets.
    #[arg(long)]
    all_optima: bool,
    #[command(flatten)]
    files: FilesArgs,
}

#[derive(clap::Args)]
struct ReplanArgs {
    /// Game-state file (JSON; it names its board file, relative to itself).
    #[arg(value_name = "STATE.json")]
    state: PathBuf,
    /// Print the answer as JSON (schema in the README) instead of a table.
    #[arg(long)]
    json: bool,
    /// Exact method, as for `solve`.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

fn run_replan(args: &ReplanArgs) -> Result<ExitCode> {
    let (board, state) = GameState::load(&args.state)?;
    let options = SolveOptions {
        method: args.method,
        time_limit: None,
        start: None,
    };
    let result = replan(&board, &state, &options).context("replanning failed")?;
    let report = ReplanReport::new(&board, &state, &result);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.table());
    }
    Ok(match report.status {
        Status::Optimal => ExitCode::SUCCESS,
        Status::TimeLimit => ExitCode::from(EXIT_TIME_LIMIT),
    })
}

#[derive(clap::Args)]
struct SimulateArgs {
    /// Strategies in seat order, comma-separated: random, greedy, planner
    /// (2 to 5 of them; seats rotate from game to game).
    #[arg(long, value_delimiter = ',', default_value = "greedy,planner", value_parser = strategy)]
    players: Vec<String>,
    /// Games to play, 1 to 1,000,000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: u64,
    /// Seed of game 0; game g uses seed + g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The single-player optimum to measure against (default: solved for
    /// the board's own cars).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20_000_000))]
    optimum: Option<u32>,
    #[command(flatten)]
    files: FilesArgs,
}

#[derive(serde::Serialize)]
struct SimulateReport<'a> {
    board: &'a str,
    players: &'a [String],
    games: u64,
    seed: u64,
    optimum: u32,
    seconds: f64,
    games_per_second: f64,
    stalled: usize,
    strategies: &'a [Summary],
    /// Per strategy: the routes claimed most often in play (share of its
    /// seats), beside their share of the optima of a sweep when known.
    routes: Vec<RouteShare>,
}

#[derive(serde::Serialize)]
struct RouteShare {
    strategy: String,
    route: String,
    in_play: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    in_optima: Option<f64>,
}

fn run_simulate(args: &SimulateArgs) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let names: Vec<&str> = args.players.iter().map(String::as_str).collect();
    if !(2..=5).contains(&names.len()) {
        return Err(usage(format!(
            "--players names {} strategies; a game has 2 to 5 players",
            names.len()
        )));
    }
    let out = args.files.out_dir(&board)?;
    let optimum = match args.optimum {
        Some(o) => o,
        None => {
            eprintln!(
                "solving the single-player optimum for {} cars ...",
                board.cars
            );
            solve::solve_proven(
                &Instance::new(&board, board.cars),
                &SolveOptions::default(),
                || format!("the optimum of {} cars was proven", board.cars),
            )
            .context("solving the optimum failed")?
            .plan
            .score()
        }
    };
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template"),
    );
    let started = Instant::now();
    let played = solve::worker_pool(args.files.threads)?
        .install(|| simulate(&board, &names, args.games, args.seed, &|| bar.inc(1)))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    // The time limit may have stopped the run: report the games finished.
    let games = played.len() as u64;
    if games == 0 {
        return Err(SolveError::TimeLimit("a single game was finished".into()).into());
    }
    let summaries = summarise(&played, &names, optimum);
    let stalled = played.iter().filter(|p| p.stalled).count();

    // Route claims in play beside the frequency over optima, if a sweep wrote it.
    let optima: Option<Vec<(String, f64)>> = std::fs::read_to_string(out.join("frequency.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| {
            v["routes"].as_array().map(|rows| {
                rows.iter()
                    .filter_map(|r| Some((r["name"].as_str()?.to_string(), r["share"].as_f64()?)))
                    .collect()
            })
        });
    let mut routes = Vec::new();
    for s in &summaries {
        let shares = route_shares(&board, &played, &s.strategy);
        let mut ranked: Vec<(usize, f64)> = shares.into_iter().enumerate().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for (r, share) in ranked.into_iter().take(10) {
            let name = board.route_label(RouteId(r));
            let in_optima = optima
                .as_ref()
                .and_then(|o| o.iter().find(|(n, _)| *n == name).map(|(_, s)| *s));
            routes.push(RouteShare {
                strategy: s.strategy.clone(),
                route: name,
                in_play: share,
                in_optima,
            });
        }
    }

    let stem = format!("simulate-{}", names.join("-"));
    let csv_path = out.join(format!("{stem}.csv"));
    let mut csv = csv::Writer::from_writer(Vec::new());
    for seat in played.iter().flat_map(|p| &p.seats) {
        csv.serialize(seat)?;
    }
    write_csv(csv, &csv_path)?;
    let report = SimulateReport {
        board: &board.name,
        players: &args.players,
        games,
        seed: args.seed,
        optimum,
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        stalled,
        strategies: &summaries,
        routes,
    };
    let json_path = out.join(format!("{stem}.json"));
    write_json(&json_path, &report)?;
    let mut written = vec![csv_path, json_path];
    if args.files.plot {
        let series: Vec<(String, Vec<i64>)> = summaries
            .iter()
            .map(|s| {
                let scores = played
                    .iter()
                    .flat_map(|p| &p.seats)
                    .filter(|seat| seat.strategy == s.strategy)
                    .map(|seat| seat.score)
                    .collect();
                (s.strategy.clone(), scores)
            })
            .collect();
        let title = format!(
            "{}: final scores of {} games ({})",
            board.name,
            games,
            names.join(" vs ")
        );
        written.extend(plot::distribution(
            &title,
            &series,
            optimum as i64,
            &out.join(&stem),
        )?);
    }

    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!(
            "{} games of {} on {} in {seconds:.1} s ({:.0} games/s), {stalled} stalled; single-player optimum {optimum}",
            games,
            names.join(" vs "),
            board.name,
            report.games_per_second
        );
        outln!(
            "\n{:<8} {:>6} {:>5} {:>6} {:>5} {:>5} {:>6} {:>5} {:>5} {:>5}  {:>7} {:>6} {:>5} {:>5}",
            "strategy", "seats", "wins", "mean", "p10", "p25", "median", "p75", "p90", "max", "tickets", "cars", "turns", "gap"
        );
        for s in &summaries {
            outln!(
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
        outln!("\n(tickets: completed/held per game; gap: optimum minus score without the longest-path bonus)");
        outln!("\nwrote {}", list(&written));
    }
    if games < args.games {
        eprintln!(
            "time limit: {games} of {} games played; the statistics are over those",
            args.games
        );
        return Ok(ExitCode::from(EXIT_TIME_LIMIT));
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct OptimaArgs {
    /// Train cars (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// List at most this many optimal plans (all are counted).
    #[arg(long, default_value_t = 20)]
    max: usize,
    #[command(flatten)]
    files: FilesArgs,
}

fn run_optima(args: &OptimaArgs) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let out = args.files.out_dir(&board)?;
    eprintln!("finding every optimal plan for {cars} cars ...");
    let o = all_optima(&board, cars, args.max).context("listing the optima failed")?;
    let report = OptimaReport::new(&board, &o);
    let (tickets, routes) = (&report.tickets, &report.routes);
    let json_path = out.join(format!("optima-{cars}.json"));
    write_json(&json_path, &report)?;
    let csv_path = out.join(format!("optima-{cars}.csv"));
    let mut csv = csv::Writer::from_writer(Vec::new());
    for (kind, rows) in [("ticket", tickets), ("route", routes)] {
        for s in rows.iter() {
            csv.serialize(ShareRow {
                kind,
                name: &s.name,
                points: s.points,
                count: s.count.to_string(),
                share: s.share,
            })?;
        }
    }
    write_csv(csv, &csv_path)?;
    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} optimal plan(s) of {} points with {cars} cars (the fewest cars any uses: {})",
        o.count,
        o.score,
        o.fewest_cars
    );
    for (title, rows) in [("Tickets", tickets), ("Routes", routes)] {
        outln!("\n{title} in the optimal plans");
        outln!("  {:<34} {:>6} {:>7}", "", "Points", "Share");
        for s in rows.iter() {
            outln!("  {:<34} {:>6} {:>6.1}%", s.name, s.points, s.share * 100.0);
        }
    }
    for (k, p) in report.plans.iter().enumerate() {
        outln!(
            "\nPlan {} ({} cars): {}",
            k + 1,
            p.cars_used,
            p.routes.join(", ")
        );
        outln!("  tickets: {}", p.tickets.join(", "));
    }
    if o.capped {
        outln!(
            "\n(listed {} of {}; --max lists more)",
            o.plans.len(),
            o.count
        );
    }
    outln!("\nwrote {}", list(&[csv_path, json_path]));
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct ShareRow<'a> {
    kind: &'a str,
    name: &'a str,
    points: u32,
    count: String,
    share: f64,
}

#[derive(clap::Args)]
struct BreakEvenArgs {
    /// Train cars (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    #[command(flatten)]
    files: FilesArgs,
}

fn run_break_even(args: &BreakEvenArgs) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let out = args.files.out_dir(&board)?;
    eprintln!("solving {cars} cars, then per ticket and per route of the optimum ...");
    let bar = StepBar::new();
    let r = break_even_with(&board, cars, args.files.threads, &|step| bar.step(step));
    bar.finish();
    let r = r.context("break-even analysis failed")?;
    let report = BreakEvenReport::new(&board, &r);
    let json_path = out.join(format!("breakeven-{cars}.json"));
    write_json(&json_path, &report)?;
    let csv_path = out.join(format!("breakeven-{cars}.csv"));
    let mut csv = csv::Writer::from_writer(Vec::new());
    for t in &r.tickets {
        csv.serialize(t)?;
    }
    write_csv(csv, &csv_path)?;
    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(finished_or_cut_short(&r.unfinished));
    }
    let opt = |v: Option<u32>| v.map_or("-".to_string(), |x| x.to_string());
    outln!("Optimum with {cars} cars: {} points\n", r.optimum);
    outln!(
        "  {:<34} {:>6}  {:<10} {:>9} {:>9} {:>8} {:>8}",
        "Ticket",
        "Points",
        "In optima",
        "Best with",
        "Without",
        "Raise by",
        "Lower by"
    );
    for t in &r.tickets {
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
        outln!(
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
    outln!("\n  Raise by: points to add before an optimum completes the ticket (a tie; one more and every optimum does).");
    outln!("  Lower by: points to remove before an optimum leaves it out; never: completed even at 0 points.");
    outln!(
        "\n  {:<34} {:>6} {:>10} {:>7}  avoidable",
        "Route of the optimum",
        "Points",
        "If blocked",
        "Change"
    );
    for b in &report.routes {
        outln!(
            "  {:<34} {:>6} {:>10} {:>7}  {}",
            b.name,
            b.points,
            b.optimum_if_blocked,
            b.change,
            if b.avoidable { "yes" } else { "no" }
        );
    }
    outln!("\nwrote {}", list(&[csv_path, json_path]));
    Ok(finished_or_cut_short(&r.unfinished))
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Train cars available (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// Board file in the format of data/README.md (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Print the answer as JSON (schema in the README) instead of a table.
    #[arg(long)]
    json: bool,
    /// Exact method: auto (default: forest or frontier, whichever suits the
    /// budget), frontier (dynamic programme), forest (rooted-forest MIP),
    /// paper (the published flow MIP), paper-integer (the same, binary flows).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

/// Longest time limit: about 115 days, far beyond any run, and small enough
/// for every clock to add.
const MAX_SECONDS: f64 = 1e7;

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= MAX_SECONDS => Ok(t),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most {MAX_SECONDS}"
        )),
    }
}

/// A train-car budget, in the range of a board's `cars`.
fn budget(text: &str) -> Result<u32, String> {
    let range = crate::input::CARS;
    match text.trim().parse::<u32>() {
        Ok(c) if range.contains(&c) => Ok(c),
        _ => Err(format!(
            "expected a whole number of train cars from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// Worker threads: [`crate::input::THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    let range = crate::input::THREADS;
    match text.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number of threads from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// A strategy name of `--players`.
fn strategy(text: &str) -> Result<String, String> {
    let name = text.trim();
    match by_name(name) {
        Some(_) => Ok(name.to_string()),
        None => Err(format!(
            "unknown strategy (known: {})",
            STRATEGIES.join(", ")
        )),
    }
}

/// A command line that parses but asks for the impossible (`--from 10 --to
/// 5`): reported like clap's own errors, with exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

fn usage(message: impl Into<String>) -> anyhow::Error {
    Usage(message.into()).into()
}

/// Loads `--board FILE`, or the built-in USA board.
fn load_board(path: Option<&PathBuf>) -> Result<Board> {
    let board = match path {
        Some(p) => Board::load(p)?,
        None => Board::usa(),
    };
    for w in &board.warnings {
        eprintln!("warning: {w}");
    }
    Ok(board)
}

fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    let board = load_board(args.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let instance = Instance::new(&board, cars);
    let options = SolveOptions {
        method: args.method,
        time_limit: None,
        start: None,
    };
    let outcome = solve(&instance, &options).context("solving failed")?;
    let report = SolveReport::new(&board, cars, &outcome);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let title = if board.title.is_empty() {
            &board.name
        } else {
            &board.title
        };
        out!("{}", report.table(title));
    }
    Ok(match report.status {
        Status::Optimal => ExitCode::SUCCESS,
        Status::TimeLimit => ExitCode::from(EXIT_TIME_LIMIT),
    })
}

fn run_sweep(args: &SweepArgs) -> Result<ExitCode> {
    if args.from > args.to {
        return Err(usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let board = load_board(args.files.board.as_ref())?;
    let out = args.files.out_dir(&board)?;
    let count = (args.to - args.from + 1) as u64;
    let bar = indicatif::ProgressBar::new(count);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} budgets  {elapsed} elapsed, ETA {eta}  {msg}",
        )
        .expect("a valid template"),
    );
    // Without a terminal the bar draws nothing: say each budget on its own line.
    let plain = bar.is_hidden();
    let started = Instant::now();
    let entries = sweep(
        &board,
        args.from,
        args.to,
        args.files.threads,
        &|e: &SweepEntry| {
            let line = format!(
                "{} cars: {} points ({})",
                e.cars,
                e.outcome.plan.score(),
                method_name(e.outcome.method)
            );
            if plain {
                eprintln!("{line}");
            } else {
                bar.set_message(line);
                bar.inc(1);
            }
        },
    )
    .context("sweep failed")?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();

    let reports: Vec<SweepReport> = entries
        .iter()
        .map(|e| SweepReport::new(&board, e))
        .collect();
    let csv_path = out.join("sweep.csv");
    let mut csv = csv::Writer::from_writer(Vec::new());
    for r in &reports {
        csv.serialize(SweepRow::new(r))?;
    }
    write_csv(csv, &csv_path)?;
    let json_path = out.join("sweep.json");
    write_json(&json_path, &reports)?;

    let freq = frequency(&board, entries.iter().map(|e| &e.outcome.plan));
    let freq_json = out.join("frequency.json");
    write_json(
        &freq_json,
        &FrequencyReport {
            board: &board.name,
            from: args.from,
            to: args.to,
            tie_break: TIE_BREAK,
            frequency: &freq,
        },
    )?;
    let freq_csv = out.join("frequency.csv");
    let mut csv = csv::Writer::from_writer(Vec::new());
    for (kind, rows) in [("ticket", &freq.tickets), ("route", &freq.routes)] {
        for c in rows.iter() {
            csv.serialize(FrequencyRow {
                kind,
                name: &c.name,
                points: c.points,
                length: c.length,
                count: c.count,
                share: c.share,
            })?;
        }
    }
    write_csv(csv, &freq_csv)?;
    let mut written = vec![csv_path, json_path, freq_csv, freq_json];
    let every = if !args.all_optima {
        None
    } else if entries.iter().all(|e| e.outcome.proven) {
        let (every, files) = write_sweep_optima(&board, &entries, &out, args)?;
        written.extend(files);
        Some(every)
    } else {
        eprintln!("time limit: not every budget was proven, so their optima were not counted");
        None
    };
    if args.files.plot {
        let points: Vec<(u32, u32, u32)> = reports
            .iter()
            .map(|r| (r.report.cars, r.report.ticket_points, r.report.route_points))
            .collect();
        let title = format!("{}: optimal score by number of train cars", board.name);
        written.extend(plot::score_curve(
            &title,
            &points,
            &out.join("score-curve"),
        )?);
        let title = format!(
            "{}: most frequent in the optima for {} to {} cars",
            board.name, args.from, args.to
        );
        written.extend(plot::frequency(&title, &freq, 10, &out.join("frequency"))?);
        // The map at the board's own budget (Figure 2), or the largest.
        let at = entries
            .iter()
            .find(|e| e.cars == board.cars)
            .unwrap_or(&entries[entries.len() - 1]);
        written.extend(plot::map(
            &board,
            &at.outcome.plan,
            at.cars,
            &out.join(format!("map-{}", at.cars)),
        )?);
    }

    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        outln!(
            "{:>5} {:>6} {:>8} {:>7} {:>5}  {:<9} {:>8}",
            "cars",
            "score",
            "tickets",
            "routes",
            "used",
            "method",
            "status"
        );
        for r in reports.iter().map(|r| &r.report) {
            outln!(
                "{:>5} {:>6} {:>8} {:>7} {:>5}  {:<9} {:>8}",
                r.cars,
                r.score,
                r.ticket_points,
                r.route_points,
                r.cars_used,
                method_name(r.method),
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
        outln!(
            "\n{} budgets, {proven} proven optimal, in {seconds:.1} s on {} threads",
            reports.len(),
            args.files.threads,
        );
        outln!("\nTie-break: {TIE_BREAK}");
        for (title, rows) in [
            ("Tickets most often completed", &freq.tickets),
            ("Routes most often claimed", &freq.routes),
        ] {
            outln!("\n{title} (over {} optima)", freq.plans);
            outln!("  {:<34} {:>6} {:>6}", "", "Points", "Count");
            for c in rows.iter().take(10) {
                outln!("  {:<34} {:>6} {:>6}", c.name, c.points, c.count);
            }
        }
        if let Some(every) = &every {
            print_sweep_optima(every)?;
        }
        outln!("\nwrote {}", list(&written));
    }
    // A time limit left some budgets unproven: they are in the files,
    // marked, and the exit status says so.
    Ok(if entries.iter().all(|e| e.outcome.proven) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_TIME_LIMIT)
    })
}

fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    if args.from > args.to {
        return Err(usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let board = load_board(None)?;
    let budgets: Vec<u32> = (args.from..=args.to).collect();
    eprintln!(
        "paper model, {} budgets, {} s limit each, {} threads ...",
        budgets.len(),
        args.paper_limit,
        args.threads
    );
    let pool = crate::solve::worker_pool(args.threads)?;
    let paper_started = Instant::now();
    let paper: Vec<Outcome> = pool.install(|| {
        use rayon::prelude::*;
        budgets
            .par_iter()
            .with_max_len(1)
            .map(|&c| {
                // The plain model: no preprocessing, no warm start.
                let inst = Instance::unreduced(&board, c);
                let options = SolveOptions {
                    method: Method::Paper,
                    time_limit: Some(args.paper_limit),
                    start: Some(Vec::new()),
                };
                solve(&inst, &options)
            })
            .collect::<Result<_, _>>()
    })?;
    let paper_seconds = paper_started.elapsed().as_secs_f64();
    eprintln!("paper model done in {paper_seconds:.1} s; sweep ...");
    let started = Instant::now();
    let entries = sweep(
        &board,
        args.from,
        args.to,
        args.threads,
        &|_: &SweepEntry| {},
    )?;
    let sweep_seconds = started.elapsed().as_secs_f64();

    let mut md = String::new();
    let mut rows = Vec::new();
    md.push_str(&format!(
        "Sweep {}..{} on the USA board: all {} budgets proven optimal in {sweep_seconds:.1} s wall on {} threads.\n\n",
        args.from,
        args.to,
        entries.len(),
        args.threads
    ));
    md.push_str(&format!(
        "The paper's plain model (no preprocessing, no warm start, {} s limit per budget) over the same budgets: {paper_seconds:.1} s wall on {} threads, {} of {} proven.\n\n",
        args.paper_limit,
        args.threads,
        paper.iter().filter(|o| o.proven).count(),
        paper.len()
    ));
    md.push_str("| cars | paper: proven | score | bound | seconds | fast: method | proven | score | seconds | paper ÷ fast |\n");
    md.push_str("| ---: | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |\n");
    for (p, e) in paper.iter().zip(&entries) {
        let f = &e.outcome;
        let ratio = p.seconds / f.seconds.max(1e-3);
        let ratio_text = if p.proven {
            format!("{ratio:.1}")
        } else {
            format!("> {ratio:.1}")
        };
        md.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} | {} | {:.2} | {} |\n",
            e.cars,
            if p.proven { "yes" } else { "no" },
            p.plan.score(),
            p.bound,
            p.seconds,
            method_name(f.method),
            if f.proven { "yes" } else { "no" },
            f.plan.score(),
            f.seconds,
            ratio_text
        ));
        rows.push(BenchRow {
            cars: e.cars,
            paper_proven: p.proven,
            paper_score: p.plan.score(),
            paper_bound: p.bound,
            paper_seconds: p.seconds,
            method: method_name(f.method),
            proven: f.proven,
            score: f.plan.score(),
            seconds: f.seconds,
        });
    }
    md.push_str("\nFrontier budgets share one run of the programme: each is given an equal share of its time.\n");
    out!("{md}");
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    write_text(&args.out.join("bench.md"), &md)?;
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in rows {
        csv.serialize(row)?;
    }
    write_csv(csv, &args.out.join("bench.csv"))?;
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct BenchRow {
    cars: u32,
    paper_proven: bool,
    paper_score: u32,
    paper_bound: u32,
    paper_seconds: f64,
    method: String,
    proven: bool,
    score: u32,
    seconds: f64,
}

#[derive(serde::Serialize)]
struct FrequencyReport<'a> {
    board: &'a str,
    from: u32,
    to: u32,
    tie_break: &'a str,
    #[serde(flatten)]
    frequency: &'a Frequency,
}

#[derive(serde::Serialize)]
struct FrequencyRow<'a> {
    kind: &'a str,
    name: &'a str,
    points: u32,
    length: Option<u32>,
    count: usize,
    share: f64,
}

/// Counts every optimum of every budget of a proven sweep and writes
/// `frequency-optima.{csv,json}` (and, with `--plot`, its figure).
fn write_sweep_optima(
    board: &Board,
    entries: &[SweepEntry],
    out: &Path,
    args: &SweepArgs,
) -> Result<(SweepOptima, Vec<PathBuf>)> {
    eprintln!("counting every optimal plan of every budget ...");
    let bar = StepBar::new();
    let every = optima::over_sweep(board, entries, args.files.threads, &|s| bar.step(s));
    bar.finish();
    let every = every.context("counting the optima failed")?;
    let json_path = out.join("frequency-optima.json");
    write_json(
        &json_path,
        &SweepOptimaReport {
            board: &board.name,
            optima: &every,
        },
    )?;
    let csv_path = out.join("frequency-optima.csv");
    let mut csv = csv::Writer::from_writer(Vec::new());
    for (kind, rows) in [("ticket", &every.tickets), ("route", &every.routes)] {
        for p in rows.iter() {
            csv.serialize(PresenceRow {
                kind,
                name: &p.name,
                points: p.points,
                length: p.length,
                some: p.some,
                every: p.every,
                share_sum: p.share_sum,
                picked: p.picked,
            })?;
        }
    }
    write_csv(csv, &csv_path)?;
    let mut written = vec![csv_path, json_path];
    if args.files.plot {
        let title = format!(
            "{}: in every and in some optimum, over the budgets {} to {}",
            board.name, every.from, every.to
        );
        written.extend(plot::presence(
            &title,
            &every,
            10,
            &out.join("frequency-optima"),
        )?);
    }
    Ok((every, written))
}

#[derive(serde::Serialize)]
struct SweepOptimaReport<'a> {
    board: &'a str,
    #[serde(flatten)]
    optima: &'a SweepOptima,
}

/// A CSV row of `frequency-optima.csv` (the csv crate writes no nested
/// fields, so they are spelled out).
#[derive(serde::Serialize)]
struct PresenceRow<'a> {
    kind: &'a str,
    name: &'a str,
    points: u32,
    length: Option<u32>,
    some: u32,
    every: u32,
    share_sum: f64,
    picked: u32,
}

fn print_sweep_optima(every: &SweepOptima) -> Result<()> {
    let budgets = every.budgets.len();
    for (title, rows) in [("Tickets", &every.tickets), ("Routes", &every.routes)] {
        outln!("\n{title} over every optimal plan of the {budgets} budgets (some: budgets where at least one optimum uses it; every: where all do; share: its share of the optima summed over the budgets; picked: where the reported plan does)");
        outln!(
            "  {:<34} {:>6} {:>5} {:>5} {:>6} {:>6}",
            "",
            "Points",
            "some",
            "every",
            "share",
            "picked"
        );
        for p in rows.iter().take(10) {
            outln!(
                "  {:<34} {:>6} {:>5} {:>5} {:>6.1} {:>6}",
                p.name,
                p.points,
                p.some,
                p.every,
                p.share_sum,
                p.picked
            );
        }
    }
    let many = every
        .budgets
        .iter()
        .filter(|b| b.count != "1")
        .map(|b| format!("{} ({})", b.cars, b.count))
        .collect::<Vec<_>>();
    outln!(
        "\nBudgets with more than one optimal plan (cars (plans)): {}",
        if many.is_empty() {
            "none".to_string()
        } else {
            many.join(", ")
        }
    );
    Ok(())
}

/// "a, b and c" of some paths.
fn list(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// Writes pretty JSON with a final newline, atomically.
fn write_json(path: &std::path::Path, value: &impl serde::Serialize) -> Result<()> {
    write_text(path, &(serde_json::to_string_pretty(value)? + "\n"))
}

/// Writes a text file atomically (see [`crate::output::write_atomic`]).
fn write_text(path: &std::path::Path, text: &str) -> Result<()> {
    crate::output::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the rows a CSV writer collected in memory, atomically.
fn write_csv(csv: csv::Writer<Vec<u8>>, path: &std::path::Path) -> Result<()> {
    let bytes = csv
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error()))?;
    crate::output::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// One line of sweep.csv: the numbers, with routes and tickets as
/// `A – B; C – D` lists.
#[derive(serde::Serialize)]
struct SweepRow {
    cars: u32,
    plan_from: u32,
    score: u32,
    ticket_points: u32,
    route_points: u32,
    cars_used: u32,
    status: Status,
    bound: u32,
    method: String,
    seconds: f64,
    routes: String,
    tickets: String,
}

impl SweepRow {
    fn new(s: &SweepReport) -> SweepRow {
        let r = &s.report;
        SweepRow {
            cars: r.cars,
            plan_from: s.plan_from,
            score: r.score,
            ticket_points: r.ticket_points,
            route_points: r.route_points,
            cars_used: r.cars_used,
            status: r.status,
            bound: r.bound,
            method: method_name(r.method),
            seconds: r.seconds,
            routes: r
                .routes
                .iter()
                .map(|x| format!("{} – {}", x.from, x.to))
                .collect::<Vec<_>>()
                .join("; "),
            tickets: r
                .tickets
                .iter()
                .map(|x| format!("{} – {}", x.from, x.to))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

fn method_name(method: Method) -> String {
    serde_json::to_value(method)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// An error and its causes, each said once: the file errors already quote
/// their cause (`cannot read F: No such file`), and a cause that repeats
/// what was said adds nothing.
fn message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(mb) = cli.memory_limit {
        crate::frontier::set_memory_budget((mb as usize).saturating_mul(1 << 20));
    }
    crate::limits::set_time_limit(cli.time_limit);
    // Ctrl-C stops the run as a time limit would, keeping what is finished;
    // a second one quits at once. (Files are written atomically, so even
    // that leaves no half-written result.)
    let _ = ctrlc::set_handler(|| {
        if crate::limits::interrupted() {
            std::process::exit(EXIT_INTERRUPTED.into());
        }
        crate::limits::interrupt();
        eprintln!(
            "\ninterrupted: stopping and reporting what is finished (Ctrl-C again to quit at once)"
        );
    });
    let result = match &cli.command {
        Command::Solve(args) => run_solve(args),
        Command::Sweep(args) => run_sweep(args),
        Command::Bench(args) => run_bench(args),
        Command::Generate(args) => run_generate(args),
        Command::Sensitivity(args) => run_sensitivity(args),
        Command::Replan(args) => run_replan(args),
        Command::Simulate(args) => run_simulate(args),
        Command::Optima(args) => run_optima(args),
        Command::Breakeven(args) => run_break_even(args),
        Command::Check(args) => check::run_check(args),
        Command::Export(args) => export::run_export(args),
        Command::Compare(args) => designer::run_compare(args),
        Command::Balance(args) => designer::run_balance(args),
    };
    // What is still buffered must reach the reader too.
    let result = result.and_then(|code| {
        use std::io::Write as _;
        std::io::stdout().flush().map_err(StdoutError)?;
        Ok(code)
    });
    match result {
        // The reader has gone (`| head`): nothing more to say to anyone.
        Err(e)
            if e.downcast_ref::<StdoutError>()
                .is_some_and(|s| s.0.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Ok(_) if crate::limits::interrupted() => ExitCode::from(EXIT_INTERRUPTED),
        Ok(code) => code,
        Err(e)
            if e.chain()
                .any(|c| matches!(c.downcast_ref(), Some(SolveError::TimeLimit(_)))) =>
        {
            if crate::limits::interrupted() {
                eprintln!("interrupted: {}", message(&e));
                ExitCode::from(EXIT_INTERRUPTED)
            } else {
                eprintln!("time limit: {}", message(&e));
                ExitCode::from(EXIT_TIME_LIMIT)
            }
        }
        Err(e) if e.is::<Usage>() => {
            eprintln!("error: {e}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {}", message(&e));
            ExitCode::FAILURE
        }
    }
}
