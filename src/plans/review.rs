//! The review of a finished game: for every player, how far each of their
//! turns left them from the best they could still reach, and where the
//! points were lost.
//!
//! At the start of each of a player's turns, the best final score still
//! reachable is the [`replan`] optimum of their state then: their cars,
//! their routes and tickets, the routes the others had claimed. It knows
//! nothing of cards (a plan may need cards the player never drew) and
//! nothing the player could not see. Between two turns it changes for two
//! reasons, measured apart: the player's own move (a claim that lowers it
//! is on no optimal plan: one that was would keep it; tickets kept raise or
//! lower it) and the others' claims. What is left at the end, the best of
//! the last turn against the final score, is the plan the game ended
//! before (cards not drawn, turns run out).
//!
//! For scale, each player's final score is set beside the single-player
//! optimum of the same tickets and car count on the open board, and the
//! board's own optimum at its car count. Scores here leave out the
//! longest-path bonus, which no plan controls; it is reported apart.
//! Every plan goes through the union-find verifier (inside [`replan`]).

use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, RouteId, TicketId};
use crate::engine::rules::{Action, FinalScore, Game, RuleError};
use crate::engine::state::{GameState, StationState};
use crate::model::Instance;
use crate::plans::replan::{held_score, replan};
use crate::solve::limits::Limits;
use crate::solve::{solve, SolveError, SolveOptions};

/// What a review runs on.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// Each replan's time limit, seconds: past it the best plan found and
    /// an honest bound are used, marked unproven.
    pub time_limit: f64,
    /// The board's optimum at its car count and whether it is proven, if
    /// known (reviews of many games on one board solve it once).
    pub board_optimum: Option<(u32, bool)>,
    /// The call's limits, within which each replan has its own
    /// `time_limit`.
    pub limits: Limits,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            time_limit: 10.0,
            board_optimum: None,
            limits: Limits::none(),
        }
    }
}

/// One turn of one player.
#[derive(Clone, Debug, Serialize)]
pub struct TurnReview {
    /// The player's turn, from 1.
    pub turn: u32,
    /// The game's move index where the turn began.
    pub move_index: usize,
    /// The best final score still reachable at the start of the turn.
    pub best: i64,
    /// Its proven upper bound (= `best` when proven).
    pub bound: i64,
    /// Whether `best` is proven optimal.
    pub proven: bool,
    /// `best` minus the player's final score: what was lost from here on.
    pub gap: i64,
    /// What the player did this turn, in words.
    pub action: String,
    /// The best still reachable after the player's own move, before the
    /// others moved.
    pub after_own: i64,
    /// The others' claims before the player's next turn (or the end).
    pub others: Vec<String>,
    /// The best plan's routes still to claim at the start of the turn, then
    /// (on a board with stations) the stations it builds or uses.
    pub plan: Vec<String>,
}

/// Points lost at one turn, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Loss {
    /// The player's turn.
    pub turn: u32,
    /// Points the best reachable score fell by.
    pub points: i64,
    /// `own move`, `others` or `game ended`.
    pub cause: String,
    /// In words: "turn 14: claimed Denver – Omaha, off every optimal plan;
    /// the best plan from turn 14 scored 12 more".
    pub text: String,
}

/// One player's review.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerReview {
    /// The seat, from 0.
    pub seat: usize,
    /// The name shown.
    pub name: String,
    /// The final score, longest-path bonus included.
    pub score: i64,
    /// The longest-path bonus.
    pub bonus: u32,
    /// The final score without the bonus: what the turns are measured
    /// against.
    pub network_score: i64,
    /// The best the same tickets and car count could have scored on the
    /// open board (no opponent, every card at hand).
    pub single_player_optimum: i64,
    /// Whether that is proven.
    pub single_player_proven: bool,
    /// The player's final tickets, by label.
    pub tickets: Vec<String>,
    /// Every turn, in order.
    pub turns: Vec<TurnReview>,
    /// The (up to) three turns that cost the most, largest first.
    pub costliest: Vec<Loss>,
    /// Points lost to the player's own moves, summed over the game.
    pub lost_own: i64,
    /// Points lost to the others' claims.
    pub lost_others: i64,
    /// Points lost because the game ended before the plan was done.
    pub lost_end: i64,
}

