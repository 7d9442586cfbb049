//! The load benchmark (`ttr-opt bench --play`): many games at once against
//! a real server process on 127.0.0.1, played by scripted WebSocket clients
//! and bots, for a bounded time and count of moves.
//!
//! Each game has two scripted players and one bot (easy, moving at once).
//! A scripted player claims the first route it may, else draws from the
//! deck, and keeps the fewest tickets allowed; when a game ends its two
//! players start another. The clock starts once every game has started.
//! Measured: moves a second (the players' and the bots'), the time from
//! sending a move to its answer (p50, p99, max), the server's memory, and
//! two checks: no answer other than success, and no move lost (the
//! database holds exactly the players' acknowledged moves).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// What the benchmark runs.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The `ttr-opt` binary to start the server from.
    pub binary: PathBuf,
    /// Games at once.
    pub games: usize,
    /// How long to play once every game has started.
    pub seconds: f64,
    /// A folder for the server's database (emptied first).
    pub dir: PathBuf,
    /// Each scripted player's pause before a move, and the bots' (the
    /// server's `--bot-delay`): 0 plays flat out.
    pub pause: Duration,
}

/// The benchmark's figures (one CSV row).
#[derive(Clone, Debug, Serialize)]
pub struct LoadReport {
    /// Games at once.
    pub games: usize,
    /// The pause before each move, ms.
    pub pause_ms: u64,
    /// WebSocket connections (two per game).
    pub connections: usize,
    /// Seconds measured.
    pub seconds: f64,
    /// Moves the scripted players made and had answered in that time.
    pub player_moves: usize,
    /// Moves of the players and the bots, from the database (with the bots'
    /// first ticket choices, made just before the clock starts).
    pub all_moves: usize,
    /// `all_moves / seconds`.
    pub moves_per_second: f64,
    /// Median time from a move sent to its answer, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Longest, ms.
    pub max_ms: f64,
    /// Games finished.
    pub games_finished: usize,
    /// Answers other than success, time-outs and lost connections.
    pub errors: usize,
    /// Acknowledged moves missing from the database (or moves it holds that
    /// no player made).
    pub lost: usize,
    /// The server's peak resident memory, MB.
    pub server_peak_mb: u64,
    /// Its resident memory at the end, MB.
    pub server_end_mb: u64,
    /// The server's CPU time over its whole run (setup included), s.
    pub server_cpu_seconds: f64,
    /// The server's CPU time from the clock's start to the end, per move
    /// made in that time (the setup's password hashing left out), ms.
    pub server_cpu_ms_per_move: f64,
    /// The benchmark's own (the clients') CPU time, s.
    pub clients_cpu_seconds: f64,
}

/// Everything the clients record.
#[derive(Default)]
struct Tally {
    latencies: Vec<f64>,
    errors: Vec<String>,
    /// Per game and seat: moves acknowledged.
    acked: HashMap<(i64, usize), usize>,
    finished: usize,
}

/// How long a client waits for an answer before it counts an error.
const PATIENCE: Duration = Duration::from_secs(30);

