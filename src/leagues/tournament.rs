//! A tournament between strategies: on every board and seat count, every
//! table of the strategies named, in every seat order, a number of seeded
//! games each; per strategy, board and seat count its wins with a Wilson
//! interval, mean score and tickets, the points it lost by cause (a
//! reviewed sample) and a Weng-Lin rating.
//!
//! Five phases, each a function:
//! - [`schedule`]: the games to play. A table of `k` seats is a combination
//!   of `k` of the strategies named, without repetition; only when fewer
//!   strategies than seats are named, a multiset of them holding at least
//!   two different ones (two strategies at four seats: AAAB, AABB, ABBB).
//!   Each table is played in its `k` rotations (every strategy in every
//!   position once per round; for 2 seats that is every order, for more
//!   the mirror orders are not played). Each rotation is played `games`
//!   times. The rotations of one round of one table share their deal (the
//!   seed, hence the tickets and the deck by seat position): a strategy
//!   sits once in every position of the same deal, which takes out much of
//!   the luck of the deal, as duplicate bridge does. The schedule runs
//!   round by round, so a run the time limit stops leaves whole rounds of
//!   every table, and the games' numbers in it are the rating's order.
//! - [`play`]: every game, on the current rayon pool
//!   ([`crate::leagues::simulate::play`], as `simulate` plays them).
//! - [`review`]: a sample of the games reviewed turn by turn
//!   ([`crate::plans::review`]): the points each seat lost to its own moves,
//!   to the others' claims and to the game's end.
//! - [`tally`]: per board, seat count and strategy, its seats, wins
//!   (an outright top score; a top score shared is a tie, no one's win, so
//!   the wins of a board and seat count sum to its games minus the games
//!   with a tied top), the win rate with its 95 % Wilson interval, means.
//! - [`rate`]: the Weng-Lin rating of each strategy per board and seat
//!   count, updated game after game in the schedule's order (as the online
//!   game rates, [`crate::leagues::rating`]).

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::Board;
use crate::bots::{by_name, check_players, SEATS};
use crate::engine::rules::RuleError;
use crate::leagues::rating::{ranks, update, Rating};
use crate::leagues::simulate::review_played;
use crate::leagues::simulate::{self, Played};
use crate::model::Instance;
use crate::plans::review::{ReviewError, ReviewOptions};
use crate::solve::limits::Limits;
use crate::solve::{solve, SolveError, SolveOptions};

/// The most games of one seat order.
pub const MAX_GAMES: u64 = 100_000;

/// What to play.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The strategies, by name ([`crate::bots::by_name`]).
    pub players: Vec<String>,
    /// The boards, each with the name it is reported by.
    pub boards: Vec<(String, Board)>,
    /// The seat counts: players at a table.
    pub seats: Vec<usize>,
    /// Games of each table in each seat order.
    pub games: u64,
    /// The tournament's seed: every game's seed derives from it.
    pub seed: u64,
    /// Games reviewed turn by turn per board and seat count (0: none),
    /// spread evenly over the schedule.
    pub review: u64,
}

