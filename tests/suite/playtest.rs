//! The playtest (issue 58, goal 6): a seed replays the report; the win
//! shares and the tied games' share sum to 1 and the wins add up as the
//! tournament counts them; the optimum's route use is the exhaustive
//! optimum's on a tiny board; a board that forces a stall reports it, and
//! its replay (the library's and the command's) ends the same way; the
//! endings are classified; bad input is named.

use crate::common;

use ttr_opt::board::{Board, RouteId};
use ttr_opt::leagues::playtest::{
    ending, replay, run, HoleKind, Playtest, PlaytestError, Setup, DEFAULT_PLAYERS,
};
use ttr_opt::leagues::simulate::{self, Played};
use ttr_opt::leagues::tournament::wilson;
use ttr_opt::output::playtest::HOLES_HEADER;
use ttr_opt::solve::limits::Limits;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn setup(players: &[&str], board: (&str, Board), seats: &[usize], games: u64) -> Setup {
    Setup {
        players: names(players),
        board: (board.0.to_string(), board.1),
        seats: seats.to_vec(),
        games,
        seed: 5,
    }
}

fn play(s: &Setup) -> Playtest {
    run(s, &Limits::none(), &|| {}).expect("the playtest runs")
}

/// The report without its clock.
fn json(p: &Playtest) -> String {
    let mut v = serde_json::to_value(p).unwrap();
    v["seconds"] = serde_json::Value::Null;
    v.to_string()
}

/// The six cities' routes with tickets, and `cars` cars a player.
fn six_cities(cars: u32) -> Board {
    let tickets = [
        ("A", "C", 5),
        ("B", "D", 3),
        ("A", "E", 9),
        ("C", "E", 4),
        ("B", "F", 3),
        ("A", "F", 2),
        ("D", "B", 4),
        ("E", "A", 6),
        ("F", "C", 2),
    ];
    let text = common::board_text(
        &common::SIX_CITIES,
        &common::SIX_CITY_ROUTES,
        &tickets.iter().map(|&t| vec![t]).collect::<Vec<_>>(),
    )
    .replace("\"cars\":45", &format!("\"cars\":{cars}"));
    assert!(text.contains(&format!("\"cars\":{cars}")));
    Board::from_json(&text, "six cities").unwrap()
}

#[test]
fn a_seed_replays_the_report_and_another_changes_it() {
    let s = setup(
        &["greedy", "route-focus", "long-route"],
        ("usa", common::usa()),
        &[2, 3],
        2,
    );
    let a = play(&s);
    let b = play(&s);
    assert_eq!(json(&a), json(&b));
    let c = play(&Setup { seed: 6, ..s });
    assert_ne!(json(&a), json(&c));
}

#[test]
fn shares_are_shares_and_wins_add_up() {
    let s = setup(
        &["random", "greedy", "one-step", "destination-hungry"],
        ("usa", common::usa()),
        &[2, 3, 4],
        2,
    );
    let p = play(&s);
    assert_eq!(p.played, p.scheduled);
    // 6 pairs in 2 orders, 4 triples in 3, 1 four in 4; 2 rounds.
    assert_eq!(p.scheduled, 2 * (6 * 2 + 4 * 3 + 4));
    assert!(p.optimum.proven);
    assert_eq!(p.optimum.score, 285);
    for c in &p.counts {
        assert_eq!(c.failed, 0);
        let games = c.games;
        assert!(games > 0);
        let wins: usize = c.styles.iter().map(|s| s.standing.wins).sum();
        assert_eq!(wins, games - c.tied, "{} players", c.seats);
        let seats: usize = c.styles.iter().map(|s| s.standing.games).sum();
        assert_eq!(seats, games * c.seats);
        let shares: f64 = c.styles.iter().map(|s| s.win_share).sum::<f64>() + c.tie_share;
        assert!((shares - 1.0).abs() < 1e-9, "{shares}");
        for s in &c.styles {
            let t = &s.standing;
            assert_eq!((t.win_low, t.win_high), wilson(t.wins, t.games));
            assert!(t.win_low <= t.win_rate && t.win_rate <= t.win_high);
        }
        // Highest share first.
        assert!(c
            .styles
            .windows(2)
            .all(|w| w[0].win_share >= w[1].win_share));
        assert_eq!(c.routes.len(), common::usa().routes.len());
        for r in &c.routes {
            assert!((0.0..=1.0).contains(&r.claimed), "{r:?}");
            assert!((0.0..=1.0).contains(&r.by_winner), "{r:?}");
            // A share of the games: a whole number of them.
            let n = r.claimed * games as f64;
            assert!((n - n.round()).abs() < 1e-6);
        }
        assert!(c.routes.windows(2).all(|w| w[0].claimed >= w[1].claimed));
        assert!(c.routes[0].claimed > 0.5 && c.routes.last().unwrap().claimed < 0.5);
        for x in &c.cities {
            assert!((0.0..=1.0).contains(&x.desired) && (0.0..=1.0).contains(&x.by_winner));
            assert!(x.tickets >= x.desired);
            // A city no ticket names is never desired.
            if x.on_tickets == 0 {
                assert_eq!(x.desired, 0.0, "{}", x.city);
            }
        }
        // The optimum's routes, 18 on the USA board, in every list.
        assert_eq!(c.routes.iter().filter(|r| r.in_optimum).count(), 18);
    }
    // Games played to the end on the USA board: no hole.
    assert!(p.holes.is_empty(), "{:?}", p.holes);
}

