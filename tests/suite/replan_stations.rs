//! `replan` with stations (Europe's rule): a station lets its owner count one
//! other player's route into its city for tickets, and each station never
//! built scores its points. Checked against hand-derived answers and, on
//! random small boards with other players' routes, against brute force over
//! every set of routes and every legal set of borrowings.

use crate::common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ttr_opt::board::{Board, CityId, RouteId, TicketId};
use ttr_opt::engine::state::{GameState, StationState, Track};
use ttr_opt::plans::replan::{replan, replan_by_model, Replan, ReplanReport, StationModel};
use ttr_opt::solve::{Produced, SolveOptions};

/// A board of gray routes (from, to, length) and tickets (from, to,
/// points), with `stations` stations worth `points` each.
fn board(
    cities: &[&str],
    routes: &[(&str, &str, u32)],
    tickets: &[(&str, &str, u32)],
    stations: usize,
    points: u32,
) -> Board {
    let mut json: serde_json::Value =
        serde_json::from_str(&common::board_text(cities, routes, &cards(tickets))).unwrap();
    json["rules"] = serde_json::json!({
        "stations": { "costs": (1..=stations as u32).collect::<Vec<_>>(), "points": points }
    });
    Board::from_json(&json.to_string(), "test board").expect("test board is valid")
}

fn cards<'a>(tickets: &[(&'a str, &'a str, u32)]) -> Vec<Vec<(&'a str, &'a str, u32)>> {
    tickets.iter().map(|&t| vec![t]).collect()
}

fn state(board: &Board, json: serde_json::Value) -> GameState {
    GameState::from_json(&json.to_string(), "state.json", board).expect("a valid state")
}

fn plan(board: &Board, s: &GameState) -> Replan {
    replan(board, s, &SolveOptions::default()).expect("replanning works")
}

/// A line A–B–C–D: the player owns A–B and C–D, another player B–C; the
/// ticket A–D (20) is completed only through a station borrowing B–C.
fn line() -> Board {
    board(
        &["A", "B", "C", "D", "E"],
        &[("A", "B", 1), ("B", "C", 1), ("C", "D", 1), ("D", "E", 2)],
        &[("A", "D", 20)],
        3,
        4,
    )
}

fn line_state(extra: serde_json::Value) -> serde_json::Value {
    let mut json = serde_json::json!({
        "board": "test.json",
        "players": 2,
        "cars_left": 0,
        "owned": [{ "from": "A", "to": "B" }, { "from": "C", "to": "D" }],
        "taken": [{ "from": "B", "to": "C" }],
        "tickets": [{ "from": "A", "to": "D" }],
    });
    for (k, v) in extra.as_object().unwrap() {
        json[k] = v.clone();
    }
    json
}

#[test]
fn a_station_borrows_the_route_that_completes_a_ticket() {
    let b = line();
    let s = state(&b, line_state(serde_json::json!({})));
    assert_eq!(s.stations.as_ref().map(|s| s.left), Some(3));
    let r = plan(&b, &s);
    // Routes 1 + 1, the ticket 20, two stations unbuilt (8): 30. Without
    // the station: 2 − 20 + 12 = −6.
    assert_eq!(r.score, 30);
    assert_eq!(r.station_points, 8);
    assert_eq!(r.borrowed.len(), 1);
    assert!(r.borrowed[0].new);
    assert_eq!(b.route_label(r.borrowed[0].route), "B – C");
    assert_eq!(r.bound, r.score);
    assert_eq!(r.outcome.method, Produced::Stations);
    let report = ReplanReport::new(&b, &s, &r);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["station_points"], 8);
    assert_eq!(json["stations"][0]["borrows"], "B – C");
    assert!(report.table().contains("build, then borrow B – C"));
}

#[test]
fn a_station_already_built_borrows_for_free_and_others_close_cities() {
    let b = line();
    // The player's station in C: the ticket at no further cost.
    let s = state(&b, line_state(serde_json::json!({ "stations": ["C"] })));
    let r = plan(&b, &s);
    assert_eq!((r.score, r.station_points), (2 + 20 + 8, 8));
    assert!(!r.borrowed[0].new);
    // Other players' stations in B and C: nowhere to borrow B–C from.
    let s = state(
        &b,
        line_state(serde_json::json!({ "others_stations": ["B", "C"] })),
    );
    let r = plan(&b, &s);
    assert_eq!(r.score, 2 - 20 + 12);
    assert!(r.borrowed.is_empty());
    // No station left: the same.
    let s = state(
        &b,
        line_state(serde_json::json!({ "stations": ["A", "D", "E"] })),
    );
    assert_eq!(s.stations.as_ref().map(|s| s.left), Some(0));
    assert_eq!(plan(&b, &s).score, 2 - 20);
}

