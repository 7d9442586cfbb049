//! Many seeded games between strategies, and what they score.
//!
//! Game g is played with seed `seed + g`, so every game replays on its own,
//! whatever the thread count. The seats rotate with g, so no strategy keeps
//! the first move.

use crate::solve::limits::Limits;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::board::{Board, RouteId, TicketId};
use crate::bots::{by_name, Strategy};
use crate::engine::event::{Event, Happened};
use crate::engine::rules::{Action, Game, Illegal, RuleError};
use crate::model::Instance;
use crate::plans::review::{numbered, review, Review, ReviewError, ReviewOptions};
use crate::solve::{solve, SolveOptions};
use crate::stats::quantile;

/// Moves after which a game is stopped as stalled (no real game comes near:
/// 45 cars at one route per turn is a few hundred moves for 5 players): a
/// guard of the simulation's own against a strategy that never ends a game,
/// on top of the rules engine's stall rule (a game nobody can move in ends,
/// [`Game::stalled`]), which the online game plays by too.
pub const MAX_MOVES: usize = 5_000;

/// How [`play`]'s error begins when the player to move had no legal move at
/// all (a state no rule covers), not merely an illegal one of its choosing.
pub const NO_LEGAL_MOVE: &str = "no legal move";

/// One player's game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seat {
    /// The game's number in the run, from 0.
    pub game: u64,
    /// The game's seed (`seed + game`): it replays the game.
    pub seed: u64,
    /// Position in the turn order (0 moves first).
    pub position: usize,
    /// Players in the game.
    pub players: usize,
    /// The strategy's name ("greedy", "planner").
    pub strategy: String,
    /// The final score, in points: routes, tickets ± and the longest-path
    /// bonus.
    pub score: i64,
    /// Points of the routes claimed.
    pub route_points: u32,
    /// Points of completed tickets minus those of failed ones.
    pub ticket_points: i64,
    /// Tickets held and completed.
    pub tickets_completed: usize,
    /// Tickets held at the end, completed or not.
    pub tickets_held: usize,
    /// The player's longest continuous path, in cars.
    pub longest_path: u32,
    /// The longest-path bonus won: 10 points, or 0.
    pub bonus: u32,
    /// Train cars placed on the board.
    pub cars_used: u32,
    /// Turns taken.
    pub turns: u32,
    /// Score without the longest-path bonus: what the optimum bounds.
    pub network_score: i64,
    /// The game was stopped: the move limit, or no player could move.
    pub stalled: bool,
    /// The routes claimed (not in the JSON).
    #[serde(skip)]
    pub routes: Vec<RouteId>,
    /// The tickets held, each by its first trip (not in the JSON).
    #[serde(skip)]
    pub tickets: Vec<TicketId>,
}

/// One game's record.
#[derive(Clone, Debug)]
pub struct Played {
    /// One entry per player, in turn order.
    pub seats: Vec<Seat>,
    /// Total moves made.
    pub moves: usize,
    /// Stopped by the move limit or because nobody could move.
    pub stalled: bool,
    /// Stopped by the move limit ([`MAX_MOVES`]), not the stall rule.
    pub capped: bool,
    /// Every move, by seat: the game again from its seed, for a review.
    pub actions: Vec<(usize, Action)>,
    /// How often the board's own rules were used.
    pub used: RulesUsed,
}

/// How often a game used the board's own rules: tunnels, ferries and
/// stations (all 0 on a board without them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesUsed {
    /// Tunnels claimed.
    pub tunnels_claimed: u32,
    /// Tunnels given up (by choice, or a hand that could not pay).
    pub tunnels_given_up: u32,
    /// Tunnels whose turned cards asked for extra cards (paid or not).
    pub tunnels_asked_more: u32,
    /// Ferries claimed.
    pub ferries_claimed: u32,
    /// Stations built.
    pub stations_built: u32,
    /// Other players' routes used by stations at the end.
    pub routes_borrowed: u32,
}

impl RulesUsed {
    /// Counts what `event` used.
    pub fn count(&mut self, board: &Board, event: &Event) {
        match &event.happened {
            Happened::Claimed(c) => {
                let r = board.route(c.route);
                self.tunnels_claimed += r.tunnel as u32;
                let paid = c.paid.cards.map_or(0, |(_, n)| n) + c.paid.locomotives;
                self.tunnels_asked_more += (r.tunnel && paid > r.length) as u32;
                self.ferries_claimed += (r.ferry > 0) as u32;
            }
            Happened::TunnelGivenUp(_) => {
                self.tunnels_given_up += 1;
                self.tunnels_asked_more += 1;
            }
            Happened::StationBuilt { .. } => self.stations_built += 1,
            _ => {}
        }
    }
}

