//! `ttr-opt playtest`: the 2017 paper's AI playtest of one board; the work
//! is [`crate::leagues::playtest`]'s, the text [`crate::output::playtest`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::tournament::board_of;
use super::{usage, write_csv, write_json, write_text, EXIT_TIME_LIMIT};
use crate::bots::check_players;
use crate::leagues::playtest::{replay, run, PlaytestError, Setup};
use crate::leagues::tournament::MAX_GAMES;
use crate::output::{folder_name, playtest as text, plot};
use crate::solve::limits::Limits;
use crate::solve::{self, SolveError};

#[derive(clap::Args)]
pub(super) struct PlaytestArgs {
    /// The board: a shipped board by name (usa, usa-1910, usa-mega,
    /// usa-big-cities, europe, switzerland) or a board file.
    #[arg(long, short = 'b', value_name = "BOARD", default_value = "usa")]
    board: String,
    /// The strategies, comma-separated, two or more (default: the four
    /// styles of de Mesentier Silva et al. (2017), greedy and the
    /// planner). With --replay: the seat order of the game, 2 to 5.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "route-focus,destination-hungry,one-step,long-route,greedy,planner"
    )]
    players: Vec<String>,
    /// Players at a table, comma-separated, each 2 to 5: every table of
    /// that many of the strategies is played, in every rotation.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4")]
    seats: Vec<usize>,
    /// Games of each table in each seat order, 1 to 100,000 (the six
    /// default strategies at 2, 3 and 4 seats: 150 games a round).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// The playtest's seed: every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replay one game instead (a rule hole's seed, as the report lists
    /// it), with --players as its seat order, and say how it ended.
    #[arg(long, value_name = "SEED")]
    replay: Option<u64>,
    /// Directory for playtest.{md,json}, playtest-{styles,routes,cities,holes}.csv
    /// and the figure playtest-wins.{svg,png} (default:
    /// output/playtest/<board>).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON (as written) instead of the table.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 64 (each game on one of them).
    #[arg(long, default_value_t = 2, value_parser = super::threads)]
    threads: usize,
}

/// The command line that replays the playtest, as the report quotes it.
fn command(args: &PlaytestArgs) -> String {
    format!(
        "ttr-opt playtest -b {} --players {} --seats {} --games {} --seed {}",
        args.board.trim(),
        args.players.join(","),
        args.seats
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(","),
        args.games,
        args.seed
    )
}

/// `--replay SEED`: one game, its ending printed.
fn run_replay(args: &PlaytestArgs, seed: u64) -> Result<ExitCode> {
    let (_, board) = board_of("--board", &args.board)?;
    let order: Vec<String> = args.players.iter().map(|p| p.trim().to_string()).collect();
    let names: Vec<&str> = order.iter().map(String::as_str).collect();
    check_players(&names).map_err(|m| usage(format!("--players: {m}")))?;
    let ending = replay(&board, &order, seed);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&ending)?);
    } else {
        outln!(
            "{} by {}, seed {}: {}{}",
            args.board.trim(),
            order.join(", "),
            seed,
            ending.hole.map_or("no rule hole", |k| k.label()),
            if ending.scores.is_empty() {
                String::new()
            } else {
                format!(
                    "; scores {}",
                    ending
                        .scores
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        );
        outln!("{}", ending.message);
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn run_playtest(args: &PlaytestArgs, limits: &Limits) -> Result<ExitCode> {
    if let Some(seed) = args.replay {
        return run_replay(args, seed);
    }
    let (key, board) = board_of("--board", &args.board)?;
    let board_arg = args.board.trim().to_string();
    let setup = Setup {
        players: args.players.iter().map(|p| p.trim().to_string()).collect(),
        board: (key.clone(), board),
        seats: args.seats.clone(),
        games: args.games,
        seed: args.seed,
    };
    setup.check().map_err(|e| match e {
        PlaytestError::Setup(m) => usage(format!("--{m}")),
        e => e.into(),
    })?;
    let bar = indicatif::ProgressBar::new(setup.size());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template"),
    );
    let p = solve::worker_pool(args.threads)?
        .install(|| run(&setup, limits, &|| bar.inc(1)))
        .context("the playtest failed")?;
    bar.finish_and_clear();
    if p.played == 0 {
        return Err(SolveError::TimeLimit("a single game was finished".into()).into());
    }

    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("output/playtest").join(folder_name(&key)));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let json = out.join("playtest.json");
    write_json(&json, &p)?;
    let styles = out.join("playtest-styles.csv");
    write_csv(&styles, text::style_rows(&p))?;
    let routes = out.join("playtest-routes.csv");
    write_csv(&routes, p.counts.iter().flat_map(|c| &c.routes))?;
    let cities = out.join("playtest-cities.csv");
    write_csv(&cities, p.counts.iter().flat_map(|c| &c.cities))?;
    let holes = out.join("playtest-holes.csv");
    let bytes = text::holes_csv(&p, &board_arg)
        .with_context(|| format!("cannot write {}", holes.display()))?;
    write_text(&holes, &String::from_utf8_lossy(&bytes))?;
    let mut written = vec![json, styles, routes, cities, holes];
    let title = format!("Win rates on {}", p.board);
    let figure = plot::playtest_wins(&title, &p, &out.join("playtest-wins"))?;
    let has_figure = !figure.is_empty();
    written.extend(figure);
    let md = out.join("playtest.md");
    write_text(
        &md,
        &text::markdown(
            &p,
            &command(args),
            &board_arg,
            has_figure.then_some("playtest-wins.svg"),
        ),
    )?;
    written.push(md);

    super::answer(args.json, &p, || text::table(&p, &board_arg), &written)?;
    if p.played < p.scheduled {
        eprintln!(
            "time limit: {} of {} games played; the results are over those",
            p.played, p.scheduled
        );
        return Ok(ExitCode::from(EXIT_TIME_LIMIT));
    }
    Ok(ExitCode::SUCCESS)
}
