//! Branch and cut on the forest model: our own search tree over HiGHS LPs,
//! with the directed cuts separated at every node.
//!
//! Why not HiGHS's own MIP: it has no lazy-constraint callback, so a MIP
//! solve that still lacks some directed cuts ends with an integer solution
//! that violates them, and the whole branch-and-bound starts again with the
//! new rows. On Europe at 45 cars one such restart took 30 s and proved a
//! bound of 226 for a "solution" that was not a real plan. Here every node
//! separates until its LP satisfies the cuts (or its bound stops moving), so
//! nothing is thrown away, and the cuts found anywhere hold everywhere.
//!
//! Branching prefers tickets: "this ticket is completed" (Σ_r z^r_g = 1, a
//! row of its own) against "it is not" (= 0). The LP's favourite trick is to
//! complete many tickets by halves on half-bought routes; forcing a ticket
//! whole makes it pay for a whole connection. Routes (x_e) are branched on
//! only when every ticket is integral.
//!
//! Each node also runs a quick LP-guided plan: tickets in order of their LP
//! value, each joined by a shortest path that favours the routes the LP
//! buys, then the cars left on the routes worth the most points. Good plans
//! early prune most of the tree.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use crate::board::RouteId;
use crate::model::forest::{Cut, ForestModel, BUDGET_ROW};
use crate::model::mip::{Basis, LpStatus, Mip, MipError};
use crate::model::Instance;
use crate::solve::limits::Limits;
use crate::solve::{heuristic, Watch};

mod lanes;

/// Cut rounds at the root, and at every other node before branching. Below
/// the root a node branches after two rounds: every round is an LP start,
/// and each start recomputes HiGHS's dual steepest-edge weights (a solve
/// per row) because the new rows discard them, while branching on a
/// ticket moves the bound more than a third round of cuts. With 20 rounds
/// Europe at 45 cars took 8.6 s, with 5 7.0 s, with 2 5.9–6.2 s, with 1
/// 5.8 s but 38 cars 8.8 s (2: 6.2 s); Mega at 27 cars 11.5 s against
/// 9.2 s. An integral LP point is still separated until no cut is violated.
const ROOT_ROUNDS: usize = 200;
const NODE_ROUNDS: usize = 2;
/// A node stops separating when three rounds together gained less.
const STALL: f64 = 0.02;
const CUT_TOLERANCE: f64 = 1e-4;
/// Integral-solution cuts are separated exactly (to the max-flow's scale).
const EXACT_TOLERANCE: f64 = 1e-6;
const INTEGRAL: f64 = 1e-6;

/// An LP's work beyond its simplex iterations, in iterations: rebuilding
/// the factorisation and the edge weights, reading the solution. Fitted on
/// the two lanes' rounds of proofs of Europe, USA Mega and the Swiss map at
/// 40 cars (49 rounds), whose times iterations so weighted predict with a
/// correlation of 0.89, the count of LPs alone 0.54.
const LP_WORK: u64 = 16;

/// Open nodes that keep their parent's basis, at most (a basis is a few
/// hundred kilobytes on the larger boards).
const SAVED_BASES: usize = 2000;
/// Cut rows are purged (those slack at every open node) once this many
/// rows have been added since the last purge. Every LP start recomputes
/// HiGHS's dual steepest-edge weights, one solve per row, so slack rows
/// cost at every LP: on Europe at 45 cars the rows grew from 2,000 to
/// 6,300, of which 2,500 bound no open node.
const PURGE_AFTER: usize = 1000;
/// The cars a route of none weighs when choosing the route to branch on,
/// in an instance with rows of its own: replan's stations' borrowings,
/// whose choice matters as much as a long route's. By cars alone (0) they
/// were branched on last: a Europe state with a ticket offer (44
/// borrowings) stayed 115 against a bound of 121 after 30 s; weighed as 3
/// cars it was proven (121) in 28.5 s, as 6 in 19.5 s, as 10 or 20 in
/// about 20 s; `data/states/europe-draw.json` took 5.8 s by cars alone and
/// 6.7 s at 6 (one run each, two lanes).
const ROW_ROUTE_CARS: f64 = 6.0;
/// Time the first LP may take past the deadline.
const FIRST_LP: std::time::Duration = std::time::Duration::from_secs(1);

/// A branching decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fix {
    /// Route (index into `Instance::routes`) claimed or not.
    Route(usize, bool),
    /// Scoring group (a ticket, or equal trips of one) completed or not.
    Group(usize, bool),
}

