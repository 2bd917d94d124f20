//! The node pool: a flat arena of fixed-size nodes addressed by `u32` indices, with the
//! children of a node in one contiguous block. Nothing is allocated per node, the pool never
//! grows past its cap, and moving the root down the tree (tree reuse) compacts the kept
//! subtree in place.

use crate::eval;
use crate::search::{Proof, win_probability};
use crate::{Move, Position, Side, Square, Variant};

/// No child block yet.
pub(crate) const NONE: u32 = u32::MAX;
/// `Node::mv` of a pass.
pub(crate) const PASS: u8 = 64;

/// A node's proven value for the side that made the move into it: one byte in the node.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) enum ProofState {
    /// Not proven (yet): the node's value is its playout and evaluation statistics.
    #[default]
    Unknown = 0,
    /// The move into the node wins with best play.
    Win = 1,
    /// The move into the node draws with best play.
    Draw = 2,
    /// The move into the node loses against best play.
    Loss = 3,
}

impl ProofState {
    /// The same value seen by the other side.
    #[inline]
    pub(crate) const fn flipped(self) -> ProofState {
        match self {
            ProofState::Win => ProofState::Loss,
            ProofState::Loss => ProofState::Win,
            other => other,
        }
    }

    /// The proof of a final margin (or a win/draw/loss sign) for the side it belongs to.
    #[inline]
    pub(crate) const fn of_margin(margin: i32) -> ProofState {
        match margin.signum() {
            1 => ProofState::Win,
            0 => ProofState::Draw,
            _ => ProofState::Loss,
        }
    }

    /// Whether the value is proven.
    #[inline]
    pub(crate) const fn is_known(self) -> bool {
        !matches!(self, ProofState::Unknown)
    }

    /// The proven value in the search's public terms (`None` while unknown).
    pub(crate) const fn proven(self) -> Option<Proof> {
        match self {
            ProofState::Unknown => None,
            ProofState::Win => Some(Proof::Win),
            ProofState::Draw => Some(Proof::Draw),
            ProofState::Loss => Some(Proof::Loss),
        }
    }
}

/// One node: 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    /// Discs of the side to move here.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Iterations through this node.
    pub visits: u32,
    /// Sum of scores (1 win, 0.5 draw, 0 loss) for the side that moved into this node.
    pub wins: f32,
    /// Index of the first child, or [`NONE`] until expanded.
    pub first_child: u32,
    /// Children in the block (0 for a terminal or proven node).
    pub n_children: u8,
    /// The move into this node: a square index, or [`PASS`].
    pub mv: u8,
    /// The node's proven value for the side that moved into it.
    pub proof: ProofState,
    /// The move's prior in 0..=255 (255 = surely good), from the heuristic at expansion.
    pub prior: u8,
}

impl Node {
    pub(crate) const fn new(player: u64, opponent: u64, mv: u8, prior: u8) -> Node {
        Node {
            player,
            opponent,
            visits: 0,
            wins: 0.0,
            first_child: NONE,
            n_children: 0,
            mv,
            proof: ProofState::Unknown,
            prior,
        }
    }

    /// The move into this node.
    pub(crate) fn the_move(&self) -> Move {
        match Square::from_index(self.mv) {
            Some(sq) => Move::Play(sq),
            None => Move::Pass,
        }
    }

    /// The children's index range.
    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        if self.first_child == NONE {
            0..0
        } else {
            let f = self.first_child as usize;
            f..f + usize::from(self.n_children)
        }
    }

    /// Whether the node's children exist.
    #[inline]
    pub(crate) fn is_expanded(&self) -> bool {
        self.first_child != NONE
    }
}

/// The tree a [`crate::search::Searcher`] keeps between moves.
#[derive(Debug)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    /// Most nodes the pool may hold.
    pub cap: usize,
    /// The side to move at the root.
    pub root_side: Side,
    pub variant: Variant,
    /// The expansion's prior bytes by evaluation, kept with the pool between searches.
    pub priors: PriorBytes,
}

impl Tree {
    /// A tree holding only `pos`, with room for at most `memory` bytes of nodes.
    pub(crate) fn new(pos: &Position, variant: Variant, memory: usize) -> Tree {
        let cap = Tree::cap_for(memory);
        // Reserved once: the pages are only touched as nodes are added, and the pool never
        // reallocates (a reallocation would copy tens of megabytes in the middle of a move).
        let mut nodes = Vec::with_capacity(cap);
        nodes.push(Node::new(pos.player().0, pos.opponent().0, PASS, 128));
        Tree {
            nodes,
            cap,
            root_side: pos.side_to_move(),
            variant,
            priors: PriorBytes::default(),
        }
    }

