//! The luck of the deal: for every hand of tickets a player can be dealt,
//! the best score that hand allows, alone on the board with its car count.
//!
//! A hand is `hand` ticket cards from the deck; the player keeps at least
//! `keep` of them. Its value is the best, over the keepable subsets, of the
//! best final score with those tickets held ([`replan`] from an empty
//! board): route points, each kept ticket's points if completed and minus
//! them if not (a card with several trips: its best completed trip, or
//! minus its smallest). Every solve is proven.
//!
//! Hands share subsets (on the USA board the 4,060 hands of 3 have 435
//! pairs between them), so each subset is solved once, on the worker pool,
//! and a hand is the best of its subsets.

use std::collections::HashMap;
use std::time::Instant;

use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::board::{Board, RouteId};
use crate::engine::state::GameState;
use crate::plans::replan::{clears_completing, held_score, replan, Bar};
use crate::solve::limits::Limits;
use crate::solve::{SolveError, SolveOptions};
use crate::stats::quantile;

/// What to deal.
#[derive(Clone, Debug)]
pub struct DealOptions {
    /// Cars a player.
    pub cars: u32,
    /// Cards dealt in a hand, `long` of them from the long-route deck (the
    /// board's cards marked `long`) and the rest from the others.
    pub hand: usize,
    /// Cards of the hand from the long-route deck (Europe deals 1 of its 6
    /// long tickets and 3 others, and a player keeps any 2 or more).
    pub long: usize,
    /// Cards a player must keep.
    pub keep: usize,
    /// A seeded uniform sample of this many hands instead of every hand.
    pub sample: Option<(usize, u64)>,
}

/// One hand.
#[derive(Clone, Debug, Serialize)]
pub struct HandRow {
    /// The hand's cards, by name, in deck order.
    pub hand: Vec<String>,
    /// The best score the hand allows.
    pub best: i64,
    /// The cards to keep for it (the fewest, then the first, among equals).
    pub keep: Vec<String>,
}

/// One ticket card as a card of the deck.
#[derive(Clone, Debug, Serialize)]
pub struct CardValue {
    /// The card, an index into [`Board::cards`] (names of identical cards
    /// repeat).
    #[serde(skip)]
    pub card: usize,
    /// The card's name.
    pub ticket: String,
    /// Its points (its best trip's).
    pub points: u32,
    /// Hands holding it.
    pub hands: usize,
    /// The mean best score of the hands holding it: its value as a card.
    pub mean_best: f64,
    /// The share of those hands whose best choice keeps it.
    pub kept_share: f64,
}

/// The whole deal.
#[derive(Clone, Debug, Serialize)]
pub struct DealReport {
    /// The board's name.
    pub board: String,
    /// Cars a player.
    pub cars: u32,
    /// Cards a hand, and the fewest kept.
    pub hand: usize,
    /// Cards of a hand from the long-route deck.
    pub long: usize,
    /// The fewest kept.
    pub keep: usize,
    /// Cards in the deck.
    pub deck: usize,
    /// Hands there are (C(deck, hand)), as a string: it can be huge.
    pub hands_possible: String,
    /// Whether `hands` is a sample, and its seed.
    pub sampled: bool,
    /// The sample's seed (0 when every hand is listed).
    pub seed: u64,
    /// Hands valued.
    pub hands_valued: usize,
    /// Distinct keepable subsets among the hands: the solves of one run (a
    /// run split in chunks solves a subset shared by two chunks twice).
    pub solves: usize,
    /// Whether every solve is proven optimal (a run's time limit can stop
    /// some: their values are the best found).
    pub all_proven: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The lowest, quartiles, deciles and highest hand value.
    pub min: i64,
    /// 10th percentile.
    pub p10: f64,
    /// 25th percentile.
    pub p25: f64,
    /// Median.
    pub median: f64,
    /// 75th percentile.
    pub p75: f64,
    /// 90th percentile.
    pub p90: f64,
    /// The best hand's value.
    pub max: i64,
    /// The share of hands within 10 % of the best hand.
    pub within_10_percent: f64,
    /// Every card, best value first.
    pub tickets: Vec<CardValue>,
    /// The 10 best hands, best first.
    pub best_hands: Vec<HandRow>,
    /// The 10 worst hands, worst first.
    pub worst_hands: Vec<HandRow>,
    /// Every hand valued, in deal order (omitted from the JSON; the CSV).
    #[serde(skip)]
    pub hands: Vec<HandRow>,
}

