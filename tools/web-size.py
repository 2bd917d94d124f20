#!/usr/bin/env python3
"""The browser build's weight (web/build.sh runs it on the site it built).

    tools/web-size.py SITE_DIR [--budget BYTES] [--gzip-budget BYTES] [--worker-budget BYTES]

Prints every file a browser downloads with what is sent for it (its .br, else the file
itself: the icons), the whole site's total and the modules' (the app's, the page's brotli
unpacker and the larger of the engine worker's two builds, SIMD and scalar, of which a browser
downloads one), with brotli and with gzip (what a host without brotli sends, GitHub Pages among
them). The page downloads the app's module as its brotli file on every host and unpacks it
itself (web/index.html): that file counts as it is for both. --budget caps the modules with
brotli, --gzip-budget with gzip (web/build.sh gives the shipped build 5,000,000 and 6,500,000
bytes), --worker-budget the engine's larger build with brotli (every build: CI's check build
makes the worker as shipped, so every run holds it to its budget); any over its budget fails.
It also
fails if the app's module (montello_bg.HASH.wasm) carries the engine's evaluation weights: the
engine runs from the worker's module, on the page too when the worker cannot (web/index.html's
montelloRunOnPage), so a copy in the app's module would be downloaded for nothing. And it fails
if the app's brotli file asks for a window over MAX_WINDOW_BITS: the page's unpacker
(web/unbrotli) holds the whole window while the app starts.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def builtin_weights() -> pathlib.Path:
    """The weights file the engine embeds (engine/src/eval/mod.rs's BUILTIN)."""
    source = (ROOT / "engine/src/eval/mod.rs").read_text()
    name = re.search(r'static BUILTIN: &\[u8\] = include_bytes!\("\.\./\.\./weights/([^"]+)"\)', source)
    if not name:
        sys.exit("tools/web-size.py: engine/src/eval/mod.rs has no BUILTIN include_bytes! line")
    return ROOT / "engine/weights" / name.group(1)


# The largest brotli window the app's module may be compressed with: 2**22 bytes (4 MiB), brotli's
# own default. The page's unpacker keeps a window of that size while the app starts: brotli's
# command line writes 16 MiB windows unless told (-w), and with one the unpacker held 20 MiB
# instead of 8, for 0.6% of the download (docs/web.md, "Memory").
MAX_WINDOW_BITS = 22


def window_bits(stream: bytes) -> int:
    """The window a brotli stream asks for, as log2 of its size (RFC 7932, 9.1: WBITS, the
    stream's first bits, least significant first)."""
    if not stream:
        sys.exit("tools/web-size.py: an empty brotli file")
    bits = stream[0] | (stream[1] << 8 if len(stream) > 1 else 0)
    if not bits & 1:
        return 16
    n = (bits >> 1) & 7
    if n:
        return 17 + n
    m = (bits >> 4) & 7
    if m == 1:
        sys.exit("tools/web-size.py: a large-window brotli stream (not RFC 7932)")
    return 8 + m if m else 17


def module(site: pathlib.Path, stem: str) -> pathlib.Path:
    """The module `STEM.HASH.wasm` (web/build.sh names the modules by their content)."""
    found = [p for p in site.iterdir() if re.fullmatch(rf"{stem}\.[0-9a-f]{{16}}\.wasm", p.name)]
    if len(found) != 1:
        sys.exit(f"tools/web-size.py: {len(found)} files named {stem}.HASH.wasm in {site}")
    return found[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=pathlib.Path)
    parser.add_argument("--budget", type=int, help="the most the two modules may take, brotli")
    parser.add_argument("--gzip-budget", type=int, help="the most the two modules may take, gzip")
    parser.add_argument("--worker-budget", type=int,
                        help="the most the engine's larger build may take, brotli")
    args = parser.parse_args()

    total = 0
    for f in sorted(p for p in args.site.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")):
        br = f.with_name(f.name + ".br")
        sent = br.stat().st_size if br.exists() else f.stat().st_size
        total += sent
        print(f"{f.relative_to(args.site)}: {f.stat().st_size} bytes, {sent} sent")
    print(f"the site with brotli: {total} bytes")
    # A browser downloads the app's module (as its brotli file, whatever the host sends), the
    # unpacker, and one of the engine's two builds (web/simd.js).
    def modules(ext: str) -> tuple[int, int]:
        sent = lambda m: module(args.site, m).with_suffix(f".wasm.{ext}").stat().st_size  # noqa: E731
        engine = max(sent("montello_worker_bg"), sent("montello_worker_simd_bg"))
        app = module(args.site, "montello_bg").with_suffix(".wasm.br").stat().st_size
        return app + sent("unbrotli") + engine, engine

    over = []
    for ext, name, budget in (("br", "brotli", args.budget), ("gz", "gzip", args.gzip_budget)):
        both, engine = modules(ext)
        print(f"the modules (the app's as its .br, the unpacker's and the worker's) with {name}: {both} bytes "
              f"(the engine's larger build: {engine})")
        if budget is not None and both > budget:
            over.append(f"the modules take {both} bytes with {name}, over the budget of {budget}")
        if ext == "br" and args.worker_budget is not None and engine > args.worker_budget:
            over.append(f"the engine's module takes {engine} bytes with brotli, "
                        f"over the budget of {args.worker_budget}")
    for why in over:
        print(f"FAIL {why}")
    if over:
        return 1

    weights = builtin_weights().read_bytes()
    app = module(args.site, "montello_bg").read_bytes()
    # Three 64-byte stretches from inside the weights (past the header).
    probes = [weights[at:at + 64] for at in (len(weights) // 4, len(weights) // 2, 3 * len(weights) // 4)]
    found = sum(probe in app for probe in probes)
    if found:
        print(f"FAIL the app's module carries the engine's weights ({builtin_weights().name}: "
              f"{found} of 3 probes found): the engine belongs to the worker's module")
        return 1
    print(f"the app's module carries no copy of the engine's weights ({builtin_weights().name})")

    packed = module(args.site, "montello_bg").with_suffix(".wasm.br")
    bits = window_bits(packed.read_bytes()[:2])
    if bits > MAX_WINDOW_BITS:
        print(f"FAIL the app's brotli file has a window of 2**{bits} bytes, over 2**{MAX_WINDOW_BITS}: "
              f"the page's unpacker would hold it all (compress it with -w {MAX_WINDOW_BITS})")
        return 1
    print(f"the app's brotli file has a window of 2**{bits} bytes (at most 2**{MAX_WINDOW_BITS})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
