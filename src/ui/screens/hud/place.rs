//! Where the HUD's rows go: side by side upright, stacked lying down, around the board on a
//! tall phone ([`crate::ui::layout::Areas::tall`]).

use super::*;
use crate::ui::screens::move_list::DockedList;
use crate::ui::screens::{HudRoot, Overlay, hud_hidden, place};

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
    overlay: Res<'w, State<Overlay>>,
    players: Res<'w, Players>,
    tall: ResMut<'w, TallLayout>,
}

/// On a tall phone (`Some((rect, scale))`) a row of the HUD goes beside the board, on `rect`
/// ([`place`] puts a node on a rectangle of the screen: the HUD's root is at its top-left
/// corner); otherwise back in the HUD's flow. (While the move list is open on a tall phone the
/// whole HUD hides: [`hud_hidden`].)
pub(super) fn beside_board(node: &mut Node, tall: Option<(Rect, f32)>) {
    match tall {
        Some((rect, scale)) => place(node, rect, scale),
        None => {
            node.position_type = PositionType::Relative;
            (node.left, node.top, node.width, node.height) =
                (Val::Auto, Val::Auto, Val::Auto, Val::Auto);
        }
    }
}

/// What the HUD's rows are arranged for: lying down (`landscape`), in a column beside the
/// board (lying down, not face to face), around the board on a tall phone (`tall`).
#[derive(Clone, Copy, PartialEq, Debug)]
struct Shape {
    landscape: bool,
    column: bool,
    tall: Option<TallPlaces>,
}

/// The HUD's nodes that [`arrange_for_orientation`] shapes, and what each one is.
type Arranged = (
    &'static mut Node,
    Option<&'static mut LayoutProbe>,
    Has<CardsRow>,
    Option<&'static PlayerCard>,
    Option<&'static CardTexts>,
    Has<NoticeRow>,
    Has<DockedList>,
    Has<MoveStrip>,
    Has<Toast>,
);

/// Any of the nodes [`Arranged`] names.
type AnyArranged = Or<(
    With<CardsRow>,
    With<PlayerCard>,
    With<CardTexts>,
    With<NoticeRow>,
    With<DockedList>,
    With<MoveStrip>,
    With<Toast>,
)>;

/// None of them (the HUD's texts, whose own nodes these are not).
type NoneArranged = (
    Without<NoticeRow>,
    Without<CardsRow>,
    Without<PlayerCard>,
    Without<CardTexts>,
    Without<DockedList>,
    Without<MoveStrip>,
    Without<Toast>,
);

/// Upright the player cards sit side by side, White's mirrored; lying down they are stacked
/// in the column (one player: the move list docked under them). On a tall phone the cards
/// go around the board (the opponent's above it, the player's below), the notice row becomes
/// the move strip's and the notices a toast. The HUD hides where a panel takes its place
/// ([`hud_hidden`]).
pub(super) fn arrange_for_orientation(
    mut from: Arrangement,
    mut huds: Query<(&Seat, &mut Visibility), With<HudRoot>>,
    mut nodes: Query<Arranged, AnyArranged>,
    mut texts: Query<(&HudText, &mut Node), NoneArranged>,
    added: Query<(), Or<(Added<CardsRow>, Added<DockedList>)>>,
    mut last: Local<Option<(bool, bool, bool, Option<TallPlaces>)>>,
) {
    let Some(screen) = from.placement.0 else {
        return;
    };
    let (areas, scale, table) = (screen.areas, screen.scale, screen.table);
    let landscape = areas.landscape;
    let overlay = *from.overlay.get();
    let hidden = hud_hidden(overlay, landscape, areas.sheet_over_hud, table);
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
    let shape = Shape {
        landscape,
        column: landscape && !table,
        tall,
    };
    for (seat, mut visibility) in &mut huds {
        visibility.set_if_neq(if hidden && *seat == Seat::Near {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        });
    }
    for (mut node, probe, cards, card, card_texts, notice_row, docked, strip, toast) in &mut nodes {
        if cards {
            arrange_cards_row(&mut node, shape);
        }
        if let Some(mut probe) = probe {
            name_probe(&mut probe, shape, cards, notice_row);
        }
        if let Some(PlayerCard(side)) = card {
            arrange_card(&mut node, *side, shape);
        }
        if let Some(CardTexts(side)) = card_texts {
            node.align_items = if *side == Side::White && !landscape && tall.is_none() {
                AlignItems::FlexEnd
            } else {
                AlignItems::FlexStart
            };
        }
        if notice_row {
            arrange_notice_row(&mut node, shape);
        }
        if strip {
            node.display = shown(tall.is_some());
        }
        if toast {
            arrange_toast(&mut node, tall);
        }
        if docked {
            node.display = shown(shape.column);
        }
    }
    // Upright the notice takes the row's free width, pushing the buttons right; in the
    // column it keeps its own height. On a tall phone the strip takes the row, the notice
    // shows in its toast and the AI's statistics under the win bar.
    for (text, mut node) in &mut texts {
        match text {
            HudText::Notice => {
                node.flex_grow = if shape.column { 0.0 } else { 1.0 };
                node.display = shown(tall.is_none());
            }
            HudText::Stats => node.display = shown(tall.is_some()),
            _ => {}
        }
    }
}

