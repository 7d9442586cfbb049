//! Solving an [`Instance`]: pick a method (the forest model's branch and
//! cut in [`crate::solve::branch`], the frontier programme, or the paper's MIP),
//! run it, and check the answer with the independent verifier before anyone
//! sees it.

pub mod branch;
pub mod frontier;
pub mod heuristic;
pub mod limits;
pub mod sweep;

use std::time::Instant;

use serde::Serialize;

use crate::board::verify::{self, Claim, VerifyError};
use crate::board::RouteId;
use crate::model::mip::{MipError, MipStatus};
use crate::model::{paper::PaperModel, Instance, Plan};
use crate::solve::branch::{Answer, Lanes, Reach};
use crate::solve::frontier::{Frontier, Goal};
use crate::solve::limits::Limits;

/// Whether the reported plan is proven optimal (`"optimal"`) or the time limit
/// came first (`"time_limit"`): what the reports say, mapped from the
/// solve's [`Stop`] ([`Stop::status`]).
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The plan is proven optimal.
    Optimal,
    /// The time limit stopped the solver; the plan may not be optimal.
    TimeLimit,
}

/// Why a solve stopped: one answer per solve, as HiGHS reports one model
/// status. Every answer holds a plan and an upper bound
/// ([`Outcome::bound`]), so every variant but [`Stop::Optimal`] means
/// "feasible, with a bound": the plan is the best found and the optimum
/// lies between its score and the bound. (No instance is infeasible: the
/// empty plan always fits.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The plan is proven optimal: its score meets the bound.
    Optimal,
    /// The call's deadline came first ([`limits::Limits::deadline`]).
    TimeLimit,
    /// The memory budget stopped the method asked for (the frontier
    /// programme's tables), with no other method to take over.
    MemoryLimit,
    /// A count of work ended the search before its proof: HiGHS's
    /// iteration or solution limits (the paper's MIP), or the LPs allowed.
    WorkLimit,
    /// Ctrl-C stopped the process's calls ([`limits::interrupt`]).
    Interrupted,
    /// The call's token was cancelled ([`limits::Cancel`]).
    Cancelled,
}

impl Stop {
    /// What the reports say: `optimal` for [`Stop::Optimal`], `time_limit`
    /// for every other stop (the plan is not proven optimal).
    pub fn status(self) -> Status {
        match self {
            Stop::Optimal => Status::Optimal,
            _ => Status::TimeLimit,
        }
    }

    /// Why a search that ended unproven stopped: the call's limits where
    /// they passed, else `otherwise` (what the method itself ran out of).
    fn unproven(limits: &Limits, otherwise: Stop) -> Stop {
        limits.why().unwrap_or(otherwise)
    }
}

/// Which exact method to use: what a caller asks for ([`SolveOptions::method`]).
/// All of them return the same optimum; what answered is an
/// [`Outcome::method`], a [`Produced`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The faster of `forest` and `frontier` for this budget, chosen by the
    /// gap between the forest model's root LP bound and a heuristic plan.
    Auto,
    /// Dynamic programme over the map, no LP; fastest for small and middle budgets.
    Frontier,
    /// Rooted-forest directed-cut model, solved by our branch and cut with
    /// max-flow separation at every node; fastest from middle budgets up.
    Forest,
    /// The paper's per-ticket flow model, flows continuous.
    Paper,
    /// The paper's per-ticket flow model with binary flows, as in (1e).
    PaperInteger,
}

impl Method {
    /// The name on the command line and in the JSON (`paper-integer`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Frontier => "frontier",
            Method::Forest => "forest",
            Method::Paper => "paper",
            Method::PaperInteger => "paper-integer",
        }
    }
}

/// What produced an answer ([`Outcome::method`]): a method that ran (never
/// `auto`, which only picks one), or a base board's optimum carried over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Produced {
    /// The frontier programme.
    Frontier,
    /// The forest model's branch and cut.
    Forest,
    /// HiGHS's MIP on the paper's model, flows continuous.
    Paper,
    /// HiGHS's MIP on the paper's model, flows binary.
    PaperInteger,
    /// No solve: a base board's proven optimum carried to a variant it
    /// bounds ([`crate::analysis::carry`]).
    Base,
    /// HiGHS's MIP on the paper's model with stations
    /// ([`crate::model::stations`]): a plan in the middle of a game that
    /// borrows other players' routes ([`crate::plans::replan`]).
    Stations,
}

impl Produced {
    /// The method that runs where `method` is asked for without a search
    /// (nothing or everything fits, or no time is left): itself, `auto`'s
    /// being the branch and cut.
    fn ran(method: Method) -> Produced {
        match method {
            Method::Auto | Method::Forest => Produced::Forest,
            Method::Frontier => Produced::Frontier,
            Method::Paper => Produced::Paper,
            Method::PaperInteger => Produced::PaperInteger,
        }
    }

    /// The name in the reports (`paper-integer`, `base`): a method's own name.
    pub fn name(self) -> &'static str {
        match self {
            Produced::Frontier => "frontier",
            Produced::Forest => "forest",
            Produced::Paper => "paper",
            Produced::PaperInteger => "paper-integer",
            Produced::Base => "base",
            Produced::Stations => "stations",
        }
    }
}

/// An answer's method against a method asked for: equal where the method
/// asked is the one that ran (`auto` is never equal: it only picks).
impl PartialEq<Method> for Produced {
    fn eq(&self, other: &Method) -> bool {
        self.name() == other.name()
    }
}

