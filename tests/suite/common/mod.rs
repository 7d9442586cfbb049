//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ttr_opt::board::verify::evaluate;
use ttr_opt::board::{Board, RouteId};
use ttr_opt::engine::state::GameState;
use ttr_opt::model::Instance;
use ttr_opt::solve::{solve, Method, Outcome, SolveOptions};

/// Every exact method.
pub const METHODS: [Method; 5] = [
    Method::Auto,
    Method::Frontier,
    Method::Forest,
    Method::Paper,
    Method::PaperInteger,
];

/// Six cities and ten routes (from, to, length) of 1 to 4 cars: a board
/// small enough for exhaustive search, with tickets of a test's choosing.
pub const SIX_CITIES: [&str; 6] = ["A", "B", "C", "D", "E", "F"];
/// The routes between [`SIX_CITIES`].
pub const SIX_CITY_ROUTES: [(&str, &str, u32); 10] = [
    ("A", "B", 1),
    ("B", "C", 2),
    ("C", "D", 1),
    ("D", "E", 3),
    ("E", "F", 2),
    ("F", "A", 2),
    ("A", "D", 4),
    ("B", "E", 3),
    ("C", "F", 2),
    ("D", "F", 1),
];

/// Runs the binary with `args`.
pub fn ttr_opt(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ttr-opt"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary with `args` and asserts that it succeeded, naming the
/// command and showing its stderr if not.
pub fn ttr_opt_ok(args: &[&str]) -> std::process::Output {
    let out = ttr_opt(args);
    assert!(
        out.status.success(),
        "ttr-opt {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn usa() -> Board {
    Board::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/usa.json"
    )))
    .expect("the shipped USA board loads")
}

/// A board from compact test data: cities by name (coordinates don't
/// matter), routes as (from, to, length), tickets as (from, to, points).
/// Route points follow the rule card.
pub fn board(
    cities: &[&str],
    routes: &[(&str, &str, u32)],
    tickets: &[(&str, &str, u32)],
) -> Board {
    let cards: Vec<Vec<(&str, &str, u32)>> = tickets.iter().map(|&t| vec![t]).collect();
    board_with_cards(cities, routes, &cards)
}

/// A shipped board of `data/`, by file name.
pub fn shipped(file: &str) -> Board {
    Board::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(file),
    )
    .unwrap_or_else(|e| panic!("{file} loads: {e}"))
}

/// A board whose tickets may have several trips: each entry of `cards` is
/// one ticket, as its trips (from, to, points); one trip is written in the
/// plain form, several as a `trips` list.
pub fn board_with_cards(
    cities: &[&str],
    routes: &[(&str, &str, u32)],
    cards: &[Vec<(&str, &str, u32)>],
) -> Board {
    Board::from_json(&board_text(cities, routes, cards), "test board").expect("test board is valid")
}

/// The board file of [`board_with_cards`].
pub fn board_text(
    cities: &[&str],
    routes: &[(&str, &str, u32)],
    cards: &[Vec<(&str, &str, u32)>],
) -> String {
    let trip =
        |&(a, b, p): &(&str, &str, u32)| serde_json::json!({ "from": a, "to": b, "points": p });
    let json = serde_json::json!({
        "name": "test",
        "cars": 45,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "8": 21 },
        "cities": cities.iter().enumerate()
            .map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": 0 })).collect::<Vec<_>>(),
        "routes": routes.iter()
            .map(|(a, b, l)| serde_json::json!({ "from": a, "to": b, "length": l, "tracks": ["gray"] }))
            .collect::<Vec<_>>(),
        "tickets": cards.iter().enumerate()
            .map(|(i, trips)| match trips.as_slice() {
                [one] => trip(one),
                _ => serde_json::json!({
                    "name": format!("card {i}"),
                    "trips": trips.iter().map(trip).collect::<Vec<_>>(),
                }),
            })
            .collect::<Vec<_>>(),
    });
    json.to_string()
}

/// What `routes` score, computed here from the union-find's connected trips
/// alone: routes, plus each ticket's best connected trip (written apart from
/// the library's own per-ticket rule, `Board::scoring`).
pub fn independent_score(board: &Board, routes: &[RouteId]) -> (u32, u32) {
    let all: Vec<_> = board.ticket_ids().collect();
    let eval = evaluate(board, routes, &all);
    let mut best = std::collections::HashMap::new();
    for &t in &eval.connected {
        let ticket = board.ticket(t);
        let b = best.entry(ticket.card).or_insert(0);
        *b = ticket.points.max(*b);
    }
    (
        eval.cars_used,
        eval.route_points + best.values().sum::<u32>(),
    )
}

