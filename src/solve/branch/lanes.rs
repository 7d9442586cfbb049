//! One proof on two cores: the branch and cut as two lanes, each with its
//! own LP (HiGHS is single-threaded per instance) and its own open nodes,
//! sharing the incumbent.
//!
//! The root is processed by lane 0 alone; lane 1 then takes its cuts (the
//! same rows in the same order) and the root's second child with its basis,
//! which fits those rows.
//!
//! Then the search goes in rounds. In each, every lane processes nodes
//! (each node's cut rounds and branching decision) until it has done
//! [`ROUND_WORK`] (its LPs' simplex iterations, [`Search::work`]): the
//! child it dives into, else the best node of its own heap; a lane with
//! neither starts the round with the best node of the other lane's heap
//! (without the saved basis, which belongs to the other lane's rows). At
//! the end of a round the lanes' results are merged in lane order: the
//! better incumbent (lane 0's on a tie) goes to both, and each lane adds
//! the cuts the other found that it does not hold yet.
//! Nothing depends on which thread finishes first, so the plan, the bound
//! and the counts are the same on one thread as on two, run after run.
//!
//! Best-first order matters less than it seems: once the incumbent is the
//! optimum, every node whose bound is above it has to be processed in any
//! order, and a better incumbent saves little (Europe at 45 cars, one lane:
//! its optimum found at the 262nd of 291 LPs; told one point less from the
//! start, 279 LPs). What two lanes lose is the cuts one lane finds and the
//! other finds again, the bases of the nodes a lane takes from the other,
//! and the time a lane waits for the other at the end of a round.

use std::collections::BinaryHeap;

use super::{floor, Answer, Fix, Node, NodeEnd, Reach, Search, PURGE_AFTER};
use crate::board::RouteId;
use crate::model::forest::Cut;
use crate::model::mip::MipError;
use crate::model::Instance;
use crate::solve::limits::Limits;
use crate::solve::Watch;

/// How many lanes the search runs: the machines this tool is for have two
/// cores, and the plan must not depend on the machine.
pub(super) const LANES: usize = 2;

/// The work a lane does in a round, at least (it finishes the node it is
/// on), in simplex iterations (see [`Search::work`]): about 16 of Europe's
/// LPs at 45 cars. A round waits for the slower lane: with one node a
/// round, lanes waited so much that Europe at 45 cars took as long as one
/// lane alone (6.0 s). On six slow solves (36.4 s on one lane), rounds of
/// 8 LPs took 27.0 s, 16 LPs 25.2 s, 32 LPs 28.0 s. But LPs differ in cost
/// up to tenfold, with their iterations, and in rounds of 16 LPs a lane
/// waited for the other 14-46 % of the rounds' time (Europe at 45 cars
/// 1.1-1.7 s of 4.7-5.3 s). Rounds of equal work took 7 % less time in all
/// on 19 proofs of five boards (`solve --method forest`, 27-45 cars), faster
/// on 12 of them; on Europe at 45 cars 1,000 iterations a round and 3,000
/// did worse than 2,000.
const ROUND_WORK: u64 = 2000;

struct Lane<'a, 'b> {
    search: Search<'a, 'b>,
    heap: BinaryHeap<Node>,
    /// The fixes on the lane's LP now.
    applied: Vec<Fix>,
    /// The child the lane dives into next (its basis is the LP's own).
    dive: Option<Node>,
    /// Creation order of the lane's nodes, for ties in the heap.
    seq: u64,
    nodes: i64,
    /// Every cut the lane has added or been given.
    known: rustc_hash::FxHashSet<Vec<(usize, u64)>>,
}

/// How one lane's round ended.
enum Round {
    /// No node to process.
    Idle,
    /// Pruned, infeasible or integral.
    Done,
    /// The deadline or an interruption came: the node is open again.
    Stopped(Node),
    /// Branched with this LP bound: one child kept, one to dive into.
    Branched(f64),
}

/// A lane lent to another thread for one round.
struct Lent<'l, 'a, 'b>(&'l mut Lane<'a, 'b>, Option<Node>, u64);

