//! Every budget in a range, each proven optimal, sharing work between them.
//!
//! 1. Starting plans for all budgets at once: one beam search of the frontier
//!    programme, and the greedy plan per budget; the better one per budget.
//! 2. [`solve::choose`] decides (one root LP) between the forest model's
//!    branch and cut and the frontier programme, by the root's gap (with
//!    the sweep's own threshold, [`solve::SWEEP_GAP`]), for the budgets from
//!    the top down to the largest that chooses the frontier (the frontier
//!    run takes all the budgets below it anyway). Each root solved here is
//!    kept: its plan starts the ladder search (below), and a budget the
//!    ladder leaves to its own branch and cut starts from the root's cuts
//!    and basis instead of solving its root again.
//! 3. One exact frontier run answers all the budgets up to the largest that
//!    chose it (the programme yields every budget up to its limit in one
//!    pass), while one ladder search of the branch and cut
//!    ([`solve::ladder`]) proves all the larger budgets at once: each LP
//!    of its tree bounds every smaller budget too, so the nodes one budget
//!    needs serve its neighbours. The starting scores, made non-decreasing
//!    (a plan for β cars is a plan for β+1), are the bounds the frontier
//!    run prunes against. The two budgets above the run's range join the
//!    run where its tables stay small with them (`JOINT_MEMORY` in the
//!    code); else they come after it on its worker, by one more run of the
//!    programme where its tables are small (`EDGE`). If the run passes its
//!    size, or its growth so far says it would (`FRONTIER_MEMORY`), the
//!    programme tries the lower two thirds of its budgets again while a
//!    second ladder search takes the rest; what a ladder leaves unproven is
//!    solved budget by budget.
//!
//! A sweep of a what-if variant ([`sweep_with`]) is told what its base's
//! optima prove ([`Prior`]): a budget proven already is neither chosen for
//! nor solved, and a carried plan is the start where it scores more.
//!
//! Every answer is verified like any `solve` answer, and the optima must be
//! non-decreasing in the budget: a violation is reported as an error.
//!
//! A budget often has several optimal plans, and which one a solver returns
//! is an accident of its search. The sweep reports one by the rule in
//! [`TIE_BREAK`], so that frequency tables over a sweep do not depend on it
//! more than they must.

use std::cmp::Reverse;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::board::verify::{evaluate, VerifyError};
use crate::board::{Board, RouteId, TicketId};
use crate::model::Instance;
use crate::solve::frontier::{Frontier, Goal};
use crate::solve::heuristic;
use crate::solve::limits::Limits;
use crate::solve::{self, Method, Outcome, Produced, SolveError, Stop};

/// How the sweep chooses among alternate optima; written into its outputs.
pub const TIE_BREAK: &str = "Among the optimal plans for a budget the sweep reports one \
    that uses the fewest train cars: the plan found for the smallest budget of the sweep with \
    the same optimum (a plan for fewer cars fits any larger budget). Plans equal in score and \
    cars are told apart by the solvers' fixed search order (one thread, fixed seed, routes in \
    board order), which gives the same plan on every run but is not a rule about the plans.";

/// Budgets just above the frontier run's range. The run tries them with it
/// first ([`JOINT_MEMORY`]); where they do not fit there, they are solved
/// after that run on its worker: by one more run of the programme for all
/// of them, where the first run's tables took at most half of
/// [`solve::FRONTIER_FIRST_MEMORY`] (the branch and cut if that run passes
/// its size, and always elsewhere).
/// The programme's tables may still be small there, where the branch and
/// cut's root is the loosest of its budgets: the Swiss map (its run for
/// 1–23 cars 70 MB) at 24 and 25 cars took 5 and 8 s in the programme, 32
/// and 34 s in the branch and cut, which gave up after
/// [`solve::HANDOVER_LPS`] LPs and handed them over anyway; one run for both
/// takes 10 s, where a run for each took 7 and 7.3 s (its sweep 25.4 ->
/// 21.9 s, one run each, the same hour; Big Cities' 2.3 -> 1.7 s).
/// Elsewhere the first run's tables are larger (USA 336 MB, USA 1910 304
/// MB, Europe 255 MB; USA Mega passes its size) and a programme trying the
/// next budget passed 256 MiB after 1.4–2.2 s, for nothing. Byte counts,
/// not times, decide, so the method and the plan are the same on every
/// run.
const EDGE: usize = 2;