/// Runs the benchmark.
pub fn run(options: &LoadOptions, progress: &dyn Fn(&str)) -> Result<LoadReport, String> {
    let _ = std::fs::remove_dir_all(&options.dir);
    std::fs::create_dir_all(&options.dir).map_err(|e| format!("{}: {e}", options.dir.display()))?;
    let db = options.dir.join("load.db");
    let (mut child, addr) = start_server(&options.binary, &db, options.pause)?;
    let pid = child.id();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let tally = Arc::new(Mutex::new(Tally::default()));
    let stat = format!("/proc/{pid}/stat");
    let outcome = runtime.block_on(drive(addr, options, tally.clone(), progress, &|| Window {
        cpu: crate::analysis::bench::process_cpu_seconds(&stat).unwrap_or(0.0),
        moves: count_moves(&db),
    }));
    let memory = (peak_mb(pid, "VmHWM:"), peak_mb(pid, "VmRSS:"));
    let cpu = crate::analysis::bench::process_cpu_seconds(&stat);
    let _ = child.kill();
    let _ = child.wait();
    let (start, end, at_start) = outcome?;
    let tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
    let (all_moves, lost) = check_database(&db, &tally.acked)?;
    let window_moves = all_moves.saturating_sub(at_start.moves);
    let window_cpu = cpu.unwrap_or(0.0) - at_start.cpu;
    let mut latencies = tally.latencies;
    latencies.sort_by(f64::total_cmp);
    let seconds = (end - start) as f64;
    let q = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    for e in tally.errors.iter().take(5) {
        progress(&format!("error: {e}"));
    }
    Ok(LoadReport {
        games: options.games,
        pause_ms: options.pause.as_millis() as u64,
        connections: 2 * options.games,
        seconds,
        player_moves: latencies.len(),
        all_moves,
        moves_per_second: all_moves as f64 / seconds.max(1e-9),
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        max_ms: latencies.last().copied().unwrap_or(0.0),
        games_finished: tally.finished,
        errors: tally.errors.len(),
        lost,
        server_peak_mb: memory.0.unwrap_or(0),
        server_end_mb: memory.1.unwrap_or(0),
        server_cpu_seconds: cpu.unwrap_or(0.0),
        server_cpu_ms_per_move: 1000.0 * window_cpu / window_moves.max(1) as f64,
        clients_cpu_seconds: crate::analysis::bench::cpu_seconds().unwrap_or(0.0),
    })
}

fn start_server(
    binary: &Path,
    db: &Path,
    pause: Duration,
) -> Result<(std::process::Child, SocketAddr), String> {
    use std::io::BufRead;
    let mut child = std::process::Command::new(binary)
        .args(["play", "--port", "0", "--bot-delay"])
        .arg(pause.as_millis().to_string())
        .arg("--db")
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let mut line = String::new();
    let stdout = child.stdout.take().ok_or("no standard output")?;
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|a| a.split('/').next())
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("the server said {line:?}"))?;
    Ok((child, addr))
}

/// A process's memory line of `/proc/<pid>/status`, in MB.
fn peak_mb(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// The server's CPU time (s) and the moves stored, when the clock starts.
struct Window {
    cpu: f64,
    moves: usize,
}

/// The moves the database holds (0 if it cannot be read).
fn count_moves(db: &Path) -> usize {
    rusqlite::Connection::open(db)
        .and_then(|c| c.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get::<_, i64>(0)))
        .map_or(0, |n| n as usize)
}

