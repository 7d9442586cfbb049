//! Sensitivity on a board small enough to derive by hand.

mod common;

use ttr_opt::analysis::{frequency, sensitivity};
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
    let s = sensitivity(&b, 3, 2).unwrap();
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
