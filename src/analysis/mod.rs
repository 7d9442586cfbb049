//! Analyses for balancing a board, built on exact solves.
//!
//! Sensitivity (the paper's Table 2, extended to routes): for every ticket in
//! the optimal plan, the optimum if that ticket were not in the game; for
//! every route in the plan, the optimum if an opponent had taken it.
//!
//! Frequency ([`frequency`], the paper's Table 3 and Figure 4): how often each ticket and
//! route is in the reported optimum over the budgets of a sweep.

pub mod balance;
pub mod bench;
pub mod carry;
pub mod check;
mod frequency;
pub mod optima;
pub mod scenario;
pub mod tune;

pub(crate) use frequency::plan_counts;
pub use frequency::{frequency, Chosen, Frequency};

use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, Card, RouteId, TicketId};
use crate::model::Instance;
use crate::model::Plan;
use crate::solve::frontier::{Frontier, Goal};
use crate::solve::limits::Limits;
use crate::solve::{self, solve_proven, Method, Outcome, Produced, SolveError, SolveOptions};

/// The optimum without one ticket or one route of the optimal plan.
#[derive(Clone, Debug, Serialize)]
pub struct Impact {
    /// "Los Angeles – New York"
    pub name: String,
    /// The ticket's or route's own points.
    pub points: u32,
    /// The optimum without it.
    pub optimum: u32,
    /// `optimum` minus the full optimum (zero or negative).
    pub change: i64,
}

/// The sensitivity table of one budget: the optimum, and what each ticket and
/// route of the optimal plan is worth to it.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// The budget, in train cars.
    pub cars: u32,
    /// The full problem's answer.
    pub base: Outcome,
    /// One entry per ticket of the optimal plan, largest loss first.
    pub tickets: Vec<Impact>,
    /// One entry per route of the optimal plan, largest loss first.
    pub routes: Vec<Impact>,
    /// Tickets and routes of the plan whose solve the run's time limit (or
    /// Ctrl-C) cut short, in plan order: their entries are missing above.
    /// Empty when the analysis is complete.
    pub unfinished: Vec<String>,
}

/// One finished solve of an analysis: how many solves the analysis makes in
/// all (known once the optimum is) and what this one found, for progress
/// shown while a long analysis runs.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// Solves the analysis makes in all.
    pub total: usize,
    /// What this solve found, as a line for the user ("without Boston – Miami:
    /// 273 points").
    pub what: &'a str,
}

/// Solves the board at `cars`, then once more per ticket and per route of
/// the optimal plan without it, on `threads` threads.
///
/// With 5 cars the optimum takes both routes and the ticket (4 + 2 + 9
/// points); without the ticket it keeps both routes, and without Albany –
/// Hartford only Hartford – Boston is left:
/// ```
/// # let board = ttr_opt::board::Board::from_json(r#"{
/// #     "name": "tiny", "cars": 5, "route_points": { "1": 1, "2": 2, "3": 4 },
/// #     "cities": [ { "name": "Albany", "x": 0, "y": 0 }, { "name": "Boston", "x": 2, "y": 0 },
/// #                 { "name": "Hartford", "x": 1, "y": 1 } ],
/// #     "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
/// #                 { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray"] } ],
/// #     "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ] }"#, "tiny.json")?;
/// let options = ttr_opt::analysis::AnalysisOptions::default();
/// let s = ttr_opt::analysis::sensitivity(&board, 5, &options)?;
/// assert_eq!(s.base.plan.score(), 15);
/// assert_eq!((s.tickets[0].optimum, s.tickets[0].change), (6, -9));
/// assert_eq!(s.routes[0].name, "Albany – Hartford");
/// assert_eq!((s.routes[0].optimum, s.routes[0].change), (2, -13));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sensitivity(
    board: &Board,
    cars: u32,
    options: &AnalysisOptions,
) -> Result<Sensitivity, SolveError> {
    Ok(sensitivity_steps(board, cars, options, &|_| 0, false)?.sensitivity)
}

