//! The best plan from the middle of a game: the routes to claim with the
//! cars left, and which held tickets to complete or give up.
//!
//! The question reduces exactly to the plain problem on a derived board:
//! - an owned route costs no more cars and scores no more points (its points
//!   are already earned and reported apart): length 0, points 0;
//! - a held ticket scores +p completed and −p not: that is −p for certain
//!   plus 2p if completed, so it gets 2p points and −p is added afterwards;
//!   a held ticket with several trips scores its best completed trip, or
//!   loses its smallest trip's points m: each trip gets p + m, and −m is
//!   added afterwards (for one trip, m = p);
//! - routes closed by opponents are left out, as are the other tracks of a
//!   city pair the player owns a track of, and tickets not held are in
//!   play only if the player may still draw tickets.
//!
//! With stations (Europe), three steps, each a proof of its own
//! ([`Proof`]): the plain problem above; its relaxation with every route a
//! station may borrow free (`relaxed_bound`), which proves most states
//! gain nothing from a station; and, where it does not, the stations as
//! routes of the plain problem with rows of their own, proven by the
//! forest model's branch and cut (the `stations` module). The paper's flow
//! model with stations ([`crate::model::stations`]) is kept as the
//! reference the tests hold these against ([`replan_by_model`]).
//!
//! The derived board breaks one invariant of a loaded [`Board`] (routes of
//! length 0); it lives only inside [`replan`]. The final network (owned plus
//! new routes) is re-checked on the real board by the union-find verifier,
//! and the stations' borrowings by the rules.

mod stations;

use serde::Serialize;

use crate::board::graph::BoardGraph;
use crate::board::verify::{evaluate, VerifyError};
use crate::board::{Board, PairId, Route, RouteId, TicketId};
use crate::engine::state::GameState;
use crate::model::stations::{self as paper, Borrow, Borrowing};
use crate::model::{Instance, Plan};
use crate::solve::frontier::{Frontier, Goal};
use crate::solve::{solve, Outcome, Produced, SolveError, SolveOptions, Stop};
use stations::Stations;

/// The answer for a game state.
#[derive(Clone, Debug)]
pub struct Replan {
    /// The solve of the derived problem (method, proof, timings). Its plan is
    /// in the derived board's terms; use the fields below.
    pub outcome: Outcome,
    /// Routes the player owns, and the points they already earned.
    pub owned: Vec<RouteId>,
    /// Points of the owned routes, already earned.
    pub owned_points: u32,
    /// Routes to claim, their cars and points.
    pub claim: Vec<RouteId>,
    /// Train cars the routes to claim take.
    pub claim_cars: u32,
    /// Points the routes to claim score.
    pub claim_points: u32,
    /// Held tickets the final network completes, and those it gives up.
    pub completed: Vec<TicketId>,
    /// Held tickets none of whose trips the final network completes, each by
    /// its smallest trip (the points lost).
    pub lost: Vec<TicketId>,
    /// Tickets not held that the plan completes (only when tickets may still
    /// be drawn): draw them if they come up.
    pub drawn: Vec<TicketId>,
    /// The stations' borrowings of the plan (built stations and new ones,
    /// other players' routes counted for tickets), on a board with stations.
    pub borrowed: Vec<Borrow>,
    /// Points of the stations the plan leaves unbuilt (0 on a board
    /// without stations).
    pub station_points: u32,
    /// The final score: owned and new route points, held tickets ±, drawn
    /// tickets, unbuilt stations.
    pub score: i64,
    /// Proven upper bound on the final score (= `score` when proven optimal).
    pub bound: i64,
    /// What proved the bound.
    pub proof: Proof,
}

/// What proved a replan's bound: on a board with stations, whether the
/// stations' model ran or a relaxation showed that no station can help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Proof {
    /// The plain problem alone: no station may borrow a route (a board
    /// without stations, no other player's route, or no station left to
    /// build and none built beside one).
    Plain,
    /// The plain problem, and its relaxation with every borrowable route
    /// free (as if owned, no station's points lost) scores no more: no
    /// station can help.
    Relaxation,
    /// The forest model's branch and cut with the stations, every
    /// borrowing a route of its own.
    Stations,
    /// The paper's flow model with the stations, every borrowing a
    /// variable (the reference the tests hold the others against).
    PaperStations,
}

impl Proof {
    /// The proof in words, for the reports.
    pub fn describe(self) -> &'static str {
        match self {
            Proof::Plain => "the plan without stations (none may borrow a route)",
            Proof::Relaxation => {
                "the plan without stations, and every borrowable route free scores no more"
            }
            Proof::Stations => "the branch and cut with the stations (every borrowing a route)",
            Proof::PaperStations => "the paper's flow model with the stations",
        }
    }
}