/// The review of a game.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The board's name.
    pub board: String,
    /// Cars per player.
    pub cars: u32,
    /// The board's own optimum at that car count (every ticket in play).
    pub board_optimum: u32,
    /// Whether it is proven.
    pub board_optimum_proven: bool,
    /// Whether every replan of the review is proven optimal.
    pub all_proven: bool,
    /// Replans solved.
    pub solves: usize,
    /// Wall-clock time of the review, seconds.
    pub seconds: f64,
    /// Every player's review, by seat.
    pub players: Vec<PlayerReview>,
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A move of the game is illegal.
    #[error("move {index}: {error}")]
    Move {
        /// The move's index.
        index: usize,
        /// Why it is illegal.
        error: RuleError,
    },
    /// The game cannot be dealt (or played) on its board as recorded.
    #[error("cannot deal the game: {0}")]
    Deal(RuleError),
    /// A replan failed.
    #[error("{0}")]
    Solve(#[from] SolveError),
}

/// A state to solve, and where the review uses it.
struct Turn {
    seat: usize,
    turn: u32,
    move_index: usize,
    start: GameState,
    action: Vec<String>,
    after: Option<GameState>,
    others: Vec<String>,
}

/// Reviews the game of `players` players that the moves `moves` played
/// on `game` (a new game, as dealt from its seed); `names` names the seats.
/// Three phases: the moves replayed into the states to value, those states
/// solved, and each player's review from their values.
pub fn review(
    mut game: Game,
    moves: &[(usize, Action)],
    names: &[String],
    options: &ReviewOptions,
) -> Result<Review, ReviewError> {
    let started = std::time::Instant::now();
    let board: Board = (*game.board).clone();
    let turns = replay(&mut game, &board, moves, names)?;
    let results = game.results();
    let solved = solve_turns(&board, &game, &turns, options)?;
    let players = (0..game.players.len())
        .map(|p| {
            let name = names
                .get(p)
                .cloned()
                .unwrap_or_else(|| format!("player {p}"));
            player_review(&board, &game, (&turns, &solved), (p, name, &results[p]))
        })
        .collect();
    Ok(Review {
        board: board.name.clone(),
        cars: board.cars,
        board_optimum: solved.board_optimum,
        board_optimum_proven: solved.optimum_proven,
        all_proven: solved.all_proven,
        solves: solved.solves,
        seconds: started.elapsed().as_secs_f64(),
        players,
    })
}

/// Phase 1: the moves played on `game`, each player's turns recorded with
/// the state at their start and after the player's own move, and what the
/// others claimed in between.
fn replay(
    game: &mut Game,
    board: &Board,
    moves: &[(usize, Action)],
    names: &[String],
) -> Result<Vec<Turn>, ReviewError> {
    let n = game.players.len();
    let mut turns: Vec<Turn> = Vec::new();
    // Per seat: its turn in progress, and its latest turn.
    let mut open: Vec<Option<usize>> = vec![None; n];
    let mut last: Vec<Option<usize>> = vec![None; n];
    for (index, (seat, action)) in moves.iter().enumerate() {
        // A turn begins for the player to move when none is open (the
        // start's ticket choice is no turn).
        if !game.in_setup() && open[*seat].is_none() {
            let number = turns.iter().filter(|t| t.seat == *seat).count() as u32 + 1;
            turns.push(Turn {
                seat: *seat,
                turn: number,
                move_index: index,
                start: GameState::of_player(game, *seat),
                action: Vec::new(),
                after: None,
                others: Vec::new(),
            });
            open[*seat] = Some(turns.len() - 1);
            last[*seat] = Some(turns.len() - 1);
        }
        let event = game
            .apply(*seat, action)
            .map_err(|error| ReviewError::Move { index, error })?;
        if let Some(i) = open[*seat] {
            turns[i].action.push(describe(board, action));
        }
        if let Action::Claim { route, .. } = action {
            // Each other player's latest turn hears of it: it happened
            // between that turn and their next.
            let label = board.route_label(*route);
            for q in (0..n).filter(|&q| q != *seat) {
                if let Some(i) = last[q] {
                    turns[i].others.push(format!(
                        "{} claimed {label}",
                        names.get(*seat).map_or("?", String::as_str)
                    ));
                }
            }
        }
        if event.ends_turn() {
            if let Some(i) = open[*seat].take() {
                turns[i].after = Some(GameState::of_player(game, *seat));
            }
        }
    }
    Ok(turns)
}

