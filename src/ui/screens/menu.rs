//! The menu: settings toggles and sharing (copy the game, start from a pasted one).

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::prefs::choices::Lang;
use crate::prefs::choices::{AnimationSpeed, TextSize, ThemeName, WinShows};
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::theme::Type;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{
    self, Localized, UiAction, button, choice, choice_text, coloured_label, label, layout, panel,
    row, switch,
};
use bevy::prelude::*;

/// Settings a switch toggles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Toggle {
    /// Legal-move dots.
    LegalMoves,
    /// Coordinates along the edges.
    Coordinates,
    /// The win bar.
    WinBar,
    /// Whether the Hint button works.
    Hints,
    /// Sound effects.
    Sound,
    /// Haptics on placing a disc and on a refused tap.
    Haptics,
    /// A human with no legal move passes by itself.
    AutoPass,
    /// The AI's search statistics.
    AiStats,
}

/// What the menu's settings do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum MenuAction {
    /// Flip an on/off setting.
    Toggle(Toggle),
    /// What the win bar shows.
    SetWinShows(WinShows),
    /// The animations' speed.
    SetAnimation(AnimationSpeed),
    /// The theme.
    SetTheme(ThemeName),
    /// The text size.
    SetTextSize(TextSize),
    /// The language (`None`: the system's).
    SetLanguage(Option<Lang>),
}

/// The menu's sharing buttons, which the app's clipboard glue (desktop) follows.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShareAction {
    /// Copy the game as a transcript (`f5d6c3...`).
    CopyTranscript,
    /// Copy the game as a GGF record.
    CopyGgf,
    /// Start from a pasted transcript, GGF record or board string.
    Paste,
}

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<MenuAction>(app);
    widgets::actions::<ShareAction>(app);
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

/// A wrapping row of the choices for one setting.
fn choice_row<B: Bundle>(commands: &mut Commands, choices: impl IntoIterator<Item = B>) -> Entity {
    let mut line = commands.spawn(row());
    for choice in choices {
        line.with_child(choice);
    }
    line.id()
}

fn spawn_screen(mut commands: Commands, settings: Res<Settings>) {
    // The choices first (their rows are filled in before the panel takes them).
    let choices = choice_sections(&mut commands, &settings);
    let inner = commands
        .spawn((panel(), children![switches(&settings)]))
        .id();
    let share = commands.spawn(share_section()).id();
    commands
        .entity(inner)
        .add_children(&choices)
        .add_children(&[share]);
    open_panel(
        &mut commands,
        Overlay::Menu,
        Screen,
        label("toolbar.menu", Type::Heading),
        inner,
        None,
    );
}

/// The daily puzzle and the on/off settings, one under another.
fn switches(settings: &Settings) -> impl Bundle {
    let toggle =
        |key: &'static str, which: Toggle, on: bool| switch(key, MenuAction::Toggle(which), on);
    (
        layout(Node {
            flex_direction: FlexDirection::Column,
            row_gap: px(6),
            ..default()
        }),
        children![
            button("menu.puzzle", Nav::Open(Overlay::Puzzle)),
            toggle("menu.legal_moves", Toggle::LegalMoves, settings.legal_moves),
            toggle(
                "menu.coordinates",
                Toggle::Coordinates,
                settings.coordinates
            ),
            toggle("menu.win_bar", Toggle::WinBar, settings.win_bar),
            toggle("menu.hints", Toggle::Hints, settings.hints),
            toggle("menu.sound", Toggle::Sound, settings.sound),
            toggle("menu.haptics", Toggle::Haptics, settings.haptics),
            toggle("menu.auto_pass", Toggle::AutoPass, settings.auto_pass),
            toggle("menu.ai_stats", Toggle::AiStats, settings.ai_stats),
        ],
    )
}

