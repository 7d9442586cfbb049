//! The `ttr-opt` command line: argument parsing and printing only; the work
//! is done by the library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::board::Board;
use crate::model::Instance;
use crate::report::{SolveReport, Status};
use crate::solve::{solve, Method, SolveOptions};

/// The original North-American board, built into the binary so that
/// `ttr-opt solve` works from any directory.
const USA_BOARD: &str = include_str!("../data/usa.json");

/// Exit code when a time limit stopped the solver before it proved optimality.
pub const EXIT_TIME_LIMIT: u8 = 3;

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
        2 bad command line, 3 time limit reached before optimality was proven."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find the highest-scoring set of routes for a train-car budget.
    Solve(SolveArgs),
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Train cars available (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c')]
    cars: Option<u32>,
    /// Board file in the format of data/README.md (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Print the answer as JSON (schema in the README) instead of a table.
    #[arg(long)]
    json: bool,
    /// Stop after SECS seconds and report the best plan found, its bound and
    /// its gap (exit status 3 if not proven optimal).
    #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
    time_limit: Option<f64>,
    /// Exact method: auto (default: forest or frontier, whichever suits the
    /// budget), frontier (dynamic programme), forest (rooted-forest MIP),
    /// paper (the published flow MIP), paper-integer (the same, binary flows).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err(format!(
            "expected a positive number of seconds, got \"{text}\""
        )),
    }
}

/// Loads `--board FILE`, or the built-in USA board.
fn load_board(path: Option<&PathBuf>) -> Result<Board> {
    let board = match path {
        Some(p) => Board::load(p)?,
        None => Board::from_json(USA_BOARD, "data/usa.json (built in)")?,
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
        time_limit: args.time_limit,
        start: None,
    };
    let outcome = solve(&instance, &options).context("solving failed")?;
    let report = SolveReport::new(&board, cars, &outcome);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let title = if board.title.is_empty() {
            &board.name
        } else {
            &board.title
        };
        print!("{}", report.table(title));
    }
    Ok(match report.status {
        Status::Optimal => ExitCode::SUCCESS,
        Status::TimeLimit => ExitCode::from(EXIT_TIME_LIMIT),
    })
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => run_solve(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
