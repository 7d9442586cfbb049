//! An exact dynamic programme over the board, no LP involved: the fastest
//! exact method, and the one that answers every budget in one pass.
//!
//! City pairs are decided one at a time (claim one of its routes, or skip)
//! in an order that sweeps
//! the map, so that at any moment only a few cities — the *frontier* — have
//! both decided and undecided routes. A state records how the claimed routes
//! so far partition the frontier cities into components, plus *ghosts*:
//! cities already left behind that are one end of a ticket still open (its
//! other end not reached yet, or in another component). For every state the
//! programme keeps the best score reachable with at most c cars, for every
//! budget c at once. Ticket points are earned the moment a claimed route
//! merges the components holding the ticket's two ends; a component that
//! loses its last frontier city can never grow again, so its ghosts (and
//! their open tickets) are dropped.
//!
//! A ticket with several trips scores only its best completed trip, so the
//! state also records, for each such ticket that has scored, the points it
//! scores so far (its *level*); a trip then earns only what it adds above
//! the level. Level entries follow the city entries in a key, as
//! (n + ticket slot, points) with n the number of cities.
//!
//! The plan for a budget is recovered by walking the stored layers back from
//! the final state and re-running each transition to find one that produced
//! it (so ties resolve the same way every run).

use std::sync::Arc;

use rustc_hash::{FxBuildHasher, FxHashMap};
use smallvec::SmallVec;

/// A hash map that iterates in insertion order.
type FxIndexMap<K, V> = indexmap::IndexMap<K, V, FxBuildHasher>;

use crate::board::{Board, RouteId, TicketId};
use crate::model::steiner;
use crate::solve::limits::Limits;

/// A state: (city, component label) pairs sorted by city, labels numbered in
/// order of first appearance; then (n + slot, points) for the tickets with
/// several trips that score so far.
///
/// Inline up to 16 entries: most keys never touch the heap (allocation was
/// a quarter of a few-ticket solve's time).
type Key = SmallVec<[(u8, u8); 16]>;

/// Entries of a key: (city, label) or (n + slot, level).
type Entries<'k> = &'k [(u8, u8)];

/// Best score with at most c cars, for c = 0..=max_cars; `NONE` if the
/// state cannot be reached with c cars.
type Values = Vec<i16>;
const NONE: i16 = -1;

/// One decided city pair: skip it, or claim one of its routes (one for most
/// pairs; several where parallel tracks differ in length or points, which
/// all join the same two cities and so lead to the same state).
struct Step {
    a: u8,
    b: u8,
    options: Vec<Choice>,
}

/// One route a step may claim.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choice {
    pub length: usize,
    pub points: i16,
    pub route: RouteId,
}

impl Step {
    /// Cars of its shortest route: what a connection through it costs.
    fn shortest(&self) -> usize {
        self.options.iter().map(|o| o.length).min().unwrap_or(0)
    }
}

/// The programme's tables for one board, routes, tickets and car limit.
pub struct Frontier {
    steps: Vec<Step>,
    /// Per city: index of its first and last step (`usize::MAX` if it has no routes).
    first: Vec<usize>,
    last: Vec<usize>,
    /// Tickets as (city, city, points, id).
    tickets: Vec<(u8, u8, i16, TicketId)>,
    /// Per city: indices into `tickets` of the tickets with an end there.
    tickets_at: Vec<Vec<usize>>,
    /// Per entry of `tickets`: the slot of its ticket if that ticket has
    /// several trips in play (they share one level), else `None`.
    slot: Vec<Option<u8>>,
    /// The trips in play, in [`Group`]s: the pruning bound measures each
    /// group at once.
    groups: Vec<Group>,
    /// Per group of several trips, its sides measured in cars and (where
    /// the bound by tolls applies) in tolls; `None` for a trip alone.
    measures: Vec<Option<(Measures, Option<Measures>)>>,
    max_cars: usize,
    /// `layers[i]`: the states after deciding steps `0..i`.
    layers: Vec<Vec<(Key, Values)>>,
    /// Known achievable score per budget (0 where unknown): states that
    /// cannot reach it for any budget are dropped.
    lower: Vec<i16>,
    /// The budgets not `UNWANTED` in `lower`, ascending (a single budget's
    /// run checks one instead of every car count).
    wanted: Vec<usize>,
    /// The pruning bound's tables.
    tables: Arc<Tables>,
    /// `links[i][s]`: where state s of layer i goes in layer i + 1, when the
    /// run was asked to keep them (for [`crate::analysis::optima`]).
    links: Option<Vec<Vec<Link>>>,
    /// The tables' size once the run is done, in the bytes the memory
    /// budget counts.
    bytes: usize,
    /// [`Goal::complete`], where it applies (every ticket has one trip).
    complete: bool,
    /// Some ticket has an end without routes: with `complete`, no plan counts.
    stranded: bool,
    /// Per city: the least city it is a twin of ([`twins`]), itself if none;
    /// `None` where no two cities are twins.
    twin: Option<Vec<u8>>,
}

/// The successors of one state in the next layer (indices into it; `None`
/// where the successor was pruned or unaffordable).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    pub skip: Option<u32>,
    /// The state after claiming the route, and the ticket points that earns.
    pub take: Option<(u32, i16)>,
}

/// Trips of one ticket, worth the same points, that join every city of one
/// set to every city of another (the Swiss map's "Berne – Allemagne" joins
/// Berne to each of Allemagne's 5 border cities, "France – Allemagne" each
/// of 4 cities to each of 5); every other trip is a group of its own. The
/// pruning bound needs only the nearest of a group's trips, and that is
/// measured side by side ([`Gaps::block`]) instead of trip by trip: a
/// country ticket's 20 trips were 20 measures of every state.
#[derive(Clone, Debug)]
struct Group {
    from: SmallVec<[u8; 8]>,
    to: SmallVec<[u8; 8]>,
    /// One of its trips (an index into `tickets`): they all add the same.
    trip: usize,
}

/// What a run is asked for.
#[derive(Clone, Debug)]
pub struct Goal {
    /// Largest budget of interest; the programme answers every budget up to it.
    pub max_cars: u32,
    /// Budgets below this one are of no interest: states that only they
    /// could use are dropped (`max_cars` alone for a single budget).
    pub min_cars: u32,
    /// Achievable scores (`lower[c]` for c cars, from a heuristic; missing
    /// entries mean unknown): partial plans that provably cannot reach them
    /// are dropped. Tighter values make the run faster, never different.
    pub lower: Vec<u32>,
    /// The call's limits: give up (return `None`) at their deadline, once
    /// cancelled, or before the tables take more than their memory budget.
    pub limits: Limits,
    /// Give up (return `None`) before the tables take more bytes than this
    /// (`None`: the memory budget of [`Goal::limits`]; never more than it).
    /// A byte count, unlike a deadline, stops a run at the same point on
    /// every machine.
    pub memory: Option<usize>,
    /// Give up as soon as the tables would pass `memory` if every step
    /// still to decide stored as much as the steps so far did on average,
    /// not only once they do. For a caller with another way to its answers:
    /// a run that will not fit is stopped sooner.
    pub projected: bool,
    /// The caller has no use for a plan that leaves a ticket incomplete
    /// (it knows such plans cannot reach its known score): the run drops a
    /// partial plan as soon as one of its tickets can no longer be
    /// completed, and bounds the rest by the cars each open ticket still
    /// needs. [`Frontier::best`] is then the best plan completing every
    /// ticket (0 if there is none). Applies where every ticket has one trip;
    /// elsewhere the run is the ordinary one, whose best is at least as high.
    pub complete: bool,
}

impl Goal {
    /// Every budget from 0 to `max_cars`, nothing known.
    pub fn all(max_cars: u32) -> Goal {
        Goal {
            max_cars,
            min_cars: 0,
            lower: Vec::new(),
            limits: Limits::none(),
            memory: None,
            projected: false,
            complete: false,
        }
    }

    /// The one budget `cars`, where a plan scoring `known` exists: the
    /// programme keeps only what can reach it (no limits but the machine's
    /// memory budget).
    pub fn budget(cars: u32, known: u32) -> Goal {
        let mut lower = vec![0; cars as usize + 1];
        lower[cars as usize] = known;
        Goal {
            max_cars: cars,
            min_cars: cars,
            lower,
            limits: Limits::none(),
            memory: None,
            projected: false,
            complete: false,
        }
    }
}

/// Where the programme is one of two exact methods (`auto`, the sweep), it
/// stops past this many bytes of tables and the branch and cut proves the
/// budget instead: on ticket-rich boards its states multiply (the USA Mega
/// deck reached 7.9 GB in 450 s), while the branch and cut proves such
/// budgets in seconds. A size, not a time, so that the hand-over happens at
/// the same point on every machine (and plans do not depend on its speed).
/// 512 MiB was too small: the USA sweep's one run for 1–30 cars then gave
/// up, and the branch and cut took 2–7 s per budget there instead.
pub const HANDOVER_MEMORY: usize = 2 << 30;

/// Bytes a stored state takes, roughly: key and values on the heap, their
/// headers and allocator overhead, and the hash map's spare room (measured:
/// a run estimated at 5.5 GB by half this held 7.9 GB).
fn state_bytes(key: &Key, values: &Values) -> usize {
    // (Keys were vectors when this was measured; an inline key takes no
    // more than the vector and its allocation did.)
    2 * (key.len() * 2 + values.capacity() * 2) + 128
}

