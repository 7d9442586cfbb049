//! Simulated players behind one trait: a random legal player, the greedy
//! strategy of a published C# simulation of the game, a planner
//! that follows the exact partial-game optimum ([`crate::plans::replan`]),
//! a Monte Carlo tree search player ([`mcts`]), and the four
//! playing styles of de Mesentier Silva et al. (2017)
//! ([`styles`]), and the search player, the planner with a
//! clock ([`search`]).
//!
//! A strategy reads the game through `&Game` and by convention uses only
//! what its player could see: the board, the face-up row, claimed routes,
//! deck sizes, and its own hand and tickets.

//!
//! - [`tactics`]: moves the strategies share (play along a plan, pay,
//!   draw, keep tickets, build a saving station);
//! - [`planning`]: the exact plan from a player's state, memoised over a
//!   run, and the tickets kept by the plans they allow;
//! - one file per strategy: [`random`], [`greedy`], [`planner`], [`mcts`],
//!   [`styles`] (four), [`search`].

pub mod greedy;
pub mod mcts;
pub mod planner;
pub mod planning;
pub mod random;
pub mod search;
pub mod styles;
pub mod tactics;

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::bots::planning::PlanCache;
use crate::engine::rules::{Action, Game};

/// A way of playing.
pub trait Strategy: Send {
    /// The strategy's name, as [`STRATEGIES`] spells it.
    fn name(&self) -> &'static str;
    /// The move of player `me`, who is to move in `game`.
    fn decide(&mut self, game: &Game, me: usize, rng: &mut ChaCha8Rng) -> Action;
    /// Shares a run's memo of plans (the planner's; others ignore it).
    fn share(&mut self, _cache: &Arc<PlanCache>) {}
}

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
        "random" => Some(Box::new(random::Random)),
        "greedy" => Some(Box::new(greedy::Greedy)),
        "planner" => Some(Box::new(planner::Planner::default())),
        "mcts" => Some(Box::new(mcts::Mcts::default())),
        "route-focus" => Some(Box::new(styles::RouteFocus)),
        "destination-hungry" => Some(Box::new(styles::DestinationHungry)),
        "one-step" => Some(Box::new(styles::OneStep)),
        "long-route" => Some(Box::new(styles::LongRoute)),
        "search" => Some(Box::new(search::Search::default())),
        _ => None,
    }
}
