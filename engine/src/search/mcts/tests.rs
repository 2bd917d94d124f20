//! The default strategy's tests: whole searches, and the parts that need a tree.

use super::tree::{Node, PASS, probability_byte};
use super::*;
use crate::search::endgame::tests::{minimax, random_endgame};
use crate::search::{Proof, Searcher, Strategy};
use std::time::Duration;

/// A position from random play where the side to move has no move but the game goes on.
fn a_pass_position() -> Position {
    (0..400)
        .flat_map(|seed| crate::random_positions(seed, 60))
        .find(|p| p.flip_moves().is_empty() && !p.both_stuck())
        .unwrap_or_else(|| panic!("no pass position in the sample"))
}

/// The mover's win probability after `mv` by the learned evaluation, as the forced
/// move's result gives it.
fn evaluated_after(pos: &Position, mv: Move, scale: f32) -> f64 {
    let after = Variant::Othello.play_unchecked(pos, mv);
    let (p, o) = (after.player().0, after.opponent().0);
    let margin = -(eval::evaluate_raw(p, o) as f32) / eval::SCALE as f32;
    f64::from(win_probability(margin, scale))
}

#[test]
fn a_forced_pass_is_valued_by_the_evaluation() {
    // Black to move has no move (white has), so the root's one child is a pass, and its
    // prior is black's chance with white to move, not an even 128.
    let pos = a_pass_position();
    let config = MctsConfig::default();
    let mut tree = Tree::new(&pos, Variant::Othello, 1 << 16);
    expand(&mut tree, 0, pos.side_to_move(), &config, None);
    let children = &tree.nodes[tree.nodes[0].children()];
    assert_eq!(children.len(), 1);
    assert_eq!(children[0].mv, PASS);
    let (p, o) = (pos.player().0, pos.opponent().0);
    let margin = -(eval::evaluate_raw(o, p) as f32) / eval::SCALE as f32;
    assert_eq!(
        children[0].prior,
        probability_byte(margin, config.eval_scale)
    );
    // The search passes at once, with the same value unquantised.
    let r = searcher(1, config).search(
        &pos,
        Variant::Othello,
        &SearchLimits::iterations(5_000),
        &CancelHandle::new(),
    );
    assert_eq!(r.best, Some(Move::Pass));
    assert_eq!(r.iterations, 0);
    assert_eq!(r.pv, vec![Move::Pass]);
    assert_eq!(r.moves.len(), 1);
    assert_eq!(r.moves[0].mv, Move::Pass);
    assert_eq!(r.moves[0].visits, 0);
    let want = evaluated_after(&pos, Move::Pass, config.eval_scale);
    assert_eq!(r.moves[0].win_rate, want);
    assert!(want != 0.5 && (0.0..=1.0).contains(&want), "{want}");
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    // Positions with one legal move, some within the root solve's reach (which the forced
    // move comes before).
    let positions: Vec<Position> = (0..400)
        .flat_map(|seed| crate::random_positions(seed, 60))
        .filter(|p| p.flip_moves().count() == 1 && p.empties().count() > 10)
        .take(5)
        .collect();
    assert_eq!(positions.len(), 5);
    let config = MctsConfig::default();
    assert!(
        positions
            .iter()
            .any(|p| p.empties().count() <= config.solve_empties)
    );
    for pos in positions {
        let only = Variant::Othello.moves(&pos)[0];
        let r = searcher(2, config).search(
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(5_000),
            &CancelHandle::new(),
        );
        assert_eq!(r.best, Some(only), "{pos:?}");
        assert_eq!(r.iterations, 0);
        assert_eq!(r.moves.len(), 1);
        assert_eq!(r.moves[0].mv, only);
        assert_eq!(r.moves[0].proof, None);
        assert_eq!(
            r.moves[0].win_rate,
            evaluated_after(&pos, only, config.eval_scale)
        );
        assert!(!r.stopped_early && !r.proven);
        assert_eq!(r.reused_nodes, 0, "a fresh searcher has no tree");
    }
}

