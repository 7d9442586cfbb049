//! What a base board's proven optima say about a variant of it (a what-if
//! edit), before any solve: often the variant's optimum itself.
//!
//! Every plan on the variant has a counterpart on the base when each of
//! the variant's routes has a route of the same city pair on the base no
//! longer than it: claim those instead. The counterpart fits the same
//! budget and connects the same cities, so it completes the same trips, and
//! it scores at most [`Carry::gain`] less: the variant's route and ticket
//! point increases, summed (a pair's largest, since a plan claims one route
//! a pair; a card's largest over its trips, since a card scores its best
//! trip). So the variant's optimum at β cars is at most the base's plus the
//! gain. The base's optimal plan, claimed on the variant (each pair's
//! shortest route) and scored by the verifier, is a variant plan; where it
//! reaches that bound, the variant's budget is proven without a solve. That is every budget whose optimum avoids what an edit
//! lowers or removes, and every budget whose optimum already completes a
//! ticket an edit raises. Elsewhere the carried plan is a start.
//!
//! Cities, pairs and tickets are matched by city names, so a variant made
//! by [`crate::analysis::scenario::Scenario::apply`] (or any board file
//! that renames nothing) is matched whatever its file order.

use std::collections::HashMap;

use crate::board::{Board, CityId, RouteId, TicketId};
use crate::model::Instance;
use crate::solve::sweep::Prior;
use crate::solve::{self, Outcome, SolveError};

/// A base board and a variant, matched.
pub struct Carry<'a> {
    variant: &'a Board,
    /// Per base route: the variant's route of its city pair a carried plan
    /// claims (the shortest, then the most points), if the pair is left.
    to_variant: Vec<Option<RouteId>>,
    /// The most a variant plan can score above its base counterpart;
    /// `None` where some variant route has no base counterpart (a route
    /// added or shortened): then nothing bounds the variant.
    gain: Option<u32>,
}

/// Two cities by their names, in order: how a route's pair or a trip is
/// matched across the boards.
fn names(board: &Board, a: CityId, b: CityId) -> (String, String) {
    let (a, b) = (board.city(a).name.clone(), board.city(b).name.clone());
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

fn pair_key(board: &Board, r: RouteId) -> (String, String) {
    names(board, board.route(r).a, board.route(r).b)
}

fn trip_key(board: &Board, t: TicketId) -> (String, String) {
    names(board, board.ticket(t).a, board.ticket(t).b)
}

impl<'a> Carry<'a> {
    /// Matches `variant` against `base`.
    pub fn new(base: &Board, variant: &'a Board) -> Carry<'a> {
        let mut base_pairs: HashMap<(String, String), Vec<RouteId>> = HashMap::new();
        for r in base.route_ids() {
            base_pairs.entry(pair_key(base, r)).or_default().push(r);
        }
        let mut variant_pairs: HashMap<(String, String), Vec<RouteId>> = HashMap::new();
        for r in variant.route_ids() {
            variant_pairs
                .entry(pair_key(variant, r))
                .or_default()
                .push(r);
        }
        let to_variant = base
            .route_ids()
            .map(|r| {
                variant_pairs.get(&pair_key(base, r)).and_then(|routes| {
                    routes.iter().copied().min_by_key(|&v| {
                        let route = variant.route(v);
                        (route.length, std::cmp::Reverse(route.points), v)
                    })
                })
            })
            .collect();
        Carry {
            variant,
            to_variant,
            gain: gain(base, &base_pairs, variant, &variant_pairs),
        }
    }

    /// The most a variant plan can score above its base counterpart, if
    /// every variant plan has one.
    pub fn gain(&self) -> Option<u32> {
        self.gain
    }

    /// What the base's answer at `cars` cars, if any, says about the
    /// variant there: [`Carry::carry`] of its plan if it is proven, else
    /// nothing.
    pub fn prior(&self, cars: u32, base: Option<&Outcome>) -> Result<Prior, SolveError> {
        match base {
            Some(o) if o.proven => self.carry(cars, &o.plan.routes, o.plan.score()),
            _ => Ok(Prior::Nothing),
        }
    }

    /// What the base's proven optimum `optimum` at `cars` cars, reached by
    /// the plan `routes`, says about the variant at `cars` cars: its
    /// optimum, proven, where the carried plan meets the bound; else the
    /// carried plan as a start; nothing where it does not fit.
    pub fn carry(&self, cars: u32, routes: &[RouteId], optimum: u32) -> Result<Prior, SolveError> {
        let mut carried: Vec<RouteId> = routes
            .iter()
            .filter_map(|&r| self.to_variant[r.0])
            .collect();
        carried.sort();
        carried.dedup();
        let length: u32 = carried.iter().map(|&r| self.variant.route(r).length).sum();
        if length > cars {
            return Ok(Prior::Nothing);
        }
        let Some(gain) = self.gain else {
            return Ok(Prior::Start(carried));
        };
        let inst = Instance::new(self.variant, cars);
        let score =
            crate::board::verify::evaluate(self.variant, &carried, &inst.tickets_in_play).score();
        if score < optimum + gain {
            return Ok(Prior::Start(carried));
        }
        // The verifier refuses a plan above the bound: a bug, never a result.
        Ok(Prior::Proven(solve::met_bound(
            &inst,
            carried,
            optimum + gain,
        )?))
    }
}

/// [`Carry::gain`]: per variant city pair, its routes' largest point
/// increase over the base's best route of the pair no longer than each;
/// per variant card, matched to a base card with the same trips (each base
/// card at most once), its trips' largest increase (a card with no match:
/// its best trip). `None` if a variant route has no base route of its pair
/// as short.
fn gain(
    base: &Board,
    base_pairs: &HashMap<(String, String), Vec<RouteId>>,
    variant: &Board,
    variant_pairs: &HashMap<(String, String), Vec<RouteId>>,
) -> Option<u32> {
    let mut total = 0u32;
    for (key, routes) in variant_pairs {
        let mut most = 0u32;
        for &v in routes {
            let route = variant.route(v);
            let best = base_pairs
                .get(key)?
                .iter()
                .map(|&b| base.route(b))
                .filter(|b| b.length <= route.length)
                .map(|b| b.points)
                .max()?;
            most = most.max(route.points.saturating_sub(best));
        }
        total += most;
    }
    // Base cards by their trips' city pairs, each matched once.
    let trips = |board: &Board, card: &crate::board::Card| -> Vec<(String, String)> {
        let mut keys: Vec<_> = card.trips.iter().map(|&t| trip_key(board, t)).collect();
        keys.sort();
        keys
    };
    let mut unmatched: HashMap<Vec<(String, String)>, Vec<usize>> = HashMap::new();
    for (i, card) in base.cards.iter().enumerate().rev() {
        unmatched.entry(trips(base, card)).or_default().push(i);
    }
    for card in &variant.cards {
        let points: HashMap<(String, String), u32> =
            match unmatched.get_mut(&trips(variant, card)).and_then(Vec::pop) {
                Some(i) => base.cards[i]
                    .trips
                    .iter()
                    .map(|&t| (trip_key(base, t), base.ticket(t).points))
                    .collect(),
                None => HashMap::new(),
            };
        total += card
            .trips
            .iter()
            .map(|&t| {
                let was = points.get(&trip_key(variant, t)).copied().unwrap_or(0);
                variant.ticket(t).points.saturating_sub(was)
            })
            .max()
            .unwrap_or(0);
    }
    Some(total)
}
