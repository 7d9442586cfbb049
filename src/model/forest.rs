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
//! y^r_v in [0,1]  city v belongs to r's arborescence (y^r_r: r is a root)
//! z^r_k in [0,1]  ticket k is completed inside r's arborescence
//! x_e   binary    route e is claimed
//!
//! max  Σ_e f_e x_e + Σ_k d_k Σ_r z^r_k
//!      Σ_e l_e x_e <= β                                    budget
//!      Σ_r (w^r_ij + w^r_ji) <= x_e                        arcs need the route
//!      Σ_{a into v} w^r_a = y^r_v          (v != r)        one parent
//!      y^r_v <= y^r_r                                      a tree needs its root
//!      Σ_r y^r_v <= 1                                      one tree per city
//!      w^r_ij + w^r_ji <= y^r_i, y^r_j                     2-cycles
//!      Σ_{a into v} w^r_a <= Σ_{a out of v} w^r_a  (v not a terminal)
//!      z^r_k <= y^r_{s_k},  z^r_k <= y^r_{t_k}
//!      y^r_v = 0 for terminals v before r                  r is the first terminal
//!      Σ_{a into S} w^r_a >= y^r_v   (r ∉ S ∋ v)           directed cuts, separated
//! ```
//!
//! The directed cuts are exponentially many; they are found by max-flow
//! ([`ForestModel::separate`]) on LP and MIP solutions and added as rows
//! until none is violated. Only x needs to be integer: once the cuts hold, a
//! positive z^r_k means both ends of ticket k have positive flow from r over
//! claimed routes, so the ticket really is complete.
//!
//! Tickets with several trips (the Swiss map's country tickets) score their
//! best completed trip. Their trips of equal points usually join every city
//! of a set S to every city of a set T (Berne to any German station), so
//! one column z^r_g stands for all of them: z^r_g <= Σ_{s∈S} y^r_s and
//! z^r_g <= Σ_{t∈T} y^r_t (some city of S and some of T in r's tree), and
//! Σ_g Σ_r z^r_g <= 1 over the groups g of one ticket. This keeps the model
//! at one column per (trip value, root) instead of one per (trip, root).

use std::collections::VecDeque;

use good_lp::{variable, Expression, SolverModel};
use petgraph::algo::dinics;
use petgraph::graph::{DiGraph, NodeIndex};

use super::{paper::chosen_routes, route_sums, Col, Columns, Instance};
use crate::board::{CityId, RouteId, TicketId};
use crate::mip::{Mip, MipError};

/// One arc of one root's arborescence.
struct Arc {
    from: CityId,
    to: CityId,
    col: Col,
}

/// The variables of the arborescence rooted at one terminal.
struct Root {
    city: CityId,
    /// y^r_v by city; `None` for cities that cannot be in this tree.
    y: Vec<Option<Col>>,
    arcs: Vec<Arc>,
}

