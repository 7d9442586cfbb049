//! `ttr-opt export`: a budget's model as an MPS or LP file.

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{budget, load_board, proven_status, usage};
use crate::model::Instance;
use crate::output::export::{export_within, Format, ModelKind};

#[derive(clap::Args)]
pub(super) struct ExportArgs {
    /// Train cars (default: the board's own, 45 on the USA board).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// Board file (default: the built-in USA board).
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Option<PathBuf>,
    /// Which model: paper (as published, complete) or forest (with the
    /// cuts its proof needed: the branch and cut runs first).
    #[arg(long, value_enum)]
    model: ModelKind,
    /// File format (default: from the extension of --out).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Print what was written as JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn run_export(args: &ExportArgs, limits: &Limits) -> Result<ExitCode> {
    let format = match (args.format, Format::of(&args.out)) {
        (Some(f), Some(g)) if f != g => {
            return Err(usage(format!(
                "--format {} does not match the extension of {}",
                f.extension(),
                args.out.display()
            )))
        }
        (Some(f), _) | (None, Some(f)) => f,
        (None, None) => {
            return Err(usage(format!(
                "say --format mps or lp (the name {} does not end in .mps or .lp)",
                args.out.display()
            )))
        }
    };
    let board = load_board(args.board.as_ref())?;
    let cars = args.cars.unwrap_or(board.cars);
    let inst = Instance::new(&board, cars);
    let written =
        export_within(&inst, args.model, format, &args.out, limits).context("export failed")?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&written)?);
    } else {
        outln!(
            "wrote {}: the {:?} model of {} at {cars} cars, {} columns, {} rows{}",
            args.out.display(),
            written.model,
            board.name,
            written.columns,
            written.rows,
            match written.optimum {
                Some(o) if written.proven => format!(
                    " ({} cuts from the proof of the optimum, {o} points)",
                    written.cuts
                ),
                Some(o) => format!(
                    " ({} cuts; NOT proven: the time limit stopped the proof at {o} points, \
                     and the file's MIP may score more)",
                    written.cuts
                ),
                None => String::new(),
            }
        );
    }
    Ok(proven_status(written.proven))
}
