// Montello's engine in a Web Worker: the page (src/platform/web.rs) posts request lines, this
// worker answers with reply lines (engine/src/search/wire.rs has the format). A search runs to
// its cap here; the page cancels by terminating the worker.
//
// Every request gets an answer: its reply, or `failed JOB WHY` when the engine's module did not
// load or the engine threw or trapped (the page then searches itself). The handler is async,
// so an exception left to escape would only reject a promise in here, and the page would wait
// for ever; the page's watchdog covers a worker that dies or hangs without a word.
import init, { handle, bench } from './montello_worker.js';
import './simd.js';

// The SIMD build where the browser has it; `worker.js?simd=0` asks for the scalar one (the
// browser test measures both).
const simd = self.montelloSimd && new URL(import.meta.url).searchParams.get('simd') !== '0';

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

let broken = null;
// `ready` tells the page that the module is in (or could not be): its watchdog gives a worker
// that is still starting (downloading and compiling the module) more time than one that runs.
const ready = init({ module_or_path: new URL(self.montelloEngineModule(simd), import.meta.url) })
  .catch((e) => { broken = `the engine's module did not load: ${e}`; })
  .finally(() => postMessage('ready'));

const oneLine = (e) => String(e?.message ?? e).replace(/\s+/g, ' ').trim() || 'unknown error';

self.onmessage = async (event) => {
  await ready;
  const line = String(event.data);
  // The job is the request's second word (`search JOB ...`, `analyse JOB ...`).
  const job = Number(line.split(' ')[1]) || 0;
  if (broken) {
    postMessage(`failed ${job} ${oneLine(broken)}`);
    return;
  }
  try {
    if (line.startsWith('bench ')) {
      // web/test/phone.mjs measures the engine's speed here: `bench SECONDS`, answered with
      // `bench simd|scalar PLAYOUTS/S EVALUATIONS/S PERFT-LEAVES/S TREE-ITERATIONS/S`.
      postMessage(`bench ${simd ? 'simd' : 'scalar'} ${bench(Number(line.slice(6)))}`);
      return;
    }
    last = 0;
    postMessage(handle(line));
  } catch (e) {
    // A trap leaves the module's memory in an unknown state: the page gives this worker up.
    postMessage(`failed ${job} ${oneLine(e)}`);
  }
};
