//! A rooted-forest (directed cut) formulation of the same problem: the
//! default, exact and much tighter than the paper's flow model.
//!
//! Why: the paper's LP relaxation lets half of every route on a long cycle
//! connect every pair of its cities at full flow, so its bound at 45 cars is
//! about 423 against an optimum of 285. Orienting the network fixes that, as
//! in prize-collecting Steiner tree solvers: a directed path from a root to a
//! city needs a full unit of capacity into the city, which a half-bought
//! cycle does not give.
//!
//! A player's network is a forest (plus routes claimed only for their
//! points), so there is one arborescence per component, rooted at the first
//! ticket city of the component in a fixed order of the ticket cities (the
//! "terminals"). For every terminal r (a potential root):
//!
//! ```text
//! w^r_a in [0,1]  arc a=(i,j) of the arborescence rooted at r
//! y^r_r in [0,1]  r is a root
//! z^r_k in [0,1]  ticket k is completed inside r's arborescence
//! x_e   binary    route e is claimed
//! y^r_v := Σ_{a into v} w^r_a  (v != r)  city v belongs to r's arborescence
//!
//! max  Σ_e f_e x_e + Σ_k d_k Σ_r z^r_k
//!      Σ_e l_e x_e <= β                                    budget
//!      Σ_r (w^r_ij + w^r_ji) <= x_e                        arcs need the route
//!      y^r_v <= y^r_r                                      a tree needs its root (separated)
//!      Σ_r y^r_v <= 1                                      one tree per city
//!      w^r_ij + w^r_ji <= y^r_i, y^r_j                     2-cycles (separated)
//!      Σ_{a into v} w^r_a <= Σ_{a out of v} w^r_a  (v not a terminal)
//!      z^r_k <= y^r_{s_k},  z^r_k <= y^r_{t_k}
//!      y^r_v = 0 for terminals v before r                  r is the first terminal
//!      Σ_{a into S} w^r_a >= y^r_v   (r ∉ S ∋ v)           directed cuts, separated
//! ```
//!
//! y^r_v of a city other than the root is no column but the sum of the
//! arcs into it (its one parent), written out wherever a row holds it: a
//! column and an equality row per city and root would make the LP a
//! quarter larger for nothing (Europe at 45 cars: 758 rows and 783
//! columns of about 2,500 and 3,800), and every LP pays for its rows.
//! With them, Europe at 42 cars took 5.3 s against 3.7 s.
//!
//! The rows marked "separated" only strengthen the LP (the directed cuts
//! alone make an integral x a real plan), so they are added when violated,
//! like cuts, rather than written for every root up front: about 9,000 rows
//! fewer on the Swiss map, and Europe at 45 cars in 9.4 s instead of 12.3 s.
//! The directed cuts are exponentially many; they are found by max-flow
//! ([`ForestModel::separate`]) at every node of our own branch and cut
//! ([`crate::solve::branch`]) and added as rows until none is violated. Only x
//! needs to be integer: once the cuts hold, a
//! positive z^r_k means both ends of ticket k have positive flow from r over
//! claimed routes, so the ticket really is complete.
//!
//! Clique rows, separated too: two tickets whose least joint forest (two
//! paths, or one tree over their four cities) takes more cars than the
//! budget are never both completed, and of a set of such tickets, pairwise,
//! at most one is: `Σ_{k∈K} Σ_r z^r_k ≤ 1`. At middle budgets the LP
//! completes half of many tickets on a half-bought network twice the
//! budget; where three or more of them are pairwise too far apart, the row
//! cuts that point off; so does an odd cycle of such pairs (at most
//! (|C| − 1)/2 of its tickets score). Counted in LPs: USA Mega at 27 cars
//! 940 → 426, generated board 8 at 26 cars 1,247 → 595, Europe at 37 cars
//! 391 → 230; at 45 cars on Europe no two tickets are too far apart and
//! nothing changes.
//!
//! Tickets with several trips (the Swiss map's country tickets) score their
//! best completed trip. Their trips of equal points usually join every city
//! of a set S to every city of a set T (Berne to any German station), so
//! one column z^r_g stands for all of them: z^r_g <= Σ_{s∈S} y^r_s and
//! z^r_g <= Σ_{t∈T} y^r_t (some city of S and some of T in r's tree), and
//! Σ_g Σ_r z^r_g <= 1 over the groups g of one ticket. This keeps the model
//! at one column per (trip value, root) instead of one per (trip, root).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use good_lp::{variable, Expression, SolverModel};
use petgraph::algo::dinics;
use petgraph::graph::{DiGraph, NodeIndex};

