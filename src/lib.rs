//! ttr-opt: the maximum score in Ticket to Ride, computed exactly (MIP and
//! dynamic programming).
//!
//! Where things are:
//! - [`board`]: the board file format, loading and validation;
//! - [`graph`]: the board as a `petgraph` graph (shortest paths, components);
//! - [`model`]: the optimisation [`model::Instance`] and its MIP formulations
//!   ([`model::paper`], the published model; [`model::forest`], the fast one);
//! - [`mip`]: the HiGHS session (options, cut rows, warm starts, bounds);
//! - [`branch`]: the branch and cut that solves the forest model;
//! - [`generate`]: seeded random boards shaped like the published maps;
//! - [`export`]: a budget's model as an MPS or LP file, for other solvers;
//! - [`solve`]: runs a method (or picks one) and verifies the answer;
//! - [`frontier`]: the exact dynamic programme over the map;
//! - [`sweep`]: every budget in a range, sharing work;
//! - [`heuristic`]: greedy and beam starting plans;
//! - [`state`]: a game in progress (the `replan` file format);
//! - [`replan`]: the best plan from a game state;
//! - [`check`]: a player's own plan, judged and set beside the optimum;
//! - [`rules`]: the rules engine for simulated games;
//! - [`players`]: simulated strategies (random, greedy, planner);
//! - [`simulate`]: many seeded games and their statistics;
//! - [`optima`]: every optimal plan of a budget, counted and listed;
//! - [`analysis`]: sensitivity of the optimum to tickets and routes;
//! - [`verify`]: the independent union-find check of every reported plan;
//! - [`input`]: reading input files, the ranges of every number;
//! - [`limits`]: the run's time limit, shared by all its solves;
//! - [`output`]: result files, written atomically into safe folders;
//! - [`plot`]: the figures (PNG and SVG, embedded font);
//! - [`report`]: the human table and the JSON schema;
//! - [`cli`]: the `ttr-opt` command line, thin over the above.

pub mod analysis;
pub mod balance;
pub mod board;
pub mod branch;
pub mod check;
pub mod cli;
pub mod export;
pub mod frontier;
pub mod generate;
pub mod graph;
pub mod heuristic;
pub mod input;
pub mod limits;
pub mod mip;
pub mod model;
pub mod optima;
pub mod output;
pub mod players;
pub mod plot;
pub mod replan;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod simulate;
pub mod solve;
pub mod state;
pub mod sweep;
pub mod verify;
