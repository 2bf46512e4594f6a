// Generators of malformed and boundary requests for every route of ROUTES (fast-check), and the
// oracle that says what the server must answer: 413 past the body limit, 422 at `["body"]` for a
// body that is not JSON, 422 at the schema's exact `loc` for JSON the shared schema rejects.
import fc from 'fast-check';
import type { z } from 'zod';
import { ROUTES, parseRequest } from '../../../src/protocol/index.js';
import type { RouteDef } from '../../../src/protocol/index.js';
import type { RawRequest } from './raw-http.js';

/** A valid body per body route: mutations of it are near-misses, the hardest inputs to reject. */
export const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'chat.completions.create': { model: 'core', messages: [{ role: 'user', content: 'hello' }] },
  'async.chat.completions.create': {
    request: { model: 'core-deep-research', messages: [{ role: 'user', content: 'hello' }] },
  },
  'search.create': { query: 'recycling' },
  'embeddings.create': { model: 'svc-embed-v1-0.6b', input: 'hello' },
  'contextualizedEmbeddings.create': { model: 'svc-embed-context-v1-0.6b', input: [['hello']] },
  'auth.revokeToken': { auth_token: 'svc_not-a-key-of-anyone' },
  'browser.sessions.create': { idle_timeout_s: 30 },
  'browser.sessions.uploads.create': { name: 'a.txt', data: 'aGk=' },
};

/** Keys worth corrupting per route (schema keys and nested ones), plus random keys. */
const PATHS: Record<string, (string | number)[][]> = {
  'chat.completions.create': [
    ['model'],
    ['messages'],
    ['messages', 0],
    ['messages', 0, 'role'],
    ['messages', 0, 'content'],
    ['max_tokens'],
    ['stream'],
    ['stream_mode'],
    ['stop'],
    ['temperature'],
    ['response_format'],
    ['web_search_options'],
    ['search_domain_filter'],
    ['search_after_date_filter'],
    ['reasoning_effort'],
  ],
  'async.chat.completions.create': [
    ['request'],
    ['request', 'model'],
    ['request', 'messages'],
    ['request', 'messages', 0, 'content'],
    ['idempotency_key'],
  ],
  'search.create': [
    ['query'],
    ['max_results'],
    ['max_tokens_per_page'],
    ['search_domain_filter'],
    ['search_recency_filter'],
    ['search_before_date_filter'],
    ['country'],
  ],
  'embeddings.create': [['input'], ['input', 0], ['model'], ['dimensions'], ['encoding_format']],
  'contextualizedEmbeddings.create': [
    ['input'],
    ['input', 0],
    ['input', 0, 0],
    ['model'],
    ['dimensions'],
    ['encoding_format'],
  ],
  'auth.revokeToken': [['auth_token']],
  'browser.sessions.create': [
    ['idle_timeout_s'],
    ['max_duration_s'],
    ['viewport'],
    ['viewport', 'width'],
    ['user_agent'],
    ['tags'],
    ['tags', 0],
    ['context'],
    ['context', 'id'],
    ['context', 'persist'],
  ],
  'browser.contexts.create': [['unknown']],
  'browser.sessions.uploads.create': [['name'], ['data']],
};

const DEEP = 10_000;
/** `[[[...]]]`, `DEEP` levels. */
export const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP);
/** `{"a":{"a":...}}`, `DEEP` levels. */
export const deepObject = '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP);

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    0.5,
    '',
    ' ',
    '\u0000',
    '\ud800',
    [],
    {},
    [null],
    JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    'constructor',
    '12/31/9999',
    '2025-02-30',
  ),
);

type Encoding = 'json' | 'deep-array' | 'deep-object' | 'huge' | 'bad-utf8' | 'bytes' | 'cut';

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
];

function setPath(
  target: unknown,
  path: (string | number)[],
  value: unknown,
  drop: boolean,
): unknown {
  if (path.length === 0) return value;
  const root = structuredClone(target) as Record<string | number, unknown>;
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = typeof key === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (drop) delete node[last];
  else node[last] = value;
  return root;
}

/** Bytes of a body generated for `routeId` in `encoding`. */
function encode(
  body: unknown,
  encoding: Encoding,
  extra: { n: number; bytes: Uint8Array },
): Buffer {
  const marker = '"__HARDENING_MARKER__"';
  const withMarker = (): string => {
    const obj = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
    return JSON.stringify({ ...obj, zz: '__HARDENING_MARKER__' });
  };
  switch (encoding) {
    case 'json':
      return Buffer.from(JSON.stringify(body) ?? '', 'utf8');
    case 'deep-array':
      return Buffer.from(withMarker().replace(marker, deepArray));
    case 'deep-object':
      return Buffer.from(withMarker().replace(marker, deepObject));
    case 'huge':
      return Buffer.from(withMarker().replace(marker, JSON.stringify('é'.repeat(extra.n))));
    case 'bad-utf8': {
      // Raw invalid UTF-8 (lone continuation, overlong, truncated sequence) inside a JSON string.
      const text = withMarker();
      const at = text.indexOf(marker) + 1;
      const bad = Buffer.from([0xff, 0xfe, 0x80, 0xc0, 0xaf, 0xe2, 0x82]);
      return Buffer.concat([Buffer.from(text.slice(0, at)), bad, Buffer.from(text.slice(at))]);
    }
    case 'bytes':
      return Buffer.from(extra.bytes);
    case 'cut': {
      const text = JSON.stringify(body) ?? '';
      return Buffer.from(text.slice(0, extra.n % Math.max(1, text.length)));
    }
  }
}

