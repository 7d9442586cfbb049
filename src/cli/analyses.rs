//! The analyses of one budget: `sensitivity`, `breakeven` and `optima`.

use crate::solve::limits::Limits;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::StepBar;
use super::{budget, finished_or_cut_short, list, load_board, write_csv, write_json, FilesArgs};
use crate::analysis::optima::{all_optima, OptimaOptions};
use crate::analysis::{break_even, sensitivity, AnalysisOptions, Step};
use crate::output::plot;
use crate::output::report::{BreakEvenReport, OptimaReport, SensitivityReport};
use crate::output::rows::{impact_rows, share_rows};
use crate::solve::Method;

/// The budget and files of an analysis of one budget.
#[derive(clap::Args)]
pub(super) struct BudgetArgs {
    /// Train cars (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    #[command(flatten)]
    files: FilesArgs,
}

/// The options of `sensitivity` and `breakeven`: the command's threads
/// and limits, each solve told to `progress`.
fn analysis_options<'a>(
    args: &BudgetArgs,
    limits: &Limits,
    progress: &'a (dyn Fn(Step) + Sync),
) -> AnalysisOptions<'a> {
    AnalysisOptions {
        threads: args.files.threads,
        base: None,
        limits: limits.clone(),
        progress,
    }
}

pub(super) fn run_sensitivity(args: &BudgetArgs, limits: &Limits) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let out = args.files.out_dir(&board)?;
    eprintln!("solving {cars} cars, then once without each ticket and route of the optimum ...");
    let bar = StepBar::new();
    let result = sensitivity(
        &board,
        cars,
        &analysis_options(args, limits, &|s| bar.step(s)),
    );
    bar.finish();
    let result = result.context("sensitivity failed")?;
    let report = SensitivityReport::new(&board, &result);
    let json_path = out.join(format!("sensitivity-{cars}.json"));
    write_json(&json_path, &report)?;
    let csv_path = out.join(format!("sensitivity-{cars}.csv"));
    write_csv(&csv_path, impact_rows(&result))?;
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
    super::answer(args.files.json, &report, || report.table(), &written)?;
    Ok(finished_or_cut_short(&result.unfinished))
}

#[derive(clap::Args)]
pub(super) struct OptimaArgs {
    /// List at most this many optimal plans (all are counted).
    #[arg(long, default_value_t = 20)]
    max: usize,
    #[command(flatten)]
    budget: BudgetArgs,
}

pub(super) fn run_optima(args: &OptimaArgs, limits: &Limits) -> Result<ExitCode> {
    let files = &args.budget.files;
    let board = load_board(files.board.as_ref())?;
    let cars = args.budget.cars.unwrap_or(board.cars);
    let out = files.out_dir(&board)?;
    eprintln!("finding every optimal plan for {cars} cars ...");
    let options = OptimaOptions {
        max: args.max,
        method: Method::Auto,
        limits: limits.clone(),
    };
    let o = all_optima(&board, cars, &options).context("listing the optima failed")?;
    let report = OptimaReport::new(&board, &o);
    let json_path = out.join(format!("optima-{cars}.json"));
    write_json(&json_path, &report)?;
    let csv_path = out.join(format!("optima-{cars}.csv"));
    write_csv(&csv_path, share_rows(&report))?;
    if files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.table());
        outln!("\nwrote {}", list(&[csv_path, json_path]));
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn run_break_even(args: &BudgetArgs, limits: &Limits) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let out = args.files.out_dir(&board)?;
    eprintln!("solving {cars} cars, then per ticket and per route of the optimum ...");
    let bar = StepBar::new();
    let r = break_even(
        &board,
        cars,
        &analysis_options(args, limits, &|s| bar.step(s)),
    );
    bar.finish();
    let r = r.context("break-even analysis failed")?;
    let report = BreakEvenReport::new(&board, &r);
    let json_path = out.join(format!("breakeven-{cars}.json"));
    write_json(&json_path, &report)?;
    let csv_path = out.join(format!("breakeven-{cars}.csv"));
    write_csv(&csv_path, &r.tickets)?;
    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.table());
        outln!("\nwrote {}", list(&[csv_path, json_path]));
    }
    Ok(finished_or_cut_short(&r.unfinished))
}
