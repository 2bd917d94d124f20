//! The iOS app's bundle description, checked on any machine (no Xcode, no `plutil`):
//! ios/Montello/Info.plist parses and names the right app, bundle id and orientations, the
//! XcodeGen spec agrees with it, and every icon the AppIcon catalog names exists at its size.

use std::path::{Path, PathBuf};

use plist::{Dictionary, Value};

const BUNDLE_ID: &str = "org.montello.game";
const DISPLAY_NAME: &str = "Montello";

fn ios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ios")
}

fn info_plist() -> Dictionary {
    let path = ios_dir().join("Montello/Info.plist");
    let value = Value::from_file(&path)
        .unwrap_or_else(|e| panic!("{} does not parse as a plist: {e}", path.display()));
    value
        .into_dictionary()
        .unwrap_or_else(|| panic!("{} is not a dictionary", path.display()))
}

fn string<'a>(info: &'a Dictionary, key: &str) -> &'a str {
    info.get(key)
        .and_then(Value::as_string)
        .unwrap_or_else(|| panic!("Info.plist has no string {key}"))
}

fn strings(info: &Dictionary, key: &str) -> Vec<String> {
    info.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("Info.plist has no array {key}"))
        .iter()
        .map(|v| {
            v.as_string()
                .unwrap_or_else(|| panic!("{key} holds a non-string"))
                .to_owned()
        })
        .collect()
}

#[test]
fn info_plist_names_the_app() {
    let info = info_plist();
    assert_eq!(string(&info, "CFBundleIdentifier"), BUNDLE_ID);
    assert_eq!(string(&info, "CFBundleDisplayName"), DISPLAY_NAME);
    assert_eq!(string(&info, "CFBundlePackageType"), "APPL");
    assert_eq!(string(&info, "CFBundleExecutable"), "$(EXECUTABLE_NAME)");
    assert_eq!(string(&info, "UILaunchStoryboardName"), "LaunchScreen");
    assert!(
        ios_dir().join("Montello/LaunchScreen.storyboard").is_file(),
        "the launch storyboard Info.plist names is missing"
    );
    assert_eq!(
        info.get("UIRequiresFullScreen").and_then(Value::as_boolean),
        Some(false),
        "the iPad app takes part in multitasking"
    );
}

#[test]
fn info_plist_allows_portrait_and_landscape() {
    let info = info_plist();
    let both_landscapes = [
        "UIInterfaceOrientationLandscapeLeft",
        "UIInterfaceOrientationLandscapeRight",
    ];
    for key in [
        "UISupportedInterfaceOrientations",
        "UISupportedInterfaceOrientations~ipad",
    ] {
        let orientations = strings(&info, key);
        assert!(
            orientations
                .iter()
                .any(|o| o == "UIInterfaceOrientationPortrait"),
            "{key} lacks portrait: {orientations:?}"
        );
        for landscape in both_landscapes {
            assert!(
                orientations.iter().any(|o| o == landscape),
                "{key} lacks {landscape}: {orientations:?}"
            );
        }
    }
    // An iPad app that allows multitasking must offer all four orientations.
    assert_eq!(
        strings(&info, "UISupportedInterfaceOrientations~ipad").len(),
        4
    );
}

#[test]
fn xcodegen_spec_agrees_with_info_plist() {
    let spec = std::fs::read_to_string(ios_dir().join("project.yml")).expect("ios/project.yml");
    let setting = |key: &str| {
        spec.lines()
            .find_map(|line| line.trim().strip_prefix(key)?.strip_prefix(':'))
            .map(|v| v.trim().trim_matches('"').to_owned())
            .unwrap_or_else(|| panic!("project.yml sets no {key}"))
    };
    assert_eq!(setting("PRODUCT_BUNDLE_IDENTIFIER"), BUNDLE_ID);
    assert_eq!(setting("INFOPLIST_FILE"), "Montello/Info.plist");
    assert_eq!(setting("ASSETCATALOG_COMPILER_APPICON_NAME"), "AppIcon");
    assert_eq!(setting("TARGETED_DEVICE_FAMILY"), "1,2", "iPhone and iPad");
}

