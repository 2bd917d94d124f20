//! The alpha-beta search's tests: against plain negamax and the exact solver, ProbCut,
//! the two compiled copies, the caps and the variants.

use super::*;
use crate::Square;
use crate::bitboard::flips;
use crate::bitboard::legal_moves;
use crate::eval::SCALE;
use crate::search::endgame::Solver;
use crate::search::endgame::final_margin;
use crate::search::endgame::tests::random_endgame;
use crate::search::{Proof, Searcher, Strategy};
use std::time::Duration;

fn searcher(config: AlphaBetaConfig) -> Searcher {
    Searcher::new(Strategy::AlphaBeta, 1).with_ab_config(config)
}

/// A fixed depth without ProbCut: an exact alpha-beta value at that depth.
fn depth(d: u32) -> AlphaBetaConfig {
    AlphaBetaConfig {
        depth: Some(d),
        solve_empties: 0,
        probcut: 0,
        ..AlphaBetaConfig::default()
    }
}

/// The exact final margin from the exact solver (itself tested against plain minimax).
fn exact_margin(p: u64, o: u64, passes: bool) -> i32 {
    let variant = if passes {
        Variant::Othello
    } else {
        Variant::NoMoveEndsGame
    };
    let pos = Position::from_raw(p, o, crate::Side::Black);
    Solver::new(variant, None, None)
        .solve(&pos, -65, 65)
        .unwrap_or_else(|| panic!("no deadline: {pos:?}"))
}

/// Plain negamax of the same evaluation, no pruning and no table: the reference.
fn negamax(p: u64, o: u64, depth: u32, passes: bool) -> i32 {
    let empties = (!(p | o)).count_ones();
    let moves = legal_moves(p, o);
    if depth >= empties && moves == 0 && (!passes || legal_moves(o, p) == 0) {
        return final_margin(p, o) * SCALE;
    }
    if depth >= empties {
        return exact_margin(p, o, passes) * SCALE;
    }
    if depth == 0 {
        return crate::eval::evaluate_raw(p, o);
    }
    if moves == 0 {
        if !passes || legal_moves(o, p) == 0 {
            return final_margin(p, o) * SCALE;
        }
        return -negamax(o, p, depth, passes);
    }
    let mut best = -INF;
    let mut m = moves;
    while m != 0 {
        let sq = Square::ALL[m.trailing_zeros() as usize];
        m &= m - 1;
        let f = flips(p, o, sq);
        best = best.max(-negamax(o & !f, p | f | sq.mask(), depth - 1, passes));
    }
    best
}

fn run(
    pos: &Position,
    variant: Variant,
    config: AlphaBetaConfig,
    limits: &SearchLimits,
) -> SearchResult {
    searcher(config).search(pos, variant, limits, &CancelHandle::new())
}

#[test]
fn fixed_depth_matches_plain_negamax() {
    // Midgame positions: the PVS value at depth 1-3 equals unpruned negamax's.
    for seed in 0..12 {
        let pos = random_endgame(500 + seed, 40 - (seed as u32 % 10));
        for d in 1..=3 {
            let r = run(
                &pos,
                Variant::Othello,
                depth(d),
                &SearchLimits::iterations(u64::MAX),
            );
            let want = negamax(pos.player().0, pos.opponent().0, d, true);
            let best = &r.moves[0];
            let got = {
                let child = Variant::Othello.play_unchecked(&pos, best.mv);
                -negamax(child.player().0, child.opponent().0, d - 1, true)
            };
            assert_eq!(
                got, want,
                "seed {seed} depth {d}: {} is not a best move",
                best.mv
            );
        }
    }
}