/// The tables of the pruning bound: they depend on the steps and the car
/// limit alone, so runs over the same steps share them (see
/// [`Frontier::bounds`]).
#[derive(Default)]
struct Tables {
    /// `knap[i][r]`: most route points from steps `i..` with r cars.
    knap: Vec<Vec<i16>>,
    /// Shortest paths in cars over the undecided steps.
    cars: Paths,
    /// The bound by tolls, where it pays.
    rated: Option<Rated>,
}

/// The bound by tolls: every route scores [`RATE`], plus what it scores
/// above it, less what the routes connecting the trips completed score
/// below it.
struct Rated {
    /// Shortest paths in *tolls*: what a route scores below the rate, in
    /// quarter points (0 for routes that score at least that).
    toll: Paths,
    /// `spare[i]`: what the steps `i..` score above the rate, in quarter
    /// points (the best route of each pair, where positive).
    spare: Vec<i32>,
}

/// The rate of the bound by tolls, in quarter points a car. 2.5 points a
/// car is what the 6-car routes score: on the Europe deal's keeps it left
/// the fewest states of 1.75 to 3.5 (2,800 a whole hand against 3,100 to
/// 6,500); the least of the bounds at 2, 2.5 and 3 left 2% fewer for three
/// times the tables.
const RATE: i32 = 10;

/// Tickets in play up to which the bound by tolls is used.
const TOLLED_TICKETS: usize = 8;

/// A state's successors (skip, take with the ticket points it earns), where
/// a run keeps links; `None` where a decision loses a ticket that must be
/// completed.
type Successors = (Option<Key>, Option<(Key, i16)>);

/// Where an end of an open trip stands: a city not reached yet, or the
/// component (by label) holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Ahead(usize),
    In(u8),
}

/// An open trip in a state: its ends, or a [`Group`] of trips (its index)
/// with the components holding cities of each side.
enum Open {
    Trip(End, End),
    Group(usize, SmallVec<[u8; 4]>, SmallVec<[u8; 4]>),
}

/// Frontier cities of each component of a state, by label.
type Comps = SmallVec<[(u8, SmallVec<[usize; 8]>); 8]>;

/// Shortest paths over the steps not decided yet, per layer.
#[derive(Default)]
struct Paths {
    /// `dist[i][u * n + v]`: a shortest u–v path over steps `i..`. Claimed
    /// routes may already join frontier cities, so a connection can also
    /// ride through a component for free: the bounds allow for that.
    dist: Vec<Vec<u16>>,
    /// `hub[i][v]`: from city v to the nearest frontier city over steps
    /// `i..` (0 for frontier cities).
    hub: Vec<Vec<u16>>,
    /// `exit[i][f]`: for frontier city f, to the nearest other frontier
    /// city over steps `i..`: the least a path leaving a component pays
    /// before it reaches the frontier again.
    exit: Vec<Vec<u16>>,
}

/// The gaps between ends of open trips in one state, over one set of
/// [`Paths`] (see [`Frontier::gaps`]).
struct Gaps<'a> {
    n: usize,
    dist: &'a [u16],
    hub: &'a [u16],
    exit: &'a [u16],
    comps: &'a Comps,
    /// The least any component's frontier cities pay to leave it.
    min_exit: u16,
    /// The steps decided: the layer.
    done: usize,
}

impl Gaps<'_> {
    /// The least any connection between two ends costs: directly, or riding
    /// through claimed components for free (a path that enters a component
    /// may leave it from any of its frontier cities).
    fn gap(&self, x: End, y: End) -> u16 {
        let (n, dist, hub, comps) = (self.n, self.dist, self.hub, self.comps);
        let near = |members: &[usize], v: usize| {
            members
                .iter()
                .map(|&f| dist[f * n + v])
                .min()
                .unwrap_or(FAR)
        };
        let leave = |members: &[usize]| members.iter().map(|&f| self.exit[f]).min().unwrap_or(FAR);
        let members = |label: u8| {
            comps
                .iter()
                .find(|(m, _)| *m == label)
                .map_or(&[][..], |(_, f)| &f[..])
        };
        match (x, y) {
            // Both ends still ahead: directly, through one component, or
            // through several.
            (End::Ahead(a), End::Ahead(b)) => {
                let through_one = comps
                    .iter()
                    .map(|(_, f)| near(f, a) + near(f, b))
                    .min()
                    .unwrap_or(FAR);
                dist[a * n + b]
                    .min(through_one)
                    .min(hub[a] + self.min_exit + hub[b])
            }
            // One end reached, the other still ahead: from its component,
            // or via another.
            (End::In(l), End::Ahead(o)) | (End::Ahead(o), End::In(l)) => {
                let own = members(l);
                let via = comps
                    .iter()
                    .filter(|(m, _)| *m != l)
                    .map(|(_, f)| near(f, o))
                    .min()
                    .unwrap_or(FAR);
                near(own, o).min(leave(own) + via)
            }
            // Both ends reached, apart: straight across, or via other
            // components.
            (End::In(l), End::In(m)) => {
                let (own, theirs) = (members(l), members(m));
                let direct = own.iter().map(|&f| near(theirs, f)).min().unwrap_or(FAR);
                direct.min(leave(own) + leave(theirs))
            }
        }
    }

    /// The least [`gap`](Gaps::gap) between the ends of a [`Group`]'s two
    /// sides: `xs` and `ys` the components holding some of each side's
    /// cities, `m` its sides measured over the same paths (the cities still
    /// ahead are those of the layer, the same in every state). Every way
    /// `gap` joins two ends is a sum of a term for each end (or, between
    /// two cities ahead, a term for both), so its least over the trips is
    /// the sum of the least terms: each side is measured against each
    /// component once, not once a trip. (Ends in one component are no open
    /// trip: that trip is complete.)
    fn block(&self, m: &Measures, xs: &[u8], ys: &[u8]) -> u16 {
        let (comps, done) = (self.comps, self.done);
        let near = |s: usize| -> SmallVec<[u16; 8]> {
            let near = m.near(done, s, self.n);
            comps
                .iter()
                .map(|(_, f)| f.iter().map(|&f| near[f]).min().unwrap_or(FAR))
                .collect()
        };
        let (nx, ny) = (near(0), near(1));
        let index = |l: u8| comps.iter().position(|(m, _)| *m == l);
        let leave = |l: u8| {
            index(l).map_or(FAR, |i| {
                comps[i]
                    .1
                    .iter()
                    .map(|&f| self.exit[f])
                    .min()
                    .unwrap_or(FAR)
            })
        };
        // Both ends ahead: directly, through one component, or through
        // several.
        let through_one = nx.iter().zip(&ny).map(|(x, y)| x + y).min().unwrap_or(FAR);
        let (hx, hy) = (m.hub[2 * done], m.hub[2 * done + 1]);
        let mut best = m.direct[done].min(through_one).min(hx + self.min_exit + hy);
        // One end in a component, the other ahead: from its component, or
        // via another.
        for (labels, near) in [(xs, &ny), (ys, &nx)] {
            for &l in labels {
                let own = index(l);
                let via = (0..comps.len())
                    .filter(|&i| Some(i) != own)
                    .map(|i| near[i])
                    .min()
                    .unwrap_or(FAR);
                best = best.min(own.map_or(FAR, |i| near[i]).min(leave(l) + via));
            }
        }
        // Both ends in components, apart.
        for &l in xs {
            for &k in ys {
                if l != k {
                    best = best.min(self.gap(End::In(l), End::In(k)));
                }
            }
        }
        best
    }
}

/// A [`Group`]'s two sides measured over one set of [`Paths`], layer by
/// layer, for [`Gaps::block`]: which of their cities are still ahead
/// depends on the layer alone.
struct Measures {
    /// `near[(i * 2 + s) * n + f]`: from city f to the nearest city of side
    /// s still ahead after i steps (`FAR` if none).
    near: Vec<u16>,
    /// `hub[i * 2 + s]`: the least `hub` of side s's cities still ahead.
    hub: Vec<u16>,
    /// `direct[i]`: the least distance between cities ahead on both sides.
    direct: Vec<u16>,
}

impl Measures {
    fn new(paths: &Paths, first: &[usize], group: &Group) -> Measures {
        let n = first.len();
        let layers = paths.dist.len();
        let mut measures = Measures {
            near: Vec::with_capacity(layers * 2 * n),
            hub: Vec::with_capacity(layers * 2),
            direct: Vec::with_capacity(layers),
        };
        for i in 0..layers {
            let dist = &paths.dist[i];
            let ahead = |side: &[u8]| -> SmallVec<[usize; 8]> {
                side.iter()
                    .map(|&c| c as usize)
                    .filter(|&c| first[c] >= i)
                    .collect()
            };
            let sides = [ahead(&group.from), ahead(&group.to)];
            for side in &sides {
                measures.near.extend(
                    (0..n).map(|f| side.iter().map(|&v| dist[f * n + v]).min().unwrap_or(FAR)),
                );
                measures
                    .hub
                    .push(side.iter().map(|&v| paths.hub[i][v]).min().unwrap_or(FAR));
            }
            let direct = sides[0]
                .iter()
                .flat_map(|&a| sides[1].iter().map(move |&b| dist[a * n + b]))
                .min()
                .unwrap_or(FAR);
            measures.direct.push(direct);
        }
        measures
    }

    /// From each city to the nearest city of side `s` ahead after `done` steps.
    fn near(&self, done: usize, s: usize, n: usize) -> &[u16] {
        let at = (2 * done + s) * n;
        &self.near[at..at + n]
    }
}

