//! `ttr-opt tune`: revisions of a board's ticket points (and, where the
//! targets file allows, routes' lengths and tickets out or replaced)
//! towards the balance report's targets, written as scenario files with a
//! report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{load_board_with_text, write_json, write_text};
use crate::analysis::tune::{tune, Targets, TuneOptions};
use crate::solve::limits::Limits;

#[derive(clap::Args)]
pub(super) struct TuneArgs {
    /// Board file (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Targets file (JSON, every field optional): {"dead": true,
    /// "generous": true, "rate_band": 0.05, "max_spread": null,
    /// "max_step": 3, "tickets": null, "win_rates": null} are the defaults
    /// (no dead ticket, no generous one, every ticket's points per car
    /// within 5 % of the median, the deal's spread no wider than the
    /// board's own, each ticket moved by at most 3 points, any ticket of
    /// one trip may move, the bots' win rates not played). "win_rates": {}
    /// plays the planner, long-route, route-focus and destination-hungry at
    /// one table, 100 games, on the board and each revision reported, and
    /// asks their win rates within 15 points of each other (fields
    /// "players", "seats", "games", "seed", "band"). More levers, each off
    /// by default: "route_step": N lets a route's length move by up to N
    /// cars (its points the rule card's; "routes": [...] names the ones
    /// that may), "remove": true takes out a ticket whose miss no change of
    /// its points reaches, and "add": [{"from", "to", "points"}] lists
    /// candidate tickets to put in its place.
    #[arg(long, value_name = "FILE")]
    targets: Option<PathBuf>,
    /// The most changes a revision may make (tickets' points, and routes
    /// and tickets where the targets file allows them).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10))]
    budget_changes: u32,
    /// Train cars (default: the board's own): the sweep covers 1 to this,
    /// the break-even is taken at it.
    #[arg(long, short = 'c', value_parser = super::budget)]
    cars: Option<u32>,
    /// Revisions to report, best first, each as a scenario file.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    keep: u32,
    /// Directory for the report and scenario files (default:
    /// output/<board name>/tune).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON (as written) instead of the report.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 64.
    #[arg(long, default_value_t = 2, value_parser = super::threads)]
    threads: usize,
}

pub(super) fn run_tune(args: &TuneArgs, limits: &Limits) -> Result<ExitCode> {
    let (board, text) = load_board_with_text(args.board.as_ref())?;
    let targets = match &args.targets {
        Some(path) => {
            let t = Targets::load(path)?;
            t.check_names(&board, &path.display().to_string())?;
            t
        }
        None => Targets::default(),
    };
    let (defaults, warning) = TuneOptions::for_board(&board, &text);
    if let Some(w) = warning {
        eprintln!("warning: {w}");
    }
    let options = TuneOptions {
        cars: args.cars.unwrap_or(board.cars),
        targets,
        budget_changes: args.budget_changes as usize,
        keep: args.keep as usize,
        threads: args.threads,
        ..defaults
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| crate::output::board_folder(&board.name).join("tune"));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    eprintln!(
        "tuning {} at {} cars: measuring the board, then candidate revisions (each a sweep and the tickets' standings) ...",
        board.name, options.cars
    );
    let bar = indicatif::ProgressBar::new_spinner();
    let tuning = tune(&board, &text, &options, limits, &|p| {
        let line = format!(
            "{} candidates considered, {} measured; {}",
            p.considered, p.solved, p.what
        );
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.set_message(line);
            bar.tick();
        }
    });
    bar.finish_and_clear();
    let tuning = tuning.context("tune failed")?;

    let mut written = Vec::new();
    let mut files = Vec::new();
    for (i, r) in tuning.revisions.iter().enumerate() {
        let name = format!("tune-{}.json", i + 1);
        let description = format!(
            "Proposed by ttr-opt tune on {} at {} cars: {} of {} targets' misses left.",
            board.name, tuning.cars, r.misses, tuning.base.misses
        );
        let path = out.join(&name);
        write_json(&path, &r.scenario_json(&description))?;
        written.push(path);
        files.push(name);
    }
    let command: Vec<String> = std::env::args().skip(1).collect();
    let header = format!(
        "*Command:* `ttr-opt {}`; {:.0} s on {} threads.",
        command.join(" "),
        tuning.search.seconds,
        args.threads
    );
    let md = tuning.markdown(&header, &files);
    let md_path = out.join("tune.md");
    write_text(&md_path, &md)?;
    let json_path = out.join("tune.json");
    write_json(&json_path, &tuning)?;
    written.splice(0..0, [md_path, json_path]);
    super::answer(args.json, &tuning, || md, &written)?;
    Ok(super::proven_status(tuning.search.stopped.is_none()))
}