// SAFETY: a lane's HiGHS instance (a raw pointer inside `Mip`, hence not
// `Send`) is only ever used by one thread at a time: the round's closure
// holds the only reference to the lane, and the driver waits for it (the
// scoped thread is joined) before touching the lane again. HiGHS keeps no
// state tied to the thread that created an instance.
unsafe impl Send for Lent<'_, '_, '_> {}

impl Lent<'_, '_, '_> {
    fn round(self) -> Result<Round, MipError> {
        self.0.round(self.1, self.2)
    }
}

impl Lane<'_, '_> {
    /// Processes `node` (if any) on this lane's LP, then goes on (diving,
    /// or with the best node of its own heap) until the round has done
    /// `work` ([`Search::work`]); the node it would process next is kept
    /// for the next round.
    fn round(&mut self, node: Option<Node>, work: u64) -> Result<Round, MipError> {
        let Some(mut node) = node else {
            return Ok(Round::Idle);
        };
        let start = self.search.work;
        loop {
            let end = self.process(node)?;
            if !matches!(end, Round::Done | Round::Branched(_)) {
                return Ok(end);
            }
            let best = self.search.best;
            let next = match self.dive.take() {
                Some(dive) if self.live(&dive, best) => Some(dive),
                _ => self.pop(best),
            };
            match next {
                None => return Ok(end),
                Some(next) if self.search.work - start >= work => {
                    if next.basis.is_some() {
                        self.heap.push(next);
                    } else {
                        self.dive = Some(next);
                    }
                    return Ok(end);
                }
                Some(next) => node = next,
            }
        }
    }

    /// Processes one node.
    fn process(&mut self, mut node: Node) -> Result<Round, MipError> {
        self.search.purge(&mut self.heap, &mut node)?;
        if let Some(basis) = node.basis.take() {
            self.search.mip.set_basis(&basis)?;
        }
        self.search.apply(&mut self.applied, &node.fixes)?;
        self.nodes += 1;
        Ok(match self.search.process(&node)? {
            NodeEnd::Done => Round::Done,
            NodeEnd::Stopped(bound) => Round::Stopped(self.search.reopened(node, bound)),
            NodeEnd::Branch {
                bound,
                first,
                second,
            } => {
                let (heap, seq) = (&mut self.heap, &mut self.seq);
                self.search
                    .branch(heap, seq, &mut node, bound, first, second)?;
                self.dive = Some(node);
                Round::Branched(bound)
            }
        })
    }

    /// The best node of the heap that can still beat `best` (the heap is
    /// emptied once its best cannot; in a family search, nodes no question
    /// can gain in are dropped).
    fn pop(&mut self, best: u32) -> Option<Node> {
        loop {
            let top = self.heap.pop()?;
            if floor(top.bound) <= best {
                self.heap.clear();
                return None;
            }
            if self.live(&top, best) {
                return Some(top);
            }
        }
    }

    /// Whether `node` can still beat `best` (in a family search, some
    /// question can still gain in it).
    fn live(&self, node: &Node, best: u32) -> bool {
        floor(node.bound) > best
            && (self.search.family.is_none() || self.search.any_open(&node.fixes, node.bound))
            && self.search.ladder_open(node)
    }

    /// The best open bound of the lane (its heap and its dive).
    fn open(&self) -> u32 {
        self.heap
            .iter()
            .chain(&self.dive)
            .map(|n| floor(n.bound))
            .max()
            .unwrap_or(0)
    }
}

/// Proves the optimum of `inst` like [`super::solve`], on [`LANES`] lanes,
/// on two threads when `threads` is more than one (the same answer on one).
pub(super) fn run(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    reach: Reach,
    threads: usize,
    watch: Option<&Watch>,
) -> Result<Answer, MipError> {
    let searches = [
        Search::new(inst, start, limits, reach, PURGE_AFTER)?.0,
        Search::new(inst, start, limits, reach, PURGE_AFTER)?.0,
    ];
    Ok(drive(searches, limits, reach, threads, watch)?.0)
}