/// Every game's two clients, set up, then played until the deadline.
/// Returns the measured window (Unix seconds, start and end) and `sample`
/// taken as the clock starts.
async fn drive(
    addr: SocketAddr,
    options: &LoadOptions,
    tally: Arc<Mutex<Tally>>,
    progress: &dyn Fn(&str),
    sample: &dyn Fn() -> Window,
) -> Result<(i64, i64, Window), String> {
    let games = options.games;
    let ready = Arc::new(tokio::sync::Barrier::new(games + 1));
    // The clock, set once every game has started, and told to all.
    let (clock, window) = tokio::sync::watch::channel(None::<Instant>);
    let seconds = options.seconds;
    let pause = options.pause;
    // Registering hashes a password: a few at a time.
    let gate = Arc::new(tokio::sync::Semaphore::new(8));
    let mut tasks = Vec::new();
    for g in 0..games {
        let (ready, mut window, tally, gate) =
            (ready.clone(), window.clone(), tally.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let pair = async {
                let permit = gate.acquire().await.map_err(|e| e.to_string())?;
                let a = Player::register(addr, &format!("loadA{g}")).await?;
                let b = Player::register(addr, &format!("loadB{g}")).await?;
                drop(permit);
                Ok::<_, String>((a, b))
            }
            .await;
            let (mut a, mut b) = match pair {
                Ok(p) => p,
                Err(e) => {
                    tally
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .errors
                        .push(e);
                    ready.wait().await;
                    return;
                }
            };
            let mut first = true;
            loop {
                let game = match new_game(&mut a, &mut b).await {
                    Ok(g) => g,
                    Err(e) => {
                        tally
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .errors
                            .push(e);
                        if first {
                            ready.wait().await;
                        }
                        return;
                    }
                };
                if first {
                    ready.wait().await;
                    first = false;
                }
                let Ok(start) = window.wait_for(Option::is_some).await.map(|t| *t) else {
                    return;
                };
                let Some(deadline) = start.map(|t| t + Duration::from_secs_f64(seconds)) else {
                    return;
                };
                let (ra, rb) = tokio::join!(
                    a.play(game, 0, deadline, pause, &tally),
                    b.play(game, 1, deadline, pause, &tally)
                );
                let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                match (ra, rb) {
                    (Ok(true), Ok(true)) => t.finished += 1,
                    (Ok(_), Ok(_)) => return,
                    (Err(e), _) | (_, Err(e)) => {
                        t.errors.push(format!("game {game}: {e}"));
                        return;
                    }
                }
            }
        }));
    }
    progress(&format!(
        "setting up {games} games (two players and a bot each) ..."
    ));
    ready.wait().await;
    let at_start = sample();
    let start_unix = crate::play::hub::now();
    let _ = clock.send(Some(Instant::now()));
    progress(&format!(
        "all {games} games started; playing for {seconds} s ..."
    ));
    for t in tasks {
        let _ = t.await;
    }
    let end_unix = crate::play::hub::now();
    Ok((start_unix, end_unix.max(start_unix + 1), at_start))
}

/// One scripted player's connection.
struct Player {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    next: u64,
    /// The model of the game played, kept by the changes pushed.
    model: Option<Value>,
    /// Whether the model shows the player's last move (changes pushed
    /// before its answer were made before it).
    fresh: bool,
}

impl Player {
    async fn register(addr: SocketAddr, name: &str) -> Result<Player, String> {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .map_err(|e| format!("cannot connect: {e}"))?;
        let mut p = Player {
            ws,
            next: 1,
            model: None,
            fresh: false,
        };
        let out = p
            .ask(
                "register",
                json!({ "username": name, "password": "load test password" }),
            )
            .await?
            .0;
        if out["description"] != "success" {
            return Err(format!("register {name}: {out}"));
        }
        Ok(p)
    }