/// PNG width and height from the IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((be(16), be(20)))
}

#[test]
fn every_app_icon_exists_at_its_size() {
    let set = ios_dir().join("Montello/Assets.xcassets/AppIcon.appiconset");
    let contents: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(set.join("Contents.json")).expect("AppIcon Contents.json"),
    )
    .expect("AppIcon Contents.json is JSON");
    let images = contents["images"].as_array().expect("an images array");
    let mut idioms = Vec::new();
    for image in images {
        let name = image["filename"]
            .as_str()
            .unwrap_or_else(|| panic!("an icon entry without a file: {image}"));
        let points: f64 = image["size"]
            .as_str()
            .and_then(|s| s.split('x').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name}: no size"));
        let scale: f64 = image["scale"]
            .as_str()
            .and_then(|s| s.trim_end_matches('x').parse().ok())
            .unwrap_or_else(|| panic!("{name}: no scale"));
        let bytes = std::fs::read(set.join(name))
            .unwrap_or_else(|e| panic!("icon {name} named in Contents.json: {e}"));
        let pixels = (points * scale).round() as u32;
        assert_eq!(png_size(&bytes), Some((pixels, pixels)), "{name}");
        // App Store validation rejects icons with an alpha channel: colour type 2 is RGB.
        assert_eq!(bytes[25], 2, "{name} must be opaque RGB");
        idioms.push(image["idiom"].as_str().unwrap_or_default().to_owned());
    }
    for idiom in ["iphone", "ipad", "ios-marketing"] {
        assert!(idioms.iter().any(|i| i == idiom), "no {idiom} icon");
    }
}

fn dict<'a>(value: Option<&'a Value>, what: &str) -> &'a Dictionary {
    value
        .and_then(Value::as_dictionary)
        .unwrap_or_else(|| panic!("{what} is not a dictionary"))
}

/// Apps built with the iOS 27 SDK must adopt the UIScene life cycle, and UIKit decides that
/// from Info.plist alone: one window-scene configuration whose delegate is our Rust class.
#[test]
fn info_plist_adopts_the_scene_life_cycle() {
    let info = info_plist();
    let manifest = dict(
        info.get("UIApplicationSceneManifest"),
        "UIApplicationSceneManifest",
    );
    assert_eq!(
        manifest
            .get("UIApplicationSupportsMultipleScenes")
            .and_then(Value::as_boolean),
        Some(false),
        "one board, one scene"
    );
    let configurations = dict(
        manifest.get("UISceneConfigurations"),
        "UISceneConfigurations",
    );
    let roles: Vec<&String> = configurations.keys().collect();
    assert_eq!(roles, ["UIWindowSceneSessionRoleApplication"]);
    let scenes = configurations
        .get("UIWindowSceneSessionRoleApplication")
        .and_then(Value::as_array)
        .expect("an array of scene configurations");
    assert_eq!(scenes.len(), 1, "{scenes:?}");
    let scene = dict(scenes.first(), "the scene configuration");
    let get = |key: &str| {
        scene
            .get(key)
            .and_then(Value::as_string)
            .unwrap_or_else(|| panic!("the scene configuration has no {key}"))
    };
    assert_eq!(get("UISceneClassName"), "UIWindowScene");
    assert_eq!(
        get("UISceneDelegateClassName"),
        montello::platform::SCENE_DELEGATE_CLASS,
        "Info.plist must name the class src/platform/ios.rs declares"
    );
    assert!(!get("UISceneConfigurationName").is_empty());
    assert!(
        scene.get("UISceneStoryboardFile").is_none() && info.get("UIMainStoryboardFile").is_none(),
        "no storyboard: the delegate hands winit's window to the scene"
    );
    // The class really is declared under that name, and registered before UIKit looks it up.
    let glue =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/platform/ios.rs"))
            .expect("src/platform/ios.rs");
    assert!(glue.contains("const NAME: &'static str = super::SCENE_DELEGATE_CLASS;"));
    assert!(glue.contains("#[method(scene:willConnectToSession:options:)]"));
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let ios_main = lib
        .split("pub fn ios_main()")
        .nth(1)
        .expect("lib.rs has ios_main");
    let register = ios_main.find("register_scene_delegate()");
    let run = ios_main.find("run(");
    assert!(
        matches!((register, run), (Some(r), Some(u)) if r < u),
        "ios_main registers the scene delegate before it runs the app"
    );
}