/// What the solves of a review found: per player, each turn's best from
/// its start and after its own move; the best of the player's tickets on
/// an open board; the board's own optimum; and the counts.
struct Solved {
    chains: Vec<Vec<(Best, Best)>>,
    open_board: Vec<Option<Best>>,
    board_optimum: u32,
    optimum_proven: bool,
    solves: usize,
    all_proven: bool,
}

/// Phase 2: every state solved.
fn solve_turns(
    board: &Board,
    game: &Game,
    turns: &[Turn],
    options: &ReviewOptions,
) -> Result<Solved, ReviewError> {
    let n = game.players.len();
    // Per player, its states in order (each turn's start, then after its
    // own move), solved one after another so that a plan carries over; the
    // players, their open boards and the board's optimum side by side.
    let o = SolveOptions {
        time_limit: Some(options.time_limit),
        limits: options.limits.clone(),
        ..SolveOptions::default()
    };
    enum Job {
        Chain(usize),
        Open(usize),
        Optimum,
    }
    enum Done {
        Chain(usize, Vec<(Best, Best)>),
        Open(usize, Best),
        Optimum(u32, bool),
    }
    let jobs: Vec<Job> = (0..n)
        .map(Job::Chain)
        .chain((0..n).map(Job::Open))
        .chain(options.board_optimum.is_none().then_some(Job::Optimum))
        .collect();
    let done: Vec<Done> = jobs
        .par_iter()
        .map(|job| -> Result<Done, SolveError> {
            match *job {
                Job::Chain(p) => {
                    let mut prev: Option<Best> = None;
                    let mut out = Vec::new();
                    for t in turns.iter().filter(|t| t.seat == p) {
                        let start = best(board, &t.start, prev.as_ref(), &o)?;
                        let after = match &t.after {
                            Some(a) => best(board, a, Some(&start), &o)?,
                            None => start.clone(),
                        };
                        prev = Some(after.clone());
                        out.push((start, after));
                    }
                    Ok(Done::Chain(p, out))
                }
                Job::Open(p) => {
                    let s = GameState {
                        players: n as u32,
                        cars_left: board.cars,
                        owned: Vec::new(),
                        taken: Vec::new(),
                        tickets: game.players[p].tickets.clone(),
                        may_draw: false,
                        stations: StationState::unused(board),
                    };
                    Ok(Done::Open(p, best(board, &s, None, &o)?))
                }
                Job::Optimum => {
                    let r = solve(&Instance::new(board, board.cars), &o)?;
                    Ok(Done::Optimum(r.plan.score(), r.proven))
                }
            }
        })
        .collect::<Result<_, _>>()?;
    let mut chains: Vec<Vec<(Best, Best)>> = vec![Vec::new(); n];
    let mut open_board: Vec<Option<Best>> = vec![None; n];
    let (mut board_optimum, mut optimum_proven) = options.board_optimum.unwrap_or((0, false));
    for d in done {
        match d {
            Done::Chain(p, c) => chains[p] = c,
            Done::Open(p, b) => open_board[p] = Some(b),
            Done::Optimum(v, proven) => (board_optimum, optimum_proven) = (v, proven),
        }
    }
    let solves = chains
        .iter()
        .flatten()
        .flat_map(|(a, b)| [a, b])
        .filter(|b| b.solved)
        .count()
        + n
        + usize::from(options.board_optimum.is_none());
    let all_proven = chains.iter().flatten().all(|(a, b)| a.proven && b.proven)
        && open_board.iter().flatten().all(|b| b.proven)
        && optimum_proven;

    Ok(Solved {
        chains,
        open_board,
        board_optimum,
        optimum_proven,
        solves,
        all_proven,
    })
}

