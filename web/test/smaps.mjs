// Where the page's memory goes (#68, docs/web.md "Memory"): loads a page in Chromium as
// web/test/phone.mjs's phone (at device scale 1, as web/test/memory.mjs measures), waits for
// the board, and prints the page's renderer process's resident memory by mapping from
// /proc/PID/smaps: Chromium's own code (file-backed), the WebAssembly memories and compiled
// code (the large anonymous mappings), the rest; then the JavaScript heap (CDP), before and
// after a full garbage collection.
//
//     node web/test/smaps.mjs http://127.0.0.1:PORT [QUERY] [--wait MS] [--over]
//
// QUERY defaults to `?open=board`; a page without Montello's `data-montello="ready"` is read
// after --wait alone (default 3000 ms after the board); --over reads at the end of the game
// and its review instead (with `?autoplay=casual`: after a whole game between two AIs).
import { byMapping, openAndWait, phonePage, rendererPids, takeFlag, takeOption } from './phone-page.mjs';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const waitMs = Number(takeOption(args, '--wait', '3000'));
const atOver = takeFlag(args, '--over');
const [base, query = '?open=board'] = args;
if (!base) {
  console.error('usage: node web/test/smaps.mjs http://127.0.0.1:PORT [QUERY] [--wait MS] [--over]');
  process.exit(2);
}

function print(pid) {
  const groups = byMapping(pid);
  let total = 0;
  for (const kb of groups.values()) total += kb;
  console.log(`renderer ${pid}: ${Math.round(total / 1024)} MiB resident`);
  for (const [key, kb] of [...groups].sort((a, b) => b[1] - a[1])) {
    if (kb >= 1024) console.log(`  ${String(Math.round(kb / 1024)).padStart(4)} MiB  ${key.replace(/ @[0-9a-f]+$/, '')}`);
  }
}

const { browser, page, cdp } = await phonePage(1);
await openAndWait(page, `${base}/${query}`, { atOver, waitMs });
const heap = await page.evaluate(() => document.body.dataset.heap ?? '');
if (heap) console.log(`the app's heap (data-heap): ${heap}`);
// The page's renderer is taken to be the largest one: Chromium keeps another of about 157 MiB
// beside it (measured with a blank page: 128 MiB), so for a small page read the list.
const pids = rendererPids();
const rss = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0);
pids.sort((a, b) => rss(b) - rss(a));
console.log(`renderers: ${pids.map((p) => `${p} ${Math.round(rss(p) / 1024)} MiB`).join(', ')}`);
const pid = pids[0];
const js = async () => {
  const u = await cdp.send('Runtime.getHeapUsage');
  return `${(u.usedSize / 1048576).toFixed(1)} MiB used of ${(u.totalSize / 1048576).toFixed(1)}`;
};
console.log(`JavaScript heap: ${await js()}`);
print(pid);
await cdp.send('HeapProfiler.enable');
await cdp.send('HeapProfiler.collectGarbage');
await new Promise((r) => setTimeout(r, 2000));
console.log(`after a full garbage collection: JavaScript heap ${await js()}`);
print(pid);
await browser.close();
