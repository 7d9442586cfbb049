//! The web server's HTTP API (`ttr-opt serve`), called in-process through
//! the router: the page and its assets, every run's budgets against values
//! derived by hand, what-if variants (superseded ones cancelled), board
//! uploads, and bad requests answered with a 4xx and a message.
//!
//! The worker's cancellation is process-wide, so the tests take turns.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use ttr_opt::board::Board;
use ttr_opt::web::{api, jobs::Jobs};

use crate::common;

static TURN: Mutex<()> = Mutex::new(());

/// Albany – Hartford (3 cars, 4 points), Hartford – Boston (2 cars, 2
/// points), a 9-point ticket Albany – Boston, 5 cars. By hand: 1 car 0
/// points, 2 cars 2, 3 and 4 cars 4, 5 cars 4 + 2 + 9 = 15.
const TINY: &str = r#"{
  "name": "tiny", "cars": 5, "route_points": { "1": 1, "2": 2, "3": 4 },
  "cities": [ { "name": "Albany", "x": 0, "y": 0 }, { "name": "Boston", "x": 2, "y": 0 },
              { "name": "Hartford", "x": 1, "y": 1 } ],
  "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
              { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray", "blue"] } ],
  "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ]
}"#;

struct Server {
    jobs: Arc<Jobs>,
    router: axum::Router,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    fn new(text: &str) -> Server {
        let board = Board::from_json(text, "tiny.json").expect("the test board is valid");
        let jobs = Arc::new(Jobs::start(board, text.to_string(), 2));
        Server {
            router: api::router(jobs.clone()),
            jobs,
            runtime: tokio::runtime::Runtime::new().expect("a runtime"),
        }
    }

    /// The status and body (JSON, or the text as a JSON string) of a request.
    fn call(&self, method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .body(body.into())
            .expect("a request");
        self.runtime.block_on(async {
            let response = self
                .router
                .clone()
                .oneshot(request)
                .await
                .expect("an answer");
            let status = response.status();
            let bytes = response
                .into_body()
                .collect()
                .await
                .expect("a body")
                .to_bytes();
            let text = String::from_utf8_lossy(&bytes).to_string();
            let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
            (status, value)
        })
    }

    /// The status once `which` run ("base" or "variant") has ended, and
    /// its run. A wide watchdog, not a timing: the tiny board takes well
    /// under a second.
    fn finished(&self, which: &str) -> Value {
        let start = Instant::now();
        loop {
            let (code, status) = self.call("GET", "/api/status", Body::empty());
            assert_eq!(code, StatusCode::OK);
            let run = &status[which];
            let state = run["state"].as_str().unwrap_or("");
            if ["done", "failed", "cancelled"].contains(&state) {
                return run.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "{which} never ended: {run}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.jobs.stop();
    }
}

fn scores(run: &Value) -> Vec<u64> {
    run["budgets"]
        .as_array()
        .expect("budgets")
        .iter()
        .map(|b| b["score"].as_u64().expect("a score"))
        .collect()
}

fn names(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_str().expect("a name"))
        .collect()
}

#[test]
fn the_page_and_its_assets_are_served() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = Server::new(TINY);
    let (code, page) = server.call("GET", "/", Body::empty());
    assert_eq!(code, StatusCode::OK);
    let page = page.as_str().expect("html");
    assert!(page.contains("<svg id=\"map\"") && page.contains("/app.js"));
    let (code, js) = server.call("GET", "/app.js", Body::empty());
    assert_eq!(code, StatusCode::OK);
    assert!(js.as_str().expect("js").contains("/api/status"));
    let (code, error) = server.call("GET", "/nothing/here", Body::empty());
    assert_eq!(code, StatusCode::NOT_FOUND);
    assert!(error["error"].as_str().is_some());
}

