//! The native half of the `ttr_opt` Python package: one function per
//! analysis, each a thin call into the `ttr_opt` library that returns the
//! answer as JSON text in the documented schema (the Python half parses it
//! into plain dicts and lists).
//!
//! Every call releases the GIL while it solves and watches for Ctrl-C: the
//! solve stops as at a time limit and the call raises `KeyboardInterrupt`.
//! Bad input raises `ValueError` with the message the command line prints
//! (file, entry, problem).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde::Serialize;

use ttr_opt::analysis::check::{check_within, PlanFile};
use ttr_opt::analysis::optima::{all_optima, OptimaOptions};
use ttr_opt::analysis::scenario::{compare_within, Scenario};
use ttr_opt::analysis::tune::{tune as tune_board, Targets, TuneOptions, Tuning};
use ttr_opt::analysis::{break_even, sensitivity, AnalysisOptions};
use ttr_opt::board::Board;
use ttr_opt::bots::check_players;
use ttr_opt::engine::cards::{Card, Hand, COLOURS};
use ttr_opt::engine::saved::SavedGame;
use ttr_opt::engine::state::GameState;
use ttr_opt::engine::tunnel::{card_name, card_named, tunnel_options, TunnelError, TURNED};
use ttr_opt::leagues::simulate::review_games;
use ttr_opt::leagues::simulate::{
    simulate as play_games, single_player_optimum, GameRecord, Played, SimulateOptions,
};
use ttr_opt::model::Instance;
use ttr_opt::output::report::{
    BreakEvenReport, OptimaReport, SensitivityReport, SimulateReport, SolveReport, SweepReport,
};
use ttr_opt::plans::deals::{
    deal_hands, deal_report, value_hands_within, DealOptions, DealReport, HandValue,
};
use ttr_opt::plans::replan::{replan as replan_state, ReplanReport};
use ttr_opt::plans::review::{review_saved, ReviewOptions};
use ttr_opt::solve::limits::Limits;
use ttr_opt::solve::sweep::{sweep_with as sweep_budgets, Prior};
use ttr_opt::solve::{solve as solve_instance, worker_pool, Method, SolveOptions};

/// An error of the input (a file, an entry): `ValueError`.
fn bad_input(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An error of the solver: `RuntimeError`, with its causes.
fn failed(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The board of a call: a file, the JSON text of one, or the built-in USA
/// board.
fn board(path: Option<PathBuf>, json: Option<String>) -> PyResult<Board> {
    Ok(board_with_text(path, json)?.0)
}

/// [`board`], with the text it was read from (scenarios apply to it).
fn board_with_text(path: Option<PathBuf>, json: Option<String>) -> PyResult<(Board, String)> {
    match (path, json) {
        (Some(p), _) => Board::load_with_text(&p).map_err(bad_input),
        (None, Some(text)) => Board::from_json(&text, "the board dict")
            .map(|b| (b, text))
            .map_err(bad_input),
        (None, None) => Ok((Board::usa(), ttr_opt::board::USA_JSON.to_string())),
    }
}

/// `value` if it lies in `lo..=hi` (the command line's ranges), else a
/// `ValueError` naming the argument. Taken as i64 so that a negative
/// number is a `ValueError` too, not a conversion error.
fn in_range(what: &str, value: i64, lo: u64, hi: u64) -> PyResult<u64> {
    match u64::try_from(value) {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(PyValueError::new_err(format!(
            "{what} must be a whole number from {lo} to {hi}, got {value}"
        ))),
    }
}

/// A budget in the range of [`ttr_opt::board::input::CARS`].
fn budget(what: &str, value: i64) -> PyResult<u32> {
    let range = ttr_opt::board::input::CARS;
    Ok(in_range(what, value, *range.start() as u64, *range.end() as u64)? as u32)
}

/// Worker threads in the range of [`ttr_opt::board::input::THREADS`].
fn threads(value: i64) -> PyResult<usize> {
    let range = ttr_opt::board::input::THREADS;
    Ok(in_range("threads", value, *range.start() as u64, *range.end() as u64)? as usize)
}

/// The board of a call and its budget (the board's own by default).
fn board_and_cars(
    path: Option<PathBuf>,
    json: Option<String>,
    cars: Option<i64>,
) -> PyResult<(Board, u32)> {
    let b = board(path, json)?;
    let cars = budget("cars", cars.unwrap_or(b.cars as i64))?;
    Ok((b, cars))
}

fn json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(failed)
}

/// Runs `work` without the GIL within the call's own limits (its time
/// limit, and a token of its own), checking for Ctrl-C every tenth of a
/// second: on one, the token is cancelled, the call's solvers stop as at a
/// time limit, and the call raises `KeyboardInterrupt` once they have.
/// Calls on other Python threads keep their own limits.
fn run<T: Send>(
    py: Python<'_>,
    time_limit: Option<f64>,
    work: impl FnOnce(&Limits) -> PyResult<T> + Send,
) -> PyResult<T> {
    if let Some(t) = time_limit {
        if !(t > 0.0 && t <= 1e7) {
            return Err(PyValueError::new_err(format!(
                "time_limit must be above 0 and at most 1e7 seconds, got {t}"
            )));
        }
    }
    let limits = Limits::none().with_time_limit(time_limit);
    let cancel = limits.cancel.clone();
    let mut interrupted: Option<PyErr> = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| work(&limits));
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(100));
                if interrupted.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        cancel.cancel();
                        interrupted = Some(e);
                    }
                }
            }
            worker
                .join()
                .unwrap_or_else(|_| Err(failed("the solver stopped unexpectedly")))
        })
    });
    match interrupted {
        Some(e) => Err(e),
        None => result,
    }
}

