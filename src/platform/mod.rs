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
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

#[cfg(target_os = "android")]
mod android;
pub mod clock;
pub mod insets;
#[cfg(target_os = "ios")]
pub(crate) mod ios;
pub mod lifecycle;
pub mod memory;
mod taps;
pub mod watch;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod web;

/// The Objective-C class of the scene delegate that `ios/Montello/Info.plist`'s
/// `UIApplicationSceneManifest` names (`platform::ios` declares it; tests/ios_bundle.rs checks
/// that the two agree).
pub const SCENE_DELEGATE_CLASS: &str = "MontelloSceneDelegate";

pub(super) fn plugin(app: &mut App) {
    // The app layer may have set one already (`--safe-area`, desktop).
    app.add_plugins(taps::plugin);
    app.init_resource::<SafeArea>()
        .init_resource::<SystemFontScale>()
        .add_message::<BackRequested>()
        .add_systems(Update, read_back_keys.in_set(AppSystems::Input));
    #[cfg(any(target_os = "android", target_os = "ios"))]
    app.add_systems(
        PreUpdate,
        (follow_platform_safe_area, follow_system_font_scale),
    )
    .add_systems(
        PostUpdate,
        apply_lifecycle_steps.after(lifecycle::LifecycleSystems),
    );
    #[cfg(target_os = "android")]
    app.init_resource::<SystemInsets>().add_systems(
        PreUpdate,
        read_system_insets.before(follow_platform_safe_area),
    );
    #[cfg(target_os = "ios")]
    app.add_systems(PreUpdate, ios::attach_windows_to_scene);
}

/// What the lifecycle's state machine asks of the platform: iOS switches winit to an update
/// mode without a wake-up timer while in the background (winit issue 4679) and back on resume;
/// Android watches for the activity's destruction while suspended.
#[cfg(any(target_os = "android", target_os = "ios"))]
fn apply_lifecycle_steps(
    mut steps: MessageReader<lifecycle::Steps>,
    mut settings: ResMut<bevy::winit::WinitSettings>,
    mut foreground: Local<Option<bevy::winit::WinitSettings>>,
    #[cfg(target_os = "android")] machine: Res<lifecycle::SharedLifecycle>,
    #[cfg(target_os = "android")] mut watcher: Local<Option<android_destroy::Watcher>>,
) {
    for step in steps.read() {
        if cfg!(target_os = "ios") {
            match step.background_updates {
                Some(true) => {
                    foreground.get_or_insert(settings.clone());
                    // Continuous is `ControlFlow::Wait` on iOS: no timer to go stale, and no
                    // frames run while suspended anyway.
                    *settings = bevy::winit::WinitSettings::continuous();
                }
                Some(false) => {
                    if let Some(saved) = foreground.take() {
                        *settings = saved;
                    }
                }
                None => {}
            }
        }
        #[cfg(target_os = "android")]
        if let Some(watch) = step.watch_destroy {
            watcher
                .get_or_insert_with(|| android_destroy::Watcher::start(machine.clone()))
                .watch(watch);
        }
    }
}

/// Android: the thread that notices the activity's destruction (see `lifecycle`).
#[cfg(target_os = "android")]
mod android_destroy {
    use super::lifecycle::{DestroyPoll, DestroyVerdict, SharedLifecycle, Signal};
    use std::sync::{Arc, Condvar, Mutex, PoisonError};
    use std::time::Duration;

    /// How often a suspended app asks whether its activity is being destroyed.
    const POLL: Duration = Duration::from_millis(500);

    pub(super) struct Watcher(Arc<(Mutex<bool>, Condvar)>);

    impl Watcher {
        pub(super) fn start(machine: SharedLifecycle) -> Watcher {
            let shared = Arc::new((Mutex::new(false), Condvar::new()));
            let state = shared.clone();
            let spawned = std::thread::Builder::new()
                .name("montello-destroy-watch".into())
                .spawn(move || {
                    let (watching, wake) = &*state;
                    let mut poll = DestroyPoll::default();
                    loop {
                        let mut guard = watching.lock().unwrap_or_else(PoisonError::into_inner);
                        if !*guard {
                            poll.restart();
                        }
                        while !*guard {
                            guard = wake.wait(guard).unwrap_or_else(PoisonError::into_inner);
                        }
                        drop(wake.wait_timeout(guard, POLL));
                        if !*watching.lock().unwrap_or_else(PoisonError::into_inner) {
                            continue;
                        }
                        match poll.answer(super::android::activity_destroyed()) {
                            DestroyVerdict::Alive => {}
                            DestroyVerdict::Failed { failures, why } => bevy::log::warn!(
                                "could not ask whether the activity is destroyed ({why}); \
                                 failure {failures} of {} before taking it as destroyed",
                                DestroyPoll::FAILURES
                            ),
                            DestroyVerdict::Destroyed => {
                                if machine.on(Signal::ActivityDestroyed).exit_process {
                                    bevy::log::info!(
                                        "the activity is being destroyed (or can no longer be \
                                         asked): the game was saved (and fsynced) on suspend; \
                                         ending the process so the next launch starts a new \
                                         event loop"
                                    );
                                    super::end_process(0);
                                }
                            }
                        }
                    }
                });
            if let Err(e) = spawned {
                bevy::log::warn!("could not start the destroy watcher: {e}");
            }
            Watcher(shared)
        }

