// Run in the page by both browser tests (phone.mjs in Chromium, webkit.py in WebKit): starts
// the engine's worker from `url`, posts `lines` to it and resolves with its replies, one a
// line. `ready` and progress lines are skipped; `failed 0 WHY` (a module that did not load)
// ends it early.
(url, lines) => new Promise((resolve) => {
  const w = new Worker(url, { type: 'module' });
  const replies = [];
  w.onmessage = (e) => {
    if (!/^(bench|estimated|failed) /.test(String(e.data))) return;
    replies.push(String(e.data));
    if (replies.length === lines.length || String(e.data).startsWith('failed ')) {
      w.terminate();
      resolve(replies);
    }
  };
  for (const line of lines) w.postMessage(line);
})
