#!/usr/bin/env bash
# CI: the engine's test suite on aarch64, the phones' architecture, under QEMU user-mode
# emulation: any architecture-specific path (bit tricks, SIMD behind cfg, endianness-sensitive
# hashing) is proven correct there, not only on the x86_64 build machine. Installs Debian's
# qemu-user and the aarch64 cross linker and libc when missing, and the rustup target.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"

.ci/packages.sh arm64
rustup target list --installed | grep -x aarch64-unknown-linux-gnu >/dev/null ||
    rustup target add aarch64-unknown-linux-gnu

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
# -L: the aarch64 dynamic loader and libc live under Debian's cross sysroot.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
# The engine alone: it is what the phones run. The lab (lab/: the arena, the trainer and the
# command line) runs on the developers' machines only.
started=$(date +%s)
cargo test -p montello-engine --target aarch64-unknown-linux-gnu
# Proof that the tests ran as aarch64 code, not on the host.
binary=$(find "$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/debug/deps" -maxdepth 1 -type f \
    -name 'montello_engine-*' -perm -u+x -print -quit)
file -b "$binary" 2>/dev/null | grep aarch64 >/dev/null ||
    readelf -h "$binary" | grep 'Machine:.*AArch64' >/dev/null ||
    { echo "no aarch64 test binary in $CARGO_TARGET_DIR" >&2; exit 1; }
echo "engine tests on aarch64 (qemu-user): OK in $(( $(date +%s) - started )) s"
