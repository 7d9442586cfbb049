//! `tune`: a board whose right tuning is derived by hand, every claim of a
//! tune report re-derived by `balance` and `deals` on the revised board,
//! and the errors of a bad targets file. Small boards and budgets only.

use crate::common;

use std::path::PathBuf;

use ttr_opt::analysis::balance::{balance, deal_sample};
use ttr_opt::analysis::scenario::Scenario;
use ttr_opt::analysis::tune::targets::in_band;
use ttr_opt::analysis::tune::targets::Styles;
use ttr_opt::analysis::tune::{tune, Edit, Revision, Targets, TuneOptions, Tuning};
use ttr_opt::analysis::Membership;
use ttr_opt::board::Board;
use ttr_opt::leagues::tournament;
use ttr_opt::plans::deals::deals_within;
use ttr_opt::solve::limits::Limits;

fn options(cars: u32, targets: Targets, budget: usize, keep: usize) -> TuneOptions {
    TuneOptions {
        cars,
        targets,
        budget_changes: budget,
        keep,
        max_combinations: 8,
        threads: 2,
        references: Vec::new(),
    }
}

fn run(board: &Board, text: &str, options: &TuneOptions) -> Tuning {
    tune(board, text, options, &Limits::none(), &|_| {}).expect("tune runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ttr-opt-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Only the rates asked: the rates are 1.00 but A–E's 11/8 = 1.375, the
/// median is 1.00, and 5 % of 8 cars allows at most 8.4 points: A–E must
/// lose 3 points, one change, and nothing else needs one. With at most 2
/// points a ticket, no revision helps.
#[test]
fn the_rate_band_is_met_by_the_smallest_change() {
    let board = Board::from_json(common::LINE, "line.json").unwrap();
    let targets = Targets {
        dead: false,
        generous: false,
        max_spread: Some(1000.0),
        ..Targets::default()
    };
    let t = run(&board, common::LINE, &options(8, targets.clone(), 4, 3));
    assert_eq!(t.base.measure.off_band, vec!["A – E".to_string()]);
    assert_eq!(t.base.misses, 1);
    let best = &t.revisions[0];
    assert_eq!(best.misses, 0);
    assert_eq!(best.changes.len(), 1);
    let Edit::Ticket(c) = &best.changes[0] else {
        panic!("a ticket's points: {:?}", best.changes);
    };
    assert_eq!((c.ticket.as_str(), c.before, c.after), ("A – E", 11, 8));
    // Every candidate skipped or measured is counted.
    assert!(t.search.solved >= 1 && t.search.considered >= t.search.solved);
    assert!(t.search.stopped.is_none());

    let narrow = Targets {
        max_step: 2,
        ..targets
    };
    let t = run(&board, common::LINE, &options(8, narrow, 4, 3));
    assert!(t.revisions.is_empty(), "3 points are needed, 2 allowed");
    assert!(t.search.out_of_bounds >= 1);
}

/// A line of five routes of 2 cars; every ticket pays a point a car but
/// E–F, 4 points for 2 cars (the median rate is 1.00).
const TWIG: &str = r#"{ "name": "twig", "cars": 8,
  "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
  "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
              { "name": "C", "x": 2, "y": 0 }, { "name": "D", "x": 3, "y": 0 },
              { "name": "E", "x": 4, "y": 0 }, { "name": "F", "x": 5, "y": 0 } ],
  "routes": [ { "from": "A", "to": "B", "length": 2, "tracks": ["gray"] },
              { "from": "B", "to": "C", "length": 2, "tracks": ["gray"] },
              { "from": "C", "to": "D", "length": 2, "tracks": ["gray"] },
              { "from": "D", "to": "E", "length": 2, "tracks": ["gray"] },
              { "from": "E", "to": "F", "length": 2, "tracks": ["gray"] } ],
  "tickets": [ { "from": "A", "to": "C", "points": 4 }, { "from": "B", "to": "D", "points": 4 },
               { "from": "C", "to": "E", "points": 4 }, { "from": "A", "to": "E", "points": 8 },
               { "from": "E", "to": "F", "points": 4 } ] }"#;

