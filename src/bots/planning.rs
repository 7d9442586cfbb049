//! The exact plan from a player's state (the `replan` optimum, ticket
//! routes first), memoised over a run of many games, and the tickets kept
//! by the plans they allow.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::board::verify::StationPartition;
use crate::board::{Board, RouteId, TicketId};
use crate::engine::rules::Game;
use crate::engine::state::{GameState, Track};
use crate::plans::replan::{clears, replan, Bar};
use crate::solve::{Method, SolveOptions};

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
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    use crate::bots::planner::Planner;
    use crate::bots::Strategy;

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