#[test]
fn a_forced_move_takes_its_value_from_the_kept_tree_and_keeps_it_for_the_next_search() {
    // Search midgame positions until the tree holds, two plies down, a position with a
    // single legal move whose move was visited; the searcher then reaches it.
    let limits = SearchLimits::iterations(20_000);
    let config = MctsConfig {
        early_stop: false,
        ..MctsConfig::default()
    };
    let mut checked = 0;
    for seed in 0..60 {
        let pos = random_endgame(700 + seed, 22);
        let mut s = searcher(seed, config);
        s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        let Some(tree) = s.state.tree.as_ref() else {
            continue;
        };
        let grandchildren: Vec<usize> = tree.nodes[0]
            .children()
            .flat_map(|c| tree.nodes[c].children())
            .collect();
        let forced = grandchildren.into_iter().find_map(|g| {
            let node = &tree.nodes[g];
            let kids = node.children();
            (kids.len() == 1 && tree.nodes[kids.start].visits > 0)
                .then(|| (g, tree.nodes[kids.start]))
        });
        let Some((g, child)) = forced else { continue };
        let node = tree.nodes[g];
        let root = Position::from_raw(node.player, node.opponent, pos.side_to_move());
        let r = s.search(&root, Variant::Othello, &limits, &CancelHandle::new());
        assert_eq!(r.iterations, 0);
        assert_eq!(r.best, Some(child.the_move()));
        assert_eq!(r.moves.len(), 1);
        assert_eq!(r.moves[0].visits, u64::from(child.visits));
        let tree_rate = match child.proof.proven() {
            Some(_) => f64::from(proof_score(child.proof)),
            None => f64::from(child.wins) / f64::from(child.visits),
        };
        assert_eq!(r.moves[0].win_rate, tree_rate);
        assert!(r.reused_nodes > 1, "{} nodes kept", r.reused_nodes);
        // The tree now stands at this root, so the next search finds its subtree.
        let kept = s.state.tree.as_ref().map(Tree::root_position);
        assert_eq!(kept, Some(root));
        let after = Variant::Othello.play_unchecked(&root, child.the_move());
        if let Some(&reply) = Variant::Othello.moves(&after).first() {
            let next = Variant::Othello.play_unchecked(&after, reply);
            let r = s.search(&next, Variant::Othello, &limits, &CancelHandle::new());
            assert!(r.reused_nodes > 0, "the reply's position was in the tree");
        }
        checked += 1;
        if checked == 2 {
            break;
        }
    }
    assert_eq!(checked, 2, "too few forced positions in the kept trees");
}

#[test]
fn a_searcher_reserves_its_node_pool_once() {
    let limits = SearchLimits {
        time: None,
        iterations: Some(2_000),
        memory: 1 << 20,
    };
    let mut state = State::default();
    let mut rng = FastRng::new(4);
    let config = MctsConfig::default();
    let mut run = |state: &mut State, pos: &Position, config: &MctsConfig| {
        search(
            state,
            pos,
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
            &mut rng,
            config,
        )
    };
    run(&mut state, &Position::start(), &config);
    let pool = state.tree.as_ref().map(Tree::pool);
    assert!(pool.is_some_and(|(_, cap)| cap >= (1 << 20) / 32));
    // Unrelated positions: a midgame (a fresh root), a root solve, a forced pass, a game
    // over, a midgame with reuse off, and one after the searcher forgot its tree.
    let midgame = random_endgame(31, 40);
    let solved = random_endgame(32, 8);
    let over = crate::random_positions(3, 200)
        .into_iter()
        .find(Position::both_stuck)
        .unwrap_or_else(|| panic!("no finished game"));
    let no_reuse = MctsConfig {
        reuse: false,
        ..config
    };
    for (pos, config) in [
        (midgame, config),
        (solved, config),
        (a_pass_position(), config),
        (over, config),
        (random_endgame(33, 30), no_reuse),
        (random_endgame(34, 35), config),
    ] {
        if pos == random_endgame(34, 35) {
            state.forget();
        }
        let r = run(&mut state, &pos, &config);
        assert_eq!(state.tree.as_ref().map(Tree::pool), pool, "{pos:?}");
        assert_eq!(r.reused_nodes, 0, "{pos:?}");
        if r.iterations > 0 {
            assert_eq!(state.tree.as_ref().map(Tree::root_position), Some(pos));
        }
    }
    // A different memory cap needs a pool of its own.
    let bigger = SearchLimits {
        memory: 2 << 20,
        ..limits
    };
    search(
        &mut state,
        &midgame,
        Variant::Othello,
        &bigger,
        &CancelHandle::new(),
        &mut FastRng::new(4),
        &config,
    );
    assert!(state.tree.as_ref().is_some_and(|t| t.cap == (2 << 20) / 32));
}