/// How [`sensitivity`] and [`break_even`] run: on how many threads, from
/// which proven optimum, within which limits, telling whom of each solve.
/// The default: one thread, the optimum solved first, no limits, no one
/// told.
#[derive(Clone)]
pub struct AnalysisOptions<'a> {
    /// Solver threads (0 or 1: one).
    pub threads: usize,
    /// The optimum at the budget where one is proven already (a sweep's),
    /// then not solved again; an unproven one is ignored.
    pub base: Option<Outcome>,
    /// The call's limits: past them, the rows whose solves finished, the
    /// others named in the result's `unfinished`.
    pub limits: Limits,
    /// Told about each solve as it finishes.
    pub progress: &'a (dyn Fn(Step) + Sync),
}

impl Default for AnalysisOptions<'_> {
    fn default() -> Self {
        AnalysisOptions {
            threads: 1,
            base: None,
            limits: Limits::none(),
            progress: &|_| {},
        }
    }
}

impl AnalysisOptions<'_> {
    /// The default options on `threads` threads.
    pub fn threads(threads: usize) -> Self {
        AnalysisOptions {
            threads,
            ..AnalysisOptions::default()
        }
    }
}

/// The optimum without each ticket of the optimal plan whose solve
/// finished, by ticket (two tickets may share a label).
type Without = Vec<(TicketId, u32)>;

/// What [`sensitivity_steps`] finds.
struct Steps {
    /// The sensitivity.
    sensitivity: Sensitivity,
    /// The total of solves it reported.
    total: usize,
    /// The optimum without each ticket.
    without: Without,
    /// How many of the sensitivity's `unfinished` are tickets (they come
    /// first).
    tickets_unfinished: usize,
    /// By card, the best plan completing each ticket the optimal plan
    /// leaves out, where the family search answered it (asked for with
    /// `needed`; empty without one).
    needed: Vec<Option<Outcome>>,
}

/// [`sensitivity`], counting `more(plan)` solves the caller makes after
/// it into the total it reports.
fn sensitivity_steps(
    board: &Board,
    cars: u32,
    options: &AnalysisOptions,
    more: &(dyn Fn(&Plan) -> usize + Sync),
    needed: bool,
) -> Result<Steps, SolveError> {
    let &AnalysisOptions {
        threads,
        ref base,
        ref limits,
        progress,
    } = options;
    let within = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    solve::worker_pool(threads)?.install(|| {
        let base = match base.clone().filter(|b| b.proven) {
            Some(base) => base,
            None => solve_proven(&Instance::new(board, cars), &within, || {
                format!("the optimum of {cars} cars was proven")
            })?,
        };
        let total = 1 + base.plan.tickets.len() + base.plan.routes.len() + more(&base.plan);
        let tell = |what: String| progress(Step { total, what: &what });
        tell(format!(
            "optimum of {cars} cars: {} points",
            base.plan.score()
        ));
        let optimum = base.plan.score() as i64;
        let impact = |name: String, points: u32, outcome: Outcome| Impact {
            name,
            points,
            optimum: outcome.plan.score(),
            change: outcome.plan.score() as i64 - optimum,
        };
        let mut unfinished = Vec::new();
        let asking = Asking {
            routes: true,
            needed,
            loss: FAMILY_LOSS,
        };
        let known = family_answers(board, cars, &base, asking, limits)?;
        let tickets = base
            .plan
            .tickets
            .par_iter()
            .with_max_len(1)
            .enumerate()
            .map(|(i, &t)| {
                let outcome = match known.as_ref().and_then(|k| k.tickets[i].clone()) {
                    Some(outcome) => outcome,
                    None => optimum_without(board, cars, t, &within)?,
                };
                tell(format!(
                    "without {}: {} points",
                    board.ticket_label(t),
                    outcome.plan.score()
                ));
                Ok((
                    t,
                    impact(board.ticket_label(t), board.ticket(t).points, outcome),
                ))
            })
            .collect::<Vec<Result<_, SolveError>>>();
        let mut tickets = finished(tickets, &mut unfinished, |i| {
            board.ticket_label(base.plan.tickets[i])
        })?;
        let tickets_unfinished = unfinished.len();
        let routes = base
            .plan
            .routes
            .par_iter()
            .with_max_len(1)
            .enumerate()
            .map(|(i, &r)| {
                let outcome = match known.as_ref().and_then(|k| k.routes[i].clone()) {
                    Some(outcome) => outcome,
                    None => solve_proven(&blocked(board, cars, r), &within, || {
                        format!("the optimum without {} was proven", board.route_label(r))
                    })?,
                };
                tell(format!(
                    "{} blocked: {} points",
                    board.route_label(r),
                    outcome.plan.score()
                ));
                Ok(impact(board.route_label(r), board.route(r).points, outcome))
            })
            .collect::<Vec<Result<_, SolveError>>>();
        let mut routes = finished(routes, &mut unfinished, |i| {
            board.route_label(base.plan.routes[i])
        })?;
        // Largest loss first; ties in board order (the order of the plan).
        tickets.sort_by_key(|(_, i)| i.change);
        routes.sort_by_key(|i| i.change);
        // By ticket, not by label: two cards may join the same two cities.
        let without = tickets.iter().map(|(t, i)| (*t, i.optimum)).collect();
        let tickets = tickets.into_iter().map(|(_, i)| i).collect();
        Ok(Steps {
            sensitivity: Sensitivity {
                cars,
                base,
                tickets,
                routes,
                unfinished,
            },
            total,
            without,
            tickets_unfinished,
            needed: known.map(|k| k.needed).unwrap_or_default(),
        })
    })
}

