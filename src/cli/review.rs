//! `ttr-opt review`: a finished (or saved) game, turn by turn, against the
//! best each player could still reach.

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{proven_status, write_csv, write_json};
use crate::engine::saved::SavedGame;
use crate::plans::review::{review_saved, ReviewOptions};

#[derive(clap::Args)]
pub(super) struct ReviewArgs {
    /// A saved game: the file the online game's saveGameState writes (a
    /// game state with the whole game, its board file beside it).
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// Directory for review-<name>.{json,csv} (and the figure with
    /// --plot); default output/<board name>.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON (as written) instead of the summary.
    #[arg(long)]
    json: bool,
    /// Also draw the figure (PNG and SVG): each player's best still
    /// reachable, turn by turn, against the final score.
    #[arg(long)]
    plot: bool,
    /// Each replan's time limit in seconds; past it the best plan found and
    /// its bound are used, marked unproven.
    #[arg(long, default_value_t = 10.0, value_parser = super::positive_seconds)]
    solve_limit: f64,
}

pub(super) fn run_review(args: &ReviewArgs, limits: &Limits) -> Result<ExitCode> {
    let (board, _, saved) = SavedGame::load(&args.game)?;
    let review = review_saved(
        &board,
        &saved,
        &ReviewOptions {
            time_limit: args.solve_limit,
            limits: limits.clone(),
            ..ReviewOptions::default()
        },
    )
    .with_context(|| format!("cannot review {}", args.game.display()))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| crate::output::board_folder(&board.name));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let stem = args
        .game
        .file_stem()
        .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
    let json = out.join(format!("review-{stem}.json"));
    let csv = out.join(format!("review-{stem}.csv"));
    write_json(&json, &review)?;
    write_csv(&csv, review.rows(0))?;
    let mut files = vec![json, csv];
    if args.plot {
        let title = format!("{}: best still reachable, turn by turn", saved.name);
        files.extend(crate::output::plot::review(
            &title,
            &review,
            &out.join(format!("review-{stem}")),
        )?);
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&review)?);
    } else {
        out!("{}", review.table());
        outln!(
            "\n{} replans ({} solved, the rest carried over) in {:.1} s; wrote {}",
            review
                .players
                .iter()
                .map(|p| 2 * p.turns.len())
                .sum::<usize>()
                + review.players.len()
                + 1,
            review.solves,
            review.seconds,
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(proven_status(review.all_proven))
}
