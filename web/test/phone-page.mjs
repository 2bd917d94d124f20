// What the Chromium tools share (web/test/phone.mjs, memory.mjs, startup.mjs): Debian's
// chromium started off the network, as root, with WebGL2 through SwiftShader, and a page in it
// that is a 390x844 touch phone.
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';

export const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];
export const BROWSER = { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true };
export const PHONE = { width: 390, height: 844 };

// `--name VALUE` taken out of `args` (the tools' command lines), or `fallback` without it.
export function takeOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  return args.splice(at, 2)[1] ?? fallback;
}

// Whether `args` has the flag `name`, taken out of them.
export function takeFlag(args, name) {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}

// A new browser at device scale `scale` (a real one: Playwright's `deviceScaleFactor` is
// DevTools emulation, web/test/phone.mjs says why) with one page emulating the phone: its
// metrics and touch. Returns the browser, the page and the page's CDP session.
export async function phonePage(scale) {
  const browser = await chromium.launch({ ...BROWSER, args: [...FLAGS, `--force-device-scale-factor=${scale}`] });
  const context = await browser.newContext({ viewport: null, hasTouch: true, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { ...PHONE, deviceScaleFactor: 0, mobile: true });
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  return { browser, page, cdp };
}

// Opens `url` and waits for Montello's board (`data-montello="ready"`; a page without it is
// read after the wait alone), with `atOver` for the end of the game and its review too (an
// autoplayed game), then `waitMs` more (web/test/smaps.mjs, allocators.mjs).
export async function openAndWait(page, url, { atOver = false, waitMs = 0 } = {}) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.montello === 'ready', null, { timeout: 600_000 })
    .catch(() => console.log('(no data-montello="ready": read after the wait alone)'));
  if (atOver) {
    await page.waitForFunction(() => (document.body.dataset.review ?? '').startsWith('done'), null, { timeout: 1_200_000 });
  }
  await new Promise((r) => setTimeout(r, waitMs));
}

// The pids of Chromium's renderer processes below `root` (Playwright starts the browser as
// this process's child): the page's, its Web Worker's and their WebAssembly memories live in one
// of them (web/test/memory.mjs, smaps.mjs).
export function rendererPids(root = process.pid) {
  const parent = new Map();
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer')) found.push(Number(name));
    } catch {
      // ended while read
    }
  }
  return found.filter((pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === root) return true;
    return false;
  });
}

// Resident KiB by mapping: file-backed ones by file, anonymous ones of 8 MiB or more each on
// their own line (a WebAssembly memory, compiled code, a module's bytes), the small ones together.
export function byMapping(pid) {
  const groups = new Map();
  let key = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = line.match(/^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/);
    if (m) {
      const mib = (parseInt(m[2], 16) - parseInt(m[1], 16)) / 1048576;
      const what = m[4] || 'anonymous';
      key = `${m[3]} ${what}${!m[4] && mib >= 8 ? ` (a ${Math.round(mib)} MiB mapping)` : ''}`;
      if (!m[4] && mib >= 8) key += ` @${m[1]}`;
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss && key) groups.set(key, (groups.get(key) ?? 0) + Number(rss[1]));
  }
  return groups;
}

// One line of a renderer's resident memory by kind, in MiB: Chromium's own files, the memory it
// shares with the GPU process, each anonymous mapping of 8 MiB or more (the WebAssembly
// memories, compiled code, the module's bytes), and the small anonymous ones together
// (web/test/memory.mjs at the board and the peak).
export function mappingSummary(pid) {
  let [file, shared, small] = [0, 0, 0];
  const big = [];
  for (const [key, kb] of byMapping(pid)) {
    const what = key.slice(key.indexOf(' ') + 1);
    if (/ \(a \d+ MiB mapping\)/.test(key)) big.push(kb);
    else if (what.startsWith('/memfd:') || what.startsWith('/dev/shm/')) shared += kb;
    else if (what.startsWith('/')) file += kb;
    else small += kb;
  }
  const m = (kb) => Math.round(kb / 1024);
  big.sort((a, b) => b - a);
  const large = big.filter((kb) => kb >= 1024).map(m).join(' + ');
  return `files ${m(file)}, shared with the GPU ${m(shared)}, large anonymous ${large}, the rest ${m(small)}`;
}
