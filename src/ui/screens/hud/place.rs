//! Where the HUD's rows go: side by side upright, stacked lying down, around the board on a
//! tall phone ([`crate::ui::layout::Areas::tall`]).

use super::*;

/// Where a tall phone's rows go (logical pixels, [`crate::ui::layout::Areas::tall`]).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) struct TallPlaces {
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
pub(super) struct Arrangement<'w> {
    placement: Res<'w, crate::ui::placement::Placement>,
    overlay: Res<'w, State<super::super::Overlay>>,
    players: Res<'w, Players>,
    tall: ResMut<'w, TallLayout>,
}

/// On a tall phone (`Some((rect, scale))`) a row of the HUD goes beside the board, on `rect`
/// (`super::super::place` puts a node on a rectangle of the screen: the HUD's root is at its top-left
/// corner); otherwise back in the HUD's flow. (While the move list is open on a tall phone the
/// whole HUD hides: `super::super::hud_hidden`.)
pub(super) fn beside_board(node: &mut Node, tall: Option<(Rect, f32)>) {
    match tall {
        Some((rect, scale)) => super::super::place(node, rect, scale),
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
/// ([`super::super::hud_hidden`]).
pub(super) fn arrange_for_orientation(
    mut from: Arrangement,
    mut huds: Query<(&Seat, &mut Visibility), With<super::super::HudRoot>>,
    mut nodes: Query<
        (
            &mut Node,
            Option<&mut LayoutProbe>,
            Has<CardsRow>,
            Option<&PlayerCard>,
            Option<&CardTexts>,
            Has<NoticeRow>,
            Has<super::super::move_list::DockedList>,
            Has<MoveStrip>,
            Has<Toast>,
        ),
        Or<(
            With<CardsRow>,
            With<PlayerCard>,
            With<CardTexts>,
            With<NoticeRow>,
            With<super::super::move_list::DockedList>,
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
            Without<super::super::move_list::DockedList>,
            Without<MoveStrip>,
            Without<Toast>,
        ),
    >,
    added: Query<(), Or<(Added<CardsRow>, Added<super::super::move_list::DockedList>)>>,
    mut last: Local<Option<(bool, bool, bool, Option<TallPlaces>)>>,
) {
    let Some(screen) = from.placement.0 else {
        return;
    };
    let (areas, scale, table) = (screen.areas, screen.scale, screen.table);
    let landscape = areas.landscape;
    let overlay = *from.overlay.get();
    let hidden = super::super::hud_hidden(overlay, landscape, areas.sheet_over_hud, table);
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
                    super::super::place(&mut node, t.toast, t.scale);
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
