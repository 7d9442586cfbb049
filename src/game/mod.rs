//! The game itself, beyond the optimum: a rules engine, simulated players
//! and their statistics, and a game in progress with its best continuation.
//!
//! - [`rules`]: the rules engine (deck, draws, claims, scoring);
//! - [`tunnel`]: a tunnel's extra cards and every way to pay them;
//! - [`event`]: what a move did, as the rules engine tells it;
//! - [`players`]: simulated strategies (random, greedy, planner, mcts, the styles);
//! - [`mcts`]: the Monte Carlo tree search player, from determinisations;
//! - [`styles`]: the four playing styles of de Mesentier Silva et al. (2017);
//! - [`simulate`]: many seeded games and their statistics;
//! - [`state`]: a game in progress, the file format `replan` reads;
//! - [`replan`]: the best plan from a game state;
//! - [`coach`]: the best plan for one player, from what they know;
//! - [`deals`]: the luck of the deal: every hand's best score;
//! - [`review`]: a finished game, turn by turn, against the best still reachable;
//! - [`mod@bench`]: the coach's and the review's benchmark (`bench --coach`);
//! - [`saved`]: a whole game as a file (seats, seed, moves), replayed;
//! - [`rating`]: the Weng-Lin rating model (the online game's and the tournament's);
//! - [`tournament`]: every table of strategies on every board, rated;
//! - [`playtest`]: the 2017 paper's AI playtest of a board: the styles' win
//!   rates, the routes and cities in play beside the optimum, the rule holes.

pub mod bench;
pub mod coach;
pub mod deals;
pub mod event;
pub mod mcts;
pub mod players;
pub mod playtest;
pub mod rating;
pub mod replan;
pub mod review;
pub mod rules;
pub mod saved;
pub mod search;
pub mod simulate;
pub mod state;
pub mod stations;
pub mod styles;
pub mod tournament;
pub mod tunnel;
