//! The least the app's Bevy can be (#68, docs/web.md "The floor"): Bevy's plugins as the app
//! lists them (`app::plugins::BevyPlugins`), one lit 3D scene (a board, a disc, a light, a
//! camera) and a line of UI text, nothing of Montello's own. Built for the browser and loaded as
//! the phone, it says what a page holds and how long it takes to draw before the app adds
//! anything: the floor under the memory and start-up budgets. With `?ui` in the page's address
//! (natively: the argument `ui`) Bevy's PBR plugin is left out and the page draws the text alone
//! (the plugin's code stays in the module), the floor of a Bevy page with no 3D at all.
//!
//!     web/floor/build.sh DIR      # the shipped build's profile and flags, and the page

use bevy::prelude::*;
use montello::app::plugins::{BevyPlugins, ui_images};

fn main() {
    let window = Window {
        title: "floor".into(),
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        canvas: Some("#montello".into()),
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        fit_canvas_to_parent: true,
        ..default()
    };
    let plugins = BevyPlugins.set(WindowPlugin {
        primary_window: Some(window),
        ..default()
    });
    let mut app = App::new();
    if text_alone() {
        app.add_plugins(plugins.disable::<bevy::pbr::PbrPlugin>())
            .add_systems(Startup, |mut commands: Commands| {
                commands.spawn(Camera2d);
            });
    } else {
        app.add_plugins((plugins, MeshPickingPlugin))
            .add_systems(Startup, scene);
    }
    ui_images(&mut app);
    // The app's font where Bevy's default goes, as the app installs it (src/lib.rs).
    let font = Font::from_bytes(montello::prefs::i18n::UI_FONT.to_vec());
    app.world_mut()
        .resource_mut::<Assets<Font>>()
        .insert(AssetId::default(), font)
        .expect("the font's place");
    app.add_systems(Startup, text).run();
}

/// `?ui` in the page's address, or the argument `ui`.
fn text_alone() -> bool {
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    let alone = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.contains("ui"));
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    let alone = std::env::args().skip(1).any(|a| a == "ui");
    alone
}

fn scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // The app's display transform: the browser build has no tonemapping tables (Cargo.toml).
    commands.spawn((
        Camera3d::default(),
        montello::platform::display_transform(),
        Transform::from_xyz(0.0, 14.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight::default(),
        Transform::from_xyz(2.0, 8.0, 3.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(8.0, 0.2, 8.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.1, 0.45, 0.25))),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cylinder::new(0.45, 0.15))),
        MeshMaterial3d(materials.add(Color::srgb(0.05, 0.05, 0.05))),
        Transform::from_xyz(0.5, 0.2, 0.5),
    ));
}

fn text(mut commands: Commands) {
    commands.spawn((
        Text::new("Black to move"),
        Node {
            position_type: PositionType::Absolute,
            top: px(24),
            left: px(24),
            ..default()
        },
    ));
}