#[test]
fn minimax_backups_keep_each_prior_at_the_best_reply() {
    let config = MctsConfig {
        minimax: true,
        expand_at: 1,
        ..MctsConfig::default()
    };
    let mut state = State::default();
    let pos = Variant::Othello.play_unchecked(&Position::start(), "f5".parse().expect("a move"));
    search(
        &mut state,
        &pos,
        Variant::Othello,
        &SearchLimits::iterations(5_000),
        &CancelHandle::new(),
        &mut FastRng::new(3),
        &config,
    );
    let tree = state
        .tree
        .as_ref()
        .unwrap_or_else(|| panic!("the tree is kept"));
    let mut checked = 0;
    for (i, node) in tree.nodes.iter().enumerate().skip(1) {
        let children = &tree.nodes[node.children()];
        if children.is_empty() || children.iter().any(|c| c.proof.is_known()) {
            continue;
        }
        let best = children.iter().map(|c| c.prior).max().unwrap_or(0);
        assert_eq!(node.prior, 255 - best, "node {i}");
        checked += 1;
    }
    assert!(checked > 100, "only {checked} expanded nodes");
}

#[test]
fn the_evaluation_alone_finds_the_only_winning_move() {
    // Endgames where exactly one move wins: the search with every exact solve turned
    // off must find it from the evaluation (and one ply of minimax) most of the time (a
    // sign error would make it pick losing moves). Plain playouts in the same budget,
    // for the message: 25 of 30 with the generation-3 weights, as many as these.
    let config = MctsConfig {
        solve_empties: 0,
        leaf_solve_empties: 0,
        ..MctsConfig::default()
    };
    let playouts = MctsConfig {
        eval_weight: 0.0,
        eval_priors: false,
        ..config
    };
    // Leaves valued by a 3-ply alpha-beta search instead of one ply of priors.
    let leaf_search = MctsConfig {
        leaf_depth: 3,
        ..config
    };
    let mut found = 0;
    let mut found_by_playouts = 0;
    let mut found_by_leaf_search = 0;
    let mut cases = 0;
    for seed in 0..400 {
        let pos = random_endgame(5_000 + seed, 14);
        let Some(solved) = solve_root(&pos, Variant::Othello, None, None, u64::MAX) else {
            continue;
        };
        let winners: Vec<Move> = solved
            .moves
            .iter()
            .filter(|m| m.1 > 0)
            .map(|m| m.0)
            .collect();
        if winners.len() != 1 || solved.moves.len() < 3 {
            continue;
        }
        cases += 1;
        let limits = SearchLimits::iterations(2_000);
        let pick = |c: MctsConfig| {
            searcher(seed, c)
                .search(&pos, Variant::Othello, &limits, &CancelHandle::new())
                .best
        };
        found += usize::from(pick(config) == Some(winners[0]));
        found_by_playouts += usize::from(pick(playouts) == Some(winners[0]));
        found_by_leaf_search += usize::from(pick(leaf_search) == Some(winners[0]));
        if cases == 30 {
            break;
        }
    }
    assert_eq!(cases, 30);
    assert!(
        found >= 18,
        "found {found} of {cases} (playouts: {found_by_playouts})"
    );
    assert!(
        found >= found_by_playouts,
        "found {found}, playouts {found_by_playouts}"
    );
    assert!(
        found_by_leaf_search >= 18,
        "found {found_by_leaf_search} of {cases} with a leaf search"
    );
}

#[test]
fn a_leaf_search_changes_the_values_and_stays_deterministic() {
    let limits = SearchLimits::iterations(2_000);
    let deep = MctsConfig {
        leaf_depth: 3,
        ..MctsConfig::default()
    };
    let pos = random_endgame(77, 40);
    let run = |c: MctsConfig| {
        searcher(1, c).search(&pos, Variant::Othello, &limits, &CancelHandle::new())
    };
    let (a, b, plain) = (run(deep), run(deep), run(MctsConfig::default()));
    assert_eq!(a.moves, b.moves);
    assert_ne!(
        a.moves, plain.moves,
        "the leaf search must change the leaves' values"
    );
}

pub(super) fn searcher(seed: u64, config: MctsConfig) -> Searcher {
    Searcher::new(Strategy::Default, seed).with_config(config)
}

