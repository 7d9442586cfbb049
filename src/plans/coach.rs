//! The coach: the best plan from here for one player, from what that player
//! knows and nothing else.
//!
//! Its input is a [`GameState`] ([`GameState::of_player`]: the player's
//! cars, tracks and tickets, and the tracks the others claimed) and the
//! player's own ticket offer, if one is waiting. Neither holds another
//! player's hand or tickets, nor the deck: the coach cannot use what the
//! player could not see, because it is never given it.
//!
//! With an offer waiting it weighs every choice the rules allow (each set
//! of at least `min` of the offered tickets, with those held) and plans
//! for the best one; otherwise it plans for the tickets held. Plans come
//! from [`replan`], verified by the union-find check.

use std::time::Instant;

use crate::board::{Board, TicketId};
use crate::engine::state::GameState;
use crate::plans::replan::{replan, Replan};
use crate::solve::{SolveError, SolveOptions};

/// One way to answer a ticket offer, and the best final score it allows.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The offered tickets kept.
    pub keep: Vec<TicketId>,
    /// The best final score with them (held tickets too).
    pub score: i64,
    /// Its proven upper bound (= `score` when proven).
    pub bound: i64,
    /// Whether `score` is proven optimal.
    pub proven: bool,
}

/// The coach's answer.
#[derive(Clone, Debug)]
pub struct Advice {
    /// The best plan: for the tickets held, or for the best choice of an
    /// offer (with its tickets held).
    pub plan: Replan,
    /// The tickets the plan is for: held, plus the best choice's.
    pub tickets: Vec<TicketId>,
    /// With an offer waiting: every choice, best first (ties: fewer
    /// tickets, then offer order).
    pub choices: Vec<Choice>,
    /// Wall-clock time, seconds.
    pub seconds: f64,
}

impl Advice {
    /// Whether every plan behind the advice is proven optimal.
    pub fn proven(&self) -> bool {
        self.plan.outcome.proven && self.choices.iter().all(|c| c.proven)
    }
}

/// The best plan from `state` for its player; with `offer` (the tickets
/// offered and how many must be kept), the best choice too. `options`'
/// time limit bounds the whole answer, not each plan.
pub fn advise(
    board: &Board,
    state: &GameState,
    offer: Option<(&[TicketId], usize)>,
    options: &SolveOptions,
) -> Result<Advice, SolveError> {
    let started = Instant::now();
    let left = |o: &SolveOptions| SolveOptions {
        time_limit: o
            .time_limit
            .map(|t| (t - started.elapsed().as_secs_f64()).max(0.05)),
        ..o.clone()
    };
    let Some((offered, min)) = offer.filter(|(offered, _)| !offered.is_empty()) else {
        let plan = replan(board, state, &left(options))?;
        return Ok(Advice {
            plan,
            tickets: state.tickets.clone(),
            choices: Vec::new(),
            seconds: started.elapsed().as_secs_f64(),
        });
    };
    let mut best: Option<(Replan, Vec<TicketId>)> = None;
    let mut choices = Vec::new();
    // Every subset of the offer of at least `min` tickets (at most 2^5).
    let n = offered.len().min(16);
    let mut masks: Vec<u32> = (1u32..1 << n)
        .filter(|m| m.count_ones() as usize >= min.max(1))
        .collect();
    // Fewer tickets first, then offer order: the first of equal scores
    // stays the best.
    masks.sort_by_key(|m| (m.count_ones(), std::cmp::Reverse(m.reverse_bits())));
    for mask in masks {
        let keep: Vec<TicketId> = (0..n)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| offered[i])
            .collect();
        let mut s = state.clone();
        s.tickets.extend(&keep);
        let plan = replan(board, &s, &left(options))?;
        choices.push(Choice {
            keep: keep.clone(),
            score: plan.score,
            bound: plan.bound,
            proven: plan.outcome.proven,
        });
        if best.as_ref().is_none_or(|(b, _)| plan.score > b.score) {
            best = Some((plan, s.tickets));
        }
    }
    // Stable: equal scores keep the order tried.
    choices.sort_by_key(|c| std::cmp::Reverse(c.score));
    let (plan, tickets) = best.expect("an offer has at least one choice");
    Ok(Advice {
        plan,
        tickets,
        choices,
        seconds: started.elapsed().as_secs_f64(),
    })
}
