#!/usr/bin/env python3
"""What a phone checks when it loads libmontello.so, checked here on the built APK (CI runs it
on the check build, .ci/android.sh; it works the same on a real build):

  android/check-apk.py APK

- every LOAD segment of lib/arm64-v8a/libmontello.so is aligned to 16 KB or more (Android 15+
  16 KB-page devices refuse less; Google Play requires it for targetSdk 35+), and each
  segment's offset and address agree modulo its alignment;
- `ANativeActivity_onCreate` is a defined, global, default-visibility function in the dynamic
  symbol table (NativeActivity looks it up with dlsym; android-activity defines it);
- every NEEDED library is one of the NDK's stable system libraries (an app cannot load
  others since Android 7);
- no TEXTREL (refused since Android 6 for API 23+ targets);
- the APK's lib/ entries: a stored (uncompressed) library must start at a 16 KB boundary in
  the zip (zipalign -P 16); a deflated one needs extractNativeLibs="true" in the manifest.

Needs llvm-readelf (Debian's llvm) and aapt (for the manifest).
"""
import re
import subprocess
import sys
import tempfile
import zipfile

LIB = "lib/arm64-v8a/libmontello.so"
PAGE = 16 * 1024
# The NDK's stable system libraries (developer.android.com/ndk/guides/stable_apis).
NDK_STABLE = {
    "libc.so", "libm.so", "libdl.so", "liblog.so", "libandroid.so", "libaaudio.so",
    "libamidi.so", "libbinder_ndk.so", "libcamera2ndk.so", "libEGL.so", "libGLESv1_CM.so",
    "libGLESv2.so", "libGLESv3.so", "libjnigraphics.so", "libmediandk.so",
    "libnativewindow.so", "libneuralnetworks.so", "libOpenMAXAL.so", "libOpenSLES.so",
    "libsync.so", "libvulkan.so", "libz.so", "libstdc++.so", "libicu.so",
}


def readelf(*args):
    return subprocess.run(["llvm-readelf", *args], check=True, capture_output=True,
                          text=True).stdout


def main(apk):
    problems = []
    with zipfile.ZipFile(apk) as z, tempfile.NamedTemporaryFile(suffix=".so") as so:
        info = z.getinfo(LIB)
        so.write(z.read(info))
        so.flush()
        # --- LOAD segments ---------------------------------------------------------------------
        loads = [line.split() for line in readelf("-lW", so.name).splitlines()
                 if line.strip().startswith("LOAD ")]
        if not loads:
            problems.append("no LOAD segments")
        for fields in loads:
            offset, vaddr, align = int(fields[1], 16), int(fields[2], 16), int(fields[-1], 16)
            if align < PAGE or align & (align - 1):
                problems.append(f"LOAD at {fields[1]} aligned to {fields[-1]}, under 16 KB")
            elif offset % align != vaddr % align:
                problems.append(f"LOAD at {fields[1]}: offset and address disagree mod {fields[-1]}")
        print(f"check-apk: {len(loads)} LOAD segments, alignment "
              f"{', '.join(sorted({f[-1] for f in loads}))}")
        # --- the entry point -------------------------------------------------------------------
        entry = [line.split() for line in readelf("--dyn-syms", "-W", so.name).splitlines()
                 if line.split()[-1:] == ["ANativeActivity_onCreate"]]
        ok = [f for f in entry if f[3:6] == ["FUNC", "GLOBAL", "DEFAULT"] and f[6] != "UND"]
        if not ok:
            problems.append(f"ANativeActivity_onCreate is not a defined global function: {entry}")
        else:
            print("check-apk: ANativeActivity_onCreate: defined global function")
        # --- dynamic section ---------------------------------------------------------------------
        dynamic = readelf("-dW", so.name)
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
        foreign = sorted(set(needed) - NDK_STABLE)
        if foreign:
            problems.append(f"NEEDED libraries outside the NDK's stable set: {foreign}")
        print(f"check-apk: NEEDED {' '.join(needed)}")
        if "(TEXTREL)" in dynamic or re.search(r"\(FLAGS\).*TEXTREL", dynamic):
            problems.append("the library has text relocations (TEXTREL)")
    # --- the zip entry ---------------------------------------------------------------------------
    with open(apk, "rb") as f:
        f.seek(info.header_offset)
        header = f.read(30)
    name_len = int.from_bytes(header[26:28], "little")
    extra_len = int.from_bytes(header[28:30], "little")
    data_at = info.header_offset + 30 + name_len + extra_len
    if info.compress_type == zipfile.ZIP_STORED:
        if data_at % PAGE:
            problems.append(f"{LIB} is stored at offset {data_at}, not on a 16 KB boundary")
        else:
            print(f"check-apk: {LIB} stored at a 16 KB boundary ({data_at})")
    else:
        manifest = subprocess.run(["aapt", "dump", "xmltree", apk, "AndroidManifest.xml"],
                                  check=True, capture_output=True, text=True).stdout
        if not re.search(r"extractNativeLibs\([^)]*\)=\(type 0x12\)0xffffffff", manifest):
            problems.append(f"{LIB} is compressed but extractNativeLibs is not true")
        print(f"check-apk: {LIB} deflated, extractNativeLibs=\"true\" (extracted at install)")
    for problem in problems:
        print(f"check-apk: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