#[test]
fn selection_prefers_better_and_less_explored_children_and_never_a_lost_one() {
    let config = MctsConfig {
        prior_weight: 0.0,
        ..MctsConfig::default()
    };
    let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 20);
    expand(&mut tree, 0, Side::Black, &config, None);
    let kids: Vec<usize> = tree.nodes[0].children().collect();
    assert_eq!(kids.len(), 4);
    // Unvisited children come first.
    tree.nodes[0].visits = 40;
    for (k, &i) in kids.iter().enumerate() {
        tree.nodes[i].visits = if k == 3 { 0 } else { 10 };
        tree.nodes[i].wins = 5.0;
    }
    assert_eq!(select(&tree, 0, &config), Some(kids[3]));
    // At equal visits, the better mean wins.
    tree.nodes[kids[3]].visits = 10;
    tree.nodes[kids[1]].wins = 8.0;
    assert_eq!(select(&tree, 0, &config), Some(kids[1]));
    // Fewer visits at the same mean win through the exploration term.
    tree.nodes[kids[2]].visits = 2;
    tree.nodes[kids[2]].wins = 1.6;
    assert_eq!(select(&tree, 0, &config), Some(kids[2]));
    // A move proven lost is never chosen, whatever its statistics.
    tree.nodes[kids[2]].proof = ProofState::Loss;
    assert_eq!(select(&tree, 0, &config), Some(kids[1]));
    for &i in &kids {
        tree.nodes[i].proof = ProofState::Loss;
    }
    assert_eq!(select(&tree, 0, &config), None);
}

#[test]
fn the_minimax_share_steers_selection_only_with_minimax_backups() {
    let base = MctsConfig {
        prior_weight: 4.0,
        exploration: 0.0,
        minimax: true,
        ..MctsConfig::default()
    };
    let mut tree = Tree::new(&Position::start(), Variant::Othello, 1 << 20);
    expand(&mut tree, 0, Side::Black, &base, None);
    let kids: Vec<usize> = tree.nodes[0].children().collect();
    tree.nodes[0].visits = 200;
    // Child 0: a good mean over many visits, a poor minimax value below it; child 1 the
    // other way round.
    for (k, &i) in kids.iter().enumerate() {
        tree.nodes[i].visits = 50;
        tree.nodes[i].wins = if k == 0 { 35.0 } else { 20.0 };
        tree.nodes[i].prior = if k == 1 { 230 } else { 60 };
    }
    // As a prior of 4 visits beside 50 the minimax value is outweighed...
    assert_eq!(select(&tree, 0, &base), Some(kids[0]));
    // ...mixed in at a half it decides...
    let mixed = MctsConfig {
        minimax_alpha: 0.5,
        ..base
    };
    assert_eq!(select(&tree, 0, &mixed), Some(kids[1]));
    // ...but only where the priors hold minimax values.
    let no_backups = MctsConfig {
        minimax: false,
        ..mixed
    };
    assert_eq!(select(&tree, 0, &no_backups), Some(kids[0]));
}

#[test]
fn mcts_solver_proves_small_endgames_like_alpha_beta() {
    for seed in 0..12 {
        let pos = random_endgame(seed, 7);
        let exact = minimax(pos.player().0, pos.opponent().0, true);
        // Pure MCTS-Solver: no exact solve at the root or at the leaves.
        let config = MctsConfig {
            solve_empties: 0,
            leaf_solve_empties: 0,
            // Playouts keep every sibling in play; a deterministic evaluation explores
            // clearly worse moves only logarithmically, so proving all of them (which a
            // loss or draw needs) is left to the exact solves that the default turns on.
            eval_priors: false,
            eval_weight: 0.0,
            expand_at: 2,
            exploration: 0.5,
            // Proving the last move not proven lost is the point here.
            early_stop: false,
            ..MctsConfig::default()
        };
        let r = searcher(seed, config).search(
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(400_000),
            &CancelHandle::new(),
        );
        let want = match exact.signum() {
            1 => Proof::Win,
            0 => Proof::Draw,
            _ => Proof::Loss,
        };
        assert!(
            r.proven,
            "seed {seed}: not proven in {} iterations",
            r.iterations
        );
        assert_eq!(r.moves[0].proof, Some(want), "seed {seed} {pos:?}");
        // With the exact endgame on, the best move's margin is the exact one.
        let r = searcher(seed, MctsConfig::default()).search(
            &pos,
            Variant::Othello,
            &SearchLimits::iterations(1_000),
            &CancelHandle::new(),
        );
        assert!(r.proven);
        assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
    }
}