        pub(super) fn watch(&self, on: bool) {
            let (watching, wake) = &*self.0;
            *watching.lock().unwrap_or_else(PoisonError::into_inner) = on;
            wake.notify_all();
        }
    }
}

/// Android's system bars and cutout, physical pixels, as last read over JNI.
#[cfg(target_os = "android")]
#[derive(Resource, Default)]
struct SystemInsets(Option<insets::Sides>);

/// Reads the insets whenever the display's rotation or the window's size changed since the
/// last read, on resume, and when the watcher thread saw the rotation or the insets change
/// ([`insets::InsetWatch`], [`insets::wakes`]): a 180° turn, a taskbar, the keyboard or a
/// cutout mode brings no event of its own.
#[cfg(target_os = "android")]
fn read_system_insets(
    mut found: ResMut<SystemInsets>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut lifecycle: MessageReader<bevy::window::AppLifecycle>,
    mut watch: Local<insets::InsetWatch>,
    mut watcher: Local<Option<inset_watch::Watcher>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    machine: Res<lifecycle::SharedLifecycle>,
    _main_thread: bevy::ecs::system::NonSendMarker,
) {
    if watcher.is_none()
        && let Some(proxy) = proxy
    {
        *watcher = Some(inset_watch::Watcher::start(
            (**proxy).clone(),
            machine.clone(),
        ));
    }
    let resumed = lifecycle.read().any(|e| {
        matches!(
            e,
            bevy::window::AppLifecycle::WillResume | bevy::window::AppLifecycle::Running
        )
    });
    let woken = watcher
        .as_ref()
        .is_some_and(inset_watch::Watcher::take_stale);
    let size = windows
        .single()
        .map_or((0, 0), |w| (w.physical_width(), w.physical_height()));
    let rotation = match android::display_rotation() {
        Ok(r) => r,
        Err(e) => {
            warn!("could not read the display's rotation: {e}");
            -1
        }
    };
    if watch.needs_read(insets::Orientation { rotation, size }, resumed || woken) {
        match android::system_insets() {
            Ok(Some(sides)) => found.0 = Some(sides),
            // Not attached yet: ask again next frame.
            Ok(None) => watch.forget(),
            Err(e) => warn!("could not read the window insets: {e}"),
        }
    }
    if let Some(w) = watcher.as_ref() {
        w.seen(insets::Seen {
            rotation,
            insets: found.0,
        });
    }
}

/// Android: the thread that notices what changes without an event the app would see: the
/// display's rotation after a 180° turn, and the insets alone (a taskbar, the keyboard, a
/// cutout mode). It polls both twice a second while the app is in the foreground (a few JNI
/// calls, microseconds), and wakes the app's event loop when either differs from what the app
/// last applied ([`insets::wakes`]); [`read_system_insets`] then reads again.
#[cfg(target_os = "android")]
mod inset_watch {
    use super::insets::{self, Seen};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};
    use std::time::Duration;

    const POLL: Duration = Duration::from_millis(500);

    #[derive(Default)]
    struct Shared {
        /// What the app applied in its last frame; `None` before its first.
        saw: Mutex<Option<Seen>>,
        /// Set by the thread when it wakes the app for a new read.
        stale: AtomicBool,
    }

    pub(super) struct Watcher(Arc<Shared>);

    impl Watcher {
        pub(super) fn start(
            proxy: bevy::winit::EventLoopProxy<bevy::winit::WinitUserEvent>,
            machine: super::lifecycle::SharedLifecycle,
        ) -> Watcher {
            let shared = Arc::new(Shared::default());
            let state = shared.clone();
            let spawned = std::thread::Builder::new()
                .name("montello-inset-watch".into())
                .spawn(move || {
                    // A failure is logged once per run of failures: the thread polls on.
                    let mut failing = false;
                    loop {
                        std::thread::sleep(POLL);
                        let saw = *state.saw.lock().unwrap_or_else(PoisonError::into_inner);
                        // No frame yet, or the app is suspended (no frames to wake).
                        if saw.is_none() || machine.phase() == super::lifecycle::Phase::Suspended {
                            continue;
                        }
                        let rotation = match super::android::display_rotation() {
                            Ok(rotation) => rotation,
                            Err(e) => {
                                if !failing {
                                    bevy::log::warn!(
                                        "the inset watcher could not read the rotation: {e}"
                                    );
                                }
                                failing = true;
                                continue;
                            }
                        };
                        failing = false;
                        let now = super::android::system_insets().ok().flatten();
                        if insets::wakes(saw, rotation, now) {
                            state.stale.store(true, Ordering::Relaxed);
                            // Closed event loop: the app is ending.
                            if proxy
                                .send_event(bevy::winit::WinitUserEvent::WakeUp)
                                .is_err()
                            {
                                return;
                            }
                        }
                    }
                });
            if let Err(e) = spawned {
                bevy::log::warn!("could not start the inset watcher: {e}");
            }
            Watcher(shared)
        }

        /// What the app applied in this frame.
        pub(super) fn seen(&self, seen: Seen) {
            *self.0.saw.lock().unwrap_or_else(PoisonError::into_inner) = Some(seen);
        }

        /// Whether the thread asked for a new read since the last call.
        pub(super) fn take_stale(&self) -> bool {
            self.0.stale.swap(false, Ordering::Relaxed)
        }
    }
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