impl Replan {
    /// Points still to gain from now: the final score minus the points already earned.
    pub fn to_gain(&self) -> i64 {
        self.score - self.owned_points as i64
    }
}

/// The instance a state leaves to solve, on its derived board: the routes
/// still open to the player, the tickets in play.
fn instance<'d>(board: &Board, state: &GameState, derived: &'d Board) -> Instance<'d> {
    open_instance(board, state, derived).reduced()
}

/// [`instance`] before its preprocessing: a ticket too far over the open
/// routes may still be completed through a station's borrowed route.
fn open_instance<'d>(board: &Board, state: &GameState, derived: &'d Board) -> Instance<'d> {
    let mut inst = Instance::unreduced(derived, state.cars_left);
    // Closed routes are out, and so are the other tracks of a pair the
    // player owns a track of (one track of a pair per player).
    let owns_pair = |r: RouteId| {
        state
            .owned
            .iter()
            .any(|t| t.route != r && board.route(t.route).pair == board.route(r).pair)
    };
    inst.routes
        .retain(|&r| !state.is_blocked(board, r) && !owns_pair(r));
    let held = held_cards(board, state);
    inst.tickets
        .retain(|&t| state.may_draw || held.contains(&board.ticket(t).card));
    inst.tickets_in_play = inst.tickets.clone();
    inst
}

/// Whether some plan from `state` ends above a score, from [`clears`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bar {
    /// No plan scores more.
    Below,
    /// One does: an optimal plan's routes, owned ones included, and its
    /// final score, counted by the union-find verifier ([`held_score`]).
    Above {
        /// The plan's routes, owned ones included.
        routes: Vec<RouteId>,
        /// Its final score, as [`replan`] counts it.
        score: i64,
    },
}

/// Whether some plan from `state` ends above `score` points (the final
/// score as [`replan`] counts it). The frontier programme alone answers,
/// with `score` as its bar: a state that cannot clear it is dropped as soon
/// as it appears, so a "no" costs a fraction of a solve. `None` where the
/// programme cannot answer (a board past its limits, or its memory).
pub fn clears(board: &Board, state: &GameState, score: i64) -> Option<Bar> {
    bar_run(board, state, score, false)
}

/// [`clears`], for a caller who knows that no plan leaving a held ticket
/// incomplete ends above `score` (the deal's keeps: such a plan scores less
/// than the keep without that ticket, which scored at most `score`). The
/// programme then drops a partial plan as soon as it loses a ticket, and
/// needs the cars of every open ticket at once: a "no" costs a fraction of
/// [`clears`]'s, a "yes" gives the same optimum.
pub fn clears_completing(board: &Board, state: &GameState, score: i64) -> Option<Bar> {
    bar_run(board, state, score, true)
}

fn bar_run(board: &Board, state: &GameState, score: i64, complete: bool) -> Option<Bar> {
    // The programme knows no stations: a state that may borrow is left to
    // replan.
    if state.stations.is_some() {
        return None;
    }
    let derived = derive(board, state);
    let inst = instance(board, state, &derived);
    // A held card none of whose trips the budget allows is lost by every plan.
    let reachable = |c: usize| {
        board.cards[c]
            .trips
            .iter()
            .any(|t| inst.tickets.contains(t))
    };
    if complete && !held_cards(board, state).into_iter().all(reachable) {
        return Some(Bar::Below);
    }
    // replan's score is the programme's objective (on the derived board:
    // new routes, held tickets worth their points and their penalty) plus
    // the owned routes' points, less every held ticket's penalty.
    let owned = owned_points(board, state);
    let penalties = held_points(board, state);
    let bar = u32::try_from(score - owned + penalties + 1).ok()?;
    if bar == 0 || !Frontier::fits(inst.board, &inst.routes, &inst.tickets) {
        return None;
    }
    let dp = Frontier::run(
        inst.board,
        &inst.routes,
        &inst.tickets,
        &Goal {
            complete,
            ..Goal::budget(inst.cars, bar)
        },
    )?;
    if dp.best(inst.cars) < bar {
        return Some(Bar::Below);
    }
    // Every state that could reach the bar survives its pruning, so the
    // best left is the optimum: checked on the real board as replan checks
    // its plans (the cars, one track of a pair, the score counted by the
    // verifier against the programme's), or left to a solve (`None`).
    let mut routes = dp.plan(inst.cars).0;
    routes.extend(state.owned.iter().map(|t| t.route));
    routes.sort();
    routes.dedup();
    let claim: Vec<RouteId> = routes
        .iter()
        .copied()
        .filter(|&r| !state.owned.iter().any(|t| t.route == r))
        .collect();
    let score = held_score(board, state, &routes);
    let expected = dp.best(inst.cars) as i64 + owned - penalties;
    let sound = check_claim(board, state, &claim, &routes).is_ok() && score == expected;
    debug_assert!(sound, "the programme's plan for {state:?} does not check");
    sound.then_some(Bar::Above { routes, score })
}