/// Why a deal could not be valued.
#[derive(Debug, thiserror::Error)]
pub enum DealError {
    /// The hand or keep count does not fit the deck.
    #[error("{0}")]
    Invalid(String),
    /// A solve failed.
    #[error("{0}")]
    Solve(#[from] SolveError),
}

/// C(n, k), saturating.
fn choose(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| {
        c.saturating_mul((n - i) as u128) / (i as u128 + 1)
    })
}

/// Every k-subset of 0..n in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut c: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(c.clone());
        let Some(i) = (0..k).rev().find(|&i| c[i] != i + n - k) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// The most hands valued in one run (every hand, or a sample).
pub const MAX_HANDS: usize = 2_000_000;

/// Values the deal of `board` as `options` says, solving on the current
/// rayon pool; `progress` is called after each subset solved.
pub fn deals(
    board: &Board,
    options: &DealOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<DealReport, DealError> {
    deals_within(board, options, &Limits::none(), progress)
}

/// [`deals`] within the call's `limits`: past them, the solves left are
/// unproven and the report says so.
pub fn deals_within(
    board: &Board,
    options: &DealOptions,
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<DealReport, DealError> {
    let started = Instant::now();
    let hands = deal_hands(board, options)?;
    let values = value_hands_within(board, options, &hands, limits, progress)?;
    Ok(deal_report(
        board,
        options,
        &hands,
        &values,
        started.elapsed().as_secs_f64(),
    ))
}

/// One hand's value: its best score, the cards to keep for it, and whether
/// every solve behind it is proven.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct HandValue {
    /// The best score the hand allows.
    pub best: i64,
    /// The cards to keep (deck indices), the fewest, then the first among equals.
    pub keep: Vec<usize>,
    /// Every solve of its subsets was proven.
    pub proven: bool,
}

/// The hands `options` deals, as sorted deck indices: every hand in
/// lexicographic order, or the seeded sample, sorted. A hand's place in this
/// list is what [`value_hands`] chunks and [`deal_report`] merges by.
pub fn deal_hands(board: &Board, options: &DealOptions) -> Result<Vec<Vec<usize>>, DealError> {
    let (hand, keep, long) = (options.hand, options.keep, options.long);
    // The two decks, as card indices; without long cards in the hand, one.
    let (longs, others): (Vec<usize>, Vec<usize>) = if long == 0 {
        (Vec::new(), (0..board.cards.len()).collect())
    } else {
        (0..board.cards.len()).partition(|&c| board.cards[c].long)
    };
    if hand == 0 || keep == 0 || keep > hand || hand > 8 || long > hand {
        return Err(DealError::Invalid(format!(
            "a hand of {hand} ({long} long) keeping at least {keep}: the hand is 1 to 8 cards, the long ones at most the hand, the keep 1 to the hand"
        )));
    }
    if long == 0 && hand > others.len() {
        return Err(DealError::Invalid(format!(
            "a hand of {hand} keeping at least {keep}: the hand is 1 to 8 cards and at most the deck's {}, the keep 1 to the hand",
            others.len()
        )));
    }
    if long > longs.len() || hand - long > others.len() {
        return Err(DealError::Invalid(format!(
            "a hand of {hand} with {long} long: the board has {} long ticket cards (\"long\": true) and {} others",
            longs.len(),
            others.len()
        )));
    }
    let possible = possible_hands(board, options);
    // A hand from the two decks, as sorted card indices.
    let join = |l: &[usize], o: &[usize]| {
        let mut h: Vec<usize> = l
            .iter()
            .map(|&i| longs[i])
            .chain(o.iter().map(|&i| others[i]))
            .collect();
        h.sort_unstable();
        h
    };
    Ok(match options.sample {
        Some((n, seed)) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut drawn: Vec<Vec<usize>> = (0..n.min(MAX_HANDS))
                .map(|_| {
                    let l = sample(&mut rng, longs.len(), long).into_vec();
                    let o = sample(&mut rng, others.len(), hand - long).into_vec();
                    join(&l, &o)
                })
                .collect();
            drawn.sort();
            drawn
        }
        None if possible > MAX_HANDS as u128 => {
            return Err(DealError::Invalid(format!(
                "{possible} hands of {hand} from {} cards are more than {MAX_HANDS}: value a sample (--sample N)",
                board.cards.len()
            )))
        }
        None => {
            let mut hands: Vec<Vec<usize>> = combinations(longs.len(), long)
                .iter()
                .flat_map(|l| {
                    combinations(others.len(), hand - long)
                        .into_iter()
                        .map(|o| join(l, &o))
                        .collect::<Vec<_>>()
                })
                .collect();
            hands.sort();
            hands
        }
    })
}