/// Phase 3: one player's review: each turn's value against the final
/// score, the points lost by cause, and the costliest moves.
fn player_review(
    board: &Board,
    game: &Game,
    (turns, solved): (&[Turn], &Solved),
    (p, name, r): (usize, String, &FinalScore),
) -> PlayerReview {
    let network = r.score - r.bonus as i64;
    let mut reviews = Vec::new();
    let mine = turns.iter().filter(|t| t.seat == p);
    for (t, (s, after)) in mine.zip(&solved.chains[p]) {
        reviews.push(TurnReview {
            turn: t.turn,
            move_index: t.move_index,
            best: s.score,
            bound: s.bound,
            proven: s.proven,
            gap: s.score - network,
            action: t.action.join(", then "),
            after_own: after.score,
            others: t.others.clone(),
            plan: s
                .claim
                .iter()
                .map(|&r| board.route_label(r))
                .chain(s.stations.iter().cloned())
                .collect(),
        });
    }
    let all = losses(&reviews, network);
    let lost = |cause: &str| -> i64 {
        all.iter()
            .filter(|l| l.cause == cause)
            .map(|l| l.points)
            .sum()
    };
    let (lost_own, lost_others, lost_end) = (lost(OWN), lost(OTHERS), lost(END));
    let costliest: Vec<Loss> = all.into_iter().take(3).collect();
    let single = solved.open_board[p]
        .clone()
        .expect("every open board is solved");
    PlayerReview {
        seat: p,
        name,
        score: r.score,
        bonus: r.bonus,
        network_score: network,
        single_player_optimum: single.score,
        single_player_proven: single.proven,
        tickets: game.players[p]
            .tickets
            .iter()
            .map(|&t| ticket(board, t))
            .collect(),
        turns: reviews,
        costliest,
        lost_own,
        lost_others,
        lost_end,
    }
}

/// The best final score still reachable from a state, with the plan that
/// reaches it.
#[derive(Clone, Debug)]
struct Best {
    score: i64,
    bound: i64,
    proven: bool,
    /// The routes still to claim.
    claim: Vec<RouteId>,
    /// The stations the plan builds or uses, each with the route it
    /// borrows, in words.
    stations: Vec<String>,
    /// Owned and still to claim: the final network.
    network: Vec<RouteId>,
    /// The held tickets, sorted.
    tickets: Vec<TicketId>,
    /// Solved here (not carried over).
    solved: bool,
}