impl std::ops::Add for RulesUsed {
    type Output = RulesUsed;
    /// The sum of two counts.
    fn add(self, o: RulesUsed) -> RulesUsed {
        RulesUsed {
            tunnels_claimed: self.tunnels_claimed + o.tunnels_claimed,
            tunnels_given_up: self.tunnels_given_up + o.tunnels_given_up,
            tunnels_asked_more: self.tunnels_asked_more + o.tunnels_asked_more,
            ferries_claimed: self.ferries_claimed + o.ferries_claimed,
            stations_built: self.stations_built + o.stations_built,
            routes_borrowed: self.routes_borrowed + o.routes_borrowed,
        }
    }
}

/// Plays one game between `names` (in turn order) from `seed`. A strategy's
/// illegal move is an error naming it (a strategy bug, never a panic).
pub fn play(board: &Board, names: &[&str], game: u64, seed: u64) -> Result<Played, RuleError> {
    let mut strategies: Vec<Box<dyn Strategy>> = names
        .iter()
        .map(|n| {
            by_name(n)
                .ok_or_else(|| RuleError::new(Illegal::Setup, format!("unknown strategy \"{n}\"")))
        })
        .collect::<Result<_, _>>()?;
    let mut g = Game::new(board, names.len(), seed)?;
    // The strategies' own randomness, apart from the game's.
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
    let mut moves = 0;
    let mut actions = Vec::new();
    let mut capped = false;
    let mut used = RulesUsed::default();
    while !g.is_over() {
        if moves >= MAX_MOVES {
            g.stop();
            capped = true;
            break;
        }
        let me = g.current();
        let action = strategies[me].decide(&g, me, &mut rng);
        let event = g.apply(me, &action).map_err(|e| {
            // A player with no legal move at all is the rules' hole, not
            // the strategy's.
            let none = if g.legal().is_empty() {
                format!("{NO_LEGAL_MOVE}: ")
            } else {
                String::new()
            };
            RuleError::new(
                e.kind,
                format!(
                    "{none}{} (player {me}) made an illegal move {action:?} in game {game}: {e}",
                    strategies[me].name()
                ),
            )
        })?;
        used.count(board, &event);
        actions.push((me, action));
        moves += 1;
    }
    let stalled = capped || g.stalled();
    let results = g.results();
    used.routes_borrowed = results.iter().map(|r| r.borrowed.len() as u32).sum();
    let seats = results
        .iter()
        .enumerate()
        .map(|(p, r)| {
            let player = &g.players[p];
            Seat {
                game,
                seed,
                position: p,
                players: names.len(),
                strategy: names[p].to_string(),
                score: r.score,
                route_points: r.route_points,
                ticket_points: r.ticket_points,
                tickets_completed: r.completed.len(),
                tickets_held: player.tickets.len(),
                longest_path: r.longest_path,
                bonus: r.bonus,
                cars_used: board.cars - player.cars,
                turns: player.turns,
                network_score: r.score - r.bonus as i64,
                stalled,
                routes: player.routes(),
                tickets: player.tickets.clone(),
            }
        })
        .collect();
    Ok(Played {
        seats,
        moves,
        stalled,
        capped,
        actions,
        used,
    })
}

/// Which games of a run [`simulate`] plays, and how. The default: the
/// command line's 1,000 games from seed 1, no limits, no one told.
#[derive(Clone)]
pub struct SimulateOptions<'a> {
    /// The games, by number in the run: game g is seeded `seed + g`, its
    /// seats rotated by g. A whole run is `0..n`; a chunk of a distributed
    /// run plays its own range, and the chunks in order are the whole run.
    pub games: std::ops::Range<u64>,
    /// The seed of game 0.
    pub seed: u64,
    /// The call's limits: when they stop it, the games finished before, in
    /// order.
    pub limits: Limits,
    /// Called after each game.
    pub progress: &'a (dyn Fn() + Sync),
}

impl Default for SimulateOptions<'_> {
    fn default() -> Self {
        SimulateOptions::games(1000, 1)
    }
}

impl SimulateOptions<'_> {
    /// Games `0..games` from `seed`, no limits, no one told.
    pub fn games(games: u64, seed: u64) -> Self {
        SimulateOptions {
            games: 0..games,
            seed,
            limits: Limits::none(),
            progress: &|| {},
        }
    }
}

