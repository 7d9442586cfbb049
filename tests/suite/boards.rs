//! Every shipped board through every analysis, at small budgets: the
//! commands run on any board in the documented format, and their answers
//! agree with one another.

use crate::common;

use ttr_opt::solve::Method;

const BOARDS: [&str; 6] = [
    "usa.json",
    "usa-1910.json",
    "usa-mega.json",
    "usa-big-cities.json",
    "europe.json",
    "switzerland.json",
];

use common::shipped;

#[test]
fn every_board_runs_every_analysis() {
    const CARS: u32 = 8;
    for file in BOARDS {
        let mut board = shipped(file);
        board.cars = CARS;
        // Two exact methods agree (each answer re-checked by union-find in
        // `solve_with`).
        let optimum = common::optimum(&board, CARS, Method::Frontier);
        assert_eq!(
            common::optimum(&board, CARS, Method::Forest),
            optimum,
            "{file}"
        );

        let entries = ttr_opt::solve::sweep::sweep(&board, 1, CARS, 2, &|_| {}).unwrap();
        assert_eq!(
            entries.last().unwrap().outcome.plan.score(),
            optimum,
            "{file}"
        );
        assert!(entries
            .windows(2)
            .all(|w| w[0].outcome.plan.score() <= w[1].outcome.plan.score()));

        let optima = ttr_opt::analysis::optima::all_optima(
            &board,
            CARS,
            &ttr_opt::analysis::optima::OptimaOptions::max(5),
        )
        .unwrap();
        assert_eq!(optima.score, optimum, "{file}");
        assert!(optima.count >= 1 && !optima.plans.is_empty(), "{file}");

        let balance = ttr_opt::analysis::break_even(
            &board,
            CARS,
            &ttr_opt::analysis::AnalysisOptions::threads(2),
        )
        .unwrap();
        assert_eq!(balance.optimum, optimum);
        assert_eq!(
            balance.tickets.len(),
            board.cards.len(),
            "{file}: one row per printed ticket"
        );
        for t in &balance.tickets {
            // Out of the game or not, the optimum cannot rise.
            assert!(
                t.best_without <= optimum && t.best_with.is_none_or(|w| w <= optimum),
                "{file} {}",
                t.name
            );
        }

        let (report, _) = ttr_opt::analysis::balance::balance(
            &board,
            CARS,
            &ttr_opt::analysis::balance::BalanceOptions::threads(2),
        )
        .unwrap();
        assert_eq!(report.optimum, optimum, "{file}");
        assert!(report.markdown(&[]).contains("## Routes"));

        // The variant without the optimum's first ticket scores no more.
        let variant = {
            let mut v = board.clone();
            if let Some(&t) = entries.last().unwrap().outcome.plan.tickets.first() {
                v.tickets[t.0].points = 1;
            }
            v
        };
        let c = ttr_opt::analysis::scenario::compare(&board, &variant, 2, &|_, _| {}).unwrap();
        assert!(c.rows.iter().all(|r| r.variant <= r.base), "{file}");

        let games = ttr_opt::leagues::simulate::simulate(
            &board,
            &["greedy", "random"],
            &ttr_opt::leagues::simulate::SimulateOptions::games(2, 1),
        )
        .unwrap();
        assert_eq!(games.len(), 2, "{file}");
    }
}