/// The method by its command-line name.
fn method(name: &str) -> PyResult<Method> {
    use clap::ValueEnum;
    Method::from_str(name, true).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown method {name:?} (auto, frontier, forest, paper, paper-integer)"
        ))
    })
}

#[pyfunction]
#[pyo3(signature = (board_path=None, board_json=None, cars=None, method_name="auto", time_limit=None))]
fn solve(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    cars: Option<i64>,
    method_name: &str,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, cars) = board_and_cars(board_path, board_json, cars)?;
    let m = method(method_name)?;
    run(py, time_limit, |limits| {
        // As the command line: the answer waited for, on both cores.
        let options = SolveOptions {
            method: m,
            both_cores: true,
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        let outcome = solve_instance(&Instance::new(&b, cars), &options).map_err(failed)?;
        json(&SolveReport::new(&b, cars, &outcome))
    })
}

#[pyfunction]
#[pyo3(signature = (board_path=None, board_json=None, start=1, end=None, threads=2, time_limit=None))]
fn sweep(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    start: i64,
    end: Option<i64>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let b = board(board_path, board_json)?;
    let start = budget("start", start)?;
    let end = budget("end", end.unwrap_or(b.cars as i64))?;
    let threads = self::threads(threads)?;
    if start > end {
        return Err(PyValueError::new_err(format!(
            "end must not be below start: got {start}..{end}"
        )));
    }
    run(py, time_limit, |limits| {
        let entries = sweep_budgets(
            &b,
            start,
            end,
            threads,
            limits,
            &|_| Ok(Prior::Nothing),
            &|_| {},
        )
        .map_err(failed)?;
        let reports: Vec<SweepReport> = entries.iter().map(|e| SweepReport::new(&b, e)).collect();
        json(&reports)
    })
}

#[pyfunction(name = "sensitivity")]
#[pyo3(signature = (board_path=None, board_json=None, cars=None, threads=2, time_limit=None))]
fn sensitivity_json(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    cars: Option<i64>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, cars) = board_and_cars(board_path, board_json, cars)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let s = sensitivity(&b, cars, &analysis_options(threads, limits)).map_err(failed)?;
        json(&SensitivityReport::new(&b, &s))
    })
}

/// The options of `sensitivity` and `breakeven`: no progress told.
fn analysis_options(threads: usize, limits: &Limits) -> AnalysisOptions<'static> {
    AnalysisOptions {
        threads,
        limits: limits.clone(),
        ..AnalysisOptions::default()
    }
}

