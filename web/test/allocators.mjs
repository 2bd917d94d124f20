// Chromium's own account of a page's memory (#68, docs/web.md "Memory"): loads a page as
// web/test/smaps.mjs does, waits for the board, asks for a detailed memory dump (CDP tracing,
// `disabled-by-default-memory-infra`) and prints, for each of Chromium's processes, its private
// footprint (Chromium's own measure of what a process holds: not the shared files) and its
// peak resident memory, then its allocators by size:
// V8 (its heaps, compiled WebAssembly), PartitionAlloc's partitions (Blink's objects, buffers),
// malloc, the GPU client's command and transfer buffers, and so on.
//
//     node web/test/allocators.mjs http://127.0.0.1:PORT [QUERY] [--wait MS] [--depth N] [--over]
//
// QUERY defaults to `?open=board`; --depth (default 2) is how many levels of an allocator's
// name to show (`v8/main/heap` is three); --over reads at the end of the game and its review
// instead (with `?autoplay=casual`: after a whole game between two AIs).
import { openAndWait, phonePage, takeFlag, takeOption } from './phone-page.mjs';

const args = process.argv.slice(2);
const waitMs = Number(takeOption(args, '--wait', '3000'));
const depth = Number(takeOption(args, '--depth', '2'));
const atOver = takeFlag(args, '--over');
const [base, query = '?open=board'] = args;
if (!base) {
  console.error('usage: node web/test/allocators.mjs http://127.0.0.1:PORT [QUERY] [--wait MS] [--depth N] [--over]');
  process.exit(2);
}

const { browser, page } = await phonePage(1);
await openAndWait(page, `${base}/${query}`, { atOver, waitMs });

const browserCdp = await browser.newBrowserCDPSession();
const events = [];
browserCdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
const done = new Promise((r) => browserCdp.once('Tracing.tracingComplete', r));
await browserCdp.send('Tracing.start', {
  traceConfig: {
    includedCategories: ['disabled-by-default-memory-infra'],
    excludedCategories: ['*'],
    memoryDumpConfig: { triggers: [] },
  },
  transferMode: 'ReportEvents',
});
const dump = await browserCdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
await browserCdp.send('Tracing.end');
await done;
if (!dump.success) console.log('(the memory dump did not succeed)');

// One process's dump: allocator name -> { size, effective } in bytes (attributes are hex).
// (An allocator's attributes are `{ value: HEX }`; the process's totals are the hex itself.)
const hex = (a) => (a ? Number.parseInt(typeof a === 'string' ? a : a.value, 16) : 0);
const byPid = new Map();
for (const e of events) {
  if (e.ph !== 'v' || !e.args?.dumps) continue;
  const mine = byPid.get(e.pid) ?? { allocators: {}, totals: {}, name: '' };
  Object.assign(mine.allocators, e.args.dumps.allocators ?? {});
  Object.assign(mine.totals, e.args.dumps.process_totals ?? {});
  byPid.set(e.pid, mine);
}
for (const e of events) {
  if (e.ph === 'M' && e.name === 'process_name' && byPid.has(e.pid)) byPid.get(e.pid).name = e.args.name;
}
const mib = (b) => (b / 1048576).toFixed(1).padStart(7);
for (const [pid, { allocators, totals, name }] of byPid) {
  // Chromium's private footprint (what it counts as the process's own: its anonymous and
  // swapped memory, not the shared files) and the peak of its resident memory.
  console.log(`\n${name || 'process'} ${pid}: private footprint ${mib(hex(totals.private_footprint_bytes))} MiB, ` +
    `peak resident ${mib(hex(totals.peak_resident_set_size))} MiB`);
  const rows = [];
  for (const [path, a] of Object.entries(allocators)) {
    if (path.split('/').length > depth) continue;
    const size = hex(a.attrs?.size);
    const effective = hex(a.attrs?.effective_size);
    if (size >= 512 * 1024 || effective >= 512 * 1024) rows.push([path, size, effective]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  console.log('    size  effective  allocator');
  for (const [path, size, effective] of rows) console.log(`${mib(size)} ${mib(effective)}    ${path}`);
}
await browser.close();
