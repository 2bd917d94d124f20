//! **Where every node goes on screen**, in one file. [`measure_screen`] works the screen's
//! areas out ([`layout::areas`], one function per layout mode) whenever what they depend on
//! changes (the window's size, the UI's scale, the safe area, table mode) and keeps them in
//! [`Placement`]. Every node that the layout moves carries a [`Placed`] naming what it is
//! (a HUD, the toolbar or one of its buttons, an overlay's panel, one of the HUD's rows...),
//! and one system, `place_nodes`, writes each one's rectangle, padding, direction,
//! visibility and rotation from those areas, the open panel ([`OpenPanel`]) and who holds the
//! device. The board's camera frames the board from the same [`Placement`]
//! (`board::camera`), so everything agrees on one layout.

use crate::AppSystems;
use crate::game::players::Players;
use crate::platform::SafeArea;
use crate::prefs::settings::TableMode;
use crate::ui::layout::{self, Areas, LayoutProbe};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use montello_engine::Side;

pub(crate) fn plugin(app: &mut App) {
    // After the game's own updates (table mode may change there), before anything is drawn
    // from the areas; the UI's scale follows the settings in PreUpdate. The nodes are placed
    // in PostUpdate, after every screen spawned its panel, before the UI's layout.
    app.init_resource::<Placement>()
        .init_resource::<OpenPanel>()
        .init_resource::<TallLayout>()
        .add_systems(
            Update,
            measure_screen
                .after(AppSystems::Ai)
                .before(AppSystems::View),
        )
        .add_systems(PostUpdate, place_nodes.before(bevy::ui::UiSystems::Layout));
}

/// The screen as it is now: `None` until there is a window.
#[derive(Resource, Clone, Copy, PartialEq, Debug, Default)]
pub struct Placement(pub Option<Screen>);

/// A window's size and UI scale with the areas they give.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Screen {
    /// The window in logical pixels.
    pub size: Vec2,
    /// How much larger than its logical pixels the UI is drawn (at least 0.01).
    pub scale: f32,
    /// Face to face: two people at the table.
    pub table: bool,
    /// Where everything goes ([`layout::areas`]).
    pub areas: Areas,
}

impl Screen {
    /// The areas of a window of `size` logical pixels, its UI drawn `scale` times larger,
    /// its system keeping the `safe` margins.
    pub fn new(size: Vec2, scale: f32, safe: &SafeArea, table: bool) -> Self {
        let scale = scale.max(0.01);
        Self {
            size,
            scale,
            table,
            areas: layout::areas(size, scale, safe, table),
        }
    }
}

/// Works the areas out for the primary window; [`Placement`] changes only when they do (and
/// [`TallLayout`] with them).
pub fn measure_screen(
    windows: Query<&Window, With<PrimaryWindow>>,
    ui_scale: Res<UiScale>,
    safe: Res<SafeArea>,
    table: Res<TableMode>,
    mut placement: ResMut<Placement>,
    mut tall: ResMut<TallLayout>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let screen = Screen::new(size, ui_scale.0, &safe, table.0);
    tall.set_if_neq(TallLayout(screen.areas.tall));
    placement.set_if_neq(Placement(Some(screen)));
}

/// The layout is the tall phone's ([`Areas::tall`]): the cards around the board, the move
/// strip, notices in a toast, the AI's statistics under the win bar (the HUD's texts follow).
#[derive(Resource, Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct TallLayout(pub bool);

/// Whose HUD a node belongs to. The near player's is the usual HUD; in table mode
/// ([`crate::prefs::settings::TableMode`]) Black sits near (the bottom of the screen) and White far
/// (the top), and White's HUD is drawn turned towards White.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    /// The player holding the device, or Black in table mode.
    Near,
    /// White in table mode, across the table.
    Far,
}

impl Seat {
    /// The seat of `side` in table mode.
    pub fn of(side: Side) -> Seat {
        match side {
            Side::Black => Seat::Near,
            Side::White => Seat::Far,
        }
    }
}