/// Distance meaning "no path" in the bound tables (sums of three stay in u16).
const FAR: u16 = u16::MAX / 4;

/// Marks a budget of no interest in `Frontier::lower`.
const UNWANTED: i16 = i16::MAX;

impl Frontier {
    /// Runs the exact programme; `None` if the goal's limits stopped it
    /// first (its deadline, a cancellation, or tables that would outgrow
    /// the memory budget).
    pub fn run(
        board: &Board,
        routes: &[RouteId],
        tickets: &[TicketId],
        goal: &Goal,
    ) -> Option<Frontier> {
        Frontier::run_keeping(board, routes, tickets, goal, false)
    }

    /// [`Frontier::run`], keeping where every state leads, so that all
    /// optimal plans can be walked ([`crate::analysis::optima`]).
    pub(crate) fn run_linked(
        board: &Board,
        routes: &[RouteId],
        tickets: &[TicketId],
        goal: &Goal,
    ) -> Option<Frontier> {
        Frontier::run_keeping(board, routes, tickets, goal, true)
    }

    fn run_keeping(
        board: &Board,
        routes: &[RouteId],
        tickets: &[TicketId],
        goal: &Goal,
        links: bool,
    ) -> Option<Frontier> {
        let mut dp = Frontier::new(board, routes, tickets, goal);
        dp.bounds();
        if links {
            dp.links = Some(Vec::new());
        }
        let budget = goal.limits.memory_budget();
        let memory = goal.memory.unwrap_or(budget).min(budget);
        dp.forward(None, &goal.limits, memory, goal.projected)
            .then_some(dp)
    }

    /// Whether the programme can solve this instance: scores must fit its
    /// 16-bit values (any real board does: the USA board totals under 700
    /// points), and levels of tickets with several trips its bytes.
    pub fn fits(board: &Board, routes: &[RouteId], tickets: &[TicketId]) -> bool {
        // Levels are stored in a byte, after the city ids.
        let slot = slots(board, tickets.iter().copied());
        let used = slot
            .iter()
            .flatten()
            .map(|&j| j as usize + 1)
            .max()
            .unwrap_or(0);
        let small = tickets
            .iter()
            .zip(&slot)
            .all(|(&t, j)| j.is_none() || board.ticket(t).points <= u8::MAX as u32);
        if board.cities.len() + used >= 255 || !small {
            return false;
        }
        let total: u64 = routes
            .iter()
            .map(|&r| board.route(r).points as u64)
            .sum::<u64>()
            + best_per_card(board, tickets);
        // Bounds add a few such totals together; stay far below i16::MAX.
        total < 4000 && board.cities.len() < 255
    }