use super::{route_sums, Col, Columns, Instance};
use crate::board::CityId;
use crate::model::mip::{Mip, MipError};
use crate::model::steiner;
use good_lp::solvers::highs::HighsProblem;

/// A group's LP value below this counts as not completed at all.
const INTEGRAL_Z: f64 = 1e-6;

/// The LP row of the budget, Σ_e l_e x_e ≤ β: the model's first. A
/// search over several budgets ([`crate::solve::branch`]'s ladder) moves
/// its bound.
pub const BUDGET_ROW: usize = 0;

/// One arc of one root's arborescence.
struct Arc {
    from: CityId,
    to: CityId,
    /// Index of its route in `ends`.
    route: usize,
    col: Col,
}

/// The variables of the arborescence rooted at one terminal.
struct Root {
    city: CityId,
    /// y^r_r, the root's own column; `None` when this root can score
    /// nothing and so has no tree.
    own: Option<Col>,
    /// By city v ≠ r: the columns of the arcs into v, whose sum stands for
    /// y^r_v (empty for cities that cannot be in this tree).
    into: Vec<Vec<Col>>,
    arcs: Vec<Arc>,
    /// Per route with arcs in this tree: the arcs' columns and its two
    /// ends (for the rows "arcs of a route ≤ y of either end", separated
    /// rather than written up front).
    pairs: Vec<(Vec<usize>, CityId, CityId)>,
}

impl Root {
    /// The columns whose sum is y^r_v (no arc enters the root).
    fn y(&self, v: usize) -> &[Col] {
        if v == self.city.0 {
            self.own.as_slice()
        } else {
            &self.into[v]
        }
    }

    /// y^r_v in the LP's `values`.
    fn y_value(&self, v: usize, values: &[f64]) -> f64 {
        self.y(v).iter().map(|c| values[c.index]).sum()
    }

    /// The row entries `coefficient · y^r_v`.
    fn y_entries(&self, v: usize, coefficient: f64) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.y(v).iter().map(move |c| (c.index, coefficient))
    }
}

/// A violated row `Σ coefficient · column ≥ lower`: a directed cut
/// (`Σ arcs − y ≥ 0`), one of the strengthening rows kept out of the
/// model until violated (`y_end − Σ arcs of a route ≥ 0`,
/// `y_root − y_city ≥ 0`), or a clique row (`−Σ z ≥ −1`).
#[derive(Clone, Debug)]
pub struct Cut {
    entries: Vec<(usize, f64)>,
    /// The row's right-hand side: `Σ coefficient · column ≥ lower`.
    lower: f64,
}

impl Cut {
    /// A row `Σ coefficient · column ≥ 0`.
    fn at_least_zero(entries: Vec<(usize, f64)>) -> Cut {
        Cut {
            entries,
            lower: 0.0,
        }
    }

    /// The row as exact bits, to tell equal cuts apart from others.
    pub fn key(&self) -> Vec<(usize, u64)> {
        let mut key: Vec<(usize, u64)> = self
            .entries
            .iter()
            .map(|&(c, v)| (c, v.to_bits()))
            .collect();
        key.push((usize::MAX, self.lower.to_bits()));
        key
    }

    /// A row `Σ coefficient · column ≥ 0` whose entries may repeat a
    /// column (y^r_v is a sum of arcs, which may hold one already in the
    /// row): repeats are added up, zeros dropped, columns in order.
    fn merged(entries: impl IntoIterator<Item = (usize, f64)>) -> Cut {
        let mut sum: BTreeMap<usize, f64> = BTreeMap::new();
        for (c, v) in entries {
            *sum.entry(c).or_default() += v;
        }
        Cut::at_least_zero(sum.into_iter().filter(|&(_, v)| v != 0.0).collect())
    }
}

/// Trips that score alike: of one ticket, worth the same, and joining every
/// city of `from` to every city of `to` (one trip: one city each).
struct Group {
    /// Indices into `Instance::tickets`.
    trips: Vec<usize>,
    from: Vec<CityId>,
    to: Vec<CityId>,
    points: u32,
    card: usize,
    /// (root index, z^r_g).
    z: Vec<(usize, Col)>,
}

