// The engine's speed in Chromium's workers, both builds, with nothing else running: the
// figures docs/web.md gives beside `montello-engine bench`. Not part of the test.
//
//     node web/test/bench-chromium.mjs http://127.0.0.1:PORT [RUNS] [BENCHES]
//
// (web/serve.py serves the built site.) Each of RUNS workers per build runs BENCHES benches
// of 1 s one after the other (3 by default). The first bench of a fresh worker is printed
// apart ("fresh"): V8 starts a module on its baseline compiler and moves the hot functions to
// its optimising one in the background while they run, so that second is slower. The later
// ones ("warm") are the speed of a worker that has been thinking for a while, as the game's
// worker is after its first move. The best of each is kept.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [address, runs = '5', benches = '3'] = process.argv.slice(2);
const askWorkerSource = readFileSync(new URL('./ask-worker.js', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking'],
});
// The worker's script is named by its content (web/build.sh): index.html gives the name.
const workerScript = (await (await fetch(`${address}/index.html`)).text())
  .match(/montelloWorkerScript = '\.\/([^']+)'/)[1];
const page = await browser.newPage();
// A blank page of the site: the workers need its origin, not the game.
await page.goto(`${address}/manifest.webmanifest`);
const best = {};
const keep = (key, rates) => {
  best[key] = (best[key] ?? [0, 0, 0, 0]).map((b, k) => Math.max(b, Number(rates[k])));
};
const lines = Array.from({ length: Math.max(1, Number(benches)) }, () => 'bench 1');
for (let i = 0; i < Number(runs); i++) {
  for (const script of [workerScript, `${workerScript}?simd=0`]) {
    const replies = await page.evaluate(`(${askWorkerSource})(${JSON.stringify(`${address}/${script}`)}, ${JSON.stringify(lines)})`);
    replies.forEach((reply, k) => {
      const [, build, ...rates] = reply.split(' ');
      keep(`${build} ${k === 0 ? 'fresh' : 'warm'}`, rates);
    });
  }
}
for (const [key, [playouts, evaluations, perft, tree]] of Object.entries(best)) {
  console.log(`${key}: ${playouts} playouts/s, ${evaluations} evaluations/s, ${perft} perft leaves/s, ${tree} tree iterations/s`);
}
await browser.close();