/// The tables the sweep's frontier run may take with the [`EDGE`] budgets
/// in it: it tries them first, and where it passes this (or its growth so
/// far says it would) the run goes on without them, as [`EDGE`] says. One
/// run for all saves the first run's work where the tables are small: the
/// Swiss map's run for 1–25 cars (107 MiB) takes 11.3 s, where 1–23 and
/// then 24–25 took 7.3 and 11.2 s (its sweep 22.9 -> 21.2 s), Big Cities'
/// 1–29 0.84 s against 0.58 and 0.73 s (1.9 -> 1.4 s). Their growth
/// projects at most 253 and 250 MiB on the way (at steps 47 of 76 and 51
/// of 78; Big Cities' sweep to 31 cars more), so the cap leaves them a
/// quarter's margin. Elsewhere the joint run gives up early (after
/// 0.57–0.87 s: USA, USA 1910, Europe, USA Mega), and that is lost where
/// the frontier run is the sweep's last task (USA, USA 1910; Europe's and
/// USA Mega's ladders end last): with a cap of 256 MiB, which gave up
/// after 0.35–0.55 s, USA 4.00 -> 4.42 s and USA 1910 5.90 -> 6.22 s
/// against no joint run (medians of five, alternated), and 320 MiB adds
/// little to that (USA 4.61 -> 4.67 s, an hour later); at 512 MiB it gave
/// up after 1.0–1.5 s. Their layers grow steadily (USA's 5.6 MiB at step
/// 27 of 78, 17 MiB at step 32), the Swiss map's rise and fall (7.7 MiB at
/// step 47, then under 3), so no test of the layers so far tells them
/// apart sooner.
const JOINT_MEMORY: usize = 320 << 20;

/// The tables the sweep's frontier run may take before it gives up and a
/// ladder search takes its budgets (see the run's task in [`run`]); as
/// every run, it stops once its stored layers take half of this (the next
/// layer is built beside them). It also stops as soon as the stored layers,
/// at their average size per step so far, would (`Goal::projected`): USA
/// Mega's run for 1–35 cars would, at 226 MB after 29 of its 78 steps
/// (about 3 s), and is tried again for the lower two thirds. Europe's run
/// for 1–26 cars and USA 1910's for 1–28 store about 310 MB and never look
/// like passing 512 MB (at most 413 and 418 MB projected). With 512 MiB and
/// no projection both passed and were tried again for 1–17 and 1–18 cars:
/// their sweeps took 21.3 and 11.1 s, now 16.7 and 6.7 s (one run each,
/// the same hour). The other shipped boards' runs stay well under it.
const FRONTIER_MEMORY: usize = 1 << 30;

/// LPs a ladder search of the branch and cut's budgets may take, per
/// budget, before the budgets it has not proven go to their own solves.
const LADDER_LPS: usize = 300;

/// What is known of a budget before a sweep solves it: from a base board
/// whose optima bound this one's ([`crate::analysis::carry`]).
#[derive(Debug)]
pub enum Prior {
    /// Its optimum, proven and verified: no solve.
    Proven(Outcome),
    /// A plan to start from.
    Start(Vec<RouteId>),
    /// Nothing.
    Nothing,
}

/// One budget's verified answer.
#[derive(Clone, Debug)]
pub struct SweepEntry {
    /// The budget, in train cars.
    pub cars: u32,
    /// The proof for `cars`; its plan is the one [`TIE_BREAK`] picks.
    pub outcome: Outcome,
    /// The budget whose solve found the reported plan (`cars` or less).
    pub plan_from: u32,
}

/// Solves budgets `from..=to` on `threads` worker threads, calling
/// `progress` with each answer as it is verified; with no limits (a caller
/// with limits calls [`sweep_with`]).
///
/// On a board of two routes to Boston (Albany – Hartford, 3 cars and 4
/// points; Hartford – Boston, 2 cars and 2 points) and a 9-point ticket
/// Albany – Boston:
/// ```
/// # let board = ttr_opt::board::Board::from_json(r#"{
/// #     "name": "tiny", "cars": 5, "route_points": { "1": 1, "2": 2, "3": 4 },
/// #     "cities": [ { "name": "Albany", "x": 0, "y": 0 }, { "name": "Boston", "x": 2, "y": 0 },
/// #                 { "name": "Hartford", "x": 1, "y": 1 } ],
/// #     "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
/// #                 { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray"] } ],
/// #     "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ] }"#, "tiny.json")?;
/// let entries = ttr_opt::solve::sweep::sweep(&board, 1, 5, 2, &|_| {})?;
/// let scores: Vec<u32> = entries.iter().map(|e| e.outcome.plan.score()).collect();
/// assert_eq!(scores, [0, 2, 4, 4, 15]);
/// assert!(entries.iter().all(|e| e.outcome.proven));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sweep(
    board: &Board,
    from: u32,
    to: u32,
    threads: usize,
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    let limits = Limits::none();
    sweep_with(
        board,
        from,
        to,
        threads,
        &limits,
        &|_| Ok(Prior::Nothing),
        progress,
    )
}

