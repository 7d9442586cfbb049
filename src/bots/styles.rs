//! The four playing styles of de Mesentier Silva, Lee, Togelius and Nealen,
//! "AI-based Playtesting of Contemporary Board Games" (FDG 2017), as
//! yardsticks from the literature: [`RouteFocus`] (`route-focus`),
//! [`DestinationHungry`] (`destination-hungry`), [`OneStep`] (`one-step`,
//! the paper's One Step Thinking) and [`LongRoute`] (`long-route`).
//!
//! The paper's own descriptions of the agents could not be read here: the
//! stored copies of it give its abstract and introduction, not its section
//! on the agents. The four are built from what is known of the paper (four
//! agents, each a style human players use: completing tickets route by
//! route, hoarding tickets, one-move greed, long routes) and every detail
//! below is this project's choice, written in each agent's comment and in
//! `docs/analysts.md` ("The literature's agents"). They are not the paper's
//! code, and their win rates need not match its figures.
//!
//! Shared by all four: they read only what their player sees (the board,
//! claimed routes, the face-up row, counts of cards and tickets, their own
//! hand and tickets; [`Game::legal`] and the claims the engine lists for
//! their own hand), use no randomness, and keep no memory between moves, so
//! a move is a function of the player's view alone (`tests/suite/styles.rs`
//! changes the hidden part and checks). Payments are the greedy player's:
//! the fewest locomotives, a tunnel only with a spare card, its extra cards
//! paid when the route is wanted or they cost no locomotive. A station is
//! built, as by the greedy player, when it completes held tickets worth
//! more than its points. The second card of a draw is a face-up card of a
//! wanted colour, else the deck.

use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Colour, RouteId, TicketId};
use crate::bots::tactics::{
    claimable_track, connection_via, draw_card, incomplete, keep_cheapest, longest_affordable,
    pay_or_give_up, payment, play_towards, station_saving_tickets, ticket_targets,
};
use crate::bots::Strategy;
use crate::engine::cards::Card;
use crate::engine::rules::{Action, Expect, Game};

/// The styles' names, as `--players` spells them.
pub const STYLES: [&str; 4] = [
    "route-focus",
    "destination-hungry",
    "one-step",
    "long-route",
];

/// Cars a player must have left to draw more tickets (Route Focus and One
/// Step Thinking): below that, a new ticket is more likely lost than won.
const TICKET_CARS: u32 = 12;

/// A ticket's cars still needed, by the cheapest connection over the
/// player's own routes, `free` routes and routes still open; None if none
/// is left.
fn cars_needed(game: &Game, me: usize, t: TicketId, free: &[RouteId]) -> Option<u32> {
    let ticket = game.board.ticket(t);
    connection_via(game, me, ticket.a, ticket.b, free).map(|(cars, _)| cars)
}

/// Whether drawing tickets is a legal and sensible turn now: the player's
/// turn, tickets left, the last round not begun.
fn may_draw_tickets(game: &Game) -> bool {
    matches!(game.expect(), Expect::Turn) && game.tickets_left() > 0 && !game.in_last_round()
}

/// The two steps inside a turn that every style plays alike: the second
/// card (towards `targets`) and a tunnel's extra cards.
fn within_turn(game: &Game, targets: &[RouteId]) -> Option<Action> {
    match game.expect() {
        Expect::SecondCard => Some(draw_card(game, targets, true)),
        Expect::Tunnel(t) => Some(pay_or_give_up(game, targets, t.route)),
        _ => None,
    }
}

/// A turn with nothing targeted: the longest route the hand pays for,
/// else a card (the deck, or tickets when no card is left).
fn spend_or_draw(game: &Game, me: usize) -> Action {
    if let Some(a) = within_turn(game, &[]) {
        return a;
    }
    longest_affordable(game, me).unwrap_or_else(|| play_towards(game, me, &[], false))
}

/// The `min` offered tickets (or more, those already complete) needing the
/// fewest cars, ties to the most points, then the first by id.
fn keep_nearest(game: &Game, me: usize, offered: &[TicketId], min: usize) -> Action {
    let mut rated: Vec<(u32, u32, TicketId)> = offered
        .iter()
        .map(|&t| {
            let cars = cars_needed(game, me, t, &[]).unwrap_or(u32::MAX);
            (cars, game.board.ticket(t).points, t)
        })
        .collect();
    rated.sort_by_key(|&(cars, points, t)| (cars, std::cmp::Reverse(points), t));
    let kept = rated
        .iter()
        .enumerate()
        .filter(|&(i, &(cars, _, _))| i < min || cars == 0)
        .map(|(_, &(_, _, t))| t)
        .collect();
    Action::KeepTickets(kept)
}