/// Why a tournament cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The setup asks for something impossible; the message says what.
    #[error("{0}")]
    Setup(String),
    /// A strategy made an illegal move (a strategy's bug).
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// A review failed.
    #[error("review: {0}")]
    Review(#[from] ReviewError),
    /// The board optimum the reviews measure against could not be solved.
    #[error("review: {0}")]
    Solve(#[from] SolveError),
}

impl Setup {
    /// Checks the setup: at least two strategies, each known and named
    /// once; at least one board, each named once; seat counts of 2 to 5,
    /// each once; 1 to [`MAX_GAMES`] games.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |m: String| Err(TournamentError::Setup(m));
        let names: Vec<&str> = self.players.iter().map(String::as_str).collect();
        if let Some(n) = names.iter().find(|n| by_name(n).is_none()) {
            // check_players names the known strategies.
            return bad(format!("players: {}", check_players(&[n]).unwrap_err()));
        }
        if let Some(n) = names
            .iter()
            .enumerate()
            .find_map(|(i, n)| names[..i].contains(n).then_some(n))
        {
            return bad(format!("players: {n:?} is named twice"));
        }
        if names.len() < 2 {
            return bad(format!(
                "players: {} strategy named; a tournament needs two or more",
                names.len()
            ));
        }
        if self.boards.is_empty() {
            return bad("boards: none named".into());
        }
        for (i, (key, _)) in self.boards.iter().enumerate() {
            if self.boards[..i].iter().any(|(k, _)| k == key) {
                return bad(format!("boards: {key:?} is named twice"));
            }
        }
        if self.seats.is_empty() {
            return bad("seats: none named".into());
        }
        for (i, &k) in self.seats.iter().enumerate() {
            if !SEATS.contains(&k) {
                return bad(format!(
                    "seats: {k} players at a table; a game has {} to {}",
                    SEATS.start(),
                    SEATS.end()
                ));
            }
            if self.seats[..i].contains(&k) {
                return bad(format!("seats: {k} is named twice"));
            }
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return bad(format!(
                "games: {} per seat order; 1 to {MAX_GAMES}",
                self.games
            ));
        }
        Ok(())
    }
}

// ---- Schedule ---------------------------------------------------------------

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scheduled {
    /// The game's number in the schedule, from 0: the order the ratings
    /// take the games in.
    pub index: u64,
    /// The board, by its place in [`Setup::boards`].
    pub board: usize,
    /// Players at the table.
    pub seats: usize,
    /// The table, by its place in [`tables`] for this seat count.
    pub table: usize,
    /// The seat order: the table rotated by this many seats.
    pub rotation: usize,
    /// The round, from 0: the game's repetition of its seat order.
    pub round: u64,
    /// The strategies in turn order.
    pub order: Vec<String>,
    /// The game's seed (shared by the rotations of a round of a table).
    pub seed: u64,
}

/// The tables of `seats` players: the combinations of `seats` strategies
/// of `players` in their order, or, when there are fewer strategies than
/// seats, the multisets holding two different ones or more.
pub fn tables(players: &[String], seats: usize) -> Vec<Vec<String>> {
    let n = players.len();
    let mut out = Vec::new();
    // Indices, non-decreasing (multisets) or increasing (combinations).
    let repeat = n < seats;
    let mut pick: Vec<usize> = if repeat {
        vec![0; seats]
    } else {
        (0..seats).collect()
    };
    if n == 0 || seats == 0 {
        return out;
    }
    loop {
        if !repeat || pick.first() != pick.last() {
            out.push(pick.iter().map(|&i| players[i].clone()).collect());
        }
        // The next pick in lexicographic order.
        let top = |i: usize| if repeat { n - 1 } else { n - seats + i };
        let Some(i) = (0..seats).rev().find(|&i| pick[i] < top(i)) else {
            break;
        };
        pick[i] += 1;
        for j in i + 1..seats {
            pick[j] = if repeat { pick[i] } else { pick[j - 1] + 1 };
        }
    }
    out
}

/// FNV-1a of a text: a hash fixed by its definition, for seeds.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// SplitMix64's finaliser: mixes a word into a well-spread one.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of a round of a table: the tournament's seed, the board's
/// name, the seat count, the table's strategies and the round, mixed. It
/// depends on nothing else (not on the other boards, tables or the thread
/// count), so a game replays alone with `simulate`'s `play`.
pub fn game_seed(seed: u64, board: &str, table: &[String], round: u64) -> u64 {
    let mut h = mix(seed);
    h = mix(h ^ fnv(board));
    h = mix(h ^ table.len() as u64);
    h = mix(h ^ fnv(&table.join(",")));
    mix(h ^ round)
}

