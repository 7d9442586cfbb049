//! Optimal scores on hand-made boards whose answer is derived by hand, and
//! on the USA board against the paper; every plan is re-checked by the
//! union-find verifier (see `common::solve_with`).

use crate::common;

use common::{board, brute_force, optimum, solve_with};
use ttr_opt::solve::Method;

use common::METHODS;

#[test]
fn ticket_needing_a_multi_route_path() {
    // A–B–C–D, one car each; the ticket A–D is worth 10.
    let b = board(
        &["A", "B", "C", "D"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 1)],
        &[("A", "D", 10)],
    );
    for m in METHODS {
        // 3 cars: the whole line, 3 route points + 10.
        let o = solve_with(&b, 3, m);
        assert_eq!(o.plan.score(), 13, "{m:?}");
        assert_eq!(o.plan.tickets.len(), 1);
        // 2 cars cannot reach D: two routes, 2 points.
        assert_eq!(optimum(&b, 2, m), 2, "{m:?}");
    }
}

#[test]
fn pure_knapsack() {
    // A star of independent routes of lengths 1..6 and no tickets.
    let b = board(
        &["H", "A", "B", "C", "D", "E", "F"],
        &[
            ("H", "A", 1),
            ("H", "B", 2),
            ("H", "C", 3),
            ("H", "D", 4),
            ("H", "E", 5),
            ("H", "F", 6),
        ],
        &[],
    );
    for m in METHODS {
        assert_eq!(optimum(&b, 10, m), 22, "6+4 cars: 15+7 points ({m:?})");
        assert_eq!(optimum(&b, 7, m), 16, "6+1 cars: 15+1 points ({m:?})");
    }
}

#[test]
fn ticket_not_worth_its_cars() {
    // Four one-car routes to complete a 2-point ticket (4+2 = 6 points)
    // lose to one 4-car route elsewhere (7 points).
    let b = board(
        &["A", "B", "C", "D", "E", "X", "Y"],
        &[
            ("A", "B", 1),
            ("B", "C", 1),
            ("C", "D", 1),
            ("D", "E", 1),
            ("X", "Y", 4),
        ],
        &[("A", "E", 2)],
    );
    for m in METHODS {
        let o = solve_with(&b, 4, m);
        assert_eq!(o.plan.score(), 7, "{m:?}");
        assert!(o.plan.tickets.is_empty(), "{m:?}");
    }
}

#[test]
fn budget_zero_scores_nothing() {
    let b = board(&["A", "B"], &[("A", "B", 1)], &[]);
    for m in METHODS {
        let o = solve_with(&b, 0, m);
        assert_eq!(o.plan.score(), 0);
        assert!(o.plan.routes.is_empty());
    }
}

#[test]
fn budget_above_total_length_takes_everything() {
    let b = board(
        &["A", "B", "C", "D"],
        &[("A", "B", 2), ("B", "C", 3), ("C", "A", 1), ("C", "D", 4)],
        &[("A", "D", 8), ("B", "D", 5)],
    );
    for m in METHODS {
        let o = solve_with(&b, 100, m);
        assert_eq!(o.plan.routes.len(), 4, "{m:?}");
        assert_eq!(o.plan.score(), 2 + 4 + 1 + 7 + 8 + 5, "{m:?}");
        assert_eq!(o.plan.cars_used, 10);
    }
}

#[test]
fn two_separate_components_beat_any_single_tree() {
    // Two cheap tickets far apart: the optimum is a forest of two paths.
    let b = board(
        &["A", "B", "C", "D", "E", "F"],
        &[
            ("A", "B", 1),
            ("B", "C", 1),
            ("C", "D", 6),
            ("D", "E", 1),
            ("E", "F", 1),
        ],
        &[("A", "C", 5), ("D", "F", 5)],
    );
    for m in METHODS {
        let o = solve_with(&b, 4, m);
        assert_eq!(o.plan.score(), 4 + 10, "{m:?}");
        assert_eq!(o.plan.tickets.len(), 2, "{m:?}");
    }
}

#[test]
fn methods_agree_with_brute_force_on_small_boards() {
    let b = common::ring();
    for cars in [0, 1, 3, 5, 7, 9, 12, 16, 40] {
        let expected = brute_force(&b, cars);
        for m in METHODS {
            assert_eq!(optimum(&b, cars, m), expected, "{cars} cars, {m:?}");
        }
    }
}

#[test]
fn usa_45_cars_is_285() {
    let b = common::usa();
    for m in [Method::Auto, Method::Frontier] {
        let o = solve_with(&b, 45, m);
        assert_eq!(o.plan.score(), 285, "{m:?}");
        assert_eq!(o.plan.ticket_points, 223, "{m:?}");
        assert_eq!(o.plan.route_points, 62, "{m:?}");
        assert_eq!(o.plan.cars_used, 45, "{m:?}");
    }
}

