//! The `ttr-opt` command line: argument parsing, progress and printing
//! only; the work is done by the library, and the tables and JSON come from
//! [`crate::output`]. One file per command (or family of commands).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::board::Board;
use crate::output::report::Status;
use crate::solve::SolveError;

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

mod analyses;
mod bench;
mod check;
mod deals;
mod designer;
mod export;
mod play;
mod playtest;
mod review;
mod serve;
mod simulate;
mod solve;
mod sweep;
mod tournament;
mod tune;

/// Standard output could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output: {0}")]
pub struct StdoutError(pub std::io::Error);

/// Exit code when a time limit stopped the solver before it proved optimality.
pub const EXIT_TIME_LIMIT: u8 = 3;

/// Exit status 0 when everything asked was proven, else [`EXIT_TIME_LIMIT`]
/// (a time limit left something unproven; the output says what).
fn proven_status(proven: bool) -> ExitCode {
    if proven {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_TIME_LIMIT)
    }
}

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
/// The `ttr-opt` command line (its help text is set above).
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
    /// found with their bounds and gaps, `simulate` the games finished,
    /// `tournament` the whole rounds played;
    /// sensitivity, breakeven and balance write the rows whose solves
    /// finished and name the others; optima and compare stop and say what
    /// was not proven; tune reports the best revisions measured so far.
    /// For `play`, a limit per answer: each coach's answer
    /// and each review plan stops after SECS seconds (or its
    /// --coach-limit, if shorter), however long the server has run.
    #[arg(long, global = true, value_name = "SECS", value_parser = positive_seconds)]
    time_limit: Option<f64>,
}

#[derive(Subcommand)]
enum Command {
    /// Find the highest-scoring set of routes for a train-car budget (on
    /// both cores; the same plan on one). On a terminal, the best plan so
    /// far and the bound on the optimum are shown while the proof runs.
    Solve(solve::SolveArgs),
    /// Solve every budget in a range to proven optimality; write CSV and JSON.
    Sweep(sweep::SweepArgs),
    /// How much the optimum loses without each ticket and each route of the
    /// optimal plan (a ticket taken out of the game, a route taken by an
    /// opponent); writes CSV and JSON.
    Sensitivity(analyses::BudgetArgs),
    /// The best plan from the middle of a game: cars left, routes owned and
    /// taken by others, tickets held (format in data/README.md).
    Replan(solve::ReplanArgs),
    /// A plan of your own (a list of routes): legal or not, its score by the
    /// independent verifier, and how far it is from the proven optimum.
    Check(check::CheckArgs),
    /// A saved game reviewed turn by turn: for each player, the best final
    /// score still reachable at each turn, where points were lost (their
    /// own claims, the others', the end), beside the single-player optimum
    /// of the same tickets; writes JSON, CSV and, with --plot, a figure.
    Review(review::ReviewArgs),
    /// The luck of the deal: every hand of tickets a player can be dealt
    /// (or a seeded sample), valued by the best score it allows alone on
    /// the board, over the subsets the player may keep; the distribution,
    /// each ticket's value as a card, the best and worst hands. Writes
    /// deals-<hand>-<keep>.{json,csv} and -tickets.csv.
    Deals(deals::DealsArgs),
    /// Every optimal plan of a budget: how many, how often each ticket and
    /// route is in them, and the plans (up to --max); writes CSV and JSON.
    Optima(analyses::OptimaArgs),
    /// For every ticket, how far its value is from entering or leaving the
    /// optimal plans; for every route of the optimum, the cost of losing it.
    Breakeven(analyses::BudgetArgs),
    /// Simulated games between strategies (random, greedy, planner, mcts, the 2017 styles),
    /// measured against the single-player optimum; writes CSV and JSON.
    Simulate(simulate::SimulateArgs),
    /// Every table of strategies on every board and seat count, in every
    /// seat order, seeded: per strategy its wins with a 95 % interval,
    /// scores, tickets, points lost by cause and a Weng-Lin rating; writes
    /// a Markdown report with a figure, CSV and JSON.
    Tournament(tournament::TournamentArgs),
    /// AI playtesting of a board (de Mesentier Silva et al. 2017): per
    /// seat count, the agent styles' win rates with 95 % intervals, the
    /// most and least claimed routes and desired cities beside the
    /// single-player optimum, and every rule hole met (stall, move cap,
    /// engine error) with the seed that replays it; writes a Markdown
    /// report with a figure, CSV and JSON.
    Playtest(playtest::PlaytestArgs),
    /// A what-if scenario (ticket points, route lengths, routes or tickets
    /// added or removed, the car count) against the base board: the optimum
    /// of every budget side by side, and the tickets and routes that change.
    Compare(designer::CompareArgs),
    /// A Markdown balance report on a board for designers: score curve,
    /// marginal points per car, ticket value per car against the board's
    /// rate, break-even values, route blocking costs, with figures.
    Balance(designer::BalanceArgs),
    /// Proposed revisions of a board's ticket points (and, where the
    /// targets file allows, routes' lengths and tickets out or replaced)
    /// towards the balance report's targets (no dead ticket, no generous one, points per car
    /// near the median, the deal's spread no wider), each proven by exact
    /// solves on the revised board; writes them as scenario files for
    /// `compare` with a Markdown report (on the USA board, against the
    /// 1910 reprint's four changes).
    Tune(tune::TuneArgs),
    /// A budget's model (the paper's, or the forest model with the cuts
    /// that proved its optimum) as an MPS or LP file for another solver.
    Export(export::ExportArgs),
    /// A local web page for designers: the map with the optimal plan of
    /// every budget, the score curve, a heat map and the tickets table, and
    /// what-if edits recomputed as you make them.
    Serve(serve::ServeArgs),
    /// The online game: accounts, a lobby, games on any board in the
    /// browser with the rules enforced, bots, and every move kept in a
    /// SQLite file (docs/play.md).
    Play(play::PlayArgs),
    /// A seeded random board shaped like the published maps (35–60 cities,
    /// planar routes, a deck valued like real ones), as a board file.
    Generate(bench::GenerateArgs),
    /// Benchmarks, each printed as a Markdown table and written with a CSV:
    /// the paper's model (with a time limit) against the sweep, per budget;
    /// with --boards, every board swept; with --balance, every board's
    /// balance report; with --generated N, the generated boards solved (or
    /// swept, with --sweep); with --play, the online game under load; with
    /// --coach, the coach and the review.
    Bench(bench::BenchArgs),
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
    /// Worker threads, 1 to 64 (each solve of the run on one of them).
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
    let range = crate::board::input::CARS;
    match text.trim().parse::<u32>() {
        Ok(c) if range.contains(&c) => Ok(c),
        _ => Err(format!(
            "expected a whole number of train cars from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// Worker threads: [`crate::board::input::THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    let range = crate::board::input::THREADS;
    match text.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number of threads from {} to {}",
            range.start(),
            range.end()
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
    Ok(load_board_with_text(path)?.0)
}

/// [`load_board`], also returning the file's text (scenarios apply to it).
fn load_board_with_text(path: Option<&PathBuf>) -> Result<(Board, String)> {
    let (board, text) = match path {
        Some(p) => Board::load_with_text(p)?,
        None => (Board::usa(), crate::board::USA_JSON.to_string()),
    };
    for w in &board.warnings {
        eprintln!("warning: {w}");
    }
    Ok((board, text))
}

/// "a, b and c" of some paths.
fn list(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// A command's answer on stdout: its JSON with `--json` (as written to its
/// file), else the terminal's `table` and the files `written`.
fn answer(
    json: bool,
    value: &impl serde::Serialize,
    table: impl FnOnce() -> String,
    written: &[PathBuf],
) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(value)?);
    } else {
        out!("{}", table());
        outln!("\nwrote {}", list(written));
    }
    Ok(())
}

/// Writes pretty JSON with a final newline, atomically.
fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    write_text(path, &(serde_json::to_string_pretty(value)? + "\n"))
}

