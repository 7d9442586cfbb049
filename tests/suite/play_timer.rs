//! Turn timers over the protocol (issue 57): a person who does not move
//! is played for by the stand-in bot once the deadline passes, everyone
//! is told, the seat is taken over after two misses and given back by a
//! move of the person's own, a player who leaves a game being played is
//! played for, a turn-based game's deadline survives a restart, and limits
//! out of range are refused with a reason. The server lets tests ask for
//! 1-second turns (`min_turn_secs`); the harness is
//! `tests/suite/common/play_harness.rs`.

use serde_json::{json, Value};

use crate::harness;
use harness::*;
use ttr_opt::play::spawn;

/// The history lines of `game` so far, as its player may read them.
async fn history(c: &mut Client, game: i64) -> Vec<String> {
    let page = c
        .ask("getHistory", json!({ "gameId": game, "from": 0 }))
        .await;
    page["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

/// Waits (reading pushed messages) until `seen` holds of `game`'s model.
async fn until(c: &mut Client, game: i64, seen: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = c.model(game).await;
        if seen(&m) {
            return m;
        }
        c.wait("modelChanged").await;
    }
}

/// A game of alice and bob on the small board with `pace` (createGame's
/// fields), started: its id.
async fn two_people(a: &mut Client, b: &mut Client, pace: Value) -> i64 {
    let mut create = json!({ "gameName": "timed", "color": "red", "board": "small" });
    create
        .as_object_mut()
        .unwrap()
        .extend(pace.as_object().unwrap().clone());
    let made = a.ask("createGame", create).await;
    assert_eq!(made["description"], "success", "{made}");
    let g = made["gameId"].as_i64().unwrap();
    let joined = b
        .ask("joinGame", json!({ "gameId": g, "color": "blue" }))
        .await;
    assert_eq!(joined["description"], "success", "{joined}");
    let started = a.ask("startGame", json!({ "gameId": g })).await;
    assert_eq!(started["description"], "game has started", "{started}");
    g
}

/// Alice never moves in a game of 1-second turns: the stand-in chooses
/// her first tickets and plays her turns, bob (who plays his own) reads
/// it in the history, her seat is marked away after the second miss, a
/// move of hers takes it back, and the game goes on to its end with her
/// seat played only through the rules engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_player_is_played_for_and_takes_the_seat_back_by_moving() {
    let s = server("idle", Some(11)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let mut b = Client::register(s.addr, "bobby").await;
    let g = two_people(&mut a, &mut b, json!({ "turnSeconds": 1 })).await;
    let m = a.model(g).await;
    assert_eq!(m["turnLimit"], 1, "{m}");
    assert_eq!(m["turnBased"], false);
    let deadline = m["deadline"].as_i64().expect("a running deadline");
    let lobby = a.ask("updateUserGames", json!({})).await;
    assert_eq!(lobby["games"][0]["deadline"], deadline, "{lobby}");
    assert_eq!(lobby["games"][0]["turnLimit"], 1);

    // Bob plays his own seat to the end, in the background.
    let bob = tokio::spawn(async move {
        let results = play_out(&mut b, g).await;
        (b, results)
    });

    // Alice idles: after two missed turns her seat is away.
    let away = until(&mut a, g, |m| m["players"][0]["away"] == true).await;
    assert!(away["offer"].is_null(), "her first tickets were chosen");
    let lines = history(&mut a, g).await;
    let timed_out = lines
        .iter()
        .filter(|l| l.starts_with("alice timed out"))
        .count();
    assert!(timed_out >= 2, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("a bot plays their seat")),
        "{lines:?}"
    );
    assert_eq!(away["players"][1]["away"], false);

    // Her own move takes the seat back (she draws from the deck on her
    // turn: the stand-in waits a second for her).
    loop {
        let m = until(&mut a, g, |m| {
            !m["results"].is_null() || (m["turn"]["playerId"] == 0 && m["turn"]["phase"] == "turn")
        })
        .await;
        if !m["results"].is_null() {
            panic!("the game ended before alice could move: {m}");
        }
        let out = a
            .ask("drawTrainCard", json!({ "gameId": g, "cardLocation": 5 }))
            .await;
        if out["description"] == "success" {
            break;
        }
        // The stand-in was first this time: wait for her next turn.
    }
    let m = a.model(g).await;
    assert_eq!(m["players"][0]["away"], false, "{m}");
    assert!(history(&mut a, g)
        .await
        .iter()
        .any(|l| l == "alice is back and plays their own seat again"),);

    // Idle again: the game still ends, and bob saw every timeout.
    let ended = until(&mut a, g, |m| !m["results"].is_null()).await;
    let (mut b, results) = tokio::time::timeout(PATIENCE, bob).await.unwrap().unwrap();
    assert_eq!(results, ended["results"]);
    assert!(ended["deadline"].is_null(), "no deadline after the end");
    let seen_by_bob = history(&mut b, g).await;
    assert_eq!(seen_by_bob, history(&mut a, g).await);
    assert!(
        seen_by_bob
            .iter()
            .any(|l| l == "alice timed out; a bot played for them"),
        "{seen_by_bob:?}"
    );
    // A rematch keeps the pace.
    let re = b.ask("rematch", json!({ "gameId": g })).await;
    let m = b.model(re["gameId"].as_i64().unwrap()).await;
    assert_eq!(m["turnLimit"], 1, "{m}");
}

