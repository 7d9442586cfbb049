//! City pairs with parallel tracks of different lengths and points: the
//! board format, every exact method against values derived by hand and by
//! exhaustive search, the verifier, replan, the rules engine and plots.

use crate::common;

use proptest::prelude::*;
use ttr_opt::analysis::optima::{all_optima, OptimaOptions};
use ttr_opt::board::verify::{check, Claim};
use ttr_opt::board::{Board, RouteId};
use ttr_opt::engine::state::GameState;
use ttr_opt::model::Instance;
use ttr_opt::plans::replan::replan;
use ttr_opt::solve::{Method, SolveOptions};

/// A – B has a 2-car track (2 points) beside a 3-car one (4 points),
/// B – C one car (1 point) and C – D five (10 points); the ticket A – C is
/// worth 10.
///
/// By hand, at 3 cars: the short track and B – C reach the ticket, 2 + 1 +
/// 10 = 13; the long track alone scores 4. At 4 cars: the long track and
/// B – C, 4 + 1 + 10 = 15, beat the short one's 13. At 6 cars both A – B
/// tracks and B – C would fit (17 points), but a player claims one track
/// of a pair: still 15 (C – D and B – C score 11).
fn tunnel_and_ferry() -> Board {
    common::board_with_tracks(
        &["A", "B", "C", "D"],
        &[
            ("A", "B", vec![(2, None), (3, None)]),
            ("B", "C", vec![(1, None)]),
            ("C", "D", vec![(5, None)]),
        ],
        &[("A", "C", 10)],
    )
}

/// The route of the A – B pair with `length` cars.
fn track(b: &Board, length: u32) -> RouteId {
    b.route_ids()
        .find(|&r| b.route_label(r).starts_with("A – B") && b.route(r).length == length)
        .unwrap()
}

#[test]
fn the_long_form_makes_one_route_per_kind_of_track_in_one_pair() {
    let b = tunnel_and_ferry();
    assert_eq!(b.routes.len(), 4);
    assert_eq!(b.pairs.len(), 3);
    let (short, long) = (track(&b, 2), track(&b, 3));
    assert_eq!(b.route(short).pair, b.route(long).pair);
    assert_eq!((b.route(short).points, b.route(long).points), (2, 4));
    assert_eq!(b.route_label(short), "A – B (red, 2 cars)");
    assert_eq!(b.route_label(long), "A – B (green, 3 cars)");
    assert!(b.has_unequal_tracks());
    assert!(!common::usa().has_unequal_tracks());
}

#[test]
fn every_method_takes_the_short_track_to_reach_a_ticket_and_the_long_one_for_points() {
    let b = tunnel_and_ferry();
    let (short, long) = (track(&b, 2), track(&b, 3));
    for method in common::METHODS {
        let three = common::solve_with(&b, 3, method).plan;
        assert_eq!(three.score(), 13, "{method:?}");
        assert!(three.routes.contains(&short), "{method:?}: {three:?}");
        let four = common::solve_with(&b, 4, method).plan;
        assert_eq!(four.score(), 15, "{method:?}");
        assert!(four.routes.contains(&long), "{method:?}: {four:?}");
        // Both tracks would fit; only one may be claimed.
        assert!(!Instance::new(&b, 6).takes_everything());
        let six = common::solve_with(&b, 6, method).plan;
        assert_eq!(six.score(), 15, "{method:?}");
        assert!(common::one_per_pair(&b, &six.routes), "{method:?}: {six:?}");
    }
    // The branch and cut from nothing, with no start plan to lean on.
    let options = SolveOptions {
        method: Method::Forest,
        time_limit: None,
        start: Some(Vec::new()),
        ..SolveOptions::default()
    };
    let outcome = ttr_opt::solve::solve(&Instance::new(&b, 6), &options).unwrap();
    assert_eq!((outcome.plan.score(), outcome.proven), (15, true));
    for cars in 0..=12 {
        assert_eq!(
            common::optimum(&b, cars, Method::Auto),
            common::brute_force(&b, cars),
            "{cars} cars"
        );
    }
}

