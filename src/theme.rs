//! Colours and sizes shared by the board and the UI, and the four themes.
//!
//! A theme is a [`Palette`]. The board's materials live in [`BoardMaterials`] and UI nodes carry
//! a [`Paint`] role, so choosing a theme recolours everything in place: no entity is rebuilt.
//! The unit tests check WCAG AA contrast for the text of every theme, and that the
//! high-contrast theme tells black discs, white discs and the felt apart in greyscale.

use crate::platform::{SafeArea, SystemFontScale};
use crate::settings::{Settings, TextSize, ThemeName};
use crate::widgets::Selected;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Palette::CLASSIC.background))
        .insert_resource(Palette::CLASSIC)
        .add_systems(PreStartup, create_board_materials)
        .add_systems(PreUpdate, follow_settings)
        .add_systems(
            PostUpdate,
            (recolour_board, paint_ui).before(bevy::ui::UiSystems::Prepare),
        );
}

/// Every colour of a theme.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Behind the board.
    pub background: Color,
    /// The board's frame.
    pub frame: Color,
    /// The playing surface.
    pub felt: Color,
    /// Grid lines and star points.
    pub grid: Color,
    /// Black discs.
    pub disc_black: Color,
    /// White discs.
    pub disc_white: Color,
    /// Legal-move dots.
    pub legal: Color,
    /// The last-move dot (a shape as well as a colour).
    pub last_move: Color,
    /// Hint rings and the AI's thinking bar.
    pub hint: Color,
    /// A refused tap's flash.
    pub refused: Color,
    /// Panels and bars.
    pub panel: Color,
    /// Buttons.
    pub button: Color,
    /// A pressed button.
    pub button_pressed: Color,
    /// The chosen one of several choices.
    pub button_selected: Color,
    /// Text.
    pub text: Color,
    /// Secondary text.
    pub text_dim: Color,
    /// Error text.
    pub text_error: Color,
    /// Coordinates on the frame.
    pub coordinates: Color,
}

impl Palette {
    /// Green felt in a wooden frame.
    pub const CLASSIC: Palette = Palette {
        background: Color::srgb(0.09, 0.11, 0.10),
        frame: Color::srgb(0.20, 0.11, 0.05),
        felt: Color::srgb(0.04, 0.35, 0.15),
        grid: Color::srgb(0.01, 0.12, 0.05),
        disc_black: Color::srgb(0.03, 0.03, 0.035),
        disc_white: Color::srgb(0.93, 0.93, 0.90),
        legal: Color::srgba(1.0, 1.0, 1.0, 0.9),
        last_move: Color::srgb(0.90, 0.18, 0.12),
        hint: Color::srgb(0.60, 0.88, 1.0),
        refused: Color::srgba(0.95, 0.15, 0.10, 0.55),
        panel: Color::srgba(0.05, 0.06, 0.06, 0.92),
        button: Color::srgb(0.20, 0.24, 0.22),
        button_pressed: Color::srgb(0.26, 0.42, 0.30),
        button_selected: Color::srgb(0.12, 0.45, 0.26),
        text: Color::srgb(0.94, 0.95, 0.93),
        text_dim: Color::srgb(0.65, 0.68, 0.66),
        text_error: Color::srgb(1.0, 0.55, 0.45),
        coordinates: Color::srgb(0.94, 0.88, 0.76),
    };

