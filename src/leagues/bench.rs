//! `ttr-opt bench --coach`: how fast the coach answers at the start of a
//! game on every board, and how fast a whole game is reviewed.
//!
//! - The coach: a 4-player game dealt from each seed; the first player's
//!   advice with the first tickets offered (every choice of the offer
//!   weighed, as the page's Coach button asks it then).
//! - The review: a 4-player game on the USA board (planner, greedy,
//!   planner, greedy, as `simulate` plays it) from each seed, reviewed on
//!   the current thread pool.
//! - The coach through a game: a 3- or 4-player Europe game from each
//!   seed, the coach asked before every move (stations and ticket offers
//!   included).

use std::time::Instant;

use serde::Serialize;

use crate::board::Board;
use crate::engine::rules::Game;
use crate::engine::state::GameState;
use crate::leagues::simulate::play;
use crate::leagues::simulate::review_played;
use crate::plans::coach::advise;
use crate::plans::review::{ReviewError, ReviewOptions};
use crate::solve::SolveOptions;

/// One coach answer at the start of a game.
#[derive(Clone, Debug, Serialize)]
pub struct CoachRow {
    /// The board's file name.
    pub board: String,
    /// Cars a player.
    pub cars: u32,
    /// The deal's seed.
    pub seed: u64,
    /// Choices of the offer weighed.
    pub choices: usize,
    /// The best final score of the best choice.
    pub score: i64,
    /// Its bound.
    pub bound: i64,
    /// Whether every choice was proven.
    pub proven: bool,
    /// Wall-clock seconds of the answer.
    pub seconds: f64,
}

