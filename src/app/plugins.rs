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
//!   have: the console is the log there (`app::console`);
//! - gamepads: Bevy's `InputPlugin` is replaced by [`Input`], its keyboard, mouse, gesture and
//!   touch parts (bevy_ui turns on bevy_input's gamepad feature, which no Cargo feature of ours
//!   can turn off), and Bevy's `InputDispatchPlugin`, which sends keys and gamepad buttons to
//!   a focused entity's observers, of which the app has none.

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
            .add(Input)
            .add(bevy::input_focus::InputFocusPlugin)
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

/// Bevy's `InputPlugin` without gamepads: the keyboard's, the mouse's, gestures' and touches'
/// messages, state and systems, as that plugin adds them (in `InputSystems`).
#[derive(Debug, Default)]
pub struct Input;

impl bevy::app::Plugin for Input {
    fn build(&self, app: &mut bevy::app::App) {
        use bevy::app::PreUpdate;
        use bevy::ecs::schedule::IntoScheduleConfigs;
        use bevy::input::{ButtonInput, InputSystems, gestures, keyboard, mouse, touch};
        app.add_message::<keyboard::KeyboardInput>()
            .add_message::<keyboard::KeyboardFocusLost>()
            .init_resource::<ButtonInput<keyboard::KeyCode>>()
            .init_resource::<ButtonInput<keyboard::Key>>()
            .add_message::<mouse::MouseButtonInput>()
            .add_message::<mouse::MouseMotion>()
            .add_message::<mouse::MouseWheel>()
            .init_resource::<mouse::AccumulatedMouseMotion>()
            .init_resource::<mouse::AccumulatedMouseScroll>()
            .init_resource::<ButtonInput<mouse::MouseButton>>()
            .add_message::<gestures::PinchGesture>()
            .add_message::<gestures::RotationGesture>()
            .add_message::<gestures::DoubleTapGesture>()
            .add_message::<gestures::PanGesture>()
            .add_message::<touch::TouchInput>()
            .init_resource::<touch::Touches>()
            .add_systems(
                PreUpdate,
                (
                    keyboard::keyboard_input_system,
                    mouse::mouse_button_input_system,
                    mouse::accumulate_mouse_motion_system,
                    mouse::accumulate_mouse_scroll_system,
                    touch::touch_screen_input_system,
                )
                    .in_set(InputSystems),
            );
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

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyCode, KeyboardInput};
    use bevy::input::touch::{TouchInput, TouchPhase, Touches};
    use bevy::prelude::*;

    #[test]
    fn the_group_leaves_out_what_the_app_has_no_use_for() {
        let group = BevyPlugins.build();
        assert!(group.contains::<Input>());
        assert!(!group.contains::<bevy::input::InputPlugin>(), "gamepads");
        assert!(!group.contains::<bevy::input_focus::InputDispatchPlugin>());
        assert!(!group.contains::<bevy::sprite_render::SpriteRenderPlugin>());
        assert!(group.contains::<bevy::ui::UiPlugin>());
    }

    /// Keys and touches still reach the app's state without Bevy's `InputPlugin`.
    #[test]
    fn keys_and_touches_still_come_in() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, Input));
        let window = app.world_mut().spawn_empty().id();
        app.world_mut().write_message(KeyboardInput {
            key_code: KeyCode::KeyU,
            logical_key: Key::Character("u".into()),
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window,
        });
        app.world_mut().write_message(TouchInput {
            phase: TouchPhase::Started,
            position: Vec2::new(10.0, 20.0),
            window,
            force: None,
            id: 7,
        });
        app.update();
        assert!(
            app.world()
                .resource::<ButtonInput<KeyCode>>()
                .pressed(KeyCode::KeyU)
        );
        let touches = app.world().resource::<Touches>();
        assert_eq!(
            touches.get_pressed(7).map(|t| t.position()),
            Some(Vec2::new(10.0, 20.0))
        );
    }
}
