//! Maximum matching in a general graph (Edmonds' blossoms, O(n³)): the pairing searches ask it
//! whether the players left can still all be paired under a set of constraints, so that a
//! choice made for one board never leaves a later board without a partner it could have had.

/// An undirected graph on `n` vertices, as a dense adjacency matrix.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    n: usize,
    adj: Vec<bool>,
}

impl Graph {
    /// `n` vertices, no edge.
    pub(crate) fn new(n: usize) -> Graph {
        Graph { n, adj: vec![false; n * n] }
    }

    /// Joins `a` and `b`.
    pub(crate) fn add(&mut self, a: usize, b: usize) {
        if a != b {
            self.adj[a * self.n + b] = true;
            self.adj[b * self.n + a] = true;
        }
    }

    /// Whether `a` and `b` are joined.
    pub(crate) fn has(&self, a: usize, b: usize) -> bool {
        self.adj[a * self.n + b]
    }

    /// The size of a maximum matching among the vertices with `alive[v]`.
    pub(crate) fn max_matching_size(&self, alive: &[bool]) -> usize {
        self.max_matching(alive).iter().filter(|m| m.is_some()).count() / 2
    }

    /// A maximum matching among the vertices with `alive[v]`: each vertex's mate.
    pub(crate) fn max_matching(&self, alive: &[bool]) -> Vec<Option<usize>> {
        let n = self.n;
        let mut mate: Vec<Option<usize>> = vec![None; n];
        // A greedy start: most vertices are matched before any search.
        for v in 0..n {
            if !alive[v] || mate[v].is_some() {
                continue;
            }
            if let Some(u) = (v + 1..n).find(|&u| alive[u] && mate[u].is_none() && self.has(v, u)) {
                mate[v] = Some(u);
                mate[u] = Some(v);
            }
        }
        let mut search = Search::new(n);
        for root in 0..n {
            if !alive[root] || mate[root].is_some() {
                continue;
            }
            if let Some(end) = search.augmenting_path(self, alive, &mate, root) {
                // Flip the path's edges from its free end back to the root.
                let mut v = Some(end);
                while let Some(x) = v {
                    let parent = search.parent[x].expect("a vertex on the path has a parent");
                    let next = mate[parent];
                    mate[x] = Some(parent);
                    mate[parent] = Some(x);
                    v = next;
                }
            }
        }
        mate
    }
}

/// The working arrays of one augmenting-path search.
struct Search {
    used: Vec<bool>,
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            used: vec![false; n],
            parent: vec![None; n],
            base: (0..n).collect(),
            blossom: vec![false; n],
            queue: Vec::with_capacity(n),
        }
    }

    /// The lowest common ancestor of `a` and `b` in the alternating tree, as blossom bases.
    fn lca(&self, mate: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.base.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            match mate[a] {
                None => break,
                Some(m) => match self.parent[m] {
                    Some(p) => a = p,
                    None => break,
                },
            }
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            let m = mate[b].expect("a vertex below the root is matched");
            b = self.parent[m].expect("a matched vertex in the tree has a parent");
        }
    }

    fn mark_path(&mut self, mate: &[Option<usize>], mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let m = mate[v].expect("a vertex inside a blossom is matched");
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            v = self.parent[m].expect("a matched vertex in the tree has a parent");
        }
    }

    /// The free end of an augmenting path from `root`, with `parent` leading back to it.
    fn augmenting_path(
        &mut self,
        g: &Graph,
        alive: &[bool],
        mate: &[Option<usize>],
        root: usize,
    ) -> Option<usize> {
        let n = g.n;
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = None);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for to in 0..n {
                if !alive[to] || !g.has(v, to) || self.base[v] == self.base[to] || mate[v] == Some(to) {
                    continue;
                }
                let to_is_outer = to == root || mate[to].is_some_and(|m| self.parent[m].is_some());
                if to_is_outer {
                    let current = self.lca(mate, v, to);
                    self.blossom.iter_mut().for_each(|b| *b = false);
                    self.mark_path(mate, v, current, to);
                    self.mark_path(mate, to, current, v);
                    for (i, &here) in alive.iter().enumerate() {
                        if here && self.blossom[self.base[i]] {
                            self.base[i] = current;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match mate[to] {
                        None => return Some(to),
                        Some(m) => {
                            self.used[m] = true;
                            self.queue.push(m);
                        }
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Graph;

    /// The largest matching by trying everything (small graphs only).
    fn brute(g: &Graph, n: usize, alive: &[bool]) -> usize {
        fn go(g: &Graph, left: &mut Vec<usize>) -> usize {
            let Some(v) = left.pop() else { return 0 };
            let mut best = go(g, left);
            for i in 0..left.len() {
                let u = left[i];
                if g.has(v, u) {
                    left.remove(i);
                    best = best.max(1 + go(g, left));
                    left.insert(i, u);
                }
            }
            left.push(v);
            best
        }
        let mut left: Vec<usize> = (0..n).filter(|&v| alive[v]).collect();
        go(g, &mut left)
    }

    #[test]
    fn the_blossom_matching_is_as_large_as_the_largest() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400 {
            let n = (next() % 11) as usize + 1;
            let density = next() % 100;
            let mut g = Graph::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 100 < density {
                        g.add(a, b);
                    }
                }
            }
            let alive: Vec<bool> = (0..n).map(|_| next() % 5 != 0).collect();
            let mate = g.max_matching(&alive);
            for v in 0..n {
                if let Some(u) = mate[v] {
                    assert!(alive[v] && alive[u] && g.has(v, u) && mate[u] == Some(v));
                }
            }
            assert_eq!(g.max_matching_size(&alive), brute(&g, n, &alive));
        }
    }
}
