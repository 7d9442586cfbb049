//! Stations at the end of a game: each lets its owner count one route of
//! another player into its city for their tickets, and the owner picks the
//! routes that score best (Europe's rule). A player has at most a few
//! stations (the board's `rules.stations`, 3 on Europe) and a city a
//! handful of routes, so every choice is tried: at most (8 + 1)^3 = 729
//! evaluations on Europe.

use crate::board::{Board, CityId, RouteId};

/// The routes a station at `city` may borrow for `player`: routes into
/// the city with a track claimed by another player, in id order.
pub fn borrowable(
    board: &Board,
    owner: &[Vec<Option<usize>>],
    player: usize,
    city: CityId,
) -> Vec<RouteId> {
    board
        .route_ids()
        .filter(|&r| {
            let route = board.route(r);
            (route.a == city || route.b == city)
                && owner[r.0].iter().any(|o| o.is_some_and(|p| p != player))
        })
        .collect()
}

/// The borrowed routes, one or none per station (of its `choices`), that
/// give the highest `score` of `own` routes plus them; ties go to the
/// first found, trying "none" before each station's routes in order, so
/// that a station borrows only what adds points.
pub fn best_borrowing(
    own: &[RouteId],
    choices: &[Vec<RouteId>],
    score: impl Fn(&[RouteId]) -> i64,
) -> Vec<RouteId> {
    let mut routes = own.to_vec();
    let mut best = (score(&routes), Vec::new());
    let mut picked = Vec::new();
    search(&mut routes, &mut picked, choices, &score, &mut best);
    best.1
}

fn search(
    routes: &mut Vec<RouteId>,
    picked: &mut Vec<RouteId>,
    choices: &[Vec<RouteId>],
    score: &impl Fn(&[RouteId]) -> i64,
    best: &mut (i64, Vec<RouteId>),
) {
    let Some((first, rest)) = choices.split_first() else {
        if !picked.is_empty() {
            let s = score(routes);
            if s > best.0 {
                *best = (s, picked.clone());
            }
        }
        return;
    };
    search(routes, picked, rest, score, best);
    for &r in first {
        if routes.contains(&r) {
            continue; // Already counted (another station borrows it).
        }
        routes.push(r);
        picked.push(r);
        search(routes, picked, rest, score, best);
        picked.pop();
        routes.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_borrowing_is_found_and_none_is_kept_on_ties() {
        let has = |rs: &[RouteId], r| rs.contains(&RouteId(r)) as i64;
        let choices = vec![vec![RouteId(2), RouteId(5)], vec![RouteId(3)]];
        // Route 5 alone scores 10, routes 2 and 3 together 7: the second
        // station borrows nothing, as route 3 adds nothing beside 5.
        let score = |rs: &[RouteId]| 10 * has(rs, 5) + 7 * has(rs, 2) * has(rs, 3);
        assert_eq!(best_borrowing(&[], &choices, score), vec![RouteId(5)]);
        // With 8 more for route 3, both stations borrow.
        let score = |rs: &[RouteId]| score(rs) + 8 * has(rs, 3);
        assert_eq!(
            best_borrowing(&[], &choices, score),
            vec![RouteId(5), RouteId(3)]
        );
        // A route the player owns is never borrowed, and nothing is
        // borrowed when nothing scores.
        assert_eq!(best_borrowing(&[RouteId(5)], &choices, |_| 0), vec![]);
    }
}
