// Montello's engine in a Web Worker: the page (src/platform/web.rs) posts request lines, this
// worker answers with reply lines (engine/src/search/wire.rs has the format). A search runs to
// its cap here; the page cancels by terminating the worker.
import init, { handle, bench } from './montello_worker.js';

let last = 0;
// Called by the engine every few hundred microseconds while a search runs; posts at most one
// progress line every 100 ms.
self.montelloProgress = (job, iterations) => {
  const now = performance.now();
  if (now - last >= 100) {
    last = now;
    postMessage(`progress ${job} ${iterations}`);
  }
};

const ready = init({ module_or_path: new URL('montello_worker_bg.wasm', import.meta.url) });

// Messages wait for the module; an exception (a request the engine refuses) reaches the page
// as the worker's error event, and the page then searches on its own thread.
self.onmessage = async (event) => {
  await ready;
  const line = String(event.data);
  if (line.startsWith('bench ')) {
    // web/test/phone.mjs measures the engine's speed here: `bench SECONDS`.
    postMessage(`bench ${bench(Number(line.slice(6)))}`);
    return;
  }
  last = 0;
  postMessage(handle(line));
};
