//! Where everything goes on the screen: the HUD, the toolbar, the panels and the band the
//! board is framed in, for any window shape, safe-area margins, UI scale and table mode.
//!
//! Everything here is plain arithmetic on rectangles, so the claims a player can check by
//! looking (panels never cover the bars, bars reach the screen's edges, the board fills the
//! band) are tested without a window. The UI nodes and the camera read their places from
//! [`areas`].

use crate::platform::SafeArea;
use bevy::math::{Rect, Vec2};

/// The smallest touch target: about 9 mm on a phone (logical pixels are ~160 per inch).
pub const TOUCH: f32 = 56.0;
/// The smallest target of a dense list (a move of the move list, the review's next-mistake
/// buttons): Apple's and Google's minimum, 44 points.
pub const DENSE_TOUCH: f32 = 44.0;
/// The height the HUD takes at the top of the screen (portrait), inside the safe area: the
/// player cards, whose turn it is, the AI's progress, the win bar and the notices.
pub const HUD_HEIGHT: f32 = 196.0;
/// Each HUD's height face to face (two people: no AI's progress and no win bar).
pub const TABLE_HUD_HEIGHT: f32 = 164.0;
/// On a tall phone upright ([`Areas::tall`]) the HUD at the top keeps only whose turn it is,
/// the AI's progress, the win bar and the AI's statistics: the player cards go around the
/// board and the notices become a toast.
pub const TALL_HUD_HEIGHT: f32 = 100.0;
/// A player card's row beside the board on a tall phone: the count's chip (46) in its ring.
pub const CARD_HEIGHT: f32 = 60.0;
/// The row under the player's card on a tall phone: the move strip (the last moves, "Move 23
/// · 37 empty", a tap opens the move list) and the HUD's buttons (Pass, Play again...).
pub const STRIP_HEIGHT: f32 = TOUCH;
/// A notice's toast on a tall phone: this tall, at the top of the screen (or over the
/// opponent's card).
pub const TOAST_HEIGHT: f32 = 44.0;

/// The HUD's height upright, face to face (`table`) or not.
pub fn hud_height(table: bool) -> f32 {
    if table { TABLE_HUD_HEIGHT } else { HUD_HEIGHT }
}
/// The height of the toolbar at the bottom of the screen (portrait), inside the safe area.
pub const TOOLBAR_HEIGHT: f32 = 78.0;
/// Lying down with one player and at least this much height (UI units, inside the safe
/// area), the toolbar goes under the HUD in its column, two rows of three
/// ([`TOOLBAR_GRID_HEIGHT`]), and the board takes the rest of the screen: a tablet's board is
/// sized first, the column after it.
pub const TOOLBAR_IN_COLUMN_HEIGHT: f32 = 600.0;
/// The toolbar's height as two rows of three buttons in the column.
pub const TOOLBAR_GRID_HEIGHT: f32 = 2.0 * TOOLBAR_HEIGHT;
/// In landscape the HUD is a column on the left this wide...
pub const HUD_WIDTH: f32 = 260.0;
/// ...and the toolbar a column on the right this wide.
pub const TOOLBAR_WIDTH: f32 = 110.0;
/// The space between a panel and the bars, and around the board.
pub const GAP: f32 = 8.0;
/// The HUD's own padding inside the safe area.
pub const HUD_PADDING: Vec2 = Vec2::new(10.0, 6.0);
/// The toolbar's own padding inside the safe area.
pub const TOOLBAR_PADDING: Vec2 = Vec2::new(4.0, 6.0);
/// Windows whose shorter side is at least this many logical pixels are tablets: their UI
/// is drawn [`TABLET_SCALE`] times larger.
pub const TABLET_SHORT_SIDE: f32 = 600.0;
/// How much larger a tablet draws the UI (text, buttons and bars) than a phone.
pub const TABLET_SCALE: f32 = 1.25;
/// The share of the band between the bars (portrait) that the move list's sheet takes at
/// least, and at most; the board is framed in the rest, so the player sees the position of
/// the move they tapped. Between the two the sheet is as tall as four rows of the list need.
pub const SHEET_SHARE: f32 = 0.45;
/// See [`SHEET_SHARE`] (face to face the two HUDs leave less band, and the sheet keeps to
/// [`SHEET_SHARE`]).
pub const SHEET_SHARE_MAX: f32 = 0.55;
/// The rows of numbered pairs the sheet makes room for, within [`SHEET_SHARE_MAX`].
pub const SHEET_ROWS: f32 = 4.0;
/// The move list's sheet: its title row (the counts and the chart, [`GLANCE_HEIGHT`])...
pub const SHEET_HEADER: f32 = GLANCE_HEIGHT;
/// ...the review's line between its previous and next mistake buttons, its step buttons, and
/// their padding (once the game is reviewed, the best line's row, [`LINE_ROW`], takes the
/// room of a row of the list)...
pub const SHEET_FOOTER: f32 = DENSE_TOUCH + TOUCH + 12.0;
/// The best line's row in the sheet's footer of a reviewed game, and its gap.
pub const LINE_ROW: f32 = DENSE_TOUCH + 2.0;
/// The move list's title row holds the game at a glance, the counts and the evaluation's
/// chart, a finger's height.
pub const GLANCE_HEIGHT: f32 = DENSE_TOUCH;
/// ...its list's padding (each side, and top and bottom)...
pub const MOVE_LIST_PADDING: Vec2 = Vec2::new(12.0, 4.0);
/// ...and the list's rows of numbered pairs ("12. f5 d6"): this tall, this far apart, each
/// pair this wide (its number and two moves), the columns this far apart.
pub const MOVE_ROW: f32 = DENSE_TOUCH;
/// See [`MOVE_ROW`].
pub const MOVE_ROW_GAP: f32 = 2.0;
/// See [`MOVE_ROW`].
pub const MOVE_PAIR_WIDTH: f32 = 108.0;
/// See [`MOVE_ROW`].
pub const MOVE_COLUMN_GAP: f32 = 6.0;

