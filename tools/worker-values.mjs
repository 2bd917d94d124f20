// The engine's worker module, as the browser build ships it, run in Node.js: the time the
// values on the squares take there (the wire request `values` the page sends, docs/ai.md "The
// values on the squares"), for positions of a real game. A figure for the docs, not a test.
//
//     node tools/worker-values.mjs [SITE]        (default web/dist, built by web/build.sh)
//
// Values every legal move of game A of lab/tests/cli.rs after 10, 20, 30 and 36 moves (the
// middle game: searched 12 plies deep) and after 40 and 44 (20 empties and fewer: solved),
// with the app's settings, and prints the median of 3 runs of each (the best line included).
import { gameA as game, loadEngine, start } from './worker-engine.mjs';

const engine = await loadEngine(process.argv[2]);
const moves = game.match(/../g);

// The position after the first `n` moves, as the worker's own review request replays them:
// a review of those moves answers with their sides, so the passes the rules force are found
// the same way tools/worker-review.mjs finds them.
function replay(n) {
  let list = moves.slice(0, n);
  let reply = engine.handle(`review 1 othello 0 1 ${1 << 20} ${start} ${list.join(' ')}`);
  for (let i = 0; reply.startsWith('failed') && i < n; i++) {
    const at = Number(/move (\d+)/.exec(reply)?.[1]);
    if (!at) break;
    list.splice(at - 1, 0, 'PA');
    reply = engine.handle(`review 1 othello 0 1 ${1 << 20} ${start} ${list.join(' ')}`);
  }
  return list;
}

let worst = 0;
for (const n of [10, 20, 30, 36, 40, 44]) {
  const list = replay(n);
  // The page sends a position (BLACK:WHITE:SIDE); the wire has no request that plays moves,
  // so the moves are replayed here (positionAfter, below).
  const position = positionAfter(list);
  const times = [];
  let reply = '';
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    reply = engine.handle(`values ${2 + i} othello 20 12 ${16 << 20} ${position}`);
    times.push(performance.now() - t0);
  }
  if (!reply.startsWith('valued')) {
    console.error(`worker-values: after ${n} moves: ${reply}`);
    process.exit(1);
  }
  times.sort((a, b) => a - b);
  worst = Math.max(worst, times[1]);
  // `valued JOB MOVE:VALUE:KIND… line MOVE…`: the values, then the best line.
  const [valued, line = ''] = reply.split(' line ');
  const words = valued.split(' ').slice(2);
  const exact = words.every((w) => w.endsWith(':e'));
  console.log(`worker-values: after ${n} moves (${list.length} with passes): ${words.length} moves `
    + `${exact ? 'solved' : 'searched'}, best line ${line || 'none'}, in ${(times[1] / 1000).toFixed(3)} s `
    + `(median of 3; ${times.map((t) => (t / 1000).toFixed(3)).join(', ')} s)`);
}
console.log(`worker-values: the slowest median ${(worst / 1000).toFixed(3)} s`);

// The rules, enough to replay a legal game: bit 0 is a1, bit 63 h8.
function positionAfter(list) {
  let black = 1n << 28n | 1n << 35n;
  let white = 1n << 27n | 1n << 36n;
  let side = 'b';
  const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
  for (const mv of list) {
    if (mv !== 'PA') {
      const col = mv.charCodeAt(0) - 97;
      const row = Number(mv[1]) - 1;
      let [me, them] = side === 'b' ? [black, white] : [white, black];
      let flips = 0n;
      for (const [dc, dr] of dirs) {
        let c = col + dc;
        let r = row + dr;
        let line = 0n;
        while (c >= 0 && c < 8 && r >= 0 && r < 8 && (them >> BigInt(r * 8 + c)) & 1n) {
          line |= 1n << BigInt(r * 8 + c);
          c += dc;
          r += dr;
        }
        if (line && c >= 0 && c < 8 && r >= 0 && r < 8 && (me >> BigInt(r * 8 + c)) & 1n) flips |= line;
      }
      me |= flips | (1n << BigInt(row * 8 + col));
      them &= ~flips;
      [black, white] = side === 'b' ? [me, them] : [them, me];
    }
    side = side === 'b' ? 'w' : 'b';
  }
  return `${black.toString(16)}:${white.toString(16)}:${side}`;
}