/// Hands `options` can deal on `board`: C(deck, hand), or with long cards
/// C(long deck, long) × C(other cards, hand − long). Saturating.
fn possible_hands(board: &Board, options: &DealOptions) -> u128 {
    let deck = board.cards.len();
    let longs = board.cards.iter().filter(|c| c.long).count();
    if options.long == 0 {
        choose(deck, options.hand)
    } else {
        choose(longs, options.long).saturating_mul(choose(
            deck - longs,
            options.hand.saturating_sub(options.long),
        ))
    }
}

/// Keepable subsets of one hand: C(hand, keep) + ... + C(hand, hand).
pub fn keepable_per_hand(hand: usize, keep: usize) -> usize {
    (keep..=hand).map(|k| choose(hand, k) as usize).sum()
}

/// The keepable subsets of `s` smaller than `s` (at least `keep` cards).
fn smaller_keeps(s: &[usize], keep: usize) -> impl Iterator<Item = Vec<usize>> + '_ {
    (keep..s.len())
        .flat_map(move |k| combinations(s.len(), k))
        .map(move |c| c.iter().map(|&i| s[i]).collect())
}

/// Every keepable subset of `hands`, once, sorted.
fn keepable(hands: &[Vec<usize>], keep: usize) -> Vec<Vec<usize>> {
    let mut subsets: Vec<Vec<usize>> = hands
        .iter()
        .flat_map(|h| {
            (keep..=h.len()).flat_map(move |k| {
                combinations(h.len(), k)
                    .into_iter()
                    .map(move |c| c.iter().map(|&i| h[i]).collect::<Vec<usize>>())
            })
        })
        .collect();
    subsets.sort();
    subsets.dedup();
    subsets
}

/// The state a keep is valued from: a player with `cars` cars and nothing
/// claimed, holding the kept cards (`kept`, indices into [`Board::cards`];
/// a card stands for its first trip, and [`replan`] scores its best), who
/// draws no more tickets.
pub fn keep_state(board: &Board, cars: u32, kept: &[usize]) -> GameState {
    GameState {
        players: 2,
        cars_left: cars,
        owned: Vec::new(),
        taken: Vec::new(),
        tickets: kept.iter().map(|&c| board.cards[c].trips[0]).collect(),
        may_draw: false,
        // A deal is weighed by routes and tickets, as solve's headline.
        stations: None,
    }
}

