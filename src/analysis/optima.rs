//! Every optimal plan of a budget: how many there are, how often each
//! ticket and route is in them, and the plans themselves (up to a cap).
//!
//! One frontier run, told the optimum (so it prunes hard) and keeping where
//! every state leads, then a walk back from the final state over the entries
//! an optimal plan can pass through. An optimal plan's prefix always holds
//! the best value of its (state, cars) entry — were another prefix better,
//! swapping it in would beat the optimum — so those entries and the
//! transitions between them form a graph whose paths are exactly the optimal
//! plans, one route set per path. Counting paths there counts the optima
//! exactly, however many there are; listing them stops at the cap.

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::board::verify::{evaluate, Evaluation, VerifyError};
use crate::board::{Board, RouteId, TicketId};
use crate::model::Instance;
use crate::solve::frontier::{Frontier, Goal};
use crate::solve::limits::Limits;
use crate::solve::{solve_proven, Method, Produced, SolveError, SolveOptions};

/// All the optimal plans of one budget.
#[derive(Clone, Debug)]
pub struct Optima {
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum, in points, that every plan here scores.
    pub score: u32,
    /// Number of distinct optimal route sets (saturating at `u128::MAX`).
    pub count: u128,
    /// Per route (by id): optimal plans that claim it.
    pub route_counts: Vec<u128>,
    /// Per printed ticket (index into `Board::cards`): optimal plans that
    /// complete it (any of its trips).
    pub ticket_counts: Vec<u128>,
    /// The fewest cars an optimal plan uses.
    pub fewest_cars: u32,
    /// Optimal plans, fewest cars first, at most the cap.
    pub plans: Vec<Vec<RouteId>>,
    /// More plans exist than were listed.
    pub capped: bool,
}

/// A node of the graph of optimal entries: state `state` after some steps,
/// with `c` cars (the programme's "at most c cars" index).
struct Node {
    state: u32,
    c: u16,
    value: i16,
    /// (node in the next layer, the route the step claims, if any)
    edges: Vec<(usize, Option<RouteId>)>,
    /// Optimal completions from here to the end.
    to_end: u128,
}

/// How [`all_optima`] runs. The default lists at most 20 plans (as the
/// command line does), picks the way, and has no limits.
#[derive(Clone, Debug)]
pub struct OptimaOptions {
    /// List at most this many optimal plans (all are counted).
    pub max: usize,
    /// How to find them: `Forest`, the branch and cut lists them (the
    /// frontier counts past `max`); `Frontier`, the frontier's linked
    /// tables count them; `Auto`, the branch and cut unless the frontier
    /// proved the optimum. The answers are the same (the tests hold both
    /// to exhaustive search).
    pub method: Method,
    /// The call's limits: past them, [`SolveError::TimeLimit`].
    pub limits: Limits,
}

impl Default for OptimaOptions {
    fn default() -> Self {
        OptimaOptions {
            max: 20,
            method: Method::Auto,
            limits: Limits::none(),
        }
    }
}

impl OptimaOptions {
    /// The default options listing at most `max` plans.
    pub fn max(max: usize) -> Self {
        OptimaOptions {
            max,
            ..OptimaOptions::default()
        }
    }
}

/// Every optimal plan of `board` with `cars` cars, counted, and listed up
/// to `options.max`.
pub fn all_optima(board: &Board, cars: u32, options: &OptimaOptions) -> Result<Optima, SolveError> {
    let &OptimaOptions {
        max,
        method,
        ref limits,
    } = options;
    let inst = Instance::new(board, cars);
    let options = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let proof = solve_proven(&inst, &options, || {
        format!("the optimum of {cars} cars was proven")
    })?;
    // Few optima where the branch and cut proves the budget (one at 45
    // cars on the USA board): it lists them all in seconds, where the
    // frontier's linked tables take minutes and gigabytes (262 s and 2.6 GB
    // there). Where the frontier proves the budget, or more optima than
    // the listing cap exist, the frontier counts them.
    let listing = match method {
        Method::Auto => proof.method != Produced::Frontier,
        m => m != Method::Frontier,
    };
    optima_of(board, &inst, proof.plan.score(), listing, max, limits)
}