#[pyfunction]
#[pyo3(signature = (board_path=None, board_json=None, cars=None, threads=2, time_limit=None))]
fn breakeven(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    cars: Option<i64>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, cars) = board_and_cars(board_path, board_json, cars)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let r = break_even(&b, cars, &analysis_options(threads, limits)).map_err(failed)?;
        json(&BreakEvenReport::new(&b, &r))
    })
}

#[pyfunction]
#[pyo3(signature = (board_path=None, board_json=None, cars=None, max=20, time_limit=None))]
fn optima(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    cars: Option<i64>,
    max: usize,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, cars) = board_and_cars(board_path, board_json, cars)?;
    run(py, time_limit, |limits| {
        let options = OptimaOptions {
            max,
            method: Method::Auto,
            limits: limits.clone(),
        };
        let o = all_optima(&b, cars, &options).map_err(failed)?;
        json(&OptimaReport::new(&b, &o))
    })
}

#[pyfunction]
#[pyo3(signature = (state_path, method_name="auto", time_limit=None))]
fn replan(
    py: Python<'_>,
    state_path: PathBuf,
    method_name: &str,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, state) = GameState::load(&state_path).map_err(bad_input)?;
    let m = method(method_name)?;
    run(py, time_limit, |limits| {
        // As the command line: the answer waited for, on both cores.
        let options = SolveOptions {
            method: m,
            both_cores: true,
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        let r = replan_state(&b, &state, &options).map_err(failed)?;
        json(&ReplanReport::new(&b, &state, &r))
    })
}

#[pyfunction]
#[pyo3(signature = (plan_path=None, plan_json=None, board_path=None, board_json=None, cars=None, time_limit=None))]
fn check(
    py: Python<'_>,
    plan_path: Option<PathBuf>,
    plan_json: Option<String>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    cars: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let plan = match (plan_path, plan_json) {
        (Some(p), _) => PlanFile::load(&p),
        (None, Some(text)) => PlanFile::from_json(&text, "the plan dict"),
        (None, None) => return Err(PyValueError::new_err("no plan given")),
    }
    .map_err(bad_input)?;
    let b = match (&board_path, &board_json, &plan.board) {
        (None, None, Some(p)) => board(Some(p.clone()), None)?,
        _ => board(board_path, board_json)?,
    };
    let claimed = plan.claimed(&b).map_err(bad_input)?;
    let cars = budget(
        "cars",
        cars.or(plan.cars.map(i64::from)).unwrap_or(b.cars as i64),
    )?;
    run(py, time_limit, |limits| {
        let verdict = check_within(&b, &claimed, cars, limits).map_err(failed)?;
        json(&verdict)
    })
}

#[pyfunction]
#[pyo3(signature = (scenario_path=None, scenario_json=None, board_path=None, board_json=None, threads=2, time_limit=None))]
fn compare(
    py: Python<'_>,
    scenario_path: Option<PathBuf>,
    scenario_json: Option<String>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (scenario, file) = match (scenario_path, scenario_json) {
        (Some(p), _) => (Scenario::load(&p), p.display().to_string()),
        (None, Some(text)) => (
            Scenario::from_json(&text, "the scenario dict"),
            "the scenario dict".to_string(),
        ),
        (None, None) => return Err(PyValueError::new_err("no scenario given")),
    };
    let scenario = scenario.map_err(bad_input)?;
    let (base, text) = board_with_text(board_path, board_json)?;
    let variant = scenario.apply(&text, &file).map_err(bad_input)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let c = compare_within(&base, &variant, threads, limits, &|_, _| {}).map_err(failed)?;
        json(&c)
    })
}

/// `simulate`'s report with every seat of every game, for a data frame.
#[derive(Serialize)]
struct Simulated<'a> {
    #[serde(flatten)]
    report: SimulateReport,
    seats: Vec<&'a ttr_opt::leagues::simulate::Seat>,
    /// The first games reviewed, with `review=N`.
    #[serde(skip_serializing_if = "Option::is_none")]
    reviews: Option<Vec<ttr_opt::plans::review::Review>>,
}