/// Solves the rest of the game from `state` on `board`. Where the state has
/// stations that may borrow a route, the plan without them is improved by
/// the stations' model ([`crate::model::stations`]).
pub fn replan(
    board: &Board,
    state: &GameState,
    options: &SolveOptions,
) -> Result<Replan, SolveError> {
    replan_as(board, state, options, StationModel::Forest, true)
}

/// [`replan`] with the stations' `model` run on every state with stations,
/// never skipped on the relaxation's word: what the tests hold [`replan`]
/// and its shortcut against.
pub fn replan_by_model(
    board: &Board,
    state: &GameState,
    options: &SolveOptions,
    model: StationModel,
) -> Result<Replan, SolveError> {
    replan_as(board, state, options, model, false)
}

/// A model of the stations, for [`replan_by_model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StationModel {
    /// The forest model's branch and cut, each borrowing a route of its own
    /// ([`replan`]'s).
    Forest,
    /// The paper's flow model with a variable per borrowing
    /// ([`crate::model::stations`]).
    Paper,
}

/// [`replan`], the stations by `model`, the plan without stations kept on
/// the relaxation's proof where `relaxation` allows.
fn replan_as(
    board: &Board,
    state: &GameState,
    options: &SolveOptions,
    model: StationModel,
    relaxation: bool,
) -> Result<Replan, SolveError> {
    let derived = derive(board, state);
    let inst = instance(board, state, &derived);
    let outcome = solve(&inst, options)?;
    let plain = answer(board, state, outcome, Vec::new())?;
    let Some(borrowing) = borrowing(board, state) else {
        return Ok(plain);
    };
    // No station may borrow a route: the plain problem is the whole question.
    if borrowing.options.is_empty() {
        return Ok(plain);
    }
    let clock = std::time::Instant::now();
    // Most states gain nothing from a station: with every borrowable route
    // free, the fast methods prove it, and the plan without one stands.
    let relaxed = if relaxation {
        Some(relaxed_bound(board, state, &derived, &borrowing, options)?)
    } else {
        None
    };
    if plain.outcome.proven && relaxed.as_ref().is_some_and(|r| r.bound <= plain.score) {
        let seconds = plain.outcome.seconds + clock.elapsed().as_secs_f64();
        return Ok(Replan {
            proof: Proof::Relaxation,
            outcome: Outcome {
                seconds,
                ..plain.outcome
            },
            ..plain
        });
    }
    let own = options.time_limit.or(Some(STATION_SECONDS));
    let options = SolveOptions {
        limits: options.limits.within(own),
        time_limit: None,
        ..options.clone()
    };
    let (mut outcome, borrowed) = match model {
        StationModel::Forest => {
            let stations = Stations {
                board,
                state,
                derived: &derived,
                borrowing: &borrowing,
            };
            stations.solve(&plain, relaxed.as_ref(), &options)?
        }
        StationModel::Paper => paper_stations(board, state, &derived, borrowing, &plain, &options)?,
    };
    outcome.seconds = plain.outcome.seconds + clock.elapsed().as_secs_f64();
    outcome.solves += plain.outcome.solves;
    outcome.nodes += plain.outcome.nodes;
    let proof = match model {
        StationModel::Forest => Proof::Stations,
        StationModel::Paper => Proof::PaperStations,
    };
    let better = answer(board, state, outcome, borrowed)?;
    let relaxed = relaxed.map_or(i64::MAX, |r| r.bound);
    Ok(better_of(plain, Replan { proof, ..better }, relaxed))
}

/// The better of the plan without stations and the stations' model's
/// (`plain` on a tie), with the model's proof, or the relaxation's bound
/// (`relaxed`) where it is the tighter.
fn better_of(plain: Replan, mut better: Replan, relaxed: i64) -> Replan {
    if better.score > plain.score {
        better.bound = better.bound.min(relaxed).max(better.score);
        if better.bound == better.score {
            better.outcome.proven = true;
            better.outcome.stop = Stop::Optimal;
        }
        return better;
    }
    let bound = better.bound.min(relaxed).max(plain.score);
    let proven = bound == plain.score;
    Replan {
        bound,
        proof: better.proof,
        outcome: Outcome {
            stop: if proven {
                Stop::Optimal
            } else {
                better.outcome.stop
            },
            proven,
            method: Produced::Stations,
            seconds: better.outcome.seconds,
            solves: better.outcome.solves,
            nodes: better.outcome.nodes,
            ..plain.outcome
        },
        ..plain
    }
}