/// Every optimal plan of `inst`, whose optimum `score` is proven: listed by
/// the branch and cut first when `listing` (falling back to the frontier's
/// count past `max` plans), else counted by the frontier.
fn optima_of(
    board: &Board,
    inst: &Instance,
    score: u32,
    listing: bool,
    max: usize,
    limits: &Limits,
) -> Result<Optima, SolveError> {
    let cars = inst.cars;
    if !inst.routes.is_empty() && listing {
        if let Some(plans) = crate::solve::branch::enumerate(inst, score, max, limits)? {
            return listed(board, inst, cars, score, plans);
        }
        if limits.passed() {
            return Err(SolveError::TimeLimit(format!(
                "every optimal plan of {cars} cars was found"
            )));
        }
    }
    if !Frontier::fits(board, &inst.routes, &inst.tickets) {
        return Err(SolveError::Limit(
            "counting more optima than --max needs the frontier programme: scores below 4000 points in all and fewer than 255 cities".into(),
        ));
    }
    // Above the cars of every route the plans are those of that budget: the
    // programme's tables need be no longer.
    let cars = cars.min(inst.total_length());
    let goal = Goal {
        limits: limits.clone(),
        ..Goal::budget(cars, score)
    };
    let dp = Frontier::run_linked(board, &inst.routes, &inst.tickets, &goal);
    if dp.is_none() && limits.passed() {
        return Err(SolveError::TimeLimit(format!(
            "every optimal plan of {cars} cars was found"
        )));
    }
    let dp = dp.ok_or_else(|| {
        SolveError::Limit(format!(
            "listing all optima at {cars} cars needs more memory than the budget of {} MB \
             (raise it with --memory-limit)",
            limits.memory_budget() >> 20
        ))
    })?;
    if dp.best(cars) != score {
        return Err(VerifyError(format!(
            "the frontier programme finds {} points with {cars} cars, the solver {score}",
            dp.best(cars)
        ))
        .into());
    }
    let layers = walk_back(&dp, cars, score);
    let (count, route_counts, ticket_counts) = count_through(board, &dp, &layers);
    let (fewest_cars, plans, capped) = list_plans(&layers, cars, max);

    checked(board, inst, cars, score, &plans)?;
    Ok(Optima {
        cars,
        score,
        count,
        route_counts,
        ticket_counts,
        fewest_cars,
        plans,
        capped,
    })
}

/// The graph of optimal entries, walked back from the final states that
/// score `score` with `cars` cars: `layers[i]` holds the entries after `i`
/// steps an optimal plan can pass through, each with its edges to the
/// next layer and its count of optimal completions.
fn walk_back(dp: &Frontier, cars: u32, score: u32) -> Vec<Vec<Node>> {
    let m = dp.steps_len();
    let c_max = cars as usize;

    // Walk back: layers[i] holds the optimal entries after i steps.
    let mut layers: Vec<Vec<Node>> = (0..=m).map(|_| Vec::new()).collect();
    for s in 0..dp.layer_len(m) {
        let value = dp.values(m, s)[c_max];
        if value >= 0 && value as u32 == score {
            layers[m].push(Node {
                state: s as u32,
                c: cars as u16,
                value,
                edges: Vec::new(),
                to_end: 1,
            });
        }
    }
    for i in (0..m).rev() {
        layers[i] = layer_before(dp, i, &layers[i + 1]);
    }
    layers
}

/// The optimal entries of layer `i`: those with an edge into an entry of
/// `after` (layer `i + 1`) that keeps its value optimal, each with its
/// optimal completions counted.
fn layer_before(dp: &Frontier, i: usize, after: &[Node]) -> Vec<Node> {
    let options = dp.options(i);
    let mut by_state: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    for (j, n) in after.iter().enumerate() {
        by_state.entry(n.state).or_default().push(j);
    }
    let mut index: FxHashMap<(u32, u16), usize> = FxHashMap::default();
    let mut nodes: Vec<Node> = Vec::new();
    let mut add =
        |nodes: &mut Vec<Node>, s: usize, c: usize, value: i16, edge: (usize, Option<RouteId>)| {
            let at = *index.entry((s as u32, c as u16)).or_insert_with(|| {
                nodes.push(Node {
                    state: s as u32,
                    c: c as u16,
                    value,
                    edges: Vec::new(),
                    to_end: 0,
                });
                nodes.len() - 1
            });
            nodes[at].edges.push(edge);
        };
    for s in 0..dp.layer_len(i) {
        let link = dp.link(i, s);
        let values = dp.values(i, s);
        if let Some(next) = link.skip.and_then(|t| by_state.get(&t)) {
            for &j in next {
                let n = &after[j];
                let c = n.c as usize;
                if values[c] >= 0 && values[c] == n.value {
                    add(&mut nodes, s, c, values[c], (j, None));
                }
            }
        }
        if let Some((next, tickets)) = link
            .take
            .and_then(|(u, g)| by_state.get(&u).map(|n| (n, g)))
        {
            for &j in next {
                let n = &after[j];
                let c = n.c as usize;
                // Each route of the pair that gets there is its own plan.
                for o in options {
                    if c >= o.length
                        && values[c - o.length] >= 0
                        && values[c - o.length] + tickets + o.points == n.value
                    {
                        let before = values[c - o.length];
                        add(&mut nodes, s, c - o.length, before, (j, Some(o.route)));
                    }
                }
            }
        }
    }
    for n in &mut nodes {
        n.to_end = n
            .edges
            .iter()
            .fold(0u128, |sum, &(j, _)| sum.saturating_add(after[j].to_end));
    }
    nodes
}

