/**
 * A loopback static server over `test/fixtures/sites/`, plus routes that produce navigation cases
 * for real:
 *
 * | route | behaviour |
 * |---|---|
 * | `/<file>` | the file from `test/fixtures/sites/` (404 page when missing) |
 * | `/redirect?to=/x` | 302 to `to` (default `/article.html`); `?hops=N` chains N redirects |
 * | `/status/:code` | answers `code` with a small HTML page; `?page=file.html` serves that file instead |
 * | `/slow?ms=N` | waits N ms (default 5000), then a small HTML page |
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture sites folder. */
export const SITES_DIR = fileURLToPath(new URL('../fixtures/sites/', import.meta.url));

/** A running fixture server. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Number of requests seen at `pathname`. */
  hits(pathname: string): number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
};

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`;

/** Starts the fixture server on `127.0.0.1:0`. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    counts.set(u.pathname, (counts.get(u.pathname) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer, headers = {}): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    const serveFile = async (name: string, status = 200): Promise<void> => {
      const file = path.join(SITES_DIR, path.normalize(name).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(SITES_DIR)) return send(403, TYPES['.html']!, page('Forbidden', 'no'));
      try {
        const body = await readFile(file);
        send(status, TYPES[path.extname(file)] ?? 'application/octet-stream', body);
      } catch {
        send(404, TYPES['.html']!, page('Not found', `No fixture named ${name}.`));
      }
    };

    if (u.pathname === '/redirect') {
      const hops = Number(u.searchParams.get('hops') ?? '1');
      const to = u.searchParams.get('to') ?? '/article.html';
      const next = hops > 1 ? `/redirect?hops=${hops - 1}&to=${encodeURIComponent(to)}` : to;
      return send(302, 'text/plain', 'Found', { location: next });
    }
    const status = /^\/status\/(\d{3})$/.exec(u.pathname);
    if (status) {
      const code = Number(status[1]);
      const file = u.searchParams.get('page');
      if (file) return void serveFile(file, code);
      return send(code, TYPES['.html']!, page(`Status ${code}`, `The server answered ${code}.`));
    }
    if (u.pathname === '/slow') {
      const ms = Number(u.searchParams.get('ms') ?? '5000');
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(200, TYPES['.html']!, page('Slow page', `Answered after ${ms} ms.`));
      }, ms);
      timers.add(timer);
      return;
    }
    void serveFile(u.pathname === '/' ? 'article.html' : decodeURIComponent(u.pathname.slice(1)));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (pathname) => counts.get(pathname) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port that was just free and has nobody listening: a dead link produced for real. */
export async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
