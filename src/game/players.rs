//! Simulated players behind one trait: a random legal player, the greedy
//! strategy of the C# simulation (`shared/seeds/` 000–001), a planner
//! that follows the exact partial-game optimum ([`crate::game::replan`]),
//! a Monte Carlo tree search player ([`crate::game::mcts`]), and the four
//! playing styles of de Mesentier Silva et al. (2017)
//! ([`crate::game::styles`]), and the search player, the planner with a
//! clock ([`crate::game::search`]).
//!
//! A strategy reads the game through `&Game` and by convention uses only
//! what its player could see: the board, the face-up row, claimed routes,
//! deck sizes, and its own hand and tickets.

use std::sync::{Arc, Mutex};

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use crate::board::{Board, CityId, Colour, RouteId, TicketId};
use crate::game::replan::{clears, replan, Bar};
use crate::game::rules::{Action, Card, Expect, Game};
use crate::game::state::{GameState, Track};
use crate::game::styles;
use crate::solve::verify::StationPartition;
use crate::solve::{Method, SolveOptions};

/// A way of playing.
pub trait Strategy: Send {
    /// The strategy's name, as [`STRATEGIES`] spells it.
    fn name(&self) -> &'static str;
    /// The move of player `me`, who is to move in `game`.
    fn decide(&mut self, game: &Game, me: usize, rng: &mut ChaCha8Rng) -> Action;
    /// Shares a run's memo of plans (the planner's; others ignore it).
    fn share(&mut self, _cache: &Arc<PlanCache>) {}
}

/// Plans already solved in a run of many games, for the states every game
/// starts from: no track on the board yet (each game's first ticket choice,
/// where the same hands come back game after game). A solve is a pure
/// function of its state, so a plan from the memo is the plan a fresh solve
/// would give, whichever game put it there and in whatever order the
/// threads ran: the games stay the same for a seed.
#[derive(Default)]
pub struct PlanCache {
    plans: Mutex<FxHashMap<PlanKey, Option<(Plan, i64)>>>,
}

/// A memo entry's state: players, cars, the tickets held in order.
type PlanKey = (u32, u32, Vec<TicketId>);

/// The strategies by name, as `ttr-opt simulate --players` spells them.
pub const STRATEGIES: [&str; 9] = [
    "random",
    "greedy",
    "planner",
    "mcts",
    "route-focus",
    "destination-hungry",
    "one-step",
    "long-route",
    "search",
];

/// Players at one table: the fewest and the most.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=5;

/// Checks a table's strategies: 2 to 5 of them, each a known name; the
/// message says what is wrong.
pub fn check_players(names: &[&str]) -> Result<(), String> {
    if let Some(bad) = names.iter().find(|n| by_name(n).is_none()) {
        return Err(format!(
            "unknown strategy {bad:?} (known: {})",
            STRATEGIES.join(", ")
        ));
    }
    if !SEATS.contains(&names.len()) {
        return Err(format!(
            "{} strategies named; a game has {} to {} players",
            names.len(),
            SEATS.start(),
            SEATS.end()
        ));
    }
    Ok(())
}

/// A fresh player of the named strategy.
pub fn by_name(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(Random)),
        "greedy" => Some(Box::new(Greedy)),
        "planner" => Some(Box::new(Planner::default())),
        "mcts" => Some(Box::new(crate::game::mcts::Mcts::default())),
        "route-focus" => Some(Box::new(styles::RouteFocus)),
        "destination-hungry" => Some(Box::new(styles::DestinationHungry)),
        "one-step" => Some(Box::new(styles::OneStep)),
        "long-route" => Some(Box::new(styles::LongRoute)),
        "search" => Some(Box::new(crate::game::search::Search::default())),
        _ => None,
    }
}

/// Any legal move, uniformly at random.
pub struct Random;

impl Strategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }
    fn decide(&mut self, game: &Game, _me: usize, rng: &mut ChaCha8Rng) -> Action {
        game.legal().choose(rng).cloned().unwrap_or(Action::Pass)
    }
}

