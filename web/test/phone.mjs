// Montello's browser build in a real Chromium, as a phone: Debian's chromium driven by
// playwright-core (never `playwright install`), emulating a 390x844 phone at device scale 3
// with touch (the page draws it at 2 device pixels per CSS pixel). Run by web/test/run.sh,
// which builds and serves the site:
//
//     node web/test/phone.mjs http://127.0.0.1:PORT OUT_DIR
//
// It loads the page and waits for the board; taps a legal square with a touch event and sees
// the counts change; waits for the AI's reply and sees that it came from a Web Worker; records
// the frame times while the AI thinks; reloads and finds the same game; plants a corrupt save
// and sees it kept aside and the game start; refuses storage and sees the game go on; kills the
// worker before its answer and sees the AI reply anyway, and without the worker's module sees
// the page search itself; hides the page while the AI thinks and sees no needless restart;
// loses the WebGL context and sees the page reload itself when it is given back; makes the app
// panic and sees it said, and the game resumed; installed, plays offline, then sees a new
// build deployed offered with an Update button that reloads into it, the game kept (a copy of
// the site at MONTELLO_SITE, default web/dist, served for it); measures the engine in the worker; face to
// face, names a player through the page's prompt; takes screenshots at phone and tablet sizes
// both ways, turning the devices (with the `.squares` and `.layout` files
// tools/contrast-check.py and tools/layout-check.py read). Each numbered part prints its time.
// Figures go to OUT_DIR/web-figures.json. The app tells the page its state through data-
// attributes on <body> (src/app/page.rs).

import { chromium } from 'playwright-core';
import { writeFileSync, mkdirSync, mkdtempSync, rmSync, readFileSync, readdirSync, cpSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { BROWSER, FLAGS, PHONE } from './phone-page.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What both browser tests run in the page to ask an engine worker (web/test/ask-worker.js).
const askWorkerSource = readFileSync(new URL('./ask-worker.js', import.meta.url), 'utf8');

const [base, out] = [process.argv[2], process.argv[3] ?? 'web/test/out'];
if (!base) {
  console.error('usage: node web/test/phone.mjs http://127.0.0.1:PORT [OUT_DIR]');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

// Software WebGL on two cores is slow: generous waits, never a pass that depends on speed.
const READY_MS = 240_000;
const MOVE_MS = 120_000;
const figures = {};
const failures = [];
// Where the test's minutes go: each numbered part's wall time, printed as it ends and kept in
// the figures (CI's log then says which part grew).
let section = '';
let sectionStart = Date.now();
figures.section_seconds = {};
function lap() {
  const seconds = Math.round((Date.now() - sectionStart) / 1000);
  figures.section_seconds[section] = seconds;
  console.log(`     part ${section} took ${seconds} s`);
  sectionStart = Date.now();
}

function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

// Off the network, as root, WebGL2 through SwiftShader (web/test/phone-page.mjs).
const launch = (extra = []) => chromium.launch({ ...BROWSER, args: [...FLAGS, ...extra] });
// The phone: a real device scale of 3. Playwright's `deviceScaleFactor` is DevTools emulation,
// under which Chromium's ResizeObserver reports the canvas's device-pixel size unscaled, so
// winit (like any page that sizes its canvas that way) would draw at a third of the resolution
// with a UI three times too large; a browser started at scale 3 reports it as a phone does.
const phoneBrowser = await launch(['--force-device-scale-factor=3']);
const browser = await launch();

// The service worker (web/sw.js) is blocked except where a test is about it (5e): the others
// then fetch and refuse files as they ask, and no context downloads the site twice.
//
// `sharp`: at the phone's own scale (3, drawn at 2), for the parts that look at the picture
// and the frame times (1 and 2). The others test what the page does (the review, the coach,
// the failures, installing, the names) in the same 390x844 CSS pixels at scale 1: a quarter of
// the pixels for SwiftShader to draw on two cores, so each page load and frame is that much
// cheaper (each part's time is in the log).
async function phoneContext({ serviceWorkers = 'block', sharp = false } = {}) {
  const context = await (sharp ? phoneBrowser : browser).newContext({ viewport: null, hasTouch: true, serviceWorkers });
  context.phone = true;
  return context;
}

async function open(context, query = '', site = base) {
  const page = await context.newPage();
  // A software-drawn frame can hold the page for many seconds on a loaded machine.
  page.setDefaultTimeout(MOVE_MS);
  if (context.phone) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { ...PHONE, deviceScaleFactor: 0, mobile: true });
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  }
  page.consoleLines = [];
  page.on('console', (m) => page.consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => page.consoleLines.push(`pageerror: ${e}`));
  await page.goto(`${site}/${query}`);
  await ready(page);
  return page;
}

async function ready(page) {
  try {
    await page.waitForFunction(() => ['ready', 'failed'].includes(document.body.dataset.montello), null, { timeout: READY_MS });
    if ((await data(page)).montello === 'failed') throw new Error(`the page failed: ${await page.locator('#what').textContent()}`);
  } catch (e) {
    console.error(page.consoleLines.slice(-30).join('\n'));
    throw e;
  }
}

const data = (page) => page.evaluate(() => ({ ...document.body.dataset }));

// A point in the canvas's CSS pixels to the page's.
async function onPage(page, x, y) {
  const r = await page.locator('canvas#montello').boundingBox();
  return [r.x + x, r.y + y];
}

// Taps a square as a finger does, once the discs are still (a tap while they move is refused,
// as the app says on screen).
async function tapSquare(page, place) {
  await page.waitForFunction(() => document.body.dataset.busy === '0', null, { timeout: MOVE_MS });
  const [x, y] = await onPage(page, place.x, place.y);
  await page.touchscreen.tap(x, y);
}