/// The answers of a family search: without each ticket of the plan, with
/// each route of it blocked, and (asked for) the best plan completing each
/// ticket it leaves out, by card.
struct Answers {
    tickets: Vec<Option<Outcome>>,
    routes: Vec<Option<Outcome>>,
    needed: Vec<Option<Outcome>>,
    /// The search ran to its end: a question left `None` is proven more
    /// than the search's loss below the optimum.
    ended: bool,
}

/// Which questions a family search asks besides those of the plan's
/// tickets, and how far below the optimum it looks.
#[derive(Clone, Copy)]
struct Asking {
    /// Each route of the plan blocked (the sensitivity's route rows).
    routes: bool,
    /// The best plan completing each ticket the plan leaves out (the
    /// break-even's rows).
    needed: bool,
    /// Answers more than this below the optimum are not sought.
    loss: u32,
}

/// The largest loss a family search looks for (the sensitivity's and the
/// break-even's, and [`standings_within`]'s where `max_step` is less): the
/// search keeps every node whose bound passes the optimum less this, so
/// its tree grows with it (Europe at 45 cars, 214 points, measured as a
/// search on two lanes that finds no plan and keeps every node above a
/// floor: above 213 points, 5.8 s; above 211, 8.7 s; above 209, 14.5 s;
/// above 206, 31.4 s), while the losses of Europe's sensitivity at 45 cars
/// are 1–4 points.
pub const FAMILY_LOSS: u32 = 4;

