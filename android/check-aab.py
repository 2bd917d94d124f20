#!/usr/bin/env python3
"""Checks an Android App Bundle as bundletool and Play would read it (.ci/android.sh):

  android/check-aab.py AAB VERSION_CODE

- the top level holds only BundleConfig.pb, the module base/ and the JAR signature
  (META-INF/*.SF and a certificate block);
- BundleConfig.pb decodes as `bundletool { version }`;
- base/ has manifest/AndroidManifest.xml and resources.pb (aapt2's protobuf format), res/,
  assets/ with the game's fonts and languages, and lib/arm64-v8a/libmontello.so, nothing at
  its top level beside those;
- aapt2 can dump the manifest (the module repackaged as a proto APK): the package, the
  versionCode, and the backup rules that leave the GPU record out.
Needs aapt2 (Debian's aapt2 reads proto-format APKs).
"""
import re
import subprocess
import sys
import tempfile
import zipfile


def fail(msg):
    print(f"check-aab.py: {msg}", file=sys.stderr)
    sys.exit(1)


def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def fields(data):
    """(number, payload) of each length-delimited field of a protobuf message."""
    i, out = 0, []
    while i < len(data):
        key, i = varint(data, i)
        if key & 7 != 2:
            fail(f"BundleConfig.pb: unexpected wire type {key & 7}")
        n, i = varint(data, i)
        out.append((key >> 3, data[i:i + n]))
        i += n
    return out


def main(aab, version_code):
    with zipfile.ZipFile(aab) as z:
        names = z.namelist()
        top = {n.split("/", 1)[0] for n in names}
        if top != {"BundleConfig.pb", "base", "META-INF"}:
            fail(f"top level should be BundleConfig.pb, base/, META-INF/; found {sorted(top)}")
        meta = [n for n in names if n.startswith("META-INF/")]
        if not any(n.endswith(".SF") for n in meta) or not any(
                n.endswith((".RSA", ".EC", ".DSA")) for n in meta):
            fail(f"no JAR signature in META-INF: {meta}")
        config = dict(fields(z.read("BundleConfig.pb")))
        tool = dict(fields(config.get(1, b""))).get(2, b"").decode()
        if not tool:
            fail("BundleConfig.pb has no bundletool version")
        base_top = {n.split("/")[1] for n in names if n.startswith("base/")}
        expected = {"manifest", "resources.pb", "res", "assets", "lib"}
        if base_top != expected:
            fail(f"base/ should hold {sorted(expected)}; found {sorted(base_top)}")
        for need in ["base/manifest/AndroidManifest.xml", "base/resources.pb",
                     "base/lib/arm64-v8a/libmontello.so", "base/assets/fonts/montello-ui.otf",
                     "base/assets/lang/en.txt", "base/res/xml/backup_rules.xml"]:
            if need not in names:
                fail(f"missing {need}")
        with tempfile.TemporaryDirectory() as tmp:
            apk = f"{tmp}/base-proto.apk"
            with zipfile.ZipFile(apk, "w") as out:
                for n in names:
                    if n.startswith("base/") and not n.startswith("base/lib/"):
                        inner = n[len("base/"):]
                        if inner == "manifest/AndroidManifest.xml":
                            inner = "AndroidManifest.xml"
                        out.writestr(inner, z.read(n))
            dump = subprocess.run(["aapt2", "dump", "xmltree", "--file", "AndroidManifest.xml", apk],
                                  capture_output=True, text=True)
            if dump.returncode != 0:
                fail(f"aapt2 cannot dump the bundle's manifest: {dump.stderr.strip()}")
            text = dump.stdout
            rules = subprocess.run(["aapt2", "dump", "xmltree", "--file",
                                    "res/xml/backup_rules.xml", apk],
                                   capture_output=True, text=True).stdout
    for want in [r'A: package="org\.montello\.game"',
                 rf'android:versionCode\([^)]*\)={version_code}\b',
                 r'android:fullBackupContent\([^)]*\)=@xml/backup_rules',
                 r'android:value\([^)]*\)="montello"']:
        if not re.search(want, text):
            fail(f"the bundle's manifest lacks /{want}/:\n{text}")
    if "gpu.ron" not in rules:
        fail(f"the bundle's backup rules do not leave gpu.ron out:\n{rules}")
    print(f"check-aab.py: {aab}: base module, BundleConfig.pb (bundletool {tool}), "
          f"signed; manifest dumped by aapt2 (versionCode {version_code})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
