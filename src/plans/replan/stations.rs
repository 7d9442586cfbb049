//! The stations as routes of the plain problem, proven by the forest
//! model's branch and cut: [`replan`](super::replan)'s model where a
//! station could help.
//!
//! On the derived board (see [`super`]):
//! - each borrowing (a station's city, another player's route into it) is a
//!   route of its own beside the route it borrows: 0 cars, no points, a
//!   city pair of its own;
//! - each station that may stay unbuilt is a route of 0 cars worth the
//!   station's points, between two cities of their own that no ticket
//!   reaches;
//! - rows of the instance: at most one borrowing a city, and the new
//!   stations' borrowings and the unbuilt stations together at most the
//!   stations left (the borrowings first, so that a heuristic plan cut down
//!   to the row keeps them).
//!
//! A plan's score is then the final score less the owned routes' points,
//! plus the held tickets' certain penalties (the unbuilt stations are in
//! the score). The LP is the forest model's, whose directed cuts take a
//! borrowing as capacity like any route: far tighter than the paper's
//! flows ([`crate::model::stations`]). The relaxation's bound, where it
//! ran, ends the search as soon as a plan reaches it, and its plan, its
//! free routes given to stations, is the search's first incumbent where it
//! scores more than the plan without stations.

use std::collections::BTreeMap;

use super::{add_free_route, cars_of, held_points, open_instance, owned_points, Relaxed, Replan};
use crate::board::{Board, City, CityId, Route, RouteId};
use crate::engine::state::GameState;
use crate::model::stations::{Borrow, Borrowing};
use crate::model::{AtMost, Instance, Plan};
use crate::solve::heuristic;
use crate::solve::{solve, Method, Outcome, Produced, SolveError, SolveOptions};

/// A state's stations, to be solved.
pub(super) struct Stations<'a> {
    pub board: &'a Board,
    pub state: &'a GameState,
    pub derived: &'a Board,
    pub borrowing: &'a Borrowing,
}

/// The stations' board: the derived board with a route for each
/// borrowing and each station that may stay unbuilt.
struct Routes {
    board: Board,
    /// The route of each borrowing, in the order of `Borrowing::options`.
    borrows: Vec<RouteId>,
    /// The routes of the stations that may stay unbuilt.
    unbuilt: Vec<RouteId>,
}

