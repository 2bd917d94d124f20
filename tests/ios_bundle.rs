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
