#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]
//! ttr-opt: the maximum score in Ticket to Ride, computed exactly (MIP and
//! dynamic programming), and the analyses built on it.
//!
//! The folders are layers, listed here lowest first: a folder uses only
//! the folders listed before it, never one after it or beside it
//! (`tests/suite/layers.rs` reads every `crate::` path and fails on one against
//! this order, naming the file and the line):
//! - [`board`]: the board file format, loading and validation
//!   ([`board::Board`]); the board as a graph ([`board::graph`]); seeded
//!   random boards ([`board::generate`]); the ranges of every input number
//!   ([`board::input`]); the independent union-find check of a plan
//!   ([`board::verify`]);
//! - [`engine`]: the rules engine, on the board alone: deck, draws, claims,
//!   the board's own rules, scoring, what a move did, a game as a file;
//! - [`model`]: one optimisation question ([`model::Instance`]) and its MIP
//!   formulations: [`model::paper`], the published model, and
//!   [`model::forest`], the fast one; the HiGHS session ([`model::mip`]);
//!   the least forest joining a few tickets' ends (`model::steiner`, a
//!   bound both the forest model and the frontier programme use);
//! - [`solve`]: runs a method (or picks one) and verifies the answer
//!   ([`solve::solve`]; the choice and every fallback in one table there),
//!   and says why it stopped ([`solve::Stop`], reported as
//!   [`solve::Status`]); the
//!   branch and cut ([`solve::branch`]), the frontier programme
//!   ([`solve::frontier`]), starting plans ([`solve::heuristic`]), every
//!   budget of a range ([`solve::sweep`]) and a call's limits ([`solve::limits::Limits`]:
//!   deadline, memory budget, cancellation, made by each face per call);
//! - [`plans`]: a game's best plans from the solver: a game in progress
//!   replanned, the coach, the review and the deal;
//! - [`bots`]: the simulated players, behind one trait;
//! - [`leagues`]: many games between the bots: simulations, tournaments,
//!   ratings, playtests;
//! - [`analysis`]: sensitivity, frequency and break-even
//!   ([`analysis`] itself); every optimal plan ([`analysis::optima`]); what-if
//!   scenarios ([`analysis::scenario`]); the balance report
//!   ([`analysis::balance`]); a player's own plan judged
//!   ([`analysis::check`]); the benchmarks ([`analysis::bench`]);
//! - [`output`]: result files written atomically, the JSON reports every face
//!   returns ([`output::report`]), the figures ([`output::plot`]), a model
//!   written as an MPS or LP file ([`output::export`]) and a board as both
//!   web pages draw it ([`output::board_view`]);
//! - [`web`]: the local designer page of `ttr-opt serve`;
//! - [`play`]: the online game of `ttr-opt play`, beside [`web`]: neither
//!   uses the other, and what they share lives in [`output`];
//! - [`cli`]: the `ttr-opt` command line, thin over the above (the Python
//!   package in `python/` is another face over the same calls).
//!
//! Beside the layers, [`stats`] (quantiles) is a leaf: it uses nothing of
//! the crate, and every layer may use it.
//!
//! The MIP is built in [`model::forest`] (constraints and cut separation) and
//! solved by [`solve::branch`].
//!
//! # Example
//!
//! A board of three cities, solved for 4 train cars: the two routes to
//! Boston (3 + 2 cars) would complete the 9-point ticket but do not fit, so
//! the best plan is the 3-car route (4 points) and the ticket is left open.
//!
//! ```
//! use ttr_opt::board::Board;
//! use ttr_opt::model::Instance;
//! use ttr_opt::solve::{solve, SolveOptions};
//!
//! let board = Board::from_json(
//!     r#"{
//!         "name": "tiny", "cars": 4,
//!         "route_points": { "1": 1, "2": 2, "3": 4 },
//!         "cities": [ { "name": "Albany", "x": 0, "y": 0 },
//!                     { "name": "Boston", "x": 2, "y": 0 },
//!                     { "name": "Hartford", "x": 1, "y": 1 } ],
//!         "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
//!                     { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray"] } ],
//!         "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ]
//!     }"#,
//!     "tiny.json",
//! )?;
//! let outcome = solve(&Instance::new(&board, board.cars), &SolveOptions::default())?;
//! assert!(outcome.proven);
//! assert_eq!(outcome.plan.score(), 4);
//! // With one car more both routes fit: 4 + 2 route points and the ticket.
//! let outcome = solve(&Instance::new(&board, 5), &SolveOptions::default())?;
//! assert_eq!(outcome.plan.score(), 15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod analysis;
pub mod board;

/// The guides' Rust examples, run as doctests so that an example that no
/// longer compiles or holds fails the tests.
#[cfg(doctest)]
pub mod guides {
    #[doc = include_str!("../docs/analysts.md")]
    pub struct Analysts;
    #[doc = include_str!("../docs/how-it-works.md")]
    pub struct HowItWorks;
    #[doc = include_str!("../docs/designers.md")]
    pub struct Designers;
    #[doc = include_str!("../docs/players.md")]
    pub struct Players;
}
pub mod bots;
pub mod cli;
pub mod engine;
pub mod leagues;
pub mod model;
pub mod output;
pub mod plans;
pub mod play;
pub mod solve;
pub mod stats;
pub mod web;