struct Node {
    /// Upper bound from the parent's LP.
    bound: f64,
    fixes: Vec<Fix>,
    /// The parent's final basis, to restart from when the node is taken
    /// from the heap (diving continues from the current basis).
    basis: Option<std::sync::Arc<Basis>>,
    /// Creation order: equal bounds are taken oldest first, so runs repeat.
    seq: u64,
    /// The budget row's bound at the parent's last LP (the instance's
    /// budget, but lower in a ladder), and that row's dual value there
    /// (points a car; 0 outside a ladder).
    rhs: u32,
    pi: f64,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bound
            .total_cmp(&other.bound)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The search's answer before verification.
pub(crate) struct Answer {
    pub routes: Vec<RouteId>,
    pub score: u32,
    /// Upper bound on the optimum (= `score` when proven).
    pub bound: u32,
    pub proven: bool,
    pub lps: usize,
    pub cuts: usize,
    pub nodes: i64,
    /// The root was loose ([`Reach::Handover`], [`Reach::Root`]) and
    /// the search stopped there; `bound` is the root's.
    pub loose_root: bool,
    /// The search used up the LPs [`Reach::Handover`] allows it, unproven;
    /// `bound` is that of the nodes still open.
    pub out_of_lps: bool,
    /// Columns and rows of the model as the search left it (cuts included).
    pub model_size: (usize, usize),
    /// The root as a search that stopped there ([`Reach::Root`]) left it,
    /// for a later search of the same instance ([`solve_from_root`]).
    pub root: Option<Root>,
}

/// A root already solved: its cuts, in the order of its LP's rows, and the
/// LP's final basis. A search of the same instance that starts from it
/// ([`solve_from_root`]) has the root's rows and point at its first LP,
/// instead of finding them again (the sweep solves each budget's root
/// once to choose its method, then proves the budget).
pub(crate) struct Root {
    cuts: Vec<Cut>,
    basis: Basis,
}

/// What processing one node ended with.
enum NodeEnd {
    /// Pruned, infeasible, or solved (its best plan is the incumbent).
    Done,
    /// The deadline came: the node is still open with this bound.
    Stopped(f64),
    /// Branch: dive into `first`, keep `second` for later.
    Branch { bound: f64, first: Fix, second: Fix },
}

struct Search<'a, 'b> {
    inst: &'b Instance<'a>,
    model: ForestModel,
    mip: Mip,
    x: Vec<usize>,
    /// Per group: z columns, points, trips.
    groups: Vec<(Vec<usize>, u32, Vec<usize>)>,
    /// Row of the first group's "Σ z" row; the others follow.
    group_row: usize,
    columns: usize,
    limits: Limits,
    reach: Reach,
    /// Whether clique rows are separated ([`ForestModel::separate`]): not
    /// while a root decides whether the search goes on, so that the
    /// decision is the one the gaps were measured for (see
    /// [`Search::decides_at_root`]).
    cliques: bool,
    best: u32,
    best_routes: Vec<RouteId>,
    lps: usize,
    /// The LPs' work so far: their simplex iterations, and [`LP_WORK`] an
    /// LP. A measure of their time that is the same run after run.
    work: u64,
    cuts: usize,
    /// Per city: (neighbour, route index) for every route of the instance.
    adjacent: Vec<Vec<(usize, usize)>>,
    /// Per route of the instance: its length.
    lengths: Vec<u32>,
    /// City pair of each route (by column order): a plan takes one route
    /// of a pair, and once it has one the others join the same cities.
    pair: Vec<usize>,
    /// The optimal plans found ([`Reach::Every`]), each cut off by a row.
    found: Vec<Vec<RouteId>>,
    /// Per row of the LP: the directed cut it holds (`None` for the
    /// model's own rows, the groups' rows and the rows of [`Search::record`],
    /// which are never purged).
    row_cuts: Vec<Option<Cut>>,
    /// Cuts purged from the LP, kept for [`Search::write_model`].
    purged: Vec<Cut>,
    /// Rows of the LP after the last purge.
    purged_at: usize,
    /// Rows added between purges ([`PURGE_AFTER`]).
    purge_after: usize,
    /// The cuts this search added since the lanes last shared theirs
    /// (`None`: one search alone, nothing to share).
    fresh: Option<Vec<Cut>>,
    /// Told of each better plan, with [`Search::open`] as its bound.
    watch: Option<Watch>,
    /// An upper bound on every open node's LP: the bound of the node last
    /// taken from the heap (the best open one; the nodes branched from it
    /// since are bounded by it), or the root's LP once solved.
    open: u32,
    /// The bound the watch was last told.
    told: u32,
    /// The questions of a family search ([`family`]), each with its best
    /// plan so far; `best` is then the least of their scores.
    family: Option<Vec<Asked<'a, 'b>>>,
    /// The budgets of a ladder search ([`ladder`]), smallest first, each
    /// with its best plan so far; `best` is then the least of their scores.
    ladder: Option<Vec<Rung>>,
    /// The budget row's bound on the LP now, and its dual value at the
    /// last LP (see [`Node`]).
    rhs: u32,
    pi: f64,
}

/// A budget of a ladder search with its best plan so far (at the start,
/// the empty plan, which fits every budget).
#[derive(Clone, Debug)]
struct Rung {
    cars: u32,
    best: u32,
    routes: Vec<RouteId>,
    /// Cleared when the search stops with a node still open for it.
    proven: bool,
}

impl Rung {
    /// Whether this budget could still gain in a node whose LP at `rhs`
    /// cars has the value `value` and the budget's dual `pi` ([`tangent`]).
    fn open(&self, value: f64, pi: f64, rhs: u32) -> bool {
        self.cars <= rhs && tangent(value, pi, rhs, self.cars) > self.best
    }
}

/// An LP's bound at `cars` from its value `value` and the budget row's
/// dual `pi` at `rhs` cars (`cars` ≤ `rhs`). The LP's value is concave in
/// the row's bound and `pi` is a supergradient there, so
/// `LP(cars) ≤ value − pi · (rhs − cars)`: one LP bounds every smaller
/// budget, and the cuts found at `rhs` hold at fewer cars (a directed cut
/// holds at any budget, two tickets too far apart for `rhs` cars are too
/// far apart for fewer).
fn tangent(value: f64, pi: f64, rhs: u32, cars: u32) -> u32 {
    floor(value - pi * (rhs - cars) as f64)
}

/// A question of a family search: the best plan of the instance that
/// avoids a route, or with a ticket out of the game, or that completes a
/// ticket.
pub struct Question<'a> {
    /// The instance the answer is scored (and verified) on: the search's
    /// own, or with the route or the ticket taken out.
    pub inst: Instance<'a>,
    /// The route the answer must not claim.
    pub avoid: Option<RouteId>,
    /// The ticket (its card, [`crate::board::Board::cards`]) out of the
    /// game: plans completing it score without it.
    pub out: Option<usize>,
    /// The ticket (its card) the answer must complete.
    pub need: Option<usize>,
}

/// A question as the family search holds it.
struct Asked<'a, 'b> {
    question: &'b Question<'a>,
    /// The avoided route's index in the search's `Instance::routes`.
    route: Option<usize>,
    /// The groups of the ticket out of the game, or of the one needed.
    groups: Vec<usize>,
    best: u32,
    routes: Vec<RouteId>,
    /// Whether `routes` is a plan that scores `best` (before one is
    /// found, `best` is the least answer sought, less one).
    found: bool,
}

/// Integer upper bound from an LP bound (scores are integers).
fn floor(bound: f64) -> u32 {
    if bound.is_infinite() {
        return u32::MAX;
    }
    (bound + 1e-6).floor().max(0.0) as u32
}

/// How far the search goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reach {
    /// To the proof (or the deadline).
    Proof,
    /// To the proof, unless another method will likely do better: give up
    /// after the root when its bound exceeds the starting plan's score by
    /// more than `gap` (when set), or once `lps` LPs have not made the
    /// proof ([`Answer::out_of_lps`]). A count of LPs, not a time, so that
    /// the hand-over happens at the same point on every machine.
    Handover { gap: Option<f64>, lps: usize },
    /// Only the root: whether it is loose in the sense above (for choosing
    /// a method without solving).
    Root(f64),
    /// Every plan scoring the proven optimum `score`, up to `cap` of them
    /// ([`enumerate`]).
    Every { score: u32, cap: usize },
}

/// Proves the optimum of `inst` (or stops at `limits` with the best plan
/// and a bound), starting from the plan `start`.
pub(crate) fn solve(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    reach: Reach,
    lanes: Lanes,
    watch: Option<&Watch>,
) -> Result<Answer, MipError> {
    if let (Lanes::Two, Reach::Proof | Reach::Handover { .. }) = (lanes, reach) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        return lanes::run(inst, start, limits, reach, threads, watch);
    }
    let (mut search, _) = Search::new(inst, start, limits, reach, PURGE_AFTER)?;
    search.watch = watch.cloned();
    search.run()
}

/// [`solve`] on one lane, from a root a search of the same instance
/// stopped at ([`Answer::root`]): its cuts are the first rows added and its
/// basis the first LP's, so the root's LP starts where that one ended. The
/// instance must be the one the root was solved for (the same routes and
/// tickets give the same model, column for column).
pub(crate) fn solve_from_root(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    reach: Reach,
    root: &Root,
) -> Result<Answer, MipError> {
    let (mut search, _) = Search::new(inst, start, limits, reach, PURGE_AFTER)?;
    search.model.add_cuts(&mut search.mip, &root.cuts)?;
    search.row_cuts.extend(root.cuts.iter().cloned().map(Some));
    search.purged_at = search.mip.rows();
    search.mip.set_basis(&root.basis)?;
    search.run()
}

/// Where a ladder search's node goes after an LP ([`Search::ladder_step`]).
enum Step {
    /// No budget can gain in the node: closed.
    Done,
    /// The budget row's bound came down: the node's LP is solved again.
    Lowered,
    /// The row's budget can still gain here: the node goes on.
    Here,
}

/// How a proof's tree is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lanes {
    /// One search, on the calling thread: for solves that run beside
    /// others (sweeps, the analyses' families).
    One,
    /// Two lanes sharing the incumbent and their cuts, on two threads where
    /// the machine has two cores ([`lanes`]); the same plan on one thread.
    Two,
}

/// Proves the optimum of `inst` like [`solve`], then writes the model as
/// the proof left it to `path` (MPS or LP, by its extension): every
/// directed cut the search added, routes and scoring columns integer, the
/// score maximised. Each node of the search was closed by an LP over fewer
/// of those cuts, so a MIP solver given the file alone finds the same
/// optimum.
pub(crate) fn solve_and_write(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    path: &std::path::Path,
) -> Result<Answer, MipError> {
    Ok(run_search(inst, start, limits, Reach::Proof, Some(path), PURGE_AFTER)?.0)
}

