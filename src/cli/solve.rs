//! `solve` (one budget) and `replan` (the rest of a game in progress).

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{budget, load_board, status_code};
use crate::engine::state::GameState;
use crate::model::Instance;
use crate::output::report::SolveReport;
use crate::plans::replan::{replan, ReplanReport};
use crate::solve::{solve, Method, SolveOptions, Watch};

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Train cars available (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// Board file in the format of data/README.md (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Print the answer as JSON (schema in docs/formats.md) instead of a table.
    #[arg(long)]
    json: bool,
    /// Exact method: auto (default: forest or frontier, whichever suits the
    /// budget), frontier (dynamic programme), forest (rooted-forest MIP),
    /// paper (the published flow MIP), paper-integer (the same, binary flows).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

pub(super) fn run_solve(args: &SolveArgs, limits: &Limits) -> Result<ExitCode> {
    let board = load_board(args.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    // On a terminal, the best plan so far and the bound while the proof
    // runs (indicatif draws nothing elsewhere).
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar.set_message("solving ...");
    let shown = bar.clone();
    // The answer the user waits for: both cores on it.
    let options = SolveOptions {
        method: args.method,
        memory_fallback: None,
        limits: limits.clone(),
        time_limit: None,
        start: None,
        both_cores: true,
        watch: Some(Watch::new(move |g| {
            shown.set_message(format!(
                "best so far {} points, the optimum at most {} ({:.1} s)",
                g.plan.score(),
                g.bound,
                shown.elapsed().as_secs_f64()
            ))
        })),
    };
    let outcome = solve(&Instance::new(&board, cars), &options);
    bar.finish_and_clear();
    let outcome = outcome.context("solving failed")?;
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
    Ok(status_code(report.status))
}

#[derive(clap::Args)]
pub(super) struct ReplanArgs {
    /// Game-state file (JSON; it names its board file, relative to itself).
    #[arg(value_name = "STATE.json")]
    state: PathBuf,
    /// Print the answer as JSON (schema in docs/formats.md) instead of a table.
    #[arg(long)]
    json: bool,
    /// Exact method, as for `solve`.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

pub(super) fn run_replan(args: &ReplanArgs, limits: &Limits) -> Result<ExitCode> {
    let (board, state) = GameState::load(&args.state)?;
    // The answer the user waits for: both cores on it.
    let options = SolveOptions {
        method: args.method,
        memory_fallback: None,
        limits: limits.clone(),
        time_limit: None,
        start: None,
        both_cores: true,
        watch: None,
    };
    let result = replan(&board, &state, &options).context("replanning failed")?;
    let report = ReplanReport::new(&board, &state, &result);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.table());
    }
    Ok(status_code(report.status))
}