    /// A key's city entries and its level entries.
    fn split<'k>(&self, key: Entries<'k>) -> (Entries<'k>, Entries<'k>) {
        let n = self.first.len();
        key.split_at(key.partition_point(|e| (e.0 as usize) < n))
    }

    /// Points the ticket of `tickets[k]` scores so far: its level, or 0.
    fn level(&self, levels: &[(u8, u8)], k: usize) -> i16 {
        let n = self.first.len();
        self.slot[k].map_or(0, |j| {
            levels
                .iter()
                .find(|e| e.0 as usize == n + j as usize)
                .map_or(0, |e| e.1 as i16)
        })
    }

    /// Points trip `k` would add if completed now (0 if its ticket already
    /// scores as much through another trip).
    fn adds(&self, levels: &[(u8, u8)], k: usize) -> i16 {
        (self.tickets[k].2 - self.level(levels, k)).max(0)
    }

    /// Completes the trips `done` (indices into `tickets`): the points they
    /// add, the trips that raise their ticket's score, and the new levels.
    fn complete(&self, levels: &[(u8, u8)], done: &[usize]) -> (i16, Vec<usize>, Key) {
        let n = self.first.len() as u8;
        let mut levels = Key::from_slice(levels);
        let mut gain = 0;
        let mut raised: Vec<usize> = Vec::new();
        for &k in done {
            let Some(j) = self.slot[k] else {
                gain += self.tickets[k].2;
                raised.push(k);
                continue;
            };
            let add = self.adds(&levels, k);
            if add > 0 {
                gain += add;
                levels.retain(|e| e.0 != n + j);
                levels.push((n + j, self.tickets[k].2 as u8));
                raised.retain(|&r| self.slot[r] != Some(j));
                raised.push(k);
            }
        }
        levels.sort_unstable();
        (gain, raised, levels)
    }

    /// A heuristic run: the same programme, keeping after each step only the
    /// `width` best states for each car count. Its values are achievable
    /// scores (lower bounds), usually optimal or close, found quickly.
    /// `None` if the call's `limits` (its time, its memory budget) stopped it.
    pub fn beam(
        board: &Board,
        routes: &[RouteId],
        tickets: &[TicketId],
        max_cars: u32,
        width: usize,
        limits: &Limits,
    ) -> Option<Frontier> {
        let mut dp = Frontier::new(board, routes, tickets, &Goal::all(max_cars));
        // Stopped by the call's limits: no tables.
        dp.forward(Some(width), limits, limits.memory_budget(), false)
            .then_some(dp)
    }

    /// The tables of the programme, before any step is decided.
    fn new(board: &Board, routes: &[RouteId], tickets: &[TicketId], goal: &Goal) -> Frontier {
        assert!(board.cities.len() < 255, "city ids are stored in a byte");
        let n = board.cities.len();
        // Greedy beat sweeping by map coordinates (x, y, x±y) on the USA
        // board: 1.4M states over all layers at 22 cars against 2.3M–12M.
        let order = remembered_sweep_order(board, routes);
        let mut steps: Vec<Step> = Vec::new();
        let mut step_of: FxHashMap<usize, usize> = FxHashMap::default();
        for &r in routes {
            let route = board.route(r);
            let i = *step_of.entry(route.pair.0).or_insert_with(|| {
                steps.push(Step {
                    a: route.a.0 as u8,
                    b: route.b.0 as u8,
                    options: Vec::new(),
                });
                steps.len() - 1
            });
            steps[i].options.push(Choice {
                length: route.length as usize,
                points: route.points as i16,
                route: r,
            });
        }
        steps.sort_by_key(|s| {
            let (pa, pb) = (order[s.a as usize], order[s.b as usize]);
            (pa.max(pb), pa.min(pb), s.options[0].route)
        });
        let mut first = vec![usize::MAX; n];
        let mut last = vec![usize::MAX; n];
        for (i, s) in steps.iter().enumerate() {
            for c in [s.a as usize, s.b as usize] {
                if first[c] == usize::MAX {
                    first[c] = i;
                }
                last[c] = i;
            }
        }
        let all_tickets = tickets.len();
        let tickets: Vec<(u8, u8, i16, TicketId)> = tickets
            .iter()
            .map(|&t| {
                let ticket = board.ticket(t);
                (ticket.a.0 as u8, ticket.b.0 as u8, ticket.points as i16, t)
            })
            .filter(|&(a, b, _, _)| {
                first[a as usize] != usize::MAX && first[b as usize] != usize::MAX
            })
            .collect();
        let mut tickets_at = vec![Vec::new(); n];
        for (k, &(a, b, _, _)) in tickets.iter().enumerate() {
            tickets_at[a as usize].push(k);
            tickets_at[b as usize].push(k);
        }
        let stranded = tickets.len() < all_tickets;
        let slot = slots(board, tickets.iter().map(|t| t.3));
        let groups = groups(&tickets, &slot);
        let complete = goal.complete && slot.iter().all(Option::is_none);
        // (Where every ticket must be completed, each has one trip: no
        // twins to merge, and a ghost that left would count as lost.)
        let twin = (!complete).then(|| twins(board, n, &tickets)).flatten();
        let lower: Vec<i16> = (0..=goal.max_cars)
            .map(|c| match goal.lower.get(c as usize) {
                _ if c < goal.min_cars => UNWANTED,
                Some(&l) => l.min(UNWANTED as u32 - 1) as i16,
                None => 0,
            })
            .collect();
        let wanted = (0..lower.len()).filter(|&c| lower[c] != UNWANTED).collect();
        Frontier {
            steps,
            first,
            last,
            tickets,
            tickets_at,
            slot,
            groups,
            measures: Vec::new(),
            max_cars: goal.max_cars as usize,
            layers: Vec::new(),
            lower,
            wanted,
            tables: Arc::default(),
            links: None,
            bytes: 0,
            complete,
            stranded,
            twin,
        }
    }

    /// Decides every step; false if `limits` stopped it first or the
    /// memory budget ran out (or, `projected`, would: [`Goal::projected`]).
    fn forward(
        &mut self,
        beam: Option<usize>,
        limits: &Limits,
        budget: usize,
        projected: bool,
    ) -> bool {
        let mut stored = 0usize;
        let mut layer: Vec<(Key, Values)> = vec![(Key::new(), vec![0; self.max_cars + 1])];
        if self.complete && (self.stranded || self.hopeless()) {
            // A ticket that no route reaches is never completed; tickets
            // whose joint network tolls too much never reach the score.
            layer.clear();
        }
        for i in 0..self.steps.len() {
            if limits.passed() {
                return false;
            }
            // Every layer is kept (plans are recovered from them), and the
            // next one is built beside this one.
            stored += layer.iter().map(|(k, v)| state_bytes(k, v)).sum::<usize>();
            if stored.saturating_mul(2) > budget {
                return false;
            }
            let steps = self.steps.len();
            if projected && (stored / (i + 1)).saturating_mul(steps).saturating_mul(2) > budget {
                return false;
            }
            // Insertion order: the layer's order follows from the previous
            // layer's and the steps, so it repeats run after run (whatever
            // the hasher) without sorting the states.
            let mut next: FxIndexMap<Key, Values> = FxIndexMap::default();
            // (From a slice: a state reached before takes the better values
            // without a vector allocated for them.)
            let mut merge = |key: Key, values: &[i16]| match next.get_mut(&key) {
                Some(old) => {
                    for (o, &v) in old.iter_mut().zip(values) {
                        *o = (*o).max(v);
                    }
                }
                None => {
                    next.insert(key, values.to_vec());
                }
            };
            // The values after claiming the step's route, one buffer reused.
            let mut shifted = vec![NONE; self.max_cars + 1];
            let shortest = self.steps[i].shortest();
            let linking = self.links.is_some();
            // Successor keys of each state, when links are kept.
            let mut successors: Vec<Successors> = Vec::new();
            // A route that costs nothing and scores nothing or more (one the
            // player already owns, in a game state) is always worth taking:
            // joining two components only lets more tickets score. Skipping
            // it would only add dominated states (except where every plan
            // is being counted).
            let free = shortest == 0 && self.steps[i].options.iter().all(|o| o.points >= 0);
            let skippable = !free || linking;
            for (key, values) in &layer {
                let mut skip_key = None;
                if skippable {
                    if let Some((skip, _)) = self.transition(i, key, false) {
                        skip_key = linking.then(|| skip.clone());
                        merge(skip, values);
                    }
                }
                let mut take_key = None;
                // (Pruning leaves holes, so look at every affordable entry.)
                if shortest <= self.max_cars
                    && values[..=self.max_cars - shortest]
                        .iter()
                        .any(|&v| v != NONE)
                {
                    if let Some((take, tickets)) = self.transition(i, key, true) {
                        if linking {
                            take_key = Some((take.clone(), tickets));
                        }
                        // Every route of the pair leads to the same state.
                        shifted.fill(NONE);
                        for o in &self.steps[i].options {
                            let gain = tickets + o.points;
                            for c in o.length..=self.max_cars {
                                if values[c - o.length] != NONE {
                                    shifted[c] = shifted[c].max(values[c - o.length] + gain);
                                }
                            }
                        }
                        merge(take, &shifted);
                    }
                }
                if linking {
                    successors.push((skip_key, take_key));
                }
            }
            let mut states: Vec<(Key, Values)> = next
                .into_iter()
                .filter_map(|(key, mut values)| {
                    self.prune(i + 1, &key, &mut values)
                        .then_some((key, values))
                })
                .collect();
            if let Some(width) = beam {
                states = self.best_states(states, width);
            }
            if let Some(links) = &mut self.links {
                let position: FxHashMap<&Key, u32> = states
                    .iter()
                    .enumerate()
                    .map(|(x, s)| (&s.0, x as u32))
                    .collect();
                let index = |key: &Key| position.get(key).copied();
                links.push(
                    successors
                        .iter()
                        .map(|(skip, take)| Link {
                            skip: skip.as_ref().and_then(index),
                            take: take.as_ref().and_then(|(k, g)| index(k).map(|x| (x, *g))),
                        })
                        .collect(),
                );
            }
            self.layers.push(std::mem::replace(&mut layer, states));
        }
        self.layers.push(layer);
        self.bytes = stored;
        true
    }

    /// Whether no plan completing every ticket can reach the known score of
    /// any budget, by the bound by tolls with the toll of the least forest
    /// joining all of their ends at once ([`steiner::forest`]): every car
    /// scores at most the rate, plus what the routes above the rate add,
    /// less the tolls of the routes the tickets' network must use. Only for
    /// the few ends the forest is cheap for: on Europe's deal it settles two
    /// whole hands in five and a sixth of the triples before a step is
    /// decided. (The same forest in cars, against the budget, settled next
    /// to none there and cost more than it saved.)
    fn hopeless(&self) -> bool {
        let Some(rated) = &self.tables.rated else {
            return false;
        };
        let pairs: Vec<(usize, usize)> = self
            .tickets
            .iter()
            .map(|t| (t.0 as usize, t.1 as usize))
            .collect();
        let n = self.first.len();
        let Some(toll) = steiner::forest(&rated.toll.dist[0], n, FAR, &pairs) else {
            return false;
        };
        let points: i32 = self.tickets.iter().map(|t| t.2 as i32).sum();
        self.wanted.iter().all(|&budget| {
            let rated = (RATE * budget as i32 + rated.spare[0]).saturating_sub(toll as i32);
            let most = points + rated.div_euclid(4).min(self.tables.knap[0][budget] as i32);
            most < self.lower[budget] as i32
        })
    }

    /// The union, over car counts c, of the `width` states with the highest
    /// score for c cars (ties broken by the states' order, which repeats
    /// run after run).
    fn best_states(&self, mut states: Vec<(Key, Values)>, width: usize) -> Vec<(Key, Values)> {
        if states.len() <= width || width == 0 {
            return states;
        }
        let mut keep = vec![false; states.len()];
        // (score, earlier first) packed in one integer: selecting on plain
        // integers is several times faster than comparing through the keys.
        let mut ranked: Vec<u64> = Vec::with_capacity(states.len());
        for c in 0..=self.max_cars {
            ranked.clear();
            ranked.extend(
                states
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.1[c] != NONE)
                    .map(|(i, s)| (u64::from(s.1[c] as u16) << 32) | u64::from(!(i as u32))),
            );
            if ranked.len() > width {
                ranked.select_nth_unstable_by(width - 1, |a, b| b.cmp(a));
                ranked.truncate(width);
            }
            for &r in &ranked {
                keep[!(r as u32) as usize] = true;
            }
        }
        let mut i = 0;
        states.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        states
    }

    /// Tables for the optimistic estimate of what the undecided steps can
    /// add: built, or those of the thread's last run if it had the same
    /// steps, car limit and bounds (the deal's tens of thousands of runs,
    /// one per keep, all run over the whole board: a tenth of their time).
    fn bounds(&mut self) {
        // The bound by tolls pays where a few tickets are in play (a keep of
        // the deal, a player's hand: the USA deal 15.3 -> 14.3 s on top of
        // the keeps that must complete every ticket); with the whole deck it
        // costs more than it prunes (the USA sweep 5.6 -> 6.4 s).
        let tolled = self.complete || self.tickets.len() <= TOLLED_TICKETS;
        let mut signature = vec![self.first.len(), self.max_cars, tolled as usize];
        for s in &self.steps {
            signature.extend([s.a as usize, s.b as usize, s.options.len()]);
            for o in &s.options {
                // Points as stored (an i16), kept apart from lengths.
                signature.extend([o.length, o.points as u16 as usize]);
            }
        }
        type Last = Option<(Vec<usize>, Arc<Tables>)>;
        thread_local! {
            static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new(None) };
        }
        self.tables = LAST.with(|last| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some((known, tables)) if *known == signature => tables.clone(),
                _ => {
                    let tables = Arc::new(self.build_tables(tolled));
                    *last = Some((signature, tables.clone()));
                    tables
                }
            }
        });
        let tables = &self.tables;
        self.measures = self
            .groups
            .iter()
            .map(|group| {
                (group.from.len() + group.to.len() > 2).then(|| {
                    let measure = |paths: &Paths| Measures::new(paths, &self.first, group);
                    (
                        measure(&tables.cars),
                        tables.rated.as_ref().map(|rated| measure(&rated.toll)),
                    )
                })
            })
            .collect();
    }

    /// Builds the tables of [`Frontier::bounds`].
    fn build_tables(&self, tolled: bool) -> Tables {
        let (m, cap) = (self.steps.len(), self.max_cars);
        let mut knap = vec![vec![0; cap + 1]; m + 1];
        for i in (0..m).rev() {
            let s = &self.steps[i];
            let later = &knap[i + 1];
            knap[i] = (0..=cap)
                .map(|r| {
                    s.options
                        .iter()
                        .filter_map(|o| Some(later[r.checked_sub(o.length)?] + o.points))
                        .fold(later[r], i16::max)
                })
                .collect();
        }
        let cars: Vec<u16> = self
            .steps
            .iter()
            .map(|s| s.shortest().min(FAR as usize) as u16)
            .collect();
        let rated = tolled.then(|| {
            // Quarter points above (or below) the rate a route scores.
            let net = |o: &Choice| 4 * o.points as i32 - RATE * o.length as i32;
            let best = |s: &Step| s.options.iter().map(net).max().unwrap_or(0);
            let toll: Vec<u16> = self
                .steps
                .iter()
                .map(|s| (-best(s)).clamp(0, FAR as i32) as u16)
                .collect();
            let mut spare = vec![0; m + 1];
            for i in (0..m).rev() {
                spare[i] = spare[i + 1] + best(&self.steps[i]).max(0);
            }
            Rated {
                toll: self.paths(&toll),
                spare,
            }
        });
        Tables {
            knap,
            cars: self.paths(&cars),
            rated,
        }
    }

    /// Shortest paths over the undecided steps of each layer, step `i`
    /// costing `length[i]`.
    fn paths(&self, length: &[u16]) -> Paths {
        let (m, n) = (self.steps.len(), self.first.len());
        // dist: all-pairs shortest paths over steps i.., built from the end
        // by adding one route at a time (a new shortest path uses it once).
        let mut dist = vec![FAR; n * n];
        for v in 0..n {
            dist[v * n + v] = 0;
        }
        let mut paths = Paths {
            dist: vec![Vec::new(); m + 1],
            hub: vec![Vec::new(); m + 1],
            exit: vec![Vec::new(); m + 1],
        };
        for i in (0..=m).rev() {
            if i < m {
                let s = &self.steps[i];
                let (a, b, l) = (s.a as usize, s.b as usize, length[i]);
                // A path through the route reads rows a and b as they were
                // before it (distances are symmetric): copied first, every
                // row updates in place, with no copy of the whole table.
                let to_a: Vec<u16> = dist[a * n..a * n + n].iter().map(|&d| d + l).collect();
                let to_b: Vec<u16> = dist[b * n..b * n + n].iter().map(|&d| d + l).collect();
                let (from_a, from_b) = (
                    dist[a * n..a * n + n].to_vec(),
                    dist[b * n..b * n + n].to_vec(),
                );
                for u in 0..n {
                    let row = &mut dist[u * n..u * n + n];
                    let (ua, ub) = (to_a[u], to_b[u]);
                    for v in 0..n {
                        row[v] = row[v].min(ua + from_b[v]).min(ub + from_a[v]);
                    }
                }
            }
            let frontier: Vec<usize> = (0..n)
                .filter(|&c| self.first[c] < i && self.last[c] >= i && self.last[c] != usize::MAX)
                .collect();
            paths.hub[i] = (0..n)
                .map(|v| {
                    frontier
                        .iter()
                        .map(|&f| dist[f * n + v])
                        .min()
                        .unwrap_or(FAR)
                })
                .collect();
            paths.exit[i] = (0..n)
                .map(|f| {
                    frontier
                        .iter()
                        .filter(|&&g| g != f)
                        .map(|&g| dist[f * n + g])
                        .min()
                        .unwrap_or(FAR)
                })
                .collect();
            paths.dist[i] = dist.clone();
        }
        paths
    }

    /// Drops the entries of a state (after `done` steps) that cannot reach the
    /// known score of any budget, even if every open ticket whose ends are
    /// close enough were completed and every remaining car scored the most
    /// route points possible, or (with few tickets) every car scored the
    /// rate of a [`Rated`] bound, less the tolls of the connections.
    /// Returns whether anything is left.
    fn prune(&self, done: usize, key: &[(u8, u8)], values: &mut Values) -> bool {
        if !self.complete && self.lower.iter().all(|&l| l == 0) {
            return true;
        }
        let (key, levels) = self.split(key);
        let (comps, trips) = self.open_trips(done, key, levels);
        let measure = |gaps: &Gaps, open: &Open, toll: bool| match open {
            Open::Trip(x, y) => gaps.gap(*x, *y),
            Open::Group(g, xs, ys) => {
                let (cars, tolls) = self.measures[*g].as_ref().expect("a group's measures");
                let m = if toll {
                    tolls.as_ref().expect("measured in tolls")
                } else {
                    cars
                };
                gaps.block(m, xs, ys)
            }
        };
        let cars = self.gaps(&self.tables.cars, done, &comps);
        let open: SmallVec<[(usize, i16, usize); 32]> = trips
            .iter()
            .map(|(k, o)| {
                let need = measure(&cars, o, false);
                (need as usize, self.adds(levels, *k), *k)
            })
            .collect();
        // Every route scores RATE, plus what the best route of each pair
        // left scores above it (`spare`), less the tolls of the routes below
        // it that connect the trips completed: at least the largest toll
        // among them. In quarter points, for r cars: RATE * r + by_rate.
        let mut by_rate = None;
        if let Some(rated) = &self.tables.rated {
            let toll = self.gaps(&rated.toll, done, &comps);
            let tolls: SmallVec<[i32; 32]> = trips
                .iter()
                .map(|(_, o)| measure(&toll, o, true) as i32)
                .collect();
            let best = if self.complete {
                4 * open.iter().map(|o| o.1 as i32).sum::<i32>()
                    - tolls.iter().copied().max().unwrap_or(0)
            } else {
                // The best set of trips to complete: those whose toll is at
                // most some trip's, less that toll (or none at all).
                let mut by_toll: SmallVec<[(i32, i32); 32]> = tolls
                    .iter()
                    .zip(&open)
                    .map(|(&t, o)| (t, 4 * o.1.max(0) as i32))
                    .collect();
                by_toll.sort_unstable();
                let (mut best, mut sum) = (0, 0);
                for (x, &(t, d)) in by_toll.iter().enumerate() {
                    sum += d;
                    if by_toll.get(x + 1).is_none_or(|next| next.0 > t) {
                        best = best.max(sum - t);
                    }
                }
                best
            };
            by_rate = Some(best + rated.spare[done]);
        }
        let reach = self.reach(done, open, by_rate);
        let mut any = false;
        // `wanted` is ascending: the budgets of car count c start at `from`.
        let mut from = 0;
        for (c, value) in values.iter_mut().enumerate() {
            if *value == NONE {
                continue;
            }
            while from < self.wanted.len() && self.wanted[from] < c {
                from += 1;
            }
            let useful = self.wanted[from..]
                .iter()
                .any(|&budget| *value + reach[budget - c] >= self.lower[budget]);
            if useful {
                any = true;
            } else {
                *value = NONE;
            }
        }
        any
    }

    /// The frontier cities of each component of a state (after `done`
    /// steps; `key` its cities and their components, `levels` its tickets'
    /// levels), and its open trips and groups of trips (a trip of each,
    /// where its ends stand): what [`Frontier::prune`] bounds.
    fn open_trips(
        &self,
        done: usize,
        key: Entries<'_>,
        levels: Entries<'_>,
    ) -> (Comps, SmallVec<[(usize, Open); 32]>) {
        // Frontier cities of each component; ghosts cannot get new routes.
        // (Inline vectors: this runs for every state of every layer.)
        let mut comps: Comps = SmallVec::new();
        for &(c, l) in key {
            if self.last[c as usize] >= done {
                match comps.iter_mut().find(|(m, _)| *m == l) {
                    Some((_, members)) => members.push(c as usize),
                    None => comps.push((l, smallvec::smallvec![c as usize])),
                }
            }
        }
        // Open trips and groups of trips (a trip of each, where its ends
        // stand), then (cars any of its connections needs at least, points
        // it adds, the trip).
        let mut label = [u8::MAX; 256];
        for &(c, l) in key {
            label[c as usize] = l;
        }
        let mut trips: SmallVec<[(usize, Open); 32]> = SmallVec::new();
        for (g, group) in self.groups.iter().enumerate() {
            let k = group.trip;
            if self.measures[g].is_none() {
                let end = |c: u8| self.end(done, &label, c);
                if let (Some(x), Some(y)) = (end(group.from[0]), end(group.to[0])) {
                    if x != y {
                        trips.push((k, Open::Trip(x, y)));
                    }
                }
                continue;
            }
            if self.adds(levels, k) == 0 {
                // Its ticket scores as much already: nothing to add.
                continue;
            }
            // The components holding cities of each side (those ahead are
            // in the measures).
            let inside = |cities: &[u8]| -> SmallVec<[u8; 4]> {
                let mut labels: SmallVec<[u8; 4]> = cities
                    .iter()
                    .map(|&c| label[c as usize])
                    .filter(|&l| l != u8::MAX)
                    .collect();
                labels.sort_unstable();
                labels.dedup();
                labels
            };
            trips.push((k, Open::Group(g, inside(&group.from), inside(&group.to))));
        }
        (comps, trips)
    }

    /// `reach[r]`: the most the rest of a plan (after `done` steps) can add
    /// with r cars, from its `open` trips (cars each needs at least, points
    /// it adds, the trip) and the rated bound `by_rate` where there is one.
    fn reach(
        &self,
        done: usize,
        mut open: SmallVec<[(usize, i16, usize); 32]>,
        by_rate: Option<i32>,
    ) -> SmallVec<[i16; 64]> {
        // gain[r]: the points the open trips needing at most r cars add,
        // built as steps (diff[r]: what is added at r cars) and summed once.
        // Trips of one ticket add at most the best of them: sorted by ticket
        // and need, each adds only what it raises its ticket's best so far.
        let cap = self.max_cars;
        // Where every ticket must be completed, no budget below the need of
        // the farthest open trip is of use, and every open trip adds its
        // points (one trip per ticket, no levels).
        let (fewest, all_open) = if self.complete {
            let fewest = open.iter().map(|o| o.0).max().unwrap_or(0);
            (fewest, open.iter().map(|o| o.1).sum::<i16>())
        } else {
            (0, 0)
        };
        if self.complete {
            open.clear();
        }
        let mut diff: SmallVec<[i16; 64]> = smallvec::smallvec![0i16; cap + 1];
        let mut several: SmallVec<[(u8, usize, i16); 16]> = SmallVec::new();
        for (need, d, k) in open {
            match self.slot[k] {
                None if need <= cap => diff[need] += d,
                None => {}
                Some(j) => several.push((j, need, d)),
            }
        }
        several.sort_unstable();
        let mut ticket = None;
        let mut most = 0;
        for (j, need, d) in several {
            if ticket != Some(j) {
                ticket = Some(j);
                most = 0;
            }
            if d > most {
                if need <= cap {
                    diff[need] += d - most;
                }
                most = d;
            }
        }
        // reach[r]: the most the rest can add with r cars.
        let knap = &self.tables.knap[done];
        let mut reach = diff;
        let mut gain = 0i16;
        for (r, g) in reach.iter_mut().enumerate() {
            gain += *g;
            *g = if r < fewest {
                // Below any total a value can reach (all under 4000).
                -16000
            } else {
                let rated = by_rate.map_or(i32::MAX, |rest| (RATE * r as i32 + rest).div_euclid(4));
                (knap[r] + gain + all_open).min(rated.clamp(-16000, 16000) as i16)
            };
        }
        reach
    }

    /// Where city `c`, an end of an open trip, stands in a state (after
    /// `done` steps, `label[c]` the component of city c in it, `u8::MAX` for
    /// none): `None` if it was left behind (its trips are lost).
    fn end(&self, done: usize, label: &[u8; 256], c: u8) -> Option<End> {
        match label[c as usize] {
            u8::MAX if self.first[c as usize] >= done => Some(End::Ahead(c as usize)),
            u8::MAX => None,
            l => Some(End::In(l)),
        }
    }

    /// The gaps between ends of trips in a state (after `done` steps, its
    /// frontier components `comps`), measured over `paths`.
    fn gaps<'a>(&'a self, paths: &'a Paths, done: usize, comps: &'a Comps) -> Gaps<'a> {
        let exit = &paths.exit[done];
        let min_exit = comps
            .iter()
            .flat_map(|(_, f)| f.iter().map(|&c| exit[c]))
            .min()
            .unwrap_or(FAR);
        Gaps {
            n: self.first.len(),
            dist: &paths.dist[done],
            hub: &paths.hub[done],
            exit,
            comps,
            min_exit,
            done,
        }
    }

    /// The state after deciding step `i` (claiming its route if `take`), and
    /// the ticket points earned by that decision; `None` where the run
    /// wants every ticket completed and the decision loses one.
    fn transition(&self, i: usize, key: &[(u8, u8)], take: bool) -> Option<(Key, i16)> {
        let step = &self.steps[i];
        let (key, levels) = self.split(key);
        let mut levels = Key::from_slice(levels);
        let mut elems = self.introduce(i, key);
        let label = |elems: &Key, c: u8| elems.iter().find(|e| e.0 == c).map(|e| e.1);
        let mut gain = 0;
        if take {
            let (la, lb) = (
                label(&elems, step.a).unwrap(),
                label(&elems, step.b).unwrap(),
            );
            if la != lb {
                let done = self.merged(&elems, la, lb);
                (gain, _, levels) = self.complete(&levels, &done);
                for e in elems.iter_mut() {
                    if e.1 == lb {
                        e.1 = la;
                    }
                }
            }
        }
        // The cities and their components before any is left behind.
        let before = self.complete.then(|| elems.clone());
        // Components with no frontier city left are closed for good.
        let open = |l: u8, elems: &Key| {
            elems
                .iter()
                .any(|&(c, m)| m == l && self.last[c as usize] > i)
        };
        let closed: Vec<u8> = elems
            .iter()
            .map(|e| e.1)
            .filter(|&l| !open(l, &elems))
            .collect();
        elems.retain(|e| !closed.contains(&e.1));
        // Cities left behind stay only as ends of trips that can still add.
        let snapshot = elems.clone();
        elems.retain(|&mut (c, l)| {
            self.last[c as usize] > i
                || self.tickets_at[c as usize].iter().any(|&k| {
                    let (a, b, _, _) = self.tickets[k];
                    let other = if a == c { b } else { a };
                    self.adds(&levels, k) > 0
                        && (self.first[other as usize] > i
                            || label(&snapshot, other).is_some_and(|m| m != l))
                })
        });
        // Of twins left behind in one component, one is enough: the least,
        // or none beside a frontier twin (they complete the same trips).
        if let Some(twin) = &self.twin {
            let kept = elems.clone();
            let behind = |c: u8| self.last[c as usize] <= i;
            elems.retain(|&mut (c, l)| {
                !behind(c)
                    || !kept.iter().any(|&(d, m)| {
                        m == l
                            && d != c
                            && twin[d as usize] == twin[c as usize]
                            && (!behind(d) || d < c)
                    })
            });
        }
        if let Some(before) = before {
            // A ticket end leaving the state takes its ticket with it: it
            // was completed if the other end is in its component, or left
            // earlier (in a kept state, only completed ends leave, which
            // this check holds by induction); otherwise it is lost.
            let lost = before.iter().any(|&(c, l)| {
                !elems.iter().any(|e| e.0 == c)
                    && self.tickets_at[c as usize].iter().any(|&k| {
                        let (a, b, _, _) = self.tickets[k];
                        let other = if a == c { b } else { a };
                        match label(&before, other) {
                            Some(m) => m != l,
                            None => self.first[other as usize] > i,
                        }
                    })
            });
            if lost {
                return None;
            }
        }
        // A level matters while some trip of its ticket can still be
        // completed, whatever its points (forgetting the level would let a
        // lesser trip score again): both its ends still ahead or kept.
        // After the last step none is, so every run ends in one empty state.
        let n = self.first.len();
        let alive = |c: u8| self.first[c as usize] > i || elems.iter().any(|e| e.0 == c);
        levels.retain(|&mut (j, _)| {
            self.tickets
                .iter()
                .enumerate()
                .any(|(k, &(a, b, _, _))| self.slot[k] == Some(j - n as u8) && alive(a) && alive(b))
        });
        let mut key = canonical(elems);
        key.extend(levels);
        Some((key, gain))
    }

    /// `key` plus the ends of step `i`'s route that it reaches for the first
    /// time, each alone in a new component.
    fn introduce(&self, i: usize, key: &[(u8, u8)]) -> Key {
        let step = &self.steps[i];
        let mut elems = Key::from_slice(key);
        let mut label = elems.iter().map(|&(_, l)| l + 1).max().unwrap_or(0);
        for c in [step.a, step.b] {
            if self.first[c as usize] == i {
                elems.push((c, label));
                label += 1;
            }
        }
        elems
    }

    /// The trips (indices into `tickets`) completed by merging components
    /// `la` and `lb`, ascending. (Found from the ends in `la`: scanning every
    /// trip took a seventh of a few-ticket run where a ticket has 60 trips.)
    fn merged(&self, elems: &Key, la: u8, lb: u8) -> Vec<usize> {
        let in_b = |c: u8| elems.iter().any(|&(d, l)| d == c && l == lb);
        let mut done: Vec<usize> = elems
            .iter()
            .filter(|e| e.1 == la)
            .flat_map(|&(c, _)| self.tickets_at[c as usize].iter().copied())
            .filter(|&k| {
                let (a, b, _, _) = self.tickets[k];
                in_b(a) || in_b(b)
            })
            .collect();
        done.sort_unstable();
        done.dedup();
        done
    }

    /// The tables' size, in the bytes [`Goal::memory`] counts.
    pub fn table_bytes(&self) -> usize {
        self.bytes
    }

    /// The largest budget the tables answer.
    pub fn max_cars(&self) -> u32 {
        self.max_cars as u32
    }

    /// The best score with at most `cars` cars (`cars` ≤ the programme's limit).
    pub fn best(&self, cars: u32) -> u32 {
        let last = self.layers.last().expect("at least the initial layer");
        // After the last step every component is closed: one empty state.
        last.iter()
            .map(|(_, v)| v[cars as usize])
            .max()
            .unwrap_or(0)
            .max(0) as u32
    }

    /// An optimal plan for `cars` cars: its routes and the tickets the
    /// programme counts as completed.
    pub fn plan(&self, cars: u32) -> (Vec<RouteId>, Vec<TicketId>) {
        self.plans(&[cars]).pop().expect("one plan per budget")
    }

    /// [`Frontier::plan`] for each of `budgets`, in one backward pass over
    /// the layers: each stored state's successors are found once for all of
    /// them (a sweep's run recovers the plans of its 26 budgets on Europe
    /// in one pass, not 26).
    pub fn plans(&self, budgets: &[u32]) -> Vec<(Vec<RouteId>, Vec<TicketId>)> {
        /// A stored state leading to a walk's: its index in its layer, and
        /// the route claimed on the way with the ticket points that earned
        /// (none where the step was skipped).
        type Predecessor = (usize, Option<(Choice, i16)>);
        /// One plan being traced back: the state it reached, with the cars
        /// and score left to account for.
        struct Walk {
            key: Key,
            cars: usize,
            value: i16,
            routes: Vec<RouteId>,
            tickets: Vec<TicketId>,
        }
        let mut walks: Vec<Walk> = budgets
            .iter()
            .map(|&cars| Walk {
                key: Key::new(),
                cars: cars as usize,
                value: self.best(cars) as i16,
                routes: Vec::new(),
                tickets: Vec::new(),
            })
            .collect();
        for i in (0..self.steps.len()).rev() {
            let step = &self.steps[i];
            // The walks at each state of layer i + 1.
            let mut at: FxHashMap<&Key, Vec<usize>> = FxHashMap::default();
            for (w, walk) in walks.iter().enumerate() {
                at.entry(&walk.key).or_default().push(w);
            }
            // Per walk, its predecessor: the first stored state (in layer
            // order) that leads to it with its cars and score, by skipping
            // the step, else by the first of its routes that does.
            let mut found: Vec<Option<Predecessor>> = vec![None; walks.len()];
            let mut left = walks.len();
            for (s, (k, v)) in self.layers[i].iter().enumerate() {
                if left == 0 {
                    break;
                }
                if let Some(ws) = self.transition(i, k, false).and_then(|(n, _)| at.get(&n)) {
                    for &w in ws {
                        if found[w].is_none() && v[walks[w].cars] == walks[w].value {
                            found[w] = Some((s, None));
                            left -= 1;
                        }
                    }
                }
                // Claiming the route: worth a successor only where some
                // walk could still afford one of the step's routes.
                let affordable = |w: usize| {
                    step.options
                        .iter()
                        .any(|o| o.length <= walks[w].cars && v[walks[w].cars - o.length] != NONE)
                };
                if !(0..walks.len()).any(|w| found[w].is_none() && affordable(w)) {
                    continue;
                }
                let Some((next, gain)) = self.transition(i, k, true) else {
                    continue;
                };
                let Some(ws) = at.get(&next) else {
                    continue;
                };
                for &w in ws {
                    if found[w].is_some() {
                        continue;
                    }
                    let (cars, value) = (walks[w].cars, walks[w].value);
                    let route = step.options.iter().find(|o| {
                        o.length <= cars
                            && v[cars - o.length] != NONE
                            && v[cars - o.length] + gain + o.points == value
                    });
                    if let Some(&o) = route {
                        found[w] = Some((s, Some((o, gain))));
                        left -= 1;
                    }
                }
            }
            drop(at);
            for (walk, found) in walks.iter_mut().zip(found) {
                let (s, take) = found.expect("every stored state has a predecessor");
                let prev = &self.layers[i][s].0;
                if let Some((o, gain)) = take {
                    walk.tickets.extend(self.completed_by(i, prev));
                    walk.routes.push(o.route);
                    walk.value -= gain + o.points;
                    walk.cars -= o.length;
                }
                walk.key = prev.clone();
            }
        }
        walks
            .into_iter()
            .map(|walk| {
                let mut routes = walk.routes;
                routes.sort();
                (routes, self.best_trips(&walk.tickets))
            })
            .collect()
    }

    /// Which of `tickets`, completed along a plan, the plan scores: of a
    /// ticket with several trips (raised more than once), its best trip.
    fn best_trips(&self, tickets: &[TicketId]) -> Vec<TicketId> {
        let mut best: Vec<TicketId> = Vec::new();
        for (k, &(_, _, d, id)) in self.tickets.iter().enumerate() {
            if !tickets.contains(&id) {
                continue;
            }
            let rival = self.slot[k].and_then(|j| {
                self.tickets.iter().enumerate().find(|&(o, t)| {
                    self.slot[o] == Some(j) && tickets.contains(&t.3) && (t.2, o) > (d, k)
                })
            });
            if rival.is_none() {
                best.push(id);
            }
        }
        best.sort();
        best
    }

    /// Steps (decided city pairs) in the programme.
    pub(crate) fn steps_len(&self) -> usize {
        self.steps.len()
    }

    /// The routes step `i` may claim, with their length and points.
    pub(crate) fn options(&self, i: usize) -> &[Choice] {
        &self.steps[i].options
    }

    /// States after `i` steps.
    pub(crate) fn layer_len(&self, i: usize) -> usize {
        self.layers[i].len()
    }

    /// Best scores per car count of state `s` after `i` steps (`-1`: none).
    pub(crate) fn values(&self, i: usize, s: usize) -> &[i16] {
        &self.layers[i][s].1
    }

    /// Where state `s` after `i` steps leads (a run with links only).
    pub(crate) fn link(&self, i: usize, s: usize) -> Link {
        self.links.as_ref().expect("a linked run")[i][s]
    }

    /// Trips that make their ticket score for the first time when step `i`'s
    /// route is claimed from state `s` of layer `i` (one per ticket and plan).
    pub(crate) fn first_scoring_from(&self, i: usize, s: usize) -> Vec<TicketId> {
        let key = &self.layers[i][s].0;
        let (_, levels) = self.split(key);
        let n = self.first.len();
        self.completed_by(i, key)
            .into_iter()
            .filter(|&id| {
                let k = self
                    .tickets
                    .iter()
                    .position(|t| t.3 == id)
                    .expect("a trip in play");
                self.slot[k].is_none_or(|j| !levels.iter().any(|e| e.0 as usize == n + j as usize))
            })
            .collect()
    }

    /// Trips completed by claiming step `i`'s route from state `key` that
    /// raise their ticket's score (of a ticket with several trips, the best).
    fn completed_by(&self, i: usize, key: &[(u8, u8)]) -> Vec<TicketId> {
        let step = &self.steps[i];
        let (key, levels) = self.split(key);
        let elems = self.introduce(i, key);
        let label = |c: u8| elems.iter().find(|e| e.0 == c).map(|e| e.1).unwrap();
        let (la, lb) = (label(step.a), label(step.b));
        if la == lb {
            return Vec::new();
        }
        let done = self.merged(&elems, la, lb);
        let (_, raised, _) = self.complete(levels, &done);
        raised.into_iter().map(|k| self.tickets[k].3).collect()
    }
}

