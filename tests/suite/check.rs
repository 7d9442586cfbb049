//! `ttr-opt check`: a player's own plan, judged legal or not, scored by the
//! verifier and set beside the optimum; bad plan files named by entry.

use crate::common;

use std::process::Command;

use ttr_opt::analysis::check::{check, PlanCheck, PlanFile};
use ttr_opt::board::Board;

fn ttr_opt(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ttr-opt"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn data(path: &str) -> String {
    format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The verdict on a plan given as JSON text.
fn verdict(board: &Board, text: &str, cars: u32) -> PlanCheck {
    let plan = PlanFile::from_json(text, "plan.json").unwrap();
    let claimed = plan.claimed(board).unwrap();
    check(board, &claimed, cars).unwrap()
}

/// The problems reported for a plan file that does not load.
fn load_error(board: &Board, text: &str) -> String {
    match PlanFile::from_json(text, "plan.json").and_then(|p| p.claimed(board)) {
        Ok(_) => panic!("{text} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_papers_plan_is_legal_and_optimal() {
    let out = ttr_opt(&["check", &data("plans/usa-285.json"), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["legal"], true);
    assert_eq!(
        (v["score"].as_u64(), v["optimum"].as_u64()),
        (Some(285), Some(285))
    );
    assert_eq!(
        (v["ticket_points"].as_u64(), v["cars_used"].as_u64()),
        (Some(223), Some(45))
    );
    assert_eq!(v["short_of_optimum"], 0);
    assert_eq!(v["tickets"].as_array().unwrap().len(), 16);
    // The USA board has one optimum at 45 cars: nothing differs.
    for key in [
        "optimum_routes_not_in_plan",
        "plan_routes_not_in_optimum",
        "optimum_tickets_not_in_plan",
        "plan_tickets_not_in_optimum",
    ] {
        assert_eq!(v[key].as_array().unwrap().len(), 0, "{key}");
    }
}

#[test]
fn a_players_plan_is_scored_by_the_verifier_and_measured_against_the_optimum() {
    let board = common::usa();
    let text = std::fs::read_to_string(data("plans/coast-to-coast.json")).unwrap();
    let v = verdict(&board, &text, 45);
    assert!(v.legal, "{:?}", v.problems);
    // Routes by the rule card (1, 2, 4, 7, 10, 15 points for 1..6 cars):
    // lengths 1 5 3 3 5 4 4 3 2 6 6 2.
    let routes: u32 = [1, 5, 3, 3, 5, 4, 4, 3, 2, 6, 6, 2]
        .iter()
        .map(|l| [0, 1, 2, 4, 7, 10, 15][*l as usize])
        .sum();
    assert_eq!((v.route_points, v.cars_used), (routes, 44));
    // Tickets by the tests' own union-find.
    let ids: Vec<_> = board
        .route_ids()
        .filter(|&r| v.routes.contains(&board.route_label(r)))
        .collect();
    assert_eq!(ids.len(), 12);
    let (_, score) = common::independent_score(&board, &ids);
    assert_eq!(v.score, score);
    assert_eq!((v.optimum, v.optimum_proven), (285, true));
    assert_eq!(v.short_of_optimum, 285 - score as i64);
    // Seattle – New York (22) is completed; Boston – Miami (12) is the
    // optimum's and not the plan's.
    assert!(v.tickets.iter().any(|t| t.name == "Seattle – New York"));
    assert!(v
        .optimum_tickets_not_in_plan
        .contains(&"Boston – Miami".to_string()));
    assert!(v
        .plan_routes_not_in_optimum
        .contains(&"Duluth – Helena".to_string()));
}

#[test]
fn rules_a_plan_breaks_are_named_and_it_is_still_scored() {
    let board = common::usa();
    let text = std::fs::read_to_string(data("plans/coast-to-coast.json")).unwrap();
    // 44 cars against 40.
    let v = verdict(&board, &text, 40);
    assert!(!v.legal);
    assert_eq!(
        v.problems,
        vec!["the routes take 44 cars, 4 more than the 40 available"]
    );
    assert_eq!(v.cars_used, 44);
    // A single route twice, and both tracks of a double route.
    let v = verdict(
        &board,
        r#"{ "routes": [
            { "from": "Atlanta", "to": "Miami" },
            { "from": "Seattle", "to": "Portland" },
            { "from": "Miami", "to": "Atlanta" },
            { "from": "Portland", "to": "Seattle" } ] }"#,
        45,
    );
    assert!(!v.legal);
    assert_eq!(v.problems.len(), 2, "{:?}", v.problems);
    assert!(v.problems[0].starts_with("routes[0] and routes[2]: Atlanta – Miami"));
    assert!(v.problems[0].ends_with("is listed twice"));
    assert!(v.problems[1].starts_with("routes[1] and routes[3]: two tracks of"));
    // Each distinct route counts once: 5 + 1 cars.
    assert_eq!((v.cars_used, v.route_points), (6, 10 + 1));
    // The command line prints the verdict and exits 1.
    let dir = std::env::temp_dir().join(format!("ttr-opt-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("plan.json");
    std::fs::write(&path, text).unwrap();
    let out = ttr_opt(&[
        "check",
        path.to_str().unwrap(),
        "--board",
        &data("usa.json"),
        "--cars",
        "40",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Legal: NO"), "{stdout}");
    assert!(stdout.contains("4 more than the 40 available"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_plan_files_name_the_entry() {
    let board = common::usa();
    let e = load_error(
        &board,
        r#"{ "routes": [ { "from": "Atlanta", "to": "Miami" }, { "from": "Atlantis", "to": "Miami" },
            { "from": "Denver", "to": "Miami" }, { "from": "Denver" } ], "cars": 0, "colour": 1 }"#,
    );
    for part in [
        "plan.json",
        "routes[1]: unknown city \"Atlantis\"",
        "routes[2]: no route between Denver and Miami",
        "routes[3]: missing field \"to\"",
        "cars: expected a whole number from 1 to 10000, got 0",
        "unknown field \"colour\"",
    ] {
        assert!(e.contains(part), "{part:?} not in {e}");
    }
    assert!(load_error(&board, r#"{ "cars": 4 }"#).contains("missing field \"routes\""));
    assert!(load_error(&board, "[1, 2]").contains("expected an object"));
    assert!(load_error(&board, "{ \"routes\": [ }").contains("line 1"));
    // The command line: exit 1, the file and entry named, no panic.
    let dir = std::env::temp_dir().join(format!("ttr-opt-badplan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.json");
    std::fs::write(
        &path,
        r#"{ "routes": [ { "from": "Atlantis", "to": "Miami" } ] }"#,
    )
    .unwrap();
    let out = ttr_opt(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mine.json") && stderr.contains("routes[0]: unknown city"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unequal_tracks_are_named_by_length() {
    // A – B has a 2-car and a 3-car track; ticket A – C (10) over B – C.
    let b = common::board_with_tracks(
        &["A", "B", "C", "D"],
        &[
            ("A", "B", vec![(2, None), (3, None)]),
            ("B", "C", vec![(1, None)]),
            ("C", "D", vec![(5, None)]),
        ],
        &[("A", "C", 10)],
    );
    let e = load_error(&b, r#"{ "routes": [ { "from": "A", "to": "B" } ] }"#);
    assert!(
        e.contains("routes[0]: A – B has tracks of different lengths"),
        "{e}"
    );
    // The long track: 4 points + 1 + ticket 10 in 4 cars; the optimum at 4
    // cars is the same (the short track leaves a car with nothing to buy).
    let v = verdict(
        &b,
        r#"{ "routes": [ { "from": "A", "to": "B", "length": 3 }, { "from": "B", "to": "C" } ] }"#,
        4,
    );
    assert!(v.legal);
    assert_eq!((v.score, v.cars_used, v.optimum), (15, 4, 15));
    // Both tracks of the pair: not allowed.
    let v = verdict(
        &b,
        r#"{ "routes": [ { "from": "A", "to": "B", "length": 3 }, { "from": "B", "to": "A", "length": 2 } ] }"#,
        10,
    );
    assert!(!v.legal);
    assert!(
        v.problems[0].contains("two tracks of A – B"),
        "{:?}",
        v.problems
    );
}