/// The move list's sheet's height (upright) in a band `band` tall, the UI drawn `scale` times
/// larger: room for [`SHEET_ROWS`] rows of the list, within [`SHEET_SHARE`] and
/// [`SHEET_SHARE_MAX`] of the band (face to face, [`SHEET_SHARE`]).
fn sheet_height(band: f32, scale: f32, table: bool) -> f32 {
    let rows = SHEET_HEADER
        + SHEET_FOOTER
        + 2.0 * MOVE_LIST_PADDING.y
        + SHEET_ROWS * (MOVE_ROW + MOVE_ROW_GAP)
        - MOVE_ROW_GAP;
    let most = if table { SHEET_SHARE } else { SHEET_SHARE_MAX };
    (rows * scale).clamp(band * SHEET_SHARE, band * most)
}

/// How many rows and columns of numbered pairs the move list shows at once in `sheet`
/// (logical pixels, the UI drawn `scale` times larger).
pub fn move_list_capacity(sheet: Rect, scale: f32) -> (usize, usize) {
    let s = scale.max(0.01);
    let width = sheet.width() / s - 2.0 * MOVE_LIST_PADDING.x;
    let height = sheet.height() / s - SHEET_HEADER - SHEET_FOOTER - 2.0 * MOVE_LIST_PADDING.y;
    let columns = ((width + MOVE_COLUMN_GAP) / (MOVE_PAIR_WIDTH + MOVE_COLUMN_GAP)).floor();
    let rows = ((height + MOVE_ROW_GAP) / (MOVE_ROW + MOVE_ROW_GAP)).floor();
    (rows.max(0.0) as usize, columns.max(1.0) as usize)
}

/// A node whose place on screen the screenshot tool writes down (`FILE.layout`), so the
/// drawn layout is checked by tools/layout-check.py: the toolbar's buttons (`tool`), a
/// panel's card (`panel`, `tall` for new game's, `sheet` for the move list), the HUD's rows
/// (`hud`), the move list docked lying down (`list`), a panel's scroll cue (`cue`).
#[derive(bevy::prelude::Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct LayoutProbe(pub &'static str);

/// Whether a window this size (in UI units) gets the side-by-side (landscape) layout: the
/// layout that leaves the board the larger square.
pub fn is_landscape(size: Vec2) -> bool {
    let stacked = size.x.min(size.y - HUD_HEIGHT - TOOLBAR_HEIGHT);
    let side_by_side = (size.x - HUD_WIDTH - TOOLBAR_WIDTH).min(size.y - 16.0);
    side_by_side > stacked
}

/// The device-size factor of the UI scale: [`TABLET_SCALE`] on a tablet-sized window
/// (`size` in logical pixels), 1 on a phone.
pub fn device_scale(size: Vec2) -> f32 {
    if size.min_element() >= TABLET_SHORT_SIDE {
        TABLET_SCALE
    } else {
        1.0
    }
}