/// The sensitivity answers (without each ticket of `base`'s plan, then
/// with each route of it blocked) and, with `needed`, the best plan
/// completing each ticket the plan leaves out, from one family search
/// ([`solve::family`]), where `base` was proven by the branch and cut: the
/// answers mostly lie a few points below the optimum, and one search that
/// keeps every node some question could still gain in costs a few proofs
/// instead of one per question (Europe at 45 cars: 33 sensitivity
/// questions, 31 break-even ones). Only answers within [`FAMILY_LOSS`]
/// points of the optimum are sought, and the search gives up past twenty
/// times the base proof's LPs (at least 1,000); a question it has not
/// proven (`None`) goes to its own solve.
///
/// Why twenty: the search proves most answers together near its end, so a
/// cap just short of that answers almost nothing, and a base proof a few
/// LPs shorter by chance fell off that cliff. Europe's break-even family
/// (64 questions) answers 3 of them with 1,028 LPs, 36 with 1,164, and 45
/// (all within reach) once it ends by itself, about 2,000 LPs and 19 s;
/// each unanswered question is a proof of its own (2–11 s). Four times
/// the base (257 LPs in the sweep's proof) made `balance` on Europe 15 s
/// slower once each LP got faster; twenty times takes `breakeven` on
/// Europe from 100 s (its base 291 LPs, so 1,164) to 79 s, on USA Mega
/// from 65 to 45 s, on the Swiss map from 62 to 47 s.
fn family_answers(
    board: &Board,
    cars: u32,
    base: &Outcome,
    asking: Asking,
    limits: &Limits,
) -> Result<Option<Answers>, SolveError> {
    if base.method != Produced::Forest {
        return Ok(None);
    }
    let plan = &base.plan;
    let inst = Instance::new(board, cars);
    let mut questions: Vec<solve::branch::Question> = plan
        .tickets
        .iter()
        .map(|&t| solve::branch::Question {
            inst: without_ticket(board, cars, t),
            avoid: None,
            out: Some(board.ticket(t).card),
            need: None,
        })
        .collect();
    let asked_routes: &[RouteId] = if asking.routes { &plan.routes } else { &[] };
    questions.extend(asked_routes.iter().map(|&r| solve::branch::Question {
        inst: blocked(board, cars, r),
        avoid: Some(r),
        out: None,
        need: None,
    }));
    let left_out: Vec<usize> = (0..board.cards.len())
        .filter(|&c| asking.needed && !plan.tickets.iter().any(|&t| board.ticket(t).card == c))
        .collect();
    questions.extend(left_out.iter().map(|&c| solve::branch::Question {
        inst: inst.clone(),
        avoid: None,
        out: None,
        need: Some(c),
    }));
    let mut starts = vec![plan.routes.clone()];
    starts.extend(
        plan.routes
            .iter()
            .map(|&r| plan.routes.iter().copied().filter(|&e| e != r).collect()),
    );
    let lps = (20 * base.solves).max(1000);
    let least = plan.score().saturating_sub(asking.loss);
    let (mut tickets, ended) =
        solve::family_within(&inst, &starts, &questions, least, lps, limits)?;
    let mut routes = tickets.split_off(plan.tickets.len());
    let answered = routes.split_off(asked_routes.len());
    let mut by_card = vec![None; board.cards.len()];
    for (c, answer) in left_out.into_iter().zip(answered) {
        by_card[c] = answer;
    }
    Ok(Some(Answers {
        tickets,
        routes,
        needed: by_card,
        ended,
    }))
}

/// The answers of a family of solves that finished: a solve the run's time
/// limit (or Ctrl-C) cut short adds `name(its index)` to `unfinished`, so
/// that an interrupted analysis still reports what it found; any other
/// error is the family's.
fn finished<T>(
    results: Vec<Result<T, SolveError>>,
    unfinished: &mut Vec<String>,
    name: impl Fn(usize) -> String,
) -> Result<Vec<T>, SolveError> {
    let mut done = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(v) => done.push(v),
            Err(SolveError::TimeLimit(_)) => unfinished.push(name(i)),
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// The game at `cars` cars with ticket `t` (all trips of its card) taken
/// out of it.
pub fn without_ticket(board: &Board, cars: u32, t: TicketId) -> Instance<'_> {
    let card = board.ticket(t).card;
    let mut inst = Instance::unreduced(board, cars);
    inst.tickets.retain(|&k| board.ticket(k).card != card);
    inst.tickets_in_play
        .retain(|&k| board.ticket(k).card != card);
    inst.reduced()
}

/// The optimum at `cars` cars with ticket `t` taken out, proven (past
/// `within`'s limits, [`SolveError::TimeLimit`] naming it).
fn optimum_without(
    board: &Board,
    cars: u32,
    t: TicketId,
    within: &SolveOptions,
) -> Result<Outcome, SolveError> {
    solve_proven(&without_ticket(board, cars, t), within, || {
        format!("the optimum without {} was proven", board.ticket_label(t))
    })
}

/// The game at `cars` cars with route `r` taken by an opponent.
pub fn blocked(board: &Board, cars: u32, r: RouteId) -> Instance<'_> {
    let mut inst = Instance::unreduced(board, cars);
    inst.routes.retain(|&e| e != r);
    inst.reduced()
}

/// Whether a ticket is completed by the optimal plans of a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Membership {
    /// Every optimal plan completes it.
    Every,
    /// Some optimal plans do, some do not.
    Some,
    /// No optimal plan completes it.
    None,
}