/// Values `hands` (any slice of [`deal_hands`]: a chunk of a distributed
/// run values its own), solving each keepable subset once on the current
/// rayon pool; `progress` is called after each subset solved.
pub fn value_hands(
    board: &Board,
    options: &DealOptions,
    hands: &[Vec<usize>],
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<HandValue>, DealError> {
    value_hands_within(board, options, hands, &Limits::none(), progress)
}

/// [`value_hands`] within the call's `limits`: past them, the solves left
/// are unproven.
pub fn value_hands_within(
    board: &Board,
    options: &DealOptions,
    hands: &[Vec<usize>],
    limits: &Limits,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<HandValue>, DealError> {
    let keep = options.keep;
    let solve_options = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let state = |s: &[usize]| keep_state(board, options.cars, s);
    // A subset's value, whether it is proven, and the plan that scores it
    // (`None`: no better than a smaller keep).
    type Valued = Option<(i64, bool, Vec<RouteId>)>;
    let solved = |s: &Vec<usize>| -> Result<Valued, SolveError> {
        let r = replan(board, &state(s), &solve_options)?;
        progress();
        Ok(Some((r.score, r.outcome.proven, r.claim)))
    };
    // Subsets are valued by size, smallest first. The smallest are solved;
    // a larger one only matters if it beats every smaller keep inside it
    // (ties keep the fewer cards), the same in every hand that holds it,
    // which the frontier programme settles alone with the best of them as
    // its bar: a "no" costs a fraction of a solve (on Europe for a quarter
    // of the triples and two hands in three), and a "yes" comes with the
    // optimum, checked by the verifier. A subset that cannot beat them is left
    // unvalued (`None`): it is never a hand's best, and the best of a
    // larger subset's smaller keeps is still the best of the valued ones
    // (an unvalued one is at most the best of its own).
    let mut by_size: Vec<Vec<Vec<usize>>> = vec![Vec::new(); options.hand + 1];
    for s in keepable(hands, keep) {
        let k = s.len();
        by_size[k].push(s);
    }
    // The most a card adds to a plan's score: its best trip.
    let most = |c: usize| -> i64 {
        let points = board.cards[c].trips.iter().map(|&t| board.ticket(t).points);
        points.max().unwrap_or(0) as i64
    };
    let mut value: HashMap<Vec<usize>, Option<(i64, bool)>> = HashMap::new();
    // The plans of the valued subsets: each is a plan for any keep (the
    // same cars, nothing owned), scored there by its own tickets.
    let mut plans: HashMap<Vec<usize>, Vec<RouteId>> = HashMap::new();
    for level in by_size.into_iter().skip(keep) {
        let best_below = |s: &[usize]| -> Option<i64> {
            smaller_keeps(s, keep)
                .filter_map(|t| value[&t].map(|v| v.0))
                .max()
        };
        // No plan scores more for `s` than for a smaller keep inside it plus
        // the best trips of the cards that keep leaves out, so `s` scores at
        // most the least of those (an unvalued keep scoring at most the best
        // of its own smaller keeps).
        let at_most = |s: &[usize]| -> Option<i64> {
            smaller_keeps(s, keep)
                .filter_map(|t| {
                    let upper = value[&t].map(|v| v.0).or_else(|| best_below(&t))?;
                    let left: i64 = s.iter().filter(|c| !t.contains(c)).map(|&c| most(c)).sum();
                    Some(upper + left)
                })
                .min()
        };
        // The best score a smaller keep's plan makes for `s` (the first of
        // equals), with that plan: a plan `s` scores at least.
        let floor = |s: &[usize]| -> Option<(i64, &Vec<RouteId>)> {
            let kept = state(s);
            smaller_keeps(s, keep)
                .filter_map(|t| plans.get(&t))
                .map(|routes| (held_score(board, &kept, routes), routes))
                .fold(None, |best, (v, r)| match best {
                    Some((b, _)) if b >= v => best,
                    _ => Some((v, r)),
                })
        };
        let valued: Vec<Valued> = level
            .par_iter()
            .map(|s| -> Result<Valued, SolveError> {
                let Some(bar) = best_below(s) else {
                    return solved(s);
                };
                // Settled by its smaller keeps' values alone (on Europe a
                // tenth of the whole hands, 4 % of the triples).
                let upper = at_most(s);
                if upper.is_some_and(|upper| upper <= bar) {
                    progress();
                    return Ok(None);
                }
                // A smaller keep's plan scores for `s` what it scored for
                // that keep, plus the points of the cards it leaves out that
                // the plan happens to complete, less the others': where that
                // reaches the bound above, it is the optimum (on Europe's
                // sample 6 % of the triples and 8 % of the whole hands; the
                // others score at least 5 points under the bar).
                if let (Some((v, plan)), Some(upper)) = (floor(s), upper) {
                    if v >= upper {
                        progress();
                        return Ok(Some((v, true, plan.clone())));
                    }
                }
                // Every smaller keep inside scored at most the bar, so only
                // a plan completing all of the subset's tickets can beat it.
                match clears_completing(board, &state(s), bar) {
                    Some(Bar::Below) => {
                        progress();
                        Ok(None)
                    }
                    // The optimum found clearing the bar, verified.
                    Some(Bar::Above { score, routes }) => {
                        progress();
                        Ok(Some((score, true, routes)))
                    }
                    None => solved(s),
                }
            })
            .collect::<Result<_, _>>()?;
        for (s, v) in level.into_iter().zip(valued) {
            let Some((score, proven, plan)) = v else {
                value.insert(s, None);
                continue;
            };
            // (A whole hand's plan has no larger subset to serve.)
            if s.len() < options.hand {
                plans.insert(s.clone(), plan);
            }
            value.insert(s, Some((score, proven)));
        }
    }
    Ok(best_keeps(hands, keep, &value))
}

/// Each hand's value: the best of its keepable subsets' values (`None`
/// where a subset is no better than a smaller keep), ties to the fewer
/// cards, proven if every subset valued is.
fn best_keeps(
    hands: &[Vec<usize>],
    keep: usize,
    value: &HashMap<Vec<usize>, Option<(i64, bool)>>,
) -> Vec<HandValue> {
    hands
        .iter()
        .map(|h| {
            let mut best: Option<(i64, Vec<usize>)> = None;
            let mut proven = true;
            for k in keep..=h.len() {
                for c in combinations(h.len(), k) {
                    let s: Vec<usize> = c.iter().map(|&i| h[i]).collect();
                    // `None`: no better than a smaller keep.
                    let Some((v, p)) = value[&s] else {
                        continue;
                    };
                    proven &= p;
                    if best.as_ref().is_none_or(|(b, _)| v > *b) {
                        best = Some((v, s));
                    }
                }
            }
            let (best, keep) = best.expect("a hand has a keepable subset");
            HandValue { best, keep, proven }
        })
        .collect()
}

/// The report of a deal from its hands and their values (in the same
/// order), however they were valued: one run, or chunks merged in order.
pub fn deal_report(
    board: &Board,
    options: &DealOptions,
    hands: &[Vec<usize>],
    values: &[HandValue],
    seconds: f64,
) -> DealReport {
    let deck = board.cards.len();
    let (hand, keep) = (options.hand, options.keep);
    let possible = possible_hands(board, options);
    let all_proven = values.iter().all(|v| v.proven);
    let name = |c: usize| board.cards[c].name.clone();
    let rows: Vec<(Vec<usize>, i64, Vec<usize>)> = hands
        .iter()
        .zip(values)
        .map(|(h, v)| (h.clone(), v.best, v.keep.clone()))
        .collect();

    let mut sorted: Vec<i64> = rows.iter().map(|r| r.1).collect();
    sorted.sort_unstable();
    let max = sorted.last().copied().unwrap_or(0);
    let within = rows
        .iter()
        .filter(|r| (r.1 as f64) >= 0.9 * max as f64)
        .count() as f64
        / rows.len().max(1) as f64;
    let mut tickets: Vec<CardValue> = (0..deck)
        .map(|c| {
            let holding: Vec<&(Vec<usize>, i64, Vec<usize>)> =
                rows.iter().filter(|r| r.0.contains(&c)).collect();
            let kept = holding.iter().filter(|r| r.2.contains(&c)).count();
            let n = holding.len().max(1) as f64;
            CardValue {
                card: c,
                ticket: name(c),
                points: board.cards[c]
                    .trips
                    .iter()
                    .map(|&t| board.ticket(t).points)
                    .max()
                    .unwrap_or(0),
                hands: holding.len(),
                mean_best: holding.iter().map(|r| r.1 as f64).sum::<f64>() / n,
                kept_share: kept as f64 / n,
            }
        })
        .collect();
    tickets.sort_by(|a, b| b.mean_best.total_cmp(&a.mean_best));
    let row = |r: &(Vec<usize>, i64, Vec<usize>)| HandRow {
        hand: r.0.iter().map(|&c| name(c)).collect(),
        best: r.1,
        keep: r.2.iter().map(|&c| name(c)).collect(),
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    // Stable: equal values keep deal order.
    order.sort_by_key(|&i| std::cmp::Reverse(rows[i].1));
    let best_hands = order.iter().take(10).map(|&i| row(&rows[i])).collect();
    let worst_hands = order
        .iter()
        .rev()
        .take(10)
        .map(|&i| row(&rows[i]))
        .collect();
    DealReport {
        board: board.name.clone(),
        cars: options.cars,
        hand,
        long: options.long,
        keep,
        deck,
        hands_possible: possible.to_string(),
        sampled: options.sample.is_some(),
        seed: options.sample.map_or(0, |s| s.1),
        hands_valued: rows.len(),
        solves: keepable(hands, keep).len(),
        all_proven,
        seconds,
        min: sorted.first().copied().unwrap_or(0),
        p10: quantile(&sorted, 0.10),
        p25: quantile(&sorted, 0.25),
        median: quantile(&sorted, 0.5),
        p75: quantile(&sorted, 0.75),
        p90: quantile(&sorted, 0.90),
        max,
        within_10_percent: within,
        tickets,
        best_hands,
        worst_hands,
        hands: rows.iter().map(row).collect(),
    }
}
