// A program that opens a session through the manager, configured by the environment only, and
// then waits: the parent test signals it or lets it crash. Prints `{"id", "pid"}` once ready.
// CHILD_MODE=wait (default) | crash (throws an uncaught error once the session is open) |
// exit (calls process.exit(0) once the session is open). CHILD_GRID_MARK: a switch the Grid's
// Chromium gets on its command line (through gridCapabilities), so the parent can find it.
import { SessionManager } from '../../../src/sessions/index.js';

const mark = process.env.CHILD_GRID_MARK;
const manager = new SessionManager(
  mark ? { gridCapabilities: { 'goog:chromeOptions': { args: [mark] } } } : {},
);
const session = await manager.create({
  driver: process.env.CHILD_DRIVER === 'puppeteer' ? 'puppeteer' : 'playwright',
});
await (session.page as unknown as { goto(url: string): Promise<unknown> }).goto('about:blank');
process.stdout.write(`${JSON.stringify({ id: session.id, pid: session.pid ?? null })}\n`);
if (process.env.CHILD_MODE === 'crash') {
  setTimeout(() => {
    throw new Error('child crashed on purpose');
  }, 50);
}
if (process.env.CHILD_MODE === 'exit') setTimeout(() => process.exit(0), 50);
// Keep running until signalled.
setInterval(() => undefined, 60_000);