#[test]
fn matches_the_exact_solver_on_small_endgames() {
    for seed in 0..60 {
        let empties = 6 + (seed % 7) as u32;
        let pos = random_endgame(seed, empties);
        for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
            if variant.is_game_over(&pos) || variant.must_pass(&pos) {
                continue;
            }
            let passes = variant == Variant::Othello;
            let exact = exact_margin(pos.player().0, pos.opponent().0, passes);
            // Exactly as deep as there are empties: the search must reach the end.
            let r = run(
                &pos,
                variant,
                depth(empties),
                &SearchLimits::iterations(u64::MAX),
            );
            assert!(r.proven, "seed {seed} {variant}");
            assert_eq!(
                r.moves[0].exact_margin,
                Some(exact as i8),
                "seed {seed} {variant} {pos:?}"
            );
            // The same through the endgame solve of a time-limited search.
            let config = AlphaBetaConfig {
                solve_empties: 20,
                ..AlphaBetaConfig::default()
            };
            let r = run(
                &pos,
                variant,
                config,
                &SearchLimits::time(Duration::from_secs(30)),
            );
            assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
            let child = variant.play_unchecked(&pos, r.moves[0].mv);
            let after = -exact_margin(child.player().0, child.opponent().0, passes);
            assert_eq!(after, exact, "seed {seed}: {} is not best", r.moves[0].mv);
        }
    }
}

#[test]
fn finds_a_corner_that_wins_outright() {
    // White has b1 and b2 only; black has c1, c3 and rows 4-8. Black's a1 flips both
    // white discs (the game ends, 45-0); a3 flips b2 only and leaves white alive.
    let bit = |i: u32| 1u64 << i;
    let black = (!0u64 << 24) | bit(2) | bit(18);
    let white = bit(1) | bit(9);
    let pos = Position::from_raw(black, white, crate::Side::Black);
    let a1 = Move::Play(Square::ALL[0]);
    let legal = Variant::Othello.moves(&pos);
    assert!(legal.contains(&a1) && legal.len() >= 2, "{legal:?}");
    let a3 = Move::Play(Square::ALL[16]);
    for d in [1, 2, 3, 5] {
        let r = run(
            &pos,
            Variant::Othello,
            depth(d),
            &SearchLimits::iterations(u64::MAX),
        );
        // a1 ends the game at once; a3 leaves white one disc and no way back, which a
        // trained evaluation may well rate higher still. Either crushes.
        assert!(
            r.best == Some(a1) || r.best == Some(a3),
            "depth {d}: {:?}",
            r.best
        );
        assert!(r.moves[0].win_rate > 0.99, "depth {d}: {:?}", r.moves[0]);
    }
    // With 20 empties the default solves it: both win 64-0 (the empties a1 leaves go to
    // the winner), and the exact solve proves it.
    let r = run(
        &pos,
        Variant::Othello,
        AlphaBetaConfig::default(),
        &SearchLimits::time(Duration::from_secs(60)),
    );
    assert!(r.best == Some(a1) || r.best == Some(a3), "{:?}", r.moves);
    assert_eq!(r.moves[0].proof, Some(Proof::Win));
    assert_eq!(r.moves[0].exact_margin, Some(64));
    assert!(r.proven && r.moves[0].win_rate == 1.0);
}

#[test]
fn a_forced_win_in_the_endgame_is_proven_and_played() {
    for seed in 200..230 {
        let pos = random_endgame(seed, 14);
        let exact = exact_margin(pos.player().0, pos.opponent().0, true);
        if exact <= 0 || Variant::Othello.must_pass(&pos) {
            continue;
        }
        let r = run(
            &pos,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(50_000_000),
        );
        assert_eq!(
            r.moves[0].proof,
            Some(Proof::Win),
            "seed {seed} {:?}",
            r.moves
        );
        let child = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
        assert!(
            exact_margin(child.player().0, child.opponent().0, true) < 0,
            "seed {seed}"
        );
    }
}

#[test]
fn the_trainers_fixed_depth_search_is_plain_negamax() {
    // The trainer's player and labels: the same values as unpruned negamax, with the
    // table kept from one call to the next.
    let w = crate::eval::builtin();
    let mut search = FixedDepth::new(w, Variant::Othello, 1 << 20, 0);
    for seed in 0..10 {
        let pos = random_endgame(700 + seed, 44 - (seed as u32 % 8) * 3);
        let (p, o) = (pos.player().0, pos.opponent().0);
        for d in 1..=3 {
            assert_eq!(
                search.value(p, o, d),
                negamax(p, o, d, true),
                "seed {seed} depth {d}"
            );
        }
    }
    // Deep enough to reach the end: the exact margin.
    let pos = random_endgame(9, 9);
    let (p, o) = (pos.player().0, pos.opponent().0);
    assert_eq!(search.value(p, o, 9), exact_margin(p, o, true) * SCALE);
}