/// The groups of the instance's trips, without columns yet: by ticket and
/// points, kept together only where they form a full S × T product with S
/// and T apart (then "some city of S and some of T in one tree" is exactly
/// "one of the trips is complete"); otherwise trip by trip.
fn group_trips(inst: &Instance) -> Vec<Group> {
    let board = inst.board;
    let mut buckets: BTreeMap<(usize, u32), Vec<usize>> = Default::default();
    for (k, &t) in inst.tickets.iter().enumerate() {
        let ticket = board.ticket(t);
        buckets
            .entry((ticket.card, ticket.points))
            .or_default()
            .push(k);
    }
    let group = |trips: Vec<usize>, card: usize, points: u32| {
        let mut from: Vec<CityId> = trips
            .iter()
            .map(|&k| board.ticket(inst.tickets[k]).a)
            .collect();
        let mut to: Vec<CityId> = trips
            .iter()
            .map(|&k| board.ticket(inst.tickets[k]).b)
            .collect();
        from.sort();
        from.dedup();
        to.sort();
        to.dedup();
        Group {
            trips,
            from,
            to,
            points,
            card,
            z: Vec::new(),
        }
    };
    let mut groups = Vec::new();
    for ((card, points), trips) in buckets {
        let g = group(trips.clone(), card, points);
        let mut pairs: Vec<(CityId, CityId)> = trips
            .iter()
            .map(|&k| {
                (
                    board.ticket(inst.tickets[k]).a,
                    board.ticket(inst.tickets[k]).b,
                )
            })
            .collect();
        pairs.sort();
        pairs.dedup();
        let product = pairs.len() == trips.len()
            && pairs.len() == g.from.len() * g.to.len()
            && g.from.iter().all(|c| !g.to.contains(c));
        if product {
            groups.push(g);
        } else {
            groups.extend(trips.into_iter().map(|k| group(vec![k], card, points)));
        }
    }
    groups
}

/// Cars on a shortest path from `root` to every city, through cities that
/// are `open` only (`u32::MAX` where there is none).
fn distances_within(
    n: usize,
    ends: &[(CityId, CityId)],
    lengths: &[u32],
    root: CityId,
    open: impl Fn(CityId) -> bool,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; n];
    let mut done = vec![false; n];
    dist[root.0] = 0;
    // Dense Dijkstra: boards have a few dozen cities.
    while let Some(u) = (0..n)
        .filter(|&v| !done[v] && dist[v] < u32::MAX)
        .min_by_key(|&v| (dist[v], v))
    {
        done[u] = true;
        for (&(a, b), &length) in ends.iter().zip(lengths) {
            let v = if a.0 == u {
                b
            } else if b.0 == u {
                a
            } else {
                continue;
            };
            if open(v) {
                dist[v.0] = dist[v.0].min(dist[u].saturating_add(length));
            }
        }
    }
    dist
}

/// The rooted-forest model of one instance: which HiGHS column is which, for
/// reading solutions and separating cuts. [`ForestModel::build`] makes it with
/// its [`Mip`].
pub struct ForestModel {
    /// x_e, in the order of `Instance::routes`.
    x: Vec<Col>,
    roots: Vec<Root>,
    /// The scoring columns: one group per ticket of one trip, and per set of
    /// equal-valued trips S × T of a ticket with several.
    groups: Vec<Group>,
    /// Pairs of groups no plan within the budget completes both
    /// (`conflicts[g][h]`), for the clique rows ([`ForestModel::separate`]):
    /// found on first use, as a search that only decides at its root (the
    /// sweep's choice of method) never separates those rows.
    conflicts: std::cell::OnceCell<Vec<Vec<bool>>>,
    /// Cities of the board, and the instance's routes (their ends and
    /// lengths) and budget, for finding `conflicts`.
    cities: usize,
    ends: Vec<(CityId, CityId)>,
    lengths: Vec<u32>,
    cars: u32,
    columns: usize,
}

/// Which pairs of groups no plan within `cars` completes both: every trip
/// of one and every trip of the other together need more cars than the
/// budget (the least forest joining the two, [`steiner::joins_within`], in
/// cars as the budget row counts them, over the routes `ends` of
/// `lengths`), or both are of one ticket, which scores one trip. A group's
/// trips are its `from` × `to` cities. Groups that cannot score at all
/// conflict with nothing.
fn conflicting_groups(
    groups: &[Group],
    n: usize,
    ends: &[(CityId, CityId)],
    lengths: &[u32],
    cars: u32,
) -> Vec<Vec<bool>> {
    let mut dist = vec![u16::MAX; n * n];
    for c in 0..n {
        let from = distances_within(n, ends, lengths, CityId(c), |_| true);
        for (v, d) in from.into_iter().enumerate() {
            dist[c * n + v] = d.min(u32::from(u16::MAX)) as u16;
        }
    }
    let too_far = |one: (CityId, CityId), other: (CityId, CityId)| {
        let pairs = [(one.0 .0, one.1 .0), (other.0 .0, other.1 .0)];
        !steiner::joins_within(&dist, n, u16::MAX, pairs, cars)
    };
    let trips = |g: &Group| -> Vec<(CityId, CityId)> {
        g.from
            .iter()
            .flat_map(|&a| g.to.iter().map(move |&b| (a, b)))
            .collect()
    };
    let all: Vec<Vec<(CityId, CityId)>> = groups.iter().map(trips).collect();
    let mut conflicts = vec![vec![false; groups.len()]; groups.len()];
    let mut mark = |i: usize, j: usize, apart: bool| {
        conflicts[i][j] = apart;
        conflicts[j][i] = apart;
    };
    for g in 0..groups.len() {
        if groups[g].z.is_empty() {
            continue;
        }
        for h in g + 1..groups.len() {
            if groups[h].z.is_empty() {
                continue;
            }
            let apart = groups[g].card == groups[h].card
                || all[g]
                    .iter()
                    .all(|&one| all[h].iter().all(|&other| too_far(one, other)));
            mark(g, h, apart);
        }
    }
    conflicts
}