/// Every game of the setup, round by round: within a round, board by
/// board, seat count by seat count, table by table, rotation by rotation.
pub fn schedule(setup: &Setup) -> Vec<Scheduled> {
    let tables: Vec<(usize, Vec<Vec<String>>)> = setup
        .seats
        .iter()
        .map(|&k| (k, tables(&setup.players, k)))
        .collect();
    let mut out = Vec::new();
    for round in 0..setup.games {
        for (b, (key, _)) in setup.boards.iter().enumerate() {
            for (k, list) in &tables {
                for (t, table) in list.iter().enumerate() {
                    let seed = game_seed(setup.seed, key, table, round);
                    for rotation in 0..*k {
                        out.push(Scheduled {
                            index: out.len() as u64,
                            board: b,
                            seats: *k,
                            table: t,
                            rotation,
                            round,
                            order: (0..*k).map(|i| table[(i + rotation) % k].clone()).collect(),
                            seed,
                        });
                    }
                }
            }
        }
    }
    out
}

// ---- Play -------------------------------------------------------------------

/// Plays the scheduled games on the current rayon pool, `progress` after
/// each. When `limits` stop it, the games before the first one left out,
/// in order (whole rounds first: see [`schedule`]).
pub fn play(
    setup: &Setup,
    games: &[Scheduled],
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Played>, RuleError> {
    let played: Vec<Option<Played>> = games
        .par_iter()
        .map(|s| {
            if limits.passed() {
                return Ok(None);
            }
            let order: Vec<&str> = s.order.iter().map(String::as_str).collect();
            let played = simulate::play(&setup.boards[s.board].1, &order, s.index, s.seed)?;
            progress();
            Ok((!limits.passed()).then_some(played))
        })
        .collect::<Result<_, RuleError>>()?;
    Ok(played.into_iter().map_while(|p| p).collect())
}

// ---- Review -----------------------------------------------------------------

/// Points one seat lost, by cause (the review's split).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Lost {
    /// To the player's own moves.
    pub own: i64,
    /// To the others' claims.
    pub others: i64,
    /// To the game's end before the plan was done.
    pub end: i64,
}

/// The games to review: per board and seat count, `per_group` of the
/// first `played` games (indices into `games`): the j-th from the table
/// `j mod tables`, in the rotation `(j / tables) mod seats`, from a round
/// spread evenly over the rounds played, so that a few reviews already
/// see every table and then every seat order.
pub fn review_sample(games: &[Scheduled], played: usize, per_group: u64) -> Vec<usize> {
    let played = &games[..played.min(games.len())];
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for g in played {
        if !groups.contains(&(g.board, g.seats)) {
            groups.push((g.board, g.seats));
        }
    }
    let mut out = Vec::new();
    for (board, seats) in groups {
        let at: HashMap<(usize, usize, u64), usize> = played
            .iter()
            .enumerate()
            .filter(|(_, g)| g.board == board && g.seats == seats)
            .map(|(i, g)| ((g.table, g.rotation, g.round), i))
            .collect();
        let tables = 1 + at.keys().map(|k| k.0).max().unwrap_or(0);
        let rounds = 1 + at.keys().map(|k| k.2).max().unwrap_or(0);
        let m = (per_group as usize).min(at.len());
        let mut chosen = 0;
        let mut j = 0;
        // A game missing (a run cut short) is passed over for the next.
        while chosen < m && j < 4 * at.len() + 4 * m {
            let table = j % tables;
            let rotation = (j / tables) % seats;
            let round = (j as u64 * rounds / m.max(1) as u64) % rounds;
            if let Some(&i) = at.get(&(table, rotation, round)) {
                if !out.contains(&i) {
                    out.push(i);
                    chosen += 1;
                }
            }
            j += 1;
        }
    }
    out.sort();
    out
}