/// Route Focus: one ticket at a time, route by route.
///
/// - Tickets kept: the fewest the rules allow, those needing the fewest
///   cars (ties: more points), plus any already complete.
/// - The focus: of its incomplete tickets that can still be completed, the
///   one needing the fewest cars (ties: more points, then the lower id); its
///   targets are the routes of that ticket's cheapest connection (over its
///   own routes and the open ones), longest first (the hardest to collect
///   for), ties by route id. Replanned every move, so a route taken by
///   another player reroutes the ticket.
/// - It claims the first target its hand pays for; else it draws: a face-up
///   card of a target's colour, else the deck (locomotives only when
///   nothing else is left, as the greedy player).
/// - New tickets: when no held ticket is left to work on (all complete or
///   impossible), with at least 12 cars and not in the last round.
///   Otherwise, with nothing to work on, it claims the longest route its
///   hand pays for, else draws from the deck.
pub struct RouteFocus;

impl RouteFocus {
    /// The focus ticket's routes to claim, longest first.
    fn targets(game: &Game, me: usize) -> Vec<RouteId> {
        let board: &Board = &game.board;
        let focus = incomplete(game, me)
            .into_iter()
            .filter_map(|t| {
                let ticket = board.ticket(t);
                connection_via(game, me, ticket.a, ticket.b, &[])
                    .map(|(cars, path)| (cars, std::cmp::Reverse(ticket.points), t, path))
            })
            .min_by_key(|(cars, points, t, _)| (*cars, *points, *t));
        let mut path = focus.map(|(_, _, _, path)| path).unwrap_or_default();
        path.sort_by_key(|&r| (std::cmp::Reverse(board.route(r).length), r));
        path
    }
}

impl Strategy for RouteFocus {
    fn name(&self) -> &'static str {
        "route-focus"
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        if let Some((offered, min)) = game.offer(me) {
            return keep_nearest(game, me, offered, min);
        }
        let targets = Self::targets(game, me);
        if let Some(a) = within_turn(game, &targets) {
            return a;
        }
        if !targets.is_empty() {
            return play_towards(game, me, &targets, false);
        }
        if may_draw_tickets(game) && game.players[me].cars >= TICKET_CARS {
            return Action::DrawTickets;
        }
        spend_or_draw(game, me)
    }
}

/// Destination Hungry: as many tickets as its cars can serve, chained.
///
/// - Its plan: the routes on cheapest connections of its incomplete
///   tickets, those serving the most tickets first, then the longest (the
///   greedy player's targets), and the cars they take.
/// - Tickets kept: offered tickets are taken in order of the cars each
///   adds to the plan (its cheapest connection with the plan's routes
///   counted as already built: a ticket that chains onto the plan adds
///   little), ties to more points; each is kept while the plan stays within
///   its cars less a reserve of 3, each kept ticket's routes joining the
///   plan before the next is weighed; at least the fewest the rules allow.
/// - New tickets: whenever the plan leaves at least 8 cars spare, on its
///   turn and not in the last round, before anything else; so it draws
///   tickets on its first turns and again whenever its plan shrinks.
/// - Otherwise it plays its plan as the greedy player does: it claims the
///   first target its hand pays for, else draws a face-up card of a
///   target's colour, else the deck. With no plan and too few cars for
///   tickets it claims the longest route its hand pays for, else draws.
pub struct DestinationHungry;

/// Cars Destination Hungry keeps out of its plan when keeping tickets.
const HUNGRY_RESERVE: u32 = 3;
/// Cars its plan must leave spare for it to draw more tickets.
const HUNGRY_SPARE: u32 = 8;

impl DestinationHungry {
    /// The tickets to keep of an offer (see the type's comment).
    fn keep(game: &Game, me: usize, offered: &[TicketId], min: usize) -> Action {
        let board: &Board = &game.board;
        let mut plan = ticket_targets(game, me);
        let cars = game.players[me].cars;
        let planned = |plan: &[RouteId]| plan.iter().map(|&r| board.route(r).length).sum::<u32>();
        let mut left: Vec<TicketId> = offered.to_vec();
        let mut kept = Vec::new();
        while !left.is_empty() {
            // The ticket adding the fewest cars to the plan as it is now.
            let (i, added, path) = left
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    let ticket = board.ticket(t);
                    match connection_via(game, me, ticket.a, ticket.b, &plan) {
                        Some((added, path)) => (i, added, path),
                        None => (i, u32::MAX, Vec::new()),
                    }
                })
                .min_by_key(|(i, added, _)| {
                    (
                        *added,
                        std::cmp::Reverse(board.ticket(left[*i]).points),
                        left[*i],
                    )
                })
                .expect("a ticket left");
            let fits = added != u32::MAX && planned(&plan) + added + HUNGRY_RESERVE <= cars;
            if kept.len() >= min && !fits && added != 0 {
                break;
            }
            kept.push(left.remove(i));
            plan.extend(path);
        }
        Action::KeepTickets(kept)
    }
}