#[test]
fn the_base_run_proves_every_budget_and_the_ticket_table() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = Server::new(TINY);
    let base = server.finished("base");
    assert_eq!(base["state"], "done", "{base}");
    assert_eq!(scores(&base), [0, 2, 4, 4, 15]);
    let at5 = &base["budgets"][4];
    assert_eq!(
        names(&at5["routes"]),
        ["Albany – Hartford", "Hartford – Boston"]
    );
    assert_eq!(names(&at5["tickets"]), ["Albany – Boston"]);
    // The board view: the double route keeps both colours.
    let routes = base["board"]["routes"].as_array().expect("routes");
    assert_eq!(routes[1]["colours"], serde_json::json!(["gray", "blue"]));
    // Heat: the ticket is in the optimum of 1 budget of 5.
    assert_eq!(base["heat"]["tickets"]["Albany – Boston"], 0.2);
    // Break-even at 5 cars: in every optimum; without it the routes still
    // pay, so it can lose all 9 points and still be completed (never).
    let ticket = &base["tickets"][0];
    assert_eq!(ticket["membership"], "every");
    assert_eq!(ticket["cheapest_cars"], 5);
}

#[test]
fn a_variant_is_proven_at_its_budget_first_then_everywhere() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = Server::new(TINY);
    server.finished("base");
    // The ticket at 20 points: 5 cars give 4 + 2 + 20.
    let scenario = r#"{ "name": "dear", "changes": [
        { "set_ticket": { "from": "Boston", "to": "Albany", "points": 20 } } ] }"#;
    let (code, answer) = server.call("POST", "/api/variant?cars=5", scenario);
    assert_eq!(code, StatusCode::ACCEPTED, "{answer}");
    let variant = server.finished("variant");
    assert_eq!(variant["state"], "done", "{variant}");
    assert_eq!(variant["focus"]["cars"], 5);
    assert_eq!(variant["focus"]["score"], 26);
    assert_eq!(scores(&variant), [0, 2, 4, 4, 26]);
    assert_eq!(variant["scenario"]["name"], "dear");
    // The route blocked instead: only Albany – Hartford is left.
    let blocked = r#"{ "name": "blocked", "changes": [
        { "remove_route": { "from": "Hartford", "to": "Boston" } } ] }"#;
    let (code, _) = server.call("POST", "/api/variant?cars=2", blocked);
    assert_eq!(code, StatusCode::ACCEPTED);
    let variant = server.finished("variant");
    assert_eq!(scores(&variant), [0, 0, 4, 4, 4]);
    assert_eq!(variant["focus"]["score"], 0);
    // Dropped: no variant left.
    let (code, _) = server.call("DELETE", "/api/variant", Body::empty());
    assert_eq!(code, StatusCode::NO_CONTENT);
    let (_, status) = server.call("GET", "/api/status", Body::empty());
    assert!(status["variant"].is_null());
}

