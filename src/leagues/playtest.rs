//! AI-based playtesting, after de Mesentier Silva, Lee, Togelius and Nealen
//! (2017, "AI-based Playtesting of Contemporary Board Games"): agents of
//! different styles play a board many times, and the games tell a designer
//! what the rules and the map do in play.
//!
//! For each seat count, over the games of a [`crate::leagues::tournament`]
//! schedule on one board (every table of the strategies in every rotation,
//! the rotations of a round sharing a deal):
//! - **the styles**: each strategy's wins with a 95 % Wilson interval
//!   ([`crate::leagues::tournament::tally`]), and its share of all the games'
//!   wins (the shares and the tied games' share sum to 1): the paper's
//!   characterisation of a map by which style it favours;
//! - **the routes**: how often each route is claimed (share of games), and
//!   by the game's winner, beside whether one proven optimal plan of a
//!   single player at the board's car budget uses it;
//! - **the cities**: how often each city is on a ticket kept (share of
//!   games), beside whether the optimal plan's tickets name it;
//! - **the rule holes**: every game that ended by the stall rule (nobody
//!   could move), hit the simulation's move cap, or met an engine error (a
//!   player with no legal move, a strategy's move refused, a game that
//!   could not be set up), each with its seed and seat order, replayed once
//!   more to check that they reproduce it.
//!
//! Deterministic for a seed, whatever the thread count: each game's seed
//! derives from the seed, the board's name, the table and the round
//! ([`crate::leagues::tournament::game_seed`]).

use std::panic::{catch_unwind, AssertUnwindSafe};

use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, CityId};
use crate::leagues::simulate::{self, Played, NO_LEGAL_MOVE};
use crate::leagues::tournament::{
    self, rate, schedule, tally, Scheduled, Standing, TournamentError,
};
use crate::model::Instance;
use crate::solve::limits::Limits;
use crate::solve::{solve, SolveError, SolveOptions};

/// The strategies played by default: the four styles of the 2017 paper
/// ([`crate::bots::styles`]), then greedy and the planner.
pub const DEFAULT_PLAYERS: [&str; 6] = [
    "route-focus",
    "destination-hungry",
    "one-step",
    "long-route",
    "greedy",
    "planner",
];

/// Routes and cities listed at each end of the tables (most and least).
pub const LISTED: usize = 10;

/// What to play.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The strategies, by name ([`crate::bots::by_name`]).
    pub players: Vec<String>,
    /// The board, with the name it is reported by (it seeds the games).
    pub board: (String, Board),
    /// The seat counts.
    pub seats: Vec<usize>,
    /// Games of each table in each seat order.
    pub games: u64,
    /// The seed every game's seed derives from.
    pub seed: u64,
}

/// Why a playtest cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum PlaytestError {
    /// The setup asks for something impossible; the message names the
    /// argument (`players: ...`, `seats: ...`, `games: ...`).
    #[error("{0}")]
    Setup(String),
    /// The single-player optimum could not be solved.
    #[error("the single-player optimum: {0}")]
    Solve(#[from] SolveError),
}

impl Setup {
    /// The tournament's setup of the same games (one board, no review).
    pub fn tournament(&self) -> tournament::Setup {
        tournament::Setup {
            players: self.players.clone(),
            boards: vec![self.board.clone()],
            seats: self.seats.clone(),
            games: self.games,
            seed: self.seed,
            review: 0,
        }
    }

    /// Checks the setup as the tournament does: two strategies or more,
    /// known and each named once; seat counts of 2 to 5; 1 to
    /// [`tournament::MAX_GAMES`] games.
    pub fn check(&self) -> Result<(), PlaytestError> {
        self.tournament().check().map_err(|e| match e {
            TournamentError::Setup(m) => PlaytestError::Setup(m),
            e => PlaytestError::Setup(e.to_string()),
        })
    }

    /// Games in the schedule, for a progress bar.
    pub fn size(&self) -> u64 {
        schedule(&self.tournament()).len() as u64
    }
}

