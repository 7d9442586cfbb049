//! Finished games leave memory (issue 57: a server running for months held
//! every game it ever played, about 0.2 MB each): a game over and unused
//! is shelved, only its listing kept, and a start reads no finished
//! game's moves. Whatever its players and the others could read of it
//! before, they read the same after, from memory, from the shelf, and
//! from a restart: the lists of games, the model, the history, the chat,
//! the replay, a saved copy refused, a rematch. The server and client
//! helpers are `tests/suite/common/play_harness.rs`.

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness;
use harness::*;
use ttr_opt::play::spawn;

/// A model without its version (a model read back is the same game, but
/// each answer has a version of its own).
fn unversioned(mut m: Value) -> Value {
    m.as_object_mut().unwrap().remove("version");
    m
}

/// Waits until the server holds `expected` (games in memory, shelved).
async fn until_held(s: &Running, expected: (usize, usize)) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let held = s.server.hub().games_held();
        if held == expected {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server holds {held:?}, not {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What a player and an outsider can read of a finished game.
#[derive(Debug, PartialEq)]
struct Seen {
    model: Value,
    history: Value,
    chat: Value,
    replay: Value,
    my_games: Value,
    watchable: Value,
}

async fn seen(a: &mut Client, outsider: &mut Client, g: i64) -> Seen {
    let ask = json!({ "gameId": g });
    let answer = |v: Value| {
        assert_eq!(v["description"], "success", "{v}");
        v
    };
    Seen {
        model: unversioned(a.model(g).await),
        history: answer(a.ask("getHistory", json!({ "gameId": g, "from": 0 })).await),
        chat: answer(a.ask("getChat", json!({ "gameId": g, "from": 0 })).await),
        replay: answer(a.ask("getReplay", ask.clone()).await),
        my_games: answer(a.ask("updateUserGames", json!({})).await),
        watchable: answer(outsider.ask("watchableGames", json!({})).await),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_leave_memory_and_read_back_the_same() {
    let dir = scratch("shelf");
    let mut config = config(&dir, Some(41));
    config.shelve_after = Duration::from_millis(300);
    let (addr, server) = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let s = Running { addr, server, dir };
    let mut a = Client::register(s.addr, "alice").await;
    let mut c = Client::register(s.addr, "carol").await;

    // Two games: one alice plays to the end with a bot, one left open.
    let create = |name: &str| json!({ "gameName": name, "color": "green", "board": "small" });
    let g = a.ask("createGame", create("finished")).await["gameId"]
        .as_i64()
        .unwrap();
    let open = a.ask("createGame", create("open")).await["gameId"]
        .as_i64()
        .unwrap();
    let ask = json!({ "gameId": g });
    let added = a
        .ask("addAI", json!({ "gameId": g, "difficulty": "easy" }))
        .await;
    assert_eq!(added["description"], "success", "{added}");
    a.ask("startGame", ask.clone()).await;
    let chat = a
        .ask("sendChat", json!({ "gameId": g, "message": "good luck" }))
        .await;
    assert_eq!(chat["description"], "success", "{chat}");
    play_out(&mut a, g).await;
    let saved = a.ask("saveGameState", ask.clone()).await;
    assert_eq!(saved["description"], "success", "{saved}");
    let file = saved["path"].as_str().unwrap().to_string();

    // While it is used it stays; unused, it is shelved, the open game not.
    let before = seen(&mut a, &mut c, g).await;
    assert_eq!(before.model["state"], "over");
    until_held(&s, (1, 1)).await;

    // The lists come from the shelf, the same, without reading it back.
    let lists = (
        a.ask("updateUserGames", json!({})).await,
        c.ask("watchableGames", json!({})).await,
    );
    assert_eq!(
        (lists.0, lists.1),
        (before.my_games.clone(), before.watchable.clone())
    );
    assert_eq!(
        s.server.hub().games_held(),
        (1, 1),
        "a list reads no game back"
    );
    // A saved copy of it is still refused: it is still on this server.
    let loaded = a.ask("loadGameState", json!({ "path": file })).await;
    assert_eq!(loaded["gameId"], g, "{loaded}");

    // Named by a command, it is read back whole: everything the same.
    assert_eq!(seen(&mut a, &mut c, g).await, before);
    assert_eq!(s.server.hub().games_held().1, 0);
    until_held(&s, (1, 1)).await;

    // A restart reads only its listing, and it reads back the same.
    s.server.hub().stop();
    let mut config = harness::config(&s.dir, Some(41));
    config.shelve_after = Duration::from_millis(300);
    let (addr, server) = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let s = Running {
        addr,
        server,
        dir: s.dir.clone(),
    };
    assert_eq!(
        s.server.hub().games_held(),
        (1, 1),
        "only the open game is rebuilt"
    );
    let mut a = Client::login(s.addr, "alice").await;
    let mut c = Client::login(s.addr, "carol").await;
    let after = seen(&mut a, &mut c, g).await;
    assert_eq!(after, before);

    // A rematch, asked of a shelved game, opens a new one.
    until_held(&s, (1, 1)).await;
    let rematch = a.ask("rematch", ask.clone()).await;
    assert_eq!(rematch["description"], "success", "{rematch}");
    assert!(rematch["gameId"].as_i64().unwrap() > open, "{rematch}");
    s.server.hub().stop();
}

/// A game that ended before the store marked games over (an older
/// database) is found over at the start, marked, and shelved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_has_its_finished_games_marked_at_the_start() {
    let s = server("shelf-old", Some(43)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let g = a
        .ask(
            "createGame",
            json!({ "gameName": "old", "color": "red", "board": "small" }),
        )
        .await["gameId"]
        .as_i64()
        .unwrap();
    a.ask("addAI", json!({ "gameId": g, "difficulty": "easy" }))
        .await;
    a.ask("startGame", json!({ "gameId": g })).await;
    play_out(&mut a, g).await;
    let model = unversioned(a.model(g).await);
    s.server.hub().stop();
    let db = s.dir.join("t.db");
    let marked = |db: &std::path::Path| -> i64 {
        let c = rusqlite::Connection::open(db).unwrap();
        c.query_row("SELECT COUNT(*) FROM games WHERE over = 1", [], |r| {
            r.get(0)
        })
        .unwrap()
    };
    assert_eq!(marked(&db), 1, "the game was marked over as it ended");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE games SET over = 0", [])
        .unwrap();

    let (addr, server) = spawn(config(&s.dir, Some(43)), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(server.hub().games_held(), (0, 1), "found over and shelved");
    let mut a = Client::login(addr, "alice").await;
    assert_eq!(unversioned(a.model(g).await), model);
    server.hub().stop();
    assert_eq!(marked(&db), 1, "marked again at the start");
}

/// Reading finished games back is capped: beyond the cap, the least
/// recently used finished game is shelved again at once (before, commands
/// naming old games could bring the whole shelf back into memory within
/// the idle time), but never one someone watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_read_back_beyond_the_cap_shelve_the_least_recently_used() {
    let dir = scratch("shelf-cap");
    let mut config = config(&dir, Some(47));
    config.shelve_after = Duration::from_millis(300);
    let (addr, server) = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let mut a = Client::register(addr, "alice").await;
    Client::register(addr, "carol").await;
    let mut games = Vec::new();
    for name in ["first", "second"] {
        let create = json!({ "gameName": name, "color": "green", "board": "small" });
        let g = a.ask("createGame", create).await["gameId"]
            .as_i64()
            .unwrap();
        a.ask("addAI", json!({ "gameId": g, "difficulty": "easy" }))
            .await;
        a.ask("startGame", json!({ "gameId": g })).await;
        play_out(&mut a, g).await;
        games.push((g, unversioned(a.model(g).await)));
    }
    let s = Running { addr, server, dir };
    until_held(&s, (0, 2)).await;
    s.server.hub().stop();

    // Restarted with room for one finished game, and no idle shelving.
    let mut config = harness::config(&s.dir, Some(47));
    config.shelve_after = Duration::from_secs(3600);
    config.finished_in_memory = 1;
    let (addr, server) = spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap();
    let held = || server.hub().games_held();
    assert_eq!(held(), (0, 2));
    let mut a = Client::login(addr, "alice").await;
    let [(first, first_model), (second, second_model)] = &games[..] else {
        unreachable!("two games");
    };
    assert_eq!(&unversioned(a.model(*first).await), first_model);
    assert_eq!(held(), (1, 1));
    // The second read back puts the first back on the shelf.
    assert_eq!(&unversioned(a.model(*second).await), second_model);
    assert_eq!(held(), (1, 1));
    assert_eq!(&unversioned(a.model(*first).await), first_model);
    assert_eq!(held(), (1, 1), "the second went back in turn");
    // A game someone watches stays, even beyond the cap.
    let mut c = Client::login(addr, "carol").await;
    let watched = c.ask("watchGame", json!({ "gameId": second })).await;
    assert_eq!(watched["description"], "success", "{watched}");
    assert_eq!(held(), (1, 1), "the first went back to the shelf");
    assert_eq!(&unversioned(a.model(*first).await), first_model);
    assert_eq!(held(), (2, 0), "the watched game stays");
    server.hub().stop();
}
