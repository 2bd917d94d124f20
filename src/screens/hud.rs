//! The HUD at the top: both disc counts, whose turn it is, the AI's thinking bar, the
//! win-probability bar, notices, and the Pass / Play again / Back to game buttons.

use super::Seat;
use crate::AppSystems;
use crate::ai::{AiState, Purpose};
use crate::game_flow::{CurrentGame, Notice, Players};
use crate::i18n::{Lang, Language};
use crate::settings::Settings;
use crate::settings::TableMode;
use crate::theme::{self, Paint, Palette};
use crate::widgets::{Action, Localized, button, coloured_label, layout, text_label};
use bevy::prelude::*;
use montello_engine::Side;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_hud)
        .add_systems(Update, update_hud.in_set(AppSystems::View));
}

#[derive(Component, Debug)]
enum HudText {
    Count(Side),
    Status,
    Notice,
}

#[derive(Component, Debug)]
struct ThinkingBar;

#[derive(Component, Debug)]
struct WinBar;

#[derive(Component, Debug)]
struct WinBarBlack;

#[derive(Component, Debug)]
struct HudButton(Action);

/// A disc count, ringed in the accent colour while its side is to move.
#[derive(Component, Debug)]
struct CountChip(Side);

fn count_chip(side: Side, seat: Seat) -> impl Bundle {
    // The chips look like the discs in every theme.
    let discs = Palette::CLASSIC;
    let (bg, fg) = match side {
        Side::Black => (discs.disc_black, discs.disc_white),
        Side::White => (discs.disc_white, discs.disc_black),
    };
    (
        Node {
            min_width: px(72),
            height: px(48),
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
fn spawn_seat(commands: &mut Commands, seat: Seat) {
    commands.spawn((
        super::HudRoot,
        seat,
        Node {
            position_type: PositionType::Absolute,
            top: px(0),
            width: percent(100),
            height: px(theme::HUD_HEIGHT),
            flex_direction: FlexDirection::Column,
            padding: UiRect::axes(px(10), px(6)),
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
                children![
                    count_chip(Side::Black, seat),
                    (
                        text_label("", theme::FONT),
                        HudText::Status,
                        seat,
                        TextLayout::justify(Justify::Center),
                        Node {
                            flex_grow: 1.0,
                            ..default()
                        },
                    ),
                    count_chip(Side::White, seat),
                ],
            ),
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
            (
                // The win bar says what it is: a label, an outline that shows the black half
                // against the dark bar, and a mark at even.
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
                        Localized("hud.win_chance"),
                    ),
                    (
                        layout(Node {
                            height: px(12),
                            flex_grow: 1.0,
                            border: UiRect::all(px(1)),
                            border_radius: BorderRadius::all(px(6)),
                            overflow: Overflow::clip(),
                            ..default()
                        }),
                        BackgroundColor(Palette::CLASSIC.disc_white),
                        BorderColor::all(Palette::CLASSIC.text_dim),
                        children![
                            (
                                layout(Node {
                                    height: percent(100),
                                    width: percent(50),
                                    ..default()
                                }),
                                BackgroundColor(Palette::CLASSIC.disc_black),
                                WinBarBlack,
                                seat,
                            ),
                            (
                                layout(Node {
                                    position_type: PositionType::Absolute,
                                    left: percent(50),
                                    width: px(2),
                                    height: percent(100),
                                    ..default()
                                }),
                                BackgroundColor(Palette::CLASSIC.last_move),
                            ),
                        ],
                    ),
                ],
            ),
            (
                layout(Node {
                    align_items: AlignItems::Center,
                    column_gap: px(10),
                    min_height: px(theme::TOUCH),
                    ..default()
                }),
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
                    (
                        button("hud.pass", Action::Pass),
                        HudButton(Action::Pass),
                        seat
                    ),
                    (
                        button("hud.play_again", Action::PlayAgain),
                        HudButton(Action::PlayAgain),
                        seat
                    ),
                    (
                        button("hud.graph", Action::Open(super::Overlay::Graph)),
                        HudButton(Action::Open(super::Overlay::Graph)),
                        seat
                    ),
                    (
                        button("hud.back_to_game", Action::Review(None)),
                        HudButton(Action::Review(None)),
                        seat
                    ),
                ],
            ),
        ],
    ));
}

/// Which HUD a button shows in: the Pass button in the HUD of the player who must pass (in
/// table mode, Black's near one or White's far one), every other button in the near HUD only
/// (the far player shares the toolbar's game, not its controls).
pub fn shows_button(seat: Seat, action: Action, to_move: Side, table: bool) -> bool {
    match action {
        Action::Pass if table => seat == Seat::of(to_move),
        _ => seat == Seat::Near,
    }
}