/// [`sweep`] within the call's `limits` (past them a budget is reported
/// unproven: unsolved, or with the best plan found), told what is known of
/// each budget before it is solved (`prior`, called once a budget): a
/// budget proven already is not solved again, and a plan to start from is
/// the start where it scores more.
pub fn sweep_with(
    board: &Board,
    from: u32,
    to: u32,
    threads: usize,
    limits: &Limits,
    prior: &(dyn Fn(u32) -> Result<Prior, SolveError> + Sync),
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    solve::worker_pool(threads)?.install(|| run(board, from, to, limits, prior, progress))
}

/// [`sweep`] for analyses built on proven optima (no limits, so every
/// budget is proven; with limits, [`sweep_with`] then [`all_proven`]).
pub fn sweep_proven(
    board: &Board,
    from: u32,
    to: u32,
    threads: usize,
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    let entries = sweep(board, from, to, threads, progress)?;
    all_proven(board, &entries)?;
    Ok(entries)
}

/// [`SolveError::TimeLimit`] naming the first budget of `entries` that the
/// call's limits left unproven, if any.
pub fn all_proven(board: &Board, entries: &[SweepEntry]) -> Result<(), SolveError> {
    match entries.iter().find(|e| !e.outcome.proven) {
        Some(e) => Err(SolveError::TimeLimit(format!(
            "the optimum of {} cars on {} was proven",
            e.cars, board.name
        ))),
        None => Ok(()),
    }
}

