// The engine's worker module, as the browser build ships it, run in Node.js: the time a game
// review takes there (the wire request the page sends, docs/ai.md "In the app"), next to the
// engine's speed in the same module. A figure for the docs, not a test.
//
//     node tools/worker-review.mjs [SITE]        (default web/dist, built by web/build.sh)
//
// Reviews game A of lab/tests/cli.rs (58 moves and a pass) with the app's settings: a
// 12-ply search, the last 20 empties exact, 16 MiB tables.
import { gameA as game, loadEngine, start } from './worker-engine.mjs';

const engine = await loadEngine(process.argv[2]);
const moves = game.match(/../g);

// The transcript leaves White's pass out: the engine replays it with the passes the rules
// force, so a request names them. Try the moves as written, then with a pass where needed.
function request(job, list) {
  return `review ${job} othello 20 12 ${16 << 20} ${start} ${list.join(' ')}`;
}
let list = [...moves];
let reply = engine.handle(request(1, list));
for (let i = 1; reply.startsWith('failed') && i < moves.length; i++) {
  // Find where a pass is due: the first move the engine refuses.
  const at = Number(/move (\d+)/.exec(reply)?.[1]);
  if (!at) break;
  list.splice(at - 1, 0, 'PA');
  reply = engine.handle(request(1, list));
}
if (!reply.startsWith('reviewed')) {
  console.error(`worker-review: the review failed: ${reply}`);
  process.exit(1);
}
const times = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  engine.handle(request(2 + i, list));
  times.push(performance.now() - t0);
}
const words = reply.split(' ').slice(2);
const exact = words.filter((w) => w.endsWith(':e')).length;
times.sort((a, b) => a - b);
console.log(`worker-review: ${words.length} moves (${exact} exact) reviewed in ${(times[1] / 1000).toFixed(2)} s `
  + `(median of 3; ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`);
console.log(`worker-review: the engine here: ${engine.bench(1)} (playouts/s evaluations/s perft leaves/s)`);