/// The screen's areas in logical pixels, origin at the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Areas {
    /// The side-by-side layout.
    pub landscape: bool,
    /// Lying down, the toolbar is a grid under the HUD in the left column
    /// ([`TOOLBAR_IN_COLUMN_HEIGHT`]), not a column on the right.
    pub toolbar_grid: bool,
    /// The near HUD's node: its background reaches the screen's edges.
    pub hud: Rect,
    /// The far HUD's node in table mode (empty otherwise).
    pub far_hud: Rect,
    /// Where the HUDs' content is drawn (inside the safe area); nothing is drawn over it.
    pub hud_content: [Rect; 2],
    /// The toolbar's node: its background reaches the screen's edges.
    pub toolbar: Rect,
    /// Where the toolbar's buttons are (inside the safe area).
    pub toolbar_content: Rect,
    /// What a panel hides and keeps taps from: the whole space between the bars.
    pub cover: Rect,
    /// A panel (menu, help, new game...): the whole space between the bars, inside the safe
    /// area, so no part of the board peeks out around it.
    pub panel: Rect,
    /// A tall panel (new game): upright with one player, the whole space above the toolbar
    /// (the HUD hides while it is open), so its choices fit without scrolling; otherwise
    /// [`Areas::cover`].
    pub tall_cover: Rect,
    /// Where a tall panel's card goes: [`Areas::tall_cover`] inside the safe area.
    pub tall_panel: Rect,
    /// The move list: the lower part of the band upright, the HUD's column lying down (the
    /// HUD hides while it is open), so the board stays in view.
    pub sheet: Rect,
    /// The band the board is framed in.
    pub board: Rect,
    /// The band the board is framed in while the move list is open.
    pub board_with_sheet: Rect,
    /// A tall phone upright with one player: the board sits low, within the thumb's reach,
    /// between the opponent's card right above it and the player's right below it, with the
    /// move strip under that; the HUD at the top is [`TALL_HUD_HEIGHT`] tall. Chosen where it
    /// leaves the board as large as the usual layout does.
    pub tall: bool,
    /// On a tall phone, the cards' rows: above the board, then below it (empty otherwise).
    pub cards: [Rect; 2],
    /// On a tall phone, the move strip's row under the player's card (empty otherwise).
    pub strip: Rect,
    /// On a tall phone, where a notice's toast shows: in the spare height at the top, or over
    /// the opponent's card, never over the player's (empty otherwise).
    pub toast: Rect,
    /// Upright with one player, the sheet takes the lower part of the whole height and the
    /// HUD hides while it is open: on a tall phone, and on a small one whose band under the
    /// HUD would leave the move list fewer than [`SHEET_MIN_ROWS`] rows.
    pub sheet_over_hud: bool,
}

/// The rows of the move list a sheet shows at least upright (see [`Areas::sheet_over_hud`]).
pub const SHEET_MIN_ROWS: usize = 2;

/// A rectangle from its edges.
fn edges(left: f32, top: f32, right: f32, bottom: f32) -> Rect {
    Rect::new(left, top, right.max(left), bottom.max(top))
}

/// Where everything goes in a window of `size` logical pixels whose UI is drawn `scale`
/// times larger and whose system keeps the `safe` margins (logical pixels); `table`: two
/// players face to face. One layout a mode: `landscape`, `tall` (a tall phone upright
/// with one player) and `upright` (the rest upright, face to face included).
pub fn areas(size: Vec2, scale: f32, safe: &SafeArea, table: bool) -> Areas {
    let s = scale.max(0.01);
    let (w, h) = (size.x, size.y);
    let f = Frame {
        s,
        w,
        h,
        l: safe.left,
        t: safe.top,
        r: w - safe.right,
        b: h - safe.bottom,
    };
    if is_landscape(safe.inner(size) / s) {
        return landscape(&f, table);
    }
    // A tall phone: the board's band as wide as the screen between the cards, the move
    // strip and the short HUD still fits (the usual layout's board is as wide at most).
    let tall_stack = (TALL_HUD_HEIGHT + 2.0 * CARD_HEIGHT + STRIP_HEIGHT) * s;
    if !table && f.toolbar_top() - f.t - tall_stack >= f.r - f.l {
        tall(&f)
    } else {
        upright(&f, table)
    }
}

/// The window as the layouts read it: the UI's scale `s`, the size `w` x `h`, and the safe
/// area's edges `l`, `t`, `r`, `b` (logical pixels).
#[derive(Clone, Copy, Debug)]
struct Frame {
    s: f32,
    w: f32,
    h: f32,
    l: f32,
    t: f32,
    r: f32,
    b: f32,
}

impl Frame {
    /// Upright, the top of the toolbar's row at the bottom of the screen.
    fn toolbar_top(&self) -> f32 {
        self.b - TOOLBAR_HEIGHT * self.s
    }

    /// Upright, the toolbar's row (to the screen's edges) and its content (the safe area's).
    fn toolbar(&self) -> (Rect, Rect) {
        let top = self.toolbar_top();
        (
            edges(0.0, top, self.w, self.h),
            edges(self.l, top, self.r, self.b),
        )
    }
}

