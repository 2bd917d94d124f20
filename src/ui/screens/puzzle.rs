//! The daily puzzle's sheet (#71), under the board while a puzzle is played
//! (`game::puzzle`): the day, what the player is asked ("Black to move and win", the empty
//! squares left), then where the try is (a miss with its value and the hint, Master's answer,
//! solved with the streak), and the solution on request. The arrows go to the day before and
//! after (never past today); the × (or back) leaves the puzzle for the game in progress.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::flow::CurrentGame;
use crate::game::puzzle::{PuzzleCommand, PuzzleState, Puzzling, Session, column_of};
use crate::persist::save::StatsFile;
use crate::platform::clock;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::{Language, signed_discs};
use crate::ui::theme::{Opacity, Type};
use crate::ui::widgets::{self, UiAction, text_label};
use bevy::prelude::*;
use montello_engine::search::puzzle::Goal;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<PuzzleAction>(app);
    app.init_resource::<Today>()
        .add_systems(OnEnter(Overlay::Puzzle), (start_today, spawn_sheet).chain())
        .add_systems(OnExit(Overlay::Puzzle), leave)
        .add_systems(
            Update,
            (
                handle_actions
                    .in_set(AppSystems::Input)
                    .run_if(in_state(Overlay::Puzzle)),
                follow_puzzle.in_set(AppSystems::View),
            ),
        )
        .add_systems(
            Update,
            (show_text, dim_buttons)
                .in_set(AppSystems::View)
                .run_if(in_state(Overlay::Puzzle)),
        );
}

/// Today in the player's calendar (days since 1970-01-01), read when the sheet opens (tests
/// set it).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Today(pub i64);

impl Default for Today {
    fn default() -> Self {
        Today(clock::today())
    }
}

/// What the sheet's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum PuzzleAction {
    /// The day before's puzzle.
    Earlier,
    /// Put the solution on the board; once finished or shown, play the puzzle again.
    SolutionOrAgain,
    /// The day after's puzzle (up to today's).
    Later,
}

#[derive(Component, Debug)]
struct Sheet;

/// The sheet's title: the puzzle's day.
#[derive(Component, Debug)]
struct PuzzleTitle;

/// The sheet's text ([`puzzle_text`]).
#[derive(Component, Debug)]
struct PuzzleText;

/// The middle button's label: "Show the solution" or "Play it again".
#[derive(Component, Debug)]
struct MiddleLabel;

/// The sheet's title for `day`: "Puzzle of 2026-11-29".
pub fn puzzle_title(day: i64, lang: Lang) -> String {
    lang.f("puzzle.title", &[("date", &clock::iso_date(day))])
}

/// What the sheet says about `session`: what the player is asked, then where the puzzle is.
/// `streak` is the player's streak with this puzzle counted.
pub fn puzzle_text(session: &Session, current: &CurrentGame, lang: Lang, streak: u32) -> String {
    let puzzle = &session.puzzle;
    let side = lang.side(session.side());
    let empties = puzzle.position.empties().count().to_string();
    let goal = match puzzle.goal() {
        Goal::Win => lang.f("puzzle.goal_win", &[("side", &side), ("n", &empties)]),
        Goal::Best => lang.f("puzzle.goal_best", &[("side", &side), ("n", &empties)]),
    };
    let game = current.game();
    let now = match session.state {
        PuzzleState::Judging(mv) => lang.f("puzzle.checking", &[("move", &lang.move_name(mv))]),
        PuzzleState::Playing => match session.missed {
            Some(miss) => {
                let key = match puzzle.goal() {
                    Goal::Win => "puzzle.missed_win",
                    Goal::Best => "puzzle.missed_best",
                };
                let column = column_of(miss.keeps).map(String::from).unwrap_or_default();
                lang.f(
                    key,
                    &[
                        ("move", &lang.move_name(miss.tried)),
                        ("value", &signed_discs(miss.value)),
                        ("column", &column),
                    ],
                )
            }
            None if game.side_to_move() != session.side() => lang.t("puzzle.answering").into(),
            None if game.ply() == 0 => lang.t("puzzle.ask").into(),
            None => lang.t("puzzle.go_on").into(),
        },
        PuzzleState::Finished(margin) if puzzle.solved_by(margin) => {
            let streak = if streak == 1 {
                lang.f("puzzle.streak_one", &[("n", &1)])
            } else {
                lang.f("puzzle.streak_other", &[("n", &streak.to_string())])
            };
            let result = if margin > 0 {
                lang.f("result.won", &[("margin", &margin)])
            } else {
                lang.t("result.draw").to_string()
            };
            lang.f("puzzle.solved", &[("result", &result), ("streak", &streak)])
        }
        PuzzleState::Finished(margin) => lang.f(
            "puzzle.unsolved",
            &[("value", &signed_discs(margin as f32))],
        ),
        PuzzleState::Shown => {
            let line: Vec<String> = puzzle.line.iter().map(|mv| lang.move_name(*mv)).collect();
            lang.f(
                "puzzle.shown",
                &[
                    ("line", &line.join(" ")),
                    ("value", &signed_discs(puzzle.best as f32)),
                ],
            )
        }
    };
    format!("{goal}\n{now}")
}

