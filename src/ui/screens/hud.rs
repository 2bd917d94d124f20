//! The HUD at the top: both disc counts, whose turn it is, the AI's thinking bar, the win bar
//! ([`super::win_bar`]), notices, and the Pass / Play again / Back to game buttons.

use super::Seat;
use crate::AppSystems;
use crate::game::ai::{AiState, AiStats, Purpose};
use crate::game::flow::{CountLag, CurrentGame, GameCommand, Notice, ViewBusy};
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
    app.init_resource::<TallLayout>();
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
                            resource_changed::<CurrentGame>
                                .or_else(resource_changed::<Palette>)
                                .or_else(resource_changed::<AiState>)
                                .or_else(thinking),
                        ),
                        show_buttons.run_if(
                            resource_changed::<CurrentGame>
                                .or_else(resource_changed::<Players>)
                                .or_else(resource_changed::<TableMode>),
                        ),
                    )
                        .in_set(HudUpdate),
                    show_toast.run_if(resource_changed::<Notice>),
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
    /// On a tall phone, the AI's statistics under the win bar (elsewhere they take the
    /// notice's place when there is no notice).
    Stats,
    /// On a tall phone, the notice in its toast.
    Toast,
    /// On a tall phone, the move strip's last moves ("… 21. f5 d6 22. c3").
    Strip,
    /// On a tall phone, where the game is, after the strip's moves ("Move 23 · 37 empty").
    Progress,
}

/// The layout is the tall phone's ([`crate::ui::layout::Areas::tall`]): the cards around the
/// board, the move strip, notices in a toast, the AI's statistics under the win bar.
#[derive(Resource, Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct TallLayout(pub bool);

/// On a tall phone, a notice's toast over the player's card (its place): shown while there is
/// a notice, fading with it.
#[derive(Component, Debug)]
struct Toast;

/// The toast's pill, whose ground fades with the notice.
#[derive(Component, Debug)]
struct ToastPill;

/// On a tall phone, the move strip: a tap opens the move list.
#[derive(Component, Debug)]
struct MoveStrip;

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
            move_strip(seat),
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
            super::win_bar::win_bar(seat),
            (
                coloured_label("", 14.0, Color::WHITE),
                Paint::TextDim,
                TextLayout::no_wrap(),
                HudText::Stats,
                seat,
                Node {
                    display: Display::None,
                    width: percent(100),
                    overflow: Overflow::clip(),
                    ..default()
                },
            ),
            notice_row(seat),
            toast(seat),
        ],
    ));
}

/// A notice's toast (a tall phone's): a pill centred in its place, over the player's card,
/// which taps pass through. Placed by [`arrange_for_orientation`], shown by [`show_toast`].
fn toast(seat: Seat) -> impl Bundle {
    (
        layout(Node {
            display: Display::None,
            position_type: PositionType::Absolute,
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        }),
        Toast,
        Visibility::Hidden,
        seat,
        children![(
            layout(Node {
                padding: UiRect::axes(px(16), px(8)),
                border_radius: BorderRadius::all(px(20)),
                max_width: percent(100),
                ..default()
            }),
            BackgroundColor(Color::NONE),
            ToastPill,
            children![(
                coloured_label("", 17.0, Palette::CLASSIC.text_dim),
                TextLayout::justify(Justify::Center),
                HudText::Toast,
                seat,
            )],
        )],
    )
}