// ---- One game ---------------------------------------------------------------

/// A kind of rule hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HoleKind {
    /// The stall rule ended the game: nobody could move any more.
    Stall,
    /// The simulation's move cap ([`simulate::MAX_MOVES`]) stopped it.
    MoveCap,
    /// The player to move had no legal move at all.
    NoLegalMove,
    /// The engine refused a strategy's move, could not set the game up, or
    /// a strategy failed.
    EngineError,
}

impl HoleKind {
    /// The kind in words, as the report lists it.
    pub fn label(self) -> &'static str {
        match self {
            HoleKind::Stall => "stall",
            HoleKind::MoveCap => "move cap",
            HoleKind::NoLegalMove => "no legal move",
            HoleKind::EngineError => "engine error",
        }
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// The hole the game met, if any (none: it ended by the rules).
    pub hole: Option<HoleKind>,
    /// Moves made (0 when an error stopped it: its message says where).
    pub moves: usize,
    /// The final scores in turn order (empty after an error).
    pub scores: Vec<i64>,
    /// What happened, in words.
    pub message: String,
}

/// One game played: the game, or the error (or a strategy's panic) that
/// stopped it, as text. Numbered 0 (in the seats and any error's message)
/// whatever its place in a schedule, so that a replay says the same.
pub fn play_one(board: &Board, order: &[String], seed: u64) -> Result<Played, String> {
    let game = 0;
    let names: Vec<&str> = order.iter().map(String::as_str).collect();
    match catch_unwind(AssertUnwindSafe(|| {
        simulate::play(board, &names, game, seed)
    })) {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(e)) => Err(e.to_string()),
        Err(panic) => Err(format!(
            "a strategy or the engine panicked: {}",
            panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)")
        )),
    }
}

/// How a game played by [`play_one`] ended.
pub fn ending(result: &Result<Played, String>) -> Ending {
    match result {
        Ok(p) => {
            let scores: Vec<i64> = p.seats.iter().map(|s| s.score).collect();
            let (hole, message) = if p.capped {
                (
                    Some(HoleKind::MoveCap),
                    format!(
                        "stopped by the move cap after {} moves, not over by the rules",
                        p.moves
                    ),
                )
            } else if p.stalled {
                (
                    Some(HoleKind::Stall),
                    format!(
                        "ended by the stall rule after {} moves: every player passed, nobody \
                         could move",
                        p.moves
                    ),
                )
            } else {
                (None, format!("over by the rules after {} moves", p.moves))
            };
            Ending {
                hole,
                moves: p.moves,
                scores,
                message,
            }
        }
        Err(m) => Ending {
            hole: Some(if m.starts_with(NO_LEGAL_MOVE) {
                HoleKind::NoLegalMove
            } else {
                HoleKind::EngineError
            }),
            moves: 0,
            scores: Vec::new(),
            message: m.clone(),
        },
    }
}

/// One game again, from its seed and seat order (as a rule hole's replay
/// does): how it ended.
pub fn replay(board: &Board, order: &[String], seed: u64) -> Ending {
    ending(&play_one(board, order, seed))
}

// ---- The report -------------------------------------------------------------

/// A game that met a rule hole, and how to replay it.
#[derive(Clone, Debug, Serialize)]
pub struct Hole {
    /// Players at the table.
    pub seats: usize,
    /// The game's number in the schedule.
    pub game: u64,
    /// The strategies in turn order: the replay's `--players`.
    pub order: Vec<String>,
    /// The game's seed: the replay's `--replay`.
    pub seed: u64,
    /// How it ended.
    pub ending: Ending,
    /// Played again alone from its seed and order, it ended the same way.
    pub reproduced: bool,
}

/// A strategy at one seat count: the tournament's standing, and its share
/// of all the games' wins.
#[derive(Clone, Debug, Serialize)]
pub struct Style {
    /// Wins, games, the Wilson interval, means and the rating.
    #[serde(flatten)]
    pub standing: Standing,
    /// Its wins over all the games of the seat count (with the tied games'
    /// share, the shares sum to 1).
    pub win_share: f64,
}

