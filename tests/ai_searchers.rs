//! The AI plays as the arena measures it: one searcher per AI side for the game, its tree
//! reused from move to move; a forced move answered without a search; a new searcher when the
//! game is no longer the line it searched (a new game, an undo to before its last search).

use bevy::prelude::*;
use montello::game::ai::{AiStats, SearchStats};
use montello::game::flow::{CurrentGame, GameCommand, GameSetup, SquareTapped};
use montello::game::player::{AiLevel, Player};
use montello::game::players::Players;
use montello_engine::{Move, Variant};

mod common;
use common::{run_until, send};

/// Enough playouts that the AI's tree holds the human's replies below its move.
const AI: Player = Player::Ai(AiLevel::Iterations(2_000));

fn new_game(app: &mut App, black: Player, white: Player) {
    send(
        app,
        GameCommand::NewGame(GameSetup {
            players: Players { black, white },
            variant: Variant::Othello,
        }),
    );
}

fn game(app: &App) -> &montello_engine::Game {
    app.world().resource::<CurrentGame>().game()
}

/// The human (black) plays its first legal move, then the AI answers.
fn human_then_ai(app: &mut App) {
    let mv = game(app).moves()[0];
    let Move::Play(square) = mv else {
        panic!("the human has a move to play, not {mv}");
    };
    let ply = game(app).ply();
    send(app, SquareTapped(square));
    assert_eq!(game(app).ply(), ply + 1, "the tap played {square}");
    run_until(app, "the AI's reply", |app| game(app).ply() == ply + 2);
}

/// The statistics of the AI's move at `ply`.
fn ai_move(app: &App, ply: usize) -> SearchStats {
    let mv = game(app).history()[ply];
    app.world()
        .resource::<AiStats>()
        .of_move(ply, mv)
        .cloned()
        .unwrap_or_else(|| panic!("no statistics for the AI's move at ply {ply}"))
}

#[test]
fn the_ai_keeps_its_searcher_and_its_tree_from_move_to_move() {
    let mut app = common::logic_app(None);
    new_game(&mut app, Player::Human, AI);
    human_then_ai(&mut app);
    let first = ai_move(&app, 1);
    assert_eq!(first.reused_nodes, 0, "a new searcher starts from nothing");
    human_then_ai(&mut app);
    let second = ai_move(&app, 3);
    assert_eq!(second.searcher, first.searcher, "the same searcher");
    assert!(
        second.reused_nodes > 1,
        "the subtree of the position reached was kept: {second:?}"
    );
    human_then_ai(&mut app);
    assert_eq!(ai_move(&app, 5).searcher, first.searcher);
}

#[test]
fn a_forced_move_is_played_without_a_search() {
    let mut app = common::logic_app(None);
    new_game(&mut app, AI, Player::Human);
    // Black (the AI) to move, and h6 is its only legal move.
    send(&mut app, GameCommand::Import("f5f6f7g7c4f8h8h7".into()));
    assert_eq!(game(&app).ply(), 8);
    assert_eq!(
        game(&app).moves(),
        vec![Move::Play("h6".parse().expect("h6"))]
    );
    run_until(&mut app, "the forced move", |app| game(app).ply() == 9);
    let stats = ai_move(&app, 8);
    assert_eq!(stats.mv, Some(Move::Play("h6".parse().expect("h6"))));
    assert_eq!(
        stats.iterations, 0,
        "no search for a forced move: {stats:?}"
    );
}

#[test]
fn a_new_game_or_an_undo_past_its_tree_makes_a_new_searcher() {
    let mut app = common::logic_app(None);
    new_game(&mut app, Player::Human, AI);
    human_then_ai(&mut app);
    let first = ai_move(&app, 1).searcher;

    // Undo to the start: the AI's last search was at ply 1, the game is back at ply 0.
    send(&mut app, GameCommand::Undo);
    assert_eq!(game(&app).ply(), 0);
    human_then_ai(&mut app);
    let after_undo = ai_move(&app, 1);
    assert_ne!(after_undo.searcher, first, "an undo past the tree");
    assert_eq!(after_undo.reused_nodes, 0);

    new_game(&mut app, Player::Human, AI);
    human_then_ai(&mut app);
    let after_new_game = ai_move(&app, 1).searcher;
    assert_ne!(after_new_game, after_undo.searcher, "a new game");
    assert_ne!(after_new_game, first);

    // A change of level: the same game goes on, with a new searcher.
    app.world_mut().resource_mut::<Players>().white = Player::Ai(AiLevel::Iterations(2_001));
    human_then_ai(&mut app);
    assert_ne!(ai_move(&app, 3).searcher, after_new_game, "a new level");
}
