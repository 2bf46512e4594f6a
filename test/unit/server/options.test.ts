import { describe, expect, it } from 'vitest';
import { isLoopback, resolveServerOptions, SERVER_DEFAULTS } from '../../../src/server/index.js';

describe('resolveServerOptions', () => {
  it('binds to 127.0.0.1 by default and reads several keys from SVC_API_KEY', () => {
    const config = resolveServerOptions({}, { SVC_API_KEY: 'svc_a, svc_b' });
    expect(config.host).toBe('127.0.0.1');
    expect(config.apiKeys).toEqual([
      { key: 'svc_a', userId: 'default' },
      { key: 'svc_b', userId: 'default' },
    ]);
    expect(config.rateLimits.chat).toBe(50);
  });

  it('refuses a non-loopback host unless allowRemote is set', () => {
    expect(() => resolveServerOptions({ host: '0.0.0.0' }, {})).toThrow(
      /host: refusing to bind 0\.0\.0\.0/,
    );
    expect(resolveServerOptions({ host: '0.0.0.0', allowRemote: true }, {}).host).toBe('0.0.0.0');
  });

  it('names the option when a value is out of range', () => {
    expect(() => resolveServerOptions({ port: 70000 }, {})).toThrow(/^port: /);
    expect(() => resolveServerOptions({ maxSessions: 0 }, {})).toThrow(/^maxSessions: /);
    expect(() => resolveServerOptions({ rateLimits: { chat: 0 } }, {})).toThrow(
      /^rateLimits\.chat: /,
    );
    expect(() => resolveServerOptions({}, { SVC_PORT: 'eighty' })).toThrow(/^SVC_PORT: /);
    expect(() => resolveServerOptions({}, { SVC_EMBEDDER: 'bert' })).toThrow(/localEmbedder/);
  });

  it('treats the whole 127/8 range and ::1 as loopback', () => {
    expect(isLoopback('127.0.0.2')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(SERVER_DEFAULTS.host).toBe('127.0.0.1');
  });
});
