//! Hostile input: every example of the hostile-input report as a
//! regression test, and a seeded fuzz harness over boards, game states,
//! scenarios and argument values (`fuzz_hostile_inputs`).
//!
//! The harness runs the binary once per case, in a fresh working folder, and
//! asserts what a user is promised whatever the input: exit status 0, 1, 2
//! or 3 only; never a panic or an internal type name; a value outside its
//! documented range never accepted; no file written outside `output/` of the
//! working folder; every run inside its time limit (with a wide margin: a
//! watchdog, not a speed test). `TTR_FUZZ_CASES` sets the number of cases
//! (default 1,000, the CI run: about ten seconds), `TTR_FUZZ_SEED` the first seed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_ttr-opt");

/// Seconds every fuzzed command is given, and the watchdog's margin above
/// it (generous: CI machines are shared).
const LIMIT: u64 = 5;
const MARGIN: u64 = 25;

/// A small valid board: a double route, a pair of unequal tracks, a ticket
/// with two trips, routes scored by the rule card and by their own `points`
/// (so that a length off the card is not refused for that reason alone).
fn small_board() -> Value {
    json!({
        "name": "Small",
        "cars": 8,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": [
            { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
            { "name": "C", "x": 2, "y": 0 }, { "name": "D", "x": 1, "y": 1 },
            { "name": "E", "x": 3, "y": 1 }
        ],
        "routes": [
            { "from": "A", "to": "B", "length": 1, "tracks": ["red", "blue"] },
            { "from": "B", "to": "C", "length": 2, "tracks": ["gray"], "points": 2 },
            { "from": "B", "to": "D", "length": 1, "tracks": ["green"] },
            { "from": "C", "to": "E", "length": 3, "tracks": ["yellow"], "points": 4 },
            { "from": "D", "to": "E", "length": 4, "tracks": ["black"], "points": 5 },
            { "from": "C", "to": "D", "tracks": [ { "colour": "white", "length": 1 },
                                                  { "colour": "pink", "length": 3, "points": 6 } ] }
        ],
        "tickets": [
            { "from": "A", "to": "C", "points": 4 },
            { "from": "A", "to": "E", "points": 9 },
            { "name": "D - {A, C}", "trips": [ { "from": "D", "to": "A", "points": 2 },
                                                { "from": "D", "to": "C", "points": 5 } ] }
        ]
    })
}

fn small_state() -> Value {
    json!({
        "board": "board.json",
        "players": 2,
        "cars_left": 5,
        "owned": [ { "from": "A", "to": "B", "track": "red" } ],
        "taken": [ { "from": "B", "to": "D" } ],
        "tickets": [ { "from": "A", "to": "E" } ],
        "may_draw": false
    })
}

fn small_plan() -> Value {
    json!({
        "board": "board.json",
        "cars": 6,
        "routes": [
            { "from": "A", "to": "B" },
            { "from": "B", "to": "C" },
            { "from": "D", "to": "C", "length": 3, "track": "pink" }
        ]
    })
}

fn small_scenario() -> Value {
    json!({
        "name": "cheaper east",
        "cars": 7,
        "changes": [
            { "set_ticket": { "from": "A", "to": "E", "points": 12 } },
            { "set_route": { "from": "C", "to": "E", "length": 2 } },
            { "remove_route": { "from": "B", "to": "D" } },
            { "add_ticket": { "from": "B", "to": "E", "points": 6 } }
        ]
    })
}

/// A fresh working folder `<tmp>/<tag>/work` (its parent shows any file
/// written through `..`), removed with its parent when dropped.
struct Work(PathBuf);