/// The ticket cities ("terminals") in the order that picks each component's
/// root ([`Terminals::new`]), and the cities' neighbours.
struct Terminals {
    /// The terminals, first root first.
    list: Vec<CityId>,
    /// Per city: its place in `list` (`None`: not a terminal).
    order: Vec<Option<usize>>,
    /// Per city: its neighbours over the instance's routes.
    neighbours: Vec<BTreeSet<CityId>>,
}

impl Terminals {
    /// The terminals in the order that picks each component's root: cities
    /// with more than one neighbour first, then most ticket points (a
    /// ticket with several trips counts its best trip once per city, not
    /// once per trip), so the likely hubs are the first roots. A city
    /// with one neighbour (the Swiss map's country stations) is a poor
    /// root: any tree holding it holds its neighbour, but as an early
    /// root its tree spans nearly the whole map, and every later
    /// terminal's tree must avoid it. Last, it roots only trees that hold
    /// no other terminal. On the Swiss map at 40 cars this takes the
    /// model from 26 useful roots and 5,157 columns to 16 and about
    /// 2,100, and its proof from 76 s to 2–3 s (at 37 cars: from 21
    /// minutes to 4 s). Any fixed order is exact.
    fn new(inst: &Instance, ends: &[(CityId, CityId)]) -> Terminals {
        let board = inst.board;
        let n = board.cities.len();
        let mut best: BTreeMap<(usize, CityId), u32> = BTreeMap::new();
        for &t in &inst.tickets {
            let ticket = board.ticket(t);
            for c in [ticket.a, ticket.b] {
                let points = best.entry((ticket.card, c)).or_default();
                *points = (*points).max(ticket.points);
            }
        }
        let mut weight = vec![0u32; n];
        for ((_, c), points) in best {
            weight[c.0] += points;
        }
        let mut neighbours: Vec<BTreeSet<CityId>> = vec![BTreeSet::new(); n];
        for &(a, b) in ends {
            neighbours[a.0].insert(b);
            neighbours[b.0].insert(a);
        }
        let mut terminals: Vec<CityId> = (0..n).map(CityId).filter(|c| weight[c.0] > 0).collect();
        terminals.sort_by_key(|c| (neighbours[c.0].len() == 1, Reverse(weight[c.0]), *c));
        let mut order = vec![None; n];
        for (i, c) in terminals.iter().enumerate() {
            order[c.0] = Some(i);
        }
        Terminals {
            list: terminals,
            order,
            neighbours,
        }
    }
}

/// Per terminal r (in root order): the cars from r to every city over
/// the cities r's tree may pass through (`u32::MAX`: out of reach).
///
/// A city can be in r's tree unless it is a terminal that comes
/// before r, or farther from r than the budget (the tree's path from
/// r to it costs at most the whole tree).
fn reach(
    n: usize,
    terminals: &[CityId],
    order: &[Option<usize>],
    neighbours: &[BTreeSet<CityId>],
    ends: &[(CityId, CityId)],
    lengths: &[u32],
) -> Vec<Vec<u32>> {
    terminals
        .iter()
        .enumerate()
        .map(|(ri, &r)| {
            let open =
                |c: CityId| !neighbours[c.0].is_empty() && order[c.0].is_none_or(|o| o >= ri);
            distances_within(n, ends, lengths, r, open)
        })
        .collect()
}

