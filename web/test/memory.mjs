// The browser build's memory as a phone holds it (#68, docs/web.md "Memory"): Debian's Chromium
// as a 390x844 touch phone plays whole games while this samples the page's renderer process
// every 250 ms. Chromium runs the page, its Web Worker and their WebAssembly memories in that
// one process (`--type=renderer`); its VmRSS is what the system sees the page hold, VmHWM its
// peak. The GPU process (SwiftShader here, a phone's driver there) is left out.
//
//     node web/test/memory.mjs http://127.0.0.1:PORT [SCENARIO...] [--scale N] [--json FILE]
//
// Scenarios (default: all three), one after the other, each in a browser of its own:
//   casual        Casual against Casual, to the end and the review;
//   master        Master against Master, to the end and the review;
//   master-hint   the player (Black, these taps) against Master, asking a hint before every
//                 move and playing the first legal square, to the end and the review.
// --scale: the device's pixel ratio (default 3, as web/test/phone.mjs's phone; the page draws
// at most 2). Run it alone: another browser's pages would share the machine, not the figures.
// Beside each figure it prints what the renderer holds by kind of mapping (phone-page.mjs
// mappingSummary), at the board, at the end, and at the largest VmRSS seen.
import { mappingSummary, phonePage, rendererPids, takeOption } from './phone-page.mjs';
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const scale = Number(option('--scale', '3'));
const jsonFile = option('--json', null);
const [base, ...chosen] = args;
if (!base) {
  console.error('usage: node web/test/memory.mjs http://127.0.0.1:PORT [casual|master|master-hint...] [--scale N] [--json FILE]');
  process.exit(2);
}
const SCENARIOS = {
  casual: { query: '?autoplay=casual' },
  master: { query: '?autoplay=master' },
  'master-hint': { query: '?opponent=master', hints: true },
};
const names = chosen.length ? chosen : Object.keys(SCENARIOS);
for (const name of names) {
  if (!SCENARIOS[name]) {
    console.error(`no scenario ${name} (${Object.keys(SCENARIOS).join(', ')})`);
    process.exit(2);
  }
}
const GAME_MS = 20 * 60_000;

// The renderer processes below `root`: pid -> their status's kB figures.
function renderers(root) {
  const out = new Map();
  for (const pid of rendererPids(root)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
      out.set(pid, { rss: kb('VmRSS'), hwm: kb('VmHWM') });
    } catch {
      // ended while read
    }
  }
  return out;
}

const mib = (kb) => Math.round(kb / 1024);