/** A generated request and what the server must answer. */
export interface Case {
  route: string;
  request: RawRequest;
  /** Exact expected status and first `loc`, when the oracle can tell; else any non-5xx. */
  expect?: { status: number; loc?: (string | number)[] };
}

/** Gives a case a short printed form, so a counterexample report stays readable. */
export function printable(c: Case): Case {
  const show = (): string =>
    `${c.request.method} ${c.request.path.slice(0, 160)} [${c.request.headers?.['content-type'] ?? '-'}] ${c.request.body?.length ?? 0} B: ${c.request.body?.subarray(0, 160).toString('utf8') ?? ''} expect ${JSON.stringify(c.expect)}`;
  return Object.assign(c, { [fc.toStringMethod]: show });
}

/** Routes where no body at all means `{}` (the hosted SDK creates sessions without one). */
export const EMPTY_BODY_MEANS_OBJECT: ReadonlySet<string> = new Set([
  'browser.sessions.create',
  'browser.contexts.create',
]);

/** The oracle of a body request: what the shared schema says of these bytes. */
export function oracle(
  schema: z.ZodType,
  bytes: Buffer,
  maxBodyBytes: number,
  routeId?: string,
): Case['expect'] {
  if (bytes.length > maxBodyBytes) return { status: 413 };
  const text = new TextDecoder().decode(bytes);
  let data: unknown;
  try {
    data =
      text.length === 0
        ? EMPTY_BODY_MEANS_OBJECT.has(routeId ?? '')
          ? {}
          : undefined
        : JSON.parse(text);
  } catch {
    return { status: 422, loc: ['body'] };
  }
  // null is refused before the schema (some shared schemas refine the whole object).
  if (data === undefined || data === null) return { status: 422, loc: ['body'] };
  const result = parseRequest(schema, data, 'body');
  if (result.ok) return undefined;
  return { status: 422, loc: result.body.detail[0]!.loc };
}

/** Malformed and boundary bodies for a POST route. */
export function bodyCases(routeId: string, maxBodyBytes: number): fc.Arbitrary<Case> {
  const route = ROUTES[routeId as keyof typeof ROUTES] as RouteDef;
  const base = VALID_BODIES[routeId] ?? {};
  const paths = PATHS[routeId] ?? [];
  const mutated = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...paths), wrongValue, fc.boolean()) },
    { weight: 1, arbitrary: fc.tuple(fc.constant([fc.string()]), wrongValue, fc.boolean()) },
  );
  const body = fc.oneof(
    {
      weight: 6,
      arbitrary: mutated.map(([p, v, drop]) => setPath(base, p as (string | number)[], v, drop)),
    },
    { weight: 1, arbitrary: wrongValue },
    { weight: 1, arbitrary: fc.constant(base) },
  );
  const encoding = fc.oneof(
    { weight: 10, arbitrary: fc.constant<Encoding>('json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Encoding>(
        'deep-array',
        'deep-object',
        'huge',
        'bad-utf8',
        'bytes',
        'cut',
      ),
    },
  );
  return fc
    .record({
      body,
      encoding,
      n: fc.integer({ min: 1, max: 300_000 }),
      bytes: fc.uint8Array({ maxLength: 512 }),
      type: fc.constantFrom(...CONTENT_TYPES),
    })
    .map(({ body: b, encoding: e, n, bytes, type }) => {
      const payload = encode(b, e, { n, bytes });
      const request: RawRequest = {
        method: route.method,
        path: route.path,
        headers: type ? { 'content-type': type } : {},
        body: payload,
      };
      const expected = oracle(route.body!, payload, maxBodyBytes, routeId);
      return printable({ route: routeId, request, ...(expected ? { expect: expected } : {}) });
    });
}

/** Path ids that must never resolve to anything: traversal, bad escapes, huge, control bytes. */
export const badId: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 60 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%2Fetc%2Fpasswd',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%00',
    '%C0%AF',
    'a'.repeat(10_000),
    '00000000-0000-0000-0000-000000000000',
    "1'%20OR%20'1'%3D'1",
  ),
);

/** Query strings that must be refused (`limit`) or ignored: bad numbers, escapes, repeats. */
export const badQuery: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => `?limit=${encodeURIComponent(s)}`),
  fc.integer().map((n) => `?limit=${n}`),
  fc.string({ maxLength: 80 }).map((s) => `?next_token=${encodeURIComponent(s)}`),
  fc.constantFrom(
    '?limit=%ZZ',
    '?%=%',
    '?limit=1e309',
    '?limit=0x10',
    '?limit=&limit=5',
    '?limit[]=1',
    '?next_token=%00',
    '?next_token=' + 'A'.repeat(50_000),
    '?' + '&'.repeat(5000),
    '?limit=-0',
    '?limit=NaN',
  ),
);

/** Requests to the id and list routes (GET/DELETE): bad ids, bad queries. */
export function pathCases(routeId: string): fc.Arbitrary<Case> {
  const route = ROUTES[routeId as keyof typeof ROUTES] as RouteDef;
  if (route.pathParams.length > 0) {
    return fc.tuple(badId, fc.oneof(fc.constant(''), badQuery)).map(([id, q]) =>
      printable({
        route: routeId,
        request: { method: route.method, path: route.path.replace(/\{[^}]+\}/, id) + q },
      }),
    );
  }
  return badQuery.map((q) =>
    printable({ route: routeId, request: { method: route.method, path: route.path + q } }),
  );
}
