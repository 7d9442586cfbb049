//! A thin session over one HiGHS model: options, MIP solves with warm
//! starts and the figures good_lp does not expose (dual bound, node count),
//! and what the branch and cut needs of a live LP: cut rows, column and row
//! bounds, in-place warm re-solves with a cutoff, and saved bases.
//!
//! Models are *built* with good_lp (see `model::paper`, `model::forest`); this
//! module takes over once the model exists, because the branch and cut adds
//! rows to a live model (HiGHS has no lazy-constraint callbacks).

use std::ffi::CStr;

use good_lp::solvers::highs::HighsProblem;
use highs::HighsModelStatus;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MipStatus {
    /// The solve finished: the solution is optimal (within the gap of
    /// [`Mip::new`]).
    Optimal,
    /// The time limit (or another limit, or an interrupt) stopped it first.
    TimeLimit,
}

/// One solve's outcome.
#[derive(Clone, Debug)]
pub struct MipResult {
    /// Whether the solve finished.
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

/// How an in-place LP solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LpStatus {
    /// The LP is solved to optimality.
    Optimal,
    /// The LP has no solution (the node's bounds exclude every plan).
    Infeasible,
    /// The objective passed the cutoff of [`Mip::set_cutoff`].
    Cutoff,
    /// Time limit (or another limit) reached.
    Stopped,
}

/// HiGHS's basis status "basic".
const BASIC: highs_sys::HighsInt = 1;

/// A simplex basis: a status per column and per row.
#[derive(Clone, Debug)]
pub struct Basis {
    cols: Vec<highs_sys::HighsInt>,
    rows: Vec<highs_sys::HighsInt>,
}

impl Basis {
    /// Whether row `row`'s slack is basic (the row does not bind the LP
    /// point of this basis); rows added after it was taken count as basic.
    pub fn slack_basic(&self, row: usize) -> bool {
        self.rows.get(row).is_none_or(|&s| s == BASIC)
    }

    /// The basis with the rows marked in `delete` left out (rows added
    /// after it was taken have no status and are skipped).
    pub fn without_rows(&self, delete: &[bool]) -> Basis {
        Basis {
            cols: self.cols.clone(),
            rows: Basis::without(&self.rows, delete),
        }
    }

    fn without(rows: &[highs_sys::HighsInt], delete: &[bool]) -> Vec<highs_sys::HighsInt> {
        rows.iter()
            .zip(delete)
            .filter(|(_, &d)| !d)
            .map(|(&s, _)| s)
            .collect()
    }
}

/// An LP solve's outcome (values only when optimal).
#[derive(Clone, Debug)]
pub struct LpResult {
    /// How the solve ended.
    pub status: LpStatus,
    /// The objective value (negative infinity when not optimal).
    pub objective: f64,
    /// Column values (empty when not optimal).
    pub values: Vec<f64>,
    /// Simplex iterations the solve took: the same run after run, unlike
    /// its time.
    pub iterations: u64,
}

/// An error from HiGHS (or from handing it a model), with its description.
#[derive(Debug, thiserror::Error)]
#[error("HiGHS: {0}")]
pub struct MipError(pub String);

