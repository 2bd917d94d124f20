// The page's brotli unpacker (web/unbrotli), run in Node.js as the page runs it: how large its
// WebAssembly memory grows while it unpacks a brotli file fed in chunks (docs/web.md "Memory").
// A figure for the docs, not a test.
//
//     node tools/unbrotli-memory.mjs UNBROTLI.wasm FILE.br [CHUNK_BYTES]
//
// CHUNK_BYTES (default 65536) is the size of each piece of the download fed to it. An unpacker
// built before `more` existed (it returned a chunk's whole output at once) is fed the same way.
import { readFileSync } from 'node:fs';

const [wasmPath, packedPath, chunkText = '65536'] = process.argv.slice(2);
if (!packedPath) {
  console.error('usage: node tools/unbrotli-memory.mjs UNBROTLI.wasm FILE.br [CHUNK_BYTES]');
  process.exit(2);
}
const chunk = Number(chunkText);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const x = instance.exports;
const packed = readFileSync(packedPath);
let out = 0;
let most = 0;
for (let at = 0; at < packed.length; at += chunk) {
  const piece = packed.subarray(at, at + chunk);
  // `input` may grow the memory, which detaches its old buffer: the buffer after.
  const room = x.input(piece.length);
  new Uint8Array(x.memory.buffer, room, piece.length).set(piece);
  for (let n = x.push(piece.length); n !== 0; n = x.more ? x.more() : 0) {
    if (n < 0) throw new Error(`not a valid brotli stream (at byte ${at})`);
    out += n;
  }
  most = Math.max(most, x.memory.buffer.byteLength);
}
if (x.finish() !== 0) throw new Error('the stream stopped short');
console.log(`${packed.length} bytes unpacked to ${out} in chunks of ${chunk}: the unpacker's memory at most ${(most / 1048576).toFixed(1)} MiB`);
