//! A panel's chrome: the card over the board with its title, close button, scrolling body
//! and footer ([`open_panel`]), and the cue that its body scrolls ([`show_scroll_cues`]).

use super::*;

/// The scroll cues follow their bodies.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_scroll_cues.in_set(AppSystems::View));
}

/// Opens `overlay`'s panel: an opaque card with `title` and a close button at its top,
/// `body` (a widgets `panel`) scrolling below them and `footer` (if any) fixed under the
/// body. Over the board between the bars (which stay usable), the board dimmed and kept from taps; the move list as a sheet that leaves the
/// board in view. `marker` tags the root, which leaving `overlay` despawns.
pub fn open_panel(
    commands: &mut Commands,
    overlay: Overlay,
    marker: impl Component,
    title: impl Bundle,
    body: Entity,
    footer: Option<Entity>,
) -> Entity {
    let area = PanelArea::of(overlay);
    let sheet = area == PanelArea::Sheet;
    let header = commands
        .spawn((
            layout(Node {
                align_items: AlignItems::Center,
                column_gap: px(8),
                padding: UiRect::left(px(18)),
                flex_shrink: 0.0,
                ..default()
            }),
            children![
                (
                    title,
                    Node {
                        flex_grow: 1.0,
                        ..default()
                    }
                ),
                (
                    Button,
                    Nav::Close,
                    Node {
                        width: px(crate::ui::layout::TOUCH),
                        // The sheet's title row is lower, so the list under it shows more.
                        height: px(if sheet {
                            crate::ui::layout::SHEET_HEADER
                        } else {
                            crate::ui::layout::TOUCH
                        }),
                        justify_content: JustifyContent::Center,
                        align_items: AlignItems::Center,
                        ..default()
                    },
                    BackgroundColor(Color::NONE),
                    children![text_label("×", Type::Heading)],
                ),
            ],
        ))
        .id();
    let cue = commands.spawn(scroll_cue(body)).id();
    let card = commands
        .spawn((
            Name::new(format!("Panel {overlay:?}")),
            Node {
                flex_direction: FlexDirection::Column,
                width: percent(100),
                max_height: percent(100),
                // A sheet's rounded top shows where it starts over the bar's colour; a panel is a
                // card with rounded corners.
                border_radius: if sheet {
                    BorderRadius::top(px(14))
                } else {
                    BorderRadius::all(px(14))
                },
                overflow: Overflow::clip(),
                ..default()
            },
            BackgroundColor(Color::NONE),
            Paint::Card,
            crate::ui::layout::LayoutProbe(match area {
                PanelArea::Sheet => "sheet",
                PanelArea::Tall => "tall",
                PanelArea::Cover => "panel",
            }),
            // The card takes its taps: they do not fall through to the backdrop or the board.
            Pickable::default(),
        ))
        .add_children(&[header, body, cue])
        .id();
    if let Some(footer) = footer {
        commands.entity(footer).insert(Node {
            flex_shrink: 0.0,
            padding: if sheet {
                // [`crate::ui::layout::SHEET_FOOTER`]: the review's line, the buttons and 12 px.
                UiRect::new(px(8), px(8), px(4), px(6))
            } else {
                UiRect::new(px(8), px(8), px(8), px(12))
            },
            column_gap: px(4),
            justify_content: JustifyContent::Center,
            ..default()
        });
        commands.entity(card).add_child(footer);
    }
    let dim = if sheet {
        Color::NONE
    } else {
        Color::srgba(0.0, 0.0, 0.0, 0.55)
    };
    commands
        .spawn((
            DespawnOnExit(overlay),
            marker,
            crate::ui::placement::Placed::Panel(area),
            Node {
                position_type: PositionType::Absolute,
                justify_content: JustifyContent::Center,
                align_items: if sheet {
                    AlignItems::FlexEnd
                } else {
                    AlignItems::Center
                },
                ..default()
            },
            BackgroundColor(dim),
            GlobalZIndex(10),
        ))
        .add_child(card)
        .id()
}

/// The sign that a panel's body scrolls: at its bottom edge the content fades into the card
/// and a small arrow points down, while there is more below ([`show_scroll_cues`]).
#[derive(Component, Debug)]
pub struct ScrollCue(pub Entity);

/// How tall the scroll cue's fade is.
const CUE_HEIGHT: f32 = 40.0;
/// How tall the strip under a scrolling body is, which holds the cue's arrow.
const CUE_STRIP: f32 = 24.0;
/// How much of a scrolling body's bottom the cue's fade covers: a row to be read (the move on
/// the board in the move list) is scrolled clear of it.
pub(super) const CUE_OVER_BODY: f32 = CUE_HEIGHT - CUE_STRIP;

/// The node under a panel's body that makes room for its scroll cue's arrow.
#[derive(Component, Debug)]
struct CueStrip;

/// The cue for `body`: a strip under it, of no height until [`show_scroll_cues`] sees more
/// below, then [`CUE_STRIP`] tall with the arrow in it; the fade reaches up from the strip's
/// bottom over the body's last pixels ([`CUE_HEIGHT`] in all).
fn scroll_cue(body: Entity) -> impl Bundle {
    let strip = |i: u8| {
        (
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(0),
                top: percent(f32::from(i) * 25.0),
                height: percent(25),
                ..default()
            },
            BackgroundColor(Color::NONE),
            Paint::Card,
            crate::ui::theme::Opacity(0.3 + 0.2 * f32::from(i)),
            Pickable::IGNORE,
        )
    };
    (
        // The strip: room for the arrow under the body while there is more below, so the
        // arrow never lies over the content (a button's text); only the fade does.
        Node {
            height: px(0),
            flex_shrink: 0.0,
            ..default()
        },
        CueStrip,
        Pickable::IGNORE,
        children![(
            ScrollCue(body),
            Visibility::Hidden,
            crate::ui::layout::LayoutProbe("cue"),
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(0),
                bottom: px(0),
                height: px(CUE_HEIGHT),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::FlexEnd,
                ..default()
            },
            Pickable::IGNORE,
            children![
                strip(0),
                strip(1),
                strip(2),
                strip(3),
                (
                    // A chevron pointing down: the font's "›" (see assets/fonts) turned.
                    crate::ui::widgets::coloured_label("›", Type::Heading, Color::WHITE),
                    Paint::TextDim,
                    UiTransform::from_rotation(Rot2::degrees(90.0)),
                ),
            ],
        )],
    )
}

/// Whether a scrolling body has more below what it shows (logical pixels: how far it can
/// scroll, how far it has): more than its padding's few pixels.
pub fn more_below(max_scroll: f32, scrolled: f32) -> bool {
    max_scroll - scrolled > 8.0
}

/// Shows each panel's scroll cue while its body has more below, and makes room for its arrow
/// under the body.
fn show_scroll_cues(
    mut cues: Query<(&ScrollCue, &ChildOf, &mut Visibility)>,
    bodies: Query<(&ComputedNode, &ScrollPosition)>,
    mut strips: Query<&mut Node, With<CueStrip>>,
) {
    for (cue, parent, mut visibility) in &mut cues {
        let more = bodies
            .get(cue.0)
            .is_ok_and(|(node, scroll)| more_below(widgets::max_scroll(node), scroll.y));
        visibility.set_if_neq(if more {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
        if let Ok(mut strip) = strips.get_mut(parent.parent()) {
            let height = px(if more { CUE_STRIP } else { 0.0 });
            if strip.height != height {
                strip.height = height;
            }
        }
    }
}
