//! ttr-opt: the maximum score in Ticket to Ride, by mixed-integer programming.
//!
//! Where things are:
//! - [`board`]: the board file format, loading and validation;
//! - [`graph`]: the board as a `petgraph` graph (shortest paths, components);
//! - [`model`]: the optimisation [`model::Instance`] and its MIP formulations
//!   ([`model::paper`], the published model; [`model::forest`], the default);
//! - [`mip`]: the HiGHS session (options, cut rows, warm starts, bounds);
//! - [`solve`]: runs a formulation and verifies the answer;
//! - [`heuristic`]: the greedy starting plan;
//! - [`verify`]: the independent union-find check of every reported plan;
//! - [`report`]: the human table and the JSON schema;
//! - [`cli`]: the `ttr-opt` command line, thin over the above.

pub mod board;
pub mod cli;
pub mod frontier;
pub mod graph;
pub mod heuristic;
pub mod mip;
pub mod model;
pub mod report;
pub mod solve;
pub mod verify;
