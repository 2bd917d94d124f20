//! Colours and sizes shared by the board and the UI, and the four themes.
//!
//! A theme is a [`Palette`]. The board's materials live in [`BoardMaterials`] and UI nodes carry
//! a [`Paint`] role, so choosing a theme recolours everything in place: no entity is rebuilt.
//! The unit tests check WCAG AA contrast for the text of every theme, and that the
//! high-contrast theme tells black discs, white discs and the felt apart in greyscale.

use crate::platform::SystemFontScale;
use crate::prefs::choices::{TextSize, ThemeName};
use crate::prefs::settings::Settings;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
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
    /// A ring at the edge of a black disc's face: the disc's own colour in most themes; in
    /// High contrast a light ring, so black discs stand out from its dark felt.
    pub disc_rim: Color,
    /// Legal-move dots.
    pub legal: Color,
    /// The last-move dot (a shape as well as a colour).
    pub last_move: Color,
    /// Hint rings and the AI's thinking bar.
    pub hint: Color,
    /// A refused tap's flash.
    pub refused: Color,
    /// The bars (opaque: nothing shows through the text).
    pub panel: Color,
    /// A panel's card (new game, the menu, the move list): lighter than the bars and the
    /// background (at least 1.2:1), so it reads as a surface of its own.
    pub card: Color,
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
        disc_rim: Color::srgb(0.03, 0.03, 0.035),
        legal: Color::srgba(1.0, 1.0, 1.0, 0.9),
        last_move: Color::srgb(0.90, 0.18, 0.12),
        hint: Color::srgb(0.60, 0.88, 1.0),
        refused: Color::srgba(0.95, 0.15, 0.10, 0.55),
        panel: Color::srgb(0.05, 0.06, 0.06),
        card: Color::srgb(0.16, 0.19, 0.17),
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
        disc_rim: Color::srgb(0.03, 0.03, 0.035),
        legal: Color::srgba(1.0, 1.0, 1.0, 0.95),
        last_move: Color::srgb(0.85, 0.12, 0.10),
        hint: Color::srgb(0.80, 0.95, 1.0),
        refused: Color::srgba(0.90, 0.10, 0.05, 0.60),
        panel: Color::srgb(0.16, 0.11, 0.07),
        card: Color::srgb(0.25, 0.18, 0.12),
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
        disc_rim: Color::srgb(0.015, 0.015, 0.02),
        legal: Color::srgba(0.85, 0.95, 0.92, 0.9),
        last_move: Color::srgb(0.80, 0.15, 0.10),
        hint: Color::srgb(0.62, 0.85, 1.0),
        refused: Color::srgba(0.95, 0.25, 0.20, 0.50),
        panel: Color::srgb(0.03, 0.03, 0.04),
        card: Color::srgb(0.115, 0.12, 0.13),
        button: Color::srgb(0.19, 0.20, 0.22),
        button_pressed: Color::srgb(0.22, 0.34, 0.36),
        button_selected: Color::srgb(0.12, 0.32, 0.30),
        text: Color::srgb(0.86, 0.87, 0.88),
        text_dim: Color::srgb(0.60, 0.62, 0.64),
        text_error: Color::srgb(1.0, 0.55, 0.48),
        coordinates: Color::srgb(0.70, 0.72, 0.74),
    };

    /// High contrast, readable in greyscale and for colour-blind players: a near-black
    /// surface that pure white discs stand out from, and black discs by a white ring at their
    /// edge, light grey lines, white legal dots, a red-orange last-move dot and yellow hint
    /// rings, white text on black.
    pub const CONTRAST: Palette = Palette {
        background: Color::srgb(0.0, 0.0, 0.0),
        frame: Color::srgb(0.0, 0.0, 0.0),
        felt: Color::srgb(0.09, 0.09, 0.10),
        grid: Color::srgb(0.50, 0.50, 0.52),
        disc_black: Color::srgb(0.0, 0.0, 0.0),
        disc_white: Color::srgb(1.0, 1.0, 1.0),
        disc_rim: Color::srgb(0.95, 0.95, 0.95),
        legal: Color::srgb(1.0, 1.0, 1.0),
        last_move: Color::srgb(0.80, 0.20, 0.0),
        hint: Color::srgb(1.0, 0.92, 0.0),
        refused: Color::srgba(1.0, 0.0, 0.0, 0.70),
        panel: Color::srgb(0.0, 0.0, 0.0),
        card: Color::srgb(0.115, 0.115, 0.115),
        button: Color::srgb(0.24, 0.24, 0.24),
        button_pressed: Color::srgb(0.45, 0.45, 0.45),
        button_selected: Color::srgb(0.0, 0.30, 0.62),
        text: Color::srgb(1.0, 1.0, 1.0),
        text_dim: Color::srgb(0.85, 0.85, 0.85),
        text_error: Color::srgb(1.0, 0.70, 0.60),
        coordinates: Color::srgb(1.0, 1.0, 1.0),
    };

    /// A hint's number on its pill (ground, text): the best move's in the hint colour with
    /// dark text, the others' dark and translucent over the felt with light text.
    pub fn hint_pill(&self, best: bool) -> (Color, Color) {
        if best {
            (self.hint, Color::BLACK)
        } else {
            (Color::srgba(0.0, 0.0, 0.0, 0.72), Color::WHITE)
        }
    }

    /// The win bar's label, drawn inside the share of `on` (the leader's; Black's when even):
    /// white on Black's (a mid grey), near-black on White's (the white discs' colour); before
    /// a figure (`None`: the bar in a button's colour) the body text colour.
    pub fn win_label(&self, on: Option<montello_engine::Side>) -> Color {
        match on {
            Some(montello_engine::Side::Black) => Color::WHITE,
            Some(montello_engine::Side::White) => Color::srgb(0.06, 0.06, 0.06),
            None => self.text,
        }
    }

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
            Paint::Card => self.card,
            Paint::Button if pressed => self.button_pressed,
            Paint::Button if selected => self.button_selected,
            Paint::Button => self.button,
            Paint::Text => self.text,
            Paint::TextDim => self.text_dim,
            Paint::Hint => self.hint,
            Paint::Coordinates => self.coordinates,
            Paint::Primary if pressed => self.text_dim,
            Paint::Primary => self.hint,
            Paint::OnPrimary => self.background,
            Paint::WinBlack => WIN_BLACK,
            Paint::WinWhite => self.disc_white,
            Paint::Mark => self.text_dim,
        }
    }
}

