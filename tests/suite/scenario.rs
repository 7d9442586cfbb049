//! What-if scenarios: edits applied to a board file, their errors, and the
//! comparison against the base board (hand-derived values).

use crate::common;

use ttr_opt::analysis::scenario::{compare, Scenario, ScenarioError};
use ttr_opt::board::Board;

/// A–B–C–D in a line: A–B 1 car, B–C 2 cars, C–D 3 cars (1, 2 and 4
/// points); tickets A–C 5 and B–D 4.
const LINE: &str = r#"{ "name": "line", "cars": 6,
  "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
  "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
              { "name": "C", "x": 2, "y": 0 }, { "name": "D", "x": 3, "y": 0 } ],
  "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["gray"] },
              { "from": "B", "to": "C", "length": 2, "tracks": ["gray"] },
              { "from": "C", "to": "D", "length": 3, "tracks": ["gray"] } ],
  "tickets": [ { "from": "A", "to": "C", "points": 5 }, { "from": "B", "to": "D", "points": 4 } ] }"#;

fn variant(changes: serde_json::Value) -> Result<Board, ScenarioError> {
    let text = serde_json::json!({ "name": "what if", "changes": changes }).to_string();
    Scenario::from_json(&text, "what-if.json")?.apply(LINE, "what-if.json")
}

fn optimum(board: &Board, cars: u32) -> u32 {
    common::optimum(board, cars, ttr_opt::solve::Method::Auto)
}

#[test]
fn every_kind_of_change_is_applied() {
    let base = Board::from_json(LINE, "line.json").unwrap();
    // 3 cars: A–B–C for 1 + 2 + 5 = 8.
    assert_eq!(optimum(&base, 3), 8);
    // A–C worth 1: A–B–C scores 4; C–D alone (3 cars) scores 4 too.
    let v = variant(serde_json::json!([{ "set_ticket": { "from": "C", "to": "A", "points": 1 } }]))
        .unwrap();
    assert_eq!(optimum(&v, 3), 4);
    // C–D shortened to 1 car (1 point by the rule card): 4 cars claim all
    // three routes, 1 + 2 + 1 + 5 + 4 = 13 (the base board makes 8 of 4).
    let v = variant(serde_json::json!([{ "set_route": { "from": "C", "to": "D", "length": 1 } }]))
        .unwrap();
    assert_eq!((optimum(&base, 4), optimum(&v, 4)), (8, 13));
    // B–C worth 10 points: 1 + 10 + 5 = 16.
    let v = variant(serde_json::json!([{ "set_route": { "from": "B", "to": "C", "points": 10 } }]))
        .unwrap();
    assert_eq!(optimum(&v, 3), 16);
    // Without B–C nothing connects across: the best 3 cars is C–D, 4 points.
    let v = variant(serde_json::json!([{ "remove_route": { "from": "B", "to": "C" } }])).unwrap();
    assert_eq!(v.routes.len(), 2);
    assert_eq!(optimum(&v, 3), 4);
    // Without the A–C ticket: A–B–C scores 3, C–D 4.
    let v = variant(serde_json::json!([{ "remove_ticket": { "from": "A", "to": "C" } }])).unwrap();
    assert_eq!(v.tickets.len(), 1);
    assert_eq!(optimum(&v, 3), 4);
    // A new 1-car A–D route and a ticket A–D 9: 1 + 9 = 10 with one car.
    let v = variant(serde_json::json!([
        { "add_route": { "from": "A", "to": "D", "length": 1, "tracks": ["red"] } },
        { "add_ticket": { "from": "A", "to": "D", "points": 9 } }
    ]))
    .unwrap();
    assert_eq!(optimum(&v, 1), 10);
    // The car count, and the variant's name.
    let text = r#"{ "name": "short game", "cars": 2, "changes": [] }"#;
    let v = Scenario::from_json(text, "s.json")
        .unwrap()
        .apply(LINE, "s.json")
        .unwrap();
    assert_eq!((v.cars, v.name.as_str()), (2, "line (short game)"));
}

/// Every kind of change, written back by `Change::to_json`, is the file's
/// own entry, and reads back as the same change.
#[test]
fn every_kind_of_change_is_written_as_the_file_writes_it() {
    let written = serde_json::json!([
        { "set_ticket": { "from": "C", "to": "A", "points": 1 } },
        { "set_route": { "from": "C", "to": "D", "length": 1 } },
        { "set_route": { "from": "B", "to": "C", "points": 10 } },
        { "set_route": { "from": "B", "to": "C", "length": 2, "points": 3 } },
        { "remove_route": { "from": "B", "to": "C" } },
        { "remove_ticket": { "from": "A", "to": "C" } },
        { "add_route": { "from": "A", "to": "D", "length": 1, "tracks": ["red"] } },
        { "add_ticket": { "from": "A", "to": "D", "points": 9 } }
    ]);
    let text = serde_json::json!({ "name": "all", "changes": written }).to_string();
    let scenario = Scenario::from_json(&text, "all.json").unwrap();
    let back: Vec<serde_json::Value> = scenario.changes.iter().map(|c| c.to_json()).collect();
    assert_eq!(serde_json::Value::Array(back), written);
}

#[test]
fn changes_that_name_nothing_are_reported_together() {
    let err = variant(serde_json::json!([
        { "set_ticket": { "from": "A", "to": "D", "points": 3 } },
        { "remove_route": { "from": "A", "to": "C" } },
        { "set_route": { "from": "A", "to": "B" } }
    ]))
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("what-if.json: 3 problem(s)"), "{err}");
    assert!(err.contains("changes[0]: no ticket A – D"), "{err}");
    assert!(err.contains("changes[1]: no route A – C"), "{err}");
    assert!(
        err.contains("changes[2]: set_route A – B changes nothing"),
        "{err}"
    );
}

