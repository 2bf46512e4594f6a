// A client process for faults.test.ts: creates a browser session with a short idle timeout, holds
// a CDP connection through the server's proxy, prints `{session_id}` and waits to be SIGKILLed.
// Usage: node --import tsx client-child.ts <server url> <key> <idle_timeout_s>
import WebSocket from 'ws';

const [base, key, idle] = process.argv.slice(2);
if (!base || !key || !idle) throw new Error('usage: client-child.ts <url> <key> <idle_timeout_s>');
const res = await fetch(`${base}/v1/browser/sessions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ idle_timeout_s: Number(idle) }),
});
if (!res.ok) throw new Error(`create: ${res.status} ${await res.text()}`);
const session = (await res.json()) as { session_id: string; cdp_url: string };
const ws = new WebSocket(session.cdp_url);
ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' })));
ws.on('message', (data) => {
  const msg = JSON.parse(String(data)) as { id?: number };
  if (msg.id === 1) process.stdout.write(JSON.stringify({ session_id: session.session_id }) + '\n');
});
// Keep the connection busy, like a client mid-recipe.
setInterval(
  () =>
    ws.readyState === WebSocket.OPEN &&
    ws.send(JSON.stringify({ id: 2, method: 'Browser.getVersion' })),
  200,
);
