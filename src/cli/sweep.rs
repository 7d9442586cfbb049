//! `sweep`: every budget of a range, its frequency tables, and with
//! `--all-optima` every optimal plan of every budget counted.

use crate::solve::limits::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use super::{budget, list, load_board, usage, write_csv, write_json, FilesArgs, StepBar};
use crate::analysis::frequency;
use crate::analysis::optima::{self, SweepOptima};
use crate::board::Board;
use crate::output::report::{FrequencyReport, SweepOptimaReport, SweepReport};
use crate::output::rows::{frequency_rows, presence_rows, SweepRow};
use crate::output::{plot, table};
use crate::solve::sweep::{sweep_with, Prior, SweepEntry};

#[derive(clap::Args)]
pub(super) struct SweepArgs {
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

pub(super) fn run_sweep(args: &SweepArgs, limits: &Limits) -> Result<ExitCode> {
    if args.from > args.to {
        return Err(usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let board = load_board(args.files.board.as_ref())?;
    let out = args.files.out_dir(&board)?;
    let bar = indicatif::ProgressBar::new((args.to - args.from + 1) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} budgets  {elapsed} elapsed, ETA {eta}  {msg}",
        )
        .expect("a valid template"),
    );
    // Without a terminal the bar draws nothing: say each budget on its own line.
    let plain = bar.is_hidden();
    let started = Instant::now();
    let entries = sweep_with(
        &board,
        args.from,
        args.to,
        args.files.threads,
        limits,
        &|_| Ok(Prior::Nothing),
        &|e: &SweepEntry| {
            let line = format!(
                "{} cars: {} points ({})",
                e.cars,
                e.outcome.plan.score(),
                e.outcome.method.name()
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
    write_csv(&csv_path, reports.iter().map(SweepRow::new))?;
    let json_path = out.join("sweep.json");
    write_json(&json_path, &reports)?;
    let freq = frequency(&board, entries.iter().map(|e| &e.outcome.plan));
    let freq_json = out.join("frequency.json");
    write_json(
        &freq_json,
        &FrequencyReport::new(&board, args.from, args.to, &freq),
    )?;
    let freq_csv = out.join("frequency.csv");
    write_csv(&freq_csv, frequency_rows(&freq))?;
    let mut written = vec![csv_path, json_path, freq_csv, freq_json];

    let every = if !args.all_optima {
        None
    } else if entries.iter().all(|e| e.outcome.proven) {
        let (every, files) = write_sweep_optima(&board, &entries, &out, args, limits)?;
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
        out!(
            "{}",
            table::sweep(&reports, &freq, seconds, args.files.threads)
        );
        if let Some(every) = &every {
            out!("{}", every.table());
        }
        outln!("\nwrote {}", list(&written));
    }
    // A time limit left some budgets unproven: they are in the files,
    // marked, and the exit status says so.
    Ok(super::proven_status(
        entries.iter().all(|e| e.outcome.proven),
    ))
}

/// Counts every optimum of every budget of a proven sweep and writes
/// `frequency-optima.{csv,json}` (and, with `--plot`, its figure).
fn write_sweep_optima(
    board: &Board,
    entries: &[SweepEntry],
    out: &Path,
    args: &SweepArgs,
    limits: &Limits,
) -> Result<(SweepOptima, Vec<PathBuf>)> {
    eprintln!("counting every optimal plan of every budget ...");
    let bar = StepBar::new();
    let every =
        optima::over_sweep_within(board, entries, args.files.threads, limits, &|s| bar.step(s));
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
    write_csv(&csv_path, presence_rows(&every))?;
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