/// Per group: the roots (by place in the root order) whose tree can
/// score it: no later than some city of each side, and within the
/// budget's reach of one.
fn scoring_roots(
    inst: &Instance,
    groups: &[Group],
    order: &[Option<usize>],
    reach: &[Vec<u32>],
) -> Vec<Vec<usize>> {
    groups
        .iter()
        .map(|g| {
            let latest = |cities: &[CityId]| {
                cities
                    .iter()
                    .map(|c| order[c.0].expect("ticket cities are terminals"))
                    .max()
                    .expect("a group has cities")
            };
            let last = latest(&g.from).min(latest(&g.to));
            let reaches =
                |ri: usize, cities: &[CityId]| cities.iter().any(|c| reach[ri][c.0] <= inst.cars);
            (0..=last)
                .filter(|&ri| reaches(ri, &g.from) && reaches(ri, &g.to))
                .collect()
        })
        .collect()
}

/// The columns of every root's tree: its own column and its arcs, over
/// the cities within its `reach` of the budget; a root no group scores
/// in (`scoring_roots`) gets none.
fn tree_columns(
    cols: &mut Columns,
    inst: &Instance,
    terminals: &[CityId],
    reach: &[Vec<u32>],
    scoring_roots: &[Vec<usize>],
    ends: &[(CityId, CityId)],
    lengths: &[u32],
) -> Vec<Root> {
    let n = inst.board.cities.len();
    let unit = || variable().min(0).max(1);
    let mut roots = Vec::with_capacity(terminals.len());
    // A tree that can score nothing is never needed (its routes count
    // through x alone), so such a root gets no columns at all.
    let mut useful = vec![false; terminals.len()];
    for &ri in scoring_roots.iter().flatten() {
        useful[ri] = true;
    }
    for (ri, &r) in terminals.iter().enumerate() {
        let allowed = |c: CityId| useful[ri] && reach[ri][c.0] <= inst.cars;
        let own = allowed(r).then(|| cols.add(unit()));
        let mut into: Vec<Vec<Col>> = vec![Vec::new(); n];
        let mut arcs = Vec::new();
        let mut pairs: Vec<(Vec<usize>, CityId, CityId)> = Vec::new();
        for (e, (&(a, b), &length)) in ends.iter().zip(lengths).enumerate() {
            if allowed(a) && allowed(b) {
                let mut on = Vec::new();
                for (from, to) in [(a, b), (b, a)] {
                    if to != r && reach[ri][from.0].saturating_add(length) <= inst.cars {
                        let col = cols.add(unit());
                        on.push(col.index);
                        into[to.0].push(col);
                        arcs.push(Arc {
                            from,
                            to,
                            route: e,
                            col,
                        });
                    }
                }
                if !on.is_empty() {
                    pairs.push((on, a, b));
                }
            }
        }
        roots.push(Root {
            city: r,
            own,
            into,
            arcs,
            pairs,
        });
    }
    roots
}

/// The rows among the x and z columns: the budget (the first row,
/// [`BUDGET_ROW`]), one route per city pair, one scoring trip per ticket.
fn add_choice_rows(
    problem: &mut HighsProblem,
    inst: &Instance,
    x: &[Col],
    cars: Expression,
    groups: &[Group],
) {
    // The first row: BUDGET_ROW.
    problem.add_constraint(cars.leq(inst.cars as f64));
    // A player claims one route of a city pair.
    for expr in super::one_route_per_pair(inst, x) {
        problem.add_constraint(expr.leq(1));
    }
    // A ticket with several trips scores one of them (with one trip, its
    // two cities can only be in one tree, so this holds anyway).
    let mut by_card: BTreeMap<usize, (usize, Expression)> = Default::default();
    for g in groups {
        let entry = by_card.entry(g.card).or_default();
        entry.0 += g.trips.len();
        for &(_, c) in &g.z {
            entry.1 += c.var;
        }
    }
    for (_, (trips, expr)) in by_card {
        if trips > 1 {
            problem.add_constraint(expr.leq(1));
        }
    }
    // The instance's own rows over routes (replan's stations).
    for row in &inst.at_most {
        let expr: Expression = inst
            .routes
            .iter()
            .zip(x)
            .filter(|(r, _)| row.routes.contains(r))
            .map(|(_, c)| c.var)
            .sum();
        problem.add_constraint(expr.leq(row.most as f64));
    }
}