/// Plays the games of `options` between `names` (seats rotating), on the
/// current rayon pool.
pub fn simulate(
    board: &Board,
    names: &[&str],
    options: &SimulateOptions,
) -> Result<Vec<Played>, RuleError> {
    let &SimulateOptions {
        ref games,
        seed,
        ref limits,
        progress,
    } = options;
    let played: Vec<Option<Played>> = games
        .clone()
        .into_par_iter()
        .map(|g| {
            // A game the call's limits overtook played on with unproven
            // plans: it is left out, not counted.
            if limits.passed() {
                return Ok(None);
            }
            let n = names.len();
            let shift = (g % n as u64) as usize;
            let order: Vec<&str> = (0..n).map(|i| names[(i + shift) % n]).collect();
            let played = play(board, &order, g, seed.wrapping_add(g))?;
            progress();
            Ok((!limits.passed()).then_some(played))
        })
        .collect::<Result<_, RuleError>>()?;
    // The games before the first one left out: the same first games as a
    // run with more time, whatever the threads did.
    Ok(played.into_iter().map_while(|p| p).collect())
}

/// A game as a chunk of a distributed run hands it back: what the report
/// needs (its seats with their routes and tickets, by index), not its moves.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// Total moves made.
    pub moves: usize,
    /// Stopped by the move limit or because nobody could move.
    pub stalled: bool,
    /// One entry per player, in turn order.
    pub seats: Vec<SeatRecord>,
    /// How often the board's own rules were used.
    #[serde(default)]
    pub used: RulesUsed,
}

/// A seat with the routes and tickets that [`Seat`]'s JSON leaves out.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat.
    #[serde(flatten)]
    pub seat: Seat,
    /// The routes claimed, by index.
    pub route_ids: Vec<usize>,
    /// The tickets held, by index.
    pub ticket_ids: Vec<usize>,
}

impl GameRecord {
    /// The record of a game played.
    pub fn of(played: &Played) -> GameRecord {
        GameRecord {
            moves: played.moves,
            stalled: played.stalled,
            used: played.used,
            seats: played
                .seats
                .iter()
                .map(|s| SeatRecord {
                    seat: s.clone(),
                    route_ids: s.routes.iter().map(|r| r.0).collect(),
                    ticket_ids: s.tickets.iter().map(|t| t.0).collect(),
                })
                .collect(),
        }
    }

    /// The game again, for the report (without its moves: it cannot be
    /// reviewed). Fails on a route or ticket the board does not have.
    pub fn played(self, board: &Board) -> Result<Played, String> {
        let check = |what: &str, i: usize, n: usize| {
            (i < n)
                .then_some(i)
                .ok_or_else(|| format!("game record: {what} {i} is not on the board ({n})"))
        };
        let seats = self
            .seats
            .into_iter()
            .map(|r| {
                let mut seat = r.seat;
                seat.routes = r
                    .route_ids
                    .into_iter()
                    .map(|i| check("route", i, board.routes.len()).map(RouteId))
                    .collect::<Result<_, _>>()?;
                seat.tickets = r
                    .ticket_ids
                    .into_iter()
                    .map(|i| check("ticket", i, board.tickets.len()).map(TicketId))
                    .collect::<Result<_, _>>()?;
                Ok(seat)
            })
            .collect::<Result<_, String>>()?;
        Ok(Played {
            seats,
            used: self.used,
            moves: self.moves,
            stalled: self.stalled,
            // A record keeps one flag for both stops; the cap is the one
            // that leaves exactly MAX_MOVES moves.
            capped: self.stalled && self.moves >= MAX_MOVES,
            actions: Vec::new(),
        })
    }
}

/// Distribution of one strategy's results.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The strategy's name.
    pub strategy: String,
    /// Seats it played, over all games.
    pub seats: usize,
    /// Games in which it has the top score (ties count as a win for each).
    pub wins: usize,
    /// Mean final score, in points.
    pub mean: f64,
    /// Lowest final score.
    pub min: i64,
    /// 10th percentile of the final scores.
    pub p10: f64,
    /// 25th percentile of the final scores.
    pub p25: f64,
    /// Median final score.
    pub median: f64,
    /// 75th percentile of the final scores.
    pub p75: f64,
    /// 90th percentile of the final scores.
    pub p90: f64,
    /// Highest final score.
    pub max: i64,
    /// Mean number of tickets completed per seat.
    pub mean_tickets_completed: f64,
    /// Mean number of tickets held per seat.
    pub mean_tickets_held: f64,
    /// Mean train cars placed per seat.
    pub mean_cars_used: f64,
    /// Mean turns taken per seat.
    pub mean_turns: f64,
    /// Mean of (optimum − network score): how far below the single-player
    /// optimum for the board's cars the strategy lands.
    pub mean_gap_to_optimum: f64,
    /// The largest network score seen (never above the optimum).
    pub best_network_score: i64,
}