/// A violated directed cut: `Σ arcs ≥ y`.
pub struct Cut {
    arcs: Vec<usize>,
    y: usize,
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
    let mut buckets: std::collections::BTreeMap<(usize, u32), Vec<usize>> = Default::default();
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

pub struct ForestModel {
    /// x_e, in the order of `Instance::routes`.
    x: Vec<Col>,
    roots: Vec<Root>,
    /// The scoring columns: one group per ticket of one trip, and per set of
    /// equal-valued trips S × T of a ticket with several.
    groups: Vec<Group>,
    /// Per route of the instance: its two ends.
    ends: Vec<(CityId, CityId)>,
    /// Terminal order position of each city (`None` if not a ticket city).
    order: Vec<Option<usize>>,
    columns: usize,
}

impl ForestModel {
    pub fn build(inst: &Instance) -> Result<(ForestModel, Mip), MipError> {
        let board = inst.board;
        let n = board.cities.len();
        let ends: Vec<(CityId, CityId)> = inst
            .routes
            .iter()
            .map(|&r| (board.route(r).a, board.route(r).b))
            .collect();

        // Terminals, most ticket points first: the likely hubs become the
        // first roots, which keeps the symmetry-breaking order natural.
        let mut weight = vec![0u32; n];
        for &t in &inst.tickets {
            let ticket = board.ticket(t);
            weight[ticket.a.0] += ticket.points;
            weight[ticket.b.0] += ticket.points;
        }
        let mut terminals: Vec<CityId> = (0..n).map(CityId).filter(|c| weight[c.0] > 0).collect();
        terminals.sort_by_key(|c| (std::cmp::Reverse(weight[c.0]), *c));
        let mut order = vec![None; n];
        for (i, c) in terminals.iter().enumerate() {
            order[c.0] = Some(i);
        }
        let mut touched = vec![false; n];
        for &(a, b) in &ends {
            touched[a.0] = true;
            touched[b.0] = true;
        }

        let mut cols = Columns::default();
        let x: Vec<Col> = inst
            .routes
            .iter()
            .map(|_| cols.add(variable().binary()))
            .collect();
        let unit = || variable().min(0).max(1);
        let mut roots = Vec::with_capacity(terminals.len());
        for (ri, &r) in terminals.iter().enumerate() {
            // A city can be in r's tree unless it is a terminal that comes before r.
            let allowed = |c: CityId| touched[c.0] && order[c.0].is_none_or(|o| o >= ri);
            let y: Vec<Option<Col>> = (0..n)
                .map(|c| allowed(CityId(c)).then(|| cols.add(unit())))
                .collect();
            let mut arcs = Vec::new();
            for &(a, b) in &ends {
                if allowed(a) && allowed(b) {
                    for (from, to) in [(a, b), (b, a)] {
                        if to != r {
                            arcs.push(Arc {
                                from,
                                to,
                                col: cols.add(unit()),
                            });
                        }
                    }
                }
            }
            roots.push(Root { city: r, y, arcs });
        }
        let mut groups = group_trips(inst);
        for g in &mut groups {
            // A tree can hold a city of S only if its root comes no later.
            let latest = |cities: &[CityId]| {
                cities
                    .iter()
                    .map(|c| order[c.0].expect("ticket cities are terminals"))
                    .max()
                    .expect("a group has cities")
            };
            let last = latest(&g.from).min(latest(&g.to));
            g.z = (0..=last).map(|ri| (ri, cols.add(unit()))).collect();
        }

        let (route_points, cars) = route_sums(inst, &x);
        let objective: Expression = route_points
            + groups
                .iter()
                .flat_map(|g| g.z.iter().map(move |(_, c)| g.points as f64 * c.var))
                .sum::<Expression>();
        let columns = cols.count;
        let mut problem = cols.vars.maximise(objective).using(good_lp::highs);

        problem.add_constraint(cars.leq(inst.cars as f64));
        // A ticket with several trips scores one of them (with one trip, its
        // two cities can only be in one tree, so this holds anyway).
        let mut by_card: std::collections::BTreeMap<usize, (usize, Expression)> =
            Default::default();
        for g in &groups {
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

        // Arcs of all trees on a route together need the route.
        let mut on_route: Vec<Expression> = vec![Expression::default(); ends.len()];
        let route_of = |from: CityId, to: CityId| {
            ends.iter()
                .position(|&(a, b)| (a, b) == (from, to) || (b, a) == (from, to))
                .expect("arcs come from routes")
        };
        let mut in_tree_of: Vec<Expression> = vec![Expression::default(); n];
        for root in &roots {
            let mut indeg: Vec<Expression> = vec![Expression::default(); n];
            let mut outdeg: Vec<Expression> = vec![Expression::default(); n];
            let mut pair: Vec<Expression> = vec![Expression::default(); ends.len()];
            for arc in &root.arcs {
                let e = route_of(arc.from, arc.to);
                on_route[e] += arc.col.var;
                pair[e] += arc.col.var;
                indeg[arc.to.0] += arc.col.var;
                outdeg[arc.from.0] += arc.col.var;
            }
            let yr = root.y[root.city.0].expect("a root may be in its own tree");
            for v in 0..n {
                let Some(yv) = root.y[v] else { continue };
                in_tree_of[v] += yv.var;
                if v == root.city.0 {
                    continue;
                }
                problem.add_constraint(indeg[v].clone().eq(yv.var));
                problem.add_constraint(Expression::from(yv.var).leq(yr.var));
                if order[v].is_none() {
                    // Pruned trees have no Steiner leaves.
                    problem.add_constraint(indeg[v].clone().leq(outdeg[v].clone()));
                }
            }
            for (e, &(a, b)) in ends.iter().enumerate() {
                if let (Some(ya), Some(yb)) = (root.y[a.0], root.y[b.0]) {
                    problem.add_constraint(pair[e].clone().leq(ya.var));
                    problem.add_constraint(pair[e].clone().leq(yb.var));
                }
            }
        }
        for (e, expr) in on_route.into_iter().enumerate() {
            problem.add_constraint(expr.leq(x[e].var));
        }
        for expr in in_tree_of {
            problem.add_constraint(expr.leq(1));
        }
        for g in &groups {
            for &(ri, zc) in &g.z {
                for side in [&g.from, &g.to] {
                    let y: Expression = side
                        .iter()
                        .filter_map(|c| roots[ri].y[c.0])
                        .map(|y| y.var)
                        .sum();
                    problem.add_constraint(Expression::from(zc.var).leq(y));
                }
            }
        }

        let mip = Mip::new(problem, true)?;
        Ok((
            ForestModel {
                x,
                roots,
                groups,
                ends,
                order,
                columns,
            },
            mip,
        ))
    }

    /// Directed cuts violated by more than `tolerance` in `values`, found by a
    /// max-flow from each root to each city of its tree.
    pub fn separate(&self, values: &[f64], tolerance: f64) -> Vec<Cut> {
        // Integer capacities make the max-flow exact.
        const SCALE: f64 = 1e7;
        let scaled = |c: Col| (values[c.index].max(0.0) * SCALE).round() as u64;
        let mut cuts = Vec::new();
        for root in &self.roots {
            let n = root.y.len();
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
                let Some(yv) = root.y[v] else { continue };
                if v == root.city.0 || values[yv.index] <= tolerance {
                    continue;
                }
                let (flow, flows) = dinics(&net, source, NodeIndex::new(v));
                if (flow as f64) / SCALE >= values[yv.index] - tolerance {
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
                let arcs = root
                    .arcs
                    .iter()
                    .filter(|a| reach[a.from.0] && !reach[a.to.0])
                    .map(|a| a.col.index)
                    .collect();
                cuts.push(Cut { arcs, y: yv.index });
            }
        }
        cuts
    }

    /// Adds cuts as rows `Σ arcs − y ≥ 0`.
    pub fn add_cuts(&self, mip: &mut Mip, cuts: &[Cut]) -> Result<(), MipError> {
        for cut in cuts {
            let mut entries: Vec<(usize, f64)> = cut.arcs.iter().map(|&c| (c, 1.0)).collect();
            entries.push((cut.y, -1.0));
            mip.add_row(0.0, f64::INFINITY, &entries)?;
        }
        Ok(())
    }

    /// Column values for claiming `routes`: each component of the claimed
    /// network that holds a terminal becomes the arborescence of its first
    /// terminal, pruned of non-terminal leaves; its completed tickets score.
    /// Satisfies every row of the model, cuts included.
    pub fn start(&self, inst: &Instance, routes: &[RouteId]) -> Vec<f64> {
        let n = self.order.len();
        let mut values = vec![0.0; self.columns];
        let chosen: Vec<usize> = (0..inst.routes.len())
            .filter(|&e| routes.contains(&inst.routes[e]))
            .collect();
        let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &e in &chosen {
            values[self.x[e].index] = 1.0;
            let (a, b) = self.ends[e];
            adjacent[a.0].push(b.0);
            adjacent[b.0].push(a.0);
        }
        // Components by breadth-first search; root each at its first terminal.
        let mut component = vec![usize::MAX; n];
        let mut tree_root = vec![None; n];
        for start in 0..n {
            if component[start] != usize::MAX || adjacent[start].is_empty() {
                continue;
            }
            let mut members = vec![start];
            component[start] = start;
            let mut i = 0;
            while i < members.len() {
                for &next in &adjacent[members[i]] {
                    if component[next] == usize::MAX {
                        component[next] = start;
                        members.push(next);
                    }
                }
                i += 1;
            }
            let Some(ri) = members.iter().filter_map(|&c| self.order[c]).min() else {
                continue;
            };
            let root = &self.roots[ri];
            // Breadth-first tree from the root, then prune Steiner leaves.
            let mut parent = vec![usize::MAX; n];
            let mut in_tree = vec![false; n];
            let mut bfs = vec![root.city.0];
            in_tree[root.city.0] = true;
            let mut i = 0;
            while i < bfs.len() {
                for &next in &adjacent[bfs[i]] {
                    if !in_tree[next] {
                        in_tree[next] = true;
                        parent[next] = bfs[i];
                        bfs.push(next);
                    }
                }
                i += 1;
            }
            let mut children = vec![0usize; n];
            for &c in &bfs[1..] {
                children[parent[c]] += 1;
            }
            for &c in bfs.iter().rev() {
                if c != root.city.0 && children[c] == 0 && self.order[c].is_none() {
                    in_tree[c] = false;
                    children[parent[c]] -= 1;
                }
            }
            for &c in &bfs {
                if in_tree[c] {
                    tree_root[c] = Some(ri);
                    values[root.y[c].expect("tree cities are allowed").index] = 1.0;
                }
            }
            for arc in &root.arcs {
                if in_tree[arc.to.0] && parent[arc.to.0] == arc.from.0 {
                    values[arc.col.index] = 1.0;
                }
            }
        }
        let scoring = super::scoring_trips(inst, routes);
        for g in &self.groups {
            let Some(&k) = g
                .trips
                .iter()
                .find(|&&k| scoring.contains(&inst.tickets[k]))
            else {
                continue;
            };
            let ticket = inst.board.ticket(inst.tickets[k]);
            if let (Some(ra), Some(rb)) = (tree_root[ticket.a.0], tree_root[ticket.b.0]) {
                if ra == rb {
                    if let Some(&(_, zc)) = g.z.iter().find(|(ri, _)| *ri == ra) {
                        values[zc.index] = 1.0;
                    }
                }
            }
        }
        values
    }

    pub fn routes(&self, inst: &Instance, values: &[f64]) -> Vec<RouteId> {
        chosen_routes(inst, &self.x, values)
    }

    /// Tickets the solution counts as completed (Σ_r z^r_g > 1/2). Of a
    /// group of several trips, the first one the chosen routes connect
    /// stands for it (if none does, the first trip, which the verifier then
    /// rejects: that would be a bug in the model).
    pub fn completed(&self, inst: &Instance, values: &[f64]) -> Vec<TicketId> {
        let board = inst.board;
        let picked: Vec<_> = self
            .routes(inst, values)
            .iter()
            .map(|&r| board.route(r).clone())
            .collect();
        let component = crate::graph::components(board.cities.len(), &picked);
        let connected = |k: &usize| {
            let t = board.ticket(inst.tickets[*k]);
            component[t.a.0] == component[t.b.0]
        };
        let mut done: Vec<TicketId> = self
            .groups
            .iter()
            .filter(|g| g.z.iter().map(|(_, c)| values[c.index]).sum::<f64>() > 0.5)
            .map(|g| inst.tickets[*g.trips.iter().find(|k| connected(k)).unwrap_or(&g.trips[0])])
            .collect();
        done.sort();
        done
    }

    pub fn x_columns(&self) -> Vec<usize> {
        self.x.iter().map(|c| c.index).collect()
    }
}
