// The browser build's start-up as a phone sees it (#68, docs/web.md "Start-up"): Debian's
// Chromium as a 390x844 touch phone at device scale 3, its CPU throttled (CDP's
// Emulation.setCPUThrottlingRate, as a mid-range phone at 4), loads the page in a fresh browser
// each time (a first visit: no HTTP or code cache) and reads where the time went from the
// page's own marks (web/index.html, src/app/page.rs) and its resource timings:
//
//   the app's module downloaded, compiled, the app's first frame, the board ready (the page's
//   firstBoardMs: drawn with every shader compiled).
//
//     node web/test/startup.mjs http://127.0.0.1:PORT [--throttle 4] [--runs 3] [--scale 3] [--params K=V&...] [--plain] [--json FILE]
//
// --plain refuses the page's brotli unpacker, so that the page loads the app's plain module
// (its fallback, web/index.html): the unpacking's cost at the start, on the same build.
//
// Run it alone on the machine: throttling slows the page's threads, not the GPU process
// (SwiftShader here), so a busy machine shows in the figures.
import { phonePage, takeOption } from './phone-page.mjs';
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const throttle = Number(option('--throttle', '4'));
const runs = Number(option('--runs', '3'));
// The device's pixel ratio (default 3, as web/test/phone.mjs's phone: the page draws at 2).
const scale = Number(option('--scale', '3'));
const jsonFile = option('--json', null);
// More of the page's options (web/index.html reads them as the desktop's command line), e.g. shadows=off.
const params = option('--params', null);
const plainAt = args.indexOf('--plain');
const plain = plainAt >= 0;
if (plain) args.splice(plainAt, 1);
const [base] = args;
if (!base) {
  console.error('usage: node web/test/startup.mjs http://127.0.0.1:PORT [--throttle N] [--runs N] [--scale N] [--params K=V&...] [--plain] [--json FILE]');
  process.exit(2);
}

async function once() {
  const { browser, page, cdp } = await phonePage(scale);
  page.setDefaultTimeout(240_000);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  if (plain) await page.route('**/unbrotli.*.wasm', (route) => route.abort());
  await page.goto(`${base}/?open=board${params ? `&${params}` : ''}`);
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.body.dataset.montello));
  const figures = await page.evaluate(() => {
    const at = (name) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? NaN);
    const module = performance.getEntriesByType('resource').find((e) => /montello_bg\.[0-9a-f]+\.wasm(\.br)?$/.test(e.name));
    return {
      state: document.body.dataset.montello,
      app_module: document.body.dataset.appModule,
      module_downloaded_ms: Math.round(module?.responseEnd ?? NaN),
      module_compiled_ms: at('montello:compiled'),
      app_first_frame_ms: at('montello:first-frame'),
      first_board_ms: Number(document.body.dataset.firstBoardMs),
    };
  });
  await browser.close();
  return figures;
}

const all = [];
for (let i = 0; i < runs; i++) {
  const f = await once();
  all.push(f);
  console.log(`run ${i + 1} (CPU ${throttle}x): module downloaded ${f.module_downloaded_ms} ms, compiled ${f.module_compiled_ms} ms, the app's first frame ${f.app_first_frame_ms} ms, the board ${f.first_board_ms} ms (${f.state}, the app's module ${f.app_module})`);
}
const median = (key) => all.map((f) => f[key]).sort((a, b) => a - b)[Math.floor(all.length / 2)];
const summary = { throttle, scale, runs, plain, median_first_board_ms: median('first_board_ms'), median_first_frame_ms: median('app_first_frame_ms'), median_compiled_ms: median('module_compiled_ms'), all };
console.log(`median of ${runs}: the board at ${summary.median_first_board_ms} ms (first frame ${summary.median_first_frame_ms} ms, module compiled ${summary.median_compiled_ms} ms)`);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(summary, null, 2));
