//! The server's heavy computations, one at a time on one worker thread.
//!
//! There are two kinds, and at most one of each waits: the **base** run (the
//! board's balance analyses: every budget's optimum, then the break-even
//! values at the board's car count) and the **variant** run (a what-if
//! scenario: the budget the page shows first, then every budget). A new
//! request replaces the waiting one of its kind and cancels the running one
//! (its [`crate::solve::limits::Cancel`] token), so the queue never holds more than two
//! computations however fast requests come. Every budget is published as
//! soon as it is proven; the page polls [`Jobs::status`].
//!
//! The designer waits for nothing that is not on screen: a variant's first
//! budget goes before everything. A variant asked for while the base run
//! is computing pauses it (the base is cancelled and queued again, keeping
//! the budgets it has published); the worker proves the variant's budget,
//! then finishes the base, then the variant's other budgets. Right after
//! loading Europe, whose base run takes minutes, an edit is answered in the
//! time of its own solve.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

use serde::Serialize;

use crate::analysis::balance::{balance, BalanceOptions, Progress, TicketValue};
use crate::analysis::carry::Carry;
use crate::analysis::scenario::Scenario;
use crate::board::Board;
use crate::model::{Instance, Plan};
use crate::solve::limits::{Cancel, Limits};
use crate::solve::sweep::{all_proven, sweep_with, Prior, SweepEntry};
use crate::solve::{heuristic, solve_proven, Outcome, SolveOptions, Watch};

pub use crate::output::board_view::BoardView;

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Waiting for the worker.
    Queued,
    /// Being computed; `budgets` fill in as they are proven.
    Running,
    /// Every budget proven (and, for the base, every break-even value).
    Done,
    /// A newer request superseded it, or the server is stopping.
    Cancelled,
    /// The computation failed; `message` says why.
    Failed,
}

/// One budget's proven optimum, as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct Budget {
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum, in points.
    pub score: u32,
    /// Points from completed tickets.
    pub ticket_points: u32,
    /// Points from claimed routes.
    pub route_points: u32,
    /// Train cars the plan uses.
    pub cars_used: u32,
    /// The plan's routes by label ("Denver – Omaha"), as in the board view.
    pub routes: Vec<String>,
    /// The tickets it completes, by label.
    pub tickets: Vec<String>,
}

impl Budget {
    fn new(board: &Board, cars: u32, plan: &Plan) -> Budget {
        Budget {
            cars,
            score: plan.score(),
            ticket_points: plan.ticket_points,
            route_points: plan.route_points,
            cars_used: plan.cars_used,
            routes: plan.routes.iter().map(|&r| board.route_label(r)).collect(),
            tickets: plan
                .tickets
                .iter()
                .map(|&t| board.ticket_label(t))
                .collect(),
        }
    }
}

/// The best plan found so far for the budget a run proves first (the
/// board's own, or the variant's selected one), and the bound on that
/// budget's optimum: on screen from the first LP until the proof.
#[derive(Clone, Debug, Serialize)]
pub struct BestSoFar {
    /// The plan, as [`Budget`] draws a proven one.
    #[serde(flatten)]
    pub budget: Budget,
    /// The optimum is at most this (and at least the plan's score).
    pub bound: u32,
}

/// How often each route and ticket is in the optima of the budgets proven
/// (the heat map).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Heat {
    /// Budgets counted.
    pub plans: usize,
    /// Per route label: the share of those budgets' optima claiming it.
    pub routes: std::collections::BTreeMap<String, f64>,
    /// Per ticket label: the share of those optima completing it.
    pub tickets: std::collections::BTreeMap<String, f64>,
}

impl Heat {
    fn of(budgets: &[Budget]) -> Heat {
        let mut heat = Heat {
            plans: budgets.len(),
            ..Heat::default()
        };
        let share = 1.0 / budgets.len().max(1) as f64;
        for b in budgets {
            for r in &b.routes {
                *heat.routes.entry(r.clone()).or_default() += share;
            }
            for t in &b.tickets {
                *heat.tickets.entry(t.clone()).or_default() += share;
            }
        }
        heat
    }
}