/// Where an overlay's panel goes (each overlay's is `PanelArea::of`, in `ui::screens`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PanelArea {
    /// Over the whole space between the bars, which it dims and keeps taps from; the panel
    /// inside keeps to the safe area.
    Cover,
    /// The move list's sheet (and the summary at the end of a game), which leaves the board
    /// in view.
    Sheet,
    /// Like [`PanelArea::Cover`], and upright with one player over the HUD's place too (the
    /// HUD hides): new game, whose choices then fit on a phone without scrolling.
    Tall,
}

/// The area the open overlay's panel takes (`None`: the board alone). The screens write it
/// when the overlay changes; the HUD hides under some panels, and the camera frames the board
/// above a sheet.
#[derive(Resource, Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct OpenPanel(pub Option<PanelArea>);

impl OpenPanel {
    /// A sheet is open (the move list, the summary at the end of a game).
    pub fn sheet(self) -> bool {
        self.0 == Some(PanelArea::Sheet)
    }
}

/// What a placed node is: everything `place_nodes` needs to know to put it on screen.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Placed {
    /// A HUD's root: across the top upright, a column on the left lying down; the far one
    /// only face to face, turned.
    Hud(Seat),
    /// The toolbar's root: across the bottom upright, a column on the right lying down, two
    /// rows under the HUD on a tablet lying down.
    Toolbar,
    /// One of the toolbar's buttons.
    Tool,
    /// An overlay's root, on its area.
    Panel(PanelArea),
    /// The HUD's row of player cards (beside the board on a tall phone).
    CardsRow,
    /// A player's card.
    Card(Side),
    /// The texts inside a player's card.
    CardTexts(Side),
    /// The HUD's notice row (the move strip's row beside the board on a tall phone).
    NoticeRow,
    /// The notice's text in its row.
    Notice,
    /// The AI's statistics under the win bar (a tall phone's).
    Stats,
    /// The move strip (a tall phone's).
    Strip,
    /// The notices' toast (a tall phone's).
    Toast,
    /// The move list docked in the HUD's column lying down.
    DockedList,
}

/// How `seat`'s HUD is shown: normally the near HUD alone; in table mode the far HUD too,
/// turned.
pub fn hud_place(seat: Seat, table: bool) -> HudPlace {
    HudPlace {
        shown: seat == Seat::Near || table,
        turned: seat == Seat::Far && table,
    }
}

/// How a HUD is shown: at all, and turned towards the far player. Where it goes is
/// [`layout::areas`]'s.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HudPlace {
    /// Shown at all.
    pub shown: bool,
    /// Drawn turned by half a turn (towards the far player).
    pub turned: bool,
}

/// Whether the near HUD hides under the open `panel`: where the panel takes its place (a
/// sheet lying down, or upright where it takes the lower part of the whole height,
/// `sheet_over_hud`, the board framed above it from the top of the screen; a tall panel
/// upright), both with one player.
pub fn hud_hidden(
    panel: Option<PanelArea>,
    landscape: bool,
    sheet_over_hud: bool,
    table: bool,
) -> bool {
    !table
        && match panel {
            Some(PanelArea::Sheet) => landscape || sheet_over_hud,
            Some(PanelArea::Tall) => !landscape,
            Some(PanelArea::Cover) | None => false,
        }
}

/// Everything a node's place depends on.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Frame {
    areas: Areas,
    /// The UI's scale: the areas are in logical pixels, nodes in UI units.
    scale: f32,
    table: bool,
    panel: Option<PanelArea>,
    /// The person's side, whose card goes below the board on a tall phone.
    viewer: Side,
}

impl Frame {
    /// Lying down and not face to face: the HUD is a column beside the board.
    fn column(&self) -> bool {
        self.areas.landscape && !self.table
    }

    /// On a tall phone the HUD's rows go around the board.
    fn tall(&self) -> bool {
        self.areas.tall
    }
}