/// How far a ticket's value is from changing the optimal plans.
#[derive(Clone, Debug, Serialize)]
pub struct BreakEven {
    /// The ticket's index in [`Board::cards`].
    #[serde(skip)]
    pub card: usize,
    /// "Los Angeles – New York", or the name of a ticket with several trips.
    pub name: String,
    /// The ticket's points (its best trip's, for a ticket with several).
    pub points: u32,
    /// Whether every, some or no optimal plan completes it.
    pub membership: Membership,
    /// Best score of a plan that completes the ticket (None: no plan within
    /// the budget can).
    pub best_with: Option<u32>,
    /// Best score with the ticket taken out of the game.
    pub best_without: u32,
    /// For a ticket in no optimum: the points to add before an optimal plan
    /// completes it (at that value it ties; one more and every optimum does).
    pub raise_by: Option<u32>,
    /// For a ticket in every optimum: the points to remove before an optimal
    /// plan leaves it out (a tie). None when plans complete it even at 0
    /// points (its routes pay for themselves), and for tickets with several
    /// trips (the best plan without the ticket may still complete a lesser
    /// trip, so S − R is no break-even there; not computed).
    pub lower_by: Option<u32>,
    /// The ticket has several trips; `points` is its best trip's.
    pub several_trips: bool,
}

/// The break-even table of a budget.
#[derive(Clone, Debug)]
pub struct Balance {
    /// The budget, in train cars.
    pub cars: u32,
    /// The optimum at that budget, in points.
    pub optimum: u32,
    /// Every ticket of the board, in board order (but those in
    /// `unfinished`).
    pub tickets: Vec<BreakEven>,
    /// Every route of the reported optimal plan, with the loss if blocked;
    /// a loss of 0 means some optimum avoids it (but those in `unfinished`).
    pub routes: Vec<Impact>,
    /// Tickets and routes whose solves the run's time limit (or Ctrl-C) cut
    /// short: their rows are missing. Empty when the analysis is complete.
    pub unfinished: Vec<String>,
}

/// Ticket break-even values and route blocking costs at `cars`.
///
/// With S the optimum, S_in the best score of a plan completing ticket t
/// and R the optimum with t out of the game: some optimum completes t iff
/// S_in = S; some optimum avoids t iff R = S. Raising t's points by d adds
/// d to every plan completing it, so a ticket in no optimum ties at
/// d = S − S_in; lowering them by d makes plans without it win at d = S − R
/// (if R is reached without completing t; else never). R comes from the
/// sensitivity solves for the plan's tickets (and is S for the others);
/// S_in comes from one solve with t made worth more than everything else.
pub fn break_even(
    board: &Board,
    cars: u32,
    options: &AnalysisOptions,
) -> Result<Balance, SolveError> {
    // One forced solve per ticket the optimum does not complete (a plan
    // completes one trip per ticket at most, its best).
    let forced = |plan: &Plan| board.cards.len() - plan.tickets.len();
    let Steps {
        sensitivity: s,
        total,
        without,
        tickets_unfinished,
        needed,
    } = sensitivity_steps(board, cars, options, &forced, true)?;
    let &AnalysisOptions {
        threads,
        ref limits,
        progress,
        ..
    } = options;
    let optimum = s.base.plan.score();
    let in_plan = &s.base.plan.tickets;
    let method = forced_method(board, cars, optimum, limits);
    let solver = Rows {
        board,
        cars,
        optimum,
        in_plan,
        without: &without,
        needed: &needed,
        total,
        method,
        limits,
        progress,
    };
    let order = row_order(board, in_plan, &needed);
    let mut rows: Vec<(usize, Result<BreakEven, SolveError>)> = solve::worker_pool(threads)?
        .install(|| {
            order
                .into_iter()
                .par_bridge()
                .map(|c| (c, solver.row(c)))
                .collect()
        });
    rows.sort_by_key(|&(c, _)| c);
    let rows: Vec<Result<BreakEven, SolveError>> = rows.into_iter().map(|(_, row)| row).collect();
    let mut unfinished = Vec::new();
    let rows = finished(rows, &mut unfinished, |c| board.cards[c].name.clone())?;
    unfinished.extend_from_slice(&s.unfinished[tickets_unfinished..]);
    Ok(Balance {
        cars,
        optimum,
        tickets: rows,
        routes: s.routes,
        unfinished,
    })
}