#[test]
fn a_station_is_not_built_where_it_costs_more_than_it_saves() {
    // The ticket is worth 3, the station's points 4: completed it is +3
    // instead of −3, a swing of 6 against the 4 points lost.
    let b = board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "C", 3)],
        1,
        4,
    );
    let json = |points_ticket: &str| {
        serde_json::json!({
            "board": "t.json", "players": 2, "cars_left": 0,
            "owned": [{ "from": "A", "to": "B" }],
            "taken": [{ "from": "B", "to": "C" }],
            "tickets": [{ "from": "A", "to": points_ticket }],
        })
    };
    let r = plan(&b, &state(&b, json("C")));
    assert_eq!(r.score, 1 + 3);
    // Worth 1 only: the station's 4 points beat the swing of 2.
    let b1 = board(
        &["A", "B", "C"],
        &[("A", "B", 1), ("B", "C", 1)],
        &[("A", "C", 1)],
        1,
        4,
    );
    let r = plan(&b1, &state(&b1, json("C")));
    // Route 1, ticket lost −1, the station unbuilt 4.
    assert_eq!((r.score, r.borrowed.len()), (4, 0));
}

#[test]
fn station_entries_are_checked_and_named() {
    let b = line();
    let err = GameState::from_json(
        &line_state(serde_json::json!({
            "stations": ["Nowhere", "C", "A", "D", "E"],
            "others_stations": ["C"],
        }))
        .to_string(),
        "state.json",
        &b,
    )
    .expect_err("invalid")
    .to_string();
    assert!(
        err.contains("stations[0]: unknown city \"Nowhere\""),
        "{err}"
    );
    assert!(err.contains("stations[1] and others_stations[0]"), "{err}");
    assert!(
        err.contains("4 stations listed, but a player has 3"),
        "{err}"
    );
    let usa = common::usa();
    let err = GameState::from_json(
        &serde_json::json!({
            "board": "usa.json", "players": 2, "cars_left": 45,
            "stations": ["Denver"],
        })
        .to_string(),
        "state.json",
        &usa,
    )
    .expect_err("no stations on the USA board")
    .to_string();
    assert!(
        err.contains("stations: the board's rules have no stations"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Brute force over every rule that reaches the optimum.
//
// Written from the rules, apart from the library: which tracks the player
// may still claim (one track of a city pair; with 2–3 players a pair closes
// at its first claim, with 4–5 a double route keeps its other track open),
// where a station may stand (the player's own, or a city without one while
// stations are left), which routes it may borrow (one route into its city
// with a track of another player), and how the end scores (routes, each
// held card's best completed trip or minus its smallest, each card not held
// but drawable its best completed trip, every station left unbuilt). Its
// own union-find; nothing of `replan` or the verifier.

/// The rules the brute force scores by: `Exact`, or one rule broken. Each
/// broken rule must make the brute force disagree with `replan` on some
/// random state, or the states do not exercise that rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    Exact,
    /// A double route closes at its first claim whatever the players.
    DoubleClosedAtFour,
    /// A station may not borrow a route the player could still claim.
    NoBorrowOfClaimable,
    /// Building a station costs none of its points.
    FreeStations,
    /// A held ticket not completed costs nothing.
    NoPenalty,
    /// A ticket of several trips scores its first completed trip.
    FirstTrip,
    /// Tickets not held never score, even when the player may draw.
    NoDrawing,
    /// A station may stand where another player's does.
    StationOnOthers,
    /// The player may hold two tracks of one city pair.
    TwoTracksOfAPair,
    /// A station the player built borrows nothing.
    BuiltStationsIdle,
}

const MUTATIONS: [Rules; 9] = [
    Rules::DoubleClosedAtFour,
    Rules::NoBorrowOfClaimable,
    Rules::FreeStations,
    Rules::NoPenalty,
    Rules::FirstTrip,
    Rules::NoDrawing,
    Rules::StationOnOthers,
    Rules::TwoTracksOfAPair,
    Rules::BuiltStationsIdle,
];

/// One random state with the board it is on and its stations' points.
struct Case {
    board: Board,
    state: GameState,
    points: u32,
}

/// Whether the player may still claim `r` under `rules`.
fn claimable(b: &Board, s: &GameState, r: RouteId, rules: Rules) -> bool {
    let pair = b.route(r).pair;
    let on_pair = |tracks: &[Track]| {
        tracks
            .iter()
            .filter(|t| b.route(t.route).pair == pair)
            .count()
    };
    let owns_pair = if rules == Rules::TwoTracksOfAPair {
        s.owned.iter().any(|t| t.route == r)
    } else {
        on_pair(&s.owned) > 0
    };
    let taken_here = s.taken.iter().filter(|t| t.route == r).count();
    let closed = if s.players <= 3 || rules == Rules::DoubleClosedAtFour {
        on_pair(&s.taken) > 0
    } else {
        taken_here >= b.route(r).tracks.len()
    };
    !owns_pair && !closed
}

/// A tiny union-find over the board's cities.
fn components(b: &Board, edges: impl Iterator<Item = RouteId>) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..b.cities.len()).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for r in edges {
        let (x, y) = (
            find(&mut parent, b.route(r).a.0),
            find(&mut parent, b.route(r).b.0),
        );
        parent[x] = y;
    }
    (0..parent.len()).map(|c| find(&mut parent, c)).collect()
}