function parsePlaces(text) {
  return (text ?? '').split(' ').filter(Boolean).map((p) => {
    const [square, at] = p.split(':');
    const [x, y] = at.split(',').map(Number);
    return { square, x, y };
  });
}

// Frame times as the page's main thread sees them: requestAnimationFrame gaps, and the long
// tasks (over 50 ms) the browser reports, each stamped so that the AI's thinking can be told
// apart.
async function recordFrames(page) {
  await page.evaluate(() => {
    window.frames_ = [];
    window.longTasks_ = [];
    let last = performance.now();
    const tick = (now) => {
      window.frames_.push([now, now - last, document.body.dataset.thinking === '1']);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks_.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: false });
  });
}

// CPU seconds (user and system) used so far by every process below this one: the browsers
// and all their renderer, GPU and utility processes (Linux's /proc, 100 ticks a second).
function browserCpuSeconds() {
  const parent = new Map();
  const ticks = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const below = (pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (below(pid)) total += t;
  return total / 100;
}

function stats(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { frames: values.length, p50: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +sorted[sorted.length - 1].toFixed(1) };
}

section = '1';
// 1. A new player: the page loads, the loading screen goes, the board shows, ready to play.
// The haptics go through navigator.vibrate (recorded for part 2: a desktop Chromium has no
// motor).
let transcript;
{
  const context = await phoneContext({ sharp: true });
  await context.addInitScript(() => {
    window.montelloVibrations = [];
    Navigator.prototype.vibrate = function (pattern) {
      window.montelloVibrations.push(JSON.stringify(pattern));
      return true;
    };
  });
  const t0 = Date.now();
  // How the app's module came: its brotli file as it is (web/serve.py adds no encoding to a
  // .br file, as GitHub Pages does not), unpacked by the page into the streaming compiler
  // (web/index.html); the plain module not downloaded at all.
  const modules = [];
  context.on('response', (r) => {
    // The page's own downloads (the service worker's precaching, once the board is up, aside).
    if (/\/montello_bg\.[0-9a-f]{16}\.wasm(\.br)?$/.test(r.url()) && !r.request().serviceWorker()) modules.push(r);
  });
  const page = await open(context);
  const d = await data(page);
  const names = modules.map((r) => r.url().replace(/^.*\//, ''));
  const headers = modules.length === 1 ? await modules[0].allHeaders() : {};
  figures.wasm_encoding = `${d.appModule}, Content-Encoding ${headers['content-encoding'] ?? 'none'}`;
  check(names.length === 1 && names[0].endsWith('.wasm.br') && !headers['content-encoding'],
    `the app's module downloaded once, as its brotli file (${names.join(', ')}, Content-Encoding ${headers['content-encoding'] ?? 'none'})`);
  check(d.appModule === 'unpacked', `the page unpacked it itself (data-app-module=${d.appModule})`);
  const dpr = await page.evaluate(() => [matchMedia('(resolution: 3dppx)').matches, innerWidth, innerHeight, document.querySelector('canvas').width]);
  check(dpr[0] && dpr[1] === 390, `a 390x844 phone at scale 3 (${dpr.join(', ')})`);
  // Phone rendering (web/index.html, app::gpu): the pixel ratio capped at 2, no MSAA, no shadows.
  check(dpr[3] === 780, `the canvas drawn at 2 device pixels per CSS pixel: ${dpr[3]} wide`);
  check(d.rendering === 'scale 2 msaa 1 shadows off', `drawn as a phone draws: ${d.rendering}`);
  // The engine's memory sized for a phone (src/platform/memory.rs): an eighth of Master's pool.
  check(d.engineMemory === `phone ${16 << 20}`, `the engine's memory sized as a phone's: ${d.engineMemory}`);
  // What the app's heap holds by owner (app::heap), counted by its own allocator: the glyph
  // atlases of the board's texts among the images, and the meshes kept for picking.
  const heap = (d.heap ?? '').match(/^heap (\d+)\/(\d+) images (\d+)\/(\d+) atlases (\d+)\/(\d+)\/(\d+) meshes (\d+)\/(\d+)$/);
  check(heap && Number(heap[1]) > 0 && Number(heap[2]) >= Number(heap[1]) && Number(heap[5]) > 0 && Number(heap[8]) > 0,
    `the app's heap told by owner: ${d.heap}`);
  // Each text size is a glyph atlas of its own (1 MiB, kept for the page's life): the UI's
  // texts come in the six sizes of its type scale (ui::theme::Type). The page lays out its
  // first frames at scale 1, before the canvas has its own scale (2 on this phone); bevy_text
  // would keep both sets (2026-11-29: 10 sizes, the board's five twice), and the app frees the
  // old scale's when the scale changes (app::heap::drop_atlases_of_old_scale): at most six.
  check(heap && Number(heap[6]) <= 6, `the board's texts in at most six sizes, an atlas each, none of an old scale: ${d.heap}`);
  figures.heap_at_board = d.heap;
  // The browser build has no tonemapping tables (Cargo.toml): Bevy would say so if the camera
  // asked for one.
  const tables = page.consoleLines.filter((l) => l.includes('tonemapping_luts'));
  check(tables.length === 0, `no display transform asks for a missing table (${tables[0] ?? 'none did'})`);
  figures.first_board_ms = Number(d.firstBoardMs);
  figures.first_board_wall_ms = Date.now() - t0;
  check(d.firstBoardMs > 0, `first board drawn after ${d.firstBoardMs} ms (page clock)`);
  check(await page.locator('#loading').isHidden(), 'the loading screen is gone');
  const scroll = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
  check(scroll[0] <= scroll[1], `no page scroll (${scroll[0]} <= ${scroll[1]})`);
  // The tab at rest, waiting for the player: the app draws only when something changes (its
  // reactive update mode), so a waiting page should cost next to nothing. A figure, not a
  // check: docs/web.md keeps it.
  await page.waitForTimeout(3000);
  const cpu0 = browserCpuSeconds();
  await page.waitForTimeout(10_000);
  figures.idle_cpu_percent = +((browserCpuSeconds() - cpu0) * 10).toFixed(1);
  console.log(`     the whole browser while the page waits for a tap: ${figures.idle_cpu_percent}% of one core over 10 s`);
  await page.screenshot({ path: join(out, 'web-phone-first-run.png') });

  lap();
  section = '2';
  // 2. A game on the same page: tap a legal square, the AI answers from its worker, the game
  // survives a reload.
  await recordFrames(page);
  const before = await data(page);
  check(before.turn === 'black' && before.black === '2' && before.white === '2', `a new game: ${before.black}-${before.white}, ${before.turn} to move`);
  const legal = parsePlaces(before.legal);
  check(legal.length === 4, `four legal squares published (${legal.map((l) => l.square).join(' ')})`);
  await tapSquare(page, legal[0]);
  await page.waitForFunction(() => document.body.dataset.black === '4', null, { timeout: MOVE_MS });
  const played = await data(page);
  check(played.black === '4' && played.white === '1', `the tap on ${legal[0].square} played it: ${played.black}-${played.white} (${played.transcript})`);
  const ticks = await page.evaluate(() => window.montelloVibrations);
  check(ticks.length === 1 && ticks[0] === '[10]', `the placed disc ticked under the finger (navigator.vibrate ${ticks.join(' ')})`);
  const tapped = Date.now();
  await page.waitForFunction(() => document.body.dataset.thinking === '1' || document.body.dataset.transcript.length >= 4, null, { timeout: MOVE_MS });
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 4 && document.body.dataset.turn === 'black', null, { timeout: MOVE_MS });
  figures.ai_reply_ms = Date.now() - tapped;
  const replied = await data(page);
  check(replied.transcript.length >= 4, `the AI replied in ${figures.ai_reply_ms} ms: ${replied.transcript}`);
  check(page.workers().length >= 1, `a Web Worker runs (${page.workers().map((w) => w.url().split('/').pop()).join(', ')})`);
  check(replied.worker !== 'failed', 'the engine ran in its worker, not on the page');
  // The win bar's figure for the position after the reply: the worker's estimate (#54).
  await page.waitForFunction(() => (document.body.dataset.estimate ?? '').endsWith(' searched'), null, { timeout: MOVE_MS });
  const estimated = (await data(page)).estimate;
  check(Math.abs(parseFloat(estimated)) < 20, `the win bar's figure came from the worker: ${estimated} (Black's expected final margin)`);
  // A second move, so the frames cover two AI searches.
  const legal2 = parsePlaces(replied.legal);
  await tapSquare(page, legal2[0]);
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 8 && document.body.dataset.turn === 'black', null, { timeout: MOVE_MS });
  const { frames, longTasks } = await page.evaluate(() => ({ frames: window.frames_, longTasks: window.longTasks_ }));
  const thinking = frames.filter((f) => f[2]).map((f) => f[1]);
  const idle = frames.filter((f) => !f[2]).map((f) => f[1]);
  figures.frames_thinking = stats(thinking);
  figures.frames_not_thinking = stats(idle);
  figures.long_tasks = longTasks.length;
  console.log(`     frames while the AI thinks: ${JSON.stringify(figures.frames_thinking)}; otherwise: ${JSON.stringify(figures.frames_not_thinking)}; long tasks: ${longTasks.length}`);
  check(thinking.length > 0, 'frames were drawn while the AI thought');
  transcript = (await data(page)).transcript;
  await page.screenshot({ path: join(out, 'web-phone-game.png') });
  await page.reload();
  await ready(page);
  const after = await data(page);
  check(after.transcript === transcript, `after a reload the same game: ${after.transcript} (was ${transcript})`);

  lap();
  section = '3';
  // 3. The engine's speed in the worker, in both of its builds: the SIMD one this browser
  // takes (web/simd.js) and the scalar one for browsers without SIMD (`worker.js?simd=0`).
  // docs/web.md compares them with the native engine (`montello-engine bench`).
  // Each build also values one middle-game position with the win bar's search (10 plies, no
  // clock): the two builds must give the same figure, evaluation for evaluation.
  const middleGame = '20280c040000:10181030280000:b'; // f5d6c3d3c4f4f6f3e6e7
  const askWorker = (script) => page.evaluate(
    `(${askWorkerSource})(${JSON.stringify(script)}, ${JSON.stringify(['bench 1', 'bench 1', `estimate 7 othello 10 16 4194304 ${middleGame}`])})`,
  );
  const estimates = [];
  // The worker's script is named by its content (web/build.sh): the page knows the name.
  const workerScript = await page.evaluate(() => window.montelloWorkerScript);
  for (const [script, expected] of [[workerScript, 'simd'], [`${workerScript}?simd=0`, 'scalar']]) {
    // Two benches in one worker: fresh (V8 starts the module on its baseline compiler and
    // optimises the hot functions while they run), then warm, as the game's worker is after
    // its first move (docs/web.md compares both).
    const [benched, warmed, estimated] = await askWorker(script);
    const [, build, ...rates] = benched.split(' ');
    const [playouts, evaluations, perft, tree] = rates.map(Number);
    figures[`worker_${expected}`] = { playouts_per_s: playouts, evaluations_per_s: evaluations, perft_leaves_per_s: perft, tree_iterations_per_s: tree };
    // (A worker that failed answered once: no warm bench, and the checks below say so.)
    const [wPlayouts, wEvaluations, wPerft, wTree] = (warmed ?? '').split(' ').slice(2).map(Number);
    figures[`worker_${expected}_warm`] = { playouts_per_s: wPlayouts, evaluations_per_s: wEvaluations, perft_leaves_per_s: wPerft, tree_iterations_per_s: wTree };
    check(build === expected && playouts > 0 && evaluations > 0 && tree > 0, `the worker's ${expected} engine (${script}): ${build} ${rates.join(' ')} (playouts/s, evaluations/s, perft leaves/s, Master's tree iterations/s)`);
    estimates.push(estimated);
  }
  check(estimates[0]?.startsWith('estimated 7 ') && estimates[0] === estimates[1], `both builds value f5d6c3d3c4f4f6f3e6e7 alike: ${estimates.join(' / ')}`);

  lap();
  section = '4';
  // 4. A corrupt save is kept aside and the game starts.
  await page.evaluate(() => localStorage.setItem('montello/game.ron', 'this is not a save'));
  await page.evaluate(() => localStorage.removeItem('montello/game.ron.bak'));
  await page.reload();
  await ready(page);
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('montello/game.ron.bad-')));
  const fresh = await data(page);
  check(kept.length === 1, `the corrupt save was kept aside as ${kept.join(', ')}`);
  check(fresh.transcript === '' && fresh.turn === 'black', `and a new game started (${fresh.black}-${fresh.white})`);
  await context.close();
}