/// The answer of a solve on the derived board: its routes (`outcome`'s
/// plan, and the borrowings `borrowed`) checked and scored on the real board.
fn answer(
    board: &Board,
    state: &GameState,
    outcome: Outcome,
    borrowed: Vec<Borrow>,
) -> Result<Replan, SolveError> {
    let cards = held_cards(board, state);
    let held = |t: &TicketId| cards.contains(&board.ticket(*t).card);

    let owned: Vec<RouteId> = state.owned.iter().map(|t| t.route).collect();
    let claim: Vec<RouteId> = outcome
        .plan
        .routes
        .iter()
        .copied()
        .filter(|r| !owned.contains(r))
        .collect();
    let held_points = held_points(board, state);

    // The independent check, on the real board: the owned and new routes
    // together, the routes the stations borrow, and every ticket that can
    // score.
    let mut network = owned.clone();
    network.extend(&claim);
    network.sort();
    let fail = |what: String| -> Result<Replan, SolveError> { Err(VerifyError(what).into()) };
    if let Err(what) = check_claim(board, state, &claim, &network) {
        return fail(what);
    }
    if let Err(what) = check_borrowed(board, state, &borrowed) {
        return fail(what);
    }
    let in_play: Vec<TicketId> = board
        .ticket_ids()
        .filter(|t| state.may_draw || held(t))
        .collect();
    let eval = evaluate(board, &with_borrowed(&network, &borrowed), &in_play);
    let route_points =
        |routes: &[RouteId]| -> u32 { routes.iter().map(|&r| board.route(r).points).sum() };
    let points = |tickets: &[TicketId]| -> i64 {
        tickets.iter().map(|&t| board.ticket(t).points as i64).sum()
    };
    let claim_cars = cars_of(board, &claim);
    let (completed, drawn): (Vec<TicketId>, Vec<TicketId>) =
        eval.completed.iter().copied().partition(|t| held(t));
    // A held ticket none of whose trips scores is lost, at its smallest trip.
    let lost: Vec<TicketId> = cards
        .iter()
        .copied()
        .filter(|&c| !completed.iter().any(|&t| board.ticket(t).card == c))
        .map(|c| cheapest_trip(board, c))
        .collect();
    let owned_points = route_points(&owned);
    let claim_points = route_points(&claim);
    let station_points = unbuilt_points(board, state, &borrowed);
    let score = owned_points as i64 + claim_points as i64 + points(&completed) - points(&lost)
        + points(&drawn)
        + station_points as i64;

    // The derived objective is the final score, less the owned points, the
    // certain −p of the held tickets and the points of every station still
    // to build (the stations' model counts off those it builds).
    // (Owned routes the solver left out can only add tickets, and only to a
    // plan not proven optimal.)
    let constant = owned_points as i64 - held_points + unbuilt_points(board, state, &[]) as i64;
    let built = borrowed.iter().filter(|b| b.new).count() as i64;
    let objective = outcome.plan.score() as i64 - built * station_worth(board) as i64;
    let expected = objective + constant;
    if score < expected || (outcome.proven && score != expected) {
        return fail(format!(
            "the solver's plan is worth {expected} in the game, but its network scores {score}"
        ));
    }
    let bound = outcome.bound as i64 + constant;
    Ok(Replan {
        outcome,
        owned,
        owned_points,
        claim,
        claim_cars,
        claim_points,
        completed,
        lost,
        drawn,
        borrowed,
        station_points,
        score,
        bound,
        proof: Proof::Plain,
    })
}

/// The final score of `network` (every route the player would own) for the
/// tickets `state` holds, as [`replan`] counts it: route points, each held
/// card's best completed trip, or minus its smallest trip; the tickets by
/// the union-find verifier.
pub fn held_score(board: &Board, state: &GameState, network: &[RouteId]) -> i64 {
    let cards = held_cards(board, state);
    let trips: Vec<TicketId> = cards
        .iter()
        .flat_map(|&c| board.cards[c].trips.iter().copied())
        .collect();
    // `completed` holds each card's best connected trip, at most one a card.
    let eval = evaluate(board, network, &trips);
    let lost: u32 = cards
        .iter()
        .filter(|&&c| !eval.completed.iter().any(|&t| board.ticket(t).card == c))
        .map(|&c| penalty(board, c))
        .sum();
    eval.score() as i64 - lost as i64
}