/// How many optimal plans there are, and per route (by id) and per printed
/// ticket (by card) how many claim or complete it, counted forward over
/// the `layers` of optimal entries.
fn count_through(
    board: &Board,
    dp: &Frontier,
    layers: &[Vec<Node>],
) -> (u128, Vec<u128>, Vec<u128>) {
    let m = dp.steps_len();
    // Forward: how many optimal prefixes reach each node, and with them the
    // plans through each claimed route and completed ticket.
    let count = layers[0]
        .iter()
        .fold(0u128, |s, n| s.saturating_add(n.to_end));
    let mut from_start: Vec<u128> = vec![1; layers[0].len()];
    let mut route_counts = vec![0u128; board.routes.len()];
    let mut ticket_counts = vec![0u128; board.cards.len()];
    for i in 0..m {
        let mut next = vec![0u128; layers[i + 1].len()];
        for (k, n) in layers[i].iter().enumerate() {
            for &(j, take) in &n.edges {
                next[j] = next[j].saturating_add(from_start[k]);
                if let Some(route) = take {
                    let through = from_start[k].saturating_mul(layers[i + 1][j].to_end);
                    route_counts[route.0] = route_counts[route.0].saturating_add(through);
                    // A ticket counts once per plan: where it first scores
                    // (a ticket with several trips may be raised later).
                    for t in dp.first_scoring_from(i, n.state as usize) {
                        let card = board.ticket(t).card;
                        ticket_counts[card] = ticket_counts[card].saturating_add(through);
                    }
                }
            }
        }
        from_start = next;
    }
    (count, route_counts, ticket_counts)
}

/// The fewest cars an optimal plan uses, and the optimal plans over
/// `layers`, fewest cars first, at most `max` (and whether more exist).
fn list_plans(layers: &[Vec<Node>], cars: u32, max: usize) -> (u32, Vec<Vec<RouteId>>, bool) {
    let m = layers.len() - 1;
    // List plans, fewest cars first (the most cars left over at the start).
    let mut starts: Vec<usize> = (0..layers[0].len()).collect();
    starts.sort_by_key(|&k| std::cmp::Reverse(layers[0][k].c));
    let fewest_cars = starts.first().map_or(0, |&k| cars - layers[0][k].c as u32);
    let mut plans = Vec::new();
    let mut capped = false;
    'starts: for &k in &starts {
        // Depth-first, with the routes claimed so far.
        let mut stack: Vec<(usize, usize, Vec<RouteId>)> = vec![(0, k, Vec::new())];
        while let Some((i, node, routes)) = stack.pop() {
            if i == m {
                if plans.len() == max {
                    capped = true;
                    break 'starts;
                }
                let mut routes = routes;
                routes.sort();
                plans.push(routes);
                continue;
            }
            for &(j, take) in layers[i][node].edges.iter().rev() {
                let mut r = routes.clone();
                if let Some(route) = take {
                    r.push(route);
                }
                stack.push((i + 1, j, r));
            }
        }
    }
    (fewest_cars, plans, capped)
}

/// The union-find verifier's evaluation of every listed plan, each checked
/// to score `score` within `cars`, and no plan listed twice.
fn checked(
    board: &Board,
    inst: &Instance,
    cars: u32,
    score: u32,
    plans: &[Vec<RouteId>],
) -> Result<Vec<Evaluation>, SolveError> {
    let mut evals = Vec::with_capacity(plans.len());
    for plan in plans {
        let eval = evaluate(board, plan, &inst.tickets_in_play);
        if eval.score() != score || eval.cars_used > cars {
            return Err(VerifyError(format!(
                "a listed optimum scores {} with {} cars, not {score} within {cars}",
                eval.score(),
                eval.cars_used
            ))
            .into());
        }
        evals.push(eval);
    }
    let mut distinct = plans.to_vec();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != plans.len() {
        return Err(VerifyError("a plan was listed twice".into()).into());
    }
    Ok(evals)
}

