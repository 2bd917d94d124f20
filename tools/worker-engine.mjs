// What tools/worker-review.mjs and tools/worker-values.mjs share: the engine's worker module
// as the browser build ships it, loaded in Node.js, and the game they measure (game A of
// lab/tests/cli.rs, 58 moves and a pass) with the start position as the wire writes it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/// The one file of `site` named `STEM.HASH.EXT` (web/build.sh names modules by content), or
/// `STEM.EXT` (wasm-bindgen's own output, before web/build.sh names it).
function named(site, stem, ext) {
  const found = readdirSync(site).filter((f) => new RegExp(`^${stem}(\\.[0-9a-f]{16})?\\.${ext}$`).test(f));
  if (found.length !== 1) throw new Error(`${site}: ${found.length} files named ${stem}.HASH.${ext}`);
  return found[0];
}

/// The worker module of the site built in `dir` (web/build.sh's output), ready to `handle`,
/// and its WebAssembly memory.
export async function loadEngineAndMemory(dir) {
  const site = resolve(dir ?? 'web/dist');
  globalThis.montelloProgress = () => {};
  const engine = await import(pathToFileURL(join(site, named(site, 'montello_worker', 'js'))).href);
  const exports = engine.initSync({ module: readFileSync(join(site, named(site, 'montello_worker_bg', 'wasm'))) });
  return { engine, memory: exports.memory };
}

/// The worker module of the site built in `dir` (web/build.sh's output), ready to `handle`.
export async function loadEngine(dir) {
  return (await loadEngineAndMemory(dir)).engine;
}

export const gameA = 'f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6'
  + 'c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8';

// BLACK:WHITE:SIDE, hexadecimal bitboards (bit 0 is a1, bit 63 h8): Black on d5 and e4, White
// on d4 and e5.
export const start = `${(1n << 28n | 1n << 35n).toString(16)}:${(1n << 27n | 1n << 36n).toString(16)}:b`;
