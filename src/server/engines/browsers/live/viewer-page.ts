// The live view page a person opens from `live_url`. Static: it holds no secret and no session data.

/** Content-Security-Policy of the viewer: its own inline code, frames as data URLs, and our origin. */
export const VIEWER_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The viewer. It reads the view token from the URL fragment (then drops it from the address bar and
 * keeps it in `sessionStorage` for reloads), streams frames from `<page>/frames` (Server-Sent Events
 * read with `fetch`, so the token goes in a header, never in a URL) and, when the view is
 * interactive, posts pointer, wheel and key events to `<page>/input` in order. `body[data-state]`
 * is `connecting`, `live`, `ended` or `error`; `body[data-frames]` counts frames shown; `body[data-url]` is the shown tab's URL.
 */
export function renderViewerPage(sessionId: string): string {
  const id = sessionId.replace(/[^A-Za-z0-9-]/g, '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${VIEWER_CSP}">
<meta name="referrer" content="no-referrer">
<title>Live view of browser session ${id}</title>
<style>
html,body{margin:0;height:100%;background:#18181b;color:#fafafa;font:14px system-ui,sans-serif}
header{padding:6px 12px;display:flex;gap:12px;align-items:center}
#status{opacity:.85}
#screen{display:block;margin:0 auto;max-width:100%;max-height:calc(100vh - 40px);outline:none;background:#fff}
body[data-mode="read-only"] #screen{cursor:default}
body[data-mode="interactive"] #screen{cursor:crosshair}
</style>
</head>
<body data-state="connecting" data-frames="0">
<header><strong>Live view</strong><span id="status">connecting...</span><span id="tab"></span></header>
<img id="screen" alt="The browser session's active tab" tabindex="0" draggable="false">
<script>
(function () {
  var KEY = 'svc-live-token:' + location.pathname;
  var m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (m) {
    try { sessionStorage.setItem(KEY, m[1]); } catch (e) {}
    history.replaceState(null, '', location.pathname + location.search);
  }
  var token = m ? m[1] : (function () { try { return sessionStorage.getItem(KEY); } catch (e) { return null; } })();
  var body = document.body, img = document.getElementById('screen'), status = document.getElementById('status'), tab = document.getElementById('tab');
  var base = location.pathname.replace(/\\/$/, '');
  var frames = 0, interactive = false, done = false;
  function state(s, text) { body.dataset.state = s; status.textContent = text; }
  if (!token) { state('error', 'no view token in the link'); return; }
  var headers = { 'x-live-token': token };

  function handle(event, data) {
    if (event === 'hello') {
      interactive = data.mode === 'interactive';
      body.dataset.mode = data.mode;
      state('live', data.mode === 'interactive' ? 'live: you can click, scroll and type' : 'live (read-only)');
    } else if (event === 'frame') {
      img.src = 'data:image/jpeg;base64,' + data.data;
      body.dataset.frames = String(++frames);
    } else if (event === 'tab') {
      body.dataset.url = data.url;
      tab.textContent = data.title || data.url;
    } else if (event === 'end') {
      done = true;
      state('ended', 'ended: ' + data.reason);
    }
  }

  fetch(base + '/frames', { headers: headers, cache: 'no-store' }).then(function (res) {
    if (!res.ok) {
      return res.json().then(function (b) { throw new Error(b && b.error ? b.error.message : 'HTTP ' + res.status); },
        function () { throw new Error('HTTP ' + res.status); });
    }
    var reader = res.body.getReader(), decoder = new TextDecoder(), buf = '';
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) { if (!done) state('ended', 'ended: the server closed the view'); return; }
        buf += decoder.decode(r.value, { stream: true });
        var i;
        while ((i = buf.indexOf('\\n\\n')) >= 0) {
          var block = buf.slice(0, i); buf = buf.slice(i + 2);
          var event = 'message', data = '';
          block.split('\\n').forEach(function (line) {
            if (line.indexOf('event:') === 0) event = line.slice(6).trim();
            else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
          });
          if (data) handle(event, JSON.parse(data));
        }
        return pump();
      });
    }
    return pump();
  }).catch(function (e) { state('error', 'error: ' + e.message); });

  var queue = [], sending = false;
  function send(e) {
    if (!interactive || done) return;
    queue.push(e);
    if (!sending) flush();
  }
  function flush() {
    if (queue.length === 0) { sending = false; return; }
    sending = true;
    var batch = queue.splice(0, 100);
    fetch(base + '/input', {
      method: 'POST', headers: { 'x-live-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ events: batch }),
    }).then(function (res) { if (!res.ok && res.status !== 409) status.textContent = 'input refused (HTTP ' + res.status + ')'; },
      function () {}).then(flush);
  }
  function pos(e) {
    var r = img.getBoundingClientRect();
    return {
      x: Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)),
      y: Math.min(1, Math.max(0, (e.clientY - r.top) / r.height)),
    };
  }
  function mods(e) { return (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0); }
  var BUTTONS = ['left', 'middle', 'right'], lastMove = 0;
  function mouse(action) {
    return function (e) {
      if (!interactive) return;
      if (action === 'move') {
        var now = Date.now();
        if (e.buttons === 0 && now - lastMove < 50) return;
        lastMove = now;
      }
      e.preventDefault();
      if (action === 'down') img.focus();
      var p = pos(e);
      send({ type: 'mouse', action: action, x: p.x, y: p.y, button: BUTTONS[e.button] || 'left',
        buttons: e.buttons, clickCount: action === 'move' ? 0 : Math.max(1, Math.min(3, e.detail || 1)), modifiers: mods(e) });
    };
  }
  img.addEventListener('mousedown', mouse('down'));
  img.addEventListener('mouseup', mouse('up'));
  img.addEventListener('mousemove', mouse('move'));
  img.addEventListener('contextmenu', function (e) { if (interactive) e.preventDefault(); });
  img.addEventListener('wheel', function (e) {
    if (!interactive) return;
    e.preventDefault();
    var p = pos(e);
    send({ type: 'wheel', x: p.x, y: p.y, dx: e.deltaX, dy: e.deltaY, modifiers: mods(e) });
  }, { passive: false });
  function key(action) {
    return function (e) {
      if (!interactive || document.activeElement !== img) return;
      e.preventDefault();
      send({ type: 'key', action: action, key: e.key.slice(0, 32), code: (e.code || '').slice(0, 32),
        keyCode: e.keyCode || 0, modifiers: mods(e) });
    };
  }
  document.addEventListener('keydown', key('down'));
  document.addEventListener('keyup', key('up'));
})();
</script>
</body>
</html>
`;
}