#[test]
fn a_track_that_scores_more_than_its_length_says() {
    // The 2-car track scores 5 (a printed override), the 3-car one 4 by
    // the rule card: at 3 cars the short one wins even without tickets.
    let b = common::board_with_tracks(
        &["A", "B", "C"],
        &[
            ("A", "B", vec![(2, Some(5)), (3, None)]),
            ("B", "C", vec![(4, None)]),
        ],
        &[("B", "C", 1)],
    );
    let plan = common::solve_with(&b, 3, Method::Frontier).plan;
    assert_eq!(plan.score(), 5);
    assert_eq!(plan.routes, vec![track(&b, 2)]);
    for method in common::METHODS {
        assert_eq!(common::optimum(&b, 3, method), 5, "{method:?}");
    }
}

#[test]
fn the_verifier_refuses_two_tracks_of_one_pair() {
    let b = tunnel_and_ferry();
    let tickets: Vec<_> = b.ticket_ids().collect();
    let claim = Claim {
        completed: Vec::new(),
        objective: 0.0,
        proven: false,
    };
    let err = check(&b, 10, &[track(&b, 2), track(&b, 3)], &tickets, &claim).unwrap_err();
    assert!(
        err.to_string().contains("two tracks of one city pair"),
        "{err}"
    );
}

#[test]
fn every_optimum_is_counted_with_its_track() {
    // Two A – B tracks of 2 cars, one scoring 2 and one 3 (overridden), and
    // a 3-car one: with a ticket A – B of 6 and 3 cars, the 3-car track
    // (4 + 6) is the one optimum; with 2 cars, the 3-point track (3 + 6).
    let b = common::board_with_tracks(
        &["A", "B", "C"],
        &[
            ("A", "B", vec![(2, None), (2, Some(3)), (3, None)]),
            ("B", "C", vec![(1, None), (2, None)]),
        ],
        &[("A", "B", 6), ("A", "C", 5)],
    );
    assert_eq!(b.routes.len(), 5);
    for cars in 0..=7 {
        let o = all_optima(&b, cars, &OptimaOptions::max(1000)).unwrap();
        let mut expected = common::brute_force_optima(&b, cars);
        expected.sort();
        let mut listed = o.plans.clone();
        listed.sort();
        assert_eq!(listed, expected, "{cars} cars");
        assert_eq!(o.count, expected.len() as u128, "{cars} cars");
    }
    let two = all_optima(&b, 2, &OptimaOptions::max(10)).unwrap();
    assert_eq!((two.score, two.count), (9, 1));
}

#[test]
fn a_sweep_answers_every_budget_as_brute_force_does() {
    let b = tunnel_and_ferry();
    let entries = ttr_opt::solve::sweep::sweep(&b, 1, 9, 1, &|_| {}).unwrap();
    for e in &entries {
        assert!(e.outcome.proven);
        assert_eq!(
            e.outcome.plan.score(),
            common::brute_force(&b, e.cars),
            "{} cars",
            e.cars
        );
        assert!(common::one_per_pair(&b, &e.outcome.plan.routes));
    }
    // Above every pair's longest track the answer needs no search: the
    // best track of each pair.
    let inst = Instance::new(&b, 40);
    assert!(inst.takes_everything());
    assert_eq!(inst.everything(), vec![RouteId(1), RouteId(2), RouteId(3)]);
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ttr-opt-tracks-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The A – B pair's tracks as a state names them, on `tunnel_and_ferry`
/// written to a file beside the state.
fn state(dir: &std::path::Path, owned: &str, taken: &str, players: u32) -> String {
    let json = format!(
        r#"{{ "board": "board.json", "players": {players}, "cars_left": 10,
             "owned": [{owned}], "taken": [{taken}],
             "tickets": [{{ "from": "A", "to": "C" }}], "may_draw": false }}"#
    );
    let path = dir.join(format!(
        "state-{}.json",
        owned.len() + taken.len() + players as usize
    ));
    std::fs::write(&path, json).unwrap();
    path.display().to_string()
}

