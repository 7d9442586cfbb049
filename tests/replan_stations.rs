//! `replan` with stations (Europe's rule): a station lets its owner count one
//! other player's route into its city for tickets, and each station never
//! built scores its points. Checked against hand-derived answers and, on
//! random small boards with other players' routes, against brute force over
//! every set of routes and every legal set of borrowings.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ttr_opt::board::{Board, CityId, RouteId};
use ttr_opt::game::replan::{replan, Replan, ReplanReport};
use ttr_opt::game::state::{GameState, StationState, Track};
use ttr_opt::solve::verify::evaluate;
use ttr_opt::solve::{Produced, SolveOptions};

/// A board of gray routes (from, to, length) and tickets (from, to,
/// points), with `stations` stations worth `points` each.
fn board(
    cities: &[&str],
    routes: &[(&str, &str, u32)],
    tickets: &[(&str, &str, u32)],
    stations: usize,
    points: u32,
) -> Board {
    let mut json: serde_json::Value =
        serde_json::from_str(&common::board_text(cities, routes, &cards(tickets))).unwrap();
    json["rules"] = serde_json::json!({
        "stations": { "costs": (1..=stations as u32).collect::<Vec<_>>(), "points": points }
    });
    Board::from_json(&json.to_string(), "test board").expect("test board is valid")
}

fn cards<'a>(tickets: &[(&'a str, &'a str, u32)]) -> Vec<Vec<(&'a str, &'a str, u32)>> {
    tickets.iter().map(|&t| vec![t]).collect()
}

fn state(board: &Board, json: serde_json::Value) -> GameState {
    GameState::from_json(&json.to_string(), "state.json", board).expect("a valid state")
}

fn plan(board: &Board, s: &GameState) -> Replan {
    replan(board, s, &SolveOptions::default()).expect("replanning works")
}

/// A line A–B–C–D: the player owns A–B and C–D, another player B–C; the
/// ticket A–D (20) is completed only through a station borrowing B–C.
fn line() -> Board {
    board(
        &["A", "B", "C", "D", "E"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 1), ("D", "E", 2)],
        &[("A", "D", 20)],
        3,
        4,
    )
}

fn line_state(extra: serde_json::Value) -> serde_json::Value {
    let mut json = serde_json::json!({
        "board": "test.json",
        "players": 2,
        "cars_left": 0,
        "owned": [{ "from": "A", "to": "B" }, { "from": "C", "to": "D" }],
        "taken": [{ "from": "B", "to": "C" }],
        "tickets": [{ "from": "A", "to": "D" }],
    });
    for (k, v) in extra.as_object().unwrap() {
        json[k] = v.clone();
    }
    json
}

#[test]
fn a_station_borrows_the_route_that_completes_a_ticket() {
    let b = line();
    let s = state(&b, line_state(serde_json::json!({})));
    assert_eq!(s.stations.as_ref().map(|s| s.left), Some(3));
    let r = plan(&b, &s);
    // Routes 1 + 1, the ticket 20, two stations unbuilt (8): 30. Without
    // the station: 2 − 20 + 12 = −6.
    assert_eq!(r.score, 30);
    assert_eq!(r.station_points, 8);
    assert_eq!(r.borrowed.len(), 1);
    assert!(r.borrowed[0].new);
    assert_eq!(b.route_label(r.borrowed[0].route), "B – C");
    assert_eq!(r.bound, r.score);
    assert_eq!(r.outcome.method, Produced::Stations);
    let report = ReplanReport::new(&b, &s, &r);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["station_points"], 8);
    assert_eq!(json["stations"][0]["borrows"], "B – C");
    assert!(report.table().contains("build, then borrow B – C"));
}

#[test]
fn a_station_already_built_borrows_for_free_and_others_close_cities() {
    let b = line();
    // The player's station in C: the ticket at no further cost.
    let s = state(&b, line_state(serde_json::json!({ "stations": ["C"] })));
    let r = plan(&b, &s);
    assert_eq!((r.score, r.station_points), (2 + 20 + 8, 8));
    assert!(!r.borrowed[0].new);
    // Other players' stations in B and C: nowhere to borrow B–C from.
    let s = state(
        &b,
        line_state(serde_json::json!({ "others_stations": ["B", "C"] })),
    );
    let r = plan(&b, &s);
    assert_eq!(r.score, 2 - 20 + 12);
    assert!(r.borrowed.is_empty());
    // No station left: the same.
    let s = state(
        &b,
        line_state(serde_json::json!({ "stations": ["A", "D", "E"] })),
    );
    assert_eq!(s.stations.as_ref().map(|s| s.left), Some(0));
    assert_eq!(plan(&b, &s).score, 2 - 20);
}

