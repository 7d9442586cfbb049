//! A Monte Carlo search player in the manner of Huchler's thesis ("An MCTS
//! agent for Ticket to Ride", Maastricht, 2015), kept to the root of the
//! tree: a yardstick from the literature for the other strategies.
//!
//! At each turn it weighs a few candidate moves by playing the game out:
//! each round deals a determinisation (the hidden cards and tickets dealt
//! again from what the player cannot see, [`Game::determinized`]), and
//! every candidate is played from that same deal, then the greedy player
//! of the C# simulation plays every seat to the end. The candidate with
//! the best total reward is played; the reward is the player's final score
//! against the best other score, scaled to 0..1. Choices other than a
//! turn's (tickets, a second card, a tunnel's extra cards) are the greedy
//! player's.
//!
//! Choices made here, where the thesis leaves room: one level of search
//! (its tree's root, every candidate tried equally often from common
//! deals, which beat UCB1 over all claims: with 64 playouts UCB1 averaged
//! 35 points against greedy's 137 on the USA board, 10 games); the
//! candidates are the greedy player's move, a claim of each route greedy
//! targets (the payment with the fewest locomotives), the longest route
//! the hand pays for, the face-up cards of the targets' colours and
//! locomotives, the deck and new tickets, at most `MAX_CANDIDATES`;
//! playouts run to the end; [`MCTS_PLAYOUTS`] a turn.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::Colour;
use crate::bots::greedy::Greedy;
use crate::bots::tactics::{longest_affordable, ticket_targets};
use crate::bots::Strategy;
use crate::engine::cards::Card;
use crate::engine::rules::{Action, Expect, Game};

/// Playouts a turn. Against greedy on the USA board (10 games, 2 cores)
/// 64 won 2 and averaged 94 points to greedy's 126; 256 won 5 (108 to 115)
/// at about 0.25 s a move.
pub const MCTS_PLAYOUTS: usize = 256;

/// Moves a playout may make before it is cut (a stalled game ends sooner
/// by the stall rule).
const PLAYOUT_MOVES: usize = 3_000;

/// Candidates weighed a turn, the greedy player's move first: more spread
/// the playouts thinner than their noise allows.
const MAX_CANDIDATES: usize = 8;

/// The search player.
pub struct Mcts {
    /// Playouts a turn.
    pub playouts: usize,
}

impl Default for Mcts {
    fn default() -> Self {
        Mcts {
            playouts: MCTS_PLAYOUTS,
        }
    }
}

impl Strategy for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn decide(&mut self, game: &Game, me: usize, rng: &mut ChaCha8Rng) -> Action {
        if game.offer(me).is_some() || !matches!(game.expect(), Expect::Turn) {
            return Greedy.decide(game, me, rng);
        }
        let moves = candidates(game, me, rng);
        if moves.len() <= 1 {
            return moves.into_iter().next().unwrap_or(Action::Pass);
        }
        // Every candidate is played out from the same determinisations
        // (common random numbers): their differences are then the moves',
        // not the deals'.
        let rounds = (self.playouts / moves.len()).max(1);
        let mut totals = vec![0.0; moves.len()];
        for _ in 0..rounds {
            let seed = rng.random::<u64>();
            for (k, m) in moves.iter().enumerate() {
                totals[k] += playout(game, me, m, &mut ChaCha8Rng::seed_from_u64(seed));
            }
        }
        // The best total; ties to the first, the greedy player's move.
        let best = (0..moves.len())
            .max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        moves[best].clone()
    }
}

/// The turn's candidate moves (see the module comment), each once, the
/// greedy player's first.
fn candidates(game: &Game, me: usize, rng: &mut ChaCha8Rng) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    let mut add = |a: Action| {
        if !out.contains(&a) {
            out.push(a);
        }
    };
    add(Greedy.decide(game, me, rng));
    let targets = ticket_targets(game, me);
    for &r in &targets {
        let cheapest = game.claims_of(me, r).into_iter().min_by_key(|a| match a {
            Action::Claim { locomotives, .. } => *locomotives,
            _ => u32::MAX,
        });
        if let Some(a) = cheapest {
            add(a);
        }
    }
    if let Some(a) = longest_affordable(game, me) {
        add(a);
    }
    let wanted: Vec<Colour> = targets
        .iter()
        .flat_map(|&r| game.board.route(r).tracks.iter().copied())
        .collect();
    for (i, card) in game.face_up().iter().enumerate() {
        if matches!(card, Card::Train(c) if wanted.contains(c)) || *card == Card::Locomotive {
            add(Action::DrawFaceUp(i));
        }
    }
    if game.deck_len() + game.discard_len() > 0 {
        add(Action::DrawDeck);
    }
    if game.tickets_left() > 0 && !game.in_last_round() {
        add(Action::DrawTickets);
    }
    // Only legal moves: a candidate the engine would refuse is dropped.
    let legal = game.legal();
    out.retain(|a| match a {
        Action::Claim { .. } | Action::BuildStation { .. } => true,
        other => legal.contains(other),
    });
    out.truncate(MAX_CANDIDATES);
    out
}

/// One playout: a determinisation, the move, greedy play to the end; the
/// reward, 0.5 plus the margin over the best other score per 200 points,
/// within 0..1 (a move the determinisation refuses scores 0).
fn playout(game: &Game, me: usize, first: &Action, rng: &mut ChaCha8Rng) -> f64 {
    let mut g = game.determinized(me, rng);
    if g.apply(me, first).is_err() {
        return 0.0;
    }
    let mut moves = 0;
    while !g.is_over() && moves < PLAYOUT_MOVES {
        let p = g.current();
        let action = Greedy.decide(&g, p, rng);
        if g.apply(p, &action).is_err() {
            break;
        }
        moves += 1;
    }
    let scores: Vec<i64> = g.results().iter().map(|r| r.score).collect();
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .map(|(_, &s)| s)
        .max()
        .unwrap_or(0);
    (0.5 + (scores[me] - best_other) as f64 / 200.0).clamp(0.0, 1.0)
}
