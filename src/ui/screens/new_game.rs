//! The new-game screen, in a player's terms: which colour to play (Black, White or drawn at
//! random), then the opponent (each level in a line, with the player's record against it);
//! two people, the AI against itself and the rules wait under "More options". Start.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::ai::AiState;
use crate::game::flow::{GameCommand, GameSetup};
use crate::game::player::AiLevel;
use crate::game::player::Player;
use crate::game::players::Players;
use crate::persist::save::StatsFile;
use crate::persist::save_format::Stats;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::theme::Type;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{
    self, UiAction, choice, choice_text, coloured_label, label, layout, panel, primary_button, row,
    switch, text_label,
};
use bevy::prelude::*;
use montello_engine::search::Level;
use montello_engine::{Side, Variant};

/// Which colour the person plays against the AI.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PlayAs {
    /// Black, who moves first.
    #[default]
    Black,
    /// White.
    White,
    /// A colour drawn when the game starts.
    Random,
}

/// Who plays the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Mode {
    /// A person against the AI: the usual game.
    #[default]
    AgainstAi,
    /// Two people on one device.
    TwoPeople,
    /// The AI against itself, to watch.
    AiAgainstAi,
}

/// What the new-game screen's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Debug)]
pub enum NewGameAction {
    /// The person's colour against the AI.
    PlayAs(PlayAs),
    /// The opponent's level (both sides' when the AI plays itself).
    SetLevel(AiLevel),
    /// Who plays.
    SetMode(Mode),
    /// The rules.
    SetVariant(Variant),
    /// Face to face (two people): table mode on or off.
    FaceToFace,
    /// Show or hide the other options (who plays, the rules).
    MoreOptions,
    /// The adaptive opponent on or off.
    Adaptive,
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
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Draft {
    /// Who plays.
    pub mode: Mode,
    /// The person's colour against the AI.
    pub play_as: PlayAs,
    /// The AI's level.
    pub level: AiLevel,
    /// The rules.
    pub variant: Variant,
    /// "More options" is open.
    pub more: bool,
    /// The adaptive opponent: the level follows the player's rating.
    pub adaptive: bool,
}

impl Draft {
    /// The choices that led to `players` (the rules kept from the last draft): the screen
    /// opens on the game being played.
    pub fn of(players: &Players, variant: Variant) -> Draft {
        let level = |p: Player| match p {
            Player::Ai(l) => Some(l),
            Player::Human => None,
        };
        let level = level(players.white)
            .or(level(players.black))
            .filter(|l| AiLevel::ALL.contains(l))
            .unwrap_or_default();
        let mode = match (players.black, players.white) {
            (Player::Human, Player::Human) => Mode::TwoPeople,
            (Player::Ai(_), Player::Ai(_)) => Mode::AiAgainstAi,
            _ => Mode::AgainstAi,
        };
        let play_as = if players.white == Player::Human && players.black != Player::Human {
            PlayAs::White
        } else {
            PlayAs::Black
        };
        Draft {
            mode,
            play_as,
            level,
            variant,
            // Whatever is not the usual game shows its choices.
            more: mode != Mode::AgainstAi || variant != Variant::default(),
            adaptive: false,
        }
    }

    /// Who plays the game these choices start; `coin` draws the colour when it is random
    /// (true: Black).
    pub fn players(&self, coin: bool) -> Players {
        match self.mode {
            Mode::AgainstAi => {
                let side = match self.play_as {
                    PlayAs::Black => Side::Black,
                    PlayAs::White => Side::White,
                    PlayAs::Random if coin => Side::Black,
                    PlayAs::Random => Side::White,
                };
                Players::against_ai(side, self.level)
            }
            Mode::TwoPeople => Players {
                black: Player::Human,
                white: Player::Human,
            },
            Mode::AiAgainstAi => Players {
                black: Player::Ai(self.level),
                white: Player::Ai(self.level),
            },
        }
    }
}

#[derive(Component, Debug)]
struct Screen;

fn start_draft(
    mut draft: ResMut<Draft>,
    players: Res<Players>,
    settings: Res<Settings>,
    stats: Res<StatsFile>,
) {
    *draft = Draft::of(&players, draft.variant);
    draft.adaptive = settings.adaptive;
    if draft.adaptive {
        draft.level = super::adaptive::level(&stats.0);
    }
}

/// A level in the player's terms: one line, the string's key.
pub fn level_about(level: AiLevel) -> &'static str {
    match level {
        AiLevel::Level(Level::Beginner) => "level.1.about",
        AiLevel::Level(Level::Novice) => "level.2.about",
        AiLevel::Level(Level::Casual) => "level.3.about",
        AiLevel::Level(Level::Intermediate) => "level.4.about",
        AiLevel::Level(Level::Strong) => "level.5.about",
        AiLevel::Level(Level::Master) => "level.6.about",
        AiLevel::Iterations(_) => "level.fixed.about",
    }
}

