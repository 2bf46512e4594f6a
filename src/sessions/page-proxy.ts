// The page a session hands out: always the session's current page (a reconnect swaps it), and
// calls that fail because the session was lost reject with SessionError instead of the driver's
// "Target closed".
import type { SessionError } from '../errors.js';

/** How the proxy reaches the session it belongs to. */
export interface PageProxyTarget<P extends object> {
  /** The page of the current attachment. */
  current(): P;
  /** The loss error when the session is lost or its connection is down, else undefined. */
  lostError(cause: unknown): SessionError | undefined;
}

/**
 * A proxy for the session's page. Methods run on the current driver page (so drivers' private
 * fields work); a returned promise that rejects while the session is lost rejects with the
 * session's {@link SessionError} (the driver's error as `cause`). Synchronous methods are left as
 * they are: `page.url()` must not start returning promises.
 */
export function pageProxy<P extends object>(target: PageProxyTarget<P>): P {
  const wrappers = new WeakMap<object, Map<PropertyKey, unknown>>();
  return new Proxy(target.current(), {
    get(_initial, property) {
      const page = target.current();
      const value: unknown = Reflect.get(page, property, page);
      if (typeof value !== 'function') return value;
      let cache = wrappers.get(page);
      if (!cache) wrappers.set(page, (cache = new Map()));
      const known = cache.get(property);
      if (known) return known;
      const fn = value as (...args: unknown[]) => unknown;
      const wrapped = function (this: unknown, ...args: unknown[]): unknown {
        const result = fn.apply(page, args);
        if (!isPromise(result)) return result;
        return result.then(undefined, (error: unknown) => {
          throw target.lostError(error) ?? error;
        });
      };
      cache.set(property, wrapped);
      return wrapped;
    },
    set(_initial, property, value) {
      return Reflect.set(target.current(), property, value);
    },
    has(_initial, property) {
      return Reflect.has(target.current(), property);
    },
    getPrototypeOf() {
      return Reflect.getPrototypeOf(target.current());
    },
  });
}

function isPromise(value: unknown): value is Promise<unknown> {
  return value instanceof Promise;
}