/// Reviews the games `sample` (indices into `played`) on the current pool,
/// each board's optimum solved once; per game reviewed, each seat's
/// points lost. `progress` after each.
pub fn review(
    setup: &Setup,
    games: &[Scheduled],
    played: &[Played],
    sample: &[usize],
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<(usize, Vec<Lost>)>, TournamentError> {
    let mut options: HashMap<usize, ReviewOptions> = HashMap::new();
    for &i in sample {
        let b = games[i].board;
        if options.contains_key(&b) {
            continue;
        }
        let board = &setup.boards[b].1;
        let within = SolveOptions {
            limits: limits.clone(),
            ..SolveOptions::default()
        };
        let optimum = solve(&Instance::new(board, board.cars), &within)?;
        options.insert(
            b,
            ReviewOptions {
                board_optimum: Some((optimum.plan.score(), optimum.proven)),
                limits: limits.clone(),
                ..ReviewOptions::default()
            },
        );
    }
    sample
        .par_iter()
        .map(|&i| {
            let b = games[i].board;
            let r = review_played(&setup.boards[b].1, &played[i], &options[&b])?;
            progress();
            let mut lost = vec![Lost::default(); played[i].seats.len()];
            for p in &r.players {
                lost[p.seat] = Lost {
                    own: p.lost_own,
                    others: p.lost_others,
                    end: p.lost_end,
                };
            }
            Ok((i, lost))
        })
        .collect()
}

// ---- Tally ------------------------------------------------------------------

/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `wins` successes in `n` trials at the
/// 95 % level: (low, high); (0, 1) for no trial.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z2) = (n as f64, wins as f64 / n as f64, Z95 * Z95);
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or all wins an end is exactly 0 or 1 (rounding aside).
    let low = if wins == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if wins as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low.min(p), high.max(p))
}

/// One strategy on one board at one seat count.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The board, as named in the setup.
    pub board: String,
    /// Players at the table.
    pub seats: usize,
    /// The strategy.
    pub strategy: String,
    /// Seats it played (one a game, unless a table repeats it).
    pub games: usize,
    /// Seats with the game's top score alone.
    pub wins: usize,
    /// Seats sharing the game's top score with another (no one's win).
    pub ties: usize,
    /// `wins / games`.
    pub win_rate: f64,
    /// The 95 % Wilson interval of the win rate: its low end.
    pub win_low: f64,
    /// Its high end.
    pub win_high: f64,
    /// Mean final score, longest-path bonus included.
    pub mean_score: f64,
    /// Mean tickets completed a seat.
    pub tickets_completed: f64,
    /// Mean tickets held at the end a seat.
    pub tickets_held: f64,
    /// Seats reviewed turn by turn (the points lost are their means).
    pub reviewed: usize,
    /// Mean points lost to its own moves, over the seats reviewed.
    pub lost_own: Option<f64>,
    /// Mean points lost to the others' claims.
    pub lost_others: Option<f64>,
    /// Mean points lost to the game's end.
    pub lost_end: Option<f64>,
    /// The Weng-Lin rating's mean after every game of the board and seat
    /// count, in schedule order.
    pub mu: f64,
    /// Its uncertainty.
    pub sigma: f64,
    /// `mu - 3 sigma`: a conservative rating, as the online game shows.
    pub rating: f64,
}

/// Per board, seat count and strategy (in the setup's orders), the
/// standings of the games `played` (the first games of `games`) and the
/// losses of those reviewed; ratings as the prior (see [`rate`]).
pub fn tally(
    setup: &Setup,
    games: &[Scheduled],
    played: &[Played],
    reviewed: &[(usize, Vec<Lost>)],
) -> Vec<Standing> {
    let lost: HashMap<usize, &Vec<Lost>> = reviewed.iter().map(|(i, l)| (*i, l)).collect();
    let mut out = Vec::new();
    let prior = Rating::default();
    for (b, (key, _)) in setup.boards.iter().enumerate() {
        for &k in &setup.seats {
            for name in &setup.players {
                let mut s = Standing {
                    board: key.clone(),
                    seats: k,
                    strategy: name.clone(),
                    games: 0,
                    wins: 0,
                    ties: 0,
                    win_rate: 0.0,
                    win_low: 0.0,
                    win_high: 1.0,
                    mean_score: 0.0,
                    tickets_completed: 0.0,
                    tickets_held: 0.0,
                    reviewed: 0,
                    lost_own: None,
                    lost_others: None,
                    lost_end: None,
                    mu: prior.mu,
                    sigma: prior.sigma,
                    rating: prior.shown(),
                };
                let mut losses = Lost::default();
                for (i, p) in played.iter().enumerate() {
                    if games[i].board != b || games[i].seats != k {
                        continue;
                    }
                    let top = p.seats.iter().map(|x| x.score).max().unwrap_or(0);
                    let at_top = p.seats.iter().filter(|x| x.score == top).count();
                    for (seat, x) in p.seats.iter().enumerate() {
                        if &x.strategy != name {
                            continue;
                        }
                        s.games += 1;
                        if x.score == top {
                            if at_top == 1 {
                                s.wins += 1;
                            } else {
                                s.ties += 1;
                            }
                        }
                        s.mean_score += x.score as f64;
                        s.tickets_completed += x.tickets_completed as f64;
                        s.tickets_held += x.tickets_held as f64;
                        if let Some(l) = lost.get(&i) {
                            s.reviewed += 1;
                            losses.own += l[seat].own;
                            losses.others += l[seat].others;
                            losses.end += l[seat].end;
                        }
                    }
                }
                if s.games == 0 {
                    out.push(s);
                    continue;
                }
                let n = s.games as f64;
                s.win_rate = s.wins as f64 / n;
                (s.win_low, s.win_high) = wilson(s.wins, s.games);
                s.mean_score /= n;
                s.tickets_completed /= n;
                s.tickets_held /= n;
                if s.reviewed > 0 {
                    let r = s.reviewed as f64;
                    s.lost_own = Some(losses.own as f64 / r);
                    s.lost_others = Some(losses.others as f64 / r);
                    s.lost_end = Some(losses.end as f64 / r);
                }
                out.push(s);
            }
        }
    }
    out
}