impl Stations<'_> {
    /// The best plan with stations, from the plan without them (`plain`)
    /// and the relaxation's answer where it ran: the answer in the derived
    /// board's terms, and the borrowings it uses.
    pub fn solve(
        &self,
        plain: &Replan,
        relaxed: Option<&Relaxed>,
        options: &SolveOptions,
    ) -> Result<(Outcome, Vec<Borrow>), SolveError> {
        let routes = self.routes();
        let ceiling = relaxed.and_then(|r| self.in_model_terms(r.bound));
        let inst = self.instance(&routes, ceiling);
        let start = self.start(&inst, &routes, plain, relaxed);
        let found = solve(
            &inst,
            &SolveOptions {
                method: Method::Forest,
                start: Some(start),
                ..options.clone()
            },
        )?;
        Ok(self.back(&routes, found))
    }

    /// A final score in the stations' board's terms (`None` where it does
    /// not fit).
    fn in_model_terms(&self, score: i64) -> Option<u32> {
        let (board, state) = (self.board, self.state);
        u32::try_from(score - owned_points(board, state) + held_points(board, state)).ok()
    }

    /// Phase 1: the stations' board.
    fn routes(&self) -> Routes {
        let mut board = self.derived.clone();
        let borrows = self
            .borrowing
            .options
            .iter()
            .map(|o| {
                let route = Route {
                    points: 0,
                    ..self.derived.route(o.route).clone()
                };
                add_free_route(&mut board, route)
            })
            .collect();
        let first = CityId(board.cities.len());
        for name in ["(stations left unbuilt)", "(their points)"] {
            board.cities.push(City {
                name: name.into(),
                x: 0.0,
                y: 0.0,
            });
        }
        let unbuilt = (0..self.borrowing.left)
            .map(|_| {
                let route = Route {
                    a: first,
                    b: CityId(first.0 + 1),
                    points: self.borrowing.points,
                    tunnel: false,
                    ferry: 0,
                    ..self.derived.routes[0].clone()
                };
                add_free_route(&mut board, route)
            })
            .collect();
        Routes {
            board,
            borrows,
            unbuilt,
        }
    }

    /// Phase 2: the instance on the stations' board, with its rows.
    fn instance<'r>(&self, routes: &'r Routes, ceiling: Option<u32>) -> Instance<'r> {
        let options = &self.borrowing.options;
        let mut by_city: BTreeMap<CityId, Vec<RouteId>> = BTreeMap::new();
        for (o, &r) in options.iter().zip(&routes.borrows) {
            by_city.entry(o.city).or_default().push(r);
        }
        let mut at_most: Vec<AtMost> = by_city
            .into_values()
            .filter(|rs| rs.len() > 1)
            .map(|rs| AtMost {
                routes: rs,
                most: 1,
            })
            .collect();
        let mut count: Vec<RouteId> = options
            .iter()
            .zip(&routes.borrows)
            .filter(|(o, _)| o.new)
            .map(|(_, &r)| r)
            .collect();
        count.extend(&routes.unbuilt);
        at_most.push(AtMost {
            routes: count,
            most: self.borrowing.left as usize,
        });
        let open = open_instance(self.board, self.state, self.derived);
        let mut all = open.routes;
        all.extend(&routes.borrows);
        all.extend(&routes.unbuilt);
        Instance {
            board: &routes.board,
            cars: open.cars,
            routes: all,
            tickets: open.tickets,
            tickets_in_play: open.tickets_in_play,
            at_most,
            score_at_most: ceiling,
        }
        .reduced()
    }

    /// Phase 3: the search's first incumbent: the plan without stations,
    /// or the relaxation's plan with its free routes given to stations
    /// where that scores more.
    fn start(
        &self,
        inst: &Instance,
        routes: &Routes,
        plain: &Replan,
        relaxed: Option<&Relaxed>,
    ) -> Vec<RouteId> {
        let mut start: Vec<RouteId> = plain.claim.iter().chain(&plain.owned).copied().collect();
        start.retain(|r| inst.routes.contains(r));
        start.extend(&routes.unbuilt);
        start.sort();
        let Some(relaxed) = relaxed else {
            return start;
        };
        let lent = self.given_to_stations(inst, routes, relaxed);
        if heuristic::score(inst, &lent).0 > heuristic::score(inst, &start).0 {
            lent
        } else {
            start
        }
    }

    /// The relaxation's plan, each route it counts free borrowed by a
    /// station where one may (a built station first, one a city, new ones
    /// within the stations left), the borrowings it does not need dropped,
    /// and the stations left unbuilt.
    fn given_to_stations(
        &self,
        inst: &Instance,
        routes: &Routes,
        relaxed: &Relaxed,
    ) -> Vec<RouteId> {
        let options = &self.borrowing.options;
        let mut base: Vec<RouteId> = relaxed.claim.clone();
        base.retain(|r| inst.routes.contains(r));
        let mut picked: Vec<usize> = Vec::new();
        for &g in &relaxed.lent {
            let free = |i: &usize| {
                let o = &options[*i];
                o.route == g && !picked.iter().any(|&p| options[p].city == o.city)
            };
            let new = picked.iter().filter(|&&p| options[p].new).count() as u32;
            let choice = (0..options.len())
                .filter(free)
                .filter(|&i| !options[i].new || new < self.borrowing.left)
                .min_by_key(|&i| options[i].new);
            picked.extend(choice);
        }
        let plan = |picked: &[usize]| {
            let mut plan = base.clone();
            plan.extend(picked.iter().map(|&i| routes.borrows[i]));
            let new = picked.iter().filter(|&&i| options[i].new).count();
            plan.extend(&routes.unbuilt[..routes.unbuilt.len() - new]);
            plan.sort();
            plan
        };
        // Borrowings the plan scores as well without, last first.
        for k in (0..picked.len()).rev() {
            let mut fewer = picked.clone();
            fewer.remove(k);
            if heuristic::score(inst, &plan(&fewer)).0 >= heuristic::score(inst, &plan(&picked)).0 {
                picked = fewer;
            }
        }
        plan(&picked)
    }

    /// Phase 4: the search's answer back in the derived board's terms: the
    /// claimed routes and their score less the unbuilt stations' points
    /// (which [`super::answer`] adds), and the borrowings.
    fn back(&self, routes: &Routes, found: Outcome) -> (Outcome, Vec<Borrow>) {
        let derived = self.derived;
        let held: Vec<Borrow> = self
            .borrowing
            .options
            .iter()
            .zip(&routes.borrows)
            .filter(|(_, r)| found.plan.routes.contains(r))
            .map(|(&o, _)| o)
            .collect();
        let real = derived.routes.len();
        let claimed: Vec<RouteId> = found
            .plan
            .routes
            .iter()
            .copied()
            .filter(|r| r.0 < real)
            .collect();
        let all_left = self.borrowing.left * self.borrowing.points;
        let plan = Plan {
            cars_used: cars_of(derived, &claimed),
            route_points: claimed.iter().map(|&r| derived.route(r).points).sum(),
            ticket_points: found.plan.ticket_points,
            tickets: found.plan.tickets.clone(),
            routes: claimed,
        };
        let outcome = Outcome {
            plan,
            bound: found.bound.saturating_sub(all_left),
            method: Produced::Stations,
            ..found
        };
        (outcome, held)
    }
}
