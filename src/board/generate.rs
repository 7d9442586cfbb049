//! Seeded random boards that look like published maps: the test bed for
//! "any board", so that the solver is measured on boards it was not tuned
//! on.
//!
//! A board has 35–60 cities scattered over a map (no two too close), routes
//! between near neighbours that never cross (the shortest non-crossing pairs
//! first, as a printed map's rails do), 70–110 city pairs, lengths 1–8 in
//! proportion to the distance (times a bend of 0.85–1.5), about one pair in six doubled, and the
//! standard rule card. Its deck has 30–70 tickets valued like real decks: the
//! cars of the cheapest connection, give or take a point or two; six long
//! tickets between the farthest cities; and two to four tickets with several
//! trips (one city to any of two or three others, each trip worth its own
//! cars). The same seed gives the same board on every machine (ChaCha8).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

const COLOURS: [&str; 9] = [
    "gray", "red", "orange", "yellow", "green", "blue", "pink", "white", "black",
];

/// The board of `seed`, as board-file JSON (load it with
/// [`crate::board::Board::from_json`], which validates it like any file).
pub fn board_json(seed: u64) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.random_range(35..=60usize);
    let at = place_cities(&mut rng, n);
    let edges = draw_routes(&mut rng, &at);
    let lengths = route_lengths(&mut rng, &at, &edges);

    let cities: Vec<Value> = (0..n)
        .map(|c| json!({ "name": name(c), "x": at[c].0.round(), "y": at[c].1.round() }))
        .collect();
    let mut routes = Vec::new();
    for (e, &(a, b)) in edges.iter().enumerate() {
        let l = lengths[e];
        let colour = COLOURS[rng.random_range(0..COLOURS.len())];
        let tracks = if l <= 5 && rng.random_bool(1.0 / 6.0) {
            vec![colour, COLOURS[rng.random_range(0..COLOURS.len())]]
        } else {
            vec![colour]
        };
        routes.push(json!({ "from": name(a), "to": name(b), "length": l, "tracks": tracks }));
    }

    // Tickets: cars of the cheapest connection, give or take.
    let d = all_pairs(n, &edges, &lengths);
    let mut tickets = one_trip_tickets(&mut rng, &d);
    several_trip_tickets(&mut rng, &d, &mut tickets);

    json!({
        "name": format!("generated-{seed}"),
        "title": format!("Generated board, seed {seed}"),
        "source": "ttr-opt generate: a seeded random board shaped like the published maps",
        "cars": 45,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21 },
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
    })
}

/// City `c`'s name on a generated board.
fn name(c: usize) -> String {
    format!("City {c:02}")
}

/// `n` cities on the map: uniform, at least a gap apart.
fn place_cities(rng: &mut ChaCha8Rng, n: usize) -> Vec<(f64, f64)> {
    let (width, height) = (1400.0, 900.0);

    // Cities: uniform, at least `gap` apart.
    let gap = (width * height / n as f64).sqrt() * 0.45;
    let mut at: Vec<(f64, f64)> = Vec::with_capacity(n);
    while at.len() < n {
        let p = (rng.random_range(0.0..width), rng.random_range(0.0..height));
        if at.iter().all(|q| dist(p, *q) >= gap) {
            at.push(p);
        }
    }
    at
}

/// The city pairs with a route between the cities `at`: the shortest pairs
/// that cross no route already drawn, until there are enough and every
/// city is joined.
fn draw_routes(rng: &mut ChaCha8Rng, at: &[(f64, f64)]) -> Vec<(usize, usize)> {
    let n = at.len();
    // Routes: the shortest pairs that cross no route already drawn.
    let mut pairs: Vec<(f64, usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| (dist(at[a], at[b]), a, b))
        .collect();
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let target = rng.random_range(70..=110usize).min(2 * n + n / 2);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut joined = UnionFind::new(n);
    for &(_, a, b) in &pairs {
        if edges.len() >= target && joined.count == 1 {
            break;
        }
        let crosses = edges
            .iter()
            .any(|&(c, d)| cross(at[a], at[b], at[c], at[d], (a, b, c, d)));
        if !crosses && (edges.len() < target || joined.find(a) != joined.find(b)) {
            edges.push((a, b));
            joined.union(a, b);
        }
    }
    // A planar graph may still leave a city out: join the rest directly.
    for &(_, a, b) in &pairs {
        if joined.count == 1 {
            break;
        }
        if joined.find(a) != joined.find(b) {
            edges.push((a, b));
            joined.union(a, b);
        }
    }
    edges
}

