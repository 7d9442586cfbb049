//! The board as an undirected `petgraph` graph: one node per city, one edge
//! per route (a double route is one edge: a player may claim only one track).

use petgraph::algo::dijkstra;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;

use crate::board::{Board, CityId, Route, RouteId};

/// The undirected graph of the routes a player may still use.
pub struct BoardGraph {
    /// One node per city (node index = city index), one edge per route,
    /// weighted by its id.
    pub graph: UnGraph<CityId, RouteId>,
}

impl BoardGraph {
    /// The graph of the given routes of `board`.
    pub fn new(board: &Board, routes: impl IntoIterator<Item = RouteId>) -> BoardGraph {
        let mut graph = UnGraph::with_capacity(board.cities.len(), board.routes.len());
        for i in 0..board.cities.len() {
            graph.add_node(CityId(i));
        }
        for id in routes {
            let r = board.route(id);
            graph.add_edge(NodeIndex::new(r.a.0), NodeIndex::new(r.b.0), id);
        }
        BoardGraph { graph }
    }

    /// Train cars on a shortest path from `from` to every city (`None` where
    /// no path exists), with `cost` giving the cars a route takes.
    pub fn distances(&self, from: CityId, cost: impl Fn(RouteId) -> u32) -> Vec<Option<u32>> {
        let dist = dijkstra(&self.graph, NodeIndex::new(from.0), None, |e| {
            cost(*e.weight())
        });
        (0..self.graph.node_count())
            .map(|i| dist.get(&NodeIndex::new(i)).copied())
            .collect()
    }
}

/// Connected-component label of every city, using all `routes`.
pub fn components(cities: usize, routes: &[Route]) -> Vec<usize> {
    let mut uf = UnionFind::new(cities);
    for r in routes {
        uf.union(r.a.0, r.b.0);
    }
    uf.into_labeling()
}
