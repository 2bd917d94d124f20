#!/usr/bin/env python3
"""Montello's browser build in WebKit, the engine of every iPhone browser.

Drives WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver, a W3C WebDriver server) with
the standard library's HTTP client, under an X display the caller provides (web/test/run.sh
starts Xvfb). In a 390x844 window it loads the page and waits for the board; taps a legal
square with a W3C pointer action and sees the counts change; waits for the AI's reply and sees
that it came from the engine's Web Worker; reloads and finds the same game. The app tells the
page its state through data- attributes on <body> (src/app/page.rs), as in the Chromium test
(web/test/phone.mjs).

    python3 web/test/webkit.py http://127.0.0.1:PORT OUT_DIR

Writes OUT_DIR/webkit-phone.png (the board after the AI's reply) and OUT_DIR/webkit-figures.json;
exits 1 if a check failed.
"""

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

# Software WebGL on two cores is slow: generous waits, never a pass that depends on speed.
READY_S = 240
MOVE_S = 120
PHONE = (390, 844)

failures = []


def check(ok, what):
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        failures.append(what)


class SessionLost(Exception):
    """The browser is gone: WebDriver answers "invalid session id"."""


class WebDriver:
    """The few W3C WebDriver commands the test needs, over plain HTTP."""

    def __init__(self, attempt=0):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log_path = os.path.join(OUT, f"webkit-driver-{attempt}.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            ["WebKitWebDriver", f"--port={self.port}", "--host=127.0.0.1"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 30
        while True:
            try:
                self.call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline or self.process.poll() is not None:
                    raise SystemExit("webkit: WebKitWebDriver did not start (webkit-driver-N.log)")
                time.sleep(0.2)
        # --automation: the browser accepts being driven. No proxy and no network beyond
        # the loopback are configured: the page needs none.
        caps = {"webkitgtk:browserOptions": {"args": ["--automation"]}}
        self.session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]

    def call(self, method, path, body=None, timeout=READY_S):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=data,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as e:
            said = e.read().decode(errors="replace")[:500]
            if "invalid session id" in said:
                raise SessionLost(f"WebDriver {method} {path}: {said[:160]}")
            raise RuntimeError(f"WebDriver {method} {path}: {e.code} {said}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        """Runs `script` with a callback as its last argument; the callback's value comes back."""
        return self.s("POST", "/execute/async", {"script": script, "args": list(args)})

    def wait(self, condition, seconds, what):
        """Polls a JavaScript expression until it is true; fails with the page's state if not."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                if self.js(f"return !!({condition});"):
                    return
            except RuntimeError as e:
                # While the page reloads WebKitWebDriver may fail a script run on the document
                # going away ("Could not parse script result": a cold CI run, 2026-11-28): not
                # ready yet. A page that never gets there still times out below.
                print(f"     (still loading: {str(e)[:120]})")
            time.sleep(0.25)
        raise SystemExit(f"webkit: timed out after {seconds} s waiting for {what}: {self.data()}")

    def data(self):
        return self.js("return Object.assign({}, document.body.dataset);")

    def log_tail(self, lines=30):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}", timeout=30)
        except (RuntimeError, SessionLost, OSError):
            pass  # a browser already gone
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.log.close()


def browser_cpu_seconds():
    """CPU seconds (user and system) used so far by every process below this one: the driver,
    the browser and its web, network and GPU processes (Linux's /proc, 100 ticks a second)."""
    parent, ticks = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # the process ended while the list was read
        fields = stat[stat.rindex(")") + 2 :].split()
        parent[int(name)] = int(fields[1])
        ticks[int(name)] = int(fields[11]) + int(fields[12])

    def below(pid):
        pid = parent.get(pid)
        while pid:
            if pid == os.getpid():
                return True
            pid = parent.get(pid)
        return False

    return sum(t for pid, t in ticks.items() if below(pid)) / 100


def places(text):
    """data-legal's 'f5:195,402 ...' as (square, x, y) in the canvas's CSS pixels."""
    out = []
    for item in (text or "").split():
        square, at = item.split(":")
        x, y = (float(v) for v in at.split(","))
        out.append((square, x, y))
    return out


# WebKitGTK's JavaScriptCore on Linux stops a WebAssembly module now and then with a spurious
# "Out of bounds memory access" (the same build passes the next run; known upstream: tauri
# issue 7154, WebKit bug 259441, bun issue 17146 reduced to plain JSC). Seen here as a page
# started (a first load, a reload) in 2 runs of 6 (2026-11-27/28), the second with the app's
# stack already at 8 MiB, so not a stack overflow. On 2026-11-29 the same happened once in
# four runs as "Unreachable code should not be executed" on the reload that resumes a game:
# the same build passed that step in the three runs after it (web/test/webkit.py alone, three
# times). A page that fails that way is reloaded once, said on the log and counted in the
# figures; twice (a real panic at start fails every time), or any other failure, fails the
# test.
JSC_SPURIOUS = ("Out of bounds memory access", "Unreachable code should not be executed")
spurious_failures = []


def ready(d, started):
    for attempt in range(2):
        try:
            d.wait("['ready', 'failed'].includes(document.body.dataset.montello)", READY_S, "the board")
        except SystemExit as timeout:
            # A cold CI run (2026-11-30, lane b's builds beside it) met a page that published
            # nothing in 240 s, not even how it got the app's module (data-app-module): stuck
            # before the module was unpacked and compiled; the same build passed WebKit when run
            # again alone. Not understood yet (docs/ci.md): reloaded once, said and counted like
            # the traps below; a second time fails.
            if attempt == 0 and not d.data():
                spurious_failures.append("no page state after the wait for the board")
                print(f"     {timeout}: reloading once")
                d.s("POST", "/refresh", {})
                continue
            raise
        state = d.data()
        if state.get("montello") != "failed":
            return time.time() - started
        what = d.js("return document.getElementById('what').textContent;")
        if attempt == 0 and any(spurious in what for spurious in JSC_SPURIOUS):
            spurious_failures.append(what[:200])
            print(f"     WebKit stopped the module ({what[:160]}): reloading once")
            d.s("POST", "/refresh", {})
            continue
        raise SystemExit(f"webkit: the page failed: {what}")
    raise AssertionError("unreachable")


def tap(d, place):
    """A press and release where a finger would land, once the discs are still (the app
    refuses a tap while they move, and says so)."""
    d.wait("document.body.dataset.busy === '0'", MOVE_S, "the discs to settle")
    rect = d.js("const r = document.getElementById('montello').getBoundingClientRect(); return [r.left, r.top];")
    x, y = round(rect[0] + place[1]), round(rect[1] + place[2])
    pointer = {
        "type": "pointer",
        "id": "finger",
        "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "origin": "viewport", "x": x, "y": y, "duration": 0},
            {"type": "pointerDown", "button": 0},
            {"type": "pause", "duration": 80},
            {"type": "pointerUp", "button": 0},
        ],
    }
    d.s("POST", "/actions", {"actions": [pointer]})
    d.s("DELETE", "/actions")


def play(d, base, figures):
    """The whole visit in one browser: a lost session raises SessionLost."""
    d.s("POST", "/window/rect", {"width": PHONE[0], "height": PHONE[1]})
    started = time.time()
    d.s("POST", "/url", {"url": f"{base}/?open=board"})
    figures["first_board_s"] = round(ready(d, started), 1)
    page_ms = d.data().get("firstBoardMs")
    figures["first_board_ms_page"] = int(page_ms) if page_ms else None
    print(f"     the board after {figures['first_board_s']} s (the page's own count: {page_ms} ms)")
    # The app's module came as its brotli file, unpacked by the page (web/index.html): WebKit's
    # streams and streaming compiler take the page's own response (the plain module is only
    # the fallback).
    figures["app_module"] = d.data().get("appModule")
    check(figures["app_module"] == "unpacked", f"the page unpacked the app's brotli module itself (data-app-module={figures['app_module']})")
    # The tab at rest, waiting for the player (the app draws only when something changes):
    # a figure for docs/web.md, not a check.
    time.sleep(3)
    cpu = browser_cpu_seconds()
    time.sleep(10)
    figures["idle_cpu_percent"] = round((browser_cpu_seconds() - cpu) * 10, 1)
    print(f"     the whole browser while the page waits for a tap: {figures['idle_cpu_percent']}% of one core over 10 s")
    size = d.js("return [innerWidth, innerHeight, devicePixelRatio];")
    # MiniBrowser's toolbar keeps its window a little wider than asked (447 CSS px here).
    check(size[0] < 480 and size[1] > size[0], f"a portrait, phone-sized window: {size[0]}x{size[1]} CSS px at {size[2]}x")
    before = d.data()
    check(
        before.get("turn") == "black" and before.get("black") == "2" and before.get("white") == "2",
        f"a new game: {before.get('black')}-{before.get('white')}, {before.get('turn')} to move",
    )
    legal = places(before.get("legal"))
    check(len(legal) == 4, f"four legal squares published ({' '.join(p[0] for p in legal)})")

    tap(d, legal[0])
    d.wait("document.body.dataset.black === '4'", MOVE_S, f"the tap on {legal[0][0]} to play")
    played = d.data()
    check(
        played.get("black") == "4" and played.get("white") == "1",
        f"the tap on {legal[0][0]} played it: {played.get('black')}-{played.get('white')} ({played.get('transcript')})",
    )
    tapped = time.time()
    d.wait(
        "document.body.dataset.transcript.length >= 4 && document.body.dataset.turn === 'black'",
        MOVE_S,
        "the AI's reply",
    )
    figures["ai_reply_s"] = round(time.time() - tapped, 1)
    replied = d.data()
    check(len(replied.get("transcript", "")) >= 4, f"the AI replied in {figures['ai_reply_s']} s: {replied.get('transcript')}")
    # The page loads the engine's module itself only when its worker fails: then
    # data-worker says so and the page's own resource list has the module.
    on_page = d.js(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('montello_worker'));"
    )
    check(
        replied.get("worker") != "failed" and not on_page,
        f"the engine ran in its Web Worker (data-worker={replied.get('worker')}, engine files the page loaded: {on_page})",
    )
    # (Not waiting for the disc to land: in one CI run WebKitGTK under Xvfb, beside other
    # builds, stopped drawing frames after the reply, data-busy stayed 1 for minutes, and
    # the reload below still resumed the game. Recorded for the docs, not checked.)
    figures["busy_after_reply"] = d.data().get("busy")
    with open(os.path.join(OUT, "webkit-phone.png"), "wb") as f:
        f.write(base64.b64decode(d.s("GET", "/screenshot")))

    transcript = replied.get("transcript")
    d.s("POST", "/refresh", {})
    ready(d, time.time())
    again = d.data()
    check(again.get("transcript") == transcript, f"the reload resumed the game: {again.get('transcript')} (was {transcript})")
    check(again.get("turn") == "black", f"and it is still Black's move ({again.get('turn')})")
    figures["user_agent"] = d.js("return navigator.userAgent;")

    # The engine's speed in WebKit's workers, both builds (web/simd.js picks one: the
    # SIMD build where JavaScriptCore has it), and one middle-game position valued by each
    # with the win bar's search: the two must agree (web/test/phone.mjs does the same).
    d.s("POST", "/timeouts", {"script": 120000})
    # The same page script as web/test/phone.mjs's, with WebDriver's callback.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ask-worker.js")) as f:
        source = f.read()
    ask = f"const done = arguments[arguments.length - 1]; ({source})(arguments[0], arguments[1]).then(done);"
    # Two benches in one worker: the first in a fresh one (JavaScriptCore starts the module
    # on its baseline tiers and optimises the hot functions while they run), the second
    # warm, as the game's worker is after its first move (docs/web.md compares both).
    lines = ["bench 1", "bench 1", "estimate 7 othello 10 16 4194304 20280c040000:10181030280000:b"]
    # web/simd.js, by the name web/build.sh gave it (the worker's script imports it).
    simd = d.js_async(
        "const done = arguments[0];"
        "fetch(montelloWorkerScript).then((r) => r.text())"
        ".then((s) => import(s.match(/import '([^']*simd[^']*)'/)[1]))"
        ".then(() => done(self.montelloSimd), (e) => done(String(e)));"
    )
    # WebKitGTK's page process crashed at the SIMD build's first use (web/simd.js says so).
    check(simd is False, f"WebKit is kept on the engine's scalar build (web/simd.js: SIMD {simd})")
    figures["simd"] = simd
    estimates = []
    # The worker's script is named by its content (web/build.sh): the page knows the name.
    worker = d.js("return window.montelloWorkerScript;")
    for script, expected in ((worker, "simd" if simd else "scalar"), (f"{worker}?simd=0", "scalar")):
        replies = d.js_async(ask, script, lines)
        words = replies[0].split()
        rates = [float(w) for w in words[2:]] if words[0] == "bench" else []
        # (A worker that failed answered once: no warm bench, and the checks below say so.)
        warm = replies[1].split() if len(replies) == len(lines) else ["none"]
        # (Keyed as before the scripts were named by content, for docs/web.md's figures.)
        figures["worker_worker.js" + ("?simd=0" if script != worker else "")] = {
            "build": words[1],
            "rates": rates,
            "warm_rates": [float(w) for w in warm[2:]] if warm[0] == "bench" else [],
        }
        check(
            words[1] == expected and len(rates) == 4 and all(r > 0 for r in rates),
            f"the worker's {expected} engine ({script}): {replies[0]} (playouts/s, evaluations/s, perft leaves/s, Master's tree iterations/s)",
        )
        estimates.append(replies[-1])
    check(
        estimates[0].startswith("estimated 7 ") and estimates[0] == estimates[1],
        f"both builds value f5d6c3d3c4f4f6f3e6e7 alike: {' / '.join(estimates)}",
    )


