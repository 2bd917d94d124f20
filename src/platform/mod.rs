//! What differs between phones and the desktop, kept in one place: the screen's safe area
//! (notches, rounded corners, the home indicator, Android's system bars and cutouts), the
//! system's font size, and the back button (Android's back key or gesture, Escape on desktop).
//!
//! The UI reads [`SafeArea`] to keep the HUD and the toolbar inside the part of the screen
//! the player can see and touch; the screens answer [`BackRequested`] by going back one step
//! (see `screens::back_step`), and on the top screen [`leave_app`] hands the phone back to
//! the launcher without ending the game, which was saved after the last move and is saved
//! again when Android suspends the app.

use crate::AppSystems;
use crate::launch::LaunchOptions;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    let safe = app
        .world()
        .get_resource::<LaunchOptions>()
        .and_then(|launch| launch.safe_area)
        .unwrap_or_default();
    app.insert_resource(safe)
        .init_resource::<SystemFontScale>()
        .add_message::<BackRequested>()
        .add_systems(Update, read_back_keys.in_set(AppSystems::Input));
    #[cfg(any(target_os = "android", target_os = "ios"))]
    app.add_systems(
        PreUpdate,
        (follow_platform_safe_area, follow_system_font_scale),
    );
}

/// The text size the player chose in the system's settings, as a factor of the normal size:
/// Android's `Configuration.fontScale`, iOS's Dynamic Type category (body text points over
/// the default 17). 1 on desktop. The UI's scale multiplies it in (`theme::ui_scale_for`).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SystemFontScale(pub f32);

impl Default for SystemFontScale {
    fn default() -> Self {
        SystemFontScale(1.0)
    }
}

/// Reads the system's font scale at start and whenever the app comes back to the front (the
/// player may have changed it in the system settings meanwhile).
#[cfg(any(target_os = "android", target_os = "ios"))]
fn follow_system_font_scale(
    mut scale: ResMut<SystemFontScale>,
    mut lifecycle: MessageReader<bevy::window::AppLifecycle>,
    mut read_once: Local<bool>,
    _main_thread: bevy::ecs::system::NonSendMarker,
) {
    let resumed = lifecycle
        .read()
        .any(|e| matches!(e, bevy::window::AppLifecycle::WillResume));
    if *read_once && !resumed {
        return;
    }
    *read_once = true;
    #[cfg(target_os = "android")]
    let found = android::font_scale()
        .map_err(|e| warn!("could not read the system font scale: {e}"))
        .ok();
    #[cfg(target_os = "ios")]
    let found = ios::font_scale();
    if let Some(found) = found.filter(|s| s.is_finite() && *s > 0.0)
        && scale.0 != found
    {
        scale.0 = found;
    }
}

/// The margins, in logical pixels, that the system keeps for itself on each side of the
/// window: nothing the player must see or tap goes there. Zero on desktop unless
/// `--safe-area` asks for some (to see a phone's layout on the desktop).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct SafeArea {
    pub left: f32,
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
}

impl SafeArea {
    /// Reads `L,T,R,B` (logical pixels), as `--safe-area` takes it.
    pub fn parse(text: &str) -> Option<SafeArea> {
        let values: Vec<f32> = text
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
            })
            .collect::<Option<_>>()?;
        match values[..] {
            [left, top, right, bottom] => Some(SafeArea {
                left,
                top,
                right,
                bottom,
            }),
            _ => None,
        }
    }

    /// The margins of a content rectangle (`left, top, right, bottom` edges, physical pixels)
    /// inside a window of `size` physical pixels drawn at `scale` physical pixels per logical
    /// one; `None` when the rectangle is empty or not known yet.
    pub fn from_content_rect(rect: [f32; 4], size: Vec2, scale: f32) -> Option<SafeArea> {
        let [left, top, right, bottom] = rect;
        if right <= left || bottom <= top || scale <= 0.0 {
            return None;
        }
        let margin = |v: f32| (v / scale).max(0.0);
        Some(SafeArea {
            left: margin(left),
            top: margin(top),
            right: margin(size.x - right),
            bottom: margin(size.y - bottom),
        })
    }

    /// The window's size less the margins.
    pub fn inner(&self, size: Vec2) -> Vec2 {
        (size - Vec2::new(self.left + self.right, self.top + self.bottom)).max(Vec2::ONE)
    }
}

/// The player asked to go back: Android's back key or gesture, or Escape on desktop.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackRequested;

/// Whether a key press means "back": Android's back key arrives from winit as the logical key
/// `BrowserBack` (winit marks it handled, so Android does not close the activity itself).
pub fn is_back_key(input: &KeyboardInput) -> bool {
    input.state == ButtonState::Pressed
        && !input.repeat
        && (input.key_code == KeyCode::Escape
            || input.key_code == KeyCode::BrowserBack
            || matches!(
                input.logical_key,
                Key::BrowserBack | Key::Escape | Key::GoBack
            ))
}

