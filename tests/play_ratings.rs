//! Ratings and the player page over the protocol (issue 57, goal 3): whole
//! games against bots played to the end over real WebSockets, each seat's
//! new rating checked against `skillratings`' Weng-Lin computed here from
//! the same ranking, the history, the leaderboard, the errors, and the
//! ratings kept across a restart. The client helpers are copies of
//! `tests/play.rs`'s.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use ttr_opt::play::hub::Offer;
use ttr_opt::play::{spawn, Config, Server};

/// How long to wait for something that should happen: a watchdog, not a
/// timing.
const PATIENCE: Duration = Duration::from_secs(120);

static DIRS: AtomicU64 = AtomicU64::new(0);

/// A fresh folder for a server's database.
fn scratch(name: &str) -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("ttr-play-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small board: 5 cars a player, a route of 6 no one can afford, a
/// double route, and enough tickets for five players.
const SMALL: &str = r#"{
  "name": "small", "cars": 5,
  "route_points": { "1": 1, "2": 2, "3": 4, "4": 7, "6": 15 },
  "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 10, "y": 0 },
              { "name": "C", "x": 20, "y": 0 }, { "name": "D", "x": 20, "y": 10 },
              { "name": "E", "x": 0, "y": 10 } ],
  "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["red"] },
              { "from": "B", "to": "C", "length": 2, "tracks": ["gray"] },
              { "from": "C", "to": "D", "length": 3, "tracks": ["blue", "green"] },
              { "from": "D", "to": "E", "length": 4, "tracks": ["black"] },
              { "from": "A", "to": "E", "length": 6, "tracks": ["gray"] },
              { "from": "B", "to": "D", "length": 2, "tracks": ["yellow"] } ],
  "tickets": [ { "from": "A", "to": "C", "points": 4 }, { "from": "A", "to": "D", "points": 6 },
               { "from": "B", "to": "E", "points": 7 }, { "from": "C", "to": "E", "points": 5 },
               { "from": "A", "to": "B", "points": 2 }, { "from": "B", "to": "D", "points": 3 },
               { "from": "C", "to": "A", "points": 5 }, { "from": "D", "to": "B", "points": 4 },
               { "from": "E", "to": "A", "points": 8 }, { "from": "E", "to": "C", "points": 6 },
               { "from": "B", "to": "C", "points": 2 }, { "from": "D", "to": "C", "points": 3 },
               { "from": "A", "to": "E", "points": 9 }, { "from": "B", "to": "A", "points": 1 },
               { "from": "D", "to": "E", "points": 4 }, { "from": "C", "to": "B", "points": 2 } ]
}"#;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A protocol client that keeps every message it receives.
struct Client {
    ws: Socket,
    next: u64,
    log: Vec<Value>,
}

