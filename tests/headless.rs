//! Whole games played headlessly: an `App` with `MinimalPlugins` and the game's logic plugins,
//! no window, no GPU, driven by the same messages a tap or a button sends.

use bevy::prelude::*;
use montello::game::ai::{AiState, AiStats, HintRequested, LastHint};
use montello::game::flow::{
    CurrentGame, GameCommand, GameSetup, MoveRequested, MoveSource, Notice, PassNotice, Refusal,
    SquareTapped, TapRefused,
};
use montello::game::player::AiLevel;
use montello::game::player::Player;
use montello::game::players::Players;
use montello::prefs::choices::Lang;
use montello::prefs::i18n::Language;
use montello::prefs::settings::{Settings, TableMode};
use montello_engine::{IllegalReason, Move, Side, Square, Variant};
use std::time::Duration;

mod common;
use common::{QUICK_AI, run_until, send};

/// Black must pass (its lone disc at b1 flanks nothing); white can play c1.
const BLACK_MUST_PASS: &str = "OX-------------------------------------------------------------- X";
/// White must pass; black can play c1.
const WHITE_MUST_PASS: &str = "XO-------------------------------------------------------------- O";

fn app() -> App {
    common::logic_app(None)
}

fn new_game(app: &mut App, black: Player, white: Player, variant: Variant) {
    send(
        app,
        GameCommand::NewGame(GameSetup {
            players: Players { black, white },
            variant,
        }),
    );
}

