//! The daily puzzle (#71) in a headless app: the game in progress is kept aside (and stays the
//! saved game) while the puzzle is on the board; a try that misses the goal is refused with
//! its exact value and the hint, the game unchanged; the answer is played and Master answers;
//! played to the end it is solved and counted once with the statistics; leaving brings the
//! game in progress back; the solution puts the whole line on the board.

use bevy::app::App;
use montello::game::flow::{CurrentGame, GameCommand, GameSetup};
use montello::game::player::{AiLevel, Player};
use montello::game::players::Players;
use montello::game::puzzle::{PuzzleCommand, PuzzleSet, PuzzleState, Puzzling, column_of};
use montello::game::values::ValuesSettings;
use montello::persist::save::StatsFile;
use montello::persist::save_format::{SavedGame, Stats};
use montello::persist::storage::SaveFormat;
use montello_engine::search::review::{ValuesConfig, move_values};
use montello_engine::{Move, Variant};

mod common;
use common::{run_until, send, tap};

/// 2026-11-29: White to move and win, 11 empty squares; e7 wins (+6), b1 (the first look's
/// move) only draws.
const DAY: i64 = 20_786;

/// Exact values for every position of a puzzle (16 empties at most).
const EXACT: ValuesConfig = ValuesConfig {
    exact_empties: 16,
    depth: 0,
    table_bytes: 1 << 20,
};

