//! Android's window insets, the part that needs no phone: which Java calls answer "where are
//! the system bars and the cutout" at which API level, and how their pixels become a
//! [`SafeArea`]. With targetSdk 35+ Android draws every app edge to edge, so the content
//! rectangle NativeActivity reports is the whole window; the real margins come from
//! `WindowInsets` (`platform::android` asks over JNI). They are read again whenever
//! [`InsetWatch`] sees the display's rotation or the window's size change (a 90° turn, a fold
//! or unfold, split screen, a resize) and on resume. A 180° turn changes neither the window's
//! size nor Android's `Configuration`, and NativeActivity is told nothing; nor is it told when
//! only the insets change (a taskbar, the keyboard, a cutout mode): a watcher thread polls the
//! rotation and the insets and wakes the app when either differs from what it applied
//! ([`wakes`]).

use super::SafeArea;

/// Margins in physical pixels: left, top, right, bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sides(pub [i32; 4]);

impl Sides {
    /// The larger margin on each side.
    pub fn max(self, other: Sides) -> Sides {
        let mut sides = self.0;
        for (side, other) in sides.iter_mut().zip(other.0) {
            *side = (*side).max(other);
        }
        Sides(sides)
    }
}

/// What the insets depend on: the display's rotation in quarter turns (`Display.getRotation`)
/// and the window's size in physical pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orientation {
    /// Quarter turns from the display's natural orientation, 0..=3.
    pub rotation: i32,
    /// The window's width and height, physical pixels.
    pub size: (u32, u32),
}

/// Decides when the insets must be read again.
#[derive(Clone, Copy, Debug, Default)]
pub struct InsetWatch {
    last: Option<Orientation>,
}

impl InsetWatch {
    /// Whether `now` differs from what the insets were last read for (or none was read);
    /// remembers `now`. `forced` (a resume) reads again whatever changed.
    pub fn needs_read(&mut self, now: Orientation, forced: bool) -> bool {
        let changed = forced || self.last != Some(now);
        self.last = Some(now);
        changed
    }

    /// Forgets what was read (the read failed or found no insets yet: try again).
    pub fn forget(&mut self) {
        self.last = None;
    }
}

/// What the app last applied, as the watcher thread compares it: the display's rotation and
/// the insets it read for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub rotation: i32,
    pub insets: Option<Sides>,
}

/// Whether the watcher thread wakes the app for a new read: the rotation it reads now, or the
/// insets (when it could read them), differ from what the app last applied. Only the insets
/// change when a tablet's taskbar shows or hides, the keyboard opens, or the cutout mode
/// changes: no resize, no rotation, and NativeActivity passes nothing on. Before the app's
/// first frame there is nothing to compare with, and a failed read says nothing.
pub fn wakes(app_saw: Option<Seen>, rotation: i32, insets: Option<Sides>) -> bool {
    app_saw.is_some_and(|saw| {
        saw.rotation != rotation || insets.is_some_and(|now| saw.insets != Some(now))
    })
}

/// The questions one `WindowInsets` object answers, by API level. Each answer is `None` when
/// Android has none (a null object: no cutout, or no insets yet).
pub trait InsetQueries {
    type Error;
    /// API 30+: `getInsets(WindowInsets.Type.systemBars() | WindowInsets.Type.displayCutout())`.
    fn bars_and_cutout(&mut self) -> Result<Option<Sides>, Self::Error>;
    /// API 20+ (deprecated in 30): `getSystemWindowInset{Left,Top,Right,Bottom}()`.
    fn system_window(&mut self) -> Result<Option<Sides>, Self::Error>;
    /// API 28+: `getDisplayCutout()`'s `getSafeInset{Left,Top,Right,Bottom}()`.
    fn cutout(&mut self) -> Result<Option<Sides>, Self::Error>;
}

/// The bars' and cutout's margins on a device of API level `sdk`, asking only what that
/// level has (an API 28 method called on Android 8 would throw `NoSuchMethodError`).
pub fn read_insets<Q: InsetQueries>(sdk: i32, queries: &mut Q) -> Result<Option<Sides>, Q::Error> {
    if sdk >= 30 {
        return queries.bars_and_cutout();
    }
    let Some(bars) = queries.system_window()? else {
        return Ok(None);
    };
    if sdk >= 28
        && let Some(cutout) = queries.cutout()?
    {
        return Ok(Some(bars.max(cutout)));
    }
    Ok(Some(bars))
}