/// The search's answer, and the optimal plans it recorded ([`Reach::Every`]);
/// cuts are purged every `purge_after` rows ([`PURGE_AFTER`] but in tests).
fn run_search(
    inst: &Instance,
    start: &[RouteId],
    limits: &Limits,
    reach: Reach,
    write: Option<&std::path::Path>,
    purge_after: usize,
) -> Result<(Answer, Vec<Vec<RouteId>>), MipError> {
    let (mut search, costs) = Search::new(inst, start, limits, reach, purge_after)?;
    let answer = search.run()?;
    if let Some(path) = write {
        search.write_model(path, &costs)?;
    }
    Ok((answer, search.found))
}

impl<'a, 'b> Search<'a, 'b> {
    /// The search's state before the root: the model and its LP, the
    /// groups' rows, the starting plan as the incumbent; and the costs of
    /// the minimised negated score.
    fn new(
        inst: &'b Instance<'a>,
        start: &[RouteId],
        limits: &Limits,
        reach: Reach,
        purge_after: usize,
    ) -> Result<(Self, Vec<(usize, f64)>), MipError> {
        let (model, mut mip) = ForestModel::build(inst)?;
        let x = model.x_columns();
        // Presolve would discard the basis that makes node re-solves cheap.
        mip.option("presolve", "off")?;
        let groups = model.group_columns();
        // Minimise the negated score, so that the dual simplex can stop at the
        // incumbent's cutoff (HiGHS honours the cutoff only when minimising).
        let board = inst.board;
        let mut costs: Vec<(usize, f64)> = x
            .iter()
            .zip(&inst.routes)
            .map(|(&c, &r)| (c, -(board.route(r).points as f64)))
            .collect();
        for (cols, points, _) in &groups {
            costs.extend(cols.iter().map(|&c| (c, -(*points as f64))));
        }
        mip.minimise(&costs)?;
        let group_row = mip.rows();
        for (cols, _, _) in &groups {
            let entries: Vec<(usize, f64)> = cols.iter().map(|&c| (c, 1.0)).collect();
            mip.add_row(0.0, 1.0, &entries)?;
        }
        let (best, _) = heuristic::score(inst, start);
        let rows = mip.rows();
        let mut search = Search {
            inst,
            columns: model.columns(),
            model,
            mip,
            x,
            groups,
            group_row,
            limits: limits.clone(),
            reach,
            cliques: !Self::decides_at_root(reach),
            best,
            best_routes: start.to_vec(),
            lps: 0,
            work: 0,
            cuts: 0,
            adjacent: {
                let mut adjacent = vec![Vec::new(); board.cities.len()];
                for (e, &r) in inst.routes.iter().enumerate() {
                    let (a, b) = (board.route(r).a.0, board.route(r).b.0);
                    adjacent[a].push((b, e));
                    adjacent[b].push((a, e));
                }
                adjacent
            },
            lengths: inst.routes.iter().map(|&r| board.route(r).length).collect(),
            pair: inst.routes.iter().map(|&r| board.route(r).pair.0).collect(),
            found: Vec::new(),
            row_cuts: (0..rows).map(|_| None).collect(),
            purged: Vec::new(),
            purged_at: rows,
            purge_after,
            fresh: None,
            watch: None,
            open: u32::MAX,
            told: u32::MAX,
            family: None,
            ladder: None,
            rhs: inst.cars,
            pi: 0.0,
        };
        if let Reach::Every { score, .. } = reach {
            // Nodes live while they can reach the optimum (not beat it), and
            // no plan found along the way replaces it.
            search.best = score.saturating_sub(1);
        }
        Ok((search, costs))
    }
}

/// Every plan of `inst` that scores `score`, its proven optimum, found by
/// the branch and cut: nodes are kept while their bound reaches the
/// optimum, and each optimal plan found is recorded and cut off by a row
/// (Σ over its routes of 1 − x + Σ over the others of x ≥ 1), until no node
/// can reach the optimum. `None` if more than `cap` plans exist, the
/// deadline came first, or the optimum is 0. Fast where optima are few;
/// the frontier programme counts many.
pub(crate) fn enumerate(
    inst: &Instance,
    score: u32,
    cap: usize,
    limits: &Limits,
) -> Result<Option<Vec<Vec<RouteId>>>, MipError> {
    // Nodes live while their bound passes the incumbent, set one below the
    // optimum; an optimum of 0 (only pointless routes fit) has no score
    // below it, and every node would be pruned before its plans were seen.
    if score == 0 {
        return Ok(None);
    }
    let every = Reach::Every { score, cap };
    let (answer, found) = run_search(inst, &[], limits, every, None, PURGE_AFTER)?;
    // Proven: every node was closed, with no more plans than the cap.
    Ok(answer.proven.then_some(found))
}

/// A question's proven optimum and its plan.
pub(crate) type Answered = (u32, Vec<RouteId>);

/// The answers of a family of questions about `inst` ([`Question`]), from
/// one search: a node lives while some question its fixes allow could
/// still gain in it (the node's LP bound, less the points of a ticket out
/// of the game that the node completes, passes that question's best), and
/// every plan found is scored for every question it answers. Where a node's
/// LP point is a plan that a question's constraint excludes, the node
/// branches on it (the route, or the ticket's group). `starts` are plans to
/// begin from. Only answers of at least `least` points are sought: nodes
/// that cannot reach it for any question are pruned. Each answer is the
/// question's proven optimum with its plan, or `None` where it scores less
/// than `least`, or where the search passed `lps` LPs, or the deadline
/// came, before it was proven: nodes are taken best bound first, so a
/// question whose best reaches every open node's bound is proven on the
/// way.
///
/// The search runs on two lanes ([`lanes`]), on `threads` threads (two
/// where more than one): the same answers, plans included, on one thread
/// as on two. Also whether the search ran to its end: then a `None` is
/// proven to score less than `least`.
pub(crate) fn family<'a>(
    inst: &Instance<'a>,
    starts: &[Vec<RouteId>],
    questions: &[Question<'a>],
    least: u32,
    limits: &Limits,
    lps: usize,
    threads: usize,
) -> Result<(Vec<Option<Answered>>, bool), MipError> {
    let reach = Reach::Handover { gap: None, lps };
    let start = starts.first().map(Vec::as_slice).unwrap_or(&[]);
    let lane = || -> Result<Search, MipError> {
        let (mut search, _) = Search::new(inst, start, limits, reach, PURGE_AFTER)?;
        let card = |g: usize| inst.board.ticket(inst.tickets[search.groups[g].2[0]]).card;
        let asked: Vec<Asked> = questions
            .iter()
            .map(|question| Asked {
                question,
                route: question
                    .avoid
                    .and_then(|r| inst.routes.iter().position(|&e| e == r)),
                groups: (0..search.groups.len())
                    .filter(|&g| [question.out, question.need].contains(&Some(card(g))))
                    .collect(),
                // Below `least`, as if a plan scored one less.
                best: least.saturating_sub(1),
                routes: Vec::new(),
                found: false,
            })
            .collect();
        search.family = Some(asked);
        search.best = least.saturating_sub(1);
        for plan in starts {
            search.offer(plan.clone());
        }
        Ok(search)
    };
    let (answer, search) = lanes::drive([lane()?, lane()?], limits, reach, threads, None)?;
    // Stopped, `answer.bound` bounds every open node.
    let open = if answer.proven { 0 } else { answer.bound };
    let answers = search
        .family
        .map(|asked| {
            asked
                .into_iter()
                .map(|a| (a.found && a.best >= open).then_some((a.best, a.routes)))
                .collect()
        })
        .unwrap_or_default();
    Ok((answers, answer.proven))
}