#[pyfunction]
#[pyo3(signature = (players, games=1000, seed=1, optimum=None, board_path=None, board_json=None, threads=2, time_limit=None, review=None))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    players: Vec<String>,
    games: i64,
    seed: u64,
    optimum: Option<u32>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    threads: i64,
    time_limit: Option<f64>,
    review: Option<i64>,
) -> PyResult<String> {
    let b = board(board_path, board_json)?;
    let review = review
        .map(|n| in_range("review", n, 1, 10_000))
        .transpose()?;
    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    check_players(&names).map_err(bad_input)?;
    let games = in_range("games", games, 1, 1_000_000)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let optimum = match optimum {
            Some(o) => o,
            None => single_player_optimum(&b, limits).map_err(failed)?,
        };
        let started = Instant::now();
        let played = worker_pool(threads)
            .map_err(failed)?
            .install(|| play_games(&b, &names, &SimulateOptions::games(games, seed)))
            .map_err(failed)?;
        if played.is_empty() {
            return Err(failed("time limit: not a single game was finished"));
        }
        let seconds = started.elapsed().as_secs_f64();
        let reviews = match review {
            Some(n) => {
                let games = &played[..(n as usize).min(played.len())];
                let pool = worker_pool(threads).map_err(failed)?;
                Some(
                    pool.install(|| review_games(&b, games, limits, &|| {}))
                        .map_err(failed)?,
                )
            }
            None => None,
        };
        json(&Simulated {
            report: SimulateReport::new(&b, &names, seed, optimum, seconds, &played, None),
            seats: played.iter().flat_map(|p| &p.seats).collect(),
            reviews,
        })
    })
}

#[pyfunction]
#[pyo3(signature = (game_path, solve_limit=10.0, time_limit=None))]
fn review(
    py: Python<'_>,
    game_path: PathBuf,
    solve_limit: f64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, _, saved) = SavedGame::load(&game_path).map_err(bad_input)?;
    if !(solve_limit.is_finite() && solve_limit > 0.0) {
        return Err(PyValueError::new_err(format!(
            "solve_limit: expected seconds above 0, got {solve_limit}"
        )));
    }
    run(py, time_limit, |limits| {
        let options = ReviewOptions {
            time_limit: solve_limit,
            limits: limits.clone(),
            ..ReviewOptions::default()
        };
        let r = review_saved(&b, &saved, &options).map_err(failed)?;
        let mut value = serde_json::to_value(&r).map_err(failed)?;
        // Every turn of every player, flat: the CSV's rows.
        value["turns"] = serde_json::to_value(r.rows(0)).map_err(failed)?;
        json(&value)
    })
}

/// A deal's options from a call's arguments.
fn deal_options(
    b: &Board,
    cars: Option<i64>,
    hand: i64,
    long: i64,
    keep: i64,
    sample: Option<i64>,
    seed: u64,
) -> PyResult<DealOptions> {
    let cars = budget("cars", cars.unwrap_or(b.cars as i64))?;
    let hand = in_range("hand", hand, 1, 8)? as usize;
    let keep = in_range("keep", keep, 1, hand as u64)? as usize;
    let long = in_range("long", long, 0, hand as u64)? as usize;
    let sample = sample
        .map(|n| in_range("sample", n, 1, ttr_opt::plans::deals::MAX_HANDS as u64))
        .transpose()?;
    Ok(DealOptions {
        cars,
        hand,
        long,
        keep,
        sample: sample.map(|n| (n as usize, seed)),
    })
}

/// The deal report with every hand (the JSON of the command line leaves
/// them to the CSV).
#[derive(Serialize)]
struct Dealt<'a> {
    #[serde(flatten)]
    report: &'a DealReport,
    hands: &'a [ttr_opt::plans::deals::HandRow],
}

