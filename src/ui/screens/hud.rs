//! The HUD at the top: both disc counts, whose turn it is, the AI's thinking bar, the
//! win-probability bar, notices, and the Pass / Play again / Back to game buttons.

use super::Seat;
use crate::AppSystems;
use crate::game::ai::{AiState, AiStats, Purpose, WinEstimate};
use crate::game::flow::{CountLag, CurrentGame, GameCommand, Notice};
use crate::game::player::Player;
use crate::game::players::Players;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::prefs::settings::TableMode;
use crate::ui::layout::LayoutProbe;
use crate::ui::theme::{self, Paint, Palette};
use crate::ui::widgets::{
    self, UiAction, button, coloured_label, labelled_icon_button, layout, text_label,
};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use montello_engine::Side;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<HudAction>(app);
    app.add_systems(Startup, spawn_hud).add_systems(
        Update,
        (
            handle_actions.in_set(AppSystems::Input),
            (
                dock_move_list,
                (
                    (
                        update_texts.run_if(texts_stale.or_else(thinking)),
                        update_bars.run_if(bars_stale.or_else(thinking)),
                        mark_side_to_move.run_if(
                            resource_changed::<CurrentGame>.or_else(resource_changed::<Palette>),
                        ),
                        show_buttons.run_if(
                            resource_changed::<CurrentGame>
                                .or_else(resource_changed::<Players>)
                                .or_else(resource_changed::<TableMode>),
                        ),
                    )
                        .in_set(HudUpdate),
                    fade_notice,
                )
                    .chain(),
                arrange_for_orientation,
            )
                .in_set(AppSystems::View),
        ),
    );
}

/// The HUD's texts written from the game (what draws over them, a name being typed, runs
/// after it).
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct HudUpdate;

/// What the HUD's buttons do; each shows only when it can ([`show_buttons`]).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum HudAction {
    /// Pass (the player to move has no legal move).
    Pass,
    /// The game is over: the same players again.
    PlayAgain,
    /// The game is over: its evaluation graph.
    Graph,
    /// Reviewing earlier moves: back to the game as it stands.
    BackToGame,
}

/// Face to face, the toolbar's Undo and Hint in the far player's HUD, facing them (the near
/// player has the toolbar's): the same [`super::toolbar::ToolAction`]s, so they do and dim
/// as the toolbar's do.
#[derive(Component, Debug)]
struct FarControl;

fn handle_actions(
    mut actions: MessageReader<UiAction<HudAction>>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<super::Overlay>>,
) {
    for UiAction(action) in actions.read() {
        match action {
            HudAction::Pass => {
                commands.write(GameCommand::Pass);
            }
            HudAction::PlayAgain => {
                commands.write(GameCommand::PlayAgain);
            }
            HudAction::Graph => next.set(super::Overlay::Graph),
            HudAction::BackToGame => {
                commands.write(GameCommand::Review(None));
            }
        }
    }
}

#[derive(Component, Debug)]
pub(super) enum HudText {
    Count(Side),
    /// A player card's name: Black or White.
    Name(Side),
    /// A player card's second line: You, Player 1 / Player 2, or the AI and its level.
    Who(Side),
    Status,
    Notice,
    /// The win bar's label: who is ahead and by how much ("Black 62%").
    Lead,
}

/// The row of the player cards: side by side upright, stacked in the column lying down.
#[derive(Component, Debug)]
struct CardsRow;

/// A player card's name and who plays it: towards the card's outer edge upright, after the
/// count lying down.
#[derive(Component, Debug)]
struct CardTexts(Side);

/// The row of the notice and the HUD's buttons: lying down, a column (the notice over the
/// buttons), so a long notice wraps within the narrow column and pushes what follows down
/// (in a row, a wrapped text is laid out as one line's height and spills over the win bar).
#[derive(Component, Debug)]
struct NoticeRow;

/// A player card: the count, the side and who plays it; ringed while its side is to move. A
/// tap on a human player's card edits the name ([`super::names`]).
#[derive(Component, Debug)]
pub(super) struct PlayerCard(pub(super) Side);