/// The tickets' points of a network's components under `rules`.
fn ticket_points(c: &Case, comp: &[usize], rules: Rules) -> i64 {
    let b = &c.board;
    let held: Vec<usize> = c.state.tickets.iter().map(|&t| b.ticket(t).card).collect();
    let mut total = 0;
    for (k, card) in b.cards.iter().enumerate() {
        let done = |t: &TicketId| comp[b.ticket(*t).a.0] == comp[b.ticket(*t).b.0];
        let points = |t: &TicketId| b.ticket(*t).points as i64;
        let best = if rules == Rules::FirstTrip {
            card.trips.iter().find(|t| done(t)).map(points)
        } else {
            card.trips.iter().filter(|t| done(t)).map(points).max()
        };
        if held.contains(&k) {
            let least = card.trips.iter().map(points).min().unwrap();
            total += best.unwrap_or(if rules == Rules::NoPenalty { 0 } else { -least });
        } else if c.state.may_draw && rules != Rules::NoDrawing {
            total += best.unwrap_or(0);
        }
    }
    total
}

/// Every way to use the stations: per city, nothing or one borrowed route
/// (a station there already, or a new one), with the count of new ones.
fn station_choices(c: &Case, rules: Rules) -> Vec<(Vec<RouteId>, u32)> {
    let (b, s) = (&c.board, &c.state);
    let st = s.stations.clone().unwrap_or_default();
    let lent = |r: RouteId| {
        s.taken.iter().any(|t| t.route == r)
            && !(rules == Rules::NoBorrowOfClaimable && claimable(b, s, r, Rules::Exact))
    };
    // (city, built, routes it may borrow)
    let cities: Vec<(bool, Vec<RouteId>)> = (0..b.cities.len())
        .map(CityId)
        .filter_map(|city| {
            let built = st.built.contains(&city);
            let free = !st.others.contains(&city) || rules == Rules::StationOnOthers;
            // A station of the player's that may borrow, or a free city.
            let usable = if built {
                rules != Rules::BuiltStationsIdle
            } else {
                free
            };
            if !usable {
                return None;
            }
            let routes: Vec<RouteId> = b
                .route_ids()
                .filter(|&r| (b.route(r).a == city || b.route(r).b == city) && lent(r))
                .collect();
            (!routes.is_empty()).then_some((built, routes))
        })
        .collect();
    let mut out = Vec::new();
    fn walk(
        cities: &[(bool, Vec<RouteId>)],
        left: u32,
        picked: &mut Vec<RouteId>,
        new: u32,
        out: &mut Vec<(Vec<RouteId>, u32)>,
    ) {
        let Some(((built, routes), rest)) = cities.split_first() else {
            out.push((picked.clone(), new));
            return;
        };
        walk(rest, left, picked, new, out);
        if !*built && new == left {
            return;
        }
        for &r in routes {
            picked.push(r);
            walk(rest, left, picked, new + u32::from(!*built), out);
            picked.pop();
        }
    }
    walk(&cities, st.left, &mut Vec::new(), 0, &mut out);
    out
}

/// Every set of claimable routes, one a city pair, within the cars, to
/// which no further route fits (route points are positive and tickets only
/// gain from a route, so a best plan is among them).
fn route_choices(c: &Case, rules: Rules) -> Vec<Vec<RouteId>> {
    let (b, s) = (&c.board, &c.state);
    let open: Vec<RouteId> = b
        .route_ids()
        .filter(|&r| claimable(b, s, r, rules))
        .collect();
    assert!(open.len() <= 16, "a small case");
    let mut out = Vec::new();
    for mask in 0u32..1 << open.len() {
        let pick: Vec<RouteId> = (0..open.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| open[i])
            .collect();
        let cars: u32 = pick.iter().map(|&r| b.route(r).length).sum();
        let one_a_pair = |x: RouteId, y: RouteId| {
            rules == Rules::TwoTracksOfAPair || b.route(x).pair != b.route(y).pair
        };
        let pairs_ok = pick
            .iter()
            .enumerate()
            .all(|(i, &x)| pick[..i].iter().all(|&y| one_a_pair(x, y)));
        let fits = |r: RouteId| {
            !pick.contains(&r)
                && pick.iter().all(|&y| one_a_pair(r, y))
                && cars + b.route(r).length <= s.cars_left
        };
        if cars <= s.cars_left && pairs_ok && !open.iter().any(|&r| fits(r)) {
            out.push(pick);
        }
    }
    out
}