#[pyfunction]
#[pyo3(signature = (cars=None, hand=3, keep=2, long=0, sample=None, seed=1, board_path=None, board_json=None, threads=2, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn deals(
    py: Python<'_>,
    cars: Option<i64>,
    hand: i64,
    keep: i64,
    long: i64,
    sample: Option<i64>,
    seed: u64,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let b = board(board_path, board_json)?;
    let options = deal_options(&b, cars, hand, long, keep, sample, seed)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let report = worker_pool(threads)
            .map_err(failed)?
            .install(|| ttr_opt::plans::deals::deals_within(&b, &options, limits, &|| {}))
            .map_err(failed)?;
        json(&Dealt {
            report: &report,
            hands: &report.hands,
        })
    })
}

/// A deal's arguments as `ttr_opt.distributed` hands them to each task:
/// one JSON object with `deals`'s keyword arguments.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DealArgs {
    cars: Option<i64>,
    hand: i64,
    keep: i64,
    long: i64,
    sample: Option<i64>,
    seed: u64,
}

/// The board and options of a distributed deal's call.
fn deal_of(
    deal_json: &str,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
) -> PyResult<(Board, DealOptions, Vec<Vec<usize>>)> {
    let b = board(board_path, board_json)?;
    let a: DealArgs = serde_json::from_str(deal_json).map_err(bad_input)?;
    let options = deal_options(&b, a.cars, a.hand, a.long, a.keep, a.sample, a.seed)?;
    let hands = deal_hands(&b, &options).map_err(bad_input)?;
    Ok((b, options, hands))
}

#[pyfunction]
#[pyo3(signature = (deal_json, board_path=None, board_json=None))]
fn deal_count(
    deal_json: &str,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
) -> PyResult<usize> {
    Ok(deal_of(deal_json, board_path, board_json)?.2.len())
}

#[pyfunction]
#[pyo3(signature = (deal_json, start, end, board_path=None, board_json=None, threads=2, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn deal_chunk(
    py: Python<'_>,
    deal_json: &str,
    start: usize,
    end: usize,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, options, hands) = deal_of(deal_json, board_path, board_json)?;
    let threads = self::threads(threads)?;
    if start > end || end > hands.len() {
        return Err(PyValueError::new_err(format!(
            "hands {start}..{end}: the deal has {} hands",
            hands.len()
        )));
    }
    run(py, time_limit, |limits| {
        let values = worker_pool(threads)
            .map_err(failed)?
            .install(|| value_hands_within(&b, &options, &hands[start..end], limits, &|| {}))
            .map_err(failed)?;
        json(&values)
    })
}

#[pyfunction]
#[pyo3(signature = (deal_json, values_json, seconds, board_path=None, board_json=None))]
fn deal_merge(
    deal_json: &str,
    values_json: &str,
    seconds: f64,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
) -> PyResult<String> {
    let (b, options, hands) = deal_of(deal_json, board_path, board_json)?;
    let values: Vec<HandValue> = serde_json::from_str(values_json).map_err(bad_input)?;
    if values.len() != hands.len() {
        return Err(PyValueError::new_err(format!(
            "{} hand values for a deal of {} hands",
            values.len(),
            hands.len()
        )));
    }
    let report = deal_report(&b, &options, &hands, &values, seconds);
    json(&Dealt {
        report: &report,
        hands: &report.hands,
    })
}

#[pyfunction]
#[pyo3(signature = (players, first, games, seed=1, board_path=None, board_json=None, threads=2, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn simulate_chunk(
    py: Python<'_>,
    players: Vec<String>,
    first: u64,
    games: i64,
    seed: u64,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let b = board(board_path, board_json)?;
    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    check_players(&names).map_err(bad_input)?;
    let games = in_range("games", games, 1, 1_000_000)?;
    let threads = self::threads(threads)?;
    run(py, time_limit, |limits| {
        let played = worker_pool(threads)
            .map_err(failed)?
            .install(|| {
                let options = SimulateOptions {
                    games: first..first + games,
                    seed,
                    limits: limits.clone(),
                    progress: &|| {},
                };
                play_games(&b, &names, &options)
            })
            .map_err(failed)?;
        json(&played.iter().map(GameRecord::of).collect::<Vec<_>>())
    })
}

