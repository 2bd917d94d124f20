//! Android's Java side over JNI (the `jni` crate android-activity already builds, with
//! `ANDROID_APP.vm_as_ptr()` and `activity_as_ptr()`): the back button's `moveTaskToBack`, the
//! system font scale, the system bars' and cutout's insets, and whether the activity has been
//! destroyed. None of it has run on a device; it compiles and links in the check APK.

use super::insets::{InsetQueries, Sides};
use jni::objects::JObject;
use jni::refs::Reference as _;
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
    // the activity, both valid while the activity lives (it does: it is running us, and
    // `on_destroy` waits for our thread before it deletes the activity).
    let vm = unsafe { jni::JavaVM::from_raw(vm.cast()) };
    // A Java exception left pending would make the next JNI call on this thread abort the
    // process. This policy (jni's default, named so that a new default cannot change it) clears
    // an exception the calls in `f` threw and returns it as `CaughtJavaException`, and leaves
    // one that was pending before alone (rethrown after). Every call here runs in a local frame
    // of its own (released at the end), so the main thread, attached for good, does not pile
    // up local references.
    vm.attach_current_thread_with_config(
        || {
            jni::AttachConfig::new()
                .exceptions_policy(jni::AttachmentExceptionPolicy::PreReThrowPostCatch)
        },
        Some(jni::DEFAULT_LOCAL_FRAME_CAPACITY),
        |env| -> jni::errors::Result<T> {
            // SAFETY: a global reference may be used from any attached thread; the wrapper
            // does not delete it.
            let activity = unsafe { JObject::from_raw(env, activity.cast()) };
            f(env, &activity)
        },
    )
    .map_err(|e| e.to_string())
}

/// `activity.getWindow().getDecorView().performHapticFeedback(..)` (API 3): `VIRTUAL_KEY` (1)
/// for a placed disc, `LONG_PRESS` (0), firmer, for a refused tap.
pub(super) fn haptic(kind: super::Haptic) -> Result<(), String> {
    let constant = match kind {
        super::Haptic::Place => 1,
        super::Haptic::Refused => 0,
    };
    with_activity(|env, activity| {
        // (No window yet: nothing to feel.)
        if let Some(view) = decor_view(env, activity)? {
            env.call_method(
                &view,
                jni_str!("performHapticFeedback"),
                jni_sig!("(I)Z"),
                &[JValue::Int(constant)],
            )?;
        }
        Ok(())
    })
}

/// `activity.getWindow().getDecorView()`: `None` while the activity has no window yet.
fn decor_view<'local>(
    env: &mut Env<'local>,
    activity: &JObject<'local>,
) -> jni::errors::Result<Option<JObject<'local>>> {
    let window = env
        .call_method(
            activity,
            jni_str!("getWindow"),
            jni_sig!("()Landroid/view/Window;"),
            &[],
        )?
        .l()?;
    if window.is_null() {
        return Ok(None);
    }
    let decor = env
        .call_method(
            &window,
            jni_str!("getDecorView"),
            jni_sig!("()Landroid/view/View;"),
            &[],
        )?
        .l()?;
    Ok((!decor.is_null()).then_some(decor))
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

/// `activity.isDestroyed()` (API 17): true from the moment Android starts destroying the
/// activity (`Activity.performDestroy` sets it before `onDestroy` runs, and NativeActivity's
/// `onDestroy` then waits for our thread).
pub(super) fn activity_destroyed() -> Result<bool, String> {
    with_activity(|env, activity| {
        env.call_method(activity, jni_str!("isDestroyed"), jni_sig!("()Z"), &[])?
            .z()
    })
}

/// The display's rotation in quarter turns (`getWindowManager().getDefaultDisplay()
/// .getRotation()`, API 1; the display the activity is on).
pub(super) fn display_rotation() -> Result<i32, String> {
    with_activity(|env, activity| {
        let manager = env
            .call_method(
                activity,
                jni_str!("getWindowManager"),
                jni_sig!("()Landroid/view/WindowManager;"),
                &[],
            )?
            .l()?;
        let display = env
            .call_method(
                &manager,
                jni_str!("getDefaultDisplay"),
                jni_sig!("()Landroid/view/Display;"),
                &[],
            )?
            .l()?;
        env.call_method(&display, jni_str!("getRotation"), jni_sig!("()I"), &[])?
            .i()
    })
}

