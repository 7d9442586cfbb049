//! Generated boards: valid, reproducible, shaped as documented, and solved
//! to the same optimum by both exact methods at a small budget.

use crate::common;

use ttr_opt::board::generate::board_json;
use ttr_opt::board::graph::BoardGraph;
use ttr_opt::board::Board;
use ttr_opt::solve::Method;

fn generated(seed: u64) -> Board {
    Board::from_json(&board_json(seed).to_string(), "generated").expect("a valid board")
}

#[test]
fn same_seed_same_board_other_seed_other_board() {
    assert_eq!(board_json(7), board_json(7));
    assert_ne!(board_json(7), board_json(8));
}

#[test]
fn boards_have_the_documented_shape() {
    for seed in 1..=20 {
        let board = generated(seed);
        let (cities, pairs) = (board.cities.len(), board.routes.len());
        assert!((35..=60).contains(&cities), "seed {seed}: {cities} cities");
        assert!(
            (70..=110).contains(&pairs),
            "seed {seed}: {pairs} city pairs"
        );
        assert!(
            board.warnings.is_empty(),
            "seed {seed}: {:?}",
            board.warnings
        );
        assert!(board.routes.iter().all(|r| (1..=8).contains(&r.length)));
        // Every city is on the map's one network.
        let graph = BoardGraph::new(&board, board.route_ids());
        let from_first = graph.distances(ttr_opt::board::CityId(0), |r| board.route(r).length);
        assert!(
            from_first.iter().all(Option::is_some),
            "seed {seed}: connected"
        );
        // Tickets are worth the cars of their cheapest connection, give or
        // take two points (one-trip tickets; trips are worth exactly that).
        let cards = board.tickets.iter().map(|t| t.card).max().unwrap() + 1;
        assert!((30..=74).contains(&cards), "seed {seed}: {cards} tickets");
        for t in board.ticket_ids() {
            let ticket = board.ticket(t);
            let cheapest = graph.distances(ticket.a, |r| board.route(r).length)[ticket.b.0]
                .expect("connected");
            let off = ticket.points as i64 - cheapest as i64;
            assert!(
                (-1..=2).contains(&off),
                "seed {seed}: {ticket:?} against {cheapest} cars"
            );
        }
    }
}

#[test]
fn both_exact_methods_agree_on_generated_boards() {
    for seed in 1..=3 {
        let board = generated(seed);
        let forest = common::solve_with(&board, 12, Method::Forest);
        let frontier = common::solve_with(&board, 12, Method::Frontier);
        assert_eq!(forest.plan.score(), frontier.plan.score(), "seed {seed}");
    }
}
