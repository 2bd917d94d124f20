// The engine's worker module, as the browser build ships it, run in Node.js: how large its
// WebAssembly memory grows (a memory never shrinks; the page's renderer holds what was
// touched) through game A of lab/tests/cli.rs when two slots search in turn, as the AI's and
// the player's hints do, or both sides in a game between two AIs (docs/web.md "Memory").
// A figure for the docs, not a test.
//
//     node tools/worker-memory.mjs [SITE] [--memory BYTES] [--table BYTES] [--slots 1|2] [--level N] [--values] [--review]
//
// SITE: web/build.sh's output (default web/dist), or wasm-bindgen's own output folder.
// Every move of the game is searched at the level (default 6, Master) on its own 1 s cap,
// Black's in slot 1 and White's in slot 0 (--slots 1: both in slot 0), with the phone class's
// tree (--memory, default 16777216, as platform::memory sizes it); then the game's own move is
// played. --values asks after each search for the values of every move there, as the page
// does with every hint (the last 20 empty squares exact, in a table of --table bytes, default
// the engine's 16 MiB; a phone's is 8 MiB). --review then asks for the game's review, as the
// app does after a game (the last 20 empty squares exact, 12 plies before, the same table).
// The figure is the memory's length: a tree fills what it reserves, but a table or a pool that
// a short search never fills is larger here than what a page holds resident.
import { gameA, loadEngineAndMemory } from './worker-engine.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const memoryCap = Number(option('--memory', '16777216'));
const table = Number(option('--table', '16777216'));
const slots = Number(option('--slots', '2'));
const level = Number(option('--level', '6'));
const flag = (name) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const review = flag('--review');
const values = flag('--values');
const { engine, memory } = await loadEngineAndMemory(args[0]);

// Othello on BigInt bitboards (bit 0 is a1, bit 63 h8, as the wire writes them), to replay
// the game's moves and write each position.
const FULL = (1n << 64n) - 1n;
const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
const bit = (x, y) => 1n << BigInt(x + 8 * y);
function flips(p, o, square) {
  let all = 0n;
  for (const [dx, dy] of DIRECTIONS) {
    let [x, y, line] = [square % 8 + dx, Math.floor(square / 8) + dy, 0n];
    while (x >= 0 && x < 8 && y >= 0 && y < 8 && (o & bit(x, y))) {
      line |= bit(x, y);
      [x, y] = [x + dx, y + dy];
    }
    if (line && x >= 0 && x < 8 && y >= 0 && y < 8 && (p & bit(x, y))) all |= line;
  }
  return all;
}
const canMove = (p, o) => [...Array(64).keys()].some((s) => !((p | o) & (1n << BigInt(s))) && flips(p, o, s));

let [black, white, side] = [bit(4, 3) | bit(3, 4), bit(3, 3) | bit(4, 4), 'b'];
const mib = (bytes) => (bytes / 1048576).toFixed(0);
let peak = memory.buffer.byteLength;
const moves = gameA.match(/../g);
// The moves with the passes written in (`PA`), as a review request names them.
const played = [];
for (const [ply, move] of moves.entries()) {
  let [p, o] = side === 'b' ? [black, white] : [white, black];
  if (!canMove(p, o)) {
    side = side === 'b' ? 'w' : 'b';
    [p, o] = [o, p];
    played.push('PA');
  }
  played.push(move);
  const slot = slots === 2 && side === 'b' ? 1 : 0;
  const position = `${black.toString(16)}:${white.toString(16)}:${side}`;
  const reply = engine.handle(`search ${ply} ${slot} 0 level:${level}:1 ${position} othello 1000000:-:${memoryCap}`);
  if (!reply.startsWith('searched')) throw new Error(`move ${ply + 1}: ${reply}`);
  if (values) {
    const valued = engine.handle(`values ${ply} othello 20 12 ${table} ${position}`);
    if (!valued.startsWith('valued')) throw new Error(`move ${ply + 1}, the values: ${valued}`);
  }
  peak = Math.max(peak, memory.buffer.byteLength);
  if (ply % 10 === 0) console.log(`move ${ply + 1}: the worker's memory ${mib(memory.buffer.byteLength)} MiB`);
  const square = move.charCodeAt(0) - 97 + 8 * (Number(move[1]) - 1);
  const f = flips(p, o, square);
  if (!f) throw new Error(`move ${ply + 1}: ${move} is not legal here`);
  [p, o] = [p | f | (1n << BigInt(square)), o & ~f & FULL];
  [black, white, side] = side === 'b' ? [p, o, 'w'] : [o, p, 'b'];
}
console.log(`${moves.length} moves at level ${level}, ${slots} slot(s) in turn${values ? ', the values after each' : ''}, trees of at most ${mib(memoryCap)} MiB, tables of ${mib(table)} MiB: the worker's memory at most ${mib(peak)} MiB`);
if (review) {
  const reply = engine.handle(`review ${moves.length} othello 20 12 ${table} 810000000:1008000000:b ${played.join(' ')}`);
  if (!reply.startsWith('reviewed')) throw new Error(`the review: ${reply.slice(0, 200)}`);
  console.log(`after the game's review: the worker's memory ${mib(memory.buffer.byteLength)} MiB`);
}
