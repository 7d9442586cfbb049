//! Sensitivity on a board small enough to derive by hand.

use crate::common;

use ttr_opt::analysis::{frequency, sensitivity, AnalysisOptions};
use ttr_opt::board::{RouteId, TicketId};
use ttr_opt::model::Plan;

#[test]
fn sensitivity_on_a_line() {
    // A–B–C–D, one car each; tickets A–D (10) and B–C (3); 3 cars.
    // Optimum: all three routes (3) + both tickets (13) = 16.
    let b = common::board(
        &["A", "B", "C", "D"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 1)],
        &[("A", "D", 10), ("B", "C", 3)],
    );
    let s = sensitivity(&b, 3, &AnalysisOptions::threads(2)).unwrap();
    assert_eq!(s.base.plan.score(), 16);
    let tickets: Vec<(&str, u32, i64)> = s
        .tickets
        .iter()
        .map(|i| (i.name.as_str(), i.optimum, i.change))
        .collect();
    // Without A–D: the line scores 3 + 3; without B–C: 3 + 10.
    assert_eq!(tickets, vec![("A – D", 6, -10), ("B – C", 13, -3)]);
    let routes: Vec<(&str, u32, i64)> = s
        .routes
        .iter()
        .map(|i| (i.name.as_str(), i.optimum, i.change))
        .collect();
    // B–C blocked: A–B and C–D only, 2 points. A–B or C–D blocked: the
    // other two routes and the B–C ticket, 2 + 3.
    assert_eq!(
        routes,
        vec![("B – C", 2, -14), ("A – B", 5, -11), ("C – D", 5, -11)]
    );
}

#[test]
fn frequency_counts_plans_and_sorts_ties_in_board_order() {
    let b = common::board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 2), ("A", "C", 3)],
        &[("A", "C", 5), ("A", "B", 2)],
    );
    let plan = |routes: &[usize], tickets: &[usize]| Plan {
        routes: routes.iter().map(|&r| RouteId(r)).collect(),
        tickets: tickets.iter().map(|&t| TicketId(t)).collect(),
        cars_used: 0,
        route_points: 0,
        ticket_points: 0,
    };
    let plans = [plan(&[0], &[1]), plan(&[0, 1], &[0, 1]), plan(&[2], &[0])];
    let f = frequency(&b, &plans);
    assert_eq!(f.plans, 3);
    let rows = |c: &[ttr_opt::analysis::Chosen]| -> Vec<(String, usize)> {
        c.iter().map(|c| (c.name.clone(), c.count)).collect()
    };
    assert_eq!(
        rows(&f.routes),
        vec![
            ("A – B".to_string(), 2),
            ("B – C".to_string(), 1),
            ("A – C".to_string(), 1)
        ]
    );
    assert_eq!(
        rows(&f.tickets),
        vec![("A – C".to_string(), 2), ("A – B".to_string(), 2)]
    );
    assert!((f.routes[0].share - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(f.routes[2].length, Some(3));
}

#[test]
fn break_even_values_derived_by_hand() {
    use ttr_opt::analysis::{break_even, Membership};
    // A–B and B–C (1 car, 1 point each), C–D and A–D (2 cars, 2 points);
    // tickets A–C (4) and B–D (2); 3 cars. Plans: {A–B, B–C} 2 + 4 = 6;
    // {A–B, A–D} and {B–C, C–D} 3 + 2 = 5. The optimum, 6, is unique.
    let b = common::board(
        &["A", "B", "C", "D"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 2), ("A", "D", 2)],
        &[("A", "C", 4), ("B", "D", 2)],
    );
    let r = break_even(&b, 3, &AnalysisOptions::threads(2)).unwrap();
    assert_eq!(r.optimum, 6);
    let ac = &r.tickets[0];
    let bd = &r.tickets[1];
    // A–C is in every optimum; without it the best is 5, so at 4 − 1 = 3
    // points {A–B, B–C} (2 + 3) ties with the others (5).
    assert_eq!(ac.membership, Membership::Every);
    assert_eq!((ac.best_with, ac.best_without), (Some(6), 5));
    assert_eq!(ac.lower_by, Some(1));
    // B–D is in no optimum; the best plan completing it scores 5, so one
    // more point (3) makes it tie.
    assert_eq!(bd.membership, Membership::None);
    assert_eq!((bd.best_with, bd.best_without), (Some(5), 6));
    assert_eq!(bd.raise_by, Some(1));
    // Blocking either route of the optimum costs 1 point.
    let changes: Vec<i64> = r.routes.iter().map(|i| i.change).collect();
    assert_eq!(changes, vec![-1, -1]);
}