/// Sorts by city and renumbers labels in order of first appearance.
fn canonical(mut elems: Key) -> Key {
    elems.sort_unstable();
    let mut map = [u8::MAX; 256];
    let mut next = 0;
    for e in elems.iter_mut() {
        if map[e.1 as usize] == u8::MAX {
            map[e.1 as usize] = next;
            next += 1;
        }
        e.1 = map[e.1 as usize];
    }
    elems
}

/// [`sweep_order`], remembered for the last graph each thread asked about:
/// a solve runs the programme twice on one graph (the beam for its start,
/// then the exact run), and the deal's thousands of solves all use the whole
/// board. The order depends on the graph alone, so this changes no answer.
fn remembered_sweep_order(board: &Board, routes: &[RouteId]) -> Vec<usize> {
    type Last = Option<(usize, Vec<(usize, usize)>, Vec<usize>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new(None) };
    }
    let n = board.cities.len();
    let graph: Vec<(usize, usize)> = routes
        .iter()
        .map(|&r| (board.route(r).a.0, board.route(r).b.0))
        .collect();
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((cities, edges, order)) if *cities == n && *edges == graph => order.clone(),
            _ => {
                let order = sweep_order(board, routes);
                *last = Some((n, graph, order.clone()));
                order
            }
        }
    })
}

