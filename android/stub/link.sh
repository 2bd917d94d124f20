#!/usr/bin/env bash
# Check mode only: the linker that `android/build.sh --check` gives cargo for
# aarch64-linux-android when there is no NDK. Debian's lld links libmontello.so against
# the stand-in sysroot in $MONTELLO_STUB_SYSROOT (made by sysroot.py: stub Bionic libraries,
# crtbegin_so/crtend_so, libunwind.a from unwind/), in two steps:
#  1. a probe link that allows undefined symbols, whose imports sysroot.py compares with the
#     reviewed list in imports.txt (a new one fails the build, or is added with --update-imports);
#  2. the real link with `-z defs`: every symbol must resolve, against stubs that define only
#     the reviewed imports.
# A real build uses the NDK's clang instead and never runs this.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sysroot="${MONTELLO_STUB_SYSROOT:?set by android/build.sh --check}"

out=""
probe_args=()
prev=""
for arg in "$@"; do
    if [ "$prev" = "-o" ]; then
        out="$arg"
        arg="$arg.probe"
    fi
    case "$arg" in
        @*) echo "android/stub/link.sh: response files are not handled: $arg" >&2; exit 1 ;;
    esac
    probe_args+=("$arg")
    prev="$arg"
done
[ -n "$out" ] || { echo "android/stub/link.sh: no -o in the link command" >&2; exit 1; }

# rustc picks the linker flavour from the linker's file name; "link.sh" is no C compiler's
# name, so rustc passes plain `ld` arguments (-shared, --version-script, -l...) and we hand
# them to lld directly, with our crt objects around them and the stand-in sysroot to search.
# 16 KB pages, as the real build asks of the NDK's clang (android/build.sh): Android 15+
# devices with 16 KB pages refuse a library whose LOAD segments are aligned to less
# (android/check-apk.py asserts it on the result).
link() {
    ld.lld -z max-page-size=16384 -L "$sysroot" "$sysroot/crtbegin_so.o" "$@" "$sysroot/crtend_so.o"
}

link "${probe_args[@]}" --unresolved-symbols=ignore-all
status=0
python3 "$here/sysroot.py" check "$out.probe" || status=$?
rm -f "$out.probe"
[ "$status" = 0 ] || exit "$status"
if [ "${MONTELLO_UPDATE_IMPORTS:-0}" = 1 ]; then
    python3 "$here/sysroot.py" build "$sysroot"
fi
link "$@" -z defs --error-limit=0
