//! Bevy's plugins the app runs: `DefaultPlugins` for the features in Cargo.toml, in its order,
//! less what the app has no use for.
//!
//! A plugin left out with `DefaultPlugins.disable::<P>()` is still built into the executable
//! (the group holds it, and the linker keeps what its `build` reaches); listing the plugins
//! here leaves its code, shaders and systems out of every download (#68: the browser build's
//! 5 MB budget). Left out:
//! - the sprite plugins (`SpritePlugin`, `SpriteRenderPlugin`): the board is 3D and the UI is
//!   bevy_ui's; what bevy_ui's renderer takes from them is added by [`ui_images`];
//! - in a browser, Bevy's `LogPlugin`, whose `EnvFilter` reads an environment a page does not
//!   have: the console is the log there (`app::console`).

use bevy::app::{PluginGroup, PluginGroupBuilder};

/// Bevy's plugins for the app (see the module's documentation).
#[derive(Debug, Default)]
pub struct BevyPlugins;

impl PluginGroup for BevyPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>().add(bevy::app::PanicHandlerPlugin);
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        let group = group.add(bevy::log::LogPlugin::default());
        let group = group
            .add(bevy::app::TaskPoolPlugin::default())
            .add(bevy::diagnostic::FrameCountPlugin)
            .add(bevy::time::TimePlugin)
            .add(bevy::transform::TransformPlugin)
            .add(bevy::diagnostic::DiagnosticsPlugin)
            .add(bevy::input::InputPlugin)
            .add(bevy::input_focus::InputFocusPlugin)
            .add(bevy::input_focus::InputDispatchPlugin)
            .add(bevy::window::WindowPlugin::default())
            .add(bevy::a11y::AccessibilityPlugin);
        #[cfg(all(
            any(unix, windows),
            not(all(target_family = "wasm", target_os = "unknown"))
        ))]
        let group = group.add(bevy::app::TerminalCtrlCHandlerPlugin);
        let group = group
            .add(bevy::asset::AssetPlugin::default())
            .add(bevy::winit::WinitPlugin::default())
            .add(bevy::render::RenderPlugin::default())
            .add(bevy::image::ImagePlugin::default())
            .add(bevy::mesh::MeshPlugin)
            .add(bevy::camera::CameraPlugin)
            .add(bevy::light::LightPlugin);
        #[cfg(not(target_family = "wasm"))]
        let group = group.add(bevy::render::pipelined_rendering::PipelinedRenderingPlugin);
        let group = group.add(bevy::core_pipeline::CorePipelinePlugin);
        // The system clipboard (copy and paste a transcript): desktop only (Cargo.toml).
        #[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
        let group = group.add(bevy::clipboard::ClipboardPlugin);
        group
            .add(bevy::text::TextPlugin)
            .add(bevy::ui::UiPlugin)
            .add(bevy::ui_render::UiRenderPlugin)
            .add(bevy::pbr::PbrPlugin::default())
            .add(bevy::state::app::StatesPlugin)
            .add_group(bevy::picking::DefaultPickingPlugins)
    }
}

/// What bevy_ui's renderer takes from the sprite renderer, which the app leaves out: the
/// texture atlases' assets, and the frame's image events that tell it an image changed (a glyph
/// atlas that grew), extracted as the sprite renderer would.
pub fn ui_images(app: &mut bevy::app::App) {
    if !app.is_plugin_added::<bevy::image::TextureAtlasPlugin>() {
        app.add_plugins(bevy::image::TextureAtlasPlugin);
    }
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        render
            .init_resource::<bevy::sprite_render::SpriteAssetEvents>()
            .add_systems(
                bevy::render::ExtractSchedule,
                bevy::sprite_render::extract_sprite_events,
            );
    }
}
