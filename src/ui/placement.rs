//! The one place the running app applies [`layout::areas`]: [`measure_screen`] works the
//! screen's areas out whenever what they depend on changes (the window's size, the UI's scale,
//! the safe area, table mode) and keeps them in [`Placement`]. The panels and the toolbar
//! (`screens::follow_orientation`), the HUD's rows (`screens::hud`) and the board's camera
//! read them from there, so they always agree on one layout.

use crate::AppSystems;
use crate::platform::SafeArea;
use crate::prefs::settings::TableMode;
use crate::ui::layout::{self, Areas};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(crate) fn plugin(app: &mut App) {
    // After the game's own updates (table mode may change there), before anything is drawn
    // from the areas; the UI's scale follows the settings in PreUpdate.
    app.init_resource::<Placement>().add_systems(
        Update,
        measure_screen
            .after(AppSystems::Ai)
            .before(AppSystems::View),
    );
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

/// Works the areas out for the primary window; [`Placement`] changes only when they do.
pub fn measure_screen(
    windows: Query<&Window, With<PrimaryWindow>>,
    ui_scale: Res<UiScale>,
    safe: Res<SafeArea>,
    table: Res<TableMode>,
    mut placement: ResMut<Placement>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    placement.set_if_neq(Placement(Some(Screen::new(
        size, ui_scale.0, &safe, table.0,
    ))));
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
}
