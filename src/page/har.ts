/**
 * A HAR 1.2 recorder over CDP Network events, for drivers without a built-in one (Puppeteer).
 * With Playwright, prefer the context's `recordHar` option; this recorder works there too.
 */
import { toPageLike, withTimeout } from './adapter.js';
import type { AnyPage, CdpLike } from './adapter.js';
import { DEFAULTS } from './defaults.js';

/** A name/value pair of HAR. */
export interface HarNameValue {
  name: string;
  value: string;
}

/** One request/response of a HAR log (the fields svc-toolkit fills). */
export interface HarEntry {
  startedDateTime: string;
  /** Total milliseconds, request sent to last byte (or failure). */
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarNameValue[];
    queryString: HarNameValue[];
    cookies: never[];
    headersSize: -1;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarNameValue[];
    cookies: never[];
    content: { size: number; mimeType: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    /** Why the request failed (`net::ERR_...`), for failed requests (status 0). */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  serverIPAddress?: string;
  /** CDP resource type: `Document`, `Image`, `Script`, ... */
  _resourceType: string;
}

/** A HAR 1.2 document. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: never[];
    entries: HarEntry[];
  };
}

/** A running recording started by {@link recordHar}. */
export interface HarRecorder {
  /** Stops recording and returns the log; requests still in flight are left out. */
  stop(): Promise<Har>;
}

interface Pending {
  /** Start order, so the log lists requests as they began. */
  seq: number;
  started: number;
  wallTime: number;
  request: { method: string; url: string; headers: Record<string, string>; postData?: string };
  type: string;
  response?: CdpResponse;
  responseAt?: number;
}

interface CdpResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  mimeType: string;
  protocol?: string;
  remoteIPAddress?: string;
  encodedDataLength?: number;
}

const pairs = (headers: Record<string, string> = {}): HarNameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value: String(value) }));

const httpVersion = (protocol: string | undefined): string =>
  !protocol ? 'HTTP/1.1' : protocol === 'h2' ? 'HTTP/2' : protocol.toUpperCase();

/**
 * Starts recording the page's network traffic as HAR over a dedicated CDP session.
 * @throws TimeoutError when the CDP session does not start within the action timeout
 * @example
 * const har = await recordHar(page);
 * await visit(page, url);
 * await writeFile('page.har', JSON.stringify(await har.stop()));
 */
export async function recordHar(
  page: AnyPage,
  options: { timeout?: number } = {},
): Promise<HarRecorder> {
  const p = toPageLike(page);
  const timeout = options.timeout ?? DEFAULTS.actionTimeout;
  const cdp: CdpLike = await withTimeout(p.cdp(), timeout, 'recordHar: CDP session');
  const pending = new Map<string, Pending>();
  const entries: { seq: number; entry: HarEntry }[] = [];
  let recording = true;
  let seq = 0;

  const finish = (id: string, at: number, size: number, error?: string): void => {
    const req = pending.get(id);
    if (!req) return;
    pending.delete(id);
    entries.push({ seq: req.seq, entry: toEntry(req, at, size, error) });
  };

  cdp.on('Network.requestWillBeSent', (raw) => {
    if (!recording) return;
    const e = raw as {
      requestId: string;
      timestamp: number;
      wallTime: number;
      type?: string;
      request: Pending['request'];
      redirectResponse?: CdpResponse;
    };
    const previous = pending.get(e.requestId);
    // A redirect reuses the request id: the hop before it ends here, with the 3xx response.
    if (previous && e.redirectResponse) {
      previous.response = e.redirectResponse;
      previous.responseAt = e.timestamp;
      finish(e.requestId, e.timestamp, 0);
    }
    pending.set(e.requestId, {
      seq: seq++,
      started: e.timestamp,
      wallTime: e.wallTime,
      request: e.request,
      type: e.type ?? 'Other',
    });
  });
  cdp.on('Network.responseReceived', (raw) => {
    const e = raw as { requestId: string; timestamp: number; response: CdpResponse };
    const req = pending.get(e.requestId);
    if (!req) return;
    req.response = e.response;
    req.responseAt = e.timestamp;
  });
  cdp.on('Network.loadingFinished', (raw) => {
    const e = raw as { requestId: string; timestamp: number; encodedDataLength: number };
    finish(e.requestId, e.timestamp, e.encodedDataLength);
  });
  cdp.on('Network.loadingFailed', (raw) => {
    const e = raw as { requestId: string; timestamp: number; errorText: string };
    finish(e.requestId, e.timestamp, 0, e.errorText);
  });
  await withTimeout(cdp.send('Network.enable'), timeout, 'recordHar: Network.enable');

  return {
    async stop() {
      recording = false;
      await withTimeout(cdp.detach(), timeout, 'recordHar: detach');
      return {
        log: {
          version: '1.2',
          creator: { name: 'svc-toolkit', version: '0.1.0' },
          pages: [],
          entries: entries.sort((a, b) => a.seq - b.seq).map((e) => e.entry),
        },
      };
    },
  };
}

function toEntry(req: Pending, at: number, size: number, error?: string): HarEntry {
  const res = req.response;
  const ms = (s: number): number => Math.max(0, Math.round(s * 1000 * 1000) / 1000);
  const wait =
    res && req.responseAt !== undefined ? ms(req.responseAt - req.started) : ms(at - req.started);
  const receive = res && req.responseAt !== undefined ? ms(at - req.responseAt) : 0;
  const url = new URL(req.request.url);
  const location = res?.headers['location'] ?? res?.headers['Location'];
  const entry: HarEntry = {
    startedDateTime: new Date(req.wallTime * 1000).toISOString(),
    time: ms(at - req.started),
    request: {
      method: req.request.method,
      url: req.request.url,
      httpVersion: httpVersion(res?.protocol),
      headers: pairs(req.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: req.request.postData?.length ?? 0,
    },
    response: {
      status: res?.status ?? 0,
      statusText: res?.statusText ?? '',
      httpVersion: httpVersion(res?.protocol),
      headers: pairs(res?.headers),
      cookies: [],
      content: { size: size, mimeType: res?.mimeType ?? '' },
      redirectURL: location ? new URL(location, req.request.url).href : '',
      headersSize: -1,
      bodySize: size,
    },
    cache: {},
    timings: { send: 0, wait, receive },
    _resourceType: req.type,
  };
  if (req.request.postData !== undefined) {
    entry.request.postData = {
      mimeType: req.request.headers['Content-Type'] ?? req.request.headers['content-type'] ?? '',
      text: req.request.postData,
    };
  }
  if (res?.remoteIPAddress) entry.serverIPAddress = res.remoteIPAddress.replace(/^\[|\]$/g, '');
  if (error !== undefined) entry.response._error = error;
  return entry;
}