/// Landscape: the HUD in a column at the left (both HUDs, face to face), the toolbar in a
/// grid under it or in a column at the right, the board between.
fn landscape(f: &Frame, table: bool) -> Areas {
    let Frame {
        s,
        w,
        h,
        l,
        t,
        r,
        b,
    } = *f;
    let empty = Rect::default();
    let column = l + HUD_WIDTH * s;
    let toolbar_grid = !table && (b - t) / s >= TOOLBAR_IN_COLUMN_HEIGHT;
    let (toolbar, toolbar_content, right) = if toolbar_grid {
        let top = b - TOOLBAR_GRID_HEIGHT * s;
        (edges(0.0, top, column, h), edges(l, top, column, b), w)
    } else {
        let toolbar = edges(r - TOOLBAR_WIDTH * s, 0.0, w, h);
        (toolbar, edges(toolbar.min.x, t, r, b), toolbar.min.x)
    };
    // The space right of the column: up to the toolbar's column, or to the safe edge.
    let right_inside = right.min(r);
    let board = edges(
        column + GAP * s,
        t + GAP * s,
        right_inside - GAP * s,
        b - GAP * s,
    );
    let (hud, far_hud, hud_content, sheet) = if table {
        // Both HUDs share the column: the far one's half at the top, turned.
        let middle = t + (b - t) / 2.0;
        (
            edges(0.0, middle, column, h),
            edges(0.0, 0.0, column, middle),
            [edges(l, middle, column, b), edges(l, t, column, middle)],
            // No room beside the board: the list covers it, between the bars.
            board,
        )
    } else {
        // The HUD's content takes the column (its cards at the top, the move list under
        // them) down to the toolbar's grid if it is there; the move list's sheet, with its
        // controls, takes the HUD's place while it is open (the HUD hides), so the board
        // stays in view.
        let bottom = if toolbar_grid { toolbar.min.y } else { h };
        let content = edges(l, t, column, bottom.min(b));
        (
            edges(0.0, 0.0, column, bottom),
            empty,
            [content, empty],
            content,
        )
    };
    let board_with_sheet = if table { empty } else { board };
    Areas {
        landscape: true,
        toolbar_grid,
        hud,
        far_hud,
        hud_content,
        toolbar,
        toolbar_content,
        cover: edges(column, 0.0, right, h),
        panel: edges(column, t, right_inside, b),
        tall_cover: edges(column, 0.0, right, h),
        tall_panel: edges(column, t, right_inside, b),
        sheet,
        board,
        board_with_sheet,
        tall: false,
        cards: [empty; 2],
        strip: empty,
        toast: empty,
        sheet_over_hud: false,
    }
}

/// A tall phone upright with one player: the board low, within the thumb's reach, between
/// the cards, the move strip under the player's card.
fn tall(f: &Frame) -> Areas {
    let Frame { s, w, l, t, r, .. } = *f;
    let empty = Rect::default();
    let toolbar_top = f.toolbar_top();
    let (toolbar, toolbar_content) = f.toolbar();
    // Bottom up: the strip above the toolbar, the player's card, the board as low as it
    // goes, the opponent's card; the HUD's content right above that, and the spare
    // height at the top of the screen, away from the thumb.
    let inset = HUD_PADDING.x * s;
    let strip = edges(
        l + inset,
        toolbar_top - STRIP_HEIGHT * s,
        r - inset,
        toolbar_top,
    );
    let near_card = edges(
        l + inset,
        strip.min.y - CARD_HEIGHT * s,
        r - inset,
        strip.min.y,
    );
    let board = edges(l, near_card.min.y - (r - l), r, near_card.min.y);
    let far_card = edges(
        l + inset,
        board.min.y - CARD_HEIGHT * s,
        r - inset,
        board.min.y,
    );
    let hud_bottom = far_card.min.y;
    // A notice's toast never over the board (the squares under it: legal-move dots, a
    // hinted move), the strip's buttons (Pass, Rematch) or the player's own card and
    // count: in the spare height at the top of the screen where it fits, else over the
    // opponent's card.
    let spare_bottom = hud_bottom - TALL_HUD_HEIGHT * s;
    let middle = if spare_bottom - t >= TOAST_HEIGHT * s {
        (t + spare_bottom) / 2.0
    } else {
        far_card.center().y
    };
    let toast = edges(
        near_card.min.x,
        middle - TOAST_HEIGHT * s / 2.0,
        near_card.max.x,
        middle + TOAST_HEIGHT * s / 2.0,
    );
    // Panels take the space under the HUD, over the cards and the board. The move list
    // takes the lower part of the whole height and the HUD hides while it is open
    // (`placement::hud_hidden`), so the board framed above it stays large for reviewing.
    let band = edges(l, hud_bottom, r, toolbar_top);
    let whole = edges(l, t, r, toolbar_top);
    let sheet_top = whole.max.y - sheet_height(whole.height(), s, false);
    Areas {
        landscape: false,
        toolbar_grid: false,
        hud: edges(0.0, 0.0, w, hud_bottom),
        far_hud: empty,
        hud_content: [
            edges(l, hud_bottom - TALL_HUD_HEIGHT * s, r, hud_bottom),
            empty,
        ],
        toolbar,
        toolbar_content,
        cover: edges(0.0, hud_bottom, w, toolbar_top),
        panel: band,
        tall_cover: edges(0.0, 0.0, w, toolbar_top),
        tall_panel: whole,
        sheet: edges(l, sheet_top, r, toolbar_top),
        board,
        board_with_sheet: edges(l, t, r, sheet_top),
        tall: true,
        cards: [far_card, near_card],
        strip,
        toast,
        sheet_over_hud: true,
    }
}