/// One route at one seat count.
#[derive(Clone, Debug, Serialize)]
pub struct RouteUse {
    /// Players at the table.
    pub seats: usize,
    /// The route's index in the board file.
    pub route: usize,
    /// One end.
    pub from: String,
    /// The other end.
    pub to: String,
    /// Its length in cars.
    pub length: u32,
    /// Share of the games in which a player claimed it (either track).
    pub claimed: f64,
    /// Share of the games with an outright winner in which the winner
    /// claimed it.
    pub by_winner: f64,
    /// One proven optimal plan of a single player at the board's car
    /// budget uses it.
    pub in_optimum: bool,
}

/// One city at one seat count.
#[derive(Clone, Debug, Serialize)]
pub struct CityUse {
    /// Players at the table.
    pub seats: usize,
    /// The city.
    pub city: String,
    /// Tickets of the board (cards) that name it: a city none names is
    /// never desired, and is left out of the least desired.
    pub on_tickets: usize,
    /// Share of the games in which a ticket kept (held at the end, by any
    /// player) names it.
    pub desired: f64,
    /// Mean tickets kept naming it, a game.
    pub tickets: f64,
    /// Share of the games with an outright winner in which a ticket the
    /// winner kept names it.
    pub by_winner: f64,
    /// A ticket the optimal plan completes names it.
    pub optimum_ticket: bool,
    /// The optimal plan's routes reach it.
    pub optimum_network: bool,
}

/// The report of one seat count.
#[derive(Clone, Debug, Serialize)]
pub struct SeatCount {
    /// Players at the table.
    pub seats: usize,
    /// Games played to the end (the rule holes of the stall and the cap
    /// included: they have scores).
    pub games: usize,
    /// Games with a top score shared: no one's win.
    pub tied: usize,
    /// `tied / games`.
    pub tie_share: f64,
    /// Games an error stopped (not in any table but the holes).
    pub failed: usize,
    /// The strategies, by win share, highest first.
    pub styles: Vec<Style>,
    /// Every route, most claimed first.
    pub routes: Vec<RouteUse>,
    /// Every city, most desired first.
    pub cities: Vec<CityUse>,
}

/// The single-player optimum the routes and cities are set beside.
#[derive(Clone, Debug, Serialize)]
pub struct Optimum {
    /// The car budget: the board's own.
    pub cars: u32,
    /// Its score.
    pub score: u32,
    /// Proven optimal (else the best plan found within the limits).
    pub proven: bool,
    /// Routes of the plan.
    pub routes: usize,
    /// Tickets it completes.
    pub tickets: usize,
}

/// A playtest's results.
#[derive(Clone, Debug, Serialize)]
pub struct Playtest {
    /// The board, as named.
    pub board: String,
    /// The strategies.
    pub players: Vec<String>,
    /// Games of each table in each seat order.
    pub games_per_order: u64,
    /// The seed.
    pub seed: u64,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Games played (fewer than scheduled when a limit stopped the run).
    pub played: usize,
    /// Seconds, the optimum's solve included.
    pub seconds: f64,
    /// The single-player optimum.
    pub optimum: Optimum,
    /// Per seat count.
    pub counts: Vec<SeatCount>,
    /// Every game that met a rule hole, in schedule order.
    pub holes: Vec<Hole>,
}

/// Sorts by a share, highest first, ties by `key` (stable, deterministic).
fn by_share<T>(rows: &mut [T], share: impl Fn(&T) -> f64, key: impl Fn(&T) -> String) {
    rows.sort_by(|x, y| share(y).total_cmp(&share(x)).then(key(x).cmp(&key(y))));
}

/// The seat of the game's outright winner, if one.
fn winner(p: &Played) -> Option<usize> {
    let top = p.seats.iter().map(|s| s.score).max()?;
    let mut at = p.seats.iter().enumerate().filter(|(_, s)| s.score == top);
    let (w, _) = at.next()?;
    at.next().is_none().then_some(w)
}