    /// A wooden board with dark lines, like a club's set: walnut brown, dark enough for the
    /// white discs to stand out and light enough for the black ones.
    pub const WOOD: Palette = Palette {
        background: Color::srgb(0.13, 0.10, 0.08),
        frame: Color::srgb(0.30, 0.17, 0.08),
        felt: Color::srgb(0.41, 0.28, 0.16),
        grid: Color::srgb(0.28, 0.17, 0.08),
        disc_black: Color::srgb(0.03, 0.03, 0.035),
        disc_white: Color::srgb(0.95, 0.94, 0.90),
        legal: Color::srgba(1.0, 1.0, 1.0, 0.95),
        last_move: Color::srgb(0.85, 0.12, 0.10),
        hint: Color::srgb(0.80, 0.95, 1.0),
        refused: Color::srgba(0.90, 0.10, 0.05, 0.60),
        panel: Color::srgba(0.16, 0.11, 0.07, 0.94),
        button: Color::srgb(0.33, 0.23, 0.15),
        button_pressed: Color::srgb(0.55, 0.38, 0.20),
        button_selected: Color::srgb(0.52, 0.30, 0.10),
        text: Color::srgb(0.97, 0.93, 0.86),
        text_dim: Color::srgb(0.78, 0.70, 0.60),
        text_error: Color::srgb(1.0, 0.62, 0.50),
        coordinates: Color::srgb(0.97, 0.90, 0.78),
    };

    /// A dim board for playing at night: little light, no glare.
    pub const DARK: Palette = Palette {
        background: Color::srgb(0.02, 0.02, 0.03),
        frame: Color::srgb(0.09, 0.09, 0.11),
        felt: Color::srgb(0.12, 0.29, 0.27),
        grid: Color::srgb(0.02, 0.07, 0.07),
        disc_black: Color::srgb(0.015, 0.015, 0.02),
        disc_white: Color::srgb(0.78, 0.79, 0.80),
        legal: Color::srgba(0.85, 0.95, 0.92, 0.9),
        last_move: Color::srgb(0.80, 0.15, 0.10),
        hint: Color::srgb(0.62, 0.85, 1.0),
        refused: Color::srgba(0.95, 0.25, 0.20, 0.50),
        panel: Color::srgba(0.03, 0.03, 0.04, 0.95),
        button: Color::srgb(0.13, 0.14, 0.16),
        button_pressed: Color::srgb(0.22, 0.34, 0.36),
        button_selected: Color::srgb(0.12, 0.32, 0.30),
        text: Color::srgb(0.86, 0.87, 0.88),
        text_dim: Color::srgb(0.60, 0.62, 0.64),
        text_error: Color::srgb(1.0, 0.55, 0.48),
        coordinates: Color::srgb(0.70, 0.72, 0.74),
    };

    /// High contrast, readable in greyscale and for colour-blind players: a dark grey surface
    /// that pure black and pure white discs stand out from equally on screen, black lines,
    /// white legal dots, a red-orange last-move dot and yellow hint rings, white text on black.
    pub const CONTRAST: Palette = Palette {
        background: Color::srgb(0.0, 0.0, 0.0),
        frame: Color::srgb(0.0, 0.0, 0.0),
        felt: Color::srgb(0.25, 0.28, 0.31),
        grid: Color::srgb(0.0, 0.0, 0.0),
        disc_black: Color::srgb(0.0, 0.0, 0.0),
        disc_white: Color::srgb(1.0, 1.0, 1.0),
        legal: Color::srgb(1.0, 1.0, 1.0),
        last_move: Color::srgb(0.85, 0.25, 0.0),
        hint: Color::srgb(1.0, 0.92, 0.0),
        refused: Color::srgba(1.0, 0.0, 0.0, 0.70),
        panel: Color::srgba(0.0, 0.0, 0.0, 0.97),
        button: Color::srgb(0.16, 0.16, 0.16),
        button_pressed: Color::srgb(0.45, 0.45, 0.45),
        button_selected: Color::srgb(0.0, 0.30, 0.62),
        text: Color::srgb(1.0, 1.0, 1.0),
        text_dim: Color::srgb(0.85, 0.85, 0.85),
        text_error: Color::srgb(1.0, 0.70, 0.60),
        coordinates: Color::srgb(1.0, 1.0, 1.0),
    };

    /// The palette of a theme.
    pub const fn of(theme: ThemeName) -> Palette {
        match theme {
            ThemeName::Classic => Palette::CLASSIC,
            ThemeName::Wood => Palette::WOOD,
            ThemeName::Dark => Palette::DARK,
            ThemeName::Contrast => Palette::CONTRAST,
        }
    }