/// The greedy player of the C# simulation: it targets the routes on
/// shortest paths of its incomplete tickets (routes shared by several
/// tickets first), claims a target as soon as its cards allow, draws the
/// colours its targets need, draws new tickets once all its tickets are
/// done or impossible, and claims the longest route it can afford when its
/// hand grows large.
pub struct Greedy;

impl Strategy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        // The tickets offered to this player (at the start every player
        // chooses at once, so not always the player to move's).
        match game.offer(me) {
            Some((offered, min)) => keep_cheapest(game, me, offered, min),
            None => {
                let targets = ticket_targets(game, me);
                play_towards(game, me, &targets, true)
            }
        }
    }
}

/// The planner: it plays towards the exact best final score from the
/// current state (the `replan` optimum given its cars, its routes, the
/// routes taken by others and its tickets), claiming the plan's
/// ticket-connecting routes first and its other routes (bought for their
/// points) after. It replans when its tickets change or an opponent takes a
/// route of the plan, and chooses tickets by the optimum they allow.
#[derive(Default)]
pub struct Planner {
    /// The current plan's routes in claiming order, each marked whether a
    /// ticket of the plan needs it; and the tickets it was made for.
    plan: Vec<(RouteId, bool)>,
    made_for: Option<Vec<TicketId>>,
    /// The run's memo of plans, if shared.
    cache: Option<Arc<PlanCache>>,
}

impl Strategy for Planner {
    fn name(&self) -> &'static str {
        "planner"
    }
    fn share(&mut self, cache: &Arc<PlanCache>) {
        self.cache = Some(Arc::clone(cache));
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        if let Some((offered, min)) = game.offer(me) {
            // The plan of the tickets kept is the one to play next turn
            // (replanned only if an opponent breaks it first).
            let cars = game.players[me].cars;
            let (kept, plan) =
                keep_best_planned(game, me, offered, min, self.cache.as_deref(), cars);
            let mut held = game.players[me].tickets.clone();
            held.extend(&kept);
            self.plan = plan;
            self.made_for = Some(held);
            return Action::KeepTickets(kept);
        }
        let player = &game.players[me];
        let mine = player.routes();
        // Replan when the tickets changed or an opponent took a planned route.
        let broken = self
            .plan
            .iter()
            .any(|&(r, _)| !mine.contains(&r) && claimable_track(game, me, r).is_none());
        if broken || self.made_for.as_ref() != Some(&player.tickets) {
            self.plan = plan_for(
                game,
                me,
                &player.tickets,
                self.cache.as_deref(),
                player.cars,
            )
            .map(|(routes, _)| routes)
            .unwrap_or_default();
            self.made_for = Some(player.tickets.clone());
        }
        play_plan(game, me, &self.plan, player.cars)
    }
}

/// A move along `plan` (routes in claiming order, each marked whether a
/// ticket of the plan needs it): the routes the tickets need first, then
/// more tickets while `cars` (the cars the player counts on laying) last
/// for one, then the plan's other routes, bought for their points. The
/// planner counts its own cars, the search player its clock's budget.
pub(crate) fn play_plan(game: &Game, me: usize, plan: &[(RouteId, bool)], cars: u32) -> Action {
    let open = |needed: bool| open_routes(game, me, plan, needed);
    let needed = open(true);
    if !needed.is_empty() {
        return play_towards(game, me, &needed, false);
    }
    if incomplete(game, me).is_empty()
        && cars >= 12
        && game.tickets_left() > 0
        && !game.in_last_round()
        && matches!(game.expect(), Expect::Turn)
    {
        return Action::DrawTickets;
    }
    play_towards(game, me, &open(false), false)
}

/// The routes of `plan` that `me` may still claim: those a ticket needs
/// (`needed`), or the others.
pub(crate) fn open_routes(
    game: &Game,
    me: usize,
    plan: &[(RouteId, bool)],
    needed: bool,
) -> Vec<RouteId> {
    plan.iter()
        .filter(|&&(r, n)| n == needed && claimable_track(game, me, r).is_some())
        .map(|&(r, _)| r)
        .collect()
}

/// The first track of `route` that `me` may claim now (cards aside).
pub(crate) fn claimable_track(game: &Game, me: usize, route: RouteId) -> Option<usize> {
    (0..game.board.route(route).tracks.len()).find(|&t| game.can_claim_track(me, route, t).is_ok())
}