lap();
section = '4b';
// 4b. The game review (#51): a finished game is reviewed in the engine's worker, and the move
// list marks the moves that cost discs.
{
  const context = await phoneContext();
  const game = 'f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6'
    + 'c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8';
  const page = await open(context, `?open=moves&position=${game}`);
  const t0 = Date.now();
  await page.waitForFunction(() => (document.body.dataset.review ?? '').startsWith('done'), null, { timeout: MOVE_MS });
  figures.review_wall_ms = Date.now() - t0;
  const d = await data(page);
  const [, moves, marked] = d.review.split(' ').map(Number);
  check(moves === 58 && marked > 0, `the finished game was reviewed: ${moves} moves, ${marked} marked (${figures.review_wall_ms} ms after the board)`);
  check(d.worker !== 'failed' && page.workers().length >= 1, 'the review ran in the engine\'s worker');
  // 52-10 with two squares empty: the bar says what the status says, "by 42" (not the 44 of
  // the count with the empty squares to the winner).
  check(d.estimate === '42.0 exact', `the win bar shows the result's margin, 52-10: ${d.estimate}`);
  // The list draws its marks in a frame after the one that took the review (a second or so
  // of SwiftShader's frames): wait for them rather than read the layout of that same frame.
  const marks = await page.waitForFunction(
    () => (document.body.dataset.layout ?? '').split(';').filter((e) => e.startsWith('mark:')).length,
    null, { timeout: 30_000 },
  ).then((count) => count.jsonValue(), () => 0);
  check(marks > 0, `the move list shows marked moves (${marks})`);
  await page.screenshot({ path: join(out, 'web-review.png') });
  await context.close();
}