/// The settings chosen among a few, each a title over its row of choices: what the win bar
/// shows, the animations' speed, the theme, the text size and the language (the system's
/// first).
fn choice_sections(commands: &mut Commands, settings: &Settings) -> Vec<Entity> {
    let speeds = choice_row(
        commands,
        AnimationSpeed::ALL.map(|speed| {
            choice(
                speed.key(),
                MenuAction::SetAnimation(speed),
                speed == settings.animations,
            )
        }),
    );
    let win_shows = choice_row(
        commands,
        WinShows::ALL.map(|shows| {
            choice(
                shows.key(),
                MenuAction::SetWinShows(shows),
                shows == settings.win_shows,
            )
        }),
    );
    let sizes = choice_row(
        commands,
        TextSize::ALL.map(|size| {
            choice(
                size.key(),
                MenuAction::SetTextSize(size),
                size == settings.text_size,
            )
        }),
    );
    let themes = choice_row(
        commands,
        ThemeName::ALL.map(|theme| {
            choice(
                theme.key(),
                MenuAction::SetTheme(theme),
                theme == settings.theme,
            )
        }),
    );
    let languages = choice_row(
        commands,
        Lang::ALL.map(|l| {
            choice_text(
                l.native_name(),
                MenuAction::SetLanguage(Some(l)),
                settings.language == Some(l),
            )
        }),
    );
    // The system's language first.
    let system = commands
        .spawn(choice(
            "menu.system_language",
            MenuAction::SetLanguage(None),
            settings.language.is_none(),
        ))
        .id();
    commands.entity(languages).insert_children(0, &[system]);
    let mut title = |key: &'static str| commands.spawn(label(key, theme::Type::Large)).id();
    vec![
        title("menu.win_shows"),
        win_shows,
        title("menu.animations"),
        speeds,
        title("menu.theme"),
        themes,
        title("menu.text_size"),
        sizes,
        title("menu.language"),
        languages,
    ]
}

/// Sharing (copy the game, paste one) and the way to help, about and statistics.
fn share_section() -> impl Bundle {
    let share_note = if cfg!(any(target_os = "android", target_os = "ios")) {
        "menu.share_note_phone"
    } else {
        "menu.share_note_desktop"
    };
    (
        Node {
            flex_direction: FlexDirection::Column,
            row_gap: px(10),
            ..default()
        },
        Pickable::IGNORE,
        children![
            label("menu.share", Type::Heading),
            (
                row(),
                children![
                    button("menu.copy_transcript", ShareAction::CopyTranscript),
                    button("menu.copy_ggf", ShareAction::CopyGgf),
                    button("menu.paste", ShareAction::Paste),
                ]
            ),
            (
                coloured_label("", Type::Small, Color::WHITE),
                Paint::TextDim,
                Localized(share_note)
            ),
            (
                row(),
                children![
                    button("menu.help", Nav::Open(Overlay::Help)),
                    button("menu.about", Nav::Open(Overlay::About)),
                    button("menu.statistics", Nav::Open(Overlay::Stats)),
                ]
            ),
        ],
    )
}

fn handle_actions(
    mut actions: MessageReader<UiAction<MenuAction>>,
    mut settings: ResMut<Settings>,
) {
    for UiAction(action) in actions.read() {
        match *action {
            MenuAction::Toggle(which) => {
                let flag = match which {
                    Toggle::LegalMoves => &mut settings.legal_moves,
                    Toggle::Coordinates => &mut settings.coordinates,
                    Toggle::WinBar => &mut settings.win_bar,
                    Toggle::Hints => &mut settings.hints,
                    Toggle::Sound => &mut settings.sound,
                    Toggle::Haptics => &mut settings.haptics,
                    Toggle::AutoPass => &mut settings.auto_pass,
                    Toggle::AiStats => &mut settings.ai_stats,
                };
                *flag = !*flag;
            }
            MenuAction::SetWinShows(shows) => settings.win_shows = shows,
            MenuAction::SetAnimation(speed) => settings.animations = speed,
            MenuAction::SetTheme(theme) => settings.theme = theme,
            MenuAction::SetTextSize(size) => settings.text_size = size,
            MenuAction::SetLanguage(lang) => settings.language = lang,
        }
    }
}

fn respawn_on_change(
    mut commands: Commands,
    settings: Res<Settings>,
    language: Res<Language>,
    screens: Query<Entity, With<Screen>>,
) {
    if !(settings.is_changed() || language.is_changed()) || screens.is_empty() {
        return;
    }
    super::respawn(&mut commands, screens, spawn_screen);
}
