//! Limits travel with each call (`solve::limits::Limits`): a deadline, a
//! memory budget or a cancelled token stops the call that carries it and
//! no other, and leaves nothing behind for the next call.

use ttr_opt::board::Board;
use ttr_opt::model::Instance;
use ttr_opt::solve::limits::{Cancel, Limits};
use ttr_opt::solve::{solve, Method, Outcome, SolveOptions, Status, Stop};

fn within(limits: Limits, method: Method) -> SolveOptions {
    SolveOptions {
        method,
        limits,
        ..SolveOptions::default()
    }
}

fn solve_usa(cars: u32, options: &SolveOptions) -> Outcome {
    let board = Board::usa();
    solve(&Instance::new(&board, cars), options).unwrap()
}

/// A deadline already passed (zero seconds) stops its own call before any
/// search; the call beside it, on another thread and without a limit,
/// proves the optimum.
#[test]
fn two_calls_at_once_each_keep_their_own_deadline() {
    let (stopped, proven) = std::thread::scope(|s| {
        let stopped = s.spawn(|| {
            let limits = Limits::none().with_time_limit(Some(0.0));
            solve_usa(45, &within(limits, Method::Auto))
        });
        let proven = s.spawn(|| solve_usa(45, &within(Limits::none(), Method::Auto)));
        (stopped.join().unwrap(), proven.join().unwrap())
    });
    assert_eq!(stopped.stop, Stop::TimeLimit);
    assert!(!stopped.proven);
    assert_eq!(stopped.status(), Status::TimeLimit);
    assert!(stopped.bound >= 285 && stopped.plan.score() <= 285);
    assert_eq!(proven.stop, Stop::Optimal);
    assert!(proven.proven);
    assert_eq!(proven.plan.score(), 285);
}

/// A cancelled token stops the calls holding it (every clone shares it),
/// and no other.
#[test]
fn a_cancelled_token_stops_its_call_only() {
    let cancel = Cancel::new();
    let limits = Limits::none().with_cancel(cancel.clone());
    cancel.cancel();
    let stopped = solve_usa(40, &within(limits, Method::Forest));
    assert_eq!(stopped.stop, Stop::Cancelled);
    assert!(!stopped.proven);
    let other = solve_usa(40, &within(Limits::none(), Method::Forest));
    assert_eq!(other.stop, Stop::Optimal);
    assert_eq!(other.plan.score(), 248);
}

/// A call whose deadline passed leaves nothing behind: the next call,
/// without a limit, proves the optimum (with the old process-wide
/// deadline it would have stopped too).
#[test]
fn a_later_call_without_a_limit_still_proves() {
    let limits = Limits::none().with_time_limit(Some(0.0));
    let first = solve_usa(30, &within(limits, Method::Auto));
    assert!(!first.proven);
    let later = solve_usa(30, &SolveOptions::default());
    assert!(later.proven);
    assert_eq!(later.stop, Stop::Optimal);
    assert_eq!(later.plan.score(), 146);
}

/// The memory budget is the call's too: the frontier programme asked for
/// within one byte stops with a memory stop, and with the branch and cut
/// behind it (`memory_fallback`) the same call proves the optimum.
#[test]
fn the_memory_budget_is_per_call() {
    let tiny = Limits::none().with_memory(Some(1));
    let stopped = solve_usa(20, &within(tiny.clone(), Method::Frontier));
    assert_eq!(stopped.stop, Stop::MemoryLimit);
    assert!(!stopped.proven);
    let fallback = SolveOptions {
        memory_fallback: Some(Method::Forest),
        ..within(tiny, Method::Frontier)
    };
    let proven = solve_usa(20, &fallback);
    assert!(proven.proven);
    assert_eq!(proven.plan.score(), 78);
    assert_eq!(proven.method, Method::Forest);
    let alone = solve_usa(20, &within(Limits::none(), Method::Frontier));
    assert_eq!(alone.plan.score(), 78);
    assert!(alone.proven);
}