lap();
section = '4c';
// 4c. The coach (#67) in the browser: stepping back in the review, the worker values every
// choice of the position (move 44 of the same game: White's h7 was best, +10, solved); try
// again at the player's first mistake (2. f7, best e6) finds e6.
{
  const context = await phoneContext();
  const game = 'f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6'
    + 'c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8';
  let page = await open(context, `?open=moves&review&show-move=44&position=${game}`);
  await page.waitForFunction(() => /:[es]( |$)/.test(document.body.dataset.values ?? ''), null, { timeout: MOVE_MS });
  const words = (await data(page)).values.split(' ');
  check(words[0] === 'h7:10:e' && words.every((w) => w.endsWith(':e')),
    `the worker valued every choice at move 44, solved, h7 best: ${words.join(' ')}`);
  await page.close();
  page = await open(context, `?review&try-again&try-move=e6&position=${game}`);
  await page.waitForFunction(() => (document.body.dataset.practice ?? '').startsWith('judged'), null, { timeout: MOVE_MS });
  const practice = (await data(page)).practice;
  check(practice.startsWith('judged 3 e6 found'), `try again at 2. f7 found e6: ${practice}`);
  await page.screenshot({ path: join(out, 'web-practice.png') });
  await context.close();
}

lap();
section = '4d';
// 4d. The daily puzzle (#71) in the browser: the puzzle of 2026-11-29 (White to move and win,
// 11 empty squares); the first look's move b1 (a draw) is refused by the worker's exact
// values, then the best move each time, Master answering in the worker, to a win by 6.
{
  const context = await phoneContext();
  const page = await open(context, '?puzzle=2026-11-29&puzzle-moves=b1&puzzle-solve');
  await page.waitForFunction(() => /finished/.test(document.body.dataset.puzzle ?? ''), null, { timeout: 4 * MOVE_MS });
  const d = await data(page);
  check(d.puzzle === '20786 finished 6 solved misses 1',
    `the puzzle solved in the browser after one miss: ${d.puzzle}`);
  check(d.turn === 'over' && d.worker !== 'failed', `played to the end in the engine's worker (${d.turn}, ${d.worker ?? 'worker'})`);
  await page.screenshot({ path: join(out, 'web-puzzle.png') });
  await context.close();
}

