//! The menu: settings toggles and sharing (copy the game, start from a pasted one).

use super::Overlay;
use crate::AppSystems;
use crate::settings::Settings;
use crate::theme;
use crate::widgets::{
    Action, Toggle, UiAction, button, choice, coloured_label, label, overlay_panel, panel, row,
};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Overlay::Menu), spawn_screen)
        .add_systems(
            Update,
            (handle_actions, respawn_on_change)
                .chain()
                .in_set(AppSystems::Input)
                .run_if(in_state(Overlay::Menu)),
        );
}

#[derive(Component, Debug)]
struct Screen;

fn spawn_screen(mut commands: Commands, settings: Res<Settings>) {
    let toggle = |name: &str, which: Toggle, on: bool| {
        choice(
            format!("{name}: {}", if on { "on" } else { "off" }),
            Action::Toggle(which),
            on,
        )
    };
    let share_note = if cfg!(any(target_os = "android", target_os = "ios")) {
        "Copy and paste use the system clipboard on desktop only for now."
    } else {
        "Paste accepts a transcript (f5d6c3...), a GGF record or a board string."
    };
    commands.spawn((
        overlay_panel(Overlay::Menu),
        Screen,
        children![(
            panel(),
            children![
                label("Settings", 28.0),
                (
                    row(),
                    children![
                        toggle("Legal moves", Toggle::LegalMoves, settings.legal_moves),
                        toggle("Coordinates", Toggle::Coordinates, settings.coordinates),
                        toggle("Animations", Toggle::Animations, settings.animations),
                        toggle("Win bar", Toggle::WinBar, settings.win_bar),
                    ]
                ),
                label("Share", 28.0),
                (
                    row(),
                    children![
                        button("Copy transcript", Action::CopyTranscript),
                        button("Copy GGF", Action::CopyGgf),
                        button("Paste game", Action::Paste),
                    ]
                ),
                coloured_label(share_note, 15.0, theme::TEXT_DIM),
                (row(), children![button("Close", Action::Close)]),
            ],
        )],
    ));
}

fn handle_actions(mut actions: MessageReader<UiAction>, mut settings: ResMut<Settings>) {
    for UiAction(action) in actions.read() {
        if let Action::Toggle(which) = *action {
            let flag = match which {
                Toggle::LegalMoves => &mut settings.legal_moves,
                Toggle::Coordinates => &mut settings.coordinates,
                Toggle::Animations => &mut settings.animations,
                Toggle::WinBar => &mut settings.win_bar,
            };
            *flag = !*flag;
        }
    }
}

fn respawn_on_change(
    mut commands: Commands,
    settings: Res<Settings>,
    screens: Query<Entity, With<Screen>>,
) {
    if !settings.is_changed() || screens.is_empty() {
        return;
    }
    for entity in &screens {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn_screen);
}
