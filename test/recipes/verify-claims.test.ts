import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_DEFAULTS, verifyAnswer } from '../../recipes/index.js';
import type { CitationCheck } from '../../recipes/index.js';
import { Client } from '../../src/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { startSites } from './support.js';
import type { Sites } from './support.js';

const LIMITS = readFileSync(new URL('../fixtures/claims/limits.html', import.meta.url));

/** RGB pixels of a PNG (8-bit RGB or RGBA, as Chromium writes them). */
function pixels(png: Buffer): {
  width: number;
  height: number;
  rgb: (x: number, y: number) => number[];
} {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = png[25] === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= channels ? out[y * stride + i - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= channels ? out[(y - 1) * stride + i - channels]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const value = [x, x + a, x + b, x + ((a + b) >> 1), x + paeth][filter]!;
      out[y * stride + i] = value & 0xff;
    }
  }
  return {
    width,
    height,
    rgb: (x, y) => [...out.subarray(y * stride + x * channels, y * stride + x * channels + 3)],
  };
}

/** True when some pixel of the PNG has exactly the CSS colour `#rrggbb`. */
function hasColour(png: Buffer, css: string): boolean {
  const want = [1, 3, 5].map((i) => parseInt(css.slice(i, i + 2), 16));
  const img = pixels(png);
  for (let y = 0; y < img.height; y += 2) {
    for (let x = 0; x < img.width; x += 2) {
      const [r, g, b] = img.rgb(x, y);
      if (r === want[0] && g === want[1] && b === want[2]) return true;
    }
  }
  return false;
}

describe('verifyAnswer: locate, then verify', () => {
  let server: TestServer;
  let client: Client;
  let sites: Sites;
  let checks: CitationCheck[];
  let passed: boolean;
  const byClaim = (start: string): CitationCheck => {
    const c = checks.find((x) => x.claim.startsWith(start));
    if (!c) throw new Error(`no check for ${start}`);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
    client = new Client({ baseURL: server.url, apiKey: server.apiKey });
    sites = await startSites();
    sites.set('/limits.html', { body: LIMITS });
    const url = `${sites.url}/limits.html`;
    const answer = [
      'The request body limit is 1 MiB [1].',
      'The request body limit is 5 MiB [1].',
      'Failed requests are retried at most 3 times [1].',
      'Response caching is enabled by default [1].',
      'The default storage engine is InnoDB [1].',
      'The idle timeout of the Harbour server is 30000 ms [1].',
      'Cider apples are pressed in the last week of October [1].',
    ].join(' ');
    const r = await verifyAnswer(
      { answer, citations: [url] },
      { client, poolSize: 1, screenshots: true, embeddings: false },
    );
    checks = r.citations;
    passed = r.passed;
    expect(r.summary).toMatchObject({ total: 7, supported: 3, contradicted: 3, not_found: 1 });
    expect(r.summary.score).toBe(0.429);
  });
  afterAll(async () => {
    await client?.close();
    await sites?.close();
    await server?.dispose();
  });

  it('supports a verbatim claim and paraphrases with other numbers, units and bounds', () => {
    expect(byClaim('The request body limit is 1 MiB').verdict).toBe('supported');
    expect(byClaim('Failed requests are retried at most 3').verdict).toBe('supported');
    expect(byClaim('The idle timeout of the Harbour server').verdict).toBe('supported');
  });

  it('contradicts a changed number and carries the conflict', () => {
    const c = byClaim('The request body limit is 5 MiB');
    expect(c.verdict).toBe('contradicted');
    expect(c.conflicts).toContainEqual({ kind: 'number', claim: '5 MiB', page: '1 MiB' });
    expect(c.passage?.quote).toBe('The request body limit is 1 MiB.');
  });

  it('contradicts a flipped polarity and a swapped name', () => {
    expect(byClaim('Response caching is enabled').conflicts).toContainEqual({
      kind: 'antonym',
      claim: 'enabled',
      page: 'disabled',
    });
    expect(byClaim('The default storage engine is InnoDB').conflicts).toContainEqual({
      kind: 'term',
      claim: 'InnoDB',
      page: 'MyISAM',
    });
  });

  it('says not_found when nothing on the page addresses the claim', () => {
    const c = byClaim('Cider apples');
    expect(c.verdict).toBe('not_found');
    expect(c.passage).toBeNull();
    expect(c.conflicts).toEqual([]);
  });

  it('highlights a conflicting passage in another colour than a supporting one', () => {
    const supported = byClaim('The request body limit is 1 MiB');
    const contradicted = byClaim('The request body limit is 5 MiB');
    expect(supported.passage?.highlightColor).toBe(EVIDENCE_DEFAULTS.supportColor);
    expect(contradicted.passage?.highlightColor).toBe(EVIDENCE_DEFAULTS.conflictColor);
    expect(EVIDENCE_DEFAULTS.conflictColor).not.toBe(EVIDENCE_DEFAULTS.supportColor);
    const conflictShot = contradicted.screenshots!.passage;
    const supportShot = supported.screenshots!.passage;
    expect(hasColour(conflictShot, EVIDENCE_DEFAULTS.conflictColor)).toBe(true);
    expect(hasColour(conflictShot, EVIDENCE_DEFAULTS.supportColor)).toBe(false);
    expect(hasColour(supportShot, EVIDENCE_DEFAULTS.supportColor)).toBe(true);
  });

  it('fails the answer on a contradicted claim unless allowContradicted, whatever the score', async () => {
    expect(passed).toBe(false);
    const input = {
      answer: 'The request body limit is 5 MiB [1].',
      citations: [`${sites.url}/limits.html`],
    };
    const options = { client, poolSize: 1, embeddings: false, minScore: 0 };
    const strict = await verifyAnswer(input, options);
    expect(strict.summary).toMatchObject({ contradicted: 1, score: 0 });
    expect(strict.passed).toBe(false);
    const lenient = await verifyAnswer(input, { ...options, allowContradicted: true });
    expect(lenient.passed).toBe(true);
  });
});
