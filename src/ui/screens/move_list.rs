//! The move list: every move of the game, scrollable with a finger or the mouse wheel; tapping
//! a move shows the board after it, and Previous / Next step through the game.

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::ai::AiState;
use crate::game::flow::{CurrentGame, GameCommand};
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{
    self, UiAction, choice_text, coloured_label, icon_button, label, panel, row, text_label,
};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<MoveAction>(app);
    app.add_systems(OnEnter(Overlay::Moves), spawn_screen)
        .add_systems(
            Update,
            (
                handle_actions.in_set(AppSystems::Input),
                respawn_on_change.run_if(in_state(Overlay::Moves)),
            ),
        );
}

#[derive(Component, Debug)]
struct Screen;

/// What the move list's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveAction {
    /// Show the board after this many moves (`None`: the game as it stands).
    Review(Option<usize>),
    /// Step back or forward through the game.
    Step(i32),
}

fn spawn_screen(
    mut commands: Commands,
    current: Res<CurrentGame>,
    lang: Res<Language>,
    ai: Res<AiState>,
    settings: Res<Settings>,
) {
    let game = &current.game;
    let shown = current.shown_ply();
    // The list scrolls between the title and the controls.
    let list = commands
        .spawn((panel(), children![label("moves.tap", 16.0)]))
        .id();
    if game.all_moves().is_empty() {
        commands
            .entity(list)
            .with_child(label("moves.none", theme::FONT));
    }
    for (pair, moves) in game.all_moves().chunks(2).enumerate() {
        let mut line = commands.spawn(row());
        line.with_child((
            text_label(format!("{:>2}.", pair + 1), theme::FONT),
            Node {
                width: px(44),
                ..default()
            },
        ));
        for (i, mv) in moves.iter().enumerate() {
            let ply = pair * 2 + i + 1;
            // Moves past the current one were undone: they can be redone, not reviewed.
            if ply <= game.ply() {
                line.with_child(choice_text(
                    mv.to_string(),
                    MoveAction::Review(Some(ply)),
                    ply == shown,
                ));
                // The AI's numbers for its moves, quietly beside them.
                if settings.ai_stats
                    && let Some(stats) = ai.stats_of_move(ply - 1, *mv)
                {
                    line.with_child((
                        coloured_label(stats.short(lang.0), 15.0, Color::WHITE),
                        Paint::TextDim,
                    ));
                }
            } else {
                line.with_child(text_label(format!("({mv})"), theme::FONT));
            }
        }
        let line = line.id();
        commands.entity(list).add_child(line);
    }
    // Stepping through the game, under the list like a player's controls.
    let controls = commands
        .spawn((
            Node::default(),
            Pickable::IGNORE,
            children![
                icon_button("«", "moves.start", MoveAction::Review(Some(0))),
                icon_button("‹", "moves.prev", MoveAction::Step(-1)),
                icon_button("›", "moves.next", MoveAction::Step(1)),
                icon_button("»", "moves.now", MoveAction::Review(None)),
                icon_button("◐", "moves.graph", Nav::Open(Overlay::Graph)),
            ],
        ))
        .id();
    open_panel(
        &mut commands,
        Overlay::Moves,
        Screen,
        text_label(lang.f("moves.title", &[("n", &game.ply())]), 28.0),
        list,
        Some(controls),
    );
}

fn handle_actions(
    mut actions: MessageReader<UiAction<MoveAction>>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
) {
    for UiAction(action) in actions.read() {
        let ply = match *action {
            MoveAction::Review(ply) => ply,
            MoveAction::Step(step) => {
                let target = current.shown_ply().saturating_add_signed(step as isize);
                Some(target.min(current.game.ply()))
            }
        };
        commands.write(GameCommand::Review(ply.filter(|&p| p < current.game.ply())));
    }
}

fn respawn_on_change(
    mut commands: Commands,
    current: Res<CurrentGame>,
    screens: Query<Entity, With<Screen>>,
    mut seen: Local<(usize, usize)>,
) {
    // Rebuild when moves come or go, not when reviewing (that would lose the scroll).
    let now = (current.game.ply(), current.game.all_moves().len());
    if *seen == now {
        return;
    }
    *seen = now;
    for entity in &screens {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn_screen);
}
