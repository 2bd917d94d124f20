//! Montello: the Bevy app. A touch-driven 3D Othello board against a Monte-Carlo Tree Search
//! opponent; every rule comes from `montello-engine`.
//!
//! The game logic ([`LogicPlugins`]: the authoritative game, the AI task, settings) runs
//! without any window or GPU, so tests drive it headlessly with the same messages a tap
//! sends. [`AppPlugin`] adds the window, the 3D board, the UI and the platform glue on top.
//!
//! # Layers
//!
//! Each folder is a layer, one plugin per file, and a layer uses only the layers below it
//! (tests/layers.rs checks every `crate::` path against this table, so a new cycle fails):
//!
//! | layer | folder | holds | uses |
//! |---|---|---|---|
//! | 6 | [`app`] | launch options, frame pacing, the GPU API record, screen-reader nodes, clipboard, dev tools | all below |
//! | 5 | [`board`] | the 3D board, camera, discs, markers, labels, the discs' sounds | ui, persist, game, prefs, platform |
//! | 4 | [`ui`] | theme, widgets, layout, the HUD, toolbar and panels | persist, game, prefs, platform |
//! | 3 | [`persist`] | save files, atomic writes, when the game and settings are saved and restored | game, prefs, platform |
//! | 2 | [`game`] | the game and its flow, who plays, the AI's searches, the evaluation graph's data | prefs, platform |
//! | 1 | [`prefs`] | the settings (the saved choices typed in `prefs::choices`) and the language | platform |
//! | 0 | [`platform`] | OS glue: lifecycle, safe areas, system font size, back key | nothing above |
//!
//! A lower layer learns what a higher one decides through its own resources and sets: the
//! app inserts the `--safe-area` as [`platform::SafeArea`] and `--shadows` as
//! [`board::Shadows`]; the persistence layer restores the settings before
//! [`prefs::settings::PrefsSystems::Apply`]; the app opens the first screen.
//! [`AppSystems`] (below) is shared by all.

pub mod app;
pub mod board;
pub mod game;
pub mod persist;
pub mod platform;
pub mod prefs;
pub mod ui;

use bevy::prelude::*;

pub use app::launch::LaunchOptions;
pub use ui::screens::Overlay;

/// The order systems run in within `Update`, so a tap, the game's answer and the view's
/// reaction happen in one frame.
#[derive(SystemSet, Debug, Clone, Copy, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub enum AppSystems {
    /// Turn input (taps, buttons, AI results) into messages.
    Input,
    /// Apply messages to the authoritative game.
    Logic,
    /// Start and poll the AI search.
    Ai,
    /// Bring the 3D board and the UI up to date.
    View,
}

/// The game without any rendering: the game flow, the AI and the settings. Headless tests
/// add these to an `App` with `MinimalPlugins`.
#[derive(Debug, Default)]
pub struct LogicPlugins;

impl Plugin for LogicPlugins {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                AppSystems::Input,
                AppSystems::Logic,
                AppSystems::Ai,
                AppSystems::View,
            )
                .chain(),
        );
        app.add_plugins((
            prefs::settings::plugin,
            prefs::i18n::plugin,
            app::access::logic_plugin,
            game::flow::plugin,
            game::ai::plugin,
            game::eval::plugin,
            game::review::plugin,
            game::margin::plugin,
            game::values::plugin,
            game::practice::plugin,
            game::puzzle::plugin,
            persist::save::plugin,
            board::sound::logic_plugin,
            board::haptics::logic_plugin,
            platform::lifecycle::logic_plugin,
        ));
    }
}