#[test]
fn a_station_is_not_built_where_it_costs_more_than_it_saves() {
    // The ticket is worth 3, the station's points 4: completed it is +3
    // instead of −3, a swing of 6 against the 4 points lost.
    let b = board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "C", 3)],
        1,
        4,
    );
    let json = |points_ticket: &str| {
        serde_json::json!({
            "board": "t.json", "players": 2, "cars_left": 0,
            "owned": [{ "from": "A", "to": "B" }],
            "taken": [{ "from": "B", "to": "C" }],
            "tickets": [{ "from": "A", "to": points_ticket }],
        })
    };
    let r = plan(&b, &state(&b, json("C")));
    assert_eq!(r.score, 1 + 3);
    // Worth 1 only: the station's 4 points beat the swing of 2.
    let b1 = board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "C", 1)],
        1,
        4,
    );
    let r = plan(&b1, &state(&b1, json("C")));
    // Route 1, ticket lost −1, the station unbuilt 4.
    assert_eq!((r.score, r.borrowed.len()), (4, 0));
}

#[test]
fn station_entries_are_checked_and_named() {
    let b = line();
    let err = GameState::from_json(
        &line_state(serde_json::json!({
            "stations": ["Nowhere", "C", "A", "D", "E"],
            "others_stations": ["C"],
        }))
        .to_string(),
        "state.json",
        &b,
    )
    .expect_err("invalid")
    .to_string();
    assert!(
        err.contains("stations[0]: unknown city \"Nowhere\""),
        "{err}"
    );
    assert!(err.contains("stations[1] and others_stations[0]"), "{err}");
    assert!(
        err.contains("4 stations listed, but a player has 3"),
        "{err}"
    );
    let usa = common::usa();
    let err = GameState::from_json(
        &serde_json::json!({
            "board": "usa.json", "players": 2, "cars_left": 45,
            "stations": ["Denver"],
        })
        .to_string(),
        "state.json",
        &usa,
    )
    .expect_err("no stations on the USA board")
    .to_string();
    assert!(
        err.contains("stations: the board's rules have no stations"),
        "{err}"
    );
}

/// The best final score from `state` by brute force: every set of open
/// routes within the cars, every legal set of borrowings (another player's
/// route into a city with the player's station, or a free city while
/// stations are left; one route a station), scored by the union-find.
fn brute(board: &Board, s: &GameState, points: u32) -> i64 {
    let st = s.stations.clone().unwrap_or_default();
    let owned: Vec<RouteId> = s.owned.iter().map(|t| t.route).collect();
    let open: Vec<RouteId> = board
        .route_ids()
        .filter(|&r| !owned.contains(&r) && !s.is_blocked(board, r))
        .collect();
    let theirs: Vec<RouteId> = {
        let mut v: Vec<RouteId> = s.taken.iter().map(|t| t.route).collect();
        v.sort();
        v.dedup();
        v
    };
    // (city, route, new)
    let mut options: Vec<(CityId, RouteId, bool)> = Vec::new();
    for &g in &theirs {
        let r = board.route(g);
        for c in [r.a, r.b] {
            if st.built.contains(&c) {
                options.push((c, g, false));
            } else if !st.others.contains(&c) {
                options.push((c, g, true));
            }
        }
    }
    assert!(open.len() <= 12 && options.len() <= 12, "a small case");
    let mut best = i64::MIN;
    for mask in 0u32..1 << open.len() {
        let pick: Vec<RouteId> = (0..open.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| open[i])
            .collect();
        let cars: u32 = pick.iter().map(|&r| board.route(r).length).sum();
        if cars > s.cars_left {
            continue;
        }
        let mut network = owned.clone();
        network.extend(&pick);
        let route_points: i64 = network.iter().map(|&r| board.route(r).points as i64).sum();
        for bmask in 0u32..1 << options.len() {
            let chosen: Vec<_> = (0..options.len())
                .filter(|i| bmask >> i & 1 == 1)
                .map(|i| options[i])
                .collect();
            let new = chosen.iter().filter(|o| o.2).count() as u32;
            let one_each = chosen
                .iter()
                .enumerate()
                .all(|(i, o)| chosen[..i].iter().all(|p| p.0 != o.0));
            if new > st.left || !one_each {
                continue;
            }
            let mut all = network.clone();
            all.extend(chosen.iter().map(|o| o.1));
            let eval = evaluate(board, &all, &s.tickets);
            let tickets: i64 = s
                .tickets
                .iter()
                .map(|&t| {
                    let p = board.ticket(t).points as i64;
                    if eval.completed.contains(&t) {
                        p
                    } else {
                        -p
                    }
                })
                .sum();
            let unbuilt = (st.left - new) as i64 * points as i64;
            best = best.max(route_points + tickets + unbuilt);
        }
    }
    best
}