def main():
    base = sys.argv[1]
    # WebKitGTK's browser process has gone away in the middle of a run (CI, 2026-11-29, beside
    # the other lane's builds: every WebDriver call then answered "invalid session id"). As
    # with JavaScriptCore's spurious traps above, the visit starts again once in a new browser,
    # with the driver's log printed and the loss counted in the figures; a second loss fails.
    lost = []
    for attempt in range(2):
        figures = {}
        failures.clear()
        d = WebDriver(attempt)
        try:
            play(d, base, figures)
            break
        except SessionLost as e:
            print(f"     WebKit's browser went away ({e}); webkit-driver-{attempt}.log ends with:")
            print(d.log_tail())
            lost.append(str(e)[:200])
            if attempt == 1:
                raise SystemExit("webkit: the browser went away twice")
            print("     starting WebKit again, once")
        finally:
            d.close()
    figures["sessions_lost"] = lost
    figures["spurious_failures"] = spurious_failures
    with open(os.path.join(OUT, "webkit-figures.json"), "w") as f:
        json.dump(figures, f, indent=1)
    print(json.dumps(figures))
    if failures:
        print(f"webkit: {len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("webkit: OK")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python3 web/test/webkit.py http://127.0.0.1:PORT OUT_DIR", file=sys.stderr)
        sys.exit(2)
    OUT = sys.argv[2]
    os.makedirs(OUT, exist_ok=True)
    main()