/// How to solve: the method, the call's limits, a time limit of this solve's
/// own and a starting plan.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The method; [`Method::Auto`] picks one.
    pub method: Method,
    /// The method that takes over where the one asked for stops at the
    /// memory budget unproven (`None`: that answer stands, with
    /// [`Stop::MemoryLimit`]): see the table of [`solve`].
    pub memory_fallback: Option<Method>,
    /// The call's limits (deadline, memory budget, cancellation), shared by
    /// every solve of the call.
    pub limits: Limits,
    /// Wall-clock limit in seconds for this solve alone, within the call's
    /// deadline.
    pub time_limit: Option<f64>,
    /// A starting plan; the greedy heuristic's when `None`.
    pub start: Option<Vec<RouteId>>,
    /// Search the branch and cut's tree on two lanes, on both cores where
    /// the machine has two: for the solve a user waits for, with nothing
    /// else running beside it (not for the solves of a sweep or an
    /// analysis, which keep both cores busy already). The plan is the same
    /// on one core as on two, run after run; it may be another of the
    /// equally good plans than a one-lane search reports.
    pub both_cores: bool,
    /// Told of each better plan the branch and cut finds before its proof,
    /// with the bound at that moment: what a page shows while it waits.
    pub watch: Option<Watch>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Auto,
            memory_fallback: None,
            limits: Limits::none(),
            time_limit: None,
            start: None,
            both_cores: false,
            watch: None,
        }
    }
}

/// A plan found on the way to a proof, checked by the verifier, and the
/// search's bound when it was found: the optimum lies between its score
/// and the bound.
#[derive(Clone, Debug)]
pub struct Glimpse {
    /// The plan, as the verifier scores it.
    pub plan: Plan,
    /// The upper bound on the optimum at that moment (at least the plan's
    /// score).
    pub bound: u32,
}

/// What [`SolveOptions::watch`] calls with each better plan; called on
/// the solving thread (or, on two lanes, between their rounds), so it
/// should return at once.
#[derive(Clone)]
pub struct Watch(std::sync::Arc<dyn Fn(&Glimpse) + Send + Sync>);

impl Watch {
    /// A watch calling `f`.
    pub fn new(f: impl Fn(&Glimpse) + Send + Sync + 'static) -> Watch {
        Watch(std::sync::Arc::new(f))
    }

    /// Tells of `routes`, a plan within `inst`'s budget, and the search's
    /// `bound`; a plan the verifier refuses is not told (the search's
    /// answer will be checked, and refused, in [`finish`]).
    pub(crate) fn tell(&self, inst: &Instance, routes: &[RouteId], bound: u32) {
        let claim = Claim {
            completed: Vec::new(),
            objective: 0.0,
            proven: false,
        };
        let Ok(eval) = verify::check(inst.board, inst.cars, routes, &inst.tickets_in_play, &claim)
        else {
            return;
        };
        let plan = verified_plan(routes.to_vec(), eval);
        let bound = bound.max(plan.score());
        (self.0)(&Glimpse { plan, bound });
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

/// A verified answer. Built only by the solve layer (every answer goes
/// through the verifier), so that [`Outcome::proven`] always agrees with
/// [`Outcome::stop`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// The best plan found, as the verifier scores it.
    pub plan: Plan,
    /// Why the solve stopped: the one answer to it.
    pub stop: Stop,
    /// The plan is proven optimal: derived from [`Outcome::stop`]
    /// (`stop == Stop::Optimal`), kept as a field for its many readers.
    pub proven: bool,
    /// Upper bound on the optimum (integer: scores are integers).
    pub bound: u32,
    /// Wall-clock time of the solve, in seconds.
    pub seconds: f64,
    /// What produced the answer (never `auto`).
    pub method: Produced,
    /// HiGHS solves (LPs of the branch and cut, or MIP solves) in the run.
    pub solves: usize,
    /// Directed cuts added (forest model).
    pub cuts: usize,
    /// Branch-and-bound nodes (of the branch and cut, or of HiGHS's MIP).
    pub nodes: i64,
}

impl Outcome {
    /// What the reports say of this answer ([`Stop::status`]).
    pub fn status(&self) -> Status {
        self.stop.status()
    }

    /// Relative optimality gap, (bound − score) / bound.
    pub fn gap(&self) -> f64 {
        if self.bound == 0 {
            0.0
        } else {
            (self.bound - self.plan.score()) as f64 / self.bound as f64
        }
    }
}

/// Why a solve gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// HiGHS failed.
    #[error(transparent)]
    Mip(#[from] MipError),
    /// The answer failed the independent check: always a bug.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// The instance is beyond a documented limit of the method asked for
    /// (the frontier programme's sizes, the memory budget).
    #[error("{0}")]
    Limit(String),
    /// The run's time limit stopped an analysis that needs proven optima.
    #[error("the time limit was reached before {0}")]
    TimeLimit(String),
    /// A result file could not be written (the message names it).
    #[error("{0}")]
    Io(String),
}

/// Like [`solve`], for analyses built on proven optima: an answer the run's
/// time limit left unproven is [`SolveError::TimeLimit`], naming `what`.
pub fn solve_proven(
    inst: &Instance,
    options: &SolveOptions,
    what: impl FnOnce() -> String,
) -> Result<Outcome, SolveError> {
    let outcome = solve(inst, options)?;
    if outcome.proven {
        Ok(outcome)
    } else {
        Err(SolveError::TimeLimit(what()))
    }
}

/// A pool of `threads` workers for running independent solves side by side
/// (each solve is single-threaded; HiGHS keeps its state per OS thread, so
/// every solve builds and drops its model inside one worker).
pub fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, SolveError> {
    pool(threads, false)
}

/// A [`worker_pool`] whose workers run at the lowest scheduling priority
/// (nice 19, on Linux): beside other solves they take the time those leave
/// idle (a lane waiting for the other, the last solve of a family running
/// alone) and little else. For work whose result nothing else waits for,
/// such as the deal sample of a balance report. Elsewhere than Linux the
/// workers run at the usual priority.
pub fn idle_pool(threads: usize) -> Result<rayon::ThreadPool, SolveError> {
    pool(threads, true)
}

/// The pool of [`worker_pool`], its workers at the lowest priority where
/// `idle` ([`idle_pool`]).
fn pool(threads: usize, idle: bool) -> Result<rayon::ThreadPool, SolveError> {
    let mut builder = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1));
    if idle {
        builder = builder.start_handler(|_| lowest_priority());
    }
    builder
        .build()
        .map_err(|e| MipError(format!("cannot start worker threads: {e}")).into())
}

