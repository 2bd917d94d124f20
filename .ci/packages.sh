#!/usr/bin/env bash
# The Debian packages CI needs, by group, in one place: installs those of the named groups
# that are missing, in one apt transaction (nothing to do, nothing run: a machine that has
# them all never calls apt).
#
#   .ci/packages.sh GROUP...        groups: smoke android arm64 web-build web all
#
# .ci/run starts `.ci/packages.sh all` in the background at its beginning, so the downloads
# and unpacking run beside the first builds (docs/ci.md); each phase's own script asks for
# its group again, which finds everything there (and installs it when the script is run
# alone).
set -euo pipefail

# A package counts as present when dpkg says it is installed or, for those written
# `package=probe`, when the probe exists: a command on the PATH or an absolute path (the
# machine's Node.js comes from NodeSource's nodejs, which carries npm: Debian's npm would
# conflict with it).
declare -A groups=(
    [smoke]="xvfb mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxrandr2 libxi6"
    [android]="aapt apksigner zipalign android-framework-res clang lld llvm zip unzip default-jdk-headless=keytool"
    [arm64]="qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    [web-build]="brotli"
)
groups[web]="${groups[web-build]} chromium webkit2gtk-driver xvfb curl nodejs=node npm=npm"
groups[all]="${groups[smoke]} ${groups[android]} ${groups[arm64]} ${groups[web]}"

[[ $# -gt 0 ]] || { sed -n '6p' "$0" | sed 's/^# *//' >&2; exit 2; }
missing=()
for group in "$@"; do
    [[ -n "${groups[$group]:-}" ]] || { echo ".ci/packages.sh: no group $group" >&2; exit 2; }
    for entry in ${groups[$group]}; do
        package=${entry%%=*}
        probe=${entry#*=}
        if [[ "$entry" == *=* ]] && { command -v "$probe" >/dev/null || [[ -e "$probe" ]]; }; then
            continue
        fi
        # dpkg-query fails for a package it has never seen: not installed either.
        status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) || status="not installed"
        [[ "$status" == "install ok installed" ]] && continue
        [[ " ${missing[*]-} " == *" $package "* ]] || missing+=("$package")
    done
done
((${#missing[@]})) || exit 0
echo "installing Debian packages: ${missing[*]}"
sudo=""
[[ $(id -u) == 0 ]] || sudo=sudo
# Another apt may hold the lock (the background install of .ci/run): wait for it.
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=1200 "$@"; }
apt_get update -qq
# Without the packages they only recommend: Chromium, WebKitGTK, clang and Xvfb recommend 249
# more (GStreamer's and FFmpeg's codecs, Ghostscript, ImageMagick, Samba, CUPS, fonts; 1,434
# MB installed against 992, docs/ci.md), which no check uses and which a new machine unpacked
# beside the test build.
apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