/// A city order that keeps the frontier small: greedily add the city that
/// leaves the fewest placed cities with unplaced neighbours, from every
/// possible start, and keep the order with the smallest frontiers.
fn sweep_order(board: &Board, routes: &[RouteId]) -> Vec<usize> {
    let n = board.cities.len();
    let mut adjacent = vec![Vec::new(); n];
    for &r in routes {
        let route = board.route(r);
        adjacent[route.a.0].push(route.b.0);
        adjacent[route.b.0].push(route.a.0);
    }
    let mut best: Option<((usize, usize), Vec<usize>)> = None;
    for start in 0..n {
        let mut placed = vec![false; n];
        // Per city: its adjacency entries (one per route) to unplaced cities.
        let mut unplaced: Vec<usize> = adjacent.iter().map(Vec::len).collect();
        let place = |v: usize, placed: &mut Vec<bool>, unplaced: &mut Vec<usize>| {
            placed[v] = true;
            for &d in &adjacent[v] {
                unplaced[d] -= 1;
            }
        };
        place(start, &mut placed, &mut unplaced);
        let mut sequence = vec![start];
        let (mut widest, mut total) = (0, 0);
        while sequence.len() < n {
            // Placed cities with unplaced neighbours: the frontier now.
            let now = (0..n).filter(|&c| placed[c] && unplaced[c] > 0).count();
            // The frontier once v is placed too: the placed cities whose
            // only unplaced neighbour is v leave it, v joins it if it has
            // other unplaced neighbours. (Routes to v: entries in both lists.)
            let frontier_if = |v: usize| {
                let to = |c: usize| adjacent[v].iter().filter(|&&d| d == c).count();
                let leaving = adjacent[v]
                    .iter()
                    .enumerate()
                    .filter(|&(i, &c)| {
                        placed[c] && !adjacent[v][..i].contains(&c) && unplaced[c] == to(c)
                    })
                    .count();
                now - leaving + usize::from(unplaced[v] > to(v))
            };
            let v = (0..n)
                .filter(|&v| !placed[v])
                .min_by_key(|&v| {
                    let linked = adjacent[v].iter().filter(|&&d| placed[d]).count();
                    (frontier_if(v), std::cmp::Reverse(linked), v)
                })
                .expect("an unplaced city remains");
            let width = frontier_if(v);
            place(v, &mut placed, &mut unplaced);
            sequence.push(v);
            widest = widest.max(width);
            total += width;
        }
        if best
            .as_ref()
            .is_none_or(|(score, _)| (widest, total) < *score)
        {
            best = Some(((widest, total), sequence));
        }
    }
    let mut position = vec![0; n];
    if let Some((_, sequence)) = best {
        for (i, c) in sequence.into_iter().enumerate() {
            position[c] = i;
        }
    }
    position
}