/// The best from `state`: carried over from `prev` (the state before) when
/// the tickets are the same and its plan is still open (every route owned
/// now is on it, none of the rest is closed, its cars fit), since the
/// plans open now are then a subset of those open before: the carried plan
/// keeps its value and its proof. Otherwise solved with [`replan`]. Either
/// way the plan's score is checked by the union-find verifier.
fn best(
    board: &Board,
    state: &GameState,
    prev: Option<&Best>,
    o: &SolveOptions,
) -> Result<Best, SolveError> {
    let mut tickets = state.tickets.clone();
    tickets.sort();
    let owned: Vec<RouteId> = state.owned.iter().map(|t| t.route).collect();
    // With stations the plans open now are no subset of those before: a
    // route another player claimed since may be borrowed. Solved afresh.
    let carried = prev.filter(|p| p.tickets == tickets && state.stations.is_none());
    if let Some(p) = carried {
        let rest: Vec<RouteId> = p
            .network
            .iter()
            .copied()
            .filter(|r| !owned.contains(r))
            .collect();
        let cars: u32 = rest.iter().map(|&r| board.route(r).length).sum();
        let owns_pair = |r: RouteId| {
            owned
                .iter()
                .any(|&o| o != r && board.route(o).pair == board.route(r).pair)
        };
        let open = owned.iter().all(|r| p.network.contains(r))
            && rest
                .iter()
                .all(|&r| !state.is_blocked(board, r) && !owns_pair(r))
            && cars <= state.cars_left;
        if open && held_score(board, state, &p.network) == p.score {
            return Ok(Best {
                claim: rest,
                solved: false,
                ..p.clone()
            });
        }
    }
    let r = replan(board, state, o)?;
    let mut network = r.owned.clone();
    network.extend(&r.claim);
    Ok(Best {
        score: r.score,
        bound: r.bound,
        proven: r.outcome.proven,
        claim: r.claim,
        stations: r
            .borrowed
            .iter()
            .map(|b| {
                let verb = if b.new {
                    "build a station"
                } else {
                    "the station"
                };
                format!(
                    "{verb} in {} (borrows {})",
                    board.city(b.city).name,
                    board.route_label(b.route)
                )
            })
            .collect(),
        network,
        tickets,
        solved: true,
    })
}

fn ticket(board: &Board, t: TicketId) -> String {
    let x = board.ticket(t);
    format!("{} ({})", board.ticket_label(t), x.points)
}

/// A move in words.
fn describe(board: &Board, action: &Action) -> String {
    match action {
        Action::DrawFaceUp(_) | Action::DrawDeck => "drew a card".to_string(),
        Action::DrawTickets => "drew tickets".to_string(),
        Action::KeepTickets(kept) => format!(
            "kept {}",
            kept.iter()
                .map(|&t| ticket(board, t))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Action::Claim { route, .. } => format!("claimed {}", board.route_label(*route)),
        Action::PayTunnel { .. } => "paid a tunnel's extra cards".to_string(),
        Action::GiveUpTunnel => "gave a tunnel up".to_string(),
        Action::BuildStation { city, .. } => {
            format!("built a station in {}", board.city(*city).name)
        }
        Action::Pass => "passed".to_string(),
    }
}

/// "1 point", "12 points".
fn points(n: i64) -> String {
    format!("{n} point{}", if n == 1 { "" } else { "s" })
}

/// The causes of a [`Loss`].
const OWN: &str = "own move";
const OTHERS: &str = "others";
const END: &str = "game ended";

/// Every fall of the best reachable score, by the turn's own move, the
/// others' claims after it, or the end of the game: largest first.
fn losses(turns: &[TurnReview], final_score: i64) -> Vec<Loss> {
    let mut all = Vec::new();
    for (i, t) in turns.iter().enumerate() {
        let own = t.best - t.after_own;
        if own > 0 {
            let what = if t.action.contains("claimed") {
                format!("{}, off every optimal plan", t.action)
            } else {
                t.action.clone()
            };
            all.push(Loss {
                turn: t.turn,
                points: own,
                cause: OWN.into(),
                text: format!(
                    "turn {}: {what}; the best plan from turn {} scored {} more",
                    t.turn,
                    t.turn,
                    points(own)
                ),
            });
        }
        match turns.get(i + 1) {
            Some(next) => {
                let others = t.after_own - next.best;
                if others > 0 {
                    let who = if t.others.is_empty() {
                        "the others' claims".to_string()
                    } else {
                        t.others.join(", ")
                    };
                    all.push(Loss {
                        turn: t.turn,
                        points: others,
                        cause: OTHERS.into(),
                        text: format!(
                            "after turn {}: {who}; the best plan fell by {}",
                            t.turn,
                            points(others)
                        ),
                    });
                }
            }
            None => {
                let left = t.after_own - final_score;
                if left > 0 {
                    all.push(Loss {
                        turn: t.turn,
                        points: left,
                        cause: END.into(),
                        text: format!(
                            "after turn {}, the last: the game ended {} short of the best plan then (cards not drawn in time{})",
                            t.turn,
                            points(left),
                            if t.others.is_empty() { String::new() } else { format!("; {}", t.others.join(", ")) }
                        ),
                    });
                }
            }
        }
    }
    all.sort_by(|a, b| b.points.cmp(&a.points).then(a.turn.cmp(&b.turn)));
    all
}

/// One CSV row: a turn of a player.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewRow {
    /// The game (0 for a single saved game; a simulated game's number).
    pub game: u64,
    /// The seat.
    pub seat: usize,
    /// The player's name.
    pub name: String,
    /// The player's turn, from 1.
    pub turn: u32,
    /// The best final score still reachable at its start.
    pub best: i64,
    /// Its proven upper bound.
    pub bound: i64,
    /// Whether `best` is proven.
    pub proven: bool,
    /// `best` minus the final score (bonus aside).
    pub gap: i64,
    /// The best after the player's own move.
    pub after_own: i64,
    /// What the player did.
    pub action: String,
    /// The others' claims before the next turn, `; ` between.
    pub others: String,
    /// The best plan's routes still to claim, `; ` between.
    pub plan: String,
}