#[test]
fn two_tickets_between_the_same_cities_each_keep_their_own_values() {
    use ttr_opt::analysis::break_even;
    // A–B (1 car, 1 point); two tickets A–B worth 1 and 2; 1 car. The
    // plan {A–B} scores 1 + 1 + 2 = 4. Without the 1-point ticket the best
    // is 3, without the 2-point one 2: the rows must not mix up the two
    // tickets, which share a label (found by the property test in CI).
    let b = common::board(
        &["A", "B"],
        &[("A", "B", 1)],
        &[("A", "B", 1), ("A", "B", 2)],
    );
    let r = break_even(&b, 1, &AnalysisOptions::threads(2)).unwrap();
    assert_eq!(r.optimum, 4);
    let rows: Vec<_> = r
        .tickets
        .iter()
        .map(|t| (t.points, t.best_with, t.best_without))
        .collect();
    assert_eq!(rows, vec![(1, Some(4), 3), (2, Some(4), 2)]);
}

#[test]
fn a_ticket_completed_even_when_worthless_never_drops_out() {
    use ttr_opt::analysis::{break_even, Membership};
    // A–B–C in a line, 1 car each; ticket A–C (5); 2 cars: both routes are
    // worth claiming for their points alone, so the ticket stays in at 0.
    let b = common::board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "C", 5)],
    );
    let r = break_even(&b, 2, &AnalysisOptions::threads(1)).unwrap();
    assert_eq!(r.tickets[0].membership, Membership::Every);
    assert_eq!(r.tickets[0].lower_by, None);
}

#[test]
fn balance_report_on_a_line_matches_hand_derived_values() {
    // A–B 1 car (1 point), B–C 2 cars (2), C–D 3 cars (4); tickets A–C 5
    // (3 cars) and B–D 4 (5 cars).
    let mut b = common::board(
        &["A", "B", "C", "D"],
        &[("A", "B", 1), ("B", "C", 2), ("C", "D", 3)],
        &[("A", "C", 5), ("B", "D", 4)],
    );
    b.cars = 6;
    let (report, _) = ttr_opt::analysis::balance::balance(
        &b,
        6,
        &ttr_opt::analysis::balance::BalanceOptions::threads(1),
    )
    .unwrap();
    // 1: A–B. 2: B–C. 3: A–B–C 1 + 2 + 5. 4: still 8. 5: B–C–D 2 + 4 + 4.
    // 6: everything, 7 + 9.
    let curve: Vec<(u32, i64)> = report.curve.iter().map(|p| (p.score, p.marginal)).collect();
    assert_eq!(
        curve,
        vec![(1, 1), (2, 1), (8, 6), (8, 0), (10, 2), (16, 6)]
    );
    assert_eq!(report.optimum, 16);
    // Rates 5/3 and 4/5; the median (upper) is 5/3; B–D's fair value for
    // 5 cars is 8.33, rounded 8.
    assert!((report.median_rate - 5.0 / 3.0).abs() < 1e-9);
    let bd = report.tickets.iter().find(|t| t.name == "B – D").unwrap();
    assert_eq!((bd.cheapest_cars, bd.fair_points), (5, 8));
    // At 6 cars both tickets are in every optimum; A–C's routes pay for
    // themselves (all routes without it: 7 + 4 = 11 = 16 − 5), so it is
    // completed even at 0 points; it is in the plans of budgets 3, 4, 6.
    let ac = report.tickets.iter().find(|t| t.name == "A – C").unwrap();
    assert_eq!(ac.membership, Some(ttr_opt::analysis::Membership::Every));
    assert_eq!((ac.lower_by, ac.in_sweep_optima), (None, 3));
    let md = report.markdown(&[]);
    assert!(md.contains("An extra car adds nothing at 4 cars."), "{md}");
    assert!(md.contains("| 4 | 8 |"), "{md}");
}