/// Per strategy, in order of first appearance in `names`.
pub fn summarise(played: &[Played], names: &[&str], optimum: u32) -> Vec<Summary> {
    let mut order: Vec<&str> = Vec::new();
    for n in names {
        if !order.contains(n) {
            order.push(n);
        }
    }
    order
        .iter()
        .map(|&name| {
            let seats: Vec<&Seat> = played
                .iter()
                .flat_map(|p| &p.seats)
                .filter(|s| s.strategy == name)
                .collect();
            let wins = played
                .iter()
                .filter(|p| {
                    let best = p.seats.iter().map(|s| s.score).max().unwrap_or(0);
                    p.seats
                        .iter()
                        .any(|s| s.strategy == name && s.score == best)
                })
                .count();
            let mut scores: Vec<i64> = seats.iter().map(|s| s.score).collect();
            scores.sort();
            let n = seats.len().max(1) as f64;
            let mean = |f: &dyn Fn(&Seat) -> f64| seats.iter().map(|s| f(s)).sum::<f64>() / n;
            Summary {
                strategy: name.to_string(),
                seats: seats.len(),
                wins,
                mean: mean(&|s| s.score as f64),
                min: scores.first().copied().unwrap_or(0),
                p10: quantile(&scores, 0.10),
                p25: quantile(&scores, 0.25),
                median: quantile(&scores, 0.5),
                p75: quantile(&scores, 0.75),
                p90: quantile(&scores, 0.90),
                max: scores.last().copied().unwrap_or(0),
                mean_tickets_completed: mean(&|s| s.tickets_completed as f64),
                mean_tickets_held: mean(&|s| s.tickets_held as f64),
                mean_cars_used: mean(&|s| s.cars_used as f64),
                mean_turns: mean(&|s| s.turns as f64),
                mean_gap_to_optimum: mean(&|s| optimum as f64 - s.network_score as f64),
                best_network_score: seats.iter().map(|s| s.network_score).max().unwrap_or(0),
            }
        })
        .collect()
}

/// Share of a strategy's seats that claimed each route.
pub fn route_shares(board: &Board, played: &[Played], strategy: &str) -> Vec<f64> {
    let mut counts = vec![0usize; board.routes.len()];
    let mut seats = 0;
    for s in played
        .iter()
        .flat_map(|p| &p.seats)
        .filter(|s| s.strategy == strategy)
    {
        seats += 1;
        for r in &s.routes {
            counts[r.0] += 1;
        }
    }
    counts
        .into_iter()
        .map(|c| {
            if seats == 0 {
                0.0
            } else {
                c as f64 / seats as f64
            }
        })
        .collect()
}

/// The optimum of one player alone with the board's own cars: what the
/// simulated scores are measured against.
pub fn single_player_optimum(
    board: &Board,
    limits: &Limits,
) -> Result<u32, crate::solve::SolveError> {
    let instance = crate::model::Instance::new(board, board.cars);
    let options = crate::solve::SolveOptions {
        limits: limits.clone(),
        ..Default::default()
    };
    let outcome = crate::solve::solve_proven(&instance, &options, || {
        format!("the optimum of {} cars was proven", board.cars)
    })?;
    Ok(outcome.plan.score())
}

/// Reviews simulated games one after another (each on the current pool),
/// the board's optimum solved once for all; `progress` after each.
pub fn review_games(
    board: &Board,
    played: &[Played],
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Review>, ReviewError> {
    let within = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let optimum = solve(&Instance::new(board, board.cars), &within)?;
    let options = ReviewOptions {
        board_optimum: Some((optimum.plan.score(), optimum.proven)),
        limits: limits.clone(),
        ..ReviewOptions::default()
    };
    played
        .iter()
        .map(|p| {
            let r = review_played(board, p, &options);
            progress();
            r
        })
        .collect()
}

/// Reviews a simulated game ([`play`]); seats are
/// named by strategy (numbered where several play the same).
pub fn review_played(
    board: &Board,
    played: &Played,
    options: &ReviewOptions,
) -> Result<Review, ReviewError> {
    let seed = played.seats.first().map_or(0, |s| s.seed);
    let game = Game::new(board, played.seats.len(), seed).map_err(ReviewError::Deal)?;
    let names: Vec<String> = played.seats.iter().map(|s| s.strategy.clone()).collect();
    review(game, &played.actions, &numbered(names), options)
}
