#!/usr/bin/env python3
"""The store build number of a version: Android's versionCode and iOS's CFBundleVersion.

    tools/version_code.py VERSION...      prints one code a line
    tools/version_code.py --crate         the code of the workspace's version (Cargo.toml)
    tools/version_code.py --marketing VERSION...|--crate
                                          prints the store's version string instead

The store's version string (iOS's MARKETING_VERSION and CFBundleShortVersionString, Android's
versionName) is MAJOR.MINOR.PATCH alone: App Store Connect refuses anything but up to three
integers, so 1.2.0-rc.1 is shown as 1.2.0 and told apart from 1.2.0 by its build number.

VERSION is MAJOR.MINOR.PATCH, optionally -alpha.N, -beta.N or -rc.N (N from 0; a bare
-alpha is -alpha.0); build metadata after + is ignored. The code is

    MAJOR * 1_000_000 + MINOR * 10_000 + PATCH * 100 + STAGE

with STAGE alpha.N = N (0-29), beta.N = 30 + N (30-59), rc.N = 60 + N (60-89) and a release 99.
So codes grow with the version, pre-releases included: 1.2.0-alpha.1 < 1.2.0-beta.0 <
1.2.0-rc.3 < 1.2.0 < 1.2.1-alpha.0, and two versions never share a code (tests/store_version.rs
checks both). MINOR and PATCH are below 100, MAJOR at most 2099 (Play's largest versionCode is
2_100_000_000). Any other version is refused with a message saying why.
"""
import re
import sys
from pathlib import Path

STAGES = {"alpha": (0, 29), "beta": (30, 29), "rc": (60, 29)}
RELEASE = 99
PATTERN = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([a-z]+)(?:\.(0|[1-9]\d*))?)?(?:\+[0-9A-Za-z.-]+)?$"
)


def version_code(version: str) -> int:
    m = PATTERN.match(version.strip())
    if not m:
        raise ValueError(f"{version!r}: expected MAJOR.MINOR.PATCH[-alpha.N|-beta.N|-rc.N]")
    major, minor, patch = (int(m.group(i)) for i in (1, 2, 3))
    if minor > 99 or patch > 99:
        raise ValueError(f"{version!r}: minor and patch must be below 100")
    if major > 2099:
        raise ValueError(f"{version!r}: major must be at most 2099")
    stage_name, number = m.group(4), m.group(5)
    if stage_name is None:
        stage = RELEASE
    else:
        if stage_name not in STAGES:
            raise ValueError(f"{version!r}: pre-release must be alpha, beta or rc, not {stage_name!r}")
        base, most = STAGES[stage_name]
        n = int(number or 0)
        if n > most:
            raise ValueError(f"{version!r}: {stage_name} number must be at most {most}")
        stage = base + n
    return major * 1_000_000 + minor * 10_000 + patch * 100 + stage


def marketing_version(version: str) -> str:
    """MAJOR.MINOR.PATCH of a version the scheme accepts (the pre-release and build left out)."""
    version_code(version)
    m = PATTERN.match(version.strip())
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}"


def crate_version(root: Path) -> str:
    text = (root / "Cargo.toml").read_text()
    section = re.search(r"^\[workspace\.package\]\s*$(.*?)^\[", text, re.M | re.S)
    found = section and re.search(r'^version\s*=\s*"([^"]+)"', section.group(1), re.M)
    if not found:
        raise ValueError("no version in Cargo.toml's [workspace.package]")
    return found.group(1)


def main(args: list[str]) -> int:
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        marketing = "--marketing" in args
        args = [a for a in args if a != "--marketing"]
        if "--crate" in args:
            root = Path(__file__).resolve().parent.parent
            args = [crate_version(root) if a == "--crate" else a for a in args]
        for version in args:
            print(marketing_version(version) if marketing else version_code(version))
    except ValueError as e:
        print(f"version_code.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