/// The optimum of each budget of `budgets` (ascending, none above
/// `inst.cars`) with its plan, from one search of `inst`: each LP at a
/// node bounds every smaller budget by its tangent ([`tangent`]), a node
/// lives while some budget could still gain in it, and once the largest
/// that could is settled there, the budget row's bound moves down to the
/// next that could (the node's LP is solved again at it, and its children
/// keep it). Every plan found is scored for every budget it fits. The
/// optimum grows by a few points a car while the LP's bound at middle
/// budgets sits 15–20 % above it at each, so the nodes one budget needs
/// are mostly the nodes its neighbours need: Europe's budgets of 27 to 45
/// cars took 564 LPs in one search, told their optima, and 266–327 LPs
/// each alone. `starts` are plans to begin from. A budget is `None` where
/// the search passed `lps` LPs, or the deadline came, before proving it.
///
/// The search runs on two lanes ([`lanes`]), on `threads` threads (two
/// where more than one): the same answers, plans included, on one thread
/// as on two. Also the search's own answer, for its counts.
pub(crate) fn ladder(
    inst: &Instance,
    budgets: &[u32],
    starts: &[Vec<RouteId>],
    limits: &Limits,
    lps: usize,
    threads: usize,
) -> Result<(Vec<Option<Answered>>, Answer), MipError> {
    debug_assert!(budgets.windows(2).all(|w| w[0] < w[1]));
    debug_assert!(budgets.iter().all(|&b| b <= inst.cars));
    let reach = Reach::Handover { gap: None, lps };
    let lane = || -> Result<Search, MipError> {
        let (mut search, _) = Search::new(inst, &[], limits, reach, PURGE_AFTER)?;
        search.ladder = Some(
            budgets
                .iter()
                .map(|&cars| Rung {
                    cars,
                    best: 0,
                    routes: Vec::new(),
                    proven: true,
                })
                .collect(),
        );
        search.best = 0;
        for plan in starts {
            search.offer(plan.clone());
        }
        Ok(search)
    };
    let (answer, search) = lanes::drive([lane()?, lane()?], limits, reach, threads, None)?;
    let answers = search
        .ladder
        .map(|rungs| {
            rungs
                .into_iter()
                .map(|r| (answer.proven || r.proven).then_some((r.best, r.routes)))
                .collect()
        })
        .unwrap_or_default();
    Ok((answers, answer))
}

impl Search<'_, '_> {
    /// The bound that needs no LP: every route's and every ticket's points,
    /// or the instance's own bound ([`Instance::score_at_most`]) where
    /// lower.
    fn trivial(&self) -> u32 {
        let board = self.inst.board;
        let routes: u32 = self
            .inst
            .routes
            .iter()
            .map(|&r| board.route(r).points)
            .sum();
        let tickets: u32 = self.groups.iter().map(|g| g.1).sum();
        (routes + tickets).min(self.inst.score_at_most.unwrap_or(u32::MAX))
    }

