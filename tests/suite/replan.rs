//! Partial-game re-optimisation: game-state files, their errors, and answers
//! checked against plain solves and hand-derived values.

use crate::common;

use ttr_opt::analysis::blocked;
use ttr_opt::board::verify::evaluate;
use ttr_opt::board::Board;
use ttr_opt::engine::state::{GameState, StateError};
use ttr_opt::model::Instance;
use ttr_opt::plans::replan::{replan, Replan};
use ttr_opt::solve::{solve, SolveOptions};

fn state(board: &Board, json: serde_json::Value) -> Result<GameState, StateError> {
    GameState::from_json(&json.to_string(), "state.json", board)
}

fn answer(board: &Board, json: serde_json::Value) -> Replan {
    let s = state(board, json).expect("a valid state");
    let r = replan(board, &s, &SolveOptions::default()).expect("replanning works");
    // Re-check the final network here too, independently of replan's check.
    let mut network = r.owned.clone();
    network.extend(&r.claim);
    let eval = evaluate(board, &network, &s.tickets);
    let completed: Vec<_> = eval.completed.clone();
    assert_eq!(completed, {
        let mut c = r.completed.clone();
        c.sort();
        c
    });
    assert!(r.claim_cars <= s.cars_left);
    r
}

/// Errors of a state, as one string.
fn problems(board: &Board, json: serde_json::Value) -> String {
    state(board, json)
        .expect_err("an invalid state")
        .to_string()
}

#[test]
fn an_empty_state_is_the_plain_problem() {
    let b = common::usa();
    for cars in [20, 45] {
        let r = answer(
            &b,
            serde_json::json!({ "board": "x", "players": 4, "cars_left": cars, "may_draw": true }),
        );
        let plain = solve(&Instance::new(&b, cars), &SolveOptions::default()).unwrap();
        assert!(r.outcome.proven);
        assert_eq!(r.score, plain.plan.score() as i64, "{cars} cars");
        assert_eq!(r.bound, r.score);
        assert_eq!(r.owned_points, 0);
        assert!(r.completed.is_empty() && r.lost.is_empty());
    }
}

#[test]
fn blocking_a_route_of_the_optimum_lowers_the_score_and_the_plan_avoids_it() {
    let b = common::usa();
    let portland_seattle = b
        .route_ids()
        .find(|&r| b.route_label(r) == "Portland – Seattle")
        .unwrap();
    // With 2 players one taken track closes the double route; with 4 players
    // both must be taken.
    for (players, taken) in [
        (
            2,
            serde_json::json!([{ "from": "Seattle", "to": "Portland" }]),
        ),
        (
            4,
            serde_json::json!([{ "from": "Seattle", "to": "Portland" }, { "from": "Portland", "to": "Seattle" }]),
        ),
    ] {
        let r = answer(
            &b,
            serde_json::json!({ "board": "x", "players": players, "cars_left": 45, "taken": taken, "may_draw": true }),
        );
        let expected = solve(&blocked(&b, 45, portland_seattle), &SolveOptions::default()).unwrap();
        assert!(r.score < 285, "{players} players: {}", r.score);
        assert_eq!(r.score, expected.plan.score() as i64);
        assert!(!r.claim.contains(&portland_seattle));
    }
    // With 4 players and one track taken, the other is still there: 285.
    let r = answer(
        &b,
        serde_json::json!({ "board": "x", "players": 4, "cars_left": 45,
            "taken": [{ "from": "Seattle", "to": "Portland" }], "may_draw": true }),
    );
    assert_eq!(r.score, 285);
}

/// A–B–C–D in a line, one car each (1 point), tickets A–C (5) and B–D (4).
fn line() -> Board {
    common::board(
        &["A", "B", "C", "D"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 1)],
        &[("A", "C", 5), ("B", "D", 4)],
    )
}