    /// The most nodes a pool of `memory` bytes holds (at least one, and fewer than [`NONE`]).
    pub(crate) fn cap_for(memory: usize) -> usize {
        (memory / std::mem::size_of::<Node>()).clamp(1, NONE as usize - 1)
    }

    /// Empties the pool and makes `pos` its only node, keeping the allocation (the pages
    /// earlier searches touched are not faulted in again, and nothing is reserved anew).
    pub(crate) fn reset(&mut self, pos: &Position, variant: Variant) {
        self.nodes.clear();
        self.nodes
            .push(Node::new(pos.player().0, pos.opponent().0, PASS, 128));
        self.root_side = pos.side_to_move();
        self.variant = variant;
    }

    /// Forgets every node, keeping the allocation: nothing can be reused from the tree (see
    /// [`Tree::advance_to`]) until [`Tree::reset`] gives it a root again.
    pub(crate) fn forget(&mut self) {
        self.nodes.clear();
    }

    /// Where the pool's nodes live and how many it has room for: the same pair from one
    /// search to the next means the pool was kept, not reserved again.
    #[cfg(test)]
    pub(crate) fn pool(&self) -> (*const Node, usize) {
        (self.nodes.as_ptr(), self.nodes.capacity())
    }

    /// The root's position.
    pub(crate) fn root_position(&self) -> Position {
        let r = &self.nodes[0];
        Position::from_raw(r.player, r.opponent, self.root_side)
    }

    /// Bytes of nodes in use (never more than the cap).
    pub(crate) fn memory(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
    }

    /// The most nodes the pool may hold: the cap, within the allocation reserved for it.
    pub(crate) fn room(&self) -> usize {
        self.cap.min(self.nodes.capacity())
    }

    /// Whether there is room for `n` more nodes under the cap.
    pub(crate) fn reserve(&mut self, n: usize) -> bool {
        self.nodes.len() + n <= self.room()
    }

    /// Makes the node for `pos` the root, keeping its subtree, if `pos` is within `depth`
    /// plies below the current root (the searcher's move and the opponent's reply, passes
    /// included). Returns whether it was found; if not, the tree is unchanged.
    pub(crate) fn advance_to(&mut self, pos: &Position, variant: Variant, depth: usize) -> bool {
        if variant != self.variant || self.nodes.is_empty() {
            return false;
        }
        let mut level = vec![0usize];
        let mut side = self.root_side;
        for d in 0..=depth {
            if side == pos.side_to_move() {
                let hit = level.iter().copied().find(|&i| {
                    let n = &self.nodes[i];
                    n.player == pos.player().0 && n.opponent == pos.opponent().0
                });
                if let Some(i) = hit {
                    self.reroot(i);
                    self.root_side = side;
                    return true;
                }
            }
            if d == depth {
                break;
            }
            level = level
                .iter()
                .flat_map(|&i| self.nodes[i].children())
                .collect();
            side = side.opposite();
        }
        false
    }

    /// Keeps only the subtree under `r`, compacted to the front of the pool with `r` at 0.
    fn reroot(&mut self, r: usize) {
        if r == 0 {
            return;
        }
        let n = self.nodes.len();
        let mut new_index = vec![NONE; n];
        new_index[r] = 0;
        for i in r..n {
            if new_index[i] != NONE {
                for c in self.nodes[i].children() {
                    new_index[c] = 0;
                }
            }
        }
        self.compact(r, new_index);
    }

    /// Makes room in a full pool: drops the children (and so the subtrees) of every node
    /// below the root visited fewer than `t` times, for the smallest `t` of at least 2 that
    /// keeps at most `keep` nodes, and compacts the rest in place (see [`Tree::compact`]). A
    /// node that loses its children keeps its own visits, wins, prior and proof, and is
    /// expanded again if the search comes back to it. Returns the nodes freed.
    pub(crate) fn prune(&mut self, keep: usize) -> usize {
        // A node's descendants have at most its visits, so the nodes kept for a threshold
        // `t` are the root and the children of the nodes visited at least `t` times.
        const TOP: usize = 1 << 12;
        let n = self.nodes.len();
        let mut children_at = vec![0usize; TOP + 1];
        for (i, node) in self.nodes.iter().enumerate() {
            if node.is_expanded() {
                let v = if i == 0 {
                    TOP
                } else {
                    (node.visits as usize).min(TOP)
                };
                children_at[v] += usize::from(node.n_children);
            }
        }
        let mut kept = 1 + children_at[TOP];
        let mut t = TOP;
        while t > 2 && kept + children_at[t - 1] <= keep {
            t -= 1;
            kept += children_at[t];
        }
        let mut new_index = vec![NONE; n];
        new_index[0] = 0;
        for i in 0..n {
            if new_index[i] == NONE || !self.nodes[i].is_expanded() {
                continue;
            }
            if i == 0 || self.nodes[i].visits as usize >= t {
                for c in self.nodes[i].children() {
                    new_index[c] = 0;
                }
            } else {
                self.nodes[i].first_child = NONE;
                self.nodes[i].n_children = 0;
            }
        }
        self.compact(0, new_index);
        n - self.nodes.len()
    }