    /// The next message, keeping the model: the whole one answered, then
    /// the changes pushed (a change that does not follow it drops it).
    async fn recv(&mut self) -> Result<Value, String> {
        loop {
            let m = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .map_err(|_| "no message for 30 s".to_string())?;
            match m {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                    if v["command"] == "sendClientModelInformation" {
                        self.model = Some(v["output"].clone());
                        self.fresh = true;
                    } else if v["command"] == "modelChanged"
                        && self
                            .model
                            .as_ref()
                            .is_some_and(|m| m["gameId"] == v["output"]["gameId"])
                    {
                        let applied = self
                            .model
                            .as_mut()
                            .is_some_and(|m| crate::play::changes::apply(m, &v["output"]));
                        if applied {
                            self.fresh = true;
                        } else {
                            self.model = None;
                        }
                    }
                    return Ok(v);
                }
                Some(Ok(_)) => continue,
                _ => return Err("the connection closed".into()),
            }
        }
    }

    /// Sends a command; its answer's output and the time it took, ms.
    async fn ask(&mut self, command: &str, parameters: Value) -> Result<(Value, f64), String> {
        let id = self.next;
        self.next += 1;
        let text = json!({ "command": command, "parameters": parameters, "id": id }).to_string();
        let sent = Instant::now();
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| e.to_string())?;
        loop {
            let m = self.recv().await?;
            if m["id"] == json!(id) {
                // Changes that came before the answer were made before the
                // move: the next one is the first to show it.
                if command != "sendClientModelInformation" {
                    self.fresh = false;
                }
                return Ok((m["output"].clone(), sent.elapsed().as_secs_f64() * 1000.0));
            }
        }
    }

    /// Plays `game` from seat `seat` until it ends (`true`) or the deadline
    /// passes (`false`).
    async fn play(
        &mut self,
        game: i64,
        seat: usize,
        deadline: Instant,
        pause: Duration,
        tally: &Mutex<Tally>,
    ) -> Result<bool, String> {
        let mut moves = 0u64;
        loop {
            if self
                .model
                .as_ref()
                .is_none_or(|m| m["gameId"] != json!(game))
            {
                // A new game (or a change missed): the whole model first.
                let (out, _) = self
                    .ask("sendClientModelInformation", json!({ "gameId": game }))
                    .await?;
                if out["description"] != "success" {
                    return Err(format!("sendClientModelInformation: {out}"));
                }
            }
            let Some(m) = self
                .model
                .clone()
                .filter(|m| self.fresh && m["state"] != "open")
            else {
                // Waiting for news; past the deadline, only briefly.
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(false);
                }
                match tokio::time::timeout(left, self.recv()).await {
                    Ok(received) => received?,
                    Err(_) => return Ok(false),
                };
                continue;
            };
            if !m["results"].is_null() {
                return Ok(true);
            }
            if Instant::now() >= deadline {
                return Ok(false);
            }
            let Some((command, parameters)) = choose(&m, game, seat) else {
                self.fresh = false;
                continue;
            };
            if !pause.is_zero() {
                // Half to one and a half pauses, varied without randomness.
                moves += 1;
                let spread =
                    (game as u64 * 7919 + seat as u64 * 104_729 + moves * 15_485_863) % 1000;
                tokio::time::sleep(pause.mul_f64(0.5 + spread as f64 / 1000.0)).await;
            }
            let (out, ms) = self.ask(command, parameters).await?;
            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
            if out["description"] == "success" {
                t.latencies.push(ms);
                *t.acked.entry((game, seat)).or_default() += 1;
            } else {
                t.errors.push(format!("{command}: {out}"));
                return Err(format!("{command} refused: {out}"));
            }
        }
    }
}

/// A scripted player's move from its model, if it has one to make now.
fn choose(m: &Value, game: i64, seat: usize) -> Option<(&'static str, Value)> {
    if let Some(min) = m["offer"]["min"].as_u64() {
        let keep: Vec<u64> = (0..min).collect();
        return Some((
            "selectDestinations",
            json!({ "gameId": game, "destinationsSelected": keep }),
        ));
    }
    let turn = &m["turn"];
    if turn["playerId"].as_u64() != Some(seat as u64) {
        return None;
    }
    if m["canPass"] == true {
        return Some(("passTurn", json!({ "gameId": game })));
    }
    if turn["phase"] == "turn" {
        if let Some(claim) = m["claimable"].get(0) {
            let pay = &claim["payments"][0];
            return Some((
                "buyRoute",
                json!({ "gameId": game, "routeIndex": claim["routeIndex"], "trainColor": pay["color"], "numberOfWilds": pay["minWilds"] }),
            ));
        }
    }
    if m["deckCount"].as_u64().unwrap_or(0) > 0 {
        return Some((
            "drawTrainCard",
            json!({ "gameId": game, "cardLocation": 5 }),
        ));
    }
    let wild_ok = m["canDrawWild"] == true;
    let face_up = m["faceUp"].as_array()?;
    match face_up.iter().position(|c| c != "wild" || wild_ok) {
        Some(i) => Some((
            "drawTrainCard",
            json!({ "gameId": game, "cardLocation": i }),
        )),
        None => Some(("getDestinations", json!({ "gameId": game }))),
    }
}

