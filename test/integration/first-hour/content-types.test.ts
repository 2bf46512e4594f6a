// URLs that are not HTML pages: a download is saved and reported as a file with the hash of its
// bytes; a PDF by URL indexes like the same file from disk.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli, tempDataDir } from '../cli/run-cli.js';

const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
const PDF = readFileSync(fixture('corpus', 'reports', 'battery-safety-report.pdf'));
let dataDir: string;
let base: string;
let server: http.Server;

beforeAll(async () => {
  dataDir = tempDataDir();
  server = http.createServer((req, res) => {
    if (req.url === '/files/firmware.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(BINARY);
    } else if (req.url === '/reports/safety') {
      // No extension in the URL: the content type alone says it is a PDF.
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(PDF);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<title>missing</title>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('non-HTML URLs', () => {
  it('svc bundle saves a download as a file, with the hash of its bytes', async () => {
    const out = path.join(dataDir, 'bundles');
    const res = await runCli(
      ['bundle', `${base}/files/firmware.bin`, '--out', out, '--json'],
      dataDir,
    );
    expect(res.stderr).not.toContain('Download is starting');
    expect(res.code).toBe(0);
    const { bundles } = JSON.parse(res.stdout) as {
      bundles: Array<{
        dir: string;
        meta: { state: string; contentHash: string; download: { file: string } };
      }>;
    };
    const [bundle] = bundles;
    expect(bundle?.meta.state).toBe('ok');
    expect(bundle?.meta.download.file).toBe('download-firmware.bin');
    const saved = readFileSync(path.join(bundle!.dir, bundle!.meta.download.file));
    expect(saved.equals(BINARY)).toBe(true);
    expect(bundle?.meta.contentHash).toBe(
      `sha256:${createHash('sha256').update(BINARY).digest('hex')}`,
    );
  }, 120_000);

  it('svc index reads a PDF by URL like the same file from disk', async () => {
    const res = await runCli(['index', `${base}/reports/safety`], dataDir);
    expect(res.stdout).not.toContain('no readable text');
    expect(res.code).toBe(0);
    const search = await runCli(
      ['search', 'thermal runaway containerised storage', '--json'],
      dataDir,
    );
    const body = JSON.parse(search.stdout) as { results: Array<{ title: string; url: string }> };
    expect(body.results[0]?.url).toBe(`${base}/reports/safety`);
  }, 120_000);
});
