//! The independent verifier catches every kind of wrong claim.

use crate::common;

use ttr_opt::board::verify::{check, evaluate, Claim, StationPartition};
use ttr_opt::board::{RouteId, TicketId};

fn line() -> ttr_opt::board::Board {
    // A–B–C–D, one car each, E–F, and D–E; tickets A–C (5) and A–F (9).
    common::board(
        &["A", "B", "C", "D", "E", "F"],
        &[
            ("A", "B", 1),
            ("B", "C", 1),
            ("C", "D", 1),
            ("E", "F", 2),
            ("D", "E", 5),
        ],
        &[("A", "C", 5), ("A", "F", 9)],
    )
}

#[test]
fn station_partition_joins_exactly_the_linked_cities() {
    let b = line();
    let id = |n: &str| b.city_id(n).unwrap();
    let p = StationPartition::new(
        6,
        [(id("A"), id("B")), (id("C"), id("B")), (id("E"), id("F"))],
    );
    assert!(p.connected(id("A"), id("C")));
    assert!(p.connected(id("F"), id("E")));
    assert!(!p.connected(id("A"), id("D")));
    assert!(!p.connected(id("C"), id("E")));
}

#[test]
fn evaluation_counts_routes_and_completed_tickets() {
    let b = line();
    let all: Vec<TicketId> = b.ticket_ids().collect();
    let e = evaluate(&b, &[RouteId(0), RouteId(1), RouteId(3)], &all);
    assert_eq!((e.cars_used, e.route_points, e.ticket_points), (4, 4, 5));
    assert_eq!(e.completed, vec![TicketId(0)]);
}

#[test]
fn wrong_claims_are_rejected() {
    let b = line();
    let all: Vec<TicketId> = b.ticket_ids().collect();
    let routes = [RouteId(0), RouteId(1)];
    let claim = |completed: Vec<TicketId>, objective: f64, proven: bool| Claim {
        completed,
        objective,
        proven,
    };

    // The truth passes.
    assert!(check(&b, 2, &routes, &all, &claim(vec![TicketId(0)], 7.0, true)).is_ok());
    // A ticket the routes do not complete.
    assert!(check(
        &b,
        2,
        &routes,
        &all,
        &claim(vec![TicketId(0), TicketId(1)], 16.0, true)
    )
    .is_err());
    // More points than the routes are worth.
    assert!(check(&b, 2, &routes, &all, &claim(vec![TicketId(0)], 8.0, false)).is_err());
    // A proven optimum that under-counts.
    assert!(check(&b, 2, &routes, &all, &claim(vec![], 2.0, true)).is_err());
    // An unproven plan may under-count; the recomputed value is what counts.
    assert_eq!(
        check(&b, 2, &routes, &all, &claim(vec![], 2.0, false))
            .unwrap()
            .score(),
        7
    );
    // Over the budget.
    assert!(check(&b, 1, &routes, &all, &claim(vec![TicketId(0)], 7.0, true)).is_err());
    // The same route twice.
    assert!(check(
        &b,
        5,
        &[RouteId(0), RouteId(0)],
        &all,
        &claim(vec![], 2.0, false)
    )
    .is_err());
}