#[test]
fn probcut_prunes_and_stays_close_to_the_full_search() {
    // At depth 7 from middle-game positions, ProbCut searches far fewer nodes; its value
    // stays within a few discs of the full search's on average.
    let w = crate::eval::builtin();
    let (mut full_nodes, mut cut_nodes, mut diff) = (0, 0, 0);
    let n = 12;
    for seed in 0..n {
        let pos = random_endgame(800 + seed, 46 - (seed as u32 % 6) * 3);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mut full = FixedDepth::new(w, Variant::Othello, 1 << 22, 0);
        let mut cut = FixedDepth::new(w, Variant::Othello, 1 << 22, DEFAULT_PROBCUT);
        let (a, b) = (full.value(p, o, 7), cut.value(p, o, 7));
        full_nodes += full.nodes;
        cut_nodes += cut.nodes;
        diff += (a - b).abs();
    }
    assert!(
        cut_nodes * 10 < full_nodes * 7,
        "ProbCut searched {cut_nodes} nodes, the full search {full_nodes}"
    );
    let mean = diff as f64 / n as f64 / f64::from(SCALE);
    assert!(mean < 3.0, "mean difference {mean:.2} discs");
}

#[test]
fn fixed_depth_is_deterministic() {
    let pos = random_endgame(7, 44);
    let a = run(
        &pos,
        Variant::Othello,
        depth(5),
        &SearchLimits::iterations(u64::MAX),
    );
    let b = run(
        &pos,
        Variant::Othello,
        depth(5),
        &SearchLimits::iterations(u64::MAX),
    );
    assert_eq!(
        (a.best, &a.moves, &a.pv, a.iterations),
        (b.best, &b.moves, &b.pv, b.iterations)
    );
    // A node limit stops it at the same place every time.
    let a = run(
        &pos,
        Variant::Othello,
        AlphaBetaConfig::default(),
        &SearchLimits::iterations(30_000),
    );
    let b = run(
        &pos,
        Variant::Othello,
        AlphaBetaConfig::default(),
        &SearchLimits::iterations(30_000),
    );
    assert!((30_000..31_000).contains(&a.iterations), "{}", a.iterations);
    assert_eq!((a.best, &a.moves, &a.pv), (b.best, &b.moves, &b.pv));
}

#[test]
fn a_cancelled_search_returns_a_legal_move() {
    // Cancelled before it starts, and while it runs.
    for wait in [0, 20] {
        let cancel = CancelHandle::new();
        let remote = cancel.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(wait));
            remote.cancel();
        });
        if wait == 0 {
            while !cancel.is_cancelled() {
                std::thread::yield_now();
            }
        }
        let pos = Position::start();
        let r = searcher(AlphaBetaConfig::default()).search(
            &pos,
            Variant::Othello,
            &SearchLimits::time(Duration::from_secs(60)),
            &cancel,
        );
        let _ = t.join();
        assert!(r.cancelled);
        assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
        assert!(
            r.best
                .is_some_and(|m| Variant::Othello.moves(&pos).contains(&m))
        );
    }
}

#[test]
fn the_time_cap_stops_the_search() {
    let r = run(
        &random_endgame(9, 40),
        Variant::Othello,
        AlphaBetaConfig::default(),
        &SearchLimits::time(Duration::from_millis(50)),
    );
    assert!(r.best.is_some() && r.iterations > 0);
    assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
}

#[test]
fn passes_and_finished_games() {
    // Find positions where the side to move must pass, or where the opponent will.
    let mut passes = 0;
    for seed in 0..3000 {
        let pos = random_endgame(seed, 10);
        if !Variant::Othello.must_pass(&pos) {
            continue;
        }
        passes += 1;
        let r = run(
            &pos,
            Variant::Othello,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(100_000),
        );
        assert_eq!(r.best, Some(Move::Pass), "seed {seed}");
        // Under no-move-ends-game the same position is over.
        let r = run(
            &pos,
            Variant::NoMoveEndsGame,
            AlphaBetaConfig::default(),
            &SearchLimits::iterations(100_000),
        );
        assert_eq!(r.best, None, "seed {seed}");
        // After the pass, the opponent's search is exact and agrees with the solver.
        let next = pos.pass();
        if !next.both_stuck() {
            let r = run(
                &next,
                Variant::Othello,
                depth(10),
                &SearchLimits::iterations(u64::MAX),
            );
            let exact = exact_margin(next.player().0, next.opponent().0, true);
            assert_eq!(r.moves[0].exact_margin, Some(exact as i8), "seed {seed}");
        }
        if passes >= 5 {
            break;
        }
    }
    assert!(passes > 0);
    // A finished game has no move.
    let full = Position::from_raw(!0u64 << 8, 0xff, crate::Side::Black);
    let r = run(
        &full,
        Variant::Othello,
        AlphaBetaConfig::default(),
        &SearchLimits::iterations(1_000),
    );
    assert_eq!(r.best, None);
}