fn read_back_keys(mut keys: MessageReader<KeyboardInput>, mut back: MessageWriter<BackRequested>) {
    if keys.read().any(is_back_key) {
        back.write(BackRequested);
    }
}

/// Back on the top screen: Android moves the app's task behind the launcher (what the back
/// gesture does to a launcher activity since Android 12: the process and the game stay, and
/// the suspend events save it); elsewhere there is nothing to leave to, so nothing happens.
pub fn leave_app() {
    #[cfg(target_os = "android")]
    if let Err(e) = android::move_task_to_back() {
        warn!("back: could not move the app to the background: {e}");
    }
}

#[cfg(target_os = "android")]
mod android {
    use jni::objects::JObject;
    use jni::{Env, JValue, jni_sig, jni_str};

    /// Runs `f` with a JNI environment and the activity.
    fn with_activity<T>(
        f: impl for<'local> FnOnce(&mut Env<'local>, &JObject<'local>) -> jni::errors::Result<T>,
    ) -> Result<T, String> {
        let app = bevy::android::ANDROID_APP
            .get()
            .ok_or("no Android activity")?;
        let (vm, activity) = (app.vm_as_ptr(), app.activity_as_ptr());
        if vm.is_null() || activity.is_null() {
            return Err("no Java VM or activity".into());
        }
        // SAFETY: android-activity hands out the process's JavaVM and a global reference to
        // the activity, both valid while the activity lives (it does: it is running us).
        let vm = unsafe { jni::JavaVM::from_raw(vm.cast()) };
        vm.attach_current_thread(|env| -> jni::errors::Result<T> {
            // SAFETY: a global reference may be used from any attached thread; the wrapper
            // does not delete it.
            let activity = unsafe { JObject::from_raw(env, activity.cast()) };
            f(env, &activity)
        })
        .map_err(|e| e.to_string())
    }

    /// `activity.moveTaskToBack(true)`.
    pub(super) fn move_task_to_back() -> Result<(), String> {
        with_activity(|env, activity| {
            env.call_method(
                activity,
                jni_str!("moveTaskToBack"),
                jni_sig!("(Z)Z"),
                &[JValue::Bool(true)],
            )?;
            Ok(())
        })
    }

    /// `activity.getResources().getConfiguration().fontScale`.
    pub(super) fn font_scale() -> Result<f32, String> {
        with_activity(|env, activity| {
            let resources = env
                .call_method(
                    activity,
                    jni_str!("getResources"),
                    jni_sig!("()Landroid/content/res/Resources;"),
                    &[],
                )?
                .l()?;
            let configuration = env
                .call_method(
                    &resources,
                    jni_str!("getConfiguration"),
                    jni_sig!("()Landroid/content/res/Configuration;"),
                    &[],
                )?
                .l()?;
            env.get_field(&configuration, jni_str!("fontScale"), jni_sig!("F"))?
                .f()
        })
    }
}

#[cfg(target_os = "ios")]
mod ios {
    use objc2_foundation::MainThreadMarker;
    use objc2_ui_kit::{
        UIApplication, UIContentSizeCategoryAccessibilityExtraExtraExtraLarge,
        UIContentSizeCategoryAccessibilityExtraExtraLarge,
        UIContentSizeCategoryAccessibilityExtraLarge, UIContentSizeCategoryAccessibilityLarge,
        UIContentSizeCategoryAccessibilityMedium, UIContentSizeCategoryExtraExtraExtraLarge,
        UIContentSizeCategoryExtraExtraLarge, UIContentSizeCategoryExtraLarge,
        UIContentSizeCategoryExtraSmall, UIContentSizeCategoryLarge, UIContentSizeCategoryMedium,
        UIContentSizeCategorySmall,
    };

    /// The Dynamic Type category as a factor: body text points (Apple's type sizes) over the
    /// default Large's 17.
    pub(super) fn font_scale() -> Option<f32> {
        let mtm = MainThreadMarker::new()?;
        let app = UIApplication::sharedApplication(mtm);
        // SAFETY: read on the main thread (the marker proves it); the category constants are
        // UIKit's own immutable strings.
        unsafe {
            let category = app.preferredContentSizeCategory();
            let points = [
                (UIContentSizeCategoryExtraSmall, 14.0),
                (UIContentSizeCategorySmall, 15.0),
                (UIContentSizeCategoryMedium, 16.0),
                (UIContentSizeCategoryLarge, 17.0),
                (UIContentSizeCategoryExtraLarge, 19.0),
                (UIContentSizeCategoryExtraExtraLarge, 21.0),
                (UIContentSizeCategoryExtraExtraExtraLarge, 23.0),
                (UIContentSizeCategoryAccessibilityMedium, 28.0),
                (UIContentSizeCategoryAccessibilityLarge, 33.0),
                (UIContentSizeCategoryAccessibilityExtraLarge, 40.0),
                (UIContentSizeCategoryAccessibilityExtraExtraLarge, 47.0),
                (UIContentSizeCategoryAccessibilityExtraExtraExtraLarge, 53.0),
            ];
            points
                .iter()
                .find(|(c, _)| **c == *category)
                .map(|&(_, pt)| pt / 17.0_f32)
        }
    }
}

