//! Model export: the MIP of one budget as an MPS or LP file, so that the
//! solver a user trusts (Gurobi, CPLEX, SCIP, HiGHS) can solve it alone.
//!
//! The paper's model is written as built: complete, its LP weak. The forest
//! model has exponentially many directed cuts, so it is written as a proof
//! left it: the branch and cut proves the optimum first, and the file holds
//! every cut the proof needed, with the route and scoring columns integer.
//! Each node of that proof was closed by an LP over some of those cuts, so
//! the file alone has the same optimum (the tests read it back with HiGHS).
//! Route columns are named `x<index>_<cities>`; the objective is the score,
//! maximised.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::board::verify::{evaluate, VerifyError};
use crate::model::{paper::PaperModel, route_column_names, Instance};
use crate::solve::heuristic;
use crate::solve::limits::Limits;
use crate::solve::{model_fits, Method, SolveError};

/// Which formulation to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// Schaefer & Schaefer's model (1): a directed flow per ticket with a
    /// dummy return arc; complete as written.
    Paper,
    /// The rooted-forest directed-cut model, with the cuts that proved the
    /// optimum.
    Forest,
}

/// The file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Free-format MPS.
    Mps,
    /// CPLEX LP format.
    Lp,
}

impl Format {
    /// The extension HiGHS goes by.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Mps => "mps",
            Format::Lp => "lp",
        }
    }

    /// The format a file name's extension names, if any.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "mps" => Some(Format::Mps),
            "lp" => Some(Format::Lp),
            _ => None,
        }
    }
}

/// What was written.
#[derive(Clone, Debug, Serialize)]
pub struct Exported {
    /// The formulation written.
    pub model: ModelKind,
    /// The file format.
    pub format: Format,
    /// The budget of the model, in train cars.
    pub cars: u32,
    /// Columns (variables) in the file.
    pub columns: usize,
    /// Rows (constraints) in the file, cuts included.
    pub rows: usize,
    /// Directed cuts in the file (forest model).
    pub cuts: usize,
    /// The optimum the proof found (forest model; the paper model is
    /// written without solving it).
    pub optimum: Option<u32>,
    /// Whether the proof finished: a forest model written at a time limit
    /// holds fewer cuts, and its MIP may score above the optimum.
    pub proven: bool,
    /// Wall-clock time of building (and, for the forest model, solving) and
    /// writing, in seconds.
    pub seconds: f64,
}

/// Writes the `kind` model of `inst` to `path` in `format` (atomically:
/// under a temporary name beside it, then renamed).
pub fn export(
    inst: &Instance,
    kind: ModelKind,
    format: Format,
    path: &Path,
) -> Result<Exported, SolveError> {
    export_within(inst, kind, format, path, &Limits::none())
}

/// [`export`] within the call's `limits`: the forest model's proof stops at
/// them, and the file holds the cuts found so far.
pub fn export_within(
    inst: &Instance,
    kind: ModelKind,
    format: Format,
    path: &Path,
    limits: &Limits,
) -> Result<Exported, SolveError> {
    let started = Instant::now();
    if inst.routes.is_empty() || inst.takes_everything() {
        return Err(SolveError::Limit(format!(
            "at {} cars the answer needs no model: {}",
            inst.cars,
            if inst.routes.is_empty() {
                "no route fits"
            } else {
                "every route fits, and the best plan claims them all"
            }
        )));
    }
    let method = match kind {
        ModelKind::Paper => Method::Paper,
        ModelKind::Forest => Method::Forest,
    };
    model_fits(inst, method, "", limits)?;
    // HiGHS picks the format by the extension of the name it writes.
    let tmp = crate::output::temporary(path).with_extension(format.extension());
    // Created here first: HiGHS's writer crashes on a path it cannot open
    // (seen with a folder that does not exist), where this is a plain
    // I/O message.
    std::fs::File::create(&tmp)
        .map_err(|e| SolveError::Io(format!("cannot write {}: {e}", path.display())))?;
    let written = write(inst, kind, &tmp, limits);
    let (columns, rows, cuts, optimum, proven) = match written {
        Ok(figures) => figures,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    crate::output::commit(&tmp, path)
        .map_err(|e| SolveError::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(Exported {
        model: kind,
        format,
        cars: inst.cars,
        columns,
        rows,
        cuts,
        optimum,
        proven,
        seconds: started.elapsed().as_secs_f64(),
    })
}

type Figures = (usize, usize, usize, Option<u32>, bool);

fn write(
    inst: &Instance,
    kind: ModelKind,
    tmp: &Path,
    limits: &Limits,
) -> Result<Figures, SolveError> {
    match kind {
        ModelKind::Paper => {
            let (model, mut mip) = PaperModel::build(inst, false)?;
            mip.name_columns(&route_column_names(inst, &model.x_columns()))?;
            mip.write(tmp)?;
            Ok((mip.columns(), mip.rows(), 0, None, true))
        }
        ModelKind::Forest => {
            let start = heuristic::start(inst, limits);
            let answer = crate::solve::branch::solve_and_write(inst, &start, limits, tmp)?;
            let eval = evaluate(inst.board, &answer.routes, &inst.tickets_in_play);
            if eval.score() != answer.score {
                return Err(VerifyError(format!(
                    "the branch and cut claims {} points, the verifier finds {}",
                    answer.score,
                    eval.score()
                ))
                .into());
            }
            let (columns, rows) = answer.model_size;
            Ok((
                columns,
                rows,
                answer.cuts,
                Some(answer.score),
                answer.proven,
            ))
        }
    }
}