impl SafeArea {
    /// Margins of `sides` physical pixels drawn at `scale` physical pixels per logical one;
    /// `None` for a scale that is not a scale.
    pub fn from_insets(sides: Sides, scale: f32) -> Option<SafeArea> {
        if !(scale.is_finite() && scale > 0.0) {
            return None;
        }
        let [left, top, right, bottom] = sides.0.map(|v| v.max(0) as f32 / scale);
        Some(SafeArea {
            left,
            top,
            right,
            bottom,
        })
    }

    /// The larger margin on each side: what both the content rectangle and the insets
    /// leave free.
    pub fn max(self, other: SafeArea) -> SafeArea {
        SafeArea {
            left: self.left.max(other.left),
            top: self.top.max(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers like a device would, and records what was asked.
    #[derive(Default)]
    struct Device {
        bars_and_cutout: Option<Sides>,
        system_window: Option<Sides>,
        cutout: Option<Sides>,
        asked: Vec<&'static str>,
    }

    impl InsetQueries for Device {
        type Error = String;
        fn bars_and_cutout(&mut self) -> Result<Option<Sides>, String> {
            self.asked.push("getInsets");
            Ok(self.bars_and_cutout)
        }
        fn system_window(&mut self) -> Result<Option<Sides>, String> {
            self.asked.push("getSystemWindowInset*");
            Ok(self.system_window)
        }
        fn cutout(&mut self) -> Result<Option<Sides>, String> {
            self.asked.push("getDisplayCutout");
            Ok(self.cutout)
        }
    }

    /// A 1080x2400 phone: 132 px status bar with a punch-hole camera (cutout 110 px), 66 px
    /// gesture bar.
    fn phone() -> Device {
        Device {
            bars_and_cutout: Some(Sides([0, 132, 0, 66])),
            system_window: Some(Sides([0, 100, 0, 66])),
            cutout: Some(Sides([0, 132, 0, 0])),
            asked: Vec::new(),
        }
    }

    #[test]
    fn api_30_and_later_ask_for_bars_and_cutout_at_once() {
        for sdk in [30, 35, 36] {
            let mut device = phone();
            assert_eq!(
                read_insets(sdk, &mut device),
                Ok(Some(Sides([0, 132, 0, 66])))
            );
            assert_eq!(device.asked, ["getInsets"], "API {sdk}");
        }
    }

    #[test]
    fn api_28_and_29_combine_bars_and_cutout() {
        for sdk in [28, 29] {
            let mut device = phone();
            assert_eq!(
                read_insets(sdk, &mut device),
                Ok(Some(Sides([0, 132, 0, 66]))),
                "the cutout is deeper than the status bar"
            );
            assert_eq!(device.asked, ["getSystemWindowInset*", "getDisplayCutout"]);
        }
        // No cutout (a null DisplayCutout): the bars alone.
        let mut device = Device {
            cutout: None,
            ..phone()
        };
        assert_eq!(
            read_insets(29, &mut device),
            Ok(Some(Sides([0, 100, 0, 66])))
        );
    }

    #[test]
    fn api_26_and_27_never_ask_for_the_cutout() {
        for sdk in [26, 27] {
            let mut device = phone();
            assert_eq!(
                read_insets(sdk, &mut device),
                Ok(Some(Sides([0, 100, 0, 66])))
            );
            assert_eq!(device.asked, ["getSystemWindowInset*"], "API {sdk}");
        }
    }

    #[test]
    fn no_insets_yet_is_none_and_errors_pass_through() {
        let mut device = Device::default();
        assert_eq!(read_insets(36, &mut device), Ok(None));
        assert_eq!(read_insets(26, &mut device), Ok(None));
        struct Broken;
        impl InsetQueries for Broken {
            type Error = &'static str;
            fn bars_and_cutout(&mut self) -> Result<Option<Sides>, &'static str> {
                Err("NoSuchMethodError")
            }
            fn system_window(&mut self) -> Result<Option<Sides>, &'static str> {
                Err("NoSuchMethodError")
            }
            fn cutout(&mut self) -> Result<Option<Sides>, &'static str> {
                Err("NoSuchMethodError")
            }
        }
        assert_eq!(read_insets(33, &mut Broken), Err("NoSuchMethodError"));
    }

