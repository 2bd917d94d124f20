//! The statistics screen: the human's record against each AI level (games, won, lost, drawn,
//! best margin), and a reset that asks for confirmation first.

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::player::AiLevel;
use crate::persist::save::{ResetStats, StatsFile};
use crate::persist::save_format::{LevelRecord, Stats};
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::ui::theme::Type;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{self, UiAction, button, coloured_label, label, panel, row, text_label};
use bevy::prelude::*;

/// The steps of erasing the statistics: this screen's buttons.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum StatsReset {
    /// The first tap: ask for confirmation.
    Ask,
    /// Erase them.
    Confirm,
    /// Keep them.
    Cancel,
}

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<StatsReset>(app);
    app.init_resource::<Confirming>()
        .add_systems(OnEnter(Overlay::Stats), spawn_screen)
        .add_systems(OnExit(Overlay::Stats), |mut c: ResMut<Confirming>| {
            c.0 = false
        })
        .add_systems(
            Update,
            (handle_actions, respawn_on_change)
                .chain()
                .in_set(AppSystems::Input)
                .run_if(in_state(Overlay::Stats)),
        );
}

#[derive(Component, Debug)]
struct Screen;

/// Whether the screen asks "erase every level's statistics?".
#[derive(Resource, Debug, Default, PartialEq, Eq)]
struct Confirming(bool);

/// One line of the screen per level: its name and its record in words, weakest level first;
/// levels never played say so. Records of levels the app no longer offers follow.
pub fn lines(stats: &Stats, lang: Lang) -> Vec<(String, String)> {
    let line = |r: &LevelRecord| {
        if r.games == 0 {
            return lang.t("stats.none").to_string();
        }
        let rate = (u64::from(r.wins) * 100 + u64::from(r.games) / 2) / u64::from(r.games);
        lang.f(
            "stats.line",
            &[
                (
                    "games",
                    &lang.count("stats.games_one", "stats.games_other", u64::from(r.games)),
                ),
                ("wins", &r.wins),
                ("losses", &r.losses),
                ("draws", &r.draws),
                ("rate", &rate),
                ("best", &r.best_margin),
            ],
        )
    };
    let mut out = Vec::new();
    for level in AiLevel::ALL {
        let record = stats.levels.get(&level).copied().unwrap_or_default();
        out.push((level.label(lang), line(&record)));
    }
    for (level, record) in &stats.levels {
        if let AiLevel::Iterations(_) = level {
            out.push((level.label(lang), line(record)));
        }
    }
    out
}

/// The daily puzzles' line: how many were solved, and the streak on `today`.
pub fn puzzles_line(stats: &Stats, lang: Lang, today: i64) -> String {
    lang.f(
        "stats.puzzles",
        &[
            ("n", &stats.puzzles.solved.len()),
            ("streak", &stats.puzzles.streak(today)),
        ],
    )
}

fn spawn_screen(
    mut commands: Commands,
    stats: Res<StatsFile>,
    lang: Res<Language>,
    confirming: Res<Confirming>,
) {
    let lang = lang.0;
    let inner = commands.spawn(panel()).id();
    // The levels, then the daily puzzles (#71).
    let mut rows = lines(&stats.0, lang);
    rows.push((
        lang.t("menu.puzzle").to_string(),
        puzzles_line(&stats.0, lang, crate::platform::clock::today()),
    ));
    for (name, record) in rows {
        commands.entity(inner).with_child((
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(2),
                ..default()
            },
            Pickable::IGNORE,
            children![
                text_label(name, theme::Type::Large),
                (
                    coloured_label(record, Type::Body, Color::WHITE),
                    Paint::TextDim
                ),
            ],
        ));
    }
    let buttons = if confirming.0 {
        commands
            .spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(8),
                    ..default()
                },
                Pickable::IGNORE,
                children![
                    label("stats.confirm", theme::Type::Large),
                    (
                        row(),
                        children![
                            button("stats.erase", StatsReset::Confirm),
                            button("common.cancel", StatsReset::Cancel),
                        ]
                    ),
                ],
            ))
            .id()
    } else {
        commands
            .spawn((
                row(),
                children![
                    button("stats.reset", StatsReset::Ask),
                    button("common.back", Nav::Open(Overlay::Menu)),
                ],
            ))
            .id()
    };
    commands.entity(inner).add_child(buttons);
    open_panel(
        &mut commands,
        Overlay::Stats,
        Screen,
        label("stats.title", Type::Heading),
        inner,
        None,
    );
}

fn handle_actions(
    mut actions: MessageReader<UiAction<StatsReset>>,
    mut confirming: ResMut<Confirming>,
    mut reset: MessageWriter<ResetStats>,
) {
    for UiAction(action) in actions.read() {
        match action {
            StatsReset::Ask => confirming.0 = true,
            StatsReset::Cancel => confirming.0 = false,
            StatsReset::Confirm => {
                confirming.0 = false;
                reset.write(ResetStats);
            }
        }
    }
}

fn respawn_on_change(
    mut commands: Commands,
    stats: Res<StatsFile>,
    language: Res<Language>,
    confirming: Res<Confirming>,
    screens: Query<Entity, With<Screen>>,
) {
    if !(stats.is_changed() || language.is_changed() || confirming.is_changed())
        || screens.is_empty()
    {
        return;
    }
    super::respawn(&mut commands, screens, spawn_screen);
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::search::Level;

    #[test]
    fn every_level_has_a_line_and_played_ones_give_their_record() {
        let mut stats = Stats::default();
        let beginner = AiLevel::Level(Level::Beginner);
        stats.record(beginner, 12);
        stats.record(beginner, -4);
        stats.record(beginner, 0);
        stats.record(AiLevel::Iterations(500), 2);
        let out = lines(&stats, Lang::En);
        assert_eq!(out.len(), AiLevel::ALL.len() + 1);
        assert_eq!(out[0].0, "Beginner");
        assert_eq!(
            out[0].1,
            "3 games: 1 won, 1 lost, 1 drawn (33% won), best margin 12"
        );
        assert_eq!(out[1].1, "No games yet");
        assert_eq!(out.last().map(|l| l.0.as_str()), Some("500 playouts"));
        let ja = lines(&stats, Lang::Ja);
        assert_ne!(ja[0], out[0], "the lines are translated");
        // One game is singular, in French zero would be too.
        assert!(
            out.last().is_some_and(|l| l.1.starts_with("1 game: 1 won")),
            "{out:?}"
        );
        let fr = lines(&stats, Lang::Fr);
        assert!(fr[0].1.starts_with("3 parties\u{a0}: "), "{:?}", fr[0]);
        assert!(
            fr.last()
                .is_some_and(|l| l.1.starts_with("1 partie\u{a0}: ")),
            "{fr:?}"
        );
    }
}
