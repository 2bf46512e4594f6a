import { describe, expect, it } from 'vitest';
import { Client, DEFAULTS, readClientEnv } from '../../../src/client/client.js';
import { SvcError, ValidationError } from '../../../src/errors.js';

// Port 9 (discard) on loopback: nothing listens, and these tests must fail before any connection.
const base = { apiKey: 'sk-unit-key-0001', baseURL: 'http://127.0.0.1:9' };

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('Client options', () => {
  it('applies DEFAULTS when options are omitted', () => {
    const c = new Client(base);
    expect(c.timeout).toBe(DEFAULTS.timeout);
    expect(c.maxRetries).toBe(DEFAULTS.maxRetries);
    expect(c.idleTimeout).toBe(DEFAULTS.idleTimeout);
    expect(c.baseURL).toBe('http://127.0.0.1:9');
  });

  it('names SVC_API_KEY when no key is configured', () => {
    const saved = process.env['SVC_API_KEY'];
    delete process.env['SVC_API_KEY'];
    try {
      const err = thrown(() => new Client({ baseURL: base.baseURL }));
      expect(err).toBeInstanceOf(SvcError);
      expect(err.message).toContain('SVC_API_KEY');
    } finally {
      if (saved !== undefined) process.env['SVC_API_KEY'] = saved;
    }
  });

  it('names SVC_BASE_URL when no base URL is configured', () => {
    const saved = process.env['SVC_BASE_URL'];
    delete process.env['SVC_BASE_URL'];
    try {
      expect(thrown(() => new Client({ apiKey: base.apiKey })).message).toContain('SVC_BASE_URL');
    } finally {
      if (saved !== undefined) process.env['SVC_BASE_URL'] = saved;
    }
  });

  it.each([
    [{ timeout: -1 }, 'timeout'],
    [{ timeout: 0 }, 'timeout'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ idleTimeout: Number.NaN }, 'idleTimeout'],
    [{ baseURL: 'ftp://x' }, 'baseURL'],
    [{ baseURL: 'not a url' }, 'baseURL'],
    [{ cdpUrlTemplate: 'ws://x/cdp' }, 'cdpUrlTemplate'],
    [{ logger: { debug: () => undefined } }, 'logger'],
  ])('throws at once naming the bad option %j', (bad, name) => {
    const err = thrown(() => new Client({ ...base, ...(bad as object) }));
    expect(err).toBeInstanceOf(SvcError);
    expect(err.message).toMatch(new RegExp(`^Invalid option ${name}:`));
  });

  it('reads SVC_API_KEY, SVC_BASE_URL and SVC_CDP_URL_TEMPLATE, treating blanks as unset', () => {
    expect(
      readClientEnv({ SVC_API_KEY: ' k1 ', SVC_BASE_URL: 'http://h:1', SVC_CDP_URL_TEMPLATE: '' }),
    ).toEqual({
      apiKey: 'k1',
      baseURL: 'http://h:1',
      cdpUrlTemplate: undefined,
    });
  });

  it('prefers explicit options over the environment', () => {
    const saved = process.env['SVC_BASE_URL'];
    process.env['SVC_BASE_URL'] = 'http://env-host:1';
    try {
      expect(new Client(base).baseURL).toBe('http://127.0.0.1:9');
      expect(new Client({ apiKey: 'k-env-test' }).baseURL).toBe('http://env-host:1');
    } finally {
      if (saved === undefined) delete process.env['SVC_BASE_URL'];
      else process.env['SVC_BASE_URL'] = saved;
    }
  });

  it('rejects an empty key on rotation', () => {
    expect(thrown(() => new Client(base).setApiKey('')).message).toMatch(/^Invalid option apiKey/);
  });
});

describe('local request validation', () => {
  it('throws ValidationError naming the field, before any network call', async () => {
    const c = new Client({ ...base, maxRetries: 0 });
    const err = await c.chat.completions
      .create({ model: 'core', messages: [{ role: 'robot' as 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail[0]?.loc).toEqual(['body', 'messages', 0, 'role']);
    expect((err as ValidationError).message).toMatch(
      /^Invalid request \(not sent\): POST \/chat\/completions: body\.messages\.0\.role/,
    );
  });

  it('rejects a bad streaming request the same way', async () => {
    const err = await new Client(base).chat.completions
      .create({
        model: 'core',
        messages: [{ role: 'user', content: 'x' }],
        temperature: 3,
        stream: true,
      })
      .catch((e: unknown) => e);
    expect((err as ValidationError).detail[0]?.loc).toEqual(['body', 'temperature']);
  });

  it('validates embeddings, search and async bodies with the shared schemas', async () => {
    const c = new Client(base);
    const errs = await Promise.all([
      c.embeddings.create({ model: 'svc-embed-v1-0.6b', input: [''] }).catch((e: unknown) => e),
      c.search.create({ query: '', max_results: 5 }).catch((e: unknown) => e),
      c.async.chat.completions
        .create({ request: { model: 'core', messages: [{ role: 'user', content: 'x' }] } })
        .catch((e: unknown) => e),
      c.async.chat.completions.list({ limit: 500 }).catch((e: unknown) => e),
    ]);
    for (const e of errs) expect(e).toBeInstanceOf(ValidationError);
    expect((errs[2] as ValidationError).detail[0]?.loc).toEqual(['body', 'request', 'model']);
    expect((errs[3] as ValidationError).detail[0]?.loc).toEqual(['query', 'limit']);
  });

  it('rejects an empty path parameter naming it', async () => {
    const err = await new Client(base).browser.sessions.get('').catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^Invalid argument session_id:/);
  });
});

describe('browser.connectEndpoint', () => {
  it('gives the connect URL on the WebSocket scheme, the key in a header and not in the URL', () => {
    const c = new Client({ ...base, baseURL: 'https://api.example.com/', apiKey: 'svc_key-1' });
    const { url, headers } = c.browser.connectEndpoint();
    expect(url).toBe('wss://api.example.com/v1/browser/connect');
    expect(headers).toEqual({ authorization: 'Bearer svc_key-1' });
    c.setApiKey('svc_key-2');
    expect(c.browser.connectEndpoint().headers.authorization).toBe('Bearer svc_key-2');
  });
});

describe('browser.sessions.cdpUrl', () => {
  it("prefers the record's cdp_url", () => {
    const c = new Client(base);
    expect(c.browser.sessions.cdpUrl({ session_id: 's1', cdp_url: 'ws://h/x?token=t' })).toBe(
      'ws://h/x?token=t',
    );
  });

  it('fills the template when the record has none', () => {
    const c = new Client({ ...base, baseURL: 'https://api.example.com' });
    expect(c.browser.sessions.cdpUrl({ session_id: 'a b' })).toBe(
      'wss://api.example.com/v1/browser/sessions/a%20b/cdp',
    );
    const t = new Client({ ...base, cdpUrlTemplate: 'wss://cdp.example.com/{session_id}' });
    expect(t.browser.sessions.cdpUrl({ session_id: 's9' })).toBe('wss://cdp.example.com/s9');
  });
});
