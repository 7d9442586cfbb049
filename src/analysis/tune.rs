//! Tune: revisions of a board towards the balance report's targets, each
//! one proven on the revised board.
//!
//! The search is a local search over changes of tickets' points (each
//! ticket by at most [`Targets::max_step`], at most `budget_changes`
//! changes) and, where the targets allow, routes' lengths
//! ([`Targets::route_step`]) and tickets taken out ([`Targets::remove`]) or
//! replaced by candidates ([`Targets::add`]), guided by
//! exact values: a ticket in no optimum enters the optima exactly when
//! raised by its break-even `raise_by`, one in every optimum leaves them
//! exactly when lowered by `lower_by`, and a ticket's points per car need
//! no solve at all. From each measured board it proposes, per missed
//! target, the smallest change that the break-even values (or the rates)
//! say fixes it (a route on the ticket's cheapest connection, a car or the
//! rate's need; the ticket out, where no change of its points within the
//! bounds reaches); a candidate whose rates alone already miss more targets
//! than the best revision found is skipped without a solve (the rates are
//! exact, and the other targets can only add misses). Every candidate it
//! keeps is built as a [`Scenario`], applied to the board's text, and
//! measured by the same sweep as `balance` and its break-even's family
//! search ([`targets::measure`]): the memberships exact, the break-even
//! values only where a change within the bounds could reach them (the
//! forced solves of tickets further away, most of `balance`'s time on
//! Europe, are not needed); the deal's spread is measured on the revisions
//! reported (it ranks them), not searched. Deterministic: the same board
//! and targets give the same revisions.
//!
//! The search is not exhaustive: it tries the proposed single changes, then
//! combinations of the ones that helped, best predicted first (a
//! combination is predicted to fix the misses its parts fixed alone and add
//! those they added; the prediction orders and stops the search, it proves
//! nothing), then repairs
//! the best from its own measure, then drops changes it does not need. A
//! revision it does not report may still be better.

pub mod edit;
pub mod report;
pub mod targets;

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

use crate::analysis::balance::TicketValue;
use crate::analysis::scenario::{Scenario, ScenarioError};
use crate::board::graph::BoardGraph;
use crate::board::{Board, CityId, RouteId};
use crate::solve::limits::Limits;
use crate::solve::SolveError;
pub use edit::{Edit, RouteChange, TicketCard, TicketChange};
pub use targets::{Measure, Spread, Targets, TargetsError};

/// What to search, besides the targets.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The car count of interest: the sweep covers 1 to it, the break-even
    /// is taken at it.
    pub cars: u32,
    /// The targets and the bounds on each ticket's change.
    pub targets: Targets,
    /// The most tickets a revision may change.
    pub budget_changes: usize,
    /// Revisions to report, best first.
    pub keep: usize,
    /// Combinations of helpful single changes measured at most (past
    /// them the search repairs the best so far).
    pub max_combinations: usize,
    /// Worker threads.
    pub threads: usize,
    /// Revisions to measure beside, as they are (the 1910 reprint's on the
    /// USA board), by name.
    pub references: Vec<Scenario>,
}

/// A revised board (or the board itself, with no changes) and its measure.
#[derive(Clone, Debug, Serialize)]
pub struct Revision {
    /// "tune 1", the reference's name, or "board".
    pub name: String,
    /// The changes: tickets' points in board order of the tickets, then
    /// routes' lengths in board order, then removals and replacements.
    pub changes: Vec<Edit>,
    /// The revised board measured against the targets.
    pub measure: Measure,
    /// Targets missed ([`Measure::misses`]), the spread counted where
    /// measured.
    pub misses: usize,
}

impl Revision {
    /// The revision as a scenario (the `compare` format).
    pub fn scenario(&self, description: &str) -> Scenario {
        Scenario {
            name: self.name.clone(),
            description: description.to_string(),
            cars: None,
            changes: self.changes.iter().flat_map(Edit::changes).collect(),
        }
    }

    /// The scenario file's JSON, as `compare` reads it.
    pub fn scenario_json(&self, description: &str) -> serde_json::Value {
        let changes: Vec<serde_json::Value> =
            self.changes.iter().flat_map(Edit::changes_json).collect();
        serde_json::json!({ "name": self.name, "description": description, "changes": changes })
    }

    /// Points (and route cars) moved in all ([`Edit::magnitude`]).
    pub fn magnitude(&self) -> u32 {
        self.changes.iter().map(Edit::magnitude).sum()
    }
}

/// A single change that fixes some targets and misses others it met.
#[derive(Clone, Debug, Serialize)]
pub struct TradeOff {
    /// The change.
    pub change: Edit,
    /// Misses of the board it fixes ("dead: Sault St. Marie – Nashville").
    pub fixes: Vec<String>,
    /// Misses it adds.
    pub breaks: Vec<String>,
}