#[test]
fn progress_hears_every_solve_with_the_right_total() {
    use std::sync::Mutex;
    let b = common::ring();
    let heard: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let progress = |step: ttr_opt::analysis::Step| {
        heard
            .lock()
            .unwrap()
            .push((step.total, step.what.to_string()))
    };
    let options = AnalysisOptions {
        progress: &progress,
        ..AnalysisOptions::threads(2)
    };
    let r = ttr_opt::analysis::break_even(&b, 9, &options).unwrap();
    let heard = heard.into_inner().unwrap();
    // The optimum, each ticket and route of its plan without it, and one
    // forced solve per ticket the plan does not complete.
    let s = ttr_opt::analysis::sensitivity(&b, 9, &AnalysisOptions::threads(1)).unwrap();
    let forced = b.cards.len() - s.base.plan.tickets.len();
    let total = 1 + s.base.plan.tickets.len() + s.base.plan.routes.len() + forced;
    assert_eq!(heard.len(), total, "{heard:?}");
    assert!(heard.iter().all(|(t, _)| *t == total), "{heard:?}");
    assert_eq!(
        heard[0].1,
        format!("optimum of 9 cars: {} points", r.optimum)
    );
}

#[test]
fn break_even_from_a_sweeps_optimum_agrees_with_solving_it_again() {
    use ttr_opt::analysis::{blocked, break_even};
    use ttr_opt::solve::{solve_proven, SolveOptions};
    // The balance report hands the sweep's optimum to the break-even
    // analysis instead of solving it again: the tickets' rows do not
    // depend on which optimal plan it is, and every route row is the
    // optimum with that route blocked, solved apart.
    let b = ttr_opt::board::Board::usa();
    let cars = 14;
    let sweep = ttr_opt::solve::sweep::sweep_proven(&b, 1, cars, 2, &|_| {}).unwrap();
    let base = sweep
        .iter()
        .find(|e| e.cars == cars)
        .unwrap()
        .outcome
        .clone();
    let given = break_even(&b, cars, &from(&base)).unwrap();
    let solved = break_even(&b, cars, &AnalysisOptions::threads(2)).unwrap();
    assert_eq!(given.optimum, base.plan.score());
    assert_eq!(given.optimum, solved.optimum);
    let rows = |r: &ttr_opt::analysis::Balance| {
        r.tickets
            .iter()
            .map(|t| format!("{t:?}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&given), rows(&solved));
    assert_eq!(given.routes.len(), base.plan.routes.len());
    for row in &given.routes {
        let route = b
            .route_ids()
            .find(|&x| b.route_label(x) == row.name && base.plan.routes.contains(&x))
            .unwrap();
        let alone = solve_proven(&blocked(&b, cars, route), &SolveOptions::default(), || {
            "proven".to_string()
        })
        .unwrap();
        assert_eq!(row.optimum, alone.plan.score(), "{}", row.name);
        assert_eq!(row.change, alone.plan.score() as i64 - given.optimum as i64);
    }
}

#[test]
fn standings_agree_with_the_break_even_within_their_reach() {
    use ttr_opt::analysis::{break_even, standings_within};
    use ttr_opt::model::Instance;
    use ttr_opt::solve::limits::Limits;
    use ttr_opt::solve::{solve_proven, Produced, SolveOptions};
    // `tune` measures a board by the tickets' standings: the memberships
    // of the break-even's rows, and its values only within a reach. At 45
    // cars on the USA board the branch and cut proves the optimum, so one
    // family search asks every question, and the rows it leaves more than
    // the reach away are settled by it, not solved.
    let b = ttr_opt::board::Board::usa();
    let cars = 45;
    let base = solve_proven(&Instance::new(&b, cars), &SolveOptions::default(), || {
        "proven".to_string()
    })
    .unwrap();
    assert_eq!(base.method, Produced::Forest);
    let rows = break_even(&b, cars, &from(&base)).unwrap();
    let reach = 4;
    let standings = standings_within(&b, cars, 2, base, reach, &Limits::none()).unwrap();
    assert_eq!(standings.len(), b.cards.len());
    let mut beyond = 0;
    for (row, s) in rows.tickets.iter().zip(&standings) {
        assert_eq!(row.card, s.card);
        assert_eq!(row.membership, s.membership, "{}", row.name);
        for (exact, within, what) in [
            (row.raise_by, s.raise_by, "raise_by"),
            (row.lower_by, s.lower_by, "lower_by"),
        ] {
            match exact {
                Some(v) if v <= reach => assert_eq!(within, Some(v), "{} {what}", row.name),
                _ => {
                    beyond += usize::from(exact.is_some());
                    assert_eq!(within, None, "{} {what}", row.name);
                }
            }
        }
    }
    assert!(
        beyond > 0,
        "no row lies beyond the reach: nothing was settled"
    );
}

/// The analyses' options from a proven optimum, on two threads.
fn from(base: &ttr_opt::solve::Outcome) -> AnalysisOptions<'static> {
    AnalysisOptions {
        base: Some(base.clone()),
        ..AnalysisOptions::threads(2)
    }
}