#[derive(Component, Debug)]
struct ThinkingBar;

#[derive(Component, Debug)]
struct WinBar;

#[derive(Component, Debug)]
struct WinBarBlack;

/// The win bar's track: White's colour under Black's part once there is an estimate, a
/// neutral one before (no split that would read as an even game).
#[derive(Component, Debug)]
struct WinBarTrack;

/// The win bar's mark at even, shown with the split.
#[derive(Component, Debug)]
struct WinBarNotch;

/// A disc count, ringed in the accent colour while its side is to move.
#[derive(Component, Debug)]
struct CountChip(Side);

/// Whose turn it is (or the result, or the review's place), under the cards.
fn status_line(seat: Seat) -> impl Bundle {
    (
        text_label("", theme::FONT),
        HudText::Status,
        seat,
        TextLayout::justify(Justify::Center),
        Node {
            width: percent(100),
            ..default()
        },
    )
}

/// A player card: the side's count on a disc, its name and who plays it.
fn player_card(side: Side, seat: Seat) -> impl Bundle {
    let texts = (
        layout(Node {
            flex_direction: FlexDirection::Column,
            align_items: if side == Side::Black {
                AlignItems::FlexStart
            } else {
                AlignItems::FlexEnd
            },
            ..default()
        }),
        CardTexts(side),
        children![
            (
                text_label("", 18.0),
                TextLayout::no_wrap(),
                HudText::Name(side),
                seat
            ),
            (
                coloured_label("", 14.0, Color::WHITE),
                TextLayout::no_wrap(),
                Paint::TextDim,
                HudText::Who(side),
                seat
            ),
        ],
    );
    (
        // Not a pass-through layout node: a tap on a human player's card edits the name.
        Node {
            flex_grow: 1.0,
            flex_basis: px(0),
            // White's card mirrors Black's: its count at the outer edge.
            flex_direction: if side == Side::Black {
                FlexDirection::Row
            } else {
                FlexDirection::RowReverse
            },
            align_items: AlignItems::Center,
            column_gap: px(10),
            padding: UiRect::all(px(4)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(34)),
            ..default()
        },
        BorderColor::all(Color::NONE),
        PlayerCard(side),
        LayoutProbe(match side {
            Side::Black => "card-black",
            Side::White => "card-white",
        }),
        children![count_chip(side, seat), texts],
    )
}

fn count_chip(side: Side, seat: Seat) -> impl Bundle {
    // The chips look like the discs in every theme.
    let discs = Palette::CLASSIC;
    let (bg, fg) = match side {
        Side::Black => (discs.disc_black, discs.disc_white),
        Side::White => (discs.disc_white, discs.disc_black),
    };
    (
        Node {
            min_width: px(60),
            height: px(46),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border: UiRect::all(px(3)),
            border_radius: BorderRadius::all(px(24)),
            ..default()
        },
        BackgroundColor(bg),
        BorderColor::all(discs.text_dim),
        CountChip(side),
        Pickable::IGNORE,
        children![(coloured_label("2", 26.0, fg), HudText::Count(side), seat)],
    )
}

fn spawn_hud(mut commands: Commands) {
    for seat in [Seat::Near, Seat::Far] {
        spawn_seat(&mut commands, seat);
    }
}