/// An edit goes before the rest of the base run. Europe's base run (every
/// budget, break-even values, a deal sample) takes minutes; the variant's
/// budget of 10 cars is proven while it is still going, with the base's
/// published budgets kept, the base then resuming, and the variant's other
/// budgets queued behind it. Before this ordering the variant waited for
/// the whole base run, and `focus` came only after the base was done.
#[test]
fn an_edit_is_answered_before_the_base_run_finishes() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/europe.json");
    let text = std::fs::read_to_string(path).expect("the Europe board");
    let server = Server::new(&text);
    // The base at work, with at least one budget on screen.
    let start = Instant::now();
    let published = loop {
        let (_, status) = server.call("GET", "/api/status", Body::empty());
        let n = status["base"]["budgets"].as_array().map_or(0, |b| b.len());
        if status["base"]["state"] == "running" && n > 0 {
            break n;
        }
        assert!(start.elapsed() < Duration::from_secs(300), "{status}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let scenario = r#"{ "name": "dear", "changes": [
        { "set_ticket": { "from": "Frankfurt", "to": "Kobenhavn", "points": 30 } } ] }"#;
    let (code, answer) = server.call("POST", "/api/variant?cars=10", scenario);
    assert_eq!(code, StatusCode::ACCEPTED, "{answer}");
    let status = loop {
        let (_, status) = server.call("GET", "/api/status", Body::empty());
        if !status["variant"]["focus"].is_null() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(300), "{status}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let base = &status["base"];
    assert_ne!(base["state"], "done", "{base}");
    assert!(base["budgets"].as_array().expect("budgets").len() >= published);
    // The variant's budget is its optimum, as `solve` gives it.
    let variant = ttr_opt::analysis::scenario::Scenario::from_json(scenario, "dear")
        .and_then(|s| s.apply(&text, "dear"))
        .expect("the scenario applies");
    let inst = ttr_opt::model::Instance::new(&variant, 10);
    let best =
        ttr_opt::solve::solve(&inst, &ttr_opt::solve::SolveOptions::default()).expect("a proof");
    assert_eq!(status["variant"]["focus"]["score"], best.plan.score());
    assert_eq!(status["variant"]["focus"]["cars"], 10);
    assert_eq!(status["variant"]["state"], "queued", "{status}");
    let base_resumed = loop {
        let (_, status) = server.call("GET", "/api/status", Body::empty());
        if status["base"]["state"] == "running" {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(300), "{status}");
        std::thread::sleep(Duration::from_millis(20));
    };
    // The pause showed nothing it had not proven: every budget on screen
    // is the optimum the sweep gives.
    let board = Board::from_json(&text, path).expect("a valid board");
    let shown: Vec<(u64, u64)> = base_resumed["base"]["budgets"]
        .as_array()
        .expect("budgets")
        .iter()
        .map(|b| (b["cars"].as_u64().unwrap(), b["score"].as_u64().unwrap()))
        .collect();
    assert!(shown.len() < 45, "{shown:?}");
    for (cars, score) in shown {
        let inst = ttr_opt::model::Instance::new(&board, cars as u32);
        let best = ttr_opt::solve::solve(&inst, &ttr_opt::solve::SolveOptions::default())
            .expect("a proof");
        assert_eq!(score, best.plan.score() as u64, "{cars} cars");
    }
    assert!(base_resumed["variant"]["message"]
        .as_str()
        .expect("a message")
        .contains("after the base run"));
}

#[test]
fn a_newer_variant_supersedes_the_one_in_progress() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let usa = ttr_opt::board::USA_JSON;
    let server = Server::new(usa);
    // The USA base run takes a while: both variants queue behind it, and
    // only the last one is ever computed.
    let first = r#"{ "name": "one", "changes": [ { "set_ticket": { "from": "Denver", "to": "El Paso", "points": 40 } } ] }"#;
    let second = r#"{ "name": "two", "changes": [ { "set_ticket": { "from": "Denver", "to": "El Paso", "points": 8 } } ] }"#;
    let (_, one) = server.call("POST", "/api/variant?cars=4", first);
    let (_, two) = server.call("POST", "/api/variant?cars=4", second);
    assert!(two["id"].as_u64() > one["id"].as_u64());
    let (_, status) = server.call("GET", "/api/status", Body::empty());
    assert_eq!(status["variant"]["id"], two["id"]);
    assert_eq!(status["variant"]["scenario"]["name"], "two");
    // A new board cancels everything, the USA run included.
    let (code, answer) = server.call("POST", "/api/board?name=tiny.json", TINY);
    assert_eq!(code, StatusCode::OK, "{answer}");
    let base = server.finished("base");
    assert_eq!(base["id"], answer["id"]);
    assert_eq!(base["board"]["name"], "tiny");
    assert_eq!(scores(&base), [0, 2, 4, 4, 15]);
    let (_, status) = server.call("GET", "/api/status", Body::empty());
    assert!(status["variant"].is_null());
}

#[test]
fn bad_requests_get_a_4xx_with_a_message() {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = Server::new(TINY);
    let error = |code: StatusCode, method: &str, uri: &str, body: &str| -> String {
        let (got, answer) = server.call(method, uri, body.to_string());
        assert_eq!(got, code, "{method} {uri}: {answer}");
        answer["error"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| answer.to_string())
    };
    // A scenario that is not JSON: where it broke.
    let e = error(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/variant",
        "{ \"name\": ",
    );
    assert!(e.starts_with("the scenario:1:"), "{e}");
    // A change naming no route: its index.
    let e = error(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/variant",
        r#"{ "name": "x", "changes": [ { "remove_route": { "from": "Albany", "to": "Nowhere" } } ] }"#,
    );
    assert!(e.contains("changes[0]"), "{e}");
    // A budget out of range.
    let e = error(StatusCode::BAD_REQUEST, "POST", "/api/variant?cars=0", "{}");
    assert!(e.contains("cars"), "{e}");
    error(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/variant?cars=many",
        "{}",
    );
    // A board with every problem named, under the uploaded file's name.
    let bad = TINY.replace("\"length\": 3", "\"length\": 0");
    let e = error(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/board?name=mine.json",
        &bad,
    );
    assert!(
        e.contains("mine.json") && e.contains("routes[0].length"),
        "{e}"
    );
    // Far too large.
    let huge = "x".repeat(api::MAX_BODY + 1);
    error(StatusCode::PAYLOAD_TOO_LARGE, "POST", "/api/board", &huge);
    // The wrong method.
    error(StatusCode::METHOD_NOT_ALLOWED, "GET", "/api/variant", "");
    // After all that the server still works, and the base board is unchanged.
    let base = server.finished("base");
    assert_eq!(base["board"]["name"], "tiny");
    assert_eq!(scores(&base), [0, 2, 4, 4, 15]);
}

/// The Suggest button's tuning is the library's (`analysis::tune` with
/// the default targets on one thread), and each revision it lists is an
/// edit the variant run answers; bad lengths of search are refused.
#[test]
fn a_suggestion_is_the_librarys_tuning_and_its_edits_apply() {
    use ttr_opt::analysis::tune::{tune, TuneOptions};
    use ttr_opt::solve::limits::Limits;
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = Server::new(common::LINE);
    assert_eq!(
        server.call("GET", "/api/suggest", Body::empty()).1,
        Value::Null
    );
    for bad in ["0", "100000", "NaN", "soon"] {
        let (code, _) = server.call("POST", &format!("/api/suggest?seconds={bad}"), "");
        assert_eq!(code, StatusCode::BAD_REQUEST, "seconds={bad}");
    }
    let (code, started) = server.call("POST", "/api/suggest?seconds=300", "");
    assert_eq!(code, StatusCode::ACCEPTED, "{started}");
    let start = Instant::now();
    let suggestion = loop {
        let (_, s) = server.call("GET", "/api/suggest", Body::empty());
        assert_eq!(s["id"], started["id"]);
        if s["state"] != "running" {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(300), "{s}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(suggestion["state"], "done", "{suggestion}");

    let board = Board::from_json(common::LINE, "line.json").unwrap();
    let options = TuneOptions {
        threads: 1,
        ..TuneOptions::defaults(&board)
    };
    let t = tune(&board, common::LINE, &options, &Limits::none(), &|_| {}).unwrap();
    assert_eq!(suggestion["base_misses"], t.base.misses);
    let listed = suggestion["revisions"].as_array().unwrap();
    assert_eq!(listed.len(), t.revisions.len());
    assert!(
        !listed.is_empty(),
        "the line's A–E is off the band: {suggestion}"
    );
    for (shown, r) in listed.iter().zip(&t.revisions) {
        assert_eq!(shown["misses"], r.misses);
        assert_eq!(shown["optimum"], r.measure.optimum);
        let shown = shown["changes"].as_array().unwrap();
        assert_eq!(shown.len(), r.changes.len());
        for (s, c) in shown.iter().zip(&r.changes) {
            // The change as the library reports it, its text and its edits.
            let mut bare = s.clone();
            let bare = bare.as_object_mut().unwrap();
            assert_eq!(bare.remove("text").unwrap(), c.describe());
            assert_eq!(
                bare.remove("edits").unwrap(),
                serde_json::to_value(c.changes_json()).unwrap()
            );
            assert_eq!(
                Value::Object(bare.clone()),
                serde_json::to_value(c).unwrap()
            );
        }
    }
    // The first revision's changes, as the page sends its edits.
    let changes: Vec<Value> = listed[0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["edits"].as_array().unwrap().clone())
        .collect();
    assert!(changes.iter().all(|c| c.get("set_ticket").is_some()));
    let scenario = serde_json::json!({ "name": "web edits", "changes": changes }).to_string();
    let (code, _) = server.call("POST", "/api/variant?cars=8", scenario);
    assert_eq!(code, StatusCode::ACCEPTED);
    let variant = server.finished("variant");
    assert_eq!(variant["state"], "done", "{variant}");
    assert_eq!(
        scores(&variant).last().copied(),
        Some(t.revisions[0].measure.optimum as u64)
    );

    // A new board drops the suggestion.
    let (code, _) = server.call("POST", "/api/board?name=tiny.json", TINY);
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        server.call("GET", "/api/suggest", Body::empty()).1,
        Value::Null
    );
}