/// A computation and what it has proven so far.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// Changes with every new request, so the page knows a new run.
    pub id: u64,
    /// Where it is.
    pub state: RunState,
    /// Why it failed, or what it is doing.
    pub message: String,
    /// The board computed (name, cities, routes, tickets).
    pub board: Arc<BoardView>,
    /// The scenario that made the variant (its JSON), for the base `null`.
    pub scenario: Option<serde_json::Value>,
    /// The budget asked for first (the variant's selected budget).
    pub focus: Option<Budget>,
    /// While the first budget (the base's own, the variant's focus) is
    /// being proven: the best plan so far and the bound.
    pub best_so_far: Option<BestSoFar>,
    /// The proven budgets so far, in budget order (1 to the board's cars).
    pub budgets: Vec<Budget>,
    /// Their heat map.
    pub heat: Heat,
    /// The base's ticket table: from the start each ticket's cheapest
    /// connection and points per car, then with its break-even values and
    /// value in the deal once the balance report ends.
    pub tickets: Option<Vec<TicketValue>>,
    /// Seconds since the run started (or that it took).
    pub seconds: f64,
}

impl Run {
    /// The sweep's final plans (its tie-break picks them) replace those
    /// published as each budget was proven.
    fn finish(&mut self, board: &Board, entries: &[SweepEntry]) {
        self.budgets = entries
            .iter()
            .map(|e| Budget::new(board, e.cars, &e.outcome.plan))
            .collect();
        self.heat = Heat::of(&self.budgets);
    }
}

/// What `/api/status` returns.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// The base board's run.
    pub base: Run,
    /// The what-if variant's run, if the page asked for one.
    pub variant: Option<Run>,
}

/// A variant waiting for the worker.
struct VariantJob {
    id: u64,
    board: Arc<Board>,
    focus: u32,
    /// Its first budget is proven and published: every budget is next,
    /// after the base run.
    focus_done: bool,
}

struct State {
    next_id: u64,
    base_board: Arc<Board>,
    /// The base's proven optima so far, by budget: what a variant's
    /// budgets start from, or are proven by ([`crate::analysis::carry`]).
    base_proven: BTreeMap<u32, Outcome>,
    base_text: String,
    base_waiting: bool,
    variant_waiting: Option<VariantJob>,
    /// Which run the worker is on (its id).
    running: Option<u64>,
    /// The running computation's token: cancelled when a newer request
    /// supersedes it, new for each computation.
    cancel: Cancel,
    status: Status,
    stopping: bool,
    started: Option<Instant>,
}

