//! The random player: any legal move.

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::bots::Strategy;
use crate::engine::rules::{Action, Game};

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