/// A ring with chords and overlapping tickets: alternative paths, shared
/// segments, and routes worth claiming for their points alone.
pub fn ring() -> Board {
    board(
        &["A", "B", "C", "D", "E", "F", "G"],
        &[
            ("A", "B", 2),
            ("B", "C", 1),
            ("C", "D", 3),
            ("D", "E", 2),
            ("E", "F", 1),
            ("F", "A", 4),
            ("A", "D", 5),
            ("B", "E", 3),
            ("C", "G", 2),
            ("G", "E", 2),
            ("F", "G", 6),
        ],
        &[
            ("A", "D", 9),
            ("B", "F", 7),
            ("C", "E", 4),
            ("A", "G", 6),
            ("D", "F", 3),
        ],
    )
}

/// Pairs of parallel routes of equal length: many ties.
pub fn line_of_pairs() -> Board {
    board(
        &["A", "B", "C", "D", "E"],
        &[
            ("A", "B", 2),
            ("B", "C", 1),
            ("C", "D", 2),
            ("D", "E", 1),
            ("A", "C", 3),
            ("B", "D", 3),
            ("C", "E", 3),
        ],
        &[("A", "E", 8), ("B", "C", 2), ("A", "D", 5)],
    )
}

/// Solves and re-checks the plan with the union-find verifier, independently
/// of the check inside `solve`.
pub fn solve_with(board: &Board, cars: u32, method: Method) -> Outcome {
    let inst = Instance::new(board, cars);
    let outcome = solve(
        &inst,
        &SolveOptions {
            method,
            ..SolveOptions::default()
        },
    )
    .expect("solves without error");
    let all: Vec<_> = board.ticket_ids().collect();
    let eval = evaluate(board, &outcome.plan.routes, &all);
    assert_eq!(
        eval.score(),
        outcome.plan.score(),
        "reported score matches the union-find"
    );
    assert_eq!(
        eval.completed, outcome.plan.tickets,
        "reported tickets match the union-find"
    );
    assert!(eval.cars_used <= cars, "plan fits in the budget");
    assert!(outcome.proven, "solved to proven optimality");
    assert_eq!(outcome.bound, outcome.plan.score());
    outcome
}

pub fn optimum(board: &Board, cars: u32, method: Method) -> u32 {
    solve_with(board, cars, method).plan.score()
}

/// Every plan a player could hold: per city pair (found here from the
/// routes' ends, not from the board's own grouping) none or one of its
/// routes. Small boards only.
pub fn every_plan(board: &Board) -> Vec<Vec<RouteId>> {
    let mut pairs: Vec<((usize, usize), Vec<RouteId>)> = Vec::new();
    for r in board.route_ids() {
        let route = board.route(r);
        let key = (route.a.0.min(route.b.0), route.a.0.max(route.b.0));
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, routes)) => routes.push(r),
            None => pairs.push((key, vec![r])),
        }
    }
    let count: usize = pairs.iter().map(|(_, r)| r.len() + 1).product();
    assert!(count <= 1 << 18, "brute force is for small boards");
    (0..count)
        .map(|mut code| {
            let mut plan = Vec::new();
            for (_, routes) in &pairs {
                let choice = code % (routes.len() + 1);
                code /= routes.len() + 1;
                if choice > 0 {
                    plan.push(routes[choice - 1]);
                }
            }
            plan.sort();
            plan
        })
        .collect()
}

/// Whether `routes` hold at most one route of each city pair.
pub fn one_per_pair(board: &Board, routes: &[RouteId]) -> bool {
    let mut keys: Vec<(usize, usize)> = routes
        .iter()
        .map(|&r| {
            let route = board.route(r);
            (route.a.0.min(route.b.0), route.a.0.max(route.b.0))
        })
        .collect();
    keys.sort();
    keys.windows(2).all(|w| w[0] != w[1])
}

/// The optimum by enumerating every plan (small boards only).
pub fn brute_force(board: &Board, cars: u32) -> u32 {
    every_plan(board)
        .iter()
        .map(|routes| independent_score(board, routes))
        .filter(|&(used, _)| used <= cars)
        .map(|(_, score)| score)
        .max()
        .unwrap_or(0)
}

/// Every optimal route set, by enumerating every plan (small boards only).
pub fn brute_force_optima(board: &Board, cars: u32) -> Vec<Vec<RouteId>> {
    let all: Vec<_> = board.ticket_ids().collect();
    let plans: Vec<(u32, Vec<RouteId>)> = every_plan(board)
        .into_iter()
        .filter_map(|routes| {
            let e = evaluate(board, &routes, &all);
            (e.cars_used <= cars).then(|| (e.score(), routes))
        })
        .collect();
    let best = plans.iter().map(|p| p.0).max().unwrap_or(0);
    plans
        .into_iter()
        .filter(|p| p.0 == best)
        .map(|p| p.1)
        .collect()
}

