//! Tickets with several trips (the Swiss map's country tickets): a ticket
//! scores its best completed trip, and a held one that is not completed
//! loses its smallest trip's points. Values derived by hand.

use crate::common;

use ttr_opt::board::Board;
use ttr_opt::engine::state::GameState;
use ttr_opt::plans::replan::replan;
use ttr_opt::solve::{Method, SolveOptions};

/// A with a foreign "country" of two stations X1, X2 and a city B:
/// A–X1 3 cars (4 points), A–X2 1 car (1 point), A–B 2 cars (2 points).
/// One ticket "A – country": A–X1 for 10, A–X2 for 6.
fn country() -> Board {
    common::board_with_cards(
        &["A", "X1", "X2", "B"],
        &[("A", "X1", 3), ("A", "X2", 1), ("A", "B", 2)],
        &[vec![("A", "X1", 10), ("A", "X2", 6)]],
    )
}

use common::METHODS;

#[test]
fn a_ticket_scores_its_best_completed_trip_only() {
    let b = country();
    // 1 car: A–X2, 1 + 6. 3 cars: A–X1, 4 + 10 (A–X2 + A–B: 1 + 2 + 6 = 9).
    // 4 cars: A–X1 and A–X2: 4 + 1 + 10 = 15, not 21: the two trips of one
    // ticket do not both score. 6 cars: every route, 4 + 1 + 2 + 10 = 17.
    for method in METHODS {
        for (cars, expected) in [(0, 0), (1, 7), (3, 14), (4, 15), (6, 17)] {
            let outcome = common::solve_with(&b, cars, method);
            assert_eq!(outcome.plan.score(), expected, "{method:?} at {cars} cars");
            assert!(
                outcome.plan.tickets.len() <= 1,
                "one trip of the ticket counts"
            );
        }
    }
    let at4 = common::solve_with(&b, 4, Method::Frontier);
    let trip = b.ticket(at4.plan.tickets[0]);
    assert_eq!((b.city(trip.b).name.as_str(), trip.points), ("X1", 10));
}

#[test]
fn a_held_ticket_with_no_trip_completed_loses_its_smallest_trip() {
    let b = country();
    let answer = |cars: u32| {
        let json = serde_json::json!({ "board": "x", "players": 2, "cars_left": cars,
            "tickets": [{ "from": "A", "to": "X1" }] });
        let s = GameState::from_json(&json.to_string(), "state.json", &b).expect("valid");
        replan(&b, &s, &SolveOptions::default()).expect("replans")
    };
    // No cars: nothing completed, the ticket loses 6 (its smaller trip).
    let r = answer(0);
    assert_eq!(r.score, -6);
    assert_eq!(b.ticket(r.lost[0]).points, 6);
    // 1 car: A–X2 completes the 6-point trip: 1 + 6.
    assert_eq!(answer(1).score, 7);
    // 3 cars: A–X1, 4 + 10.
    assert_eq!(answer(3).score, 14);
}

#[test]
fn all_optima_count_a_ticket_once_per_plan() {
    let b = country();
    // 4 cars: only A–X1 + A–X2 scores 15; the ticket scores (6, then 10)
    // along that one plan but counts once.
    let o = ttr_opt::analysis::optima::all_optima(
        &b,
        4,
        &ttr_opt::analysis::optima::OptimaOptions::max(10),
    )
    .expect("enumerates");
    assert_eq!((o.score, o.count), (15, 1));
    assert_eq!(o.ticket_counts, vec![1]);
    let (tickets, _) = o.shares(&b);
    assert_eq!((tickets[0].points, tickets[0].share), (10, 1.0));
    // 1 car: A–X2 (7) is the only optimum; 2 cars: A–B alone scores 2,
    // A–X2 scores 7, so still one optimum of 7 (A–X2, one car spare).
    let o = ttr_opt::analysis::optima::all_optima(
        &b,
        2,
        &ttr_opt::analysis::optima::OptimaOptions::max(10),
    )
    .expect("enumerates");
    assert_eq!((o.score, o.count), (7, 1));
}

#[test]
fn break_even_gives_no_lower_by_for_a_ticket_with_several_trips() {
    // 3 cars: A–B 1 car, A–C 2, D–E 2. Ticket X: A–B 2 or A–C 9; D–E 10.
    // A–B + A–C scores 1 + 2 + 9 = 12; A–B + D–E scores 1 + 2 + 2 + 10 = 15,
    // completing X's lesser trip: X is in every optimum. Without X the same
    // routes score 13, yet they complete a trip of X, so S − R = 2 is no
    // break-even value (plans really avoiding X score at most 12).
    let b = common::board_with_cards(
        &["A", "B", "C", "D", "E"],
        &[("A", "B", 1), ("A", "C", 2), ("D", "E", 2)],
        &[vec![("A", "B", 2), ("A", "C", 9)], vec![("D", "E", 10)]],
    );
    let balance =
        ttr_opt::analysis::break_even(&b, 3, &ttr_opt::analysis::AnalysisOptions::threads(1))
            .unwrap();
    assert_eq!(balance.optimum, 15);
    let x = &balance.tickets[0];
    assert_eq!(x.membership, ttr_opt::analysis::Membership::Every);
    assert!(x.several_trips);
    assert_eq!((x.best_without, x.lower_by), (13, None));
}