async function run(name) {
  const scenario = SCENARIOS[name];
  const { browser, page } = await phonePage(scale);
  page.setDefaultTimeout(GAME_MS);
  // Playwright starts the browser as this process's child, one scenario at a time: the
  // renderers below this process are this browser's.
  const root = process.pid;
  // The page's renderer is the largest one below this browser; the peak of each is kept.
  let peak = { rss: 0, hwm: 0 };
  const timeline = [];
  const started = Date.now();
  // Where the memory is, by kind of mapping (phone-page.mjs mappingSummary): at the board, and
  // at the largest VmRSS seen (read again whenever a sample passes the last reading by 1 MiB).
  let atPeak = { rss: 0, where: '' };
  const summary = (pid) => {
    try {
      return mappingSummary(pid);
    } catch {
      return ''; // ended while read
    }
  };
  const sample = (what) => {
    let top = { rss: 0, hwm: 0, pid: 0 };
    for (const [pid, figures] of renderers(root)) if (figures.rss > top.rss) top = { ...figures, pid };
    peak = { rss: Math.max(peak.rss, top.rss), hwm: Math.max(peak.hwm, top.hwm) };
    let where = '';
    if (top.pid && top.rss > atPeak.rss + 1024) {
      where = summary(top.pid);
      if (where) atPeak = { rss: top.rss, where };
    }
    if (what) {
      if (!where && top.pid) where = summary(top.pid);
      timeline.push({ at_s: Math.round((Date.now() - started) / 100) / 10, what, rss_mib: mib(top.rss), where });
    }
  };
  const timer = setInterval(() => sample(null), 250);
  // A line every 30 s, so a slow run shows where it is.
  const progress = setInterval(() => {
    page.evaluate(() => `${document.body.dataset.transcript?.length / 2} moves, ${document.body.dataset.turn}, review ${document.body.dataset.review}`)
      .then((where) => console.log(`  (${name}, ${Math.round((Date.now() - started) / 1000)} s: ${where}, ${mib(peak.rss)} MiB so far)`), () => {});
  }, 30_000);
  const data = () => page.evaluate(() => ({ ...document.body.dataset }));
  await page.goto(`${base}/${scenario.query}`);
  await page.waitForFunction(() => document.body.dataset.montello === 'ready');
  const ready = await data();
  sample(`the board (${ready.engineMemory}; the app's ${ready.heap})`);
  if (scenario.hints) {
    // The toolbar's Hint (the fourth button in reading order, as web/test/phone.mjs taps them).
    const tap = async (x, y) => {
      const r = await page.locator('canvas#montello').boundingBox();
      await page.touchscreen.tap(r.x + x, r.y + y);
    };
    const hintButton = (d) => {
      const tools = (d.layout ?? '').split(';').filter((e) => e.startsWith('tool:')).map((e) => e.split(':')[1].split(',').map(Number))
        .sort((a, b) => (Math.round(a[1] / 8) - Math.round(b[1] / 8)) || (a[0] - b[0]));
      const [l, t, r, b] = tools[3];
      const ui = Number(d.uiScale ?? 1);
      return [ui * (l + r) / 2, ui * (t + b) / 2];
    };
    let hints = 0;
    for (;;) {
      await page.waitForFunction(() => document.body.dataset.turn === 'over'
        || (document.body.dataset.turn === 'black' && document.body.dataset.thinking !== '1' && document.body.dataset.busy === '0'));
      let d = await data();
      if (d.turn === 'over') break;
      if (!d.legal) {
        // No move: the game passes for the player.
        await page.waitForFunction((n) => document.body.dataset.transcript.length > n, d.transcript.length);
        continue;
      }
      await tap(...hintButton(d));
      // The hint thinks its second, then the board rings its moves.
      await page.waitForFunction(() => document.body.dataset.thinking === '1', null, { timeout: 10_000 }).catch(() => {});
      await page.waitForFunction(() => document.body.dataset.thinking !== '1');
      hints += 1;
      d = await data();
      const [square, x, y] = d.legal.split(' ')[0].split(/[:,]/);
      const before = d.transcript.length;
      await tap(Number(x), Number(y));
      await page.waitForFunction((n) => document.body.dataset.transcript.length > n, before);
      if (hints % 10 === 0) sample(`${hints} hints (${square})`);
    }
    sample(`the game over, ${hints} hints`);
  } else {
    await page.waitForFunction(() => document.body.dataset.turn === 'over');
    sample('the game over');
  }
  await page.waitForFunction(() => (document.body.dataset.review ?? '').startsWith('done'));
  const end = await data();
  sample(`the review ${end.review} (the app's ${end.heap})`);
  clearInterval(timer);
  clearInterval(progress);
  await browser.close();
  const result = {
    scenario: name,
    engine_memory: ready.engineMemory,
    // What the app's heap held by owner (app::heap, data-heap) at the board and at the end.
    heap_at_board: ready.heap,
    heap_at_end: end.heap,
    moves: end.transcript.length / 2,
    seconds: Math.round((Date.now() - started) / 1000),
    peak_rss_mib: mib(peak.rss),
    peak_hwm_mib: mib(peak.hwm),
    at_largest_sample: { rss_mib: mib(atPeak.rss), where: atPeak.where },
    timeline,
  };
  console.log(`${name}: the renderer's peak ${result.peak_hwm_mib} MiB (VmHWM; largest VmRSS seen ${result.peak_rss_mib} MiB), ${result.moves} moves, ${result.seconds} s, engine ${ready.engineMemory}`);
  for (const t of timeline) console.log(`  ${t.at_s} s: ${t.rss_mib} MiB, ${t.what}\n      (${t.where})`);
  console.log(`  at the largest VmRSS seen: ${mib(atPeak.rss)} MiB\n      (${atPeak.where})`);
  return result;
}

const results = [];
for (const name of names) results.push(await run(name));
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results, null, 2));