/// A node shown (`on`) or taken out of the layout.
fn shown(on: bool) -> Display {
    if on { Display::Flex } else { Display::None }
}

/// The row of player cards: side by side upright; stacked lying down and on a tall phone,
/// where it goes beside the board with the person's card at the bottom, by the near edge.
fn arrange_cards_row(node: &mut Node, shape: Shape) {
    (node.flex_direction, node.align_items) = match shape.tall {
        Some(t) if t.viewer == Side::Black => (FlexDirection::ColumnReverse, AlignItems::Stretch),
        Some(_) => (FlexDirection::Column, AlignItems::Stretch),
        None if shape.landscape => (FlexDirection::Column, AlignItems::Stretch),
        None => (FlexDirection::Row, AlignItems::Center),
    };
    beside_board(node, shape.tall.map(|t| (t.cards, t.scale)));
}

/// The layout checks' name for a row: beside the board the cards and the strip are no longer
/// the HUD's rows (a panel covers them with the board).
fn name_probe(probe: &mut LayoutProbe, shape: Shape, cards: bool, notice_row: bool) {
    let name = match (shape.tall.is_some(), cards, notice_row) {
        (true, true, _) => "cards",
        (true, _, true) => "strip",
        (false, true, _) | (false, _, true) => "hud",
        _ => probe.0,
    };
    if probe.0 != name {
        probe.0 = name;
    }
}

/// A player's card: upright it takes half the row (White's mirrored); stacked, its own
/// height.
fn arrange_card(node: &mut Node, side: Side, shape: Shape) {
    let stacked = shape.landscape || shape.tall.is_some();
    (node.flex_grow, node.flex_basis) = if stacked {
        (0.0, Val::Auto)
    } else {
        (1.0, px(0))
    };
    node.flex_direction = if side == Side::White && !stacked {
        FlexDirection::RowReverse
    } else {
        FlexDirection::Row
    };
}

/// The notice row: lying down a column (the notice over the buttons), so a long notice wraps
/// within the narrow column, and no taller than what it shows (face to face, a row: each half
/// of the column holds a HUD with its buttons); on a tall phone the move strip's row, beside
/// the board.
fn arrange_notice_row(node: &mut Node, shape: Shape) {
    (node.flex_direction, node.align_items, node.min_height) = if shape.column {
        (FlexDirection::Column, AlignItems::Stretch, px(0))
    } else {
        (
            FlexDirection::Row,
            AlignItems::Center,
            px(crate::ui::layout::TOUCH),
        )
    };
    beside_board(node, shape.tall.map(|t| (t.strip, t.scale)));
}

/// The notices' toast: only on a tall phone, on its place there.
fn arrange_toast(node: &mut Node, tall: Option<TallPlaces>) {
    match tall {
        Some(t) => {
            place(node, t.toast, t.scale);
            node.display = Display::Flex;
        }
        None => node.display = Display::None,
    }
}