/// The optima of a budget from the complete list of its optimal plans:
/// counts, shares and the fewest cars, every plan re-checked by the
/// union-find verifier.
fn listed(
    board: &Board,
    inst: &Instance,
    cars: u32,
    score: u32,
    mut plans: Vec<Vec<RouteId>>,
) -> Result<Optima, SolveError> {
    for plan in &mut plans {
        plan.sort();
    }
    let evals = checked(board, inst, cars, score, &plans)?;
    let mut route_counts = vec![0u128; board.routes.len()];
    let mut ticket_counts = vec![0u128; board.cards.len()];
    for (plan, eval) in plans.iter().zip(&evals) {
        for r in plan {
            route_counts[r.0] += 1;
        }
        // A plan completes one trip per ticket at most (its best).
        for &t in &eval.completed {
            ticket_counts[board.ticket(t).card] += 1;
        }
    }
    // Fewest cars first, then in route order.
    let mut with_cars: Vec<(u32, Vec<RouteId>)> =
        evals.iter().map(|e| e.cars_used).zip(plans).collect();
    with_cars.sort();
    Ok(Optima {
        cars,
        score,
        count: with_cars.len() as u128,
        route_counts,
        ticket_counts,
        fewest_cars: with_cars.first().map_or(0, |(c, _)| *c),
        plans: with_cars.into_iter().map(|(_, p)| p).collect(),
        capped: false,
    })
}

/// One row of the share tables.
#[derive(Clone, Debug, Serialize)]
pub struct Share {
    /// "Los Angeles – New York".
    pub name: String,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Optimal plans that use it, and that over all optimal plans.
    pub count: u128,
    /// `count` over the number of optimal plans.
    pub share: f64,
}

impl Optima {
    /// Tickets and routes used by at least one optimum, most used first
    /// (ties in board order).
    pub fn shares(&self, board: &Board) -> (Vec<Share>, Vec<Share>) {
        let share = |count: u128| {
            if self.count == 0 {
                0.0
            } else {
                count as f64 / self.count as f64
            }
        };
        // Per printed ticket; one with several trips shows its best trip's points.
        let mut tickets: Vec<Share> = board
            .cards
            .iter()
            .enumerate()
            .filter(|&(c, _)| self.ticket_counts[c] > 0)
            .map(|(c, card)| Share {
                name: card.name.clone(),
                points: card
                    .trips
                    .iter()
                    .map(|&t| board.ticket(t).points)
                    .max()
                    .unwrap_or(0),
                count: self.ticket_counts[c],
                share: share(self.ticket_counts[c]),
            })
            .collect();
        let mut routes: Vec<Share> = board
            .route_ids()
            .filter(|r| self.route_counts[r.0] > 0)
            .map(|r| Share {
                name: board.route_label(r),
                points: board.route(r).points,
                count: self.route_counts[r.0],
                share: share(self.route_counts[r.0]),
            })
            .collect();
        tickets.sort_by_key(|s| std::cmp::Reverse(s.count));
        routes.sort_by_key(|s| std::cmp::Reverse(s.count));
        (tickets, routes)
    }

    /// Tickets completed by a plan.
    pub fn tickets_of(&self, board: &Board, plan: &[RouteId]) -> Vec<TicketId> {
        evaluate(board, plan, &board.ticket_ids().collect::<Vec<_>>()).completed
    }
}

/// How one ticket or route sits in the optima of every budget of a range.
#[derive(Clone, Debug, Serialize)]
pub struct Presence {
    /// "Los Angeles – New York"
    pub name: String,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Train cars (routes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// Budgets where some optimal plan uses it.
    pub some: u32,
    /// Budgets where every optimal plan uses it (at most `some`).
    pub every: u32,
    /// Its share of each budget's optima, summed over the budgets: between
    /// `every` and `some`, and what a solver that picked an optimum of each
    /// budget at random would count on average.
    pub share_sum: f64,
    /// Budgets whose reported plan (the sweep's tie-break) uses it: the
    /// count of `frequency.json`.
    pub picked: u32,
}

/// The optimal plans of one budget, counted.
#[derive(Clone, Debug, Serialize)]
pub struct BudgetOptima {
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum at that budget, in points.
    pub score: u32,
    /// Distinct optimal route sets (a string: it can exceed JSON's exact
    /// integers).
    pub count: String,
    /// The fewest cars an optimal plan uses.
    pub fewest_cars: u32,
}

/// Frequency tables over every optimal plan of every budget of a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepOptima {
    /// The smallest budget of the sweep, in train cars.
    pub from: u32,
    /// The largest budget of the sweep, in train cars.
    pub to: u32,
    /// The optima of each budget, counted, smallest budget first.
    pub budgets: Vec<BudgetOptima>,
    /// Every ticket of the board: most budgets with some optimum using it
    /// first, then most with every optimum, then board order.
    pub tickets: Vec<Presence>,
    /// Every route of the board, in the same order.
    pub routes: Vec<Presence>,
}

