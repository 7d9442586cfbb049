//! Sensitivity on a board small enough to derive by hand.

mod common;

use ttr_opt::analysis::sensitivity;

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