impl Strategy for DestinationHungry {
    fn name(&self) -> &'static str {
        "destination-hungry"
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        if let Some((offered, min)) = game.offer(me) {
            return Self::keep(game, me, offered, min);
        }
        let targets = ticket_targets(game, me);
        if let Some(a) = within_turn(game, &targets) {
            return a;
        }
        let planned: u32 = targets.iter().map(|&r| game.board.route(r).length).sum();
        if may_draw_tickets(game) && planned + HUNGRY_SPARE <= game.players[me].cars {
            return Action::DrawTickets;
        }
        if !targets.is_empty() {
            return play_towards(game, me, &targets, false);
        }
        spend_or_draw(game, me)
    }
}

/// One Step Thinking: the move worth most now, no plan beyond it.
///
/// - Each route its hand pays for is worth its points, plus 2 for every
///   car it takes off the cheapest connections of its incomplete tickets,
///   plus the points of every ticket it completes, less 1 for each
///   locomotive it spends and 1 for each card it spends of a colour its
///   tickets' routes need (cards it would have to draw again).
/// - Drawing cards is worth 3 (about two cards' worth), 0 in the last
///   round (cards then score nothing) or when no card is left; new tickets
///   are worth 3.5 when none of its tickets is left to work on, it has at
///   least 12 cars and the last round has not begun, else nothing.
/// - It plays the most valuable: a claim worth at least the draw (ties to
///   the longer route, then the lower id), else tickets, else a draw: a
///   face-up card of a colour its tickets' routes need, else the deck. When
///   no move is worth anything it draws, or passes when it must.
/// - Tickets kept: the fewest the rules allow, with the most points per car
///   still needed (the greedy player's rule), plus any already complete.
pub struct OneStep;

/// What a turn of drawing cards is worth to One Step Thinking.
const DRAW_VALUE: f64 = 3.0;
/// What drawing tickets is worth to it, when it has none to work on.
const TICKETS_VALUE: f64 = 3.5;
/// Its worth of a car taken off a ticket's cheapest connection.
const CAR_VALUE: f64 = 2.0;
/// Its cost of a locomotive spent.
const LOCOMOTIVE_COST: f64 = 1.0;
/// Its cost of a card spent of a colour its tickets' routes need.
const NEEDED_CARD_COST: f64 = 1.0;

impl OneStep {
    /// A claim's worth now (see the type's comment).
    fn worth(
        game: &Game,
        me: usize,
        claim: &Action,
        open: &[(TicketId, u32)],
        needed: &[Colour],
    ) -> f64 {
        let Action::Claim {
            route,
            locomotives,
            colour,
            ..
        } = claim
        else {
            return f64::MIN;
        };
        let board: &Board = &game.board;
        let r = board.route(*route);
        let mut worth = r.points as f64 - LOCOMOTIVE_COST * *locomotives as f64;
        if needed.contains(colour) {
            worth -= NEEDED_CARD_COST * r.length.saturating_sub(*locomotives) as f64;
        }
        for &(t, before) in open {
            let after = cars_needed(game, me, t, &[*route]).unwrap_or(before);
            worth += CAR_VALUE * before.saturating_sub(after) as f64;
            if after == 0 {
                worth += board.ticket(t).points as f64;
            }
        }
        worth
    }
}

