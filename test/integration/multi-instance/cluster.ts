// Two (or more) real servers on one PostgreSQL database, as behind a load balancer.
import { startPostgres } from '../../support/postgres.js';
import type { TestPostgres } from '../../support/postgres.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { KEYS } from '../browser-sessions/helpers.js';

export {
  ALICE,
  BOB,
  KEYS,
  api,
  processesMentioning,
  waitFor,
} from '../browser-sessions/helpers.js';

/** A PostgreSQL for the file (the project's when `SVC_TEST_DATABASE_URL` is set). */
export function postgres(): Promise<TestPostgres> {
  return startPostgres();
}

/** Starts `n` servers on database `databaseUrl`, all at once (their migrations race). */
export function startInstances(databaseUrl: string, n = 2): Promise<TestServer[]> {
  return Promise.all(
    Array.from({ length: n }, () =>
      startTestServer({ apiKeys: KEYS, databaseUrl, maxSessions: 4, warmPoolSize: 0 }),
    ),
  );
}

/** `url` with its origin replaced by `server`'s (the same URL sent to another instance). */
export function via(server: TestServer, url: string): string {
  const target = new URL(url);
  const base = new URL(server.url);
  target.host = base.host;
  return target.toString();
}
