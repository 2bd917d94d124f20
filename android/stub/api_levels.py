#!/usr/bin/env python3
"""Which Android API level first has each NDK symbol, from AOSP's symbol maps, and the check
that every symbol libmontello.so imports (imports.txt) exists at our minSdk on aarch64.

  api_levels.py extract LIBRARY MAP.txt FIRST_LEVEL   print `library symbol level` lines
  api_levels.py check IMPORTS.txt LEVELS.txt MIN_SDK   fail if an import is unknown or newer

The map format (AOSP's ndkstubgen reads the same): version blocks `NAME { # tags ... }` with
`symbol; # tags` lines. Tags: `introduced=N` / `introduced-arm64=N` (a level, or a codename
for unreleased ones), architecture names (the symbol exists only there), and `apex`, `llndk`,
`systemapi`, `platform-only`, `var`. Blocks named *_PRIVATE, *_PLATFORM or *_DEPRECATED, and
symbols for the platform only (apex, llndk, systemapi, platform-only), are not part of the
NDK. A symbol with no level has the library's first level (FIRST_LEVEL: 21 for the libraries
that existed when aarch64 came, API 21; libaaudio's is 26).
"""
import re
import sys

ARCH = "arm64"
ARCHES = {"arm", "arm64", "x86", "x86_64", "riscv64", "mips", "mips64"}
NOT_NDK = {"apex", "llndk", "systemapi", "platform-only"}
# Codenames of levels (unreleased when the map was written): never available at our minSdk.
CODENAMES = {"Tiramisu": 33, "UpsideDownCake": 34, "VanillaIceCream": 35, "Baklava": 36}


def tags_of(comment):
    return comment.replace("#", " ").split()


def level_of(tags):
    """The level the tags give for aarch64, or None."""
    found = None
    for tag in tags:
        key, _, value = tag.partition("=")
        if key in ("introduced", f"introduced-{ARCH}"):
            if value.isdigit():
                level = int(value)
            else:
                level = CODENAMES.get(value, 10_000)
            if key == f"introduced-{ARCH}" or found is None:
                found = level
                if key == f"introduced-{ARCH}":
                    return found
    return found


def extract(library, path, first):
    out = {}
    block_tags, block_name, in_block = [], "", False
    for raw in open(path, encoding="utf-8"):
        line, _, comment = raw.partition("#")
        line = line.strip()
        head = re.match(r"^([A-Za-z0-9_]+)\s*\{", line)
        if head:
            in_block, block_name, block_tags = True, head.group(1), tags_of(comment)
            continue
        if line.startswith("}"):
            in_block = False
            continue
        if not in_block or not line.endswith(";") or line in ("global:", "local:"):
            continue
        symbol = line[:-1].strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", symbol):
            continue  # `*` of `local: *;`, C++ patterns
        if re.search(r"_(PRIVATE|PLATFORM|DEPRECATED)$", block_name):
            continue
        tags = tags_of(comment)
        if NOT_NDK & (set(tags) | set(block_tags)):
            continue
        arches = ARCHES & set(tags)
        if not arches:
            arches = ARCHES & set(block_tags)
        if arches and ARCH not in arches:
            continue
        level = level_of(tags)
        if level is None:
            level = level_of(block_tags)
        out[symbol] = max(level if level is not None else first, first)
    for symbol in sorted(out):
        print(f"{library:<14} {symbol:<44} {out[symbol]}")


def table(path):
    rows = {}
    for raw in open(path, encoding="utf-8"):
        line = raw.split("#", 1)[0].split()
        if line:
            library, symbol, *rest = line
            rows[(library, symbol)] = int(rest[0]) if rest else None
    return rows


def check(imports_path, levels_path, min_sdk):
    imports, levels = table(imports_path), table(levels_path)
    problems = []
    for library, symbol in sorted(imports):
        level = levels.get((library, symbol))
        if level is None:
            others = [lib for (lib, sym) in levels if sym == symbol]
            hint = f" (AOSP's maps have it in {', '.join(others)})" if others else ""
            problems.append(f"{library} {symbol}: not in AOSP's NDK map for {library}{hint}")
        elif level > min_sdk:
            problems.append(f"{library} {symbol}: needs API {level}, minSdk is {min_sdk}")
    for problem in problems:
        print(f"api_levels.py: {problem}", file=sys.stderr)
    if problems:
        print(f"api_levels.py: {len(problems)} import(s) not available at API {min_sdk} "
              "(android/stub/api-levels.txt says where the facts come from)", file=sys.stderr)
        return 1
    newest = max(levels[key] for key in imports)
    print(f"api_levels.py: all {len(imports)} imports exist on aarch64 at API {min_sdk} "
          f"(newest needs API {newest})")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