/// The borrowings `state`'s stations allow: every route of another player
/// into a city where the player has a station, or where one may still be
/// built (no station of anyone there). `None` without stations.
fn borrowing(board: &Board, state: &GameState) -> Option<Borrowing> {
    let stations = state.stations.as_ref()?;
    let mut lent: Vec<RouteId> = state
        .taken
        .iter()
        .map(|t| t.route)
        .filter(|&r| !state.owned.iter().any(|t| t.route == r))
        .collect();
    lent.sort();
    lent.dedup();
    let mut options = Vec::new();
    for route in lent {
        let r = board.route(route);
        for city in [r.a, r.b] {
            if stations.built.contains(&city) {
                options.push(Borrow {
                    city,
                    route,
                    new: false,
                });
            } else if stations.left > 0 && !stations.others.contains(&city) {
                options.push(Borrow {
                    city,
                    route,
                    new: true,
                });
            }
        }
    }
    options.sort();
    Some(Borrowing {
        options,
        left: stations.left,
        points: station_worth(board),
    })
}

/// Points a station never built scores (0 on a board without stations).
fn station_worth(board: &Board) -> u32 {
    board.rules.stations.as_ref().map_or(0, |s| s.points)
}

/// Points of the stations left unbuilt when the plan builds those of
/// `borrowed` that are new.
fn unbuilt_points(board: &Board, state: &GameState, borrowed: &[Borrow]) -> u32 {
    let Some(stations) = &state.stations else {
        return 0;
    };
    let built = borrowed.iter().filter(|b| b.new).count() as u32;
    stations.left.saturating_sub(built) * station_worth(board)
}

/// `network` with the borrowed routes: what the tickets are counted on.
fn with_borrowed(network: &[RouteId], borrowed: &[Borrow]) -> Vec<RouteId> {
    let mut all = network.to_vec();
    all.extend(borrowed.iter().map(|b| b.route));
    all.sort();
    all.dedup();
    all
}

/// The stations' rule, checked on a plan's borrowings: each is another
/// player's route into the station's city; a city holds one station, of
/// the player's own or a new one where nobody has one; a station borrows
/// one route; no more stations are built than are left.
fn check_borrowed(board: &Board, state: &GameState, borrowed: &[Borrow]) -> Result<(), String> {
    if borrowed.is_empty() {
        return Ok(());
    }
    let Some(stations) = &state.stations else {
        return Err("the plan borrows routes, but the state has no stations".into());
    };
    let city = |b: &Borrow| board.city(b.city).name.clone();
    for (i, b) in borrowed.iter().enumerate() {
        let r = board.route(b.route);
        let theirs = state.taken.iter().any(|t| t.route == b.route)
            && !state.owned.iter().any(|t| t.route == b.route);
        if !theirs || (r.a != b.city && r.b != b.city) {
            return Err(format!(
                "the station in {} borrows {}, which is not another player's route into it",
                city(b),
                board.route_label(b.route)
            ));
        }
        if b.new == stations.built.contains(&b.city) || (b.new && stations.others.contains(&b.city))
        {
            return Err(format!(
                "the plan's station in {} is not its to build or use",
                city(b)
            ));
        }
        if borrowed[..i].iter().any(|c| c.city == b.city) {
            return Err(format!("the station in {} borrows two routes", city(b)));
        }
    }
    let new = borrowed.iter().filter(|b| b.new).count() as u32;
    if new > stations.left {
        return Err(format!(
            "the plan builds {new} stations, but {} are left",
            stations.left
        ));
    }
    Ok(())
}

/// The stations' model's time limit where the caller sets none. The
/// branch and cut with the stations proves Europe with every ticket in
/// play (`data/states/europe-draw.json`) in about 6 s of its own on two
/// cores (`output/bench/replan.md`); the paper's flow model, its reference,
/// was still 107 points from its bound there after 120 s. Past this limit
/// the answer is the best plan found, with its honest bound.
pub const STATION_SECONDS: f64 = 30.0;

