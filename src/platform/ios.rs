//! UIKit glue: the UIScene life cycle that the iOS 27 SDK requires, and the Dynamic Type size.
//!
//! Scenes: an app built with Xcode 27 that does not adopt the UIScene life cycle is stopped at
//! launch ("UIScene life cycle is required"). UIKit decides adoption from Info.plist alone: its
//! `UIApplicationSceneManifest` names [`SCENE_DELEGATE_CLASS`](super::SCENE_DELEGATE_CLASS),
//! which must be registered with the Objective-C runtime before `UIApplicationMain` (winit
//! calls it from `App::run`), so [`register_scene_delegate`] runs first in `ios_main`. winit 0.30
//! knows nothing of scenes (winit issue 4224): it makes its `UIWindow` while the app finishes
//! launching, before UIKit connects the scene, and a window that belongs to no scene is never
//! shown. So the delegate hands winit's windows to the scene when it connects, and
//! [`attach_windows_to_scene`] does it each frame for windows made later, or after iOS
//! disconnected a background scene and connected a new one. winit's life-cycle events keep
//! working: it listens to `UIApplication`'s notifications, which UIKit still posts with scenes.
//! None of this has run on a device (no Mac here); `cargo check --target aarch64-apple-ios`
//! compiles it.

use objc2::rc::Retained;
use objc2::{ClassType, DeclaredClass, declare_class, mutability};
use objc2_foundation::{
    CGPoint, CGRect, CGSize, MainThreadMarker, NSObject, NSObjectProtocol, NSString,
};
use objc2_ui_kit::{
    NSTextAlignment, UIApplication, UIColor,
    UIContentSizeCategoryAccessibilityExtraExtraExtraLarge,
    UIContentSizeCategoryAccessibilityExtraExtraLarge,
    UIContentSizeCategoryAccessibilityExtraLarge, UIContentSizeCategoryAccessibilityLarge,
    UIContentSizeCategoryAccessibilityMedium, UIContentSizeCategoryExtraExtraExtraLarge,
    UIContentSizeCategoryExtraExtraLarge, UIContentSizeCategoryExtraLarge,
    UIContentSizeCategoryExtraSmall, UIContentSizeCategoryLarge, UIContentSizeCategoryMedium,
    UIContentSizeCategorySmall, UIFont, UIImpactFeedbackGenerator, UIImpactFeedbackStyle, UILabel,
    UIScene, UISceneConnectionOptions, UISceneDelegate, UISceneSession, UIView, UIViewAutoresizing,
    UIWindow, UIWindowScene, UIWindowSceneDelegate, UIWindowSceneSessionRoleApplication,
};
use raw_window_handle::{HasWindowHandle, RawWindowHandle};

declare_class!(
    /// The scene delegate Info.plist names: it gives winit's windows to the scene.
    struct MontelloSceneDelegate;

    unsafe impl ClassType for MontelloSceneDelegate {
        type Super = NSObject;
        type Mutability = mutability::MainThreadOnly;
        const NAME: &'static str = super::SCENE_DELEGATE_CLASS;
    }

    impl DeclaredClass for MontelloSceneDelegate {}

    unsafe impl NSObjectProtocol for MontelloSceneDelegate {}

    unsafe impl UISceneDelegate for MontelloSceneDelegate {
        #[method(scene:willConnectToSession:options:)]
        fn scene_will_connect(
            &self,
            scene: &UIScene,
            _session: &UISceneSession,
            _options: &UISceneConnectionOptions,
        ) {
            if let Some(scene) = app_window_scene(scene) {
                for window in winit_ui_windows() {
                    attach(&window, &scene);
                }
            }
        }
    }

    unsafe impl UIWindowSceneDelegate for MontelloSceneDelegate {}
);

/// Registers the scene delegate class with the Objective-C runtime. UIKit looks it up by the
/// name in Info.plist when it connects the first scene, inside `UIApplicationMain`.
pub(crate) fn register_scene_delegate() {
    let class = MontelloSceneDelegate::class();
    debug_assert_eq!(class.name(), super::SCENE_DELEGATE_CLASS);
}

/// `scene` as a window scene of the application's own role (the system may connect others,
/// e.g. an iPhone app on a Mac gets a system UI scene).
fn app_window_scene(scene: &UIScene) -> Option<Retained<UIWindowScene>> {
    if !scene.isKindOfClass(UIWindowScene::class()) {
        return None;
    }
    // SAFETY: just checked that it is a UIWindowScene (or a subclass).
    let scene: &UIWindowScene = unsafe { &*(scene as *const UIScene).cast::<UIWindowScene>() };
    // SAFETY: main thread (UIKit calls the delegate there; systems check a marker); the role
    // constant is UIKit's own immutable string.
    let is_app = unsafe {
        let role = scene.session().role();
        *role == *UIWindowSceneSessionRoleApplication
    };
    is_app.then(|| scene.retain())
}