/// The margins the system bars and the display cutout take, physical pixels; `Ok(None)`
/// while the window is not attached yet (no root insets).
pub(super) fn system_insets() -> Result<Option<Sides>, String> {
    let sdk = bevy::android::ANDROID_APP
        .get()
        .map(|app| app.config().sdk_version())
        .ok_or("no Android activity")?;
    with_activity(|env, activity| {
        let Some(decor) = decor_view(env, activity)? else {
            return Ok(None);
        };
        let insets = env
            .call_method(
                &decor,
                jni_str!("getRootWindowInsets"),
                jni_sig!("()Landroid/view/WindowInsets;"),
                &[],
            )?
            .l()?;
        if insets.is_null() {
            return Ok(None);
        }
        let mut queries = JniInsets {
            env,
            insets: &insets,
        };
        super::insets::read_insets(sdk, &mut queries)
    })
}

/// The [`InsetQueries`] answered by a `android.view.WindowInsets` object.
struct JniInsets<'a, 'local> {
    env: &'a mut Env<'local>,
    insets: &'a JObject<'local>,
}

impl JniInsets<'_, '_> {
    fn ints(
        &mut self,
        object: &JObject<'_>,
        names: [&'static jni::strings::JNIStr; 4],
    ) -> jni::errors::Result<Sides> {
        let mut sides = [0; 4];
        for (side, name) in sides.iter_mut().zip(names) {
            *side = self
                .env
                .call_method(object, name, jni_sig!("()I"), &[])?
                .i()?;
        }
        Ok(Sides(sides))
    }
}

impl InsetQueries for JniInsets<'_, '_> {
    type Error = jni::errors::Error;

    fn bars_and_cutout(&mut self) -> Result<Option<Sides>, Self::Error> {
        let class = jni_str!("android/view/WindowInsets$Type");
        let bars = self
            .env
            .call_static_method(class, jni_str!("systemBars"), jni_sig!("()I"), &[])?
            .i()?;
        let cutout = self
            .env
            .call_static_method(class, jni_str!("displayCutout"), jni_sig!("()I"), &[])?
            .i()?;
        let insets = self
            .env
            .call_method(
                self.insets,
                jni_str!("getInsets"),
                jni_sig!("(I)Landroid/graphics/Insets;"),
                &[JValue::Int(bars | cutout)],
            )?
            .l()?;
        if insets.is_null() {
            return Ok(None);
        }
        let mut sides = [0; 4];
        for (side, name) in sides.iter_mut().zip([
            jni_str!("left"),
            jni_str!("top"),
            jni_str!("right"),
            jni_str!("bottom"),
        ]) {
            *side = self.env.get_field(&insets, name, jni_sig!("I"))?.i()?;
        }
        Ok(Some(Sides(sides)))
    }

    fn system_window(&mut self) -> Result<Option<Sides>, Self::Error> {
        let insets = self.insets;
        self.ints(
            insets,
            [
                jni_str!("getSystemWindowInsetLeft"),
                jni_str!("getSystemWindowInsetTop"),
                jni_str!("getSystemWindowInsetRight"),
                jni_str!("getSystemWindowInsetBottom"),
            ],
        )
        .map(Some)
    }

    fn cutout(&mut self) -> Result<Option<Sides>, Self::Error> {
        let cutout = self
            .env
            .call_method(
                self.insets,
                jni_str!("getDisplayCutout"),
                jni_sig!("()Landroid/view/DisplayCutout;"),
                &[],
            )?
            .l()?;
        if cutout.is_null() {
            return Ok(None);
        }
        self.ints(
            &cutout,
            [
                jni_str!("getSafeInsetLeft"),
                jni_str!("getSafeInsetTop"),
                jni_str!("getSafeInsetRight"),
                jni_str!("getSafeInsetBottom"),
            ],
        )
        .map(Some)
    }
}
