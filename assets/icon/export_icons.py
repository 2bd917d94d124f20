#!/usr/bin/env python3
"""Export every launcher icon from the one source, assets/icon/montello-icon.svg.

Writes the Android mipmaps (android/res/mipmap-*/), the iOS AppIcon set
(ios/Montello/Assets.xcassets/AppIcon.appiconset/, with its Contents.json) and the web app's
icons (web/icons/: the manifest's 192 and 512 px, which are also its maskable ones since the
SVG keeps everything inside the safe circle, and the 180 px apple-touch-icon). The outputs
are committed; rerun this after editing the SVG:

    python3 assets/icon/export_icons.py   (Debian: /usr/bin/python3, which sees python3-pil)

Needs rsvg-convert (Debian: librsvg2-bin) and Pillow (python3-pil). Every PNG is written
opaque RGB: App Store validation rejects app icons with an alpha channel.
"""
import io
import json
import pathlib
import subprocess
import sys

from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = ROOT / "assets/icon/montello-icon.svg"
ANDROID_RES = ROOT / "android/res"
IOS_SET = ROOT / "ios/Montello/Assets.xcassets/AppIcon.appiconset"
WEB_ICONS = ROOT / "web/icons"
# The web app's icons (web/manifest.webmanifest, web/index.html): name and size in px.
WEB = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180}

# Android densities and their scale from dp to px.
DENSITIES = {"mdpi": 1.0, "hdpi": 1.5, "xhdpi": 2.0, "xxhdpi": 3.0, "xxxhdpi": 4.0}
LEGACY_DP = 48  # ic_launcher.png, for launchers that ignore adaptive icons
ADAPTIVE_DP = 108  # ic_launcher_foreground.png, one full layer of an adaptive icon

# iOS: (idiom, size in points, scale) for iPhone and iPad, plus the App Store's 1024 px.
IOS_ICONS = [
    ("iphone", 20, 2), ("iphone", 20, 3), ("iphone", 29, 2), ("iphone", 29, 3),
    ("iphone", 40, 2), ("iphone", 40, 3), ("iphone", 60, 2), ("iphone", 60, 3),
    ("ipad", 20, 1), ("ipad", 20, 2), ("ipad", 29, 1), ("ipad", 29, 2),
    ("ipad", 40, 1), ("ipad", 40, 2), ("ipad", 76, 1), ("ipad", 76, 2),
    ("ipad", 83.5, 2), ("ios-marketing", 1024, 1),
]


def render(px: int) -> Image.Image:
    """Render the SVG at px x px straight from the vector (sharper than downscaling)."""
    png = subprocess.run(
        ["rsvg-convert", "-w", str(px), "-h", str(px), str(SOURCE)],
        check=True, capture_output=True,
    ).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


def save(img: Image.Image, path: pathlib.Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, optimize=True)
    print(f"{path.relative_to(ROOT)} {img.width}x{img.height}")


def main() -> int:
    for density, scale in DENSITIES.items():
        folder = ANDROID_RES / f"mipmap-{density}"
        save(render(round(LEGACY_DP * scale)), folder / "ic_launcher.png")
        save(render(round(ADAPTIVE_DP * scale)), folder / "ic_launcher_foreground.png")

    images = []
    for idiom, points, scale in IOS_ICONS:
        px = round(points * scale)
        pts = f"{points:g}"
        name = f"icon-{idiom}-{pts}@{scale}x.png"
        save(render(px), IOS_SET / name)
        images.append({"filename": name, "idiom": idiom, "scale": f"{scale}x",
                       "size": f"{pts}x{pts}"})
    for name, px in WEB.items():
        save(render(px), WEB_ICONS / name)

    contents = {"images": images, "info": {"author": "xcode", "version": 1}}
    (IOS_SET / "Contents.json").write_text(json.dumps(contents, indent=2) + "\n")
    print(f"{(IOS_SET / 'Contents.json').relative_to(ROOT)} ({len(images)} icons)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
