#!/usr/bin/env bash
# On a Mac: generate the Xcode project, build Montello for the iOS simulator, boot a simulator,
# install and launch the app. Needs Xcode, xcodegen (brew install xcodegen) and
# `rustup target add aarch64-apple-ios-sim x86_64-apple-ios`.
#
#   ios/run-simulator.sh ["iPhone 16"]     # the simulator's device name (default: iPhone 16)
set -euo pipefail
cd "$(dirname "$0")"
device="${1:-iPhone 16}"
xcodegen generate --quiet
xcodebuild -project Montello.xcodeproj -scheme Montello -configuration Debug \
    -sdk iphonesimulator -destination "platform=iOS Simulator,name=$device" \
    -derivedDataPath build/DerivedData build
app="build/DerivedData/Build/Products/Debug-iphonesimulator/Montello.app"
xcrun simctl boot "$device" 2>/dev/null || true   # already booted is fine
open -a Simulator
xcrun simctl install "$device" "$app"
xcrun simctl launch --console-pty "$device" org.montello.game
