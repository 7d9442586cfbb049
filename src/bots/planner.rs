//! The planner: plays towards the exact best final score from its state.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::board::{RouteId, TicketId};
use crate::bots::planning::{keep_best_planned, plan_for, PlanCache};
use crate::bots::tactics::{claimable_track, play_plan};
use crate::bots::Strategy;
use crate::engine::rules::{Action, Game};

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
