//! The win bar: who is ahead and by how much, under whose turn it is. By default its figure is
//! the disc difference the engine expects at the end of the position on the board
//! ([`crate::game::margin`]: "Black +6"), as players of strong Othello apps read a position,
//! in the one unit of the whole app (#67); Menu > The win bar shows can add the AI's last
//! search's chance to win as a second figure ("Black +6 · 62%"). The bar is split at Black's
//! expected share of the 64 squares, and
//! the label sits inside the leader's end, in a colour that reads there
//! ([`Palette::win_label`]). Before there is a figure the bar is one neutral colour with its
//! name in the middle, so an even split never passes for an even game.

use super::Seat;
use crate::AppSystems;
use crate::game::ai::WinEstimate;
use crate::game::flow::CurrentGame;
use crate::game::margin::MarginEstimate;
use crate::prefs::choices::{Lang, WinShows};
use crate::prefs::i18n::Language;
use crate::prefs::settings::{Settings, TableMode};
use crate::ui::layout::LayoutProbe;
use crate::ui::theme::Type;
use crate::ui::theme::{Paint, Palette};
use crate::ui::widgets::{coloured_label, layout};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use montello_engine::Side;
use montello_engine::search::review::Estimate;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        update_win_bar.run_if(stale).in_set(AppSystems::View),
    );
}

/// The bar's height: its label is drawn inside it.
const BAR_HEIGHT: f32 = 20.0;
/// The label's size.
const LABEL_SIZE: Type = Type::Caption;

/// The win bar's row (shown when the setting is on, and not face to face).
#[derive(Component, Debug)]
struct WinBar;

/// The bar's track: White's colour under Black's share once there is a figure, a button's
/// colour before.
#[derive(Component, Debug)]
struct Track;

/// Black's share, from the left.
#[derive(Component, Debug)]
struct BlackShare;

/// The mark at even, shown with the split.
#[derive(Component, Debug)]
struct Notch;

/// The box over the whole track that places the label at the leader's end.
#[derive(Component, Debug)]
struct LabelBox;

/// The label: the figure, or the bar's name before one.
#[derive(Component, Debug)]
struct Label;

/// The figure the bar shows: the engine's estimate of Black's final margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure(pub Estimate);

impl Figure {
    /// Black's share of the bar: its expected share of the 64 squares.
    pub fn black_share(self) -> f32 {
        self.0.black_share().clamp(0.0, 1.0)
    }

