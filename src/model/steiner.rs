//! The least forest joining given pairs of cities over a metric: a lower
//! bound on what any network that completes a few tickets at once pays (in
//! the frontier programme, its tolls). The frontier programme's own bounds look at one ticket
//! at a time (the farthest); a keep of the deal must complete all of its
//! tickets, and their joint network costs more than the farthest alone.
//!
//! Dreyfus–Wagner: the least tree joining each subset of the ends and one
//! more city, built from two halves meeting at that city and then moved
//! along the metric; then the best grouping of the pairs into trees. It
//! costs about 3^k·n + 2^k·n² for k ends and n cities, so it is kept to
//! [`MAX_ENDS`] ends: on Europe a fraction of a millisecond, against a few
//! for a run of the programme.

/// Ends up to which [`forest`] is worth its cost (a keep of four tickets).
pub const MAX_ENDS: usize = 8;

/// Cost standing for "no path": sums of a few stay far inside a `u32`.
const FAR: u32 = u32::MAX / 16;

/// The least total cost of a forest in which each of `pairs` is joined,
/// over `dist`, an all-pairs shortest-path table of `n` cities (row u,
/// column v at `u * n + v`; a value of `unreachable` or more means no
/// path). Pairs whose two ends are one city cost nothing. At least [`FAR`]
/// where some pair cannot be joined. `None` past [`MAX_ENDS`] distinct
/// ends, where it would cost more than it can save.
pub fn forest(dist: &[u16], n: usize, unreachable: u16, pairs: &[(usize, usize)]) -> Option<u32> {
    let pairs: Vec<(usize, usize)> = pairs.iter().copied().filter(|(a, b)| a != b).collect();
    let mut ends: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    ends.sort_unstable();
    ends.dedup();
    let k = ends.len();
    if k > MAX_ENDS {
        return None;
    }
    // The metric in u32, rows contiguous (it is symmetric), so that the
    // loops below compile to vector instructions.
    let metric: Vec<u32> = dist[..n * n]
        .iter()
        .map(|&x| if x >= unreachable { FAR } else { u32::from(x) })
        .collect();
    let d = |u: usize, v: usize| metric[u * n + v];
    // tree[mask * n + v]: the least tree joining the ends in `mask` and v.
    let mut tree = vec![FAR; (1 << k) * n];
    for (t, &e) in ends.iter().enumerate() {
        for v in 0..n {
            tree[(1 << t) * n + v] = d(e, v);
        }
    }
    let mut meet = vec![FAR; n];
    for mask in 1usize..1 << k {
        if mask.count_ones() < 2 {
            continue;
        }
        // Two halves meeting at v; each split once (the half holding the
        // lowest end of the mask).
        meet.fill(FAR);
        let low = mask & mask.wrapping_neg();
        let mut half = (mask - 1) & mask;
        while half > 0 {
            if half & low != 0 {
                let (a, b) = (&tree[half * n..][..n], &tree[(mask ^ half) * n..][..n]);
                for v in 0..n {
                    meet[v] = meet[v].min(a[v] + b[v]);
                }
            }
            half = (half - 1) & mask;
        }
        // Then along a shortest path to v (the metric is closed, so one hop
        // is enough), row by row.
        let row = &mut tree[mask * n..][..n];
        row.fill(FAR);
        for (u, &m) in meet.iter().enumerate() {
            for (t, &x) in row.iter_mut().zip(&metric[u * n..][..n]) {
                *t = (*t).min(m + x);
            }
        }
    }
    // forest[group]: the least forest joining the pairs in `group`, as one
    // tree or as the best split into two forests.
    let ends_of = |group: usize| -> usize {
        let at = |c: usize| 1usize << ends.binary_search(&c).expect("an end");
        (0..pairs.len())
            .filter(|p| group >> p & 1 == 1)
            .map(|p| at(pairs[p].0) | at(pairs[p].1))
            .fold(0, |m, e| m | e)
    };
    let mut forest = vec![FAR; 1 << pairs.len()];
    forest[0] = 0;
    for group in 1usize..1 << pairs.len() {
        let m = ends_of(group);
        let mut best = (0..n).map(|v| tree[m * n + v]).min().unwrap_or(FAR);
        let low = group & group.wrapping_neg();
        let mut part = (group - 1) & group;
        while part > 0 {
            if part & low != 0 {
                best = best.min(forest[part] + forest[group ^ part]);
            }
            part = (part - 1) & group;
        }
        forest[group] = best.min(FAR);
    }
    Some(forest[(1 << pairs.len()) - 1])
}