/// A new game of `a` (creator), `b` and an easy bot, started.
async fn new_game(a: &mut Player, b: &mut Player) -> Result<i64, String> {
    let (out, _) = a
        .ask("createGame", json!({ "gameName": "load", "color": "red" }))
        .await?;
    let game = out["gameId"]
        .as_i64()
        .ok_or_else(|| format!("createGame: {out}"))?;
    for (p, command, parameters) in [
        (
            &mut *b,
            "joinGame",
            json!({ "gameId": game, "color": "blue" }),
        ),
        (
            &mut *a,
            "addAI",
            json!({ "gameId": game, "difficulty": "medium" }),
        ),
    ] {
        let (out, _) = p.ask(command, parameters).await?;
        if out["description"] != "success" {
            return Err(format!("{command}: {out}"));
        }
    }
    let (out, _) = a.ask("startGame", json!({ "gameId": game })).await?;
    if out["description"] != "game has started" {
        return Err(format!("startGame: {out}"));
    }
    Ok(game)
}

/// The moves the database holds (every one: the bots' first ticket choice,
/// made before the clock starts, too), and the acknowledged moves it lacks
/// or has too many of.
fn check_database(
    db: &Path,
    acked: &HashMap<(i64, usize), usize>,
) -> Result<(usize, usize), String> {
    let c = rusqlite::Connection::open(db).map_err(|e| format!("{}: {e}", db.display()))?;
    let mut stmt = c
        .prepare("SELECT game_id, seat, COUNT(*) FROM moves GROUP BY game_id, seat")
        .map_err(|e| e.to_string())?;
    let rows: Vec<(i64, usize, usize)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get::<_, i64>(1)? as usize,
                r.get::<_, i64>(2)? as usize,
            ))
        })
        .map_err(|e| e.to_string())?
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let stored: HashMap<(i64, usize), usize> = rows.iter().map(|&(g, s, n)| ((g, s), n)).collect();
    let all: usize = rows.iter().map(|r| r.2).sum();
    // Only games the clients played are compared (seats 0 and 1 are theirs).
    let mut lost = 0;
    for (&(g, s), &n) in acked {
        lost += n.abs_diff(stored.get(&(g, s)).copied().unwrap_or(0));
    }
    for (&(g, s), &n) in &stored {
        if s < 2 && !acked.contains_key(&(g, s)) {
            lost += n;
        }
    }
    Ok((all, lost))
}

/// The runs as the benchmark's Markdown: a row each.
pub fn markdown(runs: &[LoadReport], machine: &str, command: &str) -> String {
    let games = runs.first().map_or(0, |r| r.games);
    let mut md = format!(
        "The online game under load (`{command}`), {machine}: {games} games at once on the USA \
         board, each of two scripted WebSocket players and one easy bot, against a `ttr-opt play` \
         process on 127.0.0.1 (the clients run in the benchmark's own process, on the same 2 \
         cores). Every move is committed to SQLite (WAL, synchronous=FULL) before it is answered. \
         Pause: each player's and each bot's wait before a move, from half to one and a half of \
         it (0: flat out, every move sent as soon as the last is answered). Latency: from a move \
         sent to its answer. CPU s: over the whole run, the setup's password hashing included; \
         CPU per move: the server's CPU time from the clock's start to the end over the moves made \
         in that time.\n\n\
         | pause ms | games | connections | seconds | moves | moves/s | player moves | p50 ms | p99 ms | max ms | games finished | errors | moves lost | server peak MB | server end MB | server CPU s | server CPU ms/move | clients CPU s |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    );
    for r in runs {
        md += &format!(
            "| {} | {} | {} | {:.0} | {} | {:.0} | {} | {:.1} | {:.1} | {:.1} | {} | {} | {} | {} | {} | {:.1} | {:.3} | {:.1} |\n",
            r.pause_ms,
            r.games,
            r.connections,
            r.seconds,
            r.all_moves,
            r.moves_per_second,
            r.player_moves,
            r.p50_ms,
            r.p99_ms,
            r.max_ms,
            r.games_finished,
            r.errors,
            r.lost,
            r.server_peak_mb,
            r.server_end_mb,
            r.server_cpu_seconds,
            r.server_cpu_ms_per_move,
            r.clients_cpu_seconds,
        );
    }
    md
}
