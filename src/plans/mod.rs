//! A game's best plans, from the solver: the best continuation of a game
//! in progress, one player's coach, a finished game reviewed turn by turn,
//! and the luck of the deal.
//!
//! - [`replan`]: the best plan from a game state, stations included;
//! - [`coach`]: the best plan for one player, from what they know;
//! - [`review`]: a finished game, turn by turn, against the best still reachable;
//! - [`deals`]: the luck of the deal: every hand's best score.

pub mod coach;
pub mod deals;
pub mod replan;
pub mod review;