/// The stations by the paper's flow model ([`crate::model::stations`]),
/// started from the plan without them: its answer in the derived board's
/// terms, and the borrowings it uses.
fn paper_stations(
    board: &Board,
    state: &GameState,
    derived: &Board,
    borrowing: Borrowing,
    plain: &Replan,
    options: &SolveOptions,
) -> Result<(Outcome, Vec<Borrow>), SolveError> {
    let mut lent: Vec<RouteId> = borrowing.options.iter().map(|b| b.route).collect();
    lent.sort();
    lent.dedup();
    let mut inst = open_instance(board, state, derived);
    inst.routes
        .retain(|&r| derived.route(r).length <= inst.cars);
    // A ticket whose cities no plan joins within the cars, the borrowable
    // routes free, cannot score (the preprocessing of `Instance::reduced`,
    // with the stations).
    let graph = BoardGraph::new(derived, inst.routes.iter().chain(&lent).copied());
    let cost = |r: RouteId| {
        if lent.contains(&r) {
            0
        } else {
            derived.route(r).length
        }
    };
    // One search per ticket start, as `Instance::reduced` does.
    let mut from = std::collections::HashMap::new();
    inst.tickets.retain(|&t| {
        let ticket = derived.ticket(t);
        let distances = from
            .entry(ticket.a)
            .or_insert_with(|| graph.distances(ticket.a, cost));
        distances[ticket.b.0].is_some_and(|d| d <= inst.cars)
    });
    let mut start = plain.claim.clone();
    start.extend(&plain.owned);
    start.retain(|r| inst.routes.contains(r));
    let limits = &options.limits;
    let found = paper::solve(&inst, &borrowing, &start, limits.left())?;
    let lent = with_borrowed(&found.routes, &found.borrowed);
    let eval = evaluate(derived, &lent, &inst.tickets);
    let route_points: u32 = found.routes.iter().map(|&r| derived.route(r).points).sum();
    let plan = Plan {
        cars_used: cars_of(derived, &found.routes),
        route_points,
        ticket_points: eval.ticket_points,
        tickets: eval.completed,
        routes: found.routes,
    };
    let stop = if found.optimal {
        Stop::Optimal
    } else {
        limits.why().unwrap_or(Stop::WorkLimit)
    };
    let outcome = Outcome {
        plan,
        stop,
        proven: found.optimal,
        bound: u32::try_from(found.bound.max(0)).unwrap_or(u32::MAX),
        seconds: 0.0,
        method: Produced::Stations,
        solves: 1,
        cuts: 0,
        nodes: found.nodes,
    };
    Ok((outcome, found.borrowed))
}

/// An upper bound on the final score of every plan from `state` with
/// stations: the plain problem with a free copy of every borrowable route
/// (`lent`), as if owned, and no station's points lost, solved by the fast
/// methods.
///
/// The copies are routes of their own beside the originals, each of a
/// city pair of its own: with 4 or 5 players a double route may be both
/// borrowable (another player holds one track) and claimable (the other
/// track), and the relaxation must still let the plan claim it for its
/// points and connect through its copy for free.
fn relaxed_bound(
    board: &Board,
    state: &GameState,
    derived: &Board,
    borrowing: &Borrowing,
    options: &SolveOptions,
) -> Result<Relaxed, SolveError> {
    let mut lent: Vec<RouteId> = borrowing.options.iter().map(|b| b.route).collect();
    lent.sort();
    lent.dedup();
    let mut relaxed = derived.clone();
    let copies: Vec<RouteId> = lent
        .iter()
        .map(|&r| {
            let copy = Route {
                points: 0,
                ..derived.route(r).clone()
            };
            add_free_route(&mut relaxed, copy)
        })
        .collect();
    let open = open_instance(board, state, derived);
    let mut routes = open.routes;
    routes.extend(copies);
    let inst = Instance {
        board: &relaxed,
        cars: open.cars,
        routes,
        tickets: open.tickets,
        tickets_in_play: open.tickets_in_play,
        at_most: Vec::new(),
        score_at_most: None,
    };
    let outcome = solve(&inst.reduced(), options)?;
    let owned = owned_points(board, state);
    let real = derived.routes.len();
    let routes = &outcome.plan.routes;
    Ok(Relaxed {
        bound: outcome.bound as i64 + owned - held_points(board, state)
            + unbuilt_points(board, state, &[]) as i64,
        claim: routes.iter().copied().filter(|r| r.0 < real).collect(),
        lent: routes
            .iter()
            .filter_map(|r| r.0.checked_sub(real).map(|i| lent[i]))
            .collect(),
    })
}

/// Adds `route` to `board` with no cars, as a city pair of its own (so
/// that a plan may hold it beside the route it copies): its id.
fn add_free_route(board: &mut Board, mut route: Route) -> RouteId {
    let id = RouteId(board.routes.len());
    route.length = 0;
    route.pair = PairId(board.pairs.len());
    board.pairs.push(vec![id]);
    board.routes.push(route);
    id
}

/// The relaxation's answer ([`relaxed_bound`]).
struct Relaxed {
    /// Its bound on the final score of every plan with stations.
    bound: i64,
    /// Its plan's routes to claim (owned ones among them).
    claim: Vec<RouteId>,
    /// The borrowable routes its plan counts as if owned.
    lent: Vec<RouteId>,
}

/// Points of the routes `state`'s player owns, already earned.
fn owned_points(board: &Board, state: &GameState) -> i64 {
    state
        .owned
        .iter()
        .map(|t| board.route(t.route).points as i64)
        .sum()
}

/// Train cars `routes` take.
fn cars_of(board: &Board, routes: &[RouteId]) -> u32 {
    routes.iter().map(|&r| board.route(r).length).sum()
}