/// Each route's length in cars, 1 to 8: in proportion to the distance,
/// times a bend.
fn route_lengths(rng: &mut ChaCha8Rng, at: &[(f64, f64)], edges: &[(usize, usize)]) -> Vec<u32> {
    let mut lengths_px: Vec<f64> = edges.iter().map(|&(a, b)| dist(at[a], at[b])).collect();
    lengths_px.sort_by(f64::total_cmp);
    // The median pair is 3 cars long, as on the published maps.
    let scale = lengths_px[lengths_px.len() / 2] / 2.6;
    // Rails bend: a route is up to half again as long as the straight line.
    let bends: Vec<f64> = edges.iter().map(|_| rng.random_range(0.85..1.5)).collect();
    let length = |e: usize| {
        let (a, b) = edges[e];
        ((dist(at[a], at[b]) * bends[e] / scale).round() as u32).clamp(1, 8)
    };
    (0..edges.len()).map(length).collect()
}

/// The tickets of one trip, worth the cars of the cheapest connection (by
/// `d`) give or take: six long ones among the farthest pairs, then short
/// ones, no pair twice.
fn one_trip_tickets(rng: &mut ChaCha8Rng, d: &[Vec<u32>]) -> Vec<Value> {
    let n = d.len();
    let mut far: Vec<(u32, usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| (d[a][b], a, b))
        .collect();
    far.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let mut tickets = Vec::new();
    let mut used: Vec<(usize, usize)> = Vec::new();
    // Six long tickets among the farthest pairs, no city twice.
    for &(cars, a, b) in &far {
        if used.len() >= 6 {
            break;
        }
        if used
            .iter()
            .any(|&(x, y)| [x, y].contains(&a) || [x, y].contains(&b))
        {
            continue;
        }
        used.push((a, b));
        let points = cars + rng.random_range(0..=2);
        tickets.push(json!({ "from": name(a), "to": name(b), "points": points }));
    }
    let count = rng.random_range(30..=70usize);
    while tickets.len() < count {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        let cars = d[a][b];
        if a == b || !(4..=16).contains(&cars) || used.contains(&(a.min(b), a.max(b))) {
            continue;
        }
        used.push((a.min(b), a.max(b)));
        let noise: i64 = [-1, 0, 0, 0, 1, 2][rng.random_range(0..6)];
        let points = (cars as i64 + noise).max(1);
        tickets.push(json!({ "from": name(a), "to": name(b), "points": points }));
    }
    tickets
}

/// Adds two to four tickets with several trips to `tickets`: one city to
/// any of two or three others, each trip worth its cars by `d`.
fn several_trip_tickets(rng: &mut ChaCha8Rng, d: &[Vec<u32>], tickets: &mut Vec<Value>) {
    let n = d.len();
    // Tickets with several trips: one city to any of two or three others.
    for t in 0..rng.random_range(2..=4) {
        let from = rng.random_range(0..n);
        let mut trips = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        let want = rng.random_range(2..=3);
        for _ in 0..200 {
            let to = rng.random_range(0..n);
            if to != from && !ends.contains(&to) && (5..=14).contains(&d[from][to]) {
                ends.push(to);
                trips.push(json!({ "from": name(from), "to": name(to), "points": d[from][to] }));
                if trips.len() == want {
                    break;
                }
            }
        }
        if trips.len() >= 2 {
            tickets.push(json!({ "name": format!("Several {t}"), "trips": trips }));
        }
    }
}

fn dist(p: (f64, f64), q: (f64, f64)) -> f64 {
    ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt()
}

/// Whether segments pq and rs cross (sharing an end city is not crossing).
fn cross(
    p: (f64, f64),
    q: (f64, f64),
    r: (f64, f64),
    s: (f64, f64),
    ids: (usize, usize, usize, usize),
) -> bool {
    let (a, b, c, d) = ids;
    if a == c || a == d || b == c || b == d {
        return false;
    }
    let orient = |o: (f64, f64), u: (f64, f64), v: (f64, f64)| {
        (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0)
    };
    let (d1, d2) = (orient(p, q, r), orient(p, q, s));
    let (d3, d4) = (orient(r, s, p), orient(r, s, q));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Cars of a cheapest path between every two cities (Floyd–Warshall).
fn all_pairs(n: usize, edges: &[(usize, usize)], lengths: &[u32]) -> Vec<Vec<u32>> {
    const FAR: u32 = u32::MAX / 4;
    let mut d = vec![vec![FAR; n]; n];
    for (c, row) in d.iter_mut().enumerate() {
        row[c] = 0;
    }
    for (&(a, b), &l) in edges.iter().zip(lengths) {
        d[a][b] = d[a][b].min(l);
        d[b][a] = d[b][a].min(l);
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = d[i][k] + d[k][j];
                if via < d[i][j] {
                    d[i][j] = via;
                }
            }
        }
    }
    d
}

struct UnionFind {
    parent: Vec<usize>,
    count: usize,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
            count: n,
        }
    }

    fn find(&mut self, mut c: usize) -> usize {
        while self.parent[c] != c {
            self.parent[c] = self.parent[self.parent[c]];
            c = self.parent[c];
        }
        c
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb;
            self.count -= 1;
        }
    }
}