    /// The colour a UI role is painted in.
    pub fn paint(&self, paint: Paint, selected: bool, pressed: bool) -> Color {
        match paint {
            Paint::Panel => self.panel,
            Paint::Button if pressed => self.button_pressed,
            Paint::Button if selected => self.button_selected,
            Paint::Button => self.button,
            Paint::Text => self.text,
            Paint::TextDim => self.text_dim,
            Paint::Hint => self.hint,
            Paint::Coordinates => self.coordinates,
        }
    }
}

/// The colour role of a UI node: its text colour (text roles) or its background (the others)
/// follows the theme.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A panel or bar background.
    Panel,
    /// A button: its own colour, pressed and selected colours.
    Button,
    /// Body text.
    Text,
    /// Secondary text.
    TextDim,
    /// The accent of progress bars and hints.
    Hint,
    /// The coordinates along the frame.
    Coordinates,
}

impl Paint {
    /// Whether the role colours text (else a background).
    pub fn is_text(self) -> bool {
        matches!(self, Paint::Text | Paint::TextDim | Paint::Coordinates)
    }
}

/// The board's materials, one per role, recoloured when the theme changes.
#[derive(Resource, Debug, Clone)]
pub struct BoardMaterials {
    /// The frame.
    pub frame: Handle<StandardMaterial>,
    /// The playing surface.
    pub felt: Handle<StandardMaterial>,
    /// Grid lines and star points.
    pub grid: Handle<StandardMaterial>,
    /// Black disc halves.
    pub disc_black: Handle<StandardMaterial>,
    /// White disc halves.
    pub disc_white: Handle<StandardMaterial>,
    /// Legal-move dots.
    pub legal: Handle<StandardMaterial>,
    /// The last-move dot.
    pub last_move: Handle<StandardMaterial>,
    /// Hint rings.
    pub hint: Handle<StandardMaterial>,
}

/// A matte material, for the felt and the grid.
fn matte(color: Color) -> StandardMaterial {
    StandardMaterial {
        base_color: color,
        perceptual_roughness: 0.95,
        reflectance: 0.1,
        ..default()
    }
}

/// How much brighter than its palette colour a light mark is drawn. The lit board is brighter
/// on screen than its palette colours (the lights add up past 1 before tone mapping), while
/// an unlit mark is tone-mapped from its own colour: a white mark came out light grey (197 of
/// 255) and too faint against the lit felt.
pub const MARK_GAIN: f32 = 2.0;

/// A light mark's colour for its unlit material: [`MARK_GAIN`] times brighter, same alpha.
pub fn glowing(color: Color) -> Color {
    let c = color.to_linear();
    Color::LinearRgba(LinearRgba::new(
        c.red * MARK_GAIN,
        c.green * MARK_GAIN,
        c.blue * MARK_GAIN,
        c.alpha,
    ))
}

/// An unlit material (markers read the same under any light), blended if translucent.
pub fn unlit(color: Color) -> StandardMaterial {
    StandardMaterial {
        base_color: color,
        unlit: true,
        alpha_mode: if color.alpha() < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        ..default()
    }
}

fn create_board_materials(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    let p = Palette::CLASSIC;
    let shiny = |color: Color, roughness: f32| StandardMaterial {
        base_color: color,
        perceptual_roughness: roughness,
        ..default()
    };
    commands.insert_resource(BoardMaterials {
        frame: materials.add(shiny(p.frame, 0.6)),
        felt: materials.add(matte(p.felt)),
        grid: materials.add(matte(p.grid)),
        // Black discs reflect little: with the default reflectance the lights' highlight
        // turned them mid-grey on screen (1.5:1 against the felt).
        disc_black: materials.add(StandardMaterial {
            reflectance: 0.12,
            ..shiny(p.disc_black, 0.5)
        }),
        disc_white: materials.add(shiny(p.disc_white, 0.45)),
        legal: materials.add(unlit(glowing(p.legal))),
        last_move: materials.add(unlit(p.last_move)),
        hint: materials.add(unlit(glowing(p.hint))),
    });
}

/// The largest UI scale: the layout and the camera framing are tested up to it.
pub const MAX_UI_SCALE: f32 = 1.4;