impl Review {
    /// Every turn of every player, as CSV rows marked as game `game`.
    pub fn rows(&self, game: u64) -> Vec<ReviewRow> {
        self.players
            .iter()
            .flat_map(|p| {
                p.turns.iter().map(move |t| ReviewRow {
                    game,
                    seat: p.seat,
                    name: p.name.clone(),
                    turn: t.turn,
                    best: t.best,
                    bound: t.bound,
                    proven: t.proven,
                    gap: t.gap,
                    after_own: t.after_own,
                    action: t.action.clone(),
                    others: t.others.join("; "),
                    plan: t.plan.join("; "),
                })
            })
            .collect()
    }

    /// The review as text: per player, the score against the best reached
    /// and reachable, and the costliest turns.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Review of a game on {} ({} cars; the board's optimum at that count: {}{})\n",
            self.board,
            self.cars,
            self.board_optimum,
            if self.board_optimum_proven {
                ""
            } else {
                ", not proven"
            }
        );
        out += "Scores leave out the longest-path bonus; 'best' is the best final score still reachable.\n";
        for p in &self.players {
            let first = p.turns.first().map_or(p.network_score, |t| t.best);
            out += &format!(
                "\n{} (seat {}): final {} ({} with the bonus); best at the first turn {}; single-player optimum of the same tickets and cars {}{}\n",
                p.name,
                p.seat,
                p.network_score,
                p.score,
                first,
                p.single_player_optimum,
                if p.single_player_proven { "" } else { " (not proven)" }
            );
            out += &format!("  tickets: {}\n", p.tickets.join(", "));
            if p.costliest.is_empty() {
                out += "  no turn lost points\n";
            }
            for l in &p.costliest {
                out += &format!("  - {}\n", l.text);
            }
        }
        if !self.all_proven {
            out += "\nSome replans were stopped by their time limit: their values are the best found, with bounds in the CSV.\n";
        }
        out
    }
}

/// Reviews a saved game (the online game's `saveGameState` file).
pub fn review_saved(
    board: &Board,
    saved: &crate::engine::saved::SavedGame,
    options: &ReviewOptions,
) -> Result<Review, ReviewError> {
    let game = Game::new(board, saved.seats.len(), saved.seed).map_err(ReviewError::Deal)?;
    let names: Vec<String> = saved.seat_names();
    review(game, &saved.moves, &numbered(names), options)
}

/// Names told apart: a name borne by several seats gets their number among
/// them ("planner 1", "planner 2"), so that "planner claimed ..." says who.
pub(crate) fn numbered(names: Vec<String>) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let same = names.iter().filter(|m| *m == n).count();
            if same > 1 {
                let k = names[..i].iter().filter(|m| *m == n).count() + 1;
                format!("{n} {k}")
            } else {
                n.clone()
            }
        })
        .collect()
}
