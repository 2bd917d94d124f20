// Whether this browser runs WebAssembly's 128-bit SIMD (Chrome 91, Firefox 89, Safari 16.4
// and later): then the engine's SIMD build is loaded, else its scalar one (web/build.sh builds
// both). A classic script and a module alike, so that the service worker (importScripts), the
// engine's worker and the page (import) read one answer. The probe is the smallest module
// that uses a SIMD instruction: a function returning `i8x16.popcnt(i8x16.splat(0))`.
//
// WebKit is kept on the scalar build: WebKitGTK's page process crashed at the SIMD build's
// first use, every time, where the scalar build plays (2026-11-28, web/test/webkit.py), and
// every iPhone browser is WebKit, which no machine here can test. WebKit's user agents say
// AppleWebKit without Chrome/ (iOS's Chrome says CriOS/: WebKit too); Chrome, Edge and the
// other Chromium browsers say both, and Firefox says neither.
self.montelloWebKit = ((agent) => /AppleWebKit\//.test(agent) && !/Chrome\/|Chromium\//.test(agent))(
  typeof navigator === 'object' ? navigator.userAgent : '',
);
self.montelloSimd = !self.montelloWebKit && typeof WebAssembly === 'object' && WebAssembly.validate(new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]));
// The engine's module for this browser, relative to the site: `simd` false asks for the
// scalar one (the tests measure both).
self.montelloEngineModule = (simd = self.montelloSimd) =>
  (simd ? 'montello_worker_simd_bg.wasm' : 'montello_worker_bg.wasm');