/// The rows of the trees written up front: arcs need their route, a
/// city is in one tree, no Steiner leaves, and a group scores in a tree
/// only holding a city of each of its sides.
fn add_tree_rows(
    problem: &mut HighsProblem,
    roots: &[Root],
    groups: &[Group],
    x: &[Col],
    order: &[Option<usize>],
) {
    let n = order.len();
    // Arcs of all trees on a route together need the route.
    let mut on_route: Vec<Expression> = vec![Expression::default(); x.len()];
    let mut in_tree_of: Vec<Expression> = vec![Expression::default(); n];
    for root in roots {
        let mut indeg: Vec<Expression> = vec![Expression::default(); n];
        let mut outdeg: Vec<Expression> = vec![Expression::default(); n];
        for arc in &root.arcs {
            on_route[arc.route] += arc.col.var;
            indeg[arc.to.0] += arc.col.var;
            outdeg[arc.from.0] += arc.col.var;
        }
        // A root that can score nothing has no tree.
        if root.own.is_none() {
            continue;
        }
        for v in 0..n {
            for c in root.y(v) {
                in_tree_of[v] += c.var;
            }
            if v != root.city.0 && !root.into[v].is_empty() && order[v].is_none() {
                // Pruned trees have no Steiner leaves.
                problem.add_constraint(indeg[v].clone().leq(outdeg[v].clone()));
            }
        }
    }
    for (e, expr) in on_route.into_iter().enumerate() {
        problem.add_constraint(expr.leq(x[e].var));
    }
    for expr in in_tree_of {
        problem.add_constraint(expr.leq(1));
    }
    for g in groups {
        for &(ri, zc) in &g.z {
            for side in [&g.from, &g.to] {
                let y: Expression = side
                    .iter()
                    .flat_map(|c| roots[ri].y(c.0))
                    .map(|c| c.var)
                    .sum();
                problem.add_constraint(Expression::from(zc.var).leq(y));
            }
        }
    }
}

impl ForestModel {
    /// Builds the model for `inst` and hands it to HiGHS, without the rows that
    /// are separated later ([`ForestModel::separate`]). Every column is
    /// continuous: the branch and cut ([`crate::solve::branch`]) branches on
    /// the x columns.
    pub fn build(inst: &Instance) -> Result<(ForestModel, Mip), MipError> {
        let board = inst.board;
        let n = board.cities.len();
        let ends: Vec<(CityId, CityId)> = inst
            .routes
            .iter()
            .map(|&r| (board.route(r).a, board.route(r).b))
            .collect();

        let Terminals {
            list: terminals,
            order,
            neighbours,
        } = Terminals::new(inst, &ends);

        let mut cols = Columns::default();
        let x: Vec<Col> = inst
            .routes
            .iter()
            .map(|_| cols.add(variable().min(0).max(1)))
            .collect();
        let unit = || variable().min(0).max(1);
        let lengths: Vec<u32> = inst.routes.iter().map(|&r| board.route(r).length).collect();
        let reach = reach(n, &terminals, &order, &neighbours, &ends, &lengths);
        let mut groups = group_trips(inst);
        let scoring_roots = scoring_roots(inst, &groups, &order, &reach);
        let roots = tree_columns(
            &mut cols,
            inst,
            &terminals,
            &reach,
            &scoring_roots,
            &ends,
            &lengths,
        );
        for (g, ris) in groups.iter_mut().zip(&scoring_roots) {
            g.z = ris.iter().map(|&ri| (ri, cols.add(unit()))).collect();
        }

        let (route_points, cars) = route_sums(inst, &x);
        let objective: Expression = route_points
            + groups
                .iter()
                .flat_map(|g| g.z.iter().map(move |(_, c)| g.points as f64 * c.var))
                .sum::<Expression>();
        let columns = cols.count;
        let mut problem = cols.vars.maximise(objective).using(good_lp::highs);

        add_choice_rows(&mut problem, inst, &x, cars, &groups);
        add_tree_rows(&mut problem, &roots, &groups, &x, &order);

        let mip = Mip::new(problem, false)?;
        Ok((
            ForestModel {
                x,
                roots,
                groups,
                conflicts: std::cell::OnceCell::new(),
                cities: n,
                ends,
                lengths,
                cars: inst.cars,
                columns,
            },
            mip,
        ))
    }

    /// Directed cuts violated by more than `tolerance` in `values`, found by a
    /// max-flow from each root to each city of its tree, and with `cliques`
    /// the violated clique and odd-cycle rows of conflicting tickets.
    pub fn separate(&self, values: &[f64], tolerance: f64, cliques: bool) -> Vec<Cut> {
        let mut cuts = self.separate_rows(values, tolerance);
        cuts.extend(self.separate_flows(values, tolerance));
        if cliques {
            let z: Vec<f64> = (0..self.groups.len())
                .map(|g| self.z_columns(g).map(|c| values[c]).sum())
                .collect();
            cuts.extend(self.separate_cliques(&z, tolerance));
            cuts.extend(self.separate_odd_cycles(&z, tolerance));
        }
        cuts
    }