/// Where a ticket stands at a budget: what the balance report's ticket
/// table reads of its break-even row ([`BreakEven`]).
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    /// The ticket's index in [`Board::cards`].
    pub card: usize,
    /// Whether every, some or no optimal plan completes it.
    pub membership: Membership,
    /// As [`BreakEven::raise_by`]; from [`standings_within`], `None` also
    /// where it is more than the reach asked.
    pub raise_by: Option<u32>,
    /// As [`BreakEven::lower_by`]; from [`standings_within`], `None` also
    /// where it is more than the reach asked.
    pub lower_by: Option<u32>,
}

impl From<&BreakEven> for Standing {
    fn from(row: &BreakEven) -> Standing {
        Standing {
            card: row.card,
            membership: row.membership,
            raise_by: row.raise_by,
            lower_by: row.lower_by,
        }
    }
}

/// Every ticket's [`Standing`] at `cars`, from `base`, the optimum there
/// proven already (a sweep's): whether every, some or no optimum completes
/// it, exactly, and its break-even values where they are at most `reach`
/// points (beyond, `None`). This is [`break_even`] for a caller that
/// needs the memberships and only the nearby break-evens (`tune`, whose
/// changes move a ticket a few points): its family search asks nothing of
/// the plan's routes, looks `reach` points below the optimum, and where it
/// runs to its end a question it leaves unanswered is settled by that
/// alone (its ticket's loss or gain is more than `reach`), where
/// `break_even` solves it exactly. On Europe at 45 cars those are
/// 19 proofs of about 5 s each. Questions the search does not settle are
/// solved as `break_even` solves them, so the memberships are the
/// same as its rows'. Past the call's `limits`, [`SolveError::TimeLimit`].
pub fn standings_within(
    board: &Board,
    cars: u32,
    threads: usize,
    base: Outcome,
    reach: u32,
    limits: &Limits,
) -> Result<Vec<Standing>, SolveError> {
    let within = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let optimum = base.plan.score();
    let in_plan = &base.plan.tickets;
    let card_of = |t: &TicketId| board.ticket(*t).card;
    solve::worker_pool(threads)?.install(|| {
        let asking = Asking {
            routes: false,
            needed: true,
            loss: reach,
        };
        let known = family_answers(board, cars, &base, asking, limits)?;
        let ended = known.as_ref().is_some_and(|k| k.ended);
        // 1. The optimum without each ticket of the plan, where the search
        // did not settle it (`None`: more than `reach` below the optimum).
        let without: Vec<(TicketId, Option<u32>)> = in_plan
            .par_iter()
            .with_max_len(1)
            .enumerate()
            .map(|(i, &t)| {
                let answer = known.as_ref().and_then(|k| k.tickets[i].clone());
                let score = match answer {
                    Some(outcome) => Some(outcome.plan.score()),
                    None if ended => None,
                    None => Some(optimum_without(board, cars, t, &within)?.plan.score()),
                };
                Ok((t, score))
            })
            .collect::<Result<_, SolveError>>()?;
        // 2. Each card's row: settled by the search, or as the break-even's.
        let exact: Vec<(TicketId, u32)> =
            without.iter().filter_map(|&(t, w)| Some((t, w?))).collect();
        let needed = known.map(|k| k.needed).unwrap_or_default();
        let method = forced_method(board, cars, optimum, limits);
        let rows = Rows {
            board,
            cars,
            optimum,
            in_plan,
            without: &exact,
            needed: &needed,
            total: 0,
            method,
            limits,
            progress: &|_| {},
        };
        let mut standings: Vec<Standing> = row_order(board, in_plan, &needed)
            .into_par_iter()
            .with_max_len(1)
            .map(|c| {
                let plan_trip = in_plan.iter().find(|t| card_of(t) == c);
                let settled = match plan_trip {
                    Some(t) => without.iter().any(|(k, w)| k == t && w.is_none()),
                    None => ended && needed.get(c).is_some_and(Option::is_none),
                };
                if !settled {
                    return Ok(Standing::from(&rows.row(c)?));
                }
                // Settled more than `reach` points away: in every optimum
                // (its plan ticket) or in none.
                Ok(match plan_trip {
                    Some(_) => Standing {
                        card: c,
                        membership: Membership::Every,
                        raise_by: Some(0),
                        lower_by: None,
                    },
                    None => Standing {
                        card: c,
                        membership: Membership::None,
                        raise_by: None,
                        lower_by: Some(0),
                    },
                })
            })
            .collect::<Result<_, SolveError>>()?;
        standings.sort_by_key(|s| s.card);
        Ok(standings)
    })
}