#[pyfunction]
#[pyo3(signature = (players, records_json, seconds, optimum, seed=1, board_path=None, board_json=None))]
#[allow(clippy::too_many_arguments)]
fn simulate_merge(
    players: Vec<String>,
    records_json: &str,
    seconds: f64,
    optimum: u32,
    seed: u64,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
) -> PyResult<String> {
    let b = board(board_path, board_json)?;
    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    check_players(&names).map_err(bad_input)?;
    let records: Vec<GameRecord> = serde_json::from_str(records_json).map_err(bad_input)?;
    let played: Vec<Played> = records
        .into_iter()
        .map(|r| r.played(&b))
        .collect::<Result<_, _>>()
        .map_err(bad_input)?;
    if played.is_empty() {
        return Err(PyValueError::new_err("no games to merge"));
    }
    json(&Simulated {
        report: SimulateReport::new(&b, &names, seed, optimum, seconds, &played, None),
        seats: played.iter().flat_map(|p| &p.seats).collect(),
        reviews: None,
    })
}

/// The card names a tunnel's cards are given by, for errors.
const CARD_NAMES: &str = "red, orange, yellow, green, blue, pink, white, black or locomotive";

/// A `ValueError` naming the entry: `hand["green"]: ...`.
fn bad_entry(entry: impl std::fmt::Display, problem: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{entry}: {problem}"))
}

/// A Python value as its `repr`, for errors.
fn shown(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string())
}

/// A card by its name in the board format, or a `ValueError` naming
/// `entry`.
fn card_of(entry: &str, name: &Bound<'_, PyAny>) -> PyResult<Card> {
    name.extract::<String>()
        .ok()
        .and_then(|n| card_named(&n))
        .ok_or_else(|| {
            bad_entry(
                entry,
                format!("unknown colour {}: expected {CARD_NAMES}", shown(name)),
            )
        })
}

/// Cards given as a dict {colour: count}, counted by [`Card::index`];
/// `what` names the argument in errors.
fn cards_of(what: &str, value: &Bound<'_, PyAny>) -> PyResult<Hand> {
    let dict = value.cast::<PyDict>().map_err(|_| {
        bad_entry(
            what,
            format!("expected a dict {{colour: count}}, got {}", shown(value)),
        )
    })?;
    let mut hand = [0u32; 9];
    for (key, count) in dict.iter() {
        let entry = format!("{what}[{}]", shown(&key));
        let card = card_of(&entry, &key)?;
        let n = count
            .extract::<i64>()
            .ok()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                bad_entry(
                    &entry,
                    format!(
                        "expected a whole number of cards, 0 or more, got {}",
                        shown(&count)
                    ),
                )
            })?;
        let slot = &mut hand[card.index()];
        *slot = slot
            .checked_add(n)
            .ok_or_else(|| bad_entry(&entry, "too many cards"))?;
    }
    Ok(hand)
}

/// Cards as a dict {colour: count} without the zero counts, colours in
/// [`COLOURS`] order and locomotives last.
fn cards_dict<'py>(py: Python<'py>, hand: &Hand) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let cards = COLOURS
        .iter()
        .map(|&c| Card::Train(c))
        .chain([Card::Locomotive]);
    for card in cards {
        let n = hand[card.index()];
        if n > 0 {
            dict.set_item(card_name(card), n)?;
        }
    }
    Ok(dict)
}

