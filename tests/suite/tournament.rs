//! The tournament (issue 58, goal 3): the schedule covers every table in
//! every seat order the number of times asked; a seed replays it and
//! another changes it; wins add up; the Wilson interval; a lopsided
//! tournament rated the right way round; every game re-checked by the
//! union-find verifier and replayed alone from its seed; bad setups and
//! command lines named.

use crate::common;

use std::collections::HashMap;

use ttr_opt::board::verify::evaluate;
use ttr_opt::board::Board;
use ttr_opt::leagues::simulate;
use ttr_opt::leagues::tournament::{
    review_sample, run, schedule, tables, wilson, Setup, TournamentError,
};
use ttr_opt::solve::limits::Limits;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn setup(players: &[&str], boards: &[(&str, Board)], seats: &[usize], games: u64) -> Setup {
    Setup {
        players: names(players),
        boards: boards
            .iter()
            .map(|(k, b)| (k.to_string(), b.clone()))
            .collect(),
        seats: seats.to_vec(),
        games,
        seed: 7,
        review: 0,
    }
}

#[test]
fn the_schedule_plays_every_table_in_every_rotation_n_times() {
    let usa = common::usa();
    let s = setup(
        &["a", "b", "c", "d"],
        &[("one", usa.clone()), ("two", usa)],
        &[2, 3],
        3,
    );
    let games = schedule(&s);
    // 6 pairs in 2 orders, 4 triples in 3 rotations; 3 games each; 2 boards.
    assert_eq!(games.len(), 2 * (6 * 2 + 4 * 3) * 3);
    let mut count: HashMap<(usize, Vec<String>), u64> = HashMap::new();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i as u64);
        assert_eq!(g.order.len(), g.seats);
        *count.entry((g.board, g.order.clone())).or_default() += 1;
    }
    // Every ordered pair, and every rotation of every triple, 3 times.
    let p = names(&["a", "b", "c", "d"]);
    for b in 0..2 {
        for x in &p {
            for y in &p {
                if x != y {
                    assert_eq!(count[&(b, vec![x.clone(), y.clone()])], 3, "{x} {y}");
                }
            }
        }
        for t in tables(&p, 3) {
            for r in 0..3 {
                let order: Vec<String> = (0..3).map(|i| t[(i + r) % 3].clone()).collect();
                assert_eq!(count[&(b, order.clone())], 3, "{order:?}");
            }
        }
    }
    assert_eq!(count.len(), 2 * (12 + 12));
    // The rotations of a round of a table share a deal; rounds and boards
    // do not.
    for g in &games {
        for h in &games {
            let same_deal = g.board == h.board
                && g.seats == h.seats
                && g.table == h.table
                && g.round == h.round;
            assert_eq!(g.seed == h.seed, same_deal, "{g:?} {h:?}");
        }
    }
    // Round by round: a prefix of the schedule holds whole rounds.
    assert!(games.windows(2).all(|w| w[0].round <= w[1].round));
}

#[test]
fn the_reviews_see_every_table_then_every_seat_order() {
    let usa = common::usa();
    let s = setup(
        &["a", "b", "c"],
        &[("one", usa.clone()), ("two", usa)],
        &[2],
        4,
    );
    let games = schedule(&s);
    assert_eq!(games.len(), 2 * 3 * 2 * 4);
    let seen = |sample: &[usize], b: usize| -> Vec<(usize, usize)> {
        let mut v: Vec<(usize, usize)> = sample
            .iter()
            .filter(|&&i| games[i].board == b)
            .map(|&i| (games[i].table, games[i].rotation))
            .collect();
        v.sort();
        v
    };
    let three = review_sample(&games, games.len(), 3);
    assert_eq!(three.len(), 6);
    assert_eq!(seen(&three, 0), vec![(0, 0), (1, 0), (2, 0)]);
    let six = review_sample(&games, games.len(), 6);
    assert_eq!(
        seen(&six, 1),
        vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    );
    // Spread over the rounds, each game once, at most what was played.
    assert!(six.iter().any(|&i| games[i].round > 0));
    assert_eq!(review_sample(&games, games.len(), 100).len(), games.len());
    assert!(review_sample(&games, 5, 100).iter().all(|&i| i < 5));
    assert!(review_sample(&games, games.len(), 0).is_empty());
}