fn run(
    board: &Board,
    from: u32,
    to: u32,
    limits: &Limits,
    prior: &(dyn Fn(u32) -> Result<Prior, SolveError> + Sync),
    progress: &(dyn Fn(&SweepEntry) + Sync),
) -> Result<Vec<SweepEntry>, SolveError> {
    let budgets: Vec<u32> = (from..=to).collect();
    let priors: Vec<Prior> = budgets
        .par_iter()
        .map(|&cars| prior(cars))
        .collect::<Result<_, _>>()?;
    let proven = |i: usize| match &priors[i] {
        Prior::Proven(outcome) => Some(outcome),
        _ => None,
    };
    // Instances are built where they are needed and dropped after: a long
    // range on a large board would not fit in memory all at once.
    let instance = |i: usize| Instance::new(board, budgets[i]);

    // 1. Starting plans.
    let all_routes: Vec<RouteId> = board.route_ids().collect();
    let all_tickets: Vec<_> = board.ticket_ids().collect();
    let prepared = starts(board, &budgets, &priors, to, limits);

    // 3. The method of each budget, as `solve` would choose it. The frontier
    // run takes every budget up to the largest that chose it, so only that
    // one matters: budgets are asked from the top, a worker's worth at a
    // time, until one chooses the frontier (the root LPs of the budgets
    // below it would be thrown away; on Europe they take seconds each).
    // The roots solved to choose are kept: their plans start the ladder
    // search, and a budget it leaves to its own branch and cut starts from
    // its root's cuts and basis instead of finding them again.
    let workers = rayon::current_num_threads().max(1);
    let mut frontier_top: Option<usize> = None;
    let mut asked = budgets.len();
    let roots: Vec<Mutex<Option<solve::KeptRoot>>> =
        (0..budgets.len()).map(|_| Mutex::new(None)).collect();
    while asked > 0 && frontier_top.is_none() {
        let lo = asked.saturating_sub(workers);
        let chosen: Vec<Method> = (lo..asked)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                // A budget proven already needs no method (nor its root LP).
                if limits.passed() || proven(i).is_some() {
                    return Ok(Method::Forest);
                }
                let choice = solve::choose_keeping_root(
                    &instance(i),
                    &prepared[i].0,
                    solve::SWEEP_GAP,
                    limits,
                )?;
                *roots[i].lock().expect("no worker panics while holding it") = choice.root;
                Ok(choice.method)
            })
            .collect::<Result<_, SolveError>>()?;
        frontier_top = chosen
            .iter()
            .rposition(|&m| m == Method::Frontier)
            .map(|k| lo + k);
        asked = lo;
    }

    // 4. One frontier run for its budgets, forest solves for the others.
    let frontier_budgets: Vec<usize> = match frontier_top {
        Some(last) => (0..=last).collect(),
        None => Vec::new(),
    };
    let mut lower = vec![0u32; to as usize + 1];
    for (i, p) in prepared.iter().enumerate() {
        lower[budgets[i] as usize] = p.1;
    }
    // Every root solved found a plan of its own (the LP-guided one), at its
    // budget's cars or fewer; cut down route by route, each is a plan for
    // the frontier run's budgets too, often better than their starts: the
    // run's largest budgets prune the most, so their scores are worth
    // knowing (USA: 31 cars 140 -> 156 points, the optimum 160; 30 cars
    // 133 -> 146, the optimum; the run 0.5 s shorter).
    let found: Vec<Vec<RouteId>> = roots
        .iter()
        .filter_map(|kept| {
            let kept = kept.lock().expect("no worker panics while holding it");
            kept.as_ref().map(|(_, plan)| plan.clone())
        })
        .collect();
    for mut plan in found {
        for &i in frontier_budgets.iter().rev() {
            let score;
            (plan, score) = trimmed(board, plan, budgets[i], &all_tickets);
            let known = &mut lower[budgets[i] as usize];
            *known = (*known).max(score);
        }
    }
    for c in 1..lower.len() {
        lower[c] = lower[c].max(lower[c - 1]);
    }
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; budgets.len()]);
    let mut forest_budgets: Vec<usize> = (frontier_budgets.len()..budgets.len()).rev().collect();
    // The budgets just above the frontier run's range: after that run, on
    // its worker, the programme first (see EDGE).
    let edge: Vec<usize> = if frontier_top.is_some() {
        let at = forest_budgets.len().saturating_sub(EDGE);
        forest_budgets.split_off(at).into_iter().rev().collect()
    } else {
        Vec::new()
    };
    let tasks = Tasks {
        board,
        budgets: &budgets,
        priors: &priors,
        prepared: &prepared,
        roots: &roots,
        lower: &lower,
        all_routes: &all_routes,
        all_tickets: &all_tickets,
        frontier_budgets: &frontier_budgets,
        edge: &edge,
        results: &results,
        progress,
        limits,
    };
    let (frontier_result, forest_result) = rayon::join(
        || tasks.frontier_task(),
        || tasks.ladder_task(forest_budgets.clone()),
    );
    frontier_result?;
    forest_result?;

    let outcomes = results.into_inner().expect("no worker panicked");
    let entries: Vec<SweepEntry> = budgets
        .iter()
        .zip(outcomes)
        .map(|(&cars, outcome)| SweepEntry {
            cars,
            outcome: outcome.expect("every budget was solved"),
            plan_from: cars,
        })
        .collect();
    settled(entries)
}

/// Steps 1 and 2 of a sweep: per budget of `budgets` (whose largest is
/// `to`), its starting plan and score, from one beam search of the
/// frontier programme for all of them and the greedy plan of each (the
/// better one), or a plan `priors` carry where it scores more. Past the
/// call's `limits` a budget gets none.
fn starts(
    board: &Board,
    budgets: &[u32],
    priors: &[Prior],
    to: u32,
    limits: &Limits,
) -> Vec<(Vec<RouteId>, u32)> {
    let every_route = Instance::unreduced(board, to).total_length();
    let beam = heuristic::beam(
        board,
        &board.route_ids().collect::<Vec<_>>(),
        &board.ticket_ids().collect::<Vec<_>>(),
        to.min(every_route),
        limits,
    );

    // 2. Per budget: its starting plan and score. Past the run's time limit
    // a budget gets none.
    let prepared: Vec<(Vec<RouteId>, u32)> = (0..budgets.len())
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            if limits.passed() {
                return (Vec::new(), 0);
            }
            let inst = Instance::new(board, budgets[i]);
            if inst.takes_everything() {
                return (Vec::new(), 0);
            }
            if let Prior::Proven(outcome) = &priors[i] {
                return (outcome.plan.routes.clone(), outcome.plan.score());
            }
            let start = heuristic::start_from(&inst, beam.as_ref(), limits);
            let start = match &priors[i] {
                Prior::Start(carried) => heuristic::better(&inst, start, carried.clone()),
                _ => start,
            };
            let score = heuristic::score(&inst, &start).0;
            (start, score)
        })
        .collect();
    drop(beam);
    prepared
}