#[test]
fn variants_search_legally() {
    for variant in Variant::ALL {
        let mut pos = variant.start_position();
        let mut s = searcher(depth(3));
        for _ in 0..12 {
            if variant.is_game_over(&pos) {
                break;
            }
            let r = s.search(
                &pos,
                variant,
                &SearchLimits::iterations(u64::MAX),
                &CancelHandle::new(),
            );
            let mv = r.best.unwrap_or_else(|| panic!("{variant}: no move"));
            assert!(variant.moves(&pos).contains(&mv), "{variant}: {mv}");
            pos = variant.play_unchecked(&pos, mv);
        }
    }
}

#[test]
fn the_table_never_exceeds_the_memory_cap() {
    for memory in [0, 100, 24 * 1000, 1 << 20] {
        let limits = SearchLimits {
            time: Some(Duration::from_secs(60)),
            iterations: Some(200_000),
            memory,
        };
        let mut s = searcher(AlphaBetaConfig::default());
        let mut pos = Position::start();
        for _ in 0..3 {
            let r = s.search(&pos, Variant::Othello, &limits, &CancelHandle::new());
            assert!(r.memory <= memory, "{} > {memory}", r.memory);
            assert!(r.nodes * 24 <= memory);
            pos = Variant::Othello.play_unchecked(&pos, r.best.expect("a move"));
        }
    }
}