lap();
section = '5';
// 5. Storage refused (a full quota): the save fails with a message, the game goes on.
{
  const context = await phoneContext();
  await context.addInitScript(() => {
    Storage.prototype.setItem = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  const page = await open(context, '?open=board');
  await tapSquare(page, parsePlaces((await data(page)).legal)[0]);
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 4 && document.body.dataset.turn === 'black', null, { timeout: MOVE_MS });
  const said = page.consoleLines.filter((l) => l.includes('could not save'));
  check(said.length > 0, `a refused save is reported (${said[0]?.slice(0, 120)})`);
  check(!page.consoleLines.some((l) => l.startsWith('pageerror')), 'and nothing crashed: the AI still replied');
  await context.close();
}

lap();
section = '5b';
// 5b. The worker dies just before its answer reaches the page (it is terminated, the reply
// lost): the page's watchdog starts a new worker at twice the cap (the most a game clock
// gives a move) plus 2 s and asks again, and the AI replies.
{
  const context = await phoneContext();
  await context.addInitScript(() => {
    const Real = window.Worker;
    window.montelloWorkers = 0;
    window.Worker = class extends Real {
      constructor(...args) {
        super(...args);
        const first = ++window.montelloWorkers === 1;
        if (window.montelloWorkers === 2) window.montelloReplacedAt = performance.now();
        let handler = null;
        super.onmessage = (e) => {
          if (first && String(e.data).startsWith('searched ')) {
            window.montelloKilledAt = performance.now();
            this.terminate();
            return;
          }
          if (handler) handler(e);
        };
        Object.defineProperty(this, 'onmessage', { get: () => handler, set: (h) => { handler = h; } });
      }
    };
  });
  const page = await open(context, '?open=board');
  await tapSquare(page, parsePlaces((await data(page)).legal)[0]);
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 4, null, { timeout: MOVE_MS });
  const [waited, replaced, workers] = await page.evaluate(() => [
    performance.now() - window.montelloKilledAt,
    window.montelloReplacedAt - window.montelloKilledAt,
    window.montelloWorkers,
  ]);
  figures.reply_after_worker_killed_ms = Math.round(waited);
  figures.worker_replaced_after_ms = Math.round(replaced);
  check(workers === 2, `the killed worker was replaced (${workers} workers started)`);
  // The watchdog's decision is timed, not the new worker's start, which is the machine's
  // speed (8.5 s idle, 10.4 to 22.5 s in CI runs with the other lane building beside it):
  // twice its cap (2 x 200 ms: the longest a search may take, engine's SearchLimits::longest)
  // and 2 s of grace, then the frame that notices, which at this software renderer's rates
  // under load can take up to about 6 s (a phone's take 16 ms). A watchdog that waited for
  // the 30 s a worker gets to start, instead of its grace, fails this.
  check(replaced <= 400 + 2000 + 10000, `the dead worker was replaced ${Math.round(replaced)} ms after it died (at most twice its cap 200 ms, the 2 s grace and 10 s of software frames; the start-up limit is 30 s)`);
  check(waited > replaced, `and the AI replied from the new worker, ${Math.round(waited)} ms after the first died`);
  check(page.consoleLines.some((l) => l.includes('did not answer job')), 'the watchdog said why');
  await context.close();
}

lap();
section = '5h';
// 5h. The page hidden while the AI thinks (the player switched apps): the browser stops the
// page's frames and may freeze its worker with it, so the watchdog counts only the time the
// page is in view. Here the page says it is hidden and the search request is held back (as a
// frozen worker would not answer) for longer than the cap and its grace; shown again, the
// request goes and the same worker answers: no new worker, no "did not answer".
{
  const context = await phoneContext();
  await context.addInitScript(() => {
    window.montelloVisibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { get: () => window.montelloVisibility });
    Object.defineProperty(document, 'hidden', { get: () => window.montelloVisibility === 'hidden' });
    window.montelloSetVisible = (visible) => {
      window.montelloVisibility = visible ? 'visible' : 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const Real = window.Worker;
    window.montelloWorkers = 0;
    window.montelloHeld = [];
    window.Worker = class extends Real {
      constructor(...args) {
        super(...args);
        window.montelloWorkers += 1;
      }
      postMessage(line, ...rest) {
        if (window.montelloVisibility === 'hidden' && String(line).startsWith('search ')) {
          window.montelloHeld.push(() => super.postMessage(line, ...rest));
          return;
        }
        super.postMessage(line, ...rest);
      }
    };
    window.montelloRelease = () => window.montelloHeld.splice(0).forEach((post) => post());
  });
  const page = await open(context, '?open=board');
  const legal = parsePlaces((await data(page)).legal);
  await page.evaluate(() => window.montelloSetVisible(false));
  await tapSquare(page, legal[0]);
  await page.waitForFunction(() => window.montelloHeld.length > 0, null, { timeout: MOVE_MS });
  // Hidden for twice the cap (400 ms), the grace (2 s) and more.
  await page.waitForTimeout(6000);
  await page.evaluate(() => { window.montelloSetVisible(true); window.montelloRelease(); });
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 4, null, { timeout: MOVE_MS });
  const workers = await page.evaluate(() => window.montelloWorkers);
  const restarted = page.consoleLines.filter((l) => l.includes('did not answer job'));
  check(workers === 1 && restarted.length === 0, `hidden for 6 s while the AI thought, the same worker answered (${workers} worker(s), ${restarted.length} restart(s))`);
  await context.close();
}

lap();
section = '5c';
// 5c. The engine's module does not load at all (its .wasm refused, for the worker and the
// page alike): the worker says so, the page cannot load it either, and the player is told on
// the page's own screen, with a Reload button, the move played kept. And the page's brotli
// unpacker refused too: the page loads the app's plain module instead (web/index.html).
{
  const context = await phoneContext();
  // Both of the engine's builds (web/simd.js picks one).
  await context.route('**/montello_worker*_bg.*.wasm', (route) => route.abort());
  await context.route('**/unbrotli.*.wasm', (route) => route.abort());
  const page = await open(context, '?open=board');
  const how = (await data(page)).appModule;
  check(how === 'plain' && page.consoleLines.some((l) => l.includes("unpacking the app's brotli module failed")),
    `without its unpacker the page started from the plain module (data-app-module=${how})`);
  await tapSquare(page, parsePlaces((await data(page)).legal)[0]);
  await page.waitForFunction(() => document.body.dataset.montello === 'failed', null, { timeout: MOVE_MS });
  const d = await data(page);
  const told = await page.locator('#what').textContent();
  check(told.includes('The computer player could not load') && await page.locator('#reload').isVisible(), `without the engine's module the player is told, with a Reload button: ${told}`);
  check(page.consoleLines.some((l) => l.includes("the engine's module did not load")), 'the worker said why');
  const saved = await page.evaluate(() => localStorage.getItem('montello/game.ron') ?? '');
  check(d.transcript.length === 2 && saved.includes(d.transcript), `the move played is saved (${d.transcript})`);
  await context.close();
}