/// The worker and the state it shares with the HTTP handlers.
pub struct Jobs {
    shared: Arc<(Mutex<State>, Condvar)>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

/// A request the server refuses, with the message for the page.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

fn fresh_run(id: u64, board: &Board, scenario: Option<serde_json::Value>) -> Run {
    Run {
        id,
        state: RunState::Queued,
        message: "waiting for the worker".into(),
        board: Arc::new(BoardView::new(board)),
        focus: None,
        best_so_far: None,
        budgets: Vec::new(),
        heat: Heat::default(),
        // The base's costs and rates need no solve: shown at once, the
        // other columns filled when its balance report ends.
        tickets: scenario
            .is_none()
            .then(|| crate::analysis::balance::ticket_rates(board).1),
        scenario,
        seconds: 0.0,
    }
}

impl Jobs {
    /// Starts the worker on `board` (whose file text is `text`: scenarios
    /// apply to it), computing the base run at once on `threads` threads.
    pub fn start(board: Board, text: String, threads: usize) -> Jobs {
        let status = Status {
            base: fresh_run(1, &board, None),
            variant: None,
        };
        let state = State {
            next_id: 2,
            base_board: Arc::new(board),
            base_proven: Default::default(),
            base_text: text,
            base_waiting: true,
            variant_waiting: None,
            running: None,
            cancel: Cancel::new(),
            status,
            stopping: false,
            started: None,
        };
        let shared = Arc::new((Mutex::new(state), Condvar::new()));
        let worker = {
            let shared = shared.clone();
            std::thread::spawn(move || work(shared, threads))
        };
        Jobs {
            shared,
            worker: Mutex::new(Some(worker)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Where every run is.
    pub fn status(&self) -> Status {
        let mut state = self.lock();
        if let Some(t) = state.started {
            let seconds = t.elapsed().as_secs_f64();
            let running = state.running;
            let status = &mut state.status;
            for run in std::iter::once(&mut status.base).chain(status.variant.as_mut()) {
                if Some(run.id) == running {
                    run.seconds = seconds;
                }
            }
        }
        state.status.clone()
    }

    /// The base board's file text (scenarios apply to it).
    pub fn base_text(&self) -> String {
        self.lock().base_text.clone()
    }

    /// The base board, its file text and its run's id, read at once (an
    /// upload between two reads would pair one board's text with
    /// another's run).
    pub fn base(&self) -> (Arc<Board>, String, u64) {
        let state = self.lock();
        (
            Arc::clone(&state.base_board),
            state.base_text.clone(),
            state.status.base.id,
        )
    }

    /// Replaces the base board (an upload): cancels everything, drops the
    /// variant and computes the new board. Returns the new run's id.
    pub fn set_board(&self, board: Board, text: String) -> u64 {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        state.status.base = fresh_run(id, &board, None);
        state.status.variant = None;
        state.base_board = Arc::new(board);
        state.base_proven.clear();
        state.base_text = text;
        state.base_waiting = true;
        state.variant_waiting = None;
        if state.running.is_some() {
            state.cancel.cancel();
        }
        self.shared.1.notify_all();
        id
    }

    /// Applies `scenario` (its JSON text) to the base board and computes the
    /// variant, `focus` cars first. A scenario that names nothing on the
    /// board, or makes it invalid, is refused with the reason.
    pub fn set_variant(&self, text: &str, focus: Option<u32>) -> Result<u64, Refused> {
        let scenario =
            Scenario::from_json(text, "the scenario").map_err(|e| Refused(e.to_string()))?;
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Refused(e.to_string()))?;
        let base_text = self.base_text();
        let variant = scenario
            .apply(&base_text, "the scenario")
            .map_err(|e| Refused(e.to_string()))?;
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        let focus = focus.unwrap_or(variant.cars).clamp(1, variant.cars.max(1));
        let superseded = state.status.variant.as_ref().map(|v| v.id);
        state.status.variant = Some(fresh_run(id, &variant, Some(value)));
        state.variant_waiting = Some(VariantJob {
            id,
            board: Arc::new(variant),
            focus,
            focus_done: false,
        });
        let base = state.status.base.id;
        if state.running == Some(base) {
            // Paused for the edit: the base goes again after the variant's
            // first budget, its published budgets kept.
            state.base_waiting = true;
            state.cancel.cancel();
        } else if superseded.is_some() && state.running == superseded {
            state.cancel.cancel();
        }
        self.shared.1.notify_all();
        Ok(id)
    }

    /// Drops the variant (cancelling its run).
    pub fn clear_variant(&self) {
        let mut state = self.lock();
        let current = state.status.variant.take().map(|v| v.id);
        state.variant_waiting = None;
        if current.is_some() && state.running == current {
            state.cancel.cancel();
        }
    }

    /// Stops the worker: the run in progress is cancelled.
    pub fn stop(&self) {
        {
            let mut state = self.lock();
            state.stopping = true;
            state.cancel.cancel();
            self.shared.1.notify_all();
        }
        if let Some(worker) = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = worker.join();
        }
    }
}

/// The run of `id` in `state`, if it is still current.
fn run_of(state: &mut State, id: u64) -> Option<&mut Run> {
    if state.status.base.id == id {
        return Some(&mut state.status.base);
    }
    state.status.variant.as_mut().filter(|v| v.id == id)
}

/// How a computation that did not fail ended.
enum Ended {
    /// Everything it was asked for is proven.
    Done,
    /// A variant's first budget is proven; its other budgets are queued.
    Queued,
}

/// What the worker takes next.
enum Next {
    Base(u64, Arc<Board>),
    Variant(VariantJob),
}

/// A watch showing the best plan so far of `cars` cars on `board` as the
/// run `id`'s [`BestSoFar`], while that run is current.
fn best_so_far(
    shared: &Arc<(Mutex<State>, Condvar)>,
    id: u64,
    board: Arc<Board>,
    cars: u32,
) -> Watch {
    let shared = shared.clone();
    Watch::new(move |glimpse| {
        let mut state = shared.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(run) = run_of(&mut state, id) {
            run.best_so_far = Some(BestSoFar {
                budget: Budget::new(&board, cars, &glimpse.plan),
                bound: glimpse.bound,
            });
            run.message = format!(
                "{cars} cars: {} points found, at most {}",
                glimpse.plan.score(),
                glimpse.bound
            );
        }
    })
}

/// The base board and its optima proven so far: what a variant's budgets
/// are carried from ([`Carry::prior`]).
fn base_proven(shared: &(Mutex<State>, Condvar)) -> (Arc<Board>, BTreeMap<u32, Outcome>) {
    let state = shared.0.lock().unwrap_or_else(|p| p.into_inner());
    (state.base_board.clone(), state.base_proven.clone())
}

/// The carried plan of `prior` as the start where it scores more than the
/// greedy plan, else the greedy plan (`None`: nothing carried, the solve
/// makes its own).
fn better_start(
    inst: &Instance,
    prior: Prior,
    limits: &Limits,
) -> Option<Vec<crate::board::RouteId>> {
    let Prior::Start(carried) = prior else {
        return None;
    };
    Some(heuristic::better(
        inst,
        heuristic::start(inst, limits),
        carried,
    ))
}

/// The worker: takes the next computation ([`next_job`]), runs it and
/// records how it ended, until the server stops.
fn work(shared: Arc<(Mutex<State>, Condvar)>, threads: usize) {
    while let Some(next) = next_job(&shared) {
        let id = match &next {
            Next::Base(id, _) => *id,
            Next::Variant(job) => job.id,
        };
        let current = Current::start(&shared, id);
        let result: Result<Ended, String> = match next {
            Next::Base(_, board) => current.base(&board, threads),
            Next::Variant(job) if !job.focus_done => current.variant_focus(job),
            Next::Variant(job) => current.variant_budgets(&job, threads),
        };
        current.end(result);
    }
}

/// Waits for the next computation and takes it off the queue; `None` once
/// the server is stopping.
fn next_job(shared: &(Mutex<State>, Condvar)) -> Option<Next> {
    let mut state = shared.0.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        if state.stopping {
            return None;
        }
        // A variant's first budget, then the base, then the
        // variant's other budgets.
        if state
            .variant_waiting
            .as_ref()
            .is_some_and(|v| !v.focus_done)
        {
            return Some(Next::Variant(
                state.variant_waiting.take().expect("just checked"),
            ));
        }
        if state.base_waiting {
            state.base_waiting = false;
            return Some(Next::Base(state.status.base.id, state.base_board.clone()));
        }
        if let Some(job) = state.variant_waiting.take() {
            return Some(Next::Variant(job));
        }
        state = shared.1.wait(state).unwrap_or_else(|p| p.into_inner());
    }
}

/// The run the worker is on, by id: what it publishes goes into that run
/// only while it is current (a newer request may have replaced it).
struct Current<'a> {
    shared: &'a Arc<(Mutex<State>, Condvar)>,
    id: u64,
    /// The run's limits: its cancellation token, which a newer request
    /// cancels.
    limits: Limits,
}