/// The UI's scale: the in-app text size times the system's font scale, never smaller than
/// the text size alone (a small system font must not shrink the touch targets) and at most
/// [`MAX_UI_SCALE`].
pub fn ui_scale_for(text_size: TextSize, system_font: f32) -> f32 {
    let system_font = if system_font.is_finite() {
        system_font.max(1.0)
    } else {
        1.0
    };
    (text_size.scale() * system_font).min(MAX_UI_SCALE)
}

fn follow_settings(
    system_font: Res<SystemFontScale>,
    settings: Res<Settings>,
    mut palette: ResMut<Palette>,
    mut ui_scale: ResMut<UiScale>,
) {
    let next = Palette::of(settings.theme);
    if *palette != next {
        *palette = next;
    }
    let scale = ui_scale_for(settings.text_size, system_font.0);
    if ui_scale.0 != scale {
        ui_scale.0 = scale;
    }
}

fn recolour_board(
    palette: Res<Palette>,
    board: Option<Res<BoardMaterials>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut clear: ResMut<ClearColor>,
) {
    let Some(board) = board else {
        return;
    };
    if !palette.is_changed() {
        return;
    }
    clear.0 = palette.background;
    for (handle, color) in [
        (&board.frame, palette.frame),
        (&board.felt, palette.felt),
        (&board.grid, palette.grid),
        (&board.disc_black, palette.disc_black),
        (&board.disc_white, palette.disc_white),
        (&board.legal, glowing(palette.legal)),
        (&board.last_move, palette.last_move),
        (&board.hint, glowing(palette.hint)),
    ] {
        if let Some(mut material) = materials.get_mut(handle) {
            material.base_color = color;
        }
    }
}

/// Paints new UI nodes, pressed and re-selected buttons, and everything when the theme
/// changes. A pressed button darkens: feedback that works for a finger as well as a mouse.
#[allow(clippy::type_complexity)]
fn paint_ui(
    palette: Res<Palette>,
    mut nodes: Query<(
        Ref<Paint>,
        Option<&mut BackgroundColor>,
        Option<&mut TextColor>,
        Option<Ref<Selected>>,
        Option<Ref<Interaction>>,
    )>,
) {
    let all = palette.is_changed();
    for (paint, background, text, selected, interaction) in &mut nodes {
        let changed = all
            || paint.is_changed()
            || selected.as_ref().is_some_and(|s| s.is_changed())
            || interaction.as_ref().is_some_and(|i| i.is_changed());
        if !changed {
            continue;
        }
        let is_selected = selected.is_some_and(|s| s.0);
        let pressed = interaction.is_some_and(|i| *i == Interaction::Pressed);
        let color = palette.paint(*paint, is_selected, pressed);
        if paint.is_text() {
            if let Some(mut text) = text
                && text.0 != color
            {
                text.0 = color;
            }
        } else if let Some(mut background) = background
            && background.0 != color
        {
            background.0 = color;
        }
    }
}

/// The smallest touch target: about 9 mm on a phone (logical pixels are ~160 per inch).
pub const TOUCH: f32 = 56.0;
/// Body text size.
pub const FONT: f32 = 20.0;

/// The height the HUD takes at the top of the screen; the camera frames the board below it.
pub const HUD_HEIGHT: f32 = 150.0;
/// The height of the toolbar at the bottom of the screen.
pub const TOOLBAR_HEIGHT: f32 = 84.0;
/// In landscape the HUD is a column on the left this wide...
pub const HUD_WIDTH: f32 = 270.0;
/// ...and the toolbar a column on the right this wide.
pub const TOOLBAR_WIDTH: f32 = 130.0;

/// Whether a window this size (in UI units) gets the side-by-side (landscape) layout: the
/// layout that leaves the board the larger square.
pub fn is_landscape(size: Vec2) -> bool {
    let stacked = size.x.min(size.y - HUD_HEIGHT - TOOLBAR_HEIGHT);
    let side_by_side = (size.x - HUD_WIDTH - TOOLBAR_WIDTH).min(size.y - 16.0);
    side_by_side > stacked
}

