// The `svc` command against things other than its own embedded service: web pages loaded in real
// Chromium, a remote service that is down or misconfigured, and every command's help.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../../support/fixture-server.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { runCli, tempDataDir } from './run-cli.js';

let dataDir: string;
let site: FixtureServer;

beforeAll(async () => {
  dataDir = tempDataDir();
  site = await startFixtureServer();
});

afterAll(async () => {
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('svc index <url>', () => {
  it('indexes a page rendered by Chromium, reports a dead link as failed, and exits 1', async () => {
    const good = `${site.url}/article.html`;
    const dead = `${site.url}/status/404`;
    const res = await runCli(['index', good, dead, '--json'], dataDir);
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as {
      added: number;
      failed: Array<{ path: string; error: string }>;
    };
    expect(report.added).toBe(1);
    expect(report.failed).toEqual([{ path: dead, error: expect.stringContaining('HTTP 404') }]);
    expect(site.hits('/article.html')).toBe(1);

    const search = await runCli(['search', 'Hollowbrook bridge', '--json'], dataDir);
    expect(search.code).toBe(0);
    const { results } = JSON.parse(search.stdout) as { results: Array<{ title: string }> };
    expect(results[0]?.title).toMatch(/Hollowbrook Bridge/);
  });
});

describe('service unavailable', () => {
  it('exits 3 when SVC_BASE_URL names a service that does not answer', async () => {
    const res = await runCli(['search', 'anything'], dataDir, {
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_API_KEY: 'svc_test-unused-key-0123456789abcdef',
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('check SVC_BASE_URL (http://127.0.0.1:9)');
  });

  it('exits 3 when SVC_BASE_URL is set without SVC_API_KEY', async () => {
    const res = await runCli(['ask', 'anything'], dataDir, { SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/SVC_BASE_URL is set .* but SVC_API_KEY is not/);
  });
});

describe('help', () => {
  it(
    'documents every command with examples, and the exit codes in the main help',
    { timeout: 120_000 },
    async () => {
      const commands = ['index', 'search', 'ask', 'embed', 'sessions', 'research'];
      // Sequential: seven tsx start-ups at once crowd a 2-core machine.
      const main = await runCli(['--help'], dataDir);
      const each = [];
      for (const c of commands) each.push(await runCli([c, '--help'], dataDir));
      expect(main!.code).toBe(0);
      for (const c of commands) expect(main!.stdout).toMatch(new RegExp(`^  ${c}\\s+\\S`, 'm'));
      expect(main!.stdout).toMatch(/^ {2}3 +service unavailable/m);
      each.forEach((res, i) => {
        expect(res.code, commands[i]).toBe(0);
        expect(res.stdout, commands[i]).toMatch(/\nExamples:\n {2}svc /);
      });
    },
  );
});