#[test]
fn a_ticket_that_cannot_be_completed_is_lost_with_its_points() {
    let b = line();
    // B–C is gone: A–C can never be completed. With 2 cars: claim A–B and
    // C–D for 2 points; both held tickets are lost: 2 − 5 − 4 = −7.
    let r = answer(
        &b,
        serde_json::json!({ "board": "x", "players": 2, "cars_left": 2,
            "taken": [{ "from": "B", "to": "C" }],
            "tickets": [{ "from": "A", "to": "C" }, { "from": "D", "to": "B" }] }),
    );
    assert_eq!(r.score, -7);
    assert_eq!(r.claim_points, 2);
    assert!(r.completed.is_empty());
    let lost: Vec<String> = r.lost.iter().map(|&t| b.ticket_label(t)).collect();
    assert_eq!(lost, vec!["A – C", "B – D"]);
}

#[test]
fn owned_routes_already_completing_a_ticket_count_it() {
    let b = line();
    // A–B and B–C owned (2 points earned), A–C held, no cars left: 2 + 5.
    let r = answer(
        &b,
        serde_json::json!({ "board": "x", "players": 2, "cars_left": 0,
            "owned": [{ "from": "A", "to": "B" }, { "from": "B", "to": "C" }],
            "tickets": [{ "from": "C", "to": "A" }] }),
    );
    assert_eq!(r.score, 7);
    assert_eq!(r.owned_points, 2);
    assert_eq!(r.to_gain(), 5);
    assert!(r.claim.is_empty());
    assert_eq!(r.completed.len(), 1);
    // One car left: C–D completes B–D too (held): 2 + 1 + 5 + 4.
    let r = answer(
        &b,
        serde_json::json!({ "board": "x", "players": 2, "cars_left": 1,
            "owned": [{ "from": "A", "to": "B" }, { "from": "B", "to": "C" }],
            "tickets": [{ "from": "C", "to": "A" }, { "from": "B", "to": "D" }] }),
    );
    assert_eq!(r.score, 12);
}

#[test]
fn tickets_not_held_count_only_when_more_may_be_drawn() {
    let b = line();
    let base = serde_json::json!({ "board": "x", "players": 2, "cars_left": 3 });
    let r = answer(&b, base.clone());
    assert_eq!(r.score, 3, "routes only");
    let mut draw = base;
    draw["may_draw"] = serde_json::json!(true);
    let r = answer(&b, draw);
    assert_eq!(r.score, 3 + 5 + 4);
    assert_eq!(r.drawn.len(), 2);
}

#[test]
fn the_late_game_example_gives_up_the_22_point_ticket() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/states/late.json"
    ));
    let (b, s) = GameState::load(path).unwrap();
    let r = replan(&b, &s, &SolveOptions::default()).unwrap();
    // Hand-derived: 10 cars can connect Miami (Atlanta – Charleston –
    // Miami, 6 cars) and Pittsburgh (Nashville – Pittsburgh, 4): +20 +10,
    // 16 route points; or New York (Nashville – Pittsburgh – New York, 6)
    // for +22 but then both Miami tickets are lost. 46 owned + 16 + 13 +
    // 20 + 10 − 22 = 83.
    assert_eq!(r.score, 83);
    let lost: Vec<String> = r.lost.iter().map(|&t| b.ticket_label(t)).collect();
    assert_eq!(lost, vec!["Seattle – New York"]);
    assert_eq!(r.owned_points, 46);
}

#[test]
fn every_example_state_loads_and_is_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/states"));
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let (b, s) = GameState::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let r = replan(&b, &s, &SolveOptions::default()).unwrap();
        assert!(r.outcome.proven, "{}", path.display());
        assert!(r.score <= r.bound);
        names.push(path.file_name().unwrap().to_string_lossy().to_string());
    }
    names.sort();
    assert_eq!(
        names,
        vec![
            "early.json",
            "europe-draw.json",
            "europe.json",
            "late.json",
            "mid.json"
        ]
    );
}