    /// Pairs of groups no plan within the budget completes both.
    fn conflicts(&self) -> &[Vec<bool>] {
        self.conflicts.get_or_init(|| {
            conflicting_groups(
                &self.groups,
                self.cities,
                &self.ends,
                &self.lengths,
                self.cars,
            )
        })
    }

    /// The z columns of group `g`, one per root that can score it.
    fn z_columns(&self, g: usize) -> impl Iterator<Item = usize> + '_ {
        self.groups[g].z.iter().map(|(_, c)| c.index)
    }

    /// The row "at most `most` of `groups` score": `−Σ z ≥ −most`.
    fn at_most(&self, groups: &[usize], most: usize) -> Cut {
        Cut {
            entries: groups
                .iter()
                .flat_map(|&g| self.z_columns(g).map(|c| (c, -1.0)))
                .collect(),
            lower: -(most as f64),
        }
    }

    /// Odd-cycle rows `Σ_{g∈C} Σ_r z^r_g ≤ (|C| − 1)/2` over odd cycles C
    /// of conflicting groups (around such a cycle, no two neighbours both
    /// score), where the LP breaks them: a closed walk of odd length whose
    /// edges' slacks 1 − z_g − z_h sum to less than one, found by a
    /// shortest path from each group to itself over the graph doubled by
    /// parity.
    /// `z` holds each group's LP value (Σ_r z^r_g).
    fn separate_odd_cycles(&self, z: &[f64], tolerance: f64) -> Vec<Cut> {
        let conflicts = self.conflicts();
        let nodes: Vec<usize> = (0..z.len()).filter(|&g| z[g] > INTEGRAL_Z).collect();
        let m = nodes.len();
        let slack = |a: usize, b: usize| (1.0 - z[nodes[a]] - z[nodes[b]]).max(0.0);
        let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
        let mut cuts = Vec::new();
        for s in 0..m {
            // Vertex 2·a + parity.
            let mut dist = vec![f64::INFINITY; 2 * m];
            let mut pred = vec![usize::MAX; 2 * m];
            let mut done = vec![false; 2 * m];
            dist[2 * s] = 0.0;
            while let Some(u) = (0..2 * m)
                .filter(|&u| !done[u] && dist[u] < 1.0)
                .min_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(a.cmp(&b)))
            {
                done[u] = true;
                if u == 2 * s + 1 {
                    break;
                }
                let (a, parity) = (u / 2, u % 2);
                for b in 0..m {
                    if conflicts[nodes[a]][nodes[b]] {
                        let v = 2 * b + (1 - parity);
                        let d = dist[u] + slack(a, b);
                        if d < dist[v] {
                            dist[v] = d;
                            pred[v] = u;
                        }
                    }
                }
            }
            if dist[2 * s + 1] >= 1.0 - tolerance {
                continue;
            }
            let mut cycle = Vec::new();
            let mut v = pred[2 * s + 1];
            while v != 2 * s {
                cycle.push(nodes[v / 2]);
                v = pred[v];
            }
            cycle.push(nodes[s]);
            let mut set = cycle.clone();
            set.sort_unstable();
            set.dedup();
            // A walk through a group twice holds a shorter odd cycle,
            // found from another start.
            if set.len() != cycle.len() || set.len() < 3 || !seen.insert(set.clone()) {
                continue;
            }
            cuts.push(self.at_most(&set, (set.len() - 1) / 2));
        }
        cuts
    }

    /// Clique rows `Σ_{g∈K} Σ_r z^r_g ≤ 1` over sets K of pairwise
    /// conflicting groups (at most one of them scores), where the LP
    /// completes more than one of them in all. Each clique grows greedily
    /// from one group, the LP's most completed first, then is made maximal.
    /// `z` holds each group's LP value (Σ_r z^r_g).
    fn separate_cliques(&self, z: &[f64], tolerance: f64) -> Vec<Cut> {
        let conflicts = self.conflicts();
        // The groups the LP leaves out, which make each clique maximal (the
        // row then holds for them too where a later LP tries them); groups
        // that cannot score (no columns) never join one.
        let rest: Vec<usize> = (0..z.len())
            .filter(|&h| z[h] <= INTEGRAL_Z && !self.groups[h].z.is_empty())
            .collect();
        let mut order: Vec<usize> = (0..z.len()).filter(|&g| z[g] > INTEGRAL_Z).collect();
        order.sort_by(|&a, &b| z[b].total_cmp(&z[a]).then(a.cmp(&b)));
        let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
        let mut cuts = Vec::new();
        for &seed in &order {
            let mut clique = vec![seed];
            for &h in &order {
                if h != seed && clique.iter().all(|&g| conflicts[g][h]) {
                    clique.push(h);
                }
            }
            let sum: f64 = clique.iter().map(|&g| z[g]).sum();
            if sum <= 1.0 + tolerance {
                continue;
            }
            for &h in &rest {
                if clique.iter().all(|&g| conflicts[g][h]) {
                    clique.push(h);
                }
            }
            clique.sort_unstable();
            if !seen.insert(clique.clone()) {
                continue;
            }
            cuts.push(self.at_most(&clique, 1));
        }
        cuts
    }

    /// The strengthening rows kept out of the model, where violated.
    fn separate_rows(&self, values: &[f64], tolerance: f64) -> Vec<Cut> {
        let mut cuts = Vec::new();
        for root in &self.roots {
            let Some(own) = root.own else {
                continue;
            };
            for c in 0..root.into.len() {
                if c != root.city.0 && root.y_value(c, values) - values[own.index] > tolerance {
                    let y = root.y_entries(c, -1.0);
                    cuts.push(Cut::merged(y.chain([(own.index, 1.0)])));
                }
            }
            for (arcs, a, b) in &root.pairs {
                let on: f64 = arcs.iter().map(|&a| values[a]).sum();
                for end in [a, b] {
                    if on - root.y_value(end.0, values) > tolerance {
                        let entries = arcs.iter().map(|&a| (a, -1.0));
                        cuts.push(Cut::merged(entries.chain(root.y_entries(end.0, 1.0))));
                    }
                }
            }
        }
        cuts
    }

    /// Directed cuts violated by more than `tolerance` in `values`.
    fn separate_flows(&self, values: &[f64], tolerance: f64) -> Vec<Cut> {
        // Integer capacities make the max-flow exact.
        const SCALE: f64 = 1e7;
        let scaled = |c: Col| (values[c.index].max(0.0) * SCALE).round() as u64;
        let mut cuts = Vec::new();
        for root in &self.roots {
            let n = self.cities;
            let mut net: DiGraph<(), u64> = DiGraph::with_capacity(n, root.arcs.len());
            for _ in 0..n {
                net.add_node(());
            }
            for arc in &root.arcs {
                let cap = scaled(arc.col);
                if cap > 0 {
                    net.add_edge(NodeIndex::new(arc.from.0), NodeIndex::new(arc.to.0), cap);
                }
            }
            let source = NodeIndex::new(root.city.0);
            for v in 0..n {
                let yv = root.y_value(v, values);
                if v == root.city.0 || yv <= tolerance {
                    continue;
                }
                let (flow, flows) = dinics(&net, source, NodeIndex::new(v));
                if (flow as f64) / SCALE >= yv - tolerance {
                    continue;
                }
                // S: cities not reachable from the root in the residual network.
                let mut reach = vec![false; n];
                reach[root.city.0] = true;
                let mut queue = VecDeque::from([root.city.0]);
                while let Some(u) = queue.pop_front() {
                    for (i, e) in net.raw_edges().iter().enumerate() {
                        let (s, t) = (e.source().index(), e.target().index());
                        let next = if s == u && flows[i] < e.weight {
                            t
                        } else if t == u && flows[i] > 0 {
                            s
                        } else {
                            continue;
                        };
                        if !reach[next] {
                            reach[next] = true;
                            queue.push_back(next);
                        }
                    }
                }
                let entries = root
                    .arcs
                    .iter()
                    .filter(|a| reach[a.from.0] && !reach[a.to.0])
                    .map(|a| (a.col.index, 1.0));
                cuts.push(Cut::merged(entries.chain(root.y_entries(v, -1.0))));
            }
        }
        cuts
    }

    /// Adds cuts as rows `Σ coefficient · column ≥ lower`.
    pub fn add_cuts(&self, mip: &mut Mip, cuts: &[Cut]) -> Result<(), MipError> {
        for cut in cuts {
            mip.add_row(cut.lower, f64::INFINITY, &cut.entries)?;
        }
        Ok(())
    }

    /// Number of columns of the model (before any cut rows).
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The scoring groups for branching: per group, its z columns (one per
    /// root), its points, and its trips (indices into `Instance::tickets`).
    pub fn group_columns(&self) -> Vec<(Vec<usize>, u32, Vec<usize>)> {
        self.groups
            .iter()
            .map(|g| {
                (
                    g.z.iter().map(|(_, c)| c.index).collect(),
                    g.points,
                    g.trips.clone(),
                )
            })
            .collect()
    }

    /// The x_e columns, in the order of `Instance::routes`.
    pub fn x_columns(&self) -> Vec<usize> {
        self.x.iter().map(|c| c.index).collect()
    }
}
