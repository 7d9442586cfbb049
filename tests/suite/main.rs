//! The integration tests, one binary: each file a module of its own
//! concern (the board, the solver, the rules engine, the bots, the online
//! game, the faces, the house's own rules), sharing `common` (boards and
//! checks) and `harness` (a `ttr-opt play` server driven over its API).
//! One binary links the library once, where a binary per file linked it
//! once each. The tests share the process, so none may change what is
//! process-wide: `tests/partial.rs`, which interrupts (as Ctrl-C does, for
//! every call of the process), is a binary of its own. Proptest keeps its
//! regressions in `tests/proptest-regressions/`.

mod common;
#[path = "common/play_harness.rs"]
mod harness;

mod analysis;
mod board;
mod board_rules;
mod boards;
mod check;
mod cli;
mod deals;
mod docs;
mod export;
mod generate;
mod hostile;
mod layers;
mod limits;
mod mcts;
mod multi_trip;
mod optima;
mod play;
mod play_ratings;
mod play_replay;
mod play_shelf;
mod play_timer;
mod playtest;
mod plot;
mod properties;
mod replan;
mod replan_stations;
mod review;
mod rules;
mod scenario;
mod search_bot;
mod simulate;
mod solve;
mod styles;
mod sweep;
mod tournament;
mod tracks;
mod tune;
mod verify;
mod web;