/// Runs the search of `searches` (one per lane, each set up alike: the
/// same instance, start and, for a family search, questions) as in
/// [`run`]; the answer, and lane 0's search as the last round left it
/// (every lane's incumbents shared into it).
pub(super) fn drive<'a, 'b>(
    searches: [Search<'a, 'b>; LANES],
    limits: &Limits,
    reach: Reach,
    threads: usize,
    watch: Option<&Watch>,
) -> Result<(Answer, Search<'a, 'b>), MipError> {
    let inst = searches[0].inst;
    let trivial = searches[0].trivial();
    let mut lanes = searches.map(|search| Lane {
        search,
        heap: BinaryHeap::new(),
        applied: Vec::new(),
        dive: None,
        seq: 0,
        nodes: 0,
        known: Default::default(),
    });
    lanes[0].heap.push(Node {
        bound: f64::INFINITY,
        fixes: Vec::new(),
        basis: None,
        seq: 0,
        rhs: inst.cars,
        pi: 0.0,
    });
    let mut rooted = false;
    // The best score and the bound the watch was last told of (the
    // start's score is not news).
    let mut told = (lanes[0].search.best, u32::MAX);
    let mut stopped = false;
    let mut out_of_lps = false;
    loop {
        let best = lanes.iter().map(|l| l.search.best).max().unwrap_or(0);
        // A plan at the bound known beforehand ends the search, proven.
        if best >= trivial {
            break;
        }
        let mut picks: [Option<Node>; LANES] = Default::default();
        for (lane, pick) in lanes.iter_mut().zip(&mut picks) {
            *pick = match lane.dive.take() {
                Some(dive) if lane.live(&dive, best) => Some(dive),
                _ => lane.pop(best),
            };
        }
        // An idle lane takes the best node left with the other.
        for w in 0..LANES {
            if picks[w].is_none() {
                if let Some(mut node) = lanes[1 - w].pop(best) {
                    node.basis = None;
                    picks[w] = Some(node);
                }
            }
        }
        if picks.iter().all(Option::is_none) {
            break;
        }
        let lps: usize = lanes.iter().map(|l| l.search.lps).sum();
        let late = lps > 0 && limits.passed();
        let spent = matches!(reach, Reach::Handover { lps: most, .. } if lps >= most);
        if late || spent {
            for (lane, pick) in lanes.iter_mut().zip(&mut picks) {
                lane.heap.extend(pick.take());
            }
            stopped = true;
            out_of_lps = spent && !late;
            break;
        }
        let per_round = if rooted { ROUND_WORK } else { 0 };
        let ends = if threads > 1 && picks.iter().all(Option::is_some) {
            let [first, second] = &mut lanes;
            let lent = Lent(second, picks[1].take(), per_round);
            std::thread::scope(|scope| {
                let other = scope.spawn(move || lent.round());
                let mine = first.round(picks[0].take(), per_round);
                let theirs = other.join().expect("a lane's round does not panic");
                [mine, theirs]
            })
        } else {
            let [first, second] = &mut lanes;
            [
                first.round(picks[0].take(), per_round),
                second.round(picks[1].take(), per_round),
            ]
        };
        for (w, end) in ends.into_iter().enumerate() {
            match end? {
                Round::Stopped(node) => {
                    lanes[w].heap.push(node);
                    stopped = true;
                }
                Round::Branched(bound) if !rooted && lanes[0].search.stop_at_root(bound) => {
                    let nodes = lanes[0].nodes;
                    let [first, _] = lanes;
                    let mut search = first.search;
                    let mut answer = search.answer(floor(bound), false, nodes);
                    answer.loose_root = search.loose(bound);
                    return Ok((answer, search));
                }
                _ => {}
            }
        }
        share_incumbent(&mut lanes);
        if let Some(watch) = watch {
            // Told between rounds, as the lanes share it: the same plans
            // and bounds on one thread as on two.
            let best = lanes[0].search.best;
            let open = lanes.iter().map(Lane::open).max().unwrap_or(0).min(trivial);
            if best > told.0 || open < told.1 {
                told = (best, open);
                watch.tell(inst, &lanes[0].search.best_routes, open);
            }
        }
        if rooted {
            share_cuts(&mut lanes)?;
        }
        if stopped {
            break;
        }
        if !rooted {
            for lane in lanes.iter_mut() {
                lane.search.fresh = Some(Vec::new());
            }
            rooted = true;
            hand_root(&mut lanes)?;
        }
    }
    if stopped {
        settle_rungs(&mut lanes);
    }
    let nodes = lanes.iter().map(|l| l.nodes).sum();
    let lps = lanes.iter().map(|l| l.search.lps).sum();
    let cuts = lanes.iter().map(|l| l.search.cuts).sum();
    let open = lanes.iter().map(Lane::open).max().unwrap_or(0);
    let search = &mut lanes[0].search;
    let bound = if stopped {
        open.min(trivial).max(search.best)
    } else {
        search.best
    };
    let mut answer = search.answer(bound, bound == search.best, nodes);
    answer.lps = lps;
    answer.cuts = cuts;
    answer.out_of_lps = out_of_lps && !answer.proven;
    let [first, _] = lanes;
    Ok((answer, first.search))
}