/// The rates only, on [`TWIG`] at 8 cars, with `more` set.
fn twig(more: &str) -> (Board, Tuning) {
    let text = format!(r#"{{ "dead": false, "generous": false, "max_spread": 1000{more} }}"#);
    let targets = Targets::from_json(&text, "targets.json").unwrap();
    let board = Board::from_json(TWIG, "twig.json").unwrap();
    targets.check_names(&board, "targets.json").unwrap();
    let t = run(&board, TWIG, &options(8, targets, 2, 3));
    assert_eq!(t.base.measure.off_band, vec!["E – F".to_string()]);
    assert!(t.search.stopped.is_none());
    (board, t)
}

/// Each revision's scenario applies, and its rates, re-derived by
/// `balance` on the revised board, are all in the band.
fn in_band_after(r: &Revision) {
    let board = r.scenario("").apply(TWIG, "revision").unwrap();
    let [_, _, off] = balance_lists(&board, 8, 0.05);
    assert!(off.is_empty(), "{}: {off:?}", r.name);
    assert_eq!(off, r.measure.off_band);
    assert_eq!(r.misses, 0);
}

/// E–F's 4 points need 4 cars at the median rate (3.8 within 5 %): with
/// no ticket's points free to move, a route 2 cars longer is the one
/// change, on E–F's only connection; 1 car is not enough.
#[test]
fn a_route_moves_where_the_targets_allow_it() {
    let (board, t) = twig(r#", "tickets": [], "route_step": 2"#);
    let best = &t.revisions[0];
    assert_eq!(best.changes.len(), 1, "{:?}", best.changes);
    let Edit::Route(r) = &best.changes[0] else {
        panic!("a route's length: {:?}", best.changes);
    };
    assert_eq!((r.route.as_str(), r.before, r.after), ("E – F", 2, 4));
    in_band_after(best);
    // The route scores as the rule card says for 4 cars.
    let revised = best.scenario("").apply(TWIG, "revision").unwrap();
    let ef = revised
        .route_ids()
        .map(|id| revised.route(id))
        .last()
        .unwrap();
    assert_eq!((ef.length, ef.points), (4, 7));
    assert_eq!(board.routes.len(), revised.routes.len());

    let (_, t) = twig(r#", "tickets": [], "route_step": 1"#);
    assert!(t.revisions.is_empty(), "1 car is not enough");
    let (_, t) = twig(r#", "tickets": [], "route_step": 2, "routes": ["A – B"]"#);
    assert!(t.revisions.is_empty(), "E – F may not move");
}

/// With a point a ticket at most, E–F (2 points too many) cannot be
/// priced into the band: taken out, or replaced by a candidate in the
/// band; a candidate off the band, or a ticket not allowed to change,
/// gives nothing.
#[test]
fn a_ticket_leaves_or_is_replaced_where_its_points_cannot_reach() {
    let (_, t) = twig(r#", "max_step": 1"#);
    assert!(t.revisions.is_empty());
    assert!(t.search.out_of_bounds >= 1);

    let (_, t) = twig(r#", "max_step": 1, "remove": true"#);
    let best = &t.revisions[0];
    assert_eq!(best.changes.len(), 1);
    assert!(matches!(&best.changes[0], Edit::Remove(c) if c.ticket == "E – F"));
    in_band_after(best);
    assert!(best.measure.tickets.iter().all(|r| r.name != "E – F"));

    let add = r#", "add": [{ "from": "A", "to": "D", "points": 12 }, { "from": "A", "to": "D", "points": 6 }]"#;
    let (_, t) = twig(&format!(r#", "max_step": 1{add}"#));
    let best = &t.revisions[0];
    assert_eq!(best.changes.len(), 1);
    let Edit::Replace { out, with } = &best.changes[0] else {
        panic!("a replacement: {:?}", best.changes);
    };
    assert_eq!(
        (out.ticket.as_str(), with.ticket.as_str(), with.points),
        ("E – F", "A – D", 6)
    );
    in_band_after(best);
    assert_eq!(best.measure.tickets.len(), 5, "the deck keeps its size");
    // The candidate worth 12 is off the band: skipped by the rates.
    assert!(t.search.skipped_by_bound >= 1);
    assert_eq!(
        best.scenario_json("")["changes"],
        serde_json::json!([
            { "remove_ticket": { "from": "E", "to": "F" } },
            { "add_ticket": { "from": "A", "to": "D", "points": 6 } }
        ])
    );

    let (_, t) = twig(r#", "max_step": 1, "remove": true, "tickets": ["A – C"]"#);
    assert!(t.revisions.is_empty(), "E – F may not change");
}

/// What `balance` calls dead, generous and off the band on `board`.
fn balance_lists(board: &Board, cars: u32, band: f64) -> [Vec<String>; 3] {
    let (report, _) = balance(
        board,
        cars,
        &ttr_opt::analysis::balance::BalanceOptions::threads(2),
    )
    .unwrap();
    let budgets = report.curve.len();
    let names = |keep: &dyn Fn(&ttr_opt::analysis::balance::TicketValue) -> bool| {
        let mut v: Vec<String> = report
            .tickets
            .iter()
            .filter(|t| keep(t))
            .map(|t| t.name.clone())
            .collect();
        v.sort();
        v
    };
    [
        names(&|t| t.membership == Some(Membership::None) && t.in_sweep_optima == 0),
        names(&|t| t.membership == Some(Membership::Every) && 2 * t.in_sweep_optima >= budgets),
        names(&|t| !in_band(t.points, t.cheapest_cars, report.median_rate, band)),
    ]
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// Re-derives a revision's claims on the board it makes: its lists by
/// `balance`, its spread by `deals` with `balance`'s sample.
fn rederive(usa: &str, r: &Revision, cars: u32) {
    let board = r.scenario("").apply(usa, "revision").unwrap();
    let [dead, generous, off] = balance_lists(&board, cars, 0.05);
    assert_eq!(dead, sorted(&r.measure.dead), "{}: dead", r.name);
    assert_eq!(
        generous,
        sorted(&r.measure.generous),
        "{}: generous",
        r.name
    );
    assert_eq!(off, sorted(&r.measure.off_band), "{}: off the band", r.name);
    let deal = deals_within(&board, &deal_sample(&board, cars), &Limits::none(), &|| {}).unwrap();
    let spread = r.measure.spread.as_ref().expect("the spread is measured");
    assert_eq!(spread.spread, deal.p90 - deal.p10, "{}: spread", r.name);
    assert_eq!(spread.hands, deal.hands_valued);
    // The styles' win rates: their tournament played on the revised board.
    let styles = styles();
    // Seeded by the board's own name: every revision plays the same deals.
    let setup = styles.setup(&Board::usa().name, &board);
    let (t, _, _) = tournament::run(&setup, &Limits::none(), &|| {}).unwrap();
    let measured = r
        .measure
        .win_rates
        .as_ref()
        .expect("the win rates are measured");
    assert_eq!(measured.games, t.played);
    for s in &measured.styles {
        let row = t
            .standings
            .iter()
            .find(|x| x.strategy == s.strategy)
            .unwrap();
        assert_eq!(s.win_rate, row.win_rate, "{}: {}", r.name, s.strategy);
    }
    let rates: Vec<f64> = t.standings.iter().map(|x| x.win_rate).collect();
    let spread = rates.iter().cloned().fold(f64::MIN, f64::max)
        - rates.iter().cloned().fold(f64::MAX, f64::min);
    assert_eq!(measured.spread, spread, "{}: win-rate spread", r.name);
}

/// Two styles, a few games: the win-rate target the claims test asks.
fn styles() -> Styles {
    Styles {
        players: vec!["planner".into(), "long-route".into()],
        seats: 2,
        games: 3,
        seed: 7,
        band: 0.2,
    }
}

/// On the USA board at 12 cars (a small sweep), every claim of the report:
/// the board's and each revision's dead, generous and off-band tickets as
/// `balance` finds them on the revised board, the deal's spread as `deals`
/// values `balance`'s sample, a ticket no longer dead in some optimum, and
/// the misses counted from those.
#[test]
fn every_claim_is_rederived_by_balance_and_deals() {
    let usa_text = ttr_opt::board::USA_JSON;
    let usa = Board::usa();
    let cars = 12;
    let targets = Targets {
        win_rates: Some(styles()),
        ..Targets::default()
    };
    let t = run(&usa, usa_text, &options(cars, targets, 2, 2));
    assert!(t.search.stopped.is_none());
    assert!(
        !t.revisions.is_empty(),
        "the rates alone leave room to improve"
    );
    rederive(usa_text, &t.base, cars);
    for r in &t.revisions {
        rederive(usa_text, r, cars);
        assert!(r.misses < t.base.misses);
        let max = t.max_spread.unwrap();
        let spread_miss = usize::from(r.measure.spread.as_ref().unwrap().spread > max + 1e-9);
        let win_miss = usize::from(r.measure.win_rates.as_ref().unwrap().spread > 0.2 + 1e-9);
        let counted = r.measure.dead.len()
            + r.measure.generous.len()
            + r.measure.off_band.len()
            + spread_miss
            + win_miss;
        assert_eq!(r.misses, counted, "{}: misses", r.name);
        // A ticket the board had dead that the revision revives is in
        // some optimum of a budget (its row says so).
        for name in t
            .base
            .measure
            .dead
            .iter()
            .filter(|n| !r.measure.dead.contains(n))
        {
            let row = r.measure.tickets.iter().find(|x| &x.name == name).unwrap();
            assert!(row.membership != Some(Membership::None) || row.in_sweep_optima > 0);
        }
    }
    // The revisions are ordered best first.
    for pair in t.revisions.windows(2) {
        assert!((pair[0].misses, pair[0].changes.len()) <= (pair[1].misses, pair[1].changes.len()));
    }
}

/// The command writes scenario files `compare` loads (the same board as
/// the library's revision), the report and the JSON.
#[test]
fn the_command_writes_scenarios_compare_reads() {
    let dir = scratch("cli");
    let board = dir.join("line.json");
    std::fs::write(&board, common::LINE).unwrap();
    let targets = dir.join("targets.json");
    std::fs::write(
        &targets,
        r#"{ "dead": false, "generous": false, "max_spread": 1000 }"#,
    )
    .unwrap();
    let out = dir.join("out");
    let args = [
        "tune",
        "-b",
        board.to_str().unwrap(),
        "--targets",
        targets.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = common::ttr_opt(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = std::fs::read_to_string(out.join("tune.md")).unwrap();
    assert!(report.contains("A – E 11→8"), "{report}");
    assert!(report.contains("## Before and after"));
    let scenario = Scenario::load(&out.join("tune-1.json")).unwrap();
    let variant = scenario.apply(common::LINE, "tune-1.json").unwrap();
    let ae = variant.tickets.iter().find(|t| t.points == 8).unwrap();
    assert_eq!(variant.city(ae.a).name, "A");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tune.json")).unwrap()).unwrap();
    assert_eq!(json["revisions"][0]["misses"], 0);
    // compare reads it.
    let o = common::ttr_opt(&[
        "compare",
        out.join("tune-1.json").to_str().unwrap(),
        "-b",
        board.to_str().unwrap(),
        "--out",
        dir.join("compare").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A bad targets file is refused before any solve, naming the file and
/// the field.
#[test]
fn a_bad_targets_file_names_the_file_and_the_field() {
    let dir = scratch("bad");
    let cases = [
        (r#"{ "rate_bnd": 0.1 }"#, "rate_bnd"),
        (r#"{ "rate_band": 2 }"#, "field `rate_band`"),
        (r#"{ "max_step": 0 }"#, "field `max_step`"),
        (r#"{ "max_spread": -1 }"#, "field `max_spread`"),
        (r#"{ "dead": "yes" }"#, "expected a boolean"),
        (r#"{ "tickets": ["Atlantis – Miami"] }"#, "tickets[0]"),
        (r#"{ "dead": true, "#, "line 1"),
        (
            r#"{ "win_rates": { "players": ["planner", "nobody"] } }"#,
            "field `win_rates`: players: unknown strategy \"nobody\"",
        ),
        (
            r#"{ "win_rates": { "band": 1.5 } }"#,
            "field `win_rates`: band",
        ),
        (
            r#"{ "win_rates": { "seats": 9 } }"#,
            "field `win_rates`: seats",
        ),
        (
            r#"{ "win_rates": { "games": 100000 } }"#,
            "400000 games a board; at most 20000",
        ),
        (r#"{ "win_rates": { "plyers": [] } }"#, "plyers"),
        (r#"{ "route_step": 9 }"#, "field `route_step`"),
        (r#"{ "routes": ["Atlantis – Miami"] }"#, "routes[0]"),
        (
            r#"{ "add": [{ "from": "Atlantis", "to": "Miami", "points": 5 }] }"#,
            "add[0].from",
        ),
        (
            r#"{ "add": [{ "from": "Denver", "to": "Miami", "points": 0 }] }"#,
            "add[0].points",
        ),
        (
            r#"{ "add": [{ "from": "Denver", "to": "Miami" }] }"#,
            "missing field `points`",
        ),
    ];
    for (i, (text, field)) in cases.iter().enumerate() {
        let path = dir.join(format!("targets-{i}.json"));
        std::fs::write(&path, text).unwrap();
        let o = common::ttr_opt(&[
            "tune",
            "--targets",
            path.to_str().unwrap(),
            "--out",
            "/nonexistent/x",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{text}: {err}");
        assert!(err.contains(path.to_str().unwrap()), "{text}: {err}");
        assert!(err.contains(field), "{text}: {err}");
    }
    // A missing file is named too.
    let o = common::ttr_opt(&["tune", "--targets", "/nonexistent/targets.json"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/targets.json"));
    // The library's own check.
    let e = Targets::from_json(r#"{ "rate_band": -0.1 }"#, "t.json").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.json: field `rate_band`: expected a fraction from 0 to 1"
    );
}

/// The targets file shown in `docs/designers.md` loads, and names
/// tickets of the USA board.
#[test]
fn the_guides_targets_example_loads() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/designers.md")).unwrap();
    let section = &guide[guide.find("## Tune").expect("a Tune section")..];
    let start = section.find("```json\n").expect("a JSON example") + "```json\n".len();
    let text = &section[start..start + section[start..].find("```").unwrap()];
    let targets = Targets::from_json(text, "docs/designers.md").unwrap();
    targets
        .check_names(&Board::usa(), "docs/designers.md")
        .unwrap();
    assert_eq!(targets.max_spread, Some(15.0));
}
