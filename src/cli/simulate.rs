//! `simulate`: seeded games between simulated strategies, measured against
//! the single-player optimum.

use crate::solve::limits::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};

use super::{list, load_board, usage, write_csv, write_json, FilesArgs, EXIT_TIME_LIMIT};
use crate::analysis::Frequency;
use crate::board::Board;
use crate::bots::{by_name, check_players, STRATEGIES};
use crate::leagues::simulate::review_games as review_games_played;
use crate::leagues::simulate::{simulate, single_player_optimum, Played, SimulateOptions};
use crate::output::plot;
use crate::output::report::SimulateReport;
use crate::plans::review::{PlayerReview, Review};
use crate::solve::{self, SolveError};

#[derive(clap::Args)]
pub(super) struct SimulateArgs {
    /// Strategies in seat order, comma-separated: random, greedy, planner,
    /// mcts (a Monte Carlo search over greedy playouts, about 0.25 s a
    /// move), and the four styles of de Mesentier Silva et al. (2017):
    /// route-focus, destination-hungry, one-step, long-route; and search
    /// (the strongest: the planner with a clock, planning with the cars it
    /// can lay before the opponents end the game, spending spare cards on
    /// long routes and rushing to the end once its tickets are done) (2 to
    /// 5 of them; seats rotate from game to game).
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
    /// Also review the first N games turn by turn (as `ttr-opt review`
    /// does a saved game): how far each strategy stays from the best still
    /// reachable, and where it loses points. Writes
    /// review-<players>.{json,csv}.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    review: Option<u64>,
    #[command(flatten)]
    files: FilesArgs,
}

/// Reviews the first `n` games of `played` (each on the worker pool) and
/// writes review-<players>.{json,csv}; returns a summary per strategy and
/// the files.
fn review_games(
    board: &Board,
    played: &[Played],
    n: usize,
    out: &Path,
    stem: &str,
    limits: &Limits,
) -> Result<(String, Vec<PathBuf>)> {
    let games = &played[..n.min(played.len())];
    eprintln!("reviewing {} games turn by turn ...", games.len());
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    let reviews = review_games_played(board, games, limits, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let stem = stem.replacen("simulate-", "review-", 1);
    let json = out.join(format!("{stem}.json"));
    let csv = out.join(format!("{stem}.csv"));
    write_json(&json, &reviews)?;
    write_csv(
        &csv,
        games
            .iter()
            .zip(&reviews)
            .flat_map(|(p, r)| r.rows(p.seats.first().map_or(0, |s| s.game))),
    )?;
    Ok((review_summary(games, &reviews), vec![json, csv]))
}

/// Per strategy, over the reviewed seats: the best reachable at the first
/// turn, the final score (bonus aside), and the points lost by cause.
fn review_summary(games: &[Played], reviews: &[Review]) -> String {
    let mut by: Vec<(String, Vec<&PlayerReview>)> = Vec::new();
    for (game, r) in games.iter().zip(reviews) {
        for p in &r.players {
            let strategy = &game.seats[p.seat].strategy;
            match by.iter_mut().find(|(s, _)| s == strategy) {
                Some((_, list)) => list.push(p),
                None => by.push((strategy.clone(), vec![p])),
            }
        }
    }
    let mut out = format!(
        "Reviewed {} games turn by turn (means per seat; scores without the longest-path bonus{})\n",
        reviews.len(),
        if reviews.iter().all(|r| r.all_proven) {
            ""
        } else {
            "; some values unproven"
        }
    );
    out += &format!(
        "  {:<10} {:>5} {:>11} {:>7} {:>9} {:>10} {:>8}\n",
        "strategy", "seats", "first best", "final", "own moves", "others", "end"
    );
    for (name, list) in by {
        let mean = |f: &dyn Fn(&PlayerReview) -> i64| {
            list.iter().map(|p| f(p) as f64).sum::<f64>() / list.len() as f64
        };
        out += &format!(
            "  {:<10} {:>5} {:>11.1} {:>7.1} {:>9.1} {:>10.1} {:>8.1}\n",
            name,
            list.len(),
            mean(&|p| p.turns.first().map_or(p.network_score, |t| t.best)),
            mean(&|p| p.network_score),
            mean(&|p| p.lost_own),
            mean(&|p| p.lost_others),
            mean(&|p| p.lost_end),
        );
    }
    out
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

pub(super) fn run_simulate(args: &SimulateArgs, limits: &Limits) -> Result<ExitCode> {
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
            single_player_optimum(&board, limits).context("solving the optimum failed")?
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
    let played = solve::worker_pool(args.files.threads)?.install(|| {
        let options = SimulateOptions {
            limits: limits.clone(),
            progress: &|| bar.inc(1),
            ..SimulateOptions::games(args.games, args.seed)
        };
        simulate(&board, &names, &options)
    })?;
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

    let reviews = match args.review {
        Some(n) => {
            let (summary, files) = review_games(&board, &played, n as usize, &out, &stem, limits)?;
            written.extend(files);
            Some(summary)
        }
        None => None,
    };

    if args.files.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", report.table());
        if let Some(summary) = &reviews {
            out!("\n{summary}");
        }
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
