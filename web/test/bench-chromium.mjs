// The engine's speed in Chromium's workers, both builds, with nothing else running: the
// figures docs/web.md gives beside `montello-engine bench`. Not part of the test.
//
//     node web/test/bench-chromium.mjs http://127.0.0.1:PORT [RUNS]
//
// (web/serve.py serves the built site; RUNS benches of 1 s per build, the best kept.)
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [address, runs = '5'] = process.argv.slice(2);
const askWorkerSource = readFileSync(new URL('./ask-worker.js', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking'],
});
const page = await browser.newPage();
// A blank page of the site: the workers need its origin, not the game.
await page.goto(`${address}/manifest.webmanifest`);
const best = {};
for (let i = 0; i < Number(runs); i++) {
  for (const script of ['worker.js', 'worker.js?simd=0']) {
    const [reply] = await page.evaluate(`(${askWorkerSource})(${JSON.stringify(`${address}/${script}`)}, ["bench 1"])`);
    const [, build, ...rates] = reply.split(' ');
    best[build] = (best[build] ?? [0, 0, 0, 0]).map((b, k) => Math.max(b, Number(rates[k])));
  }
}
for (const [build, [playouts, evaluations, perft, tree]] of Object.entries(best)) {
  console.log(`${build}: ${playouts} playouts/s, ${evaluations} evaluations/s, ${perft} perft leaves/s, ${tree} tree iterations/s`);
}
await browser.close();
