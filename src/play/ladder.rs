//! The bots' ladder: the online game's levels ([`Difficulty`]) are
//! strategies of `ttr-opt tournament`, each stronger than the one before,
//! and the lobby names each by its strategy and its rating on the game's
//! board. The ratings are those of the recorded tournament
//! ([`RECORDED`], its command in the `tournament.md` beside it): Weng-Lin
//! ratings (μ − 3σ) of 2-player games in a field of seven strategies (the
//! 2017 paper's four, greedy, the planner and the search player), each
//! meeting every other in both seat orders on every shipped board. There
//! One Step < greedy < the search player on every board, the search
//! player first of the seven on each (`output/bench/tournament.md`).

use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};

use super::table::Difficulty;

/// The recorded tournament's standings (`ttr-opt tournament --json`
/// output, as written to `tournament.json`).
pub const RECORDED: &str = include_str!("../../output/tournament/ladder/tournament.json");

/// The seat count whose ratings the lobby shows.
pub const LADDER_SEATS: usize = 2;

/// One row of the tournament's standings, the fields read here.
#[derive(Debug, Deserialize)]
struct Standing {
    board: String,
    seats: usize,
    strategy: String,
    games: usize,
    win_rate: f64,
    rating: f64,
}

#[derive(Debug, Deserialize)]
struct Recorded {
    standings: Vec<Standing>,
}

/// The recorded standings, read once (the file is part of the binary; a
/// test reads it, so it cannot fail here).
fn standings() -> &'static [Standing] {
    static READ: OnceLock<Vec<Standing>> = OnceLock::new();
    READ.get_or_init(|| {
        serde_json::from_str::<Recorded>(RECORDED)
            .map(|r| r.standings)
            .unwrap_or_default()
    })
}

/// One level of the ladder on a board.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// The level.
    pub level: Difficulty,
    /// Its rating on the board at [`LADDER_SEATS`] players, and its win
    /// rate there, if the tournament played it.
    pub rating: Option<(f64, f64)>,
}

/// Every level on board `key` (a shipped board's key; an uploaded board
/// has no rating), the weakest first.
pub fn ladder(key: &str) -> Vec<Rung> {
    Difficulty::ALL
        .into_iter()
        .map(|level| Rung {
            level,
            rating: standings()
                .iter()
                .find(|s| {
                    s.board == key
                        && s.seats == LADDER_SEATS
                        && s.strategy == level.strategy()
                        && s.games > 0
                })
                .map(|s| (s.rating, s.win_rate)),
        })
        .collect()
}

/// The ladder as `/api/boards` lists it with each board: `[{level,
/// strategy, rating, winRate}]`, the rating and win rate `null` where the
/// tournament did not play the board.
pub fn ladder_json(key: &str) -> Value {
    ladder(key)
        .into_iter()
        .map(|r| {
            json!({
                "level": r.level.name(),
                "strategy": r.level.strategy(),
                "rating": r.rating.map(|(x, _)| (x * 10.0).round() / 10.0),
                "winRate": r.rating.map(|(_, w)| (w * 1000.0).round() / 1000.0),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recorded tournament reads, rates every level on every shipped
    /// board, and its levels climb: each rated above the one before.
    #[test]
    fn the_recorded_ladder_rates_every_level_on_every_shipped_board_in_order() {
        let recorded: Recorded = serde_json::from_str(RECORDED).expect("the ladder's file reads");
        assert!(!recorded.standings.is_empty());
        for (key, _) in crate::board::SHIPPED {
            let rungs = ladder(key);
            let ratings: Vec<f64> = rungs
                .iter()
                .map(|r| {
                    r.rating
                        .unwrap_or_else(|| panic!("{key}: {:?} unrated", r.level))
                        .0
                })
                .collect();
            for pair in ratings.windows(2) {
                assert!(
                    pair[0] < pair[1],
                    "{key}: the ladder does not climb: {ratings:?}"
                );
            }
        }
        assert!(ladder("upload-1").iter().all(|r| r.rating.is_none()));
    }
}