/// Keeps [`SafeArea`] equal to what the system reserves: Android's content rectangle (the
/// window less the status and navigation bars and cutouts), iOS's safe area (winit's inner
/// rectangle within the outer one).
#[cfg(any(target_os = "android", target_os = "ios"))]
fn follow_platform_safe_area(
    windows: Query<(Entity, &Window), With<bevy::window::PrimaryWindow>>,
    mut safe: ResMut<SafeArea>,
    _main_thread: bevy::ecs::system::NonSendMarker,
) {
    let Ok((entity, window)) = windows.single() else {
        return;
    };
    let size = Vec2::new(
        window.physical_width() as f32,
        window.physical_height() as f32,
    );
    let scale = window.scale_factor();
    #[cfg(target_os = "android")]
    let rect = {
        let _ = entity;
        bevy::android::ANDROID_APP.get().map(|app| {
            let r = app.content_rect();
            [r.left as f32, r.top as f32, r.right as f32, r.bottom as f32]
        })
    };
    #[cfg(target_os = "ios")]
    let rect = bevy::winit::WINIT_WINDOWS.with_borrow(|windows| {
        let window = windows.get_window(entity)?;
        let inner = window.inner_position().ok()?;
        let outer = window.outer_position().ok()?;
        let inner_size = window.inner_size();
        let (x, y) = ((inner.x - outer.x) as f32, (inner.y - outer.y) as f32);
        Some([
            x,
            y,
            x + inner_size.width as f32,
            y + inner_size.height as f32,
        ])
    });
    if let Some(found) = rect.and_then(|r| SafeArea::from_content_rect(r, size, scale))
        && *safe != found
    {
        *safe = found;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::keyboard::NativeKey;

    fn press(key_code: KeyCode, logical_key: Key) -> KeyboardInput {
        KeyboardInput {
            key_code,
            logical_key,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        }
    }

    #[test]
    fn back_keys_are_recognised() {
        // Android's back key: no physical code, the logical key BrowserBack.
        let android_back = press(
            KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified),
            Key::BrowserBack,
        );
        assert!(is_back_key(&android_back));
        assert!(is_back_key(&press(KeyCode::Escape, Key::Escape)));
        assert!(!is_back_key(&press(
            KeyCode::KeyA,
            Key::Character("a".into())
        )));
        assert!(!is_back_key(&press(
            KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified),
            Key::Unidentified(NativeKey::Unidentified)
        )));
        let mut released = android_back.clone();
        released.state = ButtonState::Released;
        assert!(!is_back_key(&released), "only the press goes back");
        let mut held = android_back;
        held.repeat = true;
        assert!(!is_back_key(&held), "holding the key goes back once");
    }

    #[test]
    fn safe_areas_parse_and_measure() {
        assert_eq!(
            SafeArea::parse("0, 47,0,34"),
            Some(SafeArea {
                left: 0.0,
                top: 47.0,
                right: 0.0,
                bottom: 34.0
            })
        );
        for bad in ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "-1,0,0,0", "inf,0,0,0"] {
            assert_eq!(SafeArea::parse(bad), None, "{bad:?}");
        }
        // A 1080x2400 phone at 2.75x: a 132 px status bar and a 66 px gesture bar.
        let safe = SafeArea::from_content_rect(
            [0.0, 132.0, 1080.0, 2334.0],
            Vec2::new(1080.0, 2400.0),
            2.75,
        )
        .expect("a real rectangle");
        assert_eq!((safe.left, safe.right), (0.0, 0.0));
        assert!((safe.top - 48.0).abs() < 1e-3 && (safe.bottom - 24.0).abs() < 1e-3);
        assert_eq!(
            safe.inner(Vec2::new(392.7, 872.7)).y.round(),
            (872.7_f32 - 72.0).round()
        );
        // Before Android knows the rectangle it is empty: keep what we had.
        assert_eq!(
            SafeArea::from_content_rect([0.0; 4], Vec2::new(1080.0, 2400.0), 2.75),
            None
        );
    }
}