/// Opening the sheet with no puzzle under way starts today's.
fn start_today(
    puzzling: Res<Puzzling>,
    mut today: ResMut<Today>,
    mut commands: MessageWriter<PuzzleCommand>,
) {
    *today = Today::default();
    if puzzling.0.is_none() {
        commands.write(PuzzleCommand::Start(today.0));
    }
}

fn spawn_sheet(
    mut commands: Commands,
    lang: Res<Language>,
    puzzling: Res<Puzzling>,
    today: Res<Today>,
) {
    let body = commands
        .spawn(widgets::panel())
        .with_child((text_label("", Type::Body), PuzzleText))
        .id();
    let middle = (text_label(lang.0.t("puzzle.show"), Type::Body), MiddleLabel);
    let footer = commands
        .spawn((
            Node {
                column_gap: px(6),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .with_child(widgets::row_action(
            PuzzleAction::Earlier,
            false,
            text_label("‹", Type::Title),
        ))
        .with_child(widgets::row_action(
            PuzzleAction::SolutionOrAgain,
            false,
            middle,
        ))
        .with_child(widgets::row_action(
            PuzzleAction::Later,
            false,
            text_label("›", Type::Title),
        ))
        .id();
    let day = puzzling.0.as_ref().map_or(today.0, |s| s.day);
    open_panel(
        &mut commands,
        Overlay::Puzzle,
        Sheet,
        (
            text_label(puzzle_title(day, lang.0), Type::Title),
            PuzzleTitle,
        ),
        body,
        Some(footer),
    );
}

fn show_text(
    puzzling: Res<Puzzling>,
    current: Res<CurrentGame>,
    lang: Res<Language>,
    stats: Res<StatsFile>,
    today: Res<Today>,
    added: Query<(), Added<PuzzleText>>,
    mut texts: Query<(
        &mut Text,
        Has<PuzzleText>,
        Has<PuzzleTitle>,
        Has<MiddleLabel>,
    )>,
) {
    // Written when what it says changed (or the sheet was just spawned), not every frame.
    if !(puzzling.is_changed()
        || current.is_changed()
        || lang.is_changed()
        || stats.is_changed()
        || today.is_changed())
        && added.is_empty()
    {
        return;
    }
    let Some(session) = puzzling.0.as_ref() else {
        return;
    };
    let streak = stats.0.puzzles.streak(today.0);
    let body = puzzle_text(session, &current, lang.0, streak);
    let title = puzzle_title(session.day, lang.0);
    let middle = lang.0.t(match session.state {
        PuzzleState::Finished(_) | PuzzleState::Shown => "puzzle.again",
        _ => "puzzle.show",
    });
    for (mut t, is_body, is_title, is_middle) in &mut texts {
        let want = if is_body {
            &body
        } else if is_title {
            &title
        } else if is_middle {
            middle
        } else {
            continue;
        };
        if t.0 != *want {
            t.0 = want.to_string();
        }
    }
}

/// Later is dimmed on today's puzzle (tomorrow's is not out yet).
fn dim_buttons(
    mut commands: Commands,
    puzzling: Res<Puzzling>,
    today: Res<Today>,
    buttons: Query<(Entity, &PuzzleAction, &Children, Option<&Opacity>)>,
    added: Query<(), Added<PuzzleAction>>,
) {
    if !(puzzling.is_changed() || today.is_changed()) && added.is_empty() {
        return;
    }
    let day = puzzling.0.as_ref().map_or(today.0, |s| s.day);
    for (button, action, children, opacity) in &buttons {
        let can = match action {
            PuzzleAction::Later => day < today.0,
            PuzzleAction::Earlier | PuzzleAction::SolutionOrAgain => true,
        };
        widgets::set_enabled(&mut commands, button, children, opacity, can);
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction<PuzzleAction>>,
    puzzling: Res<Puzzling>,
    today: Res<Today>,
    mut commands: MessageWriter<PuzzleCommand>,
) {
    let Some(session) = puzzling.0.as_ref() else {
        return;
    };
    for UiAction(action) in actions.read() {
        match action {
            PuzzleAction::Earlier => {
                commands.write(PuzzleCommand::Start(session.day - 1));
            }
            PuzzleAction::Later if session.day < today.0 => {
                commands.write(PuzzleCommand::Start(session.day + 1));
            }
            PuzzleAction::Later => {}
            PuzzleAction::SolutionOrAgain => {
                commands.write(match session.state {
                    PuzzleState::Finished(_) | PuzzleState::Shown => {
                        PuzzleCommand::Start(session.day)
                    }
                    _ => PuzzleCommand::ShowSolution,
                });
            }
        }
    }
}

/// The sheet is open while a puzzle is under way: it opens when one starts (the menu, the
/// command line) and goes when the puzzle ends (a new game took the board).
fn follow_puzzle(
    puzzling: Res<Puzzling>,
    overlay: Res<State<Overlay>>,
    mut next: ResMut<NextState<Overlay>>,
) {
    if !puzzling.is_changed() {
        return;
    }
    let open = *overlay.get() == Overlay::Puzzle;
    match (puzzling.0.is_some(), open) {
        (true, false) => next.set(Overlay::Puzzle),
        (false, true) => next.set(Overlay::None),
        _ => {}
    }
}

/// Leaving the sheet leaves the puzzle: the game in progress comes back.
fn leave(puzzling: Res<Puzzling>, mut commands: MessageWriter<PuzzleCommand>) {
    if puzzling.0.is_some() {
        commands.write(PuzzleCommand::Stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::puzzle::{Miss, PuzzleSet};
    use montello_engine::{Game, Move, Variant};

    fn session(state: PuzzleState, missed: Option<Miss>) -> Session {
        // 2026-11-29: White to move and win, 11 empty squares; e7 wins by 6, b1 draws.
        let puzzle = PuzzleSet::default()
            .of_day(20_786)
            .expect("a puzzle")
            .clone();
        Session {
            day: 20_786,
            puzzle,
            state,
            missed,
            misses: u32::from(missed.is_some()),
            back: None,
        }
    }

    fn text(session: &Session) -> String {
        let current = CurrentGame::new(Game::from_position(
            session.puzzle.position,
            Variant::Othello,
        ));
        puzzle_text(session, &current, Lang::En, 3)
    }

    #[test]
    fn the_sheet_says_the_goal_then_the_miss_the_hint_the_end_or_the_solution() {
        let mv = |s: &str| Move::Play(s.parse().expect("a square"));
        assert_eq!(puzzle_title(20_786, Lang::En), "Puzzle of 2026-11-29");
        let asked = text(&session(PuzzleState::Playing, None));
        assert!(
            asked.starts_with("White to move and win (11 empty squares).\n"),
            "{asked}"
        );
        let missed = text(&session(
            PuzzleState::Playing,
            Some(Miss {
                tried: mv("b1"),
                value: 0.0,
                keeps: mv("e7"),
            }),
        ));
        assert!(
            missed.ends_with("b1 does not win: with best play it ends 0. Hint: a winning move is in column e. Try again."),
            "{missed}"
        );
        let solved = text(&session(PuzzleState::Finished(6), None));
        assert!(
            solved.ends_with("Solved: You won by 6! Streak: 3 days."),
            "{solved}"
        );
        let short = text(&session(PuzzleState::Finished(0), None));
        assert!(short.contains("short of the goal"), "{short}");
        let shown = text(&session(PuzzleState::Shown, None));
        assert!(
            shown.ends_with("The solution: e7 b2 b1 f8 f7 g8 g7 h8 h7 d8 b8, ending +6."),
            "{shown}"
        );
        // Every language says it, with its own words.
        for lang in [Lang::Fr, Lang::De, Lang::Ja] {
            let current = CurrentGame::new(Game::from_position(
                session(PuzzleState::Playing, None).puzzle.position,
                Variant::Othello,
            ));
            let said = puzzle_text(&session(PuzzleState::Shown, None), &current, lang, 1);
            assert!(
                said.contains("e7") && !said.contains("puzzle."),
                "{lang:?}: {said}"
            );
        }
    }
}