/// Held tickets not yet completed by the player's network.
pub(crate) fn incomplete(game: &Game, me: usize) -> Vec<TicketId> {
    let board: &Board = &game.board;
    let player = &game.players[me];
    let uf = StationPartition::new(
        board.cities.len(),
        player
            .routes()
            .iter()
            .map(|&r| (board.route(r).a, board.route(r).b)),
    );
    player
        .tickets
        .iter()
        .copied()
        .filter(|&t| !uf.connected(board.ticket(t).a, board.ticket(t).b))
        .collect()
}

/// Cars on a cheapest connection of `a` and `b` over the player's own routes
/// (free) and the routes it may still claim, with the routes to claim; None
/// if none is left.
pub(crate) fn cheapest_connection(
    game: &Game,
    me: usize,
    a: CityId,
    b: CityId,
) -> Option<(u32, Vec<RouteId>)> {
    connection_via(game, me, a, b, &[])
}

/// [`cheapest_connection`] with the routes of `free` counted as the
/// player's own (free, left out of the routes to claim): a ticket's cost
/// beside a plan, or after a claim.
pub(crate) fn connection_via(
    game: &Game,
    me: usize,
    a: CityId,
    b: CityId,
    free: &[RouteId],
) -> Option<(u32, Vec<RouteId>)> {
    let board: &Board = &game.board;
    let n = board.cities.len();
    let mut owned = game.players[me].routes();
    owned.extend_from_slice(free);
    let cost = |r: RouteId| -> Option<u32> {
        if owned.contains(&r) {
            Some(0)
        } else {
            claimable_track(game, me, r).map(|_| board.route(r).length)
        }
    };
    let mut dist = vec![u32::MAX; n];
    let mut via: Vec<Option<RouteId>> = vec![None; n];
    let mut done = vec![false; n];
    dist[a.0] = 0;
    // Dijkstra by scanning: 36 cities.
    while let Some(u) = (0..n)
        .filter(|&c| !done[c] && dist[c] != u32::MAX)
        .min_by_key(|&c| (dist[c], c))
    {
        done[u] = true;
        if u == b.0 {
            break;
        }
        for r in board.route_ids() {
            let route = board.route(r);
            let v = if route.a.0 == u {
                route.b.0
            } else if route.b.0 == u {
                route.a.0
            } else {
                continue;
            };
            if let Some(c) = cost(r) {
                if dist[u] + c < dist[v] {
                    dist[v] = dist[u] + c;
                    via[v] = Some(r);
                }
            }
        }
    }
    if dist[b.0] == u32::MAX {
        return None;
    }
    let mut path = Vec::new();
    let mut at = b.0;
    while at != a.0 {
        let r = via[at].expect("a reached city has a predecessor");
        if !owned.contains(&r) {
            path.push(r);
        }
        let route = board.route(r);
        at = if route.a.0 == at {
            route.b.0
        } else {
            route.a.0
        };
    }
    Some((dist[b.0], path))
}

/// The greedy targets: routes on cheapest connections of the incomplete
/// tickets, those serving most tickets first, then the longest.
pub(crate) fn ticket_targets(game: &Game, me: usize) -> Vec<RouteId> {
    let board: &Board = &game.board;
    let mut count: Vec<(RouteId, u32)> = Vec::new();
    for t in incomplete(game, me) {
        let ticket = board.ticket(t);
        if let Some((_, path)) = cheapest_connection(game, me, ticket.a, ticket.b) {
            for r in path {
                match count.iter_mut().find(|(x, _)| *x == r) {
                    Some((_, c)) => *c += 1,
                    None => count.push((r, 1)),
                }
            }
        }
    }
    count.sort_by_key(|&(r, c)| {
        (
            std::cmp::Reverse(c),
            std::cmp::Reverse(board.route(r).length),
            r,
        )
    });
    count.into_iter().map(|(r, _)| r).collect()
}