/// The final score of a plan: `claim` and the owned routes, `borrowed`
/// counted for tickets, `new` stations built.
fn score_of(c: &Case, claim: &[RouteId], borrowed: &[RouteId], new: u32, rules: Rules) -> i64 {
    let b = &c.board;
    let owned = c.state.owned.iter().map(|t| t.route);
    let points: i64 = owned
        .clone()
        .chain(claim.iter().copied())
        .map(|r| b.route(r).points as i64)
        .sum();
    let comp = components(
        b,
        owned
            .chain(claim.iter().copied())
            .chain(borrowed.iter().copied()),
    );
    let st = c.state.stations.clone().unwrap_or_default();
    let built = if rules == Rules::FreeStations { 0 } else { new };
    points + ticket_points(c, &comp, rules) + ((st.left - built) * c.points) as i64
}

/// The best final score from the case's state under `rules`.
fn brute(c: &Case, rules: Rules) -> i64 {
    let stations = station_choices(c, rules);
    let mut best = i64::MIN;
    for claim in route_choices(c, rules) {
        for (borrowed, new) in &stations {
            best = best.max(score_of(c, &claim, borrowed, *new, rules));
        }
    }
    best
}

/// A random board: 5 or 6 cities; 6 to 8 city pairs, each a single track
/// (some tunnels, some ferries), a double route (gray, one colour, two
/// colours) or two parallel tracks of different lengths; 3 or 4 tickets,
/// some of two trips; 1 to 3 stations.
fn random_board(rng: &mut ChaCha8Rng, cars: u32) -> (Board, u32) {
    let names = ["A", "B", "C", "D", "E", "F"];
    let n = rng.random_range(5..=6);
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    while pairs.len() < rng.random_range(6..=8) {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        if a < b && !pairs.contains(&(a, b)) {
            pairs.push((a, b));
        }
    }
    let routes: Vec<serde_json::Value> = pairs
        .iter()
        .map(|&(a, b)| {
            let length = rng.random_range(1..=4u32);
            let mut route =
                serde_json::json!({ "from": names[a], "to": names[b], "length": length });
            match rng.random_range(0..6) {
                0 => route["tracks"] = serde_json::json!(["gray", "gray"]),
                1 => route["tracks"] = serde_json::json!(["red", "red"]),
                2 => route["tracks"] = serde_json::json!(["red", "blue"]),
                3 => {
                    route.as_object_mut().unwrap().remove("length");
                    route["tracks"] = serde_json::json!([
                        { "colour": "green", "length": length },
                        { "colour": "white", "length": length + 1, "ferry": 1 },
                    ]);
                }
                _ => {
                    route["tracks"] = serde_json::json!(["yellow"]);
                    match rng.random_range(0..3) {
                        0 => route["tunnel"] = true.into(),
                        1 => route["ferry"] = 1.into(),
                        _ => {}
                    }
                }
            }
            route
        })
        .collect();
    let mut trips: Vec<(usize, usize)> = Vec::new();
    let mut trip = |rng: &mut ChaCha8Rng, from: Option<usize>| loop {
        let a = from.unwrap_or_else(|| rng.random_range(0..n));
        let b = rng.random_range(0..n);
        if a != b && !trips.contains(&(a.min(b), a.max(b))) {
            trips.push((a.min(b), a.max(b)));
            return serde_json::json!({ "from": names[a], "to": names[b], "points": rng.random_range(2..=12) });
        }
    };
    let tickets: Vec<serde_json::Value> = (0..rng.random_range(3..=4))
        .map(|i| {
            let first = trip(rng, None);
            if rng.random_bool(0.3) {
                let from = names.iter().position(|&c| c == first["from"]).unwrap();
                let second = trip(rng, Some(from));
                serde_json::json!({ "name": format!("card {i}"), "trips": [first, second] })
            } else {
                first
            }
        })
        .collect();
    let count = rng.random_range(1..=3u32);
    let points = rng.random_range(1..=6);
    let json = serde_json::json!({
        "name": "brute",
        "cars": cars,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7, "5": 10 },
        "cities": names[..n].iter().enumerate()
            .map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": 0 })).collect::<Vec<_>>(),
        "routes": routes,
        "tickets": tickets,
        "rules": { "stations": { "costs": (1..=count).collect::<Vec<_>>(), "points": points } },
    });
    let b = Board::from_json(&json.to_string(), "brute board").expect("a valid board");
    (b, points)
}