/// The move strip (a tall phone's): the last moves and where the game is, one line; a tap
/// opens the move list.
fn move_strip(seat: Seat) -> impl Bundle {
    (
        widgets::framed(
            Node {
                display: Display::None,
                flex_grow: 1.0,
                flex_basis: px(0),
                // It gives way to the buttons beside it (Play again, Graph), its text clipped.
                min_width: px(0),
                min_height: px(crate::ui::layout::TOUCH),
                padding: UiRect::axes(px(12), px(6)),
                align_items: AlignItems::Center,
                border_radius: BorderRadius::all(px(10)),
                overflow: Overflow::clip(),
                ..default()
            },
            super::toolbar::ToolAction::Open(super::Overlay::Moves),
            false,
            (
                layout(Node {
                    width: percent(100),
                    justify_content: JustifyContent::SpaceBetween,
                    align_items: AlignItems::Center,
                    column_gap: px(10),
                    ..default()
                }),
                children![
                    (
                        text_label("", 16.0),
                        TextLayout::no_wrap(),
                        HudText::Strip,
                        seat,
                    ),
                    (
                        coloured_label("", 14.0, Color::WHITE),
                        Paint::TextDim,
                        TextLayout::no_wrap(),
                        HudText::Progress,
                        seat,
                    ),
                ],
            ),
        ),
        MoveStrip,
        seat,
    )
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

/// Where a tall phone's rows go (logical pixels, [`crate::ui::layout::Areas::tall`]).
#[derive(Clone, Copy, PartialEq, Debug)]
struct TallPlaces {
    /// From the top of the opponent's card to the bottom of the player's.
    cards: Rect,
    strip: Rect,
    toast: Rect,
    /// The UI's scale: the places are in logical pixels, nodes in UI units.
    scale: f32,
    /// The person's side, whose card goes below the board.
    viewer: Side,
}

/// What the HUD's arrangement depends on.
#[derive(SystemParam)]
struct Arrangement<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
    ui_scale: Res<'w, UiScale>,
    safe: Res<'w, crate::platform::SafeArea>,
    table: Res<'w, TableMode>,
    overlay: Res<'w, State<super::Overlay>>,
    players: Res<'w, Players>,
    tall: ResMut<'w, TallLayout>,
}

/// On a tall phone (`Some((rect, scale))`) a row of the HUD goes beside the board, on `rect`
/// (`super::place` puts a node on a rectangle of the screen: the HUD's root is at its top-left
/// corner); otherwise back in the HUD's flow. (While the move list is open on a tall phone the
/// whole HUD hides: `super::hud_hidden`.)
fn beside_board(node: &mut Node, tall: Option<(Rect, f32)>) {
    match tall {
        Some((rect, scale)) => super::place(node, rect, scale),
        None => {
            node.position_type = PositionType::Relative;
            (node.left, node.top, node.width, node.height) =
                (Val::Auto, Val::Auto, Val::Auto, Val::Auto);
        }
    }
}

