//! Many games between the bots, and what they tell: seeded simulations and
//! their statistics, tournaments rated by Weng-Lin, the AI playtest of a
//! board, and the coach's and the review's benchmark.
//!
//! - [`simulate`]: many seeded games and their statistics;
//! - [`rating`]: the Weng-Lin rating model (the online game's and the tournament's);
//! - [`tournament`]: every table of strategies on every board, rated;
//! - [`playtest`]: the 2017 paper's AI playtest of a board: the styles' win
//!   rates, the routes and cities in play beside the optimum, the rule holes;
//! - [`mod@bench`]: the coach's and the review's benchmark (`bench --coach`).

pub mod bench;
pub mod playtest;
pub mod rating;
pub mod simulate;
pub mod tournament;