/// Writes a text file atomically (see [`crate::output::write_atomic`]).
fn write_text(path: &Path, text: &str) -> Result<()> {
    crate::output::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes rows as a CSV file (see [`crate::output::rows`]), atomically.
fn write_csv<T: serde::Serialize>(path: &Path, rows: impl IntoIterator<Item = T>) -> Result<()> {
    let bytes = crate::output::rows::to_csv(rows)
        .with_context(|| format!("cannot write {}", path.display()))?;
    crate::output::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Exit status of a solve: success if proven, 3 if a limit stopped it.
fn status_code(status: Status) -> ExitCode {
    match status {
        Status::Optimal => ExitCode::SUCCESS,
        Status::TimeLimit => ExitCode::from(EXIT_TIME_LIMIT),
    }
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
    // The command's limits, made here and passed down with every call
    // (for `play`, each coach's answer gets its own: see `run_play`).
    let limits = crate::solve::limits::Limits::none()
        .with_time_limit(cli.time_limit)
        .with_memory(
            cli.memory_limit
                .map(|mb| (mb as usize).saturating_mul(1 << 20)),
        );
    // Ctrl-C stops the run as a time limit would, keeping what is finished;
    // a second one quits at once. (Files are written atomically, so even
    // that leaves no half-written result.)
    let _ = ctrlc::set_handler(|| {
        if crate::solve::limits::interrupted() {
            std::process::exit(EXIT_INTERRUPTED.into());
        }
        crate::solve::limits::interrupt();
        eprintln!(
            "\ninterrupted: stopping and reporting what is finished (Ctrl-C again to quit at once)"
        );
    });
    let result = match &cli.command {
        Command::Solve(args) => solve::run_solve(args, &limits),
        Command::Sweep(args) => sweep::run_sweep(args, &limits),
        Command::Bench(args) => bench::run_bench(args, &limits),
        Command::Generate(args) => bench::run_generate(args, &limits),
        Command::Sensitivity(args) => analyses::run_sensitivity(args, &limits),
        Command::Replan(args) => solve::run_replan(args, &limits),
        Command::Simulate(args) => simulate::run_simulate(args, &limits),
        Command::Tournament(args) => tournament::run_tournament(args, &limits),
        Command::Playtest(args) => playtest::run_playtest(args, &limits),
        Command::Optima(args) => analyses::run_optima(args, &limits),
        Command::Breakeven(args) => analyses::run_break_even(args, &limits),
        Command::Check(args) => check::run_check(args, &limits),
        Command::Review(args) => review::run_review(args, &limits),
        Command::Deals(args) => deals::run_deals(args, &limits),
        Command::Export(args) => export::run_export(args, &limits),
        Command::Serve(args) => serve::run_serve(args, &limits),
        Command::Play(args) => play::run_play(args, cli.time_limit),
        Command::Compare(args) => designer::run_compare(args, &limits),
        Command::Balance(args) => designer::run_balance(args, &limits),
        Command::Tune(args) => tune::run_tune(args, &limits),
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
        Ok(_) if crate::solve::limits::interrupted() => ExitCode::from(EXIT_INTERRUPTED),
        Ok(code) => code,
        Err(e)
            if e.chain()
                .any(|c| matches!(c.downcast_ref(), Some(SolveError::TimeLimit(_)))) =>
        {
            if crate::solve::limits::interrupted() {
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