/// A route of [`board_with_tracks`]: its cities and its tracks as (length,
/// points if printed).
pub type TrackedRoute<'a> = (&'a str, &'a str, Vec<(u32, Option<u32>)>);

/// A board whose city pairs may have parallel tracks of different lengths
/// and points: each route is (from, to, tracks), a track (length, points
/// or `None` for the rule card's). One track is written in the short form,
/// several in the long form with colours of their own.
pub fn board_with_tracks(
    cities: &[&str],
    routes: &[TrackedRoute],
    tickets: &[(&str, &str, u32)],
) -> Board {
    const COLOURS: [&str; 4] = ["red", "green", "blue", "yellow"];
    let route = |(a, b, tracks): &TrackedRoute| match tracks.as_slice() {
        [(l, None)] => serde_json::json!({ "from": a, "to": b, "length": l, "tracks": ["gray"] }),
        [(l, Some(p))] => {
            serde_json::json!({ "from": a, "to": b, "length": l, "points": p, "tracks": ["gray"] })
        }
        _ => serde_json::json!({
            "from": a, "to": b,
            "tracks": tracks.iter().enumerate().map(|(i, (l, p))| {
                let mut t = serde_json::json!({ "colour": COLOURS[i % 4], "length": l });
                if let Some(p) = p {
                    t["points"] = (*p).into();
                }
                t
            }).collect::<Vec<_>>(),
        }),
    };
    let json = serde_json::json!({
        "name": "test",
        "cars": 45,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "8": 21 },
        "cities": cities.iter().enumerate()
            .map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": i % 2 })).collect::<Vec<_>>(),
        "routes": routes.iter().map(route).collect::<Vec<_>>(),
        "tickets": tickets.iter()
            .map(|(a, b, p)| serde_json::json!({ "from": a, "to": b, "points": p }))
            .collect::<Vec<_>>(),
    });
    Board::from_json(&json.to_string(), "test board").expect("test board is valid")
}

/// The final score of `network` for the held tickets of `state`: route
/// points, each held ticket's points completed or minus them (one trip
/// each here).
pub fn state_score(board: &Board, state: &GameState, network: &[RouteId]) -> i64 {
    let eval = evaluate(board, network, &state.tickets);
    let routes: i64 = network.iter().map(|&r| board.route(r).points as i64).sum();
    let tickets: i64 = state
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
    routes + tickets
}

/// The best final score from `state`, by trying every set of open routes.
pub fn brute_best(board: &Board, state: &GameState) -> i64 {
    let owned: Vec<RouteId> = state.owned.iter().map(|t| t.route).collect();
    let open: Vec<RouteId> = board
        .route_ids()
        .filter(|&r| !owned.contains(&r) && !state.is_blocked(board, r))
        .filter(|&r| {
            !owned
                .iter()
                .any(|&o| board.route(o).pair == board.route(r).pair)
        })
        .collect();
    let mut best = i64::MIN;
    for mask in 0u32..1 << open.len() {
        let pick: Vec<RouteId> = (0..open.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| open[i])
            .collect();
        let cars: u32 = pick.iter().map(|&r| board.route(r).length).sum();
        if cars > state.cars_left {
            continue;
        }
        let mut network = owned.clone();
        network.extend(&pick);
        if !one_per_pair(board, &network) {
            continue;
        }
        best = best.max(state_score(board, state, &network));
    }
    best
}

/// A–B–C–D–E in a line, every route 2 cars for 2 points; tickets A–C, B–D
/// and C–E worth 4 (one point per car of their 4-car connections) and
/// A–E worth 11 for its 8 cars.
pub const LINE: &str = r#"{ "name": "line", "cars": 8,
  "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
  "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
              { "name": "C", "x": 2, "y": 0 }, { "name": "D", "x": 3, "y": 0 },
              { "name": "E", "x": 4, "y": 0 } ],
  "routes": [ { "from": "A", "to": "B", "length": 2, "tracks": ["gray"] },
              { "from": "B", "to": "C", "length": 2, "tracks": ["gray"] },
              { "from": "C", "to": "D", "length": 2, "tracks": ["gray"] },
              { "from": "D", "to": "E", "length": 2, "tracks": ["gray"] } ],
  "tickets": [ { "from": "A", "to": "C", "points": 4 }, { "from": "B", "to": "D", "points": 4 },
               { "from": "C", "to": "E", "points": 4 }, { "from": "A", "to": "E", "points": 11 } ] }"#;
