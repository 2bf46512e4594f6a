import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../../recipes/report.js';
import { CitationChecker } from '../../../recipes/support/checker.js';
import { Client } from '../../../src/client/index.js';
import { SvcError } from '../../../src/errors.js';
import { SessionManager } from '../../../src/sessions/index.js';
import type { DriverName } from '../../../src/sessions/index.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, KEYS } from './helpers.js';

const FACT = 'The lighthouse at Cape Verity was first lit in 1874.';

describe('evidence report links to the recording', () => {
  let server: TestServer;
  let site: http.Server;
  let url = '';

  beforeAll(async () => {
    server = await startTestServer({ apiKeys: KEYS, warmPoolSize: 0 });
    site = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><title>Cape Verity</title><h1>History</h1><p>Some history first.</p><p>${FACT}</p>`,
      );
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/lighthouse`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => site.close(() => r()));
    await server?.dispose();
  });

  it('notes the capture offset of each citation in a recorded pool session and links the replay at #t= in the report', async () => {
    const client = new Client({ baseURL: server.url, apiKey: ALICE, maxRetries: 0 });
    const manager = new SessionManager<DriverName>({ provider: 'api', client, handleExit: false });
    const pool = manager.pool({ size: 1, record: true });
    let sessionId = '';
    try {
      const checker = new CitationChecker(() => pool, { screenshots: true, embed: undefined });
      const checks = await checker.check(`${FACT} [1]`, [url]);
      const check = checks[0]!;
      expect(check.verdict).toBe('supported');
      expect(check.recording).toBeDefined();
      const { url: replay, offsetMs } = check.recording!;
      sessionId = /sessions\/([^/]+)\/recording\.html\?sig=/.exec(replay)?.[1] ?? '';
      expect(sessionId).not.toBe('');

      const html = renderReportHtml({ title: 'Report', answer: `${FACT} [1]`, citations: checks });
      const href = `${replay}#t=${offsetMs}`.replace(/&/g, '&amp;');
      expect(html).toContain(`href="${href}"`);

      await pool.close();
      // The offset falls inside the recording, after the cited page was loaded.
      const recording = await client.browser.sessions.recording.get(sessionId);
      const page = recording.pages.find((p) => p.url === url);
      expect(page).toBeDefined();
      expect(offsetMs).toBeGreaterThanOrEqual(page!.offset_ms);
      const last = recording.events.at(-1)!.timestamp - recording.started_at;
      expect(offsetMs).toBeLessThanOrEqual(last + 1_000);
      // The replay link opens without the API key.
      expect((await fetch(replay)).status).toBe(200);
      expect(await client.browser.sessions.recording.html(sessionId)).toContain('rrweb');
    } finally {
      await pool.close();
      await manager.close();
    }
  });

  it('refuses record and liveView on a provider other than the service, naming the option', async () => {
    const manager = new SessionManager({ provider: 'local', handleExit: false });
    try {
      await expect(manager.create({ record: true })).rejects.toThrow(SvcError);
      await expect(manager.create({ record: true })).rejects.toThrow(/Invalid option record/);
      await expect(manager.create({ liveView: 'read-only' })).rejects.toThrow(
        /Invalid option liveView/,
      );
    } finally {
      await manager.close();
    }
  });
});
