// The self-contained replay page of a recording: rrweb's Replayer and its CSS inlined, the events
// embedded, nothing fetched.
import { rrwebBundle } from './rrweb-bundle.js';
import type { RecordingDocument } from './recordings.js';

/**
 * Content-Security-Policy of the replay page: its own inline script and styles only, no connection
 * anywhere. Images and fonts of the recorded pages may load from their sites when online (rrweb
 * keeps their URLs); the page never needs them to work.
 */
export const REPLAY_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  'img-src * data: blob:; font-src * data:; media-src * data: blob:; frame-src about: blob:; ' +
  "connect-src 'none'; base-uri 'none'; form-action 'none'";

/** JSON safe inside `<script type="application/json">`: no `</script>`, no HTML comment opener. */
function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The replay page. `#t=<ms>` (ms from the recording's start, as in `pages[].offset_ms`) opens it
 * paused at that moment; changing the hash seeks again. Several tabs: the player shows the tab whose
 * document was snapshotted last, and leaves out the other tabs' changes until they load a page.
 * The page sets `window.svcReplay = {events, pages, ready}` for programs that inspect it.
 */
export function renderReplayPage(doc: RecordingDocument): string {
  const { script, css } = rrwebBundle();
  const title = `Recording of browser session ${doc.session_id}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPLAY_CSP}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
<style>
body{font:14px system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
header{padding:8px 12px;background:#18181b;color:#fafafa;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
header button{font:inherit;padding:2px 10px}
#seek{flex:1;min-width:200px}
#pages{margin:0;padding:6px 12px;font-size:12px;list-style:none;display:flex;gap:10px;flex-wrap:wrap}
#pages a{color:#1d4ed8}
#stage{padding:12px;overflow:auto}
#stage .replayer-wrapper{position:relative;box-shadow:0 0 0 1px #d4d4d8;background:#fff}
#empty{padding:24px}
</style>
</head>
<body>
<header>
<strong>${escapeHtml(title)}</strong>
<button id="play" type="button">Play</button>
<input id="seek" type="range" min="0" value="0" step="100" aria-label="Position">
<span id="clock">0.0 s</span>
${doc.truncated ? '<span>(truncated: the size cap was reached)</span>' : ''}
</header>
<ul id="pages"></ul>
<div id="stage"></div>
<script type="application/json" id="svc-recording">${embedJson({
    started_at: doc.started_at,
    pages: doc.pages,
    events: doc.events,
  })}</script>
<script>
(function () {
${script}
  var data = JSON.parse(document.getElementById('svc-recording').textContent);
  var all = data.events;
  // The player renders one document: keep the changes of the tab that took the last snapshot.
  var current = -1, events = [];
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (e.tab === 0) { events.push(e); continue; }
    if (e.type === 4 || e.type === 2) current = e.tab;
    if (e.tab === current) events.push(e);
  }
  var state = { events: events.length, pages: data.pages, ready: false, offset: 0 };
  window.svcReplay = state;
  var list = document.getElementById('pages');
  data.pages.forEach(function (p) {
    var li = document.createElement('li');
    var a = document.createElement('a');
    a.href = '#t=' + p.offset_ms;
    a.textContent = (p.offset_ms / 1000).toFixed(1) + ' s  tab ' + p.tab + '  ' + p.url;
    li.appendChild(a);
    list.appendChild(li);
  });
  var stage = document.getElementById('stage');
  if (!events.some(function (e) { return e.type === 2; })) {
    stage.innerHTML = '<p id="empty">No page was recorded.</p>';
    state.ready = true;
    return;
  }
  var replayer = new rrweb.Replayer(events, {
    root: stage, mouseTail: false, UNSAFE_replayCanvas: false, showWarning: false,
  });
  var meta = replayer.getMetaData();
  // #t= counts from the recording's start, which is the first event (the server's start marker).
  var seek = document.getElementById('seek');
  var clock = document.getElementById('clock');
  var button = document.getElementById('play');
  seek.max = String(meta.totalTime);
  var playing = false;
  function show(ms) {
    state.offset = ms;
    seek.value = String(ms);
    clock.textContent = (ms / 1000).toFixed(1) + ' s / ' + (meta.totalTime / 1000).toFixed(1) + ' s';
  }
  function goTo(ms, play) {
    ms = Math.max(0, Math.min(meta.totalTime, ms));
    if (play) replayer.play(ms); else replayer.pause(ms);
    playing = play;
    button.textContent = play ? 'Pause' : 'Play';
    show(ms);
    settle();
    setTimeout(settle, 50);
  }
  // The player writes its frame with document.open() and leaves it open, which keeps this page's
  // load event from ever firing: close it once the moment is drawn.
  function settle() {
    var docs = [replayer.iframe && replayer.iframe.contentDocument];
    while (docs.length) {
      var doc = docs.pop();
      if (!doc) continue;
      if (doc.readyState === 'loading') doc.close();
      var frames = doc.querySelectorAll('iframe');
      for (var k = 0; k < frames.length; k++) {
        try { docs.push(frames[k].contentDocument); } catch (err) {}
      }
    }
  }
  function fromHash() {
    var m = /(?:^#|&)t=(\\d+)/.exec(location.hash);
    goTo(m ? Number(m[1]) : 0, false);
  }
  button.addEventListener('click', function () {
    goTo(playing ? replayer.getCurrentTime() : state.offset, !playing);
  });
  seek.addEventListener('input', function () { goTo(Number(seek.value), false); });
  replayer.on('fullsnapshot-rebuilded', function () { setTimeout(settle, 0); });
  replayer.on('finish', function () { playing = false; button.textContent = 'Play'; });
  setInterval(function () { if (playing) show(replayer.getCurrentTime()); }, 200);
  window.addEventListener('hashchange', fromHash);
  fromHash();
  state.ready = true;
})();
</script>
</body>
</html>
`;
}