// ---- Rate -------------------------------------------------------------------

/// Rates the strategies per board and seat count: from the prior, game
/// after game in the schedule's order, each game a free-for-all ranked by
/// score (ties share a place). A strategy in several seats of one game
/// moves by the sum of its seats' changes and keeps the smallest
/// uncertainty of them, as the online game rates two bots of one level.
/// Sets each standing's `mu`, `sigma` and `rating`.
pub fn rate(games: &[Scheduled], played: &[Played], standings: &mut [Standing], boards: &[String]) {
    let mut current: HashMap<(usize, usize, String), Rating> = HashMap::new();
    for (g, p) in games.iter().zip(played) {
        let rating = |c: &HashMap<_, Rating>, name: &str| {
            c.get(&(g.board, g.seats, name.to_string()))
                .copied()
                .unwrap_or_default()
        };
        let scores: Vec<i64> = p.seats.iter().map(|s| s.score).collect();
        let before: Vec<(Rating, usize)> = p
            .seats
            .iter()
            .zip(ranks(&scores))
            .map(|(s, rank)| (rating(&current, &s.strategy), rank))
            .collect();
        let after = update(&before);
        let mut moved: HashMap<&str, Rating> = HashMap::new();
        for ((s, (b, _)), a) in p.seats.iter().zip(&before).zip(after) {
            let r = moved.entry(&s.strategy).or_insert(*b);
            r.mu += a.mu - b.mu;
            r.sigma = r.sigma.min(a.sigma);
        }
        for (name, r) in moved {
            current.insert((g.board, g.seats, name.to_string()), r);
        }
    }
    for s in standings {
        let Some(b) = boards.iter().position(|k| *k == s.board) else {
            continue;
        };
        if let Some(r) = current.get(&(b, s.seats, s.strategy.clone())) {
            s.mu = r.mu;
            s.sigma = r.sigma;
            s.rating = r.shown();
        }
    }
}

// ---- The whole run ----------------------------------------------------------

/// One seat of one game, for the games' CSV.
#[derive(Clone, Debug, Serialize)]
pub struct SeatRow {
    /// The game's number in the schedule.
    pub game: u64,
    /// The board, as named.
    pub board: String,
    /// Players at the table.
    pub seats: usize,
    /// The table's number among that seat count's tables.
    pub table: usize,
    /// The seat order's rotation of the table.
    pub rotation: usize,
    /// The round.
    pub round: u64,
    /// The game's seed: `ttr-opt simulate`'s `play` replays it.
    pub seed: u64,
    /// Position in the turn order (0 moves first).
    pub position: usize,
    /// The strategy.
    pub strategy: String,
    /// The final score.
    pub score: i64,
    /// The place, from 1 (ties share it).
    pub place: usize,
    /// Tickets completed.
    pub tickets_completed: usize,
    /// Tickets held at the end.
    pub tickets_held: usize,
    /// The longest-path bonus won.
    pub bonus: u32,
    /// The game stopped stalled.
    pub stalled: bool,
}