/// The balance progress counted for the base run's message: break-even
/// solves (done, total), then the deal's sample solves (done, at most).
type Counts = std::sync::Mutex<((usize, usize), (usize, usize))>;

impl<'a> Current<'a> {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Marks run `id` as running, its clock started, with a new
    /// cancellation token (the run before keeps its own).
    fn start(shared: &'a Arc<(Mutex<State>, Condvar)>, id: u64) -> Current<'a> {
        let mut state = shared.0.lock().unwrap_or_else(|p| p.into_inner());
        state.cancel = Cancel::new();
        state.running = Some(id);
        state.started = Some(Instant::now());
        if let Some(run) = run_of(&mut state, id) {
            run.state = RunState::Running;
            run.message = "solving".into();
        }
        let limits = Limits::none().with_cancel(state.cancel.clone());
        Current { shared, id, limits }
    }

    /// Publishes into the run if it is still current.
    fn publish(&self, f: &mut dyn FnMut(&mut Run)) {
        let mut state = self.lock();
        if let Some(run) = run_of(&mut state, self.id) {
            f(run);
        }
    }

    /// Publishes a proven budget of `board` (and keeps it, for a base run,
    /// as what variants start from).
    fn add_budget(&self, board: &Board, e: &SweepEntry) {
        // A cancelled sweep reports its budgets left unsolved: a paused
        // base must not show them.
        if !e.outcome.proven {
            return;
        }
        {
            let mut state = self.lock();
            if state.status.base.id == self.id {
                state.base_proven.insert(e.cars, e.outcome.clone());
            }
        }
        let budget = Budget::new(board, e.cars, &e.outcome.plan);
        self.publish(&mut |run: &mut Run| {
            // A base run resumed after a pause proves its budgets again.
            let at = run.budgets.partition_point(|b| b.cars < budget.cars);
            if run.budgets.get(at).is_some_and(|b| b.cars == budget.cars) {
                run.budgets[at] = budget.clone();
            } else {
                run.budgets.insert(at, budget.clone());
            }
            run.heat = Heat::of(&run.budgets);
            run.message = format!("{} cars proven", budget.cars);
        });
    }

    /// The base run: the board's own budget first, then the balance
    /// analyses (every budget, the break-even values, the deal).
    fn base(&self, board: &Arc<Board>, threads: usize) -> Result<Ended, String> {
        // The budget the page shows first (the board's own) before
        // the sweep, which publishes nothing until its setup is done
        // (on Europe, 12 s).
        let own = board.cars.max(1);
        // Nothing else runs: both cores on the budget on screen
        // (Europe's 7.2 s to 5.1 s in scripts/bench-edit).
        let options = SolveOptions {
            watch: Some(best_so_far(self.shared, self.id, board.clone(), own)),
            both_cores: true,
            limits: self.limits.clone(),
            ..SolveOptions::default()
        };
        // A base resumed after a what-if pause proved it already.
        let known = self.lock().base_proven.get(&own).cloned();
        let first = match known {
            Some(outcome) => Ok(outcome),
            None => solve_proven(&Instance::new(board, own), &options, || {
                format!("the optimum of {own} cars was proven")
            }),
        };
        self.publish(&mut |run: &mut Run| run.best_so_far = None);
        if let Ok(o) = &first {
            let entry = SweepEntry {
                cars: own,
                outcome: o.clone(),
                plan_from: own,
            };
            self.add_budget(board, &entry);
        }
        // The break-even's solves and the deal's sample run side by
        // side: the message counts both.
        let counts = std::sync::Mutex::new(((0, 0), (0, 0)));
        let progress = |p: Progress| self.balance_progress(board, &counts, p);
        let options = BalanceOptions {
            threads,
            limits: self.limits.clone(),
            progress: &progress,
        };
        let outcome = balance(board, board.cars, &options);
        outcome
            .map(|(report, entries)| {
                self.publish(&mut |run: &mut Run| {
                    run.finish(board, &entries);
                    run.tickets = Some(report.tickets.clone());
                });
                Ended::Done
            })
            .map_err(|e| e.to_string())
    }

    /// Publishes what the base run's balance analyses have done: a budget
    /// proven, or the solves of the break-even and the deal counted in the
    /// run's message.
    fn balance_progress(&self, board: &Board, counts: &Counts, p: Progress) {
        if let Progress::Budget(e) = p {
            return self.add_budget(board, e);
        }
        let (steps, deal) = {
            let mut counts = counts.lock().expect("no progress call panics");
            match p {
                Progress::Deal { total } => counts.1 = (counts.1 .0 + 1, total),
                Progress::Step(step) => counts.0 = (counts.0 .0 + 1, step.total),
                Progress::Budget(_) => {}
            }
            *counts
        };
        let mut parts = Vec::new();
        if steps.0 > 0 && (steps.0 < steps.1 || deal.0 == 0) {
            parts.push(format!(
                "break-even values at {} cars: {} of {} solves",
                board.cars, steps.0, steps.1
            ));
        }
        if deal.0 > 0 {
            parts.push(format!(
                "the luck of the deal: {} of at most {} solves",
                deal.0, deal.1
            ));
        }
        self.publish(&mut |run: &mut Run| run.message = parts.join("; "));
    }

    /// A variant's first budget (the one on screen), from the base's
    /// optimum there where that proves it; then queues its other budgets.
    fn variant_focus(&self, job: VariantJob) -> Result<Ended, String> {
        let board = job.board.clone();
        let inst = Instance::new(&board, job.focus);
        // The base's optimum at the budget may prove the variant's
        // at once; else its plan is a start.
        let (base, known) = base_proven(self.shared);
        let carried = Carry::new(&base, &board).prior(job.focus, known.get(&job.focus));
        let proven = match carried {
            Ok(Prior::Proven(outcome)) => Ok(outcome),
            Err(e) => Err(e),
            Ok(prior) => {
                let options = SolveOptions {
                    watch: Some(best_so_far(self.shared, self.id, board.clone(), job.focus)),
                    both_cores: true,
                    start: better_start(&inst, prior, &self.limits),
                    limits: self.limits.clone(),
                    ..SolveOptions::default()
                };
                solve_proven(&inst, &options, || {
                    format!("the optimum of {} cars was proven", job.focus)
                })
            }
        };
        self.publish(&mut |run: &mut Run| run.best_so_far = None);
        proven
            .map(|o| {
                let at = Budget::new(&board, job.focus, &o.plan);
                self.publish(&mut |run: &mut Run| run.focus = Some(at.clone()));
                // Every budget next, after the base run if it waits.
                let mut state = self.lock();
                let current = state.status.variant.as_ref().map(|v| v.id) == Some(job.id);
                if current && state.variant_waiting.is_none() {
                    state.variant_waiting = Some(VariantJob {
                        focus_done: true,
                        ..job
                    });
                }
                Ended::Queued
            })
            .map_err(|e| e.to_string())
    }

    /// Every budget of a variant whose first budget is proven, each carried
    /// from the base's optimum where it can be.
    fn variant_budgets(&self, job: &VariantJob, threads: usize) -> Result<Ended, String> {
        let board = &job.board;
        let (base, known) = base_proven(self.shared);
        let carry = Carry::new(&base, board);
        let prior = |cars: u32| carry.prior(cars, known.get(&cars));
        let cars = board.cars.max(1);
        sweep_with(board, 1, cars, threads, &self.limits, &prior, &|e| {
            self.add_budget(board, e)
        })
        .and_then(|entries| all_proven(board, &entries).map(|()| entries))
        .map(|entries| {
            self.publish(&mut |run: &mut Run| run.finish(board, &entries));
            Ended::Done
        })
        .map_err(|e| e.to_string())
    }

    /// Records how the run ended, if it is still current: done, queued for
    /// its other budgets, paused, cancelled or failed.
    fn end(&self, result: Result<Ended, String>) {
        let id = self.id;
        let mut state = self.lock();
        let cancelled = self.limits.stopped();
        // The base, cancelled to let a variant's first budget go first, and
        // queued again.
        let paused = state.base_waiting && state.status.base.id == id;
        if paused && matches!(result, Ok(Ended::Done)) {
            // Finished before the pause could stop it: nothing to resume.
            state.base_waiting = false;
        }
        let base_waiting = state.base_waiting;
        let seconds = state.started.map_or(0.0, |t| t.elapsed().as_secs_f64());
        state.running = None;
        state.started = None;
        if let Some(run) = run_of(&mut state, id) {
            run.seconds = seconds;
            match result {
                Ok(Ended::Done) => {
                    run.state = RunState::Done;
                    run.message = format!("done in {seconds:.1} s");
                }
                Ok(Ended::Queued) => {
                    let cars = run.focus.as_ref().map_or(0, |f| f.cars);
                    run.state = RunState::Queued;
                    run.message = if base_waiting {
                        format!("{cars} cars proven; every budget after the base run")
                    } else {
                        format!("{cars} cars proven; every budget next")
                    };
                }
                Err(_) if cancelled && paused => {
                    run.state = RunState::Queued;
                    run.message = "paused for the what-if edit".into();
                }
                Err(_) if cancelled => {
                    run.state = RunState::Cancelled;
                    run.message = "cancelled".into();
                }
                Err(e) => {
                    run.state = RunState::Failed;
                    run.message = e;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The base's ticket table has every ticket's cost and rate before
    /// any solve (Europe's page showed '–' in those columns for over 30
    /// s), and nothing that needs one; a variant has no table.
    #[test]
    fn the_base_run_shows_costs_and_rates_before_any_solve() {
        let board = crate::board::Board::from_json(crate::board::SHIPPED[0].1, "usa.json")
            .expect("the shipped board loads");
        let run = fresh_run(1, &board, None);
        let tickets = run.tickets.expect("a table at once");
        assert_eq!(tickets.len(), board.cards.len());
        let la_ny = tickets
            .iter()
            .find(|t| t.name == "Los Angeles – New York")
            .expect("the USA board's longest ticket");
        // Los Angeles - New York: 21 points over 20 cars at the cheapest
        // (as the balance report's table gives it, after its solves).
        assert_eq!((la_ny.points, la_ny.cheapest_cars), (21, 20));
        assert!((la_ny.points_per_car - 1.05).abs() < 1e-9);
        assert!(tickets
            .iter()
            .all(|t| t.cheapest_cars > 0 && t.membership.is_none() && t.hand_value.is_none()));
        let variant = fresh_run(2, &board, Some(serde_json::json!({})));
        assert!(variant.tickets.is_none());
    }
}