/// Upright the player cards sit side by side, White's mirrored; lying down they are stacked
/// in the column (one player: the move list docked under them). On a tall phone the cards
/// go around the board (the opponent's above it, the player's below), the notice row becomes
/// the move strip's and the notices a toast. The HUD hides where a panel takes its place
/// ([`super::hud_hidden`]).
#[allow(clippy::type_complexity)]
fn arrange_for_orientation(
    mut from: Arrangement,
    mut huds: Query<(&Seat, &mut Visibility), With<super::HudRoot>>,
    mut nodes: Query<
        (
            &mut Node,
            Option<&mut LayoutProbe>,
            Has<CardsRow>,
            Option<&PlayerCard>,
            Option<&CardTexts>,
            Has<NoticeRow>,
            Has<super::move_list::DockedList>,
            Has<MoveStrip>,
            Has<Toast>,
        ),
        Or<(
            With<CardsRow>,
            With<PlayerCard>,
            With<CardTexts>,
            With<NoticeRow>,
            With<super::move_list::DockedList>,
            With<MoveStrip>,
            With<Toast>,
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
            Without<MoveStrip>,
            Without<Toast>,
        ),
    >,
    added: Query<(), Or<(Added<CardsRow>, Added<super::move_list::DockedList>)>>,
    mut last: Local<Option<(bool, bool, bool, Option<TallPlaces>)>>,
) {
    let Ok(window) = from.windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let scale = from.ui_scale.0.max(0.01);
    let table = from.table.0;
    let areas = crate::ui::layout::areas(size, scale, &from.safe, table);
    let landscape = areas.landscape;
    let overlay = *from.overlay.get();
    let hidden = super::hud_hidden(overlay, landscape, areas.tall, table);
    let tall = areas.tall.then(|| TallPlaces {
        cards: areas.cards[0].union(areas.cards[1]),
        strip: areas.strip,
        toast: areas.toast,
        scale,
        viewer: from.players.viewer(),
    });
    from.tall.set_if_neq(TallLayout(areas.tall));
    let state = (landscape, table, hidden, tall);
    if *last == Some(state) && added.is_empty() {
        return;
    }
    *last = Some(state);
    let column = landscape && !table;
    for (seat, mut visibility) in &mut huds {
        visibility.set_if_neq(if hidden && *seat == Seat::Near {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        });
    }
    let shown = |on: bool| if on { Display::Flex } else { Display::None };
    for (mut node, probe, cards, card, card_texts, notice_row, docked, strip, toast) in &mut nodes {
        if cards {
            (node.flex_direction, node.align_items) = match tall {
                // The person's card at the bottom, by the board's near edge.
                Some(t) if t.viewer == Side::Black => {
                    (FlexDirection::ColumnReverse, AlignItems::Stretch)
                }
                Some(_) => (FlexDirection::Column, AlignItems::Stretch),
                None if landscape => (FlexDirection::Column, AlignItems::Stretch),
                None => (FlexDirection::Row, AlignItems::Center),
            };
            beside_board(&mut node, tall.map(|t| (t.cards, t.scale)));
        }
        if let Some(mut probe) = probe {
            // Beside the board the cards and the strip are no longer the HUD's rows (a panel
            // covers them with the board).
            let name = match (tall.is_some(), cards, notice_row) {
                (true, true, _) => "cards",
                (true, _, true) => "strip",
                (false, true, _) | (false, _, true) => "hud",
                _ => probe.0,
            };
            if probe.0 != name {
                probe.0 = name;
            }
        }
        if let Some(PlayerCard(side)) = card {
            // Upright each card takes half the row; stacked, its own height.
            let stacked = landscape || tall.is_some();
            (node.flex_grow, node.flex_basis) = if stacked {
                (0.0, Val::Auto)
            } else {
                (1.0, px(0))
            };
            node.flex_direction = if *side == Side::White && !stacked {
                FlexDirection::RowReverse
            } else {
                FlexDirection::Row
            };
        }
        if let Some(CardTexts(side)) = card_texts {
            node.align_items = if *side == Side::White && !landscape && tall.is_none() {
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
            beside_board(&mut node, tall.map(|t| (t.strip, t.scale)));
        }
        if strip {
            node.display = shown(tall.is_some());
        }
        if toast {
            match tall {
                Some(t) => {
                    super::place(&mut node, t.toast, t.scale);
                    node.display = Display::Flex;
                }
                None => node.display = Display::None,
            }
        }
        if docked {
            node.display = shown(column);
        }
    }
    // Upright the notice takes the row's free width, pushing the buttons right; in the
    // column it keeps its own height. On a tall phone the strip takes the row, the notice
    // shows in its toast and the AI's statistics under the win bar.
    for (text, mut node) in &mut texts {
        match text {
            HudText::Notice => {
                node.flex_grow = if column { 0.0 } else { 1.0 };
                node.display = shown(tall.is_none());
            }
            HudText::Stats => node.display = shown(tall.is_some()),
            _ => {}
        }
    }
}

/// Whose turn it is, the result, or the review's place; before a first game's first move,
/// how to play (`new_player`: no game against the AI finished yet).
fn status_text(
    current: &CurrentGame,
    players: &Players,
    ai: &AiState,
    new_player: bool,
    lang: Lang,
) -> String {
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
    let key = if new_player
        && game.ply() == 0
        && players.human_against_ai().is_some()
        && players.is_human(side)
    {
        // Against the AI the person to move first is Black.
        "hud.first_move"
    } else if game.must_pass() {
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
    notice: Res<'w, Notice>,
    settings: Res<'w, Settings>,
    language: Res<'w, Language>,
    palette: Res<'w, Palette>,
    lag: Res<'w, CountLag>,
    busy: Res<'w, ViewBusy>,
    tall: Res<'w, TallLayout>,
    record: Res<'w, crate::persist::save::StatsFile>,
}

/// Whether a HUD text may read differently now.
fn texts_stale(from: TextSources) -> bool {
    from.current.is_changed()
        || from.players.is_changed()
        || from.ai.is_changed()
        || from.stats.is_changed()
        || from.notice.is_changed()
        || from.settings.is_changed()
        || from.language.is_changed()
        || from.palette.is_changed()
        || from.lag.is_changed()
        || from.busy.is_changed()
        || from.tall.is_changed()
        || from.record.is_changed()
}

/// Whether the thinking bar may have moved.
fn bars_stale(ai: Res<AiState>, table: Res<TableMode>) -> bool {
    ai.is_changed() || table.is_changed()
}

/// The HUD's words and numbers: disc counts, names, who plays, the status, the lead and the
/// notice (or the statistics line in its place).
fn update_texts(from: TextSources, mut texts: Query<(&HudText, &Seat, &mut Text, &mut TextColor)>) {
    let TextSources {
        current,
        players,
        ai,
        stats,
        notice,
        settings,
        language,
        palette,
        lag,
        busy,
        tall,
        record,
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
            // The status changes when the board's discs have landed (a move's result, whose
            // turn it is next), in step with what the player sees.
            HudText::Status if busy.0 && !text.0.is_empty() => continue,
            HudText::Status => {
                let new_player = record.0.levels.values().all(|r| r.games == 0);
                status_text(&current, &players, &ai, new_player, language.0)
            }
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
                } else if notice.is_empty() && settings.ai_stats && !tall.0 {
                    stats_text(&current, &players, &ai, &stats, language.0)
                } else {
                    notice.text(language.0)
                }
            }
            HudText::Toast => {
                let colour = if notice.is_error {
                    palette.text_error
                } else {
                    palette.text
                };
                if color.0 != colour {
                    color.0 = colour;
                }
                notice.text(language.0)
            }
            HudText::Stats if settings.ai_stats && tall.0 => {
                stats_text(&current, &players, &ai, &stats, language.0)
            }
            HudText::Stats => String::new(),
            HudText::Strip => {
                strip_text(current.game().all_moves(), current.shown_ply(), STRIP_PLIES)
            }
            HudText::Progress => {
                progress_text(current.shown_ply(), current.shown_position(), language.0)
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

/// The thinking bar's progress (the win bar is [`super::win_bar`]'s).
fn update_bars(
    ai: Res<AiState>,
    table: Res<TableMode>,
    mut bars: Query<&mut Node, With<ThinkingBar>>,
) {
    let progress = ai.thinking().map_or(0.0, |(_, _, p)| p);
    for mut node in &mut bars {
        node.width = percent(progress * 100.0);
        // Face to face (two people) there is no AI to follow: each HUD is the shorter for it.
        node.display = if table.0 {
            Display::None
        } else {
            Display::Flex
        };
    }
}

/// How strongly the AI's card is ringed while it thinks, at `secs` on the clock: a slow
/// pulse between 30% and 100% (1.2 s a beat), so the player sees the AI at work.
pub fn thinking_pulse(secs: f32) -> f32 {
    let beat = (secs / 1.2 * std::f32::consts::TAU).cos();
    0.3 + 0.7 * (0.5 + 0.5 * beat)
}

/// The side to move: its count ringed in the accent colour and its card on a lighter ground
/// (neither once the game is over or under review); an AI's card pulses while it thinks.
fn mark_side_to_move(
    current: Res<CurrentGame>,
    palette: Res<Palette>,
    ai: Res<AiState>,
    time: Res<Time>,
    mut chips: Query<(&CountChip, &mut BorderColor), Without<PlayerCard>>,
    mut cards: Query<(&PlayerCard, &mut BorderColor, &mut BackgroundColor), Without<CountChip>>,
) {
    let game = current.game();
    let to_move = (!game.is_over() && current.review().is_none()).then(|| game.side_to_move());
    let thinking = match ai.thinking() {
        Some((side, Purpose::Move, progress)) => Some((side, progress)),
        _ => None,
    };
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
        let (mut edge, ground) = if to_move == Some(card.0) {
            (palette.hint, palette.button)
        } else {
            (Color::NONE, Color::NONE)
        };
        if let Some((side, _)) = thinking
            && side == card.0
        {
            edge = edge.with_alpha(thinking_pulse(time.elapsed_secs()));
        }
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

/// A notice fades out over its last moment ([`Notice::opacity`]), in its row or its toast.
fn fade_notice(
    notice: Res<Notice>,
    palette: Res<Palette>,
    mut texts: Query<(&HudText, &mut TextColor)>,
    mut pills: Query<&mut BackgroundColor, With<ToastPill>>,
) {
    if notice.is_empty() {
        return;
    }
    let opacity = notice.opacity();
    for (text, mut color) in &mut texts {
        if matches!(text, HudText::Notice | HudText::Toast) && color.0.alpha() != opacity {
            color.0.set_alpha(opacity);
        }
    }
    // (The pill's ground is the theme's button colour, faded with the text.)
    let ground = palette.button.with_alpha(palette.button.alpha() * opacity);
    for mut pill in &mut pills {
        if pill.0 != ground {
            pill.0 = ground;
        }
    }
}

/// The toast shows while there is a notice (on a tall phone; elsewhere it is not laid out).
fn show_toast(notice: Res<Notice>, mut toasts: Query<&mut Visibility, With<Toast>>) {
    let shown = if notice.is_empty() {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    };
    for mut visibility in &mut toasts {
        visibility.set_if_neq(shown);
    }
}

/// How many of the last moves the move strip shows.
const STRIP_PLIES: usize = 4;

/// The move strip's text: the last `plies` moves up to the shown one (`shown`, a ply), in
/// numbered pairs, "…" before them when there are earlier ones ("… 21. f5 d6 22. c3"; a
/// White move opening the strip is numbered "21. …"). Empty before the first move.
pub fn strip_text(moves: &[montello_engine::Move], shown: usize, plies: usize) -> String {
    let end = shown.min(moves.len());
    let start = end.saturating_sub(plies);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    for (i, mv) in moves[start..end].iter().enumerate() {
        let ply = start + i;
        let pair = ply / 2 + 1;
        if !out.is_empty() {
            out.push(' ');
        }
        if ply.is_multiple_of(2) {
            out.push_str(&format!("{pair}. "));
        } else if i == 0 {
            out.push_str(&format!("{pair}. … "));
        }
        out.push_str(&mv.to_string());
    }
    out
}

/// Where the game is, after the strip's moves: "Move 23 · 37 empty" (`ply` moves played, the
/// empty squares of `position`); before the first move only the empty squares.
pub fn progress_text(ply: usize, position: montello_engine::Position, lang: Lang) -> String {
    let score = position.score();
    let empty = 64 - u32::from(score.black) - u32::from(score.white);
    if ply == 0 {
        lang.f("hud.empty", &[("empty", &empty)])
    } else {
        lang.f("hud.move_empty", &[("n", &ply), ("empty", &empty)])
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
    fn the_move_strip_shows_the_last_moves_in_numbered_pairs() {
        let moves: Vec<montello_engine::Move> = ["f5", "d6", "c3", "d3", "c4", "f4", "pass"]
            .iter()
            .map(|m| m.parse().expect("move"))
            .collect();
        assert_eq!(strip_text(&moves, 0, 4), "");
        assert_eq!(strip_text(&moves, 1, 4), "1. f5");
        assert_eq!(strip_text(&moves, 4, 4), "1. f5 d6 2. c3 d3");
        // Earlier moves go behind "…"; a strip opening on White's move numbers it.
        assert_eq!(strip_text(&moves, 5, 4), "… 1. … d6 2. c3 d3 3. c4");
        assert_eq!(strip_text(&moves, 6, 4), "… 2. c3 d3 3. c4 f4");
        // Reviewing: up to the move shown, not the last one played.
        assert_eq!(strip_text(&moves, 2, 4), "1. f5 d6");
        let last = strip_text(&moves, 7, 4);
        assert!(last.starts_with("… 2. … d3") && last.ends_with(&moves[6].to_string()));
        // A ply past the moves (never asked) shows what there is.
        assert_eq!(strip_text(&moves[..2], 9, 4), "1. f5 d6");
    }

    #[test]
    fn the_strip_says_which_move_and_how_many_squares_are_empty() {
        let mut game = montello_engine::Game::new(montello_engine::Variant::default());
        assert_eq!(progress_text(0, game.position(), Lang::En), "60 empty");
        for mv in ["f5", "d6", "c3"] {
            game.play(mv.parse().expect("move")).expect("legal");
        }
        assert_eq!(
            progress_text(3, game.position(), Lang::En),
            "Move 3 · 57 empty"
        );
        assert_eq!(
            progress_text(3, game.position(), Lang::De),
            "Zug 3 · 57 frei"
        );
        assert_eq!(progress_text(3, game.position(), Lang::Ja), "3手目・空き57");
    }

    #[test]
    fn the_thinking_ai_s_card_pulses() {
        let samples: Vec<f32> = (0..24).map(|i| thinking_pulse(i as f32 * 0.05)).collect();
        let (low, high) = samples
            .iter()
            .fold((1.0f32, 0.0f32), |(lo, hi), &a| (lo.min(a), hi.max(a)));
        assert!(low >= 0.3 - 1e-4 && high <= 1.0 + 1e-4, "{low}..{high}");
        // It visibly beats within one 1.2 s period, and returns.
        assert!(high - low > 0.6, "{low}..{high}");
        assert!((thinking_pulse(0.0) - thinking_pulse(1.2)).abs() < 1e-4);
    }

    /// A world with the HUD and what its texts are written from.
    fn hud_world() -> World {
        let mut world = World::new();
        world.init_resource::<CurrentGame>();
        world.insert_resource(Players {
            black: Player::Human,
            white: Player::Ai(crate::game::player::AiLevel::default()),
        });
        world.init_resource::<AiState>();
        world.init_resource::<AiStats>();
        world.init_resource::<crate::game::ai::WinEstimate>();
        world.init_resource::<crate::game::margin::MarginEstimate>();
        world.init_resource::<Notice>();
        world.insert_resource(Settings::default());
        world.init_resource::<Language>();
        world.insert_resource(Palette::CLASSIC);
        world.init_resource::<CountLag>();
        world.init_resource::<ViewBusy>();
        world.init_resource::<TallLayout>();
        world.init_resource::<crate::persist::save::StatsFile>();
        world.run_system_once(spawn_hud).expect("spawn the HUDs");
        world
    }

    fn near_text(world: &mut World, which: fn(&HudText) -> bool) -> String {
        let mut texts = world.query::<(&HudText, &Seat, &Text)>();
        texts
            .iter(world)
            .find(|(text, seat, _)| which(text) && **seat == Seat::Near)
            .map(|(_, _, text)| text.0.clone())
            .expect("the near HUD has the text")
    }

    #[test]
    fn the_status_changes_when_the_discs_have_landed() {
        let mut world = hud_world();
        let status = |world: &mut World| near_text(world, |t| matches!(t, HudText::Status));
        world.run_system_once(update_texts).expect("texts");
        // A new player's first move says how to play.
        assert_eq!(status(&mut world), "Tap a dot to play (you are Black)");
        world
            .resource_mut::<crate::persist::save::StatsFile>()
            .0
            .record(crate::game::player::AiLevel::default(), 4);
        world.run_system_once(update_texts).expect("texts");
        let before = status(&mut world);
        assert_eq!(before, "Your move (Black)");
        // Black plays f5: while its disc lands and the flips turn, the status stays.
        world.resource_mut::<ViewBusy>().0 = true;
        world
            .resource_mut::<CurrentGame>()
            .play("f5".parse().expect("move"))
            .expect("legal");
        world.run_system_once(update_texts).expect("texts");
        assert_eq!(status(&mut world), before);
        // The board has settled: now it is White's turn.
        world.resource_mut::<ViewBusy>().0 = false;
        world.run_system_once(update_texts).expect("texts");
        assert_eq!(status(&mut world), "White to move");
    }

    #[test]
    fn on_a_tall_phone_notices_go_to_the_toast_and_the_strip_follows_the_game() {
        let mut world = hud_world();
        world.resource_mut::<TallLayout>().0 = true;
        world.resource_mut::<Settings>().ai_stats = true;
        for mv in ["f5", "d6", "c3"] {
            world
                .resource_mut::<CurrentGame>()
                .play(mv.parse().expect("move"))
                .expect("legal");
        }
        world
            .resource_mut::<Notice>()
            .error(crate::prefs::i18n::Said::new("notice.copied"));
        world.run_system_once(update_texts).expect("texts");
        world.run_system_once(show_toast).expect("toast");
        let toast = near_text(&mut world, |t| matches!(t, HudText::Toast));
        assert!(!toast.is_empty());
        assert_eq!(
            near_text(&mut world, |t| matches!(t, HudText::Notice)),
            toast
        );
        assert_eq!(
            near_text(&mut world, |t| matches!(t, HudText::Strip)),
            "1. f5 d6 2. c3"
        );
        assert_eq!(
            near_text(&mut world, |t| matches!(t, HudText::Progress)),
            "Move 3 · 57 empty"
        );
        let mut toasts = world.query_filtered::<&Visibility, With<Toast>>();
        assert!(toasts.iter(&world).all(|v| *v == Visibility::Inherited));
        // The notice gone, the toast hides.
        world.resource_mut::<Notice>().clear();
        world.run_system_once(show_toast).expect("toast");
        let mut toasts = world.query_filtered::<&Visibility, With<Toast>>();
        assert!(toasts.iter(&world).all(|v| *v == Visibility::Hidden));
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