fn current(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn session(app: &App) -> &montello::game::puzzle::Session {
    app.world()
        .resource::<Puzzling>()
        .0
        .as_ref()
        .expect("a puzzle under way")
}

/// A game in progress against Casual, four moves in, saved to `dir`.
fn app_with_a_game(dir: &std::path::Path) -> App {
    let mut app = common::logic_app(Some(dir));
    app.insert_resource(ValuesSettings(EXACT));
    send(
        &mut app,
        GameCommand::NewGame(GameSetup {
            players: Players {
                black: Player::Human,
                white: Player::Human,
            },
            variant: Variant::Othello,
        }),
    );
    for mv in ["f5", "d6", "c3", "d3"] {
        tap(&mut app, mv);
        app.update();
    }
    app.update();
    assert_eq!(current(&app).game().ply(), 4);
    app
}

fn saved_moves(dir: &std::path::Path) -> String {
    let text = std::fs::read_to_string(dir.join(SavedGame::FILE)).expect("a saved game");
    SavedGame::decode(&text).expect("it reads").moves
}

#[test]
fn a_puzzle_refuses_a_miss_plays_the_answer_is_solved_once_and_gives_the_game_back() {
    let dir = common::temp_dir("puzzle", "solve");
    let mut app = app_with_a_game(&dir);
    let before = current(&app).game().clone();
    assert_eq!(saved_moves(&dir), "f5d6c3d3");

    let puzzle = app
        .world()
        .resource::<PuzzleSet>()
        .of_day(DAY)
        .expect("a puzzle")
        .clone();
    send(&mut app, PuzzleCommand::Start(DAY));
    app.update();
    let side = puzzle.position.side_to_move();
    assert_eq!(current(&app).game().position(), puzzle.position);
    assert_eq!(
        *app.world().resource::<Players>(),
        Players::against_ai(side, AiLevel::Level(montello_engine::search::Level::Master))
    );

    // The first look's move: refused with its exact value and the column of the answer.
    let tempting = Move::Play(puzzle.tempting);
    tap(&mut app, &puzzle.tempting.to_string());
    run_until(&mut app, "the miss judged", |app| {
        session(app).missed.is_some()
    });
    let miss = session(&app).missed.expect("missed");
    assert_eq!(miss.tried, tempting);
    assert_eq!(miss.value, puzzle.tempting_value as f32);
    assert!(
        puzzle
            .answers
            .contains(&montello::game::puzzle::square_of(miss.keeps).expect("a square"))
    );
    assert_eq!(
        column_of(miss.keeps),
        puzzle.answers[0].to_string().chars().next()
    );
    assert_eq!(session(&app).misses, 1);
    assert_eq!(current(&app).game().ply(), 0, "the miss is not played");

    // Each of the player's moves the best there is, to the end; Master answers each.
    let mut turns = 0;
    while !current(&app).game().is_over() {
        run_until(&mut app, "the player's turn", |app| {
            let game = current(app).game();
            game.is_over() || (game.side_to_move() == side && !game.must_pass())
        });
        if current(&app).game().is_over() {
            break;
        }
        let position = current(&app).game().position();
        let best = move_values(&position, Variant::Othello, &EXACT, None)
            .expect("done")
            .moves[0]
            .mv;
        if turns == 0 {
            assert!(
                puzzle
                    .answers
                    .contains(&montello::game::puzzle::square_of(best).expect("a square"))
            );
        }
        let ply = current(&app).game().ply();
        tap(&mut app, &best.to_string());
        run_until(&mut app, "the move played", |app| {
            current(app).game().ply() > ply
        });
        turns += 1;
    }
    run_until(&mut app, "the puzzle finished", |app| {
        matches!(session(app).state, PuzzleState::Finished(_))
    });
    assert!(turns >= 3, "{turns} moves of the player's");
    assert!(session(&app).solved());
    let PuzzleState::Finished(margin) = session(&app).state else {
        unreachable!()
    };
    assert!(puzzle.solved_by(margin), "{margin}");
    // The player played the best each time: the end is the puzzle's best result exactly, so
    // Master's defence was the solver's best too (a slip of its would have given more).
    assert_eq!(margin, puzzle.best);
    app.update();
    let stats = &app.world().resource::<StatsFile>().0;
    assert!(stats.puzzles.solved.contains(&DAY));
    assert_eq!(stats.puzzles.streak(DAY), 1);
    assert!(
        stats.levels.is_empty(),
        "a puzzle is not a game against Master"
    );
    let on_disk = Stats::decode(&std::fs::read_to_string(dir.join(Stats::FILE)).expect("stats"))
        .expect("reads");
    assert!(on_disk.puzzles.solved.contains(&DAY));
    // The saved game stayed the player's all along.
    assert_eq!(saved_moves(&dir), "f5d6c3d3");

    // Leaving gives the game in progress back, players and all.
    send(&mut app, PuzzleCommand::Stop);
    app.update();
    assert!(app.world().resource::<Puzzling>().0.is_none());
    assert_eq!(current(&app).game().history(), before.history());
    assert_eq!(
        *app.world().resource::<Players>(),
        Players {
            black: Player::Human,
            white: Player::Human,
        }
    );
    tap(&mut app, "c4");
    app.update();
    assert_eq!(current(&app).game().ply(), 5, "the game goes on");
    assert_eq!(saved_moves(&dir), "f5d6c3d3c4");
}

#[test]
fn the_solution_puts_the_whole_line_on_the_board_and_does_not_count() {
    let dir = common::temp_dir("puzzle", "shown");
    let mut app = app_with_a_game(&dir);
    send(&mut app, PuzzleCommand::Start(DAY - 1));
    app.update();
    let puzzle = session(&app).puzzle.clone();
    send(&mut app, PuzzleCommand::ShowSolution);
    app.update();
    assert_eq!(session(&app).state, PuzzleState::Shown);
    let game = current(&app).game();
    assert_eq!(game.start_position(), puzzle.position);
    assert_eq!(game.history(), puzzle.line.as_slice());
    assert!(game.is_over());
    app.update();
    assert!(
        app.world()
            .resource::<StatsFile>()
            .0
            .puzzles
            .solved
            .is_empty()
    );
    // Another day's puzzle, then a new game: the new game is the player's choice and stays.
    send(&mut app, PuzzleCommand::Start(DAY - 2));
    app.update();
    assert_eq!(session(&app).day, DAY - 2);
    send(
        &mut app,
        GameCommand::NewGame(GameSetup {
            players: Players::against_ai(
                montello_engine::Side::Black,
                AiLevel::Level(montello_engine::search::Level::Casual),
            ),
            variant: Variant::Othello,
        }),
    );
    app.update();
    assert!(app.world().resource::<Puzzling>().0.is_none());
    assert_eq!(current(&app).game().ply(), 0);
    app.update();
    assert_eq!(saved_moves(&dir), "");
}