/// How much of the space the search covered.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SearchStats {
    /// Candidate revisions looked at (each once).
    pub considered: usize,
    /// Of them, measured by exact solves.
    pub solved: usize,
    /// Skipped without a solve: their rates alone miss as many targets as
    /// the best revision found, with no fewer changes.
    pub skipped_by_bound: usize,
    /// Combinations not measured because the best revision found already
    /// meets their predicted misses with no more changes.
    pub skipped_by_prediction: usize,
    /// Combinations not measured past [`TuneOptions::max_combinations`].
    pub left_untried: usize,
    /// Proposed changes out of bounds (past `max_step`, below 1 point, a
    /// ticket not allowed or of several trips).
    pub out_of_bounds: usize,
    /// Why the search stopped early (a time limit, Ctrl-C), if it did.
    pub stopped: Option<String>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
}

/// What `tune` found.
#[derive(Clone, Debug, Serialize)]
pub struct Tuning {
    /// The board's name.
    pub board: String,
    /// The car count of interest.
    pub cars: u32,
    /// The targets.
    pub targets: Targets,
    /// The spread target in force: the file's, or the board's own spread.
    pub max_spread: Option<f64>,
    /// The board as it is.
    pub base: Revision,
    /// The best revisions found, best first (fewest misses, then fewest
    /// changes, then fewest points moved); empty when none misses fewer
    /// targets than the board.
    pub revisions: Vec<Revision>,
    /// The reference revisions, measured the same way.
    pub references: Vec<Revision>,
    /// Single changes that fix a target and miss another.
    pub trade_offs: Vec<TradeOff>,
    /// The search's coverage.
    pub search: SearchStats,
}

/// The 1910 reprint's four lowered tickets, the reference on the USA board.
pub const USA_1910: &str = include_str!("../../data/scenarios/usa-1910-revisions.json");
/// Where that reference is in the repository, for messages.
pub const USA_1910_FILE: &str = "data/scenarios/usa-1910-revisions.json";

/// The revisions a board's tuning is measured beside: the 1910 reprint's
/// on a board named USA whose tickets it names. On a USA board of one's
/// own without those tickets, none, with the reason.
pub fn default_references(board: &Board, board_json: &str) -> (Vec<Scenario>, Option<String>) {
    if board.name != "USA" {
        return (Vec::new(), None);
    }
    let reprint = match Scenario::from_json(USA_1910, USA_1910_FILE) {
        Ok(r) => r,
        Err(e) => return (Vec::new(), Some(e.to_string())),
    };
    match reprint.apply(board_json, USA_1910_FILE) {
        Ok(_) => (vec![reprint], None),
        Err(e) => (
            Vec::new(),
            Some(format!("the 1910 reprint's changes do not apply: {e}")),
        ),
    }
}

impl TuneOptions {
    /// The defaults of `ttr-opt tune` on `board`, no reference measured
    /// beside: its own cars, the default targets, 4 changes at most, 3
    /// revisions kept, 8 combinations, 2 threads.
    pub fn defaults(board: &Board) -> TuneOptions {
        TuneOptions {
            cars: board.cars,
            targets: Targets::default(),
            budget_changes: 4,
            keep: 3,
            max_combinations: 8,
            threads: 2,
            references: Vec::new(),
        }
    }

    /// [`TuneOptions::defaults`] with [`default_references`] (and the
    /// reason when the 1910 reprint does not apply).
    pub fn for_board(board: &Board, board_json: &str) -> (TuneOptions, Option<String>) {
        let (references, warning) = default_references(board, board_json);
        let options = TuneOptions {
            references,
            ..TuneOptions::defaults(board)
        };
        (options, warning)
    }
}

/// Why tuning failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A solve failed (or the time limit stopped the board's own measure).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A revision or reference scenario does not apply to the board.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
}

/// What the search has just done, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Candidates considered so far.
    pub considered: usize,
    /// Of them, measured.
    pub solved: usize,
    /// What was measured ("Los Angeles – Miami 20→19: 5 misses").
    pub what: &'a str,
}

/// One move of a candidate, on the board's own cards and routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Move {
    /// Card `.0`'s points moved by `.1`.
    Points(usize, i32),
    /// Route `.0`'s length moved by `.1` cars (a route alone in its pair).
    Length(usize, i32),
    /// Card `.0` taken out of the deck.
    Remove(usize),
    /// Card `.0` taken out, the targets' candidate `.1` put in.
    Replace(usize, usize),
}

impl Move {
    /// What it changes: a card, or a route (two moves of one thing do
    /// not go together).
    fn subject(self) -> (bool, usize) {
        match self {
            Move::Length(r, _) => (true, r),
            Move::Points(c, _) | Move::Remove(c) | Move::Replace(c, _) => (false, c),
        }
    }
}

/// How far `key` already moves the points or the length of `subject`
/// ([`Move::subject`]): 0 where it does not.
fn moved_by(key: &Key, subject: (bool, usize)) -> i32 {
    key.iter()
        .find_map(|&m| match m {
            Move::Points(_, d) | Move::Length(_, d) if m.subject() == subject => Some(d),
            _ => None,
        })
        .unwrap_or(0)
}

/// A candidate: its moves, sorted (a ticket's points first, by card, as
/// the search has always ordered them).
type Key = Vec<Move>;

/// A route's rank among those of a cheapest connection: the tickets off
/// the band after its change, the longest first, then the first.
type RouteRank = (usize, std::cmp::Reverse<u32>, usize);