/// The whole app on top of Bevy's plugins: window, board, UI and platform glue.
#[derive(Debug, Default)]
pub struct AppPlugin {
    /// What the command line (or the platform) asked for.
    pub launch: LaunchOptions,
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        let window = Window {
            title: "Montello".into(),
            resolution: self.launch.window.map_or_else(
                || bevy::window::WindowResolution::new(720, 1080),
                |(w, h)| bevy::window::WindowResolution::new(w, h),
            ),
            // In a browser: draw into the page's canvas (web/index.html), sized by the page
            // to the viewport less the safe areas, and keep the page's own gestures (scroll,
            // zoom, the context menu) off it.
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            canvas: Some("#montello".into()),
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            fit_canvas_to_parent: true,
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            prevent_default_event_handling: true,
            ..default()
        };
        // Bevy's default plugins less the sprites' (and a page's log): app::plugins.
        let plugins = app::plugins::BevyPlugins.set(WindowPlugin {
            primary_window: Some(window.clone()),
            ..default()
        });
        // In a browser the log goes to the console through a filter of its own (app::console).
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        app::console::install();
        // Android: one backend, Vulkan if there is an adapter and it did not fail the last
        // launch, else GL ES (app::gpu); decided before the window's surface exists.
        #[cfg(target_os = "android")]
        let gpu = app::gpu::start(
            self.launch.save_dir().as_deref(),
            env!("CARGO_PKG_VERSION"),
            app::gpu::vulkan_adapter_exists,
        );
        #[cfg(target_os = "android")]
        let plugins = plugins.set(gpu.render_plugin());
        // `--offscreen`: no window system at all. The window entity only gives the layout its
        // size; the camera renders into an image (see `app::dev::render_offscreen`) and Bevy's
        // schedule runner drives the frames.
        #[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
        let plugins = if self.launch.offscreen {
            plugins
                .set(WindowPlugin {
                    primary_window: Some(window),
                    exit_condition: bevy::window::ExitCondition::DontExit,
                    close_when_requested: false,
                    ..default()
                })
                .disable::<bevy::winit::WinitPlugin>()
        } else {
            plugins
        };
        app.add_plugins((plugins, MeshPickingPlugin));
        app::plugins::ui_images(app);
        // Every mesh in a buffer of its own: the board has a dozen meshes, made once, and
        // Bevy's shared slabs each keep an offset allocator sized for 128K meshes (about 4 MiB
        // of heap a slab, three natively, one for the indices in a browser: app::heap's count).
        if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
            render.insert_resource(bevy::render::mesh::allocator::MeshAllocatorSettings {
                slab_allocator_settings: bevy::render::slab_allocator::SlabAllocatorSettings {
                    large_threshold: 0,
                    ..default()
                },
                ..default()
            });
        }
        #[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
        if self.launch.offscreen {
            app.add_plugins(bevy::app::ScheduleRunnerPlugin::run_loop(
                std::time::Duration::ZERO,
            ));
        }
        // One font for every language (Latin and Japanese): it replaces Bevy's default font, so
        // every text uses it without naming it.
        let font = Font::from_bytes(prefs::i18n::UI_FONT.to_vec());
        if let Err(e) = app
            .world_mut()
            .resource_mut::<Assets<Font>>()
            .insert(AssetId::default(), font)
        {
            error!("could not install the UI font: {e:?}");
        }
        app.insert_resource(prefs::i18n::SystemLanguage(prefs::choices::Lang::system()));
        app.insert_resource(self.launch.clone());
        // What the command line says to the lower layers, as their own resources (they do
        // not read the app's launch options).
        if let Some(safe) = self.launch.safe_area {
            app.insert_resource(safe);
        }
        if let Some(on) = self.launch.shadows {
            app.insert_resource(board::Shadows(on));
        }
        #[cfg(target_os = "android")]
        {
            app.insert_resource(gpu);
            app::gpu::plugin(app, self.launch.save_dir());
        }
        #[cfg(not(target_os = "android"))]
        app::gpu::plugin(app);
        if let Some(dir) = self.launch.save_dir() {
            app.insert_resource(persist::save::DataDir(dir));
        }
        app.add_plugins(LogicPlugins);
        app.add_plugins((
            app::launch::plugin,
            platform::plugin,
            app::power::plugin,
            app::heap::plugin,
            board::sound::output_plugin,
            board::haptics::output_plugin,
            ui::theme::plugin,
            ui::widgets::plugin,
            ui::placement::plugin,
            board::plugin,
            app::access::view_plugin,
            ui::screens::plugin,
        ));
        #[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
        app.add_plugins((app::dev::plugin, app::share::plugin));
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        app.add_plugins(app::page::plugin);
    }
}

/// Runs the app with the given launch options (the desktop entry point parses them from
/// the command line).
pub fn run(launch: LaunchOptions) -> AppExit {
    App::new().add_plugins(AppPlugin { launch }).run()
}

/// The app's entry point on Android (`#[bevy_main]` makes it `android_main`), and a plain
/// desktop start.
#[bevy_main]
pub fn main() {
    run(LaunchOptions::default());
}

/// The iOS executable's entry point (src/main.rs): registers the UIScene delegate that
/// Info.plist names before winit starts `UIApplicationMain`, and starts as a player would,
/// whatever arguments iOS or Xcode passed ([`LaunchOptions::for_phone`]).
#[cfg(target_os = "ios")]
pub fn ios_main() -> AppExit {
    platform::ios::register_scene_delegate();
    run(LaunchOptions::for_phone(std::env::args().skip(1)))
}