/// Every subset of the board's routes within its cars, scored apart from
/// the solver: the best score and the subsets that make it.
fn exhaustive(board: &Board) -> (u32, Vec<Vec<usize>>) {
    let n = board.routes.len();
    let mut best = 0;
    let mut at = Vec::new();
    for mask in 0u32..1 << n {
        let routes: Vec<RouteId> = (0..n).filter(|i| mask >> i & 1 == 1).map(RouteId).collect();
        let (cars, score) = common::independent_score(board, &routes);
        if cars > board.cars {
            continue;
        }
        let set: Vec<usize> = routes.iter().map(|r| r.0).collect();
        if score > best {
            best = score;
            at = vec![set];
        } else if score == best {
            at.push(set);
        }
    }
    (best, at)
}

#[test]
fn the_optimums_routes_are_the_exhaustive_optimums() {
    let mut unique = 0;
    for cars in 3..=12 {
        let board = six_cities(cars);
        let (best, optima) = exhaustive(&board);
        let p = play(&setup(&["greedy", "random"], ("six", board), &[2], 1));
        assert_eq!(p.optimum.score, best, "{cars} cars");
        assert!(p.optimum.proven);
        let mut used: Vec<usize> = p.counts[0]
            .routes
            .iter()
            .filter(|r| r.in_optimum)
            .map(|r| r.route)
            .collect();
        used.sort();
        // One of the optimal plans; the only one where there is one.
        assert!(
            optima.contains(&used),
            "{cars} cars: {used:?} not in {optima:?}"
        );
        if optima.len() == 1 {
            unique += 1;
        }
    }
    assert!(unique >= 3, "{unique} budgets with one optimal plan");
}