#[test]
fn a_change_that_breaks_the_board_is_reported_as_the_board_would_be() {
    let err = variant(serde_json::json!([
        { "add_route": { "from": "A", "to": "Z", "length": 2, "tracks": ["red"] } }
    ]))
    .unwrap_err()
    .to_string();
    assert!(err.contains("not valid") && err.contains("\"Z\""), "{err}");
}

#[test]
fn numbers_out_of_range_are_named_before_the_board_is_touched() {
    let err = variant(serde_json::json!([
        { "set_route": { "from": "A", "to": "B", "length": 0 } },
        { "set_ticket": { "from": "A", "to": "C", "points": 4294967296_u64 } }
    ]))
    .unwrap_err()
    .to_string();
    assert!(err.contains("2 problem(s)"), "{err}");
    assert!(
        err.contains("changes[0].set_route.length: expected a whole number from 1 to 100, got 0"),
        "{err}"
    );
    assert!(
        err.contains(
            "changes[1].set_ticket.points: expected a whole number from 1 to 1000, got 4294967296"
        ),
        "{err}"
    );
}

#[test]
fn a_malformed_scenario_names_line_and_column_or_the_entry() {
    let err = Scenario::from_json("{ \"name\": \"x\",\n \"changes\": [ { ] }", "s.json")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("s.json:2:"), "{err}");
    let err = Scenario::from_json(
        "{ \"name\": \" \",\n \"changes\": [ { \"rename\": 1 } ] }",
        "s.json",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("name: must not be empty"), "{err}");
    assert!(
        err.contains("changes[0]: unknown field \"rename\""),
        "{err}"
    );
}

#[test]
fn compare_sets_the_optima_side_by_side() {
    let base = Board::from_json(LINE, "line.json").unwrap();
    let v = variant(serde_json::json!([{ "set_ticket": { "from": "A", "to": "C", "points": 1 } }]))
        .unwrap();
    let c = compare(&base, &v, 1, &|_, _| {}).unwrap();
    assert_eq!(c.rows.len(), 6);
    for r in &c.rows {
        assert_eq!(r.base, optimum(&base, r.cars), "base at {}", r.cars);
        assert_eq!(r.variant, optimum(&v, r.cars), "variant at {}", r.cars);
        assert_eq!(r.change, r.variant as i64 - r.base as i64);
    }
    // 6 cars claim everything either way: 7 + 5 + 4 = 16 against 7 + 1 + 4 = 12.
    assert_eq!((c.base_score, c.variant_score), (16, 12));
    assert_eq!(c.tickets_both, vec!["A – C", "B – D"]);
    assert!(c.tickets_base_only.is_empty() && c.routes_variant_only.is_empty());
}

/// A base's optima carried to variants of the line, by hand: lowering A–C
/// to 1 point leaves the optima of 1, 2 and 5 cars (A–B; B–C; B–C and C–D,
/// completing B–D) as they are, proven without a solve, while 3 and 4 cars
/// (A–B and B–C, completing A–C: 8 points) and 6 cars must be solved again;
/// raising A–C to 9 points proves 3, 4 and 6 cars (8 + 4 = 12, 16 + 4 =
/// 20), whose optima complete it; shortening C–D
/// bounds nothing. The sweep of the variant takes the proven budgets as
/// they are and proves the rest.
#[test]
fn a_base_optimum_proves_the_variants_it_bounds() {
    use ttr_opt::analysis::carry::Carry;
    use ttr_opt::analysis::scenario::sweep_variant;
    use ttr_opt::solve::sweep::{sweep, Prior};
    use ttr_opt::solve::Produced as Method;

    let base = Board::from_json(LINE, "line.json").unwrap();
    let base_sweep = sweep(&base, 1, 6, 1, &|_| {}).unwrap();
    let base_scores: Vec<u32> = base_sweep.iter().map(|e| e.outcome.plan.score()).collect();
    assert_eq!(base_scores, [1, 2, 8, 8, 10, 16]);
    let proven_at = |v: &Board| -> Vec<(u32, u32)> {
        let carry = Carry::new(&base, v);
        base_sweep
            .iter()
            .filter_map(|e| {
                match carry.carry(e.cars, &e.outcome.plan.routes, e.outcome.plan.score()) {
                    Ok(Prior::Proven(o)) => Some((e.cars, o.plan.score())),
                    _ => None,
                }
            })
            .collect()
    };

    let lower =
        variant(serde_json::json!([{ "set_ticket": { "from": "A", "to": "C", "points": 1 } }]))
            .unwrap();
    assert_eq!(Carry::new(&base, &lower).gain(), Some(0));
    assert_eq!(proven_at(&lower), [(1, 1), (2, 2), (5, 10)]);
    let entries = sweep_variant(&base, &base_sweep, &lower, 1, &|_| {}).unwrap();
    for e in &entries {
        assert_eq!(
            e.outcome.plan.score(),
            optimum(&lower, e.cars),
            "{} cars",
            e.cars
        );
        let carried = [1, 2, 5].contains(&e.cars);
        assert_eq!(e.outcome.method == Method::Base, carried, "{} cars", e.cars);
    }

    let raise =
        variant(serde_json::json!([{ "set_ticket": { "from": "A", "to": "C", "points": 9 } }]))
            .unwrap();
    assert_eq!(Carry::new(&base, &raise).gain(), Some(4));
    assert_eq!(proven_at(&raise), [(3, 12), (4, 12), (6, 20)]);

    let shorter =
        variant(serde_json::json!([{ "set_route": { "from": "C", "to": "D", "length": 2 } }]))
            .unwrap();
    assert_eq!(Carry::new(&base, &shorter).gain(), None);
    assert!(proven_at(&shorter).is_empty());
}