/// Counts every optimal plan of every budget of a proven sweep (`entries`,
/// as [`crate::solve::sweep::sweep_proven`] returns them) on `threads` workers,
/// calling `progress` as each budget is counted. The proofs
/// are the sweep's: each budget is only counted, by the branch and cut's
/// listing where the branch and cut proved it and by the frontier's linked
/// tables where the frontier did (or where more optima exist than the
/// listing keeps).
pub fn over_sweep(
    board: &Board,
    entries: &[crate::solve::sweep::SweepEntry],
    threads: usize,
    progress: &(dyn Fn(crate::analysis::Step) + Sync),
) -> Result<SweepOptima, SolveError> {
    over_sweep_within(board, entries, threads, &Limits::none(), progress)
}

/// [`over_sweep`] within the call's `limits`: past them,
/// [`SolveError::TimeLimit`].
pub fn over_sweep_within(
    board: &Board,
    entries: &[crate::solve::sweep::SweepEntry],
    threads: usize,
    limits: &Limits,
    progress: &(dyn Fn(crate::analysis::Step) + Sync),
) -> Result<SweepOptima, SolveError> {
    use rayon::prelude::*;
    // Plans listed per budget before the frontier counts instead: a few
    // keep the listing on budgets with few optima, where it is fastest.
    const LISTED: usize = 20;
    crate::solve::sweep::all_proven(board, entries)?;
    let counted: Vec<Optima> = crate::solve::worker_pool(threads)?.install(|| {
        // Largest budgets first: they take longest, and the small ones fill
        // in behind them.
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(entries[i].cars));
        let mut done: Vec<(usize, Optima)> = order
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                let e = &entries[i];
                let inst = Instance::new(board, e.cars);
                let listing = e.outcome.method != Produced::Frontier;
                let o = optima_of(
                    board,
                    &inst,
                    e.outcome.plan.score(),
                    listing,
                    LISTED,
                    limits,
                )?;
                progress(crate::analysis::Step {
                    total: entries.len(),
                    what: &format!("{} cars: {} optimal plan(s)", e.cars, o.count),
                });
                Ok((i, o))
            })
            .collect::<Result<_, SolveError>>()?;
        done.sort_by_key(|(i, _)| *i);
        Ok::<_, SolveError>(done.into_iter().map(|(_, o)| o).collect())
    })?;

    let presence = |name: String,
                    points: u32,
                    length: Option<u32>,
                    uses: &dyn Fn(&Optima) -> u128,
                    picked: u32| {
        let mut p = Presence {
            name,
            points,
            length,
            some: 0,
            every: 0,
            share_sum: 0.0,
            picked,
        };
        for o in &counted {
            let n = uses(o);
            p.some += u32::from(n > 0);
            p.every += u32::from(n == o.count);
            p.share_sum += n as f64 / o.count.max(1) as f64;
        }
        p
    };
    // The reported plans' counts, as in `frequency.json`.
    let (_, picked_tickets, picked_routes) =
        crate::analysis::plan_counts(board, entries.iter().map(|e| &e.outcome.plan));
    let mut tickets: Vec<Presence> = board
        .cards
        .iter()
        .enumerate()
        .map(|(c, card)| {
            presence(
                card.name.clone(),
                board.best_trip(card),
                None,
                &|o| o.ticket_counts[c],
                picked_tickets[c] as u32,
            )
        })
        .collect();
    let mut routes: Vec<Presence> = board
        .route_ids()
        .map(|r| {
            presence(
                board.route_label(r),
                board.route(r).points,
                Some(board.route(r).length),
                &|o| o.route_counts[r.0],
                picked_routes[r.0] as u32,
            )
        })
        .collect();
    // Stable sorts keep board order among equals.
    for rows in [&mut tickets, &mut routes] {
        rows.sort_by_key(|p| std::cmp::Reverse((p.some, p.every)));
    }
    let budgets = entries
        .iter()
        .zip(&counted)
        .map(|(e, o)| BudgetOptima {
            cars: e.cars,
            score: o.score,
            count: o.count.to_string(),
            fewest_cars: o.fewest_cars,
        })
        .collect();
    Ok(SweepOptima {
        from: entries.first().map_or(0, |e| e.cars),
        to: entries.last().map_or(0, |e| e.cars),
        budgets,
        tickets,
        routes,
    })
}