fn current(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

/// Why the last tap was refused, if it was.
fn refusal(app: &App) -> Option<Refusal> {
    let messages = app.world().resource::<Messages<TapRefused>>();
    messages
        .iter_current_update_messages()
        .last()
        .map(|r| r.why)
}

#[test]
fn human_plays_the_ai_to_the_end_by_tapping() {
    let mut app = app();
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    let mut taps = 0;
    for _ in 0..200 {
        let game = current(&app).game();
        if game.is_over() {
            break;
        }
        if game.side_to_move() == Side::Black {
            if game.must_pass() {
                send(&mut app, GameCommand::Pass);
            } else {
                let square = game.legal_moves().first().expect("a legal square");
                send(&mut app, SquareTapped(square));
                taps += 1;
            }
            assert_ne!(
                current(&app).game().side_to_move(),
                Side::Black,
                "the tap was played"
            );
        }
        run_until(&mut app, "the AI's move", |app| {
            let game = current(app).game();
            game.is_over() || game.side_to_move() == Side::Black
        });
    }
    let game = current(&app).game();
    assert!(game.is_over(), "the game ends: {:?}", game.history());
    assert!(taps >= 10, "black played by tapping ({taps} taps)");
    let result = game.result().expect("a result");
    assert_eq!(result.discs, game.position().score());
}

#[test]
fn ai_against_ai_finishes_a_game() {
    let mut app = app();
    new_game(&mut app, QUICK_AI, QUICK_AI, Variant::Othello);
    run_until(&mut app, "the end of the game", |app| {
        current(app).game().is_over()
    });
    assert!(current(&app).game().ply() >= 50);
}

#[test]
fn undo_while_the_ai_thinks_cancels_it_and_no_stale_move_lands() {
    let mut app = app();
    // A search that would run for its one-minute safety cap unless cancelled.
    let slow = Player::Ai(AiLevel::Iterations(u64::MAX));
    new_game(&mut app, Player::Human, slow, Variant::Othello);
    send(&mut app, SquareTapped(sq("f5")));
    assert_eq!(current(&app).game().ply(), 1);
    run_until(&mut app, "the AI to start", |app| {
        app.world().resource::<AiState>().thinking().is_some()
    });
    let started = std::time::Instant::now();
    send(&mut app, GameCommand::Undo);
    assert_eq!(current(&app).game().ply(), 0, "back to the human's turn");
    assert_eq!(current(&app).game().side_to_move(), Side::Black);
    let ai = app.world().resource::<AiState>();
    assert!(ai.thinking().is_none(), "the search was cancelled");
    assert_eq!(app.world().resource::<AiStats>().stale_dropped, 1);
    for _ in 0..50 {
        app.update();
    }
    assert_eq!(
        current(&app).game().ply(),
        0,
        "no stale AI move was applied"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_stale_ai_result_is_refused_by_the_game() {
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    let old = current(&app).generation();
    send(&mut app, GameCommand::Import("f5".into()));
    // An answer computed before the import arrives late; f6 would be legal now.
    send(
        &mut app,
        MoveRequested {
            mv: Move::Play(sq("f6")),
            source: MoveSource::Ai { generation: old },
        },
    );
    assert_eq!(current(&app).game().ply(), 1, "the stale f6 was dropped");
}

#[test]
fn undo_and_redo_against_the_ai_land_on_the_humans_turn() {
    let mut app = app();
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    for _ in 0..3 {
        let square = current(&app).game().legal_moves().first().expect("a move");
        send(&mut app, SquareTapped(square));
        run_until(&mut app, "the AI's reply", |app| {
            current(app).game().side_to_move() == Side::Black
        });
    }
    assert_eq!(current(&app).game().ply(), 6);
    send(&mut app, GameCommand::Undo);
    assert_eq!(current(&app).game().ply(), 4);
    send(&mut app, GameCommand::Undo);
    assert_eq!(current(&app).game().ply(), 2);
    send(&mut app, GameCommand::Redo);
    assert_eq!(current(&app).game().ply(), 4);
    assert_eq!(current(&app).game().side_to_move(), Side::Black);
}

#[test]
fn illegal_taps_change_nothing_and_say_why() {
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    let generation = current(&app).generation();
    send(&mut app, SquareTapped(sq("a1")));
    assert_eq!(
        refusal(&app),
        Some(Refusal::Illegal(IllegalReason::NoFlips))
    );
    send(&mut app, SquareTapped(sq("d4")));
    assert_eq!(
        refusal(&app),
        Some(Refusal::Illegal(IllegalReason::Occupied))
    );
    assert_eq!(current(&app).game().ply(), 0);
    assert_eq!(current(&app).generation(), generation);
}

#[test]
fn taps_during_the_ai_turn_are_ignored_not_queued() {
    let mut app = app();
    let slow = Player::Ai(AiLevel::Iterations(u64::MAX));
    new_game(&mut app, slow, Player::Human, Variant::Othello);
    send(&mut app, SquareTapped(sq("f5")));
    assert_eq!(refusal(&app), Some(Refusal::NotYourTurn));
    assert_eq!(current(&app).game().ply(), 0);
    // Starting over cancels the minute-long search.
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    assert!(app.world().resource::<AiState>().thinking().is_none());
}

/// After Black's pass from [`BLACK_MUST_PASS`], the AI's c1 ends the game.
fn black_passed_and_white_ended_the_game(app: &mut App) {
    assert_eq!(current(app).game().history()[0], Move::Pass);
    run_until(app, "the AI's move", |app| current(app).game().is_over());
    assert_eq!(
        current(app).game().history(),
        &[Move::Pass, Move::Play(sq("c1"))]
    );
}

#[test]
fn a_human_who_must_pass_uses_the_pass_command() {
    let mut app = app();
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    send(&mut app, GameCommand::Import(BLACK_MUST_PASS.into()));
    assert!(current(&app).game().must_pass());
    send(&mut app, SquareTapped(sq("c1")));
    assert_eq!(current(&app).game().ply(), 0, "a tap is no pass");
    send(&mut app, GameCommand::Pass);
    black_passed_and_white_ended_the_game(&mut app);
}

#[test]
fn a_human_who_must_pass_passes_by_itself_after_the_notice() {
    let mut app = app();
    let pause = Duration::from_millis(300);
    app.world_mut().resource_mut::<Settings>().human_pass_notice = pause;
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    let start = std::time::Instant::now();
    send(&mut app, GameCommand::Import(BLACK_MUST_PASS.into()));
    app.update();
    // The notice shows first: the pass is pending, not played.
    assert_eq!(current(&app).game().ply(), 0);
    assert!(app.world().resource::<PassNotice>().pending.is_some());
    run_until(&mut app, "the human's automatic pass", |app| {
        current(app).game().ply() >= 1
    });
    assert!(
        start.elapsed() >= pause,
        "passed before the notice could be read"
    );
    black_passed_and_white_ended_the_game(&mut app);
}

#[test]
fn with_auto_pass_off_the_human_passes_by_the_button_only() {
    let mut app = app();
    {
        let mut settings = app.world_mut().resource_mut::<Settings>();
        settings.auto_pass = false;
        settings.human_pass_notice = Duration::ZERO;
    }
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    send(&mut app, GameCommand::Import(BLACK_MUST_PASS.into()));
    for _ in 0..50 {
        app.update();
    }
    assert_eq!(current(&app).game().ply(), 0, "no pass without the button");
    assert!(app.world().resource::<PassNotice>().pending.is_none());
    send(&mut app, GameCommand::Pass);
    assert_eq!(current(&app).game().history(), &[Move::Pass]);
}

#[test]
fn an_ai_that_must_pass_passes_by_itself() {
    let mut app = app();
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    send(&mut app, GameCommand::Import(WHITE_MUST_PASS.into()));
    assert_eq!(current(&app).game().side_to_move(), Side::White);
    run_until(&mut app, "the automatic pass", |app| {
        current(app).game().ply() == 1
    });
    assert_eq!(current(&app).game().history(), &[Move::Pass]);
    send(&mut app, SquareTapped(sq("c1")));
    assert!(current(&app).game().is_over());
}

#[test]
fn the_ai_reports_what_its_search_did_for_each_move() {
    let mut app = app();
    new_game(&mut app, QUICK_AI, Player::Human, Variant::Othello);
    run_until(&mut app, "the AI's first move", |app| {
        current(app).game().ply() == 1
    });
    let mv = current(&app).game().history()[0];
    let ai = app.world().resource::<AiStats>();
    let stats = ai.of_move(0, mv).expect("the AI's move has its statistics");
    assert_eq!(stats.iterations, 200, "the level's iteration cap");
    assert!(stats.positions, "an evaluated search examines positions");
    let rate = stats.win_rate.expect("a finished search has a win rate");
    assert!((0.0..=1.0).contains(&rate), "{rate}");
    // Black (the AI) searched; White (the person) reads it.
    let line = stats.line(Lang::En, Side::White);
    assert!(line.starts_with("200 positions · "), "{line}");
    assert!(line.contains("White: win "), "{line}");
    assert!(line.ends_with('%'), "{line}");
    assert!(ai.of_move(0, Move::Pass).is_none(), "another move has none");
    assert_eq!(ai.last.as_ref(), Some(stats));
}

#[test]
fn variants_are_chosen_at_new_game() {
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::FreeOpening);
    let game = current(&app).game();
    assert_eq!(game.variant(), Variant::FreeOpening);
    assert_eq!(game.legal_moves().count(), 4, "the four centre squares");
    send(&mut app, SquareTapped(sq("d4")));
    assert_eq!(current(&app).game().ply(), 1);

    new_game(
        &mut app,
        Player::Human,
        Player::Human,
        Variant::NoMoveEndsGame,
    );
    send(&mut app, GameCommand::Import(BLACK_MUST_PASS.into()));
    let game = current(&app).game();
    assert!(game.is_over(), "no move ends the game instead of a pass");
    assert!(!game.must_pass());
}

#[test]
fn bad_imports_explain_themselves_and_keep_the_game() {
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    send(&mut app, GameCommand::Import("f5d6c3".into()));
    assert_eq!(current(&app).game().ply(), 3);
    for bad in ["f5 z9", "f5f5", "(;GM[Othello]", "XXXXX-"] {
        send(&mut app, GameCommand::Import(bad.into()));
        let notice = app.world().resource::<Notice>().clone();
        assert!(notice.is_error, "{bad:?} is refused");
        let text = notice.text(Lang::En);
        assert!(text.starts_with("Could not read"), "{text}");
        assert!(text.len() > 30, "{bad:?}: {text}");
        assert_eq!(current(&app).game().ply(), 3, "{bad:?} keeps the game");
    }
}

#[test]
fn table_mode_needs_the_setting_and_two_humans() {
    let mut app = app();
    let table = |app: &App| app.world().resource::<TableMode>().0;
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    assert!(!table(&app), "off until the setting asks for it");
    app.world_mut().resource_mut::<Settings>().table_mode = true;
    app.update();
    assert!(table(&app), "two humans face to face");
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    assert!(!table(&app), "against the AI the board faces one player");
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    assert!(table(&app));
}

#[test]
fn a_notice_follows_a_change_of_language() {
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    send(&mut app, GameCommand::Import("f5 z9".into()));
    let shown = |app: &App| {
        let lang = app.world().resource::<Language>().0;
        app.world().resource::<Notice>().text(lang)
    };
    let english = shown(&app);
    assert!(english.starts_with("Could not read"), "{english}");
    app.world_mut().resource_mut::<Settings>().language = Some(Lang::De);
    app.update();
    let german = shown(&app);
    assert_eq!(german, app.world().resource::<Notice>().text(Lang::De));
    assert_ne!(german, english, "the notice is said again in German");
    assert!(german.contains("z9"), "the engine's reason stays: {german}");
}

#[test]
fn reviewing_a_finished_game_steps_back_without_changing_it() {
    let mut app = app();
    new_game(&mut app, QUICK_AI, QUICK_AI, Variant::Othello);
    run_until(&mut app, "the end of the game", |app| {
        current(app).game().is_over()
    });
    let ply = current(&app).game().ply();
    send(&mut app, GameCommand::Review(Some(10)));
    assert_eq!(current(&app).shown_ply(), 10);
    send(&mut app, SquareTapped(sq("a1")));
    assert_eq!(refusal(&app), Some(Refusal::Reviewing));
    send(&mut app, GameCommand::Review(None));
    assert_eq!(current(&app).game().ply(), ply);
    assert!(current(&app).game().is_over());
}

#[test]
fn hints_turned_off_start_no_search_and_say_so() {
    let mut app = app();
    new_game(&mut app, Player::Human, QUICK_AI, Variant::Othello);
    app.world_mut().resource_mut::<Settings>().hints = false;
    send(&mut app, HintRequested);
    assert!(
        app.world().resource::<AiState>().thinking().is_none(),
        "no hint search runs"
    );
    let notice = app.world().resource::<Notice>().text(Lang::En);
    assert!(notice.contains("Hints are turned off"), "{notice}");
    // Turned back on, the same button asks the AI.
    app.world_mut().resource_mut::<Settings>().hints = true;
    send(&mut app, HintRequested);
    run_until(&mut app, "a hint", |app| {
        app.world().resource::<LastHint>().0.is_some()
    });
    // The notice says plainly what the rings are: of Black's four first moves, the 3 best.
    let notice = app.world().resource::<Notice>().text(Lang::En);
    assert_eq!(
        notice,
        "Hint: the 3 best moves ringed; each square shows its final margin in discs with best play."
    );
}

#[test]
fn screen_readers_hear_each_square_and_can_play_it() {
    use montello::app::access::{AccessibleSquare, describe_square, node_id};
    use montello::prefs::choices::Lang;
    let mut app = app();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    let describe = |app: &App, lang, name| describe_square(lang, current(app), sq(name));
    assert_eq!(describe(&app, Lang::En, "d3"), "d3, empty, legal move");
    assert_eq!(describe(&app, Lang::En, "d4"), "d4, white");
    assert_eq!(describe(&app, Lang::En, "a1"), "a1, empty");
    assert_eq!(describe(&app, Lang::Ja, "d3"), "d3、空き、打てる");
    // An AccessKit click on a square's node plays it like a tap.
    let node = app.world_mut().spawn(AccessibleSquare(sq("d3"))).id();
    app.world_mut()
        .write_message(bevy::a11y::ActionRequest(accesskit::ActionRequest {
            action: accesskit::Action::Click,
            target_tree: accesskit::TreeId::ROOT,
            target_node: node_id(node),
            data: None,
        }));
    app.update();
    assert_eq!(current(&app).game().ply(), 1);
    assert_eq!(describe(&app, Lang::En, "d3"), "d3, black, last move");
    assert_eq!(describe(&app, Lang::De, "d3"), "d3, schwarz, letzter Zug");
    // Other actions do nothing.
    app.world_mut()
        .write_message(bevy::a11y::ActionRequest(accesskit::ActionRequest {
            action: accesskit::Action::Focus,
            target_tree: accesskit::TreeId::ROOT,
            target_node: node_id(node),
            data: None,
        }));
    app.update();
    assert_eq!(current(&app).game().ply(), 1);
}

/// The sounds asked for since the cursor last looked.
fn heard(
    app: &App,
    cursor: &mut bevy::ecs::message::MessageCursor<montello::board::sound::PlaySound>,
) -> Vec<montello::board::sound::Sound> {
    let messages = app
        .world()
        .resource::<Messages<montello::board::sound::PlaySound>>();
    cursor
        .read(messages)
        .flat_map(|m| m.0.iter().map(|c| c.sound))
        .collect()
}

#[test]
fn moves_and_refusals_sound_unless_muted() {
    use montello::board::sound::Sound;
    let mut app = app();
    let mut cursor = Default::default();
    new_game(&mut app, Player::Human, Player::Human, Variant::Othello);
    heard(&app, &mut cursor);
    send(&mut app, SquareTapped(sq("f5")));
    assert_eq!(
        heard(&app, &mut cursor),
        [Sound::Place, Sound::Flip],
        "f5 turns one disc"
    );
    send(&mut app, SquareTapped(sq("a1")));
    assert_eq!(
        refusal(&app),
        Some(Refusal::Illegal(IllegalReason::NoFlips))
    );
    assert_eq!(heard(&app, &mut cursor), [Sound::Refused]);
    app.world_mut().resource_mut::<Settings>().sound = false;
    send(&mut app, SquareTapped(sq("d6")));
    assert_eq!(current(&app).game().ply(), 2, "the move is played");
    send(&mut app, SquareTapped(sq("a1")));
    assert!(
        heard(&app, &mut cursor).is_empty(),
        "muted: no sound at all"
    );
}