/// Puts the calling thread at the lowest priority (Linux: a thread's nice
/// value is its own). Best effort: a failure leaves it as it was.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its integer arguments; on Linux, `who`
    // 0 with PRIO_PROCESS names the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Solves `inst` and returns a plan checked by the union-find verifier.
///
/// The paper's headline, 285 points with 45 cars on the original USA board:
/// ```
/// use ttr_opt::board::Board;
/// use ttr_opt::model::Instance;
/// use ttr_opt::solve::{solve, SolveOptions};
///
/// let board = Board::usa();
/// let outcome = solve(&Instance::new(&board, 45), &SolveOptions::default())?;
/// assert!(outcome.proven);
/// assert_eq!((outcome.plan.score(), outcome.bound), (285, 285));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Which method runs, and what takes over when it stops, is decided in one
/// place, `run_method` in this module; its table of every case is also in
/// `docs/how-it-works.md`. The solve stops at
/// the earlier of its own [`SolveOptions::time_limit`] and its call's
/// [`SolveOptions::limits`], and says why in [`Outcome::stop`].
pub fn solve(inst: &Instance, options: &SolveOptions) -> Result<Outcome, SolveError> {
    let started = Instant::now();
    let limits = options.limits.within(options.time_limit);
    // Rows beyond the rules are the branch and cut's alone: no other
    // method would honour them.
    if !inst.at_most.is_empty() && options.method != Method::Forest {
        return Err(SolveError::Limit(format!(
            "an instance with rows of its own is solved by the forest method, not {}",
            options.method.name()
        )));
    }
    // A model too large for the memory budget is refused before anything
    // is built (even the starting plan, slow on such boards).
    if options.method != Method::Frontier && !inst.takes_everything() {
        let frontier = if Frontier::fits(inst.board, &inst.routes, &inst.tickets) {
            ", or try --method frontier"
        } else {
            ""
        };
        model_fits(inst, options.method, frontier, &limits)?;
    }
    let start = match &options.start {
        Some(start) => start.clone(),
        None if inst.takes_everything() => Vec::new(),
        None => heuristic::start(inst, &limits),
    };
    let way = Way::Asked {
        method: options.method,
        memory_fallback: options.memory_fallback,
    };
    let lanes = if options.both_cores {
        Lanes::Two
    } else {
        Lanes::One
    };
    let (run, method) = run_method(inst, &start, way, &limits, lanes, options.watch.as_ref())?;
    finish(inst, run, method, started.elapsed().as_secs_f64())
}

/// What a solve asks of [`run_method`].
enum Way<'r> {
    /// A method asked for ([`SolveOptions::method`]), and the method that
    /// takes over where it stops at the memory budget
    /// ([`SolveOptions::memory_fallback`]).
    Asked {
        method: Method,
        memory_fallback: Option<Method>,
    },
    /// A sweep's budget given to the branch and cut ([`choose`] found its
    /// root tight), from the root solved to choose where kept.
    SweepBudget { root: Option<&'r branch::Root> },
}