/// A HiGHS model, live across solves: the session every MIP method works
/// through.
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

    /// Sets the HiGHS option `key` to `value`.
    pub fn option<V: highs::HighsOptionValue>(
        &mut self,
        key: &str,
        value: V,
    ) -> Result<(), MipError> {
        self.model()
            .try_set_option(key, value)
            .map_err(|e| MipError(format!("option {key}: {e:?}")))
    }

    /// Wall-clock limit for the next solve, in seconds. HiGHS compares its
    /// `time_limit` with the run time it has accumulated over every solve of
    /// this model, so the limit is that time plus `seconds`.
    pub fn set_time_limit(&mut self, seconds: f64) -> Result<(), MipError> {
        // SAFETY: a live Highs instance.
        let spent = unsafe { highs_sys::Highs_getRunTime(self.model().as_mut_ptr()) };
        self.option("time_limit", spent.max(0.0) + seconds.max(0.0))
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

    /// Rows in the model now (the index the next added row gets).
    pub fn rows(&mut self) -> usize {
        // SAFETY: a live Highs instance.
        unsafe { highs_sys::Highs_getNumRow(self.model().as_mut_ptr()) as usize }
    }

    /// Columns in the model.
    pub fn columns(&mut self) -> usize {
        // SAFETY: a live Highs instance.
        unsafe { highs_sys::Highs_getNumCol(self.model().as_mut_ptr()) as usize }
    }

    /// Turns the model into the minimisation of `costs` (every column not
    /// listed costs 0). The dual simplex stops early at an objective cutoff
    /// ([`Mip::set_cutoff`]) only when minimising.
    pub fn minimise(&mut self, costs: &[(usize, f64)]) -> Result<(), MipError> {
        self.objective(1, costs)
    }

    /// Sets the objective's sense (1 minimise, -1 maximise) and `costs`.
    fn objective(
        &mut self,
        sense: highs_sys::HighsInt,
        costs: &[(usize, f64)],
    ) -> Result<(), MipError> {
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance.
        let status = unsafe { highs_sys::Highs_changeObjectiveSense(ptr, sense) };
        check(status, "changing the objective sense")?;
        for &(col, cost) in costs {
            // SAFETY: as above.
            let status =
                unsafe { highs_sys::Highs_changeColCost(ptr, col as highs_sys::HighsInt, cost) };
            check(status, "changing a cost")?;
        }
        Ok(())
    }

    /// A minimising LP may stop as soon as its objective is proven above
    /// `cutoff` ([`LpStatus::Cutoff`]).
    pub fn set_cutoff(&mut self, cutoff: f64) -> Result<(), MipError> {
        self.option("objective_bound", cutoff)
    }

    /// The current basis (column and row statuses).
    pub fn basis(&mut self) -> Result<Basis, MipError> {
        let ptr = self.model().as_mut_ptr();
        let rows = self.rows();
        // SAFETY: a live Highs instance.
        let cols = unsafe { highs_sys::Highs_getNumCol(ptr) } as usize;
        let mut basis = Basis {
            cols: vec![0; cols],
            rows: vec![0; rows],
        };
        // SAFETY: the arrays have as many entries as the model has columns and rows.
        let status = unsafe {
            highs_sys::Highs_getBasis(ptr, basis.cols.as_mut_ptr(), basis.rows.as_mut_ptr())
        };
        check(status, "reading the basis")?;
        Ok(basis)
    }

    /// Restores a basis taken earlier; rows added since then start basic
    /// (their slacks), which keeps the basis valid.
    pub fn set_basis(&mut self, basis: &Basis) -> Result<(), MipError> {
        let rows = self.rows();
        let mut row_status = basis.rows.clone();
        row_status.resize(rows, BASIC);
        let ptr = self.model().as_mut_ptr();
        // SAFETY: the arrays have as many entries as the model has columns and rows.
        let status =
            unsafe { highs_sys::Highs_setBasis(ptr, basis.cols.as_ptr(), row_status.as_ptr()) };
        check(status, "setting the basis")
    }

    /// Deletes the rows marked in `delete` (one entry per row) and keeps the
    /// current basis without them. Only rows whose slacks are basic may be
    /// deleted: the columns and the other rows then still form a basis.
    pub fn delete_rows(&mut self, delete: &[bool]) -> Result<(), MipError> {
        let basis = self.basis()?;
        let kept = Basis {
            cols: basis.cols.clone(),
            rows: Basis::without(&basis.rows, delete),
        };
        let mut mask: Vec<highs_sys::HighsInt> = delete
            .iter()
            .map(|&d| highs_sys::HighsInt::from(d))
            .collect();
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `mask` has an entry per row of the live Highs instance.
        let status = unsafe { highs_sys::Highs_deleteRowsByMask(ptr, mask.as_mut_ptr()) };
        check(status, "deleting rows")?;
        self.set_basis(&kept)
    }

    /// Sets the bounds of column `col`.
    pub fn set_col_bounds(&mut self, col: usize, lower: f64, upper: f64) -> Result<(), MipError> {
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance.
        let status = unsafe {
            highs_sys::Highs_changeColBounds(ptr, col as highs_sys::HighsInt, lower, upper)
        };
        check(status, "changing column bounds")
    }

    /// Sets the bounds of row `row`.
    pub fn set_row_bounds(&mut self, row: usize, lower: f64, upper: f64) -> Result<(), MipError> {
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance.
        let status = unsafe {
            highs_sys::Highs_changeRowBounds(ptr, row as highs_sys::HighsInt, lower, upper)
        };
        check(status, "changing row bounds")
    }

    /// Re-solves the model as an LP in place (every column must be
    /// continuous), warm-started from the last basis: the node solve of
    /// [`crate::solve::branch`]. Cheaper than [`Mip::solve`], which hands the model
    /// through the `highs` crate's solve and back.
    pub fn solve_lp(&mut self, columns: usize) -> Result<LpResult, MipError> {
        let ptr = self.model().as_mut_ptr();
        // SAFETY: `ptr` is a live Highs instance.
        let status = unsafe { highs_sys::Highs_run(ptr) };
        check(status, "solving the LP")?;
        let mut iterations: highs_sys::HighsInt = 0;
        // SAFETY: a live Highs instance, a NUL-terminated name and a place
        // for the value.
        let read = unsafe {
            highs_sys::Highs_getIntInfoValue(
                ptr,
                c"simplex_iteration_count".as_ptr(),
                &mut iterations,
            )
        };
        check(read, "reading the LP's iteration count")?;
        let iterations = u64::try_from(iterations).unwrap_or(0);
        // SAFETY: as above.
        let model_status = unsafe { highs_sys::Highs_getModelStatus(ptr) };
        let status = match model_status {
            s if s == highs_sys::MODEL_STATUS_OPTIMAL => LpStatus::Optimal,
            s if s == highs_sys::MODEL_STATUS_INFEASIBLE => LpStatus::Infeasible,
            s if s == highs_sys::MODEL_STATUS_OBJECTIVE_BOUND => LpStatus::Cutoff,
            s if s == highs_sys::MODEL_STATUS_REACHED_TIME_LIMIT
                || s == highs_sys::MODEL_STATUS_REACHED_INTERRUPT
                || s == highs_sys::MODEL_STATUS_REACHED_ITERATION_LIMIT =>
            {
                LpStatus::Stopped
            }
            other => return Err(MipError(format!("unexpected LP status {other}"))),
        };
        if status != LpStatus::Optimal {
            return Ok(LpResult {
                status,
                objective: f64::NEG_INFINITY,
                values: Vec::new(),
                iterations,
            });
        }
        let mut values = vec![0.0; columns];
        // SAFETY: `values` has as many entries as the model has columns; HiGHS
        // skips the arrays passed as null (duals, row values).
        let read = unsafe {
            highs_sys::Highs_getSolution(
                ptr,
                values.as_mut_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        check(read, "reading the LP solution")?;
        // SAFETY: a live Highs instance.
        let objective = unsafe { highs_sys::Highs_getObjectiveValue(ptr) };
        Ok(LpResult {
            status,
            objective,
            values,
            iterations,
        })
    }

    /// The dual value of row `row` in the last LP solved to optimality
    /// ([`Mip::solve_lp`]): how much the objective changes per unit of the
    /// row's bound, at that basis.
    pub fn row_dual(&mut self, row: usize) -> Result<f64, MipError> {
        let rows = self.rows();
        let ptr = self.model().as_mut_ptr();
        let mut duals = vec![0.0; rows];
        // SAFETY: `duals` has as many entries as the model has rows; HiGHS
        // skips the arrays passed as null.
        let read = unsafe {
            highs_sys::Highs_getSolution(
                ptr,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                duals.as_mut_ptr(),
            )
        };
        check(read, "reading the LP's duals")?;
        Ok(duals[row])
    }

    /// A feasible solution to start from (HiGHS ignores it if it is not).
    pub fn set_start(&mut self, cols: &[f64]) -> Result<(), MipError> {
        self.model()
            .try_set_solution(Some(cols), None, None, None)
            .map_err(|e| MipError(format!("setting the start solution: {e:?}")))
    }

    /// Solves the model as it stands (as a MIP if it was built as one), from
    /// the start solution if one was set.
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

    /// Makes `cols` integer (within their bounds: binary for 0..1 columns),
    /// for a model file whose reader solves it as a MIP.
    pub fn set_integer(&mut self, cols: &[usize]) -> Result<(), MipError> {
        let ptr = self.model().as_mut_ptr();
        for &c in cols {
            // SAFETY: a live Highs instance; 1 is kHighsVarTypeInteger.
            let status =
                unsafe { highs_sys::Highs_changeColIntegrality(ptr, c as highs_sys::HighsInt, 1) };
            check(status, "making a column integer")?;
        }
        Ok(())
    }

    /// Turns the model into the maximisation of `costs` (every column not
    /// listed keeps its cost).
    pub fn maximise(&mut self, costs: &[(usize, f64)]) -> Result<(), MipError> {
        self.objective(-1, costs)
    }

    /// Names columns in the written model; `names` must be unique, of ASCII
    /// letters, digits and underscores (what MPS and LP files accept). The
    /// others are named by HiGHS when the file is written.
    pub fn name_columns(&mut self, names: &[(usize, String)]) -> Result<(), MipError> {
        let ptr = self.model().as_mut_ptr();
        for (c, name) in names {
            let name = std::ffi::CString::new(name.as_str())
                .map_err(|_| MipError(format!("a column name holds a NUL: {name:?}")))?;
            // SAFETY: a live Highs instance and a NUL-terminated name.
            let status = unsafe {
                highs_sys::Highs_passColName(ptr, *c as highs_sys::HighsInt, name.as_ptr())
            };
            check(status, "naming a column")?;
        }
        Ok(())
    }

    /// Writes the model to `path`, in the format its extension names
    /// (`.mps` or `.lp`).
    pub fn write(&mut self, path: &std::path::Path) -> Result<(), MipError> {
        let name = c_path(path)?;
        // SAFETY: a live Highs instance and a NUL-terminated file name.
        let status =
            unsafe { highs_sys::Highs_writeModel(self.model().as_mut_ptr(), name.as_ptr()) };
        check(status, &format!("writing the model to {}", path.display()))
    }
}

/// Reads a model file (MPS or LP, as [`Mip::write`] writes them) and solves
/// it with HiGHS on one thread: its optimal objective. For checking that an
/// exported model reproduces the optimum, as another solver would.
pub fn solve_file(path: &std::path::Path) -> Result<f64, MipError> {
    struct Owned(*mut std::os::raw::c_void);
    impl Drop for Owned {
        fn drop(&mut self) {
            // SAFETY: created by Highs_create, destroyed once.
            unsafe { highs_sys::Highs_destroy(self.0) }
        }
    }
    let name = c_path(path)?;
    // SAFETY: Highs_create returns a fresh instance, owned (and freed) here;
    // every call below gets it and NUL-terminated strings.
    unsafe {
        let highs = Owned(highs_sys::Highs_create());
        check(
            highs_sys::Highs_setBoolOptionValue(highs.0, c"output_flag".as_ptr(), 0),
            "silencing HiGHS",
        )?;
        check(
            highs_sys::Highs_setIntOptionValue(highs.0, c"threads".as_ptr(), 1),
            "setting one thread",
        )?;
        check(
            highs_sys::Highs_setDoubleOptionValue(highs.0, c"mip_rel_gap".as_ptr(), 0.0),
            "setting the MIP gap",
        )?;
        check(
            highs_sys::Highs_readModel(highs.0, name.as_ptr()),
            &format!("reading {}", path.display()),
        )?;
        check(highs_sys::Highs_run(highs.0), "solving the model")?;
        let status = highs_sys::Highs_getModelStatus(highs.0);
        if status != highs_sys::MODEL_STATUS_OPTIMAL {
            return Err(MipError(format!(
                "{}: the model ended with status {status}, not optimal",
                path.display()
            )));
        }
        Ok(highs_sys::Highs_getObjectiveValue(highs.0))
    }
}

/// A file name as HiGHS's C interface takes it.
fn c_path(path: &std::path::Path) -> Result<std::ffi::CString, MipError> {
    std::ffi::CString::new(path.to_string_lossy().as_bytes())
        .map_err(|_| MipError(format!("{}: a NUL in the file name", path.display())))
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