/// Whether a forest of at most `budget` joins both pairs over `dist` (as
/// in [`forest`]): their two paths apart, or one tree over their four
/// ends. The clique rows of the forest model ([`crate::model::forest`])
/// ask it of every two tickets, so it avoids [`forest`]'s general
/// programme: a tree over four ends has two branch points p and q (equal,
/// or ends themselves, in the degenerate shapes), two ends hung on each,
/// so it is the least d(a,p) + d(b,p) + d(p,q) + d(c,q) + d(e,q) over the
/// three ways to pair the ends and every p and q (3·n² sums).
pub fn joins_within(
    dist: &[u16],
    n: usize,
    unreachable: u16,
    [(s, t), (u, v)]: [(usize, usize); 2],
    budget: u32,
) -> bool {
    let d = |a: usize, b: usize| {
        let x = dist[a * n + b];
        if x >= unreachable {
            FAR
        } else {
            u32::from(x)
        }
    };
    if d(s, t) + d(u, v) <= budget {
        return true;
    }
    // A walk around a tree visits its ends in a tour of twice its cost:
    // half the shortest tour bounds the tree from below.
    let tour = [
        d(s, t) + d(t, u) + d(u, v) + d(v, s),
        d(s, u) + d(u, t) + d(t, v) + d(v, s),
        d(s, t) + d(t, v) + d(v, u) + d(u, s),
    ];
    if tour.into_iter().min().unwrap_or(FAR) > 2 * budget {
        return false;
    }
    [[s, t, u, v], [s, u, t, v], [s, v, t, u]]
        .into_iter()
        .any(|[a, b, c, e]| {
            let near: Vec<u32> = (0..n).map(|q| d(c, q) + d(e, q)).collect();
            (0..n).any(|p| {
                let hang = d(a, p) + d(b, p);
                hang <= budget && (0..n).any(|q| hang + d(p, q) + near[q] <= budget)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Floyd–Warshall over an edge list: the metric `forest` is given.
    fn metric(n: usize, edges: &[(usize, usize, u16)]) -> Vec<u16> {
        let mut d = vec![u16::MAX; n * n];
        for v in 0..n {
            d[v * n + v] = 0;
        }
        for &(a, b, w) in edges {
            d[a * n + b] = d[a * n + b].min(w);
            d[b * n + a] = d[b * n + a].min(w);
        }
        for m in 0..n {
            for u in 0..n {
                for v in 0..n {
                    let via = d[u * n + m].saturating_add(d[m * n + v]);
                    if via < d[u * n + v] {
                        d[u * n + v] = via;
                    }
                }
            }
        }
        d
    }

    /// Every subset of edges that joins every pair, the cheapest.
    fn brute(n: usize, edges: &[(usize, usize, u16)], pairs: &[(usize, usize)]) -> u32 {
        let mut best = FAR;
        for set in 0u32..1 << edges.len() {
            let mut parent: Vec<usize> = (0..n).collect();
            fn find(p: &mut [usize], x: usize) -> usize {
                if p[x] != x {
                    p[x] = find(p, p[x]);
                }
                p[x]
            }
            let mut cost = 0u32;
            for (e, &(a, b, w)) in edges.iter().enumerate() {
                if set >> e & 1 == 1 {
                    cost += u32::from(w);
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    parent[ra] = rb;
                }
            }
            if pairs
                .iter()
                .all(|&(a, b)| find(&mut parent, a) == find(&mut parent, b))
            {
                best = best.min(cost);
            }
        }
        best
    }

    /// 2–7 cities and up to 12 edges (parallel ones too) of 0–8 cars.
    fn random_graph(rng: &mut ChaCha8Rng) -> (usize, Vec<(usize, usize, u16)>) {
        let n = rng.random_range(2..8);
        let edges = (0..rng.random_range(1..13))
            .map(|_| {
                let a = rng.random_range(0..n);
                let b = (a + rng.random_range(1..n)) % n;
                (a, b, rng.random_range(0..9))
            })
            .collect();
        (n, edges)
    }

    #[test]
    fn the_least_forest_matches_exhaustive_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let (n, edges) = random_graph(&mut rng);
            let pairs: Vec<(usize, usize)> = (0..rng.random_range(1..5))
                .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
                .collect();
            let d = metric(n, &edges);
            let got = forest(&d, n, u16::MAX, &pairs).expect("at most 8 ends");
            let want = brute(n, &edges, &pairs);
            assert_eq!(got.min(FAR), want, "{n} cities, {edges:?}, pairs {pairs:?}");
        }
    }

    /// Two pairs joined within a budget, against the cheapest edge subset
    /// joining both, at every budget around it.
    #[test]
    fn two_pairs_join_within_a_budget_as_exhaustive_search_says() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..300 {
            let (n, edges) = random_graph(&mut rng);
            let mut end = || rng.random_range(0..n);
            let pairs = [(end(), end()), (end(), end())];
            let d = metric(n, &edges);
            let least = brute(n, &edges, &pairs);
            for budget in least.saturating_sub(3).min(40)..least.saturating_add(3).min(40) {
                assert_eq!(
                    joins_within(&d, n, u16::MAX, pairs, budget),
                    least <= budget,
                    "{n} cities, {edges:?}, pairs {pairs:?}, budget {budget}"
                );
            }
        }
    }
}