/// Black's share of the win bar: a mid grey, not the discs' black, so that it stands out
/// from every theme's dark HUD (at least 3:1) and still from White's share (at least 3:1).
pub const WIN_BLACK: Color = Color::srgb(0.42, 0.42, 0.44);

/// A node drawn in its paint's colour at this opacity: a fade's strips, and a control that
/// can do nothing now (Undo at the first move, Hint while the AI thinks), drawn in its usual
/// shape and colours at [`DIMMED_OPACITY`] (on the button and on its texts), so it keeps its
/// place and reads as the same button, disabled.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Opacity(pub f32);

/// How opaque a control that can do nothing now is drawn.
pub const DIMMED_OPACITY: f32 = 0.4;

/// `color` drawn at `opacity`.
pub fn with_opacity(color: Color, opacity: f32) -> Color {
    color.with_alpha(color.alpha() * opacity)
}

/// Whether a choice button is the current choice (painted in the selected colour).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selected(pub bool);

/// The colour role of a UI node: its text colour (text roles) or its background (the others)
/// follows the theme.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A bar's background.
    Panel,
    /// A panel's card.
    Card,
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
    /// The one button a screen leads to (Start): the accent colour.
    Primary,
    /// The text on a [`Paint::Primary`] button.
    OnPrimary,
    /// The win bar's share of Black (a background).
    WinBlack,
    /// The win bar's share of White (a background).
    WinWhite,
    /// A neutral mark on a bar, such as the win bar's even point (a background).
    Mark,
}