/// What a plan from `state` must satisfy on the real board beyond its
/// score: the new routes (`claim`) fit the cars left and none is closed by
/// an opponent, and the whole network (`network`: owned and new) holds at
/// most one track of a city pair. The message says what fails.
fn check_claim(
    board: &Board,
    state: &GameState,
    claim: &[RouteId],
    network: &[RouteId],
) -> Result<(), String> {
    let cars = cars_of(board, claim);
    if cars > state.cars_left {
        return Err(format!(
            "the new routes need {cars} cars but {} are left",
            state.cars_left
        ));
    }
    if let Some(&r) = claim.iter().find(|&&r| state.is_blocked(board, r)) {
        return Err(format!(
            "the plan claims {}, which opponents have closed",
            board.route_label(r)
        ));
    }
    if let Some((a, b)) = board.same_pair(network) {
        return Err(format!(
            "the plan holds two tracks of one city pair: {} and {}",
            board.route_label(a),
            board.route_label(b)
        ));
    }
    Ok(())
}

/// The board as the rest of the game sees it (see the module comment).
fn derive(board: &Board, state: &GameState) -> Board {
    let mut derived = board.clone();
    derived.cars = state.cars_left;
    derived.warnings.clear();
    for t in &state.owned {
        let route = &mut derived.routes[t.route.0];
        route.length = 0;
        route.points = 0;
    }
    for c in held_cards(board, state) {
        let m = penalty(board, c);
        for &t in &board.cards[c].trips {
            derived.tickets[t.0].points += m;
        }
    }
    derived
}

/// The cards of the held tickets, in order.
fn held_cards(board: &Board, state: &GameState) -> Vec<usize> {
    let mut cards: Vec<usize> = state
        .tickets
        .iter()
        .map(|&t| board.ticket(t).card)
        .collect();
    cards.sort();
    cards.dedup();
    cards
}

/// What the held cards lose if none is completed: the certain −p that the
/// derived board adds back to each held ticket's points.
fn held_points(board: &Board, state: &GameState) -> i64 {
    held_cards(board, state)
        .iter()
        .map(|&c| penalty(board, c) as i64)
        .sum()
}

/// The trip with the fewest points of a card: what the card loses if no
/// trip is completed.
fn cheapest_trip(board: &Board, card: usize) -> TicketId {
    *board.cards[card]
        .trips
        .iter()
        .min_by_key(|&&t| (board.ticket(t).points, t))
        .expect("a card has a trip")
}

fn penalty(board: &Board, card: usize) -> u32 {
    board.ticket(cheapest_trip(board, card)).points
}

/// A route or ticket row of the replan report.
#[derive(Serialize)]
pub struct Row {
    /// "Los Angeles – New York".
    pub name: String,
    /// Points: a route's; a ticket's, negative for one given up.
    pub points: i64,
    /// Train cars (routes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
}

/// The answer to `replan`, in the documented JSON schema.
#[derive(Serialize)]
pub struct ReplanReport {
    /// The board's short name.
    pub board: String,
    /// Players in the game (2–5).
    pub players: u32,
    /// Train cars the player has left.
    pub cars_left: u32,
    /// Final score: `owned_points + claim_points + ticket_points`.
    pub score: i64,
    /// Points still to gain: `score` minus `owned_points`.
    pub to_gain: i64,
    /// Points of the owned routes, already earned.
    pub owned_points: u32,
    /// Points of the routes to claim.
    pub claim_points: u32,
    /// Train cars the routes to claim take (at most `cars_left`).
    pub claim_cars: u32,
    /// Held tickets completed (+) and lost (−), and drawn tickets completed.
    pub ticket_points: i64,
    /// Whether the plan is proven optimal or the time limit cut the solve
    /// short.
    pub status: crate::solve::Status,
    /// Proven upper bound on the final score (= `score` when optimal).
    pub bound: i64,
    /// Wall-clock time of the solve, in seconds (to the millisecond).
    pub seconds: f64,
    /// The method that produced the answer.
    pub method: crate::solve::Produced,
    /// What proved `bound`: `plain` (no station may borrow a route),
    /// `relaxation` (every borrowable route free scores no more than the
    /// plan without stations) or `stations` (the stations' model).
    pub proof: Proof,
    /// The routes to claim.
    pub claim: Vec<Row>,
    /// Held tickets the plan completes.
    pub completed: Vec<Row>,
    /// Held tickets the plan gives up, with their points negative.
    pub lost: Vec<Row>,
    /// Tickets not held that the plan completes: worth drawing for (only when
    /// the state allows drawing).
    pub drawn: Vec<Row>,
    /// The routes the player already owns.
    pub owned: Vec<Row>,
    /// On a board with stations: the stations the plan uses, each with the
    /// other player's route it borrows for tickets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stations: Option<Vec<StationRow>>,
    /// On a board with stations: the points of the stations the plan
    /// leaves unbuilt (part of `score`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub station_points: Option<u32>,
}

