//! Independent check of a solution: recompute, from the claimed routes alone,
//! which tickets are complete and what the plan scores.
//!
//! The connectivity test is the "station partition" of the EPFL tCHu project
//! (EPFL's CS-108 course, 2021): a union-find over the cities, built deep
//! by joining the ends of every claimed route, then flattened so that each
//! city points straight at the representative of its set. It shares no code
//! with the solver or with `petgraph`, so a bug in the model cannot hide here.

use crate::board::{Board, CityId, RouteId, TicketId};

/// Cities partitioned by the network of claimed routes.
pub struct StationPartition {
    representative: Vec<usize>,
}

impl StationPartition {
    /// Builds the partition of `cities` cities joined by the `links`.
    pub fn new(cities: usize, links: impl IntoIterator<Item = (CityId, CityId)>) -> Self {
        // Deep representation: every city starts alone, each link joins the
        // sets of its two ends by pointing one representative at the other.
        let mut deep: Vec<usize> = (0..cities).collect();
        fn root(deep: &[usize], mut c: usize) -> usize {
            while deep[c] != c {
                c = deep[c];
            }
            c
        }
        for (a, b) in links {
            let (ra, rb) = (root(&deep, a.0), root(&deep, b.0));
            deep[ra] = rb;
        }
        // Flat representation: every city points at its representative.
        let representative = (0..cities).map(|c| root(&deep, c)).collect();
        StationPartition { representative }
    }

    /// Whether the routes join cities `a` and `b`.
    pub fn connected(&self, a: CityId, b: CityId) -> bool {
        self.representative[a.0] == self.representative[b.0]
    }
}

/// What a set of claimed routes is worth, recomputed from scratch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Train cars the routes take.
    pub cars_used: u32,
    /// Points of the routes.
    pub route_points: u32,
    /// Points of the `completed` tickets.
    pub ticket_points: u32,
    /// Tickets among those in play whose cities the routes connect, in id
    /// order; of a ticket with several trips, only the best connected trip.
    pub completed: Vec<TicketId>,
    /// Every trip in play whose cities the routes connect, in id order (the
    /// same as `completed` unless a ticket has several trips).
    pub connected: Vec<TicketId>,
}

impl Evaluation {
    /// The total: `route_points + ticket_points`.
    pub fn score(&self) -> u32 {
        self.route_points + self.ticket_points
    }
}

/// Scores `routes` against the `tickets` in play.
pub fn evaluate(board: &Board, routes: &[RouteId], tickets: &[TicketId]) -> Evaluation {
    let partition = StationPartition::new(
        board.cities.len(),
        routes.iter().map(|&r| (board.route(r).a, board.route(r).b)),
    );
    let mut connected: Vec<TicketId> = tickets
        .iter()
        .copied()
        .filter(|&t| partition.connected(board.ticket(t).a, board.ticket(t).b))
        .collect();
    connected.sort();
    connected.dedup();
    // A ticket with several trips scores its best connected one.
    let completed = board.scoring(connected.iter().copied());
    Evaluation {
        cars_used: routes.iter().map(|&r| board.route(r).length).sum(),
        route_points: routes.iter().map(|&r| board.route(r).points).sum(),
        ticket_points: completed.iter().map(|&t| board.ticket(t).points).sum(),
        completed,
        connected,
    }
}

/// A solution that does not add up: always a bug, never to be reported.
#[derive(Debug, thiserror::Error)]
#[error("verification failed: {0}")]
pub struct VerifyError(pub String);

/// Checks a solver's claim: the routes are distinct, at most one per city
/// pair, and fit in `cars`; every ticket the solver counts is really
/// completed, and the solver's objective is not above what the routes
/// score. A solver may under-count only when its answer is not proven
/// optimal (the recomputed value is then reported); a proven optimum must
/// match exactly.
pub fn check(
    board: &Board,
    cars: u32,
    routes: &[RouteId],
    tickets_in_play: &[TicketId],
    claim: &Claim,
) -> Result<Evaluation, VerifyError> {
    let mut distinct = routes.to_vec();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != routes.len() {
        return Err(VerifyError("a route is claimed twice".into()));
    }
    if let Some((a, b)) = board.same_pair(routes) {
        return Err(VerifyError(format!(
            "two tracks of one city pair are claimed: {} and {}",
            board.route_label(a),
            board.route_label(b)
        )));
    }
    let eval = evaluate(board, routes, tickets_in_play);
    if eval.cars_used > cars {
        return Err(VerifyError(format!(
            "the routes need {} cars but only {cars} are available",
            eval.cars_used
        )));
    }
    let names = |ts: &[TicketId]| {
        ts.iter()
            .map(|&t| board.ticket_label(t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut claimed = claim.completed.clone();
    claimed.sort();
    let bogus: Vec<TicketId> = claimed
        .iter()
        .copied()
        .filter(|t| eval.connected.binary_search(t).is_err())
        .collect();
    if !bogus.is_empty() {
        return Err(VerifyError(format!(
            "the solver counts tickets [{}] that the routes do not complete",
            names(&bogus)
        )));
    }
    let cards =
        |ts: &[TicketId]| -> Vec<usize> { ts.iter().map(|&t| board.ticket(t).card).collect() };
    let mut claimed_cards = cards(&claimed);
    claimed_cards.dedup();
    if claimed_cards.len() < claimed.len() {
        return Err(VerifyError(format!(
            "the solver counts two trips of one ticket among [{}]",
            names(&claimed)
        )));
    }
    let score = eval.score() as f64;
    if claim.objective > score + 1e-6 || (claim.proven && (claim.objective - score).abs() > 1e-6) {
        return Err(VerifyError(format!(
            "the solver claims {} points but the routes score {score}",
            claim.objective
        )));
    }
    // Of a ticket with several trips, a proven optimum may count any trip
    // worth the best connected one's points (the objective check above).
    if claim.proven && claimed_cards != cards(&eval.completed) {
        return Err(VerifyError(format!(
            "the solver claims tickets [{}] but the routes complete [{}]",
            names(&claimed),
            names(&eval.completed)
        )));
    }
    Ok(eval)
}

/// What a solver says of its own solution.
#[derive(Clone, Debug)]
pub struct Claim {
    /// Tickets the solver counts as completed.
    pub completed: Vec<TicketId>,
    /// The solver's objective value for the solution.
    pub objective: f64,
    /// Whether the solver proved the solution optimal.
    pub proven: bool,
}
