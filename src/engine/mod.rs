//! The rules engine, on the board alone: a game's deck, draws, claims and
//! scoring, the board's own rules (tunnels, ferries, stations), what each
//! move did, and a game as a file.
//!
//! - [`cards`]: train cards and a hand counted by colour;
//! - [`rules`]: the rules engine (deck, draws, claims, scoring);
//! - [`tunnel`]: a tunnel's extra cards and every way to pay them;
//! - [`stations`]: which other players' routes a player's stations borrow;
//! - [`event`]: what a move did, as the rules engine tells it;
//! - [`state`]: a game in progress, the file format `replan` reads;
//! - [`saved`]: a whole game as a file (seats, seed, moves), replayed.

pub mod cards;
pub mod event;
pub mod rules;
pub mod saved;
pub mod state;
pub mod stations;
pub mod tunnel;