lap();
section = '5d';
// 5d. The engine throws in the worker (here: a request it cannot read, its job number intact):
// the worker answers `failed JOB WHY` instead of leaving the page waiting, and the page loads
// the worker's module itself and searches there.
{
  const context = await phoneContext();
  await context.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    let spoiled = false;
    Worker.prototype.postMessage = function (line, ...rest) {
      if (!spoiled && String(line).startsWith('search ')) {
        spoiled = true;
        const words = String(line).split(' ');
        words[2] = 'not-a-slot';
        return post.call(this, words.join(' '), ...rest);
      }
      return post.call(this, line, ...rest);
    };
  });
  const page = await open(context, '?open=board');
  await tapSquare(page, parsePlaces((await data(page)).legal)[0]);
  await page.waitForFunction(() => document.body.dataset.transcript.length >= 4 && document.body.dataset.turn === 'black', null, { timeout: MOVE_MS });
  const d = await data(page);
  check(d.worker === 'failed', `after the engine threw in its worker the page searched itself (data-worker=${d.worker}): ${d.transcript}`);
  check(page.consoleLines.some((l) => l.includes("worker failed (not a request")), 'the worker said why');
  await context.close();
}

lap();
section = '5f';
// 5f. The board's WebGL context is lost (a GPU reset, or iOS taking the memory of a page in
// the background): the page says so, the move played is saved, and when the browser gives
// the context back the page reloads itself to the saved game, without the player's tap.
{
  const context = await phoneContext();
  const page = await open(context, '?open=board');
  const legal = parsePlaces((await data(page)).legal);
  await tapSquare(page, legal[0]);
  await page.waitForFunction(() => document.body.dataset.black === '4', null, { timeout: MOVE_MS });
  const lost = await page.evaluate(() => {
    const gl = document.getElementById('montello').getContext('webgl2');
    window.montelloLost = gl?.getExtension('WEBGL_lose_context');
    window.montelloLost?.loseContext();
    return Boolean(window.montelloLost);
  });
  check(lost, 'the WebGL context was made to be lost (WEBGL_lose_context)');
  await page.waitForFunction(() => document.body.dataset.montello === 'failed', null, { timeout: MOVE_MS });
  const said = await page.locator('#what').textContent();
  check(said.includes('graphics stopped') && await page.locator('#reload').isVisible(), `a lost context is told, with a Reload button: ${said}`);
  const saved = await page.evaluate(() => localStorage.getItem('montello/game.ron') ?? '');
  check(saved.includes(legal[0].square), `the move played is saved (${legal[0].square})`);
  // The browser gives the context back: the page reloads itself.
  const reloaded = page.waitForEvent('load', { timeout: MOVE_MS });
  await page.evaluate(() => window.montelloLost.restoreContext());
  await reloaded;
  await ready(page);
  const resumed = (await data(page)).transcript;
  check(resumed.startsWith(legal[0].square), `the context given back, the page reloaded itself to the game: ${resumed}`);
  await context.close();
}

lap();
section = '5g';
// 5g. A panic in the app (`?crash-after-moves=1`: it panics once its first move is played and
// saved): the page says so, with its Reload button, instead of a frozen board, and the reload
// resumes the game with the move.
{
  const context = await phoneContext();
  const page = await open(context, '?open=board&crash-after-moves=1');
  const legal = parsePlaces((await data(page)).legal);
  await tapSquare(page, legal[0]);
  await page.waitForFunction(() => document.body.dataset.montello === 'failed', null, { timeout: MOVE_MS });
  const said = await page.locator('#what').textContent();
  check(said.includes('Montello stopped') && said.includes('crash-after-moves') && await page.locator('#reload').isVisible(), `a panic is told, with a Reload button: ${said}`);
  await page.goto(`${base}/?open=board`);
  await ready(page);
  const resumed = (await data(page)).transcript;
  check(resumed.startsWith(legal[0].square), `and the reload resumes the game: ${resumed}`);
  await context.close();
}