/// Per city, the least city it is a *twin* of (itself if none), or `None`
/// where no two cities are twins: u and v are twins when swapping them maps
/// every trip in play to a trip in play of the same ticket worth the same
/// points. Twins in one component complete the same trips, ticket for
/// ticket, whichever component they meet, so one of them stands for all.
/// The Swiss map's tickets between countries have them: "France –
/// {Allemagne, Autriche, Italie}" joins any of France's 4 border cities to
/// any of the others' 13, and a network touching France twice kept both in
/// its states.
/// (Swapping two cities twice is no swap, and a swap of u and w follows from
/// those of u and v and of v and w, so twins fall into classes.)
fn twins(board: &Board, n: usize, tickets: &[(u8, u8, i16, TicketId)]) -> Option<Vec<u8>> {
    let trip =
        |a: u8, b: u8, points: i16, t: TicketId| (a.min(b), a.max(b), points, board.ticket(t).card);
    let trips: rustc_hash::FxHashSet<_> = tickets
        .iter()
        .map(|&(a, b, points, t)| trip(a, b, points, t))
        .collect();
    let mut ends: Vec<u8> = tickets.iter().flat_map(|&(a, b, _, _)| [a, b]).collect();
    ends.sort_unstable();
    ends.dedup();
    let mut twin: Vec<u8> = (0..n as u8).collect();
    let mut any = false;
    for (x, &u) in ends.iter().enumerate() {
        for &v in &ends[x + 1..] {
            if twin[v as usize] != v {
                continue;
            }
            let swap = |c: u8| {
                if c == u {
                    v
                } else if c == v {
                    u
                } else {
                    c
                }
            };
            // (Two cities whose only trips join them are twins of no use:
            // in one component their trips are complete.)
            let elsewhere = tickets
                .iter()
                .any(|&(a, b, _, _)| (a == u && b != v) || (b == u && a != v));
            let same = elsewhere
                && tickets
                    .iter()
                    .all(|&(a, b, points, t)| trips.contains(&trip(swap(a), swap(b), points, t)));
            if same {
                twin[v as usize] = twin[u as usize];
                any = true;
            }
        }
    }
    any.then_some(twin)
}

