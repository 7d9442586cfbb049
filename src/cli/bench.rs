//! `bench` (the paper's model against the sweep) and `generate` (a seeded
//! random board): the developers' commands.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{budget, load_board, positive_seconds, threads, usage, write_csv, write_text};
use crate::board::Board;
use crate::solve::bench::paper_against_sweep;

#[derive(clap::Args)]
pub(super) struct BenchArgs {
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

pub(super) fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    if args.from > args.to {
        return Err(usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let board = load_board(None)?;
    let bench = paper_against_sweep(
        &board,
        args.from,
        args.to,
        args.paper_limit,
        args.threads,
        &|line| eprintln!("{line}"),
    )?;
    let md = bench.markdown("USA");
    out!("{md}");
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    write_text(&args.out.join("bench.md"), &md)?;
    write_csv(&args.out.join("bench.csv"), bench.rows())?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
pub(super) struct GenerateArgs {
    /// The seed: the same seed gives the same board on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the board here instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub(super) fn run_generate(args: &GenerateArgs) -> Result<ExitCode> {
    let text = serde_json::to_string_pretty(&crate::board::generate::board_json(args.seed))?;
    // Validated like any board file before anyone sees it.
    Board::from_json(&text, &format!("generated board {}", args.seed))?;
    match &args.out {
        Some(path) => write_text(path, &(text + "\n"))?,
        None => outln!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
