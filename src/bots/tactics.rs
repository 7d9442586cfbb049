//! Moves the strategies share: play along a plan, pay for a route (a
//! tunnel's extra cards too), draw the cards targets need, keep tickets,
//! build a station that saves tickets.

use crate::board::verify::StationPartition;
use crate::board::{Board, CityId, Colour, RouteId, TicketId};
use crate::engine::cards::Card;
use crate::engine::rules::{Action, Expect, Game};

/// A move along `plan` (routes in claiming order, each marked whether a
/// ticket of the plan needs it): the routes the tickets need first, then
/// more tickets while `cars` (the cars the player counts on laying) last
/// for one, then the plan's other routes, bought for their points. The
/// planner counts its own cars, the search player its clock's budget.
pub(crate) fn play_plan(game: &Game, me: usize, plan: &[(RouteId, bool)], cars: u32) -> Action {
    let open = |needed: bool| open_routes(game, me, plan, needed);
    let needed = open(true);
    if !needed.is_empty() {
        return play_towards(game, me, &needed, false);
    }
    if incomplete(game, me).is_empty()
        && cars >= 12
        && game.tickets_left() > 0
        && !game.in_last_round()
        && matches!(game.expect(), Expect::Turn)
    {
        return Action::DrawTickets;
    }
    play_towards(game, me, &open(false), false)
}

/// The routes of `plan` that `me` may still claim: those a ticket needs
/// (`needed`), or the others.
pub(crate) fn open_routes(
    game: &Game,
    me: usize,
    plan: &[(RouteId, bool)],
    needed: bool,
) -> Vec<RouteId> {
    plan.iter()
        .filter(|&&(r, n)| n == needed && claimable_track(game, me, r).is_some())
        .map(|&(r, _)| r)
        .collect()
}

/// The first track of `route` that `me` may claim now (cards aside).
pub(crate) fn claimable_track(game: &Game, me: usize, route: RouteId) -> Option<usize> {
    (0..game.board.route(route).tracks.len()).find(|&t| game.can_claim_track(me, route, t).is_ok())
}

/// Held tickets not yet completed by the player's network.
pub(crate) fn incomplete(game: &Game, me: usize) -> Vec<TicketId> {
    let board: &Board = &game.board;
    let player = &game.players[me];
    let uf = StationPartition::new(
        board.cities.len(),
        player
            .routes()
            .iter()
            .map(|&r| (board.route(r).a, board.route(r).b)),
    );
    player
        .tickets
        .iter()
        .copied()
        .filter(|&t| !uf.connected(board.ticket(t).a, board.ticket(t).b))
        .collect()
}

/// Cars on a cheapest connection of `a` and `b` over the player's own routes
/// (free) and the routes it may still claim, with the routes to claim; None
/// if none is left.
pub(crate) fn cheapest_connection(
    game: &Game,
    me: usize,
    a: CityId,
    b: CityId,
) -> Option<(u32, Vec<RouteId>)> {
    connection_via(game, me, a, b, &[])
}

/// [`cheapest_connection`] with the routes of `free` counted as the
/// player's own (free, left out of the routes to claim): a ticket's cost
/// beside a plan, or after a claim.
pub(crate) fn connection_via(
    game: &Game,
    me: usize,
    a: CityId,
    b: CityId,
    free: &[RouteId],
) -> Option<(u32, Vec<RouteId>)> {
    let board: &Board = &game.board;
    let n = board.cities.len();
    let mut owned = game.players[me].routes();
    owned.extend_from_slice(free);
    let cost = |r: RouteId| -> Option<u32> {
        if owned.contains(&r) {
            Some(0)
        } else {
            claimable_track(game, me, r).map(|_| board.route(r).length)
        }
    };
    let mut dist = vec![u32::MAX; n];
    let mut via: Vec<Option<RouteId>> = vec![None; n];
    let mut done = vec![false; n];
    dist[a.0] = 0;
    // Dijkstra by scanning: 36 cities.
    while let Some(u) = (0..n)
        .filter(|&c| !done[c] && dist[c] != u32::MAX)
        .min_by_key(|&c| (dist[c], c))
    {
        done[u] = true;
        if u == b.0 {
            break;
        }
        for r in board.route_ids() {
            let route = board.route(r);
            let v = if route.a.0 == u {
                route.b.0
            } else if route.b.0 == u {
                route.a.0
            } else {
                continue;
            };
            if let Some(c) = cost(r) {
                if dist[u] + c < dist[v] {
                    dist[v] = dist[u] + c;
                    via[v] = Some(r);
                }
            }
        }
    }
    if dist[b.0] == u32::MAX {
        return None;
    }
    let mut path = Vec::new();
    let mut at = b.0;
    while at != a.0 {
        let r = via[at].expect("a reached city has a predecessor");
        if !owned.contains(&r) {
            path.push(r);
        }
        let route = board.route(r);
        at = if route.a.0 == at {
            route.b.0
        } else {
            route.a.0
        };
    }
    Some((dist[b.0], path))
}

