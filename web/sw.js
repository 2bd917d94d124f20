// Montello's service worker: the installed app (web/manifest.webmanifest) starts and plays
// with no network. It keeps every file of one build in a cache named after the build
// (web/build.sh writes the build's hash below), and answers the page's requests from it.
//
// An update never mixes two builds in one running app: a new build's worker installs beside
// the old one and waits; it takes over when no page of the old build is open (at the next
// start), or when the player taps the page's Update button (web/index.html: the page posts
// 'update' here, and reloads into the new build once it has taken over), and only then drops
// the old build's cache. Every module and script is named by its content (web/build.sh), so
// the two builds' files never share a name. The game itself lives in the page's localStorage,
// which no update touches.
const BUILD = '__MONTELLO_BUILD__';
const CACHE = `montello-${BUILD}`;
// Of the engine's two builds, only the one this browser runs (web/simd.js's answer, which
// rests on the browser's features and its kind: the same for the life of an install).
importScripts('simd.js');
// Every file the app loads, relative to this script (web/build.sh writes each module's and
// script's name by content here).
const FILES = [
  './',
  'index.html',
  'montello.js',
  // The app's module as the page downloads it: its brotli file and the page's unpacker
  // (web/index.html). The plain module, which the page loads only when unpacking fails, is not
  // kept: a second copy of the largest file for a case that should not happen.
  'montello_bg.wasm' + '.br',
  'unbrotli.wasm',
  'worker.js',
  'simd.js',
  'montello_worker.js',
  self.montelloEngineModule(),
  'manifest.webmanifest',
  'icons/icon-192.png',
  'icons/icon-512.png',
  'icons/apple-touch-icon.png',
];

self.addEventListener('install', (event) => {
  // 'no-cache': revalidated with the server (a 304 when the browser's HTTP cache already has
  // the file from the page's own first load), so the cache holds this build's files.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'no-cache' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('montello-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'update') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page's address carries options (?open=board, ?lang=ja): the same index.html.
    const cached = request.mode === 'navigate'
      ? await cache.match('index.html')
      : await cache.match(request, { ignoreSearch: true });
    return cached ?? fetch(request);
  })());
});