/// One HUD: the near player's (the usual one), or in table mode the far player's too,
/// turned towards them (see `super::follow_orientation`).
/// The win bar: it says what it is (a label, an outline that shows the black half against
/// the dark bar, and a mark at even).
fn win_bar(seat: Seat) -> impl Bundle {
    (
        layout(Node {
            width: percent(100),
            align_items: AlignItems::Center,
            column_gap: px(8),
            ..default()
        }),
        WinBar,
        seat,
        children![
            (
                coloured_label("", 14.0, Color::WHITE),
                Paint::TextDim,
                HudText::Lead,
                seat,
                Node {
                    min_width: px(84),
                    ..default()
                },
            ),
            (
                layout(Node {
                    height: px(12),
                    flex_grow: 1.0,
                    border_radius: BorderRadius::all(px(6)),
                    overflow: Overflow::clip(),
                    ..default()
                }),
                BackgroundColor(Color::WHITE),
                Paint::WinWhite,
                WinBarTrack,
                children![
                    (
                        layout(Node {
                            height: percent(100),
                            width: percent(50),
                            ..default()
                        }),
                        BackgroundColor(Color::BLACK),
                        Paint::WinBlack,
                        WinBarBlack,
                        seat,
                    ),
                    (
                        // The even point: a neutral notch, not the last move's red.
                        layout(Node {
                            position_type: PositionType::Absolute,
                            left: percent(50),
                            margin: UiRect::left(px(-1)),
                            width: px(2),
                            height: percent(100),
                            ..default()
                        }),
                        BackgroundColor(Color::WHITE),
                        Paint::Mark,
                        WinBarNotch,
                    ),
                ],
            ),
        ],
    )
}

/// The win bar's label: the side ahead and its chance, rounded ("Black 62%"), "Even" at
/// 50%, and the bar's name before any search has given a chance.
pub fn lead_text(black_win: Option<f32>, lang: Lang) -> String {
    let Some(p) = black_win else {
        return lang.t("hud.win_chance").to_string();
    };
    let black = (p.clamp(0.0, 1.0) * 100.0).round() as i32;
    let (side, pct) = match black.cmp(&50) {
        std::cmp::Ordering::Equal => return lang.t("hud.even").to_string(),
        std::cmp::Ordering::Greater => (Side::Black, black),
        std::cmp::Ordering::Less => (Side::White, 100 - black),
    };
    lang.f("hud.lead", &[("side", &lang.side(side)), ("pct", &pct)])
}

/// The notice and the HUD's buttons (Pass, Play again, Graph, Back to game), each shown only
/// when it can do something.
fn notice_row(seat: Seat) -> impl Bundle {
    let button_of = |key, action: HudAction| (button(key, action), seat);
    (
        layout(Node {
            align_items: AlignItems::Center,
            column_gap: px(10),
            row_gap: px(6),
            min_height: px(crate::ui::layout::TOUCH),
            ..default()
        }),
        NoticeRow,
        LayoutProbe("hud"),
        children![
            (
                coloured_label("", 17.0, Palette::CLASSIC.text_dim),
                HudText::Notice,
                seat,
                Node {
                    flex_grow: 1.0,
                    ..default()
                }
            ),
            button_of("hud.pass", HudAction::Pass),
            button_of("hud.play_again", HudAction::PlayAgain),
            button_of("hud.graph", HudAction::Graph),
            button_of("hud.back_to_game", HudAction::BackToGame),
            (
                labelled_icon_button(
                    super::toolbar::icon_of(super::toolbar::ToolAction::Undo),
                    "toolbar.undo",
                    super::toolbar::ToolAction::Undo
                ),
                FarControl,
                seat
            ),
            (
                labelled_icon_button(
                    super::toolbar::icon_of(super::toolbar::ToolAction::Hint),
                    "toolbar.hint",
                    super::toolbar::ToolAction::Hint
                ),
                FarControl,
                seat
            ),
        ],
    )
}

