//! "How to play" (the rules, the variants and a first-game tutorial whose diagrams the
//! engine computes) and "About the AI" (how UCT thinks, in plain words, and the settings of
//! the level the player faces). Both open from the menu and go back to it.

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::player::AiLevel;
use crate::game::player::Player;
use crate::game::players::Players;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::ui::theme::Paint;
use crate::ui::theme::Type;
use crate::ui::widgets::{button, coloured_label, label, panel, row, text_label};
use bevy::prelude::*;
use montello_engine::{Position, Side, Square, Variant};

pub(super) fn plugin(app: &mut App) {
    // Back and Close are the toolbar's generic `Open` and `Close` actions.
    app.add_systems(OnEnter(Overlay::Help), spawn_help)
        .add_systems(OnEnter(Overlay::About), spawn_about)
        .add_systems(
            Update,
            respawn_about
                .in_set(AppSystems::Input)
                .run_if(in_state(Overlay::About)),
        );
}

#[derive(Component, Debug)]
struct Screen;

/// What a square of a tutorial diagram shows besides its disc.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Mark {
    #[default]
    None,
    /// A legal move for the side to move (a dot).
    Legal,
    /// The disc just placed (a ring).
    Placed,
    /// A disc the move just turned over (a ring and a dot).
    Flipped,
}

/// One board of the tutorial: the discs and what to point at.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub position: Position,
    pub marks: [Mark; 64],
    /// The string key of the caption.
    pub caption: &'static str,
}

/// The first-game tutorial, computed by the engine from the start position: Black's legal
/// moves, Black playing f5 and the disc it turns, then White's answers.
pub fn tutorial() -> Vec<Diagram> {
    let legal = |p: &Position| {
        let mut marks = [Mark::None; 64];
        for sq in Variant::Othello.legal_moves(p) {
            marks[usize::from(sq.index())] = Mark::Legal;
        }
        marks
    };
    let start = Position::start();
    let f5: Square = "f5".parse().expect("f5 is a square");
    let flipped = start.flips(f5);
    let after = start.play_unchecked(f5);
    let mut played = [Mark::None; 64];
    played[usize::from(f5.index())] = Mark::Placed;
    for sq in flipped {
        played[usize::from(sq.index())] = Mark::Flipped;
    }
    vec![
        Diagram {
            position: start,
            marks: legal(&start),
            caption: "help.step1",
        },
        Diagram {
            position: after,
            marks: played,
            caption: "help.step2",
        },
        Diagram {
            position: after,
            marks: legal(&after),
            caption: "help.step3",
        },
    ]
}

const CELL: f32 = 20.0;

/// Spawns a small board: green squares, discs, dots on legal moves, a ring on the disc just
/// placed, a ring and a dot on the discs it turned (shapes, so no colour has to be told apart).
fn spawn_diagram(commands: &mut Commands, d: &Diagram) -> Entity {
    let felt = Color::srgb(0.13, 0.45, 0.25);
    let line = Color::srgb(0.05, 0.2, 0.1);
    let ring = Color::srgb(1.0, 0.62, 0.1);
    let colour = |side| match side {
        Side::Black => Color::srgb(0.05, 0.05, 0.05),
        Side::White => Color::srgb(0.95, 0.95, 0.93),
    };
    let round = |size: f32, border: f32| Node {
        width: px(size),
        height: px(size),
        border: UiRect::all(px(border)),
        border_radius: BorderRadius::MAX,
        justify_content: JustifyContent::Center,
        align_items: AlignItems::Center,
        ..default()
    };
    let grid = commands
        .spawn((
            Node {
                display: Display::Grid,
                grid_template_columns: RepeatedGridTrack::px(8, CELL),
                grid_template_rows: RepeatedGridTrack::px(8, CELL),
                border: UiRect::all(px(3)),
                align_self: AlignSelf::Center,
                flex_shrink: 0.0,
                ..default()
            },
            BorderColor::all(Color::srgb(0.35, 0.22, 0.1)),
            Pickable::IGNORE,
        ))
        .id();
    for index in 0..64u8 {
        let sq = Square::from_index(index).expect("0..64 are squares");
        let mark = d.marks[usize::from(index)];
        let cell = commands
            .spawn((
                Node {
                    justify_content: JustifyContent::Center,
                    align_items: AlignItems::Center,
                    border: UiRect::all(px(0.5)),
                    ..default()
                },
                BackgroundColor(felt),
                BorderColor::all(line),
                Pickable::IGNORE,
            ))
            .id();
        commands.entity(grid).add_child(cell);
        match (d.position.disc_at(sq), mark) {
            (Some(side), mark) => {
                let ringed = matches!(mark, Mark::Placed | Mark::Flipped);
                let disc = commands
                    .spawn((
                        round(CELL - 4.0, if ringed { 2.5 } else { 0.0 }),
                        BackgroundColor(colour(side)),
                        BorderColor::all(ring),
                        Pickable::IGNORE,
                    ))
                    .id();
                commands.entity(cell).add_child(disc);
                if mark == Mark::Flipped {
                    let dot = commands
                        .spawn((
                            round(5.0, 0.0),
                            BackgroundColor(colour(side.opposite())),
                            Pickable::IGNORE,
                        ))
                        .id();
                    commands.entity(disc).add_child(dot);
                }
            }
            (None, Mark::Legal) => {
                let dot = commands
                    .spawn((
                        round(6.0, 0.0),
                        BackgroundColor(Color::srgb(0.02, 0.08, 0.04)),
                        Pickable::IGNORE,
                    ))
                    .id();
                commands.entity(cell).add_child(dot);
            }
            (None, _) => {}
        }
    }
    grid
}