/// The greedy targets: routes on cheapest connections of the incomplete
/// tickets, those serving most tickets first, then the longest.
pub(crate) fn ticket_targets(game: &Game, me: usize) -> Vec<RouteId> {
    let board: &Board = &game.board;
    let mut count: Vec<(RouteId, u32)> = Vec::new();
    for t in incomplete(game, me) {
        let ticket = board.ticket(t);
        if let Some((_, path)) = cheapest_connection(game, me, ticket.a, ticket.b) {
            for r in path {
                match count.iter_mut().find(|(x, _)| *x == r) {
                    Some((_, c)) => *c += 1,
                    None => count.push((r, 1)),
                }
            }
        }
    }
    count.sort_by_key(|&(r, c)| {
        (
            std::cmp::Reverse(c),
            std::cmp::Reverse(board.route(r).length),
            r,
        )
    });
    count.into_iter().map(|(r, _)| r).collect()
}

/// A payment for `route` from the hand: (track, colour, locomotives) with the
/// fewest locomotives; on gray, the colour held most.
pub(crate) fn payment(game: &Game, me: usize, route: RouteId) -> Option<Action> {
    // The first of the cheapest, as the engine lists them.
    let claim = game
        .claims_of(me, route)
        .into_iter()
        .min_by_key(|a| match a {
            Action::Claim { locomotives, .. } => *locomotives,
            _ => u32::MAX,
        })?;
    // A tunnel asks for more about one try in two: it is tried with a
    // spare card of the colour or a locomotive in hand (without one, a
    // try that asks for more is a turn lost), unless the game is ending
    // or no card is left to draw (a pass is illegal while a claim is not).
    let r = game.board.route(route);
    let can_draw = game.deck_len() + game.discard_len() > 0 || !game.face_up().is_empty();
    if r.tunnel && !game.in_last_round() && can_draw {
        if let Action::Claim { colour, .. } = claim {
            let hand = &game.players[me].hand;
            if hand[Card::Train(colour).index()] + hand[Card::Locomotive.index()] <= r.length {
                return None;
            }
        }
    }
    Some(claim)
}

/// Claims the first affordable target, else draws the cards the targets
/// need; with nothing left to draw, claims the longest affordable route.
/// The `greedy` player of the C# simulation also draws tickets when nothing
/// is targeted, and claims the longest affordable route when its hand
/// passes 24 cards.
pub(crate) fn play_towards(game: &Game, me: usize, targets: &[RouteId], greedy: bool) -> Action {
    let player = &game.players[me];
    match game.expect() {
        Expect::SecondCard => return draw_card(game, targets, true),
        Expect::Tunnel(t) => return pay_or_give_up(game, targets, t.route),
        _ => {}
    }
    if let Some(a) = targets.iter().find_map(|&r| payment(game, me, r)) {
        return a;
    }
    if let Some(a) = station_saving_tickets(game, me) {
        return a;
    }
    // Cards drawn in the last turn score nothing.
    if game.in_last_round() {
        if let Some(a) = longest_affordable(game, me) {
            return a;
        }
    }
    let longest = || longest_affordable(game, me);
    if greedy
        && targets.is_empty()
        && game.tickets_left() > 0
        && player.tickets.len() <= 5
        && player.cars >= 10
        && !game.in_last_round()
    {
        return Action::DrawTickets;
    }
    let can_draw = game.deck_len() + game.discard_len() > 0 || !game.face_up().is_empty();
    if (greedy && player.cards() > 24) || !can_draw {
        if let Some(a) = longest() {
            return a;
        }
    }
    if can_draw {
        return draw_card(game, targets, false);
    }
    if game.tickets_left() > 0 {
        return Action::DrawTickets;
    }
    Action::Pass
}

