//! Ratings and the player page over the protocol (issue 57, goal 3): whole
//! games against bots played to the end over real WebSockets, each seat's
//! new rating checked against `skillratings`' Weng-Lin computed here from
//! the same ranking, the history, the leaderboard, the errors, and the
//! ratings kept across a restart. The server and client helpers are
//! `tests/suite/common/play_harness.rs`, shared with `tests/suite/play.rs`.

use serde_json::{json, Value};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::harness;
use harness::*;
use ttr_opt::play::spawn;

/// A game of alice and a bot of `level` on the small board, played to the
/// end: its id and results.
async fn game_against(c: &mut Client, level: &str) -> (i64, Value) {
    let g = c
        .ask(
            "createGame",
            json!({ "gameName": "rated", "color": "green", "board": "small" }),
        )
        .await["gameId"]
        .as_i64()
        .unwrap();
    let added = c
        .ask("addAI", json!({ "gameId": g, "difficulty": level }))
        .await;
    assert_eq!(added["description"], "success", "{added}");
    let started = c.ask("startGame", json!({ "gameId": g })).await;
    assert_eq!(started["description"], "game has started", "{started}");
    let results = play_out(c, g).await;
    (g, results)
}

/// The results' (name, score, place) per seat: places from 1, ties equal.
fn ranking(results: &Value) -> Vec<(String, i64, usize)> {
    let players = results["players"].as_array().unwrap();
    let scores: Vec<i64> = players
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .collect();
    players
        .iter()
        .zip(&scores)
        .map(|(p, s)| {
            let name = p["username"].as_str().unwrap().to_string();
            (name, *s, 1 + scores.iter().filter(|o| *o > s).count())
        })
        .collect()
}

/// (mu, sigma) of a player's page.
fn mu_sigma(page: &Value) -> (f64, f64) {
    let r = &page["rating"];
    (r["mu"].as_f64().unwrap(), r["sigma"].as_f64().unwrap())
}