/// The nodes `place_nodes` writes, with what each one may have beside its [`Node`].
type PlacedNode = (
    &'static Placed,
    &'static mut Node,
    Option<&'static mut UiTransform>,
    Option<&'static mut Visibility>,
    Option<&'static mut LayoutProbe>,
);

/// Puts every [`Placed`] node where the areas say, when they change, the open panel changes or
/// a placed node appears. Each node is written only where its place differs, so the UI lays
/// out again only what moved.
fn place_nodes(
    placement: Res<Placement>,
    panel: Res<OpenPanel>,
    players: Res<Players>,
    added: Query<(), Added<Placed>>,
    mut nodes: Query<PlacedNode>,
    mut last: Local<Option<Frame>>,
) {
    let Some(screen) = placement.0 else {
        return;
    };
    let frame = Frame {
        areas: screen.areas,
        scale: screen.scale,
        table: screen.table,
        panel: panel.0,
        viewer: players.viewer(),
    };
    if *last == Some(frame) && added.is_empty() {
        return;
    }
    *last = Some(frame);
    for (placed, mut node, transform, visibility, probe) in &mut nodes {
        let mut placed_node = node.clone();
        place_node(*placed, &frame, &mut placed_node);
        if *node != placed_node {
            *node = placed_node;
        }
        if let (Placed::Hud(seat), Some(mut transform)) = (placed, transform) {
            let rotation = if hud_place(*seat, frame.table).turned {
                Rot2::PI
            } else {
                Rot2::IDENTITY
            };
            if transform.rotation != rotation {
                transform.rotation = rotation;
            }
        }
        // Only a HUD's: the toast's own is its notice's (`show_toast`), and the rest follow
        // their parents.
        if let (Placed::Hud(seat), Some(mut visibility)) = (placed, visibility) {
            visibility.set_if_neq(hud_visibility(*seat, &frame));
        }
        if let Some(mut probe) = probe {
            let name = probe_name(*placed, &frame, probe.0);
            if probe.0 != name {
                probe.0 = name;
            }
        }
    }
}

/// A node shown (`on`) or taken out of the layout.
fn shown(on: bool) -> Display {
    if on { Display::Flex } else { Display::None }
}

/// Where `placed` goes in `frame`: its rectangle, padding, direction and display.
fn place_node(placed: Placed, frame: &Frame, node: &mut Node) {
    let (areas, scale) = (&frame.areas, frame.scale);
    match placed {
        Placed::Hud(seat) => place_hud(node, seat, frame),
        Placed::Toolbar => place_toolbar(node, frame),
        // Two rows of three on a tablet lying down; otherwise each takes an equal share.
        Placed::Tool => {
            node.flex_basis = if areas.toolbar_grid {
                percent(30)
            } else {
                px(0)
            };
        }
        Placed::Panel(PanelArea::Cover) => {
            place(node, areas.cover, scale);
            node.padding = padding_to(areas.cover, areas.panel, scale, Vec2::ZERO, false);
        }
        Placed::Panel(PanelArea::Tall) => {
            place(node, areas.tall_cover, scale);
            node.padding = padding_to(areas.tall_cover, areas.tall_panel, scale, Vec2::ZERO, false);
        }
        Placed::Panel(PanelArea::Sheet) => place(node, areas.sheet, scale),
        Placed::CardsRow => place_cards_row(node, frame),
        Placed::Card(side) => place_card(node, side, frame),
        Placed::CardTexts(side) => {
            node.align_items = if side == Side::White && !areas.landscape && !frame.tall() {
                AlignItems::FlexEnd
            } else {
                AlignItems::FlexStart
            };
        }
        Placed::NoticeRow => place_notice_row(node, frame),
        // Upright the notice takes the row's free width, pushing the buttons right; in the
        // column it keeps its own height. On a tall phone the strip takes the row, the notice
        // shows in its toast and the AI's statistics under the win bar.
        Placed::Notice => {
            node.flex_grow = if frame.column() { 0.0 } else { 1.0 };
            node.display = shown(!frame.tall());
        }
        Placed::Stats | Placed::Strip => node.display = shown(frame.tall()),
        Placed::Toast => {
            if frame.tall() {
                place(node, areas.toast, scale);
            }
            node.display = shown(frame.tall());
        }
        Placed::DockedList => node.display = shown(frame.column()),
    }
}