/// A tunnel's extra cards, the fewest locomotives among them, when the
/// route is a target or they take no locomotive; else giving it up (a
/// route claimed for its points is not worth the locomotives a ticket's
/// route may need).
pub(crate) fn pay_or_give_up(game: &Game, targets: &[RouteId], route: RouteId) -> Action {
    match game.tunnel_options().first() {
        Some(o) if targets.contains(&route) || o.locomotives == 0 => Action::PayTunnel {
            locomotives: o.locomotives,
        },
        _ => Action::GiveUpTunnel,
    }
}

/// A station that completes held tickets now by borrowing another
/// player's route into its city, when the tickets it saves are worth more
/// than the station's points (a ticket saved counts twice: its points won
/// and its loss avoided); the station saving the most, paid with the
/// fewest locomotives.
pub(crate) fn station_saving_tickets(game: &Game, me: usize) -> Option<Action> {
    let rule = game.board.rules.stations.as_ref()?;
    let pay = game
        .station_payments(me)
        .into_iter()
        .min_by_key(|p| (p.min_locomotives, p.colour.is_none()))?;
    let board: &Board = &game.board;
    let player = &game.players[me];
    let mut routes = player.routes();
    routes.extend(game.borrowed(me));
    // The final scoring's ticket points: a ticket a borrowed route
    // completes gains its best trip and no longer loses its smallest.
    let saved = |extra: Option<RouteId>| -> i64 {
        let mut with: Vec<RouteId> = routes.clone();
        with.extend(extra);
        game.ticket_points(&player.tickets, &with).0
    };
    let now = saved(None);
    let mut best: Option<(i64, CityId)> = None;
    for r in board.route_ids() {
        let route = board.route(r);
        let theirs = (0..route.tracks.len()).any(|t| game.owner(r, t).is_some_and(|p| p != me));
        if !theirs || routes.contains(&r) {
            continue;
        }
        let Some(city) = [route.a, route.b]
            .into_iter()
            .find(|&c| game.station_owner(c).is_none())
        else {
            continue;
        };
        let gain = saved(Some(r)) - now;
        if gain > rule.points as i64 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, city));
        }
    }
    let (_, city) = best?;
    Some(Action::BuildStation {
        city,
        colour: pay.colour.unwrap_or(Colour::Red),
        locomotives: pay.min_locomotives,
    })
}

/// A claim of the longest route the hand pays for (the most points).
pub(crate) fn longest_affordable(game: &Game, me: usize) -> Option<Action> {
    let board: &Board = &game.board;
    board
        .route_ids()
        .filter_map(|r| payment(game, me, r))
        .max_by_key(|a| match a {
            Action::Claim { route, .. } => (board.route(*route).length, std::cmp::Reverse(route.0)),
            _ => (0, std::cmp::Reverse(0)),
        })
}

/// A face-up card of a colour the targets need, else the deck, else any
/// face-up card (no locomotive as a second card).
pub(crate) fn draw_card(game: &Game, targets: &[RouteId], second: bool) -> Action {
    let board: &Board = &game.board;
    let wanted: Vec<Colour> = targets
        .iter()
        .flat_map(|&r| board.route(r).tracks.iter().copied())
        .filter(|&c| c != Colour::Gray)
        .collect();
    let face_up = game.face_up();
    if let Some(i) = face_up
        .iter()
        .position(|c| matches!(c, Card::Train(colour) if wanted.contains(colour)))
    {
        return Action::DrawFaceUp(i);
    }
    if game.deck_len() + game.discard_len() > 0 {
        return Action::DrawDeck;
    }
    match face_up
        .iter()
        .position(|&c| !(second && c == Card::Locomotive))
    {
        Some(i) => Action::DrawFaceUp(i),
        None => Action::Pass,
    }
}

/// Greedy ticket choice: the `min` tickets (or more, if already complete)
/// with the most points per car still needed.
pub(crate) fn keep_cheapest(game: &Game, me: usize, offered: &[TicketId], min: usize) -> Action {
    let board: &Board = &game.board;
    let mut rated: Vec<(f64, TicketId, u32)> = offered
        .iter()
        .map(|&t| {
            let ticket = board.ticket(t);
            match cheapest_connection(game, me, ticket.a, ticket.b) {
                Some((cars, _)) => (ticket.points as f64 / cars.max(1) as f64, t, cars),
                None => (-1.0, t, u32::MAX),
            }
        })
        .collect();
    rated.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let kept: Vec<TicketId> = rated
        .iter()
        .enumerate()
        .filter(|(i, (_, _, cars))| *i < min || *cars == 0)
        .map(|(_, (_, t, _))| *t)
        .collect();
    Action::KeepTickets(kept)
}