/// The App Store's privacy manifest: no tracking, nothing collected, and a documented reason
/// for each "required reason" API the Rust standard library calls for us.
#[test]
fn privacy_manifest_declares_the_required_reason_apis() {
    let path = ios_dir().join("Montello/PrivacyInfo.xcprivacy");
    let manifest = Value::from_file(&path)
        .unwrap_or_else(|e| panic!("{} does not parse as a plist: {e}", path.display()))
        .into_dictionary()
        .expect("a dictionary");
    assert_eq!(
        manifest
            .get("NSPrivacyTracking")
            .and_then(Value::as_boolean),
        Some(false)
    );
    for empty in ["NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes"] {
        assert_eq!(
            manifest.get(empty).and_then(Value::as_array).map(Vec::len),
            Some(0),
            "{empty}"
        );
    }
    let mut declared = std::collections::BTreeMap::new();
    for api in manifest
        .get("NSPrivacyAccessedAPITypes")
        .and_then(Value::as_array)
        .expect("NSPrivacyAccessedAPITypes")
    {
        let api = dict(Some(api), "an accessed API entry");
        let kind = api
            .get("NSPrivacyAccessedAPIType")
            .and_then(Value::as_string)
            .expect("NSPrivacyAccessedAPIType");
        let reasons: Vec<&str> = api
            .get("NSPrivacyAccessedAPITypeReasons")
            .and_then(Value::as_array)
            .expect("reasons")
            .iter()
            .filter_map(Value::as_string)
            .collect();
        assert!(!reasons.is_empty(), "{kind} without a reason");
        assert!(
            declared.insert(kind.to_owned(), reasons).is_none(),
            "{kind} twice"
        );
    }
    // std::fs::metadata on our own files; std::time::Instant (mach_absolute_time).
    assert_eq!(
        declared.get("NSPrivacyAccessedAPICategoryFileTimestamp"),
        Some(&vec!["C617.1"])
    );
    assert_eq!(
        declared.get("NSPrivacyAccessedAPICategorySystemBootTime"),
        Some(&vec!["35F9.1"])
    );
    // XcodeGen copies it into the app.
    let spec = std::fs::read_to_string(ios_dir().join("project.yml")).expect("ios/project.yml");
    let entry = spec
        .split("- path: Montello/PrivacyInfo.xcprivacy")
        .nth(1)
        .expect("project.yml lists PrivacyInfo.xcprivacy");
    assert!(
        entry
            .lines()
            .nth(1)
            .is_some_and(|l| l.trim() == "buildPhase: resources"),
        "PrivacyInfo.xcprivacy must be a resource of the app"
    );
}

/// The store versions come from the crate's version, as Android's do (android/build.sh): its
/// MAJOR.MINOR.PATCH (tools/version_code.py --marketing; tests/store_version.rs pins the
/// mapping), the only form App Store Connect takes.
#[test]
fn app_version_is_the_crate_version() {
    let spec = std::fs::read_to_string(ios_dir().join("project.yml")).expect("ios/project.yml");
    let marketing = spec
        .lines()
        .find_map(|l| l.trim().strip_prefix("MARKETING_VERSION:"))
        .map(|v| v.trim().trim_matches('"'))
        .expect("project.yml sets MARKETING_VERSION");
    let out = std::process::Command::new("python3")
        .args(["tools/version_code.py", "--marketing", "--crate"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(marketing, String::from_utf8_lossy(&out.stdout).trim());
}
