//! `ttr-opt tournament`: every table of the strategies named on every
//! board and seat count, rated; the work is [`crate::leagues::tournament`]'s,
//! the text [`crate::output::tournament`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{usage, write_csv, write_json, write_text, EXIT_TIME_LIMIT};
use crate::board::{Board, SHIPPED};
use crate::leagues::tournament::{run, size, Setup, TournamentError, MAX_GAMES};
use crate::output::{plot, tournament as text};
use crate::solve::limits::Limits;
use crate::solve::{self, SolveError};

#[derive(clap::Args)]
pub(super) struct TournamentArgs {
    /// The strategies, comma-separated, two or more (see `simulate`'s
    /// --players for the names).
    #[arg(long, value_delimiter = ',', default_value = "random,greedy,planner")]
    players: Vec<String>,
    /// The boards, comma-separated: shipped boards by name (usa, usa-1910,
    /// usa-mega, usa-big-cities, europe, switzerland) or board files.
    #[arg(long, value_delimiter = ',', default_value = "usa")]
    boards: Vec<String>,
    /// Players at a table, comma-separated, each 2 to 5: every table of
    /// that many of the strategies is played (with repetition only when
    /// fewer strategies are named than seats).
    #[arg(long, value_delimiter = ',', default_value = "2")]
    seats: Vec<usize>,
    /// Games of each table in each seat order (its rotations), 1 to
    /// 100,000.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// The tournament's seed: every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Review N games of each board and seat count turn by turn (every
    /// table first, then every seat order, spread over the rounds) for the
    /// points lost by cause: about 0.3 s a game on the USA board, 15 s on
    /// Europe. 0: none.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    review: u64,
    /// Directory for tournament.{md,json,csv}, tournament-games.csv and the
    /// figure tournament-ratings.{svg,png}.
    #[arg(long, value_name = "DIR", default_value = "output/tournament")]
    out: PathBuf,
    /// Print the JSON (as written) instead of the table.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 64 (each game on one of them).
    #[arg(long, default_value_t = 2, value_parser = super::threads)]
    threads: usize,
}

/// A board of `--boards`: a shipped board by name, or a board file.
fn board(name: &str) -> Result<(String, Board)> {
    board_of("--boards", name)
}

/// A board of the argument `flag`: a shipped board by name, or a board
/// file; with the name it is reported by (the shipped name, or the file's
/// stem).
pub(super) fn board_of(flag: &str, name: &str) -> Result<(String, Board)> {
    let name = name.trim();
    if let Some((key, json)) = SHIPPED.iter().find(|(k, _)| *k == name) {
        let board = Board::from_json(json, &format!("data/{key}.json"))?;
        return Ok((key.to_string(), board));
    }
    let path = PathBuf::from(name);
    if name.ends_with(".json") || path.exists() {
        let board = Board::load(&path)?;
        for w in &board.warnings {
            eprintln!("warning: {w}");
        }
        let key = path
            .file_stem()
            .map_or_else(|| board.name.clone(), |s| s.to_string_lossy().into_owned());
        return Ok((key, board));
    }
    Err(usage(format!(
        "{flag}: unknown board {name:?} (shipped: {}; or a board file)",
        SHIPPED.map(|(k, _)| k).join(", ")
    )))
}

/// The command line that replays the tournament, as the report quotes it.
fn command(args: &TournamentArgs) -> String {
    let mut c = format!(
        "ttr-opt tournament --players {} --boards {} --seats {} --games {} --seed {}",
        args.players.join(","),
        args.boards.join(","),
        args.seats
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(","),
        args.games,
        args.seed
    );
    if args.review > 0 {
        c += &format!(" --review {}", args.review);
    }
    c
}

pub(super) fn run_tournament(args: &TournamentArgs, limits: &Limits) -> Result<ExitCode> {
    let boards = args
        .boards
        .iter()
        .map(|b| board(b))
        .collect::<Result<Vec<_>>>()?;
    let setup = Setup {
        players: args.players.iter().map(|p| p.trim().to_string()).collect(),
        boards,
        seats: args.seats.clone(),
        games: args.games,
        seed: args.seed,
        review: args.review,
    };
    setup.check().map_err(|e| match e {
        TournamentError::Setup(m) => usage(format!("--{m}")),
        e => e.into(),
    })?;
    let (games, reviews) = size(&setup);
    let bar = indicatif::ProgressBar::new(games + reviews);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games and reviews  {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template"),
    );
    let (t, schedule, played) = solve::worker_pool(args.threads)?
        .install(|| run(&setup, limits, &|| bar.inc(1)))
        .context("the tournament failed")?;
    bar.finish_and_clear();
    if t.played == 0 {
        return Err(SolveError::TimeLimit("a single game was finished".into()).into());
    }

    let out = &args.out;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let json = out.join("tournament.json");
    write_json(&json, &t)?;
    let csv = out.join("tournament.csv");
    write_csv(&csv, &t.standings)?;
    let seats = out.join("tournament-games.csv");
    write_csv(&seats, t.seat_rows(&schedule, &played))?;
    let title = format!("Weng-Lin ratings of {}", t.players.join(", "));
    let mut written = vec![json, csv, seats];
    written.extend(plot::ratings(&title, &t, &out.join("tournament-ratings"))?);
    let md = out.join("tournament.md");
    write_text(
        &md,
        &text::markdown(&t, &command(args), Some("tournament-ratings.svg")),
    )?;
    written.push(md);

    super::answer(args.json, &t, || text::table(&t), &written)?;
    if t.played < t.scheduled {
        eprintln!(
            "time limit: {} of {} games played; the results are over those",
            t.played, t.scheduled
        );
        return Ok(ExitCode::from(EXIT_TIME_LIMIT));
    }
    Ok(ExitCode::SUCCESS)
}