fn paragraph(key: &'static str) -> impl Bundle {
    (
        label(key, Type::Body),
        Node {
            max_width: px(560),
            ..default()
        },
    )
}

fn heading(key: &'static str) -> impl Bundle {
    label(key, Type::Title)
}

fn spawn_help(mut commands: Commands) {
    let inner = commands
        .spawn((
            panel(),
            children![
                paragraph("help.goal"),
                paragraph("help.moves"),
                paragraph("help.pass"),
                paragraph("help.end"),
                paragraph("help.variants"),
                paragraph("help.names"),
                heading("help.tutorial"),
            ],
        ))
        .id();
    for d in tutorial() {
        let grid = spawn_diagram(&mut commands, &d);
        let caption = commands.spawn(paragraph(d.caption)).id();
        commands.entity(inner).add_children(&[grid, caption]);
    }
    finish_screen(&mut commands, inner, Overlay::Help, "help.title");
}

/// The level the player faces in this game (the stronger AI when two play), else the default
/// level of new games.
fn level_in_play(players: &Players) -> AiLevel {
    let level = |p: Player| match p {
        Player::Ai(level) => Some(level),
        Player::Human => None,
    };
    match (level(players.black), level(players.white)) {
        (Some(AiLevel::Level(a)), Some(AiLevel::Level(b))) => AiLevel::Level(a.max(b)),
        (Some(l), _) | (None, Some(l)) => l,
        (None, None) => AiLevel::default(),
    }
}

/// The level's settings in words, one line each.
pub fn level_lines(level: AiLevel, lang: Lang) -> Vec<String> {
    let AiLevel::Level(engine) = level else {
        return vec![lang.f(
            "about.fixed_playouts",
            &[("n", &level.limits().iterations.unwrap_or(0))],
        )];
    };
    let config = engine.config();
    let time = engine.time();
    let mut lines = vec![if config.time_share > 0.0 {
        // A game clock (Master's): a budget a game, spent where the moves are hard.
        lang.f(
            "about.time_clock",
            &[
                ("ms", &time.mul_f32(config.time_share).as_millis()),
                (
                    "most",
                    &montello_engine::search::SearchLimits::time(time)
                        .longest()
                        .as_millis(),
                ),
            ],
        )
    } else {
        lang.f("about.time", &[("ms", &time.as_millis())])
    }];
    // A level that judges by the evaluation alone plays no playouts: each iteration looks
    // at one new position.
    let positions = config.eval_weight >= 1.0;
    lines.push(match (engine.iterations(), positions) {
        (Some(n), false) => lang.f("about.playouts_cap", &[("n", &n)]),
        (Some(n), true) => lang.f("about.positions_cap", &[("n", &n)]),
        (None, false) => lang.t("about.playouts_free").to_string(),
        (None, true) => lang.t("about.positions_free").to_string(),
    });
    lines.push(if config.eval_weight > 0.0 {
        lang.t("about.evaluation").to_string()
    } else if config.corner_playouts {
        lang.t("about.corners").to_string()
    } else {
        lang.t("about.random_playouts").to_string()
    });
    lines.push(match config.solve_empties {
        0 => lang.t("about.solve_none").to_string(),
        n => lang.f("about.solve", &[("n", &n)]),
    });
    if config.ab_empties > 0 {
        lines.push(lang.f("about.alpha_beta", &[("n", &config.ab_empties)]));
    }
    lines.push(if engine.randomness() > 0.0 {
        lang.t("about.strays").to_string()
    } else {
        lang.t("about.best").to_string()
    });
    lines
}