/// A station of the replan report.
#[derive(Serialize)]
pub struct StationRow {
    /// The station's city.
    pub city: String,
    /// The other player's route it borrows, "Wien – Budapest".
    pub borrows: String,
    /// Whether the station is still to build (its points are then lost).
    pub new: bool,
}

impl ReplanReport {
    /// The report of `r`, the answer for `state` on `board`.
    pub fn new(board: &Board, state: &GameState, r: &Replan) -> ReplanReport {
        let route = |&id: &RouteId| Row {
            name: board.route_label(id),
            points: board.route(id).points as i64,
            length: Some(board.route(id).length),
        };
        let ticket = |sign: i64| {
            move |&id: &TicketId| Row {
                name: board.ticket_label(id),
                points: sign * board.ticket(id).points as i64,
                length: None,
            }
        };
        let completed: Vec<Row> = r.completed.iter().map(ticket(1)).collect();
        let lost: Vec<Row> = r.lost.iter().map(ticket(-1)).collect();
        let drawn: Vec<Row> = r.drawn.iter().map(ticket(1)).collect();
        let ticket_points = completed
            .iter()
            .chain(&lost)
            .chain(&drawn)
            .map(|t| t.points)
            .sum();
        ReplanReport {
            board: board.name.clone(),
            players: state.players,
            cars_left: state.cars_left,
            score: r.score,
            to_gain: r.to_gain(),
            owned_points: r.owned_points,
            claim_points: r.claim_points,
            claim_cars: r.claim_cars,
            ticket_points,
            status: r.outcome.status(),
            bound: r.bound,
            seconds: (r.outcome.seconds * 1000.0).round() / 1000.0,
            method: r.outcome.method,
            proof: r.proof,
            claim: r.claim.iter().map(route).collect(),
            completed,
            lost,
            drawn,
            owned: r.owned.iter().map(route).collect(),
            stations: state.stations.as_ref().map(|_| {
                r.borrowed
                    .iter()
                    .map(|b| StationRow {
                        city: board.city(b.city).name.clone(),
                        borrows: board.route_label(b.route),
                        new: b.new,
                    })
                    .collect()
            }),
            station_points: state.stations.as_ref().map(|_| r.station_points),
        }
    }

    /// The human-readable table.
    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Replan on {} with {} players: {} train cars left",
            self.board, self.players, self.cars_left
        );
        let verdict = match self.status {
            crate::solve::Status::Optimal => "Best final score",
            crate::solve::Status::TimeLimit => "Best final score found (NOT proven optimal)",
        };
        let _ = writeln!(
            out,
            "{verdict}: {} points ({} already earned from {} owned routes, {} still to gain)",
            self.score,
            self.owned_points,
            self.owned.len(),
            self.to_gain
        );
        let stations = self
            .station_points
            .map(|p| format!(" + {p} points of stations left unbuilt"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  = {} owned route points + {} new route points + {} ticket points{stations}",
            self.owned_points, self.claim_points, self.ticket_points
        );
        let _ = writeln!(
            out,
            "Proof: upper bound {}, method {}, {:.2} s",
            self.bound,
            serde_json::to_value(self.method)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            self.seconds
        );
        if self.stations.is_some() {
            let _ = writeln!(out, "  bound from {}", self.proof.describe());
        }
        let section = |out: &mut String, title: &str, rows: &[Row], cars: bool| {
            let _ = writeln!(out, "\n{title}");
            if rows.is_empty() {
                let _ = writeln!(out, "  (none)");
            }
            for row in rows {
                let length = match (cars, row.length) {
                    (true, Some(1)) => "     1 car".to_string(),
                    (true, Some(l)) => format!("{l:>6} cars"),
                    _ => String::new(),
                };
                let _ = writeln!(out, "  {:<34} {:>6}{length}", row.name, row.points);
            }
        };
        section(
            &mut out,
            &format!("Routes to claim ({} cars)", self.claim_cars),
            &self.claim,
            true,
        );
        section(&mut out, "Held tickets to complete", &self.completed, false);
        section(
            &mut out,
            "Held tickets to give up (their points are lost)",
            &self.lost,
            false,
        );
        if let Some(stations) = self.stations.as_ref().filter(|s| !s.is_empty()) {
            let _ = writeln!(
                out,
                "\nStations (each counts one other player's route for tickets)"
            );
            for s in stations {
                let what = if s.new {
                    "build, then borrow"
                } else {
                    "borrows"
                };
                let _ = writeln!(out, "  {:<20} {what} {}", s.city, s.borrows);
            }
        }
        if !self.drawn.is_empty() {
            section(
                &mut out,
                "Tickets worth drawing for (not held; an upper bound, the draw is luck)",
                &self.drawn,
                false,
            );
        }
        out
    }
}
