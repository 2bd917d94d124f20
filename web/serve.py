#!/usr/bin/env python3
"""Serves the browser build (web/build.sh) as a real host should: each large file's
precompressed copy (.br, else .gz, written by web/build.sh) when the browser accepts that
encoding, with its Content-Encoding and the original file's type (application/wasm for the
modules, which streaming compilation requires), and caching headers that never guess: the
files named by their content kept, the others revalidated (the service worker keeps the app
offline, web/sw.js).

    web/serve.py DIR [PORT] [--host ADDRESS]      (web/serve.sh runs it on web/dist, port 8080)

Port 0 picks a free port; the address served is printed on the first line of output.
"""
import argparse
import email.utils
import functools
import http.server
import os
import re
import sys

TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".html": "text/html; charset=utf-8",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".json": "application/json",
}
# Encodings web/build.sh writes, in the order they are preferred.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def cache_control(path):
    """A module or script named by its content (web/build.sh: `montello_bg.1a2b….wasm`) never
    changes: kept for a year without asking. Anything else is revalidated every time (index.html,
    sw.js, the manifest, the icons): a new build is seen at once, an unchanged file costs a
    304-sized round trip (the service worker answers offline)."""
    if re.search(r"\.[0-9a-f]{16}\.(wasm|js)$", path):
        return "public, max-age=31536000, immutable"
    return "no-cache"


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        modified = int(os.stat(path).st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                unchanged = email.utils.parsedate_to_datetime(since).timestamp() >= modified
            except (TypeError, ValueError):
                unchanged = False
            if unchanged:
                self.send_response(304)
                self.send_header("Cache-Control", cache_control(path))
                self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return None
        accepted = {
            part.split(";")[0].strip()
            for part in self.headers.get("Accept-Encoding", "").split(",")
        }
        chosen, encoding = path, None
        for name, suffix in ENCODINGS:
            if name in accepted and os.path.isfile(path + suffix):
                chosen, encoding = path + suffix, name
                break
        try:
            f = open(chosen, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        stat = os.fstat(f.fileno())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(modified))
        self.send_header("Cache-Control", cache_control(path))
        self.send_header("Vary", "Accept-Encoding")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        return f

    def log_message(self, format, *args):
        if os.environ.get("MONTELLO_SERVE_LOG"):
            super().log_message(format, *args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("port", nargs="?", type=int, default=8080)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        print(f"no build in {args.dir}: run web/build.sh first", file=sys.stderr)
        return 1
    handler = functools.partial(Handler, directory=args.dir)
    with http.server.ThreadingHTTPServer((args.host, args.port), handler) as server:
        host, port = server.server_address[:2]
        print(f"Montello: http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
