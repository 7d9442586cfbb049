//! `ttr-opt check`: a player's own plan, judged and set beside the optimum.

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{budget, load_board, EXIT_TIME_LIMIT};
use crate::analysis::check::{check_within, PlanCheck, PlanFile};
use crate::board::Board;

#[derive(clap::Args)]
pub(super) struct CheckArgs {
    /// Plan file: the routes claimed (format in data/README.md).
    #[arg(value_name = "PLAN.json")]
    plan: PathBuf,
    /// Board file (default: the plan's "board", else the built-in USA
    /// board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Train cars (default: the plan's "cars", else the board's own).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// Print the verdict as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub(super) fn run_check(args: &CheckArgs, limits: &Limits) -> Result<ExitCode> {
    let plan = PlanFile::load(&args.plan)?;
    let board: Board = load_board(args.board.as_ref().or(plan.board.as_ref()))?;
    let claimed = plan.claimed(&board)?;
    let cars = args.cars.or(plan.cars).unwrap_or(board.cars);
    let verdict =
        check_within(&board, &claimed, cars, limits).context("checking the plan failed")?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&verdict)?);
    } else {
        print(&verdict)?;
    }
    // An illegal plan is the answer, not a failure of the tool, but a
    // script should not take it for a good one.
    Ok(if !verdict.legal {
        ExitCode::FAILURE
    } else if !verdict.optimum_proven {
        ExitCode::from(EXIT_TIME_LIMIT)
    } else {
        ExitCode::SUCCESS
    })
}

fn print(v: &PlanCheck) -> Result<()> {
    outln!("Plan on {} with {} train cars", v.board, v.cars);
    if v.legal {
        outln!("Legal: yes ({} of {} cars used)", v.cars_used, v.cars);
    } else {
        outln!("Legal: NO");
        for p in &v.problems {
            outln!("  - {p}");
        }
    }
    outln!(
        "Score: {} points ({} from {} tickets, {} from {} routes){}",
        v.score,
        v.ticket_points,
        v.tickets.len(),
        v.route_points,
        v.routes.len(),
        if v.legal { "" } else { ", were it allowed" }
    );
    let optimum = if v.optimum_proven {
        format!("the proven optimum, {} points", v.optimum)
    } else {
        format!(
            "the best plan found, {} points (not proven: the optimum is at most {})",
            v.optimum, v.bound
        )
    };
    match v.short_of_optimum {
        0 => outln!("Against {optimum}: as good"),
        d if d > 0 => outln!("Against {optimum}: {d} points short"),
        d => outln!("Against {optimum}: {} points more", -d),
    }
    outln!("\nTickets completed");
    for t in &v.tickets {
        outln!("  {:<34} {:>6}", t.name, t.points);
    }
    for (title, names) in [
        (
            "Routes of the optimum the plan lacks",
            &v.optimum_routes_not_in_plan,
        ),
        (
            "Routes of the plan the optimum does without",
            &v.plan_routes_not_in_optimum,
        ),
        (
            "Tickets the optimum completes and the plan does not",
            &v.optimum_tickets_not_in_plan,
        ),
        (
            "Tickets the plan completes and the optimum does not",
            &v.plan_tickets_not_in_optimum,
        ),
    ] {
        if !names.is_empty() {
            outln!("\n{title}");
            for n in names {
                outln!("  {n}");
            }
        }
    }
    Ok(())
}