fn status_text(current: &CurrentGame, players: &Players, ai: &AiState, lang: Lang) -> String {
    let game = &current.game;
    if let Some(ply) = current.review {
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
pub fn stats_text(current: &CurrentGame, ai: &AiState, lang: Lang) -> String {
    if let Some(live) = ai.live_stats() {
        return live.line(lang);
    }
    let ply = current.game.ply();
    match &ai.last_stats {
        Some(s)
            if current.review.is_none()
                && match s.purpose {
                    Purpose::Move => s.ply + 1 == ply,
                    Purpose::Hint => s.ply == ply,
                } =>
        {
            s.line(lang)
        }
        _ => String::new(),
    }
}

fn update_hud(
    current: Res<CurrentGame>,
    players: Res<Players>,
    ai: Res<AiState>,
    notice: Res<Notice>,
    settings: Res<Settings>,
    language: Res<Language>,
    palette: Res<Palette>,
    table: Res<TableMode>,
    mut texts: Query<(&HudText, &Seat, &mut Text, &mut TextColor)>,
    mut bars: Query<
        (&mut Node, Has<ThinkingBar>, Has<WinBar>, Has<WinBarBlack>),
        (
            Or<(With<ThinkingBar>, With<WinBar>, With<WinBarBlack>)>,
            Without<HudButton>,
        ),
    >,
    mut buttons: Query<(&HudButton, &Seat, &mut Node), Without<CountChip>>,
    mut chips: Query<(&CountChip, &mut BorderColor)>,
) {
    let thinking = ai.thinking().is_some();
    if !(current.is_changed()
        || players.is_changed()
        || ai.is_changed()
        || notice.is_changed()
        || settings.is_changed()
        || language.is_changed()
        || palette.is_changed()
        || table.is_changed()
        || thinking)
    {
        return;
    }
    let game = &current.game;
    let pos = current.shown_position();
    let score = pos.score();
    for (which, seat, mut text, mut color) in &mut texts {
        let value = match which {
            HudText::Count(Side::Black) => score.black.to_string(),
            HudText::Count(Side::White) => score.white.to_string(),
            HudText::Status => status_text(&current, &players, &ai, language.0),
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
                    stats_text(&current, &ai, language.0)
                } else {
                    notice.text(language.0)
                }
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
    let progress = ai.thinking().map_or(0.0, |(_, _, p)| p);
    let black_win = ai.black_win.unwrap_or(0.5);
    for (mut node, is_thinking, is_win, is_black) in &mut bars {
        if is_thinking {
            node.width = percent(progress * 100.0);
        } else if is_win {
            node.display = if settings.win_bar {
                Display::Flex
            } else {
                Display::None
            };
        } else if is_black {
            node.width = percent(black_win * 100.0);
        }
    }
    // The side to move: its count ringed in the accent colour (none once the game is over).
    let to_move = (!game.is_over() && current.review.is_none()).then(|| game.side_to_move());
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
    let human_must_pass =
        current.review.is_none() && game.must_pass() && players.is_human(game.side_to_move());
    for (button, seat, mut node) in &mut buttons {
        let show = shows_button(*seat, button.0, game.side_to_move(), table.0)
            && match button.0 {
                Action::Pass => human_must_pass,
                Action::PlayAgain => game.is_over() && current.review.is_none(),
                Action::Open(_) => game.is_over(),
                _ => current.review.is_some(),
            };
        let display = if show { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screens::{HudPlace, hud_place};

    #[test]
    fn table_mode_turns_the_far_hud_and_routes_the_pass_button() {
        // Alone with the device: one HUD, upright, at the top (or the whole left column).
        for landscape in [false, true] {
            let near = hud_place(Seat::Near, landscape, false);
            assert!(near.shown && !near.turned && near.at_top);
            assert!(!hud_place(Seat::Far, landscape, false).shown);
        }
        // Face to face upright: White's HUD turned at the top, Black's at the bottom above the
        // toolbar; lying down, each half of the left column.
        let far = hud_place(Seat::Far, false, true);
        let near = hud_place(Seat::Near, false, true);
        assert!(far.shown && far.turned && far.at_top);
        assert!(near.shown && !near.turned && !near.at_top);
        assert_eq!(near.from_edge, theme::TOOLBAR_HEIGHT);
        let sideways: [HudPlace; 2] = [
            hud_place(Seat::Far, true, true),
            hud_place(Seat::Near, true, true),
        ];
        assert_eq!(sideways.map(|p| p.column_share), [Some(0.5), Some(0.5)]);
        assert!(sideways[0].turned && !sideways[1].turned);
        // The Pass button shows to the player who must pass, and only in table mode to White.
        assert!(shows_button(Seat::Far, Action::Pass, Side::White, true));
        assert!(!shows_button(Seat::Near, Action::Pass, Side::White, true));
        assert!(shows_button(Seat::Near, Action::Pass, Side::Black, true));
        assert!(shows_button(Seat::Near, Action::Pass, Side::White, false));
        // Play again and the rest belong to the near HUD.
        assert!(shows_button(
            Seat::Near,
            Action::PlayAgain,
            Side::White,
            true
        ));
        assert!(!shows_button(
            Seat::Far,
            Action::PlayAgain,
            Side::White,
            true
        ));
        assert_eq!(Seat::of(Side::Black), Seat::Near);
        assert_eq!(Seat::of(Side::White), Seat::Far);
    }
}