    fn run(&mut self) -> Result<Answer, MipError> {
        let trivial = self.trivial();
        let mut heap = BinaryHeap::new();
        let mut seq = 0;
        heap.push(Node {
            bound: f64::INFINITY,
            fixes: Vec::new(),
            basis: None,
            seq,
            rhs: self.inst.cars,
            pi: 0.0,
        });
        let mut applied: Vec<Fix> = Vec::new();
        let mut nodes: i64 = 0;
        let mut stopped = false;
        let mut out_of_lps = false;
        'search: while let Some(top) = heap.pop() {
            // The heap is ordered by bound: once its best cannot beat the
            // incumbent, nothing in it can.
            if floor(top.bound).min(trivial) <= self.best {
                heap.clear();
                break;
            }
            // (A family or ladder search runs on lanes, whose `Lane::live`
            // also drops the nodes no question can gain in.)
            let mut node = top;
            self.open = floor(node.bound).min(trivial);
            if self.lps > 0 && self.open < self.told {
                // The bound fell a point: worth showing while proving.
                self.tell();
            }
            self.purge(&mut heap, &mut node)?;
            if let Some(basis) = node.basis.take() {
                self.mip.set_basis(&basis)?;
            }
            loop {
                if self.lps > 0 && self.limits.passed() {
                    heap.push(node);
                    stopped = true;
                    break 'search;
                }
                if let Reach::Handover { lps, .. } = self.reach {
                    if self.lps >= lps {
                        heap.push(node);
                        stopped = true;
                        out_of_lps = true;
                        break 'search;
                    }
                }
                self.apply(&mut applied, &node.fixes)?;
                nodes += 1;
                match self.process(&node)? {
                    NodeEnd::Done => break,
                    NodeEnd::Stopped(bound) => {
                        heap.push(self.reopened(node, bound));
                        stopped = true;
                        break 'search;
                    }
                    NodeEnd::Branch { bound, .. } if nodes == 1 && self.stop_at_root(bound) => {
                        let root = Root {
                            cuts: self.row_cuts.iter().flatten().cloned().collect(),
                            basis: self.mip.basis()?,
                        };
                        let mut answer = self.answer(floor(bound), false, nodes);
                        answer.loose_root = self.loose(bound);
                        answer.root = Some(root);
                        return Ok(answer);
                    }
                    NodeEnd::Branch { .. } if !self.cliques => {
                        // The root goes on: again, with the clique rows.
                        self.cliques = true;
                    }
                    NodeEnd::Branch {
                        bound,
                        first,
                        second,
                    } => self.branch(&mut heap, &mut seq, &mut node, bound, first, second)?,
                }
            }
        }
        let open = heap.iter().map(|n| floor(n.bound)).max().unwrap_or(0);
        let bound = if stopped {
            open.min(trivial).max(self.best)
        } else {
            self.best
        };
        let mut answer = self.answer(bound, bound == self.best, nodes);
        answer.out_of_lps = out_of_lps && !answer.proven;
        Ok(answer)
    }

    /// Branches `node` (its LP bound `bound`): the child with `second` goes
    /// on `heap` with the LP's basis, and `node` becomes the child with
    /// `first`, to dive into from the LP as it is. `seq` numbers them.
    fn branch(
        &mut self,
        heap: &mut BinaryHeap<Node>,
        seq: &mut u64,
        node: &mut Node,
        bound: f64,
        first: Fix,
        second: Fix,
    ) -> Result<(), MipError> {
        let mut later = node.fixes.clone();
        later.push(second);
        *seq += 1;
        heap.push(Node {
            bound,
            fixes: later,
            // A basis per open node is worth its memory while the tree is
            // small; past that, nodes start from whatever basis the LP has.
            basis: if heap.len() < SAVED_BASES {
                Some(std::sync::Arc::new(self.mip.basis()?))
            } else {
                None
            },
            seq: *seq,
            rhs: self.rhs,
            pi: self.pi,
        });
        node.fixes.push(first);
        node.bound = bound;
        node.rhs = self.rhs;
        node.pi = self.pi;
        *seq += 1;
        node.seq = *seq;
        Ok(())
    }

    /// Writes the model with every cut found ([`solve_and_write`]); `costs`
    /// are those of the minimised negated score.
    fn write_model(
        &mut self,
        path: &std::path::Path,
        costs: &[(usize, f64)],
    ) -> Result<(), MipError> {
        let purged = std::mem::take(&mut self.purged);
        self.model.add_cuts(&mut self.mip, &purged)?;
        // The last node's fixes are still on the LP: back to the root's.
        for &c in &self.x {
            self.mip.set_col_bounds(c, 0.0, 1.0)?;
        }
        for g in 0..self.groups.len() {
            self.mip.set_row_bounds(self.group_row + g, 0.0, 1.0)?;
        }
        let mut integer = self.x.clone();
        integer.extend(self.groups.iter().flat_map(|g| g.0.iter().copied()));
        self.mip.set_integer(&integer)?;
        let score: Vec<(usize, f64)> = costs.iter().map(|&(c, v)| (c, -v)).collect();
        self.mip.maximise(&score)?;
        self.mip
            .name_columns(&crate::model::route_column_names(self.inst, &self.x))?;
        self.mip.write(path)
    }

    /// Whether the search may stop at its root for a loose bound. Such a
    /// root is solved without clique rows: the thresholds
    /// ([`crate::solve::AUTO_GAP`], [`crate::solve::SWEEP_GAP`]) were set
    /// on roots without them. With them the roots are tighter and the
    /// branch and cut takes budgets the frontier programme proves far
    /// faster (the Swiss map's sweep gave it 19–23 cars: 11–25 s each
    /// instead of 0.27 s).
    fn decides_at_root(reach: Reach) -> bool {
        matches!(reach, Reach::Root(_) | Reach::Handover { gap: Some(_), .. })
    }

    /// Whether the search ends after a root whose LP bound is `bound`.
    fn stop_at_root(&self, bound: f64) -> bool {
        match self.reach {
            Reach::Proof => false,
            Reach::Handover { gap, .. } => gap.is_some() && self.loose(bound),
            Reach::Root(_) => true,
            Reach::Every { .. } => false,
        }
    }

    /// Whether a root bound is loose against the incumbent (as `reach` says).
    fn loose(&self, bound: f64) -> bool {
        match self.reach {
            Reach::Proof | Reach::Every { .. } => false,
            Reach::Handover { gap: None, .. } => false,
            Reach::Handover { gap: Some(gap), .. } | Reach::Root(gap) => {
                bound > self.best as f64 * (1.0 + gap) + 1e-9
            }
        }
    }

    fn answer(&mut self, bound: u32, proven: bool, nodes: i64) -> Answer {
        Answer {
            model_size: (self.mip.columns(), self.mip.rows()),
            routes: std::mem::take(&mut self.best_routes),
            score: self.best,
            bound: bound.max(self.best),
            proven,
            lps: self.lps,
            cuts: self.cuts,
            nodes,
            loose_root: false,
            out_of_lps: false,
            root: None,
        }
    }

    /// Deletes the cut rows whose slacks are basic in the LP's basis and in
    /// the saved basis of every open node (`heap` and `node`, about to be
    /// processed), once [`PURGE_AFTER`] rows have been added since the last
    /// purge. Such a row binds no LP point the search will start from; if
    /// a later LP violates it, separation finds it again.
    fn purge(&mut self, heap: &mut BinaryHeap<Node>, node: &mut Node) -> Result<(), MipError> {
        let rows = self.row_cuts.len();
        if rows < self.purged_at.saturating_add(self.purge_after) {
            return Ok(());
        }
        debug_assert_eq!(rows, self.mip.rows());
        let current = self.mip.basis()?;
        let saved: Vec<&Basis> = heap
            .iter()
            .chain(std::iter::once(&*node))
            .filter_map(|n| n.basis.as_deref())
            .collect();
        let delete: Vec<bool> = (0..rows)
            .map(|r| {
                self.row_cuts[r].is_some()
                    && current.slack_basic(r)
                    && saved.iter().all(|b| b.slack_basic(r))
            })
            .collect();
        drop(saved);
        if delete.iter().any(|&d| d) {
            self.mip.delete_rows(&delete)?;
            let cuts = std::mem::take(&mut self.row_cuts);
            for (cut, &d) in cuts.into_iter().zip(&delete) {
                if d {
                    self.purged.extend(cut);
                } else {
                    self.row_cuts.push(cut);
                }
            }
            let without = |basis: Option<std::sync::Arc<Basis>>| {
                basis.map(|b| std::sync::Arc::new(b.without_rows(&delete)))
            };
            node.basis = without(node.basis.take());
            let open = std::mem::take(heap).into_vec();
            heap.extend(open.into_iter().map(|mut n| {
                n.basis = without(n.basis.take());
                n
            }));
        }
        self.purged_at = self.row_cuts.len();
        Ok(())
    }

    /// Moves the LP from the bounds of `applied` to those of `fixes`.
    fn apply(&mut self, applied: &mut Vec<Fix>, fixes: &[Fix]) -> Result<(), MipError> {
        for fix in applied.drain(..) {
            match fix {
                Fix::Route(e, _) => self.mip.set_col_bounds(self.x[e], 0.0, 1.0)?,
                Fix::Group(g, _) => self.mip.set_row_bounds(self.group_row + g, 0.0, 1.0)?,
            }
        }
        for &fix in fixes {
            match fix {
                Fix::Route(e, on) => {
                    let v = if on { 1.0 } else { 0.0 };
                    self.mip.set_col_bounds(self.x[e], v, v)?
                }
                Fix::Group(g, on) => {
                    let v = if on { 1.0 } else { 0.0 };
                    self.mip.set_row_bounds(self.group_row + g, v, v)?
                }
            }
        }
        applied.extend_from_slice(fixes);
        Ok(())
    }

    /// Solves `node`'s LP, with cut rounds, until it is closed, stopped or
    /// branched on.
    fn process(&mut self, node: &Node) -> Result<NodeEnd, MipError> {
        self.set_rhs(node.rhs)?;
        self.pi = node.pi;
        let limit = if node.fixes.is_empty() {
            ROOT_ROUNDS
        } else {
            NODE_ROUNDS
        };
        let mut history: Vec<f64> = Vec::new();
        // The node's bound so far: each LP with the cuts found is one.
        let mut last = node.bound;
        loop {
            if !self.time_for_an_lp()? {
                return Ok(NodeEnd::Stopped(last));
            }
            // No need to solve further once the LP cannot beat the incumbent
            // by a whole point.
            self.mip.set_cutoff(-(self.best as f64 + 1.0) + 1e-6)?;
            let mut lp = self.mip.solve_lp(self.columns)?;
            lp.objective = -lp.objective;
            self.lps += 1;
            self.work += lp.iterations + LP_WORK;
            match lp.status {
                LpStatus::Infeasible | LpStatus::Cutoff => return Ok(NodeEnd::Done),
                LpStatus::Stopped => return Ok(NodeEnd::Stopped(last)),
                LpStatus::Optimal => {}
            }
            let bound = lp.objective.min(node.bound);
            last = bound;
            if node.fixes.is_empty() {
                self.open = self.open.min(floor(bound));
            }
            if floor(bound) <= self.best {
                return Ok(NodeEnd::Done);
            }
            let xv: Vec<f64> = self.x.iter().map(|&c| lp.values[c]).collect();
            let integral = xv.iter().all(|v| (v - v.round()).abs() <= INTEGRAL);
            let enumerating = matches!(self.reach, Reach::Every { .. });
            if !enumerating {
                let plan = if integral {
                    (0..xv.len())
                        .filter(|&e| xv[e] > 0.5)
                        .map(|e| self.inst.routes[e])
                        .collect()
                } else {
                    self.guided(&lp.values, self.rhs)
                };
                self.offer(plan);
            }
            if let Reach::Root(_) = self.reach {
                // Asked only whether the root is loose: the bound only falls
                // with more cuts and the incumbent only rises, so a root
                // tight enough now stays so (Europe's sweep asks 19 roots
                // above its frontier run, each tight long before its cuts
                // run out).
                if node.fixes.is_empty() && !self.loose(bound) {
                    let (first, second) = self.branching(&lp.values, &xv);
                    return Ok(NodeEnd::Branch {
                        bound,
                        first,
                        second,
                    });
                }
            }
            if self.ladder.is_some() {
                match self.ladder_step(lp.objective, &lp.values)? {
                    Step::Done => return Ok(NodeEnd::Done),
                    Step::Lowered => {
                        history.clear();
                        continue;
                    }
                    Step::Here => {}
                }
            }
            if floor(bound) <= self.best
                || (self.family.is_some() && !self.any_open(&node.fixes, bound))
            {
                return Ok(NodeEnd::Done);
            }
            let tolerance = if integral {
                EXACT_TOLERANCE
            } else {
                CUT_TOLERANCE
            };
            let cuts = self.model.separate(&lp.values, tolerance, self.cliques);
            history.push(bound);
            let stalled = history.len() > 3 && history[history.len() - 4] - bound < STALL;
            if cuts.is_empty() && integral && enumerating {
                // An optimal plan (the LP's value is its score, and the
                // bound reaches the optimum): recorded and cut off, and the
                // node goes on without it.
                if self.record(&xv)? {
                    return Ok(NodeEnd::Stopped(last));
                }
                continue;
            }
            if cuts.is_empty() && integral {
                // Every cut holds: the LP's value is that of its own routes,
                // which the incumbent already has; in a family search, a
                // question that excludes them may still gain below.
                if let Some((first, second)) =
                    self.family_branch(&node.fixes, bound, &lp.values, &xv)
                {
                    return Ok(NodeEnd::Branch {
                        bound,
                        first,
                        second,
                    });
                }
                return Ok(NodeEnd::Done);
            }
            if !cuts.is_empty() && (integral || (history.len() <= limit && !stalled)) {
                self.cuts += cuts.len();
                self.model.add_cuts(&mut self.mip, &cuts)?;
                if let Some(fresh) = &mut self.fresh {
                    fresh.extend(cuts.iter().cloned());
                }
                self.row_cuts.extend(cuts.into_iter().map(Some));
                continue;
            }
            let (first, second) = self.branching(&lp.values, &xv);
            return Ok(NodeEnd::Branch {
                bound,
                first,
                second,
            });
        }
    }

    /// Before a node's LP: whether it may run, its time limit set to what
    /// the call's limits leave. Interrupted or cancelled (once the search
    /// has a bound), or past the deadline, it may not: the node stops where
    /// it is.
    fn time_for_an_lp(&mut self) -> Result<bool, MipError> {
        // Interrupted (Ctrl-C): the node stops where it is, as at a
        // deadline, once it has a bound.
        if self.lps > 0 && self.limits.stopped() {
            return Ok(false);
        }
        if let Some(deadline) = self.limits.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            // The first LP runs even past the deadline (for a second at
            // most): a real bound is worth that much more than the
            // trivial one.
            let left = if self.lps == 0 {
                left.max(FIRST_LP)
            } else {
                left
            };
            if left.is_zero() {
                return Ok(false);
            }
            self.mip.set_time_limit(left.as_secs_f64())?;
        }
        Ok(true)
    }

    /// A ladder search's step after a node's LP (worth `objective`, at
    /// `values`): the budget row's dual, a plan for each smaller budget
    /// that can still gain here, and where the row's bound goes next.
    fn ladder_step(&mut self, objective: f64, values: &[f64]) -> Result<Step, MipError> {
        // Points a car: the LP minimises the negated score. A dual a
        // hair too large would bound the smaller budgets too low,
        // so it is taken a hair smaller.
        self.pi = (-self.mip.row_dual(BUDGET_ROW)? - 1e-6).max(0.0);
        // A plan for each smaller budget that can still gain here,
        // guided by the LP within its own cars: otherwise a budget
        // finds its plans only once the row comes down to it, late
        // in the search, and its nodes stay open until then (Europe
        // 29–45 cars: 1,583 LPs without them, 781 with them).
        let below: Vec<u32> = self
            .ladder
            .iter()
            .flatten()
            .filter(|r| r.cars < self.rhs && r.open(objective, self.pi, self.rhs))
            .map(|r| r.cars)
            .collect();
        for cars in below {
            let plan = self.guided(values, cars);
            self.offer(plan);
        }
        Ok(match self.top_rung(objective, self.pi, self.rhs) {
            None => Step::Done,
            Some(cars) if cars < self.rhs => {
                // No budget from here up can gain in this node: the
                // largest that can is solved at its own bound.
                self.set_rhs(cars)?;
                Step::Lowered
            }
            Some(_) => Step::Here,
        })
    }

    /// The ticket to branch on (the most points times fractionality), or,
    /// when every ticket is integral, the route (most cars times
    /// fractionality; see [`ROW_ROUTE_CARS`]). The first decision is the
    /// one to dive into.
    fn branching(&self, values: &[f64], xv: &[f64]) -> (Fix, Fix) {
        let mut best: Option<(f64, usize)> = None;
        for (g, (cols, points, _)) in self.groups.iter().enumerate() {
            let z: f64 = cols.iter().map(|&c| values[c]).sum();
            let frac = z.min(1.0 - z);
            if frac > INTEGRAL {
                let score = *points as f64 * frac;
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, g));
                }
            }
        }
        if let Some((_, g)) = best {
            return (Fix::Group(g, true), Fix::Group(g, false));
        }
        let frac = |e: usize| xv[e].min(1.0 - xv[e]);
        let first_most = |score: &dyn Fn(usize) -> f64| {
            (0..xv.len())
                .max_by(|&a, &b| score(a).total_cmp(&score(b)).then(b.cmp(&a)))
                .expect("a fractional route exists when the LP is not integral")
        };
        // In an instance with rows of its own (replan's stations), a route
        // of no cars (a borrowing) weighs as ROW_ROUTE_CARS.
        let least = if self.inst.at_most.is_empty() {
            0.0
        } else {
            ROW_ROUTE_CARS
        };
        let mut e = first_most(&|e| frac(e) * (self.lengths[e] as f64).max(least));
        // Where every fractional route takes no cars (a replan's owned
        // routes, its stations' borrowings), the one most fractional: by
        // cars alone an integral route would tie and be branched on again.
        if frac(e) <= INTEGRAL {
            e = first_most(&frac);
        }
        (Fix::Route(e, true), Fix::Route(e, false))
    }

    /// Records the plan of the integral route values `xv` (if it scores the
    /// optimum) and adds the row that cuts it off; true once more plans
    /// than the cap are recorded.
    fn record(&mut self, xv: &[f64]) -> Result<bool, MipError> {
        let Reach::Every { score, cap } = self.reach else {
            return Ok(false);
        };
        let chosen: Vec<usize> = (0..xv.len()).filter(|&e| xv[e] > 0.5).collect();
        let routes: Vec<RouteId> = chosen.iter().map(|&e| self.inst.routes[e]).collect();
        if heuristic::score(self.inst, &routes).0 == score && !self.found.contains(&routes) {
            self.found.push(routes);
        }
        // Σ_{e ∉ P} x_e − Σ_{e ∈ P} x_e ≥ 1 − |P|: any other route set.
        let entries: Vec<(usize, f64)> = (0..xv.len())
            .map(|e| (self.x[e], if xv[e] > 0.5 { -1.0 } else { 1.0 }))
            .collect();
        self.mip
            .add_row(1.0 - chosen.len() as f64, f64::INFINITY, &entries)?;
        self.row_cuts.push(None);
        Ok(self.found.len() > cap)
    }

    /// Takes `routes` as the incumbent if it scores more.
    fn offer(&mut self, routes: Vec<RouteId>) {
        let routes = self.inst.within_rows(routes);
        let cars: u32 = routes
            .iter()
            .map(|&r| self.inst.board.route(r).length)
            .sum();
        if cars > self.inst.cars || self.inst.board.same_pair(&routes).is_some() {
            return;
        }
        if let Some(asked) = &mut self.family {
            for a in asked.iter_mut() {
                if a.question.avoid.is_some_and(|r| routes.contains(&r)) {
                    continue;
                }
                let (score, completed) = heuristic::score(&a.question.inst, &routes);
                let board = self.inst.board;
                if a.question
                    .need
                    .is_some_and(|c| !completed.iter().any(|&t| board.ticket(t).card == c))
                {
                    continue;
                }
                if score > a.best || (score == a.best && !a.found) {
                    a.best = score;
                    a.routes = routes.clone();
                    a.found = true;
                }
            }
            self.best = asked.iter().map(|a| a.best).min().unwrap_or(0);
            return;
        }
        let (score, _) = heuristic::score(self.inst, &routes);
        if let Some(rungs) = &mut self.ladder {
            for rung in rungs.iter_mut().filter(|r| r.cars >= cars) {
                if score > rung.best {
                    rung.best = score;
                    rung.routes = routes.clone();
                }
            }
            self.best = rungs.iter().map(|r| r.best).min().unwrap_or(0);
            return;
        }
        if score > self.best {
            self.best = score;
            self.best_routes = routes;
            self.tell();
        }
    }

    /// Puts the budget row's bound at `cars` (a ladder search moves it).
    fn set_rhs(&mut self, cars: u32) -> Result<(), MipError> {
        if cars != self.rhs {
            self.mip
                .set_row_bounds(BUDGET_ROW, f64::NEG_INFINITY, cars as f64)?;
            self.rhs = cars;
        }
        Ok(())
    }

    /// In a ladder search, the largest budget, of `rhs` cars or fewer,
    /// that can still gain in a node whose LP at `rhs` cars has the value
    /// `value` and the budget's dual `pi` ([`tangent`]).
    fn top_rung(&self, value: f64, pi: f64, rhs: u32) -> Option<u32> {
        let rungs = self.ladder.as_ref()?;
        rungs
            .iter()
            .rev()
            .find(|r| r.open(value, pi, rhs))
            .map(|r| r.cars)
    }

    /// Whether some budget of a ladder search can still gain in `node`
    /// (always, outside a ladder).
    fn ladder_open(&self, node: &Node) -> bool {
        self.ladder.is_none() || self.top_rung(node.bound, node.pi, node.rhs).is_some()
    }

    /// `node` back on the heap, stopped with the LP bound `bound`: at the
    /// budget row's bound now, without a dual (the bound holds for every
    /// smaller budget as it is; the dual was of an LP at another bound
    /// when a ladder moved it in the node).
    fn reopened(&self, node: Node, bound: f64) -> Node {
        Node {
            bound,
            rhs: self.rhs,
            pi: 0.0,
            ..node
        }
    }

    /// In a family search: whether some question could still improve in a
    /// node (its fixes, its LP bound).
    fn any_open(&self, fixes: &[Fix], bound: f64) -> bool {
        self.family
            .as_ref()
            .is_some_and(|asked| asked.iter().any(|a| self.open(a, fixes, bound)))
    }

    /// Whether question `a` could still improve in a node (its fixes, its
    /// LP bound): its fixes allow it, and the bound, less the points of the
    /// ticket out of the game where the node completes it, passes its best.
    fn open(&self, a: &Asked, fixes: &[Fix], bound: f64) -> bool {
        if let Some(e) = a.route {
            if fixes.contains(&Fix::Route(e, true)) {
                return false;
            }
        }
        if a.question.need.is_some()
            && a.groups
                .iter()
                .all(|&g| fixes.contains(&Fix::Group(g, false)))
        {
            return false;
        }
        let lost = if a.question.out.is_some() {
            fixes
                .iter()
                .filter_map(|f| match *f {
                    Fix::Group(g, true) if a.groups.contains(&g) => Some(self.groups[g].1),
                    _ => None,
                })
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        floor(bound).saturating_sub(lost) > a.best
    }

    /// In a family search, at a node whose LP point is the plan of the
    /// integral route values `xv` (with the LP's `values`): the branch that
    /// separates it from an open question that excludes it.
    fn family_branch(
        &self,
        fixes: &[Fix],
        bound: f64,
        values: &[f64],
        xv: &[f64],
    ) -> Option<(Fix, Fix)> {
        let asked = self.family.as_ref()?;
        let z = |g: usize| self.groups[g].0.iter().map(|&c| values[c]).sum::<f64>();
        for a in asked.iter().filter(|a| self.open(a, fixes, bound)) {
            if let Some(e) = a.route {
                if xv[e] > 0.5 {
                    return Some((Fix::Route(e, false), Fix::Route(e, true)));
                }
            }
            let decided = |g: usize| {
                fixes
                    .iter()
                    .any(|f| matches!(*f, Fix::Group(h, _) if h == g))
            };
            let completed = a
                .groups
                .iter()
                .copied()
                .filter(|&g| !decided(g))
                .max_by(|&g, &h| z(g).total_cmp(&z(h)).then(h.cmp(&g)));
            if let Some(g) = completed {
                if a.question.need.is_some() {
                    // The plan does not complete it (else it would answer
                    // the question): some group of the ticket must be.
                    return Some((Fix::Group(g, true), Fix::Group(g, false)));
                }
                if z(g) > INTEGRAL {
                    return Some((Fix::Group(g, false), Fix::Group(g, true)));
                }
            }
        }
        None
    }

    /// Tells the watch, if any, of the incumbent and the bound.
    fn tell(&mut self) {
        if let Some(watch) = &self.watch {
            watch.tell(self.inst, &self.best_routes, self.open);
            self.told = self.open;
        }
    }

    /// An LP-guided plan: tickets by LP value (then points), each joined by
    /// the path that is shortest when a route costs its cars times
    /// (1.5 − its LP value), routes already taken free; then the cars left
    /// on the unclaimed routes worth the most points.
    fn guided(&self, values: &[f64], cars: u32) -> Vec<RouteId> {
        let inst = self.inst;
        let mut order: Vec<(f64, u32, usize)> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, (cols, points, _))| (cols.iter().map(|&c| values[c]).sum(), *points, g))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        let mut taken = vec![false; self.lengths.len()];
        let mut joined = vec![false; inst.board.pairs.len()];
        let mut used = 0;
        // The instance's own rows (replan's stations): per row, its routes'
        // edges; a route of a row already full is closed to the paths.
        let rows: Vec<(Vec<usize>, usize)> = inst
            .at_most
            .iter()
            .map(|row| {
                let edges = (0..inst.routes.len())
                    .filter(|&e| row.routes.contains(&inst.routes[e]))
                    .collect();
                (edges, row.most)
            })
            .collect();
        let mut closed = vec![false; self.lengths.len()];
        for (_, _, g) in order {
            let mut cheapest: Option<(u32, Vec<usize>)> = None;
            // The shortest paths from each city some trip of the group
            // leaves from, once: the Swiss map's country tickets have up to
            // 60 trips from 3–5 cities (one search each took a fifth of its
            // sweep).
            let mut from: Vec<(usize, Tree)> = Vec::new();
            for &k in &self.groups[g].2 {
                let ticket = inst.board.ticket(inst.tickets[k]);
                let a = ticket.a.0;
                let via = match from.iter().position(|f| f.0 == a) {
                    Some(i) => &from[i].1,
                    None => {
                        // (A ticket with one trip needs the search only
                        // as far as its other end.)
                        let stop = (self.groups[g].2.len() == 1).then_some(ticket.b.0);
                        from.push((a, self.tree(&joined, &closed, values, a, stop)));
                        &from[from.len() - 1].1
                    }
                };
                let Some(path) = self.path(&joined, via, a, ticket.b.0) else {
                    continue;
                };
                let cost: u32 = path.iter().map(|&e| self.lengths[e]).sum();
                if cheapest.as_ref().is_none_or(|(c, _)| cost < *c) {
                    cheapest = Some((cost, path));
                }
            }
            if let Some((cost, path)) = cheapest {
                let over = |(edges, most): &(Vec<usize>, usize)| {
                    edges
                        .iter()
                        .filter(|&&e| taken[e] || path.contains(&e))
                        .count()
                        > *most
                };
                if used + cost <= cars && !rows.iter().any(over) {
                    used += cost;
                    for e in path {
                        taken[e] = true;
                        joined[self.pair[e]] = true;
                    }
                    for (edges, most) in &rows {
                        if edges.iter().filter(|&&e| taken[e]).count() >= *most {
                            for &e in edges {
                                closed[e] = !taken[e];
                            }
                        }
                    }
                }
            }
        }
        let mut routes: Vec<RouteId> = (0..taken.len())
            .filter(|&e| taken[e])
            .map(|e| inst.routes[e])
            .collect();
        let rest: Vec<RouteId> = (0..taken.len())
            .filter(|&e| !joined[self.pair[e]])
            .map(|e| inst.routes[e])
            .collect();
        routes.extend(heuristic::knapsack(inst, &rest, cars - used));
        routes.sort();
        routes
    }

    /// The shortest paths from city `a` under the guided costs (routes of
    /// pairs `joined` free, routes `closed` left out), as far as city `stop`
    /// if given. (A search that
    /// goes on past a city has fixed its path the same way.)
    fn tree(
        &self,
        joined: &[bool],
        closed: &[bool],
        values: &[f64],
        a: usize,
        stop: Option<usize>,
    ) -> Tree {
        let n = self.adjacent.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut via: Tree = vec![None; n];
        let mut done = vec![false; n];
        dist[a] = 0.0;
        // Cities by distance, then by index (as a scan for the least would
        // take them); entries made stale by a shorter path are skipped.
        let mut heap = BinaryHeap::new();
        heap.push(std::cmp::Reverse((Distance(0.0), a)));
        while let Some(std::cmp::Reverse((_, u))) = heap.pop() {
            if done[u] {
                continue;
            }
            if Some(u) == stop {
                break;
            }
            done[u] = true;
            for &(v, e) in &self.adjacent[u] {
                if closed[e] {
                    continue;
                }
                let cost = if joined[self.pair[e]] {
                    0.0
                } else {
                    self.lengths[e] as f64 * (1.5 - values[self.x[e]].clamp(0.0, 1.0))
                };
                if dist[u] + cost < dist[v] {
                    dist[v] = dist[u] + cost;
                    via[v] = Some((u, e));
                    heap.push(std::cmp::Reverse((Distance(dist[v]), v)));
                }
            }
        }
        via
    }

    /// The new routes (of pairs not `joined`) of the cheapest a–b path in
    /// `via`, the shortest paths from a ([`Search::tree`]); `None` if no
    /// path exists.
    fn path(
        &self,
        joined: &[bool],
        via: &[Option<(usize, usize)>],
        a: usize,
        b: usize,
    ) -> Option<Vec<usize>> {
        if a != b && via[b].is_none() {
            return None;
        }
        let mut path = Vec::new();
        let mut c = b;
        while let Some((prev, e)) = via[c] {
            if !joined[self.pair[e]] {
                path.push(e);
            }
            c = prev;
        }
        Some(path)
    }
}