/// The cities a ticket names: every trip of its card.
fn ticket_cities(board: &Board, t: crate::board::TicketId) -> Vec<CityId> {
    let card = &board.cards[board.ticket(t).card];
    let mut out = Vec::new();
    for &trip in &card.trips {
        let x = board.ticket(trip);
        for c in [x.a, x.b] {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The routes and cities of one seat count's games.
fn uses(
    board: &Board,
    k: usize,
    played: &[&Played],
    plan: &crate::model::Plan,
) -> (Vec<RouteUse>, Vec<CityUse>) {
    let n = played.len().max(1) as f64;
    let won: Vec<(&Played, usize)> = played
        .iter()
        .filter_map(|p| winner(p).map(|w| (*p, w)))
        .collect();
    let nw = won.len().max(1) as f64;
    let mut claimed = vec![0usize; board.routes.len()];
    let mut by_winner = vec![0usize; board.routes.len()];
    let mut desired = vec![0usize; board.cities.len()];
    let mut tickets = vec![0usize; board.cities.len()];
    let mut wanted_by_winner = vec![0usize; board.cities.len()];
    for p in played {
        let mut routes = vec![false; board.routes.len()];
        let mut cities = vec![false; board.cities.len()];
        for s in &p.seats {
            for r in &s.routes {
                routes[r.0] = true;
            }
            for &t in &s.tickets {
                for c in ticket_cities(board, t) {
                    cities[c.0] = true;
                    tickets[c.0] += 1;
                }
            }
        }
        for (i, &x) in routes.iter().enumerate() {
            claimed[i] += x as usize;
        }
        for (i, &x) in cities.iter().enumerate() {
            desired[i] += x as usize;
        }
    }
    for (p, w) in &won {
        let s = &p.seats[*w];
        let mut routes = vec![false; board.routes.len()];
        for r in &s.routes {
            routes[r.0] = true;
        }
        for (i, &x) in routes.iter().enumerate() {
            by_winner[i] += x as usize;
        }
        let mut cities = vec![false; board.cities.len()];
        for &t in &s.tickets {
            for c in ticket_cities(board, t) {
                cities[c.0] = true;
            }
        }
        for (i, &x) in cities.iter().enumerate() {
            wanted_by_winner[i] += x as usize;
        }
    }
    let share = |c: usize, of: f64| {
        if played.is_empty() {
            0.0
        } else {
            c as f64 / of
        }
    };
    let mut routes: Vec<RouteUse> = board
        .routes
        .iter()
        .enumerate()
        .map(|(i, r)| RouteUse {
            seats: k,
            route: i,
            from: board.city(r.a).name.clone(),
            to: board.city(r.b).name.clone(),
            length: r.length,
            claimed: share(claimed[i], n),
            by_winner: if won.is_empty() {
                0.0
            } else {
                by_winner[i] as f64 / nw
            },
            in_optimum: plan.routes.iter().any(|x| x.0 == i),
        })
        .collect();
    by_share(&mut routes, |r| r.claimed, |r| format!("{:06}", r.route));
    let mut in_tickets = vec![false; board.cities.len()];
    for &t in &plan.tickets {
        for c in ticket_cities(board, t) {
            in_tickets[c.0] = true;
        }
    }
    let mut in_network = vec![false; board.cities.len()];
    for &r in &plan.routes {
        in_network[board.route(r).a.0] = true;
        in_network[board.route(r).b.0] = true;
    }
    let mut on_tickets = vec![0usize; board.cities.len()];
    for card in &board.cards {
        if let Some(&t) = card.trips.first() {
            for c in ticket_cities(board, t) {
                on_tickets[c.0] += 1;
            }
        }
    }
    let mut cities: Vec<CityUse> = board
        .cities
        .iter()
        .enumerate()
        .map(|(i, c)| CityUse {
            seats: k,
            city: c.name.clone(),
            on_tickets: on_tickets[i],
            desired: share(desired[i], n),
            tickets: share(tickets[i], n),
            by_winner: if won.is_empty() {
                0.0
            } else {
                wanted_by_winner[i] as f64 / nw
            },
            optimum_ticket: in_tickets[i],
            optimum_network: in_network[i],
        })
        .collect();
    by_share(&mut cities, |c| c.desired, |c| c.city.clone());
    (routes, cities)
}

/// Runs the playtest: checks the setup, solves the single-player optimum
/// at the board's car budget, plays the tournament's schedule on the
/// current rayon pool (`progress` after each game), replays every game that
/// met a rule hole, and tallies. A limit stops it between games: the games
/// before the first one left out are reported.
pub fn run(
    setup: &Setup,
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<Playtest, PlaytestError> {
    setup.check()?;
    let started = std::time::Instant::now();
    let board = &setup.board.1;
    let within = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let optimum = solve(&Instance::new(board, board.cars), &within)?;
    let t = setup.tournament();
    let games = schedule(&t);
    let results: Vec<Option<Result<Played, String>>> = games
        .par_iter()
        .map(|s| {
            if limits.passed() {
                return None;
            }
            let r = play_one(board, &s.order, s.seed);
            progress();
            (!limits.passed()).then_some(r)
        })
        .collect();
    let results: Vec<Result<Played, String>> = results.into_iter().map_while(|r| r).collect();
    let games = &games[..results.len()];

    // The holes, each replayed alone.
    let holes: Vec<Hole> = games
        .par_iter()
        .zip(&results)
        .filter_map(|(g, r)| {
            let e = ending(r);
            e.hole?;
            let again = replay(board, &g.order, g.seed);
            Some(Hole {
                seats: g.seats,
                game: g.index,
                order: g.order.clone(),
                seed: g.seed,
                reproduced: again == e,
                ending: e,
            })
        })
        .collect();

    // The games played to the end, for the tournament's tally.
    let (ok_games, ok_played): (Vec<Scheduled>, Vec<Played>) = games
        .iter()
        .zip(results.iter())
        .filter_map(|(g, r)| r.as_ref().ok().map(|p| (g.clone(), p.clone())))
        .unzip();
    let mut standings = tally(&t, &ok_games, &ok_played, &[]);
    rate(
        &ok_games,
        &ok_played,
        &mut standings,
        std::slice::from_ref(&setup.board.0),
    );
    let counts = setup
        .seats
        .iter()
        .map(|&k| {
            let played: Vec<&Played> = ok_games
                .iter()
                .zip(&ok_played)
                .filter(|(g, _)| g.seats == k)
                .map(|(_, p)| p)
                .collect();
            let n = played.len();
            let tied = played.iter().filter(|p| winner(p).is_none()).count();
            let share = |c: usize| if n == 0 { 0.0 } else { c as f64 / n as f64 };
            let mut styles: Vec<Style> = standings
                .iter()
                .filter(|s| s.seats == k)
                .map(|s| Style {
                    win_share: share(s.wins),
                    standing: s.clone(),
                })
                .collect();
            by_share(&mut styles, |s| s.win_share, |_| String::new());
            let (routes, cities) = uses(board, k, &played, &optimum.plan);
            SeatCount {
                seats: k,
                games: n,
                tied,
                tie_share: share(tied),
                failed: games
                    .iter()
                    .zip(&results)
                    .filter(|(g, r)| g.seats == k && r.is_err())
                    .count(),
                styles,
                routes,
                cities,
            }
        })
        .collect();
    Ok(Playtest {
        board: setup.board.0.clone(),
        players: setup.players.clone(),
        games_per_order: setup.games,
        seed: setup.seed,
        scheduled: schedule(&t).len(),
        played: results.len(),
        seconds: started.elapsed().as_secs_f64(),
        optimum: Optimum {
            cars: board.cars,
            score: optimum.plan.score(),
            proven: optimum.proven,
            routes: optimum.plan.routes.len(),
            tickets: optimum.plan.tickets.len(),
        },
        counts,
        holes,
    })
}