/// What `skillratings`' Weng-Lin makes of these ratings and places.
fn weng_lin(before: &[((f64, f64), usize)]) -> Vec<(f64, f64)> {
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|&((mu, sigma), _)| {
            [WengLinRating {
                rating: mu,
                uncertainty: sigma,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(before)
        .map(|(t, &(_, place))| (&t[..], MultiTeamOutcome::new(place)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .iter()
        .map(|t| (t[0].rating, t[0].uncertainty))
        .collect()
}

fn assert_close(got: (f64, f64), want: (f64, f64)) {
    assert!(
        (got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9,
        "rating {got:?}, Weng-Lin says {want:?}"
    );
}

async fn page(c: &mut Client, name: &str) -> Value {
    let p = c.ask("getPlayer", json!({ "name": name })).await;
    assert_eq!(p["description"], "success", "{p}");
    p
}

/// Checks one game's ratings: each seat's new rating is Weng-Lin of the
/// ratings before and the places, the first place rose and the last fell
/// (unless all tied), and the player's page lists the game first.
/// Returns whether the game was a tie.
async fn check_game(c: &mut Client, g: i64, results: &Value, before: &[(f64, f64)]) -> bool {
    check_seats(c, &["alice", "bot:greedy"], (g, results), before).await
}

/// [`check_game`] for the rated names of every seat.
async fn check_seats(
    c: &mut Client,
    rated: &[&str],
    (g, results): (i64, &Value),
    before: &[(f64, f64)],
) -> bool {
    let rank = ranking(results);
    let want = weng_lin(
        &before
            .iter()
            .copied()
            .zip(rank.iter().map(|r| r.2))
            .collect::<Vec<_>>(),
    );
    for (i, name) in rated.iter().enumerate() {
        let p = page(c, name).await;
        assert_close(mu_sigma(&p), want[i]);
        let last = &p["recent"][0];
        assert_eq!(last["gameId"], g, "{p}");
        assert_eq!(last["board"], "small");
        assert_eq!(last["rank"], rank[i].2);
        assert_eq!(last["score"], rank[i].1);
        let players = last["players"].as_array().unwrap();
        let scores: Vec<i64> = players
            .iter()
            .map(|x| x["score"].as_i64().unwrap())
            .collect();
        assert_eq!(scores, rank.iter().map(|r| r.1).collect::<Vec<_>>());
        let names: Vec<&str> = players
            .iter()
            .map(|x| x["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, rated);
    }
    let tied = rank.iter().all(|r| r.2 == 1);
    if !tied {
        // The first place and the last (the first seat of each).
        let w = rank.iter().position(|r| r.2 == 1).unwrap();
        let worst = rank.iter().map(|r| r.2).max().unwrap();
        let l = rank.iter().position(|r| r.2 == worst).unwrap();
        assert!(
            want[w].0 > before[w].0 && want[l].0 < before[l].0,
            "{rank:?}: {want:?}"
        );
    }
    tied
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_rate_every_seat_by_weng_lin_and_the_pages_show_them() {
    let s = server("rated", Some(5)).await;
    let mut a = Client::register(s.addr, "alice").await;
    // Before any game: the prior, no games; a bot level is known unrated.
    let fresh = page(&mut a, "alice").await;
    assert_eq!(
        (
            fresh["games"].as_u64(),
            fresh["recent"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let prior = mu_sigma(&fresh);
    assert_eq!(page(&mut a, "bot:search").await["games"], 0);
    assert_eq!(a.ask("getRatings", json!({})).await["players"], json!([]));

    let (g1, r1) = game_against(&mut a, "medium").await;
    let tied1 = check_game(&mut a, g1, &r1, &[prior, prior]).await;
    let after1 = [
        mu_sigma(&page(&mut a, "alice").await),
        mu_sigma(&page(&mut a, "bot:greedy").await),
    ];

    // The second game starts from the first's ratings.
    let (g2, r2) = game_against(&mut a, "medium").await;
    assert!(g2 > g1);
    let tied2 = check_game(&mut a, g2, &r2, &after1).await;
    // The seed gives a game with a winner: the rise and fall were checked.
    assert!(!(tied1 && tied2), "{r1} {r2}");
    let alice = page(&mut a, "ALICE").await;
    assert_eq!(alice["games"], 2);
    assert_eq!(alice["recent"][1]["gameId"], g1);
    let wins = [&r1, &r2].iter().filter(|r| ranking(r)[0].2 == 1).count();
    assert_eq!(alice["wins"], wins);
    let mean = (ranking(&r1)[0].1 + ranking(&r2)[0].1) as f64 / 2.0;
    assert_eq!(alice["meanScore"].as_f64(), Some(mean));

    // The leaderboard: both rated players, best shown rating first; an
    // unrated bot level is not on it.
    let board = a.ask("getRatings", json!({})).await;
    assert_eq!(board["description"], "success");
    let rows = board["players"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2, "{board}");
    assert!(names.contains(&"alice") && names.contains(&"bot:greedy"));
    let shown: Vec<f64> = rows
        .iter()
        .map(|r| r["rating"]["rating"].as_f64().unwrap())
        .collect();
    assert!(shown[0] >= shown[1], "{board}");
    assert_eq!(
        rows.iter().find(|r| r["name"] == "bot:greedy").unwrap()["bot"],
        true
    );

    // Unknown names and malformed requests get their description.
    let unknown = a.ask("getPlayer", json!({ "name": "nobody" })).await;
    assert_eq!(unknown["description"], "no such player");
    let bad = a.ask("getPlayer", json!({ "who": "alice" })).await;
    assert_eq!(bad["description"], "invalid input");

    // A restart reads the same ratings and history back.
    let before_restart = (
        page(&mut a, "alice").await,
        a.ask("getRatings", json!({})).await,
    );
    s.server.hub().stop();
    let (addr, _server) = spawn(config(&s.dir, Some(5)), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let mut c = Client::login(addr, "alice").await;
    let after_restart = (
        page(&mut c, "alice").await,
        c.ask("getRatings", json!({})).await,
    );
    assert_eq!(before_restart, after_restart);
}

/// A database made before ratings (no `rated_games` or `results` table)
/// opens, gets the tables, and reads back with no rated game.
#[test]
fn a_database_from_before_ratings_opens_with_no_rated_game() {
    use ttr_opt::play::store::{Sqlite, Store};
    let dir = scratch("old");
    let db = dir.join("t.db");
    drop(Sqlite::open(&db).unwrap());
    let old = rusqlite::Connection::open(&db).unwrap();
    old.execute_batch("DROP TABLE results; DROP TABLE rated_games;")
        .unwrap();
    drop(old);
    let mut store = Sqlite::open(&db).unwrap();
    assert!(store.load().unwrap().results.is_empty());
    assert_eq!(store.count("results").unwrap(), 0);
    assert_eq!(store.count("rated_games").unwrap(), 0);
}

/// Three seats, a bot of each level: each rated by Weng-Lin from the prior,
/// and the leaderboard lists all three, best first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_bot_levels_get_a_rating_row_and_the_leaderboard_is_ordered() {
    let s = server("three", Some(7)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let prior = mu_sigma(&page(&mut a, "alice").await);
    let g = a
        .ask(
            "createGame",
            json!({ "gameName": "three", "color": "green", "board": "small" }),
        )
        .await["gameId"]
        .as_i64()
        .unwrap();
    for level in ["medium", "hard"] {
        let added = a
            .ask("addAI", json!({ "gameId": g, "difficulty": level }))
            .await;
        assert_eq!(added["description"], "success", "{added}");
    }
    let started = a.ask("startGame", json!({ "gameId": g })).await;
    assert_eq!(started["description"], "game has started", "{started}");
    let results = play_out(&mut a, g).await;
    let rated = ["alice", "bot:greedy", "bot:search"];
    check_seats(&mut a, &rated, (g, &results), &[prior; 3]).await;
    let board = a.ask("getRatings", json!({})).await;
    let rows = board["players"].as_array().unwrap();
    let mut names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    let shown: Vec<f64> = rows
        .iter()
        .map(|r| r["rating"]["rating"].as_f64().unwrap())
        .collect();
    assert!(shown.windows(2).all(|w| w[0] >= w[1]), "{board}");
    names.sort();
    assert_eq!(names, rated, "{board}");
    for r in rows {
        assert_eq!(r["bot"], r["name"] != "alice", "{r}");
        assert_eq!(r["games"], 1);
    }
}