#[test]
fn bad_states_are_clear_errors_naming_the_entry() {
    let b = common::usa();
    let base = |extra: serde_json::Value| {
        let mut v = serde_json::json!({ "board": "x", "players": 4, "cars_left": 10 });
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let cases = [
        (
            base(serde_json::json!({
                "owned": [{ "from": "Denver", "to": "Kansas City", "track": "black" }],
                "taken": [{ "from": "Kansas City", "to": "Denver", "track": "black" }] })),
            "owned[0] and taken[0]: Denver – Kansas City (black) is both owned by the player and taken by others",
        ),
        (
            base(serde_json::json!({ "owned": [{ "from": "Denvr", "to": "Omaha" }] })),
            "owned[0]: unknown city \"Denvr\"",
        ),
        (
            base(serde_json::json!({ "taken": [{ "from": "Denver", "to": "Miami" }] })),
            "taken[0]: no route between Denver and Miami",
        ),
        (
            base(serde_json::json!({ "owned": [{ "from": "Denver", "to": "Kansas City", "track": "blue" }] })),
            "owned[0]: Denver – Kansas City has no blue track (its tracks: black and orange)",
        ),
        (
            base(serde_json::json!({ "owned": [{ "from": "Denver", "to": "Kansas City" }] })),
            "owned[0]: Denver – Kansas City is a double route: say which track",
        ),
        (
            base(serde_json::json!({ "owned": [{ "from": "Denver", "to": "Omaha", "track": "blue" }] })),
            "owned[0]: Denver – Omaha has no blue track (its tracks: pink)",
        ),
        (
            base(serde_json::json!({ "cars_left": -3 })),
            "cars_left: expected a whole number from 0 to 10000, got -3",
        ),
        (
            base(serde_json::json!({ "cars_left": 46 })),
            "cars_left: 46 is more than the 45 cars a player starts with",
        ),
        (
            base(serde_json::json!({ "cars_left": 40,
                "owned": [{ "from": "Denver", "to": "Omaha" }, { "from": "Los Angeles", "to": "Phoenix" }] })),
            "owned routes use 7 cars and cars_left is 40: together more than the 45 cars",
        ),
        (
            base(serde_json::json!({ "tickets": [
                { "from": "Denver", "to": "El Paso" }, { "from": "Dallas", "to": "New York" },
                { "from": "El Paso", "to": "Denver" }] })),
            "tickets[0] and tickets[2]: Denver – El Paso is listed twice",
        ),
        (
            base(serde_json::json!({ "tickets": [{ "from": "Denver", "to": "Miami" }] })),
            "tickets[0]: the board has no ticket Denver – Miami",
        ),
        (
            base(serde_json::json!({ "players": 6 })),
            "players: expected a whole number from 2 to 5, got 6",
        ),
        (
            base(serde_json::json!({ "players": 3,
                "owned": [{ "from": "Seattle", "to": "Portland" }],
                "taken": [{ "from": "Seattle", "to": "Portland" }] })),
            "Portland – Seattle: both tracks are claimed, but with 3 players only one track",
        ),
        (
            base(serde_json::json!({
                "owned": [{ "from": "Seattle", "to": "Portland" }, { "from": "Seattle", "to": "Portland" }] })),
            "a player may claim only one track of a double route",
        ),
        (
            base(serde_json::json!({ "taken": [{ "from": "Denver", "to": "Omaha" }, { "from": "Omaha", "to": "Denver" }] })),
            "taken[0] and taken[1]: Denver – Omaha is listed twice",
        ),
        (base(serde_json::json!({ "cars": 3 })), "unknown field \"cars\" (known: board, players"),
    ];
    for (json, expected) in cases {
        let message = problems(&b, json.clone());
        assert!(
            message.contains(expected) && message.starts_with("state.json"),
            "for {json}\nexpected: {expected}\ngot: {message}"
        );
    }
    // Several problems are reported together.
    let message = problems(
        &b,
        base(
            serde_json::json!({ "cars_left": -1, "players": 1, "tickets": [{ "from": "X", "to": "Denver" }] }),
        ),
    );
    assert!(message.contains("3 problem(s)"), "{message}");
}