fn board_file(dir: &std::path::Path) {
    let json = r#"{ "name": "tracks", "cars": 20,
        "route_points": { "1": 1, "2": 2, "3": 4 },
        "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
                    { "name": "C", "x": 2, "y": 1 } ],
        "routes": [
          { "from": "A", "to": "B", "tracks": [ { "colour": "red", "length": 2 },
                                                { "colour": "green", "length": 3 } ] },
          { "from": "B", "to": "C", "length": 1, "tracks": ["gray"] } ],
        "tickets": [ { "from": "A", "to": "C", "points": 10 } ] }"#;
    std::fs::write(dir.join("board.json"), json).unwrap();
}

#[test]
fn replan_knows_a_player_holds_one_track_of_a_pair() {
    let dir = scratch("replan");
    board_file(&dir);
    let options = SolveOptions::default();
    // Owning the short track: the long one is no longer the player's to
    // claim, so the rest is B – C (1 point) and the ticket (10).
    let path = state(&dir, r#"{ "from": "A", "to": "B", "track": "red" }"#, "", 4);
    let (b, s) = GameState::load(std::path::Path::new(&path)).unwrap();
    let r = replan(&b, &s, &options).unwrap();
    assert_eq!(r.owned_points, 2);
    assert_eq!(r.score, 2 + 1 + 10);
    assert!(common::one_per_pair(
        &b,
        &[r.owned.clone(), r.claim.clone()].concat()
    ));
    // An opponent took the long track: with 4 players the short one stays
    // open, with 2 players the pair is closed and the ticket is lost.
    let path = state(
        &dir,
        "",
        r#"{ "from": "B", "to": "A", "track": "green" }"#,
        4,
    );
    let (b, s) = GameState::load(std::path::Path::new(&path)).unwrap();
    assert_eq!(replan(&b, &s, &options).unwrap().score, 2 + 1 + 10);
    let path = state(&dir, "", r#"{ "from": "A", "to": "B", "length": 3 }"#, 2);
    let (b, s) = GameState::load(std::path::Path::new(&path)).unwrap();
    assert_eq!(replan(&b, &s, &options).unwrap().score, 1 - 10);
}

#[test]
fn a_state_must_say_which_of_unequal_tracks_it_means() {
    let dir = scratch("state");
    board_file(&dir);
    let path = state(&dir, r#"{ "from": "A", "to": "B" }"#, "", 3);
    let err = GameState::load(std::path::Path::new(&path))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("owned[0]: A – B has tracks of different lengths: say which"),
        "{err}"
    );
    assert!(err.contains("red of 2 and green of 3"), "{err}");
    let path = state(
        &dir,
        r#"{ "from": "A", "to": "B", "track": "red" }, { "from": "A", "to": "B", "length": 3 }"#,
        "",
        4,
    );
    let err = GameState::load(std::path::Path::new(&path))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("owned: both tracks of A – B: a player may claim only one track"),
        "{err}"
    );
    let path = state(
        &dir,
        r#"{ "from": "A", "to": "B", "track": "blue" }"#,
        "",
        3,
    );
    let err = GameState::load(std::path::Path::new(&path))
        .unwrap_err()
        .to_string();
    assert!(err.contains("A – B has no blue track"), "{err}");
}

#[test]
fn bad_track_lists_name_the_entry() {
    let board = |routes: &str| {
        let json = format!(
            r#"{{ "name": "t", "cars": 10, "route_points": {{ "1": 1, "2": 2 }},
                "cities": [ {{ "name": "A", "x": 0, "y": 0 }}, {{ "name": "B", "x": 1, "y": 0 }} ],
                "routes": [ {routes} ], "tickets": [] }}"#
        );
        Board::from_json(&json, "b.json").unwrap_err().to_string()
    };
    let mixed = board(
        r#"{ "from": "A", "to": "B", "length": 2, "tracks": ["red", { "colour": "green", "length": 1 }] }"#,
    );
    assert!(
        mixed.contains("routes[0].tracks: mixes colour names and track objects"),
        "{mixed}"
    );
    let outer = board(
        r#"{ "from": "A", "to": "B", "length": 2, "tracks": [{ "colour": "green", "length": 1 }] }"#,
    );
    assert!(
        outer.contains("routes[0].length: not allowed when the tracks are objects"),
        "{outer}"
    );
    let no_length = board(
        r#"{ "from": "A", "to": "B", "tracks": [{ "colour": "green", "length": 1 }, { "colour": "red" }] }"#,
    );
    assert!(
        no_length.contains("routes[0].tracks[1]: missing field \"length\""),
        "{no_length}"
    );
    let typo =
        board(r#"{ "from": "A", "to": "B", "tracks": [{ "color": "green", "length": 1 }] }"#);
    assert!(
        typo.contains(
            "routes[0].tracks[0]: unknown field \"color\" (known: colour, length, points, tunnel, ferry)"
        ),
        "{typo}"
    );
    let unscored = board(
        r#"{ "from": "A", "to": "B", "tracks": [{ "colour": "green", "length": 1 }, { "colour": "red", "length": 3 }] }"#,
    );
    assert!(
        unscored.contains(
            "routes[0].tracks[1] (A – B): no score for length 3 in route_points and no \"points\" given"
        ),
        "{unscored}"
    );
    let twins = board(
        r#"{ "from": "A", "to": "B", "tracks": [{ "colour": "red", "length": 2 }, { "colour": "red", "length": 2, "points": 9 }] }"#,
    );
    assert!(
        twins.contains(
            "routes[0].tracks[1] (A – B): same colour and length as tracks[0] but other points"
        ),
        "{twins}"
    );
    let colour =
        board(r#"{ "from": "A", "to": "B", "tracks": [{ "colour": "teal", "length": 2 }] }"#);
    assert!(
        colour.contains("routes[0].tracks[0].colour: unknown colour \"teal\""),
        "{colour}"
    );
}

#[test]
fn the_long_form_with_equal_tracks_is_the_short_form() {
    let json = |routes: &str| {
        format!(
            r#"{{ "name": "t", "cars": 10, "route_points": {{ "1": 1, "2": 2 }},
                "cities": [ {{ "name": "A", "x": 0, "y": 0 }}, {{ "name": "B", "x": 1, "y": 0 }} ],
                "routes": [ {routes} ], "tickets": [ {{ "from": "A", "to": "B", "points": 3 }} ] }}"#
        )
    };
    let long = Board::from_json(
        &json(r#"{ "from": "A", "to": "B", "tracks": [{ "colour": "red", "length": 2 }, { "colour": "blue", "length": 2 }] }"#),
        "long",
    )
    .unwrap();
    let short = Board::from_json(
        &json(r#"{ "from": "A", "to": "B", "length": 2, "tracks": ["red", "blue"] }"#),
        "short",
    )
    .unwrap();
    assert_eq!(long.routes.len(), 1);
    assert_eq!(
        long.route(RouteId(0)).tracks,
        short.route(RouteId(0)).tracks
    );
    assert_eq!(long.route(RouteId(0)).points, 2);
    assert!(!long.has_unequal_tracks());
}

/// A game of `players` on `b` past the ticket choice (two kept each), every
/// hand full of cards.
fn dealt(b: &Board, players: usize) -> ttr_opt::engine::rules::Game<'_> {
    use ttr_opt::engine::rules::{Action, Expect, Game};
    let mut g = Game::new(b, players, 7).unwrap();
    while let Expect::Tickets { offered, .. } = g.expect().clone() {
        let p = g.current();
        g.apply(p, &Action::KeepTickets(offered[..2].to_vec()))
            .unwrap();
    }
    for p in &mut g.players {
        p.hand = [20; 9];
    }
    g
}