impl Strategy for OneStep {
    fn name(&self) -> &'static str {
        "one-step"
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        if let Some((offered, min)) = game.offer(me) {
            return keep_cheapest(game, me, offered, min);
        }
        let targets = ticket_targets(game, me);
        if let Some(a) = within_turn(game, &targets) {
            return a;
        }
        if let Some(a) = station_saving_tickets(game, me) {
            return a;
        }
        let board: &Board = &game.board;
        // The incomplete tickets still possible, with their cars needed.
        let open: Vec<(TicketId, u32)> = incomplete(game, me)
            .into_iter()
            .filter_map(|t| cars_needed(game, me, t, &[]).map(|c| (t, c)))
            .collect();
        // The colours its tickets' routes need: cards of them spent on a
        // route that is not a target are charged.
        let needed: Vec<Colour> = targets
            .iter()
            .flat_map(|&r| board.route(r).tracks.iter().copied())
            .filter(|&c| c != Colour::Gray)
            .collect();
        let best = board
            .route_ids()
            .filter_map(|r| payment(game, me, r))
            .map(|a| {
                let spent: &[Colour] = match &a {
                    Action::Claim { route, .. } if targets.contains(route) => &[],
                    _ => &needed,
                };
                (Self::worth(game, me, &a, &open, spent), a)
            })
            .max_by(|(x, a), (y, b)| {
                let key = |c: &Action| match c {
                    Action::Claim { route, .. } => {
                        (board.route(*route).length, std::cmp::Reverse(route.0))
                    }
                    _ => (0, std::cmp::Reverse(usize::MAX)),
                };
                x.total_cmp(y).then(key(a).cmp(&key(b)))
            });
        let can_draw = game.deck_len() + game.discard_len() > 0 || !game.face_up().is_empty();
        let draw = if can_draw && !game.in_last_round() {
            DRAW_VALUE
        } else {
            0.0
        };
        let tickets =
            if open.is_empty() && may_draw_tickets(game) && game.players[me].cars >= TICKET_CARS {
                TICKETS_VALUE
            } else {
                f64::MIN
            };
        if let Some((worth, claim)) = best {
            if worth >= draw && worth >= tickets {
                return claim;
            }
        }
        if tickets > f64::MIN {
            return Action::DrawTickets;
        }
        if draw > 0.0 {
            return draw_card(game, &targets, false);
        }
        play_towards(game, me, &targets, false)
    }
}

/// Long Route: the longest routes, cards hoarded for them.
///
/// - Its targets: the routes still open to it whose length is within one
///   of the longest such route that its cars allow (on the USA board the
///   6s and 5s while any is left, then the 5s and 4s, …), never shorter
///   than 3; ordered longest first, then by how much of the route its hand
///   already holds (cards of the colour, or of its most held colour on a
///   gray route, plus locomotives), then by route id.
/// - It claims the first target its hand pays for; else it hoards for the
///   first target alone: a face-up card of its colour, else the deck.
/// - Tickets kept: the fewest the rules allow, those needing the fewest
///   cars (ties: more points); it never draws more. With no long route
///   left to it, it plays towards its tickets as the greedy player does
///   (without drawing tickets), and with none of those it claims the
///   longest route its hand pays for, else draws.
pub struct LongRoute;

/// The shortest route Long Route targets.
const LONG_MIN: u32 = 3;

impl LongRoute {
    /// Its targets (see the type's comment).
    fn targets(game: &Game, me: usize) -> Vec<RouteId> {
        let board: &Board = &game.board;
        let player = &game.players[me];
        let open: Vec<RouteId> = board
            .route_ids()
            .filter(|&r| {
                board.route(r).length <= player.cars && claimable_track(game, me, r).is_some()
            })
            .collect();
        let Some(longest) = open.iter().map(|&r| board.route(r).length).max() else {
            return Vec::new();
        };
        let floor = longest.saturating_sub(1).max(LONG_MIN);
        let hand = &player.hand;
        let locomotives = hand[Card::Locomotive.index()];
        let held = |r: RouteId| -> u32 {
            let route = board.route(r);
            let colours = route.tracks.iter().map(|&c| match c {
                Colour::Gray => crate::engine::cards::COLOURS
                    .iter()
                    .map(|&k| hand[Card::Train(k).index()])
                    .max()
                    .unwrap_or(0),
                c => hand[Card::Train(c).index()],
            });
            colours.max().unwrap_or(0) + locomotives
        };
        let mut long: Vec<RouteId> = open
            .into_iter()
            .filter(|&r| board.route(r).length >= floor)
            .collect();
        long.sort_by_key(|&r| {
            (
                std::cmp::Reverse(board.route(r).length),
                std::cmp::Reverse(held(r)),
                r,
            )
        });
        long
    }
}

impl Strategy for LongRoute {
    fn name(&self) -> &'static str {
        "long-route"
    }
    fn decide(&mut self, game: &Game, me: usize, _rng: &mut ChaCha8Rng) -> Action {
        if let Some((offered, min)) = game.offer(me) {
            return keep_nearest(game, me, offered, min);
        }
        let long = Self::targets(game, me);
        if !long.is_empty() {
            match game.expect() {
                Expect::SecondCard => return draw_card(game, &long[..1], true),
                Expect::Tunnel(t) => return pay_or_give_up(game, &long, t.route),
                _ => {}
            }
            if let Some(a) = long.iter().find_map(|&r| payment(game, me, r)) {
                return a;
            }
            return play_towards(game, me, &long[..1], false);
        }
        let targets = ticket_targets(game, me);
        if let Some(a) = within_turn(game, &targets) {
            return a;
        }
        if !targets.is_empty() {
            return play_towards(game, me, &targets, false);
        }
        spend_or_draw(game, me)
    }
}