impl Paint {
    /// Whether the role colours text (else a background).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Paint::Text | Paint::TextDim | Paint::Coordinates | Paint::OnPrimary
        )
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
    /// The ring at the edge of a black disc's face ([`Palette::disc_rim`]).
    pub disc_rim: Handle<StandardMaterial>,
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
        // The frame reflects little too: the coordinates are drawn on it, and with the default
        // reflectance the highlight turned even a black frame mid-grey (Dark's coordinates
        // were 2.8:1 on it).
        frame: materials.add(StandardMaterial {
            reflectance: 0.1,
            ..shiny(p.frame, 0.6)
        }),
        felt: materials.add(matte(p.felt)),
        grid: materials.add(matte(p.grid)),
        // Black discs reflect little: with the default reflectance the lights' highlight
        // turned them mid-grey on screen (1.5:1 against the felt).
        disc_black: materials.add(StandardMaterial {
            reflectance: 0.12,
            ..shiny(p.disc_black, 0.5)
        }),
        disc_white: materials.add(shiny(p.disc_white, 0.45)),
        // As the black face's (so it does not show where it has the black face's colour).
        disc_rim: materials.add(StandardMaterial {
            reflectance: 0.12,
            ..shiny(p.disc_rim, 0.5)
        }),
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
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut palette: ResMut<Palette>,
    mut ui_scale: ResMut<UiScale>,
) {
    let next = Palette::of(settings.theme);
    if *palette != next {
        *palette = next;
    }
    // Tablets draw everything larger: the same layout, read from further away.
    let device = windows.single().map_or(1.0, |w| {
        crate::ui::layout::device_scale(Vec2::new(w.width(), w.height()))
    });
    let scale = ui_scale_for(settings.text_size, system_font.0) * device;
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
        (&board.disc_rim, palette.disc_rim),
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
fn paint_ui(
    palette: Res<Palette>,
    mut nodes: Query<(
        Ref<Paint>,
        Option<&mut BackgroundColor>,
        Option<&mut TextColor>,
        Option<Ref<Selected>>,
        Option<Ref<Interaction>>,
        Option<Ref<Opacity>>,
    )>,
) {
    let all = palette.is_changed();
    for (paint, background, text, selected, interaction, opacity) in &mut nodes {
        let changed = all
            || paint.is_changed()
            || selected.as_ref().is_some_and(|s| s.is_changed())
            || interaction.as_ref().is_some_and(|i| i.is_changed())
            || opacity.as_ref().is_some_and(|o| o.is_changed());
        if !changed {
            continue;
        }
        let is_selected = selected.is_some_and(|s| s.0);
        let pressed = interaction.is_some_and(|i| *i == Interaction::Pressed);
        let color = with_opacity(
            palette.paint(*paint, is_selected, pressed),
            opacity.map_or(1.0, |o| o.0),
        );
        // A text role colours a text, or the background of a node without one (a switch's
        // knob is painted like the text on the accent colour).
        match (paint.is_text(), text, background) {
            (true, Some(mut text), _) => {
                text.set_if_neq(TextColor(color));
            }
            (_, _, Some(mut background)) => {
                background.set_if_neq(BackgroundColor(color));
            }
            _ => {}
        }
    }
}

/// The UI's type scale: every text in the app is one of these six sizes.
///
/// bevy_text rasterises each size (times the UI scale) into a glyph atlas of its own, a
/// 512x512 RGBA image (1 MiB) that it keeps for the app's life, so every size costs a MiB of
/// heap, in a browser's WebAssembly memory too, and a new atlas at its first use (#68: the app
/// had thirteen sizes in code and seventeen atlases after one game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Coordinates, the win bar's label, a toolbar button's label.
    Caption,
    /// Secondary lines: records, explanations, the move list's moves.
    Small,
    /// Body text: rows, notices, the hint pills.
    Body,
    /// Buttons, section titles, names.
    Large,
    /// A card's headline, icons, the disc counts.
    Title,
    /// A panel's title and its close glyph.
    Heading,
}

impl Type {
    /// Every step of the scale, smallest first.
    pub const ALL: [Type; 6] = [
        Type::Caption,
        Type::Small,
        Type::Body,
        Type::Large,
        Type::Title,
        Type::Heading,
    ];

    /// The size in logical pixels (points) before the UI scale.
    pub const fn points(self) -> f32 {
        match self {
            Type::Caption => 13.0,
            Type::Small => 15.0,
            Type::Body => 17.0,
            Type::Large => 20.0,
            Type::Title => 24.0,
            Type::Heading => 28.0,
        }
    }
}

