/**
 * The world the recipe tests run in: the real embedded server, whose index holds fixture pages
 * (indexed with `indexUrl`, so citations are the pages' own loopback URLs), and fixture servers
 * that then change, block, redirect or die.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../src/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** `test/fixtures/recipe-sites/`. */
export const RECIPE_SITES_DIR = fileURLToPath(
  new URL('../fixtures/recipe-sites/', import.meta.url),
);
const CHALLENGE = fileURLToPath(new URL('../fixtures/sites/challenge.html', import.meta.url));

/** A response set at run time. */
export interface Route {
  status?: number;
  type?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** A loopback server over the recipe fixture pages whose routes can be replaced while it runs. */
export interface Sites {
  url: string;
  /** Serves `route` at `pathname` from now on. */
  set(pathname: string, route: Route): void;
  close(): Promise<void>;
}

/** Starts a {@link Sites} server on `127.0.0.1:0`. */
export async function startSites(): Promise<Sites> {
  const routes = new Map<string, Route>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const route = routes.get(u.pathname);
    if (route) {
      res.writeHead(route.status ?? 200, {
        'content-type': route.type ?? 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        ...route.headers,
      });
      res.end(route.body);
      return;
    }
    const file = path.join(RECIPE_SITES_DIR, path.basename(u.pathname));
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      },
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (pathname, route) => void routes.set(pathname, route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A one-page PDF whose text layer holds `lines` (Helvetica, one line each). */
export function simplePdf(lines: readonly string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((l, i) => `${i === 0 ? '' : '0 -18 Td '}(${esc(l)}) Tj`).join('\n');
  const stream = `BT /F1 12 Tf 72 720 Td\n${text}\nET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const article = (title: string, ...paragraphs: string[]): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;

/** The sentences the hard-case pages held when they were indexed. */
export const FACTS = {
  market: 'The Wrenfield harbour fish market opens at four in the morning every weekday.',
  lighthouse:
    'The Wrenfield harbour lighthouse was rebuilt in 1911 after a winter storm destroyed the old tower.',
  breakwater: 'The Wrenfield harbour breakwater stretches 640 metres into the bay.',
  customs:
    'The Wrenfield harbour customs house opened in 1868 and still stamps cargo papers by hand.',
  ferry: 'The Wrenfield harbour ferry carried ninety passengers on each crossing to the island.',
  cider: 'The Calloway orchard presses its cider apples in the last week of October.',
  mill: 'The Calloway orchard mill ground four hundred sacks of grain every week.',
  pears: 'The Calloway orchard planted twelve hundred pear trees along the southern slope.',
} as const;

/** The running world: server, client, sites, and the URL of each hard case. */
export interface HardCases {
  server: TestServer;
  client: Client;
  sites: Sites;
  urls: Record<keyof typeof FACTS, string>;
  close(): Promise<void>;
}

/**
 * Starts the embedded server and the sites, indexes every hard case while it still looks the way
 * its fact says, then changes the world: the customs page becomes a challenge, the ferry's server
 * dies, the mill page is rewritten. `urls.cider` is a redirect to the cider page.
 */
export async function startHardCases(): Promise<HardCases> {
  const server = await startTestServer();
  const sites = await startSites();
  const doomed = await startSites();
  const client = new Client({ baseURL: server.url, apiKey: server.apiKey });
  const u = (p: string) => `${sites.url}${p}`;
  const urls = {
    market: u('/wren-market.html'),
    lighthouse: u('/wren-lighthouse.html'),
    breakwater: u('/wren-breakwater.html'),
    customs: u('/wren-customs.html'),
    ferry: `${doomed.url}/wren-ferry.html`,
    cider: u('/go/cider'),
    mill: u('/calloway-mill.html'),
    pears: u('/calloway-report.pdf'),
  };
  sites.set('/go/cider', {
    status: 302,
    body: 'Found',
    headers: { location: '/calloway-cider.html' },
  });
  sites.set('/wren-customs.html', {
    body: article('Customs', 'Ledgers and stamps.', FACTS.customs),
  });
  doomed.set('/wren-ferry.html', { body: article('The ferry', 'Timetables.', FACTS.ferry) });
  sites.set('/calloway-mill.html', { body: article('The mill', 'Water power.', FACTS.mill) });
  sites.set('/calloway-report.pdf', {
    type: 'application/pdf',
    body: simplePdf(['Annual report of the orchard trust.', '', FACTS.pears, 'Yields rose.']),
  });
  // What a browser saw when each page was indexed: the lazy passage loaded, the PDF's text.
  const seen: Partial<Record<string, string>> = {
    [urls.lighthouse]: article('The lighthouse', 'The story of the tower.', FACTS.lighthouse),
    [urls.pears]: article(
      'Orchard trust report',
      'Annual report of the orchard trust.',
      FACTS.pears,
    ),
  };
  for (const url of Object.values(urls)) {
    await server.engines.index.indexUrl(url, async (target) => {
      const html = seen[target] ?? (await (await fetch(target)).text());
      return { html, finalUrl: target };
    });
  }
  sites.set('/wren-customs.html', { body: await readFile(CHALLENGE) });
  sites.set('/calloway-mill.html', {
    body: article(
      'The mill museum',
      'The building was converted into a museum of rural trades.',
      'Visitors can walk through the old drying loft on Sundays.',
    ),
  });
  await doomed.close();
  return {
    server,
    client,
    sites,
    urls,
    async close() {
      await client.close();
      await sites.close();
      await server.dispose();
    },
  };
}