    /// Moves the nodes marked in `new_index` (any value but [`NONE`]), all at or after
    /// `start`, to the front of the pool in index order. Children blocks always lie after
    /// their parent, so numbering the kept nodes in index order moves every node down (or
    /// not at all) and keeps each block contiguous: the move is in place, and the only extra
    /// memory is the one `u32` per node of `new_index`.
    fn compact(&mut self, start: usize, mut new_index: Vec<u32>) {
        let n = self.nodes.len();
        let mut kept = 0u32;
        for slot in new_index.iter_mut().skip(start) {
            if *slot != NONE {
                *slot = kept;
                kept += 1;
            }
        }
        for i in start..n {
            let to = new_index[i];
            if to == NONE {
                continue;
            }
            let mut node = self.nodes[i];
            if node.first_child != NONE {
                node.first_child = new_index[node.first_child as usize];
            }
            self.nodes[to as usize] = node;
        }
        self.nodes.truncate(kept as usize);
    }
}

/// [`win_probability`] as a prior byte (0..=255).
#[inline]
pub(crate) fn probability_byte(margin: f32, scale: f32) -> u8 {
    (win_probability(margin, scale) * 255.0).round() as u8
}

/// The prior byte of every evaluation the expansion can meet, for one logistic scale: what
/// [`probability_byte`] gives for the margin `-e / SCALE` after a move whose reply side
/// evaluates to `e` (clamped to ±64 discs), looked up instead of computing an exponential
/// for each child of each expanded node. Built on first use and again only when the scale
/// changes; kept in the tree, so a searcher builds it once.
#[derive(Debug, Default)]
pub(crate) struct PriorBytes {
    scale: f32,
    bytes: Vec<u8>,
}

/// The evaluations a [`PriorBytes`] covers: `-EVAL_LIMIT..=EVAL_LIMIT`, the evaluation's range.
pub(crate) const EVAL_LIMIT: i32 = 64 * eval::SCALE;

impl PriorBytes {
    /// Makes the table hold `scale`'s bytes.
    pub(crate) fn prepare(&mut self, scale: f32) {
        if self.bytes.is_empty() || self.scale.to_bits() != scale.to_bits() {
            self.scale = scale;
            self.bytes = (-EVAL_LIMIT..=EVAL_LIMIT)
                .map(|e| probability_byte(-(e as f32) / eval::SCALE as f32, scale))
                .collect();
        }
    }

