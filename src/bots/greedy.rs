//! The greedy player of the C# simulation.

use rand_chacha::ChaCha8Rng;

use crate::bots::tactics::{keep_cheapest, play_towards, ticket_targets};
use crate::bots::Strategy;
use crate::engine::rules::{Action, Game};

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