/// What every card's break-even row is computed from: the sensitivity's
/// answers, and how the rows still to solve are solved.
struct Rows<'a> {
    board: &'a Board,
    cars: u32,
    /// The optimum at `cars`.
    optimum: u32,
    /// The tickets of the optimal plan.
    in_plan: &'a [TicketId],
    /// The optimum without each ticket of the plan whose solve finished.
    without: &'a [(TicketId, u32)],
    /// By card: the best plan completing it, where the family search
    /// answered.
    needed: &'a [Option<Outcome>],
    /// Solves in all, for `progress`.
    total: usize,
    /// The method of the forced solves.
    method: Method,
    /// The call's limits.
    limits: &'a Limits,
    progress: &'a (dyn Fn(Step) + Sync),
}

impl Rows<'_> {
    /// Card c's row.
    fn row(&self, c: usize) -> Result<BreakEven, SolveError> {
        let &Rows {
            board,
            optimum,
            in_plan,
            without,
            needed,
            total,
            progress,
            ..
        } = self;
        let card = &board.cards[c];
        // A ticket with several trips counts by its best trip.
        let points = board.best_trip(card);
        let ours = |t: &TicketId| card.trips.contains(t);
        let (best_with, best_without) = if let Some(t) = in_plan.iter().find(|t| ours(t)) {
            // Its sensitivity solve was cut short: so is its row.
            let without = without.iter().find(|(k, _)| k == t).ok_or_else(|| {
                SolveError::TimeLimit(format!("the optimum without {} was proven", card.name))
            })?;
            (Some(optimum), without.1)
        } else if let Some(best) = needed.get(c).cloned().flatten() {
            // Answered by the family search.
            let w = best.plan.score();
            progress(Step {
                total,
                what: &format!("best plan with {}: {w} points", card.name),
            });
            (Some(w), optimum)
        } else {
            self.forced(card, &ours)?
        };
        Ok(break_even_row(
            c,
            card,
            points,
            optimum,
            best_with,
            best_without,
        ))
    }

    /// The best score of a plan completing `card` (`None`: no plan within
    /// the budget can), by one solve with its trips made worth more than
    /// every plan without it, and the optimum without it (the optimum: no
    /// optimal plan completes it).
    fn forced(
        &self,
        card: &Card,
        ours: &dyn Fn(&TicketId) -> bool,
    ) -> Result<(Option<u32>, u32), SolveError> {
        let &Rows {
            board,
            cars,
            optimum,
            total,
            method,
            limits,
            progress,
            ..
        } = self;
        // Every trip worth W = S − p + 1 more, p its least
        // trip's points: a plan completing the ticket then
        // scores at least p + W > S, more than any plan that
        // does not, so the best plan completes it if any plan
        // can, and scores S_in + W. (W no larger than that keeps
        // the objective balanced: with W above every plan's
        // score the branch and cut stalled at small budgets, and
        // the frontier's tables outgrew memory at large ones.)
        let least = card
            .trips
            .iter()
            .map(|&t| board.ticket(t).points)
            .min()
            .unwrap_or(0);
        let worth = optimum.saturating_sub(least) + 1;
        let mut forced = board.clone();
        for &t in &card.trips {
            forced.tickets[t.0].points += worth;
        }
        let inst = Instance::new(&forced, cars);
        let what = || format!("the break-even of {} was proven", card.name);
        // Should the frontier outgrow memory after all, the
        // branch and cut takes over (`memory_fallback`).
        let options = SolveOptions {
            method,
            memory_fallback: Some(Method::Auto),
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        let best = solve::solve(&inst, &options)?;
        if !best.proven {
            return Err(SolveError::TimeLimit(what()));
        }
        let with = best
            .plan
            .tickets
            .iter()
            .any(ours)
            .then(|| best.plan.score() - worth);
        let what = match with {
            Some(w) => format!("best plan with {}: {w} points", card.name),
            None => format!("no plan completes {}", card.name),
        };
        progress(Step { total, what: &what });
        Ok((with, optimum))
    }
}