/// Chooses the method for a solve and runs it with every fallback: the one
/// place where methods hand over to each other. Every hand-over is decided
/// by a count (LPs, bytes of tables), never by the clock, so that the
/// method, and with it the plan, is the same on every run.
///
/// | asked | situation | what runs | falls back to |
/// | --- | --- | --- | --- |
/// | any | nothing fits, or everything does | no search: every route | — |
/// | any | the call's limits passed before the start | no search: the starting plan, the bound of every route and ticket | — |
/// | `auto` | the programme cannot take the board ([`Frontier::fits`]) | branch and cut to the proof | — |
/// | `auto` | tickets on at most [`FEW_TICKETS`] cards | frontier programme within [`FRONTIER_FIRST_MEMORY`] | past it: the next row |
/// | `auto` | otherwise | branch and cut; hands over when its root is looser than [`AUTO_GAP`] or past [`HANDOVER_LPS`] LPs | frontier programme within [`frontier::HANDOVER_MEMORY`]; past it, branch and cut to the proof with the time left |
/// | `frontier` | the programme cannot take the board | refused ([`SolveError::Limit`]) | — |
/// | `frontier` | otherwise | frontier programme within the memory budget | past it: the [`SolveOptions::memory_fallback`] method if set (break-even's forced solves: `auto`), else the starting plan ([`Stop::MemoryLimit`]) |
/// | `forest` | | branch and cut to the proof | — |
/// | `paper`, `paper-integer` | | HiGHS's MIP on the paper's model | — |
/// | a sweep's budget | [`choose`] kept its root | branch and cut from that root, on one lane; hands over past [`HANDOVER_LPS`] LPs | as `auto`'s last row |
///
/// The sweep ([`sweep`]) first runs the frontier programme once for every
/// budget up to the first whose root is tight (within
/// [`frontier::HANDOVER_MEMORY`], past which its budgets come here as
/// `auto`'s), and one ladder search for the budgets above ([`ladder`]);
/// budgets these leave unproven come here as the last row.
fn run_method(
    inst: &Instance,
    start: &[RouteId],
    way: Way,
    limits: &Limits,
    lanes: Lanes,
    watch: Option<&Watch>,
) -> Result<(Run, Produced), SolveError> {
    let fits = || Frontier::fits(inst.board, &inst.routes, &inst.tickets);
    // Nothing fits in the budget (HiGHS would reject the empty model), or
    // everything does: the answer needs no search.
    let asked = match way {
        Way::Asked { method, .. } => Produced::ran(method),
        Way::SweepBudget { .. } => Produced::Forest,
    };
    if inst.takes_everything() {
        let routes = inst.everything();
        let (score, completed) = heuristic::score(inst, &routes);
        let run = Run {
            routes,
            claim: Claim {
                completed,
                objective: score as f64,
                proven: true,
            },
            bound: score,
            stop: Stop::Optimal,
            solves: 0,
            cuts: 0,
            nodes: 0,
        };
        return Ok((run, asked));
    }
    // Out of time before starting (a later solve of an analysis): the
    // starting plan and the bound that needs no search.
    if limits.passed() {
        return Ok((start_only(inst, start, limits, Stop::TimeLimit), asked));
    }
    let (method, memory_fallback) = match way {
        Way::Asked {
            method,
            memory_fallback,
        } => (method, memory_fallback),
        Way::SweepBudget { root } => {
            return forest_or_frontier(inst, start, limits, None, HANDOVER_LPS, lanes, watch, root);
        }
    };
    Ok(match method {
        Method::Auto if !fits() => (
            forest_to_the_end(inst, start, limits, lanes, watch)?,
            Produced::Forest,
        ),
        Method::Frontier if !fits() => {
            return Err(SolveError::Limit(
                "the frontier method needs scores below 4000 points in all and fewer than 255 cities; use --method forest".into(),
            ));
        }
        Method::Auto => {
            // A few tickets: the programme first, within a small table
            // size (see FEW_TICKETS); past it, as for any instance.
            let first = few_tickets(inst)
                .then(|| solve_frontier(inst, start, limits, Some(FRONTIER_FIRST_MEMORY)))
                .flatten();
            match first {
                Some(run) => (run, Produced::Frontier),
                None => forest_or_frontier(
                    inst,
                    start,
                    limits,
                    Some(AUTO_GAP),
                    HANDOVER_LPS,
                    lanes,
                    watch,
                    None,
                )?,
            }
        }
        Method::Frontier => match solve_frontier(inst, start, limits, None) {
            Some(run) => (run, Produced::Frontier),
            // Out of memory, with a method to take over.
            None if memory_fallback.is_some() && !limits.passed() => {
                let way = Way::Asked {
                    method: memory_fallback.unwrap_or(Method::Auto),
                    memory_fallback: None,
                };
                return run_method(inst, start, way, limits, lanes, watch);
            }
            // Out of time or memory: the starting plan, with only the
            // trivial bound.
            None => (
                start_only(inst, start, limits, Stop::MemoryLimit),
                Produced::Frontier,
            ),
        },
        Method::Forest => (
            forest_to_the_end(inst, start, limits, lanes, watch)?,
            Produced::Forest,
        ),
        Method::Paper => (solve_paper(inst, start, limits, false)?, Produced::Paper),
        Method::PaperInteger => (
            solve_paper(inst, start, limits, true)?,
            Produced::PaperInteger,
        ),
    })
}

/// Refuses the MIP model of `method` (paper or forest) for `inst` when its
/// estimated size passes the memory budget, before anything is built;
/// `hint` ends the message's advice.
pub(crate) fn model_fits(
    inst: &Instance,
    method: Method,
    hint: &str,
    limits: &Limits,
) -> Result<(), SolveError> {
    let bytes = model_bytes(inst, method);
    if bytes <= limits.memory_budget() {
        return Ok(());
    }
    Err(SolveError::Limit(format!(
        "the {} model of this board at {} cars would need about {} MB, above the memory \
         budget of {} MB (raise it with --memory-limit{hint})",
        if matches!(method, Method::Paper | Method::PaperInteger) {
            "paper"
        } else {
            "forest"
        },
        inst.cars,
        bytes >> 20,
        limits.memory_budget() >> 20
    )))
}

/// An upper estimate of the memory a MIP model of `inst` takes once built
/// and solved, from its column count: the forest model has at most one tree
/// per ticket city, each with a column per city and two per route (about
/// 5 KB a column measured, HiGHS's copies included: 110 MB for 22,658
/// columns on a complete graph of 40 cities); the paper model a flow per
/// ticket over every arc (16 KB a column on the Swiss map, 286 MB).
fn model_bytes(inst: &Instance, method: Method) -> usize {
    let board = inst.board;
    let per_tree = board.cities.len() + 2 * inst.routes.len();
    match method {
        Method::Paper | Method::PaperInteger => inst
            .tickets
            .len()
            .saturating_mul(per_tree)
            .saturating_mul(16 << 10),
        _ => {
            let mut cities: Vec<usize> = inst
                .tickets
                .iter()
                .flat_map(|&t| [board.ticket(t).a.0, board.ticket(t).b.0])
                .collect();
            cities.sort_unstable();
            cities.dedup();
            cities
                .len()
                .saturating_mul(per_tree)
                .saturating_mul(8 << 10)
        }
    }
}

/// A budget the call's limits left without a search (`stop` says which):
/// no plan, and the bound of every route and every ticket's best trip
/// (cheap: no instance).
pub fn unsolved(board: &crate::board::Board, stop: Stop) -> Outcome {
    let routes: u32 = board.routes.iter().map(|r| r.points).sum();
    let tickets: u32 = board.cards.iter().map(|c| board.best_trip(c)).sum();
    let proven = routes + tickets == 0;
    Outcome {
        plan: Plan::default(),
        stop: if proven { Stop::Optimal } else { stop },
        proven,
        bound: routes + tickets,
        seconds: 0.0,
        method: Produced::Forest,
        solves: 0,
        cuts: 0,
        nodes: 0,
    }
}