/// A tournament's results.
#[derive(Clone, Debug, Serialize)]
pub struct Tournament {
    /// The strategies.
    pub players: Vec<String>,
    /// The boards, as named.
    pub boards: Vec<String>,
    /// The seat counts.
    pub seats: Vec<usize>,
    /// Games of each table in each seat order.
    pub games_per_order: u64,
    /// The seed.
    pub seed: u64,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Games played (fewer than scheduled when a limit stopped the run).
    pub played: usize,
    /// Games with a top score shared (no one's win).
    pub tied: usize,
    /// Games stopped stalled.
    pub stalled: usize,
    /// Games reviewed turn by turn.
    pub reviewed: usize,
    /// Seconds playing, and reviewing.
    pub seconds: f64,
    /// Per board, seat count and strategy.
    pub standings: Vec<Standing>,
}

impl Tournament {
    /// Every seat of every game played, for the games' CSV.
    pub fn seat_rows(&self, games: &[Scheduled], played: &[Played]) -> Vec<SeatRow> {
        games
            .iter()
            .zip(played)
            .flat_map(|(g, p)| {
                let scores: Vec<i64> = p.seats.iter().map(|s| s.score).collect();
                let places = ranks(&scores);
                p.seats.iter().zip(places).map(move |(s, place)| SeatRow {
                    game: g.index,
                    board: self.boards[g.board].clone(),
                    seats: g.seats,
                    table: g.table,
                    rotation: g.rotation,
                    round: g.round,
                    seed: g.seed,
                    position: s.position,
                    strategy: s.strategy.clone(),
                    score: s.score,
                    place,
                    tickets_completed: s.tickets_completed,
                    tickets_held: s.tickets_held,
                    bonus: s.bonus,
                    stalled: s.stalled,
                })
            })
            .collect()
    }
}

/// The games to play and to review: how many, for a progress bar.
pub fn size(setup: &Setup) -> (u64, u64) {
    let games = schedule(setup);
    let reviews = review_sample(&games, games.len(), setup.review).len();
    (games.len() as u64, reviews as u64)
}

/// Runs the whole tournament: checks the setup, then schedule, play,
/// review, tally and rate, on the current rayon pool; `progress` after each
/// game played and each reviewed. Returns the results with the schedule
/// and the games played (the first games of the schedule).
pub fn run(
    setup: &Setup,
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<(Tournament, Vec<Scheduled>, Vec<Played>), TournamentError> {
    setup.check()?;
    let started = std::time::Instant::now();
    let games = schedule(setup);
    let played = play(setup, &games, limits, progress)?;
    let sample = if limits.passed() {
        Vec::new()
    } else {
        review_sample(&games, played.len(), setup.review)
    };
    let reviewed = review(setup, &games, &played, &sample, limits, progress)?;
    let mut standings = tally(setup, &games, &played, &reviewed);
    let boards: Vec<String> = setup.boards.iter().map(|(k, _)| k.clone()).collect();
    rate(&games, &played, &mut standings, &boards);
    let tied = played
        .iter()
        .filter(|p| {
            let top = p.seats.iter().map(|s| s.score).max().unwrap_or(0);
            p.seats.iter().filter(|s| s.score == top).count() > 1
        })
        .count();
    let tournament = Tournament {
        players: setup.players.clone(),
        boards,
        seats: setup.seats.clone(),
        games_per_order: setup.games,
        seed: setup.seed,
        scheduled: games.len(),
        played: played.len(),
        tied,
        stalled: played.iter().filter(|p| p.stalled).count(),
        reviewed: reviewed.len(),
        seconds: started.elapsed().as_secs_f64(),
        standings,
    };
    Ok((tournament, games, played))
}