impl Client {
    async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Client {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(c) = cookie {
            request
                .headers_mut()
                .insert("cookie", format!("ttr_session={c}").parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        let mut client = Client {
            ws,
            next: 1,
            log: Vec::new(),
        };
        // The server's first word: logged in or not.
        client.wait("session").await;
        client
    }

    /// The next message; `None` once the server closed the connection.
    async fn recv(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("the server answers");
            match m {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    self.log.push(v.clone());
                    return Some(v);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    async fn send_raw(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a command and returns the output of its answer.
    async fn ask(&mut self, command: &str, parameters: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send_raw(
            json!({ "command": command, "parameters": parameters, "id": id }).to_string(),
        )
        .await;
        loop {
            let m = self
                .recv()
                .await
                .unwrap_or_else(|| panic!("closed before answering {command}"));
            if m["id"] == json!(id) {
                assert_eq!(m["command"], command, "{m}");
                return m["output"].clone();
            }
        }
    }

    /// Reads until a message of `command`; its output.
    async fn wait(&mut self, command: &str) -> Value {
        loop {
            let m = self
                .recv()
                .await
                .unwrap_or_else(|| panic!("closed while waiting for {command}"));
            if m["command"] == command {
                return m["output"].clone();
            }
        }
    }

    async fn register(addr: SocketAddr, name: &str) -> Client {
        let mut c = Client::connect(addr, None).await;
        let out = c
            .ask(
                "register",
                json!({ "username": name, "password": "correct horse battery" }),
            )
            .await;
        assert_eq!(out["description"], "success", "{out}");
        c
    }

    /// The latest model of `game` (asked for, so it is current).
    async fn model(&mut self, game: i64) -> Value {
        let m = self
            .ask("sendClientModelInformation", json!({ "gameId": game }))
            .await;
        assert_eq!(m["description"], "success", "{m}");
        m
    }
}

/// Plays alice's turns simply (her first tickets, then the first claim
/// offered, else cards from the deck) until the game ends; returns the
/// end's results.
async fn play_out(c: &mut Client, g: i64) -> Value {
    loop {
        let m = c.model(g).await;
        if !m["results"].is_null() {
            return m["results"].clone();
        }
        let me = m["you"].as_u64().unwrap();
        if !m["offer"].is_null() {
            let keep: Vec<usize> = (0..m["offer"]["min"].as_u64().unwrap() as usize).collect();
            let out = c
                .ask(
                    "selectDestinations",
                    json!({ "gameId": g, "destinationsSelected": keep }),
                )
                .await;
            assert_eq!(out["description"], "success", "{out}");
            continue;
        }
        let turn = &m["turn"];
        if turn["playerId"].as_u64() != Some(me) || turn["phase"] == "setup" {
            // Someone else moves: wait for news.
            c.wait("sendClientModelInformation").await;
            continue;
        }
        let out = if m["canPass"] == true {
            c.ask("passTurn", json!({ "gameId": g })).await
        } else if let (Some(claim), "turn") =
            (m["claimable"].get(0), turn["phase"].as_str().unwrap())
        {
            let pay = &claim["payments"][0];
            c.ask("buyRoute", json!({ "gameId": g, "routeIndex": claim["routeIndex"], "trainColor": pay["color"], "numberOfWilds": pay["minWilds"] })).await
        } else if m["deckCount"].as_u64().unwrap() > 0 {
            c.ask("drawTrainCard", json!({ "gameId": g, "cardLocation": 5 }))
                .await
        } else {
            let i = m["faceUp"]
                .as_array()
                .unwrap()
                .iter()
                .position(|x| x != "wild" || m["canDrawWild"] == true);
            match i {
                Some(i) => {
                    c.ask("drawTrainCard", json!({ "gameId": g, "cardLocation": i }))
                        .await
                }
                None => c.ask("getDestinations", json!({ "gameId": g })).await,
            }
        };
        assert_eq!(out["description"], "success", "{out} in {m}");
    }
}

struct Running {
    addr: SocketAddr,
    server: Arc<Server>,
    dir: PathBuf,
}

fn config(dir: &std::path::Path, seed: Option<u64>) -> Config {
    Config {
        db: dir.join("t.db"),
        boards: Config::offers(vec![Offer {
            key: "small".into(),
            json: SMALL.into(),
            file: "small.json".into(),
        }]),
        origins: Vec::new(),
        bot_delay: Duration::ZERO,
        seed,
        coach_limit: 10.0,
    }
}

async fn server(name: &str, seed: Option<u64>) -> Running {
    let dir = scratch(name);
    let (addr, server) = spawn(config(&dir, seed), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    Running { addr, server, dir }
}

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
    assert_eq!(page(&mut a, "bot:planner").await["games"], 0);
    assert_eq!(a.ask("getRatings", json!({})).await["players"], json!([]));

    let (g1, r1) = game_against(&mut a, "easy").await;
    let tied1 = check_game(&mut a, g1, &r1, &[prior, prior]).await;
    let after1 = [
        mu_sigma(&page(&mut a, "alice").await),
        mu_sigma(&page(&mut a, "bot:greedy").await),
    ];

    // The second game starts from the first's ratings.
    let (g2, r2) = game_against(&mut a, "easy").await;
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
    let mut c = Client::connect(addr, None).await;
    c.ask(
        "login",
        json!({ "username": "alice", "password": "correct horse battery" }),
    )
    .await;
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
    for level in ["easy", "hard"] {
        let added = a
            .ask("addAI", json!({ "gameId": g, "difficulty": level }))
            .await;
        assert_eq!(added["description"], "success", "{added}");
    }
    let started = a.ask("startGame", json!({ "gameId": g })).await;
    assert_eq!(started["description"], "game has started", "{started}");
    let results = play_out(&mut a, g).await;
    let rated = ["alice", "bot:greedy", "bot:planner"];
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
