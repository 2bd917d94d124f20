#!/usr/bin/env python3
"""Writes an Android App Bundle's BundleConfig.pb (android/build.sh --bundle).

    android/bundle_config.py OUT

The message is bundletool's `BundleConfig` (its config.proto): here only
`bundletool { version }`, the tool version the layout follows, which Play reads to know how
to build the APKs from the bundle. Encoded by hand in protobuf's wire format (a length-
delimited field 1 holding the string field 2), so no protobuf library is needed.
"""
import sys

BUNDLETOOL_VERSION = "1.18.1"


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def bundle_config(version: str = BUNDLETOOL_VERSION) -> bytes:
    return field(1, field(2, version.encode()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[1], "wb") as f:
        f.write(bundle_config())