/// The trips in play as [`Group`]s: those of one ticket worth the same
/// points together where they join every city of one set to every city of
/// another, every other trip alone.
fn groups(tickets: &[(u8, u8, i16, TicketId)], slot: &[Option<u8>]) -> Vec<Group> {
    let alone = |k: usize| Group {
        from: smallvec::smallvec![tickets[k].0],
        to: smallvec::smallvec![tickets[k].1],
        trip: k,
    };
    let mut groups = Vec::new();
    let mut buckets: FxIndexMap<(u8, i16), Vec<usize>> = FxIndexMap::default();
    for (k, &(_, _, points, _)) in tickets.iter().enumerate() {
        match slot[k] {
            None => groups.push(alone(k)),
            Some(j) => buckets.entry((j, points)).or_default().push(k),
        }
    }
    for trips in buckets.into_values() {
        let (a0, b0, _, _) = tickets[trips[0]];
        let joined = |c: u8| -> SmallVec<[u8; 8]> {
            let mut others: SmallVec<[u8; 8]> = trips
                .iter()
                .filter_map(|&k| match tickets[k] {
                    (a, b, _, _) if a == c => Some(b),
                    (a, b, _, _) if b == c => Some(a),
                    _ => None,
                })
                .collect();
            others.sort_unstable();
            others.dedup();
            others
        };
        let (from, to) = (joined(b0), joined(a0));
        let mut pairs: Vec<(u8, u8)> = trips
            .iter()
            .map(|&k| {
                (
                    tickets[k].0.min(tickets[k].1),
                    tickets[k].0.max(tickets[k].1),
                )
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        // (A bound over a pair that is no trip would still hold, only less
        // tightly; but only exact products are grouped.)
        let product = from.len() * to.len() == pairs.len()
            && !from.iter().any(|c| to.contains(c))
            && trips.iter().all(|&k| {
                let (a, b, _, _) = tickets[k];
                (from.contains(&a) && to.contains(&b)) || (from.contains(&b) && to.contains(&a))
            });
        if product {
            groups.push(Group {
                from,
                to,
                trip: trips[0],
            });
        } else {
            groups.extend(trips.into_iter().map(alone));
        }
    }
    groups
}

/// Per trip: the slot of its ticket among the tickets with several trips in
/// `tickets` (numbered in order of first trip), or `None`.
fn slots(board: &Board, tickets: impl Iterator<Item = TicketId> + Clone) -> Vec<Option<u8>> {
    let mut count: FxHashMap<usize, usize> = FxHashMap::default();
    for t in tickets.clone() {
        *count.entry(board.ticket(t).card).or_default() += 1;
    }
    let mut number: FxHashMap<usize, u8> = FxHashMap::default();
    tickets
        .map(|t| {
            let card = board.ticket(t).card;
            (count[&card] > 1).then(|| {
                let next = number.len() as u8;
                *number.entry(card).or_insert(next)
            })
        })
        .collect()
}

/// The most the tickets can score: each ticket's best trip.
fn best_per_card(board: &Board, tickets: &[TicketId]) -> u64 {
    let mut best: FxHashMap<usize, u64> = FxHashMap::default();
    for &t in tickets {
        let ticket = board.ticket(t);
        let b = best.entry(ticket.card).or_default();
        *b = (*b).max(ticket.points as u64);
    }
    best.values().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SHIPPED;

    fn shipped(name: &str) -> Board {
        let text = SHIPPED.iter().find(|s| s.0 == name).expect("shipped").1;
        Board::from_json(text, name).expect("a valid board")
    }

    /// The twins of a board's whole deck, by city name: the least of each
    /// class, then the others.
    fn classes(board: &Board) -> Vec<Vec<String>> {
        let routes: Vec<RouteId> = board.route_ids().collect();
        let tickets: Vec<TicketId> = board.ticket_ids().collect();
        let dp = Frontier::new(board, &routes, &tickets, &Goal::all(1));
        let Some(twin) = dp.twin else {
            return Vec::new();
        };
        let mut classes: Vec<Vec<String>> = Vec::new();
        for (c, &t) in twin.iter().enumerate() {
            if t as usize != c {
                let rep = &board.cities[t as usize].name;
                match classes.iter_mut().find(|k| &k[0] == rep) {
                    Some(k) => k.push(board.cities[c].name.clone()),
                    None => classes.push(vec![rep.clone(), board.cities[c].name.clone()]),
                }
            }
        }
        classes
    }

    #[test]
    fn the_swiss_countries_border_cities_are_twins_and_no_other_cities() {
        let mut found = classes(&shipped("switzerland"));
        found.sort();
        let country = |name: &str, n: usize| -> Vec<String> {
            (1..=n).map(|i| format!("{name} {i}")).collect()
        };
        let mut expected = vec![
            country("Allemagne", 5),
            country("Autriche", 3),
            country("France", 4),
            country("Italie", 5),
        ];
        expected.sort();
        assert_eq!(found, expected);
    }

    /// The groups of a board's whole deck: (card, points, from, to) by city
    /// name, after checking that their products are exactly its trips.
    fn group_names(board: &Board) -> Vec<(usize, i16, Vec<String>, Vec<String>)> {
        let routes: Vec<RouteId> = board.route_ids().collect();
        let tickets: Vec<TicketId> = board.ticket_ids().collect();
        let dp = Frontier::new(board, &routes, &tickets, &Goal::all(1));
        let trip = |a: u8, b: u8, points: i16, t: TicketId| {
            (a.min(b), a.max(b), points, board.ticket(t).card)
        };
        let mut trips: Vec<_> = dp
            .tickets
            .iter()
            .map(|&(a, b, p, t)| trip(a, b, p, t))
            .collect();
        let mut covered: Vec<_> = dp
            .groups
            .iter()
            .flat_map(|g| {
                let (_, _, points, t) = dp.tickets[g.trip];
                g.from
                    .iter()
                    .flat_map(move |&a| g.to.iter().map(move |&b| trip(a, b, points, t)))
            })
            .collect();
        trips.sort_unstable();
        covered.sort_unstable();
        assert_eq!(
            covered, trips,
            "the groups' products are the trips, each once"
        );
        let name = |c: &u8| board.cities[*c as usize].name.clone();
        dp.groups
            .iter()
            .map(|g| {
                let (_, _, points, t) = dp.tickets[g.trip];
                let (from, to) = (
                    g.from.iter().map(name).collect(),
                    g.to.iter().map(name).collect(),
                );
                (board.ticket(t).card, points, from, to)
            })
            .collect()
    }

    #[test]
    fn a_ticket_to_countries_is_one_group_a_country() {
        let board = shipped("switzerland");
        let groups = group_names(&board);
        let mut berne: Vec<_> = groups
            .iter()
            .filter(|g| g.2 == ["Berne"] || g.3 == ["Berne"])
            .filter(|g| g.2.len() + g.3.len() > 2)
            .map(|g| {
                let others = if g.2 == ["Berne"] { &g.3 } else { &g.2 };
                (others.len(), others[0].clone(), g.1)
            })
            .collect();
        berne.sort();
        assert_eq!(
            berne,
            [
                (3, "Autriche 1".to_string(), 11),
                (4, "France 1".to_string(), 5),
                (5, "Allemagne 1".to_string(), 6),
                (5, "Italie 1".to_string(), 8)
            ]
        );
        // Fewer groups than trips: the country tickets' trips are grouped;
        // on a board of one-trip tickets every trip stands alone.
        assert!(groups.len() < board.ticket_ids().count());
        let usa = shipped("usa");
        assert!(group_names(&usa)
            .iter()
            .all(|g| g.2.len() == 1 && g.3.len() == 1));
    }

    #[test]
    fn boards_of_one_trip_tickets_have_no_twins() {
        for name in ["usa", "europe", "usa-mega"] {
            assert_eq!(classes(&shipped(name)), Vec::<Vec<String>>::new(), "{name}");
        }
    }
}