/// A payment for `route` from the hand: (track, colour, locomotives) with the
/// fewest locomotives; on gray, the colour held most.
pub(crate) fn payment(game: &Game, me: usize, route: RouteId) -> Option<Action> {
    // The first of the cheapest, as the engine lists them.
    let claim = game
        .claims_of(me, route)
        .into_iter()
        .min_by_key(|a| match a {
            Action::Claim { locomotives, .. } => *locomotives,
            _ => u32::MAX,
        })?;
    // A tunnel asks for more about one try in two: it is tried with a
    // spare card of the colour or a locomotive in hand (without one, a
    // try that asks for more is a turn lost), unless the game is ending
    // or no card is left to draw (a pass is illegal while a claim is not).
    let r = game.board.route(route);
    let can_draw = game.deck_len() + game.discard_len() > 0 || !game.face_up().is_empty();
    if r.tunnel && !game.in_last_round() && can_draw {
        if let Action::Claim { colour, .. } = claim {
            let hand = &game.players[me].hand;
            if hand[Card::Train(colour).index()] + hand[Card::Locomotive.index()] <= r.length {
                return None;
            }
        }
    }
    Some(claim)
}

/// Claims the first affordable target, else draws the cards the targets
/// need; with nothing left to draw, claims the longest affordable route.
/// The `greedy` player of the C# simulation also draws tickets when nothing
/// is targeted, and claims the longest affordable route when its hand
/// passes 24 cards.
pub(crate) fn play_towards(game: &Game, me: usize, targets: &[RouteId], greedy: bool) -> Action {
    let player = &game.players[me];
    match game.expect() {
        Expect::SecondCard => return draw_card(game, targets, true),
        Expect::Tunnel(t) => return pay_or_give_up(game, targets, t.route),
        _ => {}
    }
    if let Some(a) = targets.iter().find_map(|&r| payment(game, me, r)) {
        return a;
    }
    if let Some(a) = station_saving_tickets(game, me) {
        return a;
    }
    // Cards drawn in the last turn score nothing.
    if game.in_last_round() {
        if let Some(a) = longest_affordable(game, me) {
            return a;
        }
    }
    let longest = || longest_affordable(game, me);
    if greedy
        && targets.is_empty()
        && game.tickets_left() > 0
        && player.tickets.len() <= 5
        && player.cars >= 10
        && !game.in_last_round()
    {
        return Action::DrawTickets;
    }
    let can_draw = game.deck_len() + game.discard_len() > 0 || !game.face_up().is_empty();
    if (greedy && player.cards() > 24) || !can_draw {
        if let Some(a) = longest() {
            return a;
        }
    }
    if can_draw {
        return draw_card(game, targets, false);
    }
    if game.tickets_left() > 0 {
        return Action::DrawTickets;
    }
    Action::Pass
}

/// A tunnel's extra cards, the fewest locomotives among them, when the
/// route is a target or they take no locomotive; else giving it up (a
/// route claimed for its points is not worth the locomotives a ticket's
/// route may need).
pub(crate) fn pay_or_give_up(game: &Game, targets: &[RouteId], route: RouteId) -> Action {
    match game.tunnel_options().first() {
        Some(o) if targets.contains(&route) || o.locomotives == 0 => Action::PayTunnel {
            locomotives: o.locomotives,
        },
        _ => Action::GiveUpTunnel,
    }
}

/// A station that completes held tickets now by borrowing another
/// player's route into its city, when the tickets it saves are worth more
/// than the station's points (a ticket saved counts twice: its points won
/// and its loss avoided); the station saving the most, paid with the
/// fewest locomotives.
pub(crate) fn station_saving_tickets(game: &Game, me: usize) -> Option<Action> {
    let rule = game.board.rules.stations.as_ref()?;
    let pay = game
        .station_payments(me)
        .into_iter()
        .min_by_key(|p| (p.min_locomotives, p.colour.is_none()))?;
    let board: &Board = &game.board;
    let player = &game.players[me];
    let mut routes = player.routes();
    routes.extend(game.borrowed(me));
    // The final scoring's ticket points: a ticket a borrowed route
    // completes gains its best trip and no longer loses its smallest.
    let saved = |extra: Option<RouteId>| -> i64 {
        let mut with: Vec<RouteId> = routes.clone();
        with.extend(extra);
        game.ticket_points(&player.tickets, &with).0
    };
    let now = saved(None);
    let mut best: Option<(i64, CityId)> = None;
    for r in board.route_ids() {
        let route = board.route(r);
        let theirs = (0..route.tracks.len()).any(|t| game.owner(r, t).is_some_and(|p| p != me));
        if !theirs || routes.contains(&r) {
            continue;
        }
        let Some(city) = [route.a, route.b]
            .into_iter()
            .find(|&c| game.station_owner(c).is_none())
        else {
            continue;
        };
        let gain = saved(Some(r)) - now;
        if gain > rule.points as i64 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, city));
        }
    }
    let (_, city) = best?;
    Some(Action::BuildStation {
        city,
        colour: pay.colour.unwrap_or(Colour::Red),
        locomotives: pay.min_locomotives,
    })
}