lap();
section = '5e';
// 5e. Installed and offline: the page is installable (Chromium's own checks of the manifest,
// the icons and the service worker), and once its service worker is in, the page loads, starts
// and plays a game (the AI's worker included) with the network gone.
{
  // A browser profile on disk, as an installed app has: Chromium does not install from the
  // incognito profiles that newContext makes.
  const profile = mkdtempSync(join(tmpdir(), 'montello-profile-'));
  // Its own copy of the site, served as run.sh serves the build, so that a new build can be
  // deployed over it below (MONTELLO_SITE: the folder run.sh serves).
  const copy = mkdtempSync(join(tmpdir(), 'montello-site-'));
  cpSync(process.env.MONTELLO_SITE ?? 'web/dist', copy, { recursive: true });
  const server = spawn('python3', ['web/serve.py', copy, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const site = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      const found = String(chunk).match(/^Montello: (http:\/\/\S+)\/ /m);
      if (found) resolve(found[1]);
    });
    server.on('exit', (code) => reject(new Error(`web/serve.py ended (${code})`)));
  });
  const context = await chromium.launchPersistentContext(profile, {
    ...BROWSER,
    // At scale 1, as the other parts that test what the page does (see `phoneContext`).
    args: FLAGS,
    viewport: null,
    hasTouch: true,
  });
  context.phone = true;
  const page = await open(context, '?open=board', site);
  const cdp = await context.newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest');
  check(manifest.errors.length === 0 && manifest.url.endsWith('/manifest.webmanifest'), `the manifest reads without errors (${manifest.errors.map((e) => e.message).join('; ') || manifest.url})`);
  // The service worker registers once the board is up, then keeps every file of the build.
  const kept = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('montello-')));
    return { active: registration.active?.state, files: (await cache.keys()).map((r) => new URL(r.url).pathname) };
  });
  // Of the engine's two builds, the one this browser runs (Chromium has SIMD): not both.
  const engines = kept.files.filter((f) => /\/montello_worker(_simd)?_bg\.[0-9a-f]{16}\.wasm$/.test(f));
  check(kept.active === 'activated' && engines.length === 1 && engines[0].includes('/montello_worker_simd_bg.'), `the service worker keeps the build (${kept.active}: ${kept.files.length} files, the engine's ${engines.join(', ')})`);
  // The page asked to keep its storage (the browser's answer varies: it is only reported).
  await page.waitForFunction(() => document.body.dataset.storage !== undefined, null, { timeout: MOVE_MS });
  const storage = (await data(page)).storage;
  figures.storage = storage;
  check(['persistent', 'best-effort'].includes(storage), `the page asked to keep its saves (the browser said: ${storage})`);
  const installable = await cdp.send('Page.getInstallabilityErrors');
  check(installable.installabilityErrors.length === 0, `Chromium finds the page installable (${installable.installabilityErrors.map((e) => e.errorId).join(', ') || 'no errors'})`);
  await context.setOffline(true);
  await page.reload();
  await ready(page);
  // The network is gone for the page: a file no cache holds cannot be fetched.
  const probe = await page.evaluate(() => fetch(`probe-${Math.random()}`).then((r) => `HTTP ${r.status}`, (e) => `refused: ${e}`));
  check(probe.startsWith('refused'), `the page started with the network gone (a fetch: ${probe})`);
  const before = await data(page);
  await tapSquare(page, parsePlaces(before.legal)[0]);
  await page.waitForFunction((n) => document.body.dataset.transcript.length >= n + 4 && document.body.dataset.turn === 'black', before.transcript.length, { timeout: MOVE_MS });
  const after = await data(page);
  check(after.worker !== 'failed', `offline, the AI replied from its worker: ${after.transcript}`);
  // The installed app as a phone shows it: started from the home screen (a standalone window,
  // no browser bar: the page is all there is), offline, the game going on.
  await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'display-mode', value: 'standalone' }] });
  await page.waitForFunction(() => document.body.dataset.busy === '0', null, { timeout: MOVE_MS });
  await page.screenshot({ path: join(out, 'web-installed-offline.png') });
  await cdp.send('Emulation.setEmulatedMedia', { features: [] });

  // An update: a new build deployed while the game is open (here its two entry points changed,
  // as every build changes them: its name in index.html and in sw.js's cache). The page finds
  // it when it looks (here asked; the page looks as it comes back into view) and shows its
  // Update button; the old build goes on until the tap, which reloads into the new build and
  // the same game.
  await context.setOffline(false);
  const build = await page.evaluate(() => document.querySelector('meta[name=montello-build]').content);
  for (const file of ['index.html', 'sw.js']) {
    const path = join(copy, file);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(build, 'updated'));
    rmSync(`${path}.br`, { force: true });
    rmSync(`${path}.gz`, { force: true });
  }
  const playing = (await data(page)).transcript;
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await page.waitForFunction(() => document.body.dataset.update === 'ready', null, { timeout: MOVE_MS });
  const button = page.locator('#update');
  const box = await button.boundingBox();
  const words = await button.textContent();
  check(box !== null && box.height >= 44 && box.width >= 44 && words.includes('update'), `a new build waits: the page offers it (${words}, ${box && `${Math.round(box.width)}x${Math.round(box.height)}`} CSS px)`);
  check(await page.evaluate(() => document.querySelector('meta[name=montello-build]').content) === build, 'and the old build goes on until the player taps it');
  await page.screenshot({ path: join(out, 'web-update-ready.png') });
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => document.querySelector('meta[name=montello-build]')?.content === 'updated' && document.body.dataset.montello === 'ready', null, { timeout: READY_MS });
  const updated = await data(page);
  const cached = await page.evaluate(() => caches.keys());
  check(updated.transcript === playing && updated.update === undefined, `the tap reloaded into the new build, the same game (${updated.transcript})`);
  check(cached.length === 1 && cached[0] === 'montello-updated', `only the new build is kept (${cached.join(', ')})`);
  await context.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
}

lap();
section = '6';
// 6. Face to face, a player's name: a tap on the card asks with the page's prompt (a canvas
// cannot open a phone's keyboard), and the name is saved with the settings.
{
  const context = await phoneContext();
  const page = await open(context, '?face-to-face');
  const boxes = ((await data(page)).layout ?? '').split(';').filter(Boolean).map((entry) => {
    const [probe, box] = entry.split(':');
    const [l, t, r, b] = box.split(',').map(Number);
    return { probe, l, t, r, b };
  });
  // The near player's card (table mode draws the far one too, upside down, higher up).
  const card = boxes.filter((b) => b.probe === 'card-black').sort((a, b) => b.t - a.t)[0];
  check(card !== undefined, `Black's card is on screen (${boxes.map((b) => b.probe).join(' ')})`);
  if (card) {
    let asked = '';
    page.once('dialog', async (dialog) => {
      asked = `${dialog.type()}: ${dialog.message()} [${dialog.defaultValue()}]`;
      await dialog.accept('Ann');
    });
    const [x, y] = await onPage(page, (card.l + card.r) / 2, (card.t + card.b) / 2);
    await page.touchscreen.tap(x, y);
    await page.waitForFunction(() => (localStorage.getItem('montello/settings.ron') ?? '').includes('"Ann"'), null, { timeout: MOVE_MS });
    check(asked.startsWith('prompt'), `the tap asked for the name (${asked})`);
    await page.screenshot({ path: join(out, 'web-phone-names.png') });
  }
  await context.close();
}