/// Upright: the HUD at the top (face to face, the far one turned at the top and the near one
/// above the toolbar), the board in the band between, the toolbar at the bottom.
fn upright(f: &Frame, table: bool) -> Areas {
    let Frame {
        s, w, h, l, t, r, ..
    } = *f;
    let empty = Rect::default();
    let toolbar_top = f.toolbar_top();
    let (toolbar, toolbar_content) = f.toolbar();
    let hud_bottom = t + hud_height(table) * s;
    let (hud, far_hud, hud_content, band_bottom) = if table {
        // The far HUD at the top, turned; the near one above the toolbar.
        let near_top = toolbar_top - TABLE_HUD_HEIGHT * s;
        (
            edges(0.0, near_top, w, toolbar_top),
            edges(0.0, 0.0, w, hud_bottom),
            [
                edges(l, near_top, r, toolbar_top),
                edges(l, t, r, hud_bottom),
            ],
            near_top,
        )
    } else {
        (
            edges(0.0, 0.0, w, hud_bottom),
            empty,
            [edges(l, t, r, hud_bottom), empty],
            toolbar_top,
        )
    };
    let band = edges(l, hud_bottom, r, band_bottom);
    let mut sheet_top = band.max.y - sheet_height(band.height(), s, table);
    let mut board_with_sheet = edges(band.min.x, band.min.y, band.max.x, sheet_top);
    // A small phone: the band under the HUD is too short for the move list's rows, so the
    // sheet takes the lower part of the whole height as on a tall phone (the HUD hides).
    let rows = move_list_capacity(edges(l, sheet_top, r, band.max.y), s).0;
    let sheet_over_hud = !table && rows < SHEET_MIN_ROWS;
    if sheet_over_hud {
        // As tall as the rows ask, up to where the board above keeps 45% of the window (the
        // camera frames no smaller band: `board::camera::fit`).
        let whole = edges(l, t, r, toolbar_top);
        let most = (h * SHEET_SHARE_MAX - (h - toolbar_top)).max(0.0);
        sheet_top = whole.max.y - sheet_height(whole.height(), s, false).min(most);
        board_with_sheet = edges(l, t, r, sheet_top);
    }
    let (tall_cover, tall_panel) = if table {
        (edges(0.0, hud_bottom, w, band_bottom), band)
    } else {
        (edges(0.0, 0.0, w, toolbar_top), edges(l, t, r, toolbar_top))
    };
    Areas {
        landscape: false,
        toolbar_grid: false,
        hud,
        far_hud,
        hud_content,
        toolbar,
        toolbar_content,
        cover: edges(0.0, hud_bottom, w, band_bottom),
        panel: band,
        tall_cover,
        tall_panel,
        sheet: edges(band.min.x, sheet_top, band.max.x, band.max.y),
        board: band,
        board_with_sheet,
        tall: false,
        cards: [empty; 2],
        strip: empty,
        toast: empty,
        sheet_over_hud,
    }
}