/// Gives every lane the best incumbent (the first lane's of equal ones);
/// in a family search, each question's.
fn share_incumbent(lanes: &mut [Lane; LANES]) {
    if lanes[0].search.family.is_some() {
        share_answers(lanes);
        return;
    }
    if lanes[0].search.ladder.is_some() {
        share_rungs(lanes);
        return;
    }
    let mut from = 0;
    for w in 1..LANES {
        if lanes[w].search.best > lanes[from].search.best {
            from = w;
        }
    }
    let (best, routes) = (
        lanes[from].search.best,
        lanes[from].search.best_routes.clone(),
    );
    for lane in lanes.iter_mut() {
        lane.search.best = best;
        lane.search.best_routes = routes.clone();
    }
}

/// Gives every lane each question's best plan (a found plan before an
/// unfound one, then the better, then the first lane's of equal ones).
fn share_answers(lanes: &mut [Lane; LANES]) {
    let key = |lane: &Lane, q: usize| {
        let a = &lane.search.family.as_ref().expect("a family search")[q];
        (a.found, a.best)
    };
    let questions = lanes[0].search.family.as_ref().map_or(0, Vec::len);
    for q in 0..questions {
        let mut from = 0;
        for w in 1..LANES {
            if key(&lanes[w], q) > key(&lanes[from], q) {
                from = w;
            }
        }
        let a = &lanes[from].search.family.as_ref().expect("a family search")[q];
        let (best, routes, found) = (a.best, a.routes.clone(), a.found);
        for lane in lanes.iter_mut() {
            let a = &mut lane.search.family.as_mut().expect("a family search")[q];
            a.best = best;
            a.routes = routes.clone();
            a.found = found;
        }
    }
    for lane in lanes.iter_mut() {
        let asked = lane.search.family.as_ref().expect("a family search");
        lane.search.best = asked.iter().map(|a| a.best).min().unwrap_or(0);
    }
}

/// Gives every lane each budget's best plan (the better, then the first
/// lane's of equal ones).
fn share_rungs(lanes: &mut [Lane; LANES]) {
    let rungs = |lane: &Lane| lane.search.ladder.clone().expect("a ladder search");
    let mut best = rungs(&lanes[0]);
    for lane in &lanes[1..] {
        for (b, r) in best.iter_mut().zip(rungs(lane)) {
            if r.best > b.best {
                *b = r;
            }
        }
    }
    for lane in lanes.iter_mut() {
        lane.search.best = best.iter().map(|r| r.best).min().unwrap_or(0);
        lane.search.ladder = Some(best.clone());
    }
}

/// A stopped ladder search: each budget that a node still open could
/// gain in is not proven.
fn settle_rungs(lanes: &mut [Lane; LANES]) {
    let open: Vec<(f64, f64, u32)> = lanes
        .iter()
        .flat_map(|l| l.heap.iter().chain(&l.dive))
        .map(|n| (n.bound, n.pi, n.rhs))
        .collect();
    if let Some(rungs) = &mut lanes[0].search.ladder {
        for r in rungs.iter_mut() {
            r.proven = !open.iter().any(|&(bound, pi, rhs)| r.open(bound, pi, rhs));
        }
    }
}

