//! A thin session over one HiGHS model: options, re-solves after adding cut
//! rows, integrality changes, warm starts, and the figures good_lp does not
//! expose (dual bound, node count).
//!
//! Models are *built* with good_lp (see `model::paper`, `model::forest`); this
//! module takes over once the model exists, because a separate-and-resolve
//! loop needs to add rows to a live model (HiGHS has no cut callbacks).

use std::ffi::CStr;

use good_lp::solvers::highs::HighsProblem;
use highs::HighsModelStatus;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MipStatus {
    Optimal,
    TimeLimit,
}

/// One solve's outcome.
#[derive(Clone, Debug)]
pub struct MipResult {
    pub status: MipStatus,
    /// Objective of the best solution found (`None` if there is none).
    pub objective: Option<f64>,
    /// Best bound on the objective (maximisation: an upper bound).
    pub bound: f64,
    /// Column values of the best solution found.
    pub values: Option<Vec<f64>>,
    /// Branch-and-bound nodes (0 for an LP).
    pub nodes: i64,
}

#[derive(Debug, thiserror::Error)]
#[error("HiGHS: {0}")]
pub struct MipError(pub String);

pub struct Mip {
    // `highs::Model::solve` consumes the model; it is put back after each solve.
    model: Option<highs::Model>,
    is_mip: bool,
}

impl Mip {
    /// Takes over a model built with good_lp. HiGHS's log goes nowhere: it
    /// writes to stdout, which would corrupt `--json`.
    pub fn new(problem: HighsProblem, is_mip: bool) -> Result<Mip, MipError> {
        let mut model = problem
            .try_into_inner()
            .map_err(|e| MipError(format!("cannot build the model: {e}")))?;
        model.make_quiet();
        let mut mip = Mip {
            model: Some(model),
            is_mip,
        };
        // One thread per solve: results are reproducible, and parallelism
        // belongs to the caller (independent budgets on independent threads).
        mip.option("threads", 1)?;
        mip.option("random_seed", 0)?;
        // Objectives here are integer, so a gap below 1 point is a proof; the
        // caller reports the integer bound.
        mip.option("mip_rel_gap", 0.0)?;
        mip.option("mip_abs_gap", 0.999)?;
        Ok(mip)
    }

    fn model(&mut self) -> &mut highs::Model {
        self.model
            .as_mut()
            .expect("model is put back after every solve")
    }

    pub fn option<V: highs::HighsOptionValue>(
        &mut self,
        key: &str,
        value: V,
    ) -> Result<(), MipError> {
        self.model()
            .try_set_option(key, value)
            .map_err(|e| MipError(format!("option {key}: {e:?}")))
    }

    /// Wall-clock limit for the next solve, in seconds.
    pub fn set_time_limit(&mut self, seconds: f64) -> Result<(), MipError> {
        self.option("time_limit", seconds.max(0.0))
    }

    /// Makes the given columns integer (or continuous again).
    pub fn set_integer(&mut self, cols: &[usize], integer: bool) -> Result<(), MipError> {
        let kind = if integer {
            highs_sys::VAR_TYPE_INTEGER
        } else {
            highs_sys::VAR_TYPE_CONTINUOUS
        };
        let set: Vec<highs_sys::HighsInt> =
            cols.iter().map(|&c| c as highs_sys::HighsInt).collect();
        let kinds = vec![kind; set.len()];
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance; both arrays have `set.len()` entries.
        let status = unsafe {
            highs_sys::Highs_changeColsIntegralityBySet(
                ptr,
                set.len() as highs_sys::HighsInt,
                set.as_ptr(),
                kinds.as_ptr(),
            )
        };
        self.is_mip = integer;
        check(status, "changing integrality")
    }

    /// Adds the row `lower <= sum(coef * col) <= upper`.
    pub fn add_row(
        &mut self,
        lower: f64,
        upper: f64,
        entries: &[(usize, f64)],
    ) -> Result<(), MipError> {
        let index: Vec<highs_sys::HighsInt> = entries
            .iter()
            .map(|&(c, _)| c as highs_sys::HighsInt)
            .collect();
        let value: Vec<f64> = entries.iter().map(|&(_, v)| v).collect();
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance; both arrays have `entries.len()` entries.
        let status = unsafe {
            highs_sys::Highs_addRow(
                ptr,
                lower,
                upper,
                index.len() as highs_sys::HighsInt,
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        check(status, "adding a row")
    }

    /// A feasible solution to start from (HiGHS ignores it if it is not).
    pub fn set_start(&mut self, cols: &[f64]) -> Result<(), MipError> {
        self.model()
            .try_set_solution(Some(cols), None, None, None)
            .map_err(|e| MipError(format!("setting the start solution: {e:?}")))
    }

    pub fn solve(&mut self) -> Result<MipResult, MipError> {
        let model = self
            .model
            .take()
            .expect("model is put back after every solve");
        let solved = model
            .try_solve()
            .map_err(|e| MipError(format!("solve failed: {e:?}")))?;
        let status = match solved.status() {
            HighsModelStatus::Optimal => MipStatus::Optimal,
            HighsModelStatus::ReachedTimeLimit
            | HighsModelStatus::ReachedInterrupt
            | HighsModelStatus::ReachedIterationLimit
            | HighsModelStatus::ReachedSolutionLimit => MipStatus::TimeLimit,
            other => {
                self.model = Some(solved.into());
                return Err(MipError(format!("unexpected model status {other:?}")));
            }
        };
        let has_solution = solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
        let values = has_solution.then(|| solved.get_solution().columns().to_vec());
        let objective = has_solution.then(|| solved.objective_value());
        let (bound, nodes) = if self.is_mip {
            let bound = solved
                .double_info_value(c"mip_dual_bound")
                .map_err(|e| MipError(format!("reading the dual bound: {e:?}")))?;
            (bound, int64_info(&solved, c"mip_node_count"))
        } else {
            (objective.unwrap_or(f64::INFINITY), 0)
        };
        self.model = Some(solved.into());
        Ok(MipResult {
            status,
            objective,
            bound,
            values,
            nodes,
        })
    }
}

fn int64_info(solved: &highs::SolvedModel, name: &CStr) -> i64 {
    let mut value: i64 = 0;
    // SAFETY: a live Highs instance, a NUL-terminated name and a valid out pointer.
    let status =
        unsafe { highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), name.as_ptr(), &mut value) };
    if status == highs_sys::STATUS_ERROR {
        -1
    } else {
        value
    }
}

fn check(status: highs_sys::HighsInt, what: &str) -> Result<(), MipError> {
    if status == highs_sys::STATUS_ERROR {
        Err(MipError(format!("error while {what}")))
    } else {
        Ok(())
    }
}