/// The starting plan with the bound of claiming every route and completing
/// every ticket (unproven unless they meet: stopped by the call's `limits`,
/// or else by `otherwise`).
fn start_only(inst: &Instance, start: &[RouteId], limits: &Limits, otherwise: Stop) -> Run {
    let (score, completed) = heuristic::score(inst, start);
    Run {
        stop: Stop::unproven(limits, otherwise),
        claim: Claim {
            completed,
            objective: score as f64,
            proven: false,
        },
        routes: start.to_vec(),
        bound: int_bound(objective(inst, &inst.routes, &inst.tickets)).max(score),
        solves: 0,
        cuts: 0,
        nodes: 0,
    }
}

/// What [`Method::Auto`] picks for this instance and starting plan: the
/// forest model's branch and cut or the frontier programme. Costs one root
/// node of the branch and cut (none where `limits` passed).
pub fn choose(
    inst: &Instance,
    start: &[RouteId],
    gap: f64,
    limits: &Limits,
) -> Result<Method, SolveError> {
    Ok(choose_keeping_root(inst, start, gap, limits)?.method)
}

/// What [`choose`] learned of a budget: the method, and for the branch and
/// cut the root it solved to choose, with the best plan found there.
pub(crate) struct Choice {
    pub method: Method,
    /// The root and its incumbent (`None` where no root was solved).
    pub root: Option<KeptRoot>,
}

/// A root solved to choose a budget's method, and the best plan found there.
pub(crate) type KeptRoot = (branch::Root, Vec<RouteId>);

/// [`choose`], keeping the root it solved for the branch and cut of the
/// same instance ([`solve_sweep_budget`]).
pub(crate) fn choose_keeping_root(
    inst: &Instance,
    start: &[RouteId],
    gap: f64,
    limits: &Limits,
) -> Result<Choice, SolveError> {
    if limits.passed()
        || inst.takes_everything()
        || !Frontier::fits(inst.board, &inst.routes, &inst.tickets)
    {
        return Ok(Choice {
            method: Method::Forest,
            root: None,
        });
    }
    let answer = branch::solve(inst, start, limits, Reach::Root(gap), Lanes::One, None)?;
    Ok(Choice {
        method: if answer.loose_root {
            Method::Frontier
        } else {
            Method::Forest
        },
        root: answer.root.map(|root| (root, answer.routes)),
    })
}

/// The branch and cut, handing over to the frontier programme when its
/// root is loose by more than `gap` (if set) or its proof passes `lps` LPs
/// ([`HANDOVER_LPS`]), and taking over again, with the time left, if the
/// programme passes [`crate::solve::frontier::HANDOVER_MEMORY`] of tables.
/// Every step is decided by counts (LPs, bytes), never by the clock, so the
/// method, and with it the plan, is the same on every run. Where `root` is
/// given, the branch and cut runs on one lane from it (see
/// [`branch::solve_from_root`]). A part of [`run_method`], and its only
/// caller's (with the test's).
#[allow(clippy::too_many_arguments)]
fn forest_or_frontier(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    gap: Option<f64>,
    lps: usize,
    lanes: Lanes,
    watch: Option<&Watch>,
    root: Option<&branch::Root>,
) -> Result<(Run, Produced), SolveError> {
    let fits = Frontier::fits(inst.board, &inst.routes, &inst.tickets);
    let reach = if fits {
        Reach::Handover { gap, lps }
    } else {
        Reach::Proof
    };
    let answer = match root {
        Some(root) => branch::solve_from_root(inst, start, limits, reach, root)?,
        None => branch::solve(inst, start, limits, reach, lanes, watch)?,
    };
    if !(answer.loose_root || answer.out_of_lps) {
        return Ok((branch_run(inst, answer, limits), Produced::Forest));
    }
    // The search's incumbent is at least as good as the start.
    let best = answer.routes;
    let memory = Some(crate::solve::frontier::HANDOVER_MEMORY);
    Ok(match solve_frontier(inst, &best, limits, memory) {
        Some(run) => (run, Produced::Frontier),
        // Out of memory (or time) in the programme: the branch and cut
        // starts again and goes on with what time is left.
        None => (
            forest_to_the_end(inst, &best, limits, lanes, watch)?,
            Produced::Forest,
        ),
    })
}

