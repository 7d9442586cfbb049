//! The online game's test harness, shared by `tests/suite/play.rs` and
//! `tests/suite/play_ratings.rs` (each includes it with `#[path]`): a server on
//! a fresh database with the small board, and a WebSocket client that
//! keeps every message it receives.
#![allow(dead_code)] // each suite uses its own part of it

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use ttr_opt::play::hub::Offer;
use ttr_opt::play::{spawn, Config, Server};

/// How long to wait for something that should happen: a watchdog, not a
/// timing.
pub const PATIENCE: Duration = Duration::from_secs(120);

pub static DIRS: AtomicU64 = AtomicU64::new(0);

/// A fresh folder for a server's database.
pub fn scratch(name: &str) -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("ttr-play-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small board: 5 cars a player, a route of 6 no one can afford, a
/// double route, and enough tickets for five players.
pub const SMALL: &str = r#"{
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

pub struct Running {
    pub addr: SocketAddr,
    pub server: Arc<Server>,
    pub dir: PathBuf,
}

/// The test server's configuration: the small board, bots without delay.
pub fn config(dir: &std::path::Path, seed: Option<u64>) -> Config {
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
        min_turn_secs: 1,
        shelve_after: ttr_opt::play::shelf::SHELVE_AFTER,
        finished_in_memory: ttr_opt::play::shelf::MAX_FINISHED_AWAKE,
    }
}

/// A server on a free port with a fresh database.
pub async fn server(name: &str, seed: Option<u64>) -> Running {
    let dir = scratch(name);
    let (addr, server) = spawn(config(&dir, seed), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    Running { addr, server, dir }
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A protocol client that keeps every message it receives.
pub struct Client {
    pub ws: Socket,
    pub next: u64,
    pub log: Vec<Value>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, cookie: Option<&str>) -> Client {
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
    pub async fn recv(&mut self) -> Option<Value> {
        // One deadline for the whole wait: the server's pings (skipped
        // below) would otherwise restart it for ever.
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let m = tokio::time::timeout_at(deadline, self.ws.next())
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

    pub async fn send_raw(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a command and returns the output of its answer.
    pub async fn ask(&mut self, command: &str, parameters: Value) -> Value {
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
    pub async fn wait(&mut self, command: &str) -> Value {
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

    /// Keeps the tickets game `g` offers this client: all of them, or
    /// the fewest allowed. The answer's output.
    pub async fn keep_offered(&mut self, g: i64, all: bool) -> Value {
        let m = self.model(g).await;
        let offer = &m["offer"];
        let count = if all {
            offer["destinations"].as_array().map_or(0, Vec::len)
        } else {
            offer["min"].as_u64().unwrap_or(0) as usize
        };
        let keep: Vec<usize> = (0..count).collect();
        self.ask(
            "selectDestinations",
            json!({ "gameId": g, "destinationsSelected": keep }),
        )
        .await
    }

    /// The last output of `command` received.
    pub fn last(&self, command: &str) -> Option<&Value> {
        self.log
            .iter()
            .rev()
            .find(|m| m["command"] == command)
            .map(|m| &m["output"])
    }

    /// A new connection logged in as `name` (registered with the
    /// harness's password), as after a server's restart.
    pub async fn login(addr: SocketAddr, name: &str) -> Client {
        let mut c = Client::connect(addr, None).await;
        let out = c
            .ask(
                "login",
                json!({ "username": name, "password": "correct horse battery" }),
            )
            .await;
        assert_eq!(out["description"], "success", "{out}");
        c
    }

    pub async fn register(addr: SocketAddr, name: &str) -> Client {
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

    /// [`Client::ask`], asked again after a pause while the answer is
    /// "too many messages": a client that plays as fast as the server
    /// answers (pushes are small now) meets the rate limit.
    pub async fn ask_paced(&mut self, command: &str, parameters: Value) -> Value {
        loop {
            let out = self.ask(command, parameters.clone()).await;
            if out["description"] != "too many messages" {
                return out;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The latest model of `game` (asked for, so it is current).
    pub async fn model(&mut self, game: i64) -> Value {
        let m = self
            .ask_paced("sendClientModelInformation", json!({ "gameId": game }))
            .await;
        assert_eq!(m["description"], "success", "{m}");
        m
    }
}

/// Plays alice's turns simply (her first tickets, then the first claim
/// offered, else cards from the deck) until the game ends; returns the
/// end's results.
pub async fn play_out(c: &mut Client, g: i64) -> Value {
    loop {
        let m = c.model(g).await;
        if !m["results"].is_null() {
            return m["results"].clone();
        }
        let me = m["you"].as_u64().unwrap();
        if !m["offer"].is_null() {
            let keep: Vec<usize> = (0..m["offer"]["min"].as_u64().unwrap() as usize).collect();
            let out = c
                .ask_paced(
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
            c.wait("modelChanged").await;
            continue;
        }
        let out = if m["canPass"] == true {
            c.ask_paced("passTurn", json!({ "gameId": g })).await
        } else if let (Some(claim), "turn") =
            (m["claimable"].get(0), turn["phase"].as_str().unwrap())
        {
            let pay = &claim["payments"][0];
            c.ask_paced("buyRoute", json!({ "gameId": g, "routeIndex": claim["routeIndex"], "trainColor": pay["color"], "numberOfWilds": pay["minWilds"] })).await
        } else if m["deckCount"].as_u64().unwrap() > 0 {
            c.ask_paced("drawTrainCard", json!({ "gameId": g, "cardLocation": 5 }))
                .await
        } else {
            let i = m["faceUp"]
                .as_array()
                .unwrap()
                .iter()
                .position(|x| x != "wild" || m["canDrawWild"] == true);
            match i {
                Some(i) => {
                    c.ask_paced("drawTrainCard", json!({ "gameId": g, "cardLocation": i }))
                        .await
                }
                None => c.ask_paced("getDestinations", json!({ "gameId": g })).await,
            }
        };
        assert_eq!(out["description"], "success", "{out} in {m}");
    }
}