/// The coach for the first player of a 4-player game on `board` dealt from
/// `seed`, at the start, within `limit` seconds.
pub fn coach_at_start(
    board: &Board,
    name: &str,
    seed: u64,
    limit: f64,
) -> Result<CoachRow, ReviewError> {
    let game = Game::new(board, 4, seed).map_err(ReviewError::Deal)?;
    let state = GameState::of_player(&game, 0);
    let options = SolveOptions {
        time_limit: Some(limit),
        ..SolveOptions::default()
    };
    let started = Instant::now();
    let advice = advise(board, &state, game.offer(0), &options)?;
    Ok(CoachRow {
        board: name.to_string(),
        cars: board.cars,
        seed,
        choices: advice.choices.len(),
        score: advice.plan.score,
        bound: advice.plan.bound,
        proven: advice.proven(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One game reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewBenchRow {
    /// The game's seed.
    pub seed: u64,
    /// Moves in the game.
    pub moves: usize,
    /// Turns of all players together.
    pub turns: usize,
    /// States valued (each turn's start and after its move).
    pub states: usize,
    /// Replans solved (the rest carried over), with the open boards and
    /// the board's optimum.
    pub solves: usize,
    /// Whether every value is proven.
    pub proven: bool,
    /// Wall-clock seconds of the review.
    pub seconds: f64,
}

/// The players of the reviewed games.
pub const REVIEW_PLAYERS: [&str; 4] = ["planner", "greedy", "planner", "greedy"];

/// Plays the game of `seed` between [`REVIEW_PLAYERS`] on `board` and
/// reviews it.
pub fn review_game(board: &Board, seed: u64) -> Result<ReviewBenchRow, ReviewError> {
    let played = play(board, &REVIEW_PLAYERS, 0, seed).map_err(ReviewError::Deal)?;
    let started = Instant::now();
    let r = review_played(board, &played, &ReviewOptions::default())?;
    let turns: usize = r.players.iter().map(|p| p.turns.len()).sum();
    Ok(ReviewBenchRow {
        seed,
        moves: played.actions.len(),
        turns,
        states: 2 * turns,
        solves: r.solves,
        proven: r.all_proven,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The coach through a whole game: every distinct question one game asked.
#[derive(Clone, Debug, Serialize)]
pub struct CoachGameRow {
    /// The game's seed.
    pub seed: u64,
    /// Players at the table.
    pub players: usize,
    /// Coach answers: one for each player's state (with its pending ticket
    /// offer) that differed from that player's state before.
    pub answers: usize,
    /// Answers whose every plan is proven optimal.
    pub proven: usize,
    /// Answers whose plan builds or uses a station.
    pub with_stations: usize,
    /// Median seconds of an answer.
    pub median: f64,
    /// The slowest answer, seconds.
    pub slowest: f64,
}

/// The players of the games the coach follows: 3 or 4 of them.
pub fn coach_game_players(seed: u64) -> &'static [&'static str] {
    if seed % 2 == 1 {
        &["planner", "greedy", "planner"]
    } else {
        &REVIEW_PLAYERS
    }
}

/// Plays the game of `seed` between [`coach_game_players`] on `board`,
/// and asks the coach, before every move, for the player to move, as the
/// page's Coach button would (its pending ticket offer weighed), within
/// `limit` seconds an answer; a question asked already (the same state
/// and offer: a card drawn changes neither) is not asked again.
pub fn coach_through_game(
    board: &Board,
    seed: u64,
    limit: f64,
) -> Result<CoachGameRow, ReviewError> {
    let names = coach_game_players(seed);
    let played = play(board, names, 0, seed).map_err(ReviewError::Deal)?;
    let first = played.seats.first().map_or(0, |s| s.seed);
    let mut game = Game::new(board, names.len(), first).map_err(ReviewError::Deal)?;
    let options = SolveOptions {
        time_limit: Some(limit),
        ..SolveOptions::default()
    };
    let mut asked: Vec<Option<(GameState, Vec<crate::board::TicketId>)>> = vec![None; names.len()];
    let (mut secs, mut proven, mut with_stations) = (Vec::new(), 0, 0);
    for (index, (seat, action)) in played.actions.iter().enumerate() {
        let state = GameState::of_player(&game, *seat);
        let offer = game.offer(*seat);
        let question = (state, offer.map(|o| o.0.to_vec()).unwrap_or_default());
        if asked[*seat].as_ref() != Some(&question) {
            let started = Instant::now();
            let advice = advise(board, &question.0, offer, &options)?;
            secs.push(started.elapsed().as_secs_f64());
            proven += usize::from(advice.proven());
            with_stations += usize::from(!advice.plan.borrowed.is_empty());
            asked[*seat] = Some(question);
        }
        game.apply(*seat, action)
            .map_err(|error| ReviewError::Move { index, error })?;
    }
    Ok(CoachGameRow {
        seed,
        players: names.len(),
        answers: secs.len(),
        proven,
        with_stations,
        median: median(&secs),
        slowest: secs.iter().copied().fold(0.0, f64::max),
    })
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The benchmark's report: per board the coach's median and slowest
/// answer, then every review.
pub fn markdown(
    coach: &[CoachRow],
    reviews: &[ReviewBenchRow],
    games: &[CoachGameRow],
    machine: &str,
    command: &str,
) -> String {
    let mut md = format!(
        "# The coach and the review\n\n`{command}` on {machine}.\n\n\
         ## The coach at the start of a game\n\n\
         A 4-player game dealt from each seed; the first player's advice with \
         the first tickets offered, every choice of the offer weighed. Goal: \
         under 3 s on every shipped board.\n\n\
         | board | cars | deals | choices | median s | slowest s | all proven |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | --- |\n"
    );
    let mut boards: Vec<&str> = coach.iter().map(|r| r.board.as_str()).collect();
    boards.dedup();
    for b in boards {
        let rows: Vec<&CoachRow> = coach.iter().filter(|r| r.board == b).collect();
        let secs: Vec<f64> = rows.iter().map(|r| r.seconds).collect();
        md += &format!(
            "| {b} | {} | {} | {} | {:.2} | {:.2} | {} |\n",
            rows[0].cars,
            rows.len(),
            rows[0].choices,
            median(&secs),
            secs.iter().copied().fold(0.0, f64::max),
            if rows.iter().all(|r| r.proven) {
                "yes"
            } else {
                "no"
            }
        );
    }
    md += &format!(
        "\n## The review of a 4-player game on the USA board\n\n\
         Players {}, as `simulate` plays them; every state valued is a turn's \
         start or the state after its move, a plan carried over where it is \
         still open. Goal: under 30 s on 2 cores.\n\n\
         | seed | moves | turns | states | solves | all proven | seconds |\n\
         | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n",
        REVIEW_PLAYERS.join(", ")
    );
    for r in reviews {
        md += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} |\n",
            r.seed,
            r.moves,
            r.turns,
            r.states,
            r.solves,
            if r.proven { "yes" } else { "no" },
            r.seconds
        );
    }
    let secs: Vec<f64> = reviews.iter().map(|r| r.seconds).collect();
    md += &format!(
        "\nMedian review: {:.2} s over {} games.\n",
        median(&secs),
        reviews.len()
    );
    md += "\n## The coach through a Europe game\n\n\
           Games of 3 players (planner, greedy, planner; odd seeds) and of 4 \
           (planner, greedy, planner, greedy; even seeds), as `simulate` plays \
           them; before every move the coach is asked for the player to move, \
           its pending ticket offer weighed (a question asked already is not \
           asked again), 10 s at most an answer. Goal: every answer proven.\n\n\
           | seed | players | answers | proven | with a station | median s | slowest s |\n\
           | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for g in games {
        md += &format!(
            "| {} | {} | {} | {} | {} | {:.2} | {:.2} |\n",
            g.seed, g.players, g.answers, g.proven, g.with_stations, g.median, g.slowest
        );
    }
    md
}