    /// Landscape with the punch hole on the left; turned by 180° the window keeps its size
    /// (no resize, no configuration change) but the cutout moves to the right: the watch asks
    /// for a new read, and the new insets mirror the margins.
    /// A tablet's taskbar shows: the bottom inset grows, nothing else changes (no rotation, no
    /// resize). The watcher wakes the app, whose next frame reads again; then all is quiet.
    #[test]
    fn insets_that_change_alone_are_read_again() {
        let portrait = Orientation {
            rotation: 0,
            size: (1600, 2560),
        };
        let bars = Sides([0, 80, 0, 0]);
        let mut watch = InsetWatch::default();
        assert!(watch.needs_read(portrait, false), "first read");
        let mut saw = Seen {
            rotation: 0,
            insets: Some(bars),
        };
        assert!(
            !wakes(None, 0, Some(bars)),
            "no frame yet: nothing to compare"
        );
        assert!(!wakes(Some(saw), 0, Some(bars)), "nothing changed");
        let taskbar = Sides([0, 80, 0, 144]);
        assert!(wakes(Some(saw), 0, Some(taskbar)), "the taskbar showed");
        assert!(
            !watch.needs_read(portrait, false),
            "the frame alone sees no change"
        );
        assert!(watch.needs_read(portrait, true), "woken: read again");
        saw.insets = Some(taskbar);
        assert!(!wakes(Some(saw), 0, Some(taskbar)), "read: quiet again");
        assert!(
            !wakes(Some(saw), 0, None),
            "not attached or a failed read: no wake"
        );
    }

    #[test]
    fn a_half_turn_is_seen_and_mirrors_the_margins() {
        let mut watch = InsetWatch::default();
        let landscape = Orientation {
            rotation: 1,
            size: (2400, 1080),
        };
        assert!(watch.needs_read(landscape, false), "first read");
        assert!(!watch.needs_read(landscape, false), "nothing changed");
        let turned = Orientation {
            rotation: 3,
            ..landscape
        };
        assert!(
            watch.needs_read(turned, false),
            "180°: same size, new rotation"
        );
        assert!(!watch.needs_read(turned, false));
        assert!(watch.needs_read(turned, true), "a resume reads again");
        let unfolded = Orientation {
            size: (2208, 1840),
            ..turned
        };
        assert!(
            watch.needs_read(unfolded, false),
            "fold/unfold or split screen"
        );
        watch.forget();
        assert!(
            watch.needs_read(unfolded, false),
            "a failed read is tried again"
        );

        // The watcher thread wakes the app for the same turn, which brings no event.
        let saw = Seen {
            rotation: 1,
            insets: Some(Sides([132, 0, 66, 0])),
        };
        assert!(wakes(Some(saw), 3, None), "a new rotation, insets unread");
        assert!(!wakes(Some(saw), 1, None), "a failed read says nothing");

        let before = SafeArea::from_insets(Sides([132, 0, 66, 0]), 2.75).expect("a scale");
        let after = SafeArea::from_insets(Sides([66, 0, 132, 0]), 2.75).expect("a scale");
        assert!((before.left - after.right).abs() < 1e-4 && before.left > before.right);
        assert!((before.right - after.left).abs() < 1e-4);
    }

    #[test]
    fn pixels_become_logical_margins() {
        // Landscape: the cutout on the left, the navigation bar on the right, at 2.75x.
        let safe = SafeArea::from_insets(Sides([132, 0, 66, -5]), 2.75).expect("a scale");
        assert!((safe.left - 48.0).abs() < 1e-4 && (safe.right - 24.0).abs() < 1e-4);
        assert_eq!(
            (safe.top, safe.bottom),
            (0.0, 0.0),
            "negative insets are none"
        );
        assert_eq!(SafeArea::from_insets(Sides([1, 1, 1, 1]), 0.0), None);
        assert_eq!(SafeArea::from_insets(Sides([1, 1, 1, 1]), f32::NAN), None);
        // The content rectangle (pre-35 devices) and the insets: the larger margin wins.
        let rect = SafeArea::from_content_rect(
            [0.0, 132.0, 1080.0, 2400.0],
            bevy::math::Vec2::new(1080.0, 2400.0),
            2.75,
        )
        .expect("a rectangle");
        let insets = SafeArea::from_insets(Sides([0, 100, 0, 66]), 2.75).expect("a scale");
        let both = rect.max(insets);
        assert!((both.top - 48.0).abs() < 1e-4 && (both.bottom - 24.0).abs() < 1e-4);
    }
}
