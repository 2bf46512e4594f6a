import { describe, expect, it } from 'vitest';
import { gridSessionIds, sharedGrid } from '../../support/grid.js';
import { waitFor } from '../../support/wait.js';

describe('the test Selenium Grid', () => {
  it('is up with two Chromium nodes and answers a WebDriver new-session with an se:cdp URL', async () => {
    const grid = await sharedGrid();
    const status = (await (await fetch(`${grid.url}/status`)).json()) as {
      value: { ready: boolean; nodes: { availability: string; slots: unknown[] }[] };
    };
    expect(status.value.ready).toBe(true);
    expect(status.value.nodes.filter((n) => n.availability === 'UP')).toHaveLength(2);
    const res = await fetch(`${grid.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: 'chrome' } } }),
    });
    const body = (await res.json()) as {
      value: { sessionId: string; capabilities: Record<string, unknown> };
    };
    expect(res.status).toBe(200);
    expect(body.value.capabilities['se:cdp']).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/session\//);
    expect(await gridSessionIds(grid.url)).toContain(body.value.sessionId);
    await fetch(`${grid.url}/session/${body.value.sessionId}`, { method: 'DELETE' });
    // The hub's /status learns of the end through the event bus: a moment later.
    expect(
      await waitFor(async () => !(await gridSessionIds(grid.url)).includes(body.value.sessionId)),
    ).toBe(true);
  }, 180_000); // the first test to ask starts the shared Grid
});