/// A tunnel's extra cards: how many the turned cards `drawn` ask for after
/// the `initial` payment from `hand`, and every way to pay them, as Python
/// objects (no solve: nothing to release the GIL for).
#[pyfunction]
fn possible_additional_cards<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    initial: &Bound<'py, PyAny>,
    drawn: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let held = cards_of("hand", hand)?;
    let paid = cards_of("initial", initial)?;
    let expected = format!("expected a list of {TURNED} colour names");
    if drawn.is_instance_of::<PyString>() {
        return Err(bad_entry(
            "drawn",
            format!("{expected}, got {}", shown(drawn)),
        ));
    }
    let items = drawn
        .try_iter()
        .map_err(|_| bad_entry("drawn", format!("{expected}, got {}", shown(drawn))))?;
    let mut turned = Vec::new();
    for (i, item) in items.enumerate() {
        turned.push(card_of(&format!("drawn[{i}]"), &item?)?);
    }
    let answer = tunnel_options(&held, &paid, &turned).map_err(|e| match e {
        TunnelError::Turned(n) => bad_entry("drawn", format!("expected {TURNED} cards, got {n}")),
        TunnelError::NotInHand { card, paid, held } => bad_entry(
            format!("initial['{}']", card_name(card)),
            format!("{paid} paid, but the hand holds {held}"),
        ),
        e => bad_entry("initial", e),
    })?;
    let options = answer
        .options
        .iter()
        .map(|o| cards_dict(py, o))
        .collect::<PyResult<Vec<_>>>()?;
    let result = PyDict::new(py);
    result.set_item("required", answer.required)?;
    result.set_item("options", PyList::new(py, options)?)?;
    Ok(result)
}

/// `tune`'s answer with each revision's scenario (the `compare` format),
/// for `compare` to read back.
#[derive(Serialize)]
struct Tuned {
    #[serde(flatten)]
    tuning: Tuning,
    scenarios: Vec<serde_json::Value>,
}

#[pyfunction]
#[pyo3(signature = (board_path=None, board_json=None, targets_path=None, targets_json=None, cars=None, budget_changes=4, keep=3, threads=2, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn tune(
    py: Python<'_>,
    board_path: Option<PathBuf>,
    board_json: Option<String>,
    targets_path: Option<PathBuf>,
    targets_json: Option<String>,
    cars: Option<i64>,
    budget_changes: i64,
    keep: i64,
    threads: i64,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let (b, text) = board_with_text(board_path, board_json)?;
    let (defaults, _) = TuneOptions::for_board(&b, &text);
    let targets = match (targets_path, targets_json) {
        (Some(p), _) => {
            let t = Targets::load(&p).map_err(bad_input)?;
            t.check_names(&b, &p.display().to_string())
                .map_err(bad_input)?;
            t
        }
        (None, Some(json)) => {
            let t = Targets::from_json(&json, "the targets dict").map_err(bad_input)?;
            t.check_names(&b, "the targets dict").map_err(bad_input)?;
            t
        }
        (None, None) => Targets::default(),
    };
    let options = TuneOptions {
        cars: budget("cars", cars.unwrap_or(b.cars as i64))?,
        targets,
        budget_changes: in_range("budget_changes", budget_changes, 1, 10)? as usize,
        keep: in_range("keep", keep, 1, 20)? as usize,
        threads: self::threads(threads)?,
        ..defaults
    };
    run(py, time_limit, |limits| {
        let tuning = tune_board(&b, &text, &options, limits, &|_| {}).map_err(failed)?;
        let scenarios = tuning
            .revisions
            .iter()
            .map(|r| {
                r.scenario_json(&format!(
                    "Proposed by ttr_opt.tune on {} at {} cars: {} of {} targets' misses left.",
                    b.name, tuning.cars, r.misses, tuning.base.misses
                ))
            })
            .collect();
        json(&Tuned { tuning, scenarios })
    })
}

/// The native module; `ttr_opt` (Python) wraps it.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sensitivity_json, m)?)?;
    m.add_function(wrap_pyfunction!(breakeven, m)?)?;
    m.add_function(wrap_pyfunction!(optima, m)?)?;
    m.add_function(wrap_pyfunction!(replan, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(deals, m)?)?;
    m.add_function(wrap_pyfunction!(deal_count, m)?)?;
    m.add_function(wrap_pyfunction!(deal_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(deal_merge, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_merge, m)?)?;
    m.add_function(wrap_pyfunction!(possible_additional_cards, m)?)?;
    m.add_function(wrap_pyfunction!(tune, m)?)?;
    Ok(())
}