/// The screen space (logical pixels) the bars take: left, right, top, bottom; `size` is in
/// the UI's own units (the window's logical size divided by the `UiScale`). In table mode
/// (`table`) upright, the bottom player's HUD sits above the toolbar; lying down, both HUDs
/// share the left column.
pub fn bar_insets(size: Vec2, table: bool) -> (f32, f32, f32, f32) {
    if is_landscape(size) {
        (HUD_WIDTH, TOOLBAR_WIDTH, 8.0, 8.0)
    } else if table {
        (0.0, 0.0, HUD_HEIGHT, TOOLBAR_HEIGHT + HUD_HEIGHT)
    } else {
        (0.0, 0.0, HUD_HEIGHT, TOOLBAR_HEIGHT)
    }
}

/// The screen space (logical pixels: left, right, top, bottom) the bars and the system's
/// margins take together, for a window of `size` logical pixels whose UI is drawn `scale`
/// times larger and whose system keeps the `safe` margins: the bars sit inside the safe area.
pub fn scaled_bar_insets(
    size: Vec2,
    scale: f32,
    safe: &SafeArea,
    table: bool,
) -> (f32, f32, f32, f32) {
    let (l, r, t, b) = bar_insets(safe.inner(size) / scale, table);
    (
        l * scale + safe.left,
        r * scale + safe.right,
        t * scale + safe.top,
        b * scale + safe.bottom,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG 2 relative luminance of an opaque colour.
    fn luminance(color: Color) -> f32 {
        let c = color.to_linear();
        0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue
    }

    /// WCAG 2 contrast ratio, 1..21.
    fn contrast(a: Color, b: Color) -> f32 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// A translucent colour as seen over `under`.
    fn over(top: Color, under: Color) -> Color {
        let (t, u) = (top.to_srgba(), under.to_srgba());
        let a = t.alpha;
        Color::srgb(
            t.red * a + u.red * (1.0 - a),
            t.green * a + u.green * (1.0 - a),
            t.blue * a + u.blue * (1.0 - a),
        )
    }

    #[test]
    fn every_theme_meets_wcag_aa_for_text() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let panel = over(p.panel, p.background);
            for (what, fg, bg) in [
                ("text on panel", p.text, panel),
                ("dim text on panel", p.text_dim, panel),
                ("error text on panel", p.text_error, panel),
                ("text on button", p.text, p.button),
                ("text on pressed button", p.text, p.button_pressed),
                ("text on selected button", p.text, p.button_selected),
                ("coordinates on frame", p.coordinates, p.frame),
            ] {
                let ratio = contrast(fg, bg);
                assert!(
                    ratio >= 4.5,
                    "{theme:?}: {what} is {ratio:.2}:1, under 4.5:1"
                );
            }
        }
    }

    #[test]
    fn every_theme_shows_discs_and_marks_apart() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let discs = contrast(p.disc_black, p.disc_white);
            assert!(discs >= 7.0, "{theme:?}: discs only {discs:.2}:1 apart");
            // The last-move dot lies on a disc of either colour (WCAG 1.4.11: 3:1 for marks).
            for disc in [p.disc_black, p.disc_white] {
                let ratio = contrast(p.last_move, disc);
                assert!(
                    ratio >= 2.9,
                    "{theme:?}: last-move dot {ratio:.2}:1 on a disc"
                );
            }
        }
    }

    /// The unlit marks against the felt's palette colour. The felt and the discs are lit 3D
    /// surfaces whose colours on screen are not their palette colours, so the discs against
    /// the felt, and the marks against the lit felt, are measured on screenshots of every
    /// theme by tools/contrast-check.py (run by .ci/smoke.sh).
    #[test]
    fn marks_stand_out_from_the_felt_in_every_theme() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            for (what, color) in [
                ("legal dots", over(p.legal, p.felt)),
                ("hint rings", p.hint),
            ] {
                let ratio = contrast(color, p.felt);
                assert!(ratio >= 3.0, "{theme:?}: {what} {ratio:.2}:1 on the felt");
            }
            // The ring around the count of the side to move, on the HUD's bar.
            let ring = contrast(p.hint, over(p.panel, p.background));
            assert!(
                ring >= 3.0,
                "{theme:?}: side-to-move ring {ring:.2}:1 on the bar"
            );
            // Light dots, so they are not taken for the dark star points.
            let dot = over(p.legal, p.felt);
            assert!(
                luminance(dot) > luminance(p.felt) && luminance(p.grid) < luminance(p.felt),
                "{theme:?}: legal dots look like star points"
            );
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
            for scale in [1.0, 1.2, 1.4] {
                let portrait = Vec2::new(w, h) / scale;
                let landscape = Vec2::new(h, w) / scale;
                assert!(!is_landscape(portrait), "{w}x{h} at {scale}");
                assert!(is_landscape(landscape), "{h}x{w} at {scale}");
            }
        }
        // A square window keeps the bars above and below.
        assert!(!is_landscape(Vec2::new(1000.0, 1000.0)));
        let none = SafeArea::default();
        let (l, r, t, b) = scaled_bar_insets(Vec2::new(960.0, 540.0), 1.4, &none, false);
        assert_eq!((l, r), (HUD_WIDTH * 1.4, TOOLBAR_WIDTH * 1.4));
        assert!(t < 20.0 && b < 20.0);
        // A phone's notch and home indicator push the bars inwards.
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..none
        };
        let (_, _, t, b) = scaled_bar_insets(Vec2::new(390.0, 844.0), 1.0, &notch, false);
        assert_eq!((t, b), (HUD_HEIGHT + 47.0, TOOLBAR_HEIGHT + 34.0));
        let sideways = SafeArea {
            left: 47.0,
            right: 47.0,
            bottom: 21.0,
            ..none
        };
        let (l, r, _, b) = scaled_bar_insets(Vec2::new(844.0, 390.0), 1.0, &sideways, false);
        assert_eq!((l, r), (HUD_WIDTH + 47.0, TOOLBAR_WIDTH + 47.0));
        assert_eq!(b, 8.0 + 21.0);
        // Table mode upright: the bottom player's HUD above the toolbar; lying down, the same
        // columns as always.
        let (_, _, t, b) = scaled_bar_insets(Vec2::new(390.0, 844.0), 1.0, &notch, true);
        assert_eq!(
            (t, b),
            (HUD_HEIGHT + 47.0, TOOLBAR_HEIGHT + HUD_HEIGHT + 34.0)
        );
        assert_eq!(
            scaled_bar_insets(Vec2::new(844.0, 390.0), 1.0, &sideways, true),
            scaled_bar_insets(Vec2::new(844.0, 390.0), 1.0, &sideways, false)
        );
    }

    #[test]
    fn the_system_font_size_scales_the_ui_within_the_tested_range() {
        assert_eq!(ui_scale_for(TextSize::Normal, 1.0), 1.0);
        assert_eq!(ui_scale_for(TextSize::Normal, 1.3), 1.3);
        assert_eq!(ui_scale_for(TextSize::Large, 1.15), 1.2 * 1.15);
        // A small system font keeps the touch targets; a huge one stops at the tested size.
        assert_eq!(ui_scale_for(TextSize::Large, 0.85), 1.2);
        assert_eq!(ui_scale_for(TextSize::Normal, 53.0 / 17.0), MAX_UI_SCALE);
        assert_eq!(ui_scale_for(TextSize::Largest, 2.0), MAX_UI_SCALE);
        assert_eq!(ui_scale_for(TextSize::Normal, f32::NAN), 1.0);
        for size in TextSize::ALL {
            assert!(size.scale() <= MAX_UI_SCALE, "{size:?}");
        }
    }

    #[test]
    fn buttons_change_colour_when_pressed_or_selected() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let plain = p.paint(Paint::Button, false, false);
            assert_ne!(plain, p.paint(Paint::Button, true, false), "{theme:?}");
            assert_ne!(plain, p.paint(Paint::Button, false, true), "{theme:?}");
        }
    }
}