/// The colour that marks a reviewed move of `class` in the move list and on the graph (the
/// same in every theme; the tests check it against each theme's surfaces), none for a best or
/// a good move. Its symbol (`?!`, `?`, `??`) says the same, so colour is never the only sign.
pub fn review_colour(class: montello_engine::search::review::Class) -> Option<Color> {
    use montello_engine::search::review::Class;
    match class {
        Class::Best | Class::Good => None,
        // Yellow, orange and red, as annotators colour them, light enough for dark surfaces.
        Class::Inaccuracy => Some(Color::srgb(0.96, 0.84, 0.35)),
        Class::Mistake => Some(Color::srgb(1.0, 0.62, 0.30)),
        Class::Blunder => Some(Color::srgb(1.0, 0.42, 0.42)),
    }
}

/// The symbol after a move of each class, as annotators write them: nothing for a best or a
/// good move.
pub fn class_symbol(class: montello_engine::search::review::Class) -> &'static str {
    use montello_engine::search::review::Class;
    match class {
        Class::Best | Class::Good => "",
        Class::Inaccuracy => "?!",
        Class::Mistake => "?",
        Class::Blunder => "??",
    }
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
    fn the_win_bar_halves_stand_out_from_the_hud_and_from_each_other() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let black = p.paint(Paint::WinBlack, false, false);
            let white = p.paint(Paint::WinWhite, false, false);
            for (what, a, b) in [
                ("Black's share on the HUD", black, p.panel),
                ("Black's share on the background", black, p.background),
                ("White's share on the HUD", white, p.panel),
                ("White's share on the background", white, p.background),
                ("the two shares", black, white),
            ] {
                let ratio = contrast(a, b);
                assert!(ratio >= 3.0, "{theme:?}: {what} at {ratio:.2}:1");
            }
            // The even point is marked in a neutral colour, not the last-move red.
            let mark = p.paint(Paint::Mark, false, false);
            assert_ne!(mark, p.last_move, "{theme:?}");
            assert!(contrast(mark, black) >= 1.5 || contrast(mark, white) >= 1.5);
        }
    }

    /// The win bar's label is readable where it is drawn (AA, 4.5:1): inside Black's share,
    /// inside White's, and on the bar before a figure (a button's colour).
    #[test]
    fn the_win_bar_label_reads_inside_the_leaders_share() {
        use montello_engine::Side;
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let black = p.paint(Paint::WinBlack, false, false);
            let white = p.paint(Paint::WinWhite, false, false);
            let neutral = p.paint(Paint::Button, false, false);
            for (what, text, ground) in [
                ("on Black's share", p.win_label(Some(Side::Black)), black),
                ("on White's share", p.win_label(Some(Side::White)), white),
                ("on the bar before a figure", p.win_label(None), neutral),
            ] {
                let ratio = contrast(text, ground);
                assert!(ratio >= 4.5, "{theme:?}: the label {what} at {ratio:.2}:1");
            }
        }
    }

    /// The review's marks (a line under a move in the list, a symbol over the graph) stand
    /// out from every surface they are drawn on, in every theme, and the three classes differ.
    #[test]
    fn the_review_marks_stand_out_in_every_theme() {
        use montello_engine::search::review::Class;
        let marks: Vec<Color> = [Class::Inaccuracy, Class::Mistake, Class::Blunder]
            .into_iter()
            .map(|c| review_colour(c).expect("a mark"))
            .collect();
        assert_eq!(review_colour(Class::Best), None);
        assert_eq!(review_colour(Class::Good), None);
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            // Under a move in the list (a line: 3:1), and as the graph's symbols on the
            // panel's card (text: 4.5:1).
            for (what, surface, least) in [
                ("a button", p.button, 3.0),
                ("a card", p.card, 4.5),
                ("a panel", p.panel, 4.5),
                ("the background", p.background, 4.5),
            ] {
                for mark in &marks {
                    let ratio = contrast(*mark, surface);
                    assert!(
                        ratio >= least,
                        "{theme:?}: {mark:?} on {what} at {ratio:.2}:1"
                    );
                }
            }
        }
        assert!(marks.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn every_theme_meets_wcag_aa_for_text() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            assert_eq!(
                p.panel.to_srgba().alpha,
                1.0,
                "{theme:?}: panels let the board show through their text"
            );
            let panel = p.panel;
            for (what, fg, bg) in [
                ("text on panel", p.text, panel),
                ("dim text on panel", p.text_dim, panel),
                ("text on a card", p.text, p.card),
                ("dim text on a card", p.text_dim, p.card),
                ("error text on panel", p.text_error, panel),
                ("text on button", p.text, p.button),
                ("text on pressed button", p.text, p.button_pressed),
                ("text on selected button", p.text, p.button_selected),
                ("coordinates on frame", p.coordinates, p.frame),
                ("text on the primary button", p.background, p.hint),
                // A notice's toast on a tall phone: its pill is a button's ground.
                ("an error's toast", p.text_error, p.button),
                // New game: a level's line in the dim colour (the chosen level's line is in
                // the text colour: dim text on the selected button is under 3:1).
                ("dim text on a button", p.text_dim, p.button),
                // A hint's number on its pill: the best move's, and the others' over the felt.
                (
                    "the best hint's number",
                    p.hint_pill(true).1,
                    p.hint_pill(true).0,
                ),
                (
                    "a hint's number",
                    p.hint_pill(false).1,
                    over(p.hint_pill(false).0, p.felt),
                ),
                (
                    "text on the pressed primary button",
                    p.background,
                    p.text_dim,
                ),
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
            // Light dots, far from the star points' colour, so they are not taken for them.
            let dot = over(p.legal, p.felt);
            let apart = contrast(dot, p.grid);
            assert!(
                luminance(dot) > luminance(p.felt) && apart >= 3.0,
                "{theme:?}: legal dots look like star points ({apart:.2}:1 from them)"
            );
            // A black disc's edge ring is its own colour, or stands out from the felt.
            assert!(
                p.disc_rim == p.disc_black || contrast(p.disc_rim, p.felt) >= 4.5,
                "{theme:?}: a black disc's rim"
            );
        }
    }

    /// A scale, not a list of sizes: six steps (an atlas each), each step a size the eye
    /// tells from its neighbour (at least a tenth larger), none under the 13 points the
    /// coordinates need to be read (Apple's smallest caption is 11, its footnote 13).
    #[test]
    fn the_type_scale_has_six_distinct_readable_steps() {
        assert_eq!(Type::ALL.len(), 6);
        assert!(Type::ALL[0].points() >= 13.0);
        for pair in Type::ALL.windows(2) {
            let (small, large) = (pair[0].points(), pair[1].points());
            assert!(
                large >= small * 1.1,
                "{:?} {small} then {:?} {large}",
                pair[0],
                pair[1]
            );
        }
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
    fn panels_are_cards_apart_from_the_bars_and_the_background() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            let card = p.paint(Paint::Card, false, false);
            for (what, under) in [("the background", p.background), ("the bars", p.panel)] {
                let ratio = contrast(card, under);
                assert!(
                    ratio >= 1.2 && luminance(card) > luminance(under),
                    "{theme:?}: a card on {what} at {ratio:.2}:1"
                );
            }
            // Its buttons still stand out from it.
            let ratio = contrast(p.button, card);
            assert!(
                ratio >= 1.15,
                "{theme:?}: buttons on a card at {ratio:.2}:1"
            );
        }
    }

    #[test]
    fn a_disabled_control_is_the_same_control_at_forty_percent() {
        for theme in ThemeName::ALL {
            let p = Palette::of(theme);
            for paint in [Paint::Button, Paint::Text, Paint::TextDim] {
                let full = p.paint(paint, false, false);
                let dimmed = with_opacity(full, DIMMED_OPACITY);
                assert_eq!(dimmed.with_alpha(full.alpha()), full, "{theme:?} {paint:?}");
                assert!((dimmed.alpha() - 0.4 * full.alpha()).abs() < 1e-6);
                assert_eq!(with_opacity(full, 1.0), full);
            }
            // Its label, over its dimmed frame on the bar, reads fainter than an enabled
            // one's but still shows (the label is the same: it reads as disabled, not gone).
            let bar = p.panel;
            let frame = over(with_opacity(p.button, DIMMED_OPACITY), bar);
            let enabled = contrast(p.text, p.button);
            let disabled = contrast(over(with_opacity(p.text, DIMMED_OPACITY), frame), frame);
            assert!(
                disabled < enabled / 2.0 && disabled >= 1.8,
                "{theme:?}: a disabled label at {disabled:.2}:1 (enabled {enabled:.2}:1)"
            );
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