/// Shortest paths from one city: per city, the city and route it is
/// reached by (`None` for the start and the cities not reached).
type Tree = Vec<Option<(usize, usize)>>;

/// A distance ordered (and equal) by `f64::total_cmp`, for a heap.
#[derive(Clone, Copy)]
struct Distance(f64);

impl PartialEq for Distance {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Distance {}

impl PartialOrd for Distance {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Distance {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// The answer's plan, checked by the union-find verifier: it scores
    /// what the answer says and fits the instance's cars.
    pub(in crate::solve::branch) fn assert_verified(inst: &Instance, answer: &Answer) {
        let plan = crate::board::verify::evaluate(inst.board, &answer.routes, &inst.tickets);
        assert_eq!(plan.score(), answer.score, "{} cars", inst.cars);
        assert!(plan.cars_used <= inst.cars, "{} cars", inst.cars);
    }

    /// A search started from a root solved before (its cuts and basis)
    /// proves the optimum a fresh search proves, with a plan the verifier
    /// accepts; and it starts with the first root's cuts: told to stop at
    /// the root too, it gets there with the same bound in a single LP.
    /// (Its whole tree is not compared with a fresh one: past the root it
    /// adds clique rows, which a deciding root leaves out, and the trees
    /// go their own ways.)
    #[test]
    fn a_search_from_a_kept_root_proves_the_same_optimum_sooner() {
        let board = Board::usa();
        for cars in [12, 30, 38, 45] {
            let inst = Instance::new(&board, cars);
            let start = heuristic::start(&inst, &Limits::none());
            let fresh = solve(
                &inst,
                &start,
                &Limits::none(),
                Reach::Proof,
                Lanes::One,
                None,
            )
            .unwrap();
            let rooted = solve(
                &inst,
                &start,
                &Limits::none(),
                Reach::Root(0.0),
                Lanes::One,
                None,
            )
            .unwrap();
            let root = rooted.root.as_ref().expect("a root search keeps its root");
            let again = solve_from_root(&inst, &rooted.routes, &Limits::none(), Reach::Proof, root)
                .unwrap();
            assert!(fresh.proven && again.proven, "{cars} cars");
            assert_eq!(again.score, fresh.score, "{cars} cars");
            assert_verified(&inst, &again);
            // The kept root's LPs are not done again.
            let at_root = solve_from_root(
                &inst,
                &rooted.routes,
                &Limits::none(),
                Reach::Root(0.0),
                root,
            )
            .unwrap();
            assert_eq!(at_root.bound, rooted.bound, "{cars} cars");
            assert!(
                at_root.lps == 1 && rooted.lps > 1,
                "{cars} cars: {} LPs from the kept root against {} the first time",
                at_root.lps,
                rooted.lps
            );
        }
    }