#[test]
fn usa_methods_agree() {
    let b = common::usa();
    for cars in [3, 6, 8] {
        let expected = optimum(&b, cars, Method::Paper);
        for m in [Method::Frontier, Method::Forest, Method::Auto] {
            assert_eq!(optimum(&b, cars, m), expected, "{cars} cars, {m:?}");
        }
    }
    // Where the two fast methods are at their slowest.
    assert_eq!(
        optimum(&b, 40, Method::Forest),
        optimum(&b, 40, Method::Frontier)
    );
}

#[test]
fn auto_picks_the_method_that_suits_the_budget() {
    let b = common::usa();
    assert_eq!(solve_with(&b, 20, Method::Auto).method, Method::Frontier);
    assert_eq!(solve_with(&b, 50, Method::Auto).method, Method::Forest);
}

#[test]
fn frontier_regression_found_by_proptest() {
    let b = board(
        &["C0", "C1", "C2", "C3", "C4", "C5"],
        &[
            ("C0", "C1", 1),
            ("C1", "C2", 5),
            ("C2", "C3", 1),
            ("C3", "C4", 2),
            ("C4", "C5", 3),
            ("C0", "C4", 1),
            ("C4", "C1", 5),
        ],
        &[("C5", "C3", 1)],
    );
    for cars in [14, 18] {
        let expected = brute_force(&b, cars);
        for m in [Method::Frontier, Method::Forest] {
            assert_eq!(optimum(&b, cars, m), expected, "{cars} cars, {m:?}");
        }
    }
}

/// A watched solve is told each better plan on the way, with the bound at
/// that moment: every plan fits the budget and scores what the verifier
/// says, scores never fall, bounds never rise, and the optimum lies between
/// every plan told and its bound (one lane and two).
#[test]
fn a_watched_solve_is_told_better_plans_within_honest_bounds() {
    use std::sync::{Arc, Mutex};
    use ttr_opt::board::verify;
    use ttr_opt::model::Instance;
    use ttr_opt::solve::{solve, Glimpse, SolveOptions, Watch};

    let b = common::usa();
    // The paper's headline, which usa_45_cars_is_285 checks by two methods.
    let (cars, optimum) = (45, 285);
    for both_cores in [false, true] {
        let told: Arc<Mutex<Vec<Glimpse>>> = Arc::default();
        let seen = told.clone();
        let options = SolveOptions {
            method: Method::Forest,
            both_cores,
            watch: Some(Watch::new(move |g| seen.lock().unwrap().push(g.clone()))),
            ..SolveOptions::default()
        };
        let inst = Instance::new(&b, cars);
        let outcome = solve(&inst, &options).unwrap();
        assert!(outcome.proven);
        assert_eq!(outcome.plan.score(), optimum);
        let told = told.lock().unwrap();
        assert!(told.len() >= 2, "{both_cores}: told {} times", told.len());
        for g in told.iter() {
            let again = verify::evaluate(&b, &g.plan.routes, &inst.tickets_in_play);
            assert_eq!(again.score(), g.plan.score(), "{both_cores}");
            assert!(g.plan.cars_used <= cars, "{both_cores}");
            assert!(
                g.plan.score() <= optimum && optimum <= g.bound,
                "{both_cores}: {g:?}"
            );
        }
        for pair in told.windows(2) {
            assert!(pair[0].plan.score() <= pair[1].plan.score(), "{both_cores}");
            assert!(pair[0].bound >= pair[1].bound, "{both_cores}");
        }
    }
}

#[test]
fn a_projected_frontier_run_gives_up_before_its_tables_pass_the_memory() {
    use ttr_opt::solve::frontier::{Frontier, Goal};
    // The USA board's tables for 1–12 cars are widest in the middle of the
    // run: after some step, the layers stored so far take more per step
    // than the whole run's do on average.
    const CARS: u32 = 12;
    let b = ttr_opt::board::Board::usa();
    let routes: Vec<_> = b.route_ids().collect();
    let tickets: Vec<_> = b.ticket_ids().collect();
    let goal = |memory, projected| Goal {
        memory: Some(memory),
        projected,
        ..Goal::all(CARS)
    };
    let whole = Frontier::run(&b, &routes, &tickets, &Goal::all(CARS)).unwrap();
    let bytes = whole.table_bytes();
    // Enough for the whole run (the run counts its stored layers twice):
    // the plain run finishes with the same answers, the projected one
    // gives up at the peak of its average.
    let fits = Frontier::run(&b, &routes, &tickets, &goal(2 * bytes + 2, false)).unwrap();
    assert_eq!(fits.table_bytes(), bytes);
    assert!(Frontier::run(&b, &routes, &tickets, &goal(2 * bytes + 2, true)).is_none());
    // With room for what it projects, it finishes, with the same answers.
    let roomy = Frontier::run(&b, &routes, &tickets, &goal(8 * bytes, true)).unwrap();
    for cars in 0..=CARS {
        assert_eq!(roomy.best(cars), whole.best(cars), "{cars} cars");
    }
    // Short of the memory, both give up.
    assert!(Frontier::run(&b, &routes, &tickets, &goal(bytes, false)).is_none());
    assert!(Frontier::run(&b, &routes, &tickets, &goal(bytes, true)).is_none());
}