#[test]
fn a_proven_win_is_played_at_once() {
    // Three empties, won for the side to move: the root solve settles it at once, with
    // no iteration, well inside the cap.
    let (pos, exact) = (0..)
        .map(|seed| random_endgame(seed, 3))
        .map(|pos| (pos, minimax(pos.player().0, pos.opponent().0, true)))
        .find(|&(_, exact)| exact > 0)
        .expect("a won endgame");
    let r = searcher(1, MctsConfig::default()).search(
        &pos,
        Variant::Othello,
        &SearchLimits::time(Duration::from_secs(5)),
        &CancelHandle::new(),
    );
    assert!(r.proven);
    assert_eq!(r.iterations, 0);
    assert_eq!(r.moves[0].proof, Some(Proof::Win));
    assert_eq!(r.moves[0].exact_margin, Some(exact as i8));
    assert_eq!(r.best, Some(r.moves[0].mv));
    assert!(r.elapsed < Duration::from_secs(4), "{:?}", r.elapsed);
}

#[test]
fn a_time_capped_search_runs_to_its_deadline_and_stops_there() {
    // Without the early stop the search spends its whole cap, then stops by itself (the
    // upper bound only guards against a search that never looks at the clock; how far
    // past the cap it runs is measured by the benchmarks). The weights are decoded first:
    // in a debug build their first use takes longer than the cap.
    crate::eval::builtin();
    let cap = Duration::from_millis(50);
    let config = MctsConfig {
        early_stop: false,
        ..MctsConfig::default()
    };
    let r = searcher(3, config).search(
        &Position::start(),
        Variant::Othello,
        &SearchLimits::time(cap),
        &CancelHandle::new(),
    );
    assert!(r.iterations > 0);
    assert!(!r.cancelled && !r.stopped_early && !r.proven, "{r:?}");
    assert!(r.elapsed >= cap, "{:?}", r.elapsed);
    assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
}

#[test]
fn cancel_stops_a_long_search() {
    let cancel = CancelHandle::new();
    let remote = cancel.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        remote.cancel();
    });
    let r = searcher(4, MctsConfig::default()).search(
        &Position::start(),
        Variant::Othello,
        &SearchLimits::time(Duration::from_secs(30)),
        &cancel,
    );
    let _ = t.join();
    assert!(r.cancelled);
    assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
    let legal = Variant::Othello.moves(&Position::start());
    assert!(r.best.is_some_and(|m| legal.contains(&m)));
}

#[test]
fn memory_cap_bounds_the_pool() {
    let nodes = 500;
    let limits = SearchLimits {
        time: Some(Duration::from_secs(30)),
        iterations: Some(20_000),
        memory: nodes * std::mem::size_of::<Node>(),
    };
    // With the pool pruned when full, too.
    for prune in [false, true] {
        let config = MctsConfig {
            early_stop: false,
            prune,
            ..MctsConfig::default()
        };
        let mut s = searcher(5, config);
        let r = s.search(
            &Position::start(),
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
        );
        assert_eq!(
            r.iterations, 20_000,
            "the search keeps running when the pool is full"
        );
        assert!(r.nodes <= nodes, "{} nodes", r.nodes);
        assert!(r.memory <= limits.memory, "{} bytes", r.memory);
        assert!(r.best.is_some());
        // Reusing the tree keeps within the cap too.
        let next = Variant::Othello.play_unchecked(&Position::start(), r.best.expect("a move"));
        let r = s.search(&next, Variant::Othello, &limits, &CancelHandle::new());
        assert!(r.nodes <= nodes && r.memory <= limits.memory);
    }
}

#[test]
fn same_seed_same_search_and_same_reuse() {
    let limits = SearchLimits::iterations(3_000);
    let play = |seed| {
        let mut s = searcher(seed, MctsConfig::default());
        let mut pos = Position::start();
        let mut out = Vec::new();
        for _ in 0..6 {
            let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            let mv = r.best.expect("a move");
            pos = Variant::Othello.play_unchecked(&pos, mv);
            out.push((r.best, r.moves, r.pv, r.iterations, r.nodes));
        }
        out
    };
    assert_eq!(play(11), play(11));
    // The learned evaluation is deterministic; playouts make the seed matter.
    let playouts = |seed| {
        let config = MctsConfig {
            eval_weight: 0.0,
            ..MctsConfig::default()
        };
        searcher(seed, config).search(
            &Position::start(),
            Variant::Othello,
            &limits,
            &CancelHandle::new(),
        )
    };
    assert_eq!(playouts(11).moves, playouts(11).moves);
    assert_ne!(playouts(11).moves, playouts(12).moves);
}

