//! Frequency (the paper's Table 3 and Figure 4): how often each ticket
//! and route is in a set of plans, as the reported optima over the
//! budgets of a sweep.

use serde::Serialize;

use crate::board::Board;
use crate::model::Plan;

/// How often one ticket or route is in the plans of a sweep.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Chosen {
    /// "Los Angeles – New York"
    pub name: String,
    /// Points: a ticket's best trip, a route's own.
    pub points: u32,
    /// Train cars (routes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// Plans that contain it.
    pub count: usize,
    /// `count` over the number of plans.
    pub share: f64,
}

/// Frequency tables over a set of plans (one per budget).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Frequency {
    /// The number of plans counted (one per budget swept).
    pub plans: usize,
    /// Every ticket of the board, most often completed first.
    pub tickets: Vec<Chosen>,
    /// Every route of the board, most often claimed first.
    pub routes: Vec<Chosen>,
}

/// Counts, for every ticket and route of the board, the plans that complete
/// or claim it. Sorted by count, most first; equal counts in board order.
pub fn frequency<'a>(board: &Board, plans: impl IntoIterator<Item = &'a Plan>) -> Frequency {
    let (n, tickets, routes) = plan_counts(board, plans);
    let share = |count: usize| if n == 0 { 0.0 } else { count as f64 / n as f64 };
    let mut ticket_rows: Vec<Chosen> = board
        .cards
        .iter()
        .enumerate()
        .map(|(c, card)| Chosen {
            name: card.name.clone(),
            points: board.best_trip(card),
            length: None,
            count: tickets[c],
            share: share(tickets[c]),
        })
        .collect();
    let mut route_rows: Vec<Chosen> = board
        .route_ids()
        .map(|r| Chosen {
            name: board.route_label(r),
            points: board.route(r).points,
            length: Some(board.route(r).length),
            count: routes[r.0],
            share: share(routes[r.0]),
        })
        .collect();
    // Stable sorts keep board order among equal counts.
    ticket_rows.sort_by_key(|c| std::cmp::Reverse(c.count));
    route_rows.sort_by_key(|c| std::cmp::Reverse(c.count));
    Frequency {
        plans: n,
        tickets: ticket_rows,
        routes: route_rows,
    }
}

/// How many of `plans` there are, and per printed ticket (by index into
/// `Board::cards`; a plan completes at most one trip of each) and per route
/// (by id) how many complete or claim it.
pub(crate) fn plan_counts<'a>(
    board: &Board,
    plans: impl IntoIterator<Item = &'a Plan>,
) -> (usize, Vec<usize>, Vec<usize>) {
    let mut tickets = vec![0usize; board.cards.len()];
    let mut routes = vec![0usize; board.routes.len()];
    let mut n = 0;
    for plan in plans {
        n += 1;
        for t in &plan.tickets {
            tickets[board.ticket(*t).card] += 1;
        }
        for r in &plan.routes {
            routes[r.0] += 1;
        }
    }
    (n, tickets, routes)
}