/// How a short line of text (a player's name) is typed on this platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineEntry {
    /// In the app's own field, key by key (desktop, phones with their keyboard).
    InApp,
    /// Already typed in the page's prompt (a browser: a phone's browser opens its keyboard
    /// for it, which a canvas cannot); `None` if the player dismissed it.
    Typed(Option<String>),
}

/// Asks for a line of text, `default` shown first: in a browser the page's prompt answers at
/// once; elsewhere the caller opens its own field ([`LineEntry::InApp`]).
pub fn ask_line(question: &str, default: &str) -> LineEntry {
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    {
        LineEntry::Typed(web::prompt(question, default))
    }
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    {
        let _ = (question, default);
        LineEntry::InApp
    }
}

/// The board camera's display transform: natively Bevy's default (TonyMcMapface), whose
/// lookup table the `tonemapping_luts` feature embeds; the browser build leaves those tables
/// out of its download (Cargo.toml) and uses the same author's transform that needs none.
pub fn display_transform() -> bevy::core_pipeline::tonemapping::Tonemapping {
    use bevy::core_pipeline::tonemapping::Tonemapping;
    if cfg!(all(target_family = "wasm", target_os = "unknown")) {
        Tonemapping::SomewhatBoringDisplayTransform
    } else {
        Tonemapping::TonyMcMapface
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

/// A haptic the device makes (when and why: `board::haptics`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Haptic {
    /// The player's disc is placed: the lightest tick.
    Place,
    /// A tap changed nothing: a short, firmer buzz.
    Refused,
}

/// Makes a haptic where the device can: Android's view haptics (`performHapticFeedback`, which
/// follows the system's touch-feedback setting and needs no permission), iOS's impact feedback
/// generator, a browser's `navigator.vibrate` (Android's browsers; Safari has none). Desktop
/// has none. A failure is logged once and otherwise ignored: a haptic is never worth more.
pub fn haptic(kind: Haptic) {
    #[cfg(target_os = "android")]
    if let Err(e) = android::haptic(kind) {
        bevy::log::warn_once!("haptics: {e}");
    }
    #[cfg(target_os = "ios")]
    ios::haptic(kind);
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    web::haptic(kind);
    #[cfg(not(any(
        target_os = "android",
        target_os = "ios",
        all(target_family = "wasm", target_os = "unknown")
    )))]
    let _ = kind;
}

/// Tells the player, over the dead frame, that the graphics stopped and what to do, where the
/// app does not end itself after a render error (iOS, a browser:
/// [`crate::app::gpu::RenderErrorResponse`]). Main thread: the render error handler runs in the
/// render app's extract, which runs there.
pub fn show_render_failure(text: &str) {
    #[cfg(target_os = "ios")]
    ios::show_render_failure(text);
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    web::show_render_failure(text);
    #[cfg(not(any(target_os = "ios", all(target_family = "wasm", target_os = "unknown"))))]
    let _ = text;
}

/// Ends the process where an exit request would leave it alive: on Android, after the game
/// was written (the caller's job: the saves are fsynced before they return), with `_exit`, so
/// no atexit handler or GPU driver destructor runs, possibly on another thread than the one
/// that owns it; the next launch then starts a new process and a new winit event loop (winit
/// issue 3325). Elsewhere `AppExit` ends the process cleanly and this does nothing.
pub fn end_process(code: i32) {
    #[cfg(target_os = "android")]
    {
        info!("ending the process ({code})");
        // SAFETY: `_exit` only ends the process; nothing of ours runs after it.
        unsafe { libc::_exit(code) }
    }
    #[cfg(not(target_os = "android"))]
    let _ = code;
}

/// Keeps [`SafeArea`] equal to what the system reserves: on Android the larger of the content
/// rectangle's margins (the window less the bars, before targetSdk 35's edge to edge) and the
/// `WindowInsets` read over JNI; on iOS the safe area (winit's inner rectangle within the outer
/// one).
#[cfg(any(target_os = "android", target_os = "ios"))]
fn follow_platform_safe_area(
    windows: Query<(Entity, &Window), With<bevy::window::PrimaryWindow>>,
    mut safe: ResMut<SafeArea>,
    #[cfg(target_os = "android")] insets: Res<SystemInsets>,
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
    let found = rect.and_then(|r| SafeArea::from_content_rect(r, size, scale));
    #[cfg(target_os = "android")]
    let found = match (
        found,
        insets.0.and_then(|s| SafeArea::from_insets(s, scale)),
    ) {
        (Some(rect), Some(insets)) => Some(rect.max(insets)),
        (rect, insets) => rect.or(insets),
    };
    if let Some(found) = found
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
