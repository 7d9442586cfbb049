//! The replay of a finished game over the protocol (`getReplay`, issue 57
//! goal 3): a whole game against a bot played over real WebSockets, then
//! its replay checked move by move against the game's own record (the
//! moves of its saved file) and its end against the final model and
//! results. What a replay may not hold is checked too: no hand, no card
//! drawn from the deck, no ticket. The server and client helpers are
//! `tests/suite/common/play_harness.rs`.

use serde_json::{json, Value};

use crate::harness;
use harness::*;

/// The card colours as the protocol names them: none may name a card
/// drawn from the deck.
const CARD_NAMES: [&str; 10] = [
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "pink",
    "white",
    "black",
    "wild",
    "locomotive",
];

/// The small board's tracks by `routeIndex` (every route's tracks in file
/// order): (route, track in it, length, points).
fn tracks() -> Vec<(usize, usize, u64, u64)> {
    let board: Value = serde_json::from_str(SMALL).unwrap();
    let points = &board["route_points"];
    let mut out = Vec::new();
    for (r, route) in board["routes"].as_array().unwrap().iter().enumerate() {
        let length = route["length"].as_u64().unwrap();
        let score = points[length.to_string()].as_u64().unwrap();
        for t in 0..route["tracks"].as_array().unwrap().len() {
            out.push((r, t, length, score));
        }
    }
    out
}

/// The game's moves as its saved file records them (the test's own
/// account of what was played: the file holds the whole game).
async fn recorded_moves(s: &Running, c: &mut Client, g: i64) -> Vec<Value> {
    let saved = c.ask("saveGameState", json!({ "gameId": g })).await;
    assert_eq!(saved["description"], "success", "{saved}");
    let path = s.dir.join("saves").join(saved["path"].as_str().unwrap());
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["game"]["moves"].as_array().unwrap().clone()
}

