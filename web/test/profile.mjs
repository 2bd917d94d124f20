// Where the browser build's start-up goes (#68, docs/web.md "Start-up"): the page's CPU profile
// from its first byte to the board, in the same phone as web/test/startup.mjs (a fresh
// Chromium, 390x844 touch at device scale 3, the CPU throttled). Prints the functions that
// took the most time of their own and, with --json, writes the whole profile (a .cpuprofile
// that Chromium's DevTools opens).
//
//     node web/test/profile.mjs http://127.0.0.1:PORT [--throttle 4] [--scale 3] [--top 40] [--params K=V&...] [--json FILE]
//
// The app's functions have their names only in a build that keeps them
// (MONTELLO_WEB_KEEP_NAMES=1 web/build.sh DIR); the shipped build strips them.
import { phonePage, takeOption } from './phone-page.mjs';
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const throttle = Number(option('--throttle', '4'));
const scale = Number(option('--scale', '3'));
const top = Number(option('--top', '40'));
const jsonFile = option('--json', null);
// More of the page's options (web/index.html reads them as the desktop's command line), e.g. shadows=off.
const params = option('--params', null);
const [base] = args;
if (!base) {
  console.error('usage: node web/test/profile.mjs http://127.0.0.1:PORT [--throttle N] [--scale N] [--top N] [--params K=V&...] [--json FILE]');
  process.exit(2);
}

const { browser, page, cdp } = await phonePage(scale);
page.setDefaultTimeout(240_000);
// A page of the same site first, so that the page's own load stays in this renderer process
// (a new site's navigation may start another, which the profiler would not follow).
await page.goto(`${base}/manifest.webmanifest`);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
await cdp.send('Profiler.start');
await page.goto(`${base}/?open=board${params ? `&${params}` : ''}`);
await page.waitForFunction(() => ['ready', 'failed'].includes(document.body.dataset.montello));
const { profile } = await cdp.send('Profiler.stop');
const marks = await page.evaluate(() => ({
  state: document.body.dataset.montello,
  compiled: Math.round(performance.getEntriesByName('montello:compiled')[0]?.startTime ?? NaN),
  first_frame: Math.round(performance.getEntriesByName('montello:first-frame')[0]?.startTime ?? NaN),
  board: Number(document.body.dataset.firstBoardMs),
}));
await browser.close();
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(profile));

// Self time per node: the samples' time deltas credited to the node sampled.
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const total = new Map();
for (const [id, us] of self) {
  const f = byId.get(id).callFrame;
  const name = f.functionName || `(anonymous ${f.url.split('/').pop()}:${f.lineNumber})`;
  total.set(name, (total.get(name) ?? 0) + us);
}
const all = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`${marks.state}: compiled ${marks.compiled} ms, first frame ${marks.first_frame} ms, the board ${marks.board} ms; ${(all / 1e3).toFixed(0)} ms sampled (CPU ${throttle}x, scale ${scale})`);
const rows = [...total].sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [name, us] of rows) {
  console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms ${(100 * us / all).toFixed(1).padStart(5)}%  ${name.slice(0, 150)}`);
}