    /// Who is ahead as the label says it (rounded: +0.4 discs is even).
    pub fn leader(self) -> Option<Side> {
        match self.0.rounded().cmp(&0) {
            std::cmp::Ordering::Greater => Some(Side::Black),
            std::cmp::Ordering::Less => Some(Side::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Whose share the label is drawn in: the leader's, Black's (the left end) when even.
    pub fn label_side(self) -> Side {
        self.leader().unwrap_or(Side::Black)
    }
}

/// The figure for the position on the board: the engine's estimate of the final margin, in
/// discs whatever the setting (the one unit a player reads the evaluation in).
pub fn figure(margin: &MarginEstimate, current: &CurrentGame) -> Option<Figure> {
    margin.figure(current).map(Figure)
}

/// The label: "Black +6" for the leader, "Even", and before a figure the bar's name
/// ("Disc difference"). With the setting's win chance on, the AI's last search's chance for
/// the same side follows as a second figure: "Black +6 · 62%".
pub fn label_text(
    figure: Option<Figure>,
    chance: Option<f32>,
    shows: WinShows,
    lang: Lang,
) -> String {
    let Some(figure) = figure else {
        return lang.t("hud.disc_difference").to_string();
    };
    let discs = match figure.leader() {
        Some(side) => lang.f(
            "hud.lead_discs",
            &[
                ("side", &lang.side(side)),
                ("discs", &figure.0.rounded().abs()),
            ],
        ),
        None => lang.t("hud.even").to_string(),
    };
    match (shows, chance) {
        (WinShows::Chance, Some(black)) => {
            let black = (black.clamp(0.0, 1.0) * 100.0).round() as i32;
            let pct = match figure.label_side() {
                Side::Black => black,
                Side::White => 100 - black,
            };
            lang.f("hud.lead_with_chance", &[("lead", &discs), ("pct", &pct)])
        }
        _ => discs,
    }
}

/// The win bar, as the HUD spawns it for `seat`.
pub(super) fn win_bar(seat: Seat) -> impl Bundle {
    (
        layout(Node {
            width: percent(100),
            align_items: AlignItems::Center,
            ..default()
        }),
        WinBar,
        // (A HUD row panels must leave alone, as the layout check sees it.)
        LayoutProbe("hud"),
        seat,
        children![(
            layout(Node {
                height: px(BAR_HEIGHT),
                flex_grow: 1.0,
                border_radius: BorderRadius::all(px(BAR_HEIGHT / 2.0)),
                overflow: Overflow::clip(),
                ..default()
            }),
            BackgroundColor(Color::WHITE),
            Paint::Button,
            Track,
            children![
                (
                    layout(Node {
                        height: percent(100),
                        width: percent(50),
                        display: Display::None,
                        ..default()
                    }),
                    BackgroundColor(Color::BLACK),
                    Paint::WinBlack,
                    BlackShare,
                ),
                (
                    // The even point: a neutral notch, not the last move's red.
                    layout(Node {
                        position_type: PositionType::Absolute,
                        left: percent(50),
                        margin: UiRect::left(px(-1)),
                        width: px(2),
                        height: percent(100),
                        display: Display::None,
                        ..default()
                    }),
                    BackgroundColor(Color::WHITE),
                    Paint::Mark,
                    Notch,
                ),
                (
                    layout(Node {
                        position_type: PositionType::Absolute,
                        left: px(0),
                        right: px(0),
                        top: px(0),
                        bottom: px(0),
                        align_items: AlignItems::Center,
                        justify_content: JustifyContent::Center,
                        padding: UiRect::horizontal(px(BAR_HEIGHT / 2.0)),
                        ..default()
                    }),
                    LabelBox,
                    children![(
                        coloured_label("", LABEL_SIZE, Color::WHITE),
                        TextLayout::no_wrap(),
                        Label,
                        seat,
                    )],
                ),
            ],
        )],
    )
}

/// What the bar is drawn from.
#[derive(SystemParam)]
struct Sources<'w> {
    current: Res<'w, CurrentGame>,
    margin: Res<'w, MarginEstimate>,
    search: Res<'w, WinEstimate>,
    settings: Res<'w, Settings>,
    table: Res<'w, TableMode>,
    language: Res<'w, Language>,
    palette: Res<'w, Palette>,
}

/// Whether the bar may read differently now.
fn stale(from: Sources) -> bool {
    from.current.is_changed()
        || from.margin.is_changed()
        || from.search.is_changed()
        || from.settings.is_changed()
        || from.table.is_changed()
        || from.language.is_changed()
        || from.palette.is_changed()
}

/// The bar's parts in one query: which part each node is.
type Parts = (
    &'static mut Node,
    Has<WinBar>,
    Has<BlackShare>,
    Has<Notch>,
    Has<LabelBox>,
);

fn update_win_bar(
    from: Sources,
    mut parts: Query<Parts, Or<(With<WinBar>, With<BlackShare>, With<Notch>, With<LabelBox>)>>,
    mut tracks: Query<&mut Paint, With<Track>>,
    mut labels: Query<(&mut Text, &mut TextColor), With<Label>>,
) {
    let Sources {
        current,
        margin,
        search,
        settings,
        table,
        language,
        palette,
    } = from;
    let figure = figure(&margin, &current);
    let track = if figure.is_some() {
        Paint::WinWhite
    } else {
        Paint::Button
    };
    for mut paint in &mut tracks {
        paint.set_if_neq(track);
    }
    let split = if figure.is_some() {
        Display::Flex
    } else {
        Display::None
    };
    // Face to face (two people) neither player wants a meter saying who is winning.
    let bar = if settings.win_bar && !table.0 {
        Display::Flex
    } else {
        Display::None
    };
    let justify = match figure.map(Figure::label_side) {
        None => JustifyContent::Center,
        Some(Side::Black) => JustifyContent::FlexStart,
        Some(Side::White) => JustifyContent::FlexEnd,
    };
    for (mut node, is_bar, is_black, is_notch, is_label_box) in &mut parts {
        if is_bar {
            node.display = bar;
        } else if is_black {
            node.width = percent(figure.map_or(0.5, Figure::black_share) * 100.0);
            node.display = split;
        } else if is_notch {
            node.display = split;
        } else if is_label_box {
            node.justify_content = justify;
        }
    }
    let text = label_text(figure, search.0, settings.win_shows, language.0);
    let colour = palette.win_label(figure.map(Figure::label_side));
    for (mut label, mut label_colour) in &mut labels {
        if label.0 != text {
            label.0.clone_from(&text);
        }
        label_colour.set_if_neq(TextColor(colour));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A searched estimate of Black's margin `m`.
    fn discs(m: f32) -> Figure {
        Figure(Estimate {
            black_margin: m,
            exact: false,
        })
    }

    fn text(figure: Option<Figure>, chance: Option<f32>, shows: WinShows) -> String {
        label_text(figure, chance, shows, Lang::En)
    }

    /// The label says who leads and by how many discs, rounded as a player reads it; even says
    /// so; before a figure the bar says what it is; the win chance, when the setting asks for
    /// it, only follows the discs, for the same side.
    #[test]
    fn the_label_says_who_leads_by_how_many_discs_and_the_chance_second() {
        let discs_only = |f| text(Some(f), Some(0.62), WinShows::Discs);
        assert_eq!(discs_only(discs(6.2)), "Black +6");
        assert_eq!(discs_only(discs(-11.6)), "White +12");
        assert_eq!(discs_only(discs(0.4)), "Even");
        assert_eq!(discs_only(discs(-0.4)), "Even");
        let both = |f, p| text(Some(f), Some(p), WinShows::Chance);
        assert_eq!(both(discs(6.2), 0.62), "Black +6 · 62%");
        assert_eq!(both(discs(-3.0), 0.3), "White +3 · 70%");
        assert_eq!(both(discs(0.2), 0.55), "Even · 55%");
        assert_eq!(text(Some(discs(6.2)), None, WinShows::Chance), "Black +6");
        // No disc figure yet: no chance on its own either.
        assert_eq!(text(None, Some(0.62), WinShows::Chance), "Disc difference");
        assert_eq!(text(None, None, WinShows::Discs), "Disc difference");
        for lang in Lang::ALL {
            let words = label_text(Some(discs(-3.0)), Some(0.4), WinShows::Chance, lang);
            assert!(
                words.contains('3') && words.contains("60"),
                "{lang:?}: {words}"
            );
        }
    }

    /// The bar is split at Black's expected share of the squares, and the label goes in the
    /// leader's share, Black's when even.
    #[test]
    fn the_split_is_blacks_share_and_the_label_sits_in_the_leaders_end() {
        assert_eq!(discs(0.0).black_share(), 0.5);
        assert_eq!(discs(64.0).black_share(), 1.0);
        assert_eq!(discs(-64.0).black_share(), 0.0);
        assert!((discs(6.0).black_share() - 35.0 / 64.0).abs() < 1e-6);
        assert_eq!(discs(6.0).label_side(), Side::Black);
        assert_eq!(discs(-6.0).label_side(), Side::White);
        assert_eq!(discs(0.2).label_side(), Side::Black);
    }
}