/// Every object key anywhere in `v`.
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_replays_move_by_move_with_public_information_only() {
    let s = server("replay", Some(31)).await;
    let mut a = Client::register(s.addr, "alice").await;
    let mut b = Client::register(s.addr, "bobby").await;
    let mut w = Client::register(s.addr, "carol").await;
    let g = a
        .ask(
            "createGame",
            json!({ "gameName": "replayed", "color": "green", "board": "small" }),
        )
        .await["gameId"]
        .as_i64()
        .unwrap();
    let added = a
        .ask("addAI", json!({ "gameId": g, "difficulty": "easy" }))
        .await;
    assert_eq!(added["description"], "success", "{added}");
    let ask = json!({ "gameId": g });

    // Before the end: refused, the game not over.
    let out = a.ask("getReplay", ask.clone()).await;
    assert_eq!(out["description"], "game is not over", "{out}");
    let started = a.ask("startGame", ask.clone()).await;
    assert_eq!(started["description"], "game has started", "{started}");
    let out = a.ask("getReplay", ask.clone()).await;
    assert_eq!(out["description"], "game is not over", "{out}");
    let out = a.ask("getReplay", json!({ "gameId": g + 100 })).await;
    assert_eq!(out["description"], "no such game", "{out}");

    let results = play_out(&mut a, g).await;
    let last = a.model(g).await;
    assert_eq!(last["state"], "over");

    // To a user not in the game: refused, over or not.
    let out = b.ask("getReplay", ask.clone()).await;
    assert_eq!(out["description"], "not in this game", "{out}");

    let replay = a.ask("getReplay", ask.clone()).await;
    assert_eq!(replay["description"], "success", "{replay}");
    assert_eq!(replay["gameId"], g);
    assert_eq!(
        replay["totals"],
        json!(["points", "trainsLeft", "cardCount", "destinationCount"])
    );
    let entries = replay["moves"].as_array().unwrap();
    let moves = recorded_moves(&s, &mut a, g).await;
    assert_eq!(entries.len(), moves.len(), "one entry a move");
    assert!(moves.len() > 4, "a whole game: {} moves", moves.len());

    // Move by move, against the test's own account of the game from the
    // recorded moves: the seat, the track claimed, and every player's
    // totals (route points and cars from the tracks claimed, cards from
    // the deal's 4 plus draws minus cards paid, tickets from those kept).
    let tracks = tracks();
    let cars = 5;
    let seats = last["players"].as_array().unwrap().len();
    let mut owners: Vec<Option<u64>> = vec![None; tracks.len()];
    let mut expected = vec![[0u64, cars, 4, 0]; seats];
    let mut draws_from_deck = 0;
    for (i, (e, m)) in entries.iter().zip(&moves).enumerate() {
        let seat = m["seat"].as_u64().unwrap();
        assert_eq!(e["seat"], seat, "move {i}: {e} for {m}");
        let mover = &mut expected[seat as usize];
        match m["move"].as_str().unwrap() {
            "claim" => {
                let key = (m["route"].as_u64().unwrap(), m["track"].as_u64().unwrap());
                let index = tracks
                    .iter()
                    .position(|&(r, t, _, _)| (r as u64, t as u64) == key)
                    .unwrap();
                assert_eq!(e["routeIndex"], index, "move {i}: {e} for {m}");
                let (_, _, length, points) = tracks[index];
                owners[index] = Some(seat);
                mover[0] += points;
                mover[1] -= length;
                mover[2] -= length;
            }
            "deck" | "face_up" => {
                mover[2] += 1;
                assert!(e.get("routeIndex").is_none(), "move {i}: {e}");
            }
            "keep" => mover[3] += m["tickets"].as_array().unwrap().len() as u64,
            other => assert!(
                ["tickets", "pass"].contains(&other),
                "move {i}: an unexpected move {m}"
            ),
        }
        let shown: Vec<[u64; 4]> = e["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let p: Vec<u64> = p
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                [p[0], p[1], p[2], p[3]]
            })
            .collect();
        assert_eq!(shown, expected, "move {i}: {e} for {m}");
        // The line tells the move: a card from the deck by no colour.
        let text = e["text"].as_str().unwrap().to_lowercase();
        if m["move"] == "deck" {
            draws_from_deck += 1;
            assert!(
                text.ends_with("drew a card from the deck"),
                "move {i}: {text}"
            );
            for c in CARD_NAMES {
                assert!(!text.contains(c), "move {i} names a card drawn: {text}");
            }
        }
        let mut fields: Vec<String> = e.as_object().unwrap().keys().cloned().collect();
        fields.sort();
        fields.retain(|f| !["players", "routeIndex", "seat", "text"].contains(&f.as_str()));
        assert!(fields.is_empty(), "move {i}: unexpected fields {fields:?}");
    }
    assert!(draws_from_deck > 0, "the game drew from the deck");

    // The end: the tracks claimed over the replay are the final model's,
    // and each player's last totals the final model's and results'.
    let routes: Vec<Option<u64>> = last["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_u64)
        .collect();
    assert_eq!(owners, routes);
    let end = entries.last().unwrap()["players"].as_array().unwrap();
    for (p, model) in last["players"].as_array().unwrap().iter().enumerate() {
        let totals = json!([
            model["points"],
            model["trainsLeft"],
            model["cardCount"],
            model["destinationCount"]
        ]);
        assert_eq!(end[p], totals, "player {p}");
        let result = &results["players"][p];
        assert_eq!(result["playerIndex"], p);
        assert_eq!(end[p][0], result["routePoints"], "player {p}");
        let held = result["completed"].as_array().unwrap().len()
            + result["failed"].as_array().unwrap().len();
        assert_eq!(end[p][3], held, "player {p}");
    }

    // Nothing hidden anywhere in the answer.
    let mut all = Vec::new();
    keys(&replay, &mut all);
    for secret in [
        "cards",
        "hand",
        "offer",
        "seed",
        "cities",
        "cardDrawn",
        "destinationCards",
        "tickets",
    ] {
        assert!(
            !all.iter().any(|k| k == secret),
            "the replay holds {secret}"
        );
    }

    // A spectator of the finished game gets the same replay; asked again,
    // the same answer (it is kept).
    let watched = w.ask("watchGame", ask.clone()).await;
    assert_eq!(watched["spectator"], true, "{watched}");
    assert_eq!(w.ask("getReplay", ask.clone()).await, replay);
    assert_eq!(a.ask("getReplay", ask.clone()).await, replay);
    s.server.hub().stop();
    let _ = std::fs::remove_dir_all(&s.dir);
}