lap();
section = '7';
// 7. Screenshots at phone and tablet sizes, both ways, checked like the desktop's. A page load
// is most of a shot's time, so each device loads the page once, then is turned as a player
// turns a phone (the viewport resized) and its panels are opened with the toolbar's buttons
// as a finger does: two loads for the five layouts.
const boxesOf = (d) => (d.layout ?? '').split(';').filter(Boolean).map((entry) => {
  const [probe, box] = entry.split(':');
  const [l, t, r, b] = box.split(',').map(Number);
  return { probe, l, t, r, b };
});
const device = async (size, query) => {
  const context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  return open(context, query);
};
// The screenshot and the `.squares` and `.layout` files the checks read, once the board is
// still and `shown(boxes)` says the layout is the one wanted.
const placed = (page, [probe, w, h]) => page.waitForFunction(([probe, w, h]) => {
  const boxes = (document.body.dataset.layout ?? '').split(';').filter(Boolean);
  const scale = Number(document.body.dataset.uiScale ?? 1);
  return document.body.dataset.busy === '0' && innerWidth === w && innerHeight === h
    && boxes.some((e) => e.startsWith(`${probe}:`))
    // Turned: the toolbar is placed in the new size (the layout is in the UI's pixels).
    && boxes.filter((e) => e.startsWith('tool:')).every((e) => {
      const [, , r, b] = e.split(':')[1].split(',').map(Number);
      return r * scale <= w + 1 && b * scale <= h + 1;
    });
}, [probe, w, h], { timeout: MOVE_MS }).then(() => page.waitForTimeout(500));
const capture = async (page, name, shown) => {
  await placed(page, shown);
  const d = await data(page);
  const r = await page.locator('canvas#montello').boundingBox();
  const file = join(out, `${name}.png`);
  await page.screenshot({ path: file });
  const shift = ({ x, y }) => [x + r.x, y + r.y];
  writeFileSync(`${file}.squares`, parsePlaces(d.squares).map((p) => `${p.square} ${shift(p).map((v) => v.toFixed(1)).join(' ')}\n`).join(''));
  writeFileSync(`${file}.layout`, boxesOf(d).map(({ probe, l, t, r: rr, b }) => `${probe} ${(l + r.x).toFixed(1)} ${(t + r.y).toFixed(1)} ${(rr + r.x).toFixed(1)} ${(b + r.y).toFixed(1)}\n`).join(''));
  return file;
};
// The toolbar's buttons in reading order (New, Undo, Redo, Hint, Moves, Menu, in a row, a
// column or a grid), tapped by their index.
const tapTool = async (page, index) => {
  const d = await data(page);
  const tools = boxesOf(d).filter((b) => b.probe === 'tool')
    .sort((a, b) => (Math.round(a.t / 8) - Math.round(b.t / 8)) || (a.l - b.l));
  const tool = tools[index];
  // The layout is in the UI's pixels, larger than CSS pixels on a tablet.
  const scale = Number(d.uiScale ?? 1);
  const [x, y] = await onPage(page, scale * (tool.l + tool.r) / 2, scale * (tool.t + tool.b) / 2);
  await page.touchscreen.tap(x, y);
};
const [MOVES, NEW] = [4, 0];
const position = 'position=f5d6c3d3c4f4f6f3e6e7';
figures.layout_shots = [];
{
  // A phone: the menu, then the move list from the toolbar, then turned on its side.
  const page = await device({ width: 390, height: 844 }, `?open=menu&${position}`);
  figures.layout_shots.push(await capture(page, 'web-layout-390x844-menu', ['panel', 390, 844]));
  await tapTool(page, MOVES);
  figures.layout_shots.push(await capture(page, 'web-layout-390x844-moves', ['sheet', 390, 844]));
  await page.setViewportSize({ width: 844, height: 390 });
  figures.layout_shots.push(await capture(page, 'web-layout-844x390-moves', ['sheet', 844, 390]));
  await page.context().close();
}
{
  // A tablet lying down with the menu, then upright with new game from the toolbar.
  const page = await device({ width: 1194, height: 834 }, `?open=menu&${position}`);
  const memory = (await data(page)).engineMemory;
  check(memory === `tablet ${64 << 20}`, `a tablet's engine memory: ${memory}`);
  figures.layout_shots.push(await capture(page, 'web-layout-1194x834-menu', ['panel', 1194, 834]));
  await page.setViewportSize({ width: 834, height: 1194 });
  await placed(page, ['tool', 834, 1194]);
  await tapTool(page, NEW);
  figures.layout_shots.push(await capture(page, 'web-layout-834x1194-new', ['tall', 834, 1194]));
  await page.context().close();
}
const shot = async (name, size, query) => {
  const page = await device(size, query);
  const file = await capture(page, name, ['tool', size.width, size.height]);
  await page.context().close();
  return file;
};
figures.contrast_shots = [];
for (const theme of ['classic', 'wood', 'dark', 'contrast']) {
  figures.contrast_shots.push(`${theme}=${await shot(`web-contrast-${theme}`, { width: 540, height: 960 }, `?theme=${theme}&${position}`)}`);
}

lap();
await phoneBrowser.close();
await browser.close();
writeFileSync(join(out, 'web-figures.json'), JSON.stringify(figures, null, 2));
if (failures.length) {
  console.error(`web test: ${failures.length} failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('web test: OK');