fn spawn_seat(commands: &mut Commands, seat: Seat) {
    commands.spawn((
        Name::new(format!("HUD {seat:?}")),
        super::HudRoot,
        seat,
        Node {
            // Placed by `super::follow_orientation`.
            position_type: PositionType::Absolute,
            flex_direction: FlexDirection::Column,
            row_gap: px(4),
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Panel,
        children![
            (
                layout(Node {
                    justify_content: JustifyContent::SpaceBetween,
                    align_items: AlignItems::Center,
                    column_gap: px(8),
                    ..default()
                }),
                LayoutProbe("hud"),
                CardsRow,
                children![
                    player_card(Side::Black, seat),
                    player_card(Side::White, seat)
                ],
            ),
            // Whose turn it is, under the cards.
            status_line(seat),
            (
                layout(Node {
                    height: px(5),
                    width: percent(0),
                    ..default()
                }),
                BackgroundColor(Color::NONE),
                Paint::Hint,
                ThinkingBar,
                seat,
            ),
            win_bar(seat),
            notice_row(seat),
        ],
    ));
}

/// Lying down (one player), the move list fills the column under the cards.
fn dock_move_list(mut commands: Commands, huds: Query<(Entity, &Seat), Added<super::HudRoot>>) {
    for (hud, seat) in &huds {
        if *seat == Seat::Near {
            let list = commands.spawn(super::move_list::docked_list()).id();
            commands.entity(hud).add_child(list);
        }
    }
}

/// Which HUD a button shows in: the Pass button in the HUD of the player who must pass (in
/// table mode, Black's near one or White's far one), every other button in the near HUD
/// only (face to face the far player has Undo and Hint of their own: [`FarControl`]).
pub fn shows_button(seat: Seat, action: HudAction, to_move: Side, table: bool) -> bool {
    match action {
        HudAction::Pass if table => seat == Seat::of(to_move),
        _ => seat == Seat::Near,
    }
}

/// Whether a [`FarControl`] (Undo, Hint) shows in `seat`'s HUD: face to face, in the far
/// player's, who cannot reach or read the toolbar.
pub fn far_control_shown(seat: Seat, table: bool) -> bool {
    table && seat == Seat::Far
}

/// Who plays `side`, under its name: the AI and its level, else the name the player gave
/// (`names`, Black's then White's), else "You" against the AI, "Player 1" (Black) and
/// "Player 2" (White) between two people.
pub fn who_plays(players: &Players, names: &[String; 2], side: Side, lang: Lang) -> String {
    let name = &names[crate::prefs::settings::name_slot(side)];
    match players.get(side) {
        Player::Ai(level) => lang.f("hud.ai", &[("level", &level.label(lang))]),
        Player::Human if !name.is_empty() => name.clone(),
        Player::Human if players.is_human(side.opposite()) => {
            let n = match side {
                Side::Black => 1,
                Side::White => 2,
            };
            lang.f("hud.player", &[("n", &n)])
        }
        Player::Human => lang.t("hud.you").to_string(),
    }
}

/// Upright the player cards sit side by side, White's mirrored; lying down they are stacked
/// in the column (one player: the move list docked under them). The HUD hides where a panel
/// takes its place ([`super::hud_hidden`]).
#[allow(clippy::type_complexity)]
fn arrange_for_orientation(
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    ui_scale: Res<UiScale>,
    safe: Res<crate::platform::SafeArea>,
    table: Res<TableMode>,
    overlay: Res<State<super::Overlay>>,
    mut huds: Query<(&Seat, &mut Visibility), With<super::HudRoot>>,
    mut nodes: Query<
        (
            &mut Node,
            Has<CardsRow>,
            Option<&PlayerCard>,
            Option<&CardTexts>,
            Has<NoticeRow>,
            Has<super::move_list::DockedList>,
        ),
        Or<(
            With<CardsRow>,
            With<PlayerCard>,
            With<CardTexts>,
            With<NoticeRow>,
            With<super::move_list::DockedList>,
        )>,
    >,
    mut texts: Query<
        (&HudText, &mut Node),
        (
            Without<NoticeRow>,
            Without<CardsRow>,
            Without<PlayerCard>,
            Without<CardTexts>,
            Without<super::move_list::DockedList>,
        ),
    >,
    added: Query<(), Or<(Added<CardsRow>, Added<super::move_list::DockedList>)>>,
    mut last: Local<Option<(bool, bool, bool)>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let landscape = crate::ui::layout::is_landscape(safe.inner(size) / ui_scale.0.max(0.01));
    let hidden = super::hud_hidden(*overlay.get(), landscape, table.0);
    let state = (landscape, table.0, hidden);
    if *last == Some(state) && added.is_empty() {
        return;
    }
    *last = Some(state);
    let column = landscape && !table.0;
    for (seat, mut visibility) in &mut huds {
        visibility.set_if_neq(if hidden && *seat == Seat::Near {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        });
    }
    for (mut node, cards, card, card_texts, notice_row, docked) in &mut nodes {
        if cards {
            (node.flex_direction, node.align_items) = if landscape {
                (FlexDirection::Column, AlignItems::Stretch)
            } else {
                (FlexDirection::Row, AlignItems::Center)
            };
        }
        if let Some(PlayerCard(side)) = card {
            // Upright each card takes half the row; stacked, its own height.
            (node.flex_grow, node.flex_basis) = if landscape {
                (0.0, Val::Auto)
            } else {
                (1.0, px(0))
            };
            node.flex_direction = if *side == Side::White && !landscape {
                FlexDirection::RowReverse
            } else {
                FlexDirection::Row
            };
        }
        if let Some(CardTexts(side)) = card_texts {
            node.align_items = if *side == Side::White && !landscape {
                AlignItems::FlexEnd
            } else {
                AlignItems::FlexStart
            };
        }
        if notice_row {
            // Lying down a column (the notice over the buttons), so a long notice wraps
            // within the narrow column, and no taller than what it shows.
            // (Face to face, a row: each half of the column holds a HUD with its buttons.)
            (node.flex_direction, node.align_items, node.min_height) = if column {
                (FlexDirection::Column, AlignItems::Stretch, px(0))
            } else {
                (
                    FlexDirection::Row,
                    AlignItems::Center,
                    px(crate::ui::layout::TOUCH),
                )
            };
        }
        if docked {
            node.display = if column { Display::Flex } else { Display::None };
        }
    }
    // Upright the notice takes the row's free width, pushing the buttons right; in the
    // column it keeps its own height.
    for (text, mut node) in &mut texts {
        if matches!(text, HudText::Notice) {
            node.flex_grow = if column { 0.0 } else { 1.0 };
        }
    }
}

fn status_text(current: &CurrentGame, players: &Players, ai: &AiState, lang: Lang) -> String {
    let game = current.game();
    if let Some(ply) = current.review() {
        return lang.f("hud.review", &[("ply", &ply), ("total", &game.ply())]);
    }
    if let Some(result) = game.result() {
        return match result.winner() {
            Some(side) => lang.f(
                "hud.wins",
                &[
                    ("side", &lang.side(side)),
                    ("score", &result.discs),
                    ("margin", &result.margin()),
                ],
            ),
            None => lang.f("hud.draw", &[("score", &result.discs)]),
        };
    }
    let side = game.side_to_move();
    if let Some((s, Purpose::Move, _)) = ai.thinking() {
        return lang.f("hud.thinking", &[("side", &lang.side(s))]);
    }
    let key = if game.must_pass() {
        "hud.must_pass"
    } else if players.is_human(side) && !players.is_human(side.opposite()) {
        "hud.your_move"
    } else {
        "hud.to_move"
    };
    lang.f(key, &[("side", &lang.side(side))])
}

/// The AI statistics line (the menu's "AI stats"): the running search's so far, else the
/// last search's while its position is on the board (the AI's move just played, or the hint
/// for this position).
pub fn stats_text(
    current: &CurrentGame,
    players: &Players,
    ai: &AiState,
    stats: &AiStats,
    lang: Lang,
) -> String {
    let viewer = players.viewer();
    if let Some(live) = ai.live_stats() {
        return live.line(lang, viewer);
    }
    let ply = current.game().ply();
    match &stats.last {
        Some(s)
            if current.review().is_none()
                && match s.purpose {
                    Purpose::Move => s.ply + 1 == ply,
                    Purpose::Hint => s.ply == ply,
                } =>
        {
            s.line(lang, viewer)
        }
        _ => String::new(),
    }
}

/// Whether a search runs: its progress and the statistics line move every frame.
fn thinking(ai: Res<AiState>) -> bool {
    ai.thinking().is_some()
}

/// What the HUD's texts are written from.
#[derive(SystemParam)]
struct TextSources<'w> {
    current: Res<'w, CurrentGame>,
    players: Res<'w, Players>,
    ai: Res<'w, AiState>,
    stats: Res<'w, AiStats>,
    estimate: Res<'w, WinEstimate>,
    notice: Res<'w, Notice>,
    settings: Res<'w, Settings>,
    language: Res<'w, Language>,
    palette: Res<'w, Palette>,
    lag: Res<'w, CountLag>,
}