/// `leaveGame` while a game is played keeps the seat and hands it to the
/// stand-in at once (even in an untimed game): the others are told, and
/// the game is not held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_a_game_being_played_is_played_for() {
    let s = server("leave", Some(12)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let mut b = Client::register(s.addr, "bobby").await;
    let g = two_people(&mut a, &mut b, json!({})).await;
    assert!(a.model(g).await["deadline"].is_null(), "untimed");
    let left = a.ask("leaveGame", json!({ "gameId": g })).await;
    assert_eq!(left["description"], "success", "{left}");
    let m = b.model(g).await;
    assert_eq!(m["players"][0]["away"], true, "{m}");
    assert!(history(&mut b, g)
        .await
        .iter()
        .any(|l| l == "alice left the game; a bot plays their seat until they make a move"));
    let results = play_out(&mut b, g).await;
    assert_eq!(results["players"].as_array().unwrap().len(), 2, "{results}");
    assert!(history(&mut b, g)
        .await
        .iter()
        .any(|l| l == "alice is away; a bot played for them"));
}

/// A turn-based game keeps its limit and its deadline across a restart:
/// the days it gives do not start again with the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_based_deadline_survives_a_restart() {
    let s = server("restart", Some(13)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let made = a
        .ask(
            "createGame",
            json!({ "gameName": "slow", "color": "red", "board": "small", "turnBased": true, "turnHours": 48 }),
        )
        .await;
    let g = made["gameId"].as_i64().unwrap();
    a.ask("addAI", json!({ "gameId": g, "difficulty": "easy" }))
        .await;
    a.ask("startGame", json!({ "gameId": g })).await;
    let before = a.model(g).await;
    assert_eq!(before["turnBased"], true);
    assert_eq!(before["turnLimit"], 48 * 3600);
    let deadline = before["deadline"].as_i64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(
        (deadline - now - 48 * 3_600_000).abs() < 60_000,
        "{deadline}"
    );
    s.server.hub().stop();
    // Later than the old deadline would be if it restarted.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let (addr, _server) = spawn(config(&s.dir, Some(13)), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let mut c = Client::login(addr, "alice").await;
    let after = c.model(g).await;
    assert_eq!(after["deadline"], deadline, "{after}");
    assert_eq!(after["turnBased"], true);
    assert_eq!(after["turnLimit"], 48 * 3600);
    let lobby = c.ask("updateUserGames", json!({})).await;
    assert_eq!(lobby["games"][0]["yourTurn"], true, "{lobby}");
    assert_eq!(lobby["games"][0]["turnBased"], true, "{lobby}");

    // She leaves: her seat away and the history's line are kept by the
    // next restart too, at the line's place.
    let left = c.ask("leaveGame", json!({ "gameId": g })).await;
    assert_eq!(left["description"], "success", "{left}");
    let said = history(&mut c, g).await;
    let line = "alice left the game; a bot plays their seat until they make a move";
    let at = said
        .iter()
        .position(|l| l == line)
        .expect("the leave is told");
    _server.hub().stop();
    let (addr, _third) = spawn(config(&s.dir, Some(13)), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let mut d = Client::login(addr, "alice").await;
    assert_eq!(d.model(g).await["players"][0]["away"], true);
    let restored = history(&mut d, g).await;
    assert_eq!(
        restored.get(at).map(String::as_str),
        Some(line),
        "{restored:?}"
    );
}

/// Limits out of range, or a game both real-time and turn-based, are
/// refused with a reason; a turn-based game's limit is a day by default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_out_of_range_are_refused_with_a_reason() {
    let s = server("range", None).await;
    let mut a = Client::register(s.addr, "alice").await;
    for pace in [
        json!({ "turnSeconds": 0 }),
        json!({ "turnSeconds": 601 }),
        json!({ "turnBased": true, "turnHours": 0 }),
        json!({ "turnBased": true, "turnHours": 169 }),
        json!({ "turnBased": true, "turnSeconds": 60 }),
        json!({ "turnHours": 5 }),
    ] {
        let mut create = json!({ "gameName": "g", "color": "red" });
        create
            .as_object_mut()
            .unwrap()
            .extend(pace.as_object().unwrap().clone());
        let out = a.ask("createGame", create).await;
        assert_eq!(out["description"], "invalid input", "{pace}: {out}");
        assert!(
            out["reason"].as_str().is_some_and(|r| r.contains("turn")),
            "{pace}: {out}"
        );
    }
    let games = a.ask("updateUserGames", json!({})).await;
    assert_eq!(games["games"].as_array().unwrap().len(), 0, "{games}");
    let out = a
        .ask(
            "createGame",
            json!({ "gameName": "g", "color": "red", "turnBased": true }),
        )
        .await;
    assert_eq!(out["description"], "success", "{out}");
    let m = a.model(out["gameId"].as_i64().unwrap()).await;
    assert_eq!(m["turnLimit"], 24 * 3600, "the default day");
    assert!(m["deadline"].is_null(), "no deadline before the start");
}

/// A database from before timers (its games without the clock's columns)
/// opens: the columns are added, and its games are untimed.
#[test]
fn a_database_from_before_timers_gets_the_clock_columns() {
    use ttr_opt::play::store::{Sqlite, Store};
    let dir = scratch("before-timers");
    let db = dir.join("t.db");
    drop(Sqlite::open(&db).unwrap());
    let old = rusqlite::Connection::open(&db).unwrap();
    for column in ["turn_limit", "turn_based", "turn_start", "away"] {
        old.execute_batch(&format!("ALTER TABLE games DROP COLUMN {column}"))
            .unwrap();
    }
    old.execute_batch(
        "INSERT INTO users (id, username, password, created) VALUES (1, 'alice', 'x', 0);
         INSERT INTO boards (hash, json) VALUES ('h', '{}');
         INSERT INTO games (id, name, creator, board_key, board_hash, created)
         VALUES (1, 'old', 1, 'usa', 'h', 0);",
    )
    .unwrap();
    drop(old);
    let mut store = Sqlite::open(&db).unwrap();
    let games = store.load().unwrap().games;
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(
        (g.turn_limit, g.turn_based, g.turn_start, g.away),
        (None, false, None, 0)
    );
}
