import { startPostgres, TEST_DATABASE_URL_ENV } from './postgres.js';

/**
 * vitest globalSetup: one PostgreSQL for a whole test project. Its URL reaches the test workers
 * through `SVC_TEST_DATABASE_URL` (they start after this runs), so `startPostgres()` in a worker
 * reuses it and each test server takes its own fresh database with `createDatabase()`.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  process.env[TEST_DATABASE_URL_ENV] = postgres.url;
  return () => postgres.stop();
}