/// Step 5 of a sweep: its answers checked (proven optima rise with the
/// budget) and made consistent where limits left some unproven (plans
/// carried up, bounds down), then the tie-break ([`TIE_BREAK`]).
fn settled(mut entries: Vec<SweepEntry>) -> Result<Vec<SweepEntry>, SolveError> {
    // Only proven optima must rise with the budget: a time limit may have
    // left some budgets with a starting plan.
    for pair in entries.windows(2) {
        let proven = pair[0].outcome.proven && pair[1].outcome.proven;
        if proven && pair[1].outcome.plan.score() < pair[0].outcome.plan.score() {
            return Err(VerifyError(format!(
                "the optimum drops from {} points at {} cars to {} at {} cars",
                pair[0].outcome.plan.score(),
                pair[0].cars,
                pair[1].outcome.plan.score(),
                pair[1].cars
            ))
            .into());
        }
    }
    // Budgets a time limit left unproven: a plan for fewer cars fits, and a
    // bound for more cars holds. (Proven budgets already satisfy both.)
    for i in 1..entries.len() {
        if entries[i].outcome.plan.score() < entries[i - 1].outcome.plan.score() {
            entries[i].outcome.plan = entries[i - 1].outcome.plan.clone();
            entries[i].plan_from = entries[i - 1].plan_from;
        }
    }
    for i in (0..entries.len().saturating_sub(1)).rev() {
        let above = entries[i + 1].outcome.bound;
        let e = &mut entries[i].outcome;
        e.bound = e.bound.min(above).max(e.plan.score());
        e.proven = e.bound == e.plan.score();
        if e.proven {
            e.stop = Stop::Optimal;
        }
    }
    // The tie-break: carry a plan up while the optimum stays the same.
    for i in 1..entries.len() {
        let proven = entries[i].outcome.proven && entries[i - 1].outcome.proven;
        if proven && entries[i].outcome.plan.score() == entries[i - 1].outcome.plan.score() {
            entries[i].outcome.plan = entries[i - 1].outcome.plan.clone();
            entries[i].plan_from = entries[i - 1].plan_from;
        }
    }
    Ok(entries)
}

/// Step 4 of a sweep: its budgets and what is known of them, shared by
/// the frontier run's task and the branch and cut's (see [`run`]).
struct Tasks<'a> {
    board: &'a Board,
    budgets: &'a [u32],
    priors: &'a [Prior],
    prepared: &'a [(Vec<RouteId>, u32)],
    roots: &'a [Mutex<Option<solve::KeptRoot>>],
    /// Achievable scores by car count, for the frontier run to prune by.
    lower: &'a [u32],
    all_routes: &'a [RouteId],
    all_tickets: &'a [TicketId],
    /// The budgets the frontier run takes (ascending).
    frontier_budgets: &'a [usize],
    /// The budgets just above the frontier run's range (see [`EDGE`]).
    edge: &'a [usize],
    results: &'a Mutex<Vec<Option<Outcome>>>,
    progress: &'a (dyn Fn(&SweepEntry) + Sync),
    limits: &'a Limits,
}