#[test]
fn the_pv_is_legal() {
    let pos = random_endgame(3, 30);
    let r = run(
        &pos,
        Variant::Othello,
        depth(6),
        &SearchLimits::iterations(u64::MAX),
    );
    assert!(r.pv.len() >= 2, "{:?}", r.pv);
    let mut p = pos;
    for &mv in &r.pv {
        p = Variant::Othello
            .try_play(&p, mv)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn the_depth_that_reaches_the_end_is_searched_win_draw_loss_first() {
    // Midgame depths up to the last one short of the end, then the end: win/draw/loss, then
    // the margin.
    let plan = depth_plan(24, false, 60, true, true);
    assert_eq!(plan.len(), 25);
    assert!(
        plan[..23]
            .iter()
            .enumerate()
            .all(|(i, &d)| d == (i as u32 + 1, false))
    );
    assert_eq!(plan[23..], [(24, true), (24, false)]);
    // Out of the clock's reach the end is not started: the last midgame depth is the answer.
    let short = depth_plan(24, false, 60, true, false);
    assert_eq!(short, plan[..23]);
    // A solving search goes to a third of the empties first, as before.
    assert_eq!(
        depth_plan(18, true, 60, true, true),
        [
            (1, false),
            (2, false),
            (3, false),
            (4, false),
            (5, false),
            (6, false),
            (18, true),
            (18, false)
        ]
    );
    // A fixed depth short of the end never reaches it; one square left is one exact ply.
    assert_eq!(depth_plan(24, false, 6, false, true).len(), 6);
    assert_eq!(depth_plan(1, false, 60, false, true), [(1, false)]);
    // The clock's reach: the pass is started up to 26 empties at a second a move (in Master's
    // games it finished in 5 of 39 positions at 25-26 empties, and in none of 40 at 27-28),
    // fewer on shorter caps, and always given a long one.
    let ms = Duration::from_millis;
    assert_eq!(end_empties_within(ms(1_000)), 26);
    assert!(end_empties_within(ms(100)) < 26);
    assert!(end_empties_within(ms(10)) < end_empties_within(ms(100)));
    assert_eq!(end_empties_within(ms(10_000)), 60);
}

#[test]
fn a_search_stopped_in_its_margin_pass_knows_who_wins() {
    // Solving from no fixed count of empties, the search deepens until its depth reaches the
    // end: win/draw/loss, then the margin. Stopped in the margin pass (by a node cap, so
    // deterministically), it still plays a move proven to win, draw or lose as the full
    // search's does; the margin pass alone, stopped, would prove nothing. When every move
    // loses, it plays the midgame's choice.
    let config = AlphaBetaConfig {
        solve_empties: 0,
        ..AlphaBetaConfig::default()
    };
    let cancel = CancelHandle::new();
    let empties = 14;
    let mut outcomes = Vec::new();
    let mut kept_midgame_choice = 0;
    for seed in 900..912 {
        let pos = random_endgame(seed, empties);
        if Variant::Othello.moves(&pos).len() < 2 {
            continue;
        }
        // The search with a node cap (deterministic), in `state`.
        let capped = |state: &mut State, nodes: u64, config: &AlphaBetaConfig| {
            let limits = SearchLimits::iterations(nodes);
            search(state, &pos, Variant::Othello, &limits, &cancel, config)
        };
        let full = capped(&mut State::default(), 1 << 40, &config);
        let proof = full.moves[0].proof;
        assert!(
            proof.is_some() && full.moves[0].exact_margin.is_some(),
            "seed {seed}"
        );
        // Two clock checks short of the full search's nodes, the margin pass is unfinished;
        // if the last finished iteration reaches the end, it is the win/draw/loss pass.
        let Some(cap) = full.iterations.checked_sub(2 * CHECK_NODES) else {
            continue;
        };
        let mut state = State::default();
        let cut = capped(&mut state, cap, &config);
        if state.depth < empties {
            continue; // stopped in the win/draw/loss pass already
        }
        assert_eq!(cut.moves[0].proof, proof, "seed {seed}: {:?}", cut.moves);
        let child = Variant::Othello.play_unchecked(&pos, cut.best.expect("a move"));
        let value = -exact_margin(child.player().0, child.opponent().0, true);
        match proof {
            Some(Proof::Win) => assert!(value > 0, "seed {seed}: {value}"),
            Some(Proof::Draw) => assert_eq!(value, 0, "seed {seed}"),
            _ => {
                assert!(value < 0, "seed {seed}: {value}");
                let midgame = AlphaBetaConfig {
                    depth: Some(empties - 1),
                    ..config
                };
                let mid = capped(&mut State::default(), 1 << 40, &midgame);
                // ... unless the margin pass had already proven another move loses by less.
                if cut.moves[0].exact_margin.is_none() {
                    assert_eq!(cut.best, mid.best, "seed {seed}");
                    kept_midgame_choice += 1;
                }
            }
        }
        outcomes.push(proof);
    }
    assert!(outcomes.len() >= 4, "{outcomes:?}");
    assert!(
        outcomes.contains(&Some(Proof::Win)) && outcomes.contains(&Some(Proof::Loss)),
        "{outcomes:?}"
    );
    assert!(kept_midgame_choice > 0, "{outcomes:?}");
}

#[test]
fn near_the_end_probcut_cuts_with_its_own_confidence() {
    // At 30 empty squares or fewer every node is "near the end": ProbCut off there searches
    // what no ProbCut at all searches, and a looser confidence there fewer nodes than a
    // safer one. Higher up, the end's confidence changes nothing.
    let nodes = |pos: &Position, probcut: u32, probcut_end: u32| {
        let config = AlphaBetaConfig {
            probcut,
            probcut_end,
            ..depth(8)
        };
        run(
            pos,
            Variant::Othello,
            config,
            &SearchLimits::iterations(u64::MAX),
        )
        .iterations
    };
    let (mut loose, mut safe) = (0, 0);
    for seed in 0..6 {
        let late = random_endgame(900 + seed, 28);
        assert_eq!(nodes(&late, 7, 0), nodes(&late, 0, 0), "seed {seed}");
        loose += nodes(&late, 7, 7);
        safe += nodes(&late, 7, 20);
        // 8 plies from 44 empties never reach 30.
        let early = random_endgame(900 + seed, 44);
        assert_eq!(nodes(&early, 7, 0), nodes(&early, 7, 20), "seed {seed}");
        assert_ne!(nodes(&early, 7, 0), nodes(&early, 0, 0), "seed {seed}: cut");
    }
    assert!(
        loose < safe,
        "t 0.7 near the end: {loose} nodes, t 2.0: {safe}"
    );
}