impl Areas {
    /// The band the board is framed in as the camera takes it: the space (logical pixels)
    /// left, right, above and below it in a window of `size`.
    pub fn board_insets(&self, size: Vec2, sheet_open: bool) -> (f32, f32, f32, f32) {
        let band = if sheet_open && self.board_with_sheet.height() > 0.0 {
            self.board_with_sheet
        } else {
            self.board
        };
        (
            band.min.x,
            size.x - band.max.x,
            band.min.y,
            size.y - band.max.y,
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn overlap(a: Rect, b: Rect) -> bool {
        !a.intersect(b).is_empty() && a.intersect(b).width() > 0.5 && a.intersect(b).height() > 0.5
    }

    /// Phones and tablets upright and on their side, with and without a notch.
    pub(crate) fn screens() -> Vec<(&'static str, Vec2, SafeArea)> {
        let none = SafeArea::default();
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..none
        };
        let sideways = SafeArea {
            left: 47.0,
            right: 47.0,
            bottom: 21.0,
            ..none
        };
        vec![
            ("phone upright", Vec2::new(390.0, 844.0), notch),
            ("phone lying down", Vec2::new(844.0, 390.0), sideways),
            ("small phone upright", Vec2::new(360.0, 640.0), none),
            ("small phone lying down", Vec2::new(640.0, 360.0), none),
            ("tablet upright", Vec2::new(834.0, 1194.0), none),
            ("tablet lying down", Vec2::new(1194.0, 834.0), none),
        ]
    }

    #[test]
    fn the_move_list_shows_ten_full_moves_on_a_phone_upright() {
        for (name, size, safe) in screens() {
            let scale = device_scale(size);
            let a = areas(size, scale, &safe, false);
            let (rows, columns) = move_list_capacity(a.sheet, scale);
            // Reviewed, the best line's row takes a row's room: a row of the list stays.
            let reviewed =
                Rect::from_corners(a.sheet.min + Vec2::Y * LINE_ROW * scale, a.sheet.max);
            let (reviewed_rows, _) = move_list_capacity(reviewed, scale);
            println!("{name}: {rows} rows of {columns} pairs, {reviewed_rows} reviewed");
            assert!(reviewed_rows >= 1, "{name}: {reviewed_rows} rows reviewed");
            if !a.landscape && size.y >= 800.0 {
                // Upright, phone or tablet: ten numbered pairs at least, in 3 or more columns.
                assert!(rows * columns >= 10, "{name}: {rows} x {columns}");
                assert!(columns >= 3, "{name}: {columns} columns");
            } else if !a.landscape {
                // A small phone (360x640): two rows of three (its board keeps the rest).
                assert!(rows >= 2 && columns >= 3, "{name}: {rows} x {columns}");
            } else {
                // Lying down the sheet takes the HUD's column: four rows of two pairs at least
                // (the rows are 44 pt tall, the review's line as tall as its buttons).
                assert!(rows >= 4 && columns >= 2, "{name}: {rows} x {columns}");
            }
        }
        // The iPhone-sized screen of the issue, upright with its notch (a tall phone: the
        // sheet takes the lower part of the whole height, the HUD hides): 4 rows of 3, each
        // 44 pt tall.
        let (name, size, safe) = screens()[0];
        assert_eq!(name, "phone upright");
        let a = areas(size, 1.0, &safe, false);
        assert!(a.tall && a.sheet_over_hud);
        assert_eq!(move_list_capacity(a.sheet, 1.0), (4, 3));
        // Reviewed, the best line's row takes one of them.
        let reviewed = Rect::from_corners(a.sheet.min + Vec2::Y * LINE_ROW, a.sheet.max);
        assert_eq!(move_list_capacity(reviewed, 1.0), (3, 3));
        // A small phone (360x640) is not tall, but its band under the HUD would leave the
        // list no row: its sheet takes the HUD's place too, and shows two rows at least; a
        // tablet's keeps the HUD.
        let (name, size, safe) = screens()[2];
        assert_eq!(name, "small phone upright");
        let a = areas(size, 1.0, &safe, false);
        assert!(!a.tall && a.sheet_over_hud);
        assert!(move_list_capacity(a.sheet, 1.0).0 >= SHEET_MIN_ROWS);
        assert_eq!(
            a.board_with_sheet.min.y, safe.top,
            "the board framed from the top"
        );
        let (_, size, safe) = screens()[4];
        assert!(!areas(size, device_scale(size), &safe, false).sheet_over_hud);
        // Rows are counted whole: a sheet one pixel short of a fourth row shows three.
        let four = SHEET_HEADER
            + SHEET_FOOTER
            + 2.0 * MOVE_LIST_PADDING.y
            + 4.0 * (MOVE_ROW + MOVE_ROW_GAP)
            - MOVE_ROW_GAP;
        assert_eq!(
            move_list_capacity(Rect::new(0.0, 0.0, 390.0, four), 1.0).0,
            4
        );
        let short = Rect::new(0.0, 0.0, 390.0, four - 1.0);
        assert_eq!(move_list_capacity(short, 1.0).0, 3);
    }

    #[test]
    fn panels_and_the_move_list_never_cover_the_bars() {
        for (name, size, safe) in screens() {
            let scale = device_scale(size);
            for table in [false, true] {
                let a = areas(size, scale, &safe, table);
                let at = format!("{name}, table {table}: {a:?}");
                for area in [a.cover, a.panel, a.sheet] {
                    assert!(area.width() > 200.0 && area.height() > 100.0, "{at}");
                    assert!(!overlap(area, a.toolbar), "{at}");
                    // Lying down (one player) the sheet takes the HUD's place: the HUD hides
                    // while it is open.
                    if area == a.sheet && a.landscape && !table {
                        assert_eq!(a.sheet, a.hud_content[0], "{at}");
                        continue;
                    }
                    for hud in a.hud_content {
                        assert!(!overlap(area, hud), "{at}");
                    }
                }
                assert_eq!(a.cover.intersect(a.panel), a.panel, "{at}");
                for area in [a.panel, a.sheet] {
                    // Inside the screen and its safe area.
                    assert!(area.min.x >= safe.left && area.min.y >= safe.top, "{at}");
                    assert!(area.max.x <= size.x - safe.right, "{at}");
                    assert!(area.max.y <= size.y - safe.bottom, "{at}");
                }
                // Neither does the board's band.
                assert!(!overlap(a.board, a.toolbar), "{at}");
                for hud in a.hud_content {
                    assert!(!overlap(a.board, hud), "{at}");
                }
                // The move list leaves the board in view (except face to face lying down,
                // where the column is the HUDs').
                if !(table && a.landscape) {
                    assert!(!overlap(a.sheet, a.board_with_sheet), "{at}");
                    assert!(a.board_with_sheet.height() > 120.0, "{at}");
                }
            }
        }
    }

    #[test]
    fn a_tall_panel_takes_the_huds_place_upright_and_never_the_toolbars() {
        for (name, size, safe) in screens() {
            let scale = device_scale(size);
            for table in [false, true] {
                let a = areas(size, scale, &safe, table);
                let at = format!("{name}, table {table}: {a:?}");
                assert!(!overlap(a.tall_cover, a.toolbar), "{at}");
                assert_eq!(a.tall_cover.intersect(a.tall_panel), a.tall_panel, "{at}");
                assert!(a.tall_panel.min.y >= safe.top && a.tall_panel.min.x >= safe.left);
                assert!(a.tall_panel.max.x <= size.x - safe.right, "{at}");
                // It holds the usual panel.
                assert_eq!(a.tall_panel.intersect(a.panel), a.panel, "{at}");
                if !a.landscape && !table {
                    // One player upright: from the top of the safe area, the HUD's place too.
                    assert_eq!(a.tall_panel.min.y, safe.top, "{at}");
                    assert_eq!(a.tall_panel.max.y, a.toolbar.min.y, "{at}");
                    let hud = a.hud_content[0].height();
                    assert!(hud >= TALL_HUD_HEIGHT * scale, "{at}");
                    assert!(a.tall_panel.height() >= a.panel.height() + hud, "{at}");
                } else {
                    // Face to face both HUDs stay; lying down the HUD is beside it anyway.
                    assert_eq!(a.tall_panel, a.panel, "{at}");
                }
            }
        }
    }

    #[test]
    fn bar_backgrounds_reach_the_screen_edges_and_content_stays_inside_the_safe_area() {
        for (name, size, safe) in screens() {
            let a = areas(size, device_scale(size), &safe, false);
            let at = format!("{name}: {a:?}");
            let screen = Rect::new(0.0, 0.0, size.x, size.y);
            let inside = Rect::new(
                safe.left,
                safe.top,
                size.x - safe.right,
                size.y - safe.bottom,
            );
            if a.toolbar_grid {
                // The HUD's column from the left edge and the top, the toolbar's grid under
                // it to the bottom edge.
                assert_eq!(
                    (a.hud.min, a.hud.max.y),
                    (Vec2::ZERO, a.toolbar.min.y),
                    "{at}"
                );
                assert_eq!(
                    (a.toolbar.min.x, a.toolbar.max.y, a.toolbar.max.x),
                    (0.0, size.y, a.hud.max.x),
                    "{at}"
                );
            } else if a.landscape {
                // The HUD's column from the left edge, top to bottom; the toolbar's to the
                // right edge.
                assert_eq!(
                    (a.hud.min.x, a.hud.min.y, a.hud.max.y),
                    (0.0, 0.0, size.y),
                    "{at}"
                );
                assert_eq!(
                    (a.toolbar.max.x, a.toolbar.min.y, a.toolbar.max.y),
                    (size.x, 0.0, size.y),
                    "{at}"
                );
            } else {
                assert_eq!((a.hud.min, a.hud.max.x), (Vec2::ZERO, size.x), "{at}");
                assert_eq!((a.toolbar.min.x, a.toolbar.max), (0.0, screen.max), "{at}");
            }
            for content in [a.hud_content[0], a.toolbar_content] {
                assert_eq!(content.intersect(inside), content, "{at}");
            }
        }
    }

    #[test]
    fn the_layout_leaves_the_board_the_larger_square() {
        // Phones and tablets, both ways, at every text size.
        for (w, h) in [
            (360.0, 640.0),
            (540.0, 960.0),
            (834.0, 1194.0),
            (1080.0, 1920.0),
        ] {
            for scale in [1.0, 1.2, 1.4, 1.4 * TABLET_SCALE] {
                let portrait = Vec2::new(w, h) / scale;
                let landscape = Vec2::new(h, w) / scale;
                assert!(!is_landscape(portrait), "{w}x{h} at {scale}");
                assert!(is_landscape(landscape), "{h}x{w} at {scale}");
            }
        }
        // A square window keeps the bars above and below.
        assert!(!is_landscape(Vec2::new(1000.0, 1000.0)));
        // A phone's notch and home indicator push the bars' content inwards; lying down, the
        // columns take the sides.
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..SafeArea::default()
        };
        let a = areas(Vec2::new(360.0, 640.0), 1.0, &notch, false);
        assert!(!a.tall, "{a:?}");
        assert_eq!(
            (a.board.min.y, a.board.max.y),
            (HUD_HEIGHT + 47.0, 640.0 - TOOLBAR_HEIGHT - 34.0)
        );
        // Face to face upright: the near HUD sits above the toolbar.
        let t = areas(Vec2::new(390.0, 844.0), 1.0, &notch, true);
        assert_eq!(
            t.board.max.y,
            844.0 - TOOLBAR_HEIGHT - TABLE_HUD_HEIGHT - 34.0
        );
        assert_eq!(t.hud.max.y, t.toolbar.min.y);
        let sideways = SafeArea {
            left: 47.0,
            right: 47.0,
            bottom: 21.0,
            ..SafeArea::default()
        };
        let a = areas(Vec2::new(844.0, 390.0), 1.4, &sideways, false);
        assert!(a.landscape);
        assert_eq!(a.board.min.x, 47.0 + HUD_WIDTH * 1.4 + GAP * 1.4);
        assert_eq!(
            a.board.max.x,
            844.0 - 47.0 - TOOLBAR_WIDTH * 1.4 - GAP * 1.4
        );
    }

