//! Loading and validating board files.

use crate::common;

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
        assert_eq!(
            p[0],
            format!("routes[0].length: expected a whole number from 1 to 100, got {length}"),
            "{p:?}"
        );
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
    assert_eq!(
        p[1],
        "tickets[1].points: expected a whole number from 1 to 1000, got 0"
    );
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

#[test]
fn multi_trip_tickets_load_as_one_card_with_trips() {
    let board = Board::from_json(
        &with(
            ABC,
            &format!(r#"{AB}, {{ "from": "B", "to": "C", "length": 2, "tracks": ["red"] }}"#),
            r#"{ "from": "A", "to": "B", "points": 3 },
               { "name": "A - {B, C}", "trips": [ { "from": "A", "to": "B", "points": 4 },
                                                  { "from": "A", "to": "C", "points": 9 } ] }"#,
        ),
        "t.json",
    )
    .expect("valid");
    assert_eq!(board.tickets.len(), 3);
    assert_eq!(board.cards.len(), 2);
    assert_eq!(board.cards[1].name, "A - {B, C}");
    assert_eq!(board.cards[1].trips.len(), 2);
    assert!(board.has_multi_trip());
    // Of the connected trips, the best of each ticket scores.
    let ids: Vec<_> = board.ticket_ids().collect();
    let scoring = board.scoring(ids.iter().copied());
    let points: Vec<u32> = scoring.iter().map(|&t| board.ticket(t).points).collect();
    assert_eq!(points, vec![3, 9]);
    assert_eq!(board.cards[0].name, "A – B");
}

#[test]
fn a_ticket_needs_one_shape_and_named_trips_are_checked() {
    let p = problems(&with(
        ABC,
        AB,
        r#"{ "from": "A", "to": "B", "points": 3, "trips": [ { "from": "A", "to": "B", "points": 4 } ] },
           { "name": "empty", "trips": [] },
           { "name": "bad", "trips": [ { "from": "A", "to": "Q", "points": 4 }, { "from": "A", "to": "B", "points": -1 } ] },
           { "from": "A", "to": "B" }"#,
    ));
    assert_eq!(p.len(), 5, "{p:?}");
    assert!(p[0].contains("tickets[0]") && p[0].contains("either"));
    assert_eq!(p[1], "tickets[1].trips: must not be empty");
    assert!(p[2].contains("tickets[2].trips[0]") && p[2].contains("\"Q\""));
    assert!(p[3].contains("tickets[2].trips[1].points") && p[3].contains("from 1 to 1000, got -1"));
    assert!(p[4].contains("tickets[3]"));
}

use common::shipped;

/// (cities, city pairs, tracks, train spaces over all tracks, tickets,
/// trips, cars) of a board.
fn counts(b: &Board) -> (usize, usize, usize, u32, usize, usize, u32) {
    let tracks = b.routes.iter().map(|r| r.tracks.len()).sum();
    let spaces = b
        .routes
        .iter()
        .map(|r| r.length * r.tracks.len() as u32)
        .sum();
    (
        b.cities.len(),
        b.routes.len(),
        tracks,
        spaces,
        b.cards.len(),
        b.tickets.len(),
        b.cars,
    )
}

#[test]
fn shipped_boards_have_their_published_counts() {
    // Europe: 47 cities, 101 tracks, 46 tickets (40 regular, 6 long worth
    // 20–21), 444 ticket points; lengths 6 and 8 score 15 and 21.
    let europe = shipped("europe.json");
    assert_eq!(counts(&europe), (47, 90, 101, 300, 46, 46, 45));
    assert_eq!(europe.tickets.iter().map(|t| t.points).sum::<u32>(), 444);
    assert_eq!(europe.tickets.iter().filter(|t| t.points >= 20).count(), 6);
    for r in &europe.routes {
        let expected = match r.length {
            1 => 1,
            2 => 2,
            3 => 4,
            4 => 7,
            6 => 15,
            8 => 21,
            other => panic!("Europe has no route of length {other}"),
        };
        assert_eq!(r.points, expected);
    }
    // Switzerland (tCHu): 51 stations (17 abroad), 88 routes in 76 pairs,
    // 46 tickets of which 12 list several trips, 40 cars.
    let swiss = shipped("switzerland.json");
    assert_eq!(counts(&swiss), (51, 76, 88, 205, 46, 530, 40));
    assert_eq!(swiss.cards.iter().filter(|c| c.trips.len() > 1).count(), 12);
    assert!(swiss.routes.iter().all(|r| (1..=6).contains(&r.length)));
    // USA 1910: the same map as usa.json, other decks.
    let usa = common::usa();
    for (file, tickets, points) in [
        ("usa-1910.json", 35, 391),
        ("usa-mega.json", 69, 754),
        ("usa-big-cities.json", 35, 389),
    ] {
        let b = shipped(file);
        assert_eq!(b.cards.len(), tickets, "{file}");
        assert_eq!(
            b.tickets.iter().map(|t| t.points).sum::<u32>(),
            points,
            "{file}"
        );
        assert_eq!(
            serde_json::to_value(&b.routes).unwrap(),
            serde_json::to_value(&usa.routes).unwrap()
        );
        assert_eq!(
            serde_json::to_value(&b.cities).unwrap(),
            serde_json::to_value(&usa.cities).unwrap()
        );
    }
    for b in [&europe, &swiss] {
        assert!(b.warnings.is_empty(), "{}: {:?}", b.name, b.warnings);
    }
}

#[test]
fn shipped_boards_declare_their_own_rules() {
    // Europe: 18 tunnel tracks over 17 pairs, 13 ferry tracks over 11
    // (data/sources/europe.md), 3 stations for 1, 2, 3 cards at 4 points,
    // one long ticket dealt beside three.
    let europe = shipped("europe.json");
    let tracks = |b: &Board, f: &dyn Fn(&ttr_opt::board::Route) -> bool| -> usize {
        b.routes
            .iter()
            .filter(|r| f(r))
            .map(|r| r.tracks.len())
            .sum()
    };
    assert_eq!(tracks(&europe, &|r| r.tunnel), 18);
    assert_eq!(tracks(&europe, &|r| r.ferry > 0), 13);
    let locomotives: u32 = europe
        .routes
        .iter()
        .map(|r| r.ferry * r.tracks.len() as u32)
        .sum();
    // Athina-Smyrna 1, Brindisi-Athina 1, Brindisi-Palermo 1,
    // Constantinople-Sevastopol 2, Essen-Kobenhavn 1 (x2), London-Amsterdam
    // 2, London-Dieppe 1 (x2), Palermo-Smyrna 2, Roma-Palermo 1,
    // Sevastopol-Erzurum 2, Sevastopol-Sochi 1.
    assert_eq!(locomotives, 1 + 1 + 1 + 2 + 2 + 2 + 2 + 2 + 1 + 2 + 1);
    let stations = europe.rules.stations.as_ref().expect("Europe has stations");
    assert_eq!(
        (stations.costs.clone(), stations.points),
        (vec![1, 2, 3], 4)
    );
    assert_eq!(europe.rules.longest_path_bonus, 10);
    let deal = europe.rules.deal;
    assert_eq!((deal.tickets, deal.long, deal.keep), (3, 1, 2));
    // tCHu: 39 tunnel pairs (3 of them double), no ferries, no stations,
    // five tickets dealt and three kept.
    let swiss = shipped("switzerland.json");
    assert_eq!(swiss.routes.iter().filter(|r| r.tunnel).count(), 39);
    assert_eq!(tracks(&swiss, &|r| r.tunnel), 42);
    assert_eq!(tracks(&swiss, &|r| r.ferry > 0), 0);
    assert!(swiss.rules.stations.is_none());
    let deal = swiss.rules.deal;
    assert_eq!((deal.tickets, deal.long, deal.keep), (5, 0, 3));
    // The USA boards play the original rules.
    for file in [
        "usa.json",
        "usa-1910.json",
        "usa-mega.json",
        "usa-big-cities.json",
    ] {
        let b = shipped(file);
        assert_eq!(b.rules, ttr_opt::board::rules::Rules::default(), "{file}");
        assert!(b.routes.iter().all(|r| !r.tunnel && r.ferry == 0), "{file}");
    }
}

#[test]
fn tunnels_ferries_and_rules_are_validated() {
    let routes = r#"{ "from": "A", "to": "B", "length": 2, "tracks": ["red"], "tunnel": true, "ferry": 1 },
        { "from": "B", "to": "C", "length": 2, "tracks": ["gray"], "ferry": 3 },
        { "from": "A", "to": "C", "tracks": [ { "colour": "red", "length": 1, "tunnel": "yes" } ] }"#;
    let found = problems(&with(ABC, routes, ""));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("routes[0]") && p.contains("not both")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("routes[1].ferry") && p.contains("0 to 2")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("routes[2].tracks[0].tunnel")),
        "{found:?}"
    );
    let rules = |rules: &str| {
        format!(
            r#"{{ "name": "t", "cars": 10, "route_points": {{ "1": 1 }},
                 "cities": [{ABC}], "routes": [{AB}],
                 "tickets": [{{ "from": "A", "to": "B", "points": 3 }}], "rules": {rules} }}"#
        )
    };
    let found = problems(&rules(
        r#"{ "stations": { "costs": [], "points": -1 }, "deal": { "tickets": 3, "long": 1, "keep": 5 }, "bonus": 3 }"#,
    ));
    for (at, what) in [
        ("rules: unknown field \"bonus\"", ""),
        ("rules.stations.costs", "needs the cost"),
        ("rules.stations.points", "whole number"),
        ("rules.deal.keep", "5 of the 4 tickets"),
        ("rules.deal.long", "no ticket is marked"),
    ] {
        assert!(
            found.iter().any(|p| p.starts_with(at) && p.contains(what)),
            "{at}: {found:?}"
        );
    }
    // A file with rules of its own loads them; a track's flags make it a
    // route of its own kind beside the plain track of the same pair.
    let board = Board::from_json(
        &rules(r#"{ "stations": { "costs": [2], "points": 7 }, "longest_path_bonus": 0 }"#),
        "ok.json",
    )
    .unwrap();
    assert_eq!(board.rules.longest_path_bonus, 0);
    assert_eq!(board.rules.stations.as_ref().unwrap().costs, vec![2]);
    let board = Board::from_json(
        &with(
            ABC,
            r#"{ "from": "A", "to": "B", "tracks": [ { "colour": "red", "length": 1, "tunnel": true },
                  { "colour": "blue", "length": 1 } ] }"#,
            r#"{ "from": "A", "to": "B", "points": 3 }"#,
        ),
        "ok.json",
    )
    .unwrap();
    assert_eq!(board.routes.len(), 2);
    assert!(board.routes[0].tunnel && !board.routes[1].tunnel);
}