/// A single change, the misses it fixed and those it added.
type Effect = (Key, Vec<String>, Vec<String>);

/// Searches revisions of `board` (whose file text is `board_json`: the
/// revisions are scenarios applied to it) towards `options.targets`.
pub fn tune(
    board: &Board,
    board_json: &str,
    options: &TuneOptions,
    limits: &Limits,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Tuning, TuneError> {
    let started = Instant::now();
    // The search stops at 80 % of the time left, so that the deal's
    // spread of the revisions it found can still be measured in the rest.
    let search_limits = limits.within(limits.left().map(|left| left * SEARCH_SHARE));
    let mut search = Search {
        board,
        json: board_json,
        options,
        limits: &search_limits,
        deal_limits: limits,
        progress,
        cache: BTreeMap::new(),
        stats: SearchStats::default(),
        best: Vec::new(),
    };
    let base = search
        .measure_key(&Vec::new())?
        .ok_or_else(|| SolveError::TimeLimit("the board's own measure was proven".into()))?;
    let base = Revision {
        name: "board".into(),
        ..base
    };
    // The board itself is the first "best": a candidate must beat it.
    search.cache.insert(Vec::new(), Some(base.clone()));
    let trade_offs = search.run(&base);
    let mut revisions = search.finalists(&base);
    for (i, r) in revisions.iter_mut().enumerate() {
        r.name = format!("tune {}", i + 1);
    }
    let mut references = Vec::new();
    for (i, scenario) in options.references.iter().enumerate() {
        let variant = scenario.apply(board_json, &format!("references[{i}]"))?;
        let measure = search.measure_board(&variant, &scenario.name)?;
        if let Some(measure) = measure {
            references.push(Revision {
                name: scenario.name.clone(),
                changes: changes_between(board, &variant),
                misses: 0,
                measure,
            });
        }
    }
    // The deal's spread, on the revisions reported only: the board's own
    // first, which sets the target unless the file does.
    let mut base = base;
    search.add_spread(&mut base);
    let max_spread = options
        .targets
        .max_spread
        .or_else(|| base.measure.spread.as_ref().map(|s| s.spread));
    for r in revisions.iter_mut().chain(references.iter_mut()) {
        search.add_spread(r);
    }
    // The styles' win rates, where asked: the same revisions.
    for r in std::iter::once(&mut base)
        .chain(revisions.iter_mut())
        .chain(references.iter_mut())
    {
        search.add_win_rates(r);
    }
    for r in std::iter::once(&mut base)
        .chain(revisions.iter_mut())
        .chain(references.iter_mut())
    {
        r.misses = r.measure.misses(&options.targets, max_spread);
    }
    // The spread may reorder them: named again in their final order.
    revisions.sort_by_key(order);
    for (i, r) in revisions.iter_mut().enumerate() {
        r.name = format!("tune {}", i + 1);
    }
    let mut stats = search.stats;
    stats.seconds = started.elapsed().as_secs_f64();
    Ok(Tuning {
        board: board.name.clone(),
        cars: options.cars,
        targets: options.targets.clone(),
        max_spread,
        base,
        revisions,
        references,
        trade_offs,
        search: stats,
    })
}

/// The share of a time limit the search may take: the rest is kept for
/// the deal's spread of the revisions it found.
const SEARCH_SHARE: f64 = 0.8;

/// The order of revisions: fewest misses, fewest changes, fewest points
/// moved, then by their changes (deterministic).
fn order(r: &Revision) -> (usize, usize, u32, Vec<(String, u32)>) {
    (
        r.misses,
        r.changes.len(),
        r.magnitude(),
        r.changes.iter().map(Edit::sort_key).collect(),
    )
}

/// The ticket point changes from `board` to `variant` (same cards, in
/// board order; cards added or removed are not listed).
fn changes_between(board: &Board, variant: &Board) -> Vec<Edit> {
    board
        .tickets
        .iter()
        .zip(&variant.tickets)
        .filter(|(a, b)| a.points != b.points && board.cards[a.card].trips.len() == 1)
        .map(|(a, b)| {
            Edit::Ticket(TicketChange {
                ticket: board.cards[a.card].name.clone(),
                from: board.city(a.a).name.clone(),
                to: board.city(a.b).name.clone(),
                before: a.points,
                after: b.points,
            })
        })
        .collect()
}

/// The search's state: every candidate measured (or skipped), by key.
struct Search<'a> {
    board: &'a Board,
    json: &'a str,
    options: &'a TuneOptions,
    /// The search's limits (a share of the call's).
    limits: &'a Limits,
    /// The call's limits, for the deal's spread.
    deal_limits: &'a Limits,
    progress: &'a (dyn Fn(Progress) + Sync),
    /// Every candidate considered: its revision, or `None` (skipped, or
    /// cut short).
    cache: BTreeMap<Key, Option<Revision>>,
    stats: SearchStats,
    /// The best candidate measured so far.
    best: Key,
}