/// A claim of the longest route the hand pays for (the most points).
pub(crate) fn longest_affordable(game: &Game, me: usize) -> Option<Action> {
    let board: &Board = &game.board;
    board
        .route_ids()
        .filter_map(|r| payment(game, me, r))
        .max_by_key(|a| match a {
            Action::Claim { route, .. } => (board.route(*route).length, std::cmp::Reverse(route.0)),
            _ => (0, std::cmp::Reverse(0)),
        })
}

/// A face-up card of a colour the targets need, else the deck, else any
/// face-up card (no locomotive as a second card).
pub(crate) fn draw_card(game: &Game, targets: &[RouteId], second: bool) -> Action {
    let board: &Board = &game.board;
    let wanted: Vec<Colour> = targets
        .iter()
        .flat_map(|&r| board.route(r).tracks.iter().copied())
        .filter(|&c| c != Colour::Gray)
        .collect();
    let face_up = game.face_up();
    if let Some(i) = face_up
        .iter()
        .position(|c| matches!(c, Card::Train(colour) if wanted.contains(colour)))
    {
        return Action::DrawFaceUp(i);
    }
    if game.deck_len() + game.discard_len() > 0 {
        return Action::DrawDeck;
    }
    match face_up
        .iter()
        .position(|&c| !(second && c == Card::Locomotive))
    {
        Some(i) => Action::DrawFaceUp(i),
        None => Action::Pass,
    }
}

/// Greedy ticket choice: the `min` tickets (or more, if already complete)
/// with the most points per car still needed.
pub(crate) fn keep_cheapest(game: &Game, me: usize, offered: &[TicketId], min: usize) -> Action {
    let board: &Board = &game.board;
    let mut rated: Vec<(f64, TicketId, u32)> = offered
        .iter()
        .map(|&t| {
            let ticket = board.ticket(t);
            match cheapest_connection(game, me, ticket.a, ticket.b) {
                Some((cars, _)) => (ticket.points as f64 / cars.max(1) as f64, t, cars),
                None => (-1.0, t, u32::MAX),
            }
        })
        .collect();
    rated.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let kept: Vec<TicketId> = rated
        .iter()
        .enumerate()
        .filter(|(i, (_, _, cars))| *i < min || *cars == 0)
        .map(|(_, (_, t, _))| *t)
        .collect();
    Action::KeepTickets(kept)
}

/// The partial-game state of player `me` with `tickets` in hand and `cars`
/// to spend (its cars left, or fewer: a budget).
pub(crate) fn state_of(game: &Game, me: usize, tickets: &[TicketId], cars: u32) -> GameState {
    let mut owned = Vec::new();
    let mut taken = Vec::new();
    for (p, player) in game.players.iter().enumerate() {
        for &(route, index) in &player.tracks {
            let track = Track { route, index };
            if p == me {
                owned.push(track);
            } else {
                taken.push(track);
            }
        }
    }
    GameState {
        players: game.players.len() as u32,
        cars_left: cars,
        owned,
        taken,
        tickets: tickets.to_vec(),
        may_draw: false,
        // The bots build stations by their own rule
        // (`station_saving_tickets`), not by the plan.
        stations: None,
    }
}