/// [`solve`] for a budget the sweep gave to the branch and cut
/// ([`choose`] found its root tight enough): the branch and cut, handing
/// over to the frontier programme past [`HANDOVER_LPS`] LPs.
/// `root`, where given, is the one [`choose_keeping_root`] solved for this
/// instance, and its incumbent the start where it scores more.
pub(crate) fn solve_sweep_budget(
    inst: &Instance,
    start: &[RouteId],
    root: Option<KeptRoot>,
    limits: &Limits,
) -> Result<Outcome, SolveError> {
    let started = Instant::now();
    if inst.takes_everything() || limits.passed() {
        let options = SolveOptions {
            method: Method::Forest,
            start: Some(start.to_vec()),
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        return solve(inst, &options);
    }
    model_fits(inst, Method::Forest, "", limits)?;
    let (root, start) = match root {
        Some((root, found)) => (Some(root), heuristic::better(inst, start.to_vec(), found)),
        None => (None, start.to_vec()),
    };
    let way = Way::SweepBudget {
        root: root.as_ref(),
    };
    let (run, method) = run_method(inst, &start, way, limits, Lanes::One, None)?;
    finish(inst, run, method, started.elapsed().as_secs_f64())
}

/// The branch and cut, to the proof or the call's `limits`.
fn forest_to_the_end(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    lanes: Lanes,
    watch: Option<&Watch>,
) -> Result<Run, SolveError> {
    let answer = branch::solve(inst, start, limits, Reach::Proof, lanes, watch)?;
    Ok(branch_run(inst, answer, limits))
}

/// A branch-and-cut answer as a [`Run`] (stopped, where unproven, by the
/// call's `limits`).
fn branch_run(inst: &Instance, answer: Answer, limits: &Limits) -> Run {
    let (_, completed) = heuristic::score(inst, &answer.routes);
    Run {
        stop: Stop::unproven(limits, Stop::WorkLimit),
        claim: Claim {
            completed,
            objective: answer.score as f64,
            proven: answer.proven,
        },
        routes: answer.routes,
        bound: answer.bound,
        solves: answer.lps,
        cuts: answer.cuts,
        nodes: answer.nodes,
    }
}

/// Verifies a solver's answer with the union-find and turns it into an
/// [`Outcome`]; any disagreement is an error.
pub(crate) fn finish(
    inst: &Instance,
    run: Run,
    method: Produced,
    seconds: f64,
) -> Result<Outcome, SolveError> {
    let eval = verify::check(
        inst.board,
        inst.cars,
        &run.routes,
        &inst.tickets_in_play,
        &run.claim,
    )?;
    if let Some(row) = inst.broken_row(&run.routes) {
        return Err(VerifyError(format!(
            "the plan holds more than {} of {}",
            row.most,
            row.routes
                .iter()
                .map(|&r| inst.board.route_label(r))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    let plan = verified_plan(run.routes, eval);
    if run.bound < plan.score() {
        return Err(VerifyError(format!(
            "the solver's bound {} is below the {} points its plan scores",
            run.bound,
            plan.score()
        ))
        .into());
    }
    let proven = run.bound == plan.score();
    if run.claim.proven && !proven {
        return Err(VerifyError(format!(
            "the solver claims optimality at {} points but its bound is {}",
            plan.score(),
            run.bound
        ))
        .into());
    }
    Ok(Outcome {
        plan,
        stop: if proven { Stop::Optimal } else { run.stop },
        proven,
        bound: run.bound,
        seconds,
        method,
        solves: run.solves,
        cuts: run.cuts,
        nodes: run.nodes,
    })
}

/// A plan proven optimal by an upper bound known from elsewhere (a base
/// board's optimum bounding a variant's, [`crate::analysis::carry`]):
/// checked by the verifier like any answer, and refused unless it scores
/// `bound` exactly.
pub fn met_bound(inst: &Instance, routes: Vec<RouteId>, bound: u32) -> Result<Outcome, SolveError> {
    finish(inst, proven_run(inst, routes, bound), Produced::Base, 0.0)
}

/// `routes` claimed optimal at `bound` (scored on `inst`), with no counts:
/// for [`finish`], which refuses it unless it scores `bound` exactly.
fn proven_run(inst: &Instance, routes: Vec<RouteId>, bound: u32) -> Run {
    let (score, completed) = heuristic::score(inst, &routes);
    Run {
        routes,
        claim: Claim {
            completed,
            objective: score as f64,
            proven: true,
        },
        bound,
        stop: Stop::Optimal,
        solves: 0,
        cuts: 0,
        nodes: 0,
    }
}

/// The optimum of each of `questions` (the instance `inst` with a route or
/// a ticket taken out), from one branch-and-cut search of `inst` that keeps
/// a node while some question could still gain in it
/// (`branch::family`), each answer checked by the verifier on its own
/// instance. Where the answers lie a few points below `inst`'s optimum (a
/// sensitivity analysis at a large budget) that search is a few times the
/// size of one proof, against one proof per question. `starts` are plans
/// to begin from; answers below `least` are not sought. A question is
/// `None` where its answer is below `least`, or the search passed `lps`
/// LPs (or the call's `limits` stopped it) before proving it: it is then
/// for its own solve.
pub fn family(
    inst: &Instance,
    starts: &[Vec<RouteId>],
    questions: &[branch::Question],
    least: u32,
    lps: usize,
) -> Result<Vec<Option<Outcome>>, SolveError> {
    Ok(family_within(inst, starts, questions, least, lps, &Limits::none())?.0)
}

/// [`family`] within the call's `limits`, and whether its search ran to
/// its end: then each `None` is proven to score less than `least` (no
/// plan of its question reaches it), not merely left unproven.
pub fn family_within(
    inst: &Instance,
    starts: &[Vec<RouteId>],
    questions: &[branch::Question],
    least: u32,
    lps: usize,
    limits: &Limits,
) -> Result<(Vec<Option<Outcome>>, bool), SolveError> {
    if inst.takes_everything() {
        return Ok((questions.iter().map(|_| None).collect(), false));
    }
    // Both lanes of the search on the run's workers (the same answers on
    // one as on two).
    let threads = rayon::current_num_threads();
    let (answers, ended) = branch::family(inst, starts, questions, least, limits, lps, threads)?;
    let answers = questions
        .iter()
        .zip(answers)
        .map(|(q, answer)| {
            answer
                .map(|(best, routes)| met_bound(&q.inst, routes, best))
                .transpose()
        })
        .collect::<Result<_, SolveError>>()?;
    Ok((answers, ended))
}

/// The optimum of each of `budgets` (in any order) on `board`, from one
/// branch-and-cut search at the largest (`branch::ladder`) on two lanes,
/// on the run's workers (the same answers on one as on two), each answer
/// checked by the verifier at its own budget. Where the optimum grows by a
/// few points a car this costs a few proofs' worth for a whole range of
/// budgets: the sweep's branch-and-cut budgets go this way. Each answer
/// reports an equal share of the search's time, and the search's own
/// counts (LPs, cuts, nodes: the work that proved it, shared with the
/// other budgets; an analysis scales its own searches by them). `starts` are
/// plans to begin from. A budget is `None` where the search passed `lps`
/// LPs (or the call's `limits` stopped it) before proving it: it is then
/// for its own solve. A budget that fits every route, or none, is answered
/// alone.
pub fn ladder(
    board: &crate::board::Board,
    budgets: &[u32],
    starts: &[Vec<RouteId>],
    lps: usize,
) -> Result<Vec<Option<Outcome>>, SolveError> {
    ladder_within(board, budgets, starts, lps, &Limits::none())
}

/// [`ladder`] within the call's `limits`.
pub fn ladder_within(
    board: &crate::board::Board,
    budgets: &[u32],
    starts: &[Vec<RouteId>],
    lps: usize,
    limits: &Limits,
) -> Result<Vec<Option<Outcome>>, SolveError> {
    let (mut asked, alone): (Vec<usize>, Vec<usize>) = (0..budgets.len()).partition(|&k| {
        let inst = Instance::new(board, budgets[k]);
        !inst.takes_everything() && !inst.routes.is_empty()
    });
    asked.sort_by_key(|&k| budgets[k]);
    asked.dedup_by_key(|k| budgets[*k]);
    let mut answers: Vec<Option<Outcome>> = vec![None; budgets.len()];
    for k in alone {
        let options = SolveOptions {
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        answers[k] = Some(solve(&Instance::new(board, budgets[k]), &options)?);
    }
    let Some(&top) = asked.last() else {
        return Ok(answers);
    };
    let started = Instant::now();
    let inst = Instance::new(board, budgets[top]);
    model_fits(&inst, Method::Forest, "", limits)?;
    let cars: Vec<u32> = asked.iter().map(|&k| budgets[k]).collect();
    let threads = rayon::current_num_threads();
    let (found, search) = branch::ladder(&inst, &cars, starts, limits, lps, threads)?;
    let seconds = started.elapsed().as_secs_f64() / asked.len() as f64;
    for (&k, answer) in asked.iter().zip(found) {
        let Some((best, routes)) = answer else {
            continue;
        };
        let inst = Instance::new(board, budgets[k]);
        let run = Run {
            solves: search.lps,
            cuts: search.cuts,
            nodes: search.nodes,
            ..proven_run(&inst, routes, best)
        };
        answers[k] = Some(finish(&inst, run, Produced::Forest, seconds)?);
    }
    // A budget asked twice: the same answer.
    for k in 0..budgets.len() {
        if answers[k].is_none() {
            if let Some(j) = asked.iter().find(|&&j| budgets[j] == budgets[k]) {
                answers[k] = answers[*j].clone();
            }
        }
    }
    Ok(answers)
}

/// The plan of `routes`, as the verifier's `eval` of them scores it.
fn verified_plan(routes: Vec<RouteId>, eval: verify::Evaluation) -> Plan {
    Plan {
        routes: sorted(routes),
        tickets: eval.completed,
        cars_used: eval.cars_used,
        route_points: eval.route_points,
        ticket_points: eval.ticket_points,
    }
}

fn sorted(mut v: Vec<RouteId>) -> Vec<RouteId> {
    v.sort();
    v
}

/// What a method returns before verification.
pub(crate) struct Run {
    routes: Vec<RouteId>,
    claim: Claim,
    bound: u32,
    /// Why the method stopped where the plan is unproven (ignored where
    /// [`finish`] finds it proven).
    stop: Stop,
    solves: usize,
    cuts: usize,
    nodes: i64,
}

/// Integer upper bound from a solver's real-valued bound.
fn int_bound(bound: f64) -> u32 {
    (bound + 1e-6).floor().max(0.0) as u32
}

fn objective(inst: &Instance, routes: &[RouteId], completed: &[crate::board::TicketId]) -> f64 {
    let board = inst.board;
    let r: u32 = routes.iter().map(|&r| board.route(r).points).sum();
    let t: u32 = completed.iter().map(|&t| board.ticket(t).points).sum();
    (r + t) as f64
}

fn solve_paper(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    integer_flows: bool,
) -> Result<Run, SolveError> {
    let (model, mut mip) = PaperModel::build(inst, integer_flows)?;
    mip.set_start(&model.start(inst, start))?;
    if let Some(left) = limits.left() {
        mip.set_time_limit(left)?;
    }
    let result = mip.solve()?;
    let values = result
        .values
        .ok_or_else(|| MipError("no solution found (not even the start)".into()))?;
    let routes = model.routes(inst, &values);
    let completed = model.completed(inst, &values);
    let bound = int_bound(result.bound);
    let objective = objective(inst, &routes, &completed);
    Ok(Run {
        claim: Claim {
            completed,
            objective,
            proven: result.status == MipStatus::Optimal,
        },
        routes,
        bound,
        stop: Stop::unproven(limits, Stop::WorkLimit),
        solves: 1,
        cuts: 0,
        nodes: result.nodes,
    })
}

/// `Auto` hands over to the frontier programme when the branch and cut's
/// root bound is more than this fraction above the starting plan's score.
/// On the USA board the gap is 0.04–0.19 from 37 cars up and 0.205–0.67
/// below; the branch and cut is as fast as the programme from about 30 cars
/// (3.1 s against 3.9 s) and far faster above (1.1 s against 14.7 s at 36),
/// so only the loosest roots, the small budgets, go to the programme.
/// Europe at 45 cars (gap 0.22) stays with the branch and cut (9.4 s; the
/// programme passed 5 GB there).
pub const AUTO_GAP: f64 = 0.3;

/// `Auto` tries the frontier programme first when the tickets in play are
/// on at most this many cards: the plans from a game state (`replan`, the
/// coach, the review, the planner bot), where a player holds a few. The
/// programme's states grow with the tickets, the branch and cut's trees
/// with how loosely route points and a few tickets bind the LP: from the
/// first tickets offered in 4-player games (32 replans a board, 2-3
/// tickets), auto took 6-13 s in all on the USA boards and Europe (worst
/// 4.2 s) and 161 s on the Swiss map (worst 20 s, unproven), the programme
/// 0.9-1.0 s (worst 0.09 s) and 3.5 s. With k random tickets at 45 cars
/// the programme wins up to k = 5-7 and loses from 9 on the USA boards
/// (USA Mega at 12: 10.3 s against 1.3 s).
pub const FEW_TICKETS: usize = 6;

/// The programme's table size when it goes first ([`FEW_TICKETS`]); past it
/// the instance goes the usual way.
pub const FRONTIER_FIRST_MEMORY: usize = 256 << 20;

/// Whether the tickets in play are on at most [`FEW_TICKETS`] cards.
fn few_tickets(inst: &Instance) -> bool {
    let mut cards: Vec<usize> = inst
        .tickets
        .iter()
        .map(|&t| inst.board.ticket(t).card)
        .collect();
    cards.sort_unstable();
    cards.dedup();
    cards.len() <= FEW_TICKETS
}

/// LPs the branch and cut may spend on a budget before `auto` (and the
/// sweep) hand it to the frontier programme. A root that looks tight can
/// still need a large tree: on the Swiss map at 24 and 25 cars (root gaps
/// 0.37 and 0.31) the branch and cut needed about 2,900 LPs and 115 s each,
/// the programme 5 and 8 s. Every budget of every shipped board that the
/// branch and cut proves in a sweep needs at most 858 (USA Mega at 27
/// cars; the Swiss map 584, Europe 406, the USA 154; counted with two cut
/// rounds per node and the cut purge).
pub const HANDOVER_LPS: usize = 1000;

/// The same threshold for a sweep, where the economics differ: one frontier
/// run answers every budget up to its largest while the other worker proves
/// the budgets above with the branch and cut, so the run should stop where
/// the two sides take about as long. On the USA board the roots of 32–34
/// cars have gaps 0.23–0.38; at 0.4 the run stops at 31 cars and the sweep
/// 1..50 takes 9.7 s (median of 3) against 11.9 s at 0.3, with the same
/// plans; 1..45 8.2 s against 11.8 s; USA Mega 112 s against 123 s;
/// USA 1910 and Big Cities unchanged (18.5 and 3.6 s). At 0.5 the forest
/// gets too little: 10.8 s, and 22.4 s on USA 1910.
pub const SWEEP_GAP: f64 = 0.4;

/// Runs the programme for the instance's budget alone, with the starting
/// plan's score as the bound to beat; `None` if it ran out of time or of
/// memory (`memory` bytes of tables, or the memory budget of `limits`).
fn solve_frontier(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    memory: Option<usize>,
) -> Option<Run> {
    let (start_score, _) = heuristic::score(inst, start);
    let goal = Goal {
        limits: limits.clone(),
        memory,
        ..Goal::budget(inst.cars, start_score)
    };
    Frontier::run(inst.board, &inst.routes, &inst.tickets, &goal)
        .map(|dp| frontier_run(&dp, inst.cars))
}

/// The programme's answer for one budget, as a proven [`Run`].
pub(crate) fn frontier_run(dp: &Frontier, cars: u32) -> Run {
    frontier_runs(dp, &[cars])
        .pop()
        .expect("one run per budget")
}

/// [`frontier_run`] for each of `budgets`, their plans recovered together
/// ([`Frontier::plans`]).
pub(crate) fn frontier_runs(dp: &Frontier, budgets: &[u32]) -> Vec<Run> {
    budgets
        .iter()
        .zip(dp.plans(budgets))
        .map(|(&cars, (routes, completed))| {
            let best = dp.best(cars);
            Run {
                claim: Claim {
                    completed,
                    objective: best as f64,
                    proven: true,
                },
                routes,
                bound: best,
                stop: Stop::Optimal,
                solves: 0,
                cuts: 0,
                nodes: 0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The hand-over after too many LPs, forced by allowing one: the
    /// programme takes the budget over and proves the branch and cut's
    /// optimum; with LPs enough, the branch and cut proves it itself.
    #[test]
    fn handing_over_after_the_lp_budget_keeps_the_optimum() {
        let board = Board::usa();
        for cars in [9, 14, 18] {
            let inst = Instance::new(&board, cars);
            let limits = Limits::none();
            let start = heuristic::start(&inst, &limits);
            let alone = forest_to_the_end(&inst, &start, &limits, Lanes::One, None).unwrap();
            assert!(alone.claim.proven);
            let (run, method) =
                forest_or_frontier(&inst, &start, &limits, None, 1, Lanes::One, None, None)
                    .unwrap();
            assert_eq!(method, Produced::Frontier, "{cars} cars");
            let outcome = finish(&inst, run, method, 0.0).unwrap();
            assert!(outcome.proven);
            assert_eq!(outcome.plan.score(), alone.bound, "{cars} cars");
            let (run, method) = forest_or_frontier(
                &inst,
                &start,
                &limits,
                None,
                HANDOVER_LPS,
                Lanes::One,
                None,
                None,
            )
            .unwrap();
            assert_eq!(method, Produced::Forest, "{cars} cars");
            assert_eq!(
                finish(&inst, run, method, 0.0).unwrap().plan.score(),
                alone.bound
            );
        }
    }
}