impl Search<'_> {
    /// The search proper, from the board's measure; returns the trade-offs
    /// among single changes.
    fn run(&mut self, base: &Revision) -> Vec<TradeOff> {
        // Single changes from the board's own measure.
        let singles = self.proposals(&Vec::new(), &base.measure);
        for key in &singles {
            self.consider(key);
        }
        let trade_offs = self.trade_offs(base, &singles);
        // Combinations of the singles that helped, best predicted first.
        let helped: Vec<Effect> = singles
            .iter()
            .filter_map(|k| {
                let r = self.cache.get(k)?.as_ref()?;
                (r.misses < base.misses).then(|| {
                    let (fixes, breaks) = self.effect(&base.measure, &r.measure);
                    (k.clone(), fixes, breaks)
                })
            })
            .collect();
        self.combinations(base.misses, &helped);
        self.mend_trade_offs(base, &singles);
        self.repair();
        self.shrink();
        trade_offs
    }

    /// Measures combinations of the `helped` single changes (each with the
    /// misses it fixed and added alone), best predicted first, until the
    /// best found meets the next one's prediction. A combination is
    /// predicted to fix every miss its parts fixed and add every miss they
    /// added (two changes that fix the same miss fix it once).
    fn combinations(&mut self, base_misses: usize, helped: &[Effect]) {
        let mut combos: Vec<(usize, Key)> = Vec::new();
        let n = helped.len().min(16);
        for mask in 1u32..(1 << n) {
            let size = mask.count_ones() as usize;
            if size < 2 || size > self.options.budget_changes {
                continue;
            }
            let parts: Vec<&Effect> = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| &helped[i])
                .collect();
            let union = |f: fn(&Effect) -> &Vec<String>| {
                let mut all: Vec<&String> = parts.iter().flat_map(|p| f(p)).collect();
                all.sort();
                all.dedup();
                all.len()
            };
            let (fixed, added) = (union(|p| &p.1), union(|p| &p.2));
            let mut key: Key = parts.iter().flat_map(|p| p.0.clone()).collect();
            key.sort();
            combos.push((base_misses.saturating_sub(fixed) + added, key));
        }
        combos.sort_by_cached_key(|(predicted, key)| {
            (*predicted, key.len(), self.magnitude(key), key.clone())
        });
        for (i, (predicted, key)) in combos.iter().enumerate() {
            if self.stats.stopped.is_some() {
                break;
            }
            if self.best_order() <= (*predicted, key.len(), self.magnitude(key)) {
                self.stats.skipped_by_prediction += combos.len() - i;
                break;
            }
            if i == self.options.max_combinations {
                self.stats.left_untried += combos.len() - i;
                break;
            }
            self.consider(key);
        }
    }

    /// From each single change that fixed a miss of the board but added
    /// another (a trade-off), the changes its own measure proposes for the
    /// tickets of the misses it added: pairs that help only together, the
    /// second mending the first's side effect, which the combinations of
    /// single changes that helped alone never try. On the Swiss map every
    /// single change is such a trade-off.
    fn mend_trade_offs(&mut self, base: &Revision, singles: &[Key]) {
        for single in singles {
            let Some(Some(r)) = self.cache.get(single).cloned() else {
                continue;
            };
            let (fixes, breaks) = self.effect(&base.measure, &r.measure);
            if fixes.is_empty() || breaks.is_empty() {
                continue;
            }
            // "off the band: Berne – Coire" names Berne – Coire.
            let named: Vec<&str> = breaks
                .iter()
                .filter_map(|m| m.split_once(": ").map(|(_, name)| name))
                .collect();
            // Proposals for the other misses are not counted out of
            // bounds here: they are not tried.
            let counted = self.stats.out_of_bounds;
            let proposed = self.proposals(single, &r.measure);
            self.stats.out_of_bounds = counted;
            for key in proposed {
                // A route's move mends no ticket by name: not tried here.
                let mends = key.iter().filter(|k| !single.contains(k)).all(|m| {
                    let (route, c) = m.subject();
                    !route && named.contains(&self.board.cards[c].name.as_str())
                });
                if mends {
                    self.consider(&key);
                }
            }
        }
    }

    /// From the best revision, the changes its own measure proposes (new
    /// tickets, or a ticket's change carried further), the best of them
    /// kept, while that helps.
    fn repair(&mut self) {
        loop {
            let best = self.best.clone();
            let Some(Some(current)) = self.cache.get(&best).cloned() else {
                return;
            };
            if current.misses == 0 || self.stats.stopped.is_some() {
                return;
            }
            for key in self.proposals(&best, &current.measure) {
                self.consider(&key);
            }
            if self.best == best {
                return;
            }
        }
    }

    /// Drops each change of the best revision in turn, keeping the smaller
    /// revision where it misses no more targets.
    fn shrink(&mut self) {
        loop {
            let best = self.best.clone();
            for i in 0..best.len() {
                let mut smaller = best.clone();
                smaller.remove(i);
                if !smaller.is_empty() {
                    self.consider(&smaller);
                }
            }
            if self.best == best || self.stats.stopped.is_some() {
                return;
            }
        }
    }

    /// The candidates one step from `key`, as the measure of its revision
    /// proposes them: per missed target, the smallest change of the
    /// ticket's points that fixes it (break-even values and rates are
    /// exact for one ticket at a time); where the targets allow, a route's
    /// length on its cheapest connection; and where no change of its
    /// points within the bounds reaches a miss, the ticket's removal or
    /// replacement.
    fn proposals(&mut self, key: &Key, measure: &Measure) -> Vec<Key> {
        let mut steps: Vec<(u32, usize, i32)> = Vec::new();
        let mut routes: Vec<(usize, i32)> = Vec::new();
        let mut missed: Vec<usize> = Vec::new();
        for (c, card) in self.board.cards.iter().enumerate() {
            let Some(row) = measure.tickets.iter().find(|t| t.name == card.name) else {
                continue;
            };
            let (misses, wanted, cars) = self.wanted(row, measure);
            if !misses {
                continue;
            }
            missed.push(c);
            for step in wanted {
                steps.push((step.unsigned_abs(), c, step));
            }
            for delta in cars {
                routes.push((c, delta));
            }
        }
        steps.sort();
        steps.dedup();
        let mut keys = Vec::new();
        let mut reached: Vec<usize> = Vec::new();
        for (_, c, step) in steps {
            let now = moved_by(key, Move::Points(c, 0).subject());
            match self.moved(key, c, now + step) {
                Some(k) if !keys.contains(&k) => {
                    reached.push(c);
                    keys.push(k)
                }
                Some(_) => reached.push(c),
                None => self.stats.out_of_bounds += 1,
            }
        }
        routes.dedup();
        for (c, delta) in routes {
            if let Some(k) = self.route_move(key, c, delta) {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        // Out of the deck, alone or replaced, only where no change of the
        // ticket's points within the bounds was proposed.
        for c in missed.into_iter().filter(|c| !reached.contains(c)) {
            let targets = &self.options.targets;
            let mut moves: Vec<Move> = Vec::new();
            if targets.remove {
                moves.push(Move::Remove(c));
            }
            moves.extend((0..targets.add.len()).map(|k| Move::Replace(c, k)));
            for m in moves {
                match self.with_move(key, m) {
                    Some(k) if !keys.contains(&k) => keys.push(k),
                    Some(_) => {}
                    None => self.stats.out_of_bounds += 1,
                }
            }
        }
        keys
    }

    /// Whether a ticket misses a target asked, the changes of its points
    /// that would fix its misses, and the changes of its cheapest
    /// connection's cars that would (a route's length: asked only where
    /// the targets allow routes to move).
    fn wanted(&mut self, row: &TicketValue, measure: &Measure) -> (bool, Vec<i32>, Vec<i32>) {
        let targets = &self.options.targets;
        let (mut wanted, mut cars) = (Vec::new(), Vec::new());
        let mut misses = false;
        let cheapest = row.cheapest_cars as i32;
        // The band is asked of tickets of one trip (as `off_band` counts).
        if let Some(band) = targets.rate_band.filter(|_| !row.several_trips) {
            let fair = measure.median_rate * row.cheapest_cars as f64;
            let (lo, hi) = (fair * (1.0 - band) - 1e-9, fair * (1.0 + band) + 1e-9);
            let points = row.points as f64;
            misses = points > hi || points < lo;
            if points > hi {
                wanted.push(hi.floor() as i32 - row.points as i32);
                // The fewest cars at which its points are in the band.
                let at = points / (measure.median_rate * (1.0 + band)) - 1e-9;
                cars.push(at.ceil() as i32 - cheapest);
            } else if points < lo {
                wanted.push(lo.ceil() as i32 - row.points as i32);
                let at = points / (measure.median_rate * (1.0 - band)) + 1e-9;
                cars.push(at.floor() as i32 - cheapest);
            }
        }
        if targets.dead && measure.dead.contains(&row.name) {
            misses = true;
            match row.raise_by {
                Some(r) => wanted.push(r as i32),
                // More than the measure's reach (at least `max_step`),
                // or no plan completes it at all.
                None => self.stats.out_of_bounds += 1,
            }
            // A car less to connect it.
            cars.push(-1);
        }
        if targets.generous && measure.generous.contains(&row.name) {
            // Leaving every optimum at the car count needs `lower_by`;
            // where that is out of reach, the smallest cut may still
            // take it out of half the budgets' optima.
            let lower = row.lower_by.filter(|&l| l <= targets.max_step).unwrap_or(1);
            wanted.push(-(lower as i32));
            cars.push(1);
            misses = true;
        }
        if targets.route_step == 0 {
            cars.clear();
        }
        let step = targets.route_step as i32;
        cars = cars
            .into_iter()
            .map(|d| d.clamp(-step, step))
            .filter(|&d| d != 0)
            .collect();
        cars.dedup();
        (misses, wanted, cars)
    }

    /// `key` with card `c`'s points changed by `delta` in all, if within
    /// the bounds.
    fn moved(&self, key: &Key, c: usize, delta: i32) -> Option<Key> {
        let card = &self.board.cards[c];
        let points = self.board.ticket(card.trips[0]).points as i32 + delta;
        if delta == 0
            || card.trips.len() != 1
            || delta.unsigned_abs() > self.options.targets.max_step
            || points < 1
        {
            return None;
        }
        self.with_move(key, Move::Points(c, delta))
    }

    /// `key` with `m` in place of any move of the same card or route, if
    /// the card may change (allowed by the targets, its name unique on the
    /// board, the first card holding its first trip) and the changes stay
    /// within the budget.
    fn with_move(&self, key: &Key, m: Move) -> Option<Key> {
        let targets = &self.options.targets;
        let (route, c) = m.subject();
        if !route {
            let card = &self.board.cards[c];
            let allowed = targets
                .tickets
                .as_ref()
                .is_none_or(|names| names.contains(&card.name));
            let named = |k: &crate::board::Card| k.name == card.name;
            let unique = self.board.cards.iter().filter(|k| named(k)).count() == 1;
            // A removal takes the first card holding the trip it names.
            let first = self.board.ticket(card.trips[0]);
            let holds = |k: &crate::board::Card| {
                k.trips.iter().any(|&t| {
                    let t = self.board.ticket(t);
                    (t.a, t.b) == (first.a, first.b) || (t.a, t.b) == (first.b, first.a)
                })
            };
            let firstly = self.board.cards.iter().position(holds) == Some(c);
            if !allowed || !unique || !firstly {
                return None;
            }
        }
        // A candidate replaces one ticket at most.
        if let Move::Replace(_, k) = m {
            if key
                .iter()
                .any(|x| matches!(*x, Move::Replace(o, j) if j == k && o != c))
            {
                return None;
            }
        }
        let mut next: Key = key
            .iter()
            .copied()
            .filter(|x| x.subject() != (route, c))
            .collect();
        next.push(m);
        if next.len() > self.options.budget_changes {
            return None;
        }
        next.sort();
        Some(next)
    }

    /// `key` with a route on card `c`'s cheapest connection `delta` cars
    /// longer (shorter where negative): of the routes allowed on one
    /// cheapest connection of the revised board, the one whose change
    /// leaves the fewest tickets off the band (exact, from the rates), then
    /// the longest, then the first.
    fn route_move(&self, key: &Key, c: usize, delta: i32) -> Option<Key> {
        // Which trip of a ticket of several would run over it is the
        // plan's: their routes are not proposed.
        if self.board.cards[c].trips.len() != 1 {
            return None;
        }
        let (variant, _) = self.revise(key).ok()?;
        let trip = self.board.ticket(self.board.cards[c].trips[0]);
        let band = self.options.targets.rate_band;
        // (tickets off the band, the longest, the first) and the candidate.
        let mut ranked: Vec<(RouteRank, Key)> = Vec::new();
        for r in cheapest_path(&variant, trip.a, trip.b) {
            let now = moved_by(key, Move::Length(r.0, 0).subject());
            let Some(k) = self.length_moved(key, r.0, now + delta) else {
                continue;
            };
            let Ok((revised, _)) = self.revise(&k) else {
                continue;
            };
            let off = band.map_or(0, |b| targets::off_band(&revised, b).len());
            ranked.push((
                (off, std::cmp::Reverse(self.board.routes[r.0].length), r.0),
                k,
            ));
        }
        ranked.into_iter().min().map(|(_, k)| k)
    }

    /// `key` with route `r`'s length changed by `delta` in all, if within
    /// the bounds (allowed by the targets, alone in its pair, at least a
    /// car).
    fn length_moved(&self, key: &Key, r: usize, delta: i32) -> Option<Key> {
        let targets = &self.options.targets;
        let length = self.board.routes[r].length as i32 + delta;
        if delta == 0
            || delta.unsigned_abs() > targets.route_step
            || length < 1
            || !targets.route_allowed(self.board, RouteId(r))
            || self.board.pair_routes(RouteId(r)).len() != 1
        {
            return None;
        }
        self.with_move(key, Move::Length(r, delta))
    }

    /// The order of the best candidate measured so far.
    fn best_order(&self) -> (usize, usize, u32) {
        match self.cache.get(&self.best) {
            Some(Some(r)) => (r.misses, r.changes.len(), r.magnitude()),
            _ => (usize::MAX, 0, 0),
        }
    }

    /// Considers a candidate once: skipped by the bound of its rates, or
    /// measured.
    fn consider(&mut self, key: &Key) {
        if self.cache.contains_key(key) || self.stats.stopped.is_some() {
            return;
        }
        self.stats.considered += 1;
        let result = self.bounded(key).and_then(|skip| match skip {
            true => {
                self.stats.skipped_by_bound += 1;
                Ok(None)
            }
            false => self.measure_key(key),
        });
        match result {
            Ok(Some(r)) => {
                self.stats.solved += 1;
                let better = (r.misses, r.changes.len(), r.magnitude()) < self.best_order();
                self.cache.insert(key.clone(), Some(r));
                if better {
                    self.best = key.clone();
                }
            }
            Ok(None) => {
                self.cache.insert(key.clone(), None);
            }
            // A revision that does not apply is a bug of the search, not
            // the user's: it is skipped and counted as out of bounds.
            Err(_) => {
                self.stats.out_of_bounds += 1;
                self.cache.insert(key.clone(), None);
            }
        }
    }

    /// Whether `key`'s rates alone (exact, no solve) miss as many targets as
    /// the best revision so far, with no fewer changes.
    fn bounded(&self, key: &Key) -> Result<bool, TuneError> {
        let Some(band) = self.options.targets.rate_band else {
            return Ok(false);
        };
        let (variant, _) = self.revise(key)?;
        let least = targets::off_band(&variant, band).len();
        Ok(self.best_order() <= (least, key.len(), self.magnitude(key)))
    }

    /// The board revised by `key`, and its changes.
    fn revise(&self, key: &Key) -> Result<(Board, Vec<Edit>), TuneError> {
        let changes: Vec<Edit> = key.iter().map(|&m| self.edit(m)).collect();
        let revision = Revision {
            name: "candidate".into(),
            changes,
            measure: empty_measure(),
            misses: 0,
        };
        let board = revision
            .scenario("a candidate of tune")
            .apply(self.json, "tune candidate")?;
        Ok((board, revision.changes))
    }

    /// A move as the revision reports it.
    fn edit(&self, m: Move) -> Edit {
        let b = self.board;
        let card = |c: usize| {
            let trip = b.ticket(b.cards[c].trips[0]);
            TicketCard {
                ticket: b.cards[c].name.clone(),
                from: b.city(trip.a).name.clone(),
                to: b.city(trip.b).name.clone(),
                points: trip.points,
            }
        };
        match m {
            Move::Points(c, delta) => {
                let t = card(c);
                Edit::Ticket(TicketChange {
                    ticket: t.ticket,
                    from: t.from,
                    to: t.to,
                    before: t.points,
                    after: (t.points as i32 + delta) as u32,
                })
            }
            Move::Length(r, delta) => {
                let route = &b.routes[r];
                let (from, to) = (b.city(route.a).name.clone(), b.city(route.b).name.clone());
                Edit::Route(RouteChange {
                    route: format!("{from} – {to}"),
                    from,
                    to,
                    before: route.length,
                    after: (route.length as i32 + delta) as u32,
                })
            }
            Move::Remove(c) => Edit::Remove(card(c)),
            Move::Replace(c, k) => {
                let new = &self.options.targets.add[k];
                Edit::Replace {
                    out: card(c),
                    with: TicketCard {
                        ticket: format!("{} – {}", new.from, new.to),
                        from: new.from.clone(),
                        to: new.to.clone(),
                        points: new.points,
                    },
                }
            }
        }
    }

    /// Points (and cars) a candidate moves ([`Edit::magnitude`]).
    fn magnitude(&self, key: &Key) -> u32 {
        key.iter().map(|&m| self.edit(m).magnitude()).sum()
    }

    /// Measures the revision `key` (`None`: the time limit stopped it).
    fn measure_key(&mut self, key: &Key) -> Result<Option<Revision>, TuneError> {
        let (variant, changes) = self.revise(key)?;
        let what = if changes.is_empty() {
            "the board".to_string()
        } else {
            describe(&changes)
        };
        Ok(self
            .measure_board(&variant, &what)?
            .map(|measure| Revision {
                name: "candidate".into(),
                misses: measure.misses(&self.options.targets, None),
                changes,
                measure,
            }))
    }

    /// Measures a board (`None`: the time limit stopped it), telling the
    /// progress.
    fn measure_board(&mut self, board: &Board, what: &str) -> Result<Option<Measure>, TuneError> {
        if let Some(why) = self.limits.why() {
            let why = match why {
                crate::solve::Stop::Interrupted => "interrupted",
                crate::solve::Stop::Cancelled => "cancelled",
                _ => "the time limit",
            };
            self.stats.stopped = Some(why.to_string());
            return Ok(None);
        }
        let o = self.options;
        match targets::measure(board, o.cars, &o.targets, o.threads, self.limits) {
            Ok(m) => {
                let line = format!("{what}: {} missed", m.misses(&o.targets, None));
                self.tell(&line);
                Ok(Some(m))
            }
            Err(SolveError::TimeLimit(why)) => {
                // The solve names what it could not prove; the cause is
                // the limit (or Ctrl-C).
                self.stats.stopped = Some(format!("the time limit was reached before {why}"));
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Tells the progress what was just measured.
    fn tell(&self, line: &str) {
        (self.progress)(Progress {
            considered: self.stats.considered,
            solved: self.stats.solved,
            what: line,
        });
    }

    /// Notes that the time limit left a revision's deal or games out
    /// (unless an earlier stop is noted already).
    fn stop_for_time(&mut self) {
        self.stats
            .stopped
            .get_or_insert_with(|| "time limit".into());
    }

    /// Adds the deal's spread to a revision's measure (left out where the
    /// time limit stops it: the run says so).
    fn add_spread(&mut self, r: &mut Revision) {
        if self.deal_limits.passed() {
            self.stop_for_time();
            return;
        }
        let variant = match self.revise_changes(&r.changes) {
            Ok(b) => b,
            Err(_) => return,
        };
        let o = self.options;
        match targets::spread(&variant, o.cars, o.threads, self.deal_limits) {
            Ok(s) => {
                r.measure.spread = s;
                let line = format!("the deal of {}: spread measured", r.name);
                self.tell(&line);
            }
            Err(e) => {
                self.stats.stopped.get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// Adds the styles' win rates to a revision's measure, where the
    /// targets ask for them (left out where the time limit stops them: the
    /// run says so).
    fn add_win_rates(&mut self, r: &mut Revision) {
        let Some(styles) = &self.options.targets.win_rates else {
            return;
        };
        if self.deal_limits.passed() {
            self.stop_for_time();
            return;
        }
        let Ok(variant) = self.revise_changes(&r.changes) else {
            return;
        };
        let key = &self.board.name;
        match targets::win_rates(
            &variant,
            key,
            styles,
            self.options.threads,
            self.deal_limits,
        ) {
            Ok(Some(w)) => {
                r.measure.win_rates = Some(w);
                let line = format!("the styles' games on {}: win rates measured", r.name);
                self.tell(&line);
            }
            Ok(None) => {
                self.stop_for_time();
            }
            Err(e) => {
                self.stats
                    .stopped
                    .get_or_insert_with(|| format!("the styles' games: {e}"));
            }
        }
    }

    /// The board with `changes` applied.
    fn revise_changes(&self, changes: &[Edit]) -> Result<Board, TuneError> {
        let r = Revision {
            name: "revision".into(),
            changes: changes.to_vec(),
            measure: empty_measure(),
            misses: 0,
        };
        Ok(r.scenario("").apply(self.json, "tune revision")?)
    }

    /// The best revisions measured, best first, that miss fewer targets
    /// than the board.
    fn finalists(&self, base: &Revision) -> Vec<Revision> {
        let mut all: Vec<Revision> = self
            .cache
            .iter()
            .filter(|(k, _)| !k.is_empty())
            .filter_map(|(_, r)| r.clone())
            .filter(|r| r.misses < base.misses)
            .collect();
        all.sort_by_key(order);
        all.truncate(self.options.keep);
        all
    }

    /// Every miss of a measure, by target and ticket ("dead: Sault St.
    /// Marie – Nashville"), for the targets asked.
    fn misses(&self, m: &Measure) -> Vec<String> {
        let t = &self.options.targets;
        let mut v = Vec::new();
        let mut add = |on: bool, what: &str, names: &[String]| {
            if on {
                v.extend(names.iter().map(|n| format!("{what}: {n}")));
            }
        };
        add(t.dead, "dead", &m.dead);
        add(t.generous, "generous", &m.generous);
        add(t.rate_band.is_some(), "off the band", &m.off_band);
        v
    }

    /// The misses of `before` that `after` fixes, and those it adds.
    fn effect(&self, before: &Measure, after: &Measure) -> (Vec<String>, Vec<String>) {
        let (before, after) = (self.misses(before), self.misses(after));
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            a.iter().filter(|m| !b.contains(m)).cloned().collect()
        };
        (only(&before, &after), only(&after, &before))
    }

    /// The single changes that fixed a miss of the board and added another.
    fn trade_offs(&self, base: &Revision, singles: &[Key]) -> Vec<TradeOff> {
        singles
            .iter()
            .filter_map(|k| self.cache.get(k)?.as_ref())
            .filter_map(|r| {
                let (fixes, breaks) = self.effect(&base.measure, &r.measure);
                (!fixes.is_empty() && !breaks.is_empty()).then(|| TradeOff {
                    change: r.changes[0].clone(),
                    fixes,
                    breaks,
                })
            })
            .collect()
    }
}

/// "Los Angeles – Miami 20→19, route Paris – Zagrab 7→6 cars".
pub fn describe(changes: &[Edit]) -> String {
    changes
        .iter()
        .map(Edit::describe)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The routes of one cheapest connection of `a` and `b` (fewest cars; of
/// several, at each city the route of the lowest id), from `a`; none
/// where they are not connected.
fn cheapest_path(board: &Board, a: CityId, b: CityId) -> Vec<RouteId> {
    let graph = BoardGraph::new(board, board.route_ids());
    let dist = graph.distances(b, |r| board.route(r).length);
    let mut path = Vec::new();
    let mut at = a;
    while at != b {
        let Some(d) = dist[at.0] else {
            return Vec::new();
        };
        let step = board.route_ids().find_map(|r| {
            let route = board.route(r);
            let other = match at {
                x if x == route.a => route.b,
                x if x == route.b => route.a,
                _ => return None,
            };
            (dist[other.0]? + route.length == d).then_some((r, other))
        });
        let Some((r, other)) = step else {
            return Vec::new();
        };
        path.push(r);
        at = other;
    }
    path
}

/// A measure with nothing in it, for a revision not yet measured.
fn empty_measure() -> Measure {
    Measure {
        optimum: 0,
        budgets: 0,
        median_rate: 0.0,
        dead: Vec::new(),
        generous: Vec::new(),
        off_band: Vec::new(),
        spread: None,
        win_rates: None,
        tickets: Vec::new(),
    }
}