/// After the root (on lane 0): lane 1 takes the root's cuts, so that its
/// rows are lane 0's, and the root's second child with its basis.
fn hand_root(lanes: &mut [Lane; LANES]) -> Result<(), MipError> {
    let [root, other] = lanes;
    // Past the root's decision: both lanes separate clique rows.
    root.search.cliques = true;
    other.search.cliques = true;
    let cuts: Vec<Cut> = root.search.row_cuts.iter().flatten().cloned().collect();
    other.search.model.add_cuts(&mut other.search.mip, &cuts)?;
    other.search.row_cuts = root.search.row_cuts.clone();
    other.search.purged_at = root.search.purged_at;
    debug_assert_eq!(other.search.mip.rows(), root.search.mip.rows());
    if let Some(node) = root.heap.pop() {
        other.heap.push(node);
    }
    Ok(())
}

/// Gives each lane the cuts the other found in the round (those it does
/// not hold already), after its own rows in lane order.
fn share_cuts(lanes: &mut [Lane; LANES]) -> Result<(), MipError> {
    let fresh: Vec<Vec<Cut>> = lanes
        .iter_mut()
        .map(|l| l.search.fresh.replace(Vec::new()).unwrap_or_default())
        .collect();
    for (w, lane) in lanes.iter_mut().enumerate() {
        let mut new: Vec<Cut> = Vec::new();
        for cut in fresh
            .iter()
            .enumerate()
            .filter(|(o, _)| *o != w)
            .flat_map(|(_, c)| c)
        {
            if lane.known.insert(cut.key()) {
                new.push(cut.clone());
            }
        }
        for cut in &fresh[w] {
            lane.known.insert(cut.key());
        }
        if !new.is_empty() {
            lane.search.model.add_cuts(&mut lane.search.mip, &new)?;
            lane.search.row_cuts.extend(new.into_iter().map(Some));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solve::heuristic;

    /// Two lanes prove the one-lane optimum with a plan the verifier
    /// accepts, and the answer (plan, bound, every count) is the same on one
    /// thread as on two (and so is what a watch is told): nothing depends
    /// on which lane finishes first. Cut
    /// short by a count of LPs, both stop at the same point too.
    #[test]
    fn two_lanes_prove_the_optimum_alike_on_one_thread_and_two() {
        let board = Board::usa();
        for cars in [24, 33, 40, 45] {
            let inst = Instance::new(&board, cars);
            let start = heuristic::start(&inst, &Limits::none());
            let one = super::super::solve(
                &inst,
                &start,
                &Limits::none(),
                Reach::Proof,
                super::super::Lanes::One,
                None,
            )
            .unwrap();
            // What a watch is told (plans and bounds) is part of the answer.
            let told = [1, 2].map(|_| std::sync::Arc::new(std::sync::Mutex::new(Vec::new())));
            let [a, b] = [0, 1].map(|w| {
                let seen = told[w].clone();
                let watch = crate::solve::Watch::new(move |g| {
                    seen.lock().unwrap().push((g.plan.routes.clone(), g.bound))
                });
                run(
                    &inst,
                    &start,
                    &Limits::none(),
                    Reach::Proof,
                    w + 1,
                    Some(&watch),
                )
                .unwrap()
            });
            assert_eq!(
                *told[0].lock().unwrap(),
                *told[1].lock().unwrap(),
                "{cars} cars"
            );
            assert!(a.proven && one.proven, "{cars} cars");
            assert_eq!(a.score, one.score, "{cars} cars");
            super::super::tests::assert_verified(&inst, &a);
            let key = |x: &Answer| (x.routes.clone(), x.score, x.bound, x.lps, x.cuts, x.nodes);
            assert_eq!(key(&a), key(&b), "{cars} cars");

            let short = Reach::Handover { gap: None, lps: 12 };
            let [a, b] = [1, 2]
                .map(|threads| run(&inst, &start, &Limits::none(), short, threads, None).unwrap());
            assert_eq!(key(&a), key(&b), "{cars} cars, cut short");
            assert!(
                a.bound >= one.score && a.score <= one.score,
                "{cars} cars, cut short"
            );
            assert_eq!(a.out_of_lps, !a.proven, "{cars} cars, cut short");
        }
    }
}