fn spawn_about(mut commands: Commands, players: Res<Players>, lang: Res<Language>) {
    let level = level_in_play(&players);
    let inner = commands
        .spawn((
            panel(),
            children![
                paragraph("about.intro"),
                paragraph("about.select"),
                paragraph("about.expand"),
                paragraph("about.playout"),
                paragraph("about.backprop"),
                paragraph("about.why_time"),
            ],
        ))
        .id();
    let title = commands
        .spawn(text_label(
            lang.0.f("about.level", &[("name", &level.label(lang.0))]),
            Type::Title,
        ))
        .id();
    commands.entity(inner).add_child(title);
    for line in level_lines(level, lang.0) {
        let line = commands
            .spawn((
                coloured_label(format!("• {line}"), Type::Body, Color::WHITE),
                Paint::TextDim,
            ))
            .id();
        commands.entity(inner).add_child(line);
    }
    finish_screen(&mut commands, inner, Overlay::About, "about.title");
}

/// Back (to the menu) under the panel's content, and the panel titled `title` over the board.
fn finish_screen(commands: &mut Commands, inner: Entity, overlay: Overlay, title: &'static str) {
    let buttons = commands
        .spawn((
            row(),
            children![button("common.back", Nav::Open(Overlay::Menu)),],
        ))
        .id();
    commands.entity(inner).add_child(buttons);
    open_panel(
        commands,
        overlay,
        Screen,
        label(title, Type::Heading),
        inner,
        None,
    );
}

/// How to play is all `Localized` text and follows a language change by itself; About writes
/// the level's lines itself, so it is rebuilt.
fn respawn_about(
    mut commands: Commands,
    language: Res<Language>,
    screens: Query<Entity, With<Screen>>,
) {
    if language.is_changed() && !screens.is_empty() {
        super::respawn(&mut commands, screens, spawn_about);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::search::Level;

    fn marked(d: &Diagram, mark: Mark) -> Vec<String> {
        (0..64u8)
            .filter(|&i| d.marks[usize::from(i)] == mark)
            .map(|i| Square::from_index(i).expect("a square").to_string())
            .collect()
    }

    #[test]
    fn the_tutorial_shows_what_the_engine_says() {
        let steps = tutorial();
        assert_eq!(steps.len(), 3);
        let mut first = marked(&steps[0], Mark::Legal);
        first.sort();
        assert_eq!(first, ["c4", "d3", "e6", "f5"]);
        assert_eq!(marked(&steps[1], Mark::Placed), ["f5"]);
        assert_eq!(marked(&steps[1], Mark::Flipped), ["e5"]);
        assert_eq!(
            steps[1].position.disc_at("e5".parse().expect("sq")),
            Some(Side::Black)
        );
        let mut white = marked(&steps[2], Mark::Legal);
        white.sort();
        assert_eq!(white, ["d6", "f4", "f6"]);
        assert_eq!(steps[2].position.side_to_move(), Side::White);
    }

    #[test]
    fn every_level_is_described_from_its_settings() {
        for lang in Lang::ALL {
            let weakest = level_lines(AiLevel::Level(Level::Beginner), lang);
            let strongest = level_lines(AiLevel::Level(Level::Master), lang);
            assert_eq!(weakest.len(), 5);
            assert!(weakest[0].contains("100"), "{lang:?}: {}", weakest[0]);
            // Master thinks three quarters of its second a move on average, up to two on
            // the hard ones (its game clock); the others up to their cap.
            assert_eq!(
                strongest[0],
                lang.f("about.time_clock", &[("ms", &750), ("most", &2000)])
            );
            let strong = level_lines(AiLevel::Level(Level::Strong), lang);
            assert_eq!(strong[0], lang.f("about.time", &[("ms", &250)]));
            assert!(weakest[1].contains("200"), "{lang:?}: {}", weakest[1]);
            assert_ne!(
                weakest.last(),
                strongest.last(),
                "{lang:?}: randomness differs"
            );
            // Master alone hands the late middle game to the alpha-beta search, and says so.
            assert_eq!(strongest.len(), 6);
            assert_eq!(strongest[4], lang.f("about.alpha_beta", &[("n", &30)]));
            assert_eq!(strong.len(), 5, "{lang:?}: {strong:?}");
            assert_ne!(weakest[2], strongest[2], "{lang:?}: playout policy differs");
            // Beginner plays playouts; Casual judges positions by the evaluation alone.
            assert_eq!(weakest[1], lang.f("about.playouts_cap", &[("n", &200)]));
            let casual = level_lines(AiLevel::Level(Level::Casual), lang);
            assert_eq!(casual[1], lang.f("about.positions_cap", &[("n", &300)]));
            assert_eq!(strongest[1], lang.t("about.positions_free"));
        }
    }
}