#[test]
fn a_board_that_cannot_end_by_its_cars_stalls_and_the_replay_reproduces_it() {
    // 21 cars of routes on the whole board, 45 a player: nobody gets down
    // to 2 cars, so the game can only end when nobody can move.
    let board = six_cities(45);
    let s = setup(
        &["greedy", "random", "planner"],
        ("stall", board.clone()),
        &[2, 3],
        1,
    );
    let p = play(&s);
    assert_eq!(p.holes.len(), p.played, "every game stalls");
    for h in &p.holes {
        assert_eq!(h.ending.hole, Some(HoleKind::Stall), "{h:?}");
        assert!(h.reproduced);
        assert_eq!(h.ending.scores.len(), h.seats);
        assert!(h.ending.moves > 0);
        // Again, by the library, from the seed and seat order listed.
        let again = replay(&board, &h.order, h.seed);
        assert_eq!(again, h.ending);
        // Another seat order of the same deal plays another game.
        let mut other = h.order.clone();
        other.reverse();
        let swapped = replay(&board, &other, h.seed);
        assert_eq!(swapped.hole, Some(HoleKind::Stall));
    }
    // Stalled games still count: they have scores and a winner.
    assert_eq!(p.counts[0].games, 6);

    // The command's replay says the same.
    let dir = std::env::temp_dir().join(format!("ttr-opt-playtest-stall-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("stall.json");
    std::fs::write(
        &file,
        common::board_text(
            &common::SIX_CITIES,
            &common::SIX_CITY_ROUTES,
            &[
                ("A", "C", 5),
                ("B", "D", 3),
                ("A", "E", 9),
                ("C", "E", 4),
                ("B", "F", 3),
                ("A", "F", 2),
                ("D", "B", 4),
                ("E", "A", 6),
                ("F", "C", 2),
            ]
            .iter()
            .map(|&t| vec![t])
            .collect::<Vec<_>>(),
        ),
    )
    .unwrap();
    let out = common::ttr_opt_ok(&[
        "playtest",
        "-b",
        file.to_str().unwrap(),
        "--players",
        "greedy,random",
        "--seats",
        "2",
        "--games",
        "1",
        "--seed",
        "5",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let holes = report["holes"].as_array().unwrap();
    assert_eq!(holes.len(), 2);
    let md = std::fs::read_to_string(dir.join("playtest.md")).unwrap();
    for h in holes {
        assert_eq!(h["ending"]["hole"], "stall");
        let order: Vec<&str> = h["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        let seed = h["seed"].as_u64().unwrap().to_string();
        let command = format!(
            "ttr-opt playtest -b {} --players {} --replay {seed}",
            file.display(),
            order.join(",")
        );
        assert!(md.contains(&command), "{md}");
        let again = common::ttr_opt(&[
            "playtest",
            "-b",
            file.to_str().unwrap(),
            "--players",
            &order.join(","),
            "--replay",
            &seed,
            "--json",
        ]);
        assert!(again.status.success());
        let e: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(e, h["ending"]);
    }
    let csv = std::fs::read_to_string(dir.join("playtest-holes.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2);
    assert_eq!(csv.lines().next(), Some(HOLES_HEADER));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endings_are_told_apart() {
    let board = common::usa();
    let order = ["greedy", "planner"];
    let played = simulate::play(&board, &order, 0, 3).unwrap();
    assert!(!played.stalled && !played.capped);
    assert_eq!(ending(&Ok(played.clone())).hole, None);
    let capped = Played {
        stalled: true,
        capped: true,
        ..played.clone()
    };
    assert_eq!(ending(&Ok(capped)).hole, Some(HoleKind::MoveCap));
    let stalled = Played {
        stalled: true,
        ..played
    };
    assert_eq!(ending(&Ok(stalled)).hole, Some(HoleKind::Stall));
    let none = format!("{}: greedy (player 0) ...", simulate::NO_LEGAL_MOVE);
    assert_eq!(ending(&Err(none)).hole, Some(HoleKind::NoLegalMove));
    assert_eq!(
        ending(&Err("greedy made an illegal move".into())).hole,
        Some(HoleKind::EngineError)
    );
    // A game that cannot be set up (five players, four tickets to deal
    // three each) is an engine error, not a panic, and is listed.
    let tiny = common::board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "B", 1), ("B", "C", 1), ("A", "C", 2), ("C", "A", 2)],
    );
    let p = play(&setup(&["greedy", "random"], ("tiny", tiny), &[5], 1));
    assert!(!p.holes.is_empty());
    assert!(p
        .holes
        .iter()
        .all(|h| h.ending.hole == Some(HoleKind::EngineError) && h.reproduced));
    assert_eq!(p.counts[0].failed, p.played);
    assert_eq!(p.counts[0].games, 0);
}

#[test]
fn bad_input_is_named() {
    let usa = || ("usa", common::usa());
    let err = |s: Setup| match s.check() {
        Err(PlaytestError::Setup(m)) => m,
        other => panic!("{other:?}"),
    };
    let m = err(setup(&["greedy", "grredy"], usa(), &[2], 1));
    assert!(m.starts_with("players") && m.contains("grredy"), "{m}");
    let m = err(setup(&["greedy", "random"], usa(), &[2], 0));
    assert!(m.starts_with("games"), "{m}");
    let m = err(setup(&["greedy", "random"], usa(), &[6], 1));
    assert!(m.starts_with("seats"), "{m}");
    assert!(run(
        &setup(&["greedy", "x"], usa(), &[2], 1),
        &Limits::none(),
        &|| {}
    )
    .is_err());
    assert_eq!(DEFAULT_PLAYERS.len(), 6);
    // The command's default is the library's.
    let help = common::ttr_opt(&["playtest", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(&format!("[default: {}]", DEFAULT_PLAYERS.join(","))),
        "{help}"
    );

    for (args, says) in [
        (
            vec!["-b", "atlantis"],
            vec!["--board", "unknown board", "atlantis", "europe"],
        ),
        (
            vec!["--players", "greedy,grredy"],
            vec!["--players", "grredy", "known: random"],
        ),
        (vec!["--games", "0"], vec!["--games"]),
        (vec!["--seats", "7"], vec!["--seats", "2 to 5"]),
        // The six default strategies are too many for one game.
        (vec!["--replay", "3"], vec!["--players", "2 to 5"]),
    ] {
        let mut all = vec!["playtest", "--out", "/nonexistent/never"];
        all.extend(&args);
        let out = common::ttr_opt(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        for s in says {
            assert!(err.contains(s), "{args:?}: {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn the_command_writes_its_report() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-playtest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = common::ttr_opt_ok(&[
        "playtest",
        "-b",
        "usa",
        "--players",
        "greedy,long-route",
        "--seats",
        "2",
        "--games",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("2 players: 4 games"), "{stdout}");
    let md = std::fs::read_to_string(dir.join("playtest.md")).unwrap();
    assert!(md.contains(
        "ttr-opt playtest -b usa --players greedy,long-route --seats 2 --games 2 --seed 1"
    ));
    assert!(md.contains("](playtest-wins.svg)"));
    assert!(md.contains("### The most claimed routes"));
    assert!(dir.join("playtest-wins.svg").exists());
    let routes = std::fs::read_to_string(dir.join("playtest-routes.csv")).unwrap();
    assert_eq!(routes.lines().count(), 1 + common::usa().routes.len());
    // No hole: the header alone.
    let holes = std::fs::read_to_string(dir.join("playtest-holes.csv")).unwrap();
    assert_eq!(holes, format!("{HOLES_HEADER}\n"));
    let styles = std::fs::read_to_string(dir.join("playtest-styles.csv")).unwrap();
    assert_eq!(styles.lines().count(), 1 + 2);
    let _ = std::fs::remove_dir_all(&dir);
}
