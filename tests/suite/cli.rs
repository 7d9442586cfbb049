//! The `ttr-opt` binary: output formats, exit codes, errors on bad input.

use crate::common;

use common::{ttr_opt, ttr_opt_ok};

#[test]
fn solve_45_json_reports_285_proven() {
    let out = ttr_opt_ok(&["solve", "--cars", "45", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    assert_eq!(v["score"], 285);
    assert_eq!(v["ticket_points"], 223);
    assert_eq!(v["route_points"], 62);
    assert_eq!(v["cars_used"], 45);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["bound"], 285);
    assert_eq!(v["gap"], 0.0);
    assert_eq!(v["routes"].as_array().unwrap().len(), 18);
    assert_eq!(v["tickets"].as_array().unwrap().len(), 16);
    let route_points: u64 = v["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_u64().unwrap())
        .sum();
    assert_eq!(route_points, 62);
}

#[test]
fn table_output_names_routes_and_tickets() {
    let out = ttr_opt(&["solve", "--cars", "8"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Optimal score"), "{text}");
    assert!(
        text.contains("Routes claimed") && text.contains("Tickets completed"),
        "{text}"
    );
}

#[test]
fn same_input_same_output() {
    let strip = |o: std::process::Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let a = strip(ttr_opt(&["solve", "--cars", "12", "--json"]));
    let b = strip(ttr_opt(&["solve", "--cars", "12", "--json"]));
    assert_eq!(a, b);
}

#[test]
fn time_limit_reports_unproven_plan_with_exit_code_3() {
    // So short that no solve can finish: the starting plan is reported.
    let out = ttr_opt(&[
        "solve",
        "--cars",
        "45",
        "--json",
        "--time-limit",
        "0.000001",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "time_limit");
    assert!(v["score"].as_u64().unwrap() < v["bound"].as_u64().unwrap());
    assert!(v["gap"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_board_file_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.json");
    std::fs::write(
        &path,
        r#"{ "name": "bad", "cars": 5, "route_points": { "1": 1 },
             "cities": [ { "name": "A", "x": 0, "y": 0 } ],
             "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["red"] } ],
             "tickets": [] }"#,
    )
    .unwrap();
    let out = ttr_opt(&["solve", "--board", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.json") && err.contains("routes[0]") && err.contains("unknown city \"B\""),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn missing_board_file_is_a_clear_error() {
    let out = ttr_opt(&["solve", "--board", "does/not/exist.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("does/not/exist.json"), "{err}");
}

#[test]
fn bad_arguments_are_rejected() {
    assert_eq!(ttr_opt(&["solve", "--cars", "-3"]).status.code(), Some(2));
    assert_eq!(ttr_opt(&["solve", "--cars", "many"]).status.code(), Some(2));
    for bad in ["--time-limit=0", "--time-limit=-1", "--time-limit=soon"] {
        let out = ttr_opt(&["solve", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .contains("--time-limit"),
            "{bad}"
        );
    }
}

#[test]
fn sweep_writes_csv_and_json() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-sweep-{}", std::process::id()));
    let out = ttr_opt_ok(&[
        "sweep",
        "--from",
        "1",
        "--to",
        "6",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "--plot",
    ]);
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(printed, written);
    let scores: Vec<u64> = written
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_u64().unwrap())
        .collect();
    // 1..6 cars on the USA board: the best routes, then Denver–El Paso's ticket.
    assert_eq!(scores, vec![1, 2, 4, 8, 10, 15]);
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "a header and six budgets");
    assert!(csv.starts_with("cars,plan_from,score,"));
    // Frequency tables over the six plans, with the tie-break stated.
    let freq: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("frequency.json")).unwrap())
            .unwrap();
    assert_eq!(freq["plans"], 6);
    assert!(freq["tie_break"]
        .as_str()
        .unwrap()
        .contains("fewest train cars"));
    assert_eq!(freq["tickets"].as_array().unwrap().len(), 30);
    assert_eq!(freq["routes"].as_array().unwrap().len(), 78);
    // --plot: every figure of a sweep, as PNG and SVG, none empty. The map
    // is drawn at the largest budget (6) since 45 is not in the sweep.
    for stem in ["score-curve", "frequency", "map-6"] {
        for ext in ["png", "svg"] {
            let path = dir.join(format!("{stem}.{ext}"));
            let len = std::fs::metadata(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .len();
            assert!(len > 1000, "{} has {len} bytes", path.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweep_counts_every_optimum_of_every_budget() {
    // 1..3 cars on the USA board, derived from the board file: no ticket
    // fits in 3 cars, and a route scores 1, 2, 4 points for 1, 2, 3 cars,
    // so the optima of 1 car are the n1 one-car routes, of 2 cars any two
    // of those or one of the n2 two-car routes, of 3 cars the n3 three-car
    // routes alone (4 points, where any other 3 cars make 3).
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/usa.json")).unwrap();
    let board: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = |l: u64| {
        board["routes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["length"] == l)
            .count()
    };
    let (n1, n2, n3) = (n(1), n(2), n(3));
    let dir = scratch("all-optima");
    ttr_opt_ok(&[
        "sweep",
        "--from",
        "1",
        "--to",
        "3",
        "--all-optima",
        "--plot",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("frequency-optima.json")).unwrap())
            .unwrap();
    let counts: Vec<String> = all["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["count"].as_str().unwrap().to_string())
        .collect();
    let pairs = n1 * (n1 - 1) / 2;
    assert_eq!(counts, [n1, pairs + n2, n3].map(|c| c.to_string()).to_vec());
    let route = |length: u64| {
        all["routes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["length"] == length)
            .unwrap()
            .clone()
    };
    // A one-car route: in 1 of the n1 optima of 1 car and n1 - 1 of the
    // pairs of 2 cars, in no optimum of 3 cars.
    let one = route(1);
    assert_eq!(
        (one["some"].as_u64(), one["every"].as_u64()),
        (Some(2), Some(0))
    );
    let share = 1.0 / n1 as f64 + (n1 - 1) as f64 / (pairs + n2) as f64;
    assert!((one["share_sum"].as_f64().unwrap() - share).abs() < 1e-9);
    let three = route(3);
    assert_eq!(
        (three["some"].as_u64(), three["every"].as_u64()),
        (Some(1), Some(0))
    );
    assert!((three["share_sum"].as_f64().unwrap() - 1.0 / n3 as f64).abs() < 1e-9);
    // No ticket is in any optimum; every ticket is listed.
    let tickets = all["tickets"].as_array().unwrap();
    assert_eq!(tickets.len(), 30);
    assert!(tickets.iter().all(|t| t["some"] == 0 && t["picked"] == 0));
    // The CSV has a row per ticket and route; the figure is drawn.
    let csv = std::fs::read_to_string(dir.join("frequency-optima.csv")).unwrap();
    assert!(csv.starts_with("kind,name,points,length,some,every,share_sum,picked"));
    assert_eq!(csv.lines().count(), 1 + 30 + 78);
    for ext in ["png", "svg"] {
        let len = std::fs::metadata(dir.join(format!("frequency-optima.{ext}")))
            .unwrap()
            .len();
        assert!(len > 1000);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweep_rejects_an_empty_range() {
    let out = ttr_opt(&["sweep", "--from", "9", "--to", "3"]);
    // A bad command line: exit status 2, as for clap's own errors.
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--from 9 is above --to 3"));
}

#[test]
fn replan_late_game_json() {
    let state = concat!(env!("CARGO_MANIFEST_DIR"), "/data/states/late.json");
    let out = ttr_opt_ok(&["replan", state, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON only");
    assert_eq!(v["score"], 83);
    assert_eq!(v["owned_points"], 46);
    assert_eq!(v["to_gain"], 37);
    assert_eq!(v["status"], "optimal");
    assert_eq!(v["bound"], 83);
    assert_eq!(v["lost"][0]["name"], "Seattle – New York");
    assert_eq!(v["lost"][0]["points"], -22);
    let claimed: u64 = v["claim"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .sum();
    assert_eq!(claimed, v["claim_cars"].as_u64().unwrap());
    assert!(claimed <= 10);
}

#[test]
fn replan_bad_state_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-replan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = concat!(env!("CARGO_MANIFEST_DIR"), "/data/usa.json");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        serde_json::json!({ "board": board, "players": 4, "cars_left": 12,
            "owned": [{ "from": "Boston", "to": "Atlantis" }] })
        .to_string(),
    )
    .unwrap();
    let out = ttr_opt(&["replan", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bad.json") && err.contains("owned[0]: unknown city \"Atlantis\""),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // A board that does not load is named too.
    let orphan = dir.join("orphan.json");
    std::fs::write(
        &orphan,
        r#"{ "board": "nowhere.json", "players": 2, "cars_left": 5 }"#,
    )
    .unwrap();
    let out = ttr_opt(&["replan", orphan.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("board nowhere.json"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary directory unique to one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ttr-opt-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn compare_writes_both_curves_and_rejects_bad_scenarios() {
    let dir = scratch("compare");
    let board = dir.join("line.json");
    std::fs::write(
        &board,
        r#"{ "name": "line", "cars": 4, "route_points": { "1": 1, "2": 2 },
             "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
                         { "name": "C", "x": 2, "y": 0 } ],
             "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["gray"] },
                         { "from": "B", "to": "C", "length": 2, "tracks": ["gray"] } ],
             "tickets": [ { "from": "A", "to": "C", "points": 5 } ] }"#,
    )
    .unwrap();
    let scenario = dir.join("cheap.json");
    std::fs::write(
        &scenario,
        r#"{ "name": "cheap", "changes": [ { "set_route": { "from": "B", "to": "C", "length": 1 } } ] }"#,
    )
    .unwrap();
    let (b, s, out) = (
        board.to_str().unwrap(),
        scenario.to_str().unwrap(),
        dir.to_str().unwrap(),
    );
    let run = ttr_opt_ok(&["compare", s, "--board", b, "--out", out, "--json", "--plot"]);
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    // 2 cars: base A–B + nothing (1) or B–C (2): 2; variant A–B–C: 1 + 1 + 5 = 7.
    let row = &v["rows"][1];
    assert_eq!(
        (
            row["cars"].as_u64(),
            row["base"].as_u64(),
            row["variant"].as_u64()
        ),
        (Some(2), Some(2), Some(7))
    );
    for file in [
        "compare-cheap.csv",
        "compare-cheap.json",
        "compare-cheap.png",
        "compare-cheap.svg",
    ] {
        assert!(
            dir.join(file).metadata().is_ok_and(|m| m.len() > 0),
            "{file} written"
        );
    }
    // A scenario naming a route the board lacks: exit 1, the problem named.
    std::fs::write(
        &scenario,
        r#"{ "name": "bad", "changes": [ { "remove_route": { "from": "A", "to": "C" } } ] }"#,
    )
    .unwrap();
    let run = ttr_opt(&["compare", s, "--board", b, "--out", out]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains("changes[0]: no route A – C") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn balance_writes_a_markdown_report_with_its_figures() {
    let dir = scratch("balance");
    let out = dir.to_str().unwrap();
    ttr_opt_ok(&["balance", "--cars", "8", "--out", out]);
    let md = std::fs::read_to_string(dir.join("balance.md")).unwrap();
    for section in [
        "# Balance report",
        "## Score curve",
        "## Tickets: value against cost",
        "## Routes",
        "![",
        "Candidates for re-valuing",
    ] {
        assert!(md.contains(section), "report has {section}");
    }
    for file in [
        "score-curve.png",
        "frequency.png",
        "map-8.png",
        "score-curve.svg",
        "balance.json",
    ] {
        assert!(
            dir.join(file).metadata().is_ok_and(|m| m.len() > 0),
            "{file} written"
        );
        assert!(
            file.ends_with(".json") || file.ends_with(".svg") || md.contains(file),
            "{file} linked"
        );
    }
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("balance.json")).unwrap()).unwrap();
    // The same optimum as `solve` at 8 cars.
    let solved: serde_json::Value =
        serde_json::from_slice(&ttr_opt(&["solve", "--cars", "8", "--json"]).stdout).unwrap();
    assert_eq!(v["optimum"], solved["score"]);
    assert_eq!(v["curve"].as_array().unwrap().len(), 8);
    assert_eq!(v["tickets"].as_array().unwrap().len(), 30);
}

#[test]
fn bench_sweeps_named_boards_and_solves_generated_ones() {
    let dir = scratch("bench");
    // Albany – Hartford (3 cars, 4 points), Hartford – Boston (2 cars, 2
    // points), a 9-point ticket Albany – Boston: at its own 5 cars both
    // routes and the ticket, 4 + 2 + 9 = 15.
    let board = dir.join("tiny.json");
    std::fs::write(
        &board,
        r#"{ "name": "tiny", "cars": 5, "route_points": { "1": 1, "2": 2, "3": 4 },
             "cities": [ { "name": "Albany", "x": 0, "y": 0 }, { "name": "Boston", "x": 2, "y": 0 },
                         { "name": "Hartford", "x": 1, "y": 1 } ],
             "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
                         { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray"] } ],
             "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ] }"#,
    )
    .unwrap();
    let out = dir.to_str().unwrap();
    ttr_opt_ok(&["bench", "--boards", board.to_str().unwrap(), "--out", out]);
    let csv = std::fs::read_to_string(dir.join("boards.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    // board, cars, proven, budgets, wall, CPU, slowest budget, its s, peak
    // MB, optimum
    assert_eq!(
        (row[0], row[1], row[2], row[3], row[9]),
        ("tiny", "5", "5", "5", "15")
    );
    let cpu: f64 = row[5].parse().unwrap();
    assert!(cpu >= 0.0, "{row:?}");
    assert!(std::fs::read_to_string(dir.join("boards.md"))
        .unwrap()
        .contains("| tiny | 5 | 5/5 |"));

    // The balance report of the same board, timed: optimum 15, complete.
    ttr_opt_ok(&["bench", "--balance", board.to_str().unwrap(), "--out", out]);
    let csv = std::fs::read_to_string(dir.join("balance.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    // board, cars, wall, CPU, peak MB, optimum, unfinished
    assert_eq!((row[0], row[1], row[5], row[6]), ("tiny", "5", "15", "0"));

    // The same board solved on one lane and on two, twice each: optimum 15.
    ttr_opt_ok(&[
        "bench",
        "--solve",
        board.to_str().unwrap(),
        "--runs",
        "2",
        "--out",
        out,
    ]);
    let csv = std::fs::read_to_string(dir.join("solve.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    // board, cars, optimum, one lane s, two lanes s, LPs, LPs, runs
    assert_eq!((row[0], row[1], row[2], row[7]), ("tiny", "5", "15", "2"));
    assert!(std::fs::read_to_string(dir.join("solve.md"))
        .unwrap()
        .contains("| tiny | 5 | 15 |"));

    // The generated board of seed 1, against `solve` of the same board.
    ttr_opt_ok(&["bench", "--generated", "1", "--out", out]);
    let csv = std::fs::read_to_string(dir.join("generated.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let generated = dir.join("seed1.json");
    let made = ttr_opt(&[
        "generate",
        "--seed",
        "1",
        "--out",
        generated.to_str().unwrap(),
    ]);
    assert!(made.status.success());
    let solved = ttr_opt(&["solve", "--board", generated.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(row[5], "optimal");
    assert_eq!(row[6], json["score"].to_string());
    assert_eq!(row[4], json["cars"].to_string());

    // The same board swept: every budget proven, the last one's optimum
    // that of `solve`.
    ttr_opt_ok(&["bench", "--generated", "1", "--sweep", "--out", out]);
    let csv = std::fs::read_to_string(dir.join("generated-sweep.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let cars = json["cars"].to_string();
    assert_eq!(
        (row[0], row[1], row[2], row[3], row[9]),
        (
            "generated 1",
            &cars[..],
            &cars[..],
            &cars[..],
            &json["score"].to_string()[..]
        )
    );
    assert!(std::fs::read_to_string(dir.join("generated-sweep.md"))
        .unwrap()
        .contains("1 of 1 boards with every budget proven"));

    let bad = ttr_opt(&[
        "bench",
        "--boards",
        dir.join("missing.json").to_str().unwrap(),
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("missing.json"));
    let _ = std::fs::remove_dir_all(&dir);
}
