//! Simulated games: every player's network re-checked, never above the
//! optimum for its own tickets; statistics; the `simulate` command.

use crate::common;
use common::{ttr_opt, ttr_opt_ok};

use ttr_opt::board::verify::evaluate;
use ttr_opt::engine::state::GameState;
use ttr_opt::leagues::simulate::{simulate, summarise, SimulateOptions};
use ttr_opt::plans::replan::replan;
use ttr_opt::solve::{Method, SolveOptions};
use ttr_opt::stats::quantile;

#[test]
fn no_player_beats_the_optimum_for_its_own_tickets() {
    let b = common::usa();
    let names = ["greedy", "planner", "random"];
    let played = simulate(&b, &names, &SimulateOptions::games(6, 11)).unwrap();
    assert_eq!(played.len(), 6);
    for p in &played {
        for s in &p.seats {
            // The union-find check of the player's own network.
            let eval = evaluate(&b, &s.routes, &s.tickets);
            let failed: i64 = s
                .tickets
                .iter()
                .filter(|t| !eval.completed.contains(t))
                .map(|&t| b.ticket(t).points as i64)
                .sum();
            assert_eq!(
                eval.route_points as i64 + eval.ticket_points as i64 - failed,
                s.network_score,
                "game {} {}",
                s.game,
                s.strategy
            );
            assert!(eval.cars_used <= 45);
            // Alone on the board with 45 cars and the same tickets, the
            // optimum is an upper bound on what the player made of them.
            let alone = GameState {
                players: 2,
                cars_left: 45,
                owned: vec![],
                taken: vec![],
                tickets: s.tickets.clone(),
                may_draw: false,
                stations: None,
            };
            let options = SolveOptions {
                method: Method::Frontier,
                ..SolveOptions::default()
            };
            let best = replan(&b, &alone, &options).unwrap();
            assert!(best.outcome.proven);
            assert!(
                s.network_score <= best.score,
                "game {} {}: {} above the optimum {}",
                s.game,
                s.strategy,
                s.network_score,
                best.score
            );
            assert!(s.network_score <= 285);
        }
    }
    let summary = summarise(&played, &names, 285);
    assert_eq!(summary.len(), 3);
    for s in &summary {
        assert_eq!(s.seats, 6);
        assert!(s.min as f64 <= s.median && s.median <= s.max as f64);
        assert!(s.best_network_score <= 285);
        assert!(s.mean_gap_to_optimum >= 0.0);
    }
}

#[test]
fn quantiles_interpolate() {
    let v = [10, 20, 30, 40];
    assert_eq!(quantile(&v, 0.0), 10.0);
    assert_eq!(quantile(&v, 0.5), 25.0);
    assert_eq!(quantile(&v, 1.0), 40.0);
    assert_eq!(quantile(&[7], 0.9), 7.0);
    assert_eq!(quantile(&[], 0.5), 0.0);
}

#[test]
fn simulate_command_writes_its_files() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-sim-{}", std::process::id()));
    let out = ttr_opt_ok(&[
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "30",
        "--seed",
        "5",
        "--optimum",
        "285",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "--plot",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    assert_eq!(v["games"], 30);
    assert_eq!(v["optimum"], 285);
    let strategies = v["strategies"].as_array().unwrap();
    assert_eq!(strategies.len(), 2);
    for s in strategies {
        assert_eq!(s["seats"], 30);
        assert!(s["max"].as_i64().unwrap() <= 285 + 10);
    }
    let csv = std::fs::read_to_string(dir.join("simulate-greedy-random.csv")).unwrap();
    assert_eq!(csv.lines().count(), 61, "a header and two seats per game");
    for ext in ["png", "svg"] {
        let path = dir.join(format!("simulate-greedy-random.{ext}"));
        assert!(
            std::fs::metadata(&path).unwrap().len() > 1000,
            "{}",
            path.display()
        );
    }
    // The same seed gives the same games.
    let again = ttr_opt(&[
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "30",
        "--seed",
        "5",
        "--optimum",
        "285",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("simulate-greedy-random.csv")).unwrap(),
        csv
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_rejects_bad_players() {
    // Bad command lines: exit status 2.
    let out = ttr_opt(&["simulate", "--players", "greedy,genius", "--games", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("'genius'") && err.contains("unknown strategy"),
        "{err}"
    );
    let out = ttr_opt(&["simulate", "--players", "greedy", "--games", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("2 to 5 players"));
}

#[test]
fn games_played_in_chunks_are_the_games_of_one_run() {
    use ttr_opt::leagues::simulate::GameRecord;
    let b = ttr_opt::board::Board::usa();
    let names = ["greedy", "random", "greedy"];
    let whole = simulate(&b, &names, &SimulateOptions::games(7, 11)).unwrap();
    let seats = |played: &[ttr_opt::leagues::simulate::Played]| {
        played
            .iter()
            .flat_map(|p| {
                p.seats.iter().map(|s| {
                    (
                        serde_json::to_value(s).unwrap(),
                        s.routes.clone(),
                        s.tickets.clone(),
                    )
                })
            })
            .collect::<Vec<_>>()
    };
    for chunk in [1u64, 3, 7] {
        let mut played = Vec::new();
        let mut first = 0;
        while first < 7 {
            let end = (first + chunk).min(7);
            // Through the record a distributed chunk hands back.
            let chunk = SimulateOptions {
                games: first..end,
                ..SimulateOptions::games(0, 11)
            };
            for p in simulate(&b, &names, &chunk).unwrap() {
                let text = serde_json::to_string(&GameRecord::of(&p)).unwrap();
                let record: GameRecord = serde_json::from_str(&text).unwrap();
                played.push(record.played(&b).unwrap());
            }
            first = end;
        }
        assert_eq!(seats(&played), seats(&whole), "chunks of {chunk}");
    }
    // A record naming a route the board lacks is refused, not trusted.
    let mut bad = GameRecord::of(&whole[0]);
    bad.seats[0].route_ids.push(b.routes.len());
    assert!(bad.played(&b).unwrap_err().contains("route"));
}