/// The replan optimum's routes to claim, ticket-connecting routes first
/// (longest first), then the others; and the final score; with `cars` to
/// spend.
pub(crate) fn plan_for(
    game: &Game,
    me: usize,
    tickets: &[TicketId],
    cache: Option<&PlanCache>,
    cars: u32,
) -> Option<(Plan, i64)> {
    let state = state_of(game, me, tickets, cars);
    let Some((cache, key)) = memo_key(&state, cache) else {
        return solve_plan(game, &state);
    };
    if let Some(known) = cache.plans.lock().expect("plan memo").get(&key) {
        return known.clone();
    }
    let plan = solve_plan(game, &state);
    cache
        .plans
        .lock()
        .expect("plan memo")
        .insert(key, plan.clone());
    plan
}

/// The memo and the key `state`'s plan is kept under, for the states the
/// memo keeps (none but the player's tickets on the board).
fn memo_key<'c>(
    state: &GameState,
    cache: Option<&'c PlanCache>,
) -> Option<(&'c PlanCache, PlanKey)> {
    let cache = cache.filter(|_| state.owned.is_empty() && state.taken.is_empty())?;
    Some((
        cache,
        (state.players, state.cars_left, state.tickets.clone()),
    ))
}

/// Whether [`plan_for`] would answer from the memo.
fn memoized(state: &GameState, cache: Option<&PlanCache>) -> bool {
    memo_key(state, cache)
        .is_some_and(|(cache, key)| cache.plans.lock().expect("plan memo").contains_key(&key))
}

/// [`plan_for`]'s solve.
fn solve_plan(game: &Game, state: &GameState) -> Option<(Plan, i64)> {
    let board: &Board = &game.board;
    // With a hand of tickets (not the whole deck) the frontier programme is
    // exact and fast (tens of ms at 45 cars), where the MIP takes seconds.
    let options = SolveOptions {
        method: Method::Frontier,
        ..SolveOptions::default()
    };
    let result = replan(board, state, &options)
        .or_else(|_| replan(board, state, &SolveOptions::default()))
        .ok()?;
    let mut network = result.owned.clone();
    network.extend(&result.claim);
    // The ticket core: drop new routes (longest first) while every
    // completed ticket stays connected; what cannot go is what tickets need.
    // (Testing each route alone would miss routes on a cycle of the plan.)
    let connects = |routes: &[RouteId]| {
        let uf = StationPartition::new(
            board.cities.len(),
            routes.iter().map(|&x| (board.route(x).a, board.route(x).b)),
        );
        result
            .completed
            .iter()
            .all(|&t| uf.connected(board.ticket(t).a, board.ticket(t).b))
    };
    let mut core = network.clone();
    let mut by_length = result.claim.clone();
    by_length.sort_by_key(|&r| (std::cmp::Reverse(board.route(r).length), r));
    for r in by_length {
        let without: Vec<RouteId> = core.iter().copied().filter(|&x| x != r).collect();
        if connects(&without) {
            core = without;
        }
    }
    let needed = |r: RouteId| core.contains(&r);
    let mut order: Vec<(bool, u32, RouteId)> = result
        .claim
        .iter()
        .map(|&r| (needed(r), board.route(r).length, r))
        .collect();
    order.sort_by_key(|&(need, length, r)| (std::cmp::Reverse(need), std::cmp::Reverse(length), r));
    Some((
        order.into_iter().map(|(need, _, r)| (r, need)).collect(),
        result.score,
    ))
}

/// A plan's routes in claiming order, each marked whether a ticket needs it.
pub(crate) type Plan = Vec<(RouteId, bool)>;