/// Card `c`'s row from the best score of a plan completing it
/// (`best_with`) and the optimum without it (`best_without`): whether
/// every, some or no optimal plan completes it, and how far its points
/// are from changing that.
fn break_even_row(
    c: usize,
    card: &Card,
    points: u32,
    optimum: u32,
    best_with: Option<u32>,
    best_without: u32,
) -> BreakEven {
    let membership = match (best_with == Some(optimum), best_without == optimum) {
        (true, false) => Membership::Every,
        (true, true) => Membership::Some,
        _ => Membership::None,
    };
    let raise_by = match membership {
        Membership::None => best_with.map(|w| optimum - w),
        _ => Some(0),
    };
    let lower_by = match membership {
        // Plans without the ticket beat those with it once it is
        // worth less than S − R, if R is not itself reached by
        // completing the ticket (then R = S_in − points).
        Membership::Every if card.trips.len() > 1 => None,
        Membership::Every if best_without + points > optimum => Some(optimum - best_without),
        Membership::Every => None,
        _ => Some(0),
    };
    BreakEven {
        card: c,
        name: card.name.clone(),
        points,
        membership,
        best_with,
        best_without,
        raise_by,
        lower_by,
        several_trips: card.trips.len() > 1,
    }
}

/// The order the rows go to the workers in.
///
/// The forced solves go to the workers in order, each to the first one
/// free, the least valuable tickets first: the plan a long ticket forces
/// is mostly its own path, and its proof short (Europe at 45 cars: the
/// 20- and 21-point tickets 2.0-4.2 s, the 5- to 11-point ones 3.6-12.9
/// s), so the last solves to start are short ones and the two workers
/// end together. (In board order one worker ran alone for the last 9 s
/// of 68.) The cards answered already come first: they cost nothing.
fn row_order(board: &Board, in_plan: &[TicketId], needed: &[Option<Outcome>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..board.cards.len()).collect();
    order.sort_by_key(|&c| {
        let card = &board.cards[c];
        let known = in_plan.iter().any(|t| card.trips.contains(t))
            || needed.get(c).is_some_and(Option::is_some);
        (!known, board.best_trip(card), c)
    });
    order
}

/// The method of the break-even's forced solves at `cars`, whose optimum
/// is `optimum`. They are many small questions; the frontier programme
/// answers them in milliseconds where it fits this budget (the branch and
/// cut takes about a second each on Europe at 15 cars), and not at all
/// where its tables grow (the USA board at 45 cars, where the branch and
/// cut takes under a second).
fn forced_method(board: &Board, cars: u32, optimum: u32, limits: &Limits) -> Method {
    if frontier_friendly(board, cars, optimum, limits) {
        Method::Frontier
    } else {
        Method::Auto
    }
}

/// Memory the frontier programme may take in [`frontier_friendly`]'s trial.
const FRIENDLY_MEMORY: usize = 256 << 20;

/// Whether the frontier programme proves `optimum` at `cars` cars within
/// [`FRIENDLY_MEMORY`]: a cheap trial (it is told the optimum, so it prunes
/// hard) of whether the budget suits it.
///
/// The trial gives up as soon as its growth says it would pass the cap
/// (`Goal::projected`), not only once it does: it runs alone, on one core,
/// and at each shipped board's own car count it fails. Run to the cap it
/// took 1.3–2.8 s there, and 19 s on the Swiss map (27 s at 25 and 30
/// cars, where it succeeds and fails); stopped by its growth, 0.4–0.7 s
/// and 3.8 s (one run each, the slower machine of 2026-11-27 evening). Of
/// 36 budgets tried (10–35 cars on every shipped board) the verdict
/// changed at one, USA 1910 at 25 cars, whose break-even then took as long
/// by the branch and cut (32.6 s against 33.9 s, the same answers).
fn frontier_friendly(board: &Board, cars: u32, optimum: u32, limits: &Limits) -> bool {
    let inst = Instance::new(board, cars);
    if !Frontier::fits(board, &inst.routes, &inst.tickets) || inst.takes_everything() {
        return false;
    }
    let goal = Goal {
        limits: limits.clone(),
        memory: Some(FRIENDLY_MEMORY),
        projected: true,
        ..Goal::budget(cars, optimum)
    };
    Frontier::run(board, &inst.routes, &inst.tickets, &goal).is_some()
}