#[test]
fn tables_repeat_strategies_only_when_seats_outnumber_them() {
    let p = names(&["a", "b", "c"]);
    assert_eq!(
        tables(&p, 2),
        vec![names(&["a", "b"]), names(&["a", "c"]), names(&["b", "c"])]
    );
    assert_eq!(tables(&p, 3), vec![names(&["a", "b", "c"])]);
    let two = names(&["a", "b"]);
    assert_eq!(
        tables(&two, 4),
        vec![
            names(&["a", "a", "a", "b"]),
            names(&["a", "a", "b", "b"]),
            names(&["a", "b", "b", "b"])
        ]
    );
    // Two strategies at three seats: 2 tables in 3 rotations each.
    let s = setup(&["a", "b"], &[("usa", common::usa())], &[3], 2);
    assert_eq!(schedule(&s).len(), 2 * 3 * 2);
}

#[test]
fn the_wilson_interval_is_the_hand_computed_one() {
    // Newcombe (1998), and by hand from the formula with z = 1.95996.
    let close = |(a, b): (f64, f64), (x, y): (f64, f64)| {
        assert!((a - x).abs() < 1e-4 && (b - y).abs() < 1e-4, "{a} {b}")
    };
    close(wilson(0, 10), (0.0, 0.2775));
    close(wilson(8, 10), (0.4902, 0.9433));
    close(wilson(5, 10), (0.2366, 0.7634));
    close(wilson(45, 50), (0.7864, 0.9565));
    close(wilson(10, 10), (0.7225, 1.0));
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

fn play(
    s: &Setup,
) -> (
    ttr_opt::leagues::tournament::Tournament,
    Vec<ttr_opt::leagues::tournament::Scheduled>,
    Vec<simulate::Played>,
) {
    run(s, &Limits::none(), &|| {}).expect("the tournament plays")
}

#[test]
fn a_seed_replays_the_tournament_and_another_changes_it() {
    let s = setup(
        &["random", "greedy", "planner"],
        &[("usa", common::usa())],
        &[2, 3],
        2,
    );
    let (a, ga, pa) = play(&s);
    let (b, gb, pb) = play(&s);
    let json =
        |t: &ttr_opt::leagues::tournament::Tournament| serde_json::to_string(&t.standings).unwrap();
    assert_eq!(json(&a), json(&b));
    let rows = |t: &ttr_opt::leagues::tournament::Tournament, g, p| {
        serde_json::to_string(&t.seat_rows(g, p)).unwrap()
    };
    assert_eq!(rows(&a, &ga, &pa), rows(&b, &gb, &pb));
    let other = Setup { seed: 8, ..s };
    let (c, gc, pc) = play(&other);
    assert_ne!(json(&a), json(&c));
    assert_ne!(rows(&a, &ga, &pa), rows(&c, &gc, &pc));
}

#[test]
fn wins_add_up_and_every_game_is_rechecked() {
    let usa = common::usa();
    let s = setup(
        &["random", "greedy", "planner"],
        &[("usa", usa.clone())],
        &[2, 3],
        3,
    );
    let (t, games, played) = play(&s);
    assert_eq!(t.played, t.scheduled);
    assert_eq!(played.len(), 3 * 2 * 3 + 3 * 3);
    for &k in &[2usize, 3] {
        let group: Vec<usize> = (0..played.len()).filter(|&i| games[i].seats == k).collect();
        let tied = group
            .iter()
            .filter(|&&i| {
                let top = played[i].seats.iter().map(|s| s.score).max().unwrap();
                played[i].seats.iter().filter(|s| s.score == top).count() > 1
            })
            .count();
        let rows: Vec<_> = t.standings.iter().filter(|s| s.seats == k).collect();
        assert_eq!(rows.len(), 3);
        let wins: usize = rows.iter().map(|s| s.wins).sum();
        assert_eq!(wins, group.len() - tied, "{k} players");
        let seats: usize = rows.iter().map(|s| s.games).sum();
        assert_eq!(seats, group.len() * k);
        for r in rows {
            assert!(r.win_low <= r.win_rate && r.win_rate <= r.win_high);
            assert_eq!((r.win_low, r.win_high), wilson(r.wins, r.games));
        }
    }
    for (g, p) in games.iter().zip(&played) {
        // Each seat's score again from its routes and tickets.
        for s in &p.seats {
            let eval = evaluate(&usa, &s.routes, &s.tickets);
            let failed: i64 = s
                .tickets
                .iter()
                .filter(|t| !eval.completed.contains(t))
                .map(|&t| usa.ticket(t).points as i64)
                .sum();
            let network = eval.route_points as i64 + eval.ticket_points as i64 - failed;
            assert_eq!(network, s.network_score, "game {}", g.index);
            assert_eq!(network + s.bonus as i64, s.score, "game {}", g.index);
            assert_eq!(eval.completed.len(), s.tickets_completed);
        }
        // The game alone from its seed, as the games' CSV lists it.
        let order: Vec<&str> = g.order.iter().map(String::as_str).collect();
        let again = simulate::play(&usa, &order, g.index, g.seed).unwrap();
        let scores = |p: &simulate::Played| -> Vec<(String, i64)> {
            p.seats
                .iter()
                .map(|s| (s.strategy.clone(), s.score))
                .collect()
        };
        assert_eq!(scores(&again), scores(p));
    }
}

#[test]
fn the_winner_of_a_lopsided_tournament_rates_higher() {
    let s = setup(&["random", "greedy"], &[("usa", common::usa())], &[2], 25);
    let (t, _, _) = play(&s);
    let row = |name: &str| t.standings.iter().find(|s| s.strategy == name).unwrap();
    let (greedy, random) = (row("greedy"), row("random"));
    assert_eq!(greedy.games, 50);
    assert!(greedy.win_rate > 0.9, "{}", greedy.win_rate);
    assert!(greedy.win_low > 0.75);
    assert!(greedy.mu > random.mu + 4.0 * greedy.sigma.max(random.sigma));
    assert!(greedy.rating > random.rating);
    assert!(greedy.sigma < 25.0 / 3.0);
}

#[test]
fn bad_setups_are_named() {
    let usa = || vec![("usa", common::usa())];
    let err = |s: Setup| match s.check() {
        Err(TournamentError::Setup(m)) => m,
        other => panic!("{other:?}"),
    };
    let m = err(setup(&["greedy", "grredy"], &usa(), &[2], 1));
    assert!(
        m.contains("grredy") && m.contains("random") && m.contains("planner"),
        "{m}"
    );
    let m = err(setup(&["greedy", "greedy"], &usa(), &[2], 1));
    assert!(m.contains("twice"), "{m}");
    let m = err(setup(&["greedy"], &usa(), &[2], 1));
    assert!(m.contains("two or more"), "{m}");
    let m = err(setup(&["greedy", "random"], &usa(), &[2], 0));
    assert!(m.contains("games"), "{m}");
    let m = err(setup(&["greedy", "random"], &usa(), &[6], 1));
    assert!(m.contains("seats") && m.contains("2 to 5"), "{m}");
    let m = err(setup(&["greedy", "random"], &[], &[2], 1));
    assert!(m.contains("boards"), "{m}");
    assert!(run(
        &setup(&["greedy", "nobody"], &usa(), &[2], 1),
        &Limits::none(),
        &|| {}
    )
    .is_err());
}

#[test]
fn the_command_writes_its_report_and_names_bad_input() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = common::ttr_opt_ok(&[
        "tournament",
        "--players",
        "random,greedy",
        "--boards",
        "usa",
        "--games",
        "2",
        "--review",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("usa, 2 players"), "{stdout}");
    let md = std::fs::read_to_string(dir.join("tournament.md")).unwrap();
    assert!(md.contains(
        "ttr-opt tournament --players random,greedy --boards usa --seats 2 --games 2 --seed 1 --review 1"
    ));
    assert!(md.contains("](tournament-ratings.svg)"));
    assert!(dir.join("tournament-ratings.svg").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(json["played"], 4);
    assert_eq!(json["reviewed"], 1);
    assert!(json["standings"][0]["lost_own"].is_number());
    let csv = std::fs::read_to_string(dir.join("tournament-games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4 * 2);
    let _ = std::fs::remove_dir_all(&dir);

    for (args, says) in [
        (
            vec!["--boards", "atlantis"],
            vec!["unknown board", "atlantis", "europe"],
        ),
        (
            vec!["--players", "greedy,grredy"],
            vec!["grredy", "known: random"],
        ),
        (vec!["--games", "0"], vec!["--games"]),
        (vec!["--seats", "7"], vec!["seats", "2 to 5"]),
    ] {
        let mut all = vec!["tournament", "--out", "/nonexistent/never"];
        all.extend(&args);
        let out = common::ttr_opt(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        for s in says {
            assert!(err.contains(s), "{args:?}: {err}");
        }
    }
}