impl Tasks<'_> {
    /// Budget `i`'s instance (built where needed and dropped after: a long
    /// range on a large board would not fit in memory all at once).
    fn instance(&self, i: usize) -> Instance<'_> {
        Instance::new(self.board, self.budgets[i])
    }

    /// Budget `i`'s optimum where its prior proves it.
    fn proven(&self, i: usize) -> Option<&Outcome> {
        match &self.priors[i] {
            Prior::Proven(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Records budget `i`'s answer and tells `progress`.
    fn record(&self, i: usize, outcome: Outcome) {
        (self.progress)(&SweepEntry {
            cars: self.budgets[i],
            outcome: outcome.clone(),
            plan_from: self.budgets[i],
        });
        self.results
            .lock()
            .expect("no worker panics while holding it")[i] = Some(outcome);
    }

    fn forest_task(&self, i: usize) -> Result<(), SolveError> {
        if let Some(outcome) = self.proven(i) {
            self.record(i, outcome.clone());
            return Ok(());
        }
        // Past the time limit: no search, not even the instance.
        if self.limits.passed() {
            self.record(
                i,
                solve::unsolved(self.board, Stop::unproven(self.limits, Stop::TimeLimit)),
            );
            return Ok(());
        }
        let root = self.roots[i]
            .lock()
            .expect("no worker panics while holding it")
            .take();
        self.record(
            i,
            solve::solve_sweep_budget(&self.instance(i), &self.prepared[i].0, root, self.limits)?,
        );
        Ok(())
    }
    // Budgets for the branch and cut (`each`, any order): one ladder search
    // for all of them (`solve::ladder`), on both lanes; what it leaves
    // unproven, one by one, largest first.
    fn ladder_task(&self, each: Vec<usize>) -> Result<(), SolveError> {
        let (mut asked, mut left): (Vec<usize>, Vec<usize>) = each.into_iter().partition(|&i| {
            self.proven(i).is_none()
                && !self.limits.passed()
                && !self.instance(i).takes_everything()
        });
        asked.sort_unstable();
        if asked.len() > 1 {
            let cars: Vec<u32> = asked.iter().map(|&i| self.budgets[i]).collect();
            let starts: Vec<Vec<RouteId>> = asked
                .iter()
                .flat_map(|&i| {
                    let kept = self.roots[i]
                        .lock()
                        .expect("no worker panics while holding it")
                        .take();
                    std::iter::once(self.prepared[i].0.clone()).chain(kept.map(|(_, plan)| plan))
                })
                .collect();
            let answers = solve::ladder_within(
                self.board,
                &cars,
                &starts,
                LADDER_LPS * asked.len(),
                self.limits,
            )?;
            for (&i, answer) in asked.iter().zip(answers) {
                match answer {
                    Some(outcome) => self.record(i, outcome),
                    None => left.push(i),
                }
            }
        } else {
            left.extend(asked);
        }
        left.sort_by_key(|&i| Reverse(i));
        left.par_iter()
            .with_max_len(1)
            .try_for_each(|&i| self.forest_task(i))
    }
    // The budgets of `each` not proven already (in their order); those that
    // are, recorded.
    fn unproven(&self, each: &[usize]) -> Vec<usize> {
        let mut open = Vec::new();
        for &i in each {
            match self.proven(i) {
                Some(outcome) => self.record(i, outcome.clone()),
                None => open.push(i),
            }
        }
        open
    }
    // One frontier run for the budgets `open` (ascending, none proven), each
    // recorded; `None` where the run passed `memory` (or its growth said it
    // would).
    fn frontier_on(&self, open: &[usize], memory: usize) -> Result<Option<Frontier>, SolveError> {
        let (Some(&lo), Some(&hi)) = (open.first(), open.last()) else {
            return Ok(None);
        };
        let started = Instant::now();
        let goal = Goal {
            max_cars: self.budgets[hi],
            min_cars: self.budgets[lo],
            lower: self.lower.to_vec(),
            limits: self.limits.clone(),
            memory: Some(memory),
            projected: true,
            complete: false,
        };
        let Some(dp) = Frontier::run(self.board, self.all_routes, self.all_tickets, &goal) else {
            return Ok(None);
        };
        // Each budget's share of the one run. Its plans are recovered
        // together, then checked on both workers.
        let seconds = started.elapsed().as_secs_f64() / open.len() as f64;
        let cars: Vec<u32> = open.iter().map(|&i| self.budgets[i]).collect();
        let runs = solve::frontier_runs(&dp, &cars);
        open.par_iter()
            .zip(runs)
            .with_max_len(1)
            .try_for_each(|(&i, run)| {
                self.record(
                    i,
                    solve::finish(&self.instance(i), run, Produced::Frontier, seconds)?,
                );
                Ok::<_, SolveError>(())
            })?;
        Ok(Some(dp))
    }
    // After the frontier run: the edge budgets `open`, by one more run of the
    // programme where the first run's tables were small (`probing`), else
    // (or should that run pass its size) by the branch and cut, shared out:
    // the other worker takes one if it is done with its own (each budget's
    // answer is the same on either).
    fn edge_task(&self, open: &[usize], probing: bool) -> Result<(), SolveError> {
        if probing && !self.limits.passed() && self.frontier_on(open, FRONTIER_MEMORY)?.is_some() {
            return Ok(());
        }
        open.par_iter()
            .with_max_len(1)
            .try_for_each(|&i| self.forest_task(i))
    }
    fn frontier_task(&self) -> Result<(), SolveError> {
        let open = self.unproven(self.frontier_budgets);
        let edge = self.unproven(self.edge);
        if open.is_empty() {
            return self.edge_task(&edge, false);
        }
        // The edge budgets in the run itself, where its tables stay small
        // with them (see JOINT_MEMORY); else the run alone, as below.
        if !edge.is_empty() && !self.limits.passed() {
            let joint: Vec<usize> = open.iter().chain(&edge).copied().collect();
            if self.frontier_on(&joint, JOINT_MEMORY)?.is_some() {
                return Ok(());
            }
        }
        if let Some(dp) = self.frontier_on(&open, FRONTIER_MEMORY)? {
            // (Its tables are of no more use: freed before the edges.)
            let small = dp.table_bytes() <= solve::FRONTIER_FIRST_MEMORY / 2;
            drop(dp);
            return self.edge_task(&edge, small);
        }
        // Past its size (USA Mega's run for 1–35 cars, as seen after about
        // 3 s): the programme once more for the lower two thirds, whose
        // tables are a small part of the whole (they grow about twofold
        // every two cars), while a ladder search takes the rest and the
        // edge budgets; and a ladder search for the lower part too if the
        // programme passes its size again.
        let keep = open.len() * 2 / 3;
        if keep < 2 || self.limits.passed() {
            return self.ladder_task(open.iter().chain(&edge).copied().collect());
        }
        let (below, above) = open.split_at(keep);
        let (below_result, above_result) = rayon::join(
            || match self.frontier_on(below, FRONTIER_MEMORY)? {
                Some(_) => Ok(()),
                None => self.ladder_task(below.to_vec()),
            },
            || self.ladder_task(above.iter().chain(&edge).copied().collect()),
        );
        below_result?;
        above_result
    }
}

/// `plan` cut down to `cars` (a plan already within them stays whole):
/// while it takes more, the route whose loss costs the fewest points goes,
/// the first of equals. Its routes and score.
fn trimmed(
    board: &Board,
    mut plan: Vec<RouteId>,
    cars: u32,
    tickets: &[TicketId],
) -> (Vec<RouteId>, u32) {
    let score = |routes: &[RouteId]| {
        let eval = evaluate(board, routes, tickets);
        (eval.cars_used, eval.score())
    };
    loop {
        let (used, points) = score(&plan);
        if used <= cars {
            return (plan, points);
        }
        let (_, Reverse(worst)) = (0..plan.len())
            .map(|k| {
                let mut rest = plan.clone();
                rest.remove(k);
                (score(&rest).1, Reverse(k))
            })
            .max()
            .expect("a plan over its cars has a route");
        plan.remove(worst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{solve, SolveOptions};

    /// A plan cut down to fewer cars fits them, keeps only its own routes,
    /// scores what the verifier says and never more than the optimum there;
    /// a plan within the cars stays whole.
    #[test]
    fn a_trimmed_plan_fits_and_scores_what_the_verifier_says() {
        let board = Board::usa();
        let tickets: Vec<TicketId> = board.ticket_ids().collect();
        let inst = Instance::new(&board, 45);
        let plan = solve(&inst, &SolveOptions::default()).unwrap().plan.routes;
        let (whole, score) = trimmed(&board, plan.clone(), 45, &tickets);
        assert_eq!((whole, score), (plan.clone(), 285));
        for cars in [40, 31, 20, 6] {
            let (routes, score) = trimmed(&board, plan.clone(), cars, &tickets);
            let eval = evaluate(&board, &routes, &tickets);
            assert!(eval.cars_used <= cars, "{cars} cars");
            assert_eq!(eval.score(), score, "{cars} cars");
            assert!(routes.iter().all(|r| plan.contains(r)), "{cars} cars");
            let optimum = solve(&Instance::new(&board, cars), &SolveOptions::default())
                .unwrap()
                .plan
                .score();
            assert!(
                0 < score && score <= optimum,
                "{cars} cars: {score}, optimum {optimum}"
            );
        }
    }
}
