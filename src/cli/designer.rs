//! The designer's commands: `compare` (a what-if scenario against the base
//! board) and `balance` (one Markdown report on a board).

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{list, load_board, load_board_with_text, write_csv, write_json, write_text, FilesArgs};
use crate::analysis::balance::Progress;
use crate::analysis::scenario::{compare_within, Scenario};
use crate::board::Board;
use crate::output::plot;
use crate::solve::sweep::SweepEntry;

#[derive(clap::Args)]
pub(super) struct CompareArgs {
    /// Scenario file: the changes to the board (format in data/README.md).
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    #[command(flatten)]
    files: FilesArgs,
}

/// A progress line per budget on stderr (sweeps of two boards).
fn say(which: &str, e: &SweepEntry) {
    eprintln!(
        "{which}: {} cars: {} points",
        e.cars,
        e.outcome.plan.score()
    );
}

pub(super) fn run_compare(args: &CompareArgs, limits: &Limits) -> Result<ExitCode> {
    let (base, text) = load_board_with_text(args.files.board.as_ref())?;
    let file = args.scenario.display().to_string();
    let scenario = Scenario::load(&args.scenario)?;
    let variant: Board = scenario.apply(&text, &file)?;
    let out = args.files.out_dir(&base)?;
    let stem = args
        .scenario
        .file_stem()
        .map_or("scenario".into(), |s| s.to_string_lossy().into_owned());
    let result = compare_within(&base, &variant, args.files.threads, limits, &|w, e| {
        say(w, e)
    })
    .context("comparison failed")?;

    let csv_path = out.join(format!("compare-{stem}.csv"));
    write_csv(&csv_path, &result.rows)?;
    let json_path = out.join(format!("compare-{stem}.json"));
    write_json(&json_path, &result)?;
    let mut written = vec![csv_path, json_path];
    if args.files.plot {
        let curve = |f: fn(&crate::analysis::scenario::Row) -> u32| -> Vec<(u32, u32)> {
            result.rows.iter().map(|r| (r.cars, f(r))).collect()
        };
        let (a, b) = (curve(|r| r.base), curve(|r| r.variant));
        written.extend(plot::compare_curves(
            &format!("{}: optimal score, base and variant", base.name),
            [(&base.name, &a), (&variant.name, &b)],
            &out.join(format!("compare-{stem}")),
        )?);
    }

    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&result)?);
        return Ok(ExitCode::SUCCESS);
    }
    out!("{}", result.table(&scenario.description));
    outln!("\nwrote {}", list(&written));
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub(super) struct BalanceArgs {
    /// Train cars (default: the board's own); the sweep covers 1 to this.
    #[arg(long, short = 'c', value_parser = super::budget)]
    cars: Option<u32>,
    /// Board file (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Directory for the report (default: output/<board name>/balance).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the report's JSON instead of the Markdown.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 64 (each solve of the run on one of them).
    #[arg(long, default_value_t = 2, value_parser = super::threads)]
    threads: usize,
}

pub(super) fn run_balance(args: &BalanceArgs, limits: &Limits) -> Result<ExitCode> {
    let board = load_board(args.board.as_ref())?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| crate::output::board_folder(&board.name).join("balance"));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let cars = args.cars.unwrap_or(board.cars);
    eprintln!(
        "balance report for {}: sweep 1..{cars} cars, then break-even values at {cars}, then a sample of the deal ...",
        board.name
    );
    // Budgets of the sweep a line each; then the break-even solves, with a
    // bar on a terminal.
    let bar = crate::cli::StepBar::new();
    let progress = |p: Progress| match p {
        Progress::Budget(e) => eprintln!("{} cars: {} points", e.cars, e.outcome.plan.score()),
        Progress::Step(step) => bar.step(step),
        Progress::Deal { .. } => {}
    };
    let options = crate::analysis::balance::BalanceOptions {
        threads: args.threads,
        limits: limits.clone(),
        progress: &progress,
    };
    let result = crate::analysis::balance::balance(&board, cars, &options);
    bar.finish();
    let (report, entries) = result.context("balance report failed")?;

    // The figures sit beside the Markdown, linked by file name.
    let points: Vec<(u32, u32, u32)> = report
        .curve
        .iter()
        .map(|p| (p.cars, p.ticket_points, p.route_points))
        .collect();
    let mut written = plot::score_curve(
        &format!("{}: optimal score by number of train cars", board.name),
        &points,
        &out.join("score-curve"),
    )?;
    written.extend(plot::frequency(
        &format!(
            "{}: most frequent in the optima for 1 to {} cars",
            board.name, report.cars
        ),
        &report.frequency,
        10,
        &out.join("frequency"),
    )?);
    if let Some(at) = entries.iter().find(|e| e.cars == report.cars) {
        written.extend(plot::map(
            &board,
            &at.outcome.plan,
            at.cars,
            &out.join(format!("map-{}", at.cars)),
        )?);
    }
    let map = format!("map-{}.png", report.cars);
    let md = report.markdown(&[
        ("Optimal score by number of train cars", "score-curve.png"),
        (
            "Tickets and routes most often in the optima",
            "frequency.png",
        ),
        ("The optimal plan at the board's car count", &map),
    ]);
    let md_path = out.join("balance.md");
    write_text(&md_path, &md)?;
    let json_path = out.join("balance.json");
    write_json(&json_path, &report)?;
    written.splice(0..0, [md_path, json_path]);
    super::answer(args.json, &report, || md, &written)?;
    Ok(super::finished_or_cut_short(&report.unfinished))
}