    #[test]
    fn a_tablet_lying_down_sizes_the_board_first() {
        let none = SafeArea::default();
        let size = Vec2::new(1194.0, 834.0);
        let a = areas(size, TABLET_SCALE, &none, false);
        assert!(a.landscape && a.toolbar_grid);
        // The board takes the whole height (less its gaps): squares of about 94 pt, where
        // a toolbar column on the right left it 711 pt wide (80 pt squares).
        let side = a.board.width().min(a.board.height());
        assert_eq!(side, 834.0 - 2.0 * GAP * TABLET_SCALE);
        assert!(a.board.width() > a.board.height(), "{a:?}");
        // The toolbar's grid under the HUD in the column, the HUD's content above it.
        assert_eq!(a.toolbar.max.x, a.hud.max.x);
        assert!(a.hud_content[0].max.y <= a.toolbar.min.y);
        assert!(a.hud_content[0].height() >= 600.0, "{a:?}");
        // Face to face the column holds both HUDs: the toolbar stays on the right; so it does
        // on a phone lying down, too short for both.
        assert!(!areas(size, TABLET_SCALE, &none, true).toolbar_grid);
        assert!(!areas(Vec2::new(844.0, 390.0), 1.0, &none, false).toolbar_grid);
    }

    #[test]
    fn a_tall_phone_puts_the_cards_around_a_low_board() {
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..SafeArea::default()
        };
        let none = SafeArea::default();
        for (size, safe) in [
            (Vec2::new(390.0, 844.0), notch),
            (Vec2::new(430.0, 932.0), notch),
            (Vec2::new(540.0, 960.0), none),
            (Vec2::new(540.0, 1170.0), none),
        ] {
            let a = areas(size, 1.0, &safe, false);
            let at = format!("{size}: {a:?}");
            assert!(a.tall && !a.landscape, "{at}");
            // The opponent's card right above the board, the player's right below it, the
            // strip under that and the toolbar under the strip.
            let [far, near] = a.cards;
            assert_eq!(far.max.y, a.board.min.y, "{at}");
            assert_eq!(near.min.y, a.board.max.y, "{at}");
            assert_eq!(a.strip.min.y, near.max.y, "{at}");
            assert_eq!(a.strip.max.y, a.toolbar.min.y, "{at}");
            // The HUD's content right above the opponent's card (the spare height above it).
            assert_eq!(a.hud_content[0].max.y, far.min.y, "{at}");
            assert!(a.hud_content[0].min.y >= safe.top, "{at}");
            assert!(near.height() >= 46.0 && a.strip.height() >= TOUCH, "{at}");
            // The board is as wide as the screen (inside the safe area) and square: no
            // smaller than the usual layout's, whose band is the width at most.
            assert_eq!(a.board.width(), size.x - safe.left - safe.right, "{at}");
            assert_eq!(a.board.height(), a.board.width(), "{at}");
            // The toast lies clear of the player's card, the board and the strip: in the
            // spare height at the top, or over the opponent's card.
            for (what, rect) in [("card", near), ("board", a.board), ("strip", a.strip)] {
                assert!(!overlap(a.toast, rect), "the toast covers the {what}: {at}");
            }
            assert!(
                a.toast.min.y >= safe.top && a.toast.max.y <= far.max.y,
                "{at}"
            );
            assert!(a.toast.height() >= TOAST_HEIGHT, "{at}");
            // The move list (the HUD hides) leaves most of the board's square in view above
            // it.
            assert!(
                a.board_with_sheet.height() >= 0.75 * a.board.height(),
                "{at}"
            );
            assert_eq!(a.board_with_sheet.min.y, safe.top, "{at}");
        }
        // On the tallest of them the board sits lower than the usual layout's, centred in
        // the band between a HUD of HUD_HEIGHT and the toolbar, put it.
        let a = areas(Vec2::new(540.0, 1170.0), 1.0, &none, false);
        let usual_centre = (HUD_HEIGHT + 1170.0 - TOOLBAR_HEIGHT) / 2.0;
        assert!(a.board.center().y > usual_centre + 40.0, "{a:?}");
        // Not where the board would shrink: a small phone, large text, tablets, lying down,
        // face to face.
        let small = [
            (Vec2::new(360.0, 640.0), 1.0, false),
            (Vec2::new(390.0, 844.0), 1.4, false),
            (Vec2::new(390.0, 844.0), 1.0, true),
            (Vec2::new(834.0, 1194.0), TABLET_SCALE, false),
            (Vec2::new(844.0, 390.0), 1.0, false),
        ];
        for (size, scale, table) in small {
            let a = areas(size, scale, &notch, table);
            assert!(!a.tall, "{size} at {scale}, table {table}");
            assert_eq!(a.cards, [Rect::default(); 2]);
        }
    }

    #[test]
    fn tablets_draw_the_ui_larger() {
        assert_eq!(device_scale(Vec2::new(390.0, 844.0)), 1.0);
        assert_eq!(device_scale(Vec2::new(844.0, 390.0)), 1.0);
        assert_eq!(device_scale(Vec2::new(834.0, 1194.0)), TABLET_SCALE);
        assert_eq!(device_scale(Vec2::new(1194.0, 834.0)), TABLET_SCALE);
    }
}