#[test]
fn the_tree_is_reused_after_the_reply() {
    let limits = SearchLimits::iterations(5_000);
    // Every iteration runs, so the visits below add up to more than one search's.
    let config = MctsConfig {
        early_stop: false,
        ..MctsConfig::default()
    };
    let mut s = searcher(6, config);
    let pos = Position::start();
    let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
    assert_eq!(
        r.reused_nodes, 0,
        "the first search starts from a fresh root"
    );
    let mine = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
    let reply = r.pv.get(1).copied().expect("a reply in the PV");
    let theirs = Variant::Othello.play_unchecked(&mine, reply);
    let kept = {
        let mut t = s.state.tree.take().unwrap_or_else(|| panic!("tree kept"));
        assert!(t.advance_to(&theirs, Variant::Othello, 3));
        let visits = (t.nodes[0].visits, t.nodes.len());
        // The kept subtree is consistent: every child's position follows from its move.
        for i in 0..t.nodes.len() {
            for c in t.nodes[i].children() {
                assert!(c > i && c < t.nodes.len());
            }
        }
        s.state.tree = Some(t);
        visits
    };
    assert!(kept.0 > 100, "the principal reply had {} visits", kept.0);
    let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
    assert_eq!(r2.iterations, 5_000);
    assert!(r2.moves.iter().map(|m| m.visits).sum::<u64>() > 5_000);
    assert_eq!(
        r2.reused_nodes, kept.1,
        "the search started from the kept subtree"
    );
    assert!(r2.nodes > r2.reused_nodes);
    // The same without the manual step: the searcher finds the reply's position itself
    // (two plies below its last root), early stop on.
    let mut s = searcher(6, MctsConfig::default());
    let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
    let mine = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
    let theirs =
        Variant::Othello.play_unchecked(&mine, r.pv.get(1).copied().expect("a reply in the PV"));
    let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
    assert!(r2.reused_nodes > 100, "{} nodes reused", r2.reused_nodes);
    // Without reuse the search starts afresh every time.
    let no_reuse = MctsConfig {
        reuse: false,
        ..MctsConfig::default()
    };
    let mut s = searcher(6, no_reuse);
    s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
    let r2 = s.search(&theirs, Variant::Othello, &limits, &CancelHandle::new());
    assert_eq!(r2.reused_nodes, 0);
}

#[test]
fn a_root_proven_as_a_leaf_still_gets_a_move() {
    // No root solve, leaf proofs at 10 empties: the reply position was proven as a leaf
    // in the first search and becomes the root of the second.
    let config = MctsConfig {
        solve_empties: 0,
        leaf_solve_empties: 10,
        ..MctsConfig::default()
    };
    let pos = random_endgame(21, 12);
    let mut s = searcher(2, config);
    let limits = SearchLimits::iterations(3_000);
    let mut pos = pos;
    for _ in 0..4 {
        if Variant::Othello.is_game_over(&pos) {
            break;
        }
        let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
        let legal = Variant::Othello.moves(&pos);
        let mv = r.best.expect("a move");
        assert!(legal.contains(&mv));
        assert!(!r.moves.is_empty(), "the root was expanded");
        pos = Variant::Othello.play_unchecked(&pos, mv);
        let reply = Variant::Othello.moves(&pos).first().copied();
        if let Some(reply) = reply {
            pos = Variant::Othello.play_unchecked(&pos, reply);
        }
    }
}

#[test]
fn no_move_ends_game_and_free_opening_search_legally() {
    for variant in [Variant::NoMoveEndsGame, Variant::FreeOpening] {
        let pos = variant.start_position();
        let r = searcher(8, MctsConfig::default()).search(
            &pos,
            variant,
            &SearchLimits::iterations(2_000),
            &CancelHandle::new(),
        );
        assert!(
            r.best.is_some_and(|m| variant.moves(&pos).contains(&m)),
            "{variant}"
        );
    }
}
