// The route table is the contract of both sides, checked by the compiler: `tsc` (npm test's
// typecheck) compiles this file, so each `@ts-expect-error` below fails the build the day the
// mistake it marks would compile. The runtime assertions check the table's shape itself.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ALL_ROUTES, ROUTES, honoPath, pathPattern } from '../../../src/protocol/index.js';
import type {
  AsyncChatJob,
  BrowserSession,
  RouteDef,
  SearchResponse,
} from '../../../src/protocol/index.js';
import type { Client, CallArgs, CallResult } from '../../../src/client/client.js';
import type {
  Handler,
  HandlersOf,
  RouteHandlers,
  RouteRequest,
} from '../../../src/server/register-routes.js';

describe('route contract (types)', () => {
  it('asks a handler for every served route, and none for the WebSocket upgrades', () => {
    expectTypeOf<keyof RouteHandlers>().toEqualTypeOf<
      Exclude<keyof typeof ALL_ROUTES, 'browser.sessions.cdp' | 'browser.connect'>
    >();
    // @ts-expect-error a map without the search handler does not compile
    const missing: RouteHandlers = {} as Omit<RouteHandlers, 'search.create'>;
    // @ts-expect-error a misnamed handler does not compile
    const misnamed: HandlersOf<'search.create'> = { 'search.creat': () => ({}) };
    expect([missing, misnamed]).toHaveLength(2);
  });

  it('types a handler by its entry: validated input in, the response schema out', () => {
    expectTypeOf<RouteRequest<'browser.sessions.get'>['path']>().toEqualTypeOf<{
      session_id: string;
    }>();
    expectTypeOf<RouteRequest<'search.create'>['body']['max_results']>().toEqualTypeOf<number>();
    expectTypeOf<RouteRequest<'search.create'>>().toHaveProperty('principal');

    const good: Handler<'auth.revokeToken'> = () => ({ revoked: true });
    // @ts-expect-error a handler returning the wrong response type does not compile
    const wrong: Handler<'auth.revokeToken'> = () => ({ revoked: 'yes' });
    // @ts-expect-error a JSON route's handler must return its body, not nothing
    const nothing: Handler<'browser.sessions.get'> = () => undefined;
    // @ts-expect-error an empty (204) route's handler returns no body
    const body: Handler<'browser.sessions.delete'> = () => ({ deleted: true });
    const page: Handler<'docs.get'> = () => '<p>page</p>';
    expect([good, wrong, nothing, body, page]).toHaveLength(5);
  });

  it('types a client call by the same entry: arguments in, parsed result out', () => {
    expectTypeOf<CallResult<'search.create'>>().toEqualTypeOf<SearchResponse>();
    expectTypeOf<CallResult<'browser.sessions.get'>>().toEqualTypeOf<BrowserSession>();
    expectTypeOf<CallResult<'async.chat.completions.get'>>().toEqualTypeOf<AsyncChatJob>();
    expectTypeOf<CallResult<'browser.sessions.delete'>>().toEqualTypeOf<undefined>();
    expectTypeOf<CallArgs<'browser.sessions.get'>['pathParams']>().toEqualTypeOf<{
      session_id: string;
    }>();

    const calls = (client: Client) => [
      client.call('search.create', { body: { query: 'q' } }),
      // @ts-expect-error the result type comes from the table: no hand-written one to get wrong
      client.call<'embeddings.create'>('search.create', { body: { query: 'q' } }),
      // @ts-expect-error path parameters are required by name
      client.call('browser.sessions.get', {}),
      // @ts-expect-error a body that breaks the request schema's type does not compile
      client.call('search.create', { body: { query: 1 } }),
      // @ts-expect-error a WebSocket route is not called as JSON
      client.call('browser.sessions.cdp', { pathParams: { session_id: 'a' } }),
    ];
    expect(calls).toBeTypeOf('function');
  });
});

describe('route table (shape)', () => {
  const all = Object.values(ALL_ROUTES) as RouteDef[];

  it('gives every route a kind and an auth, and JSON routes a response schema', () => {
    for (const route of all) {
      expect(['json', 'empty', 'json-sse', 'sse', 'html', 'bytes', 'websocket']).toContain(
        route.kind,
      );
      if (route.kind === 'json' || route.kind === 'json-sse') expect(route.response).not.toBeNull();
      else expect(route.response, route.id).toBeNull();
      if (route.kind === 'empty') expect(route.status).toBe(204);
    }
  });

  it('marks the non-JSON routes: streaming chat, the CDP upgrade, pages and downloads', () => {
    const kinds = Object.fromEntries(all.map((r) => [r.id, r.kind]));
    expect(kinds).toMatchObject({
      'chat.completions.create': 'json-sse',
      'browser.sessions.cdp': 'websocket',
      'browser.connect': 'websocket',
      'browser.sessions.downloads.get': 'bytes',
      'browser.sessions.recording.html': 'html',
      'browser.sessions.live.page': 'html',
      'browser.sessions.live.frames': 'sse',
      'docs.get': 'html',
    });
    // Every API route the client calls takes the bearer key, except the replay page's signed link.
    for (const route of Object.values(ROUTES) as RouteDef[]) {
      expect(['bearer', 'bearer-or-link', 'cdp']).toContain(route.auth);
    }
  });

  it('converts templates to Hono paths and to patterns that capture each parameter', () => {
    expect(honoPath(ROUTES['browser.sessions.downloads.get'].path)).toBe(
      '/v1/browser/sessions/:session_id/downloads/:name',
    );
    const cdp = pathPattern(ROUTES['browser.sessions.cdp'].path);
    expect(cdp.exec('/v1/browser/sessions/abc/cdp')?.[1]).toBe('abc');
    expect(cdp.test('/v1/browser/sessions/abc/cdp/')).toBe(true);
    expect(cdp.test('/v1/browser/sessions/a/b/cdp')).toBe(false);
    const page = pathPattern(ROUTES['browser.sessions.recording.html'].path);
    expect(page.test('/v1/browser/sessions/x/recording.html')).toBe(true);
    // The dot is literal, not "any character".
    expect(page.test('/v1/browser/sessions/x/recordingXhtml')).toBe(false);
  });
});
