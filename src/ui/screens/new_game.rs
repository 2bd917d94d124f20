//! The new-game screen: each side Human or AI, the AI's level, the rules, Start.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::ai::AiState;
use crate::game::flow::{GameCommand, GameSetup};
use crate::game::player::AiLevel;
use crate::game::player::Player;
use crate::game::players::Players;
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{
    self, UiAction, choice, choice_text, coloured_label, label, panel, primary_button, row, switch,
    text_label,
};
use bevy::prelude::*;
use montello_engine::{Side, Variant};

/// What the new-game screen's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Debug)]
pub enum NewGameAction {
    /// Who plays a side.
    SetPlayer(Side, Player),
    /// The AI's level.
    SetLevel(AiLevel),
    /// The rules.
    SetVariant(Variant),
    /// Face to face (two people): table mode on or off.
    FaceToFace,
    /// Start the game.
    Start,
}

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<NewGameAction>(app);
    app.init_resource::<Draft>()
        .add_systems(
            OnEnter(Overlay::NewGame),
            (start_draft, spawn_screen).chain(),
        )
        .add_systems(
            Update,
            (handle_actions, respawn_on_change)
                .chain()
                .in_set(AppSystems::Input)
                .run_if(in_state(Overlay::NewGame)),
        );
}

/// The choices being made.
#[derive(Resource, Debug, Default)]
struct Draft {
    black_ai: bool,
    white_ai: bool,
    level: AiLevel,
    variant: Variant,
}

#[derive(Component, Debug)]
struct Screen;

fn start_draft(mut draft: ResMut<Draft>, players: Res<Players>) {
    let level = |p: Player| match p {
        Player::Ai(l) => Some(l),
        Player::Human => None,
    };
    draft.black_ai = players.black != Player::Human;
    draft.white_ai = players.white != Player::Human;
    draft.level = level(players.white)
        .or(level(players.black))
        .filter(|l| AiLevel::ALL.contains(l))
        .unwrap_or_default();
}

fn spawn_screen(
    mut commands: Commands,
    draft: Res<Draft>,
    lang: Res<Language>,
    settings: Res<Settings>,
) {
    let level = draft.level;
    let side_row = |side: Side, ai: bool| {
        (
            row(),
            children![
                (
                    text_label(lang.side(side), theme::FONT),
                    Node {
                        min_width: px(70),
                        ..default()
                    }
                ),
                choice(
                    "new_game.human",
                    NewGameAction::SetPlayer(side, Player::Human),
                    !ai
                ),
                choice(
                    "new_game.ai",
                    NewGameAction::SetPlayer(side, Player::Ai(level)),
                    ai
                ),
            ],
        )
    };
    let mut levels = commands.spawn(row());
    for l in AiLevel::ALL {
        levels.with_child(choice_text(
            l.label(lang.0),
            NewGameAction::SetLevel(l),
            l == draft.level,
        ));
    }
    let levels = levels.id();
    let mut variants = commands.spawn(row());
    for v in Variant::ALL {
        variants.with_child(choice_text(
            lang.variant(v),
            NewGameAction::SetVariant(v),
            v == draft.variant,
        ));
    }
    let variants = variants.id();
    let inner = commands
        .spawn((
            panel(),
            children![
                side_row(Side::Black, draft.black_ai),
                side_row(Side::White, draft.white_ai),
                label("new_game.level", theme::FONT),
            ],
        ))
        .id();
    let rules = commands.spawn(label("new_game.rules", theme::FONT)).id();
    // What the chosen rules mean, in a sentence.
    let rules_about = commands
        .spawn((
            coloured_label(lang.variant_about(draft.variant), 16.0, Color::WHITE),
            Paint::TextDim,
        ))
        .id();
    // Two humans may sit face to face, the device flat between them.
    let table = commands.spawn(row()).id();
    if !draft.black_ai && !draft.white_ai {
        commands.entity(table).with_child(switch(
            "new_game.face_to_face",
            NewGameAction::FaceToFace,
            settings.table_mode,
        ));
    }
    // Start stays in view under the choices, however far they scroll.
    let start = commands
        .spawn((
            Node::default(),
            Pickable::IGNORE,
            children![primary_button("new_game.start", NewGameAction::Start)],
        ))
        .id();
    commands
        .entity(inner)
        .add_children(&[levels, rules, variants, rules_about, table]);
    open_panel(
        &mut commands,
        Overlay::NewGame,
        Screen,
        label("new_game.title", 28.0),
        inner,
        Some(start),
    );
}

fn handle_actions(
    mut actions: MessageReader<UiAction<NewGameAction>>,
    mut draft: ResMut<Draft>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
    mut ai: ResMut<AiState>,
    mut settings: ResMut<Settings>,
) {
    for UiAction(action) in actions.read() {
        match *action {
            NewGameAction::FaceToFace => settings.table_mode = !settings.table_mode,
            NewGameAction::SetPlayer(side, player) => {
                let is_ai = player != Player::Human;
                match side {
                    Side::Black => draft.black_ai = is_ai,
                    Side::White => draft.white_ai = is_ai,
                }
            }
            NewGameAction::SetLevel(level) => draft.level = level,
            NewGameAction::SetVariant(variant) => draft.variant = variant,
            NewGameAction::Start => {
                let player = |ai| {
                    if ai {
                        Player::Ai(draft.level)
                    } else {
                        Player::Human
                    }
                };
                ai.cancel();
                commands.write(GameCommand::NewGame(GameSetup {
                    players: Players {
                        black: player(draft.black_ai),
                        white: player(draft.white_ai),
                    },
                    variant: draft.variant,
                }));
                next.set(Overlay::None);
            }
        }
    }
}

fn respawn_on_change(
    mut commands: Commands,
    draft: Res<Draft>,
    settings: Res<Settings>,
    screens: Query<Entity, With<Screen>>,
    state: Res<State<Overlay>>,
    mut table_mode: Local<Option<bool>>,
) {
    // The screen shows one setting, Face to face: rebuild when it flips, not on any change.
    let previous = table_mode.replace(settings.table_mode);
    let table_flipped = previous.is_some_and(|was| was != settings.table_mode);
    let changed = (draft.is_changed() && !draft.is_added()) || table_flipped;
    if !changed || *state.get() != Overlay::NewGame {
        return;
    }
    for entity in &screens {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn_screen);
}