/// The `UIWindow`s holding winit's views, if the window list is not being changed right now.
fn winit_ui_windows() -> Vec<Retained<UIWindow>> {
    bevy::winit::WINIT_WINDOWS.with(|windows| {
        let Ok(windows) = windows.try_borrow() else {
            return Vec::new();
        };
        windows
            .windows
            .values()
            .filter_map(|window| {
                let RawWindowHandle::UiKit(handle) = window.window_handle().ok()?.as_raw() else {
                    return None;
                };
                // SAFETY: winit's UIKit handle points at its live UIView, owned by the winit
                // window we borrow here.
                let view: &UIView = unsafe { handle.ui_view.cast::<UIView>().as_ref() };
                view.window()
            })
            .collect()
    })
}

/// Covers winit's windows with a black view that says `text`: after a render error rendering
/// has stopped, winit cannot end the app, and the frame under it would stay frozen.
pub(crate) fn show_render_failure(text: &str) {
    let Some(mtm) = MainThreadMarker::new() else {
        bevy::log::error!("the render failure can only be shown from the main thread");
        return;
    };
    let text = NSString::from_str(text);
    let fill = UIViewAutoresizing::FlexibleWidth | UIViewAutoresizing::FlexibleHeight;
    for window in winit_ui_windows() {
        let bounds = window.bounds();
        // The text keeps 32 points from the sides.
        let margin = 32.0_f64.min(bounds.size.width / 4.0);
        let inner = CGRect::new(
            CGPoint::new(margin, 0.0),
            CGSize::new(bounds.size.width - 2.0 * margin, bounds.size.height),
        );
        // SAFETY: main thread (the marker); the window is alive, the views are new.
        unsafe {
            let cover = UIView::initWithFrame(mtm.alloc::<UIView>(), bounds);
            cover.setBackgroundColor(Some(&UIColor::blackColor()));
            cover.setAutoresizingMask(fill);
            let label = UILabel::initWithFrame(mtm.alloc::<UILabel>(), inner);
            label.setText(Some(&text));
            label.setNumberOfLines(0);
            label.setTextAlignment(NSTextAlignment::Center);
            label.setFont(Some(&UIFont::systemFontOfSize(20.0)));
            label.setTextColor(Some(&UIColor::whiteColor()));
            label.setAutoresizingMask(fill);
            cover.addSubview(&label);
            window.addSubview(&cover);
        }
    }
}

/// A light impact for a placed disc, a heavy one for a refused tap (`UIImpactFeedbackGenerator`,
/// iOS 10; it follows the system's haptics setting). Main thread only: the caller runs there.
pub(super) fn haptic(kind: super::Haptic) {
    let Some(mtm) = MainThreadMarker::new() else {
        bevy::log::warn_once!("haptics: not on the main thread");
        return;
    };
    let style = match kind {
        super::Haptic::Place => UIImpactFeedbackStyle::Light,
        super::Haptic::Refused => UIImpactFeedbackStyle::Heavy,
    };
    // SAFETY: main thread (the marker); the generator is new and lives through the call.
    // `initWithStyle:` is deprecated from iOS 17.5 for `feedbackGeneratorWithStyle:forView:`,
    // which iOS 15 and 16 (the app's deployment target is 15.0) do not have; it still works.
    #[allow(deprecated)]
    unsafe {
        let generator = UIImpactFeedbackGenerator::initWithStyle(
            mtm.alloc::<UIImpactFeedbackGenerator>(),
            style,
        );
        generator.impactOccurred();
    }
}

/// Puts `window` on `scene` and shows it (winit showed it already, but off any scene).
fn attach(window: &UIWindow, scene: &UIWindowScene) {
    // SAFETY: main thread; both objects are alive.
    unsafe {
        if window.windowScene().as_deref() == Some(scene) {
            return;
        }
        window.setWindowScene(Some(scene));
    }
    window.makeKeyAndVisible();
}

/// Gives the scene any winit window that has none: one made after the scene connected, or
/// after iOS replaced a disconnected scene.
pub(super) fn attach_windows_to_scene(_main_thread: bevy::ecs::system::NonSendMarker) {
    let Some(mtm) = MainThreadMarker::new() else {
        return;
    };
    let windows = winit_ui_windows();
    // SAFETY: main thread (the marker).
    if windows.iter().all(|w| unsafe { w.windowScene() }.is_some()) {
        return;
    }
    // SAFETY: main thread.
    let scenes = unsafe { UIApplication::sharedApplication(mtm).connectedScenes() };
    let Some(scene) = scenes.iter().find_map(app_window_scene) else {
        return;
    };
    for window in windows {
        attach(&window, &scene);
    }
}

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