#[test]
fn the_rules_engine_lets_a_player_claim_one_track_of_a_pair() {
    use ttr_opt::engine::rules::Action;
    let cities = ["A", "B", "C", "D", "E", "F"];
    let tickets: Vec<(&str, &str, u32)> = (0..6)
        .flat_map(|i| (i + 1..6).map(move |j| (cities[i], cities[j], 5)))
        .collect();
    let b = common::board_with_tracks(
        &cities,
        &[
            ("A", "B", vec![(2, None), (3, None)]),
            ("B", "C", vec![(1, None)]),
            ("C", "D", vec![(1, None)]),
            ("D", "E", vec![(1, None)]),
            ("E", "F", vec![(1, None)]),
        ],
        &tickets,
    );
    let (short, long) = (track(&b, 2), track(&b, 3));
    let mut g = dealt(&b, 4);
    let red = ttr_opt::board::Colour::Red;
    let green = ttr_opt::board::Colour::Green;
    let claim = |route, colour| Action::Claim {
        route,
        track: 0,
        colour,
        locomotives: 0,
    };
    g.apply(0, &claim(short, red)).unwrap();
    // Another player may take the other track (4 players), not the first one.
    let err = g.can_claim_track(0, long, 0).unwrap_err();
    assert!(
        err.message.contains("only one track of a double route"),
        "{err}"
    );
    g.apply(1, &claim(long, green)).unwrap();
    // With 2 players one claimed track closes the pair.
    let mut g = dealt(&b, 2);
    g.apply(0, &claim(long, green)).unwrap();
    let err = g.apply(1, &claim(short, red)).unwrap_err();
    assert!(
        err.message.contains("with 2 players only one track"),
        "{err}"
    );
}