    /// Purging at every node taken from the heap (rows slack everywhere
    /// dropped, saved bases cut down to match) proves the same optimum as
    /// never purging, with a plan the verifier accepts; and enumerating
    /// every optimum while purging finds the same plans (the rows cutting
    /// off found plans are never purged).
    #[test]
    fn purging_cuts_keeps_the_optimum_and_every_optimal_plan() {
        let board = Board::usa();
        for cars in [12, 24, 33, 45] {
            let inst = Instance::new(&board, cars);
            let start = heuristic::start(&inst, &Limits::none());
            let solve = |purge| {
                run_search(&inst, &start, &Limits::none(), Reach::Proof, None, purge)
                    .unwrap()
                    .0
            };
            let (kept, purged) = (solve(usize::MAX), solve(1));
            assert!(kept.proven && purged.proven, "{cars} cars");
            assert_eq!(purged.score, kept.score, "{cars} cars");
            assert_verified(&inst, &purged);
            // Only 12 cars: enumeration is cheap where optima are few.
            if cars == 12 {
                let every = Reach::Every {
                    score: kept.score,
                    cap: 100,
                };
                let mut plans: Vec<_> = [usize::MAX, 1]
                    .map(|p| {
                        run_search(&inst, &[], &Limits::none(), every, None, p)
                            .unwrap()
                            .1
                    })
                    .into_iter()
                    .map(|mut found| {
                        found.sort();
                        found
                    })
                    .collect();
                assert!(!plans[0].is_empty());
                assert_eq!(plans.pop(), plans.pop());
            }
        }
    }
}