/// The person's record against `level` ("3 won · 2 lost"), none before a game against it.
pub fn level_record(stats: &Stats, level: AiLevel, lang: Lang) -> Option<String> {
    let record = stats.levels.get(&level).filter(|r| r.games > 0)?;
    let key = if record.draws > 0 {
        "new_game.record_draws"
    } else {
        "new_game.record"
    };
    Some(lang.f(
        key,
        &[
            ("wins", &record.wins),
            ("losses", &record.losses),
            ("draws", &record.draws),
        ],
    ))
}

/// A level's button: its name, the record against it, and what it plays like (in the dim
/// colour, or the text colour on the chosen level's button, whose ground the dim colour does
/// not stand out from: `theme`'s contrast test).
fn level_button(level: AiLevel, selected: bool, record: Option<String>, lang: Lang) -> impl Bundle {
    let quiet = if selected {
        Paint::Text
    } else {
        Paint::TextDim
    };
    widgets::framed(
        Node {
            width: percent(100),
            min_height: px(crate::ui::layout::TOUCH),
            padding: UiRect::axes(px(14), px(5)),
            flex_direction: FlexDirection::Column,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        NewGameAction::SetLevel(level),
        selected,
        (
            layout(Node {
                flex_direction: FlexDirection::Column,
                width: percent(100),
                ..default()
            }),
            children![
                (
                    layout(Node {
                        justify_content: JustifyContent::SpaceBetween,
                        align_items: AlignItems::Baseline,
                        column_gap: px(8),
                        ..default()
                    }),
                    children![
                        text_label(level.label(lang), theme::Type::Large),
                        (
                            coloured_label(record.unwrap_or_default(), Type::Small, Color::WHITE),
                            quiet,
                        ),
                    ],
                ),
                (
                    coloured_label(lang.t(level_about(level)), Type::Small, Color::WHITE),
                    quiet,
                ),
            ],
        ),
    )
}

fn spawn_screen(
    mut commands: Commands,
    draft: Res<Draft>,
    lang: Res<Language>,
    settings: Res<Settings>,
    stats: Res<StatsFile>,
) {
    let inner = commands.spawn(panel()).id();
    let mut parts = Vec::new();
    if draft.mode == Mode::AgainstAi {
        play_as_parts(&mut commands, &draft, &mut parts);
    }
    if draft.mode != Mode::TwoPeople {
        opponent_parts(&mut commands, &draft, &stats, lang.0, &mut parts);
    }
    if draft.more {
        more_parts(&mut commands, &draft, &lang, &settings, &mut parts);
    }
    commands.entity(inner).add_children(&parts);
    // Start stays in view under the choices, however far they scroll, and "More options"
    // beside it (two people, the AI against itself, the rules).
    let start = commands.spawn(start_row(draft.more)).id();
    open_panel(
        &mut commands,
        Overlay::NewGame,
        Screen,
        label("new_game.title", Type::Heading),
        inner,
        Some(start),
    );
}

/// The colour the player takes against the AI: Black, White or Random, three equal buttons
/// under their title.
fn play_as_parts(commands: &mut Commands, draft: &Draft, parts: &mut Vec<Entity>) {
    let play_as = |key, as_: PlayAs| {
        widgets::framed(
            Node {
                flex_grow: 1.0,
                flex_basis: px(0),
                min_height: px(crate::ui::layout::TOUCH),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                border_radius: BorderRadius::all(px(10)),
                ..default()
            },
            NewGameAction::PlayAs(as_),
            draft.play_as == as_,
            label(key, theme::Type::Large),
        )
    };
    parts.push(
        commands
            .spawn(label("new_game.play_as", theme::Type::Large))
            .id(),
    );
    parts.push(
        commands
            .spawn((
                layout(Node {
                    column_gap: px(8),
                    ..default()
                }),
                children![
                    play_as("side.black", PlayAs::Black),
                    play_as("side.white", PlayAs::White),
                    play_as("new_game.random", PlayAs::Random),
                ],
            ))
            .id(),
    );
}

/// The opponent's (or both AIs') level: the adaptive opponent first when it is on or more
/// options are shown, then the levels to choose by hand.
fn opponent_parts(
    commands: &mut Commands,
    draft: &Draft,
    stats: &StatsFile,
    lang: Lang,
    parts: &mut Vec<Entity>,
) {
    let title = if draft.mode == Mode::AgainstAi {
        "new_game.opponent"
    } else {
        "new_game.level"
    };
    parts.push(commands.spawn(label(title, theme::Type::Large)).id());
    // The adaptive opponent first (the level the player's rating picks, and the rating),
    // then the levels to choose by hand. Off, it is one of the other options ("More
    // options"), so the usual panel fits a phone without scrolling (.ci/smoke.sh).
    if draft.mode == Mode::AgainstAi && (draft.more || draft.adaptive) {
        parts.push(
            commands
                .spawn(switch(
                    "new_game.adaptive",
                    NewGameAction::Adaptive,
                    draft.adaptive,
                ))
                .id(),
        );
        parts.push(
            commands
                .spawn((
                    coloured_label(
                        super::adaptive::about(&stats.0, lang),
                        Type::Small,
                        Color::WHITE,
                    ),
                    Paint::TextDim,
                ))
                .id(),
        );
    }
    let mut levels = commands.spawn(layout(Node {
        flex_direction: FlexDirection::Column,
        row_gap: px(6),
        ..default()
    }));
    for l in AiLevel::ALL {
        levels.with_child(level_button(
            l,
            l == draft.level,
            level_record(&stats.0, l, lang),
            lang,
        ));
    }
    parts.push(levels.id());
}

/// More options: who plays (face to face for two people) and the rules, with what the chosen
/// rules mean in a sentence.
fn more_parts(
    commands: &mut Commands,
    draft: &Draft,
    lang: &Language,
    settings: &Settings,
    parts: &mut Vec<Entity>,
) {
    let mode = |key, m: Mode| choice(key, NewGameAction::SetMode(m), draft.mode == m);
    parts.push(
        commands
            .spawn(label("new_game.players", theme::Type::Large))
            .id(),
    );
    parts.push(
        commands
            .spawn((
                row(),
                children![
                    mode("new_game.against_ai", Mode::AgainstAi),
                    mode("new_game.two_people", Mode::TwoPeople),
                    mode("new_game.ai_against_ai", Mode::AiAgainstAi),
                ],
            ))
            .id(),
    );
    // Two people may sit face to face, the device flat between them.
    if draft.mode == Mode::TwoPeople {
        parts.push(
            commands
                .spawn(switch(
                    "new_game.face_to_face",
                    NewGameAction::FaceToFace,
                    settings.table_mode,
                ))
                .id(),
        );
    }
    parts.push(
        commands
            .spawn(label("new_game.rules", theme::Type::Large))
            .id(),
    );
    let mut variants = commands.spawn(row());
    for v in Variant::ALL {
        variants.with_child(choice_text(
            lang.variant(v),
            NewGameAction::SetVariant(v),
            v == draft.variant,
        ));
    }
    parts.push(variants.id());
    // What the chosen rules mean, in a sentence.
    parts.push(
        commands
            .spawn((
                coloured_label(lang.variant_about(draft.variant), Type::Body, Color::WHITE),
                Paint::TextDim,
            ))
            .id(),
    );
}

/// The panel's foot: "More options" (lit while they are shown) and Start.
fn start_row(more: bool) -> impl Bundle {
    (
        layout(Node {
            column_gap: px(8),
            align_items: AlignItems::Center,
            ..default()
        }),
        children![
            widgets::framed(
                Node {
                    flex_shrink: 0.0,
                    min_height: px(crate::ui::layout::TOUCH),
                    padding: UiRect::axes(px(14), px(6)),
                    justify_content: JustifyContent::Center,
                    align_items: AlignItems::Center,
                    border_radius: BorderRadius::all(px(12)),
                    ..default()
                },
                NewGameAction::MoreOptions,
                more,
                label("new_game.more", theme::Type::Large),
            ),
            primary_button("new_game.start", NewGameAction::Start),
        ],
    )
}

fn handle_actions(
    mut actions: MessageReader<UiAction<NewGameAction>>,
    mut draft: ResMut<Draft>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
    mut ai: ResMut<AiState>,
    mut settings: ResMut<Settings>,
    time: Res<Time<Real>>,
    stats: Res<StatsFile>,
) {
    for UiAction(action) in actions.read() {
        match *action {
            NewGameAction::FaceToFace => settings.table_mode = !settings.table_mode,
            NewGameAction::PlayAs(play_as) => draft.play_as = play_as,
            // A level chosen by hand is the opponent: the adaptive one steps aside.
            NewGameAction::SetLevel(level) => {
                draft.level = level;
                draft.adaptive = false;
            }
            NewGameAction::Adaptive => {
                draft.adaptive = !draft.adaptive;
                if draft.adaptive {
                    draft.level = super::adaptive::level(&stats.0);
                }
            }
            NewGameAction::SetMode(mode) => draft.mode = mode,
            NewGameAction::SetVariant(variant) => draft.variant = variant,
            NewGameAction::MoreOptions => draft.more = !draft.more,
            NewGameAction::Start => {
                // A random colour: the clock's milliseconds at the tap (a browser's clock is
                // coarsened to 0.1-1 ms, so its nanoseconds would always be even).
                let coin = time.elapsed().as_millis().is_multiple_of(2);
                if draft.mode == Mode::AgainstAi && settings.adaptive != draft.adaptive {
                    settings.adaptive = draft.adaptive;
                }
                ai.cancel();
                commands.write(GameCommand::NewGame(GameSetup {
                    players: draft.players(coin),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::save_format::LevelRecord;

    #[test]
    fn the_screen_opens_on_the_game_being_played() {
        let casual = AiLevel::Level(Level::Casual);
        let master = AiLevel::Level(Level::Master);
        let d = Draft::of(
            &Players::against_ai(Side::White, master),
            Variant::default(),
        );
        assert_eq!(
            (d.mode, d.play_as, d.level, d.more),
            (Mode::AgainstAi, PlayAs::White, master, false)
        );
        let d = Draft::of(&Players::default(), Variant::default());
        assert_eq!(
            (d.mode, d.play_as, d.level),
            (Mode::AgainstAi, PlayAs::Black, casual)
        );
        // Two people, the AI against itself, other rules: "More options" opens on them.
        let two = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let d = Draft::of(&two, Variant::default());
        assert_eq!((d.mode, d.more), (Mode::TwoPeople, true));
        let watch = Players {
            black: Player::Ai(master),
            white: Player::Ai(master),
        };
        assert_eq!(
            Draft::of(&watch, Variant::default()).mode,
            Mode::AiAgainstAi
        );
        let other = Variant::ALL
            .into_iter()
            .find(|v| *v != Variant::default())
            .expect("variants");
        assert!(Draft::of(&Players::default(), other).more);
    }

    #[test]
    fn start_plays_the_chosen_colour_and_draws_a_random_one() {
        let strong = AiLevel::Level(Level::Strong);
        let mut d = Draft {
            level: strong,
            ..Draft::default()
        };
        assert_eq!(d.players(false), Players::against_ai(Side::Black, strong));
        d.play_as = PlayAs::White;
        assert_eq!(d.players(true), Players::against_ai(Side::White, strong));
        d.play_as = PlayAs::Random;
        assert_eq!(d.players(true), Players::against_ai(Side::Black, strong));
        assert_eq!(d.players(false), Players::against_ai(Side::White, strong));
        d.mode = Mode::TwoPeople;
        assert!(d.players(true).is_human(Side::Black) && d.players(true).is_human(Side::White));
        d.mode = Mode::AiAgainstAi;
        assert_eq!(d.players(true).get(Side::Black), Player::Ai(strong));
        assert_eq!(d.players(true).get(Side::White), Player::Ai(strong));
    }

    #[test]
    fn the_adaptive_switch_plays_the_level_the_rating_picks_until_a_level_is_chosen() {
        let mut stats = Stats::default();
        stats.levels.insert(
            AiLevel::Level(Level::Casual),
            LevelRecord {
                games: 8,
                wins: 8,
                ..Default::default()
            },
        );
        let picked = super::super::adaptive::level(&stats);
        assert_eq!(picked, AiLevel::Level(Level::Intermediate));
        let mut app = App::new();
        app.add_message::<UiAction<NewGameAction>>()
            .add_message::<GameCommand>()
            .init_resource::<Draft>()
            .init_resource::<Settings>()
            .insert_resource(StatsFile(stats))
            .init_resource::<AiState>()
            .init_resource::<Time<Real>>()
            .init_resource::<NextState<Overlay>>()
            .add_systems(Update, handle_actions);
        let act = |app: &mut App, action| {
            app.world_mut().write_message(UiAction(action));
            app.update();
        };
        act(&mut app, NewGameAction::Adaptive);
        let draft = *app.world().resource::<Draft>();
        assert!(draft.adaptive);
        assert_eq!(draft.level, picked);
        // A level chosen by hand turns it off.
        act(
            &mut app,
            NewGameAction::SetLevel(AiLevel::Level(Level::Casual)),
        );
        assert!(!app.world().resource::<Draft>().adaptive);
        // On again and Start: the game is against the pick, and the choice is kept.
        act(&mut app, NewGameAction::Adaptive);
        act(&mut app, NewGameAction::Start);
        assert!(app.world().resource::<Settings>().adaptive);
        let sent: Vec<GameCommand> = app
            .world_mut()
            .resource_mut::<Messages<GameCommand>>()
            .drain()
            .collect();
        assert!(
            matches!(&sent[..], [GameCommand::NewGame(setup)] if setup.players == Players::against_ai(Side::Black, picked)),
            "{sent:?}"
        );
    }

    #[test]
    fn each_level_says_what_it_plays_like_and_the_record_against_it() {
        let mut stats = Stats::default();
        let casual = AiLevel::Level(Level::Casual);
        assert_eq!(level_record(&stats, casual, Lang::En), None);
        stats.levels.insert(
            casual,
            LevelRecord {
                games: 5,
                wins: 3,
                losses: 2,
                ..LevelRecord::default()
            },
        );
        assert_eq!(
            level_record(&stats, casual, Lang::En).as_deref(),
            Some("3 won · 2 lost")
        );
        stats.levels.get_mut(&casual).expect("record").draws = 1;
        assert_eq!(
            level_record(&stats, casual, Lang::En).as_deref(),
            Some("3 won · 2 lost · 1 drawn")
        );
        // Every level has its line in every language, and no two levels share one.
        for lang in Lang::ALL {
            let lines: Vec<&str> = AiLevel::ALL
                .iter()
                .map(|l| lang.t(level_about(*l)))
                .collect();
            for (i, line) in lines.iter().enumerate() {
                assert!(
                    !line.is_empty() && !line.starts_with("level."),
                    "{lang:?}: {line}"
                );
                // Translated, not English's line by fallback.
                let english = Lang::En.t(level_about(AiLevel::ALL[i]));
                assert!(lang == Lang::En || *line != english, "{lang:?}: {line}");
                assert!(!lines[..i].contains(line), "{lang:?}: {line} twice");
            }
        }
    }
}
