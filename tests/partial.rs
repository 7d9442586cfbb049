//! An analysis cut short keeps the rows it finished. A test binary of its
//! own: the interruption (what Ctrl-C does) is process-wide and for good.

#[path = "suite/common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use ttr_opt::analysis::{break_even, AnalysisOptions, Step};

#[test]
fn an_interrupted_break_even_reports_the_rows_it_finished() {
    let b = common::ring();
    let cars = 10;
    // Uninterrupted first: every row.
    let full = break_even(&b, cars, &AnalysisOptions::threads(1)).unwrap();
    assert!(full.unfinished.is_empty());
    assert_eq!(full.tickets.len(), b.cards.len());

    // Interrupted after the optimum and the first solve without a ticket
    // (one worker takes the solves in order): the solves after it start
    // past the interruption and prove nothing.
    let heard = AtomicUsize::new(0);
    let progress = |_: Step| {
        if heard.fetch_add(1, Ordering::SeqCst) == 1 {
            ttr_opt::solve::limits::interrupt();
        }
    };
    let options = AnalysisOptions {
        progress: &progress,
        ..AnalysisOptions::threads(1)
    };
    let cut = break_even(&b, cars, &options).unwrap();
    assert_eq!(cut.optimum, full.optimum);
    assert!(!cut.unfinished.is_empty());
    // Every finished row is the uninterrupted one; every other is named.
    for row in &cut.tickets {
        let same = &full.tickets[row.card];
        assert_eq!(
            (
                row.membership,
                row.best_with,
                row.best_without,
                row.raise_by,
                row.lower_by
            ),
            (
                same.membership,
                same.best_with,
                same.best_without,
                same.raise_by,
                same.lower_by
            ),
            "{}",
            row.name
        );
    }
    for row in &cut.routes {
        let same = full.routes.iter().find(|r| r.name == row.name).unwrap();
        assert_eq!(row.optimum, same.optimum, "{}", row.name);
    }
    for (c, card) in b.cards.iter().enumerate() {
        let listed = cut.tickets.iter().any(|r| r.card == c);
        assert!(
            listed != cut.unfinished.contains(&card.name),
            "{} is either a row or unfinished",
            card.name
        );
    }
    assert_eq!(
        cut.tickets.len() + cut.routes.len() + cut.unfinished.len(),
        full.tickets.len() + full.routes.len()
    );
    // The first ticket of the plan was solved without before the
    // interruption: its row is there.
    assert!(!cut.tickets.is_empty());
}