/// The subset of the offered tickets (at least `min`) whose plan scores
/// most, counting the tickets already held, and that plan's routes; ties
/// go to the subset first in bit order (the first offered ticket is bit 0).
///
/// Only the winner's plan is needed, so once a subset has a plan, the
/// others need only say whether they beat it: the frontier programme
/// answers with that score as its bar ([`clears`]), cheaply when the answer
/// is no. A subset that does beat it is then solved as [`plan_for`] solves
/// it, so the plan kept is the one a lone solve gives and the games stay
/// the same whatever was asked before.
pub(crate) fn keep_best_planned(
    game: &Game,
    me: usize,
    offered: &[TicketId],
    min: usize,
    cache: Option<&PlanCache>,
    cars: u32,
) -> (Vec<TicketId>, Plan) {
    let held = &game.players[me].tickets;
    let n = offered.len();
    let kept = |mask: u32| -> Vec<TicketId> {
        (0..n)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| offered[i])
            .collect()
    };
    let with_held = |mask: u32| -> Vec<TicketId> {
        let mut all = held.clone();
        all.extend(kept(mask));
        all
    };
    // Larger keeps first: they usually score most, which makes the bar
    // high for the rest.
    let mut masks: Vec<u32> = (1u32..1 << n)
        .filter(|m| m.count_ones() as usize >= min.min(n))
        .collect();
    masks.sort_by_key(|&m| (std::cmp::Reverse(m.count_ones()), m));
    let mut best: Option<(i64, u32, Plan)> = None;
    for mask in masks {
        let all = with_held(mask);
        if let Some((score, first, _)) = best.as_ref().filter(|b| b.0 > i64::MIN) {
            // To win, a later mask must score more, an earlier one as much.
            let bar = if mask < *first { score - 1 } else { *score };
            let state = state_of(game, me, &all, cars);
            if !memoized(&state, cache) && clears(&game.board, &state, bar) == Some(Bar::Below) {
                continue;
            }
        }
        let (plan, score) = plan_for(game, me, &all, cache, cars).unwrap_or((Vec::new(), i64::MIN));
        let wins = best
            .as_ref()
            .is_none_or(|(b, first, _)| score > *b || (score == *b && mask < *first));
        if wins {
            best = Some((score, mask, plan));
        }
    }
    best.map(|(_, mask, plan)| (kept(mask), plan))
        .unwrap_or_else(|| (offered[..min.min(n)].to_vec(), Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// What `keep_best_planned` must choose: every keepable subset solved
    /// alone, the best score winning, ties to the first in bit order.
    fn keep_by_solving_all(
        game: &Game,
        me: usize,
        offered: &[TicketId],
        min: usize,
    ) -> (Vec<TicketId>, Plan) {
        let n = offered.len();
        let mut best: Option<(i64, Vec<TicketId>, Plan)> = None;
        for mask in 1u32..1 << n {
            if (mask.count_ones() as usize) < min.min(n) {
                continue;
            }
            let kept: Vec<TicketId> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| offered[i])
                .collect();
            let mut all = game.players[me].tickets.clone();
            all.extend(&kept);
            let cars = game.players[me].cars;
            let (plan, score) =
                plan_for(game, me, &all, None, cars).unwrap_or((Vec::new(), i64::MIN));
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, kept, plan));
            }
        }
        let (_, kept, plan) = best.expect("a keepable subset");
        (kept, plan)
    }

    /// The bar-and-memo shortcut keeps the tickets, and the plan, that
    /// solving every subset alone would: at every ticket choice of whole
    /// games between planners (the first choices, where the memo answers
    /// from the second game on, and the draws in play).
    #[test]
    fn keeping_by_the_bar_chooses_as_solving_every_subset() {
        let board = Board::usa();
        let cache = Arc::new(PlanCache::default());
        let (mut first, mut drawn) = (0, 0);
        for seed in 0..8 {
            let mut game = Game::new(&board, 3, seed).unwrap();
            let mut players: Vec<Planner> = (0..3).map(|_| Planner::default()).collect();
            for p in &mut players {
                p.share(&cache);
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut moves = 0;
            while !game.is_over() && moves < 400 {
                let me = game.current();
                if let Some((offered, min)) = game.offer(me) {
                    let cars = game.players[me].cars;
                    let chosen = keep_best_planned(&game, me, offered, min, Some(&cache), cars);
                    assert_eq!(
                        chosen,
                        keep_by_solving_all(&game, me, offered, min),
                        "game {seed}, move {moves}, player {me}, offered {offered:?}"
                    );
                    if game.in_setup() {
                        first += 1;
                    } else {
                        drawn += 1;
                    }
                }
                let action = players[me].decide(&game, me, &mut rng);
                game.apply(me, &action).unwrap();
                moves += 1;
            }
        }
        assert_eq!(first, 24);
        assert!(drawn >= 5, "only {drawn} ticket draws seen");
    }
}