/// A random state on `b`: 2 to 5 players; tracks claimed by the player and
/// by others as the rules allow (one track of a pair a player, a pair
/// closed at its first claim with 2–3 players); held tickets; stations
/// built by the player and by others; tickets still to draw or not.
fn random_state(rng: &mut ChaCha8Rng, b: &Board) -> GameState {
    let players = rng.random_range(2..=5u32);
    let mut tracks: Vec<Track> = b
        .route_ids()
        .flat_map(|r| (0..b.route(r).tracks.len()).map(move |index| Track { route: r, index }))
        .collect();
    let (mut owned, mut taken): (Vec<Track>, Vec<Track>) = (Vec::new(), Vec::new());
    while !tracks.is_empty() {
        let t = tracks.remove(rng.random_range(0..tracks.len()));
        let pair = b.route(t.route).pair;
        let on_pair = |v: &[Track]| v.iter().any(|u| b.route(u.route).pair == pair);
        let closed = players <= 3 && (on_pair(&owned) || on_pair(&taken));
        match rng.random_range(0..10) {
            0..=1 if !closed && !on_pair(&owned) => owned.push(t),
            2..=4 if !closed => taken.push(t),
            _ => {}
        }
    }
    let mut held = Vec::new();
    for card in &b.cards {
        if rng.random_bool(0.6) {
            held.push(card.trips[0]);
        }
    }
    let count = b.rules.stations.as_ref().map_or(0, |s| s.count());
    let mut cities: Vec<CityId> = (0..b.cities.len()).map(CityId).collect();
    let mut pick = |k: usize, rng: &mut ChaCha8Rng| -> Vec<CityId> {
        (0..k)
            .map(|_| cities.remove(rng.random_range(0..cities.len())))
            .collect()
    };
    let built = pick(rng.random_range(0..=count.min(2)), rng);
    let others = pick(rng.random_range(0..=2), rng);
    GameState {
        players,
        cars_left: rng.random_range(0..=6),
        owned,
        taken,
        tickets: held,
        may_draw: rng.random_bool(0.3),
        stations: Some(StationState {
            left: (count - built.len()) as u32,
            built,
            others,
        }),
    }
}

fn random_case(rng: &mut ChaCha8Rng) -> Case {
    let (board, points) = random_board(rng, 20);
    let state = random_state(rng, &board);
    Case {
        board,
        state,
        points,
    }
}

/// `r`'s plan checked by the brute force's rules: its routes claimable,
/// one a pair, within the cars; its stations where they may stand, each
/// borrowing one route of another player into its city; and its score
/// the one the brute force gives it.
fn check_plan(c: &Case, r: &Replan, what: &str) {
    let (b, s) = (&c.board, &c.state);
    assert!(
        r.claim.iter().all(|&x| claimable(b, s, x, Rules::Exact)),
        "{what}: a route not claimable"
    );
    assert!(
        b.same_pair(&r.claim).is_none(),
        "{what}: two tracks of a pair"
    );
    assert!(r.claim_cars <= s.cars_left, "{what}: over the cars");
    let st = s.stations.clone().unwrap_or_default();
    let mut cities = Vec::new();
    for x in &r.borrowed {
        let route = b.route(x.route);
        assert!(
            s.taken.iter().any(|t| t.route == x.route),
            "{what}: borrows a route nobody else holds"
        );
        assert!(
            route.a == x.city || route.b == x.city,
            "{what}: borrows a route off its city"
        );
        assert_eq!(
            x.new,
            !st.built.contains(&x.city),
            "{what}: station new or not"
        );
        assert!(
            !st.others.contains(&x.city),
            "{what}: a station on another's"
        );
        assert!(!cities.contains(&x.city), "{what}: two routes a station");
        cities.push(x.city);
    }
    let new = r.borrowed.iter().filter(|x| x.new).count() as u32;
    assert!(new <= st.left, "{what}: more stations than left");
    let borrowed: Vec<RouteId> = r.borrowed.iter().map(|x| x.route).collect();
    assert_eq!(
        score_of(c, &r.claim, &borrowed, new, Rules::Exact),
        r.score,
        "{what}: the plan's score"
    );
}

