//! The store build number (Android's versionCode, iOS's CFBundleVersion) comes from one
//! scheme, tools/version_code.py, which android/build.sh calls and ios/project.yml records:
//! codes grow with the version, pre-releases included, and never collide.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The codes of `versions`, or the script's error message.
fn codes(versions: &[&str]) -> Result<Vec<u64>, String> {
    let out = Command::new("python3")
        .arg(root().join("tools/version_code.py"))
        .args(versions)
        .output()
        .expect("python3 runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse().expect("a number a line"))
        .collect())
}

#[test]
fn codes_grow_with_the_version_pre_releases_included() {
    // In release order.
    let versions = [
        "0.1.0-alpha.0",
        "0.1.0-alpha.1",
        "0.1.0-alpha.29",
        "0.1.0-beta",
        "0.1.0-beta.2",
        "0.1.0-rc.0",
        "0.1.0-rc.29",
        "0.1.0",
        "0.1.1-alpha.3",
        "0.1.1",
        "0.1.99",
        "0.2.0-rc.1",
        "0.99.99",
        "1.0.0-alpha",
        "1.0.0",
        "1.0.0+build.7",
        "1.0.1",
        "2099.99.99",
    ];
    let codes = codes(&versions).expect("all valid");
    for (pair, names) in codes.windows(2).zip(versions.windows(2)) {
        if names[1].starts_with(names[0]) && names[1].contains('+') {
            assert_eq!(pair[0], pair[1], "build metadata is not a new version");
        } else {
            assert!(pair[0] < pair[1], "{names:?}: {pair:?}");
        }
    }
    assert_eq!(codes[7], 10_099, "0.1.0");
    assert!(
        *codes.last().expect("codes") <= 2_100_000_000,
        "Play's largest versionCode"
    );
    // The scheme before this one gave 0.1.0 the code 100: the new codes are above it.
    assert!(codes[0] > 100);
}

#[test]
fn versions_outside_the_scheme_are_refused_with_a_reason() {
    for (bad, why) in [
        ("1.0", "expected MAJOR.MINOR.PATCH"),
        ("1.100.0", "below 100"),
        ("1.0.0-dev", "alpha, beta or rc"),
        ("1.0.0-rc.30", "at most 29"),
        ("2100.0.0", "at most 2099"),
    ] {
        let err = codes(&[bad]).expect_err(bad);
        assert!(err.contains(why), "{bad}: {err}");
    }
}

/// The store's version string (iOS's MARKETING_VERSION and CFBundleShortVersionString,
/// Android's versionName): App Store Connect takes at most three integers, so a pre-release or
/// build metadata never reaches it.
#[test]
fn the_store_version_string_is_major_minor_patch_pre_releases_included() {
    let out = Command::new("python3")
        .arg(root().join("tools/version_code.py"))
        .arg("--marketing")
        .args([
            "1.2.0-rc.1",
            "1.2.0-alpha",
            "0.3.0-beta.12",
            "1.0.0+build.7",
            "2.10.3",
        ])
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{out:?}");
    let names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(names, ["1.2.0", "1.2.0", "0.3.0", "1.0.0", "2.10.3"]);
    for name in &names {
        let parts: Vec<&str> = name.split('.').collect();
        assert!(
            parts.len() <= 3
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())),
            "App Store Connect refuses {name}"
        );
    }
    // A version outside the scheme has no store string either.
    let bad = Command::new("python3")
        .arg(root().join("tools/version_code.py"))
        .args(["--marketing", "1.0.0-dev"])
        .output()
        .expect("python3 runs");
    assert!(!bad.status.success());
    // Android's package names it so (android/build.sh, checked on the APK by .ci/android.sh).
    let build = std::fs::read_to_string(root().join("android/build.sh")).expect("android/build.sh");
    assert!(build.contains("--version-name \"$version_name\""));
    assert!(build.contains("version_code.py --marketing"));
}

#[test]
fn the_ios_build_number_is_the_crate_versions_code() {
    let spec = std::fs::read_to_string(root().join("ios/project.yml")).expect("ios/project.yml");
    let build = spec
        .lines()
        .find_map(|l| l.trim().strip_prefix("CURRENT_PROJECT_VERSION:"))
        .map(|v| v.trim().trim_matches('"').to_string())
        .expect("project.yml sets CURRENT_PROJECT_VERSION");
    let code = codes(&[env!("CARGO_PKG_VERSION")]).expect("the crate's version is valid")[0];
    assert_eq!(
        build,
        code.to_string(),
        "ios/project.yml's CURRENT_PROJECT_VERSION must be tools/version_code.py --crate"
    );
}