/// A random small case: 6 cities, 8 routes, 4 tickets; another player's
/// routes, the player's, held tickets, stations built here and there.
fn random_case(rng: &mut ChaCha8Rng) -> (Board, GameState, u32) {
    let names = ["A", "B", "C", "D", "E", "F"];
    let mut routes: Vec<(&str, &str, u32)> = Vec::new();
    while routes.len() < 8 {
        let (a, b) = (rng.random_range(0..6), rng.random_range(0..6));
        let (a, b) = (a.min(b), a.max(b));
        if a != b && !routes.iter().any(|r| (r.0, r.1) == (names[a], names[b])) {
            routes.push((names[a], names[b], rng.random_range(1..=4)));
        }
    }
    let mut tickets: Vec<(&str, &str, u32)> = Vec::new();
    while tickets.len() < 4 {
        let (a, b) = (rng.random_range(0..6), rng.random_range(0..6));
        if a != b && !tickets.iter().any(|t| (t.0, t.1) == (names[a], names[b])) {
            tickets.push((names[a], names[b], rng.random_range(2..=12)));
        }
    }
    let count = rng.random_range(1..=3);
    let points = rng.random_range(1..=6);
    let b = board(&names, &routes, &tickets, count, points);
    let mut ids: Vec<RouteId> = b.route_ids().collect();
    let track = |r: RouteId| Track { route: r, index: 0 };
    let mut take = |n: usize, rng: &mut ChaCha8Rng| -> Vec<Track> {
        (0..n)
            .map(|_| track(ids.remove(rng.random_range(0..ids.len()))))
            .collect()
    };
    let taken = take(rng.random_range(1..=3), rng);
    let owned = take(rng.random_range(0..=2), rng);
    let mut cities: Vec<CityId> = (0..6).map(CityId).collect();
    let mut pick = |n: usize, rng: &mut ChaCha8Rng| -> Vec<CityId> {
        (0..n)
            .map(|_| cities.remove(rng.random_range(0..cities.len())))
            .collect()
    };
    let built = pick(rng.random_range(0..count.min(2)), rng);
    let others = pick(rng.random_range(0..=2), rng);
    let held: Vec<_> = b.ticket_ids().filter(|_| rng.random_bool(0.7)).collect();
    let s = GameState {
        players: 2,
        cars_left: rng.random_range(0..=6),
        owned,
        taken,
        tickets: held,
        may_draw: false,
        stations: Some(StationState {
            left: (count - built.len()) as u32,
            built,
            others,
        }),
    };
    (b, s, points)
}

#[test]
fn replan_with_stations_equals_brute_force_on_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let mut borrowing = 0;
    for case in 0..60 {
        let (b, s, points) = random_case(&mut rng);
        let r = plan(&b, &s);
        let want = brute(&b, &s, points);
        assert_eq!(r.score, want, "case {case}: {s:?}");
        assert!(r.outcome.proven && r.bound == r.score, "case {case}");
        assert!(r.claim_cars <= s.cars_left, "case {case}");
        borrowing += usize::from(!r.borrowed.is_empty());
    }
    // The cases exercise the stations, not only plans without them.
    assert!(borrowing >= 10, "{borrowing} of 60 cases borrow a route");
}

/// A Europe game the bots played, stations built in it, reviewed: at every
/// turn the best still reachable (stations included) is at least what the
/// player finally scored, the bonus aside, where proven; so replan's model
/// of stations agrees with the engine's final scoring, which borrowed the
/// routes it found best.
#[test]
fn the_review_of_a_europe_game_with_stations_never_finds_less_than_the_final_score() {
    use ttr_opt::game::review::{review_played, ReviewOptions};
    use ttr_opt::game::simulate::play;
    let b = common::shipped("europe.json");
    let names = ["planner", "greedy", "greedy"];
    let played = (0..40u64)
        .map(|seed| play(&b, &names, seed, seed).unwrap())
        .find(|p| p.used.stations_built > 0 && !p.stalled)
        .expect("a game with a station among 40");
    let review = review_played(&b, &played, &ReviewOptions::default()).expect("reviewed");
    let mut checked = 0;
    for p in &review.players {
        for t in p.turns.iter().filter(|t| t.proven) {
            assert!(
                t.best >= p.network_score,
                "{} turn {}: best {} below the final {}",
                p.name,
                t.turn,
                t.best,
                p.network_score
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} turns proven");
    // Some plan of the review builds or uses a station.
    let with_station = review
        .players
        .iter()
        .flat_map(|p| &p.turns)
        .filter(|t| t.plan.iter().any(|l| l.contains("station in")))
        .count();
    assert!(with_station > 0, "no plan of the review uses a station");
}