impl std::ops::Deref for Work {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

fn workdir(tag: &str) -> Work {
    let base = std::env::temp_dir()
        .join(format!("ttr-opt-hostile-{}", std::process::id()))
        .join(tag);
    let _ = std::fs::remove_dir_all(&base);
    let work = base.join("work");
    std::fs::create_dir_all(&work).unwrap();
    Work(work)
}

/// Runs the binary in `dir`, killing it past `limit` seconds; `None` if the
/// watchdog had to.
fn run_in(dir: &Path, args: &[String], limit: u64) -> (Option<Output>, f64) {
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Read the pipes on threads, so that a large output cannot block it.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let output = Output {
                status,
                stdout: out.join().unwrap(),
                stderr: err.join().unwrap(),
            };
            return (Some(output), started.elapsed().as_secs_f64());
        }
        if started.elapsed() > Duration::from_secs(limit) {
            let _ = child.kill();
            let _ = child.wait();
            return (None, started.elapsed().as_secs_f64());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `args` on `board` (written as `board.json` in a fresh folder).
fn on_board(tag: &str, board: &str, list: &[&str]) -> (Output, Work) {
    let dir = workdir(tag);
    write(&dir, "board.json", board);
    let mut a = args(list);
    a.extend(args(&["--board", "board.json"]));
    let (out, _) = run_in(&dir, &a, 120);
    (out.expect("finishes"), dir)
}

// ---------------------------------------------------------------------------
// The report's examples, one by one.

#[test]
fn huge_ticket_values_are_refused_not_cut() {
    let line = |tickets: Value| {
        json!({
            "name": "Line", "cars": 2, "route_points": { "1": 1 },
            "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
                        { "name": "C", "x": 2, "y": 0 } ],
            "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["red"] },
                        { "from": "B", "to": "C", "length": 1, "tracks": ["red"] } ],
            "tickets": tickets
        })
        .to_string()
    };
    let (out, _) = on_board(
        "ticket-2-32",
        &line(json!([{ "from": "A", "to": "C", "points": 4294967296_u64 }])),
        &["solve", "--cars", "2"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "board.json: 1 problem(s) found:\n  - tickets[0].points: expected a whole number from 1 to 1000, got 4294967296"
        ),
        "{err}"
    );
    let (out, _) = on_board(
        "ticket-2-31",
        &line(json!([{ "from": "A", "to": "C", "points": 2147483648_u64 },
                     { "from": "A", "to": "B", "points": 2147483648_u64 }])),
        &["solve", "--cars", "2"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("2 problem(s)"), "{}", stderr(&out));
    let mut board: Value = serde_json::from_str(&line(json!([]))).unwrap();
    board["cars"] = json!(1e12);
    let (out, _) = on_board("cars-1e12", &board.to_string(), &["optima"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cars: expected a whole number from 1 to 10000, got 1000000000000"),
        "{}",
        stderr(&out)
    );
    // At the top of the range the sums stay exact: 1000 + 1000 + 2 routes.
    let (out, _) = on_board(
        "ticket-max",
        &line(json!([{ "from": "A", "to": "C", "points": 1000 },
                     { "from": "A", "to": "B", "points": 1000 }])),
        &["solve", "--cars", "2", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"], 2002);
}

#[test]
fn numbers_beyond_their_range_name_the_entry() {
    let mut board = small_board();
    board["cars"] = json!(4294967298_u64);
    board["routes"][1]["length"] = json!(4294967296_u64);
    board["routes"][2]["points"] = json!(1e12);
    board["route_points"]["4"] = json!(4294967296_u64);
    board["route_points"]["01"] = json!(1);
    board["cities"][3]["x"] = json!("1");
    board["tickets"][0]["points"] = json!(1099511627776_u64);
    let (out, _) = on_board("ranges", &board.to_string(), &["solve"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for expected in [
        "cars: expected a whole number from 1 to 10000, got 4294967298",
        "route_points[\"01\"]: the key must be a length",
        "route_points[\"4\"]: expected a whole number from 0 to 1000, got 4294967296",
        "cities[3].x: expected a number",
        "routes[1].length: expected a whole number from 1 to 100, got 4294967296",
        "routes[2].points: expected a whole number from 0 to 1000, got 1000000000000",
        "tickets[0].points: expected a whole number from 1 to 1000, got 1099511627776",
        "7 problem(s)",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
    // The file's words, not Rust's.
    for internal in ["Raw", "i64", "u32", "invalid type"] {
        assert!(!err.contains(internal), "{internal}\n{err}");
    }
}

#[test]
fn structure_errors_are_all_listed_and_a_bom_is_fine() {
    let (out, _) = on_board("array", "[1, 2]", &["solve"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("expected an object"),
        "{}",
        stderr(&out)
    );

    let mut board = small_board();
    board["routes"][0]["lenght"] = json!(3);
    board["tickets"][1]
        .as_object_mut()
        .unwrap()
        .remove("points");
    board["routes"][3]["tracks"] = json!(["bleu"]);
    let (out, _) = on_board("structure", &board.to_string(), &["solve"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("3 problem(s)"), "{err}");
    assert!(err.contains("routes[0]: unknown field \"lenght\""), "{err}");
    assert!(
        err.contains("routes[3].tracks[0]: unknown colour \"bleu\""),
        "{err}"
    );
    assert!(
        err.contains("tickets[1]: missing field \"points\""),
        "{err}"
    );

    let (out, _) = on_board(
        "bom",
        &format!("\u{feff}{}", small_board()),
        &["solve", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let (out, _) = on_board("syntax", "{\n  \"name\": \"x\",\n}", &["solve"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("board.json: invalid JSON at line 3, column 1"),
        "{err}"
    );
    assert_eq!(err.matches("line").count(), 1, "{err}");
}

#[test]
fn budgets_beyond_the_board_are_answered_at_once_or_refused() {
    // More cars than every pair's longest track: a track of every pair
    // (the one worth most), proven, no search.
    let (out, _) = on_board(
        "all-routes",
        &small_board().to_string(),
        &["solve", "--cars", "10000", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["method"], "forest");
    // C–D takes its 3-car track (6 points, not the 1-car one's 1).
    assert_eq!(v["cars_used"], 14);
    // Routes 1+2+1+4+5+6 points (route D–E overrides its 7), tickets 4+9+5.
    assert_eq!(v["score"], 37);
    for bad in [
        vec!["solve", "--cars", "4294967295"],
        vec!["sweep", "--from", "4294967294", "--to", "4294967295"],
        vec!["optima", "--cars", "4294967295"],
        vec!["balance", "--cars", "0"],
        vec!["sweep", "--from", "10", "--to", "5"],
        vec!["simulate", "--games", "0"],
        vec!["simulate", "--players", "bogus,greedy"],
        vec!["sweep", "--threads", "0"],
        vec!["balance", "--threads", "100000"],
        vec!["solve", "--time-limit", "1e400"],
    ] {
        let (out, _) = run_in(&workdir("args"), &args(&bad), 60);
        let out = out.expect("finishes");
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
}

#[test]
fn a_closed_pipe_or_a_full_disk_ends_cleanly() {
    // `| head -c 10`: the reader leaves early.
    let mut child = Command::new(BIN)
        .args(["solve", "--cars", "20", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(BIN)
            .args(["solve", "--cars", "5"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.contains("cannot write to standard output"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_board_name_never_chooses_a_folder_outside_output() {
    for name in ["../../escaped", "/tmp/absolute-escape", "..", "a/../../b"] {
        let mut board = small_board();
        board["name"] = json!(name);
        let (out, dir) = on_board(
            "names",
            &board.to_string(),
            &["sweep", "--from", "1", "--to", "3"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_only_inside_output(&dir, &["board.json"]);
        assert!(!Path::new("/tmp/absolute-escape").exists());
    }
}

#[test]
fn messages_say_each_thing_once() {
    let dir = workdir("once");
    let (out, _) = run_in(&dir, &args(&["solve", "--board", "missing.json"]), 60);
    let err = stderr(&out.unwrap());
    assert_eq!(err.matches("No such file").count(), 1, "{err}");

    // A state whose board is bad: the board's problems, once.
    let mut board = small_board();
    board["routes"][0]["length"] = json!(0);
    write(&dir, "board.json", &board.to_string());
    write(&dir, "state.json", &small_state().to_string());
    let (out, _) = run_in(&dir, &args(&["replan", "state.json"]), 60);
    let out = out.unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err.matches("routes[0].length").count(), 1, "{err}");

    // A scenario with a blank name and a huge value.
    let mut scenario = small_scenario();
    scenario["name"] = json!("  ");
    scenario["changes"][0]["set_ticket"]["points"] = json!(4294967295_u64);
    write(&dir, "board.json", &small_board().to_string());
    write(&dir, "scenario.json", &scenario.to_string());
    let (out, _) = run_in(
        &dir,
        &args(&["compare", "scenario.json", "--board", "board.json"]),
        60,
    );
    let out = out.unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("name: must not be empty"), "{err}");
    assert!(
        err.contains("changes[0].set_ticket.points: expected a whole number from 1 to 1000"),
        "{err}"
    );

    // An output folder that cannot be made: a plain message.
    let (out, _) = run_in(
        &dir,
        &args(&["balance", "--board", "board.json", "--out", "/dev/null/x"]),
        60,
    );
    let out = out.unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.starts_with("error: cannot create /dev/null/x"), "{err}");
    assert!(!err.contains("Os {"), "{err}");
}

/// The hostile boards of the report: a line of 300 cities with 295
/// tickets, and a complete graph of 40 cities.
fn line_and_complete() -> (String, String) {
    let cities = |n: usize, p: &str| -> Vec<Value> {
        (0..n)
            .map(|i| json!({ "name": format!("{p}{i}"), "x": i, "y": (i * i) % 17 }))
            .collect()
    };
    let card = json!({ "1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15 });
    let line = json!({
        "name": "Line", "cars": 45, "route_points": card,
        "cities": cities(300, "L"),
        "routes": (0..299).map(|i| json!({ "from": format!("L{i}"), "to": format!("L{}", i + 1),
                                           "length": 1, "tracks": ["red"] })).collect::<Vec<_>>(),
        "tickets": (0..295).map(|i| json!({ "from": format!("L{i}"), "to": format!("L{}", i + 5),
                                            "points": 5 })).collect::<Vec<_>>()
    });
    let mut routes = Vec::new();
    for i in 0..40 {
        for j in i + 1..40 {
            routes.push(json!({ "from": format!("K{i}"), "to": format!("K{j}"),
                                "length": 1 + (i * j) % 6, "tracks": ["red"] }));
        }
    }
    let complete = json!({
        "name": "Complete", "cars": 45, "route_points": card,
        "cities": cities(40, "K"), "routes": routes,
        "tickets": (0..60).map(|i| json!({ "from": format!("K{}", i % 40), "to": format!("K{}", (i * 7 + 3) % 40),
                                           "points": 4 + i % 19 })).collect::<Vec<_>>()
    });
    (line.to_string(), complete.to_string())
}

#[test]
fn the_report_boards_stop_in_time_or_name_the_limit() {
    let (line, complete) = line_and_complete();
    let mut ones: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/usa.json")).unwrap(),
    )
    .unwrap();
    for r in ones["routes"].as_array_mut().unwrap() {
        r["length"] = json!(1);
    }
    let ones = ones.to_string();
    for (board, command) in [
        (&line, vec!["sweep", "--from", "1", "--to", "45"]),
        (&line, vec!["breakeven"]),
        (&line, vec!["balance"]),
        (&complete, vec!["optima"]),
        (&complete, vec!["simulate", "--games", "1000"]),
        (&ones, vec!["simulate", "--games", "1000"]),
    ] {
        let dir = workdir("report-boards");
        write(&dir, "board.json", board);
        let mut a = args(&command);
        a.extend(args(&["--board", "board.json", "--time-limit", "1"]));
        let (out, seconds) = run_in(&dir, &a, 1 + MARGIN);
        let out = out.unwrap_or_else(|| panic!("{command:?} ran past {seconds:.1} s"));
        // Stopped by the limit (3), or finished (0), or a named limit (1).
        let err = stderr(&out);
        assert!(
            matches!(out.status.code(), Some(0 | 1 | 3)),
            "{command:?}: {err}"
        );
        if out.status.code() == Some(1) {
            assert!(
                err.contains("needs") || err.contains("memory"),
                "{command:?}: {err}"
            );
        }
        assert!(!err.contains("panicked"), "{command:?}: {err}");
    }
    // The frontier programme's sizes are a limit, named as such.
    let dir = workdir("report-boards");
    write(&dir, "board.json", &line);
    let (out, _) = run_in(
        &dir,
        &args(&["solve", "--board", "board.json", "--method", "frontier"]),
        60,
    );
    let out = out.unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("fewer than 255 cities"), "{err}");
    assert!(!err.contains("verification failed"), "{err}");
}

#[test]
fn no_route_fits_is_answered_by_a_named_method() {
    // Every route longer than the budget: nothing to search, and the JSON
    // names a method of the schema, not "auto".
    let mut board = small_board();
    for r in board["routes"].as_array_mut().unwrap() {
        match r["tracks"][0].is_object() {
            true => {
                for t in r["tracks"].as_array_mut().unwrap() {
                    t["length"] = json!(3);
                    t["points"] = json!(4);
                }
            }
            false => {
                r["length"] = json!(3);
                r["points"] = json!(4);
            }
        }
    }
    let (out, _) = on_board(
        "nothing-fits",
        &board.to_string(),
        &["solve", "--cars", "2", "--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["score"], 0);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["method"], "forest");
}

#[test]
fn every_solving_command_honours_the_time_limit() {
    // Europe: nothing here finishes in a second, so each must stop.
    let europe = concat!(env!("CARGO_MANIFEST_DIR"), "/data/europe.json");
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/scenarios/usa-1910-revisions.json"
    );
    for command in [
        vec!["solve", "--board", europe],
        vec!["sweep", "--board", europe, "--from", "30", "--to", "45"],
        vec!["sensitivity", "--board", europe],
        vec!["breakeven", "--board", europe],
        vec!["balance", "--board", europe],
        vec!["compare", scenario],
        vec!["simulate", "--games", "100000"],
    ] {
        let dir = workdir("limits");
        let mut a = args(&command);
        a.extend(args(&["--time-limit", "1"]));
        let (out, seconds) = run_in(&dir, &a, 1 + MARGIN);
        let out = out.unwrap_or_else(|| panic!("{command:?} ran past {seconds:.1} s"));
        assert_eq!(out.status.code(), Some(3), "{command:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
        assert_only_inside_output(&dir, &[]);
    }
}

/// Every file in `dir` (a case's working folder) is an input named in
/// `inputs` or lies under `dir/output`; nothing beside `dir` in its parent.
fn assert_only_inside_output(dir: &Path, inputs: &[&str]) {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    for f in files {
        let rel = f.strip_prefix(dir).unwrap();
        let allowed = rel.starts_with("output")
            || inputs.iter().any(|i| rel == Path::new(i))
            || rel.starts_with("inputs");
        assert!(allowed, "a file outside output/: {}", f.display());
    }
    let beside: Vec<_> = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(beside, vec![std::ffi::OsString::from("work")], "{beside:?}");
}

// ---------------------------------------------------------------------------
// The fuzz harness.

/// Numbers a hostile file may hold, each with whether it is a whole number.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "45",
    "45.0",
    "1.5",
    "100",
    "101",
    "1000",
    "1001",
    "10000",
    "10001",
    "2147483648",
    "4294967295",
    "4294967296",
    "4294967298",
    "1099511627776",
    "1e12",
    "1e308",
    "-1e308",
    "18446744073709551616",
    "\"3\"",
    "null",
    "true",
    "[]",
    "{}",
];

const STRINGS: &[&str] = &[
    "",
    " ",
    "A",
    "Z",
    "../../escaped",
    "/tmp/abs-escape",
    "..",
    "a\u{0}b",
    "Zürich",
    "\u{202e}evil",
    "red",
    "bleu",
    "grey",
];

/// The documented range of a numeric field at `path` (written here apart
/// from the program's own table), or `None` for a field that is no number.
fn documented_range(path: &[String]) -> Option<(f64, f64, bool)> {
    let last = path.last()?.as_str();
    let whole = |lo: f64, hi: f64| Some((lo, hi, true));
    match (path.first().map(String::as_str), last) {
        (Some("cars"), _) => whole(1.0, 10000.0),
        (Some("route_points"), _) => whole(0.0, 1000.0),
        (Some("routes"), "length") => whole(1.0, 100.0),
        (Some("routes"), "points") => whole(0.0, 1000.0),
        (Some("tickets"), "points") => whole(1.0, 1000.0),
        (Some("cities"), "x" | "y") => Some((-1e6, 1e6, false)),
        (Some("players"), _) => whole(2.0, 5.0),
        (Some("cars_left"), _) => whole(0.0, 10000.0),
        _ => None,
    }
}

/// Whether `v` is inside `range` as the documentation reads.
fn in_range(v: &Value, (lo, hi, whole): (f64, f64, bool)) -> bool {
    match v.as_f64() {
        Some(f) => f >= lo && f <= hi && (!whole || f.fract() == 0.0),
        None => false,
    }
}

/// Every path to a scalar in `v`.
fn scalar_paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                scalar_paths(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                scalar_paths(x, at, out);
                at.pop();
            }
        }
        _ => out.push(at.clone()),
    }
}

fn at_path<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Object(m) => m.get_mut(k),
        Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
        _ => None,
    })
}

/// One change of a valid file; `Some((path, value))` when it is known to
/// make the file invalid (a number put outside its documented range, an
/// unknown field) as long as `value` stays at `path`.
fn mutate(rng: &mut ChaCha8Rng, v: &mut Value) -> Option<(Vec<String>, Value)> {
    let mut paths = Vec::new();
    scalar_paths(v, &mut Vec::new(), &mut paths);
    // Mostly a number at the edge of its own field's range.
    let numeric: Vec<&Vec<String>> = paths
        .iter()
        .filter(|p| documented_range(p).is_some())
        .collect();
    if rng.random_bool(0.7) && !numeric.is_empty() {
        let path = (*numeric.choose(rng).unwrap()).clone();
        let range @ (lo, hi, whole) = documented_range(&path).unwrap();
        let mut edges = vec![lo - 1.0, lo, hi, hi + 1.0];
        if whole {
            edges.push(lo + 0.5);
        }
        let x = *edges.choose(rng).unwrap();
        let new = if x.fract() == 0.0 {
            json!(x as i64)
        } else {
            json!(x)
        };
        *at_path(v, &path)? = new.clone();
        return (!in_range(&new, range)).then_some((path, new));
    }
    let path = paths.choose(rng)?.clone();
    match rng.random_range(0..10) {
        // A hostile number where a number (or anything) was.
        0..=4 => {
            let text = NUMBERS.choose(rng).unwrap();
            let new: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            let range = documented_range(&path);
            *at_path(v, &path)? = new.clone();
            match range {
                Some(r) if !in_range(&new, r) => Some((path, new)),
                _ => None,
            }
        }
        // A hostile string.
        5..=6 => {
            let new = json!(STRINGS.choose(rng).unwrap());
            *at_path(v, &path)? = new.clone();
            documented_range(&path).map(|_| (path, new))
        }
        // A field removed.
        7 => {
            let (last, parent) = path.split_last()?;
            if let Some(Value::Object(m)) = at_path(v, parent) {
                m.remove(last);
            }
            None
        }
        // An unknown field added beside it.
        8 => {
            let (_, parent) = path.split_last()?;
            if let Some(Value::Object(m)) = at_path(v, parent) {
                m.insert("lenght".into(), json!(3));
                let mut path = parent.to_vec();
                path.push("lenght".into());
                return Some((path, json!(3)));
            }
            None
        }
        // A list entry repeated, or a list emptied.
        _ => {
            let list = path.iter().rposition(|k| k.parse::<usize>().is_ok())?;
            let parent = &path[..list];
            if let Some(Value::Array(a)) = at_path(v, parent) {
                if rng.random_bool(0.5) {
                    let first = a[0].clone();
                    a.push(first);
                } else {
                    a.clear();
                }
            }
            None
        }
    }
}

/// Mutates `v` once or twice; the paths still known to be invalid after
/// all the changes (a later change may remove an earlier one's value).
fn mutate_some(rng: &mut ChaCha8Rng, v: &mut Value) -> Option<Vec<String>> {
    let mut known = Vec::new();
    for _ in 0..rng.random_range(1..=2) {
        known.extend(mutate(rng, v));
    }
    known
        .into_iter()
        .find(|(path, value)| at_path(v, path).is_some_and(|x| x == value))
        .map(|(path, _)| path)
}

/// Text-level damage: a byte-order mark, a cut, a stray byte.
fn damage(rng: &mut ChaCha8Rng, text: String) -> String {
    match rng.random_range(0..8) {
        0 => format!("\u{feff}{text}"),
        1 => {
            let cut = rng.random_range(0..text.len());
            let cut = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap();
            text[..cut].to_string()
        }
        2 => format!("[{text}]"),
        _ => text,
    }
}

#[derive(Default)]
struct Counts {
    cases: usize,
    by_exit: [usize; 4],
    known_invalid: usize,
}

/// What every case must satisfy; `invalid` is a path known to be out of
/// range in the input the command read.
fn check_case(
    case: &str,
    dir: &Path,
    a: &[String],
    inputs: &[&str],
    invalid: Option<&Vec<String>>,
    counts: &mut Counts,
) {
    let (out, seconds) = run_in(dir, a, LIMIT + MARGIN);
    let out = out.unwrap_or_else(|| panic!("{case}: {a:?} ran past {seconds:.1} s"));
    let err = stderr(&out);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0..=3)),
        "{case}: {a:?} exited {code:?}\n{err}"
    );
    counts.by_exit[code.unwrap() as usize] += 1;
    for bad in ["panicked", "RUST_BACKTRACE", "Raw", "Os {", "i64", "u32"] {
        assert!(!err.contains(bad), "{case}: {a:?} printed {bad}\n{err}");
    }
    if let Some(path) = invalid {
        counts.known_invalid += 1;
        assert!(
            matches!(code, Some(1 | 2)),
            "{case}: {a:?} accepted an out-of-range value at {path:?}\n{err}"
        );
    }
    assert_only_inside_output(dir, inputs);
}

#[test]
fn fuzz_hostile_inputs() {
    let cases: usize = std::env::var("TTR_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("TTR_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let limit = LIMIT.to_string();
    let mut counts: std::collections::BTreeMap<&str, Counts> = Default::default();
    for n in 0..cases as u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + n);
        let class = ["board", "board", "state", "scenario", "plan", "arguments"][(n % 6) as usize];
        let case = format!("case {} (seed {}, {class})", n, seed + n);
        let dir = workdir(&format!("fuzz-{n}"));
        let mut invalid = None;
        let (a, inputs): (Vec<String>, Vec<&str>) = match class {
            "board" => {
                let mut board = small_board();
                invalid = mutate_some(&mut rng, &mut board);
                let text = damage(&mut rng, board.to_string());
                write(&dir, "board.json", &text);
                let command = [
                    vec!["solve", "--json"],
                    vec!["solve", "--method", "frontier"],
                    vec!["sweep", "--from", "1", "--to", "8"],
                    vec!["optima", "--cars", "6"],
                    vec!["breakeven", "--cars", "6"],
                    vec!["sensitivity", "--cars", "6"],
                    vec!["simulate", "--games", "3", "--players", "greedy,random"],
                ]
                .choose(&mut rng)
                .unwrap()
                .clone();
                let mut a = args(&command);
                a.extend(args(&["--board", "board.json", "--time-limit", &limit]));
                (a, vec!["board.json"])
            }
            "state" => {
                write(&dir, "board.json", &small_board().to_string());
                let mut state = small_state();
                invalid = mutate_some(&mut rng, &mut state);
                // The board field is a path: it may point anywhere.
                if let Some(Value::String(b)) = state.get("board") {
                    if b.starts_with('/') || b.contains("..") {
                        invalid = None;
                    }
                }
                write(&dir, "state.json", &damage(&mut rng, state.to_string()));
                let a = args(&["replan", "state.json", "--json", "--time-limit", &limit]);
                (a, vec!["board.json", "state.json"])
            }
            "plan" => {
                write(&dir, "board.json", &small_board().to_string());
                let mut plan = small_plan();
                invalid = mutate_some(&mut rng, &mut plan);
                // The board field is a path: it may point anywhere.
                if let Some(Value::String(b)) = plan.get("board") {
                    if b.starts_with('/') || b.contains("..") {
                        invalid = None;
                    }
                }
                write(&dir, "plan.json", &damage(&mut rng, plan.to_string()));
                let a = args(&["check", "plan.json", "--json", "--time-limit", &limit]);
                (a, vec!["board.json", "plan.json"])
            }
            "scenario" => {
                write(&dir, "board.json", &small_board().to_string());
                let mut scenario = small_scenario();
                mutate_some(&mut rng, &mut scenario);
                write(
                    &dir,
                    "scenario.json",
                    &damage(&mut rng, scenario.to_string()),
                );
                let a = args(&[
                    "compare",
                    "scenario.json",
                    "--board",
                    "board.json",
                    "--time-limit",
                    &limit,
                ]);
                (a, vec!["board.json", "scenario.json"])
            }
            _ => {
                write(&dir, "board.json", &small_board().to_string());
                let values = [
                    "0",
                    "-1",
                    "1",
                    "3",
                    "8",
                    "64",
                    "65",
                    "10000",
                    "10001",
                    "4294967295",
                    "18446744073709551616",
                    "1e3",
                    "nan",
                    "inf",
                    "0.001",
                    "",
                    "x",
                    "greedy,,",
                ];
                let flags = [
                    "--cars",
                    "--from",
                    "--to",
                    "--games",
                    "--threads",
                    "--time-limit",
                    "--memory-limit",
                    "--max",
                    "--seed",
                    "--players",
                    "--optimum",
                ];
                let commands = ["solve", "sweep", "optima", "simulate", "breakeven"];
                let mut a = args(&[commands.choose(&mut rng).unwrap(), "--board", "board.json"]);
                for _ in 0..rng.random_range(1..=3) {
                    a.push(flags.choose(&mut rng).unwrap().to_string());
                    a.push(values.choose(&mut rng).unwrap().to_string());
                }
                if !a.iter().any(|x| x == "--time-limit") {
                    a.extend(args(&["--time-limit", &limit]));
                }
                (a, vec!["board.json"])
            }
        };
        let c = counts.entry(class).or_default();
        c.cases += 1;
        check_case(&case, &dir, &a, &inputs, invalid.as_ref(), c);
    }
    for (class, c) in &counts {
        eprintln!(
            "fuzz {class}: {} cases, exit 0/1/2/3: {:?}, {} known out of range (all refused)",
            c.cases, c.by_exit, c.known_invalid
        );
    }
}
