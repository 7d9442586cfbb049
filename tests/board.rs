//! Loading and validating board files.

mod common;

use ttr_opt::board::{Board, BoardError};

#[test]
fn usa_board_is_the_original() {
    let board = common::usa();
    assert_eq!(board.cities.len(), 36);
    assert_eq!(
        board.routes.len(),
        78,
        "city pairs once double routes are merged"
    );
    let tracks: usize = board.routes.iter().map(|r| r.tracks.len()).sum();
    assert_eq!(tracks, 100, "tracks printed on the board");
    assert_eq!(board.tickets.len(), 30);
    assert_eq!(board.tickets.iter().map(|t| t.points).sum::<u32>(), 349);
    // Train-car spaces, as in shared/reference/usa-board.json.
    assert_eq!(board.routes.iter().map(|r| r.length).sum::<u32>(), 256);
    let spaces: u32 = board
        .routes
        .iter()
        .map(|r| r.length * r.tracks.len() as u32)
        .sum();
    assert_eq!(spaces, 309);
    assert_eq!(board.cars, 45);
    assert!(board.warnings.is_empty());
    // The rule card: length 1..6 scores 1, 2, 4, 7, 10, 15.
    for r in &board.routes {
        let expected = [0, 1, 2, 4, 7, 10, 15][r.length as usize];
        assert_eq!(r.points, expected, "route of length {}", r.length);
    }
    let denver = board.city_id("Denver").unwrap();
    let kc = board.city_id("Kansas City").unwrap();
    let route = board
        .routes
        .iter()
        .find(|r| (r.a, r.b) == (denver, kc) || (r.b, r.a) == (denver, kc))
        .unwrap();
    assert_eq!((route.length, route.tracks.len()), (4, 2));
}

/// The problems reported for `json`, which must fail validation.
fn problems(json: &str) -> Vec<String> {
    match Board::from_json(json, "bad.json") {
        Err(BoardError::Invalid { file, problems }) => {
            assert_eq!(file, "bad.json");
            let message = Board::from_json(json, "bad.json").unwrap_err().to_string();
            assert!(
                message.starts_with("bad.json:"),
                "message names the file: {message}"
            );
            problems
        }
        Err(other) => panic!("expected validation problems, got {other}"),
        Ok(_) => panic!("expected validation problems, the board loaded"),
    }
}

fn with(cities: &str, routes: &str, tickets: &str) -> String {
    format!(
        r#"{{ "name": "t", "cars": 10, "route_points": {{ "1": 1, "2": 2, "3": 4 }},
             "cities": [{cities}], "routes": [{routes}], "tickets": [{tickets}] }}"#
    )
}

const ABC: &str = r#"{ "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 }, { "name": "C", "x": 2, "y": 0 }"#;
const AB: &str = r#"{ "from": "A", "to": "B", "length": 1, "tracks": ["red"] }"#;

#[test]
fn malformed_json_names_line_and_column() {
    let err =
        Board::from_json("{\n  \"name\": \"t\",\n  \"cars\": ,\n}", "broken.json").unwrap_err();
    match err {
        BoardError::Json { file, line, .. } => {
            assert_eq!(file, "broken.json");
            assert_eq!(line, 3);
        }
        other => panic!("expected a JSON error, got {other}"),
    }
}

#[test]
fn unknown_field_is_rejected() {
    let json = with(
        ABC,
        r#"{ "from": "A", "to": "B", "lenght": 1, "tracks": ["red"] }"#,
        "",
    );
    let err = Board::from_json(&json, "typo.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("lenght"), "{err}");
}

#[test]
fn unknown_city() {
    let p = problems(&with(
        ABC,
        r#"{ "from": "A", "to": "Atlantis", "length": 1, "tracks": ["red"] }"#,
        "",
    ));
    assert_eq!(p.len(), 1);
    assert!(
        p[0].contains("routes[0]") && p[0].contains("unknown city \"Atlantis\""),
        "{p:?}"
    );
}

#[test]
fn self_loop() {
    let p = problems(&with(
        ABC,
        r#"{ "from": "A", "to": "A", "length": 1, "tracks": ["red"] }"#,
        "",
    ));
    assert!(
        p[0].contains("routes[0]") && p[0].contains("same city"),
        "{p:?}"
    );
}

#[test]
fn non_positive_length() {
    for length in [0, -2] {
        let route =
            format!(r#"{{ "from": "A", "to": "B", "length": {length}, "tracks": ["red"] }}"#);
        let p = problems(&with(ABC, &route, ""));
        assert!(p[0].contains("length must be positive"), "{p:?}");
    }
}

#[test]
fn duplicate_city_names() {
    let cities = format!(r#"{ABC}, {{ "name": "B", "x": 5, "y": 5 }}"#);
    let p = problems(&with(&cities, AB, ""));
    assert!(
        p[0].contains("cities[3]") && p[0].contains("duplicate city name \"B\""),
        "{p:?}"
    );
}

#[test]
fn ticket_with_unknown_city_and_bad_points() {
    let p = problems(&with(
        ABC,
        AB,
        r#"{ "from": "A", "to": "Z", "points": 5 }, { "from": "A", "to": "B", "points": 0 }"#,
    ));
    assert_eq!(p.len(), 2, "{p:?}");
    assert!(p[0].contains("tickets[0]") && p[0].contains("\"Z\""));
    assert!(p[1].contains("tickets[1]") && p[1].contains("points must be positive"));
}

#[test]
fn every_problem_is_reported_at_once() {
    let routes = r#"{ "from": "A", "to": "A", "length": 1, "tracks": ["red"] },
                    { "from": "B", "to": "Q", "length": 2, "tracks": ["red"] },
                    { "from": "B", "to": "C", "length": 9, "tracks": ["red"] }"#;
    let p = problems(&with(
        ABC,
        routes,
        r#"{ "from": "X", "to": "B", "points": 3 }"#,
    ));
    assert_eq!(p.len(), 4, "{p:?}");
    assert!(p[2].contains("no score for length 9"), "{p:?}");
}

#[test]
fn duplicate_city_pair_must_be_one_entry() {
    let p = problems(&with(ABC, &format!("{AB}, {AB}"), ""));
    assert!(
        p[0].contains("routes[1]") && p[0].contains("routes[0]"),
        "{p:?}"
    );
}

#[test]
fn disconnected_ticket_is_dropped_with_a_warning() {
    let board = Board::from_json(
        &with(
            ABC,
            AB,
            r#"{ "from": "A", "to": "C", "points": 5 }, { "from": "A", "to": "B", "points": 2 }"#,
        ),
        "t.json",
    )
    .unwrap();
    assert_eq!(board.tickets.len(), 1);
    assert_eq!(board.warnings.len(), 1);
    assert!(board.warnings[0].contains("A – C"), "{:?}", board.warnings);
}

#[test]
fn missing_file_is_an_error() {
    let err = Board::load(std::path::Path::new("no/such/board.json"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no/such/board.json"), "{err}");
}