    /// The prior byte of a move after which the reply side evaluates to `e` (the table must
    /// have been prepared for the scale wanted).
    #[inline]
    pub(crate) fn after(&self, e: i32) -> u8 {
        self.bytes[(e.clamp(-EVAL_LIMIT, EVAL_LIMIT) + EVAL_LIMIT) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The looked-up prior bytes are the computed ones, for every evaluation, and follow a
    /// change of scale.
    #[test]
    fn looked_up_priors_equal_the_computed_ones() {
        let mut bytes = PriorBytes::default();
        for scale in [6.0f32, 3.5, 6.0] {
            bytes.prepare(scale);
            for e in -EVAL_LIMIT..=EVAL_LIMIT {
                let margin = -(e as f32) / eval::SCALE as f32;
                assert_eq!(
                    bytes.after(e),
                    probability_byte(margin, scale),
                    "{scale} {e}"
                );
            }
            // Beyond the evaluation's range, the range's end.
            assert_eq!(bytes.after(EVAL_LIMIT + 9), bytes.after(EVAL_LIMIT));
        }
    }

    #[test]
    fn proofs_flip_between_sides() {
        assert_eq!(ProofState::Win.flipped(), ProofState::Loss);
        assert_eq!(ProofState::Loss.flipped(), ProofState::Win);
        assert_eq!(ProofState::Draw.flipped(), ProofState::Draw);
        assert_eq!(ProofState::Unknown.flipped(), ProofState::Unknown);
        assert_eq!(ProofState::of_margin(12), ProofState::Win);
        assert_eq!(ProofState::of_margin(0), ProofState::Draw);
        assert_eq!(ProofState::of_margin(-1), ProofState::Loss);
        assert_eq!(ProofState::Unknown.proven(), None);
        assert_eq!(ProofState::Loss.proven(), Some(Proof::Loss));
    }

    /// The pool's memory cap counts nodes of 32 bytes (two to a cache line): the proof state
    /// is one byte beside the move and the prior, and a new field must not grow the node.
    #[test]
    fn a_node_is_32_bytes_and_its_proof_one() {
        assert_eq!(std::mem::size_of::<ProofState>(), 1);
        assert_eq!(std::mem::size_of::<Node>(), 32);
        assert_eq!(std::mem::align_of::<Node>(), 8);
        assert_eq!(ProofState::default(), ProofState::Unknown);
        assert_eq!(Node::new(1, 2, PASS, 128).proof, ProofState::Unknown);
    }

    /// A pruned pool keeps the root's children and the subtrees of the most visited nodes,
    /// with every kept node's statistics and blocks that still hold each parent's children;
    /// the nodes that lost their children are the least visited ones, ready to expand again.
    #[test]
    fn prune_keeps_the_busiest_subtrees_within_half_the_pool() {
        use crate::search::{CancelHandle, MctsConfig, SearchLimits, Searcher, Strategy};
        let limits = SearchLimits {
            time: None,
            iterations: Some(3_000),
            memory: crate::search::DEFAULT_MEMORY,
        };
        let config = MctsConfig {
            early_stop: false,
            ..MctsConfig::default()
        };
        let mut s = Searcher::new(Strategy::Default, 1).with_config(config);
        let pos = Position::start();
        s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        let mut tree = s.tree_for_tests().expect("a kept tree");
        let before: Vec<Node> = tree.nodes.clone();
        let n = before.len();
        assert!(n > 10_000, "{n} nodes");
        let freed = tree.prune(n / 2);
        assert_eq!(freed, n - tree.nodes.len());
        assert!(
            tree.nodes.len() <= n / 2,
            "{} of {n} kept",
            tree.nodes.len()
        );
        assert!(freed >= n / 4, "{freed} of {n} freed");
        assert_eq!(
            tree.nodes[0].n_children, before[0].n_children,
            "the root keeps its children"
        );
        // Walk both trees from the root: each kept node is the node it was, with its
        // statistics, and an expanded one holds the same children in one block after it.
        let mut min_kept = u32::MAX;
        let mut max_dropped = 0;
        let mut reached = 0;
        let mut stack = vec![(0usize, 0usize)];
        while let Some((i, j)) = stack.pop() {
            reached += 1;
            let (x, was) = (tree.nodes[i], before[j]);
            assert_eq!(
                (
                    x.player,
                    x.opponent,
                    x.mv,
                    x.visits,
                    x.wins.to_bits(),
                    x.prior,
                    x.proof
                ),
                (
                    was.player,
                    was.opponent,
                    was.mv,
                    was.visits,
                    was.wins.to_bits(),
                    was.prior,
                    was.proof
                )
            );
            if x.is_expanded() {
                assert_eq!(x.n_children, was.n_children);
                assert!(x.first_child as usize > i && x.children().end <= tree.nodes.len());
                stack.extend(x.children().zip(was.children()));
                if i > 0 {
                    min_kept = min_kept.min(x.visits);
                }
            } else if was.is_expanded() {
                max_dropped = max_dropped.max(x.visits);
            }
        }
        assert_eq!(reached, tree.nodes.len(), "every kept node is in the tree");
        assert!(max_dropped > 0, "some nodes lost their children");
        assert!(
            max_dropped < min_kept,
            "dropped up to {max_dropped} visits, kept from {min_kept}"
        );
    }

    #[test]
    fn reserve_never_passes_the_cap() {
        let mut t = Tree::new(&Position::start(), Variant::Othello, 10 * 32);
        assert_eq!(t.cap, 10);
        assert!(t.reserve(9));
        assert!(!t.reserve(10));
        for _ in 0..9 {
            t.nodes.push(Node::new(0, 0, 0, 0));
        }
        assert!(!t.reserve(1));
        assert!(t.memory() <= 10 * 32);
        assert_eq!(t.nodes.capacity(), 10, "reserved once, never grown");
    }

    #[test]
    fn reset_keeps_the_pool_and_forget_keeps_nothing_to_reuse() {
        let mut t = Tree::new(&Position::start(), Variant::Othello, 10 * 32);
        for _ in 0..5 {
            t.nodes.push(Node::new(0, 0, 0, 0));
        }
        let pool = t.pool();
        let white = Position::start().pass();
        t.reset(&white, Variant::NoMoveEndsGame);
        assert_eq!(t.pool(), pool, "the same allocation");
        assert_eq!(t.nodes.len(), 1);
        assert_eq!(t.root_position(), white);
        assert_eq!(t.root_side, Side::White);
        assert_eq!(t.variant, Variant::NoMoveEndsGame);
        assert_eq!(t.nodes[0].first_child, NONE);
        t.forget();
        assert!(t.nodes.is_empty());
        assert_eq!(t.pool(), pool);
        assert!(!t.advance_to(&white, Variant::NoMoveEndsGame, 3));
        assert_eq!(Tree::cap_for(0), 1);
        assert_eq!(Tree::cap_for(10 * 32 + 31), 10);
    }
}