/// Whether a HUD text may read differently now.
fn texts_stale(from: TextSources) -> bool {
    from.current.is_changed()
        || from.players.is_changed()
        || from.ai.is_changed()
        || from.stats.is_changed()
        || from.estimate.is_changed()
        || from.notice.is_changed()
        || from.settings.is_changed()
        || from.language.is_changed()
        || from.palette.is_changed()
        || from.lag.is_changed()
}

/// Whether the thinking bar or the win bar may have moved.
fn bars_stale(
    ai: Res<AiState>,
    estimate: Res<WinEstimate>,
    settings: Res<Settings>,
    table: Res<TableMode>,
) -> bool {
    ai.is_changed() || estimate.is_changed() || settings.is_changed() || table.is_changed()
}

/// The HUD's words and numbers: disc counts, names, who plays, the status, the lead and the
/// notice (or the statistics line in its place).
fn update_texts(from: TextSources, mut texts: Query<(&HudText, &Seat, &mut Text, &mut TextColor)>) {
    let TextSources {
        current,
        players,
        ai,
        stats,
        estimate,
        notice,
        settings,
        language,
        palette,
        lag,
    } = from;
    let score = current.shown_position().score();
    // The counts tick with the discs: the board's animation may not have drawn them all yet.
    let count = |side: Side, n: u8| (i32::from(n) + lag.of(side)).max(0).to_string();
    for (which, seat, mut text, mut color) in &mut texts {
        let value = match which {
            HudText::Count(Side::Black) => count(Side::Black, score.black),
            HudText::Count(Side::White) => count(Side::White, score.white),
            HudText::Name(side) => language.0.side(*side).to_string(),
            HudText::Who(side) => who_plays(&players, &settings.names, *side, language.0),
            HudText::Status => status_text(&current, &players, &ai, language.0),
            HudText::Lead => lead_text(estimate.0, language.0),
            HudText::Notice => {
                let colour = if notice.is_error {
                    palette.text_error
                } else {
                    palette.text_dim
                };
                if color.0 != colour {
                    color.0 = colour;
                }
                if *seat == Seat::Far {
                    // The far player sees the game, not the near player's notices.
                    String::new()
                } else if notice.is_empty() && settings.ai_stats {
                    stats_text(&current, &players, &ai, &stats, language.0)
                } else {
                    notice.text(language.0)
                }
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

/// The thinking bar's progress and the win bar's split.
fn update_bars(
    ai: Res<AiState>,
    estimate: Res<WinEstimate>,
    settings: Res<Settings>,
    table: Res<TableMode>,
    mut bars: Query<
        (
            &mut Node,
            Has<ThinkingBar>,
            Has<WinBar>,
            Has<WinBarBlack>,
            Has<WinBarNotch>,
        ),
        Or<(
            With<ThinkingBar>,
            With<WinBar>,
            With<WinBarBlack>,
            With<WinBarNotch>,
        )>,
    >,
    mut tracks: Query<&mut Paint, With<WinBarTrack>>,
) {
    let progress = ai.thinking().map_or(0.0, |(_, _, p)| p);
    // Before any estimate the bar shows no split: an even split would read as an even game.
    let split = if estimate.0.is_some() {
        Display::Flex
    } else {
        Display::None
    };
    let track = if estimate.0.is_some() {
        Paint::WinWhite
    } else {
        Paint::Button
    };
    for mut paint in &mut tracks {
        paint.set_if_neq(track);
    }
    let black_win = estimate.0.unwrap_or(0.5);
    for (mut node, is_thinking, is_win, is_black, is_notch) in &mut bars {
        // Face to face (two people) there is no AI to follow, and neither player wants a
        // meter saying who is winning: both bars go, and each HUD is the shorter for it.
        let shown = |on: bool| {
            if on && !table.0 {
                Display::Flex
            } else {
                Display::None
            }
        };
        if is_thinking {
            node.width = percent(progress * 100.0);
            node.display = shown(true);
        } else if is_win {
            node.display = shown(settings.win_bar);
        } else if is_black {
            node.width = percent(black_win * 100.0);
            node.display = split;
        } else if is_notch {
            node.display = split;
        }
    }
}

/// The side to move: its count ringed in the accent colour and its card on a lighter ground
/// (neither once the game is over or under review).
fn mark_side_to_move(
    current: Res<CurrentGame>,
    palette: Res<Palette>,
    mut chips: Query<(&CountChip, &mut BorderColor), Without<PlayerCard>>,
    mut cards: Query<(&PlayerCard, &mut BorderColor, &mut BackgroundColor), Without<CountChip>>,
) {
    let game = current.game();
    let to_move = (!game.is_over() && current.review().is_none()).then(|| game.side_to_move());
    for (chip, mut border) in &mut chips {
        let colour = if to_move == Some(chip.0) {
            palette.hint
        } else {
            palette.text_dim.with_alpha(0.5)
        };
        if border.top != colour {
            *border = BorderColor::all(colour);
        }
    }
    for (card, mut border, mut background) in &mut cards {
        let (edge, ground) = if to_move == Some(card.0) {
            (palette.hint, palette.button)
        } else {
            (Color::NONE, Color::NONE)
        };
        if border.top != edge {
            *border = BorderColor::all(edge);
        }
        if background.0 != ground {
            background.0 = ground;
        }
    }
}

/// Each HUD button only when it can act (Pass, Play again, the graph, back to the game), and
/// the far player's own controls in table mode.
fn show_buttons(
    current: Res<CurrentGame>,
    players: Res<Players>,
    table: Res<TableMode>,
    mut buttons: Query<(&HudAction, &Seat, &mut Node), Without<FarControl>>,
    mut far_controls: Query<(&Seat, &mut Node), (With<FarControl>, Without<HudAction>)>,
) {
    let game = current.game();
    let human_must_pass =
        current.review().is_none() && game.must_pass() && players.is_human(game.side_to_move());
    for (button, seat, mut node) in &mut buttons {
        let show = shows_button(*seat, *button, game.side_to_move(), table.0)
            && match button {
                HudAction::Pass => human_must_pass,
                HudAction::PlayAgain => game.is_over() && current.review().is_none(),
                HudAction::Graph => game.is_over(),
                HudAction::BackToGame => current.review().is_some(),
            };
        let display = if show { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
    for (seat, mut node) in &mut far_controls {
        let display = if far_control_shown(*seat, table.0) {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
}

/// A notice fades out over its last moment ([`Notice::opacity`]).
fn fade_notice(notice: Res<Notice>, mut texts: Query<(&HudText, &mut TextColor)>) {
    if notice.is_empty() {
        return;
    }
    let opacity = notice.opacity();
    for (text, mut color) in &mut texts {
        if matches!(text, HudText::Notice) && color.0.alpha() != opacity {
            color.0.set_alpha(opacity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::screens::{HudPlace, hud_place};
    use bevy::ecs::system::RunSystemOnce;

    #[test]
    fn the_huds_and_the_toolbar_carry_names_a_developer_can_find() {
        let mut world = World::new();
        world.run_system_once(spawn_hud).expect("spawn the HUDs");
        world
            .run_system_once(super::super::toolbar::spawn_toolbar)
            .expect("spawn the toolbar");
        let mut names: Vec<String> = world
            .query::<&Name>()
            .iter(&world)
            .map(|n| n.as_str().to_string())
            .collect();
        names.sort();
        assert_eq!(names, ["HUD Far", "HUD Near", "Toolbar"]);
    }

    #[test]
    fn the_win_bar_says_who_is_ahead_and_by_how_much() {
        assert_eq!(lead_text(Some(0.62), Lang::En), "Black 62%");
        assert_eq!(lead_text(Some(0.38), Lang::En), "White 62%");
        assert_eq!(lead_text(Some(0.501), Lang::En), "Even");
        assert_eq!(lead_text(Some(1.0), Lang::De), "Schwarz 100\u{a0}%");
        assert_eq!(lead_text(Some(0.0), Lang::Ja), "白100%");
        assert_eq!(lead_text(None, Lang::En), "Win chance");
    }

    #[test]
    fn table_mode_turns_the_far_hud_and_routes_the_pass_button() {
        // Alone with the device: one HUD, upright. Face to face, White's is turned.
        assert_eq!(
            hud_place(Seat::Near, false),
            HudPlace {
                shown: true,
                turned: false
            }
        );
        assert!(!hud_place(Seat::Far, false).shown);
        assert!(hud_place(Seat::Far, true).shown && hud_place(Seat::Far, true).turned);
        assert!(!hud_place(Seat::Near, true).turned);
        // The Pass button shows to the player who must pass, and only in table mode to White.
        assert!(shows_button(Seat::Far, HudAction::Pass, Side::White, true));
        assert!(!shows_button(
            Seat::Near,
            HudAction::Pass,
            Side::White,
            true
        ));
        assert!(shows_button(Seat::Near, HudAction::Pass, Side::Black, true));
        assert!(shows_button(
            Seat::Near,
            HudAction::Pass,
            Side::White,
            false
        ));
        // Play again and the rest belong to the near HUD.
        assert!(shows_button(
            Seat::Near,
            HudAction::PlayAgain,
            Side::White,
            true
        ));
        assert!(!shows_button(
            Seat::Far,
            HudAction::PlayAgain,
            Side::White,
            true
        ));
        assert_eq!(Seat::of(Side::Black), Seat::Near);
        assert_eq!(Seat::of(Side::White), Seat::Far);
        // Face to face the far player has Undo and Hint of their own; the near player has
        // the toolbar's; alone with the device there is no far HUD to hold them.
        assert!(far_control_shown(Seat::Far, true));
        assert!(!far_control_shown(Seat::Near, true));
        assert!(!far_control_shown(Seat::Far, false));
    }

    #[test]
    fn two_people_are_player_1_and_player_2() {
        let two = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let unnamed = [String::new(), String::new()];
        assert_eq!(who_plays(&two, &unnamed, Side::Black, Lang::En), "Player 1");
        assert_eq!(who_plays(&two, &unnamed, Side::White, Lang::En), "Player 2");
        assert_eq!(
            who_plays(&two, &unnamed, Side::White, Lang::De),
            "Spieler 2"
        );
        let against_ai = Players {
            black: Player::Human,
            white: Player::Ai(crate::game::player::AiLevel::default()),
        };
        assert_eq!(
            who_plays(&against_ai, &unnamed, Side::Black, Lang::En),
            "You"
        );
    }

    #[test]
    fn a_given_name_shows_for_a_human_player_only() {
        let two = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let names = ["Ann".to_string(), String::new()];
        assert_eq!(who_plays(&two, &names, Side::Black, Lang::En), "Ann");
        assert_eq!(who_plays(&two, &names, Side::White, Lang::En), "Player 2");
        let ai_black = Players {
            black: Player::Ai(crate::game::player::AiLevel::default()),
            white: Player::Human,
        };
        let shown = who_plays(&ai_black, &names, Side::Black, Lang::En);
        assert_ne!(shown, "Ann", "the AI keeps its level's name");
        assert_eq!(who_plays(&ai_black, &names, Side::White, Lang::En), "You");
    }
}
