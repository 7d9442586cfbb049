//! `simulate`: seeded games between simulated strategies, measured against
//! the single-player optimum.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use super::{list, load_board, usage, write_csv, write_json, FilesArgs, EXIT_TIME_LIMIT};
use crate::analysis::Frequency;
use crate::game::players::{by_name, check_players, STRATEGIES};
use crate::game::simulate::{simulate, single_player_optimum};
use crate::output::plot;
use crate::output::report::SimulateReport;
use crate::solve::{self, SolveError};

#[derive(clap::Args)]
pub(super) struct SimulateArgs {
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

pub(super) fn run_simulate(args: &SimulateArgs) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    let names: Vec<&str> = args.players.iter().map(String::as_str).collect();
    // Each name was checked as it was parsed; this checks their number.
    check_players(&names).map_err(|e| usage(format!("--players: {e}")))?;
    let out = args.files.out_dir(&board)?;
    let optimum = match args.optimum {
        Some(o) => o,
        None => {
            eprintln!(
                "solving the single-player optimum for {} cars ...",
                board.cars
            );
            single_player_optimum(&board).context("solving the optimum failed")?
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
    if played.is_empty() {
        return Err(SolveError::TimeLimit("a single game was finished".into()).into());
    }
    // Route claims in play beside the frequency over optima, if a sweep
    // wrote it into the same folder.
    let in_optima: Option<Frequency> = std::fs::read_to_string(out.join("frequency.json"))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok());
    let report = SimulateReport::new(
        &board,
        &names,
        args.seed,
        optimum,
        seconds,
        &played,
        in_optima.as_ref(),
    );

    let stem = format!("simulate-{}", names.join("-"));
    let csv_path = out.join(format!("{stem}.csv"));
    write_csv(&csv_path, played.iter().flat_map(|p| &p.seats))?;
    let json_path = out.join(format!("{stem}.json"));
    write_json(&json_path, &report)?;
    let mut written = vec![csv_path, json_path];
    if args.files.plot {
        let series: Vec<(String, Vec<i64>)> = report
            .strategies
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
            report.games,
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
        out!("{}", report.table());
        outln!("\nwrote {}", list(&written));
    }
    if report.games < args.games {
        eprintln!(
            "time limit: {} of {} games played; the statistics are over those",
            report.games, args.games
        );
        return Ok(ExitCode::from(EXIT_TIME_LIMIT));
    }
    Ok(ExitCode::SUCCESS)
}