#[test]
fn the_map_draws_unequal_tracks() {
    let b = tunnel_and_ferry();
    let plan = common::solve_with(&b, 4, Method::Auto).plan;
    let dir = scratch("plot");
    let paths = ttr_opt::output::plot::map(&b, &plan, 4, &dir.join("map")).unwrap();
    for p in paths {
        assert!(
            std::fs::metadata(&p).unwrap().len() > 1000,
            "{}",
            p.display()
        );
    }
}

/// A random connected board (at most 9 city pairs) where about a third of
/// the pairs get a second track of another length, some with printed points.
fn random_parallel_board() -> impl Strategy<Value = (Board, u32)> {
    (4usize..7)
        .prop_flat_map(|n| {
            (
                Just(n),
                prop::collection::vec(1u32..=5, n - 1),
                prop::collection::vec((0..n, 0..n, 1u32..=5), 0..4),
                prop::collection::vec((0u32..3, 1u32..=5, prop::option::of(0u32..=12)), 9),
                prop::collection::vec((0..n, 0..n, 1u32..=15), 1..6),
                0u32..22,
            )
        })
        .prop_map(|(n, path, extra, second, tickets, cars)| {
            let names: Vec<String> = (0..n).map(|i| format!("C{i}")).collect();
            let names_ref: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut pairs: Vec<(usize, usize, u32)> = path
                .iter()
                .enumerate()
                .map(|(i, &l)| (i, i + 1, l))
                .collect();
            for (a, b, l) in extra {
                let key = (a.min(b), a.max(b));
                if a != b && !pairs.iter().any(|&(x, y, _)| (x.min(y), x.max(y)) == key) {
                    pairs.push((a, b, l));
                }
            }
            let routes: Vec<common::TrackedRoute> = pairs
                .iter()
                .zip(&second)
                .map(|(&(a, b, l), &(coin, l2, p2))| {
                    let mut tracks = vec![(l, None)];
                    if coin == 0 {
                        tracks.push((l2, p2));
                    }
                    (names_ref[a], names_ref[b], tracks)
                })
                .collect();
            let tickets: Vec<(&str, &str, u32)> = tickets
                .iter()
                .filter(|(a, b, _)| a != b)
                .map(|&(a, b, p)| (names_ref[a], names_ref[b], p))
                .collect();
            (
                common::board_with_tracks(&names_ref, &routes, &tickets),
                cars,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every exact method, and the count of all optima, against exhaustive
    /// search over the plans that hold at most one track of a pair.
    #[test]
    fn unequal_parallel_tracks_match_brute_force((board, cars) in random_parallel_board()) {
        let expected = common::brute_force(&board, cars);
        for method in common::METHODS {
            let plan = common::solve_with(&board, cars, method).plan;
            prop_assert_eq!(plan.score(), expected, "{:?}", method);
            prop_assert!(common::one_per_pair(&board, &plan.routes));
        }
        // The branch and cut from an empty plan must find its own plans,
        // never one with two tracks of a pair.
        let inst = Instance::new(&board, cars);
        let options = SolveOptions { method: Method::Forest, time_limit: None, start: Some(Vec::new()), both_cores: false, watch: None, ..SolveOptions::default() };
        let outcome = ttr_opt::solve::solve(&inst, &options).unwrap();
        prop_assert!(outcome.proven);
        prop_assert_eq!(outcome.plan.score(), expected);
        let expected = common::brute_force_optima(&board, cars).len() as u128;
        for method in [Method::Frontier, Method::Forest] {
            let o = ttr_opt::analysis::optima::all_optima(&board, cars, &OptimaOptions { method, ..OptimaOptions::max(100_000) }).unwrap();
            prop_assert_eq!(o.count, expected, "{:?}", method);
        }
    }
}

/// The USA board with four double routes printed as unequal pairs: one
/// track a car shorter (scoring by the rule card), the other as before.
fn usa_with_unequal_pairs() -> Board {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/usa.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut changed = 0;
    for route in json["routes"].as_array_mut().unwrap() {
        let tracks = route["tracks"].as_array().unwrap().clone();
        let length = route["length"].as_u64().unwrap();
        if tracks.len() == 2 && length >= 2 && changed < 4 {
            route["tracks"] = serde_json::json!([
                { "colour": tracks[0], "length": length - 1 },
                { "colour": tracks[1], "length": length },
            ]);
            route.as_object_mut().unwrap().remove("length");
            changed += 1;
        }
    }
    assert_eq!(changed, 4);
    Board::from_json(&json.to_string(), "usa-unequal").unwrap()
}

#[test]
fn simulated_games_on_unequal_pairs_keep_the_rules() {
    let b = usa_with_unequal_pairs();
    assert_eq!(b.pairs.len(), 78);
    assert_eq!(b.routes.len(), 82);
    // The optimum bounds what any player's network scores.
    let optimum = common::optimum(&b, 45, Method::Auto);
    assert!(
        optimum >= 285,
        "shorter tracks cannot lower the optimum: {optimum}"
    );
    for g in 0..36u64 {
        let n = 2 + (g % 4) as usize;
        let names: Vec<&str> = (0..n)
            .map(|i| ["random", "greedy", "planner"][(g as usize + i) % 3])
            .collect();
        let p = ttr_opt::leagues::simulate::play(&b, &names, g, g)
            .unwrap_or_else(|e| panic!("game {g}: {e}"));
        for s in &p.seats {
            assert!(
                common::one_per_pair(&b, &s.routes),
                "game {g}: {:?}",
                s.routes
            );
            assert!(s.network_score <= optimum as i64, "game {g}: {s:?}");
        }
        // With 2–3 players a pair holds at most one track over all seats.
        if n <= 3 {
            let all: Vec<RouteId> = p.seats.iter().flat_map(|s| s.routes.clone()).collect();
            assert!(common::one_per_pair(&b, &all), "game {g}");
        }
    }
}