/// Whether `seat`'s HUD is drawn: the near one hides where a panel takes its place
/// ([`hud_hidden`]).
fn hud_visibility(seat: Seat, frame: &Frame) -> Visibility {
    let hidden = hud_hidden(
        frame.panel,
        frame.areas.landscape,
        frame.areas.sheet_over_hud,
        frame.table,
    );
    if seat == Seat::Near && hidden {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    }
}

/// The layout checks' name for a row: beside the board the cards and the strip are no longer
/// the HUD's rows (a panel covers them with the board).
fn probe_name(placed: Placed, frame: &Frame, name: &'static str) -> &'static str {
    match (placed, frame.tall()) {
        (Placed::CardsRow, true) => "cards",
        (Placed::NoticeRow, true) => "strip",
        (Placed::CardsRow | Placed::NoticeRow, false) => "hud",
        _ => name,
    }
}

/// A HUD: portrait across the top, landscape a column on the left (face to face each half of
/// the column); its background reaches the screen's edges, its content keeps to the safe area.
fn place_hud(node: &mut Node, seat: Seat, frame: &Frame) {
    let (areas, scale) = (&frame.areas, frame.scale);
    let shown_as = hud_place(seat, frame.table);
    node.display = shown(shown_as.shown);
    let (rect, content) = match seat {
        Seat::Near => (areas.hud, areas.hud_content[0]),
        Seat::Far => (areas.far_hud, areas.hud_content[1]),
    };
    place(node, rect, scale);
    node.padding = padding_to(rect, content, scale, layout::HUD_PADDING, shown_as.turned);
    // Face to face lying down, each half of the column keeps its content at the screen's
    // edge: the turned HUD's end is the top of the screen.
    node.justify_content = if frame.table && areas.landscape {
        JustifyContent::FlexEnd
    } else {
        JustifyContent::FlexStart
    };
}

/// The toolbar: a row upright, a column on the right lying down, or two rows of three under
/// the HUD (a tablet lying down); its content keeps to the safe area.
fn place_toolbar(node: &mut Node, frame: &Frame) {
    let (areas, scale) = (&frame.areas, frame.scale);
    place(node, areas.toolbar, scale);
    node.padding = padding_to(
        areas.toolbar,
        areas.toolbar_content,
        scale,
        layout::TOOLBAR_PADDING,
        false,
    );
    node.flex_direction = if areas.landscape && !areas.toolbar_grid {
        FlexDirection::Column
    } else {
        FlexDirection::Row
    };
    node.flex_wrap = if areas.toolbar_grid {
        FlexWrap::Wrap
    } else {
        FlexWrap::NoWrap
    };
}

/// On a tall phone a row of the HUD goes beside the board, on `rect` (the HUD's root is at
/// the screen's top-left corner); otherwise back in the HUD's flow. (While the move list is
/// open on a tall phone the whole HUD hides: [`hud_hidden`].)
fn beside_board(node: &mut Node, rect: Option<Rect>, scale: f32) {
    match rect {
        Some(rect) => place(node, rect, scale),
        None => {
            node.position_type = PositionType::Relative;
            (node.left, node.top, node.width, node.height) =
                (Val::Auto, Val::Auto, Val::Auto, Val::Auto);
        }
    }
}

/// The row of player cards: side by side upright; stacked lying down and on a tall phone,
/// where it goes beside the board with the person's card at the bottom, by the near edge.
fn place_cards_row(node: &mut Node, frame: &Frame) {
    let areas = &frame.areas;
    (node.flex_direction, node.align_items) = match (frame.tall(), frame.viewer) {
        (true, Side::Black) => (FlexDirection::ColumnReverse, AlignItems::Stretch),
        (true, Side::White) => (FlexDirection::Column, AlignItems::Stretch),
        (false, _) if areas.landscape => (FlexDirection::Column, AlignItems::Stretch),
        (false, _) => (FlexDirection::Row, AlignItems::Center),
    };
    let beside = frame.tall().then(|| areas.cards[0].union(areas.cards[1]));
    beside_board(node, beside, frame.scale);
}

/// A player's card: upright it takes half the row (White's mirrored); stacked, its own
/// height.
fn place_card(node: &mut Node, side: Side, frame: &Frame) {
    let stacked = frame.areas.landscape || frame.tall();
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
fn place_notice_row(node: &mut Node, frame: &Frame) {
    (node.flex_direction, node.align_items, node.min_height) = if frame.column() {
        (FlexDirection::Column, AlignItems::Stretch, px(0))
    } else {
        (FlexDirection::Row, AlignItems::Center, px(layout::TOUCH))
    };
    let beside = frame.tall().then_some(frame.areas.strip);
    beside_board(node, beside, frame.scale);
}

/// Places a node on `rect` (logical pixels) in a UI drawn `scale` times larger.
fn place(node: &mut Node, rect: Rect, scale: f32) {
    node.position_type = PositionType::Absolute;
    node.left = px(rect.min.x / scale);
    node.top = px(rect.min.y / scale);
    node.width = px(rect.width() / scale);
    node.height = px(rect.height() / scale);
    node.right = Val::Auto;
    node.bottom = Val::Auto;
}

/// The padding that keeps a node's content on `content` when the node covers `rect`, plus
/// `own` padding on every side; `turned`: the node is drawn turned by half a turn.
fn padding_to(rect: Rect, content: Rect, scale: f32, own: Vec2, turned: bool) -> UiRect {
    let (mut left, mut top) = (content.min.x - rect.min.x, content.min.y - rect.min.y);
    let (mut right, mut bottom) = (rect.max.x - content.max.x, rect.max.y - content.max.y);
    if turned {
        (left, right, top, bottom) = (right, left, bottom, top);
    }
    UiRect {
        left: px(left / scale + own.x),
        right: px(right / scale + own.x),
        top: px(top / scale + own.y),
        bottom: px(bottom / scale + own.y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placement alone, with the resources it reads, and no window.
    fn bare_app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<UiScale>()
            .init_resource::<SafeArea>()
            .init_resource::<TableMode>()
            .init_resource::<Players>()
            .add_plugins(plugin);
        app
    }

    fn app(size: Vec2) -> App {
        let mut app = bare_app();
        app.world_mut().spawn((
            Window {
                resolution: bevy::window::WindowResolution::new(size.x as u32, size.y as u32),
                ..default()
            },
            PrimaryWindow,
        ));
        app
    }

    #[test]
    fn the_areas_follow_the_window_and_table_mode_and_change_only_with_them() {
        let mut app = app(Vec2::new(390.0, 844.0));
        app.update();
        let first = app.world().resource::<Placement>().0.expect("measured");
        assert_eq!(first.size, Vec2::new(390.0, 844.0));
        assert_eq!(
            first.areas,
            layout::areas(first.size, 1.0, &SafeArea::default(), false)
        );
        assert!(!first.areas.landscape);

        // Nothing changed: the resource is not touched, so nothing downstream re-runs.
        let tick = app.world().resource_ref::<Placement>().last_changed();
        app.update();
        assert_eq!(app.world().resource_ref::<Placement>().last_changed(), tick);

        // Table mode and a turned window each give their own areas.
        app.world_mut().resource_mut::<TableMode>().0 = true;
        app.update();
        let table = app.world().resource::<Placement>().0.expect("measured");
        assert!(table.table);
        assert_eq!(
            table.areas,
            layout::areas(table.size, 1.0, &SafeArea::default(), true)
        );
        assert_ne!(table.areas, first.areas);

        let mut windows = app.world_mut().query::<&mut Window>();
        let mut window = windows.single_mut(app.world_mut()).expect("one window");
        window.resolution.set(844.0, 390.0);
        app.update();
        let turned = app.world().resource::<Placement>().0.expect("measured");
        assert!(turned.areas.landscape);
    }

    #[test]
    fn without_a_window_nothing_is_placed() {
        let mut app = bare_app();
        app.update();
        assert_eq!(app.world().resource::<Placement>().0, None);
    }

    /// The node's rectangle in logical pixels, as [`place`] wrote it (the UI's scale is 1).
    fn rect_of(app: &App, entity: Entity) -> Rect {
        let node = app.world().get::<Node>(entity).expect("a node");
        let px = |v: Val| match v {
            Val::Px(p) => p,
            other => panic!("not placed: {other:?}"),
        };
        let (left, top) = (px(node.left), px(node.top));
        Rect::new(left, top, left + px(node.width), top + px(node.height))
    }

    /// The areas measured for the window.
    fn areas_of(app: &App) -> Areas {
        app.world()
            .resource::<Placement>()
            .0
            .expect("measured")
            .areas
    }

    /// One system places every kind of node from the measured areas: the HUDs (the far one
    /// only face to face, turned), the toolbar and its buttons, a panel on its area, and the
    /// near HUD hidden where a tall panel takes its place; a node spawned later is placed too.
    #[test]
    fn every_placed_node_goes_where_the_areas_say() {
        let mut app = app(Vec2::new(390.0, 844.0));
        let near = app
            .world_mut()
            .spawn((Placed::Hud(Seat::Near), Node::default()))
            .id();
        let far = app
            .world_mut()
            .spawn((Placed::Hud(Seat::Far), Node::default()))
            .id();
        let toolbar = app
            .world_mut()
            .spawn((Placed::Toolbar, Node::default()))
            .id();
        let tool = app.world_mut().spawn((Placed::Tool, Node::default())).id();
        let toast = app
            .world_mut()
            .spawn((Placed::Toast, Node::default(), Visibility::Hidden))
            .id();
        app.update();
        app.update();
        let areas = areas_of(&app);
        assert_eq!(rect_of(&app, near), areas.hud);
        assert_eq!(rect_of(&app, toolbar), areas.toolbar);
        assert_eq!(
            app.world().get::<Node>(far).expect("far").display,
            Display::None
        );
        assert_eq!(
            app.world().get::<Node>(tool).expect("tool").flex_basis,
            px(0)
        );
        assert_eq!(
            app.world().get::<Visibility>(near),
            Some(&Visibility::Inherited)
        );

        // A sheet spawned later goes on the sheet's area; under a tall panel upright the near
        // HUD hides.
        let sheet = app
            .world_mut()
            .spawn((Placed::Panel(PanelArea::Sheet), Node::default()))
            .id();
        app.world_mut().resource_mut::<OpenPanel>().0 = Some(PanelArea::Tall);
        app.update();
        assert_eq!(rect_of(&app, sheet), areas.sheet);
        assert_eq!(
            app.world().get::<Visibility>(near),
            Some(&Visibility::Hidden)
        );
        // The toast's visibility is its notice's: the placement leaves it alone.
        assert_eq!(
            app.world().get::<Visibility>(toast),
            Some(&Visibility::Hidden)
        );

        // Face to face the far HUD shows, turned towards the far player, on its own area.
        app.world_mut().resource_mut::<TableMode>().0 = true;
        app.update();
        app.update();
        let areas = areas_of(&app);
        assert_eq!(
            app.world().get::<Node>(far).expect("far").display,
            Display::Flex
        );
        assert_eq!(rect_of(&app, far), areas.far_hud);
        assert_eq!(
            app.world().get::<UiTransform>(far).map(|t| t.rotation),
            Some(Rot2::PI)
        );
        assert_eq!(
            app.world().get::<Visibility>(near),
            Some(&Visibility::Inherited)
        );
    }
}