/// The smallest case: 4 players; A–B a double gray route of 6
/// cars with one track another player's; B–C (1 car) another player's; the
/// ticket A–C (5) held; a station in B and two left (4 points each); 6
/// cars. Claiming A–B (15) and letting the station in B borrow B–C
/// completes the ticket: 15 + 5 + 8 = 28 (18 without the ticket).
#[test]
fn a_double_route_both_claimable_and_borrowable_keeps_its_points() {
    let json = serde_json::json!({
        "name": "small", "cars": 20,
        "route_points": { "1": 1, "6": 15 },
        "cities": [{ "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 }, { "name": "C", "x": 2, "y": 0 }],
        "routes": [
            { "from": "A", "to": "B", "length": 6, "tracks": ["gray", "gray"] },
            { "from": "B", "to": "C", "length": 1, "tracks": ["gray"] },
        ],
        "tickets": [{ "from": "A", "to": "C", "points": 5 }],
        "rules": { "stations": { "costs": [1, 2, 3], "points": 4 } },
    });
    let b = Board::from_json(&json.to_string(), "small").unwrap();
    let s = state(
        &b,
        serde_json::json!({
            "board": "small.json", "players": 4, "cars_left": 6,
            "taken": [{ "from": "A", "to": "B" }, { "from": "B", "to": "C" }],
            "tickets": [{ "from": "A", "to": "C" }],
            "stations": ["B"],
        }),
    );
    for r in [
        plan(&b, &s),
        by_model(&b, &s, StationModel::Forest),
        by_model(&b, &s, StationModel::Paper),
    ] {
        assert_eq!((r.score, r.bound), (28, 28));
        assert!(r.outcome.proven);
        assert_eq!(b.route_label(r.claim[0]), "A – B");
        assert_eq!(r.borrowed.len(), 1);
        assert_eq!(b.route_label(r.borrowed[0].route), "B – C");
    }
}

fn by_model(b: &Board, s: &GameState, model: StationModel) -> Replan {
    replan_by_model(b, s, &SolveOptions::default(), model).expect("replanning works")
}

/// On at least 500 random states over every rule: `replan` (with its
/// shortcuts) and the stations' model alone give the brute force's
/// optimum, proven, each plan legal and scored as the brute force scores
/// it; and each rule broken in the brute force is caught by some state.
#[test]
fn replan_equals_brute_force_on_every_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(71);
    let mut caught = vec![false; MUTATIONS.len()];
    let mut seen = Seen::default();
    for case in 0..520 {
        let c = random_case(&mut rng);
        let want = brute(&c, Rules::Exact);
        let fast = plan(&c.board, &c.state);
        let forest = by_model(&c.board, &c.state, StationModel::Forest);
        let paper = by_model(&c.board, &c.state, StationModel::Paper);
        let what = format!("case {case}: {:?}", c.state);
        for (r, name) in [
            (&fast, "replan"),
            (&forest, "the forest model"),
            (&paper, "the paper's model"),
        ] {
            assert_eq!(r.score, want, "{name}, {what}");
            assert!(
                r.outcome.proven && r.bound == r.score,
                "{name} unproven, {what}"
            );
            check_plan(&c, r, &format!("{name}, {what}"));
        }
        seen.note(&c, &fast);
        for (i, &m) in MUTATIONS.iter().enumerate() {
            if !caught[i] && case < 300 {
                caught[i] = brute(&c, m) != want;
            }
        }
    }
    for (i, m) in MUTATIONS.iter().enumerate() {
        assert!(caught[i], "no state tells {m:?} from the rules");
    }
    seen.assert_covers();
}

/// What the random states covered, so the test cannot pass on states
/// that never reach a rule.
#[derive(Default, Debug)]
struct Seen {
    players: [usize; 6],
    borrowing: usize,
    borrowing_claimable: usize,
    built_used: usize,
    drawn: usize,
    multi_trip_held: usize,
    owned_double_other_taken: usize,
}

impl Seen {
    fn note(&mut self, c: &Case, r: &Replan) {
        let (b, s) = (&c.board, &c.state);
        self.players[s.players as usize] += 1;
        self.borrowing += usize::from(!r.borrowed.is_empty());
        self.borrowing_claimable += usize::from(
            r.borrowed
                .iter()
                .any(|x| claimable(b, s, x.route, Rules::Exact)),
        );
        self.built_used += usize::from(r.borrowed.iter().any(|x| !x.new));
        self.drawn += usize::from(!r.drawn.is_empty());
        self.multi_trip_held += usize::from(
            s.tickets
                .iter()
                .any(|&t| b.cards[b.ticket(t).card].trips.len() > 1),
        );
        self.owned_double_other_taken += usize::from(s.owned.iter().any(|o| {
            s.taken
                .iter()
                .any(|t| b.route(t.route).pair == b.route(o.route).pair)
        }));
    }

    fn assert_covers(&self) {
        assert!(self.players[2..].iter().all(|&n| n >= 50), "{self:?}");
        assert!(
            self.borrowing >= 50 && self.built_used >= 10 && self.drawn >= 20,
            "{self:?}"
        );
        assert!(
            self.borrowing_claimable >= 3 && self.multi_trip_held >= 50,
            "{self:?}"
        );
        assert!(self.owned_double_other_taken >= 10, "{self:?}");
    }
}

/// A Europe game the bots played, stations built in it, reviewed: at every
/// turn the best still reachable (stations included) is at least what the
/// player finally scored, the bonus aside, where proven; so replan's model
/// of stations agrees with the engine's final scoring, which borrowed the
/// routes it found best.
#[test]
fn the_review_of_a_europe_game_with_stations_never_finds_less_than_the_final_score() {
    use ttr_opt::leagues::simulate::play;
    use ttr_opt::leagues::simulate::review_played;
    use ttr_opt::plans::review::ReviewOptions;
    let b = common::shipped("europe.json");
    let names = ["planner", "greedy", "greedy"];
    let played = (0..40u64)
        .map(|seed| play(&b, &names, seed, seed).unwrap())
        .find(|p| p.used.stations_built > 0 && !p.stalled)
        .expect("a game with a station among 40");
    let review = review_played(&b, &played, &ReviewOptions::default()).expect("reviewed");
    let mut checked = 0;
    for p in &review.players {
        for t in p.turns.iter().filter(|t| t.proven) {
            assert!(
                t.best >= p.network_score,
                "{} turn {}: best {} below the final {}",
                p.name,
                t.turn,
                t.best,
                p.network_score
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} turns proven");
    // Some plan of the review builds or uses a station.
    let with_station = review
        .players
        .iter()
        .flat_map(|p| &p.turns)
        .filter(|t| t.plan.iter().any(|l| l.contains("station in")))
        .count();
    assert!(with_station > 0, "no plan of the review uses a station");
}

/// The coach on random states with a ticket offer (the player may keep any
/// of the tickets not held): every choice's score is the brute force's
/// optimum with those tickets held, proven, and the plan it gives is the
/// best choice's, legal and scored as the brute force scores it.
#[test]
fn the_coach_weighs_every_choice_as_the_brute_force_does() {
    use ttr_opt::plans::coach::advise;
    let mut rng = ChaCha8Rng::seed_from_u64(7103);
    let mut offers = 0;
    for case in 0..120 {
        let mut c = random_case(&mut rng);
        // What the coach is given: the player's own view, no drawing.
        c.state.may_draw = false;
        let held: Vec<usize> = c
            .state
            .tickets
            .iter()
            .map(|&t| c.board.ticket(t).card)
            .collect();
        let offered: Vec<TicketId> = (0..c.board.cards.len())
            .filter(|k| !held.contains(k))
            .map(|k| c.board.cards[k].trips[0])
            .collect();
        if offered.is_empty() {
            continue;
        }
        offers += 1;
        let advice = advise(
            &c.board,
            &c.state,
            Some((&offered, 1)),
            &SolveOptions::default(),
        )
        .expect("the coach answers");
        assert_eq!(
            advice.choices.len(),
            (1 << offered.len()) - 1,
            "case {case}"
        );
        let mut best = i64::MIN;
        for choice in &advice.choices {
            let mut state = c.state.clone();
            state.tickets.extend(&choice.keep);
            let with = Case {
                board: c.board.clone(),
                state,
                points: c.points,
            };
            let want = brute(&with, Rules::Exact);
            assert_eq!(choice.score, want, "case {case}, keep {:?}", choice.keep);
            assert!(choice.proven && choice.bound == want, "case {case}");
            best = best.max(want);
        }
        assert_eq!(advice.plan.score, best, "case {case}");
        let mut state = c.state.clone();
        state.tickets = advice.tickets.clone();
        check_plan(
            &Case {
                board: c.board.clone(),
                state,
                points: c.points,
            },
            &advice.plan,
            &format!("coach, case {case}"),
        );
    }
    assert!(offers >= 60, "{offers} offers");
}

/// A board for whole games small enough for the brute force: 7 cities, 8
/// cars a player, single, double (gray, one colour, two colours) and
/// parallel tracks, tunnels and ferries, 12 tickets (two of two trips);
/// with 2 stations worth 3 points, or none.
fn game_board(stations: bool) -> Board {
    let cities: Vec<serde_json::Value> = ["A", "B", "C", "D", "E", "F", "G"]
        .iter()
        .enumerate()
        .map(|(i, c)| serde_json::json!({ "name": c, "x": i % 3, "y": i / 3 }))
        .collect();
    let mut json = serde_json::json!({
        "name": "seven", "cars": 8,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": cities,
        "routes": [
            { "from": "A", "to": "B", "length": 2, "tracks": ["gray", "gray"] },
            { "from": "B", "to": "C", "length": 1, "tracks": ["red"], "tunnel": true },
            { "from": "C", "to": "D", "length": 2, "tracks": ["blue", "green"] },
            { "from": "D", "to": "E", "length": 1, "tracks": ["yellow"] },
            { "from": "E", "to": "F", "length": 2, "tracks": ["pink", "pink"] },
            { "from": "F", "to": "G", "length": 1, "tracks": ["white"], "ferry": 1 },
            { "from": "G", "to": "A", "tracks": [{ "colour": "black", "length": 2 }, { "colour": "orange", "length": 3 }] },
            { "from": "A", "to": "D", "length": 3, "tracks": ["gray"] },
            { "from": "B", "to": "E", "length": 3, "tracks": ["green"], "tunnel": true },
            { "from": "C", "to": "G", "length": 2, "tracks": ["gray"] },
        ],
        "tickets": [
            { "from": "A", "to": "C", "points": 4 }, { "from": "B", "to": "D", "points": 4 },
            { "from": "C", "to": "E", "points": 5 }, { "from": "D", "to": "F", "points": 4 },
            { "from": "E", "to": "G", "points": 4 }, { "from": "F", "to": "A", "points": 5 },
            { "from": "G", "to": "B", "points": 4 }, { "from": "A", "to": "E", "points": 6 },
            { "from": "B", "to": "F", "points": 6 }, { "from": "C", "to": "F", "points": 7 },
            { "name": "D to the west", "trips": [{ "from": "D", "to": "A", "points": 3 }, { "from": "D", "to": "G", "points": 5 }] },
            { "name": "E to the east", "trips": [{ "from": "E", "to": "C", "points": 5 }, { "from": "E", "to": "B", "points": 3 }] },
        ],
    });
    if stations {
        json["rules"] = serde_json::json!({ "stations": { "costs": [1, 2], "points": 3 } });
    }
    Board::from_json(&json.to_string(), "seven").expect("a valid board")
}

/// The review of whole games of bots, with and without stations, 2 to 4
/// players: each turn's best still reachable (solved, or carried from the
/// turn before) is the brute force's optimum of the player's state at the
/// start of that turn, proven.
#[test]
fn the_review_equals_brute_force_at_every_turn() {
    use ttr_opt::engine::rules::Game;
    use ttr_opt::leagues::simulate::play;
    use ttr_opt::leagues::simulate::review_played;
    use ttr_opt::plans::review::ReviewOptions;
    let (mut turns, mut with_station) = (0, 0);
    for (stations, names) in [
        (true, &["planner", "greedy"][..]),
        (true, &["greedy", "planner", "greedy"][..]),
        (true, &["greedy", "greedy", "planner", "greedy"][..]),
        (false, &["planner", "greedy"][..]),
        (false, &["greedy", "planner", "greedy", "greedy"][..]),
    ] {
        let b = game_board(stations);
        let points = if stations { 3 } else { 0 };
        for seed in 0..2u64 {
            let played = play(&b, names, seed, seed).expect("the game plays");
            let review = review_played(&b, &played, &ReviewOptions::default()).expect("reviewed");
            // The states at the start of each player's turns, as the review
            // replays them.
            let mut game = Game::new(&b, names.len(), played.seats[0].seed).unwrap();
            let mut starts: Vec<Vec<GameState>> = vec![Vec::new(); names.len()];
            let mut open = vec![false; names.len()];
            for (seat, action) in &played.actions {
                if !game.in_setup() && !open[*seat] {
                    starts[*seat].push(GameState::of_player(&game, *seat));
                    open[*seat] = true;
                }
                if game.apply(*seat, action).unwrap().ends_turn() {
                    open[*seat] = false;
                }
            }
            for (p, player) in review.players.iter().enumerate() {
                assert_eq!(player.turns.len(), starts[p].len());
                for (t, state) in player.turns.iter().zip(&starts[p]) {
                    let c = Case {
                        board: b.clone(),
                        state: state.clone(),
                        points,
                    };
                    let want = brute(&c, Rules::Exact);
                    let what = format!("{names:?} seed {seed}, {} turn {}", player.name, t.turn);
                    assert_eq!(t.best, want, "{what}");
                    assert!(t.proven && t.bound == want, "{what}");
                    turns += 1;
                    with_station += usize::from(t.plan.iter().any(|l| l.contains("station in")));
                }
            }
        }
    }
    assert!(
        turns >= 100 && with_station >= 3,
        "{turns} turns, {with_station} with a station"
    );
}
